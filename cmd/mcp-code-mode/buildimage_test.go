package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// build-image builds on every configured engine and prints a line for each:
// with --if-stale, the engine that has the image is up to date, a second
// dockerd that lacks it gets it built (its progress on stderr led by its
// address), and an engine that is down is reported failed by name without
// stopping the others; the exit status says one failed. Run again, every
// engine is up to date, and a symlink to the second's socket is known for
// the same engine and not built on twice.
func TestBuildImageBuildsOnEveryEngine(t *testing.T) {
	e1 := clitest.NeedEngine(t) // holds the current image
	d2 := testenv.StartDockerd(t, testenv.DockerdOptions{})
	down := "unix://" + filepath.Join(t.TempDir(), "down.sock")
	f := clitest.NewFixture(t, "")
	image := sandbox.DefaultImage()

	buildImage := func(engines ...string) (clitest.Result, map[string]string) {
		t.Helper()
		var quoted []string
		for _, e := range engines {
			quoted = append(quoted, fmt.Sprintf("%q", e))
		}
		f.Write(t, f.Config, "engines = ["+strings.Join(quoted, ", ")+"]\n")
		p := f.Start(t, nil, nil, "build-image", "--config", f.Config, "--if-stale")
		code := p.Wait(t, 2*time.Minute)
		r := clitest.Result{Stdout: p.Stdout.String(), Stderr: p.Stderr.String(), Code: code}
		t.Logf("build-image -> %d\nstdout:\n%s\nstderr: %s", code, r.Stdout, clitest.Clip(r.Stderr, 2000))
		lines := map[string]string{}
		for l := range strings.SplitSeq(strings.TrimSpace(r.Stdout), "\n") {
			host, rest, _ := strings.Cut(l, ": ")
			lines[host] = rest
		}
		if len(lines) != len(engines) {
			t.Fatalf("%d report lines for %d engines:\n%s", len(lines), len(engines), r.Stdout)
		}
		return r, lines
	}

	r, lines := buildImage(e1.Host(), d2.Host, down)
	if r.Code != 1 {
		t.Errorf("exit status %d with an engine down, want 1", r.Code)
	}
	if want := image + " is up to date"; lines[e1.Host()] != want {
		t.Errorf("the engine with the image: %q, want %q", lines[e1.Host()], want)
	}
	if want := "built " + image + " ("; !strings.HasPrefix(lines[d2.Host], want) {
		t.Errorf("the second engine: %q, want %q...", lines[d2.Host], want)
	}
	if got := lines[down]; !strings.HasPrefix(got, "failed: ") || !strings.Contains(got, down) || !strings.Contains(got, "no such file or directory") {
		t.Errorf("the engine that is down: %q, want failed, naming it and why", got)
	}
	if !strings.Contains("\n"+r.Stderr, "\n["+d2.Host+"] ") || !strings.Contains(r.Stderr, "build-image: failed on 1 of 3 engines") {
		t.Errorf("stderr has no progress led by %s, or no summary of the failure", d2.Host)
	}
	e2, err := sandbox.Dial(t.Context(), d2.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if d, err := e2.ImageRunnerDigest(t.Context(), image); err != nil || d != runner.Digest() {
		t.Fatalf("the second engine's %s holds runner %q (%v), want %q", image, d, err, runner.Digest())
	}

	link := filepath.Join(t.TempDir(), "docker.sock")
	if err := os.Symlink(strings.TrimPrefix(d2.Host, "unix://"), link); err != nil {
		t.Fatal(err)
	}
	r, lines = buildImage(e1.Host(), d2.Host, "unix://"+link)
	if r.Code != 0 {
		t.Errorf("exit status %d with every engine up to date, want 0", r.Code)
	}
	for _, host := range []string{e1.Host(), d2.Host} {
		if want := image + " is up to date"; lines[host] != want {
			t.Errorf("%s: %q, want %q", host, lines[host], want)
		}
	}
	if want := "the same engine as " + d2.Host + ", not built twice"; lines["unix://"+link] != want {
		t.Errorf("the symlink to the second engine's socket: %q, want %q", lines["unix://"+link], want)
	}
}
