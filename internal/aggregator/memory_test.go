package aggregator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/state"
)

// runIn runs code in namespace ns.
func runIn(t *testing.T, a *Aggregator, ns, code string) Result {
	t.Helper()
	return runRequest(t, a, Request{Code: code, Namespace: ns})
}

// The memory helpers, plain and async: what one run saves the next loads,
// with its metadata, times and version; deletes, existence and listings.
func TestMemoryHelpersKeepValuesBetweenRuns(t *testing.T) {
	clitest.NeedEngine(t)
	a := newAgg(t, nil)
	res := run(t, a, `
save_memory("notes", {"todo": ["write tests"], "done": 0, "word": "café"}, metadata={"owner": "ada"})
await runtime.save_memory("plain", 42)
save_memory("gone", None)
print(delete_memory("gone"), delete_memory("gone"))
print(load_memory("missing", default="fallback"), await runtime.load_memory("missing"))
print(update_memory("count", lambda n: (n or 0) + 1), update_memory("count", lambda n: n + 1))
`)
	mustSucceed(t, res)
	if res.Stdout != "True False\nfallback None\n1 2\n" {
		t.Fatalf("first run printed %q", res.Stdout)
	}
	res = run(t, a, `
import datetime
notes = load_memory("notes")
print(notes, await runtime.load_memory("plain"), load_memory("count"))
info = get_memory_info("notes")
print(info["metadata"], info["version"], info["size"])
created = datetime.datetime.fromisoformat(info["created_at"])
print(created.tzinfo is not None, info["created_at"] == info["updated_at"])
save_memory("notes", {"todo": [], "done": 1})          # metadata kept
print(get_memory_info("notes")["metadata"], get_memory_info("notes")["version"])
save_memory("notes", 1, metadata={})                    # metadata cleared
print(get_memory_info("notes")["metadata"], get_memory_info("missing"))
print(memory_exists("plain"), await runtime.memory_exists("missing"))
print([m["key"] for m in list_memories()], [m["key"] for m in await runtime.list_memories(prefix="no")])
`)
	mustSucceed(t, res)
	want := "{'todo': ['write tests'], 'done': 0, 'word': 'café'} 42 2\n" +
		"{'owner': 'ada'} 1 52\n" +
		"True True\n" +
		"{'owner': 'ada'} 2\n" +
		"{} None\n" +
		"True False\n" +
		"['count', 'notes', 'plain'] ['notes']\n"
	if res.Stdout != want {
		t.Fatalf("second run printed\n%s\nwant\n%s", res.Stdout, want)
	}
}

// update_memory is a compare-and-swap retried on conflict: 8 runs at once
// (on two aggregators, as two processes would, over one database file),
// each adding 1 five times, leave exactly 40.
func TestUpdateMemoryLosesNoUpdateUnderConcurrency(t *testing.T) {
	clitest.NeedEngine(t)
	path := filepath.Join(t.TempDir(), "state.db")
	shared := func(c *config.Config) { c.State.Path = path }
	aggs := []*Aggregator{newAgg(t, shared), newAgg(t, shared)}
	const runs, increments = 8, 5
	done := make(chan Result, runs)
	for i := range runs {
		go func() {
			done <- runIn(t, aggs[i%2], "team", `
import asyncio
for i in range(5):
    update_memory("counter", lambda n: (n or 0) + 1)
    await asyncio.sleep(0)
print("ok")
`)
		}()
	}
	for range runs {
		res := <-done
		mustSucceed(t, res)
	}
	res := runIn(t, aggs[0], "team", `print(load_memory("counter"), get_memory_info("counter")["version"])`)
	mustSucceed(t, res)
	if res.Stdout != "40 40\n" {
		t.Fatalf("after %d runs of %d increments: %q, want 40 at version 40", runs, increments, res.Stdout)
	}
}

// A write over a limit of [state], a helper budget spent, a value that
// could not travel, a key the store refuses: each is a ToolError the
// program catches, and the program goes on.
func TestStateLimitsAreToolErrorsAndTheRunGoesOn(t *testing.T) {
	clitest.NeedEngine(t)
	a := newAgg(t, func(c *config.Config) {
		c.State.MaxValueBytes = 100
		c.State.MaxKeys = 2
		c.State.MaxTools = 1
		c.State.MaxNameBytes = 20
		c.Limits.MaxHelperCalls = 20
	})
	res := run(t, a, `
def attempt(what, f):
    try:
        f()
        print(what, "ok")
    except ToolError as e:
        print(what, "ToolError:", e)
    except TypeError as e:
        print(what, "TypeError:", e)

attempt("small", lambda: save_memory("a", "x" * 50))
attempt("large", lambda: save_memory("b", "x" * 200))
attempt("escaped", lambda: save_memory("b", "é" * 20))
attempt("line", lambda: save_memory("b", "x" * 400000))
attempt("second", lambda: save_memory("b", 1))
attempt("third", lambda: save_memory("c", 1))
attempt("long key", lambda: save_memory("k" * 21, 1))
attempt("bad key", lambda: save_memory("a\nb", 1))
attempt("not JSON", lambda: save_memory("a", {1, 2}))
attempt("deep", lambda: save_memory("a", eval("[" * 120 + "]" * 120)))
attempt("tool", lambda: save_tool("one", "def one():\n    return 1\n"))
attempt("tool 2", lambda: save_tool("two", "def two():\n    return 2\n"))
print(load_memory("a"), [m["key"] for m in list_memories()])
for i in range(20):
    try:
        memory_exists("a")
    except ToolError as e:
        print("budget:", e)
        break
print("still running")
`)
	mustSucceed(t, res)
	for _, want := range []string{
		"small ok\n",
		`large ToolError: save_memory: memory "b": the value's size in bytes (as compact ASCII JSON) would be 202, over the limit of 100 (state.max_value_bytes in the config); nothing was written`,
		"escaped ToolError: save_memory: memory \"b\": the value's size in bytes (as compact ASCII JSON) would be 122",
		"line ToolError: save_memory: the request is 4000",
		"second ok\n",
		`third ToolError: save_memory: memory "c": the number of memories would be 3, over the limit of 2 (state.max_keys in the config)`,
		`long key ToolError: save_memory: memory "kkkkkkkkkkkkkkkkkkkkk": the name's length in bytes would be 21, over the limit of 20 (state.max_name_bytes`,
		`bad key ToolError: save_memory: invalid key "a\nb": has a control`,
		"not JSON TypeError: save_memory: the value must be JSON",
		"deep ToolError: save_memory(\"a\"): the value nests deeper than 98 levels",
		"tool ok\n",
		`tool 2 ToolError: save_tool: tool "two": the number of saved tools would be 2, over the limit of 1 (state.max_tools`,
		"xxxxxxxxxx",
		"['a', 'b']\n",
		"budget: this run has used all 20 runtime helper calls it may make (limits.max_helper_calls)\n",
		"still running\n",
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", res.Stdout)
	}
}

// A tool saved in one run is imported in a later one (from user_tools
// import NAME), where it calls the mcp_ module of a server that run named,
// the memory helpers and another saved tool; search_tool_docs,
// query_tool_docs("user_tools") and capability_summary describe it. A run
// that does not name the server gets the NameError that says to.
func TestASavedToolIsImportedInALaterRunAndUsesItsServers(t *testing.T) {
	clitest.NeedEngine(t)
	srv, log := testServer(t, "calc")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
save_tool("add_and_remember", '''
async def add_and_remember(a: int, b: int = 1) -> int:
    """Adds two numbers with the calc server and remembers the last sum."""
    s = (await mcp_calc.add(a=a, b=b))["sum"]
    save_memory("last_sum", s)
    return twice(s) // 2

from user_tools import twice
''', description="Add two numbers on the calc server and remember the sum")
save_tool("twice", "def twice(x):\n    return 2 * x\n", "Doubles a number")
try:
    save_tool("broken", "def broken(:\n")
except ToolError as e:
    print("refused:", e)
try:
    save_tool("named_wrong", "def other():\n    pass\n")
except ToolError as e:
    print("refused:", e)
print([(t["name"], t["signature"]) for t in list_tools()])
`)
	mustSucceed(t, res)
	for _, want := range []string{
		"refused: save_tool('broken'): the source does not parse (line 1)",
		"refused: save_tool('named_wrong'): the source defines no top-level function named_wrong(...)",
		"[('add_and_remember', 'async def add_and_remember(a: int, b: int = 1) -> int'), ('twice', 'def twice(x)')]",
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("first run: output lacks %q:\n%s", want, res.Stdout)
		}
	}

	res = run(t, a, `
from user_tools import add_and_remember
print(await add_and_remember(40, b=2), load_memory("last_sum"))
hits = await runtime.search_tool_docs("add numbers and remember the sum", limit=3)
print([(h["server"], h["tool"]) for h in hits][:1])
doc = (await runtime.query_tool_docs("user_tools", "add_and_remember", detail="full"))[0]
print(doc["call"])
print(hits[0]["signature"])
print(doc["stub"].splitlines()[0])
print("save_memory" in doc["source"])
print([d["tool"] for d in await runtime.query_tool_docs("user_tools")])
summary = await runtime.capability_summary()
print("- add_and_remember: Add two numbers on the calc server and remember the sum" in summary)
try:
    from user_tools import nothing_saved
except ImportError as e:
    print("ImportError:", e)
`, "calc")
	mustSucceed(t, res)
	want := "42 42\n" +
		"[('user_tools', 'add_and_remember')]\n" +
		"from user_tools import add_and_remember; await add_and_remember(...)\n" +
		"from user_tools import add_and_remember; await add_and_remember(a: int, b: int = 1) -> int\n" +
		"async def add_and_remember(a: int, b: int = 1) -> int:\n" +
		"True\n" +
		"['add_and_remember', 'twice']\n" +
		"True\n" +
		"ImportError: no saved tool 'nothing_saved': list_tools() lists the saved tools; save_tool(name, source, description) saves one\n"
	if res.Stdout != want {
		t.Errorf("second run printed\n%s\nwant\n%s", res.Stdout, want)
	}
	if got := toolsCalled(serverCalls(t, log)); len(got) != 1 || got[0] != "add" {
		t.Errorf("the server saw %v, want one add", got)
	}

	// Without the server named, the tool's use of mcp_calc says to name it.
	res = run(t, a, "from user_tools import add_and_remember\nawait add_and_remember(1)")
	if res.Error == nil || !strings.Contains(*res.Error, `mcp_calc is the module of server "calc", which this run did not load`) ||
		!strings.Contains(*res.Error, "<user_tools.add_and_remember>") {
		t.Errorf("a saved tool using an unloaded server: %v", res.Error)
	}
	// delete_tool, then the import fails.
	res = run(t, a, `
print(delete_tool("twice"), delete_tool("twice"))
try:
    from user_tools import add_and_remember
except ImportError as e:
    print("ImportError:", e)
`, "calc")
	mustSucceed(t, res)
	if res.Stdout != "True False\nImportError: no saved tool 'twice': list_tools() lists the saved tools; save_tool(name, source, description) saves one\n" {
		t.Errorf("after delete_tool: %q", res.Stdout)
	}
}

// Runs of different namespaces see nothing of each other: memories, saved
// tools, search and summaries. state.namespace in the config puts every
// run in one namespace, whatever the front end asked for.
func TestNamespacesKeepRunsApart(t *testing.T) {
	clitest.NeedEngine(t)
	a := newAgg(t, nil)
	mustSucceed(t, runIn(t, a, "alice", `
save_memory("secret", "alice's")
save_tool("alice_tool", "def alice_tool():\n    return 1\n", "Alice's private helper")
`))
	res := runIn(t, a, "bob", `
print(load_memory("secret"), memory_exists("secret"), list_memories(), list_tools())
hits = await runtime.search_tool_docs("alice private helper", limit=5)
print([h for h in hits if h["server"] == "user_tools"], "alice_tool" in await runtime.capability_summary())
try:
    from user_tools import alice_tool
except ImportError as e:
    print("ImportError")
save_memory("secret", "bob's")
`)
	mustSucceed(t, res)
	if res.Stdout != "None False [] []\n[] False\nImportError\n" {
		t.Fatalf("bob saw %q", res.Stdout)
	}
	res = runIn(t, a, "alice", `print(load_memory("secret"))`)
	if res.Stdout != "alice's\n" {
		t.Fatalf("alice's memory after bob's save: %q", res.Stdout)
	}
	// The OS user's namespace is the default.
	res = runIn(t, a, "", `save_memory("mine", 1)`)
	mustSucceed(t, res)
	st, err := state.Open(t.Context(), a.cfg.State.Path, a.cfg.State.Limits())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if ok, err := st.MemoryExists(t.Context(), LocalNamespace(), "mine"); err != nil || !ok {
		t.Errorf("a run without a namespace did not save in %s: %v %v", LocalNamespace(), ok, err)
	}

	shared := newAgg(t, func(c *config.Config) {
		c.State.Path = a.cfg.State.Path
		c.State.Namespace = "alice"
	})
	res = runIn(t, shared, "bob", `print(load_memory("secret"))`)
	if res.Stdout != "alice's\n" {
		t.Errorf("with state.namespace = alice, a run asking for bob's loaded %q", res.Stdout)
	}
}

// A program that sends the helper requests itself, naming another
// namespace wherever one could go, still reads and writes only its own
// (testdata/hostile-programs/other-namespace.py); the database is nowhere
// in the container.
func TestAProgramCannotReachAnotherNamespace(t *testing.T) {
	clitest.NeedEngine(t)
	hostile, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hostile-programs", "other-namespace.py"))
	if err != nil {
		t.Fatal(err)
	}
	a := newAgg(t, nil)
	mustSucceed(t, runIn(t, a, "victim", `
save_memory("secret", "VICTIM-SECRET-4711")
save_tool("stolen", "def stolen():\n    return 'VICTIM-TOOL-SOURCE'\n", "the victim's stolen helper")
`))
	res := runIn(t, a, "attacker", string(hostile))
	mustSucceed(t, res)
	if !strings.Contains(res.Stdout, "hostile: done") || !strings.Contains(res.Stdout, "load_memory: {'found': False") {
		t.Fatalf("the hostile program did not run through: %q", res.Stdout)
	}
	for _, leak := range []string{"VICTIM", "stolen", "FOUND FILE"} {
		if strings.Contains(res.Stdout, leak) {
			t.Errorf("the attacker's run saw %q:\n%s", leak, res.Stdout)
		}
	}
	res = runIn(t, a, "victim", `print(load_memory("secret"), get_memory_info("secret")["version"])`)
	if res.Stdout != "VICTIM-SECRET-4711 1\n" {
		t.Errorf("the victim's memory changed: %q", res.Stdout)
	}
}

// The state helpers answer with the JSON the store keeps (non-ASCII
// characters escaped, the keys in their order), and reads never create a
// database that is not there.
func TestStateHelpersAnswerWithTheStoredJSON(t *testing.T) {
	a := newAgg(t, nil)
	b, err := a.stateHelper(t.Context(), "ns", "save_memory", json.RawMessage(`{"key":"k","value":{"b":[1,"é"],"a":null}}`))
	if err != nil || string(b) != "null" {
		t.Fatalf("save_memory = %s, %v", b, err)
	}
	b, err = a.stateHelper(t.Context(), "ns", "load_memory", json.RawMessage(`{"key":"k"}`))
	if err != nil || string(b) != `{"found":true,"value":{"b":[1,"\u00e9"],"a":null},"version":1}` {
		t.Fatalf("load_memory = %s, %v", b, err)
	}
	// A missing database file is not created by reads.
	fresh := newAgg(t, nil)
	for _, m := range []string{"load_memory", "memory_exists", "get_memory_info", "list_memories", "list_tools", "delete_memory"} {
		if _, err := fresh.stateHelper(t.Context(), "ns", m, json.RawMessage(`{"key":"k"}`)); err != nil {
			t.Errorf("%s on no database: %v", m, err)
		}
	}
	if _, err := os.Stat(fresh.cfg.State.Path); !os.IsNotExist(err) {
		t.Errorf("reads created the database: %v", err)
	}
}

// Saved tools' signatures are read from their sources, comments, strings
// and nested brackets included.
func TestPySignature(t *testing.T) {
	tests := []struct {
		src, sig string
		async    bool
		params   string
	}{
		{"def f(x):\n    return x\n", "def f(x)", false, "x"},
		{"import os\n\nasync  def f(a: int, b: str = 'a)b', *args, c=(1, 2), **kw) -> dict[str, int]:\n    pass\n",
			"async def f(a: int, b: str = 'a)b', *args, c=(1, 2), **kw) -> dict[str, int]", true, "a b args c kw"},
		{"def f(\n    a,  # the first\n    b=\"\"\"x\n)\"\"\",\n    /, *, c\n):\n  pass", `def f( a, b="""x )""", /, *, c )`, false, "a b c"},
		{"def g(): pass\n    def f(inner): pass\ndef f(outer): pass\n", "def f(outer)", false, "outer"},
		{"f = lambda x: x\n", "", false, ""},
		{"def f(x", "", false, ""},
	}
	for _, tt := range tests {
		sig, async, params := pySignature("f", tt.src)
		if sig != tt.sig || async != tt.async || strings.Join(params, " ") != tt.params {
			t.Errorf("pySignature(%q) = %q, %v, %q; want %q, %v, %q", tt.src, sig, async, params, tt.sig, tt.async, tt.params)
		}
	}
}

func TestCheckToolName(t *testing.T) {
	for _, good := range []string{"f", "add_numbers", "_private", "x2", "match", "type"} {
		if err := CheckToolName(good); err != nil {
			t.Errorf("CheckToolName(%q) = %v", good, err)
		}
	}
	for _, bad := range []string{"", "2x", "a-b", "a b", "café", "class", "None", "__init__", "__x", "a.b", "a\n"} {
		if err := CheckToolName(bad); err == nil {
			t.Errorf("CheckToolName(%q) accepted it", bad)
		}
	}
}

// pySignature reads sources programs wrote: whatever they are, it does not
// panic, and what it gives is bounded.
func FuzzPySignature(f *testing.F) {
	for _, seed := range []string{
		"def f(x):\n    pass\n", "async def f(a, *, b='(', **c) -> int:\n", "def f(\"\"\"", "def f(#\n", "def f('\\", "def f((((", "def f(a)->[:",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sig, _, params := pySignature("f", src)
		if n := len([]rune(sig)); n > maxSignatureRunes {
			t.Fatalf("signature of %d runes", n)
		}
		if len(params) > 64 {
			t.Fatalf("%d parameters", len(params))
		}
		if sig != "" && !strings.Contains(sig, "def f") {
			t.Fatalf("signature %q for f", sig)
		}
	})
}
