package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// The targets.
const (
	targetSpacedMedian = 30 * time.Millisecond
	targetDockerRatio  = 30.0
	targetPerCall      = time.Millisecond
	targetGather       = 300 * time.Millisecond
	targetTokens100    = 2000
	targetIdleBytes    = 40_000_000
)

// contextRow is run_python's context cost with some number of servers.
type contextRow struct {
	Servers      int
	Started      int // processes serve had started when it answered tools/list
	DescChars    int // run_python's description
	ToolChars    int // run_python's whole tools/list entry (JSON)
	CatalogChars int // tools/list answers of as many real servers
	CatalogTools int
}

// report gathers the measurements and renders them.
type report struct {
	header []string
	notes  []string

	catalogs int
	context  []contextRow

	docker     []time.Duration
	dockerSkip string
	dockerCmd  string

	spaced, spacedServer []time.Duration
	stampBreakdown       breakdown // (a)'s runs
	coldBreakdown        breakdown // (d)'s runs
	backToBack           []time.Duration
	poolWarm, poolCold   poolView
	cold, coldServer     []time.Duration

	cpuSpaced time.Duration // serve's CPU time per spaced run
	cpuNoop   time.Duration // serve's CPU time per noop call (that run)

	idleRSS, peakRSS int64 // kB
	peakSamples      int

	sandboxCalls, directCalls []time.Duration
	sandboxTotal, directTotal time.Duration
	sandboxLegs, directLegs   legStats

	gather, sequential gatherResult
	gatherRaised       *gatherResult
	raisedWorkers      int

	throughput   []throughputRow
	profile      []string // the top of serve's CPU profile
	profileErr   error
	profileLabel string
	rows         [][4]string // measure, result, target, status
	details      []string
}

func (r *report) note(s string) { r.notes = append(r.notes, s) }

func (r *report) row(measure, result, target, status string) {
	r.rows = append(r.rows, [4]string{measure, result, target, status})
}

func (r *report) para(format string, args ...any) {
	r.details = append(r.details, fmt.Sprintf(format, args...))
}

func mb(kB int64) string { return fmt.Sprintf("%.1f MB", float64(kB)*1024/1e6) }

// targets turns the measurements into the table and the details.
func (r *report) targets(b *bench) {
	lim := config.DefaultLimits()
	o := b.o
	sp := summarize(r.spaced)
	dk := summarize(r.docker)

	// (1)
	if sp.N > 0 {
		r.row(fmt.Sprintf("1a. `print(1)` every %v: median (p95)", o.think), fmt.Sprintf("%s (%s)", ms(sp.Median), ms(sp.P95)),
			"≤ "+ms(targetSpacedMedian), verdict(sp.Median <= targetSpacedMedian))
	} else {
		r.row("1a. `print(1)` spaced: median", "not measured", "≤ "+ms(targetSpacedMedian), "—")
	}
	switch {
	case r.dockerSkip != "":
		r.row("1c. `docker run` ÷ 1a (medians)", r.dockerSkip, fmt.Sprintf("≥ %.0f×", targetDockerRatio), "—")
	case sp.N > 0 && dk.N > 0:
		ratio := float64(dk.Median) / float64(sp.Median)
		r.row("1c. `docker run` ÷ 1a (medians)", fmt.Sprintf("%.1f× (docker run %s, p95 %s)", ratio, ms(dk.Median), ms(dk.P95)),
			fmt.Sprintf("≥ %.0f×", targetDockerRatio), verdict(ratio >= targetDockerRatio))
	default:
		r.row("1c. `docker run` ÷ 1a (medians)", "not measured", fmt.Sprintf("≥ %.0f×", targetDockerRatio), "—")
	}
	if s := summarize(r.backToBack); s.N > 0 {
		r.row("1b. `print(1)` back to back: median (p95)", fmt.Sprintf("%s (%s)", ms(s.Median), ms(s.P95)), "(report)", "")
	}
	if s := summarize(r.cold); s.N > 0 {
		r.row("1d. back to back, warm=0: median (p95)", fmt.Sprintf("%s (%s)", ms(s.Median), ms(s.P95)), "(report)", "")
	}

	// (2)
	var added time.Duration
	if len(r.sandboxCalls) > 0 && len(r.directCalls) > 0 {
		perS := r.sandboxTotal / time.Duration(len(r.sandboxCalls))
		perD := r.directTotal / time.Duration(len(r.directCalls))
		added = perS - perD
		r.row(fmt.Sprintf("2. added per `noop` call (%d sequential)", o.calls),
			fmt.Sprintf("%s (sandbox %s − direct %s per call)", ms(added), ms(perS), ms(perD)), "≤ "+ms(targetPerCall), verdict(added <= targetPerCall))
	} else {
		r.row("2. added per `noop` call", "not measured", "≤ "+ms(targetPerCall), "—")
	}

	// (3)
	if r.gather.Inside > 0 {
		r.row(fmt.Sprintf("3. %d × `sleep(ms=%d)` with gather", o.sleeps, o.sleepMS),
			fmt.Sprintf("%s in the program, run %s", ms(r.gather.Inside), ms(r.gather.Run)), "≤ "+ms(targetGather), verdict(r.gather.Inside <= targetGather))
	} else {
		r.row("3. sleeps with gather", "not measured", "≤ "+ms(targetGather), "—")
	}
	if r.sequential.Inside > 0 {
		r.row("3. the same, one at a time", fmt.Sprintf("%s in the program, run %s", ms(r.sequential.Inside), ms(r.sequential.Run)), "(report)", "")
	}

	// (4)
	for _, c := range r.context {
		if c.Servers != 100 {
			continue
		}
		t := tokens(c.ToolChars)
		r.row("4. run_python in tools/list, 100 servers",
			fmt.Sprintf("≈ %d tokens (description ≈ %d) vs ≈ %d tokens of their %d tools", t, tokens(c.DescChars), tokens(c.CatalogChars), c.CatalogTools),
			fmt.Sprintf("< %d tokens", targetTokens100), verdict(t < targetTokens100))
	}
	if len(r.context) == 0 {
		r.row("4. run_python in tools/list, 100 servers", "not measured", fmt.Sprintf("< %d tokens", targetTokens100), "—")
	}

	// (5)
	if r.idleRSS > 0 {
		r.row("5. serve VmRSS idle (after start and one run)", mb(r.idleRSS), "≤ 40 MB", verdict(r.idleRSS*1024 <= targetIdleBytes))
	} else {
		r.row("5. serve VmRSS idle", "not measured", "≤ 40 MB", "—")
	}
	if r.peakRSS > 0 {
		r.row("5. serve VmRSS peak during 3", fmt.Sprintf("%s (%d samples every %v)", mb(r.peakRSS), r.peakSamples, o.sample), "(report)", "")
	}

	// (6)
	for _, t := range r.throughput {
		if t.Label == sessionLabel && t.Clients == 8 {
			r.row("6. `print(1)`, 8 HTTP clients back to back, isolation=session", fmt.Sprintf("%.1f runs/s (%d failed)", t.perSecond(), t.Failed),
				fmt.Sprintf("≥ %.0f runs/s", targetSessionRate), verdict(t.perSecond() >= targetSessionRate && t.Failed == 0))
		}
	}

	r.detailLatency(b, lim)
	r.detailPerCall(added)
	r.detailConcurrency(b, lim)
	r.detailContext()
}

// medianP95 describes a sample in a few words.
func medianP95(s summary) string {
	if s.N == 0 {
		return "none"
	}
	return fmt.Sprintf("median %s, p95 %s", ms(s.Median), ms(s.P95))
}

func (r *report) latencyLine(name string, ds, server []time.Duration) {
	s := summarize(ds)
	if s.N == 0 {
		return
	}
	srv := "—"
	if v := summarize(server); v.N > 0 {
		srv = ms(v.Median)
	}
	r.para("| %s | %d | %s | %s | %s | %s | %s |", name, s.N, ms(s.Median), ms(s.P95), ms(s.Min), ms(s.Max), srv)
}

func (r *report) detailLatency(b *bench, lim config.Limits) {
	r.para("### 1. Latency of a trivial program")
	r.para("")
	r.para("Client-side wall time of one `run_python` call (mcp-go over stdio to `serve`), and of one `docker run --rm` process.")
	r.para("")
	r.para("| series | n | median | p95 | min | max | duration_ms (median) |")
	r.para("|---|---|---|---|---|---|---|")
	r.latencyLine(fmt.Sprintf("(a) `print(1)` every %v, warm pool of %d", b.o.think, lim.Warm), r.spaced, r.spacedServer)
	r.latencyLine(fmt.Sprintf("(b) `print(1)` back to back, warm pool of %d", lim.Warm), r.backToBack, nil)
	r.latencyLine("(c) `docker run --rm` (CLI process included)", r.docker, nil)
	r.latencyLine("(d) `print(1)` back to back, warm=0", r.cold, r.coldServer)
	if r.dockerSkip != "" {
		r.para("")
		r.para("(c) %s.", r.dockerSkip)
	} else if r.dockerCmd != "" {
		r.para("")
		r.para("(c) is `%s`.", r.dockerCmd)
	}
	for _, c := range []struct {
		name string
		bd   breakdown
	}{{"warm pool (as in (a))", r.stampBreakdown}, {"warm=0 (as in (d))", r.coldBreakdown}} {
		bd := c.bd
		if bd.N == 0 {
			continue
		}
		total := bd.ToProgram.Median + bd.ProgramToExit.Median + bd.ExitToAnswer.Median
		r.para("")
		r.para("Where a run's time goes, %s, %d runs of `import time; print(time.time_ns())` every %v (timestamps on both sides, medians): "+
			"request sent → program running %s; program → container exit (engine `die` event) %s; container exit → answer at the client %s; "+
			"the answer waits for the container to exit (the engine ends the attach stream only then), %.0f%% of the time.",
			c.name, bd.N, b.o.think, ms(bd.ToProgram.Median), ms(bd.ProgramToExit.Median), ms(bd.ExitToAnswer.Median),
			100*float64(bd.ProgramToExit.Median+bd.ExitToAnswer.Median)/float64(max(total, 1)))
	}
	if r.cpuSpaced > 0 || len(r.spaced) > 0 {
		r.para("serve's own CPU time (utime+stime, 10 ms ticks) per spaced run: %s.", ms(r.cpuSpaced))
	}
	pw, pc := r.poolWarm, r.poolCold
	if pw.Runs > 0 || pc.Runs > 0 {
		r.para("")
		r.para("The pool from the engine's side (`create`/`start`/`die` events of serve's containers):")
		r.para("")
		if pw.Runs > 0 {
			r.para("- (b): %d of %d runs matched to their container; %d found it started before the run began (%s), "+
				"%d waited for a start (%s). Engine create→start of every container of that serve: median %s, p95 %s (n=%d).",
				pw.Matched, pw.Runs, pw.Warm, medianP95(pw.WarmRuns), pw.Matched-pw.Warm, medianP95(pw.ColdRuns),
				ms(pw.CreateToStart.Median), ms(pw.CreateToStart.P95), pw.CreateToStart.N)
		}
		if pc.Runs > 0 {
			r.para("- (d): %d of %d runs matched, %d warm (expected 0). Engine create→start: median %s, p95 %s; container exit → answer: median %s.",
				pc.Matched, pc.Runs, pc.Warm, ms(pc.CreateToStart.Median), ms(pc.CreateToStart.P95), ms(pc.DieToAnswer.Median))
		}
		sa, sb, sd := summarize(r.spaced), summarize(r.backToBack), summarize(r.cold)
		if start := pc.CreateToStart.Median; sa.N > 0 && sd.N > 0 && start > 0 {
			supply := float64(lim.Warm) / start.Seconds()
			demand := 1 / sa.Median.Seconds()
			r.para("- Refill: a container start takes the pool %s (engine create→start with nothing else starting; a cold run (d) costs %s more than a warm one (a)). "+
				"The pool starts one container per run taken, up to %d at once, so it can supply about %d ÷ %s ≈ %.1f containers/s, "+
				"while back to back runs at the warm speed would take %.1f/s.",
				ms(start), ms(sd.Median-sa.Median), lim.Warm, lim.Warm, ms(start), supply, demand)
			if supply < demand {
				r.para("  Supply is below demand: after the %d warm containers are used, runs wait for a start in flight or make their own, so back-to-back runs tend to the cold time (d).", lim.Warm)
			} else {
				r.para("  In count the refill keeps up, but each refill starts while a run is in progress and shares the CPUs and the engine with it: back to back (b) the median run takes %s against %s spaced (a), even for runs that found a warm container.",
					ms(sb.Median), ms(sa.Median))
			}
		}
	}
	r.para("")
}

func (r *report) detailPerCall(added time.Duration) {
	if len(r.sandboxCalls) == 0 {
		return
	}
	s, d := summarize(r.sandboxCalls), summarize(r.directCalls)
	r.para("### 2. Per-call overhead")
	r.para("")
	r.para("Sequential `noop` calls: from sandbox code (`await mcp_t.noop()`, perf_counter around each) and from a direct mcp-go client of the same testserver binary over stdio. " +
		"Legs from timestamps on both sides (the testserver's call log has its handler's start and end; medians): request = sent → handler began, reply = handler ended → caller resumed.")
	r.para("")
	r.para("| caller | calls | total | per call (total ÷ n) | median | p95 | request leg | handler | reply leg |")
	r.para("|---|---|---|---|---|---|---|---|---|")
	line := func(name string, sm summary, total time.Duration, l legStats) {
		r.para("| %s | %d | %s | %s | %s | %s | %s | %s | %s |", name, sm.N, ms(total), us(total/time.Duration(sm.N)),
			us(sm.Median), us(sm.P95), us(l.Request), us(l.Handler), us(l.Reply))
	}
	line("sandbox → bridge → testserver", s, r.sandboxTotal, r.sandboxLegs)
	if d.N > 0 {
		line("mcp-go client → testserver", d, r.directTotal, r.directLegs)
		r.para("| difference | | %s | %s | %s | | %s | | %s |", ms(r.sandboxTotal-r.directTotal), us(added), us(s.Median-d.Median),
			us(r.sandboxLegs.Request-r.directLegs.Request), us(r.sandboxLegs.Reply-r.directLegs.Reply))
	}
	r.para("")
	r.para("serve's own CPU time per call in that run: %s (utime+stime, 10 ms ticks).", us(r.cpuNoop))
	r.para("")
}

func (r *report) detailConcurrency(b *bench, lim config.Limits) {
	if r.gather.Inside == 0 {
		return
	}
	o := b.o
	r.para("### 3. Concurrent against sequential calls")
	r.para("")
	r.para("%d × `sleep(ms=%d)`; in the program = perf_counter around the calls; max in flight and span are from the testserver's call log.", o.sleeps, o.sleepMS)
	r.para("")
	r.para("| program | in the program | duration_ms | client | max in flight at the server | server span |")
	r.para("|---|---|---|---|---|---|")
	line := func(name string, g gatherResult) {
		r.para("| %s | %s | %s | %s | %d | %s |", name, ms(g.Inside), ms(g.Run), ms(g.Client), g.Overlap, ms(g.ServerSpan))
	}
	line(fmt.Sprintf("`asyncio.gather` (server_concurrency %d, testserver 32 workers)", lim.ServerConcurrency), r.gather)
	if g := r.gatherRaised; g != nil && g.Inside > 0 {
		line(fmt.Sprintf("`asyncio.gather` (server_concurrency %d, testserver %d workers)", o.sleeps, r.raisedWorkers), *g)
	}
	if r.sequential.Inside > 0 {
		line("one at a time", r.sequential)
	}
	perLimit := min(lim.ServerConcurrency, 32)
	waves := (o.sleeps + perLimit - 1) / perLimit
	r.para("")
	r.para("With the defaults at most %d calls are in flight to one server (limits.server_concurrency %d; the testserver serves 32 at once), "+
		"so %d calls take at least %d waves × %d ms = %d ms.", perLimit, lim.ServerConcurrency, o.sleeps, waves, o.sleepMS, waves*o.sleepMS)
	if r.sequential.Inside > 0 {
		per := (r.sequential.Inside - time.Duration(o.sleeps*o.sleepMS)*time.Millisecond) / time.Duration(o.sleeps)
		r.para("One at a time, each call costs %s beyond its %d ms sleep.", ms(per), o.sleepMS)
	}
	r.para("")
}

func (r *report) detailContext() {
	if len(r.context) == 0 {
		return
	}
	r.para("### 4. Context size")
	r.para("")
	r.para("run_python as `serve` lists it (configured servers that are never started) against the tools/list answers of as many real servers "+
		"(the %d captured catalogs of testdata/catalogs, in turn). Characters of compact JSON; tokens ≈ characters ÷ 4.", r.catalogs)
	r.para("")
	r.para("| servers | description | run_python entry (JSON) | their tools/list answers | tools | ratio | servers started by tools/list |")
	r.para("|---|---|---|---|---|---|---|")
	for _, c := range r.context {
		r.para("| %d | %d chars ≈ %d tokens | %d chars ≈ %d tokens | %d chars ≈ %d tokens | %d | %.0f× | %d |", c.Servers,
			c.DescChars, tokens(c.DescChars), c.ToolChars, tokens(c.ToolChars), c.CatalogChars, tokens(c.CatalogChars), c.CatalogTools,
			float64(c.CatalogChars)/float64(c.ToolChars), c.Started)
	}
	r.para("")
}

// markdown renders the report.
func (r *report) markdown() string {
	var b strings.Builder
	b.WriteString("# mcp-code-mode benchmark\n\n")
	for _, h := range r.header {
		b.WriteString("- " + h + "\n")
	}
	b.WriteString("\n| measure | result | target | status |\n|---|---|---|---|\n")
	for _, row := range r.rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", row[0], row[1], row[2], row[3])
	}
	if len(r.notes) > 0 {
		b.WriteString("\n")
		for _, n := range r.notes {
			b.WriteString("- " + n + "\n")
		}
	}
	b.WriteString("\n")
	for _, d := range r.details {
		b.WriteString(d + "\n")
	}
	r.throughputSection(&b)
	return b.String()
}
