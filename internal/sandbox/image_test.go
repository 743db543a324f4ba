package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// testImage returns the tag the tests build: it carries the runner's digest,
// like DefaultImage, so tests of different runners on one engine do not
// replace each other's image. DefaultImage is only built (once) when
// missing, for the tests of other packages.
func testImage() string { return DefaultImage() + "-test" }

func TestImageDockerfile(t *testing.T) {
	ep, _ := json.Marshal(entrypoint())
	common := []string{
		"ENV PATH=/usr/local/bin:/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1\n",
		"COPY runner.py " + runner.ScriptPath + "\n",
		"USER 65534:65534\n",
		"WORKDIR /tmp\n",
		"ENTRYPOINT " + string(ep) + "\n",
	}
	base := dockerfile(DefaultBase, "")
	if !strings.HasPrefix(base, "FROM "+DefaultBase+"\n") || strings.Contains(base, "ADD") || strings.Contains(base, "RUN") {
		t.Errorf("base Dockerfile:\n%s", base)
	}
	deb := dockerfile("scratch", "3.11")
	if !strings.HasPrefix(deb, "FROM scratch\nADD rootfs.tar /\n") || !strings.Contains(deb, `RUN ["python3","-I","-S","-c","import compileall`) ||
		!strings.Contains(deb, `/usr/lib/python3.11`) {
		t.Errorf("debian Dockerfile:\n%s", deb)
	}
	for _, df := range []string{base, deb} {
		for _, line := range common {
			if !strings.Contains(df, line) {
				t.Errorf("Dockerfile lacks %q:\n%s", line, df)
			}
		}
	}
}

func TestImageBuildContext(t *testing.T) {
	var buf bytes.Buffer
	if err := writeBuildContext(&buf, baseContextFiles("FROM x\n")); err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(&buf)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		body, _ := io.ReadAll(tr)
		if h.Name == "runner.py" && (h.Mode != 0o444 || !bytes.Equal(body, runner.Script)) {
			t.Errorf("runner.py: mode %o, %d bytes", h.Mode, len(body))
		}
	}
	if !slices.Equal(names, []string{"Dockerfile", "runner.py"}) {
		t.Errorf("context holds %q", names)
	}
}

// testEngine connects to the engine, skipping the test when none is
// reachable (failing instead when CI=true).
func testEngine(t testing.TB) *Engine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := New(ctx)
	if err != nil {
		testenv.SkipOrFail(t, "no Docker engine reachable: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestImagePullFailsFast(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine; skipped in -short mode")
	}
	e := testEngine(t)
	start := time.Now()
	var log bytes.Buffer
	err := e.ensureImage(context.Background(), "mcp-code-mode-test/does-not-exist:never", autoPullStall, &log)
	if err == nil {
		t.Fatal("pulling a nonexistent image succeeded")
	}
	if d := time.Since(start); d > autoPullStall+5*time.Second {
		t.Errorf("pull gave up after %s", d)
	}
	t.Logf("pull failed after %s: %v", time.Since(start).Round(time.Millisecond), err)
}

// TestImageBuildErrorSurfaces checks that a failing step, which the engine
// reports inside an HTTP 200 stream, comes back as an error. The step fails
// first, so no intermediate image is left behind.
func TestImageBuildErrorSurfaces(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine; skipped in -short mode")
	}
	e := testEngine(t)
	var buf bytes.Buffer
	if err := writeBuildContext(&buf, baseContextFiles("FROM scratch\nRUN [\"/no/such/program\"]\n")); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	_, err := e.build(context.Background(), DefaultImage()+"-test-broken", &buf, &log)
	if err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("failing RUN: err = %v\nlog:\n%s", err, log.String())
	}
	t.Logf("failing RUN reported: %v", err)
}

// An engine's progress stream is read a bounded message at a time: one
// that never ends is refused once it passes maxEngineMessage, not held,
// and the messages of a build that is merely long are all read.
func TestABuildStreamIsReadWithABound(t *testing.T) {
	build := func(body func(w http.ResponseWriter, r *http.Request)) *Engine {
		return fakeEngine(t, func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, "/build") {
				http.Error(w, "unexpected "+r.URL.Path, http.StatusBadRequest)
				return
			}
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			body(w, r)
		})
	}
	var sent atomic.Int64
	endless := build(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"stream":"`)
		chunk := strings.Repeat("a", 64<<10)
		for r.Context().Err() == nil && sent.Load() < 1<<30 {
			n, err := io.WriteString(w, chunk)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	_, err := endless.build(t.Context(), "t:endless", strings.NewReader(""), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "a message over 1048576 bytes") {
		t.Errorf("a message that never ends: err = %v", err)
	}
	if n := sent.Load(); n >= 1<<30 {
		t.Errorf("the client read all %d bytes the engine sent", n)
	}

	// Many messages, each on its own line (the last without a newline),
	// together far over the bound, and the image ID.
	var log bytes.Buffer
	long := build(func(w http.ResponseWriter, _ *http.Request) {
		line := strings.Repeat("b", 1000)
		for i := range 3000 {
			fmt.Fprintf(w, "{\"stream\":\"step %d %s\\n\"}\r\n", i, line)
		}
		io.WriteString(w, `{"aux":{"ID":"sha256:0123"}}`)
	})
	id, err := long.build(t.Context(), "t:long", strings.NewReader(""), &log)
	if err != nil || id != "sha256:0123" || !strings.Contains(log.String(), "step 2999 b") {
		t.Errorf("a long build: id %q, err %v, %d bytes logged", id, err, log.Len())
	}
}

// fakeEngine is an Engine talking to handler instead of a real engine.
func fakeEngine(t *testing.T, handler http.HandlerFunc) *Engine {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	cli, err := client.New(client.WithHost("tcp://"+srv.Listener.Addr().String()), client.WithAPIVersion("1.41"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return &Engine{cli: cli}
}

// TestImagePullWatchdog checks that a pull is abandoned when the engine goes
// quiet for the stall time, but not while it keeps reporting progress.
func TestImagePullWatchdog(t *testing.T) {
	const stall = 300 * time.Millisecond
	pull := func(w http.ResponseWriter, r *http.Request) bool {
		switch {
		case strings.HasSuffix(r.URL.Path, "/json"): // image inspect
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"No such image"}`)
			return false
		case strings.HasSuffix(r.URL.Path, "/images/create"):
			w.Header().Set("Content-Type", "application/json")
			return true
		}
		http.Error(w, "unexpected "+r.URL.Path, http.StatusBadRequest)
		return false
	}

	quiet := fakeEngine(t, func(w http.ResponseWriter, r *http.Request) {
		if pull(w, r) {
			<-r.Context().Done() // never answers
		}
	})
	start := time.Now()
	err := quiet.ensureImage(context.Background(), "some/image:1", stall, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no progress for 300ms") || time.Since(start) > 5*stall {
		t.Errorf("quiet engine: err = %v after %s", err, time.Since(start))
	}

	chatty := fakeEngine(t, func(w http.ResponseWriter, r *http.Request) {
		if !pull(w, r) {
			return
		}
		for i := range 6 { // 6 × stall/2: longer than stall in total
			fmt.Fprintf(w, "{\"status\":\"Downloading\",\"id\":\"layer%d\"}\n", i)
			w.(http.Flusher).Flush()
			time.Sleep(stall / 2)
		}
		io.WriteString(w, `{"status":"Status: Downloaded newer image for some/image:1"}`+"\n")
	})
	var log bytes.Buffer
	if err := chatty.ensureImage(context.Background(), "some/image:1", stall, &log); err != nil {
		t.Errorf("chatty engine: %v\nlog:\n%s", err, log.String())
	}

	failing := fakeEngine(t, func(w http.ResponseWriter, r *http.Request) {
		if pull(w, r) {
			io.WriteString(w, `{"errorDetail":{"message":"manifest unknown"},"error":"manifest unknown"}`+"\n")
		}
	})
	if err := failing.ensureImage(context.Background(), "some/image:1", stall, io.Discard); err == nil || !strings.Contains(err.Error(), "manifest unknown") {
		t.Errorf("error in the stream: err = %v", err)
	}
}

// runResult is what a test container printed.
type runResult struct {
	stdout, stderr string
	exit           int64
	elapsed        time.Duration
}

// runInImage runs entrypoint in a locked-down container from image (uid
// 65534, no network, read-only root), labelled with owner, and removes it.
func runInImage(ctx context.Context, t *testing.T, cli *client.Client, image, owner string, entrypoint []string) runResult {
	t.Helper()
	created, err := cli.ContainerCreate(ctx, client.ContainerCreateOptions{
		Config: &container.Config{
			Image:        image,
			Entrypoint:   entrypoint,
			User:         "65534:65534",
			Labels:       map[string]string{LabelApp: AppName, LabelRole: "test", LabelOwner: owner},
			AttachStdout: true,
			AttachStderr: true,
		},
		HostConfig: &container.HostConfig{
			NetworkMode:    "none",
			ReadonlyRootfs: true,
			CapDrop:        []string{"ALL"},
			SecurityOpt:    []string{"no-new-privileges"},
		},
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	defer func() {
		if _, err := cli.ContainerRemove(context.WithoutCancel(ctx), created.ID, client.ContainerRemoveOptions{Force: true}); err != nil {
			t.Errorf("remove container: %v", err)
		}
	}()
	att, err := cli.ContainerAttach(ctx, created.ID, client.ContainerAttachOptions{Stream: true, Stdout: true, Stderr: true})
	if err != nil {
		t.Fatalf("attach: %v", err)
	}
	defer att.Close()
	wait := cli.ContainerWait(ctx, created.ID, client.ContainerWaitOptions{Condition: container.WaitConditionNextExit})
	var stdout, stderr bytes.Buffer
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(&stdout, &stderr, att.Reader)
		copied <- err
	}()
	start := time.Now()
	if _, err := cli.ContainerStart(ctx, created.ID, client.ContainerStartOptions{}); err != nil {
		t.Fatalf("start: %v", err)
	}
	var res runResult
	select {
	case w := <-wait.Result:
		res.exit = w.StatusCode
		if w.Error != nil {
			t.Fatalf("wait: %s", w.Error.Message)
		}
	case err := <-wait.Error:
		t.Fatalf("wait: %v", err)
	}
	res.elapsed = time.Since(start)
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
		t.Error("attach stream did not end")
	}
	res.stdout, res.stderr = stdout.String(), stderr.String()
	return res
}

// imageCheck is what imageCheckScript prints.
type imageCheck struct {
	Version       []int    `json:"version"`
	UID           int      `json:"uid"`
	GID           int      `json:"gid"`
	Cwd           string   `json:"cwd"`
	Present       []string `json:"present"`
	RunnerMode    string   `json:"runner_mode"`
	RunnerUID     int      `json:"runner_uid"`
	RunnerSize    int      `json:"runner_size"`
	Site          bool     `json:"site"`
	Encoding      string   `json:"encoding"`
	WriteThrough  bool     `json:"write_through"`
	Cached        bool     `json:"cached"`
	AsyncioResult int      `json:"asyncio"`
	Unicode       string   `json:"unicode"`
}

const imageCheckScript = `
import asyncio, json, os, sys, traceback, types, inspect, socket, select, signal, ast, stat
st = os.stat("/opt/mcp-code-mode/runner.py")
async def main():
    await asyncio.sleep(0)
    return 42
print(json.dumps({
    "version": list(sys.version_info[:3]),
    "uid": os.getuid(), "gid": os.getgid(), "cwd": os.getcwd(),
    "present": [p for p in ("/bin/sh", "/usr/bin/sh", "/bin/bash", "/usr/bin/bash", "/bin/dash",
                            "/usr/bin/dash", "/usr/bin/perl", "/usr/bin/dpkg", "/usr/bin/apt")
                if os.path.lexists(p)],
    "runner_mode": oct(stat.S_IMODE(st.st_mode)), "runner_uid": st.st_uid, "runner_size": st.st_size,
    "site": "site" in sys.modules,
    "encoding": sys.stdout.encoding,
    "write_through": sys.stdout.write_through,
    "cached": bool(asyncio.__cached__) and os.path.exists(asyncio.__cached__),
    "asyncio": asyncio.run(main()),
    "unicode": "h\u00e9llo \u2713",
}))
`

func TestImageDebianBuildAndRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an image; skipped in -short mode")
	}
	e := testEngine(t)
	needApt(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	owner := fmt.Sprintf("sandbox-image-test-%d", os.Getpid())

	build := func(opts BuildOptions) (string, time.Duration) {
		t.Helper()
		var log bytes.Buffer
		opts.Log = &log
		start := time.Now()
		id, err := e.BuildImage(ctx, opts)
		d := time.Since(start)
		if err != nil {
			t.Fatalf("BuildImage(%+v): %v\nlog:\n%s", opts, err, log.String())
		}
		for _, line := range strings.Split(log.String(), "\n") {
			if strings.HasPrefix(line, "sandbox: ") || strings.HasPrefix(line, "Successfully") {
				t.Log(line)
			}
		}
		return id, d
	}

	id, first := build(BuildOptions{Tag: testImage(), Base: BaseDebian})
	t.Cleanup(func() {
		if _, err := e.cli.ImageRemove(context.Background(), testImage(), client.ImageRemoveOptions{PruneChildren: true}); err != nil {
			t.Errorf("remove %s: %v", testImage(), err)
		}
	})
	id2, second := build(BuildOptions{Tag: testImage(), Base: BaseDebian})
	t.Logf("build: first %s, again %s (layers cached)", first.Round(time.Millisecond), second.Round(time.Millisecond))
	if id2 != id {
		t.Errorf("rebuild from the same packages gave image %s, first %s: build cache not used", id2, id)
	}

	img, err := e.cli.ImageInspect(ctx, testImage())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("image %s: %.1f MB", img.ID, float64(img.Size)/1e6)
	if img.ID != id {
		t.Errorf("BuildImage returned %s, tag is on %s", id, img.ID)
	}
	cfg := img.Config
	if !slices.Equal(cfg.Entrypoint, entrypoint()) || cfg.User != "65534:65534" || cfg.WorkingDir != "/tmp" {
		t.Errorf("config: entrypoint %q user %q workdir %q", cfg.Entrypoint, cfg.User, cfg.WorkingDir)
	}
	if cfg.Labels[LabelApp] != AppName || cfg.Labels[LabelRole] != "image" {
		t.Errorf("labels: %v", cfg.Labels)
	}
	if d, err := e.ImageRunnerDigest(ctx, testImage()); err != nil || d != runner.Digest() {
		t.Errorf("ImageRunnerDigest = %q, %v; want %s", d, err, runner.Digest())
	}
	if ok, err := e.ImageExists(ctx, testImage()); !ok || err != nil {
		t.Errorf("ImageExists(%s) = %v, %v", testImage(), ok, err)
	}
	if ok, err := e.ImageExists(ctx, "mcp-code-mode-sandbox:no-such-tag"); ok || err != nil {
		t.Errorf("ImageExists(no-such-tag) = %v, %v", ok, err)
	}

	// The smoke test from the brief.
	r := runInImage(ctx, t, e.cli, testImage(), owner,
		[]string{"python3", "-c", "import asyncio,json,sys; print(sys.version_info >= (3,11))"})
	if r.exit != 0 || strings.TrimSpace(r.stdout) != "True" {
		t.Fatalf("python3 -c: exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}
	t.Logf("smoke container ran in %s", r.elapsed.Round(time.Millisecond))

	// The entrypoint's interpreter flags, with a check script for the runner.
	ep := entrypoint()
	r = runInImage(ctx, t, e.cli, testImage(), owner, append(ep[:len(ep)-1:len(ep)-1], "-c", imageCheckScript))
	if r.exit != 0 {
		t.Fatalf("check script: exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}
	var c imageCheck
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
		t.Fatalf("check script output %q: %v", r.stdout, err)
	}
	t.Logf("check container ran in %s: %+v", r.elapsed.Round(time.Millisecond), c)
	if len(c.Present) > 0 {
		t.Errorf("image holds %q", c.Present)
	}
	if c.UID != 65534 || c.GID != 65534 || c.Cwd != "/tmp" {
		t.Errorf("uid %d gid %d cwd %s", c.UID, c.GID, c.Cwd)
	}
	if c.RunnerMode != "0o444" || c.RunnerUID != 0 || c.RunnerSize != len(runner.Script) {
		t.Errorf("runner: mode %s uid %d size %d", c.RunnerMode, c.RunnerUID, c.RunnerSize)
	}
	if c.Site || !c.WriteThrough || c.Encoding != "utf-8" || c.AsyncioResult != 42 || c.Unicode != "h\u00e9llo \u2713" {
		t.Errorf("interpreter: %+v", c)
	}
	if !c.Cached {
		t.Error("stdlib bytecode not precompiled: every run recompiles asyncio")
	}

	// The base-image path (FROM <base> + COPY), on a local base: the image
	// just built stands in for python:3.13-slim, which cannot be pulled here.
	fakeBase, fromBase := DefaultImage()+"-test-base", DefaultImage()+"-test-frombase"
	if _, err := e.cli.ImageTag(ctx, client.ImageTagOptions{Source: testImage(), Target: fakeBase}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, ref := range []string{fromBase, fakeBase} {
			if _, err := e.cli.ImageRemove(context.Background(), ref, client.ImageRemoveOptions{PruneChildren: true}); err != nil {
				t.Errorf("remove %s: %v", ref, err)
			}
		}
	})
	_, d := build(BuildOptions{Tag: fromBase, Base: fakeBase})
	t.Logf("built FROM a local base in %s", d.Round(time.Millisecond))
	if dg, err := e.ImageRunnerDigest(ctx, fromBase); err != nil || dg != runner.Digest() {
		t.Errorf("ImageRunnerDigest(%s) = %q, %v", fromBase, dg, err)
	}
	r = runInImage(ctx, t, e.cli, fromBase, owner, []string{"python3", "-c", "import asyncio,json,sys; print(sys.version_info >= (3,11))"})
	if r.exit != 0 || strings.TrimSpace(r.stdout) != "True" {
		t.Errorf("FROM-base image: exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}

	// DefaultImage is what the rest of the project runs; build it if it is
	// missing or holds another runner, and leave it in place.
	if d, err := e.ImageRunnerDigest(ctx, DefaultImage()); err != nil || d != runner.Digest() {
		t.Logf("%s missing or stale (%q, %v): building it", DefaultImage(), d, err)
		id, d := build(BuildOptions{}) // automatic base: python:3.13-slim or Debian
		t.Logf("built %s as %s in %s", DefaultImage(), id, d.Round(time.Millisecond))
	}

	left, err := e.cli.ContainerList(ctx, client.ContainerListOptions{
		All:     true,
		Filters: make(client.Filters).Add("label", LabelApp+"="+AppName).Add("label", LabelOwner+"="+owner),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(left.Items) > 0 {
		t.Errorf("%d containers left behind", len(left.Items))
	}
}
