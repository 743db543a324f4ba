// Command mcp-code-mode-bench measures mcp-code-mode against its targets,
// side by side in one run, and prints a table (also written to
// testdata/bench/results.md):
//
//  1. latency of a trivial program through one `serve` (spaced by a
//     model's think time, back to back, and back to back with no warm
//     pool) against a fresh `docker run` of the same image and flags;
//  2. the overhead the sandbox and bridge add to each tool call;
//  3. 100 concurrent tool calls against 100 sequential ones;
//  4. the context cost of run_python against the tool lists it replaces;
//  5. the resident memory of serve;
//  6. throughput: clients of one `serve --http` sending `print(1)` back
//     to back, at 1, 4 and 8 at once, against `docker run --rm`, with
//     where the CPU went and a CPU profile of serve.
//
// With -soak D it instead drives one `serve --http` with 8 clients for D
// and checks that it leaves no container, process, descriptor or
// goroutine behind and that its memory stays flat (make soak).
//
// Run it from the repository root after `make build image` (`make bench`
// does that). It removes every process and container it started, also on
// failure or interrupt.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	dockerclient "github.com/moby/moby/client"

	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

type options struct {
	n        int
	think    time.Duration
	binDir   string
	image    string
	out      string
	catalogs string
	calls    int
	sleeps   int
	sleepMS  int
	sample   time.Duration
	docker   bool
	phases   string
	clients  string        // throughput: concurrencies
	window   time.Duration // throughput: how long each is measured
	soak     time.Duration // 0: the phases; else the soak, this long
	soakN    int           // soak: clients
	engines  string        // throughput: engines beside the default one, for a row of its own
}

func main() { os.Exit(realMain()) }

// defaultPhases are the phases of a whole run, whose report -out's default
// keeps.
const defaultPhases = "context,docker,serve,raised,cold,throughput"

func realMain() int {
	var o options
	flag.IntVar(&o.n, "n", 20, "repetitions of each latency measurement")
	flag.DurationVar(&o.think, "think", 1500*time.Millisecond, "pause between spaced runs (a model's think time)")
	flag.StringVar(&o.binDir, "bin", "bin", "directory holding mcp-code-mode and testserver (make build)")
	flag.StringVar(&o.image, "image", sandbox.DefaultImage(), "sandbox image (make image)")
	flag.StringVar(&o.out, "out", "testdata/bench/results.md", "where to write the results (\"\" for nowhere)")
	flag.StringVar(&o.catalogs, "catalogs", "testdata/catalogs", "captured tools/list answers of real servers")
	flag.IntVar(&o.calls, "calls", 200, "sequential noop calls for the per-call overhead (at most limits.max_calls)")
	flag.IntVar(&o.sleeps, "sleeps", 100, "sleep calls for the concurrency measurement")
	flag.IntVar(&o.sleepMS, "sleep-ms", 50, "milliseconds each sleep call takes")
	flag.DurationVar(&o.sample, "sample", 20*time.Millisecond, "RSS sampling period")
	flag.BoolVar(&o.docker, "docker-run", true, "compare with `docker run` (needs the docker CLI)")
	flag.StringVar(&o.phases, "phases", defaultPhases, "phases to run, comma-separated")
	flag.StringVar(&o.clients, "clients", "1,4,8", "throughput: concurrent clients, comma-separated")
	flag.DurationVar(&o.window, "window", 20*time.Second, "throughput: how long each concurrency is measured")
	flag.DurationVar(&o.soak, "soak", 0, "instead of the phases, soak one serve --http this long and check that it leaves nothing behind (make soak)")
	flag.IntVar(&o.soakN, "soak-clients", 8, "soak: concurrent clients")
	flag.StringVar(&o.engines, "engines", "", "throughput: engines besides the default (unix://, tcp://, ssh://, comma-separated) for a row of serve spread over them all")
	flag.Parse()
	// Some of the phases would leave a partial report in place of the
	// whole one: it is written only where -out says.
	outSet := false
	flag.Visit(func(f *flag.Flag) { outSet = outSet || f.Name == "out" })
	if !outSet && o.phases != defaultPhases {
		o.out = ""
		fmt.Fprintln(os.Stderr, "bench: -phases names only some phases: the report is printed, not written (-out FILE writes it)")
	}
	if o.n < 1 || o.calls < 1 || o.sleeps < 1 || o.window < time.Second || o.soak < 0 || o.soakN < 1 {
		fmt.Fprintln(os.Stderr, "bench: -n, -calls, -sleeps and -soak-clients must be positive, -window at least 1s")
		return 2
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl := &cleaner{}
	defer cl.run()
	sigc := make(chan os.Signal, 2)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)
	go func() {
		<-sigc
		fmt.Fprintln(os.Stderr, "bench: interrupted; cleaning up (again to hurry)")
		cancel()
		select {
		case <-sigc:
		case <-time.After(30 * time.Second):
		}
		cl.run()
		os.Exit(130)
	}()

	b, err := newBench(ctx, o, cl)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 1
	}
	if o.soak > 0 {
		return b.soak(ctx)
	}
	failed := b.runAll(ctx)
	text := b.rep.markdown()
	fmt.Print(text)
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "bench: interrupted; results not written")
		return 130
	}
	if o.out != "" {
		err := os.MkdirAll(filepath.Dir(o.out), 0o755)
		if err == nil {
			err = os.WriteFile(o.out, []byte(text), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			return 1
		}
		fmt.Fprintln(os.Stderr, "bench: wrote", o.out)
	}
	if failed {
		return 1
	}
	return 0
}

// bench holds what every phase needs.
type bench struct {
	o       options
	cl      *cleaner
	cli     string // bin/mcp-code-mode
	ts      string // bin/testserver
	tmp     string
	docker  *dockerclient.Client
	catalog []catalog
	rep     *report
}

func newBench(ctx context.Context, o options, cl *cleaner) (*bench, error) {
	b := &bench{o: o, cl: cl, rep: &report{}}
	var err error
	for _, p := range []*string{&b.cli, &b.ts} {
		name := "mcp-code-mode"
		if p == &b.ts {
			name = "testserver"
		}
		*p, err = filepath.Abs(filepath.Join(o.binDir, name))
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(*p); err != nil {
			return nil, fmt.Errorf("%w (run `make build`)", err)
		}
	}
	b.catalog, err = loadCatalogs(o.catalogs)
	if err != nil {
		return nil, err
	}
	b.tmp, err = os.MkdirTemp("", "mcp-code-mode-bench-")
	if err != nil {
		return nil, err
	}
	cl.add(func() { _ = os.RemoveAll(b.tmp) })
	b.docker, err = dockerclient.New(dockerclient.FromEnv)
	if err != nil {
		return nil, err
	}
	cl.add(func() { _ = b.docker.Close() })
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := b.docker.Ping(pctx, dockerclient.PingOptions{NegotiateAPIVersion: true}); err != nil {
		return nil, fmt.Errorf("no container engine: %w (make engine)", err)
	}
	if _, err := b.docker.ImageInspect(pctx, o.image); err != nil {
		return nil, fmt.Errorf("image %s: %w (make image)", o.image, err)
	}
	b.rep.header = b.machine(pctx)
	return b, nil
}

// machine describes where the numbers come from.
func (b *bench) machine(ctx context.Context) []string {
	var h []string
	h = append(h, "date: "+time.Now().Format("2006-01-02 15:04:05 MST"))
	mem := ""
	if m, err := os.ReadFile("/proc/meminfo"); err == nil {
		mem = fmt.Sprintf(", memory %.1f GiB", float64(memTotalKB(string(m)))/(1<<20))
	}
	kernel := ""
	if k, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = ", kernel " + strings.TrimSpace(string(k))
	}
	h = append(h, fmt.Sprintf("machine: nproc %d%s%s, %s/%s, %s", runtime.NumCPU(), mem, kernel, runtime.GOOS, runtime.GOARCH, runtime.Version()))
	if v, err := b.docker.ServerVersion(ctx, dockerclient.ServerVersionOptions{}); err == nil {
		h = append(h, fmt.Sprintf("docker: engine %s (API %s)", v.Version, v.APIVersion))
	}
	if out, err := exec.CommandContext(ctx, "git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		h = append(h, "commit: "+strings.TrimSpace(string(out)))
	}
	running := -1
	if list, err := b.docker.ContainerList(ctx, dockerclient.ContainerListOptions{}); err == nil {
		running = len(list.Items)
	}
	h = append(h, fmt.Sprintf("at start: %s, %d other running container(s)", loadAverage(), running))
	h = append(h, fmt.Sprintf("settings: -n %d, think %v, image %s, %d noop calls, %d × sleep(ms=%d)", b.o.n, b.o.think, b.o.image, b.o.calls, b.o.sleeps, b.o.sleepMS))
	return h
}

// runAll runs every phase; a phase that fails is reported and the others
// still run. It reports whether any failed.
func (b *bench) runAll(ctx context.Context) bool {
	phases := []struct {
		key, name string
		f         func(context.Context) error
	}{
		{"context", "context size", b.phaseContext},
		{"docker", "docker run", b.phaseDockerRun},
		{"serve", "serve (warm pool)", b.phaseServe},
		{"raised", "gather with raised concurrency limits", b.phaseGatherRaised},
		{"cold", "serve with warm=0", b.phaseCold},
		{"throughput", "throughput at 1, 4 and 8 clients", b.phaseThroughput},
	}
	want := map[string]bool{}
	for _, k := range strings.Split(b.o.phases, ",") {
		want[strings.TrimSpace(k)] = true
	}
	failed := false
	for _, p := range phases {
		if !want[p.key] {
			continue
		}
		if ctx.Err() != nil {
			b.rep.note("not run (interrupted): " + p.name)
			failed = true
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: %s\n", p.name)
		if err := p.f(ctx); err != nil {
			failed = true
			if errors.Is(err, context.Canceled) && ctx.Err() != nil {
				err = errors.New("interrupted")
			}
			b.rep.note(fmt.Sprintf("**%s failed**: %v", p.name, err))
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", p.name, err)
		}
	}
	b.rep.header = append(b.rep.header, "at end: "+loadAverage()+" (other work on this machine shows here; the numbers vary with it)")
	b.rep.targets(b)
	return failed
}

// loadAverage is the 1, 5 and 15 minute load average.
func loadAverage() string {
	l, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	f := strings.Fields(string(l))
	if len(f) < 3 {
		return "load average unknown"
	}
	return "load average " + strings.Join(f[:3], " ")
}
