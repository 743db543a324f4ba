package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// On a fresh home with nothing configured, servers says so, and where it
// looked: the client files (those present marked) and this program's own
// config file; its JSON stays JSON with empty lists.
func TestServersWithNothingConfiguredSaysWhereItLooked(t *testing.T) {
	f := clitest.NewFixture(t, "")
	ownConfig := filepath.Join(f.Home, ".config", "mcp-code-mode", "config.toml")
	claude := filepath.Join(f.Home, ".claude.json")

	r := f.Run(t, "", nil, "servers") // no --config: the fixture's file is not read
	if r.Code != 0 {
		t.Fatalf("exit %d, want 0", r.Code)
	}
	for _, want := range []string{
		"No MCP server is configured.\n",
		"Looked in ",
		filepath.Join(f.Home, ".codex", "config.toml"),
		filepath.Join(f.Dir, ".vscode", "mcp.json"),
		"This program's config file, " + ownConfig + ", does not exist.\n",
		`Add a server to it as [servers.NAME] with a command or a url (see "Use it" in the README)`,
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.Stdout)
		}
	}
	if !regexp.MustCompile(`(?m)^  claude-code\s+` + regexp.QuoteMeta(claude) + `$`).MatchString(r.Stdout) {
		t.Errorf("~/.claude.json is not listed as looked at (and not present):\n%s", r.Stdout)
	}
	if strings.Contains(r.Stdout, "NAME\tALIAS") || strings.Contains(r.Stdout, "NAME  ALIAS") {
		t.Errorf("an empty table was printed:\n%s", r.Stdout)
	}

	// A client file that exists but configures nothing is marked; a config
	// file of this program without servers is named as such.
	f.Write(t, claude, `{"mcpServers": {}}`)
	empty := filepath.Join(f.Dir, "empty.toml")
	f.Write(t, empty, "[limits]\nmax_calls = 3\n")
	r = f.Run(t, "", nil, "servers", "--config", empty)
	if !regexp.MustCompile(`(?m)^  claude-code\s+` + regexp.QuoteMeta(claude) + `\s+exists$`).MatchString(r.Stdout) {
		t.Errorf("the existing ~/.claude.json is not marked:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stdout, "This program's config file, "+empty+", has no [servers.NAME] entry.\n") {
		t.Errorf("stdout does not say the config file has no server:\n%s", r.Stdout)
	}

	r = f.Run(t, "", nil, "servers", "--no-discovery")
	if !strings.Contains(r.Stdout, "MCP clients' config files were not read (--no-discovery") || strings.Contains(r.Stdout, claude) {
		t.Errorf("with --no-discovery, want it to say the client files were not read:\n%s", r.Stdout)
	}

	r = f.Run(t, "", nil, "servers", "--json")
	var out map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		t.Fatalf("--json: not JSON: %v\n%s", err, r.Stdout)
	}
	if s, ok := out["servers"].([]any); !ok || len(s) != 0 {
		t.Errorf("--json servers = %v, want []", out["servers"])
	}
	if p, ok := out["problems"].([]any); !ok || len(p) != 0 {
		t.Errorf("--json problems = %v, want []", out["problems"])
	}
}

// A search that finds nothing says so, and what it searched: how many tools
// of how many servers, and which servers it left out because they did not
// start. --json stays an empty list.
func TestSearchWithoutAHitSaysWhatItSearched(t *testing.T) {
	f := clitest.NewFixture(t, "")
	var tools []any
	r := f.CLI(t, "tools", "--json", "test")
	if err := json.Unmarshal([]byte(r.Stdout), &tools); err != nil || len(tools) == 0 {
		t.Fatalf("tools --json: %v\n%s", err, r.Stdout)
	}

	r = f.CLI(t, "search", "qwxzv")
	want := `No tool matches "qwxzv": searched ` + strconv.Itoa(len(tools)) + " tools of 1 server.\n"
	if r.Code != 0 || r.Stdout != want {
		t.Errorf("exit %d stdout %q, want 0 and %q", r.Code, r.Stdout, want)
	}
	r = f.CLI(t, "search", "--json", "qwxzv")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "[]" {
		t.Errorf("--json: exit %d stdout %q, want 0 and []", r.Code, r.Stdout)
	}

	broken := filepath.Join(f.Dir, "broken.toml")
	data, err := os.ReadFile(f.Config)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(t, broken, string(data)+"\n[servers.broken]\ncommand = \""+filepath.Join(f.Dir, "no-such-server")+"\"\n")
	r = f.Run(t, "", nil, "search", "--config", broken, "qwxzv")
	for _, w := range []string{want, "Left out, as they did not start: broken (\"mcp-code-mode doctor\" says why).\n"} {
		if !strings.Contains(r.Stdout, w) {
			t.Errorf("with a server that does not start: stdout %q lacks %q", r.Stdout, w)
		}
	}

	nothing := filepath.Join(f.Dir, "nothing.toml")
	f.Write(t, nothing, "")
	r = f.Run(t, "", nil, "search", "--config", nothing, "--no-discovery", "qwxzv")
	for _, w := range []string{`No tool matches "qwxzv": searched 0 tools of 0 servers.`, `No server is configured: "mcp-code-mode servers" says where it looked.`} {
		if !strings.Contains(r.Stdout, w) {
			t.Errorf("with no server: stdout %q lacks %q", r.Stdout, w)
		}
	}
}

// tools with nothing enabled, or a server whose lists leave no tool, says
// so instead of printing nothing; its JSON stays an empty list.
func TestToolsWithNothingToListSaysWhy(t *testing.T) {
	f := clitest.NewFixture(t, "")
	nothing := filepath.Join(f.Dir, "nothing.toml")
	f.Write(t, nothing, "[limits]\nmax_calls = 3\n")
	r := f.Run(t, "", nil, "tools", "--config", nothing, "--no-discovery")
	if r.Code != 0 || !strings.Contains(r.Stdout, `No server is enabled: "mcp-code-mode servers" says where it looked`) {
		t.Errorf("tools with no server: exit %d, stdout %q", r.Code, r.Stdout)
	}
	r = f.Run(t, "", nil, "tools", "--json", "--config", nothing, "--no-discovery")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "[]" {
		t.Errorf("tools --json with no server: exit %d, stdout %q, want []", r.Code, r.Stdout)
	}
	denied := filepath.Join(f.Dir, "denied.toml")
	f.Write(t, denied, "[servers.test]\ncommand = "+strconv.Quote(clitest.TestServer())+"\ndeny = [\"*\"]\n")
	r = f.Run(t, "", nil, "tools", "--config", denied, "--no-discovery")
	if r.Code != 0 || !strings.Contains(r.Stdout, "No tool is allowed on test:") {
		t.Errorf("tools with every tool denied: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
}
