package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/moby/moby/client"
)

// Provider hands out sandbox containers from one or more engines, each with
// its own warm pool. It connects on first use: a command or a server that
// never runs code needs no engine, and a server started before its engines
// came up recovers once one answers.
//
// An engine is used once it answers, knows the spec's runtime and holds the
// spec's image; the default image (DefaultImage) is built on an engine that
// lacks it. On connecting, the orphans of dead processes are removed. Each
// container goes to the usable engine with the fewest containers in use,
// ties taken in turn. An engine that stops answering is taken out (with one
// warning) and its runs go to the others; it is checked again with back-off
// and brought back once it answers. With none usable, a run fails naming
// each engine and why.
//
// Two addresses that reach the same engine (equal Identity: a socket and a
// symlink to it, localhost and 127.0.0.1) are one engine: the first in the
// configured order is used, the other is left out for good with one warning
// naming both, so one daemon never gets two warm pools or two shares of
// the runs.
type Provider struct {
	log   *slog.Logger
	spec  Spec     // what the warm containers are
	warm  Warming  // how many to keep started on each engine
	hosts []string // the engines, as configured ("" = DOCKER_HOST or the default socket)

	ctx    context.Context // ends with Close: builds and checks stop
	cancel context.CancelFunc

	mu      sync.Mutex
	members []*member     // one per host; nil until first use
	changed chan struct{} // closed (and replaced) when a member's state changes
	next    int           // where the turn for ties starts
	closed  bool
	out     map[string]bool // the IDs of the containers handed out and not yet closed
	wg      sync.WaitGroup  // connections, checks, closing pools, the watch

	// The root filesystem assembled from Debian packages for the image
	// builds in progress (sharedDebian), and how many they are.
	debian      *debianContext
	debianUsers int
}

// memberState is where an engine stands.
type memberState int

const (
	connecting memberState = iota // being connected, checked, or its image built
	usable
	down
	duplicate // the same engine as an earlier member (sameAs): used only while that one is down
)

// member is one engine of the provider.
type member struct {
	host     string // as configured
	name     string // where it is, for messages
	state    memberState
	building bool // connecting includes building the image
	everUp   bool // it was usable once: a reconnect cleans up after the outage
	e        *Engine
	pool     *Pool
	inUse    int   // containers handed out and not yet closed
	err      error // why it is down
	backoff  time.Duration
	check    time.Time // when to check it next
	warned   bool      // its outage has been logged
	id       Identity  // the engine's, once it has answered; forgotten while it is down
	sameAs   *member   // the earlier member of the same engine, when duplicate
	standsIn *member   // the member of the same engine it is used for while that one is down
	toldSame bool      // the warning that it is the same engine as another has been given
}

// How often a usable engine is pinged, how long a ping may take, and the
// bounds of the back-off between attempts to bring a down engine back.
const (
	pingEvery      = 2 * time.Second
	pingTimeout    = 5 * time.Second
	connectTimeout = 10 * time.Second
	buildTimeout   = 15 * time.Minute
	minBackoff     = time.Second
	maxBackoff     = 30 * time.Second
)

// NewProvider returns a provider of containers like spec from the engines
// at hosts (each as Dial takes it; none means the one New connects to),
// keeping containers started ahead of need on each as warm says. It
// connects to nothing yet.
func NewProvider(hosts []string, spec Spec, warm Warming, log *slog.Logger) *Provider {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if len(hosts) == 0 {
		hosts = []string{""}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Provider{log: log, spec: spec, warm: warm, hosts: slices.Compact(slices.Clone(hosts)),
		ctx: ctx, cancel: cancel, changed: make(chan struct{}), out: map[string]bool{}}
}

// Connect connects to the engines and starts filling their pools, if that
// has not happened yet, and waits until one is usable or none can be; serve
// calls it early so the first run does not wait.
func (p *Provider) Connect(ctx context.Context) error {
	_, _, err := p.acquire(ctx, false)
	return err
}

// Start returns a started container like spec, from the engine with the
// fewest containers in use: a warm one when spec is the provider's own and
// one is ready there, else a fresh one. A start that fails because the
// engine stopped answering is tried on the others.
func (p *Provider) Start(ctx context.Context, spec Spec) (*Container, error) {
	for range len(p.hosts) + 1 {
		m, pool, err := p.acquire(ctx, true)
		if err != nil {
			return nil, err
		}
		c, err := pool.Start(ctx, spec)
		if err == nil {
			p.mu.Lock()
			p.out[c.ID] = true
			p.mu.Unlock()
			c.afterClose(func() {
				p.mu.Lock()
				delete(p.out, c.ID)
				var other *Engine // another address of its engine, standing in
				for _, o := range p.members {
					if c.closeErr != nil && o.standsIn == m && o.state == usable {
						other = o.e
					}
				}
				p.mu.Unlock()
				p.release(m)
				if other != nil {
					// Its engine answers at another address: the
					// container is removed there, not left for later.
					c.closeErr = c.removeVia(other)
				}
			})
			return c, nil
		}
		p.release(m)
		if ctx.Err() != nil {
			return nil, err
		}
		pctx, cancel := context.WithTimeout(ctx, pingTimeout)
		perr := pool.engine.Ping(pctx)
		cancel()
		if perr == nil {
			return nil, err // the engine answers: the failure is the container's
		}
		p.takeOut(m, pool.engine, perr)
	}
	return nil, errors.New("sandbox provider: every engine failed to start a container")
}

// Stats reports the warm pools' state, summed over the engines (all zero
// before the provider has connected).
func (p *Provider) Stats() PoolStats {
	p.mu.Lock()
	var pools []*Pool
	for _, m := range p.members {
		if m.pool != nil {
			pools = append(pools, m.pool)
		}
	}
	p.mu.Unlock()
	var sum PoolStats
	for _, pool := range pools {
		st := pool.Stats()
		sum.Ready += st.Ready
		sum.Starting += st.Starting
		sum.InUse += st.InUse
		sum.Target += st.Target
		sum.Waits += st.Waits
	}
	return sum
}

// EngineStatus is how one engine of a provider stands.
type EngineStatus struct {
	Host   string // as configured ("" = DOCKER_HOST or the default socket)
	Name   string // where it is
	Usable bool
	InUse  int    // containers handed out and not yet closed
	Err    error  // why it is not usable (nil while connecting)
	SameAs string // the earlier address of the same engine, when this one is left out for it
}

// Engines reports each engine's status, in the configured order; none
// before first use.
func (p *Provider) Engines() []EngineStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]EngineStatus, 0, len(p.members))
	for _, m := range p.members {
		st := EngineStatus{Host: m.host, Name: m.name, Usable: m.state == usable, InUse: m.inUse, Err: m.err}
		if m.sameAs != nil {
			st.SameAs = m.sameAs.host
		}
		out = append(out, st)
	}
	return out
}

// Close removes the warm containers and closes the connections. Containers
// handed out are the caller's to close.
func (p *Provider) Close() error {
	p.mu.Lock()
	p.closed = true
	p.cancel()
	var pools []*Pool
	var engines []*Engine
	for _, m := range p.members {
		if m.pool != nil {
			pools = append(pools, m.pool)
			engines = append(engines, m.e)
			m.pool, m.e = nil, nil
		}
	}
	p.broadcastLocked()
	p.mu.Unlock()
	var closing sync.WaitGroup
	for _, pool := range pools {
		closing.Go(pool.Close)
	}
	closing.Wait()
	p.wg.Wait()
	for _, e := range engines {
		e.Close()
	}
	return nil
}

// acquire returns a usable engine (the least loaded; counted as in use when
// reserve) and its pool, connecting the engines on first use. With none
// usable it waits for those being connected; with none being connected it
// tries every engine again at once, and fails if that brings none back.
func (p *Provider) acquire(ctx context.Context, reserve bool) (*member, *Pool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.members == nil && !p.closed {
		for _, h := range p.hosts {
			if strings.HasPrefix(h, "tcp://") && os.Getenv(client.EnvTLSVerify) == "" {
				p.log.Warn("a tcp:// engine without TLS: whoever can reach its port controls that host; set DOCKER_TLS_VERIFY and DOCKER_CERT_PATH", "engine", h)
			}
			m := &member{host: h, name: displayHost(h), state: connecting}
			p.members = append(p.members, m)
			p.wg.Go(func() { p.connect(m) })
		}
		p.wg.Go(p.watch)
	}
	retried := false
	for {
		if p.closed {
			return nil, nil, errors.New("sandbox provider: shutting down")
		}
		if m := p.leastLoadedLocked(); m != nil {
			if reserve {
				m.inUse++
			}
			return m, m.pool, nil
		}
		if !slices.ContainsFunc(p.members, func(m *member) bool { return m.state == connecting }) {
			if retried {
				return nil, nil, p.noEngineLocked()
			}
			retried = true
			for _, m := range p.members {
				if m.state == down {
					m.state = connecting
					p.wg.Go(func() { p.connect(m) })
				}
			}
		}
		ch := p.changed
		p.mu.Unlock()
		select {
		case <-ch:
			p.mu.Lock()
		case <-ctx.Done():
			p.mu.Lock()
			return nil, nil, fmt.Errorf("waiting for a container engine%s: %w", p.waitingForLocked(), context.Cause(ctx))
		}
	}
}

// leastLoadedLocked is the usable engine with the fewest containers in use,
// the first at or after p.next on a tie; nil if none is usable.
func (p *Provider) leastLoadedLocked() *member {
	n := len(p.members)
	best := -1
	for k := range n {
		i := (p.next + k) % n
		m := p.members[i]
		if m.state == usable && (best < 0 || m.inUse < p.members[best].inUse) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	p.next = (best + 1) % n
	return p.members[best]
}

// noEngineLocked is the error of a run no engine can take: each engine and
// why.
func (p *Provider) noEngineLocked() error {
	var why []string
	for _, m := range p.members {
		if m.state != duplicate {
			why = append(why, m.err.Error())
		}
	}
	what := "the container engine is not usable"
	if len(why) > 1 {
		what = fmt.Sprintf("none of the %d container engines is usable", len(why))
	}
	return fmt.Errorf("%s: %s (is Docker or Podman running? see `mcp-code-mode doctor`)", what, strings.Join(why, "; "))
}

// waitingForLocked says what a run that gave up waiting was waiting for.
func (p *Provider) waitingForLocked() string {
	for _, m := range p.members {
		if m.state == connecting && m.building {
			return " (the sandbox image is being built on " + m.name + ")"
		}
	}
	return ""
}

func (p *Provider) release(m *member) {
	p.mu.Lock()
	m.inUse--
	p.mu.Unlock()
}

func (p *Provider) broadcastLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// connect connects m's engine and prepares it for use (see prepare), then
// marks it usable with a new pool, or down with the reason.
func (p *Provider) connect(m *member) {
	e, err := p.prepare(m)
	var pool *Pool
	if err == nil {
		// Made before the lock is taken: a pool asks the engine for its
		// image first, which a slow engine may take seconds to answer.
		pool = NewPool(e, p.spec, p.warm, p.log.With("engine", e.Host()))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	m.building = false
	if p.closed || m.state == duplicate {
		switch {
		case pool != nil:
			p.wg.Go(func() {
				pool.Close()
				e.Close()
			})
		case e != nil:
			e.Close()
		}
		return
	}
	if err != nil {
		p.downLocked(m, err)
		return
	}
	if m.warned {
		p.log.Info("container engine is back in use", "engine", e.Host())
	}
	m.name, m.e, m.state, m.err, m.backoff, m.warned, m.everUp = e.Host(), e, usable, nil, 0, false, true
	m.check = time.Now().Add(pingEvery)
	m.pool = pool
	p.broadcastLocked()
}

// errSameEngine is prepare's error for a member found to be the same
// engine as an earlier one.
var errSameEngine = errors.New("the same engine as an earlier address")

// prepare dials m's engine, reads its identity (see identify), removes
// orphaned sandboxes (after an outage, also this process's containers the
// engine stopped), checks the runtime, and builds the default image when
// the engine lacks it.
func (p *Provider) prepare(m *member) (*Engine, error) {
	ctx, cancel := context.WithTimeout(p.ctx, connectTimeout)
	defer cancel()
	e, err := Dial(ctx, m.host)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Engine, error) {
		e.Close()
		return nil, fmt.Errorf("engine %s: %w", e.Host(), err)
	}
	id, runtimes, err := e.Describe(ctx)
	if err != nil {
		return fail(err)
	}
	if p.identify(m, id) {
		return fail(errSameEngine)
	}
	if n, err := e.Sweep(ctx, 24*time.Hour); err != nil {
		p.log.Warn("sweep of orphaned sandboxes failed", "engine", e.Host(), "err", err)
	} else if n > 0 {
		p.log.Info("removed orphaned sandboxes", "engine", e.Host(), "count", n)
	}
	p.mu.Lock()
	again := m.everUp
	p.mu.Unlock()
	// After an outage, the sandboxes that stopped with it are removed, but
	// not those handed out: another address of the engine may have stood
	// in, and the runs it served may still be reading theirs.
	if again {
		if n, err := e.removeStopped(ctx, Owner(), p.handedOut); err != nil {
			p.log.Warn("removing sandboxes stopped during the outage", "engine", e.Host(), "err", err)
		} else if n > 0 {
			p.log.Info("removed sandboxes stopped during the outage", "engine", e.Host(), "count", n)
		}
	}
	if p.spec.Runtime != "" && !slices.Contains(runtimes, p.spec.Runtime) {
		return fail(fmt.Errorf("no runtime %q (it has %s): register it with the engine, see `mcp-code-mode doctor`", p.spec.Runtime, strings.Join(runtimes, ", ")))
	}
	ok, err := e.ImageExists(ctx, p.spec.Image)
	if err != nil {
		return fail(err)
	}
	if !ok {
		if p.spec.Image != DefaultImage() {
			return fail(fmt.Errorf("no image %q: build or pull it there", p.spec.Image))
		}
		p.mu.Lock()
		m.building = true
		same := m.state == duplicate // found out meanwhile by an earlier address
		p.mu.Unlock()
		if same {
			return fail(errSameEngine)
		}
		p.log.Warn("the sandbox image is missing on an engine; building it there", "engine", e.Host(), "image", p.spec.Image)
		began := time.Now()
		bctx, cancel := context.WithTimeout(p.ctx, buildTimeout)
		defer cancel()
		shared, done := p.sharedDebian()
		defer done()
		progress := &lineLog{log: p.log.With("engine", e.Host()), msg: "sandbox image build"}
		_, err := e.BuildImage(bctx, BuildOptions{Tag: p.spec.Image, Log: progress, debian: shared})
		progress.flush()
		if err != nil {
			return fail(fmt.Errorf("build the sandbox image %s: %w", p.spec.Image, err))
		}
		p.log.Info("built the sandbox image", "engine", e.Host(), "image", p.spec.Image, "took", time.Since(began).Round(time.Millisecond))
	}
	return e, nil
}

// identify records m's engine identity and reports whether an earlier
// member (in the configured order) reaches the same engine; if so, m is
// marked a duplicate of it. A later member of the same engine is marked a
// duplicate of m, and its pool, if it had become usable first (or stood in
// for m, see standInLocked), is closed.
func (p *Provider) identify(m *member, id Identity) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m.state == duplicate {
		return true
	}
	m.id = id
	if !id.Known() {
		return false
	}
	earlier := true
	for _, o := range p.members {
		switch {
		case o == m:
			earlier = false
		case o.state == duplicate || o.id != id:
		case earlier:
			p.duplicateLocked(m, o)
			return true
		default:
			p.duplicateLocked(o, m)
		}
	}
	return false
}

// sharedDebian returns the build context that the provider's image builds
// in progress share, so that engines lacking the image at once (several
// fresh ones, offline) assemble the root filesystem from Debian packages
// once between them. done releases it; the last release removes it.
func (p *Provider) sharedDebian() (c *debianContext, done func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.debian == nil {
		p.debian = &debianContext{}
	}
	c = p.debian
	p.debianUsers++
	return c, func() {
		p.mu.Lock()
		p.debianUsers--
		last := p.debianUsers == 0
		if last {
			p.debian = nil
		}
		p.mu.Unlock()
		if last {
			c.close()
		}
	}
}

// lineLog logs each line written to it at debug level, as msg with the
// line; a line longer than maxLogLine is cut there.
type lineLog struct {
	log  *slog.Logger
	msg  string
	mu   sync.Mutex
	line []byte
	cut  bool // the line being written was cut: the rest is dropped
}

// maxLogLine bounds a line lineLog logs.
const maxLogLine = 4096

func (w *lineLog) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		part := b
		if i >= 0 {
			part = b[:i]
		}
		if room := maxLogLine - len(w.line); len(part) > room {
			part, w.cut = part[:room], true
		}
		w.line = append(w.line, part...)
		if i < 0 {
			break
		}
		w.emitLocked()
		b = b[i+1:]
	}
	return n, nil
}

// flush logs the last line when it did not end with a newline.
func (w *lineLog) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.line) > 0 {
		w.emitLocked()
	}
}

func (w *lineLog) emitLocked() {
	if w.cut {
		w.log.Debug(w.msg, "line", string(w.line), "cut_at", maxLogLine)
	} else {
		w.log.Debug(w.msg, "line", string(w.line))
	}
	w.line, w.cut = w.line[:0], false
}

// handedOut reports whether the container with this ID was handed out by
// Start and is not closed yet.
func (p *Provider) handedOut(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out[id]
}

// duplicateLocked leaves d out as the same engine as first, closing d's
// pool if it had one. The first time, it warns, naming both; d stands by
// for first (see standInLocked).
func (p *Provider) duplicateLocked(d, first *member) {
	p.dropPoolLocked(d)
	d.state, d.sameAs, d.standsIn = duplicate, first, nil
	d.err = fmt.Errorf("engine %s: the same engine as %s (ID %s, data root %s): left out", d.name, first.name, d.id.ID, d.id.RootDir)
	for _, o := range p.members {
		if o.sameAs == d {
			o.sameAs = first
		}
	}
	if !d.toldSame && !first.toldSame {
		p.log.Warn("two addresses reach the same container engine; only the first is used", "engine", first.name, "duplicate", d.name, "id", d.id.ID, "data_root", d.id.RootDir)
	} else {
		p.log.Info("an address of a container engine answers again; the other address of it stands by again", "engine", first.name, "duplicate", d.name)
	}
	d.toldSame, first.toldSame = true, true
	p.broadcastLocked()
}

// standInLocked connects the members left out as the same engine as m,
// which has just gone down: the engine may still answer at another
// address (a TCP port and an ssh host of one daemon, say). The first of
// them to connect is used, and the others stand by for it; m takes over
// again when it answers (identify).
func (p *Provider) standInLocked(m *member) {
	for _, o := range p.members {
		if o.state != duplicate || o.sameAs != m {
			continue
		}
		p.log.Info("trying another address of the container engine that stopped answering", "engine", m.name, "other", o.name)
		// The engine was in use under m's address: prepare removes the
		// sandboxes that stopped with m's connection.
		o.state, o.sameAs, o.standsIn, o.err, o.everUp = connecting, nil, m, nil, true
		p.wg.Go(func() { p.connect(o) })
	}
}

// dropPoolLocked closes m's warm pool and its engine client in the
// background, if it has them, and forgets them.
func (p *Provider) dropPoolLocked(m *member) {
	if m.pool != nil {
		pool, e := m.pool, m.e
		p.wg.Go(func() {
			pool.Close()
			e.Close()
		})
	}
	m.pool, m.e = nil, nil
}

// downLocked takes m out of use for err, closing its pool, and schedules
// the next attempt to bring it back. The first time in an outage it warns.
// The addresses left out as the same engine as m are tried in its place.
func (p *Provider) downLocked(m *member, err error) {
	p.dropPoolLocked(m)
	m.state, m.err, m.standsIn = down, err, nil
	// Its identity is read again when it answers: until then another
	// address of the same engine may stand in for it.
	m.id = Identity{}
	m.backoff = min(max(2*m.backoff, minBackoff), maxBackoff)
	m.check = time.Now().Add(m.backoff)
	if !m.warned {
		m.warned = true
		others := 0
		for _, o := range p.members {
			if o.state == usable {
				others++
			}
		}
		p.log.Warn("container engine taken out of use; checking it again with back-off", "engine", m.name, "err", err, "engines_in_use", others)
	}
	p.standInLocked(m)
	p.broadcastLocked()
}

// takeOut takes m out of use for err, if e is still its engine.
func (p *Provider) takeOut(m *member, e *Engine, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m.e == e && m.state == usable && !p.closed {
		p.downLocked(m, err)
	}
}

// watch pings the usable engines and tries the down ones again when their
// back-off is over, until Close.
func (p *Provider) watch() {
	t := time.NewTicker(pingEvery / 4)
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		p.mu.Lock()
		for _, m := range p.members {
			if now.Before(m.check) {
				continue
			}
			switch m.state {
			case usable:
				m.check = now.Add(pingEvery)
				e := m.e
				p.wg.Go(func() {
					ctx, cancel := context.WithTimeout(p.ctx, pingTimeout)
					defer cancel()
					if err := e.Ping(ctx); err != nil && p.ctx.Err() == nil {
						p.takeOut(m, e, err)
					}
				})
			case down:
				m.state = connecting
				p.wg.Go(func() { p.connect(m) })
			}
		}
		p.mu.Unlock()
	}
}
