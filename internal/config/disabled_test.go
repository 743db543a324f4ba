package config

import (
	"testing"
)

// disabled in [servers.NAME] has three states: true turns the discovered
// server off, false turns it on even though its client turned it off (a
// user switching that client over to mcp-code-mode), absent leaves the
// client's flag. A server that cannot be used as its client wrote it (a
// value only VS Code can supply), or that comes from a project the user
// has not approved, stays off whatever the file says.
func TestMergeDisabledOverridesTheClientsFlag(t *testing.T) {
	const src = "/etc/mcm.toml"
	on := Server{Name: "s", Transport: TransportStdio, Command: "x", Source: "cursor.json#mcpServers.s"}
	off := on
	off.Disabled, off.Why = true, "disabled in cursor.json"
	blocked := on
	blocked.Disabled, blocked.Why, blocked.Blocked = true, "disabled in vscode.json", `needs the VS Code input "t"`
	untrusted := on
	untrusted.Disabled, untrusted.Why, untrusted.Untrusted, untrusted.Project = true, "disabled in /repo/.cursor/mcp.json", true, "/repo"
	tests := []struct {
		name       string
		discovered Server
		disabled   *bool
		wantOff    bool
		wantWhy    string
	}{
		{"off in the client, false here", off, new(false), false, ""},
		{"off in the client, absent here", off, nil, true, "disabled in cursor.json"},
		{"off in the client, true here", off, new(true), true, "disabled in " + src},
		{"on in the client, true here", on, new(true), true, "disabled in " + src},
		{"on in the client, false here", on, new(false), false, ""},
		{"on in the client, absent here", on, nil, false, ""},
		{"blocked, false here", blocked, new(false), true, `needs the VS Code input "t"`},
		{"blocked, true here", blocked, new(true), true, "disabled in " + src},
		{"not approved, false here", untrusted, new(false), true, `needs approval ("mcp-code-mode trust" in /repo) before disabled = false in ` + src + " can turn it on"},
		{"not approved, absent here", untrusted, nil, true, "disabled in /repo/.cursor/mcp.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Default()
			cfg.Servers = map[string]ServerConfig{"s": {Disabled: tt.disabled, Deny: []string{"rm"}}}
			got, err := cfg.Merge(src, []Server{tt.discovered})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("Merge = %+v, want the one server", got)
			}
			s := got[0]
			if s.Disabled != tt.wantOff || s.Why != tt.wantWhy || s.Command != "x" || s.Source != on.Source || len(s.Deny) != 1 {
				t.Errorf("Merge: Disabled %v, Why %q (%+v)\nwant Disabled %v, Why %q, the client's entry with the deny list", s.Disabled, s.Why, s, tt.wantOff, tt.wantWhy)
			}
		})
	}
}

// The three states survive loading, in every format.
func TestLoadKeepsDisabledUnsetFalseOrTrue(t *testing.T) {
	for _, tt := range []struct{ file, content string }{
		{"c.toml", "[servers.unset]\ndeny = [\"x\"]\n[servers.on]\ndisabled = false\n[servers.off]\ndisabled = true\n"},
		{"c.yaml", "servers:\n  unset: {deny: [x]}\n  on: {disabled: false}\n  off: {disabled: true}\n"},
		{"c.json", `{"servers": {"unset": {"deny": ["x"]}, "on": {"disabled": false}, "off": {"disabled": true}}}`},
	} {
		cfg, err := Load(writeConfig(t, tt.file, tt.content), nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		unset, on, off := cfg.Servers["unset"].Disabled, cfg.Servers["on"].Disabled, cfg.Servers["off"].Disabled
		if unset != nil || on == nil || *on || off == nil || !*off {
			t.Errorf("%s: disabled unset %v, false %v, true %v; want nil, false, true", tt.file, unset, on, off)
		}
	}
}
