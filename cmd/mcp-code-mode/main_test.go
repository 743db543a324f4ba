package main

// End-to-end tests of the mcp-code-mode binary: TestMain builds it and the
// test server from testdata, and every test runs the real binary as a
// subprocess (in its own process group, killed when the test ends) with HOME
// and XDG_CONFIG_HOME pointed at a temp dir, so no user config is read.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

var (
	testDir   string // holds the binaries and every test's server copies
	binPath   string // the mcp-code-mode binary
	serverBin string // the test server

	dockerOnce sync.Once
	engine     *sandbox.Engine // nil when no engine is reachable
	engineErr  error
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcm-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	testDir = dir
	binPath = filepath.Join(dir, "mcp-code-mode")
	serverBin = filepath.Join(dir, "testserver")
	for _, b := range []struct{ out, pkg string }{{binPath, "."}, {serverBin, "../../internal/testserver"}} {
		if out, err := exec.Command("go", "build", "-o", b.out, b.pkg).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", b.pkg, err, out)
			return 1
		}
	}
	code := m.Run()
	if engine != nil {
		engine.Close()
	}
	// Nothing started from the temp dir may outlive the tests.
	if pids := pgrep(dir); len(pids) > 0 {
		fmt.Fprintf(os.Stderr, "LEAK: processes left behind: %v\n", pids)
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		code = 1
	}
	return code
}

// needDocker skips the test in -short mode or when no container engine
// answers (fails it under CI=true), and makes sure the sandbox image holds
// the current runner.
func needDocker(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the container engine; skipped in -short mode")
	}
	dockerOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		e, err := sandbox.New(ctx)
		if err != nil {
			engineErr = err
			return
		}
		if d, err := e.ImageRunnerDigest(context.Background(), sandbox.DefaultImage); err != nil || d != runner.Digest() {
			fmt.Fprintf(os.Stderr, "sandbox image %s is missing or stale (%v); building it\n", sandbox.DefaultImage, err)
			if _, err := e.BuildImage(context.Background(), sandbox.BuildOptions{Tag: sandbox.DefaultImage, Log: os.Stderr}); err != nil {
				engineErr = fmt.Errorf("build sandbox image: %w", err)
				e.Close()
				return
			}
		}
		engine = e
	})
	if engine == nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no container engine reachable under CI: %v", engineErr)
		}
		t.Skipf("no container engine reachable (start dockerd, or set DOCKER_HOST): %v", engineErr)
	}
}

// fixture is one test's world: a home dir, a copy of the test server under a
// path unique to the test (so pgrep can find exactly its processes), its
// call log, and a config file naming it as server "test".
type fixture struct {
	dir    string // temp dir of the test
	home   string // HOME and XDG_CONFIG_HOME/..
	server string // path of this test's test server
	log    string // the test server's call log
	config string // the config file
	env    []string
}

// newFixture writes a config with server "test" plus extra TOML.
func newFixture(t *testing.T, extra string) *fixture {
	t.Helper()
	dir, err := os.MkdirTemp(testDir, "t-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	f := &fixture{
		dir:    dir,
		home:   filepath.Join(dir, "home"),
		server: filepath.Join(dir, "testserver"),
		log:    filepath.Join(dir, "calls.log"),
		config: filepath.Join(dir, "config.toml"),
	}
	if err := os.MkdirAll(filepath.Join(f.home, ".config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(serverBin, f.server); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`[servers.test]
command = %q
args = ["-name", "test", "-log", %q]
description = "test tools"
`, f.server, f.log)
	f.write(t, f.config, cfg+extra)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "HOME" || name == "XDG_CONFIG_HOME" || name == "CI" || strings.HasPrefix(name, "MCP_CODE_MODE_") {
			continue
		}
		f.env = append(f.env, kv)
	}
	f.env = append(f.env, "HOME="+f.home, "XDG_CONFIG_HOME="+filepath.Join(f.home, ".config"))
	// Whatever the test does, none of its server processes may survive it.
	t.Cleanup(func() { f.expectNoServers(t) })
	return f
}

func (f *fixture) write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// expectNoServers fails the test when one of its test server processes is
// still running a few seconds after it should have stopped, and kills it.
func (f *fixture) expectNoServers(t *testing.T) {
	t.Helper()
	var pids []int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if pids = pgrep(f.server); len(pids) == 0 {
			return
		}
	}
	t.Errorf("LEAK: test server processes still running: %v", pids)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// pgrep returns the pids of processes whose command line contains pattern.
func pgrep(pattern string) []int {
	out, _ := exec.Command("pgrep", "-f", regexp.QuoteMeta(pattern)).Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}

// buffer is a bytes.Buffer safe for a writer and readers at once.
type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// proc is one running mcp-code-mode process.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr buffer
	done           chan struct{}
	code           int // exit status once done; -1 when killed by a signal
}

// start starts the binary with args in its own process group. The test's
// cleanup ends it (SIGTERM, then SIGKILL to the group) and checks that it
// left no sandbox container behind.
func (f *fixture) start(t *testing.T, stdin io.Reader, env []string, args ...string) *proc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	p := &proc{done: make(chan struct{})}
	p.cmd = exec.CommandContext(ctx, binPath, args...)
	p.cmd.Env = append(append([]string{}, f.env...), env...)
	p.cmd.Dir = f.dir
	p.cmd.Stdin = stdin
	p.cmd.Stdout = &p.stdout
	p.cmd.Stderr = &p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.cmd.Cancel = func() error { return syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }
	p.cmd.WaitDelay = 5 * time.Second
	if err := p.cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		defer cancel()
		_ = p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(5 * time.Second):
				t.Errorf("mcp-code-mode %v did not exit within 5s of SIGTERM; killing it", args)
				_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
				<-p.done
			}
		}
		expectNoContainers(t, p.cmd.Process.Pid)
	})
	return p
}

// wait waits for the process to exit and returns its status.
func (p *proc) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(within):
		t.Fatalf("mcp-code-mode %v still running after %v\nstderr: %s", p.cmd.Args[1:], within, p.stderr.String())
		return 0
	}
}

// waitStderr waits until stderr contains s.
func (p *proc) waitStderr(t *testing.T, s string, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(p.stderr.String(), s) {
			return
		}
		select {
		case <-p.done:
			t.Fatalf("mcp-code-mode exited (status %d) before printing %q\nstderr: %s", p.code, s, p.stderr.String())
		default:
		}
	}
	t.Fatalf("no %q on stderr within %v\nstderr: %s", s, within, p.stderr.String())
}

// expectNoContainers fails the test when a sandbox container of the
// mcp-code-mode process pid is left over.
func expectNoContainers(t *testing.T, pid int) {
	t.Helper()
	if engine == nil {
		return
	}
	host, _ := os.Hostname()
	owner := host + "/" + strconv.Itoa(pid)
	var ids []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var err error
		ids, err = engine.Containers(context.Background(), owner)
		if err != nil {
			t.Errorf("list containers: %v", err)
			return
		}
		if len(ids) == 0 {
			return
		}
	}
	t.Errorf("LEAK: sandbox containers of %s left behind: %v", owner, ids)
}

// result is how one command ended.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// run runs the binary to its end (at most a minute) with stdin as input.
func (f *fixture) run(t *testing.T, stdin string, env []string, args ...string) result {
	t.Helper()
	began := time.Now()
	p := f.start(t, strings.NewReader(stdin), env, args...)
	code := p.wait(t, time.Minute)
	r := result{stdout: p.stdout.String(), stderr: p.stderr.String(), code: code, took: time.Since(began)}
	t.Logf("mcp-code-mode %s -> %d in %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.took.Round(time.Millisecond), clip(r.stdout, 600), clip(r.stderr, 600))
	return r
}

// cli runs the binary with --config pointing at the fixture's config,
// inserted after the command name.
func (f *fixture) cli(t *testing.T, command string, args ...string) result {
	t.Helper()
	return f.run(t, "", nil, append([]string{command, "--config", f.config}, args...)...)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
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

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
