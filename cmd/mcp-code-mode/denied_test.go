package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

// Calling a tool the policy denies raises ToolError naming the rule and
// where it was written, whichever rule it is; the tool is in none of the
// module's listings or docs, and the server never sees the call.
func TestADeniedToolRaisesToolErrorNamingTheRule(t *testing.T) {
	clitest.NeedEngine(t)
	// Each case configures its own fixture: extra TOML lands in [servers.test].
	tests := []struct {
		name  string
		extra string   // TOML added to [servers.test]
		top   string   // TOML put before everything (top-level keys)
		args  []string // flags of run
		env   []string
		tool  string // MCP name
		call  string // how the program calls it
		want  string // the ToolError; CONFIG stands for the config file
	}{
		{name: "--deny", args: []string{"--deny", "test.e*"}, tool: "echo", call: `mcp_test.echo(message="m")`,
			want: "test.echo is denied by --deny test.e*"},
		{name: "MCP_CODE_MODE_DENY", env: []string{"MCP_CODE_MODE_DENY=test.echo"}, tool: "echo", call: `mcp_test.echo("m")`,
			want: `test.echo is denied by MCP_CODE_MODE_DENY ("test.echo")`},
		{name: "deny list of [servers.test]", extra: `deny = ["crash", "get-*"]`, tool: "get-weather", call: `mcp_test.get_weather(city="Oslo")`,
			want: `test.get-weather is denied by the deny list of [servers.test] in CONFIG ("get-*")`},
		{name: "read_only", extra: "read_only = true", tool: "counter", call: `mcp_test.counter()`,
			want: "test.counter is denied by read_only in [servers.test] in CONFIG: it is not annotated readOnlyHint"},
		{name: "allow list of [servers.test]", extra: `allow = ["add", "noop"]`, tool: "echo", call: `mcp_test.echo({"message": "m"})`,
			want: `test.echo is denied by the allow list of [servers.test] in CONFIG ("add", "noop"), which does not name it`},
		{name: "--allow", args: []string{"--allow", "test.add"}, tool: "echo", call: `mcp_test.echo(message="m")`,
			want: "test.echo is denied by --allow test.add, which does not name it"},
		{name: "default_policy = deny", top: `default_policy = "deny"`, tool: "echo", call: `mcp_test.echo(message="m")`,
			want: `test.echo is denied by default_policy = "deny" in CONFIG: no allow list names it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := clitest.NewFixture(t, tt.extra+"\n")
			if tt.top != "" {
				cfg, err := os.ReadFile(f.Config)
				if err != nil {
					t.Fatal(err)
				}
				f.Write(t, f.Config, tt.top+"\n"+string(cfg))
			}
			py := strings.SplitN(strings.TrimPrefix(tt.call, "mcp_test."), "(", 2)[0]
			code := fmt.Sprintf(`
from mcp import runtime
print("listed:", %[1]q in dir(mcp_test))
try:
    await %[2]s
    print("CALLED")
except ToolError as e:
    print("ToolError:", e)
hits = await runtime.search_tool_docs(%[3]q, limit=50)
print("searched:", any(h["tool"] == %[3]q for h in hits))
try:
    await runtime.query_tool_docs("test", %[3]q)
    print("DOCUMENTED")
except ToolError as e:
    print("docs:", e)
try:
    await runtime.call_tool("test", %[3]q, {})
    print("CALLED")
except ToolError as e:
    print("call_tool:", e)
`, py, tt.call, tt.tool)
			args := append([]string{"run", "--config", f.Config, "--servers", "test"}, tt.args...)
			r := f.Run(t, "", tt.env, append(args, "-c", code)...)
			want := strings.ReplaceAll(tt.want, "CONFIG", f.Config)
			wantOut := "listed: False\nToolError: " + want + "\nsearched: False\ndocs: " + want + "\ncall_tool: " + want + "\n"
			if r.Code != 0 || r.Stdout != wantOut {
				t.Errorf("exit %d stdout:\n%s\nwant 0 and:\n%s", r.Code, r.Stdout, wantOut)
			}
			if got := calllog.Tools(clitest.ServerCalls(t, f.Log)); slices.Contains(got, tt.tool) {
				t.Errorf("the server saw a call of the denied tool: %v", got)
			}
		})
	}
}

// A name the server has no tool for is an AttributeError, with the closest
// tools as a suggestion; a module of a configured server the run did not
// name is a NameError that says to name it. Other NameErrors are Python's.
func TestMistakenNamesSayWhatToDo(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, fmt.Sprintf("\n[servers.other-tools]\ncommand = %q\n", filepath.Join(t.TempDir(), "never-started")))
	tests := []struct {
		name, code, servers, want string
	}{
		{"typo of a tool", `await mcp_test.ech(message="m")`, "test",
			`AttributeError: module 'mcp_test' has no tool 'ech': did you mean 'echo'? (await runtime.query_tool_docs('test') lists the tools of server 'test')`},
		{"no such tool", `await mcp_test.launch_rockets()`, "test",
			`AttributeError: module 'mcp_test' has no tool 'launch_rockets' (await runtime.query_tool_docs('test') lists the tools of server 'test')`},
		{"module of a server not named", `await mcp_test.add(a=1, b=2)`, "",
			`NameError: name 'mcp_test' is not defined: mcp_test is the module of server "test", which this run did not load: add "test" to servers (--servers with mcp-code-mode run)`},
		{"aliased module imported", `import mcp_other_tools`, "test",
			`ModuleNotFoundError: No module named 'mcp_other_tools': mcp_other_tools is the module of server "other-tools", which this run did not load: add "other-tools" to servers (--servers with mcp-code-mode run)`},
		{"another name", `print(mcp_nothing)`, "test", `NameError: name 'mcp_nothing' is not defined`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"run", "--config", f.Config}
			if tt.servers != "" {
				args = append(args, "--servers", tt.servers)
			}
			r := f.Run(t, "", nil, append(args, "-c", tt.code)...)
			if r.Code != 1 || lastLine(r.Stderr) != tt.want {
				t.Errorf("exit %d, last line of stderr:\n%s\nwant 1 and:\n%s", r.Code, lastLine(r.Stderr), tt.want)
			}
			// The traceback shows the program's frames only, not the runner's.
			if strings.Contains(r.Stderr, "runner.py") {
				t.Errorf("stderr shows the runner's frames:\n%s", r.Stderr)
			}
		})
	}
	// hasattr is False for a missing tool, as for any missing attribute.
	r := f.CLI(t, "run", "--servers", "test", "-c", `print(hasattr(mcp_test, "ech"), hasattr(mcp_test, "echo"))`)
	if r.Code != 0 || r.Stdout != "False True\n" {
		t.Errorf("hasattr: exit %d stdout %q, want False True", r.Code, r.Stdout)
	}
}
