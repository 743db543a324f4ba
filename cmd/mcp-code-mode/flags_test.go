package main

import (
	"strings"
	"testing"
)

// --env passes a host variable to the wrapped servers; nothing else of the
// host's environment beyond the usual base set reaches them.
func TestRunEnvFlag(t *testing.T) {
	needDocker(t)
	f := newFixture(t, "")
	code := `print(repr(await mcp_test.env(name="MCM_PASSED")), repr(await mcp_test.env(name="MCM_KEPT")))`
	env := []string{"MCM_PASSED=passed-value", "MCM_KEPT=kept-value"}
	r := f.run(t, "", env, "run", "--config", f.config, "--servers", "test", "--env", "MCM_PASSED", "-c", code)
	if r.code != 0 || r.stdout != "'passed-value' ''\n" {
		t.Errorf("exit %d stdout %q, want only MCM_PASSED passed", r.code, r.stdout)
	}
	// The program itself never sees the host's environment.
	r = f.run(t, "", env, "run", "--config", f.config, "--env", "MCM_PASSED", "-c", `import os; print(os.environ.get("MCM_PASSED"), os.environ.get("HOME"))`)
	if r.code != 0 || strings.Contains(r.stdout, "passed-value") || strings.Contains(r.stdout, f.home) {
		t.Errorf("exit %d stdout %q: the sandbox must not get host variables", r.code, r.stdout)
	}
}

// --allow and --deny limit the tools a program may call.
func TestRunAllowDenyFlags(t *testing.T) {
	needDocker(t)
	f := newFixture(t, "")
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
			args := append([]string{"run", "--config", f.config, "--servers", "test"}, tc.args...)
			r := f.run(t, "", nil, append(args, "-c", code)...)
			if r.code != 0 || !strings.HasSuffix(r.stdout, tc.want) {
				t.Errorf("exit %d stdout %q, want it to end with %q", r.code, r.stdout, tc.want)
			}
		})
	}
	t.Run("deny server", func(t *testing.T) {
		r := f.cli(t, "run", "--servers", "test", "--deny", "test", "-c", code)
		if r.code != 1 && !strings.Contains(r.stdout, "add refused") {
			t.Errorf("exit %d stdout %q: a denied server must not be callable", r.code, r.stdout)
		}
	})
}

func TestRunImageFlag(t *testing.T) {
	needDocker(t)
	f := newFixture(t, "")
	r := f.cli(t, "run", "--image", "mcm-test-no-such-image:never", "-c", "print(1)")
	if r.code != 1 || !strings.Contains(r.stderr, "mcm-test-no-such-image:never") {
		t.Errorf("exit %d stderr %q: want 1 and the missing image named", r.code, r.stderr)
	}
}

// `tools` without names lists every enabled server; one that does not
// start should not hide the others.
func TestToolsWithBrokenServer(t *testing.T) {
	f := newFixture(t, "[servers.broken]\ncommand = \"/nonexistent/server\"\n\n[servers.off]\ncommand = \"/nonexistent/server\"\ndisabled = true\n")
	r := f.cli(t, "tools")
	if !strings.Contains(r.stderr, "broken") {
		t.Errorf("stderr %q should name the server that failed", r.stderr)
	}
	if strings.Contains(r.stderr+r.stdout, `"off"`) {
		t.Errorf("the disabled server should not be started: %q", r.stderr)
	}
	if !strings.Contains(r.stdout, "async def add(") || r.code != 1 {
		t.Fatalf("`tools` with one broken server: exit %d (want 1), and the working server's tools should be listed: %q", r.code, r.stdout)
	}
}
