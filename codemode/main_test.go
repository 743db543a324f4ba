package codemode_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// testServer is the path of the test MCP server (internal/testserver),
// built for these tests; its tools include add(a, b) -> {"sum": a+b}.
var testServer string

// TestMain builds the test server and makes sure a container engine and
// the sandbox image are there: without an engine the package is skipped
// (failed under CI=true), since its examples run real sandboxes. Nothing
// may outlive the tests.
func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcm-codemode-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// The catalog of tool lists goes to a directory of the test's own.
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	testServer = filepath.Join(dir, "testserver")
	if out, err := exec.Command("go", "build", "-o", testServer, "../internal/testserver").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build testserver: %v\n%s", err, out)
		return 1
	}
	ctx := context.Background()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	engine, err := sandbox.New(cctx)
	cancel()
	if err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintf(os.Stderr, "no container engine reachable under CI: %v\n", err)
			return 1
		}
		fmt.Printf("skipping package codemode: no container engine reachable: %v\n", err)
		return 0
	}
	defer engine.Close()
	if d, err := engine.ImageRunnerDigest(ctx, sandbox.DefaultImage); err != nil || d != runner.Digest() {
		if _, err := engine.BuildImage(ctx, sandbox.BuildOptions{Tag: sandbox.DefaultImage, Log: os.Stderr}); err != nil {
			fmt.Fprintf(os.Stderr, "sandbox image: %v\n", err)
			return 1
		}
	}
	code := m.Run()
	if ids, err := engine.Containers(ctx, sandbox.Owner()); err != nil || len(ids) > 0 {
		fmt.Fprintf(os.Stderr, "LEAK: sandbox containers left behind: %v %v\n", ids, err)
		code = 1
	}
	if out, err := exec.Command("pgrep", "-f", testServer).Output(); err == nil && len(strings.TrimSpace(string(out))) > 0 {
		fmt.Fprintf(os.Stderr, "LEAK: test server processes left behind: %s\n", out)
		code = 1
	}
	return code
}
