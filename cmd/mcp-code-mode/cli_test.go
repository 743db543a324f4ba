package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

func TestRunPrints(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "run", "-c", "print(1+1)")
	if r.Code != 0 || r.Stdout != "2\n" {
		t.Fatalf("want exit 0 and stdout %q, got %d and %q (stderr %q)", "2\n", r.Code, r.Stdout, r.Stderr)
	}
	if r.Stderr != "" {
		t.Errorf("stderr should be empty, got %q", r.Stderr)
	}
}

func TestRunRaises(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "run", "-c", "print('before')\nraise ValueError('boom')")
	if r.Code != 1 {
		t.Fatalf("exit status %d, want 1", r.Code)
	}
	if r.Stdout != "before\n" {
		t.Errorf("stdout %q, want the output printed before the exception", r.Stdout)
	}
	if got := lastLine(r.Stderr); got != "ValueError: boom" {
		t.Errorf("last line of stderr %q, want %q", got, "ValueError: boom")
	}
}

func TestRunJSON(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	keys := []string{"calls", "duration_ms", "error", "exit_code", "servers", "stdout", "stopped", "truncated"}
	decode := func(t *testing.T, r clitest.Result) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal([]byte(r.Stdout), &m); err != nil {
			t.Fatalf("--json output is not JSON: %v\n%s", err, r.Stdout)
		}
		var got []string
		for k := range m {
			got = append(got, k)
		}
		slices.Sort(got)
		for _, k := range keys {
			if !slices.Contains(got, k) {
				t.Errorf("--json output lacks %q: has %v", k, got)
			}
		}
		return m
	}

	t.Run("success", func(t *testing.T) {
		r := f.CLI(t, "run", "--json", "--servers", "test", "-c", "print(await mcp_test.add(a=2, b=3))")
		if r.Code != 0 {
			t.Fatalf("exit status %d, want 0", r.Code)
		}
		m := decode(t, r)
		if m["stdout"] != "{'sum': 5}\n" || m["error"] != nil || m["truncated"] != false || m["stopped"] != false || m["calls"] != 1.0 {
			t.Errorf("unexpected result %v", m)
		}
		if s, ok := m["servers"].([]any); !ok || len(s) != 1 || s[0] != "test" {
			t.Errorf("servers %v, want [test]", m["servers"])
		}
		if d, ok := m["duration_ms"].(float64); !ok || d <= 0 {
			t.Errorf("duration_ms %v, want a positive number", m["duration_ms"])
		}
	})
	t.Run("failure", func(t *testing.T) {
		r := f.CLI(t, "run", "--json", "-c", "raise KeyError('k')")
		if r.Code != 1 {
			t.Fatalf("exit status %d, want 1", r.Code)
		}
		m := decode(t, r)
		if e, _ := m["error"].(string); !strings.Contains(e, "KeyError") {
			t.Errorf("error %v, want the KeyError", m["error"])
		}
		if s, ok := m["servers"].([]any); !ok || len(s) != 0 {
			t.Errorf("servers %v, want [] (a list, not null)", m["servers"])
		}
	})
}

func TestRunProgramSources(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	file := filepath.Join(f.Dir, "prog.py")
	f.Write(t, file, "import sys\nprint('from file', sys.version_info[0])\n")
	r := f.CLI(t, "run", file)
	if r.Code != 0 || r.Stdout != "from file 3\n" {
		t.Errorf("FILE: exit %d stdout %q, want 0 and %q", r.Code, r.Stdout, "from file 3\n")
	}
	r = f.Run(t, "print('from stdin')\nprint(6*7)\n", nil, "run", "--config", f.Config, "-")
	if r.Code != 0 || r.Stdout != "from stdin\n42\n" {
		t.Errorf("stdin: exit %d stdout %q, want 0 and %q", r.Code, r.Stdout, "from stdin\n42\n")
	}
	r = f.CLI(t, "run", filepath.Join(f.Dir, "missing.py"))
	if r.Code != 1 || !strings.Contains(r.Stderr, "missing.py") {
		t.Errorf("missing FILE: exit %d stderr %q, want 1 and a message naming the file", r.Code, r.Stderr)
	}
}

func TestRunCallsServer(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "run", "--servers", "test", "-c", "print(await mcp_test.add(a=2, b=3))")
	if r.Code != 0 || r.Stdout != "{'sum': 5}\n" {
		t.Fatalf("exit %d stdout %q, want 0 and %q", r.Code, r.Stdout, "{'sum': 5}\n")
	}
	calls := clitest.ServerCalls(t, f.Log)
	if len(calls) != 1 || calls[0].Tool != "add" || string(calls[0].Args) != `{"a":2,"b":3}` {
		t.Errorf("server saw %+v, want one add {a:2,b:3}", calls)
	}
	// Servers not named in --servers are not started and not importable.
	r = f.CLI(t, "run", "-c", "print('mcp_test' in globals())")
	if r.Code != 0 || r.Stdout != "False\n" {
		t.Errorf("without --servers: exit %d stdout %q, want mcp_test absent", r.Code, r.Stdout)
	}
}

// Needs no engine: names are resolved before a sandbox starts.
func TestRunUnknownServer(t *testing.T) {
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "run", "--servers", "nope", "-c", "print(1)")
	if r.Code != 1 {
		t.Fatalf("exit status %d, want 1", r.Code)
	}
	if !strings.Contains(r.Stderr, "nope") || !strings.Contains(r.Stderr, "test") {
		t.Errorf("stderr %q should name nope and list the configured server test", r.Stderr)
	}
	if r.Stdout != "" {
		t.Errorf("stdout %q, want nothing", r.Stdout)
	}
}

func TestRunMaxCalls(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	code := "print(await mcp_test.add(a=1, b=1))\nprint(await mcp_test.add(a=2, b=2))"
	r := f.CLI(t, "run", "--servers", "test", "--max-calls", "1", "-c", code)
	if r.Code != 1 {
		t.Fatalf("exit status %d, want 1", r.Code)
	}
	if r.Stdout != "{'sum': 2}\n" {
		t.Errorf("stdout %q, want only the first call's result", r.Stdout)
	}
	if !strings.HasPrefix(lastLine(r.Stderr), "ToolError") {
		t.Errorf("last line of stderr %q, want a ToolError", lastLine(r.Stderr))
	}
	if got := calllog.Tools(clitest.ServerCalls(t, f.Log)); len(got) != 1 {
		t.Errorf("server saw %v, want exactly one call", got)
	}
}

func TestRunTimeout(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "run", "--timeout", "2", "-c", "while True: pass")
	if r.Code != 1 {
		t.Fatalf("exit status %d, want 1", r.Code)
	}
	if r.Took > 10*time.Second {
		t.Errorf("took %v, want the run stopped at about 2s", r.Took)
	}
	if r.Took < 2*time.Second {
		t.Errorf("took %v, before the 2s timeout", r.Took)
	}
	if !strings.Contains(r.Stderr, "deadline") {
		t.Errorf("stderr %q should say the deadline stopped the run", r.Stderr)
	}
}

// The deadline from the flag and from the environment: each run sleeps past
// it and reports the deadline that stopped it.
func TestRunDeadlineSources(t *testing.T) {
	clitest.NeedEngine(t)
	cases := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"flag", nil, []string{"--deadline", "2s"}, "deadline of 2s"},
		{"env", []string{"MCP_CODE_MODE_LIMITS__DEADLINE=2s"}, nil, "deadline of 2s"},
		{"flag over env", []string{"MCP_CODE_MODE_LIMITS__DEADLINE=30s"}, []string{"--deadline", "1500ms"}, "deadline of 1.5s"},
		{"timeout under deadline", nil, []string{"--deadline", "30s", "--timeout", "1.5"}, "deadline of 1.5s"},
		{"timeout capped by deadline", nil, []string{"--deadline", "1500ms", "--timeout", "60"}, "deadline of 1.5s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := clitest.NewFixture(t, "")
			args := append([]string{"run", "--config", f.Config, "--json"}, tc.args...)
			r := f.Run(t, "", tc.env, append(args, "-c", "import time\ntime.sleep(60)")...)
			var m struct {
				Error   *string `json:"error"`
				Stopped bool    `json:"stopped"`
			}
			if err := json.Unmarshal([]byte(r.Stdout), &m); err != nil {
				t.Fatalf("exit %d, output not JSON: %v", r.Code, err)
			}
			if r.Code != 1 || m.Error == nil || !strings.Contains(*m.Error, tc.want) || !m.Stopped {
				t.Errorf("exit %d error %v stopped %v; want 1, %q, stopped", r.Code, deref(m.Error), m.Stopped, tc.want)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// maxCallsProgram makes 5 calls and prints how many succeeded; it reveals
// the effective max_calls without waiting for anything.
const maxCallsProgram = `ok = 0
for i in range(5):
    try:
        await mcp_test.noop()
        ok += 1
    except ToolError:
        pass
print(ok)`

// The precedence the README states: "Flags override the config file, which
// overrides MCP_CODE_MODE_* variables, which override the defaults."
func TestConfigPrecedence(t *testing.T) {
	clitest.NeedEngine(t)
	cases := []struct {
		name string
		file string // TOML added to the config
		env  []string
		args []string
		want string
	}{
		{"default", "", nil, nil, "5"},
		{"file", "[limits]\nmax_calls = 3\n", nil, nil, "3"},
		{"env", "", []string{"MCP_CODE_MODE_LIMITS__MAX_CALLS=2"}, nil, "2"},
		{"flag", "", nil, []string{"--max-calls", "1"}, "1"},
		{"flag over file and env", "[limits]\nmax_calls = 3\n", []string{"MCP_CODE_MODE_LIMITS__MAX_CALLS=2"}, []string{"--max-calls", "1"}, "1"},
		{"file over env", "[limits]\nmax_calls = 3\n", []string{"MCP_CODE_MODE_LIMITS__MAX_CALLS=2"}, nil, "3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := clitest.NewFixture(t, tc.file)
			args := append([]string{"run", "--config", f.Config, "--servers", "test"}, tc.args...)
			r := f.Run(t, "", tc.env, append(args, "-c", maxCallsProgram)...)
			if r.Code != 0 {
				t.Fatalf("exit status %d, want 0", r.Code)
			}
			got := strings.TrimSpace(r.Stdout)
			if got != tc.want {
				t.Errorf("effective max_calls %s, want %s", got, tc.want)
			}
		})
	}
}

// A deadline written as a bare number is not silently nanoseconds.
func TestConfigDeadlineUnits(t *testing.T) {
	clitest.NeedEngine(t)
	t.Run("file", func(t *testing.T) {
		f := clitest.NewFixture(t, "[limits]\ndeadline = 30\n")
		r := f.CLI(t, "run", "-c", "print('ok')")
		// Either it means 30 seconds, or it is refused with a message about
		// the deadline; a 30ns deadline reported as an unreachable engine is
		// neither.
		if r.Code != 0 || r.Stdout != "ok\n" {
			t.Fatalf("`deadline = 30` (seconds): exit %d, %q", r.Code, strings.TrimSpace(r.Stderr))
		}
	})
	t.Run("flag", func(t *testing.T) {
		f := clitest.NewFixture(t, "")
		r := f.CLI(t, "run", "--deadline", "30", "-c", "print('ok')")
		if r.Code != 0 || r.Stdout != "ok\n" {
			t.Fatalf("--deadline 30 (seconds): exit %d, %q", r.Code, firstLineOf(r.Stderr))
		}
	})
}

func TestRunUsageErrors(t *testing.T) {
	f := clitest.NewFixture(t, "")
	cases := []struct {
		name string
		args []string
	}{
		{"no program", []string{"run"}},
		{"unknown flag", []string{"run", "--bogus", "-c", "print(1)"}},
		{"bad flag value", []string{"run", "--max-calls", "many", "-c", "print(1)"}},
		{"two files", []string{"run", "a.py", "b.py"}},
		{"-c and a file", []string{"run", "-c", "print(1)", "a.py"}},
		{"search without query", []string{"search"}},
		{"no command", nil},
		{"unknown command", []string{"frobnicate"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := f.Run(t, "", nil, tc.args...)
			if r.Code != 2 {
				t.Errorf("exit status %d, want 2", r.Code)
			}
			if !strings.Contains(strings.ToLower(r.Stderr), "usage") && !strings.Contains(r.Stderr, "Commands:") {
				t.Errorf("stderr %q should show the usage", r.Stderr)
			}
			if r.Stdout != "" {
				t.Errorf("stdout %q, want nothing", r.Stdout)
			}
		})
	}
	t.Run("unknown command names it and lists commands", func(t *testing.T) {
		r := f.Run(t, "", nil, "frobnicate")
		for _, s := range []string{`"frobnicate"`, "serve", "run", "servers", "tools", "search", "version"} {
			if !strings.Contains(r.Stderr, s) {
				t.Errorf("stderr lacks %s: %q", s, r.Stderr)
			}
		}
	})
	t.Run("help", func(t *testing.T) {
		r := f.Run(t, "", nil, "--help")
		if r.Code != 0 || !strings.Contains(r.Stdout, "serve") {
			t.Errorf("--help: exit %d stdout %q, want 0 and the usage", r.Code, r.Stdout)
		}
		r = f.Run(t, "", nil, "run", "-h")
		if r.Code != 0 || !strings.Contains(r.Stdout, "--servers") {
			t.Errorf("run -h: exit %d stdout %q, want 0 and the flags", r.Code, r.Stdout)
		}
	})
}

const moreServers = `
[servers.off]
command = "/nonexistent/server"
disabled = true

[servers.my-tools]
command = "/nonexistent/server"
allow = ["add", "echo"]
deny = ["crash"]
`

func TestServers(t *testing.T) {
	f := clitest.NewFixture(t, moreServers)
	t.Run("text", func(t *testing.T) {
		r := f.CLI(t, "servers")
		if r.Code != 0 {
			t.Fatalf("exit status %d, want 0", r.Code)
		}
		lines := strings.Split(strings.TrimRight(r.Stdout, "\n"), "\n")
		if len(lines) != 4 || !strings.HasPrefix(lines[0], "NAME") {
			t.Fatalf("want a header and 3 rows, got %q", r.Stdout)
		}
		row := func(name string) []string {
			for _, l := range lines[1:] {
				if fs := strings.Fields(l); fs[0] == name {
					return fs
				}
			}
			t.Fatalf("no row for %s in %q", name, r.Stdout)
			return nil
		}
		test := strings.Join(row("test"), " ")
		for _, s := range []string{"test test stdio yes", f.Config + "#servers.test"} {
			if !strings.Contains(test, s) {
				t.Errorf("row %q lacks %q", test, s)
			}
		}
		if mt := strings.Join(row("my-tools"), " "); !strings.HasPrefix(mt, "my-tools my_tools stdio yes") || !strings.Contains(mt, "allow add,echo") || !strings.Contains(mt, "deny crash") {
			t.Errorf("row %q: want alias my_tools and its policy", mt)
		}
		if off := strings.Join(row("off"), " "); !strings.Contains(off, "no") || !strings.Contains(off, "disabled") {
			t.Errorf("row %q: want it shown as disabled", off)
		}
	})
	t.Run("json", func(t *testing.T) {
		r := f.CLI(t, "servers", "--json")
		if r.Code != 0 {
			t.Fatalf("exit status %d, want 0", r.Code)
		}
		var out struct {
			Servers []struct {
				Name, Alias, Module, Transport, Source, Description string
				Enabled                                             bool
				Allow, Deny                                         []string
			}
			Problems []any
		}
		if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r.Stdout)
		}
		if out.Problems == nil || len(out.Problems) != 0 {
			t.Fatalf("want an empty problems list, got %v", out.Problems)
		}
		list := out.Servers
		if len(list) != 3 {
			t.Fatalf("want 3 servers, got %+v", list)
		}
		byName := map[string]int{}
		for i, s := range list {
			byName[s.Name] = i
		}
		s := list[byName["test"]]
		if s.Alias != "test" || s.Module != "mcp_test" || s.Transport != "stdio" || !s.Enabled || s.Description != "test tools" || !strings.HasPrefix(s.Source, f.Config) {
			t.Errorf("test server: %+v", s)
		}
		if s := list[byName["off"]]; s.Enabled {
			t.Errorf("off server should be disabled: %+v", s)
		}
		if s := list[byName["my-tools"]]; s.Alias != "my_tools" || !slices.Equal(s.Allow, []string{"add", "echo"}) || !slices.Equal(s.Deny, []string{"crash"}) {
			t.Errorf("my-tools server: %+v", s)
		}
	})
	t.Run("bad config", func(t *testing.T) {
		bad := filepath.Join(f.Dir, "bad.toml")
		f.Write(t, bad, "[servers.x]\nurl = 3\ntype = \"carrier-pigeon\"\n")
		r := f.Run(t, "", nil, "servers", "--config", bad)
		if r.Code != 1 || !strings.Contains(r.Stderr, "carrier-pigeon") {
			t.Errorf("exit %d stderr %q: want 1 and the bad type named", r.Code, r.Stderr)
		}
		r = f.Run(t, "", nil, "servers", "--config", filepath.Join(f.Dir, "absent.toml"))
		if r.Code != 1 || !strings.Contains(r.Stderr, "absent.toml") {
			t.Errorf("exit %d stderr %q: want 1 and the missing file named", r.Code, r.Stderr)
		}
	})
	t.Run("default config file", func(t *testing.T) {
		// Without --config, $XDG_CONFIG_HOME/mcp-code-mode/config.toml is read.
		dir := filepath.Join(f.Home, ".config", "mcp-code-mode")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		f.Write(t, filepath.Join(dir, "config.toml"), "[servers.fromxdg]\ncommand = \"/bin/true\"\n")
		defer os.RemoveAll(dir)
		r := f.Run(t, "", nil, "servers")
		if r.Code != 0 || !strings.Contains(r.Stdout, "fromxdg") {
			t.Errorf("exit %d stdout %q: want the server of the default config file", r.Code, r.Stdout)
		}
	})
}

func TestTools(t *testing.T) {
	f := clitest.NewFixture(t, "")
	t.Run("text", func(t *testing.T) {
		r := f.CLI(t, "tools", "test")
		if r.Code != 0 {
			t.Fatalf("exit status %d, want 0", r.Code)
		}
		for _, s := range []string{"# test.add\n", "async def add(a: int, b: int)", "async def get_weather(", "async def echo(message: str"} {
			if !strings.Contains(r.Stdout, s) {
				t.Errorf("stubs lack %q", s)
			}
		}
		// The server's instructions come first, as comments.
		const instr = "# test: the server's instructions\n#   Test server for mcp-code-mode integration tests. Tools do no input validation.\n\n# "
		if !strings.HasPrefix(r.Stdout, instr) {
			t.Errorf("the output does not start with the server's instructions %q:\n%s", instr, r.Stdout)
		}
	})
	t.Run("json", func(t *testing.T) {
		r := f.CLI(t, "tools", "--json", "test")
		if r.Code != 0 {
			t.Fatalf("exit status %d, want 0", r.Code)
		}
		var docs []struct {
			Server, Tool, Py, Stub string
			InputSchema            map[string]any `json:"input_schema"`
		}
		if err := json.Unmarshal([]byte(r.Stdout), &docs); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r.Stdout)
		}
		var names []string
		for _, d := range docs {
			names = append(names, d.Tool)
			if d.Server != "test" {
				t.Errorf("doc of server %q", d.Server)
			}
			switch d.Tool {
			case "add":
				if !strings.Contains(d.Stub, "async def add(a: int, b: int)") || d.InputSchema["type"] != "object" {
					t.Errorf("add: %+v", d)
				}
			case "get-weather":
				if d.Py != "get_weather" {
					t.Errorf("get-weather: py name %q, want get_weather", d.Py)
				}
			}
		}
		for _, want := range []string{"add", "echo", "get-weather", "counter", "noop"} {
			if !slices.Contains(names, want) {
				t.Errorf("tools %v lack %s", names, want)
			}
		}
	})
	t.Run("unknown server", func(t *testing.T) {
		r := f.CLI(t, "tools", "nope")
		if r.Code != 1 || !strings.Contains(r.Stderr, "nope") {
			t.Errorf("exit %d stderr %q: want 1 and nope named", r.Code, r.Stderr)
		}
	})
}

func TestSearch(t *testing.T) {
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "search", "add")
	if r.Code != 0 {
		t.Fatalf("exit status %d, want 0", r.Code)
	}
	if !strings.HasPrefix(r.Stdout, "test.add\t") {
		t.Errorf("first result of %q, want test.add", r.Stdout)
	}
	r = f.CLI(t, "search", "--json", "--limit", "2", "weather")
	var docs []struct {
		Server, Tool, Call string
	}
	if err := json.Unmarshal([]byte(r.Stdout), &docs); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s", r.Code, err, r.Stdout)
	}
	if len(docs) == 0 || len(docs) > 2 || docs[0].Tool != "get-weather" || docs[0].Call != "await mcp_test.get_weather(...)" {
		t.Errorf("search weather --limit 2: %+v", docs)
	}
}

func TestVersion(t *testing.T) {
	f := clitest.NewFixture(t, "")
	r := f.Run(t, "", nil, "version")
	if r.Code != 0 || !regexp.MustCompile(`^mcp-code-mode v?\d+\.\d+\.\d+\S* `).MatchString(r.Stdout) {
		t.Errorf("exit %d stdout %q, want 0 and a version", r.Code, r.Stdout)
	}
}
