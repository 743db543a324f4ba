package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moby/moby/client"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// ready reports how many warm containers wait in p.
func ready(p *Pool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.ready)
}

// waitReady waits until the pool holds n warm containers.
func waitReady(t *testing.T, p *Pool, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for ready(p) < n {
		if time.Now().After(deadline) {
			t.Fatalf("pool has %d warm containers after 30s, want %d", ready(p), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func noContainersLeft(t testing.TB, e *Engine) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ids, err := e.Containers(context.Background(), Owner())
		if err == nil && len(ids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("containers left behind: %v %v", ids, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestPoolHandsOutEachContainerOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e := testEngine(t)
	p := NewPool(e, DefaultSpec(), Warming{Min: 2}, nil)
	waitReady(t, p, 2)
	var seen []string
	for range 6 {
		c, err := p.Start(t.Context(), DefaultSpec())
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(seen, c.ID) {
			t.Fatalf("container %.12s handed out twice", c.ID)
		}
		seen = append(seen, c.ID)
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		// A used container is gone, not back in the pool.
		ids, _ := e.Containers(t.Context(), Owner())
		if slices.Contains(ids, c.ID) {
			t.Fatalf("used container %.12s still exists", c.ID)
		}
	}
	p.Close()
	noContainersLeft(t, e)
}

func TestPoolDiscardsDeadContainers(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e := testEngine(t)
	p := NewPool(e, DefaultSpec(), Warming{Min: 2}, nil)
	defer func() { p.Close(); noContainersLeft(t, e) }()
	waitReady(t, p, 2)
	// What an engine restart does to them.
	p.mu.Lock()
	var dead []string
	for _, w := range p.ready {
		dead = append(dead, w.c.ID)
	}
	p.mu.Unlock()
	for _, id := range dead {
		if _, err := e.cli.ContainerKill(t.Context(), id, client.ContainerKillOptions{Signal: "SIGKILL"}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond)
	c, err := p.Start(t.Context(), DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if slices.Contains(dead, c.ID) {
		t.Fatalf("the pool handed out a dead container")
	}
	res, err := e.cli.ContainerInspect(t.Context(), c.ID, client.ContainerInspectOptions{})
	if err != nil || !res.Container.State.Running {
		t.Fatalf("handed-out container is not running: %v", err)
	}
}

func TestPoolRetiresContainersOfAReplacedImage(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e := testEngine(t)
	ctx := t.Context()
	tag := DefaultImage() + "-pooltest"
	if _, err := e.cli.ImageTag(ctx, client.ImageTagOptions{Source: DefaultImage(), Target: tag}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = e.cli.ImageRemove(context.Background(), tag, client.ImageRemoveOptions{PruneChildren: true})
	})
	spec := DefaultSpec()
	spec.Image = tag
	p := NewPool(e, spec, Warming{Min: 1}, nil)
	defer func() { p.Close(); noContainersLeft(t, e) }()
	waitReady(t, p, 1)
	old, _ := e.cli.ImageInspect(ctx, tag)

	// Rebuild: the tag now names another image.
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	df := "FROM " + DefaultImage() + "\nLABEL io.mcp-code-mode.test=rebuilt\n"
	_ = tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0o644, Size: int64(len(df))})
	_, _ = tw.Write([]byte(df))
	_ = tw.Close()
	if _, err := e.build(ctx, tag, &buf, io.Discard); err != nil {
		t.Fatal(err)
	}
	fresh, _ := e.cli.ImageInspect(ctx, tag)
	if fresh.ID == old.ID {
		t.Fatal("the rebuild did not change the image")
	}
	time.Sleep(2*imageCheckEvery + 100*time.Millisecond) // past the pool's next image check
	c, err := p.Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := e.cli.ContainerInspect(ctx, c.ID, client.ContainerInspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Container.Image != fresh.ID {
		t.Fatalf("handed out a container of image %.19s, want the rebuilt %.19s", res.Container.Image, fresh.ID)
	}
}

// containersOf counts the containers of this process on the engine.
func containersOf(t *testing.T, e *Engine) int {
	t.Helper()
	ids, err := e.Containers(t.Context(), Owner())
	if err != nil {
		t.Fatal(err)
	}
	return len(ids)
}

// waitStats waits until the pool's stats satisfy ok.
func waitStats(t *testing.T, p *Pool, what string, ok func(PoolStats) bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok(p.Stats()) {
		if time.Now().After(deadline) {
			t.Fatalf("the pool is not %s after 60s: %+v", what, p.Stats())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestPoolGrowsUnderABurstToWarmMaxAndShrinksWhenIdle(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e := testEngine(t)
	w := Warming{Min: 1, Max: 3, Idle: 2 * time.Second}
	p := NewPool(e, DefaultSpec(), w, nil)
	defer func() { p.Close(); noContainersLeft(t, e) }()
	waitReady(t, p, 1)

	// Throughout, the pool's own containers (ready and starting) and its
	// target stay within Max.
	var over atomic.Pointer[PoolStats]
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if s := p.Stats(); s.Ready+s.Starting > w.Max || s.Target > w.Max {
				over.CompareAndSwap(nil, &s)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	defer func() {
		close(stop)
		<-sampled
		if s := over.Load(); s != nil {
			t.Errorf("the pool went above warm_max %d: %+v", w.Max, *s)
		}
	}()

	// A burst of 8 runs at once: one finds the warm container, seven wait
	// for a start of their own.
	const burst = 8
	cs := make([]*Container, burst)
	errs := make([]error, burst)
	var wg sync.WaitGroup
	for i := range burst {
		wg.Go(func() { cs[i], errs[i] = p.Start(t.Context(), DefaultSpec()) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
	}
	if s := p.Stats(); s.Waits != burst-1 || s.Target != w.Max || s.InUse != burst {
		t.Errorf("after the burst: %+v, want %d waits, target %d, %d in use", s, burst-1, w.Max, burst)
	}
	ids := map[string]bool{}
	for _, c := range cs {
		ids[c.ID] = true
	}
	if len(ids) != burst {
		t.Fatalf("%d distinct containers for %d starts", len(ids), burst)
	}
	for _, c := range cs {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}

	// Once the runs are over it refills to warm_max, and no further.
	waitStats(t, p, "grown to warm_max", func(s PoolStats) bool { return s.Ready == w.Max })
	if n := containersOf(t, e); n != w.Max {
		t.Errorf("%d containers after the burst, want warm_max %d", n, w.Max)
	}
	if s := p.Stats(); s.Starting != 0 || s.InUse != 0 {
		t.Errorf("grown pool: %+v, want nothing starting or in use", s)
	}

	// Idle: the containers above warm are removed.
	waitStats(t, p, "back to warm", func(s PoolStats) bool { return s.Ready == w.Min && s.Target == w.Min })
	noMoreThan := func(n int) {
		deadline := time.Now().Add(10 * time.Second)
		for containersOf(t, e) > n {
			if time.Now().After(deadline) {
				t.Fatalf("%d containers after shrinking, want %d", containersOf(t, e), n)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	noMoreThan(w.Min)

	// The next run takes the one left, without waiting.
	c, err := p.Start(t.Context(), DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Stats(); s.Waits != burst-1 {
		t.Errorf("a run after shrinking waited: %+v", s)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// poolOfAMissingImage returns the test engine and a pool, warming as w
// says, of an image the engine does not have: every start fails.
func poolOfAMissingImage(t *testing.T, w Warming) (*Engine, *Pool) {
	t.Helper()
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e := testEngine(t)
	spec := DefaultSpec()
	spec.Image = "mcp-code-mode-no-such-image:" + Owner()
	return e, NewPool(e, spec, w, nil)
}

// A pool whose starts fail waits longer after each failure (up to 30
// seconds); Close ends the wait instead of sitting it out.
func TestPoolCloseEndsTheBackoff(t *testing.T) {
	e, p := poolOfAMissingImage(t, Warming{Min: 1})
	// Failures 1 and 2 wait 1 s and 2 s; the third start then waits 3 s.
	deadline := time.Now().Add(30 * time.Second)
	for {
		p.mu.Lock()
		n, starting := p.failures, p.starting
		p.mu.Unlock()
		if n >= 3 && starting == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d failed starts after 30s, want 3", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	p.Close()
	// The backoff is 3 s now; Close returns well before it would end.
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v: it waited out the backoff", d)
	}
	if st := p.Stats(); st.Starting != 0 {
		t.Errorf("after Close: %+v, want no start in progress", st)
	}
	noContainersLeft(t, e)
}

// TestPoolClosedStartsNothing: a warm start that comes due after Close, as
// when the backoff's timer fires as the pool closes, starts no container.
func TestPoolClosedStartsNothing(t *testing.T) {
	e, p := poolOfAMissingImage(t, Warming{})
	p.Close()
	p.mu.Lock()
	p.starting++
	p.mu.Unlock()
	p.warmOne(0)
	p.mu.Lock()
	failures, starting := p.failures, p.starting
	p.mu.Unlock()
	if failures != 0 || starting != 0 {
		t.Errorf("after a start due on a closed pool: %d failed starts, %d starting; want neither", failures, starting)
	}
	noContainersLeft(t, e)
}

// An engine that takes a warm start's create request and never answers
// does not hold Close for the create's minute: Close gives up after its
// grace (closeGrace, here a second), warning once, and the request is
// cancelled, not left in flight.
func TestPoolCloseGivesUpOnAnEngineThatDoesNotAnswer(t *testing.T) {
	var inFlight atomic.Int32
	creating := make(chan struct{}, 1)
	release := make(chan struct{})
	e := fakeEngine(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/containers/create") {
			inFlight.Add(1)
			defer inFlight.Add(-1)
			// Read to the end: only then does the server notice the
			// client going away and end the request's context.
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case creating <- struct{}{}:
			default:
			}
			select { // never answered
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		http.Error(w, `{"message": "not found"}`, http.StatusNotFound)
	})
	t.Cleanup(func() { close(release) }) // before the server closes
	var logs testenv.Buffer
	p := NewPool(e, DefaultSpec(), Warming{Min: 1}, slog.New(slog.NewTextHandler(&logs, nil)))
	p.grace = time.Second // closeGrace's 10s would only make the test slower
	select {
	case <-creating:
	case <-time.After(30 * time.Second):
		p.Close()
		t.Fatal("the pool sent no create request within 30s")
	}
	closed := make(chan struct{})
	go func() {
		p.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(createTimeout / 2):
		t.Fatalf("Close still waits after %v for a create the engine never answers", createTimeout/2)
	}
	if n := strings.Count(logs.String(), "giving up on them"); n != 1 {
		t.Errorf("%d warnings of giving up, want 1:\n%s", n, logs.String())
	}
	deadline := time.Now().Add(10 * time.Second)
	for inFlight.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the create request is still in flight 10s after Close returned")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
