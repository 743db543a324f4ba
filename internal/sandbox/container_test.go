package sandbox

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
)

func TestOrphan(t *testing.T) {
	host, _ := os.Hostname()
	now := time.Now()
	tests := []struct {
		name    string
		owner   string
		created time.Time
		want    bool
	}{
		{"this process", Owner(), now, false},
		{"dead process on this host", host + "/999999999", now, true},
		{"malformed pid on this host", host + "/x", now, true},
		{"other host, recent", "elsewhere/1", now, false},
		{"other host, old", "elsewhere/1", now.Add(-48 * time.Hour), true},
		{"no owner, recent", "", now, false},
		{"this process, old", Owner(), now.Add(-48 * time.Hour), true},
	}
	for _, tt := range tests {
		if got := orphan(tt.owner, host, tt.created, 24*time.Hour); got != tt.want {
			t.Errorf("%s: orphan(%q) = %v, want %v", tt.name, tt.owner, got, tt.want)
		}
	}
}

// runEcho runs a container of the default image that echoes its input line.
func runEcho(ctx context.Context, t *testing.T, e *Engine) string {
	t.Helper()
	spec := DefaultSpec()
	spec.Entrypoint = []string{"python3", "-c", "import sys; print(sys.stdin.readline().strip().upper())"}
	c, err := e.Start(ctx, spec)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer c.Close()
	if _, err := io.WriteString(c.Input, "hello over the api\n"); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, c.Output) }()
	out, err := io.ReadAll(c.Protocol)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(out)
}

func TestStartAttachAndRemove(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e := testEngine(t)
	ctx := t.Context()
	if got := runEcho(ctx, t, e); got != "HELLO OVER THE API\n" {
		t.Fatalf("container said %q", got)
	}
	if ids, err := e.Containers(ctx, Owner()); err != nil || len(ids) != 0 {
		t.Fatalf("containers left: %v %v", ids, err)
	}
}

func TestSweepRemovesOrphansOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e := testEngine(t)
	ctx := t.Context()
	host, _ := os.Hostname()
	create := func(owner string) string {
		res, err := e.cli.ContainerCreate(ctx, client.ContainerCreateOptions{
			Config: &container.Config{
				Image: DefaultImage(), Entrypoint: []string{"python3", "-c", "pass"},
				Labels: map[string]string{LabelApp: AppName, LabelRole: "sandbox", LabelOwner: owner},
			},
			HostConfig: DefaultSpec().hostConfig(e.seccomp),
		})
		if err != nil {
			t.Fatalf("create: %v", err)
		}
		t.Cleanup(func() {
			_, _ = e.cli.ContainerRemove(context.Background(), res.ID, client.ContainerRemoveOptions{Force: true})
		})
		return res.ID
	}
	orphaned := create(host + "/999999999")
	mine := create(Owner())
	n, err := e.Sweep(ctx, 24*time.Hour)
	if err != nil || n < 1 {
		t.Fatalf("Sweep = %d, %v; want the orphan removed", n, err)
	}
	list, err := e.cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: make(client.Filters).Add("label", LabelApp+"="+AppName)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range list.Items {
		ids = append(ids, s.ID)
	}
	if slices.Contains(ids, orphaned) || !slices.Contains(ids, mine) {
		t.Fatalf("after sweep: orphan present=%v, live one present=%v", slices.Contains(ids, orphaned), slices.Contains(ids, mine))
	}
}

// TestARemoteEngineThroughDockerHost reaches the engine through a TCP proxy
// named by DOCKER_HOST, as a remote engine would be reached, attach streams
// included.
func TestARemoteEngineThroughDockerHost(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	local := testEngine(t)
	target := local.cli.DaemonHost()
	if !strings.HasPrefix(target, "unix://") {
		t.Skipf("engine at %s: this test proxies a unix socket", target)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var proxied sync.Map
	t.Cleanup(func() {
		ln.Close()
		proxied.Range(func(k, _ any) bool { k.(net.Conn).Close(); return true })
		wg.Wait()
	})
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("unix", strings.TrimPrefix(target, "unix://"))
			if err != nil {
				conn.Close()
				continue
			}
			proxied.Store(conn, true)
			proxied.Store(up, true)
			wg.Go(func() { _, _ = io.Copy(up, conn); _ = up.(*net.UnixConn).CloseWrite() })
			wg.Go(func() { _, _ = io.Copy(conn, up); _ = conn.(*net.TCPConn).CloseWrite() })
		}
	})
	t.Setenv("DOCKER_HOST", "tcp://"+ln.Addr().String())
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	e, err := New(ctx)
	if err != nil {
		t.Fatalf("New through DOCKER_HOST: %v", err)
	}
	defer e.Close()
	if got := e.cli.DaemonHost(); got != "tcp://"+ln.Addr().String() {
		t.Fatalf("client uses %s, not DOCKER_HOST", got)
	}
	if got := runEcho(ctx, t, e); got != "HELLO OVER THE API\n" {
		t.Fatalf("container said %q", got)
	}
}

// An engine too busy to create a container before the run ends: a proxy
// to the test engine holds each create request for a while, then passes it
// on whether or not its client is still waiting. The container the engine
// then creates, after the run's context ended, is not left behind: the
// create request is not cut short with the run, and the container is
// removed once it exists.
func TestACreateTheRunGaveUpOnLeavesNoContainer(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the engine")
	}
	e := testEngine(t)
	sock, ok := strings.CutPrefix(e.Host(), "unix://")
	if !ok {
		t.Skipf("the engine is at %s, not a unix socket to proxy", e.Host())
	}
	// The hold outlasts both the run and the few seconds a name was looked
	// for after an abandoned request.
	const hold = 7 * time.Second
	var creates sync.WaitGroup
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme, r.Out.URL.Host = "http", "engine"
		},
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		}},
	}
	proxySock := filepath.Join(t.TempDir(), "busy.sock")
	ln, err := net.Listen("unix", proxySock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/containers/create") {
			creates.Add(1)
			defer creates.Done()
			time.Sleep(hold)
			// Passed on even when the client is gone: neither the
			// request's context nor the writer (without CloseNotify) says
			// so to the proxy.
			rp.ServeHTTP(struct{ http.ResponseWriter }{w}, r.WithContext(context.WithoutCancel(r.Context())))
			return
		}
		rp.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	busy, err := Dial(t.Context(), "unix://"+proxySock)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	before, err := e.Containers(t.Context(), Owner())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	c, err := busy.Start(ctx, DefaultSpec())
	if err == nil {
		c.Close()
		t.Fatal("a start past its context's end succeeded")
	}
	t.Logf("the start: %v", err)
	creates.Wait()
	after, err := e.Containers(t.Context(), Owner())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range after {
		if !slices.Contains(before, id) {
			t.Errorf("container %.12s, which the busy engine created for the start, was left behind", id)
		}
	}
}
