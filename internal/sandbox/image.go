package sandbox

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/build"
	"github.com/moby/moby/api/types/jsonstream"
	"github.com/moby/moby/client"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
)

// ImageRepository is the repository of the sandbox image's default tag.
const ImageRepository = "mcp-code-mode-sandbox"

// DefaultImage returns the default tag of the sandbox image: ImageRepository
// tagged with the first 12 hex digits of the runner's digest (runner.Digest).
// A release whose runner differs names a different image, so an upgrade
// never runs a stale one, and builds of different runners on one engine do
// not replace each other's image.
func DefaultImage() string {
	return ImageRepository + ":" + runner.Digest()[:12]
}

// DefaultBase is the base used when a registry is reachable.
const DefaultBase = "python:3.13-slim"

// BaseDebian is the BuildOptions.Base value that always assembles the image
// from the host's Debian packages instead of using a base image.
const BaseDebian = "debian"

// LabelRunnerDigest is the image label holding the SHA-256 (hex) of the
// runner script baked into the image; see runner.Digest.
const LabelRunnerDigest = "io.mcp-code-mode.runner-sha256"

// Pull watchdogs: a pull that reports nothing for this long is abandoned.
const (
	autoPullStall     = 20 * time.Second // automatic base: fall back to Debian quickly
	explicitPullStall = 60 * time.Second // base named by the user
)

// entrypoint returns the image's entrypoint: the runner, isolated (-I: no
// user site, no PYTHON* variables, script directory not on sys.path), without
// the site module (-S: the stdlib imports the runner needs work without it on
// both bases) and unbuffered (-u: -I ignores PYTHONUNBUFFERED, so the ENV
// line alone would not do it).
func entrypoint() []string {
	return []string{"python3", "-I", "-S", "-u", runner.ScriptPath}
}

// BuildOptions says how to build the sandbox image.
type BuildOptions struct {
	// Tag names the image; default DefaultImage.
	Tag string
	// Base is the image to build on. "" = automatic: DefaultBase if it is
	// present locally or can be pulled, else assemble from Debian packages;
	// BaseDebian ("debian") = always assemble from the host's Debian
	// packages; anything else = that image (present locally or pulled).
	Base string
	// Log receives build progress; may be nil.
	Log io.Writer

	// debian, when set, is the build context assembled from Debian
	// packages for one engine, used again for the others (BuildOnEach).
	debian *debianContext
}

// ImageExists reports whether the engine has an image named ref.
func (e *Engine) ImageExists(ctx context.Context, ref string) (bool, error) {
	_, err := e.cli.ImageInspect(ctx, ref)
	switch {
	case err == nil:
		return true, nil
	case cerrdefs.IsNotFound(err):
		return false, nil
	default:
		return false, fmt.Errorf("inspect image %s: %w", ref, err)
	}
}

// ImageRunnerDigest returns the LabelRunnerDigest label of image ref, or ""
// if the image has none (built by something else). Compare it with
// runner.Digest to tell a stale image. A missing image is an error for which
// errdefs.IsNotFound is true.
func (e *Engine) ImageRunnerDigest(ctx context.Context, ref string) (string, error) {
	img, err := e.cli.ImageInspect(ctx, ref)
	if err != nil {
		return "", fmt.Errorf("inspect image %s: %w", ref, err)
	}
	if img.Config == nil {
		return "", nil
	}
	return img.Config.Labels[LabelRunnerDigest], nil
}

// BuildImage builds the sandbox image with the engine's classic builder and
// returns its ID. The image holds Python and the runner at runner.ScriptPath,
// runs as 65534:65534 in /tmp, and its entrypoint starts the runner.
func (e *Engine) BuildImage(ctx context.Context, opts BuildOptions) (string, error) {
	tag := opts.Tag
	if tag == "" {
		tag = DefaultImage()
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	switch opts.Base {
	case BaseDebian:
		return e.buildFromDebian(ctx, tag, log, opts.debian)
	case "":
		err := e.ensureImage(ctx, DefaultBase, autoPullStall, log)
		if err == nil {
			return e.buildFromBase(ctx, tag, DefaultBase, log)
		}
		if ctx.Err() != nil {
			return "", err
		}
		fmt.Fprintf(log, "sandbox: base image %s unavailable (%v); assembling Python from Debian packages instead\n", DefaultBase, err)
		id, derr := e.buildFromDebian(ctx, tag, log, opts.debian)
		if derr != nil {
			return "", fmt.Errorf("base image %s unavailable (%w), and %w", DefaultBase, err, derr)
		}
		return id, nil
	default:
		if err := e.ensureImage(ctx, opts.Base, explicitPullStall, log); err != nil {
			return "", err
		}
		return e.buildFromBase(ctx, tag, opts.Base, log)
	}
}

// ensureImage makes sure ref is present, pulling it if needed. The pull is
// abandoned when the engine reports nothing for stall.
func (e *Engine) ensureImage(ctx context.Context, ref string, stall time.Duration, log io.Writer) error {
	ok, err := e.ImageExists(ctx, ref)
	if err != nil || ok {
		return err
	}
	fmt.Fprintf(log, "sandbox: pulling %s\n", ref)
	errStalled := fmt.Errorf("no progress for %s (registry unreachable?)", stall)
	pctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watchdog := time.AfterFunc(stall, func() { cancel(errStalled) })
	defer watchdog.Stop()

	fail := func(err error) error {
		if cause := context.Cause(pctx); cause != nil && ctx.Err() == nil {
			err = cause
		}
		return fmt.Errorf("pull %s: %w", ref, err)
	}
	res, err := e.cli.ImagePull(pctx, ref, client.ImagePullOptions{})
	if err != nil {
		return fail(err)
	}
	defer res.Close()
	for msg, err := range engineMessages(res) {
		if err != nil {
			return fail(err)
		}
		watchdog.Reset(stall)
		if err := printMessage(log, msg); err != nil {
			return fail(err)
		}
	}
	if err := context.Cause(pctx); err != nil {
		return fail(err)
	}
	return nil
}

// dockerfile returns the Dockerfile of the sandbox image. With from ==
// "scratch" the context holds rootfs.tar, a root filesystem with Python
// version python (e.g. "3.11"), whose standard library is precompiled in the
// image since the packages ship no bytecode and the root is read-only at run
// time.
func dockerfile(from, python string) string {
	quote := func(args []string) string {
		b, _ := json.Marshal(args)
		return string(b)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "FROM %s\n", from)
	if from == "scratch" {
		b.WriteString("ADD rootfs.tar /\n")
	}
	b.WriteString("ENV PATH=/usr/local/bin:/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1\n")
	if from == "scratch" {
		// Exec form: the image has no shell. compileall's exit status is 1
		// if any file fails to compile, so call it from -c and ignore that.
		code := fmt.Sprintf("import compileall, py_compile; compileall.compile_dir(%q, quiet=1, workers=0, "+
			"invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)", "/usr/lib/python"+python)
		fmt.Fprintf(&b, "RUN %s\n", quote([]string{"python3", "-I", "-S", "-c", code}))
	}
	fmt.Fprintf(&b, "COPY runner.py %s\n", runner.ScriptPath)
	b.WriteString("USER 65534:65534\n")
	b.WriteString("WORKDIR /tmp\n")
	fmt.Fprintf(&b, "ENTRYPOINT %s\n", quote(entrypoint()))
	return b.String()
}

// contextFile is one file of a build context.
type contextFile struct {
	name string
	mode int64
	size int64
	body io.Reader
}

// writeBuildContext writes files as a tar stream to w.
func writeBuildContext(w io.Writer, files []contextFile) error {
	tw := tar.NewWriter(w)
	for _, f := range files {
		hdr := &tar.Header{Name: f.name, Mode: f.mode, Size: f.size, ModTime: time.Unix(rootfsEpoch, 0), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("build context: %w", err)
		}
		if _, err := io.Copy(tw, f.body); err != nil {
			return fmt.Errorf("build context: %s: %w", f.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("build context: %w", err)
	}
	return nil
}

// baseContextFiles returns the Dockerfile and runner entries of a context.
func baseContextFiles(df string) []contextFile {
	return []contextFile{
		{name: "Dockerfile", mode: 0o644, size: int64(len(df)), body: strings.NewReader(df)},
		{name: "runner.py", mode: 0o444, size: int64(len(runner.Script)), body: bytes.NewReader(runner.Script)},
	}
}

// buildFromBase builds tag on the base image from (which must be present).
func (e *Engine) buildFromBase(ctx context.Context, tag, from string, log io.Writer) (string, error) {
	var buf bytes.Buffer
	if err := writeBuildContext(&buf, baseContextFiles(dockerfile(from, ""))); err != nil {
		return "", err
	}
	return e.build(ctx, tag, &buf, log)
}

// buildFromDebian builds tag FROM scratch on a root filesystem assembled from
// the host's Debian packages: the build context of shared when it is not
// nil (assembled by the first engine's build that needs it), else its own.
func (e *Engine) buildFromDebian(ctx context.Context, tag string, log io.Writer, shared *debianContext) (string, error) {
	if shared == nil {
		shared = &debianContext{}
		defer shared.close()
	}
	path, err := shared.path(ctx, e.Host(), log)
	if err != nil {
		return "", err
	}
	cf, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("build context: %w", err)
	}
	defer cf.Close()
	return e.build(ctx, tag, cf, log)
}

// debianContext is the build context of an image FROM scratch on a root
// filesystem assembled from the host's Debian packages: made once, for
// the first build that needs it, and read by each build after it.
type debianContext struct {
	mu   sync.Mutex
	work string // the directory holding it; "" until it is made
	tar  string // the context's path once it is made
	by   string // the engine whose build made it, for the log
}

// path returns the path of the build context, assembling it when no
// earlier build has (for the engine named by, its progress to log).
func (c *debianContext) path(ctx context.Context, by string, log io.Writer) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tar != "" {
		fmt.Fprintf(log, "sandbox: using the root filesystem assembled for %s\n", c.by)
		return c.tar, nil
	}
	work, err := os.MkdirTemp("", "mcp-code-mode-image-")
	if err != nil {
		return "", fmt.Errorf("debian rootfs: %w", err)
	}
	tar, err := assembleDebianContext(ctx, work, log)
	if err != nil {
		os.RemoveAll(work) // a later build starts afresh
		return "", err
	}
	c.work, c.tar, c.by = work, tar, by
	return tar, nil
}

// close removes the build context.
func (c *debianContext) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.work != "" {
		os.RemoveAll(c.work)
		c.work, c.tar = "", ""
	}
}

// assembleDebianContext assembles a Python root filesystem from the host's
// Debian packages in work and writes there the build context of an image
// FROM scratch on it; it returns the context's path.
func assembleDebianContext(ctx context.Context, work string, log io.Writer) (string, error) {
	rfs, err := assembleDebianRootfs(ctx, work, log)
	if err != nil {
		return "", fmt.Errorf("debian rootfs: %w", err)
	}

	rootTar := filepath.Join(work, "rootfs.tar")
	if err := writeFileFunc(rootTar, func(w io.Writer) error { return writeRootfsTar(ctx, w, rfs.Dir) }); err != nil {
		return "", fmt.Errorf("debian rootfs: %w", err)
	}
	if err := os.RemoveAll(rfs.Dir); err != nil {
		return "", fmt.Errorf("debian rootfs: %w", err)
	}
	rf, err := os.Open(rootTar)
	if err != nil {
		return "", fmt.Errorf("debian rootfs: %w", err)
	}
	defer rf.Close()
	st, err := rf.Stat()
	if err != nil {
		return "", fmt.Errorf("debian rootfs: %w", err)
	}
	fmt.Fprintf(log, "sandbox: root filesystem is %.1f MB uncompressed\n", float64(st.Size())/1e6)

	files := append(baseContextFiles(dockerfile("scratch", rfs.Python)),
		contextFile{name: "rootfs.tar", mode: 0o644, size: st.Size(), body: rf})
	ctxTar := filepath.Join(work, "context.tar")
	if err := writeFileFunc(ctxTar, func(w io.Writer) error { return writeBuildContext(w, files) }); err != nil {
		return "", err
	}
	rf.Close()
	if err := os.Remove(rootTar); err != nil {
		return "", fmt.Errorf("build context: %w", err)
	}
	return ctxTar, nil
}

// maxEngineMessage bounds one message of an engine's progress stream (a
// build's or a pull's): one longer is refused before it is held.
const maxEngineMessage = 1 << 20

// engineMessages reads the JSON messages of an engine's progress stream
// from r. The engine writes each on a line of its own; a line of more than
// maxEngineMessage bytes ends the stream with an error.
func engineMessages(r io.Reader) iter.Seq2[jsonstream.Message, error] {
	return func(yield func(jsonstream.Message, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), maxEngineMessage)
		for sc.Scan() {
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			for {
				var msg jsonstream.Message
				if err := dec.Decode(&msg); err == io.EOF {
					break
				} else if err != nil {
					yield(msg, fmt.Errorf("reading engine output: %w", err))
					return
				}
				if !yield(msg, nil) {
					return
				}
			}
		}
		if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
			yield(jsonstream.Message{}, fmt.Errorf("reading engine output: a message over %d bytes", maxEngineMessage))
		} else if err != nil {
			yield(jsonstream.Message{}, fmt.Errorf("reading engine output: %w", err))
		}
	}
}

// printMessage writes one build or pull progress message to log, skipping
// progress-bar updates, and returns the error the message carries, if any.
func printMessage(log io.Writer, msg jsonstream.Message) error {
	if msg.Error != nil {
		return msg.Error
	}
	switch {
	case msg.Stream != "":
		io.WriteString(log, msg.Stream)
	case msg.Progress != nil && (msg.Progress.Current > 0 || msg.Progress.Total > 0):
	case msg.Status != "" && msg.ID != "":
		fmt.Fprintf(log, "%s: %s\n", msg.ID, msg.Status)
	case msg.Status != "":
		fmt.Fprintln(log, msg.Status)
	}
	return nil
}

// writeFileFunc creates path and fills it through a buffered writer.
func writeFileFunc(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := fill(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// build sends the tar build context to the engine's classic builder and
// returns the ID of the image tagged tag.
func (e *Engine) build(ctx context.Context, tag string, buildCtx io.Reader, log io.Writer) (string, error) {
	res, err := e.cli.ImageBuild(ctx, buildCtx, client.ImageBuildOptions{
		Tags:        []string{tag},
		Dockerfile:  "Dockerfile",
		Remove:      true, // false would send rm=0 and keep intermediate containers
		ForceRemove: true,
		Version:     build.BuilderV1, // BuildKit needs a session; the classic builder takes a plain tar
		Labels: map[string]string{
			LabelApp:          AppName,
			LabelRole:         "image",
			LabelRunnerDigest: runner.Digest(),
		},
	})
	if err != nil {
		return "", fmt.Errorf("image build: %w", err)
	}
	defer res.Body.Close()
	// A failed step arrives inside the HTTP 200 stream, as a message with
	// errorDetail; the image ID arrives as an aux message.
	var id string
	for msg, err := range engineMessages(res.Body) {
		if err != nil {
			return "", fmt.Errorf("image build: %w", err)
		}
		if msg.Aux != nil {
			var r build.Result
			if json.Unmarshal(*msg.Aux, &r) == nil && r.ID != "" {
				id = r.ID
			}
			continue
		}
		if err := printMessage(log, msg); err != nil {
			return "", fmt.Errorf("image build: %w", err)
		}
	}
	if id == "" {
		img, err := e.cli.ImageInspect(ctx, tag)
		if err != nil {
			return "", fmt.Errorf("image build: inspect %s: %w", tag, err)
		}
		id = img.ID
	}
	if id == "" {
		return "", errors.New("image build: engine reported no image ID")
	}
	return id, nil
}
