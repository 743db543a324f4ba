package aggregator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/discovery"
)

// npmServer is a real MCP server from the pinned npm packages in
// testdata/npm; the test skips (or fails under CI) when they are not
// installed (`make testdata`).
func npmServer(t *testing.T, name, bin string, args ...string) discovery.Server {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "testdata", "npm", "node_modules", ".bin", bin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("npm test servers are not installed under CI: %v", err)
		}
		t.Skipf("npm test servers are not installed (run `make testdata`): %v", err)
	}
	return discovery.Server{Name: name, Transport: discovery.TransportStdio, Command: path, Args: args, Source: "test"}
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
