package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// A misspelled key in the config file (readonly for read_only) is not
// ignored: every command that reads the config refuses to go on, exits 1
// and names the file, the line, the key and the key meant, on one line,
// without the values of the file.
func TestAMisspelledKeyStopsEveryCommand(t *testing.T) {
	f := clitest.NewFixture(t, "")
	bad := filepath.Join(f.Dir, "bad.toml")
	f.Write(t, bad, fmt.Sprintf("[servers.x]\ncommand = %q\nreadonly = true\nenv = { TOKEN = \"s3cr3t\" }\n", f.Server))
	want := fmt.Sprintf("%s:3:1: servers.x.readonly: unknown key (did you mean read_only?)\n", bad)
	for _, args := range [][]string{
		{"servers"}, {"servers", "--json"}, {"tools"}, {"search", "add"}, {"run", "-c", "print(1)"}, {"serve"}, {"doctor"},
		{"memory", "ls"}, {"saved-tools", "ls"},
	} {
		r := f.Run(t, "", nil, append([]string{args[0], "--config", bad}, args[1:]...)...)
		out := r.Stderr
		if args[0] == "doctor" {
			out = r.Stdout // doctor reports on stdout
		}
		if r.Code != 1 || !strings.Contains(out, want) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant exit 1 and %q", args, r.Code, r.Stdout, r.Stderr, want)
		}
		if strings.Contains(r.Stdout+r.Stderr, "s3cr3t") {
			t.Errorf("%v: a value of the file is shown: %q %q", args, r.Stdout, r.Stderr)
		}
	}
	r := f.Run(t, "", nil, "servers", "--config", bad)
	if line := strings.TrimSpace(r.Stderr); line != "mcp-code-mode servers: "+strings.TrimSpace(want) {
		t.Errorf("servers: stderr %q, want only the problem after the command's name", r.Stderr)
	}
}

// A user switching Cursor and Claude Code over to mcp-code-mode has turned
// a server off in each ("disabled": true, disabledMcpServers); disabled =
// false in [servers.NAME] of mcp-code-mode's own config turns it back on
// for mcp-code-mode, and a run can call it.
func TestDisabledFalseTurnsOnAServerItsClientTurnedOff(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	if err := os.MkdirAll(filepath.Join(f.Home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.Write(t, filepath.Join(f.Home, ".cursor", "mcp.json"), fmt.Sprintf(`{"mcpServers": {
  "cur": {"command": %q, "args": ["-name", "cur"], "disabled": true}
}}`, f.Server))
	project, err := json.Marshal(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(t, filepath.Join(f.Home, ".claude.json"), fmt.Sprintf(`{
  "mcpServers": {"cc": {"command": %q, "args": ["-name", "cc"]}},
  "projects": {%s: {"disabledMcpServers": ["cc"]}}
}`, f.Server, project))

	enabled := func() map[string]string {
		t.Helper()
		r := f.CLI(t, "servers", "--json")
		if r.Code != 0 {
			t.Fatalf("servers --json: exit %d: %s", r.Code, r.Stderr)
		}
		var out struct {
			Servers []struct {
				Name, Why string
				Enabled   bool
			}
		}
		if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, s := range out.Servers {
			got[s.Name] = "on"
			if !s.Enabled {
				got[s.Name] = "off: " + s.Why
			}
		}
		return got
	}
	add := func() clitest.Result {
		t.Helper()
		return f.CLI(t, "run", "--servers", "cur", "-c", "print(await mcp_cur.add(a=20, b=22))")
	}

	// As the clients left them: both off, each with its client's reason.
	got := enabled()
	if !strings.HasPrefix(got["cur"], "off: disabled in "+filepath.Join(f.Home, ".cursor", "mcp.json")) ||
		!strings.HasPrefix(got["cc"], "off: disabled in "+filepath.Join(f.Home, ".claude.json")) || got["test"] != "on" {
		t.Fatalf("servers as the clients configure them: %v; want cur and cc off with their clients' reasons", got)
	}
	if r := add(); r.Code == 0 || !strings.Contains(r.Stderr, `"cur" is disabled`) {
		t.Fatalf("a run called a server its client turned off: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}

	// disabled = false turns both on; the rest of the entry is the client's.
	config, err := os.ReadFile(f.Config)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(t, f.Config, string(config)+"\n[servers.cur]\ndisabled = false\n\n[servers.cc]\ndisabled = false\n")
	if got := enabled(); got["cur"] != "on" || got["cc"] != "on" || got["test"] != "on" {
		t.Fatalf("with disabled = false: %v; want cur and cc on", got)
	}
	if r := add(); r.Code != 0 || r.Stdout != "{'sum': 42}\n" {
		t.Fatalf("run with the server turned back on: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
}
