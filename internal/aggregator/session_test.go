package aggregator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// sessionAgg returns an aggregator with isolation "session". Under gVisor
// (MCM_TEST_RUNTIME=runsc) the mode is off (TestSessionIsOffUnderGVisor),
// and the tests of it skip.
func sessionAgg(t *testing.T, tune func(*config.Config)) *Aggregator {
	t.Helper()
	clitest.NeedEngine(t)
	if strings.Contains(testRuntime(), "runsc") {
		t.Skip(`isolation = "session" is off under gVisor`)
	}
	return newAgg(t, func(c *config.Config) {
		c.Isolation = config.IsolationSession
		if tune != nil {
			tune(c)
		}
	})
}

// runInSession runs code in session of the local namespace.
func runInSession(t *testing.T, a *Aggregator, session, code string) Result {
	t.Helper()
	return runRequest(t, a, Request{Code: code, Session: session})
}

// sessionContainerID is the ID of the container session (of whatever
// namespace) now holds ("" if none).
func sessionContainerID(a *Aggregator, session string) string {
	var sb *sessionBox
	a.sessions.mu.Lock()
	for key, b := range a.sessions.m {
		if strings.HasSuffix(key, "\x00"+session) {
			sb = b
		}
	}
	a.sessions.mu.Unlock()
	if sb == nil {
		return ""
	}
	sb.turn <- struct{}{}
	defer func() { <-sb.turn }()
	if sb.c == nil {
		return ""
	}
	return sb.c.ID
}

// hostileProgram reads testdata/hostile-programs/name with each pair of
// replacements made.
func hostileProgram(t *testing.T, name string, replace ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hostile-programs", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReplacer(replace...).Replace(string(b))
}

// TestSessionRunLeavesNothingToTheNext plants everything a program can
// leave in its container (testdata/hostile-programs/session-plant.py: files
// in every writable place, System V IPC objects, a double-forked setsid'ed
// process that writes a marker later, a child ignoring SIGTERM, the
// environment, patched builtins and modules, a large global holding a
// secret) and checks, in the session's next run in the same container
// (session-probe.py), that none of it is there: not on disk, not among the
// processes, not in the program's memory.
func TestSessionRunLeavesNothingToTheNext(t *testing.T) {
	a := sessionAgg(t, nil)
	raw := make([]byte, 16)
	_, _ = rand.Read(raw)
	secret := hex.EncodeToString(raw)
	masked := make([]byte, len(secret))
	for i := range secret {
		masked[i] = secret[i] ^ 0xff
	}
	plant := hostileProgram(t, "session-plant.py", `SECRET = "SECRET"`, `SECRET = "`+secret+`"`)
	probe := hostileProgram(t, "session-probe.py", `"MASKED"`, `"`+hex.EncodeToString(masked)+`"`)

	// The control: the probe finds all of it in the planting program
	// itself (but the room of the large global, which is still held).
	res := runInSession(t, a, "control", plant+"\ndel BIG\n"+probe)
	mustSucceed(t, res)
	for _, want := range []string{"/tmp holds", "/dev/shm holds", "/dev/mqueue holds", "System V shm", "System V sem", "System V msg",
		"process ", "environment", "the C environment", "module state", "patched builtins", "umask", "the secret in memory"} {
		if !strings.Contains(res.Stdout, "found: "+want) {
			t.Errorf("control: the probe did not find %q in the run that planted it", want)
		}
	}

	res = runInSession(t, a, "s1", plant)
	mustSucceed(t, res)
	if !strings.Contains(res.Stdout, "planted") {
		t.Fatalf("the planting run did not finish: %q", res.Stdout)
	}
	first := sessionContainerID(a, "s1")
	if first == "" {
		t.Fatal("the session kept no container after a run that ended on its own")
	}
	res = runInSession(t, a, "s1", probe)
	mustSucceed(t, res)
	if got := sessionContainerID(a, "s1"); got != first {
		t.Fatalf("the second run was in container %.12s, not the session's %.12s", got, first)
	}
	if !strings.HasSuffix(strings.TrimSpace(res.Stdout), "probed") {
		t.Fatalf("the probe did not finish: %q", res.Stdout)
	}
	if strings.Contains(res.Stdout, "found:") {
		t.Errorf("the session's next run found what the one before left:\n%s", res.Stdout)
	}
	// The same, once more, after a run that was itself clean: the cleaning
	// happens after every run.
	mustSucceed(t, runInSession(t, a, "s1", plant))
	res = runInSession(t, a, "s1", probe)
	if strings.Contains(res.Stdout, "found:") || !strings.Contains(res.Stdout, "probed") {
		t.Errorf("third run: %q", res.Stdout)
	}
}

// TestSessionsNeverShareAContainer runs two sessions side by side and
// checks that each has a container of its own, kept across its runs, and
// that a file one session's run is writing is not in the other's /tmp.
func TestSessionsNeverShareAContainer(t *testing.T) {
	a := sessionAgg(t, nil)
	code := `
import os
print(sorted(os.listdir("/tmp")))
open("/tmp/mine", "w").write("x")
`
	for range 2 {
		for _, s := range []string{"a", "b"} {
			res := runInSession(t, a, s, code)
			mustSucceed(t, res)
			if strings.TrimSpace(res.Stdout) != "[]" {
				t.Errorf("session %s's run found %s in /tmp", s, res.Stdout)
			}
		}
	}
	ca, cb := sessionContainerID(a, "a"), sessionContainerID(a, "b")
	if ca == "" || cb == "" || ca == cb {
		t.Fatalf("sessions a and b hold containers %.12q and %.12q, want two different ones", ca, cb)
	}
	// A run of another namespace with the same session id gets its own.
	res := a.Run(t.Context(), Request{Code: "print(1)", Session: "a", Namespace: "someone-else"})
	mustSucceed(t, res)
	a.sessions.mu.Lock()
	other := a.sessions.m[sessionKey("someone-else", "a")]
	a.sessions.mu.Unlock()
	if other == nil || other.c == nil || other.c.ID == ca {
		t.Fatal("a client of another namespace sending session id a reached session a's container")
	}
}

// TestSessionSurvivesAKilledRun stops a run at its deadline (a program that
// ignores every signal it can and forks) and checks that the session's
// next run works, in a fresh container, and that the killed one is gone.
func TestSessionSurvivesAKilledRun(t *testing.T) {
	a := sessionAgg(t, nil)
	eng := clitest.NeedEngine(t)
	mustSucceed(t, runInSession(t, a, "s", "print(1)"))
	first := sessionContainerID(a, "s")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	res := a.Run(ctx, Request{Session: "s", Timeout: 2 * time.Second, Code: `
import os, signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
os.fork()
while True:
    pass
`})
	if !res.Stopped || res.Error == nil || !strings.Contains(*res.Error, "deadline") {
		t.Fatalf("the run was not stopped at its deadline: %+v", res)
	}
	res = runInSession(t, a, "s", "print(2)")
	mustSucceed(t, res)
	if strings.TrimSpace(res.Stdout) != "2" {
		t.Fatalf("the run after the killed one printed %q", res.Stdout)
	}
	second := sessionContainerID(a, "s")
	if second == "" || second == first {
		t.Fatalf("the run after a killed one was in container %.12q, want a fresh one (not %.12s)", second, first)
	}
	waitContainers(t, eng, func(ids []string) bool { return !slices.Contains(ids, first) })
}

// waitContainers waits until this process's sandbox containers satisfy ok.
func waitContainers(t *testing.T, eng *sandbox.Engine, ok func(ids []string) bool) {
	t.Helper()
	var ids []string
	waitFor(t, func() string { return fmt.Sprintf("the containers to be as expected (now %v)", ids) }, func() bool {
		var err error
		if ids, err = eng.Containers(t.Context(), sandbox.Owner()); err != nil {
			t.Fatal(err)
		}
		return ok(ids)
	})
}

// TestSessionContainerRemovedAtEnd checks that a session's container is
// removed when the session ends, when it idles out, and when the server
// closes.
func TestSessionContainerRemovedAtEnd(t *testing.T) {
	eng := clitest.NeedEngine(t)
	a := sessionAgg(t, func(c *config.Config) { c.Limits.SessionIdle = time.Second })
	gone := func(id string) func([]string) bool {
		return func(ids []string) bool { return !slices.Contains(ids, id) }
	}

	// Ended by the client.
	mustSucceed(t, runInSession(t, a, "ended", "print(1)"))
	ended := sessionContainerID(a, "ended")
	a.EndSession("", "ended")
	waitContainers(t, eng, gone(ended))

	// Idled out: no run for limits.session_idle.
	mustSucceed(t, runInSession(t, a, "idle", "print(1)"))
	idle := sessionContainerID(a, "idle")
	if idle == "" {
		t.Fatal("no container kept")
	}
	waitContainers(t, eng, gone(idle))
	if id := sessionContainerID(a, "idle"); id != "" {
		t.Fatalf("the idled-out session still holds %.12s", id)
	}
	// The session goes on with a fresh container.
	mustSucceed(t, runInSession(t, a, "idle", "print(2)"))

	// Closed with the server.
	cfg := config.Default()
	cfg.CatalogDir, cfg.TokenDir = t.TempDir(), t.TempDir()
	cfg.State.Path = filepath.Join(t.TempDir(), "state.db")
	cfg.Runtime, cfg.Isolation = testRuntime(), config.IsolationSession
	b, err := New(cfg, nil, eng, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, runInSession(t, b, "open", "print(1)"))
	open := sessionContainerID(b, "open")
	b.Close()
	waitContainers(t, eng, gone(open))
}

// TestSessionEndsWithHTTPDelete serves run_python over streamable HTTP with
// isolation "session": two clients' sessions get two containers, each kept
// across its runs, and a client's DELETE of its session removes its
// container and only its.
func TestSessionEndsWithHTTPDelete(t *testing.T) {
	eng := clitest.NeedEngine(t)
	a := sessionAgg(t, nil)
	srv := httptest.NewServer(a.HTTPHandler(HTTPOptions{}))
	t.Cleanup(srv.Close)
	clients := []*mcpClient{
		{url: srv.URL + "/mcp", version: mcp.LATEST_LEGACY_PROTOCOL_VERSION},
		{url: srv.URL + "/mcp", version: mcp.LATEST_LEGACY_PROTOCOL_VERSION},
	}
	ids := make([]string, len(clients))
	for i, c := range clients {
		c.initialize(t)
		for range 2 {
			if _, res := c.startRun(t.Context(), t, "print(1)").wait(t); res.Error != nil {
				t.Fatalf("client %d: %s", i, *res.Error)
			}
		}
		ids[i] = sessionContainerID(a, c.session)
		if ids[i] == "" {
			t.Fatalf("client %d's session %q holds no container", i, c.session)
		}
	}
	if ids[0] == ids[1] {
		t.Fatal("two HTTP sessions share a container")
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodDelete, clients[0].url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(server.HeaderKeySessionID, clients[0].session)
	req.Header.Set(mcp.HeaderProtocolVersion, clients[0].version)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: status %d", resp.StatusCode)
	}
	waitContainers(t, eng, func(live []string) bool { return !slices.Contains(live, ids[0]) })
	if got := sessionContainerID(a, clients[1].session); got != ids[1] {
		t.Fatalf("the other session's container changed from %.12s to %.12q", ids[1], got)
	}
}

// TestSessionContainersAreCappedBySessionMax opens session after session,
// as a client flooding serve would: at most limits.session_max containers
// are kept between runs, the least recently used one removed first, and a
// session whose container was removed runs on in a fresh one.
func TestSessionContainersAreCappedBySessionMax(t *testing.T) {
	eng := clitest.NeedEngine(t)
	a := sessionAgg(t, func(c *config.Config) { c.Limits.SessionMax = 2 })
	kept := func() []string {
		var ids []string
		for _, s := range []string{"s1", "s2", "s3", "s4"} {
			if id := sessionContainerID(a, s); id != "" {
				ids = append(ids, s)
			}
		}
		return ids
	}
	for i, s := range []string{"s1", "s2", "s3", "s4"} {
		mustSucceed(t, runInSession(t, a, s, "print(1)"))
		if got := kept(); len(got) > 2 || !slices.Contains(got, s) {
			t.Fatalf("after the run of %s: sessions %v hold containers, want at most 2 and %s among them", s, got, s)
		}
		if i >= 1 {
			if got, want := kept(), []string{[]string{"s1", "s2", "s3", "s4"}[i-1], s}; !slices.Equal(got, want) {
				t.Errorf("after the run of %s: sessions %v hold containers, want %v (the least recently used removed)", s, got, want)
			}
		}
	}
	// The removed ones are gone from the engine, and s1 runs on.
	waitContainers(t, eng, func(ids []string) bool { return len(ids) <= 2 })
	mustSucceed(t, runInSession(t, a, "s1", "print(2)"))
	if got := kept(); !slices.Equal(got, []string{"s1", "s4"}) {
		t.Errorf("after s1 ran again: %v hold containers, want [s1 s4]", got)
	}
}

// sessionOffWarning is the start of the warning that an engine's runner
// refused to serve a session, as the text log handler quotes it.
const sessionOffWarning = `isolation = \"session\" is not available on this engine`

// TestSessionIsOffUnderGVisor: gVisor keeps no /proc/sysvipc, so the runner
// could not clean what a run left in System V IPC. A runner told to serve a
// session where the kernel keeps no such list refuses to, whatever the host
// asked, and ends without its ready line. The host learns that from the
// first session's runner, not from the runtime's name: the first run and
// every later one succeed, each in a container of its own, and one warning
// names the engine and gives the runner's reason.
func TestSessionIsOffUnderGVisor(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
	eng := clitest.NeedEngine(t)
	if _, names, err := eng.Describe(t.Context()); err != nil || !slices.Contains(names, "runsc") {
		testenv.SkipOrFail(t, "the engine has no runtime runsc (%v, %v): .ci/engine.sh registers it", names, err)
	}
	var logs testenv.Buffer
	cfg := config.Default()
	cfg.CatalogDir, cfg.TokenDir = t.TempDir(), t.TempDir()
	cfg.State.Path = filepath.Join(t.TempDir(), "state.db")
	cfg.Runtime, cfg.Isolation = "runsc", config.IsolationSession
	a, err := New(cfg, nil, eng, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for i := range 3 {
		mustSucceed(t, runInSession(t, a, "g", "print(1)"))
		if id := sessionContainerID(a, "g"); id != "" {
			t.Fatalf("run %d: under gVisor the session kept container %.12s", i, id)
		}
	}
	if n := strings.Count(logs.String(), sessionOffWarning); n != 1 || !strings.Contains(logs.String(), "needs /proc/sysvipc") || !strings.Contains(logs.String(), "engine="+eng.Host()) {
		t.Errorf("want one warning that session isolation is off, naming the engine and with the runner's reason (%d): %s", n, logs.String())
	}

	// The runner itself, told to serve a session under gVisor.
	spec := sandbox.DefaultSpec()
	spec.Runtime = "runsc"
	c, err := eng.Start(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c.Input, runner.SessionLine); err != nil {
		t.Fatal(err)
	}
	var diag strings.Builder
	_, _ = io.Copy(&diag, io.LimitReader(c.Output, 64<<10))
	if code, _, err := c.Exit(t.Context()); err != nil || code == 0 || !strings.Contains(diag.String(), "needs /proc/sysvipc") {
		t.Errorf("runner told to serve a session under gVisor: exit %d (%v), said %q; want a refusal naming /proc/sysvipc", code, err, diag.String())
	}
	if answer, _ := io.ReadAll(io.LimitReader(c.Protocol, 64<<10)); len(answer) != 0 {
		t.Errorf("the refusing runner answered %q on its protocol stream, want nothing", answer)
	}
}

// TestASessionsWaitingRunsCountAgainstTheQueue: the runs of one session
// take turns, and those waiting for the turn count against limits.queue as
// runs waiting for a slot do, so a client cannot pile up runs in one session
// past the queue: the one past it is refused at once as busy.
func TestASessionsWaitingRunsCountAgainstTheQueue(t *testing.T) {
	clitest.NeedEngine(t)
	if strings.Contains(testRuntime(), "runsc") {
		t.Skip(`isolation = "session" is off under gVisor`)
	}
	gate := filepath.Join(t.TempDir(), "open")
	srv, _ := testServer(t, "test", "-gate", gate)
	a := newAgg(t, func(c *config.Config) {
		c.Isolation = config.IsolationSession
		c.Limits.Queue = 1
	}, srv)
	run := func(out chan<- Result) {
		out <- a.Run(t.Context(), Request{Code: "print(await mcp_test.gate())", Servers: []string{"test"}, Session: "s"})
	}
	first, second := make(chan Result, 1), make(chan Result, 1)
	go run(first)
	// The first run holds the session's turn; the second waits for it.
	waitFor(t, func() string { return "the first run to hold the session's turn" }, func() bool {
		sb := a.sessionBox(sessionKey("", "s"))
		return sb != nil && len(sb.turn) == 1
	})
	go run(second)
	waitFor(t, func() string { return "the second run to wait" }, func() bool { return a.admit.waiting.Load() == 1 })

	third := a.Run(t.Context(), Request{Code: "print('never')", Session: "s"})
	if third.Error == nil || !strings.Contains(*third.Error, "the server is busy") || third.RetryAfter < 1 || third.Stdout != "" {
		t.Errorf("a third run while one waits and limits.queue = 1: %+v, want it refused as busy with a retry-after", third)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, ch := range []chan Result{first, second} {
		res := <-ch
		if res.Error != nil || strings.TrimSpace(res.Stdout) != "open" {
			t.Errorf("run %d: %+v, want it to pass the gate", i+1, res)
		}
	}
}

// waitFor polls cond until it holds, failing the test after two minutes
// with what it waited for (what is called then, so it can say what it saw).
func waitFor(t *testing.T, what func() string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting for %s", what())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
