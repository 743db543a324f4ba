package main

// The processes and containers under test: serve and testserver
// subprocesses driven by an mcp-go client, the engine's event stream, RSS
// sampling, and a cleanup that leaves nothing behind.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	dockerclient "github.com/moby/moby/client"

	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

// cleaner runs cleanup functions once each, the newest first.
type cleaner struct {
	mu  sync.Mutex
	fns []func()
}

func (c *cleaner) add(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fns = append(c.fns, sync.OnceFunc(f))
}

func (c *cleaner) run() {
	for {
		c.mu.Lock()
		if len(c.fns) == 0 {
			c.mu.Unlock()
			return
		}
		f := c.fns[len(c.fns)-1]
		c.fns = c.fns[:len(c.fns)-1]
		c.mu.Unlock()
		f()
	}
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 16<<10 {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-8<<10:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// cleanEnv is the environment of the processes under test: this one's,
// without MCP_CODE_MODE_* settings (so that only the bench's own apply),
// plus extra.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCP_CODE_MODE_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// mcpProc is an MCP server subprocess over stdio with an mcp-go client.
type mcpProc struct {
	name   string
	c      *client.Client
	cmd    *exec.Cmd
	stderr tail
	begun  time.Time // just before the process was started
	cancel context.CancelFunc
	docker *dockerclient.Client // for removing its containers; may be nil
	closed sync.Once
}

// startMCP starts command with args in its own process group and
// initializes an MCP session with it (protocol pinned to the last
// handshake version). The process lives until Close.
func startMCP(ctx context.Context, name, command string, args, env []string, docker *dockerclient.Client, cl *cleaner) (*mcpProc, error) {
	p := &mcpProc{name: name, docker: docker}
	life, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	tr := transport.NewStdioWithOptions(command, nil, args,
		transport.WithCommandFunc(func(ctx context.Context, command string, _, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env = env
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			cmd.WaitDelay = 5 * time.Second
			p.cmd = cmd
			return cmd, nil
		}),
		transport.WithCommandStderrWriter(&p.stderr),
	)
	p.c = client.NewClient(tr)
	p.begun = time.Now()
	cl.add(p.Close)
	if err := p.c.Start(life); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	ictx, icancel := context.WithTimeout(ctx, 30*time.Second)
	defer icancel()
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "mcp-code-mode-bench", Version: "0.1.0"}
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := p.c.Initialize(ictx, req); err != nil {
		return nil, fmt.Errorf("initialize %s: %w\n%s", name, err, p.stderr.String())
	}
	return p, nil
}

func (p *mcpProc) pid() int {
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// owner is the owner label serve puts on its containers.
func (p *mcpProc) owner() string {
	host, _ := os.Hostname()
	return host + "/" + strconv.Itoa(p.pid())
}

// Close ends the session (stdin closed: serve removes its warm containers
// and stops its wrapped servers), then kills what is left of the process,
// of its descendants, and removes containers labelled with its owner.
func (p *mcpProc) Close() {
	p.closed.Do(func() {
		pid := p.pid()
		desc := descendants(pid)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = p.c.Close() // stdin EOF, 2 s, SIGTERM, 3 s, SIGKILL
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
		p.cancel() // kills the process group if it is still there
		killAll(desc)
		if p.docker != nil && pid != 0 {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if n, err := removeContainers(ctx, p.docker, sandbox.LabelOwner+"="+p.owner()); err != nil {
				fmt.Fprintf(os.Stderr, "bench: removing containers of %s: %v\n", p.name, err)
			} else if n > 0 {
				fmt.Fprintf(os.Stderr, "bench: removed %d container(s) %s left behind\n", n, p.name)
			}
		}
	})
}

// rawToolsList sends tools/list and returns the tools as the server sent
// them.
func (p *mcpProc) rawToolsList(ctx context.Context) ([]json.RawMessage, error) {
	return upstream.ListTools(ctx, p.c)
}

// runResult is run_python's structured content.
type runResult struct {
	Stdout     string   `json:"stdout"`
	Error      *string  `json:"error"`
	Truncated  bool     `json:"truncated"`
	Stopped    bool     `json:"stopped"`
	Calls      int      `json:"calls"`
	DurationMS int64    `json:"duration_ms"`
	Servers    []string `json:"servers"`
}

// runPython calls run_python and returns its result and the span of the
// call as the client saw it. A run that reports an error is an error.
func (p *mcpProc) runPython(ctx context.Context, code string, servers []string) (runResult, span, error) {
	res, sp, err := runPython(ctx, p.c, code, servers)
	if err != nil {
		return res, sp, fmt.Errorf("%w\n%s", err, p.stderr.String())
	}
	return res, sp, nil
}

// runPython calls run_python through c and returns its result and the
// span of the call as the client saw it. A run that reports an error is an
// error.
func runPython(ctx context.Context, c *client.Client, code string, servers []string) (runResult, span, error) {
	var res runResult
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_python"
	args := map[string]any{"code": code}
	if len(servers) > 0 {
		args["servers"] = servers
	}
	req.Params.Arguments = args
	cctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	start := time.Now()
	out, err := c.CallTool(cctx, req)
	sp := span{start.UnixNano(), time.Now().UnixNano()}
	if err != nil {
		return res, sp, fmt.Errorf("run_python: %w", err)
	}
	raw := out.RawStructuredContent
	if len(raw) == 0 {
		return res, sp, fmt.Errorf("run_python: no structured content")
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return res, sp, fmt.Errorf("run_python result: %w", err)
	}
	if res.Error != nil {
		return res, sp, fmt.Errorf("run_python: the run failed: %s (stdout %.300q)", *res.Error, res.Stdout)
	}
	return res, sp, nil
}

// callTool calls one tool and returns an error for a failure of any kind.
func (p *mcpProc) callTool(ctx context.Context, name string, args map[string]any) error {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := p.c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("%s: isError", name)
	}
	return nil
}

// proc identifies a process by its PID and start time (against reuse).
type proc struct {
	pid   int
	start string
}

// statFields returns the PPID and start time of /proc/PID/stat.
func statFields(pid int) (ppid int, start string, ok bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(s[i+1:]) // state ppid pgrp ... starttime is field 22 of the line, 20 here
	if len(f) < 20 {
		return 0, "", false
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[19], true
}

// descendants lists the processes below pid.
func descendants(pid int) []proc {
	if pid <= 0 {
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]proc{}
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, start, ok := statFields(n); ok {
			children[ppid] = append(children[ppid], proc{n, start})
		}
	}
	var out []proc
	queue := []int{pid}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, c := range children[cur] {
			out = append(out, c)
			queue = append(queue, c.pid)
		}
	}
	return out
}

// killAll sends SIGKILL to those of procs that still run (same start time).
func killAll(procs []proc) {
	for _, p := range procs {
		if _, start, ok := statFields(p.pid); ok && start == p.start {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
}

// rssKB reads the resident set of pid.
func rssKB(pid int) (int64, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, err
	}
	return vmRSS(string(b))
}

// rssSampler records the peak resident set of pid, sampled every period.
type rssSampler struct {
	stop chan struct{}
	done chan struct{}
	peak int64
	n    int
}

func sampleRSS(pid int, period time.Duration) *rssSampler {
	s := &rssSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			if kb, err := rssKB(pid); err == nil {
				s.peak = max(s.peak, kb)
				s.n++
			}
			select {
			case <-t.C:
			case <-s.stop:
				return
			}
		}
	}()
	return s
}

// Stop ends sampling and returns the peak (kB) and the number of samples.
func (s *rssSampler) Stop() (int64, int) {
	close(s.stop)
	<-s.done
	return s.peak, s.n
}

// eventLog collects the engine's container events for one owner label.
type eventLog struct {
	mu     sync.Mutex
	events []dockerEvent
	cancel context.CancelFunc
	done   chan struct{}
}

// watchEvents follows the engine's container events since since for
// containers with the given label (KEY=VALUE).
func watchEvents(docker *dockerclient.Client, since time.Time, label string) *eventLog {
	ctx, cancel := context.WithCancel(context.Background())
	l := &eventLog{cancel: cancel, done: make(chan struct{})}
	res := docker.Events(ctx, dockerclient.EventsListOptions{
		Since:   fmt.Sprintf("%d.%09d", since.Unix(), since.Nanosecond()),
		Filters: make(dockerclient.Filters).Add("type", "container").Add("label", label),
	})
	go func() {
		defer close(l.done)
		for {
			select {
			case m := <-res.Messages:
				l.mu.Lock()
				l.events = append(l.events, dockerEvent{ID: m.Actor.ID, Action: string(m.Action), Type: string(m.Type), TimeNano: m.TimeNano})
				l.mu.Unlock()
			case <-res.Err:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return l
}

// eventSettle is how long snapshot waits for late events.
const eventSettle = 500 * time.Millisecond

// snapshot returns the events so far, after waiting eventSettle for late ones.
func (l *eventLog) snapshot() []dockerEvent {
	time.Sleep(eventSettle)
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]dockerEvent(nil), l.events...)
}

func (l *eventLog) Close() {
	l.cancel()
	<-l.done
}

// removeContainers force-removes the containers with the label (KEY=VALUE).
func removeContainers(ctx context.Context, docker *dockerclient.Client, label string) (int, error) {
	list, err := docker.ContainerList(ctx, dockerclient.ContainerListOptions{All: true, Filters: make(dockerclient.Filters).Add("label", label)})
	if err != nil {
		return 0, err
	}
	var errs []error
	n := 0
	for _, c := range list.Items {
		if _, err := docker.ContainerRemove(ctx, c.ID, dockerclient.ContainerRemoveOptions{Force: true}); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// dockerCLI runs the docker command line and returns its stdout.
func dockerCLI(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "docker", args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("docker %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// cpuTime is the CPU time pid has used so far (0 if unknown).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	d, _ := statCPU(string(b))
	return d
}
