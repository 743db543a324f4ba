package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// Servers configured for MCP clients in a (fake) HOME and project are
// found, a broken client file is reported without stopping the others, and
// the program's own config can exclude them or turn discovery off.
func TestDiscoveredServers(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	claude := filepath.Join(f.Home, ".config", "Claude", "claude_desktop_config.json")
	if err := os.MkdirAll(filepath.Dir(claude), 0o755); err != nil {
		t.Fatal(err)
	}
	f.Write(t, claude, fmt.Sprintf(`{"mcpServers": {
  "desk": {"command": %q, "args": ["-name", "desk"]},
  "myself": {"command": "mcp-code-mode", "args": ["serve"]}
}}`, f.Server))
	if err := os.MkdirAll(filepath.Join(f.Home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.Write(t, filepath.Join(f.Home, ".cursor", "mcp.json"), "{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"y\",,}\n}")
	f.Write(t, filepath.Join(f.Dir, ".mcp.json"), fmt.Sprintf(`{"mcpServers": {"proj": {"command": %q, "args": ["-name", "proj"]}}}`, f.Server))

	list := func(extra ...string) ([]string, []map[string]any) {
		t.Helper()
		r := f.CLI(t, "servers", append([]string{"--json"}, extra...)...)
		if r.Code != 0 {
			t.Fatalf("servers: exit %d: %s", r.Code, r.Stderr)
		}
		var out struct {
			Servers []struct {
				Name, Source, Client string
			}
			Problems []map[string]any
		}
		if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range out.Servers {
			names = append(names, s.Name)
		}
		return names, out.Problems
	}
	names, problems := list()
	if !slices.Equal(names, []string{"desk", "proj", "test"}) {
		t.Fatalf("servers %v, want desk (Claude Desktop), proj (.mcp.json, listed as needing approval), test (config)", names)
	}
	// The broken Cursor file is a problem; this program's own entry (the
	// one a user adds to switch a client over) is expected, and is not.
	var cursorBroken bool
	for _, p := range problems {
		path, _ := p["path"].(string)
		if strings.HasSuffix(path, ".cursor/mcp.json") && p["line"] != nil {
			cursorBroken = true
		}
		if strings.Contains(fmt.Sprint(p), "myself") || strings.Contains(fmt.Sprint(p), "mcp-code-mode itself") {
			t.Errorf("this program's own entry reported as a problem: %v", p)
		}
	}
	if !cursorBroken {
		t.Fatalf("problems %v: want the broken Cursor file (with its line)", problems)
	}
	r := f.CLI(t, "run", "--servers", "desk", "-c", "print(await mcp_desk.add(a=20, b=22))")
	if r.Code != 0 || r.Stdout != "{'sum': 42}\n" {
		t.Fatalf("run with a discovered server: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := f.CLI(t, "trust", "proj"); r.Code != 0 {
		t.Fatalf("trust proj: %d %s", r.Code, r.Stderr)
	}
	if r := f.CLI(t, "run", "--servers", "proj", "-c", "print(await mcp_proj.add(a=1, b=1))"); r.Code != 0 || r.Stdout != "{'sum': 2}\n" {
		t.Fatalf("run with the approved project server: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	if names, _ := list("--no-discovery"); !slices.Equal(names, []string{"test"}) {
		t.Fatalf("--no-discovery: %v", names)
	}
	f.Write(t, f.Config, fmt.Sprintf("[servers.test]\ncommand = %q\n[servers.desk]\ndeny = [\"add\"]\n[discovery]\nexclude = [\"proj\"]\nskip = [\"cursor\"]\n", f.Server))
	names, problems = list()
	if !slices.Equal(names, []string{"desk", "test"}) {
		t.Fatalf("with exclude: %v", names)
	}
	for _, p := range problems {
		if strings.Contains(fmt.Sprint(p["path"]), ".cursor") {
			t.Fatalf("skipped client still read: %v", p)
		}
	}
}
