package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// The runtime helpers that return lists return a list when it is empty,
// never None: a wrapped server with no (allowed) tools, such as the
// conformance suite's `initialize` test server, must not make
// `for t in (await runtime.describe_server(s))["tools"]: ...` raise
// TypeError.
func TestRuntimeHelpersReturnEmptyLists(t *testing.T) {
	clitest.NeedEngine(t)
	// Server "empty" is the test server with every tool denied.
	f := clitest.NewFixture(t, fmt.Sprintf(`
[servers.empty]
command = %q
args = ["-name", "empty"]
deny = ["*"]
`, clitest.TestServer()))
	code := `import json
d = await runtime.describe_server("empty")
print(json.dumps({"describe_server": d["tools"], "query_tool_docs": await runtime.query_tool_docs("empty")}))`
	r := f.CLI(t, "run", "--no-discovery", "--servers", "empty", "-c", code)
	if r.Code != 0 {
		t.Fatalf("run: exit %d, stderr %s", r.Code, r.Stderr)
	}
	got := map[string]any{}
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil {
		t.Fatalf("stdout %q: %v", r.Stdout, err)
	}
	// With no server configured at all.
	empty := filepath.Join(f.Dir, "empty.toml")
	f.Write(t, empty, "")
	r = f.Run(t, "", nil, "run", "--config", empty, "--no-discovery", "-c",
		`import json; print(json.dumps({"discovered_servers": await runtime.discovered_servers(), "list_servers": runtime.list_servers_sync(), "search_tool_docs": await runtime.search_tool_docs("anything")}))`)
	if r.Code != 0 {
		t.Fatalf("run: exit %d, stderr %s", r.Code, r.Stderr)
	}
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil {
		t.Fatalf("stdout %q: %v", r.Stdout, err)
	}

	var none []string
	for _, name := range []string{"describe_server", "query_tool_docs", "search_tool_docs", "discovered_servers", "list_servers"} {
		switch v := got[name].(type) {
		case []any:
			if len(v) != 0 {
				t.Errorf("%s: %v, want []", name, v)
			}
		case nil:
			none = append(none, name)
		default:
			t.Errorf("%s: %v (%T), want []", name, v, v)
		}
	}
	if len(none) > 0 {
		t.Fatalf("these helpers return None instead of an empty list: %s", strings.Join(none, ", "))
	}
}
