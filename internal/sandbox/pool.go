package sandbox

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"time"
)

// Pool keeps a few sandbox containers started ahead of need, each with the
// runner waiting for its one program. Start hands one out (or starts one
// when none is ready) and refills in the background. A container is handed
// out once: after its run it is removed, never returned. The zero value is
// not usable; call NewPool.
type Pool struct {
	engine *Engine
	spec   Spec
	size   int
	log    *slog.Logger

	mu       sync.Mutex
	ready    []*warm
	starting int
	pending  int // handed out and not yet closed: their replacements wait
	failures int // consecutive failed starts, for backoff
	closed   bool
	imageID  string         // what spec.Image names now ("" if unknown)
	done     chan struct{}  // closed by Close: stops the image watch
	wg       sync.WaitGroup // refills, removals and the image watch
}

// warm is a started container waiting for a program.
type warm struct {
	c       *Container
	imageID string
}

// alive reports whether the container still runs: its streams end when it
// stops (the engine restarted, or someone removed it).
func (w *warm) alive() bool { return w.c.Alive() }

// NewPool returns a pool of size containers of spec, and starts filling it.
// Size 0 disables warming: Start then starts a fresh container each time.
func NewPool(e *Engine, spec Spec, size int, log *slog.Logger) *Pool {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Pool{engine: e, spec: spec, size: size, log: log, done: make(chan struct{})}
	if size > 0 {
		p.refreshImage()
		p.wg.Go(p.watchImage)
	}
	p.mu.Lock()
	p.refillLocked()
	p.mu.Unlock()
	return p
}

// imageCheckEvery is how often the pool asks which image the tag names, so
// that a rebuilt image retires the warm containers of the old one. The
// check is off the path of a run.
const imageCheckEvery = time.Second

func (p *Pool) watchImage() {
	t := time.NewTicker(imageCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			p.refreshImage()
		case <-p.done:
			return
		}
	}
}

func (p *Pool) refreshImage() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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
// current image; without one it starts a fresh one. Containers of another
// spec are always started fresh.
func (p *Pool) Start(ctx context.Context, spec Spec) (*Container, error) {
	if !reflect.DeepEqual(spec, p.spec) || p.size == 0 {
		return p.engine.Start(ctx, spec)
	}
	w, err := p.take(p.currentImage())
	if err != nil || w != nil {
		return w.container(), err
	}
	return p.engine.Start(ctx, spec)
}

func (w *warm) container() *Container {
	if w == nil {
		return nil
	}
	return w.c
}

// take pops the first warm container that is alive and of the current
// image (nil if none), discarding the others. The replacement is started
// once the taken container is closed, so that it does not compete with the
// run for the CPU; with none ready, refilling starts at once.
func (p *Pool) take(current string) (*warm, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("sandbox pool: closed")
	}
	for len(p.ready) > 0 {
		w := p.ready[0]
		p.ready = p.ready[1:]
		if w.alive() && (current == "" || w.imageID == current) {
			p.pending++
			w.c.onClose, w.c.warm = p.refillAfterUse, true
			return w, nil
		}
		p.discardLocked(w) // the engine restarted, or the image was rebuilt
	}
	p.refillLocked()
	return nil, nil
}

// refillAfterUse runs when a handed-out container is closed.
func (p *Pool) refillAfterUse() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending--
	p.refillLocked()
}

// Ready is how many warm containers wait for a program.
func (p *Pool) Ready() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.ready)
}

// Close removes the warm containers and waits for refills to end.
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
	p.wg.Wait()
}

func (p *Pool) discardLocked(w *warm) {
	p.wg.Go(func() {
		if err := w.c.Close(); err != nil {
			p.log.Warn("remove warm sandbox", "err", err)
		}
	})
}

// refillLocked starts containers until the pool (ready and starting) is
// full. After failures it waits before trying again, so a stopped engine is
// not hammered.
func (p *Pool) refillLocked() {
	for !p.closed && len(p.ready)+p.starting+p.pending < p.size {
		p.starting++
		delay := time.Duration(0)
		if p.failures > 0 {
			delay = min(time.Duration(p.failures)*time.Second, 30*time.Second)
		}
		p.wg.Go(func() { p.warmOne(delay) })
	}
}

func (p *Pool) warmOne(delay time.Duration) {
	if delay > 0 {
		time.Sleep(delay)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := p.currentImage()
	spec := p.spec
	if id != "" {
		spec.Image = id // the container is of exactly the image checked
	}
	c, err := p.engine.Start(ctx, spec)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starting--
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
	p.ready = append(p.ready, &warm{c: c, imageID: id})
}
