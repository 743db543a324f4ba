package sandbox

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
)

// Spec is what a sandbox container may use. Every field has a safe default
// (see DefaultSpec); the isolation itself (no network, read-only root, no
// capabilities, no new privileges, no host environment, no mounts) is not
// configurable.
type Spec struct {
	Image       string // image built by BuildImage
	MemoryBytes int64  // memory limit; swap is disabled (swap limit = memory limit)
	NanoCPUs    int64  // CPU limit in billionths of a CPU
	Pids        int64  // maximum number of processes
	OpenFiles   int64  // RLIMIT_NOFILE, soft and hard
	TmpfsBytes  int64  // size of the /tmp tmpfs
	// Runtime is the engine's OCI runtime for the container: "" for its
	// default (runc), "runsc" for gVisor, whose own kernel stands between
	// the code and the host's.
	Runtime string
	// Entrypoint replaces the image's runner when set. Only tests use it, to
	// play a hostile runner.
	Entrypoint []string
}

// DefaultSpec returns the default container limits (config.Default's, as
// the README's limits table lists them): 256 MiB and no swap, one CPU, 64
// processes, 64 open files, a 16 MiB /tmp.
func DefaultSpec() Spec {
	return Spec{
		Image:       DefaultImage(),
		MemoryBytes: 256 << 20,
		NanoCPUs:    1_000_000_000,
		Pids:        64,
		OpenFiles:   64,
		TmpfsBytes:  16 << 20,
	}
}

// Owner identifies this process in container labels, so that a sweep can
// tell its own orphans (owner gone) from another process's live containers.
func Owner() string {
	host, _ := os.Hostname()
	return host + "/" + strconv.Itoa(os.Getpid())
}

// Container is one running sandbox. Its three streams must be read and
// written by the caller: Protocol and Output until EOF (or Close), Input for
// the runner's messages.
type Container struct {
	ID string
	// Input is the runner's stdin: the protocol from the host.
	Input io.Writer
	// Protocol is the runner's stdout: the protocol to the host.
	Protocol io.Reader
	// Output is the runner's stderr: what the program printed.
	Output io.Reader

	engine   *Engine
	attach   client.ContainerAttachResult
	copyDone chan struct{}
	protoR   *io.PipeReader
	outR     *io.PipeReader
	once     sync.Once
	closeErr error
	onClose  func() // set by a Pool: refill once this one is gone
	warm     bool   // handed out by a Pool, started ahead of need
	// abandon, when it ends, stops the removal: the pool that started the
	// container closed and gave up on an engine that does not answer.
	// Cleared when the container is handed out.
	abandon context.Context
}

// Warm reports whether the container was started ahead of need by a Pool
// (else it was started for its caller).
func (c *Container) Warm() bool { return c.warm }

// hostConfig is the isolation every sandbox gets.
func (s Spec) hostConfig(seccompOpt string) *container.HostConfig {
	pids := s.Pids
	opts := []string{"no-new-privileges"}
	if seccompOpt != "" {
		opts = append(opts, seccompOpt)
	}
	return &container.HostConfig{
		Runtime:        s.Runtime,
		NetworkMode:    "none",
		ReadonlyRootfs: true,
		Tmpfs: map[string]string{
			"/tmp": fmt.Sprintf("rw,noexec,nosuid,nodev,size=%d,mode=1777", s.TmpfsBytes),
		},
		CapDrop:     []string{"ALL"},
		SecurityOpt: opts,
		IpcMode:     "private",
		LogConfig:   container.LogConfig{Type: "none"},
		Resources: container.Resources{
			Memory:     s.MemoryBytes,
			MemorySwap: s.MemoryBytes,
			PidsLimit:  &pids,
			NanoCPUs:   s.NanoCPUs,
			Ulimits: []*container.Ulimit{
				{Name: "nofile", Soft: s.OpenFiles, Hard: s.OpenFiles},
				{Name: "core", Soft: 0, Hard: 0},
				// Set explicitly: rootful Podman otherwise raises it to 1048576,
				// which needs a capability it may not have. It counts every
				// process of user 65534 on the host, so it stays far above
				// the per-container pids limit.
				{Name: "nproc", Soft: 4096, Hard: 4096},
			},
		},
	}
}

// Start creates, attaches and starts a fresh sandbox container. The caller
// must Close it.
func (e *Engine) Start(ctx context.Context, spec Spec) (*Container, error) {
	return e.start(ctx, spec, nil)
}

// start is Start for a Pool: when abandon (if not nil) ends, the create
// request, which the end of ctx does not cut short, is cancelled too, and
// the removals of what it made stop trying. A container left so is
// labelled as this process's: a reconnect's removal of the stopped ones
// or a later process's sweep removes it.
func (e *Engine) start(ctx context.Context, spec Spec, abandon context.Context) (_ *Container, err error) {
	ctx, end := span(ctx, "sandbox.start")
	defer func() { end(err) }()
	// The create request is not cancelled with the run: an engine may
	// finish creating a container after its request is gone, and one
	// created so is found only by its name, if at all (a busy engine once
	// left one behind). It is bounded by createTimeout instead, and a
	// container created for a run that ended meanwhile is removed at once.
	// The name is the container's own, so that one whose request timed
	// out can still be found and removed.
	name := "mcp-code-mode-sandbox-" + rand.Text()[:16]
	createCtx, cancelCreate := context.WithTimeout(context.WithoutCancel(ctx), createTimeout)
	defer cancelCreate()
	defer whenAbandoned(abandon, cancelCreate)()
	created, err := e.cli.ContainerCreate(createCtx, client.ContainerCreateOptions{
		Name: name,
		Config: &container.Config{
			Image:           spec.Image,
			Entrypoint:      spec.Entrypoint,
			User:            "65534:65534",
			Hostname:        "sandbox",
			WorkingDir:      "/tmp",
			Env:             []string{"PATH=/usr/local/bin:/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1", "HOME=/tmp"},
			AttachStdin:     true,
			AttachStdout:    true,
			AttachStderr:    true,
			OpenStdin:       true,
			StdinOnce:       true,
			NetworkDisabled: true,
			Labels: map[string]string{
				LabelApp:   AppName,
				LabelRole:  "sandbox",
				LabelOwner: Owner(),
			},
		},
		HostConfig: spec.hostConfig(e.seccomp),
	})
	if err != nil {
		if createCtx.Err() != nil {
			e.removeAbandoned(name, abandon)
		}
		if cerrdefs.IsNotFound(err) {
			return nil, fmt.Errorf("create sandbox: image %q not found (run `mcp-code-mode build-image`): %w", spec.Image, err)
		}
		if spec.Runtime != "" && strings.Contains(err.Error(), "runtime") {
			return nil, fmt.Errorf("create sandbox: runtime %q: %w (register it with the engine: see `mcp-code-mode doctor`)", spec.Runtime, err)
		}
		return nil, fmt.Errorf("create sandbox: %w", err)
	}
	c := &Container{ID: created.ID, engine: e, copyDone: make(chan struct{}), abandon: abandon}
	fail := func(step string, err error) (*Container, error) {
		c.remove()
		return nil, fmt.Errorf("%s sandbox %.12s: %w", step, c.ID, err)
	}
	if err := ctx.Err(); err != nil {
		return fail("create", err)
	}
	c.attach, err = e.cli.ContainerAttach(ctx, c.ID, client.ContainerAttachOptions{
		Stream: true, Stdin: true, Stdout: true, Stderr: true,
	})
	if err != nil {
		return fail("attach", err)
	}
	protoR, protoW := io.Pipe()
	outR, outW := io.Pipe()
	c.protoR, c.outR = protoR, outR
	c.Input, c.Protocol, c.Output = c.attach.Conn, protoR, outR
	go func() {
		defer close(c.copyDone)
		_, err := stdcopy.StdCopy(protoW, outW, c.attach.Reader)
		if err == nil {
			err = io.EOF
		}
		protoW.CloseWithError(err)
		outW.CloseWithError(err)
	}()
	if _, err := e.cli.ContainerStart(ctx, c.ID, client.ContainerStartOptions{}); err != nil {
		c.attach.Close()
		<-c.copyDone
		return fail("start", err)
	}
	return c, nil
}

// whenAbandoned arranges for cancel to run when abandon (if not nil) ends,
// and returns what undoes that.
func whenAbandoned(abandon context.Context, cancel context.CancelFunc) (stop func() bool) {
	if abandon == nil {
		return func() bool { return false }
	}
	return context.AfterFunc(abandon, cancel)
}

// createTimeout bounds a create request, which a run's end does not cut
// short (see Start).
const createTimeout = time.Minute

// removeAbandoned removes the container named name whose create request
// timed out, should the engine have created it anyway: it looks for it
// for a few seconds, as the engine may still be creating it, unless
// abandon (if not nil) ends first.
func (e *Engine) removeAbandoned(name string, abandon context.Context) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	defer whenAbandoned(abandon, cancel)()
	for {
		_, err := e.cli.ContainerRemove(ctx, name, client.ContainerRemoveOptions{Force: true})
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// Exit reports how the container ended: its exit code, and whether the
// kernel killed a process in it for exceeding the memory limit. It waits at
// most until ctx ends.
func (c *Container) Exit(ctx context.Context) (code int, oomKilled bool, err error) {
	wait := c.engine.cli.ContainerWait(ctx, c.ID, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
	select {
	case r := <-wait.Result:
		code = int(r.StatusCode)
	case err := <-wait.Error:
		return 0, false, fmt.Errorf("wait for sandbox %.12s: %w", c.ID, err)
	}
	res, err := c.engine.cli.ContainerInspect(ctx, c.ID, client.ContainerInspectOptions{})
	if err != nil {
		return code, false, fmt.Errorf("inspect sandbox %.12s: %w", c.ID, err)
	}
	if res.Container.State != nil {
		oomKilled = res.Container.State.OOMKilled
	}
	return code, oomKilled, nil
}

// Alive reports whether the container's streams are still open: they end
// when it stops (its program exited, the engine restarted, or it was
// removed).
func (c *Container) Alive() bool {
	select {
	case <-c.copyDone:
		return false
	default:
		return true
	}
}

// Kill stops the container at once. The streams then reach EOF.
func (c *Container) Kill(ctx context.Context) error {
	_, err := c.engine.cli.ContainerKill(ctx, c.ID, client.ContainerKillOptions{Signal: "SIGKILL"})
	if err != nil && !cerrdefs.IsNotFound(err) && !cerrdefs.IsConflict(err) {
		return fmt.Errorf("kill sandbox %.12s: %w", c.ID, err)
	}
	return nil
}

// Close kills and removes the container and releases its streams. It is
// safe to call more than once; later calls return the first result.
func (c *Container) Close() error {
	c.once.Do(func() {
		c.attach.Close()
		c.protoR.Close()
		c.outR.Close()
		select {
		case <-c.copyDone:
		case <-time.After(5 * time.Second):
		}
		c.closeErr = c.remove()
		if c.onClose != nil {
			c.onClose()
		}
	})
	return c.closeErr
}

// afterClose adds f to what Close runs once the container is removed. Only
// the holder of a container not yet handed on may call it.
func (c *Container) afterClose(f func()) {
	prev := c.onClose
	c.onClose = func() {
		if prev != nil {
			prev()
		}
		f()
	}
}

// EngineHost is where the container runs (Engine.Host).
func (c *Container) EngineHost() string { return c.engine.host }

func (c *Container) remove() error { return c.removeVia(c.engine) }

// removeVia removes the container through e: its own engine, or another
// address of that engine when its own does not answer.
func (c *Container) removeVia(e *Engine) error {
	// Removal must happen even when the run's context is already over.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	defer whenAbandoned(c.abandon, cancel)()
	var err error
	// Podman refuses a forced remove between a container's exit and its
	// cleanup ("container state improper"); that passes within moments.
	for attempt := 0; attempt < 20; attempt++ {
		_, err = e.cli.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true})
		if err == nil || cerrdefs.IsNotFound(err) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("remove sandbox %.12s: %w", c.ID, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("remove sandbox %.12s: %w", c.ID, err)
}

// Sweep removes sandbox containers left behind by processes that are gone:
// those labelled with an owner on this host whose process no longer runs,
// and those of any owner older than maxAge. It returns how many it removed.
func (e *Engine) Sweep(ctx context.Context, maxAge time.Duration) (int, error) {
	list, err := e.cli.ContainerList(ctx, client.ContainerListOptions{
		All:     true,
		Filters: make(client.Filters).Add("label", LabelApp+"="+AppName).Add("label", LabelRole+"=sandbox"),
	})
	if err != nil {
		return 0, fmt.Errorf("list sandboxes: %w", err)
	}
	host, _ := os.Hostname()
	removed := 0
	var errs []error
	for _, s := range list.Items {
		if !orphan(s.Labels[LabelOwner], host, time.Unix(s.Created, 0), maxAge) {
			continue
		}
		if _, err := e.cli.ContainerRemove(ctx, s.ID, client.ContainerRemoveOptions{Force: true}); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("remove orphan %.12s: %w", s.ID, err))
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}

// Containers lists the IDs of the sandbox containers owned by owner (see
// Owner), running or not.
func (e *Engine) Containers(ctx context.Context, owner string) ([]string, error) {
	list, err := e.cli.ContainerList(ctx, client.ContainerListOptions{
		All:     true,
		Filters: make(client.Filters).Add("label", LabelApp+"="+AppName).Add("label", LabelOwner+"="+owner),
	})
	if err != nil {
		return nil, fmt.Errorf("list sandboxes: %w", err)
	}
	ids := make([]string, 0, len(list.Items))
	for _, s := range list.Items {
		ids = append(ids, s.ID)
	}
	return ids, nil
}

// removeStopped removes the sandbox containers of owner that are no longer
// running, but those keep reports: after an engine restarts, those it
// stopped are left to whoever made them, and the handles this process held
// were lost with the connection. It returns how many it removed.
func (e *Engine) removeStopped(ctx context.Context, owner string, keep func(id string) bool) (int, error) {
	list, err := e.cli.ContainerList(ctx, client.ContainerListOptions{
		All: true,
		Filters: make(client.Filters).Add("label", LabelApp+"="+AppName).Add("label", LabelOwner+"="+owner).
			Add("status", "exited").Add("status", "created").Add("status", "dead"),
	})
	if err != nil {
		return 0, fmt.Errorf("list sandboxes: %w", err)
	}
	removed := 0
	var errs []error
	for _, s := range list.Items {
		if keep(s.ID) {
			continue
		}
		if _, err := e.cli.ContainerRemove(ctx, s.ID, client.ContainerRemoveOptions{Force: true}); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("remove stopped sandbox %.12s: %w", s.ID, err))
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}

// orphan decides whether a container with the given owner label, created at
// created, belongs to nobody alive.
func orphan(owner, host string, created time.Time, maxAge time.Duration) bool {
	if maxAge > 0 && time.Since(created) > maxAge {
		return true
	}
	i := strings.LastIndexByte(owner, '/')
	if i < 0 || owner[:i] != host {
		return false
	}
	pid, err := strconv.Atoi(owner[i+1:])
	if err != nil || pid <= 0 {
		return true
	}
	return !processAlive(pid)
}
