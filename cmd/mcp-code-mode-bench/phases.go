package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// The programs the runs send.
const (
	trivialProgram = "print(1)"
	// stampProgram prints when the program ran, on the host's wall clock
	// (the container shares the host's kernel clock).
	stampProgram = "import time\nprint(time.time_ns())"
)

// noopProgram makes n sequential noop calls and prints, for each, when it
// was sent (µs after base_ns, wall clock, to line up with the server's
// log) and how long it took (µs, perf_counter).
func noopProgram(n int) string {
	return fmt.Sprintf(`import json, time
base = time.time_ns()
calls = []
t0 = time.perf_counter()
for _ in range(%d):
    sent = time.time_ns()
    a = time.perf_counter()
    await mcp_t.noop()
    calls.append([(sent - base) // 1000, round((time.perf_counter() - a) * 1e6)])
total = time.perf_counter() - t0
print(json.dumps({"base_ns": base, "total_s": total, "calls": calls}))
`, n)
}

func gatherProgram(n, sleepMS int) string {
	return fmt.Sprintf(`import asyncio, time
t0 = time.perf_counter()
await asyncio.gather(*[mcp_t.sleep(ms=%d) for _ in range(%d)])
print(time.perf_counter() - t0)
`, sleepMS, n)
}

func sequentialProgram(n, sleepMS int) string {
	return fmt.Sprintf(`import time
t0 = time.perf_counter()
for _ in range(%d):
    await mcp_t.sleep(ms=%d)
print(time.perf_counter() - t0)
`, n, sleepMS)
}

// dockerRunArgs are the docker CLI's arguments to run program as the
// sandbox does, labelled as this bench's: the cleaner removes whatever of
// them is left when the bench ends.
func (b *bench) dockerRunArgs(program string) []string {
	label := fmt.Sprintf("io.mcp-code-mode.bench=%d", os.Getpid())
	b.cl.add(func() {
		rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = removeContainers(rctx, b.docker, label)
	})
	return sandboxRunArgs(label, b.o.image, program)
}

// sandboxRunArgs are the flags of the sandbox, for the docker CLI.
func sandboxRunArgs(label, image, program string) []string {
	return []string{"run", "--rm", "--label", label,
		"--network", "none", "--read-only", "--tmpfs", "/tmp:rw,noexec,nosuid,nodev,size=16m",
		"--user", "65534:65534", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
		"--pids-limit", "64", "--memory", "256m", "--memory-swap", "256m", "--cpus", "1",
		"--ulimit", "nofile=64:64", "-i", "--entrypoint", "python3", image, "-c", program}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func loadCatalogs(dir string) ([]catalog, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var out []catalog
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var c catalog
		if err := json.Unmarshal(b, &c); err != nil || c.Server == "" {
			continue // not a catalog (README.md is not globbed, but be lenient)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no catalogs in %s", dir)
	}
	return out, nil
}

func (b *bench) writeConfig(name, text string) (string, error) {
	p := filepath.Join(b.tmp, name)
	return p, os.WriteFile(p, []byte(text), 0o644)
}

func (b *bench) serveArgs(config string) []string {
	return []string{"serve", "--no-discovery", "--config", config, "--image", b.o.image}
}

// startServe starts a serve over config with extra environment.
func (b *bench) startServe(ctx context.Context, name, config string, env ...string) (*mcpProc, error) {
	return startMCP(ctx, name, b.cli, b.serveArgs(config), cleanEnv(env...), b.docker, b.cl)
}

// testserverConfig is a config with the testserver as server "t".
func (b *bench) testserverConfig(name, callLog string, limits map[string]int, extra ...string) (string, error) {
	args := append([]string{"-name", "t", "-log", callLog}, extra...)
	dir := filepath.Join(b.tmp, "catalog-"+strings.TrimSuffix(name, ".toml"))
	return b.writeConfig(name, serveConfig(dir, limits, []serverConf{{Name: "t", Command: b.ts, Args: args}}))
}

// callsIn returns the testserver's records of tool calls that began
// within sp.
func callsIn(logPath, tool string, sp span) ([]serverCall, error) {
	text, err := os.ReadFile(logPath)
	if err != nil {
		return nil, err
	}
	all, err := parseCallLog(string(text))
	if err != nil {
		return nil, err
	}
	var out []serverCall
	for _, c := range all {
		if c.Tool == tool && c.StartUnixNano >= sp.Start && c.StartUnixNano <= sp.End {
			out = append(out, c)
		}
	}
	return out, nil
}

// phaseContext measures run_python's tool entry with 1, 10 and 100
// configured servers against the tools/list answers of as many real
// servers (the captured catalogs, taken in turn).
func (b *bench) phaseContext(ctx context.Context) error {
	names := make([]string, len(b.catalog))
	sizes := make([]int, len(b.catalog))
	counts := make([]int, len(b.catalog))
	for i, c := range b.catalog {
		names[i] = c.Server
		counts[i] = len(c.Tools)
		n, err := toolsListSize(c)
		if err != nil {
			return err
		}
		sizes[i] = n
	}
	b.rep.catalogs = len(b.catalog)
	for _, n := range []int{1, 10, 100} {
		var servers []serverConf
		for _, name := range cycleNames(names, n) {
			// A real command, never started: serve lists run_python
			// without starting any server.
			servers = append(servers, serverConf{Name: name, Command: b.ts, Args: []string{"-name", name}})
		}
		cfg, err := b.writeConfig(fmt.Sprintf("context-%d.toml", n), serveConfig(filepath.Join(b.tmp, "catalog-context"), nil, servers))
		if err != nil {
			return err
		}
		p, err := b.startServe(ctx, fmt.Sprintf("serve (%d servers)", n), cfg, "MCP_CODE_MODE_LIMITS__WARM=0")
		if err != nil {
			return err
		}
		tools, err := p.rawToolsList(ctx)
		started := len(descendants(p.pid()))
		p.Close()
		if err != nil {
			return err
		}
		row := contextRow{Servers: n, Started: started, CatalogChars: cycleSum(sizes, n), CatalogTools: cycleSum(counts, n)}
		for _, raw := range tools {
			var t struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			}
			if err := json.Unmarshal(raw, &t); err != nil {
				return err
			}
			if t.Name == "run_python" {
				row.DescChars = len([]rune(t.Description))
				row.ToolChars = len([]rune(string(raw))) // compact, as sent
			}
		}
		if row.ToolChars == 0 {
			return fmt.Errorf("serve (%d servers) lists no run_python", n)
		}
		b.rep.context = append(b.rep.context, row)
	}
	return nil
}

// phaseDockerRun times a fresh `docker run --rm` of the trivial program.
func (b *bench) phaseDockerRun(ctx context.Context) error {
	if !b.o.docker {
		b.rep.dockerSkip = "skipped (-docker-run=false)"
		return nil
	}
	if _, err := exec.LookPath("docker"); err != nil {
		b.rep.dockerSkip = "skipped: no docker CLI on PATH"
		return nil
	}
	args := b.dockerRunArgs(trivialProgram)
	b.rep.dockerCmd = "docker " + strings.Join(args, " ")
	for i := -1; i < b.o.n; i++ { // the first run warms the CLI and the engine's caches
		start := time.Now()
		out, err := dockerCLI(ctx, args...)
		d := time.Since(start)
		if err != nil {
			return err
		}
		if strings.TrimSpace(out) != "1" {
			return fmt.Errorf("docker run printed %q", out)
		}
		if i >= 0 {
			b.rep.docker = append(b.rep.docker, d)
		}
	}
	return nil
}

// phaseServe drives one serve with the default warm pool: idle memory,
// spaced and back-to-back runs (with the engine's view of them), per-call
// overhead against a direct client, and concurrent against sequential
// calls with the peak memory.
func (b *bench) phaseServe(ctx context.Context) error {
	callLog := filepath.Join(b.tmp, "t-calls.jsonl")
	cfg, err := b.testserverConfig("serve.toml", callLog, nil)
	if err != nil {
		return err
	}
	p, err := b.startServe(ctx, "serve", cfg)
	if err != nil {
		return err
	}
	defer p.Close()
	ev := watchEvents(b.docker, p.begun, sandbox.LabelOwner+"="+p.owner())
	defer ev.Close()

	// Idle: after start and one run, once the pool has refilled.
	if _, _, err := p.runPython(ctx, trivialProgram, nil); err != nil {
		return err
	}
	if err := sleepCtx(ctx, 2*time.Second); err != nil {
		return err
	}
	if b.rep.idleRSS, err = rssKB(p.pid()); err != nil {
		return err
	}

	// (1a) spaced by a think time.
	cpu0 := cpuTime(p.pid())
	for range b.o.n {
		if err := sleepCtx(ctx, b.o.think); err != nil {
			return err
		}
		res, sp, err := p.runPython(ctx, trivialProgram, nil)
		if err != nil {
			return err
		}
		if res.Stdout != "1\n" {
			return fmt.Errorf("print(1) gave %q", res.Stdout)
		}
		b.rep.spaced = append(b.rep.spaced, time.Duration(sp.End-sp.Start))
		b.rep.spacedServer = append(b.rep.spacedServer, time.Duration(res.DurationMS)*time.Millisecond)
	}
	b.rep.cpuSpaced = (cpuTime(p.pid()) - cpu0) / time.Duration(b.o.n)
	// Where a spaced run's time goes: the program prints when it ran; the
	// engine reports when its container exited.
	stampRuns, stamps, err := b.stampRuns(ctx, p)
	if err != nil {
		return err
	}
	b.rep.stampBreakdown = breakdownRuns(stampRuns, stamps, lives(ev.snapshot()))

	// (1b) back to back, from a full pool.
	if err := sleepCtx(ctx, b.o.think); err != nil {
		return err
	}
	var b2b []span
	for range b.o.n {
		_, sp, err := p.runPython(ctx, trivialProgram, nil)
		if err != nil {
			return err
		}
		b2b = append(b2b, sp)
		b.rep.backToBack = append(b.rep.backToBack, time.Duration(sp.End-sp.Start))
	}
	b.rep.poolWarm = matchPool(b2b, lives(ev.snapshot()))

	// Let the removals and refills the back-to-back runs left behind finish:
	// on 2 cores they would otherwise be measured as per-call overhead.
	if err := sleepCtx(ctx, 3*time.Second); err != nil {
		return err
	}
	if err := b.perCall(ctx, p, callLog); err != nil {
		return err
	}
	return b.concurrency(ctx, p, callLog)
}

// perCall times sequential noop calls from sandbox code and from a direct
// client of the same testserver binary.
func (b *bench) perCall(ctx context.Context, p *mcpProc, callLog string) error {
	// Starts the testserver, so the measured run finds it running.
	if _, _, err := p.runPython(ctx, "await mcp_t.noop()", []string{"t"}); err != nil {
		return err
	}
	if err := sleepCtx(ctx, b.o.think); err != nil {
		return err
	}
	cpu0 := cpuTime(p.pid())
	res, sp, err := p.runPython(ctx, noopProgram(b.o.calls), []string{"t"})
	if err != nil {
		return err
	}
	b.rep.cpuNoop = (cpuTime(p.pid()) - cpu0) / time.Duration(b.o.calls)
	ct, err := parseCallTimes(res.Stdout)
	if err != nil {
		return err
	}
	if len(ct.Calls) != b.o.calls {
		return fmt.Errorf("the program made %d calls, want %d", len(ct.Calls), b.o.calls)
	}
	b.rep.sandboxCalls = ct.durations()
	b.rep.sandboxTotal = time.Duration(ct.TotalS * float64(time.Second))
	recs, err := callsIn(callLog, "noop", sp)
	if err != nil {
		return err
	}
	if b.rep.sandboxLegs, err = legs(ct.spans(), recs); err != nil {
		return err
	}

	directLog := filepath.Join(b.tmp, "direct-calls.jsonl")
	d, err := startMCP(ctx, "testserver (direct)", b.ts, []string{"-name", "t", "-log", directLog}, cleanEnv(), nil, b.cl)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.callTool(ctx, "noop", map[string]any{}); err != nil { // as the sandbox side's server had one call before
		return err
	}
	var spans []span
	for range b.o.calls {
		s := time.Now()
		if err := d.callTool(ctx, "noop", map[string]any{}); err != nil {
			return err
		}
		spans = append(spans, span{s.UnixNano(), time.Now().UnixNano()})
		b.rep.directCalls = append(b.rep.directCalls, time.Since(s))
	}
	b.rep.directTotal = time.Duration(spans[len(spans)-1].End - spans[0].Start)
	recs, err = callsIn(directLog, "noop", span{spans[0].Start, spans[len(spans)-1].End})
	if err != nil {
		return err
	}
	b.rep.directLegs, err = legs(spans, recs)
	return err
}

// gatherResult is one run of the sleep programs.
type gatherResult struct {
	Inside     time.Duration // perf_counter in the program
	Run        time.Duration // duration_ms
	Client     time.Duration // as the MCP client saw it
	Overlap    int           // most calls the server had in flight at once
	ServerSpan time.Duration // first call's start to last call's end, at the server
}

func (b *bench) sleepRun(ctx context.Context, p *mcpProc, callLog, program string) (gatherResult, error) {
	var g gatherResult
	res, sp, err := p.runPython(ctx, program, []string{"t"})
	if err != nil {
		return g, err
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(res.Stdout), 64)
	if err != nil {
		return g, fmt.Errorf("sleep program printed %q", res.Stdout)
	}
	g.Inside = time.Duration(secs * float64(time.Second))
	g.Run = time.Duration(res.DurationMS) * time.Millisecond
	g.Client = time.Duration(sp.End - sp.Start)
	recs, err := callsIn(callLog, "sleep", sp)
	if err != nil {
		return g, err
	}
	if len(recs) != b.o.sleeps {
		return g, fmt.Errorf("the server saw %d sleep calls, want %d", len(recs), b.o.sleeps)
	}
	spans := make([]span, len(recs))
	first, last := recs[0].StartUnixNano, recs[0].EndUnixNano
	for i, r := range recs {
		spans[i] = span{r.StartUnixNano, r.EndUnixNano}
		first, last = min(first, r.StartUnixNano), max(last, r.EndUnixNano)
	}
	g.Overlap = maxOverlap(spans)
	g.ServerSpan = time.Duration(last - first)
	return g, nil
}

// concurrency runs the sleeps together and one at a time, sampling the
// resident set of serve meanwhile.
func (b *bench) concurrency(ctx context.Context, p *mcpProc, callLog string) error {
	if err := sleepCtx(ctx, b.o.think); err != nil {
		return err
	}
	s := sampleRSS(p.pid(), b.o.sample)
	var err error
	b.rep.gather, err = b.sleepRun(ctx, p, callLog, gatherProgram(b.o.sleeps, b.o.sleepMS))
	if err == nil {
		b.rep.sequential, err = b.sleepRun(ctx, p, callLog, sequentialProgram(b.o.sleeps, b.o.sleepMS))
	}
	b.rep.peakRSS, b.rep.peakSamples = s.Stop()
	return err
}

// phaseGatherRaised runs the gather again with the two concurrency limits
// on its path raised to the number of calls: serve's per-server limit
// (limits.server_concurrency) and the testserver's workers.
func (b *bench) phaseGatherRaised(ctx context.Context) error {
	callLog := filepath.Join(b.tmp, "t-raised-calls.jsonl")
	workers := min(b.o.sleeps, 100)
	cfg, err := b.testserverConfig("raised.toml", callLog, map[string]int{"server_concurrency": b.o.sleeps}, "-workers", strconv.Itoa(workers))
	if err != nil {
		return err
	}
	p, err := b.startServe(ctx, "serve (raised limits)", cfg)
	if err != nil {
		return err
	}
	defer p.Close()
	if _, _, err := p.runPython(ctx, "await mcp_t.noop()", []string{"t"}); err != nil {
		return err
	}
	if err := sleepCtx(ctx, b.o.think); err != nil {
		return err
	}
	b.rep.raisedWorkers = workers
	g, err := b.sleepRun(ctx, p, callLog, gatherProgram(b.o.sleeps, b.o.sleepMS))
	b.rep.gatherRaised = &g
	return err
}

// phaseCold runs back to back with no warm pool: each run starts its
// container.
func (b *bench) phaseCold(ctx context.Context) error {
	cfg, err := b.testserverConfig("cold.toml", filepath.Join(b.tmp, "t-cold-calls.jsonl"), nil)
	if err != nil {
		return err
	}
	p, err := b.startServe(ctx, "serve (warm=0)", cfg, "MCP_CODE_MODE_LIMITS__WARM=0")
	if err != nil {
		return err
	}
	defer p.Close()
	ev := watchEvents(b.docker, p.begun, sandbox.LabelOwner+"="+p.owner())
	defer ev.Close()
	if _, _, err := p.runPython(ctx, trivialProgram, nil); err != nil {
		return err
	}
	var runs []span
	for range b.o.n {
		res, sp, err := p.runPython(ctx, trivialProgram, nil)
		if err != nil {
			return err
		}
		runs = append(runs, sp)
		b.rep.cold = append(b.rep.cold, time.Duration(sp.End-sp.Start))
		b.rep.coldServer = append(b.rep.coldServer, time.Duration(res.DurationMS)*time.Millisecond)
	}
	b.rep.poolCold = matchPool(runs, lives(ev.snapshot()))
	// The same breakdown as for (a), with no container starting meanwhile.
	runs, stamps, err := b.stampRuns(ctx, p)
	if err != nil {
		return err
	}
	b.rep.coldBreakdown = breakdownRuns(runs, stamps, lives(ev.snapshot()))
	return nil
}

// stampRuns runs the stamp program max(5, n/2) times, spaced by the think
// time, and returns the runs' spans and when each program ran.
func (b *bench) stampRuns(ctx context.Context, p *mcpProc) ([]span, []int64, error) {
	var runs []span
	var stamps []int64
	for range max(5, b.o.n/2) {
		if err := sleepCtx(ctx, b.o.think); err != nil {
			return nil, nil, err
		}
		res, sp, err := p.runPython(ctx, stampProgram, nil)
		if err != nil {
			return nil, nil, err
		}
		ns, err := strconv.ParseInt(strings.TrimSpace(res.Stdout), 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("stamp program printed %q", res.Stdout)
		}
		runs = append(runs, sp)
		stamps = append(stamps, ns)
	}
	return runs, stamps, nil
}
