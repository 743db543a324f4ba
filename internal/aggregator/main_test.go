package aggregator

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

// Shared by the tests of this package: the test server binary and a
// connection to the real engine (nil when none is reachable).
var (
	testServerBin string
	engine        *sandbox.Engine
	engineErr     error
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcm-aggregator-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	testServerBin = filepath.Join(dir, "testserver")
	if out, err := exec.Command("go", "build", "-o", testServerBin, "../testserver").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build testserver: %v\n%s", err, out)
		return 1
	}
	ctx := context.Background()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	engine, engineErr = sandbox.New(cctx)
	cancel()
	if engine != nil {
		defer engine.Close()
		if err := ensureImage(ctx, engine); err != nil {
			fmt.Fprintf(os.Stderr, "sandbox image: %v\n", err)
			return 1
		}
	}
	code := testenv.Run(m)
	// Nothing may outlive the tests: no sandbox container, no server process.
	if engine != nil {
		ids, err := engine.Containers(ctx, sandbox.Owner())
		if err != nil || len(ids) > 0 {
			fmt.Fprintf(os.Stderr, "LEAK: sandbox containers left behind: %v %v\n", ids, err)
			code = 1
		}
	}
	if out, err := exec.Command("pgrep", "-f", testServerBin).Output(); err == nil && len(strings.TrimSpace(string(out))) > 0 {
		fmt.Fprintf(os.Stderr, "LEAK: test server processes left behind: %s\n", out)
		code = 1
	}
	return code
}

// ensureImage builds the sandbox image when it is missing or holds an older
// runner.
func ensureImage(ctx context.Context, e *sandbox.Engine) error {
	if d, err := e.ImageRunnerDigest(ctx, sandbox.DefaultImage); err == nil && d == runner.Digest() {
		return nil
	}
	_, err := e.BuildImage(ctx, sandbox.BuildOptions{Tag: sandbox.DefaultImage, Log: os.Stderr})
	return err
}

// needEngine skips the test in -short mode or without an engine, or fails
// it under CI.
func needEngine(t *testing.T) *sandbox.Engine {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the container engine; skipped in -short mode")
	}
	if engine == nil {
		testenv.SkipOrFail(t, "no container engine reachable (start dockerd, or set DOCKER_HOST): %v", engineErr)
	}
	return engine
}

// testRuntime is the OCI runtime the sandbox tests use: the engine's
// default, or the one named by MCM_TEST_RUNTIME (make test-gvisor: runsc).
func testRuntime() string { return os.Getenv("MCM_TEST_RUNTIME") }

// testServer is the test server from testdata, logging its calls to a file
// in the test's temp dir; the log's path is returned too.
func testServer(t *testing.T, name string, args ...string) (config.Server, string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), name+".log")
	return config.Server{
		Name: name, Transport: config.TransportStdio, Command: testServerBin,
		Args: append([]string{"-name", name, "-log", log}, args...), Source: "test",
	}, log
}

// newAgg returns an aggregator over servers with the default limits changed
// by tune (may be nil), closed when the test ends.
func newAgg(t *testing.T, tune func(*config.Config), servers ...config.Server) *Aggregator {
	t.Helper()
	cfg := config.Default()
	cfg.CatalogDir = t.TempDir()
	cfg.Runtime = testRuntime()
	if tune != nil {
		tune(&cfg)
	}
	var eng Engine
	if engine != nil {
		eng = engine
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
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	res := a.Run(ctx, Request{Code: code, Servers: servers})
	errText := "<nil>"
	if res.Error != nil {
		errText = *res.Error
	}
	t.Logf("stdout=%q error=%s stopped=%v truncated=%v calls=%d took=%dms", clip(res.Stdout, 400), clip(errText, 400), res.Stopped, res.Truncated, res.Calls, res.DurationMS)
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
