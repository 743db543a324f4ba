package aggregator

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// TestRunsLeaveNoGoroutineBehind runs programs that end every way a run can
// end and checks that, once the aggregator is closed, no goroutine it
// started is left. TestMain checks containers and server processes.
func TestRunsLeaveNoGoroutineBehind(t *testing.T) {
	clitest.NeedEngine(t)
	// The engine's HTTP connections are shared with other tests; idle ones
	// may stay in its pool.
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
	)
	srv, _ := testServer(t, "t")
	cfg := config.Default()
	cfg.CatalogDir = t.TempDir()
	cfg.Limits.Deadline = 3 * time.Second
	cfg.Limits.CallTimeout = time.Second
	a, err := New(cfg, []config.Server{srv}, clitest.NeedEngine(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	programs := map[string]string{
		"success":      "print(await mcp_t.add(a=1, b=2))",
		"exception":    "1/0",
		"deadline":     "while True: pass",
		"call timeout": "await mcp_t.sleep(ms=5000)",
		"server crash": "await mcp_t.crash()",
		"output flood": "import sys\nsys.stdout.write('x' * (2 << 20))",
		"garbage": `
import socket
for fd in range(3, 20):
    try:
        socket.socket(fileno=fd).sendall(b"junk\n")
    except OSError:
        pass
`,
	}
	for name, code := range programs {
		res := run(t, a, code, "t")
		if name != "success" && res.Error == nil {
			t.Errorf("%s: the run did not fail", name)
		}
	}
	a.Close()
}
