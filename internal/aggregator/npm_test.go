package aggregator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// npmServer is a real MCP server from the pinned npm packages in
// testdata/npm; the test skips (or fails under CI) when they are not
// installed (`make testdata`).
func npmServer(t *testing.T, name, bin string, args ...string) config.Server {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "testdata", "npm", "node_modules", ".bin", bin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		testenv.SkipOrFail(t, "npm test servers are not installed (run `make testdata`): %v", err)
	}
	return config.Server{Name: name, Transport: config.TransportStdio, Command: path, Args: args, Source: "test"}
}

func TestServerEverythingFromNpm(t *testing.T) {
	needEngine(t)
	a := newAgg(t, nil, npmServer(t, "everything", "mcp-server-everything"))
	res := run(t, a, `
print(await mcp_everything.get_sum(a=2, b=3))
print(await mcp_everything.echo(message="hello from the sandbox"))
s = await mcp_everything.get_structured_content(location="New York")
print(sorted(s))
try:
    await mcp_everything.get_sum(a="two", b=3)
except ToolError as e:
    print("refused:", e)
`, "everything")
	mustSucceed(t, res)
	for _, want := range []string{"The sum of 2 and 3 is 5.", "Echo: hello from the sandbox", "['conditions', 'humidity', 'temperature']", "refused: arguments of everything.get-sum do not match its schema"} {
		if !strings.Contains(res.Stdout, want) {
			t.Fatalf("want %q in:\n%s", want, res.Stdout)
		}
	}
}

// A program finds a tool by searching every server (loaded or not), reads
// the best hit's full docs, and calls it, against real npm servers.
func TestSearchReadDocsAndCallFromTheSandbox(t *testing.T) {
	needEngine(t)
	root := t.TempDir()
	a := newAgg(t, nil,
		npmServer(t, "everything", "mcp-server-everything"),
		npmServer(t, "memory", "mcp-server-memory"),
		npmServer(t, "files", "mcp-server-filesystem", root),
	)
	// MEMORY_FILE_PATH keeps the memory server's graph in the test's dir.
	for _, e := range a.entries {
		if e.srv.Name == "memory" {
			e.up.srv.Env = map[string]string{"MEMORY_FILE_PATH": filepath.Join(root, "memory.jsonl")}
		}
	}
	res := run(t, a, `
from mcp import runtime
import json
hits = await runtime.search_tool_docs("store a new person in the knowledge graph", limit=3)
print([h["server"] + "." + h["tool"] for h in hits])
best = hits[0]
doc = (await runtime.query_tool_docs(best["server"], best["tool"], detail="full"))[0]
assert doc["stub"].startswith("async def "), doc
assert "entities" in json.dumps(doc["input_schema"])
print(doc["stub"].splitlines()[0])
out = await runtime.call_tool(best["server"], best["tool"], {"entities": [{"name": "Ada", "entityType": "person", "observations": ["first programmer"]}]})
graph = await mcp_memory.read_graph()
print([e["name"] for e in graph["entities"]])
print(runtime.search_tool_docs_sync("write a file", limit=1)[0]["tool"])
servers = {s["name"]: s for s in runtime.discovered_servers_sync()}
print(servers["memory"]["loaded"], servers["files"]["loaded"], servers["memory"]["tools"] > 0)
`, "memory")
	mustSucceed(t, res)
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "['memory.create_entities'") ||
		!strings.HasPrefix(lines[1], "async def create_entities(") || lines[2] != "['Ada']" ||
		lines[3] != "write_file" || lines[4] != "True False True" {
		t.Fatalf("stdout:\n%s", res.Stdout)
	}
}
