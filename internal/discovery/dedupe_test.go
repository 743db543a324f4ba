package discovery

import (
	"slices"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

func TestDedupe(t *testing.T) {
	stdio := func(name, client, cmd string, args ...string) config.Server {
		return config.Server{Name: name, Client: client, Transport: config.TransportStdio, Command: cmd, Args: args, Source: client + "#" + name}
	}
	remote := func(name, client, tr, url string) config.Server {
		return config.Server{Name: name, Client: client, Transport: tr, URL: url, Source: client + "#" + name}
	}
	withDeny := func(s config.Server, deny ...string) config.Server { s.Deny = deny; return s }
	withEnv := func(s config.Server, k, v string) config.Server { s.Env = map[string]string{k: v}; return s }
	withCwd := func(s config.Server, dir string) config.Server { s.Cwd = dir; return s }
	withHeader := func(s config.Server, k, v string) config.Server { s.Headers = map[string]string{k: v}; return s }
	withTokenEnv := func(s config.Server, name string) config.Server { s.BearerTokenEnv = name; return s }
	tests := []struct {
		name string
		in   []config.Server
		want []string // "name client alsoIn..."
	}{
		{"same command and args merge, first kept",
			[]config.Server{stdio("gh", "a", "npx", "gh"), stdio("github", "b", "npx", "gh"), stdio("x", "c", "npx", "gh")},
			[]string{"gh a b#github c#x"}},
		{"different args are different servers",
			[]config.Server{stdio("gh", "a", "npx", "gh"), stdio("gh", "b", "npx", "gh", "--ro")},
			[]string{"gh a", "gh@b b"}},
		{"renames collide deterministically",
			[]config.Server{stdio("s", "a", "1"), stdio("s", "b", "2"), stdio("s", "b", "3"), stdio("s", "b", "4"), stdio("s@b", "c", "5")},
			[]string{"s a", "s@b b", "s@b-2 b", "s@b-3 b", "s@b@c c"}},
		{"remote by URL whatever the transport or name",
			[]config.Server{remote("r", "a", config.TransportHTTP, "https://x/mcp"), remote("q", "b", config.TransportSSE, "https://x/mcp"), remote("r", "c", config.TransportHTTP, "https://y/mcp")},
			[]string{"r a b#q", "r@c c"}},
		{"one command with another account's token is another server",
			[]config.Server{withEnv(stdio("gh", "a", "npx", "gh"), "TOKEN", "alice"), withEnv(stdio("gh", "b", "npx", "gh"), "TOKEN", "bob"), withEnv(stdio("gh", "c", "npx", "gh"), "TOKEN", "alice")},
			[]string{"gh a c#gh", "gh@b b"}},
		{"a variable only one entry sets does not split them",
			[]config.Server{stdio("fetch", "a", "uvx", "fetch"), withEnv(stdio("fetch", "b", "uvx", "fetch"), "LOG_LEVEL", "info")},
			[]string{"fetch a b#fetch"}},
		{"one command in another directory is another server",
			[]config.Server{stdio("fs", "a", "fs-server"), withCwd(stdio("fs", "b", "fs-server"), "/other")},
			[]string{"fs a", "fs@b b"}},
		{"one URL with other credentials is another server",
			[]config.Server{withHeader(remote("r", "a", config.TransportHTTP, "https://x/mcp"), "Authorization", "Bearer 1"), withHeader(remote("r", "b", config.TransportHTTP, "https://x/mcp"), "Authorization", "Bearer 2"), withTokenEnv(remote("r", "c", config.TransportHTTP, "https://x/mcp"), "X_TOKEN")},
			[]string{"r a", "r@b b", "r@c c"}},
		{"a stdio and a remote never merge",
			[]config.Server{stdio("s", "a", "https://x"), remote("s", "b", config.TransportHTTP, "https://x")},
			[]string{"s a", "s@b b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range dedupe(tt.in) {
				g := s.Name + " " + s.Client
				for _, a := range s.AlsoIn {
					g += " " + a
				}
				got = append(got, g)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}

	out := dedupe([]config.Server{withDeny(stdio("s", "a", "x"), "d1"), withDeny(stdio("s", "b", "x"), "d2", "d1")})
	if len(out) != 1 || !slices.Equal(out[0].Deny, []string{"d1", "d2"}) {
		t.Errorf("deny lists of duplicates: got %+v, want merged [d1 d2]", out)
	}
	first := withEnv(stdio("s", "a", "x"), "A", "1")
	out = dedupe([]config.Server{first, withEnv(stdio("s", "b", "x"), "B", "2")})
	if len(out) != 1 || out[0].Env["A"] != "1" || out[0].Env["B"] != "2" || len(first.Env) != 1 {
		t.Errorf("variables of duplicates: got %+v, want A and B, and the input left alone", out)
	}
}

func TestLaunchesSelf(t *testing.T) {
	self := []string{"/opt/bin/mcp-code-mode", "/usr/local/bin/cm"}
	tests := []struct {
		cmd  string
		args []string
		want bool
	}{
		{"mcp-code-mode", nil, true},
		{"/somewhere/else/mcp-code-mode", []string{"serve"}, true},
		{`C:\tools\mcp-code-mode.exe`, nil, true},
		{"/usr/local/bin/cm", nil, true},
		{"cm", nil, true}, // base name of a Self path
		{"npx", []string{"-y", "mcp-code-mode@latest", "serve"}, true},
		{"npx", []string{"-y", "@acme/mcp-code-mode@1.2.3"}, true},
		{"uvx", []string{"--from", "git+https://github.com/x/mcp-code-mode", "mcp-code-mode"}, true},
		{"go", []string{"run", "github.com/mcp-code-mode/mcp-code-mode/cmd/mcp-code-mode@latest"}, true},
		{"npx", []string{"-y", "@modelcontextprotocol/server-github"}, false},
		{"node", []string{"mcp-code-mode"}, false}, // not a launcher: a script argument
		{"mcp-code-mode-helper", nil, false},
		{"docker", []string{"run", "mcp-code-mode"}, false},
		{"", nil, false},
	}
	for _, tt := range tests {
		if got := launchesSelf(tt.cmd, tt.args, self); got != tt.want {
			t.Errorf("launchesSelf(%q, %q) = %v, want %v", tt.cmd, tt.args, got, tt.want)
		}
	}
}
