package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Provider hands out sandbox containers from a warm pool, connecting to the
// engine on first use: a command or a server that never runs code needs no
// engine, and a server started before the engine came up recovers once it
// answers. On connecting it removes the orphans of dead processes.
type Provider struct {
	log  *slog.Logger
	spec Spec    // what the warm containers are
	warm Warming // how many to keep started

	mu     sync.Mutex
	e      *Engine
	pool   *Pool
	closed bool
}

// NewProvider returns a provider of containers like spec, keeping some of
// them started ahead of need as warm says. It connects to nothing yet.
func NewProvider(spec Spec, warm Warming, log *slog.Logger) *Provider {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Provider{log: log, spec: spec, warm: warm}
}

// Connect connects to the engine and starts filling the pool, if that has
// not happened yet; serve calls it early so the first run does not wait.
func (p *Provider) Connect(ctx context.Context) error {
	_, err := p.get(ctx)
	return err
}

func (p *Provider) get(ctx context.Context) (*Pool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pool != nil {
		return p.pool, nil
	}
	if p.closed {
		return nil, errors.New("sandbox provider: shutting down")
	}
	// Connecting has its own timeout: a run's short deadline must not be
	// reported as the engine being down.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	e, err := New(cctx)
	if err != nil {
		return nil, fmt.Errorf("%w (is Docker or Podman running? see `mcp-code-mode doctor`)", err)
	}
	if n, err := e.Sweep(cctx, 24*time.Hour); err != nil {
		p.log.Warn("sweep of orphaned sandboxes failed", "err", err)
	} else if n > 0 {
		p.log.Info("removed orphaned sandboxes", "count", n)
	}
	p.e = e
	p.pool = NewPool(e, p.spec, p.warm, p.log)
	return p.pool, nil
}

// Start returns a started container like spec: a warm one when spec is the
// provider's own and one is ready, else a fresh one.
func (p *Provider) Start(ctx context.Context, spec Spec) (*Container, error) {
	pool, err := p.get(ctx)
	if err != nil {
		return nil, err
	}
	return pool.Start(ctx, spec)
}

// Stats reports the warm pool's state (all zero before the provider has
// connected).
func (p *Provider) Stats() PoolStats {
	p.mu.Lock()
	pool := p.pool
	p.mu.Unlock()
	if pool == nil {
		return PoolStats{}
	}
	return pool.Stats()
}

// Close removes the warm containers and closes the connection. Containers
// handed out are the caller's to close.
func (p *Provider) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.e == nil {
		return nil
	}
	p.pool.Close()
	return p.e.Close()
}
