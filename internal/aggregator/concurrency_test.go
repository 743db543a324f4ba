package aggregator

import (
	"log/slog"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

// maxOverlap is the largest number of calls the server had in flight at once.
func maxOverlap(calls []calllog.Record) int {
	type ev struct {
		at    int64
		delta int
	}
	var evs []ev
	for _, c := range calls {
		evs = append(evs, ev{c.StartUnixNano, 1}, ev{c.EndUnixNano, -1})
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].at != evs[j].at {
			return evs[i].at < evs[j].at
		}
		return evs[i].delta < evs[j].delta // an end before a start at the same instant
	})
	cur, best := 0, 0
	for _, e := range evs {
		cur += e.delta
		best = max(best, cur)
	}
	return best
}

func TestCallsToOneServerAreLimited(t *testing.T) {
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, func(c *config.Config) { c.Limits.ServerConcurrency = 2 }, srv)
	res := run(t, a, `
import asyncio
await asyncio.gather(*(mcp_t.sleep(ms=200) for _ in range(6)))
print("done")
`, "t")
	mustSucceed(t, res)
	calls := serverCalls(t, log)
	if len(calls) != 6 {
		t.Fatalf("server saw %d calls", len(calls))
	}
	if got := maxOverlap(calls); got != 2 {
		t.Fatalf("at most %d calls were in flight, want exactly the limit 2", got)
	}
}

func TestRunsPastTheLimitWaitTheirTurn(t *testing.T) {
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, func(c *config.Config) { c.Limits.ConcurrentRuns = 1 }, srv)
	var wg sync.WaitGroup
	results := make([]Result, 3)
	for i := range results {
		wg.Go(func() { results[i] = run(t, a, "await mcp_t.sleep(ms=300)\nprint('ok')", "t") })
	}
	wg.Wait()
	for i, r := range results {
		if r.Error != nil || r.Stdout != "ok\n" {
			t.Fatalf("run %d: %+v", i, r)
		}
	}
	if got := maxOverlap(serverCalls(t, log)); got != 1 {
		t.Fatalf("%d runs overlapped, want them queued one at a time", got)
	}
}

func TestPooledRunsNeverShareAContainer(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	e := clitest.NeedEngine(t)
	cfg := config.Default()
	cfg.Runtime = testRuntime()
	pool := sandbox.NewPool(e, cfg.Spec(), sandbox.Warming{Min: 2}, nil)
	a, err := New(cfg, []config.Server{}, pool, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range 5 {
		if i > 0 {
			time.Sleep(150 * time.Millisecond) // let the pool refill now and then
		}
		res := run(t, a, `
import os
marks = os.listdir("/tmp")
open("/tmp/used-by-%d" % os.getpid(), "w").write("x")
cg = open("/proc/self/cgroup").read()
print(marks, cg.strip().split("/")[-1][:12])
`)
		mustSucceed(t, res)
		if !strings.HasPrefix(res.Stdout, "[] ") {
			t.Fatalf("run %d found another run's files: %q", i, res.Stdout)
		}
		id := strings.TrimSpace(strings.TrimPrefix(res.Stdout, "[] "))
		if id != "" && seen[id] { // (cgroup v2 hides the container ID: the /tmp check above still holds)
			t.Fatalf("container %s served two runs", id)
		}
		seen[id] = true
	}
	a.Close()
	pool.Close()
	if ids, _ := e.Containers(t.Context(), sandbox.Owner()); len(ids) != 0 {
		t.Fatalf("the pool left %d containers", len(ids))
	}
}
