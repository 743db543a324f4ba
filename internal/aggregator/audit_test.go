package aggregator

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// Over streamable HTTP the audit log names who asked for a run: the
// session's id where the protocol has sessions; without them (2026-07-28
// and later) a hash of the client's bearer token, never the token itself;
// and the client's address.
func TestTheAuditLogNamesEachHTTPClient(t *testing.T) {
	eng := clitest.NeedEngine(t)
	cfg := config.Default()
	cfg.CatalogDir = t.TempDir()
	cfg.Runtime = testRuntime()
	a, err := New(cfg, nil, eng, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log, err := audit.Open(audit.Options{Dir: dir, MaxBytes: 1 << 20, Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	a.SetAudit(log, false)
	const token = "the-bearer-token-0123456789abcdef"
	srv := httptest.NewServer(a.HTTPHandler(HTTPOptions{Token: token}))
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	modern := &mcpClient{url: srv.URL + "/mcp", version: mcp.ProtocolVersion20260728, token: token}
	if _, res := modern.startRun(t.Context(), t, "print(1)").wait(t); res.Error != nil {
		t.Fatalf("the run without a session: %s", *res.Error)
	}
	legacy := &mcpClient{url: srv.URL + "/mcp", version: mcp.LATEST_LEGACY_PROTOCOL_VERSION, token: token}
	legacy.initialize(t)
	if _, res := legacy.startRun(t.Context(), t, "print(2)").wait(t); res.Error != nil {
		t.Fatalf("the run in a session: %s", *res.Error)
	}
	var runs []audit.Entry
	if err := audit.Read(t.Context(), dir, audit.ReadOptions{}, func(e audit.Entry) error {
		runs = append(runs, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(token))
	if len(runs) != 2 || runs[0].Kind != audit.KindRun || runs[1].Kind != audit.KindRun {
		t.Fatalf("%d records, want the two runs: %+v", len(runs), runs)
	}
	if want := "token:" + hex.EncodeToString(sum[:6]); runs[0].Session != want || runs[0].Remote != "127.0.0.1" {
		t.Errorf("the run without a session: session %q remote %q, want %q and 127.0.0.1", runs[0].Session, runs[0].Remote, want)
	}
	if runs[1].Session != legacy.session || legacy.session == "" || runs[1].Remote != "127.0.0.1" {
		t.Errorf("the run in session %q: session %q remote %q", legacy.session, runs[1].Session, runs[1].Remote)
	}
	b, err := os.ReadFile(filepath.Join(dir, audit.FileName))
	if err != nil || strings.Contains(string(b), token) {
		t.Errorf("the audit log holds the bearer token (%v)", err)
	}
}

// A run stopped at its deadline while a call is in flight: the call is
// recorded as cancelled and the run as stopped, with why; a run whose
// server is unknown is recorded too, as failed, with the host's message.
func TestTheAuditLogRecordsStoppedRunsAndTheirCancelledCalls(t *testing.T) {
	clitest.NeedEngine(t)
	srv, _ := testServer(t, "t")
	a := newAgg(t, nil, srv)
	// A first run starts the server and warms the sandbox, so that the
	// short deadline below is spent in the program, not in a start. On a
	// busy machine a start can still outlast it: then the program made no
	// call, and the run is tried again with a fresh log.
	mustSucceed(t, run(t, a, "print(0)", "t"))
	var dir string
	for attempt := 1; ; attempt++ {
		dir = t.TempDir()
		log, err := audit.Open(audit.Options{Dir: dir, MaxBytes: 1 << 20, Keep: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = log.Close() })
		a.SetAudit(log, false)
		res := runRequest(t, a, Request{Code: "await mcp_t.sleep(ms=60000)", Servers: []string{"t"}, Timeout: 3 * time.Second})
		if !res.Stopped {
			t.Fatal("the run was not stopped at its deadline")
		}
		if res.Calls > 0 {
			break
		}
		if attempt == 3 {
			t.Fatal("three times, the program had not started by the deadline of 3s")
		}
	}
	run(t, a, "print(1)", "nosuch")
	var recs []audit.Entry
	if err := audit.Read(t.Context(), dir, audit.ReadOptions{}, func(e audit.Entry) error {
		recs = append(recs, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("%d records, want the call and the two runs: %+v", len(recs), recs)
	}
	if c := recs[0]; c.Kind != audit.KindCall || c.Outcome != audit.Cancelled || c.Reason != "t.sleep was cancelled: the run ended" {
		t.Errorf("the call in flight at the deadline: %s", c.Line)
	}
	if r := recs[1]; r.Outcome != audit.Stopped || !strings.HasPrefix(r.Reason, "the run exceeded its deadline of 3s") || r.Calls != 1 || r.ExitCode != 1 {
		t.Errorf("the stopped run: %s", r.Line)
	}
	if r := recs[2]; r.Outcome != audit.Error || !strings.HasPrefix(r.Reason, `unknown server "nosuch"`) || len(r.Servers) != 0 {
		t.Errorf("the run naming an unknown server: %s", r.Line)
	}
}
