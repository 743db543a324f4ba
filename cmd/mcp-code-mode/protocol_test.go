package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// A client that sends a progress token gets progress notifications: after
// each call and every second, with increasing progress.
func TestServeReportsProgress(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	c, _, _ := f.StdioServe(t, "serve", "--config", f.Config)
	var mu sync.Mutex
	var progress []float64
	var messages []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != string(mcp.MethodNotificationProgress) {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if p, ok := n.Params.AdditionalFields["progress"].(float64); ok {
			progress = append(progress, p)
		}
		if m, ok := n.Params.AdditionalFields["message"].(string); ok {
			messages = append(messages, m)
		}
	})
	var req mcp.CallToolRequest
	req.Params.Name = "run_python"
	req.Params.Arguments = map[string]any{"code": `
import time
await mcp_test.noop()
await mcp_test.noop()
time.sleep(2.2)
print("done")`, "servers": []string{"test"}}
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-1"}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	res, err := c.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("run_python: %v %+v", err, res)
	}
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	t.Logf("progress %v messages %q", progress, messages)
	if len(progress) < 4 { // two calls and at least two ticks
		t.Fatalf("got %d progress notifications, want at least 4", len(progress))
	}
	for i := 1; i < len(progress); i++ {
		if progress[i] <= progress[i-1] {
			t.Fatalf("progress did not increase: %v", progress)
		}
	}
	if !strings.Contains(strings.Join(messages, "|"), "2 calls") {
		t.Fatalf("messages %q do not count the calls", messages)
	}
}

// notifications/cancelled for a running run_python kills its container at
// once, and the server goes on serving.
func TestServeCancelKillsTheRun(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	// Without warm containers, the only container is the run's.
	f.Env = append(f.Env, "MCP_CODE_MODE_LIMITS__WARM=0")
	c, cmd, _ := f.StdioServe(t, "serve", "--config", f.Config)
	ctx, cancel := context.WithCancel(t.Context())
	var req mcp.CallToolRequest
	req.Params.Name = "run_python"
	req.Params.Arguments = map[string]any{"code": "while True: pass"}
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, req) // the stdio client sends notifications/cancelled
		errc <- err
	}()
	waitContainer(t, cmd.Process.Pid)
	began := time.Now()
	cancel()
	<-errc
	deadline := time.Now().Add(5 * time.Second)
	for {
		if len(containersOf(t, cmd.Process.Pid)) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled run's container still runs its program")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the cancelled run's container was gone %v after the cancel", time.Since(began).Round(time.Millisecond))
	r := clitest.RunPython(t, c, map[string]any{"code": "print('still serving')"})
	if r.IsError || !strings.Contains(r.Text, "still serving") {
		t.Fatalf("after a cancel: %+v", r)
	}
}
