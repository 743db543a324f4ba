package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// A program sets one call's deadline with timeout=S; the error names the
// deadline that applied; limits.max_call_timeout caps it; a tool that has
// a timeout parameter of its own gets it, and _timeout=S sets the deadline
// instead. The run goes on after a call that timed out.
func TestPerCallTimeout(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, fmt.Sprintf(`
[limits]
max_call_timeout = "2s"

[servers.w]
command = %q
args = ["-name", "w", "-wait-tool"]
`, clitest.TestServer()))
	code := `
async def attempt(label, call):
    try:
        print(label, "->", await call)
    except ToolError as e:
        print(label, "-> ToolError:", e)

await attempt("own", mcp_test.sleep(ms=20000, timeout=0.5))
await attempt("capped", mcp_test.sleep(ms=20000, timeout=100))
await attempt("tool's own timeout", mcp_w.wait(ms=10, timeout=7))
await attempt("_timeout", mcp_w.wait(ms=20000, timeout=7, _timeout=0.5))
print(await mcp_test.add(a=1, b=2))
await mcp_test.sleep(ms=1, timeout=-1)
`
	r := f.CLI(t, "run", "--servers", "test,w", "-c", code)
	for _, want := range []string{
		"own -> ToolError: test.sleep timed out after 500ms (its timeout=)",
		"capped -> ToolError: test.sleep timed out after 2s (its timeout=1m40s, capped by limits.max_call_timeout)",
		"tool's own timeout -> waited 10 (timeout 7)",
		"_timeout -> ToolError: w.wait timed out after 500ms (its timeout=)",
		"{'sum': 3}",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s\nstderr: %s", want, r.Stdout, r.Stderr)
		}
	}
	if r.Code == 0 || !strings.Contains(r.Stderr, "timeout must be a positive number of seconds") {
		t.Errorf("timeout=-1: want a TypeError that ends the run, got %d %q", r.Code, r.Stderr)
	}
}
