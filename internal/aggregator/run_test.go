package aggregator

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

func TestTwoServersFromOneProgram(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	math, mathLog := testServer(t, "math")
	words, wordsLog := testServer(t, "word-tools")
	a := newAgg(t, nil, math, words)
	res := run(t, a, `
s = await mcp_math.add(a=20, b=22)
w = await mcp_word_tools.echo(message="the answer is %d" % s["sum"], upper=True)
print(w)
print(await mcp_word_tools.get_weather("Oslo", from_="x"))
`, "math", "word-tools")
	mustSucceed(t, res)
	if res.Stdout != "THE ANSWER IS 42\nsunny in Oslo\n" {
		t.Fatalf("stdout %q", res.Stdout)
	}
	if !slices.Equal(res.Servers, []string{"math", "word-tools"}) || res.Calls != 3 {
		t.Fatalf("servers %v calls %d", res.Servers, res.Calls)
	}
	if got := toolsCalled(serverCalls(t, mathLog)); !slices.Equal(got, []string{"add"}) {
		t.Fatalf("math saw %v", got)
	}
	if got := toolsCalled(serverCalls(t, wordsLog)); !slices.Equal(got, []string{"echo", "get-weather"}) {
		t.Fatalf("word-tools saw %v", got)
	}
}

func TestOnlyTheServersARunNamesAreStarted(t *testing.T) {
	clitest.NeedEngine(t)
	used, _ := testServer(t, "used")
	unused, unusedLog := testServer(t, "unused")
	// The unused server's command would fail loudly if it were started.
	unused.Command = filepath.Join(t.TempDir(), "missing-binary")
	a := newAgg(t, nil, used, unused)
	res := run(t, a, `
import sys
print(sorted(m for m in sys.modules if m.startswith("mcp_")))
`, "used")
	mustSucceed(t, res)
	if res.Stdout != "['mcp_used']\n" {
		t.Fatalf("modules %q", res.Stdout)
	}
	if _, err := os.Stat(unusedLog); err == nil {
		t.Fatal("the unused server was started")
	}
}

func TestUnknownServerNamesAreListed(t *testing.T) {
	srv, _ := testServer(t, "alpha")
	beta, _ := testServer(t, "beta")
	a := newAgg(t, nil, srv, beta)
	res := a.Run(t.Context(), Request{Code: "print(1)", Servers: []string{"alpha", "gamma"}})
	if res.Error == nil || !strings.Contains(*res.Error, `unknown server "gamma"; configured: alpha, beta`) {
		t.Fatalf("error %v", res.Error)
	}
}

func TestConcurrentCallsOverlapOnTheServer(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
import asyncio
r = await asyncio.gather(*(mcp_t.sleep(ms=500) for _ in range(8)))
print(len(r))
`, "t")
	mustSucceed(t, res)
	calls := serverCalls(t, log)
	if len(calls) != 8 {
		t.Fatalf("server saw %d calls, want 8", len(calls))
	}
	// All eight were in flight at once: the last start is before the first end.
	var firstStart, lastStart, firstEnd int64 = 1 << 62, 0, 1 << 62
	for _, c := range calls {
		firstStart = min(firstStart, c.StartUnixNano)
		lastStart = max(lastStart, c.StartUnixNano)
		firstEnd = min(firstEnd, c.EndUnixNano)
	}
	if lastStart >= firstEnd {
		t.Fatalf("calls did not overlap: last start %d, first end %d", lastStart, firstEnd)
	}
	t.Logf("8 × 500 ms sleeps: spread of starts %.1f ms", float64(lastStart-firstStart)/1e6)
}

func TestAServerThatCrashesMidCallRaisesToolErrorAndIsRestartedForTheNextCall(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
	clitest.NeedEngine(t)
	srv, _ := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
print(await mcp_t.counter())
print(await mcp_t.counter())
try:
    await mcp_t.crash()
    print("NO ERROR")
except ToolError as e:
    print("crashed:", e)
print("after:", await mcp_t.counter())
`, "t")
	mustSucceed(t, res)
	// The call in flight fails (the server may have acted on it); the next
	// one, in the same run, reaches a fresh server.
	if !strings.HasPrefix(res.Stdout, "1\n2\ncrashed: t stopped during the call to crash") || !strings.HasSuffix(res.Stdout, "after: 1\n") {
		t.Fatalf("crash: %q", res.Stdout)
	}
	res = run(t, a, "print(await mcp_t.counter())", "t")
	mustSucceed(t, res)
	if res.Stdout != "2\n" {
		t.Fatalf("the next run should keep the restarted server: counter %q", res.Stdout)
	}
}

// A server that crashes on every call is not restarted in a loop: after
// upstream.MaxRestarts within upstream.RestartWindow, calls are refused without starting it.
func TestAServerThatKeepsCrashingIsNotRestartedInALoop(t *testing.T) {
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
for i in range(6):
    try:
        await mcp_t.crash()
    except ToolError as e:
        print(e)
`, "t")
	mustSucceed(t, res)
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	want := 1 + upstream.MaxRestarts
	if len(lines) != 6 {
		t.Fatalf("output: %q", res.Stdout)
	}
	for i, l := range lines {
		crashed := strings.Contains(l, "stopped during the call to crash")
		refused := strings.Contains(l, "is not restarted for now") && strings.Contains(l, "was not made")
		if (i < want && !crashed) || (i >= want && !refused) {
			t.Errorf("call %d: %q", i+1, l)
		}
	}
	if got := strings.Count(strings.Join(toolsCalled(serverCalls(t, log)), " "), "crash"); got != want {
		t.Errorf("the server received %d crash calls, want %d (one per start)", got, want)
	}
	// A new run starts it again.
	res = run(t, a, "print(await mcp_t.counter())", "t")
	mustSucceed(t, res)
	if res.Stdout != "1\n" {
		t.Fatalf("counter in the next run: %q", res.Stdout)
	}
}

func TestServersStayUpBetweenRunsAndStopWhenIdle(t *testing.T) {
	clitest.NeedEngine(t)
	srv, _ := testServer(t, "t")
	a := newAgg(t, func(c *config.Config) { c.Limits.ServerIdle = 500 * time.Millisecond }, srv)
	for want := range []string{"1\n", "2\n"} {
		res := run(t, a, "print(await mcp_t.counter())", "t")
		mustSucceed(t, res)
		if res.Stdout != []string{"1\n", "2\n"}[want] {
			t.Fatalf("run %d: counter %q; the server did not stay up", want, res.Stdout)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for processCount(t, srv.Args[3]) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle server was not stopped")
		}
		time.Sleep(100 * time.Millisecond)
	}
	res := run(t, a, "print(await mcp_t.counter())", "t")
	mustSucceed(t, res)
	if res.Stdout != "1\n" {
		t.Fatalf("after idle stop: counter %q, want a fresh server", res.Stdout)
	}
}

// processCount counts running processes whose command line contains s.
func processCount(t *testing.T, s string) int {
	t.Helper()
	out, err := exec.Command("pgrep", "-c", "-f", s).Output()
	if err != nil {
		return 0 // pgrep exits 1 when nothing matches
	}
	n := 0
	for _, c := range strings.TrimSpace(string(out)) {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestNoneLeavesOutOptionalArguments(t *testing.T) {
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
print(await mcp_t.echo(message="hi", upper=None))
print(await mcp_t.echo({"message": "x", "upper": True}))
`, "t")
	mustSucceed(t, res)
	if res.Stdout != "hi\nX\n" {
		t.Fatalf("stdout %q", res.Stdout)
	}
	if calls := serverCalls(t, log); len(calls) != 2 || string(calls[0].Args) != `{"message":"hi"}` {
		t.Fatalf("server got %s", calls[0].Args)
	}
}

// A server that does not start is reported with the cause in words (its
// exit status), which the model may see; what it wrote on stderr only in
// Detail, for the user (doctor and the log).
func TestAServerThatFailsToStartIsReportedWithItsStderrForTheUserOnly(t *testing.T) {
	bad := config.Server{Name: "bad", Transport: config.TransportStdio, Command: "sh",
		Args: []string{"-c", "echo 'cannot open database: permission denied' >&2; exit 3"}}
	a := newAgg(t, nil, bad)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	_, err := a.Tools(ctx, []string{"bad"})
	var se *upstream.StartError
	if !errors.As(err, &se) {
		t.Fatalf("Tools(bad) = %v, want a StartError", err)
	}
	if msg := se.Error(); !strings.Contains(msg, `start server "bad"`) || !strings.Contains(msg, "exited with status 3") || strings.Contains(msg, "permission denied") {
		t.Errorf("the message the model may see: %s", msg)
	}
	if d := se.Detail(); !strings.Contains(d, "its stderr ends: cannot open database: permission denied") {
		t.Errorf("the user's detail: %s", d)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestRuntimeHelperCallsHaveABudget(t *testing.T) {
	clitest.NeedEngine(t)
	a := newAgg(t, func(c *config.Config) { c.Limits.MaxHelperCalls = 3 })
	res := run(t, a, `
from mcp import runtime
ok = refused = 0
for _ in range(5):
    try:
        runtime.list_servers_sync()
        ok += 1
    except ToolError:
        refused += 1
print(ok, refused)
`)
	mustSucceed(t, res)
	if res.Stdout != "3 2\n" {
		t.Fatalf("helper budget: %q, want 3 allowed and 2 refused", res.Stdout)
	}
}
