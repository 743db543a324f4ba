package e2e

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// TestMain builds mcp-code-mode and the test server (see clitest.Main). In
// -short mode (make test-short: unit tests only) nothing here runs.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("e2e: skipped in -short mode")
		os.Exit(0)
	}
	os.Exit(clitest.Main(m))
}

// pinnedNpmBin is the path of a binary of the pinned npm packages in
// testdata/npm. The test skips without it or without node, and fails
// instead under CI=true.
func pinnedNpmBin(t *testing.T, bin string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "testdata", "npm", "node_modules", ".bin", bin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		testenv.SkipOrFail(t, "%s is not installed (run `make testdata`): %v", bin, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		testenv.SkipOrFail(t, "node not found: %v", err)
	}
	return path
}

// nodeRun runs a node tool to its end (at most within) in its own process
// group, and kills whatever of that group is left.
func nodeRun(t *testing.T, within time.Duration, env []string, dir string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), within)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if err != nil {
		code = -1
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
	}
	return out.String(), errb.String(), code
}
