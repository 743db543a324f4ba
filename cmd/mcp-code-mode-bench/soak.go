package main

// The soak (make soak): one `serve --http` on loopback driven by several
// clients for a long time with programs of every outcome, then checked for
// what it left behind: containers, processes, file descriptors, goroutines
// and resident memory, each against its value after the warm-up.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	dockerclient "github.com/moby/moby/client"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// soakProgram is one kind of run the soak sends, and what it must give.
type soakProgram struct {
	name    string
	code    string
	servers []string
	timeout float64 // seconds; 0: the deadline
	check   func(runResult) error
}

var soakPrograms = []soakProgram{
	{name: "print", code: trivialProgram, check: wantStdout("1\n")},
	{name: "tool call", code: "print((await mcp_t.add(a=1, b=2))['sum'])", servers: []string{"t"}, check: wantStdout("3\n")},
	{name: "gather of 20 calls", code: "import asyncio\nr = await asyncio.gather(*[mcp_t.noop() for _ in range(20)])\nprint(len(r))", servers: []string{"t"}, check: wantStdout("20\n")},
	{name: "exception", code: "raise ValueError('soak')", check: func(r runResult) error {
		if r.Error == nil || !strings.Contains(*r.Error, "ValueError: soak") {
			return fmt.Errorf("want the ValueError, got %v", r.Error)
		}
		return nil
	}},
	{name: "stopped at its deadline", code: "import time\ntime.sleep(30)", timeout: 1, check: func(r runResult) error {
		if !r.Stopped {
			return fmt.Errorf("want a stopped run, got error %v", r.Error)
		}
		return nil
	}},
}

func wantStdout(want string) func(runResult) error {
	return func(r runResult) error {
		if r.Error != nil || r.Stdout != want {
			return fmt.Errorf("want stdout %q, got %q (error %v)", want, r.Stdout, r.Error)
		}
		return nil
	}
}

// callRun calls run_python; only a failure to get an answer is an error.
func callRun(ctx context.Context, c *client.Client, p soakProgram) (runResult, error) {
	var res runResult
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_python"
	args := map[string]any{"code": p.code}
	if len(p.servers) > 0 {
		args["servers"] = p.servers
	}
	if p.timeout > 0 {
		args["timeout"] = p.timeout
	}
	req.Params.Arguments = args
	cctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	out, err := c.CallTool(cctx, req)
	if err != nil {
		return res, err
	}
	if len(out.RawStructuredContent) == 0 {
		return res, errors.New("run_python: no structured content")
	}
	err = json.Unmarshal(out.RawStructuredContent, &res)
	return res, err
}

// footprint is what serve holds at one moment.
type footprint struct {
	fds, goroutines, children, containers int
	rssKB                                 int64
}

func (f footprint) String() string {
	return fmt.Sprintf("%d fds, %d goroutines, %d child processes, %d containers, RSS %s", f.fds, f.goroutines, f.children, f.containers, mb(f.rssKB))
}

func (b *bench) footprint(ctx context.Context, s *httpServe) (footprint, error) {
	var f footprint
	var err error
	if f.fds, err = s.fds(); err != nil {
		return f, err
	}
	if f.goroutines, err = s.goroutines(ctx); err != nil {
		return f, err
	}
	if f.rssKB, err = rssKB(s.pid()); err != nil {
		return f, err
	}
	f.children = len(descendants(s.pid()))
	list, err := b.docker.ContainerList(ctx, dockerclient.ContainerListOptions{All: true,
		Filters: make(dockerclient.Filters).Add("label", sandbox.LabelOwner+"="+s.owner())})
	if err != nil {
		return f, err
	}
	f.containers = len(list.Items)
	return f, nil
}

// atRest waits until serve's warm pool is back to limits.warm ready
// containers, with none starting or in use (it shrinks after
// sandbox.DefaultIdle unused).
func atRest(ctx context.Context, s *httpServe, warm int) error {
	deadline := time.Now().Add(sandbox.DefaultIdle + 2*time.Minute)
	for {
		st, err := s.pool(ctx)
		if err == nil && st.Ready == warm && st.Target == warm && st.Starting == 0 && st.InUse == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the warm pool did not come back to rest: %+v %v", st, err)
		}
		if err := sleepCtx(ctx, 500*time.Millisecond); err != nil {
			return err
		}
	}
}

// Tolerances of the soak's end against its start.
const (
	// Descriptors and goroutines: exactly as many, give or take the
	// debug request's own connection and goroutine in flight.
	soakSlack = 2
	// Resident memory: the Go heap's size follows its peak (the GC target
	// is twice the live heap) and the runtime returns pages lazily, so
	// the end may sit above the start by a few MB without a leak; a leak
	// of even 1 KB per run over 10 minutes of 8 clients (~10,000 runs
	// and ~100,000 calls) would pass it.
	soakRSSSlackKB = 8 << 10
)

// soak drives serve, then checks what is left; it returns the exit status.
func (b *bench) soak(ctx context.Context) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "soak:", err)
		return 1
	}
	cfg, err := b.testserverConfig("soak.toml", filepath.Join(b.tmp, "t-soak-calls.jsonl"), nil)
	if err != nil {
		return fail(err)
	}
	s, err := b.startHTTPServe(ctx, "serve (soak)", cfg)
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	warm := config.DefaultLimits().Warm

	// Warm-up: every program once from one client, that client closed.
	c, err := s.client(ctx)
	if err != nil {
		return fail(err)
	}
	for _, p := range soakPrograms {
		res, err := callRun(ctx, c, p)
		if err == nil {
			err = p.check(res)
		}
		if err != nil {
			_ = c.Close()
			return fail(fmt.Errorf("warm-up, %s: %w", p.name, err))
		}
	}
	_ = c.Close()
	if err := atRest(ctx, s, warm); err != nil {
		return fail(err)
	}
	start, err := b.footprint(ctx, s)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(os.Stderr, "soak: after warm-up: %v\n", start)

	// The soak: each client sends the programs in turn, back to back.
	clients := make([]*client.Client, b.o.soakN)
	for i := range clients {
		if clients[i], err = s.client(ctx); err != nil {
			return fail(err)
		}
	}
	var (
		mu      sync.Mutex
		counts  = map[string]int{}
		bad     []string
		wg      sync.WaitGroup
		peakRSS = start.rssKB
	)
	began := time.Now()
	end := began.Add(b.o.soak)
	rss := sampleRSS(s.pid(), time.Second)
	for w, c := range clients {
		wg.Go(func() {
			for i := w; time.Now().Before(end) && ctx.Err() == nil; i++ {
				p := soakPrograms[i%len(soakPrograms)]
				res, err := callRun(ctx, c, p)
				if err == nil {
					err = p.check(res)
				}
				mu.Lock()
				counts[p.name]++
				if err != nil && len(bad) < 20 {
					bad = append(bad, fmt.Sprintf("client %d, %s: %v", w, p.name, err))
				}
				mu.Unlock()
			}
		})
	}
	go func() {
		for t := time.NewTicker(time.Minute); ; {
			select {
			case <-t.C:
				if time.Now().After(end) {
					t.Stop()
					return
				}
				mu.Lock()
				n := 0
				for _, v := range counts {
					n += v
				}
				mu.Unlock()
				fmt.Fprintf(os.Stderr, "soak: %v, %d runs\n", time.Since(began).Round(time.Second), n)
			case <-ctx.Done():
				t.Stop()
				return
			}
		}
	}()
	wg.Wait()
	elapsed := time.Since(began)
	peak, _ := rss.Stop()
	peakRSS = max(peakRSS, peak)
	for _, c := range clients {
		_ = c.Close()
	}
	if ctx.Err() != nil {
		return fail(ctx.Err())
	}

	// What is left, once the pool is back to rest and the descriptors and
	// goroutines of the closed sessions are gone.
	if err := atRest(ctx, s, warm); err != nil {
		return fail(err)
	}
	var last footprint
	settle := time.Now().Add(30 * time.Second)
	for {
		if last, err = b.footprint(ctx, s); err != nil {
			return fail(err)
		}
		if (last.fds <= start.fds+soakSlack && last.goroutines <= start.goroutines+soakSlack) || time.Now().After(settle) {
			break
		}
		if err := sleepCtx(ctx, time.Second); err != nil {
			return fail(err)
		}
	}
	var problems []string
	if last.fds > start.fds+soakSlack {
		problems = append(problems, fmt.Sprintf("file descriptors grew from %d to %d", start.fds, last.fds))
	}
	if last.goroutines > start.goroutines+soakSlack {
		problems = append(problems, fmt.Sprintf("goroutines grew from %d to %d", start.goroutines, last.goroutines))
	}
	if last.children != start.children {
		problems = append(problems, fmt.Sprintf("child processes: %d after warm-up, %d at the end", start.children, last.children))
	}
	if last.containers != warm {
		problems = append(problems, fmt.Sprintf("%d containers at rest, want the %d warm ones", last.containers, warm))
	}
	if last.rssKB > start.rssKB+soakRSSSlackKB {
		problems = append(problems, fmt.Sprintf("resident memory grew from %s to %s (tolerance %s)", mb(start.rssKB), mb(last.rssKB), mb(soakRSSSlackKB)))
	}

	// Then serve stops: nothing of it may remain.
	desc := descendants(s.pid())
	if err := s.stop(30 * time.Second); err != nil {
		problems = append(problems, fmt.Sprintf("serve did not exit cleanly on SIGTERM: %v", err))
	}
	for _, p := range desc {
		if _, st, ok := statFields(p.pid); ok && st == p.start {
			problems = append(problems, fmt.Sprintf("process %d outlived serve", p.pid))
		}
	}
	if n, err := b.docker.ContainerList(ctx, dockerclient.ContainerListOptions{All: true,
		Filters: make(dockerclient.Filters).Add("label", sandbox.LabelOwner+"="+s.owner())}); err != nil || len(n.Items) > 0 {
		problems = append(problems, fmt.Sprintf("containers left after serve exited: %d %v", len(n.Items), err))
	}

	total := 0
	var kinds []string
	for _, p := range soakPrograms {
		total += counts[p.name]
		kinds = append(kinds, fmt.Sprintf("%s %d", p.name, counts[p.name]))
	}
	fmt.Printf("soak: %v, %d clients over HTTP on loopback, %d runs (%.1f/s): %s\n", elapsed.Round(time.Second), b.o.soakN, total, float64(total)/elapsed.Seconds(), strings.Join(kinds, ", "))
	fmt.Printf("soak: after warm-up: %v\n", start)
	fmt.Printf("soak: at the end:    %v; RSS peak %s\n", last, mb(peakRSS))
	fmt.Printf("soak: after SIGTERM: %d descendant(s) and the containers of serve checked gone\n", len(desc))
	for _, s := range bad {
		problems = append(problems, "a run gave the wrong answer: "+s)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Println("soak: FAIL:", p)
		}
		return 1
	}
	fmt.Printf("soak: PASS (descriptors and goroutines within %d of the start, RSS within %s)\n", soakSlack, mb(soakRSSSlackKB))
	return 0
}
