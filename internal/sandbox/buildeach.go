package sandbox

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
)

// maxParallelBuilds is how many engines BuildOnEach builds on at once: a
// build from Debian packages assembles its root filesystem on this host.
const maxParallelBuilds = 3

// EngineBuild is how the build of the sandbox image went on one engine.
type EngineBuild struct {
	Host string // as given ("" = DOCKER_HOST or the default socket)
	Name string // where it is, for messages
	// Built says a new image was built: its ID, in Took.
	Built bool
	ID    string
	Took  time.Duration
	// Current says the image was there already, holding this runner
	// (only when asked to build a stale image only).
	Current bool
	// SameAs is the earlier host that reaches the same engine (equal
	// Identity): the image was built there, not twice.
	SameAs string
	// Err is why it failed: the engine did not answer, or the build failed.
	Err error
}

// BuildOnEach builds the sandbox image as opts says on each engine at
// hosts (each as Dial takes it), up to maxParallelBuilds at once, and
// reports each in the order given. With ifStale, an engine whose image
// opts.Tag already holds this runner is left as it is. A host that reaches
// the same engine as an earlier one is not built on twice. One engine
// failing does not stop the others. Each build's progress goes to
// logFor(its name), which may be nil and is called once per engine.
func BuildOnEach(ctx context.Context, hosts []string, opts BuildOptions, ifStale bool, logFor func(name string) io.Writer) []EngineBuild {
	if len(hosts) == 0 {
		hosts = []string{""}
	}
	if opts.Tag == "" {
		opts.Tag = DefaultImage()
	}
	// A root filesystem assembled from Debian packages is assembled once.
	opts.debian = &debianContext{}
	defer opts.debian.close()
	out := make([]EngineBuild, len(hosts))
	engines := make([]*Engine, len(hosts))
	ids := make([]Identity, len(hosts))
	defer func() {
		for _, e := range engines {
			if e != nil {
				e.Close()
			}
		}
	}()
	// Connect to every engine first, so that two addresses of one engine
	// are known before either builds.
	var wg sync.WaitGroup
	for i, h := range hosts {
		out[i] = EngineBuild{Host: h, Name: displayHost(h)}
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, connectTimeout)
			defer cancel()
			e, err := Dial(cctx, h)
			if err != nil {
				out[i].Err = err
				return
			}
			out[i].Name = e.Host()
			if ids[i], err = e.Identity(cctx); err != nil {
				e.Close()
				out[i].Err = fmt.Errorf("engine %s: %w", e.Host(), err)
				return
			}
			engines[i] = e
		})
	}
	wg.Wait()
	sem := make(chan struct{}, maxParallelBuilds)
	for i, e := range engines {
		if e == nil {
			continue
		}
		if j := slices.IndexFunc(ids[:i], func(id Identity) bool { return id.Known() && id == ids[i] }); j >= 0 && engines[j] != nil {
			out[i].SameAs = out[j].Name
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var log io.Writer
			if logFor != nil {
				log = logFor(out[i].Name)
			}
			out[i].buildOn(ctx, e, opts, ifStale, log)
		})
	}
	wg.Wait()
	return out
}

// buildOn builds the image on e unless ifStale and it is current there.
func (b *EngineBuild) buildOn(ctx context.Context, e *Engine, opts BuildOptions, ifStale bool, log io.Writer) {
	if ifStale {
		if d, err := e.ImageRunnerDigest(ctx, opts.Tag); err == nil && d == runner.Digest() {
			b.Current = true
			return
		}
	}
	bctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
	began := time.Now()
	opts.Log = log
	id, err := e.BuildImage(bctx, opts)
	if err != nil {
		b.Err = err
		return
	}
	b.Built, b.ID, b.Took = true, id, time.Since(began)
}
