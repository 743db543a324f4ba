package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// queueAnswer is one client's answer to run_python.
type queueAnswer struct {
	client     int
	err        error
	isError    bool
	text       string
	stdout     string
	retryAfter int
}

// With every run slot taken and limits.queue runs waiting, the next runs are
// refused at once, as busy with a time to retry after, while the others are
// still running; the others then succeed. The runs hold their slots on a
// gate the test opens, so the order is by events: the refusals arrive while
// the gate is shut, when no admitted run can have ended.
func TestAFullQueueRefusesRunsAtOnceAsBusyWithARetryAfter(t *testing.T) {
	clitest.NeedEngine(t)
	const slots, queue, extra = 2, 1, 2
	f := clitest.NewFixture(t, "")
	gate := filepath.Join(f.Dir, "gate-open")
	f.Write(t, f.Config, fmt.Sprintf(`[servers.gated]
command = %q
args = ["-name", "gated", "-gate", %q]

[limits]
concurrent_runs = %d
queue = %d
warm = 1
`, f.Server, gate, slots, queue))
	_, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT")

	answers := make(chan queueAnswer, slots+queue+extra)
	for i := range slots + queue + extra {
		c := clitest.HTTPClient(t, url, f.Auth(t)) // each client its own session
		clitest.Initialize(t, c)
		go func() {
			ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
			defer cancel()
			req := mcp.CallToolRequest{}
			req.Params.Name = "run_python"
			req.Params.Arguments = map[string]any{"code": "print(await mcp_gated.gate())", "servers": []string{"gated"}}
			res, err := c.CallTool(ctx, req)
			a := queueAnswer{client: i, err: err}
			if err == nil {
				a.isError = res.IsError
				for _, content := range res.Content {
					if tc, ok := mcp.AsTextContent(content); ok {
						a.text += tc.Text
					}
				}
				var sc struct {
					Stdout     string `json:"stdout"`
					RetryAfter int    `json:"retry_after"`
				}
				raw, _ := json.Marshal(res.StructuredContent)
				_ = json.Unmarshal(raw, &sc)
				a.stdout, a.retryAfter = sc.Stdout, sc.RetryAfter
			}
			answers <- a
		}()
	}

	// The gate is shut: the first answers can only be refusals.
	retry := regexp.MustCompile(`^Error: the server is busy: all 2 run slots are taken and the queue of 1 waiting runs is full \(limits\.queue\); retry after ([0-9]+) s$`)
	for range extra {
		a := <-answers
		if a.err != nil {
			t.Fatalf("client %d: %v", a.client, a.err)
		}
		m := retry.FindStringSubmatch(a.text)
		if !a.isError || m == nil {
			t.Fatalf("client %d was answered while the gate was shut, and not as busy: isError=%v %q", a.client, a.isError, a.text)
		}
		if n, _ := strconv.Atoi(m[1]); n < 1 || n != a.retryAfter {
			t.Errorf("client %d: retry after %s s in the text, retry_after %d in the structured content; want the same, at least 1", a.client, m[1], a.retryAfter)
		}
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for range slots + queue {
		a := <-answers
		if a.err != nil || a.isError || a.stdout != "open\n" || a.retryAfter != 0 {
			t.Errorf("client %d, admitted: err=%v isError=%v stdout %q retry_after %d text %q", a.client, a.err, a.isError, a.stdout, a.retryAfter, a.text)
		}
	}

	// The audit log has each refused run as busy, with why.
	outcomes := map[string]int{}
	for _, r := range auditLog(t, f) {
		if r.Kind != audit.KindRun {
			continue
		}
		outcomes[r.Outcome]++
		if r.Outcome == audit.Busy && !strings.HasPrefix(r.Reason, "the server is busy: all 2 run slots are taken") {
			t.Errorf("a busy run's reason is %q", r.Reason)
		}
	}
	if outcomes[audit.Busy] != extra || outcomes[audit.OK] != slots+queue || len(outcomes) != 2 {
		t.Errorf("run outcomes in the audit log %v, want %d busy and %d ok", outcomes, extra, slots+queue)
	}
}

// The debug endpoints need no token, so they listen on loopback only.
func TestDebugAddrIsLoopbackOnly(t *testing.T) {
	f := clitest.NewFixture(t, "")
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", ":0"} {
		r := f.Run(t, "", nil, "serve", "--config", f.Config, "--debug-addr", addr)
		if r.Code != 1 || !strings.Contains(r.Stderr, "--debug-addr "+addr+": only a loopback address is allowed") {
			t.Errorf("--debug-addr %s: exit %d, stderr %q; want 1 and why", addr, r.Code, r.Stderr)
		}
	}
}
