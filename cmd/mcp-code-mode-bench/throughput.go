package main

// The throughput phase: clients sending `print(1)` back to back, each its
// own MCP session over HTTP, through one `serve --http`, at 1, 4 and 8 at
// once, against `docker run --rm` of the same image at the same
// concurrency; with the CPU time of serve, of the engine's daemons and of
// the whole machine over each window, and a CPU profile of serve.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// sessionLabel labels the rows of serve with a container per client
// session, which have a target: targetSessionRate at 8 clients.
const sessionLabel = `serve, isolation = "session"`

// targetSessionRate is the runs per second that 8 clients of one serve
// with isolation = "session" should reach on 2 cores.
const targetSessionRate = 20.0

// throughputRow is one setup at one concurrency.
type throughputRow struct {
	Label   string
	Clients int
	Runs    int // answered without an error
	Failed  int
	Elapsed time.Duration
	Latency summary
	// CPU time over the window: serve's (0 for docker run), the engine
	// daemons' (dockerd and containerd) and the whole machine's.
	ServeCPU, EngineCPU, MachineCPU time.Duration
	FirstErr                        string
}

func (r throughputRow) perSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Runs) / r.Elapsed.Seconds()
}

// levels are the concurrencies measured (-clients).
func (b *bench) levels() ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(b.o.clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 64 {
			return nil, fmt.Errorf("-clients %q: want numbers from 1 to 64, comma-separated", b.o.clients)
		}
		out = append(out, n)
	}
	return out, nil
}

// phaseThroughput measures serve with the pool fixed at limits.warm (as
// before it adapted), serve with the default adaptive pool, and docker
// run. Other setups are rows of throughputServe with a label and a config.
func (b *bench) phaseThroughput(ctx context.Context) error {
	cfg, err := b.testserverConfig("throughput.toml", filepath.Join(b.tmp, "t-throughput-calls.jsonl"), nil)
	if err != nil {
		return err
	}
	if err := b.throughputServe(ctx, "serve, pool fixed at warm=2", cfg, false, "MCP_CODE_MODE_LIMITS__WARM_MAX=2"); err != nil {
		return err
	}
	if err := b.throughputServe(ctx, "serve, adaptive pool (warm=2, warm_max=8: the default)", cfg, true); err != nil {
		return err
	}
	if err := b.throughputServe(ctx, sessionLabel, cfg, false, "MCP_CODE_MODE_ISOLATION=session"); err != nil {
		return err
	}
	if b.o.engines != "" {
		if err := b.throughputEngines(ctx, cfg); err != nil {
			return err
		}
	}
	return b.throughputDocker(ctx)
}

// throughputEngines adds the rows of serve spread over the default engine
// and those of -engines, with the default adaptive pool on each.
func (b *bench) throughputEngines(ctx context.Context, config string) error {
	e, err := sandbox.New(ctx)
	if err != nil {
		return err
	}
	hosts := append([]string{e.Host()}, strings.Split(b.o.engines, ",")...)
	e.Close()
	for _, h := range hosts {
		if err := sandbox.CheckHost(h); err != nil {
			return fmt.Errorf("-engines: %w", err)
		}
	}
	label := fmt.Sprintf("serve, %d engines, adaptive pool on each", len(hosts))
	return b.throughputServe(ctx, label, config, false, "MCP_CODE_MODE_ENGINES="+strings.Join(hosts, ","))
}

// throughputServe adds the rows of one serve --http over config (with
// extra environment), labelled label, at each concurrency; with profile,
// serve's CPU profile over the busiest window goes in the report.
func (b *bench) throughputServe(ctx context.Context, label, config string, profile bool, env ...string) error {
	levels, err := b.levels()
	if err != nil {
		return err
	}
	s, err := b.startHTTPServe(ctx, label, config, env...)
	if err != nil {
		return err
	}
	defer s.Close()
	clients := make([]*client.Client, slicesMax(levels))
	for i := range clients {
		if clients[i], err = s.client(ctx); err != nil {
			return err
		}
		defer clients[i].Close()
	}
	// Every client once, one after the other: sessions set up, the
	// first run's costs paid.
	for _, c := range clients {
		if _, _, err := runPython(ctx, c, trivialProgram, nil); err != nil {
			return err
		}
	}
	for i, n := range levels {
		if err := sleepCtx(ctx, 3*time.Second); err != nil { // the pool refills, removals end
			return err
		}
		var prof chan profileResult
		if profile && i == len(levels)-1 {
			prof = make(chan profileResult, 1)
			go func() { prof <- b.profileServe(ctx, s, b.o.window) }()
		}
		row := b.window(ctx, label, n, s.pid(), func(ctx context.Context, w int) error {
			_, _, err := runPython(ctx, clients[w], trivialProgram, nil)
			return err
		})
		if prof != nil {
			p := <-prof
			b.rep.profile, b.rep.profileErr, b.rep.profileLabel = p.top, p.err, fmt.Sprintf("%s, %d clients", label, n)
		}
		b.rep.throughput = append(b.rep.throughput, row)
		if row.Runs == 0 {
			return fmt.Errorf("%s, %d clients: no run succeeded: %s", label, n, row.FirstErr)
		}
	}
	if st, err := s.pool(ctx); err == nil {
		b.rep.para("After %s: the warm pool's target was %d, with %d run(s) having waited for a container start.", label, st.Target, st.Waits)
	}
	return nil
}

// throughputDocker adds the rows of `docker run --rm` at each concurrency.
func (b *bench) throughputDocker(ctx context.Context) error {
	if !b.o.docker {
		return nil
	}
	if _, err := exec.LookPath("docker"); err != nil {
		return nil
	}
	levels, err := b.levels()
	if err != nil {
		return err
	}
	args := b.dockerRunArgs(trivialProgram)
	for _, n := range levels {
		if err := sleepCtx(ctx, 3*time.Second); err != nil {
			return err
		}
		row := b.window(ctx, "`docker run --rm`", n, 0, func(ctx context.Context, _ int) error {
			out, err := dockerCLI(ctx, args...)
			if err == nil && strings.TrimSpace(out) != "1" {
				err = fmt.Errorf("docker run printed %q", out)
			}
			return err
		})
		b.rep.throughput = append(b.rep.throughput, row)
	}
	return nil
}

func slicesMax(v []int) int {
	m := 0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// window runs n workers, each calling one back to back, for the window
// (-window); a call begun within it is waited for and counted.
func (b *bench) window(ctx context.Context, label string, n, servePID int, one func(ctx context.Context, worker int) error) throughputRow {
	row := throughputRow{Label: label, Clients: n}
	var (
		mu  sync.Mutex
		lat []time.Duration
		wg  sync.WaitGroup
	)
	eng0, mach0, serve0 := engineCPU(), machineCPU(), cpuTime(servePID)
	start := time.Now()
	end := start.Add(b.o.window)
	for w := range n {
		wg.Go(func() {
			for time.Now().Before(end) && ctx.Err() == nil {
				s := time.Now()
				err := one(ctx, w)
				d := time.Since(s)
				mu.Lock()
				if err != nil {
					row.Failed++
					if row.FirstErr == "" {
						row.FirstErr = err.Error()
					}
				} else {
					row.Runs++
					lat = append(lat, d)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	row.Elapsed = time.Since(start)
	row.EngineCPU, row.MachineCPU = engineDelta(eng0, engineCPU()), machineCPU()-mach0
	if servePID > 0 {
		row.ServeCPU = cpuTime(servePID) - serve0
	}
	row.Latency = summarize(lat)
	return row
}

// engineCPU is the CPU time each dockerd and containerd process has used
// so far, by process (the per-container shims and runc are not in it: they
// come and go; the machine's total has them).
func engineCPU() map[proc]time.Duration {
	out := map[proc]time.Duration{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err != nil {
			continue
		}
		switch strings.TrimSpace(string(comm)) {
		case "dockerd", "containerd":
			if _, start, ok := statFields(pid); ok {
				out[proc{pid, start}] = cpuTime(pid)
			}
		}
	}
	return out
}

// engineDelta is the CPU time the engine daemons running at both moments
// used between them (an engine another test started or stopped meanwhile
// is left out).
func engineDelta(before, after map[proc]time.Duration) time.Duration {
	var d time.Duration
	for p, t := range after {
		if t0, ok := before[p]; ok {
			d += t - t0
		}
	}
	return d
}

// machineCPU is the CPU time all CPUs have spent busy so far (/proc/stat:
// everything but idle and iowait).
func machineCPU() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var busy int64
	for i, v := range f[1:] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		busy += n
	}
	if len(f) > 9 { // guest time is counted in user already
		for _, v := range f[9:] {
			n, _ := strconv.ParseInt(v, 10, 64)
			busy -= n
		}
	}
	return time.Duration(busy) * clockTick
}

type profileResult struct {
	top []string
	err error
}

// profileServe takes a CPU profile of serve over d and returns the top of
// `go tool pprof -top`.
func (b *bench) profileServe(ctx context.Context, s *httpServe, d time.Duration) profileResult {
	secs := max(1, int(d.Seconds())-1)
	pctx, cancel := context.WithTimeout(ctx, d+30*time.Second)
	defer cancel()
	body, err := s.get(pctx, "/debug/pprof/profile?seconds="+strconv.Itoa(secs))
	if err != nil {
		return profileResult{err: err}
	}
	path := filepath.Join(b.tmp, "serve-cpu.pprof")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return profileResult{err: err}
	}
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	out, err := exec.CommandContext(pctx, goCmd, "tool", "pprof", "-top", "-nodecount=12", b.cli, path).Output()
	if err != nil {
		return profileResult{err: fmt.Errorf("go tool pprof: %w", err)}
	}
	var top []string
	for line := range strings.SplitSeq(string(out), "\n") {
		if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "File:") && !strings.HasPrefix(line, "Build ID:") && !strings.HasPrefix(line, "Type:") && !strings.HasPrefix(line, "Time:") {
			top = append(top, line)
		}
	}
	return profileResult{top: top}
}

// pct is d as a percentage of one CPU over elapsed.
func pct(d, elapsed time.Duration) string {
	if elapsed <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*d.Seconds()/elapsed.Seconds())
}

// throughputSection renders the throughput rows, where the CPU went, and
// the top of serve's profile.
func (r *report) throughputSection(b *strings.Builder) {
	if len(r.throughput) == 0 {
		return
	}
	b.WriteString("\n## Throughput\n\n")
	b.WriteString("Clients send `print(1)` back to back, each over its own MCP session (streamable HTTP) to one `serve --http`, or each running `docker run --rm` of the same image with the sandbox's flags. CPU is the time used over the window as a percentage of one CPU: serve's, the engine daemons' (dockerd and containerd; the per-container shims and runc are in the machine's total), and the whole machine's (other work on it included).\n\n")
	b.WriteString("| setup | clients | runs/s | p50 | p95 | runs (failed) | serve CPU | dockerd+containerd CPU | machine CPU |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, t := range r.throughput {
		serve := "—"
		if t.ServeCPU > 0 {
			serve = pct(t.ServeCPU, t.Elapsed)
		}
		fmt.Fprintf(b, "| %s | %d | %.1f | %s | %s | %d (%d) | %s | %s | %s |\n", t.Label, t.Clients, t.perSecond(),
			ms(t.Latency.Median), ms(t.Latency.P95), t.Runs, t.Failed, serve, pct(t.EngineCPU, t.Elapsed), pct(t.MachineCPU, t.Elapsed))
	}
	for _, t := range r.throughput {
		if t.FirstErr != "" {
			fmt.Fprintf(b, "\n%s, %d clients, first failure: %.300s\n", t.Label, t.Clients, t.FirstErr)
		}
	}
	b.WriteString("\n" + r.whatBounds() + "\n")
	switch {
	case r.profileErr != nil:
		fmt.Fprintf(b, "\nserve's CPU profile could not be taken: %v\n", r.profileErr)
	case len(r.profile) > 0:
		fmt.Fprintf(b, "\nThe top of serve's CPU profile (%s; `go tool pprof -top`):\n\n```\n%s\n```\n", r.profileLabel, strings.Join(r.profile, "\n"))
	}
}

// whatBounds says what the measurements show bounds the throughput: the
// busiest serve row against the machine's CPUs and docker run's rate.
func (r *report) whatBounds() string {
	var top, docker, session *throughputRow
	for i := range r.throughput {
		t := &r.throughput[i]
		if t.Label == sessionLabel {
			if session == nil || t.perSecond() > session.perSecond() {
				session = t
			}
			continue
		}
		if t.ServeCPU > 0 && (top == nil || t.perSecond() > top.perSecond()) {
			top = t
		}
		if t.ServeCPU == 0 && (docker == nil || t.perSecond() > docker.perSecond()) {
			docker = t
		}
	}
	if top == nil || top.Elapsed <= 0 || top.Runs == 0 {
		return ""
	}
	cpus := float64(runtime.NumCPU())
	secs := top.Elapsed.Seconds()
	busy := top.MachineCPU.Seconds() / secs / cpus
	perRun := func(d time.Duration) string { return ms(d / time.Duration(top.Runs)) }
	rest := top.MachineCPU - top.ServeCPU - top.EngineCPU
	s := fmt.Sprintf("**What bounds it.** The best serve rate with a container per run, %.1f runs/s (%s, %d clients), kept the machine's %d CPUs %.0f%% busy. "+
		"Per run, serve used %s of CPU, dockerd and containerd %s, and everything else %s (runc and the containerd shim that start and stop each container, the container's Python, the kernel's namespace and cgroup set-up and teardown, and whatever else ran on the machine). ",
		top.perSecond(), top.Label, top.Clients, runtime.NumCPU(), 100*busy, perRun(top.ServeCPU), perRun(top.EngineCPU), perRun(rest))
	if busy >= 0.8 {
		s += "The CPUs are saturated, and serve's own share is small: every run costs one container's create, start, kill and removal, and that work, in the engine and the kernel, is what bounds the rate; a warm pool moves the start off a run's path, it does not make it cheaper. "
	} else {
		s += "The CPUs are not saturated: the bound is the engine's latency for a container's start and removal, done one after the other per run, rather than CPU. "
	}
	if docker != nil && docker.Runs > 0 {
		s += fmt.Sprintf("`docker run --rm` peaks at %.1f runs/s (%d clients): serve does %.1f× as many, as it skips the CLI's process, its attach and its wait, and starts containers ahead of need.", docker.perSecond(), docker.Clients, top.perSecond()/docker.perSecond())
	}
	if session != nil && session.Runs > 0 && session.Elapsed > 0 {
		per := func(d time.Duration) string { return ms(d / time.Duration(session.Runs)) }
		s += fmt.Sprintf("\n\nWith isolation = \"session\" no container is made per run: %.1f runs/s (%d clients), %.1f× the best rate with a container per run. "+
			"Per run, serve used %s of CPU, dockerd and containerd %s, and everything else %s: the worker process forked for the run and its Python, the cleaning of the container between runs, and the kernel's work for them. ",
			session.perSecond(), session.Clients, session.perSecond()/top.perSecond(), per(session.ServeCPU), per(session.EngineCPU), per(session.MachineCPU-session.ServeCPU-session.EngineCPU))
	}
	return s
}
