package aggregator

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// The cancellation tests speak raw streamable HTTP to HTTPHandler, as two
// clients would: protocol 2026-07-28 (no sessions, the version in a header
// and in each message's _meta) and 2025-11-25 (a session from initialize).

// mcpClient is one client of the HTTP handler at url.
type mcpClient struct {
	url     string
	version string // the protocol version it speaks
	session string // Mcp-Session-Id (before 2026-07-28)
	token   string // the bearer token it sends, if any
}

// modern reports whether the client speaks a protocol without sessions.
func (c *mcpClient) modern() bool { return mcp.IsModernProtocol(c.version) }

// post sends one JSON-RPC message (id nil for a notification) and returns
// the response, whose body the caller reads and closes.
func (c *mcpClient) post(ctx context.Context, t *testing.T, id any, method string, params map[string]any) *http.Response {
	t.Helper()
	params = maps.Clone(params)
	if params == nil {
		params = map[string]any{}
	}
	if c.modern() {
		meta, _ := params["_meta"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
		}
		meta[mcp.MetaKeyProtocolVersion] = c.version
		meta[mcp.MetaKeyClientInfo] = map[string]any{"name": "cancel-test", "version": "1"}
		meta[mcp.MetaKeyClientCapabilities] = map[string]any{}
		params["_meta"] = meta
	}
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id != nil {
		msg["id"] = id
	}
	body, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.version != "" && method != string(mcp.MethodInitialize) {
		req.Header.Set(mcp.HeaderProtocolVersion, c.version)
	}
	if c.modern() {
		raw, _ := json.Marshal(params)
		for k, v := range mcp.StandardHeaders(c.version, mcp.MCPMethod(method), raw) {
			req.Header.Set(k, v)
		}
	}
	if c.session != "" {
		req.Header.Set(mcp.HeaderSessionID, c.session)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", method, err)
	}
	return resp
}

// notify posts a notification and returns the HTTP status.
func (c *mcpClient) notify(t *testing.T, method string, params map[string]any) int {
	t.Helper()
	resp := c.post(t.Context(), t, nil, method, params)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// initialize opens a session (before 2026-07-28).
func (c *mcpClient) initialize(t *testing.T) {
	t.Helper()
	resp := c.post(t.Context(), t, 1, string(mcp.MethodInitialize), map[string]any{
		"protocolVersion": c.version, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "cancel-test", "version": "1"},
	})
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get(mcp.HeaderSessionID) == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, resp.Header.Get(mcp.HeaderSessionID))
	}
	c.session = resp.Header.Get(mcp.HeaderSessionID)
	if code := c.notify(t, "notifications/initialized", nil); code != http.StatusAccepted {
		t.Fatalf("notifications/initialized: status %d", code)
	}
}

// runCall is a run_python call in flight.
type runCall struct {
	resp     *http.Response
	progress chan struct{} // a notifications/progress arrived
	done     chan struct{} // closed when the answer came or the stream ended
	result   *mcp.CallToolResult
	err      error
}

// runID is the request id of every run in these tests: clients that do not
// know of each other use the same ids.
const runID = 7

// startRun calls run_python with request id runID, asking for progress,
// and reads the answer's stream in the background.
func (c *mcpClient) startRun(ctx context.Context, t *testing.T, code string) *runCall {
	t.Helper()
	resp := c.post(ctx, t, runID, string(mcp.MethodToolsCall), map[string]any{
		"name": ToolName, "arguments": map[string]any{"code": code},
		"_meta": map[string]any{"progressToken": "progress"},
	})
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		t.Fatalf("tools/call: status %d: %s", resp.StatusCode, b)
	}
	rc := &runCall{resp: resp, progress: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(rc.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			line := sc.Text()
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				if strings.HasPrefix(line, "{") { // a plain JSON answer
					data = line
				} else {
					continue
				}
			}
			var m struct {
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal([]byte(data), &m); err != nil {
				rc.err = fmt.Errorf("a message that is not JSON: %q", data)
				return
			}
			switch {
			case m.Method == string(mcp.MethodNotificationProgress):
				select {
				case rc.progress <- struct{}{}:
				default:
				}
			case m.Result != nil:
				res, err := mcp.ParseCallToolResult(&m.Result)
				rc.result, rc.err = res, err
				return
			case m.Error != nil:
				rc.err = fmt.Errorf("error answer: %s", m.Error)
				return
			}
		}
		rc.err = fmt.Errorf("the stream ended without an answer: %v", sc.Err())
	}()
	return rc
}

// waitProgress waits until the run is in flight (it sent progress).
func (rc *runCall) waitProgress(t *testing.T) {
	t.Helper()
	select {
	case <-rc.progress:
	case <-rc.done:
		t.Fatalf("the run ended before it sent progress: %v", rc.err)
	case <-time.After(time.Minute):
		t.Fatal("no progress from the run within a minute")
	}
}

// wait waits for the answer and returns its text and structured content.
func (rc *runCall) wait(t *testing.T) (string, Result) {
	t.Helper()
	select {
	case <-rc.done:
	case <-time.After(2 * time.Minute):
		t.Fatal("no answer within two minutes")
	}
	if rc.err != nil {
		t.Fatal(rc.err)
	}
	var res Result
	b, _ := json.Marshal(rc.result.StructuredContent)
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	var text []string
	for _, c := range rc.result.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return strings.Join(text, "\n"), res
}

// running reports whether the run has not answered yet.
func (rc *runCall) running() bool {
	select {
	case <-rc.done:
		return false
	default:
		return true
	}
}

// sleeper prints after a while: long enough for another client to act while
// it runs.
const sleeper = "import time\ntime.sleep(4)\nprint('A finished')"

// cancelServer serves the HTTP handler of an aggregator with no servers.
func cancelServer(t *testing.T, eng Engine) string {
	t.Helper()
	cfg := config.Default()
	cfg.CatalogDir = t.TempDir()
	cfg.Runtime = testRuntime()
	a, err := New(cfg, nil, eng, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.HTTPHandler(HTTPOptions{}))
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	return srv.URL + "/mcp"
}

// On protocol 2026-07-28 there are no sessions: a notifications/cancelled
// cannot be tied to the client that sent it. Client B cancelling request id
// 7 must not stop client A's run with the same id: B's notification, marked
// as 2026-07-28 by its header, its _meta or both, is accepted and dropped.
func TestAStatelessCancelCannotReachAnotherClientsRun(t *testing.T) {
	url := cancelServer(t, clitest.NeedEngine(t))
	a := &mcpClient{url: url, version: mcp.ProtocolVersion20260728}
	run := a.startRun(t.Context(), t, sleeper)
	run.waitProgress(t)

	b := &mcpClient{url: url, version: mcp.ProtocolVersion20260728}
	cancel := map[string]any{"requestId": runID, "reason": "B"}
	if code := b.notify(t, string(mcp.MethodNotificationCancelled), cancel); code != http.StatusAccepted {
		t.Errorf("B's notifications/cancelled: status %d, want 202", code)
	}
	withMeta := map[string]any{"requestId": runID, "_meta": map[string]any{mcp.MetaKeyProtocolVersion: mcp.ProtocolVersion20260728}}
	for _, tc := range []struct {
		how    string
		params map[string]any
		header bool
	}{{"_meta only", withMeta, false}, {"header only", cancel, true}, {"a later version", map[string]any{"requestId": runID, "_meta": map[string]any{mcp.MetaKeyProtocolVersion: "2027-01-01"}}, false}} {
		if code := b.postCancel(t, tc.params, tc.header); code != http.StatusAccepted {
			t.Errorf("B's notifications/cancelled (%s): status %d, want 202", tc.how, code)
		}
	}
	if !run.running() {
		t.Fatal("A's run ended before B's cancels were answered: the test proves nothing")
	}
	text, res := run.wait(t)
	if res.Error != nil || res.Stopped || res.Stdout != "A finished\n" {
		t.Fatalf("A's run was disturbed by B's cancel: stopped=%v error=%s text=%q", res.Stopped, deref(res.Error), text)
	}
}

// postCancel posts notifications/cancelled with exactly params, with the
// 2026-07-28 version header or without any.
func (c *mcpClient) postCancel(t *testing.T, params map[string]any, header bool) int {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": mcp.MethodNotificationCancelled, "params": params})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if header {
		req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion20260728)
		req.Header.Set(mcp.HeaderMethod, string(mcp.MethodNotificationCancelled))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// Before 2026-07-28 a cancel names its session: another session's cancel of
// the same request id leaves the run alone, and the session's own cancel
// stops it.
func TestASessionCancelReachesOnlyItsOwnSessionsRun(t *testing.T) {
	url := cancelServer(t, clitest.NeedEngine(t))
	a := &mcpClient{url: url, version: mcp.LATEST_LEGACY_PROTOCOL_VERSION}
	a.initialize(t)
	b := &mcpClient{url: url, version: mcp.LATEST_LEGACY_PROTOCOL_VERSION}
	b.initialize(t)
	if a.session == b.session {
		t.Fatalf("two clients got one session %q", a.session)
	}

	run := a.startRun(t.Context(), t, sleeper)
	run.waitProgress(t)
	if code := b.notify(t, string(mcp.MethodNotificationCancelled), map[string]any{"requestId": runID, "reason": "B"}); code != http.StatusAccepted {
		t.Errorf("B's notifications/cancelled: status %d, want 202", code)
	}
	if !run.running() {
		t.Fatal("A's run ended before B's cancel was answered: the test proves nothing")
	}
	text, res := run.wait(t)
	if res.Error != nil || res.Stopped || res.Stdout != "A finished\n" {
		t.Fatalf("A's run was disturbed by another session's cancel: stopped=%v error=%s text=%q", res.Stopped, deref(res.Error), text)
	}

	// A's own cancel stops its run long before the program would end.
	run = a.startRun(t.Context(), t, "import time\ntime.sleep(600)\nprint('not cancelled')")
	run.waitProgress(t)
	if code := a.notify(t, string(mcp.MethodNotificationCancelled), map[string]any{"requestId": runID, "reason": "A"}); code != http.StatusAccepted {
		t.Errorf("A's notifications/cancelled: status %d, want 202", code)
	}
	text, res = run.wait(t)
	if !res.Stopped || res.Error == nil || !strings.Contains(*res.Error, "cancelled") {
		t.Fatalf("A's own cancel did not stop its run: stopped=%v error=%s text=%q", res.Stopped, deref(res.Error), text)
	}
}

// recordingEngine is an engine that notes the containers it starts.
type recordingEngine struct {
	Engine
	mu  sync.Mutex
	ids []string
}

func (e *recordingEngine) Start(ctx context.Context, spec sandbox.Spec) (*sandbox.Container, error) {
	c, err := e.Engine.Start(ctx, spec)
	if err == nil {
		e.mu.Lock()
		e.ids = append(e.ids, c.ID)
		e.mu.Unlock()
	}
	return c, err
}

func (e *recordingEngine) started() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.ids)
}

// On protocol 2026-07-28 a client cancels a request by closing its
// response stream: the run is stopped and its container removed.
func TestClosingTheResponseStreamCancelsAStatelessRun(t *testing.T) {
	eng := clitest.NeedEngine(t)
	rec := &recordingEngine{Engine: eng}
	url := cancelServer(t, rec)
	a := &mcpClient{url: url, version: mcp.ProtocolVersion20260728}
	ctx, hangUp := context.WithCancel(t.Context())
	run := a.startRun(ctx, t, "import time\ntime.sleep(600)\nprint('not cancelled')")
	run.waitProgress(t)
	// Progress is reported every second from the start: on a loaded
	// machine the container may come after the first report.
	ids := rec.started()
	for deadline := time.Now().Add(60 * time.Second); len(ids) == 0 && time.Now().Before(deadline); ids = rec.started() {
		time.Sleep(50 * time.Millisecond)
	}
	if len(ids) != 1 {
		hangUp()
		<-run.done
		t.Fatalf("containers started: %v, want the run's one", ids)
	}
	hangUp()
	<-run.done
	// The container goes once the run is stopped; a run left running would
	// keep it for the program's ten minutes.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left, err := eng.Containers(t.Context(), sandbox.Owner())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(left, ids[0]) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run's container %s still exists 30 s after its client hung up", ids[0][:12])
		}
	}
}

// stuckEngine is an engine too busy to answer: its starts return, whatever
// their context, only once the test lets them, and then start a container
// for real.
type stuckEngine struct {
	*recordingEngine
	entered chan struct{} // a value for each start that began
	release chan struct{} // closed: the starts go on
}

func (e *stuckEngine) Start(ctx context.Context, spec sandbox.Spec) (*sandbox.Container, error) {
	e.entered <- struct{}{}
	<-e.release
	return e.recordingEngine.Start(context.WithoutCancel(ctx), spec)
}

// A run whose sandbox is still starting at its deadline answers then, not
// when the engine does; its slot stays taken until the start returns, and
// the container that start made is removed.
func TestARunPastItsDeadlineDoesNotWaitForAStuckStart(t *testing.T) {
	eng := clitest.NeedEngine(t)
	stuck := &stuckEngine{recordingEngine: &recordingEngine{Engine: eng}, entered: make(chan struct{}, 4), release: make(chan struct{})}
	cfg := config.Default()
	cfg.CatalogDir = t.TempDir()
	cfg.State.Path = filepath.Join(t.TempDir(), "state.db")
	cfg.TokenDir = t.TempDir()
	cfg.Runtime = testRuntime()
	cfg.Limits.Warm = 0
	cfg.Limits.ConcurrentRuns = 1
	a, err := New(cfg, nil, stuck, nil)
	if err != nil {
		t.Fatal(err)
	}
	var (
		once      sync.Once
		watchdog  atomic.Bool
		letGo     = func() { once.Do(func() { close(stuck.release) }) }
		closeOnce sync.Once
	)
	t.Cleanup(func() {
		letGo()
		closeOnce.Do(a.Close)
	})
	// Were the run to wait for the engine, the engine answers after a
	// minute, and the test fails rather than hangs.
	dog := time.AfterFunc(time.Minute, func() {
		watchdog.Store(true)
		letGo()
	})
	defer dog.Stop()

	res := runRequest(t, a, Request{Code: "print(1)", Timeout: 2 * time.Second})
	if watchdog.Load() {
		t.Fatal("the run answered only once the engine did")
	}
	select {
	case <-stuck.entered:
	default:
		t.Fatal("the run did not start a sandbox")
	}
	if !res.Stopped || res.Error == nil || !strings.Contains(*res.Error, "exceeded its deadline of 2s before the program started") {
		t.Fatalf("a run whose sandbox never started: %+v", res)
	}
	// The stuck start still holds the only run slot.
	res = runRequest(t, a, Request{Code: "print(2)", Timeout: 2 * time.Second})
	if res.Error == nil || !strings.Contains(*res.Error, "for one of the 1 run slots") || len(stuck.entered) != 0 {
		t.Fatalf("a run while the only slot is held by a stuck start: %+v (%d starts)", res, len(stuck.entered))
	}

	letGo()
	closeOnce.Do(a.Close)
	ids := stuck.started()
	if len(ids) != 1 {
		t.Fatalf("%d containers started once the engine answered, want 1", len(ids))
	}
	left, err := eng.Containers(t.Context(), sandbox.Owner())
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(left, ids[0]) {
		t.Fatalf("the container of the abandoned start %.12s was left behind", ids[0])
	}
}
