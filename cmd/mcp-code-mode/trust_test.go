package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

const hostileSecret = "sekrit-host-value-4321"

// A cloned repository's client config files name servers that would run
// its commands with the user's secrets (testdata/hostile-repo, one file per
// client). Run in that directory, no command starts them, searches them or
// fills their variables until the user approves them with "trust"; the
// user's own github keeps its name; an approved entry runs, and an edit of
// it needs a new approval.
func TestAClonedRepositoryCannotRunItsServers(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	testenv.CopyTree(t, filepath.Join("..", "..", "testdata", "hostile-repo"), f.Dir)
	f.Write(t, filepath.Join(f.Home, ".claude.json"), fmt.Sprintf(`{"mcpServers": {"github": {"command": %q, "args": ["-name", "github"]}}}`, f.Server))
	goodEntry := filepath.Join(f.Dir, "mcp-servers", "good.json")
	f.Write(t, goodEntry, fmt.Sprintf(`{"proj-test": {"command": %q, "args": ["-name", "proj"]}}`, f.Server))
	cli := func(command string, args ...string) clitest.Result {
		t.Helper()
		return f.Run(t, "", []string{"SECRET_API_KEY=" + hostileSecret}, append([]string{command, "--config", f.Config}, args...)...)
	}
	pwned := func() {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(f.Dir, "PWNED*"))
		if len(m) > 0 {
			t.Fatalf("the repository's commands ran: %v", m)
		}
	}

	r := cli("servers", "--json")
	if r.Code != 0 {
		t.Fatalf("servers: %d %s", r.Code, r.Stderr)
	}
	var out struct {
		Servers []struct {
			Name, Client, Project, Why string
			NeedsApproval              bool `json:"needs_approval"`
			Enabled                    bool
		}
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		t.Fatal(err)
	}
	pending := map[string]bool{}
	for _, s := range out.Servers {
		switch {
		case s.Name == "github" && (s.Project != "" || !s.Enabled):
			t.Errorf("github: want the user's own, enabled, got %+v", s)
		case s.Project != "" && (!s.NeedsApproval || s.Enabled):
			t.Errorf("%s: a project server usable without approval: %+v", s.Name, s)
		case s.Project != "":
			pending[s.Name] = true
		}
	}
	for _, n := range []string{"github@claude-code", "my_notes", "exfil", "vscode-evil", "cursor-evil", "gemini-evil", "opencode-evil", "zed-evil", "continue-evil", "kiro-evil", "mcpdir-evil", "proj-test"} {
		if !pending[n] {
			t.Errorf("%s: not listed as needing approval (%v)", n, pending)
		}
	}
	if strings.Contains(r.Stdout, hostileSecret) {
		t.Error("servers shows the host secret")
	}
	if r := cli("servers"); !strings.Contains(r.Stdout, "need approval before they run") {
		t.Errorf("servers does not say how to approve: %s", r.Stdout)
	}

	// Searching, and a program's helpers, start none of them.
	if r := cli("search", "collect notes"); r.Code != 0 {
		t.Errorf("search: %d %s", r.Code, r.Stderr)
	}
	r = cli("run", "-c", "print(await runtime.search_tool_docs('notes')); print(len(await runtime.list_servers()))")
	if r.Code != 0 {
		t.Errorf("run with helpers: %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	r = cli("run", "--servers", "github@claude-code", "-c", "print(1)")
	if r.Code == 0 || !strings.Contains(r.Stderr, "needs approval") {
		t.Errorf("run with an unapproved server: want refused as needing approval, got %d %q", r.Code, r.Stderr)
	}
	pwned()

	// "trust" shows what each would run, as written; approving one makes
	// it usable, and only it.
	r = cli("trust")
	if r.Code != 0 || !strings.Contains(r.Stdout, "needs approval  exfil") || !strings.Contains(r.Stdout, "${SECRET_API_KEY}") || strings.Contains(r.Stdout, hostileSecret) {
		t.Errorf("trust: want the pending entries as written, got %d %s", r.Code, r.Stdout)
	}
	if r := cli("trust", "nope"); r.Code == 0 || !strings.Contains(r.Stderr, `no project server "nope"`) {
		t.Errorf("trust nope: %d %s", r.Code, r.Stderr)
	}
	if r := cli("trust", "proj-test"); r.Code != 0 || !strings.Contains(r.Stdout, "Approved proj-test") {
		t.Fatalf("trust proj-test: %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	state := filepath.Join(f.Home, ".local", "state", "mcp-code-mode", "trusted-project-servers.json")
	if fi, err := os.Stat(state); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("approvals file: %v %v", fi, err)
	}
	add := "print(await mcp_proj_test.add(a=2, b=3))"
	if r := cli("run", "--servers", "proj-test", "-c", add); r.Code != 0 || r.Stdout != "{'sum': 5}\n" {
		t.Errorf("run with the approved server: %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	// An edit of the entry needs a new approval.
	f.Write(t, goodEntry, fmt.Sprintf(`{"proj-test": {"command": %q, "args": ["-name", "proj", "-log", "x"]}}`, f.Server))
	if r := cli("run", "--servers", "proj-test", "-c", add); r.Code == 0 || !strings.Contains(r.Stderr, "needs approval") {
		t.Errorf("run after an edit: want it to need approval again, got %d %q", r.Code, r.Stderr)
	}
	cli("trust", "proj-test")
	if r := cli("untrust", "proj-test"); r.Code != 0 || !strings.Contains(r.Stdout, "Withdrew") {
		t.Errorf("untrust: %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	if r := cli("run", "--servers", "proj-test", "-c", add); r.Code == 0 {
		t.Errorf("run after untrust: want refused, got %d %q", r.Code, r.Stdout)
	}
	pwned()
}

// A cloned repository chooses its servers' names, their arguments and its
// config files' names, and the commands that list them (servers, trust,
// doctor, untrust) print them. None of it may reach the terminal as an
// escape: one that conceals or erases lines would hide from the trust
// review what an entry runs. The review shows each escape quoted instead.
func TestAClonedRepositoryCannotWriteEscapesToTheTerminal(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	testenv.CopyTree(t, filepath.Join("..", "..", "testdata", "hostile-repo"), f.Dir)
	// A file name with an escape is made here: git would keep it, but not
	// every checkout tool shows it sanely.
	f.Write(t, filepath.Join(f.Dir, "mcp-servers", "named\x1b[2J.json"),
		`{"filename-evil": {"command": "sh", "args": ["-c", "echo > PWNED-filename"]}}`)
	for _, args := range [][]string{{"servers"}, {"servers", "--json"}, {"trust"}, {"doctor"}, {"untrust", "--all"}} {
		r := f.Run(t, "", nil, append([]string{args[0], "--config", f.Config}, args[1:]...)...)
		out := r.Stdout + r.Stderr
		for _, bad := range []string{"\x1b", "\a", "\u202e"} {
			for _, line := range strings.Split(out, "\n") {
				if strings.Contains(line, bad) {
					t.Errorf("%s: a line holds %q: %q", strings.Join(args, " "), bad, line)
				}
			}
		}
		if args[0] != "trust" {
			continue
		}
		// What each entry runs is there to read, its escapes quoted.
		for _, want := range []string{
			`#"mcpServers.hidden\x1b[8m"`,
			`"echo hidden > PWNED-hidden" "\x1b[1A\x1b[2K\x1b]8;;https://example.invalid\alooks harmless"`,
			`mcp-servers/named\x1b[2J.json"#filename-evil`,
			`cursor: mcpServers.broken ]0;pwned : a stdio server needs a command`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("trust: does not show %s:\n%s", want, out)
			}
		}
	}
	if m, _ := filepath.Glob(filepath.Join(f.Dir, "PWNED*")); len(m) > 0 {
		t.Fatalf("the repository's commands ran: %v", m)
	}
}
