package sandbox

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"time"
)

// Pool keeps sandbox containers started ahead of need, each with the
// runner waiting for its one program. Start hands one out (or starts one
// when none is ready) and refills in the background. A container is handed
// out once: after its run it is removed, never returned.
//
// The pool adapts between Warming.Min and Warming.Max: each Start that
// finds no warm container raises its target by one (the next runs of a
// burst find one), and a container above Min that waits Warming.Idle
// without being taken is removed, lowering the target again. The zero
// value is not usable; call NewPool.
type Pool struct {
	engine *Engine
	spec   Spec
	warm   Warming
	log    *slog.Logger

	mu       sync.Mutex
	ready    []*warm // newest last: Start takes the newest, so the oldest idle out
	starting int
	pending  int // handed out and not yet closed: their replacements wait
	target   int // containers kept (ready, starting and pending), from warm.Min to warm.Max
	waits    uint64
	failures int // consecutive failed starts, for backoff
	closed   bool
	imageID  string         // what spec.Image names now ("" if unknown)
	done     chan struct{}  // closed by Close: stops the image watch
	wg       sync.WaitGroup // refills, removals and the image watch

	// abandon ends when Close gives up waiting for the engine (after
	// grace, closeGrace unless a test sets it): the starts and removals in
	// flight then stop.
	abandon context.Context
	giveUp  context.CancelFunc
	grace   time.Duration
}

// closeGrace is how long Close waits for the starts and removals in flight
// before it gives up on an engine that does not answer: long enough for a
// busy engine's removals (a second or two under load), short of the
// create's minute.
const closeGrace = 10 * time.Second

// Warming is how many containers a Pool keeps started ahead of need.
type Warming struct {
	// Min is how many it keeps when idle; 0 turns the pool off (Start
	// then starts a fresh container each time, and nothing grows).
	Min int
	// Max is the most it grows to while runs find none ready; below
	// Min it is taken as Min.
	Max int
	// Idle is how long a container above Min may wait unused before it
	// is removed; 0 means DefaultIdle.
	Idle time.Duration
}

// DefaultIdle is how long a warm container above Warming.Min waits to be
// taken before it is removed: a minute, longer than a model's think time
// between the runs of one task (seconds to tens of seconds), so the next
// burst of a parallel agent finds the containers its last burst grew;
// short enough that an idle server is back to Min within a minute or two.
const DefaultIdle = time.Minute

// PoolStats is a pool's state at one moment (for metrics and tests).
type PoolStats struct {
	Ready    int `json:"ready"`    // started containers waiting for a program
	Starting int `json:"starting"` // containers being started for the pool
	InUse    int `json:"in_use"`   // containers handed out (or started for a Start that found none ready) and not yet closed
	// Target is how many containers the pool keeps, ready, starting and
	// in use together: Warming.Min when idle, up to Warming.Max.
	Target int `json:"target"`
	// Waits counts the Starts that found no warm container and started
	// their own (each such run waited for a container start).
	Waits uint64 `json:"waits"`
}

// warm is a started container waiting for a program.
type warm struct {
	c       *Container
	imageID string
	since   time.Time // when it became ready
}

// alive reports whether the container still runs: its streams end when it
// stops (the engine restarted, or someone removed it).
func (w *warm) alive() bool { return w.c.Alive() }

// NewPool returns a pool of containers of spec, warming as w says, and
// starts filling it.
func NewPool(e *Engine, spec Spec, w Warming, log *slog.Logger) *Pool {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w.Min = max(0, w.Min)
	w.Max = max(w.Min, w.Max)
	if w.Idle <= 0 {
		w.Idle = DefaultIdle
	}
	p := &Pool{engine: e, spec: spec, warm: w, target: w.Min, log: log, done: make(chan struct{}), grace: closeGrace}
	p.abandon, p.giveUp = context.WithCancel(context.Background())
	if w.Min > 0 {
		p.refreshImage()
		p.wg.Go(p.watch)
	}
	p.mu.Lock()
	p.refillLocked()
	p.mu.Unlock()
	return p
}

// Stats reports the pool's state now.
func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PoolStats{Ready: len(p.ready), Starting: p.starting, InUse: p.pending, Target: p.target, Waits: p.waits}
}

// imageCheckEvery is how often the pool asks which image the tag names, so
// that a rebuilt image retires the warm containers of the old one, and
// looks for containers that idled out. Both are off the path of a run.
const imageCheckEvery = time.Second

func (p *Pool) watch() {
	t := time.NewTicker(imageCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			p.refreshImage()
			p.prune(time.Now())
		case <-p.done:
			return
		}
	}
}

// prune removes the ready containers that died or are of a replaced
// image, and those above Min that have waited Idle (lowering the target
// by one for each), then refills.
func (p *Pool) prune(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	kept := p.ready[:0]
	for i, w := range p.ready {
		switch {
		case !w.alive() || (p.imageID != "" && w.imageID != p.imageID):
			p.discardLocked(w)
		case now.Sub(w.since) >= p.warm.Idle && len(p.ready)-i+len(kept) > p.warm.Min && p.target > p.warm.Min:
			// The oldest come first: each removed is one more that
			// nobody took for Idle.
			p.target--
			p.discardLocked(w)
		default:
			kept = append(kept, w)
		}
	}
	clear(p.ready[len(kept):])
	p.ready = kept
	p.refillLocked()
}

func (p *Pool) refreshImage() {
	ctx, cancel := context.WithTimeout(p.abandon, 10*time.Second)
	defer cancel()
	id := ""
	if res, err := p.engine.cli.ImageInspect(ctx, p.spec.Image); err == nil {
		id = res.ID
	}
	p.mu.Lock()
	p.imageID = id
	p.mu.Unlock()
}

// currentImage is the image ID last seen for the spec's tag.
func (p *Pool) currentImage() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.imageID
}

// Start hands out a warm container of spec, checked to be alive and of the
// current image; without one it starts a fresh one, and the pool grows by
// one (up to Warming.Max). Containers of another spec are always started
// fresh, outside the pool.
func (p *Pool) Start(ctx context.Context, spec Spec) (*Container, error) {
	if !reflect.DeepEqual(spec, p.spec) || p.warm.Min == 0 {
		return p.engine.Start(ctx, spec)
	}
	w, err := p.take(p.currentImage())
	if err != nil || w != nil {
		return w.container(), err
	}
	// Counted as in use from the start, so that the pool's replacement
	// waits until this run is over, as for a warm one.
	c, err := p.engine.Start(ctx, spec)
	if err != nil {
		p.refillAfterUse()
		return nil, err
	}
	c.onClose = p.refillAfterUse
	return c, nil
}

func (w *warm) container() *Container {
	if w == nil {
		return nil
	}
	return w.c
}

// take pops the newest warm container that is alive and of the current
// image, discarding the others it meets. The replacement is started once
// the taken container is closed, so that it does not compete with the run
// for the CPU. With none ready it returns nil, having counted the wait,
// raised the target and counted the fresh container the caller starts as
// in use.
func (p *Pool) take(current string) (*warm, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("sandbox pool: closed")
	}
	p.pending++
	for len(p.ready) > 0 {
		w := p.ready[len(p.ready)-1]
		p.ready[len(p.ready)-1] = nil
		p.ready = p.ready[:len(p.ready)-1]
		if w.alive() && (current == "" || w.imageID == current) {
			// The run's to close now: its removal is not given up with
			// the pool.
			w.c.onClose, w.c.warm, w.c.abandon = p.refillAfterUse, true, nil
			return w, nil
		}
		p.discardLocked(w) // the engine restarted, or the image was rebuilt
	}
	p.waits++
	p.target = min(p.target+1, p.warm.Max)
	p.refillLocked()
	return nil, nil
}

// refillAfterUse runs when a container counted in use is closed (or failed
// to start).
func (p *Pool) refillAfterUse() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending--
	p.refillLocked()
}

// Close removes the warm containers and waits for refills to end. On an
// engine that has not finished within closeGrace, it gives up: the starts
// and removals in flight stop, and what they leave is labelled as this
// process's (see Engine.start).
func (p *Pool) Close() {
	p.mu.Lock()
	if !p.closed {
		close(p.done)
	}
	p.closed = true
	for _, w := range p.ready {
		p.discardLocked(w)
	}
	p.ready = nil
	p.mu.Unlock()
	ended := make(chan struct{})
	go func() {
		p.wg.Wait()
		close(ended)
	}()
	t := time.NewTimer(p.grace)
	defer t.Stop()
	select {
	case <-ended:
	case <-t.C:
		p.log.Warn("the container engine has not finished starting or removing sandboxes; giving up on them", "after", p.grace)
		p.giveUp()
		<-ended
	}
	p.giveUp()
}

func (p *Pool) discardLocked(w *warm) {
	p.wg.Go(func() {
		if err := w.c.Close(); err != nil {
			p.log.Warn("remove warm sandbox", "err", err)
		}
	})
}

// refillLocked starts containers until the pool (ready, starting and in
// use) holds its target. After failures it waits before trying again, so a
// stopped engine is not hammered.
func (p *Pool) refillLocked() {
	for !p.closed && len(p.ready)+p.starting+p.pending < p.target {
		p.starting++
		delay := time.Duration(0)
		if p.failures > 0 {
			delay = min(time.Duration(p.failures)*time.Second, 30*time.Second)
		}
		p.wg.Go(func() { p.warmOne(delay) })
	}
}

func (p *Pool) warmOne(delay time.Duration) {
	// The wait after failures ends when the pool closes: Close does not
	// wait out a backoff of up to 30 seconds for a start it would discard.
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-p.done:
			t.Stop()
		}
	}
	// A select picks at random between a fired timer and a closed pool, so
	// the pool is checked again: a closed pool starts nothing.
	select {
	case <-p.done:
		p.mu.Lock()
		p.starting--
		p.mu.Unlock()
		return
	default:
	}
	ctx, cancel := context.WithTimeout(p.abandon, time.Minute)
	defer cancel()
	id := p.currentImage()
	spec := p.spec
	if id != "" {
		spec.Image = id // the container is of exactly the image checked
	}
	c, err := p.engine.start(ctx, spec, p.abandon)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starting--
	if err != nil && p.closed {
		return // given up by Close
	}
	if err != nil {
		p.failures++
		p.log.Warn("warm sandbox", "err", err, "retry_in", min(time.Duration(p.failures)*time.Second, 30*time.Second))
		if p.failures < 1000 {
			p.refillLocked()
		}
		return
	}
	p.failures = 0
	if p.closed {
		p.discardLocked(&warm{c: c})
		return
	}
	p.ready = append(p.ready, &warm{c: c, imageID: id, since: time.Now()})
}
