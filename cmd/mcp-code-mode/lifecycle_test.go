package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcp-code-mode/mcp-code-mode/internal/aggregator"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// waitContainer waits until the mcp-code-mode process pid has a sandbox
// container, i.e. a run is in progress.
func waitContainer(t *testing.T, pid int) {
	t.Helper()
	host, _ := os.Hostname()
	owner := host + "/" + strconv.Itoa(pid)
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if ids, err := clitest.NeedEngine(t).Containers(context.Background(), owner); err == nil && len(ids) > 0 {
			time.Sleep(300 * time.Millisecond) // let the program start
			return
		}
	}
	t.Fatalf("no sandbox container of %s appeared", owner)
}

const sleeper = "print(await mcp_test.add(a=1, b=2), flush=True)\nimport time\ntime.sleep(60)"

// SIGTERM (or Ctrl-C) during `run` stops the run, removes its container and
// stops the servers it started; the exit status is the shell's for the
// signal: 128 + its number (130 for Ctrl-C, 143 for SIGTERM).
func TestRunInterrupted(t *testing.T) {
	clitest.NeedEngine(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			want := 128 + int(sig)
			f := clitest.NewFixture(t, "")
			p := f.Start(t, nil, nil, "run", "--config", f.Config, "--servers", "test", "-c", sleeper)
			waitContainer(t, p.Cmd.Process.Pid)
			began := time.Now()
			_ = p.Cmd.Process.Signal(sig)
			code := p.Wait(t, 10*time.Second)
			t.Logf("exit %d after %v; stderr %q", code, time.Since(began), p.Stderr.String())
			if code != want || !strings.Contains(p.Stderr.String(), "the run was cancelled") {
				t.Errorf("exit %d stderr %q: want %d and a message that the run was cancelled", code, p.Stderr.String(), want)
			}
			if took := time.Since(began); took > 5*time.Second {
				t.Errorf("run took %v to stop after %v", took, sig)
			}
			clitest.ExpectNoContainers(t, p.Cmd.Process.Pid)
			f.ExpectNoServers(t)
		})
	}
}

// A client that goes away during a run: serve ends promptly and leaves
// neither the sandbox nor the wrapped server behind.
func TestServeStdioClientGoneDuringRun(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "run_python"
		req.Params.Arguments = map[string]any{"code": sleeper, "servers": []string{"test"}}
		_, _ = c.CallTool(context.Background(), req)
	}()
	waitContainer(t, cmd.Process.Pid)
	_ = c.Close() // EOF, then after 2s SIGTERM, after 3s more SIGKILL
	t.Logf("serve ended with %v; stderr %q", cmd.ProcessState, stderr.String())
	if !strings.Contains(stderr.String(), aggregator.StdinClosed) {
		t.Errorf("serve did not stop by itself when its client closed stdin during a run (it needed a signal)")
	}
	if st := cmd.ProcessState; st == nil || st.ExitCode() < 0 {
		t.Errorf("serve was killed (%v), want it to exit by itself", st)
	}
	clitest.ExpectNoContainers(t, cmd.Process.Pid)
	f.ExpectNoServers(t)
}

// SIGTERM to `serve --http` during a run: it exits within a few seconds,
// removing the sandbox and stopping the wrapped server.
func TestServeHTTPShutdownDuringRun(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	p, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT")
	c := clitest.HTTPClient(t, url, f.Auth(t))
	clitest.Initialize(t, c)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "run_python"
		req.Params.Arguments = map[string]any{"code": sleeper, "servers": []string{"test"}}
		_, _ = c.CallTool(context.Background(), req)
	}()
	waitContainer(t, p.Cmd.Process.Pid)
	began := time.Now()
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	code := p.Wait(t, 20*time.Second)
	took := time.Since(began)
	t.Logf("serve --http exited %d after %v; stderr %q", code, took, p.Stderr.String())
	f.ExpectNoServers(t)
	if left := containersOf(t, p.Cmd.Process.Pid); code != 0 || took > 7*time.Second || len(left) > 0 {
		// Remove what the dead process left behind (its owner is gone, so
		// it is an orphan for Sweep), so the suite stays clean.
		if n, err := clitest.NeedEngine(t).Sweep(context.Background(), 0); err != nil || n < len(left) {
			t.Errorf("sweep of leftover sandboxes: removed %d of %d: %v", n, len(left), err)
		}
		t.Fatalf("SIGTERM to `serve --http` during a run: exit %d after %v (%q), %d sandbox container(s) left running",
			code, took.Round(time.Millisecond), strings.TrimSpace(lastLine(p.Stderr.String())), len(left))
	}
}

// containersOf lists the sandbox containers of the mcp-code-mode process
// pid, waiting up to 3s for them to go.
func containersOf(t *testing.T, pid int) []string {
	t.Helper()
	host, _ := os.Hostname()
	owner := host + "/" + strconv.Itoa(pid)
	var ids []string
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var err error
		if ids, err = clitest.NeedEngine(t).Containers(context.Background(), owner); err != nil {
			t.Fatal(err)
		}
		if len(ids) == 0 {
			return nil
		}
	}
	return ids
}

// SIGTERM to stdio `serve` during a run: the run is cancelled, and serve
// exits leaving nothing behind.
func TestServeStdioSignalDuringRun(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config)
	answered := make(chan string, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "run_python"
		req.Params.Arguments = map[string]any{"code": sleeper, "servers": []string{"test"}}
		res, err := c.CallTool(context.Background(), req)
		switch {
		case err != nil:
			answered <- "error: " + err.Error()
		default:
			text := ""
			for _, content := range res.Content {
				if tc, ok := mcp.AsTextContent(content); ok {
					text += tc.Text
				}
			}
			answered <- text
		}
	}()
	waitContainer(t, cmd.Process.Pid)
	began := time.Now()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case a := <-answered:
		t.Logf("the client got %q", a)
	case <-time.After(5 * time.Second):
		t.Errorf("the in-flight call got no answer within 5s of SIGTERM")
	}
	_ = c.Close()
	t.Logf("serve ended after %v with %v; stderr %q", time.Since(began), cmd.ProcessState, stderr.String())
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("serve took %v to exit after SIGTERM", took)
	}
	clitest.ExpectNoContainers(t, cmd.Process.Pid)
	f.ExpectNoServers(t)
}
