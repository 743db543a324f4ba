package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// Flags come before or after the arguments, as in docker, gh and kubectl:
// each command that takes arguments is run here with its flags after them.
func TestFlagsAfterArguments(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	prog := filepath.Join(f.Dir, "prog.py")
	f.Write(t, prog, "print(await mcp_test.add(a=2, b=3))\n")

	r := f.Run(t, "", nil, "search", "add two numbers", "--json", "--limit", "1", "--config", f.Config)
	var hits []struct{ Server, Tool string }
	if err := json.Unmarshal([]byte(r.Stdout), &hits); r.Code != 0 || err != nil || len(hits) != 1 || hits[0].Tool != "add" {
		t.Errorf("search QUERY --json --limit 1: exit %d, %v, %q", r.Code, err, r.Stdout)
	}
	r = f.Run(t, "", nil, "run", prog, "--servers", "test", "--config", f.Config)
	if r.Code != 0 || r.Stdout != "{'sum': 5}\n" {
		t.Errorf("run FILE --servers test: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	r = f.Run(t, "", nil, "tools", "test", "--json", "--config", f.Config)
	var docs []struct{ Tool string }
	if err := json.Unmarshal([]byte(r.Stdout), &docs); r.Code != 0 || err != nil || len(docs) == 0 {
		t.Errorf("tools SERVER --json: exit %d, %v, %q", r.Code, err, r.Stdout)
	}
	r = f.Run(t, "", nil, "trust", "--json", "--config", f.Config)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "[]" {
		t.Errorf("trust --json with no project servers: exit %d %q", r.Code, r.Stdout)
	}
	r = f.Run(t, "", nil, "install", "cursor", "--dry-run", "--json", "--config", f.Config)
	var rep struct {
		Client string
		DryRun bool
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); r.Code != 0 || err != nil || !rep.DryRun {
		t.Errorf("install CLIENT --dry-run --json: exit %d, %v, %q %q", r.Code, err, r.Stdout, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(f.Home, ".cursor", "mcp.json")); err == nil {
		t.Error("install --dry-run wrote the client's file")
	}
	r = f.Run(t, "", nil, "doctor", "--json", "--config", f.Config)
	var checks []struct {
		Check string
		OK    bool
	}
	if err := json.Unmarshal([]byte(r.Stdout), &checks); err != nil || len(checks) < 4 {
		t.Errorf("doctor --json: exit %d, %v, %q", r.Code, err, r.Stdout)
	}
	for _, c := range checks {
		if c.Check == "server test" && !c.OK {
			t.Errorf("doctor --json: the test server's check failed: %+v", c)
		}
	}
}

// Help is on stdout with a synopsis and only the command's own flags, with
// their real defaults; a misspelled command gets a suggestion; --version,
// version --json and shell completion are there.
func TestHelpVersionAndCompletion(t *testing.T) {
	f := clitest.NewFixture(t, "")
	for _, args := range [][]string{{"help", "servers"}, {"servers", "--help"}} {
		r := f.Run(t, "", nil, args...)
		if r.Code != 0 || !strings.Contains(r.Stdout, "Usage:\n  mcp-code-mode servers [flags]") || !strings.Contains(r.Stdout, "--json") {
			t.Errorf("%v: exit %d, want servers' own help on stdout: %q", args, r.Code, r.Stdout)
		}
		if strings.Contains(r.Stdout, "--timeout") || strings.Contains(r.Stdout, "--http") {
			t.Errorf("%v: the help lists flags of other commands:\n%s", args, r.Stdout)
		}
	}
	r := f.Run(t, "", nil, "run", "--help")
	for _, want := range []string{"--max-calls int       tool calls per run (default 200)", "(default 1m30s)", "-c, --code string"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("run --help lacks %q:\n%s", want, r.Stdout)
		}
	}
	r = f.Run(t, "", nil, "serach", "x")
	if r.Code != 2 || !strings.Contains(r.Stderr, "Did you mean this?\n\tsearch") {
		t.Errorf("a misspelled command: exit %d (want 2), stderr %q", r.Code, r.Stderr)
	}
	r = f.Run(t, "", nil, "servers", "extra")
	if r.Code != 2 || !strings.Contains(r.Stderr, "Usage: mcp-code-mode servers [flags]") {
		t.Errorf("servers with an argument: exit %d (want 2), stderr %q", r.Code, r.Stderr)
	}
	r = f.Run(t, "", nil, "--version")
	if r.Code != 0 || !regexp.MustCompile(`^mcp-code-mode \d+\.\d+\.\d+ \(runner [0-9a-f]{12}`).MatchString(r.Stdout) {
		t.Errorf("--version: exit %d %q", r.Code, r.Stdout)
	}
	r = f.Run(t, "", nil, "version", "--json")
	var v map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &v); r.Code != 0 || err != nil {
		t.Fatalf("version --json: exit %d, %v, %q", r.Code, err, r.Stdout)
	}
	for _, k := range []string{"version", "runner", "go", "os", "arch"} {
		if s, _ := v[k].(string); s == "" {
			t.Errorf("version --json has no %s: %v", k, v)
		}
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r = f.Run(t, "", nil, "completion", shell)
		if r.Code != 0 || !strings.Contains(r.Stdout, "mcp-code-mode") || len(r.Stdout) < 500 {
			t.Errorf("completion %s: exit %d, %d bytes", shell, r.Code, len(r.Stdout))
		}
	}
}
