package sandbox

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// runProgram runs code in c through the runner's protocol, as a run does,
// and returns what it printed; a program that fails fails the test.
func runProgram(t testing.TB, c *Container, code string) string {
	t.Helper()
	go func() { _, _ = io.Copy(io.Discard, c.Output) }()
	key := runner.NewKey()
	if err := runner.Encode(c.Input, runner.NewStart(code, nil, nil, key)); err != nil {
		t.Fatalf("send the program to %.12s on %s: %v", c.ID, c.EngineHost(), err)
	}
	r := runner.NewReader(c.Protocol, key)
	var out strings.Builder
	for {
		m, err := r.Next()
		if err != nil {
			t.Fatalf("run on %s: %v (printed %q)", c.EngineHost(), err, out.String())
		}
		switch m.Type {
		case runner.TypeOutput:
			out.WriteString(m.Data)
		case runner.TypeDone:
			if m.Error != nil {
				t.Fatalf("run on %s failed: %s", c.EngineHost(), *m.Error)
			}
			return out.String()
		}
	}
}

// runOn starts a container from p, runs a program in it, removes it, and
// returns the engine it ran on.
func runOn(t testing.TB, p *Provider) string {
	t.Helper()
	c, err := p.Start(t.Context(), p.spec)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer c.Close()
	if got := runProgram(t, c, "print(6 * 7)"); got != "42\n" {
		t.Fatalf("the program printed %q on %s", got, c.EngineHost())
	}
	return c.EngineHost()
}

// startAndRun starts a container from p, which must be on the engine at
// host, and runs a program in it; the container is left for the test to
// close (its cleanup closes it too).
func startAndRun(t testing.TB, p *Provider, host string) *Container {
	t.Helper()
	c, err := p.Start(t.Context(), p.spec)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if got := runProgram(t, c, "print(6 * 7)"); got != "42\n" || c.EngineHost() != host {
		t.Fatalf("a run on %s printed %q, want 42 on %s", c.EngineHost(), got, host)
	}
	return c
}

// runConcurrently makes n runs, k at a time, and counts them by engine.
func runConcurrently(t testing.TB, p *Provider, n, k int) map[string]int {
	t.Helper()
	var mu sync.Mutex
	count := map[string]int{}
	sem := make(chan struct{}, k)
	var wg sync.WaitGroup
	for range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			host := runOn(t, p)
			mu.Lock()
			count[host]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return count
}

// waitEngine waits until the provider's engine i is usable (or not).
func waitEngine(t *testing.T, p *Provider, i int, usable bool) EngineStatus {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if st := p.Engines(); len(st) > i && st[i].Usable == usable {
			return st[i]
		}
		if time.Now().After(deadline) {
			t.Fatalf("engine %d is not usable=%v after 3 minutes: %+v", i, usable, p.Engines())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startsSince counts the sandbox containers of this process that e started
// since t0, from the engine's events.
func startsSince(t *testing.T, e *Engine, t0 time.Time) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	res := e.cli.Events(ctx, client.EventsListOptions{
		Since: fmt.Sprint(t0.Unix()),
		Until: fmt.Sprint(time.Now().Unix() + 1),
		Filters: make(client.Filters).Add("type", "container").Add("event", "start").
			Add("label", LabelApp+"="+AppName).Add("label", LabelOwner+"="+Owner()),
	})
	n := 0
	for {
		select {
		case <-res.Messages:
			n++
		case err := <-res.Err:
			if err != nil && err != io.EOF {
				t.Fatalf("events of %s: %v", e.Host(), err)
			}
			return n
		}
	}
}

// defaultImageOn makes sure e has the default image, building it if needed.
func defaultImageOn(t testing.TB, e *Engine) {
	t.Helper()
	if ok, err := e.ImageExists(t.Context(), DefaultImage()); err != nil || ok {
		return
	}
	if _, err := e.BuildImage(t.Context(), BuildOptions{Tag: DefaultImage()}); err != nil {
		t.Fatalf("build the sandbox image on %s: %v", e.Host(), err)
	}
}

// Runs spread over two engines (a second dockerd the test starts, which
// lacks the image and gets it built); when the second is killed, it is
// taken out with one warning and the runs go on on the first; restarted,
// it is brought back and used again. No container is left on either.
func TestRunsSpreadOverTwoEnginesAndOutliveOne(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second Docker engine")
	}
	e1 := testEngine(t)
	defaultImageOn(t, e1)
	d2 := testenv.StartDockerd(t, testenv.DockerdOptions{})
	var logs testenv.Buffer
	// Every container of the provider starts after t0: the warm ones it
	// starts on connecting, which the first runs take, too.
	t0 := time.Now()
	p := NewProvider([]string{e1.Host(), d2.Host}, DefaultSpec(), Warming{Min: 1}, slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	if err := p.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitEngine(t, p, 0, true)
	waitEngine(t, p, 1, true)
	if !strings.Contains(logs.String(), "building it there") || !strings.Contains(logs.String(), "built the sandbox image") {
		t.Fatalf("no build logged for the fresh engine:\n%s", logs.String())
	}
	e2, err := Dial(t.Context(), d2.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if ok, err := e2.ImageExists(t.Context(), DefaultImage()); err != nil || !ok {
		t.Fatalf("the fresh engine has no %s after connecting: %v", DefaultImage(), err)
	}

	count := runConcurrently(t, p, 12, 4)
	t.Logf("both engines: %v", count)
	if count[e1.Host()] == 0 || count[d2.Host] == 0 {
		t.Fatalf("runs did not spread over both engines: %v", count)
	}
	for _, e := range []*Engine{e1, e2} {
		if n := startsSince(t, e, t0); n < count[e.Host()] {
			t.Errorf("%s reports %d sandbox starts since the provider was made, fewer than the %d runs that went there", e.Host(), n, count[e.Host()])
		}
	}

	d2.Kill()
	st := waitEngine(t, p, 1, false)
	if st.Err == nil || !strings.Contains(st.Err.Error(), d2.Host) {
		t.Errorf("the killed engine's status does not say why, naming it: %v", st.Err)
	}
	for range 6 {
		if host := runOn(t, p); host != e1.Host() {
			t.Fatalf("a run went to %s while it was down", host)
		}
	}
	if n := strings.Count(logs.String(), "taken out of use"); n != 1 {
		t.Errorf("the outage was warned about %d times, want once:\n%s", n, logs.String())
	}

	d2.Start()
	waitEngine(t, p, 1, true)
	if !strings.Contains(logs.String(), "back in use") {
		t.Errorf("the engine's return was not logged:\n%s", logs.String())
	}
	count = runConcurrently(t, p, 8, 4)
	t.Logf("after the restart: %v", count)
	if count[d2.Host] == 0 {
		t.Fatalf("the restarted engine was not used again: %v", count)
	}

	p.Close()
	noContainersLeft(t, e1)
	noContainersLeft(t, e2)
}

// An engine without the runtime the spec names is reported and not used;
// the runs go to the engine that has it.
func TestAnEngineWithoutTheRuntimeIsNotUsed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second Docker engine")
	}
	e1 := testEngine(t)
	if _, names, err := e1.Describe(t.Context()); err != nil || !strings.Contains(strings.Join(names, " "), "runsc") {
		testenv.SkipOrFail(t, "the engine has no runsc runtime (%v, %v): see .ci/engine.sh", names, err)
	}
	defaultImageOn(t, e1)
	d2 := testenv.StartDockerd(t, testenv.DockerdOptions{}) // no runsc registered
	spec := DefaultSpec()
	spec.Runtime = "runsc"
	p := NewProvider([]string{d2.Host, e1.Host()}, spec, Warming{}, nil)
	defer p.Close()
	if err := p.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	st := waitEngine(t, p, 0, false)
	for st.Err == nil { // connecting
		time.Sleep(20 * time.Millisecond)
		st = p.Engines()[0]
	}
	if !strings.Contains(st.Err.Error(), `no runtime "runsc"`) || !strings.Contains(st.Err.Error(), d2.Host) {
		t.Fatalf("the engine without runsc is reported as %v", st.Err)
	}
	for range 2 {
		if host := runOn(t, p); host != e1.Host() {
			t.Fatalf("a run went to %s, which has no runsc", host)
		}
	}
	p.Close()
	noContainersLeft(t, e1)
}

// sameEngineWarning is the start of the warning about two addresses of one
// engine.
const sameEngineWarning = "two addresses reach the same container engine"

// connectedProvider returns a provider of the default spec over hosts,
// keeping one container warm on each, once it has connected, and its log;
// the test's cleanup closes it.
func connectedProvider(t *testing.T, hosts []string) (*Provider, *testenv.Buffer) {
	t.Helper()
	logs := &testenv.Buffer{}
	p := NewProvider(hosts, DefaultSpec(), Warming{Min: 1}, slog.New(slog.NewTextHandler(logs, nil)))
	t.Cleanup(func() { p.Close() })
	if err := p.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	return p, logs
}

// waitSameAs waits until the provider's second engine is left out as the
// same engine as the first, and returns its status.
func waitSameAs(t *testing.T, p *Provider) EngineStatus {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if st := p.Engines(); len(st) > 1 && st[1].SameAs != "" {
			return st[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the second engine is not left out as a duplicate after a minute: %+v", p.Engines())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// socketLink returns the address of a symlink to e's unix socket in a fresh
// directory; the symlink itself is made only when now.
func socketLink(t *testing.T, e *Engine, now bool) string {
	t.Helper()
	sock, ok := strings.CutPrefix(e.Host(), "unix://")
	if !ok {
		testenv.SkipOrFail(t, "the engine is at %s, not a unix socket a symlink can point at", e.Host())
	}
	path := filepath.Join(t.TempDir(), "docker.sock")
	if now {
		if err := os.Symlink(sock, path); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Cleanup(func() { os.Remove(path) })
	}
	return "unix://" + path
}

// checkOneWarning checks that the log warns once of the same engine under
// two addresses, naming both.
// checkOneEngine runs n programs, k at a time, on p, whose two addresses
// hosts are one engine e: all go to the first address, one warm pool
// serves them, and one warning names both addresses. It then closes p and
// checks that nothing is left on e.
func checkOneEngine(t *testing.T, p *Provider, e *Engine, hosts []string, logs func() string, n, k int) {
	t.Helper()
	count := runConcurrently(t, p, n, k)
	if count[hosts[0]] != n {
		t.Fatalf("runs by address: %v, want all %d on %s", count, n, hosts[0])
	}
	if got := p.Stats().Target; got != 1 {
		t.Errorf("the warm pools' target is %d, want 1: one pool for the one engine", got)
	}
	checkOneWarning(t, logs(), hosts[0], hosts[1])
	p.Close()
	noContainersLeft(t, e)
}

func checkOneWarning(t *testing.T, logs string, first, dup string) {
	t.Helper()
	var lines []string
	for l := range strings.SplitSeq(logs, "\n") {
		if strings.Contains(l, sameEngineWarning) {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("%d warnings of the same engine under two addresses, want 1:\n%s", len(lines), logs)
	}
	if !strings.Contains(lines[0], "engine="+first) || !strings.Contains(lines[0], "duplicate="+dup) {
		t.Errorf("the warning does not name %s as the engine used and %s as its duplicate: %s", first, dup, lines[0])
	}
}

// The same dockerd listed twice, under its socket and a symlink to it, is
// one engine: one warm pool, every run on the first address, one warning
// naming both. Without this, one daemon would get two pools and two shares
// of the runs.
func TestTwoAddressesOfOneEngineAreOneEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e1 := testEngine(t)
	defaultImageOn(t, e1)
	hosts := []string{e1.Host(), socketLink(t, e1, true)}
	p, logs := connectedProvider(t, hosts)
	waitEngine(t, p, 0, true)
	st := waitSameAs(t, p)
	if st.SameAs != hosts[0] || st.Usable || st.Err == nil || !strings.Contains(st.Err.Error(), hosts[1]) || !strings.Contains(st.Err.Error(), hosts[0]) {
		t.Fatalf("the symlink's status is %+v, want left out as the same engine as %s, naming both", st, hosts[0])
	}
	checkOneEngine(t, p, e1, hosts, logs.String, 6, 3)
}

// When the first address of an engine answers only after the second has
// been put to use, the first is kept: the second's pool is closed, it is
// left out with one warning, and the runs go to the first.
func TestTheFirstAddressOfAnEngineIsKeptWhenItAnswersLate(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e1 := testEngine(t)
	defaultImageOn(t, e1)
	hosts := []string{socketLink(t, e1, false), e1.Host()}
	var logs testenv.Buffer
	p := NewProvider(hosts, DefaultSpec(), Warming{Min: 1}, slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	if err := p.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitEngine(t, p, 1, true)
	if host := runOn(t, p); host != hosts[1] {
		t.Fatalf("ran on %s while only %s answered", host, hosts[1])
	}
	sock := strings.TrimPrefix(e1.Host(), "unix://")
	if err := os.Symlink(sock, strings.TrimPrefix(hosts[0], "unix://")); err != nil {
		t.Fatal(err)
	}
	st := waitSameAs(t, p)
	if st.SameAs != hosts[0] || st.Usable {
		t.Fatalf("the second address's status is %+v, want left out for %s", st, hosts[0])
	}
	waitEngine(t, p, 0, true)
	checkOneEngine(t, p, e1, hosts, logs.String, 4, 2)
}

// With every engine down, a run fails naming each engine and why.
func TestWithEveryEngineDownARunNamesEach(t *testing.T) {
	dir := t.TempDir()
	a, b := "unix://"+dir+"/a.sock", "unix://"+dir+"/b.sock"
	p := NewProvider([]string{a, b}, DefaultSpec(), Warming{Min: 1}, nil)
	defer p.Close()
	_, err := p.Start(t.Context(), DefaultSpec())
	if err == nil {
		t.Fatal("a run started with no engine up")
	}
	for _, want := range []string{"none of the 2 container engines is usable", a, b, "no such file or directory", "mcp-code-mode doctor"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
}

// BuildOnEach assembles the root filesystem from Debian packages once, for
// the first engine whose build needs it, and builds the image from it on
// every engine.
func TestBuildOnEachAssemblesTheRootFilesystemOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second Docker engine and builds the image on both")
	}
	e1 := testEngine(t)
	needApt(t)
	d2 := testenv.StartDockerd(t, testenv.DockerdOptions{})
	tag := testImage() + "-each"
	t.Cleanup(func() {
		_, _ = e1.cli.ImageRemove(context.Background(), tag, client.ImageRemoveOptions{PruneChildren: true})
	})
	var mu sync.Mutex
	logs := map[string]*testenv.Buffer{}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	builds := BuildOnEach(ctx, []string{e1.Host(), d2.Host}, BuildOptions{Tag: tag, Base: BaseDebian}, false, func(name string) io.Writer {
		mu.Lock()
		defer mu.Unlock()
		logs[name] = &testenv.Buffer{}
		return logs[name]
	})
	assembled, reused := 0, 0
	for _, b := range builds {
		log := logs[b.Name].String()
		if b.Err != nil || !b.Built {
			t.Fatalf("%s: built %v, err %v\nlog:\n%s", b.Name, b.Built, b.Err, log)
		}
		if strings.Contains(log, "sandbox: assembling a Python") {
			assembled++
		}
		for _, other := range builds {
			if other.Name != b.Name && strings.Contains(log, "sandbox: using the root filesystem assembled for "+other.Name) {
				reused++
			}
		}
		t.Logf("%s: built %.12s in %v", b.Name, b.ID, b.Took.Round(time.Millisecond))
	}
	if assembled != 1 || reused != 1 {
		t.Errorf("the root filesystem was assembled %d times and used again %d times, want 1 and 1", assembled, reused)
	}
}

// Two engines that both lack the image when the provider connects (fresh,
// and no registry to pull a base from) share one root filesystem
// assembled from Debian packages: it is assembled for one build and used
// by the other, then removed. Each build's progress is in the provider's
// log at debug level.
func TestAProviderAssemblesTheRootFilesystemOnceForItsEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two Docker engines and builds the image on both")
	}
	needApt(t)
	d1 := testenv.StartDockerd(t, testenv.DockerdOptions{})
	d2 := testenv.StartDockerd(t, testenv.DockerdOptions{})
	// The build context goes to a directory of the test's own, which is
	// then checked to be empty. (After the engines start: their sockets
	// need a short path.)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var logs testenv.Buffer
	p := NewProvider([]string{d1.Host, d2.Host}, DefaultSpec(), Warming{Min: 1},
		slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer p.Close()
	if err := p.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitEngine(t, p, 0, true)
	waitEngine(t, p, 1, true)
	out := logs.String()
	if n := strings.Count(out, "built the sandbox image"); n != 2 {
		t.Fatalf("%d builds logged, want 2:\n%s", n, out)
	}
	assembled := strings.Count(out, "sandbox: assembling a Python")
	reused := strings.Count(out, "sandbox: using the root filesystem assembled for ")
	if assembled != 1 || reused != 1 {
		t.Errorf("the root filesystem was assembled %d times and used again %d times, want 1 and 1:\n%s", assembled, reused, out)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the build context is left behind: %v", left)
	}
	hosts := map[string]bool{d1.Host: true, d2.Host: true}
	count := runConcurrently(t, p, 4, 2)
	for h, n := range count {
		if !hosts[h] || n == 0 {
			t.Errorf("runs by engine: %v", count)
		}
	}
}

// socketProxy forwards a unix socket of its own to an engine's socket, so
// that a test can make one address of the engine stop answering (stop)
// and answer again (start) while the engine and its other addresses run on.
type socketProxy struct {
	t        *testing.T
	path, to string
	wg       sync.WaitGroup

	mu    sync.Mutex
	ln    net.Listener // nil while stopped
	conns map[net.Conn]bool
}

// newSocketProxy starts a proxy to e's unix socket; the test's cleanup
// stops it.
func newSocketProxy(t *testing.T, e *Engine) *socketProxy {
	t.Helper()
	sock, ok := strings.CutPrefix(e.Host(), "unix://")
	if !ok {
		testenv.SkipOrFail(t, "the engine is at %s, not a unix socket a proxy can forward to", e.Host())
	}
	p := &socketProxy{t: t, path: filepath.Join(t.TempDir(), "proxy.sock"), to: sock, conns: map[net.Conn]bool{}}
	p.start()
	t.Cleanup(p.stop)
	return p
}

// Host is the proxy's address, as Dial takes it.
func (p *socketProxy) Host() string { return "unix://" + p.path }

// start listens at the proxy's path and forwards each connection.
func (p *socketProxy) start() {
	p.t.Helper()
	ln, err := net.Listen("unix", p.path)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Go(func() { p.forward(c) })
		}
	})
}

// forward copies c to a new connection to the engine and back, each way
// closing the other side's writing when it ends, as hijacked streams need.
func (p *socketProxy) forward(c net.Conn) {
	u, err := net.Dial("unix", p.to)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	live := p.ln != nil
	if live {
		p.conns[c], p.conns[u] = true, true
	}
	p.mu.Unlock()
	if !live {
		c.Close()
		u.Close()
		return
	}
	var wg sync.WaitGroup
	for _, pair := range [][2]net.Conn{{u, c}, {c, u}} {
		wg.Go(func() {
			_, _ = io.Copy(pair[0], pair[1])
			_ = pair[0].(*net.UnixConn).CloseWrite()
		})
	}
	wg.Wait()
	c.Close()
	u.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, u)
	p.mu.Unlock()
}

// stop stops listening (removing the socket) and cuts every connection.
func (p *socketProxy) stop() {
	p.mu.Lock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// Of two addresses of one engine, the second stands by: when the first
// stops answering (a proxy to the engine's socket, stopped by the test),
// the runs go to the second, and back to the first once it answers again.
// One warning names the two addresses, one the outage; no run fails, and
// nothing is left on the engine.
func TestAnotherAddressOfAnEngineStandsInWhileTheFirstIsDown(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e1 := testEngine(t)
	defaultImageOn(t, e1)
	proxy := newSocketProxy(t, e1)
	hosts := []string{proxy.Host(), e1.Host()}
	p, logs := connectedProvider(t, hosts)
	waitEngine(t, p, 0, true)
	waitSameAs(t, p)
	if count := runConcurrently(t, p, 4, 2); count[hosts[0]] != 4 {
		t.Fatalf("runs by address: %v, want all 4 on the first, %s", count, hosts[0])
	}

	// A run's container from the first address, closed while the other
	// stands in: its removal fails at the first and is done at the other.
	onFirst := startAndRun(t, p, hosts[0])

	proxy.stop()
	waitEngine(t, p, 0, false)
	if st := waitEngine(t, p, 1, true); st.SameAs != "" {
		t.Errorf("the address standing in is still reported the same engine as %s", st.SameAs)
	}
	if err := onFirst.Close(); err != nil {
		t.Errorf("closing a container of the address that is down, while another stands in: %v", err)
	}
	if _, err := e1.cli.ContainerInspect(t.Context(), onFirst.ID, client.ContainerInspectOptions{}); !cerrdefs.IsNotFound(err) {
		t.Errorf("the container closed while its address was down is still there (%v)", err)
	}
	if count := runConcurrently(t, p, 4, 2); count[hosts[1]] != 4 {
		t.Fatalf("runs by address while the first is down: %v, want all 4 on %s", count, hosts[1])
	}
	if !strings.Contains(logs.String(), "trying another address of the container engine") {
		t.Errorf("the stand-in was not logged:\n%s", logs.String())
	}

	// A run the second address served, over but not yet closed when the
	// first answers again (its caller still reading how it ended): its
	// stopped container is not removed under it by the first's reconnect.
	held := startAndRun(t, p, hosts[1])
	if code, _, err := held.Exit(t.Context()); err != nil || code != 0 {
		t.Fatalf("the run's container ended with %d, %v", code, err)
	}

	proxy.start()
	waitEngine(t, p, 0, true)
	if code, _, err := held.Exit(t.Context()); err != nil || code != 0 {
		t.Errorf("once the first address is back, the stopped container of a run not yet closed reads %d, %v: removed under it?", code, err)
	}
	if err := held.Close(); err != nil {
		t.Errorf("close the run's container: %v", err)
	}
	if st := waitSameAs(t, p); st.SameAs != hosts[0] || st.Usable {
		t.Fatalf("once the first answers again, the second's status is %+v, want left out for %s", st, hosts[0])
	}
	if count := runConcurrently(t, p, 4, 2); count[hosts[0]] != 4 {
		t.Fatalf("runs by address once the first is back: %v, want all 4 on %s", count, hosts[0])
	}
	if n := strings.Count(logs.String(), sameEngineWarning); n != 1 {
		t.Errorf("%d warnings of the same engine under two addresses, want 1:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), "taken out of use"); n != 1 {
		t.Errorf("the outage was warned about %d times, want once:\n%s", n, logs.String())
	}
	p.Close()
	noContainersLeft(t, e1)
}

// A provider does not hold its lock while a new engine's pool asks the
// engine for its image: an engine slow to answer that (here it never
// does) leaves the provider's other calls free to run meanwhile.
func TestAnEngineSlowToAnswerDoesNotHoldTheProvider(t *testing.T) {
	var inspects atomic.Int32
	stalled := make(chan struct{})
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Api-Version", "1.41")
		w.Header().Set("Content-Type", "application/json")
		path := r.URL.Path
		switch {
		case strings.HasSuffix(path, "/_ping"):
			_, _ = io.WriteString(w, "OK")
		case strings.HasSuffix(path, "/version"):
			_, _ = io.WriteString(w, `{"ApiVersion": "1.41", "Version": "20.10.24"}`)
		case strings.HasSuffix(path, "/info"):
			_, _ = io.WriteString(w, `{"ID": "fake", "Name": "fake", "DockerRootDir": "/fake", "Runtimes": {"runc": {}}}`)
		case strings.HasSuffix(path, "/containers/json"):
			_, _ = io.WriteString(w, `[]`)
		case strings.Contains(path, "/images/") && strings.HasSuffix(path, "/json"):
			if inspects.Add(1) == 1 { // the provider's check that the image is there
				_, _ = io.WriteString(w, `{"Id": "sha256:0123456789ab", "Config": {"Labels": {}}}`)
				return
			}
			select { // the pool's: never answered
			case stalled <- struct{}{}:
			default:
			}
			select {
			case <-r.Context().Done():
			case <-release:
			}
		default: // a warm start's create: never answered
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}
	}))
	t.Cleanup(srv.Close)
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // before the server closes
	p := NewProvider([]string{"tcp://" + srv.Listener.Addr().String()}, DefaultSpec(), Warming{Min: 1}, nil)
	defer p.Close()
	go func() { _ = p.Connect(context.Background()) }()
	select {
	case <-stalled:
	case <-time.After(30 * time.Second):
		t.Fatal("the pool did not ask for the image within 30s")
	}
	answered := make(chan []EngineStatus)
	go func() { answered <- p.Engines() }()
	select {
	case st := <-answered:
		if len(st) != 1 {
			t.Errorf("statuses: %+v", st)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the provider's status waits while a new engine's pool asks it for its image")
	}
	free() // the engine answers (badly) from now on; Close need not wait
}
