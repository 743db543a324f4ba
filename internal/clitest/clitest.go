// Package clitest runs the mcp-code-mode binary in tests, as a user or an
// MCP client would; the tests of cmd/mcp-code-mode and the e2e suites use
// it, and so do the tests of internal/aggregator and codemode (for the test
// server, the engine and the leak checks).
//
// [Main], called from TestMain, builds the binary and the test server
// (internal/testserver). Each test makes a [Fixture]: a home dir, its own
// copy of the test server (so [Pgrep] finds exactly its processes), its
// call log and a config naming it as server "test". The fixture runs the
// binary as a subprocess in its own process group, killed when the test
// ends, with HOME and XDG_CONFIG_HOME pointed at the temp dir, so no user
// config is read; [Fixture.StdioServe] and [Fixture.HTTPServe] drive
// `serve` with mcp-go's client. Whatever a test does, none of its
// processes or sandbox containers may outlive it.
package clitest

import (
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

	"golang.org/x/sys/unix"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

// The packages Main builds.
const (
	binPkg        = "github.com/mcp-code-mode/mcp-code-mode/cmd/mcp-code-mode"
	testServerPkg = "github.com/mcp-code-mode/mcp-code-mode/internal/testserver"
)

var (
	testDir   string // holds the binaries and every test's server copies
	binPath   string // the mcp-code-mode binary
	serverBin string // the test server

	dockerOnce sync.Once
	engine     *sandbox.Engine // nil when no engine is reachable
	engineErr  error
)

// Main builds mcp-code-mode and the test server into a temp dir, runs the
// tests (through testenv.Run, so MCM_TEST_SUITE applies) and fails the run
// when a process started from that dir, or a sandbox container of this
// process, outlives them. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }
func Main(m *testing.M) int { return run(m, false) }

// MainWithEngine is Main for a package all of whose tests need the engine,
// examples included (which cannot skip): without one it skips the whole
// package, or fails it under CI=true.
func MainWithEngine(m *testing.M) int { return run(m, true) }

func run(m *testing.M, needEngine bool) int {
	dir, err := os.MkdirTemp("", "mcm-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	testDir = dir
	binPath = filepath.Join(dir, "mcp-code-mode")
	serverBin = filepath.Join(dir, "testserver")
	for _, b := range []struct{ out, pkg string }{{binPath, binPkg}, {serverBin, testServerPkg}} {
		if out, err := exec.Command("go", "build", "-o", b.out, b.pkg).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", b.pkg, err, out)
			return 1
		}
	}
	if needEngine {
		if _, err := Engine(); err != nil {
			if testenv.CI() {
				fmt.Fprintf(os.Stderr, "no container engine reachable under CI: %v\n", err)
				return 1
			}
			fmt.Printf("skipping the package: no container engine reachable: %v\n", err)
			return 0
		}
	}
	code := testenv.Run(m)
	if engine != nil {
		if ids, err := engine.Containers(context.Background(), sandbox.Owner()); err != nil || len(ids) > 0 {
			fmt.Fprintf(os.Stderr, "LEAK: sandbox containers left behind: %v %v\n", ids, err)
			code = 1
		}
		engine.Close()
	}
	// Nothing started from the temp dir may outlive the tests.
	if pids := Pgrep(dir); len(pids) > 0 {
		fmt.Fprintf(os.Stderr, "LEAK: processes left behind: %v\n", pids)
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		code = 1
	}
	return code
}

// Bin is the path of the mcp-code-mode binary Main built.
func Bin() string { return binPath }

// TestServer is the path of the test server Main built; each Fixture has
// its own link to it, Fixture.Server.
func TestServer() string { return serverBin }

// Dir is the temp dir Main made: a process whose command line names a path
// in it must not outlive the tests.
func Dir() string { return testDir }

// Engine connects to the container engine once, making sure the sandbox
// image holds the current runner, and returns it (closed by Main), or why
// there is none.
func Engine() (*sandbox.Engine, error) {
	dockerOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		e, err := sandbox.New(ctx)
		if err != nil {
			engineErr = err
			return
		}
		if d, err := e.ImageRunnerDigest(context.Background(), sandbox.DefaultImage()); err != nil || d != runner.Digest() {
			fmt.Fprintf(os.Stderr, "sandbox image %s is missing or stale (%v); building it\n", sandbox.DefaultImage(), err)
			if _, err := e.BuildImage(context.Background(), sandbox.BuildOptions{Tag: sandbox.DefaultImage(), Log: os.Stderr}); err != nil {
				engineErr = fmt.Errorf("build sandbox image: %w", err)
				e.Close()
				return
			}
		}
		engine = e
	})
	return engine, engineErr
}

// NeedEngine skips the test in -short mode or when no container engine
// answers (fails it under CI=true), and returns the engine (see Engine).
func NeedEngine(t testing.TB) *sandbox.Engine {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the container engine; skipped in -short mode")
	}
	e, err := Engine()
	if err != nil {
		testenv.SkipOrFail(t, "no container engine reachable (start dockerd, or set DOCKER_HOST): %v", err)
	}
	return e
}

// Fixture is one test's world: a home dir, a copy of the test server under a
// path unique to the test (so pgrep can find exactly its processes), its
// call log, and a config file naming it as server "test".
type Fixture struct {
	Dir    string // temp dir of the test
	Home   string // HOME and XDG_CONFIG_HOME/..
	Server string // path of this test's test server
	Log    string // the test server's call log
	Config string // the config file
	Env    []string
}

// NewFixture writes a config with server "test" plus extra TOML.
func NewFixture(t testing.TB, extra string) *Fixture {
	t.Helper()
	dir, err := os.MkdirTemp(testDir, "t-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	f := &Fixture{
		Dir:    dir,
		Home:   filepath.Join(dir, "home"),
		Server: filepath.Join(dir, "testserver"),
		Log:    filepath.Join(dir, "calls.log"),
		Config: filepath.Join(dir, "config.toml"),
	}
	if err := os.MkdirAll(filepath.Join(f.Home, ".config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(serverBin, f.Server); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`[servers.test]
command = %q
args = ["-name", "test", "-log", %q]
description = "test tools"
`, f.Server, f.Log)
	f.Write(t, f.Config, cfg+extra)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "HOME" || strings.HasPrefix(name, "XDG_") || name == "CI" || strings.HasPrefix(name, "MCP_CODE_MODE_") || strings.HasPrefix(name, "OTEL_") {
			continue
		}
		f.Env = append(f.Env, kv)
	}
	f.Env = append(f.Env, "HOME="+f.Home, "XDG_CONFIG_HOME="+filepath.Join(f.Home, ".config"))
	// Whatever the test does, none of its server processes may survive it.
	t.Cleanup(func() { f.ExpectNoServers(t) })
	return f
}

// HTTPToken is the bearer token `serve --http` keeps in the fixture's state
// directory (it exists once such a server has started).
func (f *Fixture) HTTPToken(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.Home, ".local", "state", "mcp-code-mode", "http-token"))
	if err != nil {
		t.Fatalf("the HTTP token: %v", err)
	}
	return strings.TrimSpace(string(b))
}

// Auth is the header that carries HTTPToken.
func (f *Fixture) Auth(t testing.TB) map[string]string {
	t.Helper()
	return map[string]string{"Authorization": "Bearer " + f.HTTPToken(t)}
}

// Write writes a file of the fixture.
func (f *Fixture) Write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ExpectNoServers fails the test when one of its test server processes is
// still running a few seconds after it should have stopped, and kills it.
func (f *Fixture) ExpectNoServers(t testing.TB) {
	t.Helper()
	var pids []int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if pids = Pgrep(f.Server); len(pids) == 0 {
			return
		}
	}
	t.Errorf("LEAK: test server processes still running: %v", pids)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// Pgrep returns the pids of processes whose command line contains pattern.
func Pgrep(pattern string) []int {
	out, _ := exec.Command("pgrep", "-f", regexp.QuoteMeta(pattern)).Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}

// maxProcLife bounds how long a process Start starts may run. A two-minute
// bound once killed the HTTP server of TestVSCodeConnects while the test,
// slowed to 141 s by a busy CI machine, still used it; its warm sandboxes
// were left behind.
const maxProcLife = 10 * time.Minute

// Proc is one running mcp-code-mode process.
type Proc struct {
	Cmd            *exec.Cmd
	Stdout, Stderr testenv.Buffer
	done           chan struct{}
	code           int // exit status once done; -1 when killed by a signal
}

// Start starts the binary with args in its own process group. The test's
// cleanup ends it (SIGTERM, then SIGKILL to the group) and checks that it
// left no sandbox container behind. A process still running after
// maxProcLife is killed (SIGKILL, so it cannot clean up: the leak check
// then fails), which stops a hung one without cutting short a server that
// a slow test (VS Code in a browser, on a busy machine) still uses.
func (f *Fixture) Start(t testing.TB, stdin io.Reader, env []string, args ...string) *Proc {
	t.Helper()
	return f.start(t, stdin, nil, env, args)
}

// start is Start, with the process's stdout and stderr on out when it is
// not nil (and Proc.Stdout and Proc.Stderr then empty).
func (f *Fixture) start(t testing.TB, stdin io.Reader, out *os.File, env []string, args []string) *Proc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), maxProcLife)
	p := &Proc{done: make(chan struct{})}
	p.Cmd = exec.CommandContext(ctx, binPath, args...)
	p.Cmd.Env = append(append([]string{}, f.Env...), env...)
	p.Cmd.Dir = f.Dir
	p.Cmd.Stdin = stdin
	p.Cmd.Stdout = &p.Stdout
	p.Cmd.Stderr = &p.Stderr
	if out != nil {
		p.Cmd.Stdout, p.Cmd.Stderr = out, out
	}
	p.Cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.Cmd.Cancel = func() error { return syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL) }
	p.Cmd.WaitDelay = 5 * time.Second
	if err := p.Cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		defer cancel()
		_ = p.Cmd.Wait()
		p.code = p.Cmd.ProcessState.ExitCode()
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.Cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(5 * time.Second):
				t.Errorf("mcp-code-mode %v did not exit within 5s of SIGTERM; killing it", args)
				_ = syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
				<-p.done
			}
		}
		ExpectNoContainers(t, p.Cmd.Process.Pid)
	})
	return p
}

// Wait waits for the process to exit and returns its status.
func (p *Proc) Wait(t testing.TB, within time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(within):
		t.Fatalf("mcp-code-mode %v still running after %v\nstderr: %s", p.Cmd.Args[1:], within, p.Stderr.String())
		return 0
	}
}

// WaitStderr waits until stderr contains s.
func (p *Proc) WaitStderr(t testing.TB, s string, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(p.Stderr.String(), s) {
			return
		}
		select {
		case <-p.done:
			t.Fatalf("mcp-code-mode exited (status %d) before printing %q\nstderr: %s", p.code, s, p.Stderr.String())
		default:
		}
	}
	t.Fatalf("no %q on stderr within %v\nstderr: %s", s, within, p.Stderr.String())
}

// ExpectNoContainers fails the test when a sandbox container of the
// mcp-code-mode process pid is left over.
func ExpectNoContainers(t testing.TB, pid int) {
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

// Result is how one command ended.
type Result struct {
	Stdout, Stderr string
	Code           int
	Took           time.Duration
}

// Run runs the binary to its end (at most a minute) with stdin as input.
func (f *Fixture) Run(t testing.TB, stdin string, env []string, args ...string) Result {
	t.Helper()
	began := time.Now()
	p := f.Start(t, strings.NewReader(stdin), env, args...)
	code := p.Wait(t, time.Minute)
	r := Result{Stdout: p.Stdout.String(), Stderr: p.Stderr.String(), Code: code, Took: time.Since(began)}
	t.Logf("mcp-code-mode %s -> %d in %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.Code, r.Took.Round(time.Millisecond), Clip(r.Stdout, 600), Clip(r.Stderr, 600))
	return r
}

// CLI runs the binary with --config pointing at the fixture's config,
// inserted after the command name.
func (f *Fixture) CLI(t testing.TB, command string, args ...string) Result {
	t.Helper()
	return f.Run(t, "", nil, append([]string{command, "--config", f.Config}, args...)...)
}

// CLIOnTerminal runs the binary as CLI does, with its stdout and stderr
// on a terminal (a pseudo-terminal the test reads), and returns what the
// terminal received in Result.Stdout: both streams, each newline as the
// terminal sends it ("\r\n").
func (f *Fixture) CLIOnTerminal(t testing.TB, command string, args ...string) Result {
	t.Helper()
	ctl, term, err := openPTY()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ctl.Close()
	began := time.Now()
	p := f.start(t, strings.NewReader(""), term, nil, append([]string{command, "--config", f.Config}, args...))
	term.Close()
	// The controller reads until the last process holding the terminal
	// closes it (EIO).
	got, _ := io.ReadAll(io.LimitReader(ctl, 1<<20))
	code := p.Wait(t, time.Minute)
	r := Result{Stdout: string(got), Code: code, Took: time.Since(began)}
	t.Logf("mcp-code-mode %s %v (on a terminal) -> %d in %v\nterminal: %q", command, args, r.Code, r.Took.Round(time.Millisecond), Clip(r.Stdout, 600))
	return r
}

// openPTY opens a pseudo-terminal: the controller a test reads and the
// terminal a process writes to.
func openPTY() (ctl, term *os.File, err error) {
	ctl, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(ctl.Fd())
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0) // unlock
	}
	if err == nil {
		term, err = os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	if err != nil {
		ctl.Close()
		return nil, nil, err
	}
	return ctl, term, nil
}

func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// ServerCalls reads the calls the test server received.
func ServerCalls(t testing.TB, path string) []calllog.Record {
	t.Helper()
	recs, err := calllog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
