package aggregator

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

// TestMain builds the test server (clitest.TestServer) and fails the run
// when a sandbox container or a server process outlives the tests; tests
// that need the engine call clitest.NeedEngine.
func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }

// testRuntime is the OCI runtime the sandbox tests use: the engine's
// default, or the one named by MCM_TEST_RUNTIME (make test-gvisor: runsc).
func testRuntime() string { return os.Getenv("MCM_TEST_RUNTIME") }

// testServer is the test server from testdata, logging its calls to a file
// in the test's temp dir; the log's path is returned too.
func testServer(t *testing.T, name string, args ...string) (config.Server, string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), name+".log")
	return config.Server{
		Name: name, Transport: config.TransportStdio, Command: clitest.TestServer(),
		Args: append([]string{"-name", name, "-log", log}, args...), Source: "test",
	}, log
}

// newAgg returns an aggregator over servers with the default limits changed
// by tune (may be nil), closed when the test ends.
func newAgg(t *testing.T, tune func(*config.Config), servers ...config.Server) *Aggregator {
	t.Helper()
	cfg := config.Default()
	cfg.CatalogDir = t.TempDir()
	cfg.State.Path = filepath.Join(t.TempDir(), "state.db") // never the user's
	cfg.TokenDir = t.TempDir()                              // nor their sign-ins
	cfg.Runtime = testRuntime()
	if tune != nil {
		tune(&cfg)
	}
	var eng Engine
	if e, err := clitest.Engine(); err == nil {
		eng = e
	}
	a, err := New(cfg, servers, eng, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// run runs code and returns the result; it logs the result for failures.
func run(t *testing.T, a *Aggregator, code string, servers ...string) Result {
	t.Helper()
	return runRequest(t, a, Request{Code: code, Servers: servers})
}

// runRequest runs req within three minutes and logs who asked and the
// result, for failures.
func runRequest(t *testing.T, a *Aggregator, req Request) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	res := a.Run(ctx, req)
	errText := "<nil>"
	if res.Error != nil {
		errText = *res.Error
	}
	t.Logf("namespace=%q session=%q: stdout=%q error=%s stopped=%v truncated=%v calls=%d took=%dms",
		req.Namespace, req.Session, clip(res.Stdout, 600), clip(errText, 600), res.Stopped, res.Truncated, res.Calls, res.DurationMS)
	return res
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// mustSucceed fails the test when the run failed.
func mustSucceed(t *testing.T, res Result) {
	t.Helper()
	if res.Error != nil {
		t.Fatalf("run failed: %s", *res.Error)
	}
}

// serverCalls reads the calls the test server received.
func serverCalls(t *testing.T, path string) []calllog.Record {
	t.Helper()
	recs, err := calllog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func toolsCalled(calls []calllog.Record) []string { return calllog.Tools(calls) }
