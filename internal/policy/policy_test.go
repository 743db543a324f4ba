package policy

import (
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

func TestPolicyAllowed(t *testing.T) {
	gh := config.Server{Name: "github"}
	dashed := config.Server{Name: "my-server"} // alias my_server
	ghReadOnly := config.Server{Name: "github", Allow: []string{"read_*", "list_*"}}
	ghNoWrite := config.Server{Name: "github", Deny: []string{"write_*"}}
	ghAllDenyDel := config.Server{Name: "github", Allow: []string{"*"}, Deny: []string{"delete_*"}}
	dotted := config.Server{Name: "io.example.remote"} // alias io_example_remote

	tests := []struct {
		name   string
		policy Policy
		srv    config.Server
		alias  string
		tool   string
		want   bool
	}{
		{"no policy allows all", Policy{}, gh, "github", "write_file", true},

		{"server allow glob matches", Policy{}, ghReadOnly, "github", "read_file", true},
		{"server allow second glob matches", Policy{}, ghReadOnly, "github", "list_repos", true},
		{"server allow glob does not match", Policy{}, ghReadOnly, "github", "write_file", false},
		{"server deny glob matches", Policy{}, ghNoWrite, "github", "write_file", false},
		{"server deny glob does not match", Policy{}, ghNoWrite, "github", "read_file", true},
		{"server deny beats server allow", Policy{}, ghAllDenyDel, "github", "delete_repo", false},
		{"server allow star", Policy{}, ghAllDenyDel, "github", "read_file", true},

		{"global allow by server name", Policy{Allow: []string{"github"}}, gh, "github", "anything", true},
		{"global allow names another server", Policy{Allow: []string{"slack"}}, gh, "github", "read_file", false},
		{"global allow by alias", Policy{Allow: []string{"my_server"}}, dashed, "my_server", "t", true},
		{"global allow by name of aliased server", Policy{Allow: []string{"my-server"}}, dashed, "my_server", "t", true},
		{"global allow server.toolglob matches", Policy{Allow: []string{"github.read_*"}}, gh, "github", "read_file", true},
		{"global allow server.toolglob no match", Policy{Allow: []string{"github.read_*"}}, gh, "github", "write_file", false},
		{"global allow alias.toolglob", Policy{Allow: []string{"my_server.get_*"}}, dashed, "my_server", "get_x", true},
		{"global allow name.toolglob of aliased server", Policy{Allow: []string{"my-server.get_*"}}, dashed, "my_server", "get_x", true},
		{"global allow dotted name.toolglob", Policy{Allow: []string{"io.example.remote.get_*"}}, dotted, "io_example_remote", "get_x", true},
		{"global allow glob over servers", Policy{Allow: []string{"*.read_*"}}, gh, "github", "read_file", true},
		{"global allow exact tool", Policy{Allow: []string{"github.read_file"}}, gh, "github", "read_files", false},

		{"global deny by server name", Policy{Deny: []string{"github"}}, gh, "github", "read_file", false},
		{"global deny by alias", Policy{Deny: []string{"my_server"}}, dashed, "my_server", "t", false},
		{"global deny server.toolglob", Policy{Deny: []string{"github.write_*"}}, gh, "github", "write_file", false},
		{"global deny server.toolglob leaves others", Policy{Deny: []string{"github.write_*"}}, gh, "github", "read_file", true},
		{"global deny beats global allow of server", Policy{Allow: []string{"github"}, Deny: []string{"github"}}, gh, "github", "read_file", false},
		{"global deny tool beats global allow server", Policy{Allow: []string{"github"}, Deny: []string{"github.delete_*"}}, gh, "github", "delete_repo", false},
		{"global deny beats server allow", Policy{Deny: []string{"github.read_secret"}}, ghReadOnly, "github", "read_secret", false},
		{"global allow cannot undo server deny", Policy{Allow: []string{"github.write_*"}}, ghNoWrite, "github", "write_file", false},
		{"global allow cannot undo server allow list", Policy{Allow: []string{"github"}}, ghReadOnly, "github", "write_file", false},

		{"bad server allow glob allows nothing", Policy{}, config.Server{Name: "s", Allow: []string{"[read"}}, "s", "[read", false},
		{"bad global allow glob allows nothing", Policy{Allow: []string{"s.[x"}}, config.Server{Name: "s"}, "s", "[x", false},
		{"bad global allow glob, tool named like it", Policy{Allow: []string{"s.\\"}}, config.Server{Name: "s"}, "s", "\\", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.policy.Allowed(tt.srv, tt.alias, tt.tool, false); got != tt.want {
				t.Errorf("Policy{Allow:%q Deny:%q}.Allowed(server %q allow=%q deny=%q, alias %q, tool %q) = %v, want %v",
					tt.policy.Allow, tt.policy.Deny, tt.srv.Name, tt.srv.Allow, tt.srv.Deny, tt.alias, tt.tool, got, tt.want)
			}
		})
	}
}

// A deny glob must deny every tool name it is meant to cover; path.Match's
// "*" stops at "/", so a tool whose name contains "/" escapes "*" globs.
func TestPolicyDenyGlobCoversSlashInToolName(t *testing.T) {
	tests := []struct {
		name   string
		policy Policy
		srv    config.Server
	}{
		{"server deny star", Policy{}, config.Server{Name: "s", Deny: []string{"*"}}},
		{"global deny server.star", Policy{Deny: []string{"s.*"}}, config.Server{Name: "s"}},
		{"global deny star.admin", Policy{Deny: []string{"*.admin*"}}, config.Server{Name: "s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.policy.Allowed(tt.srv, "s", "admin/delete_all", false) {
				t.Errorf("tool %q is allowed although the deny pattern should cover it", "admin/delete_all")
			}
		})
	}
}

func TestPolicyReadOnlyAndDefaultDeny(t *testing.T) {
	srv := config.Server{Name: "s"}
	ro := config.Server{Name: "s", ReadOnly: true}
	allowing := config.Server{Name: "s", Allow: []string{"get_*"}}
	tests := []struct {
		name     string
		p        Policy
		srv      config.Server
		tool     string
		readOnly bool
		want     bool
	}{
		{"default allows", Policy{}, srv, "delete", false, true},
		{"read-only server refuses a writer", Policy{}, ro, "delete", false, false},
		{"read-only server allows a reader", Policy{}, ro, "get", true, true},
		{"default deny refuses unnamed", Policy{DefaultDeny: true}, srv, "get", true, false},
		{"default deny allows the server's allow list", Policy{DefaultDeny: true}, allowing, "get_x", false, true},
		{"default deny allows a global allow", Policy{DefaultDeny: true, Allow: []string{"s.get"}}, srv, "get", false, true},
		{"default deny still refuses outside the allow list", Policy{DefaultDeny: true}, allowing, "put_x", false, false},
	}
	for _, tt := range tests {
		if got := tt.p.Allowed(tt.srv, tt.srv.Name, tt.tool, tt.readOnly); got != tt.want {
			t.Errorf("%s: Allowed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Denial names the rule that refuses a tool and where it was written, in
// the words the program's ToolError uses; the first rule that refuses wins.
func TestPolicyDenialNamesTheRuleAndWhereItWasWritten(t *testing.T) {
	const file = "/home/u/.config/mcp-code-mode/config.toml"
	mem := config.Server{Name: "memory", Source: "/home/u/.claude.json#mcpServers.memory"}
	table := func(s config.Server) config.Server { s.PolicyFrom = "[servers.memory] in " + file; return s }
	withDeny, withAllow, readOnly := mem, mem, mem
	withDeny.Deny = []string{"read_*", "delete_*"}
	withAllow.Allow = []string{"read_graph", "search_*"}
	readOnly.ReadOnly = true
	cmdLine := config.Server{Name: "memory", Deny: []string{"delete_*"}, Allow: []string{"delete_*", "read_graph"}, PolicyFrom: config.CommandLine}
	cmdLineAllow := config.Server{Name: "memory", Allow: []string{"read_graph"}, PolicyFrom: config.CommandLine}

	tests := []struct {
		name     string
		p        Policy
		srv      config.Server
		readOnly bool
		want     string
	}{
		{"allowed", Policy{}, mem, false, ""},
		{"--deny", Policy{Deny: []string{"other", "memory.delete_*"}, DenyFrom: "--deny"}, mem, false,
			"by --deny memory.delete_*"},
		{"deny in the config file", Policy{Deny: []string{"memory.delete_*"}, DenyFrom: file}, mem, false,
			`by the deny list in ` + file + ` ("memory.delete_*")`},
		{"deny from the environment", Policy{Deny: []string{"memory"}, DenyFrom: "MCP_CODE_MODE_DENY"}, mem, false,
			`by MCP_CODE_MODE_DENY ("memory")`},
		{"deny of unknown origin", Policy{Deny: []string{"*.delete_*"}}, mem, false,
			`by the deny list ("*.delete_*")`},
		{"the server's deny list in the config file", Policy{}, table(withDeny), false,
			`by the deny list of [servers.memory] in ` + file + ` ("delete_*")`},
		{"the server's deny list in a client's entry", Policy{}, withDeny, false,
			`by the deny list of the entry /home/u/.claude.json#mcpServers.memory ("delete_*")`},
		{"the server's deny list wins over the global one", Policy{Deny: []string{"memory.delete_*"}, DenyFrom: "--deny"}, table(withDeny), false,
			`by the deny list of [servers.memory] in ` + file + ` ("delete_*")`},
		{"serve --deny", Policy{}, cmdLine, false, "by --deny delete_*"},
		{"serve --allow", Policy{}, cmdLineAllow, false, "by --allow read_graph, which does not name it"},
		{"read_only", Policy{}, table(readOnly), false,
			"by read_only in [servers.memory] in " + file + ": it is not annotated readOnlyHint"},
		{"read_only lets a reader through", Policy{}, table(readOnly), true, ""},
		{"the server's allow list", Policy{}, table(withAllow), false,
			`by the allow list of [servers.memory] in ` + file + ` ("read_graph", "search_*"), which does not name it`},
		{"--allow", Policy{Allow: []string{"github", "memory.read_*"}, AllowFrom: "--allow"}, mem, false,
			"by --allow github,memory.read_*, which does not name it"},
		{"allow in the config file", Policy{Allow: []string{"github"}, AllowFrom: file}, mem, false,
			`by the allow list in ` + file + ` ("github"), which does not name it`},
		{"default_policy in the config file", Policy{DefaultDeny: true, DefaultFrom: file}, mem, false,
			`by default_policy = "deny" in ` + file + `: no allow list names it`},
		{"default_policy from the environment", Policy{DefaultDeny: true, DefaultFrom: "MCP_CODE_MODE_DEFAULT_POLICY"}, mem, false,
			`by default_policy = "deny" (MCP_CODE_MODE_DEFAULT_POLICY): no allow list names it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.p.Denial(tt.srv, "memory", "delete_entities", tt.readOnly)
			if got != tt.want {
				t.Errorf("Denial = %q\nwant     %q", got, tt.want)
			}
			if allowed := tt.p.Allowed(tt.srv, "memory", "delete_entities", tt.readOnly); allowed != (tt.want == "") {
				t.Errorf("Allowed = %v, but Denial = %q", allowed, got)
			}
		})
	}
}
