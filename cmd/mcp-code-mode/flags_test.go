package main

import (
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// --env passes a host variable to the wrapped servers; nothing else of the
// host's environment beyond the usual base set reaches them.
func TestRunEnvFlag(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	code := `print(repr(await mcp_test.env(name="MCM_PASSED")), repr(await mcp_test.env(name="MCM_KEPT")))`
	env := []string{"MCM_PASSED=passed-value", "MCM_KEPT=kept-value"}
	r := f.Run(t, "", env, "run", "--config", f.Config, "--servers", "test", "--env", "MCM_PASSED", "-c", code)
	if r.Code != 0 || r.Stdout != "'passed-value' ''\n" {
		t.Errorf("exit %d stdout %q, want only MCM_PASSED passed", r.Code, r.Stdout)
	}
	// The program itself never sees the host's environment.
	r = f.Run(t, "", env, "run", "--config", f.Config, "--env", "MCM_PASSED", "-c", `import os; print(os.environ.get("MCM_PASSED"), os.environ.get("HOME"))`)
	if r.Code != 0 || strings.Contains(r.Stdout, "passed-value") || strings.Contains(r.Stdout, f.Home) {
		t.Errorf("exit %d stdout %q: the sandbox must not get host variables", r.Code, r.Stdout)
	}
}

// --allow and --deny limit the tools a program may call.
func TestRunAllowDenyFlags(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	code := `import sys
print(sorted(n for n in dir(mcp_test) if not n.startswith("_")))
for tool in ("add", "echo"):
    try:
        await runtime.call_tool("test", tool, {"a": 1, "b": 2} if tool == "add" else {"message": "m"})
        print(tool, "ok")
    except ToolError as e:
        print(tool, "refused")`
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"allow tool", []string{"--allow", "test.add"}, "['add']\nadd ok\necho refused\n"},
		{"deny tool", []string{"--deny", "test.echo"}, "add ok\necho refused\n"},
		{"deny wins over allow", []string{"--allow", "test.add,test.echo", "--deny", "test.e*"}, "['add']\nadd ok\necho refused\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", "--config", f.Config, "--servers", "test"}, tc.args...)
			r := f.Run(t, "", nil, append(args, "-c", code)...)
			if r.Code != 0 || !strings.HasSuffix(r.Stdout, tc.want) {
				t.Errorf("exit %d stdout %q, want it to end with %q", r.Code, r.Stdout, tc.want)
			}
		})
	}
	t.Run("deny server", func(t *testing.T) {
		r := f.CLI(t, "run", "--servers", "test", "--deny", "test", "-c", code)
		if r.Code != 1 && !strings.Contains(r.Stdout, "add refused") {
			t.Errorf("exit %d stdout %q: a denied server must not be callable", r.Code, r.Stdout)
		}
	})
}

func TestRunImageFlag(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "run", "--image", "mcm-test-no-such-image:never", "-c", "print(1)")
	if r.Code != 1 || !strings.Contains(r.Stderr, "mcm-test-no-such-image:never") {
		t.Errorf("exit %d stderr %q: want 1 and the missing image named", r.Code, r.Stderr)
	}
}

// `tools` without names lists every enabled server; one that does not
// start should not hide the others.
func TestToolsWithBrokenServer(t *testing.T) {
	f := clitest.NewFixture(t, "[servers.broken]\ncommand = \"/nonexistent/server\"\n\n[servers.off]\ncommand = \"/nonexistent/server\"\ndisabled = true\n")
	r := f.CLI(t, "tools")
	if !strings.Contains(r.Stderr, "broken") {
		t.Errorf("stderr %q should name the server that failed", r.Stderr)
	}
	if strings.Contains(r.Stderr+r.Stdout, `"off"`) {
		t.Errorf("the disabled server should not be started: %q", r.Stderr)
	}
	if !strings.Contains(r.Stdout, "async def add(") || r.Code != 1 {
		t.Fatalf("`tools` with one broken server: exit %d (want 1), and the working server's tools should be listed: %q", r.Code, r.Stdout)
	}
}
