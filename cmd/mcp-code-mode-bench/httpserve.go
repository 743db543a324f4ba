package main

// A `serve --http` subprocess on loopback, its MCP clients over streamable
// HTTP (each its own session), and what its debug endpoints tell
// (--debug-addr: goroutines, the warm pool, a CPU profile).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// httpServe is `serve --http 127.0.0.1:0 --no-auth --debug-addr 127.0.0.1:0`.
type httpServe struct {
	name   string
	cmd    *exec.Cmd
	url    string // the MCP endpoint
	debug  string // http://127.0.0.1:PORT
	stderr tail
	bench  *bench
	closed sync.Once
	exit   chan error
}

var (
	servingRE = regexp.MustCompile(`serving streamable HTTP at (http://\S+/mcp)`)
	debugRE   = regexp.MustCompile(`debug endpoints at (http://[^/\s]+)/debug/`)
)

// startHTTPServe starts serve --http over config with extra environment,
// and waits until it listens.
func (b *bench) startHTTPServe(ctx context.Context, name, config string, env ...string) (*httpServe, error) {
	args := append(b.serveArgs(config), "--http", "127.0.0.1:0", "--no-auth", "--debug-addr", "127.0.0.1:0")
	cmd := exec.Command(b.cli, args...)
	cmd.Env = cleanEnv(env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s := &httpServe{name: name, cmd: cmd, bench: b, exit: make(chan error, 1)}
	pr, pw := io.Pipe()
	cmd.Stderr = io.MultiWriter(&s.stderr, pw)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	b.cl.add(s.Close)
	go func() { s.exit <- cmd.Wait(); pw.Close() }()
	found := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := debugRE.FindStringSubmatch(sc.Text()); m != nil {
				s.debug = m[1]
			}
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				s.url = m[1]
				close(found)
				break
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	select {
	case <-found:
		if s.debug == "" {
			return nil, fmt.Errorf("%s printed no debug address:\n%s", name, s.stderr.String())
		}
		return s, nil
	case <-time.After(30 * time.Second):
	case <-ctx.Done():
	}
	s.Close()
	return nil, fmt.Errorf("%s did not start listening:\n%s", name, s.stderr.String())
}

func (s *httpServe) pid() int { return s.cmd.Process.Pid }

// owner is the owner label serve puts on its containers.
func (s *httpServe) owner() string {
	host, _ := os.Hostname()
	return host + "/" + strconv.Itoa(s.pid())
}

// stop sends SIGTERM and waits for serve to exit; it reports how it ended.
func (s *httpServe) stop(within time.Duration) error {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.exit:
		s.exit <- err
		return err
	case <-time.After(within):
		return fmt.Errorf("%s did not exit within %v of SIGTERM", s.name, within)
	}
}

// Close stops serve (SIGTERM, then SIGKILL to its group) and removes
// containers labelled with its owner.
func (s *httpServe) Close() {
	s.closed.Do(func() {
		desc := descendants(s.pid())
		if s.stop(10*time.Second) != nil {
			_ = syscall.Kill(-s.pid(), syscall.SIGKILL)
		}
		killAll(desc)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if n, err := removeContainers(ctx, s.bench.docker, sandbox.LabelOwner+"="+s.owner()); err != nil {
			fmt.Fprintf(os.Stderr, "bench: removing containers of %s: %v\n", s.name, err)
		} else if n > 0 {
			fmt.Fprintf(os.Stderr, "bench: removed %d container(s) %s left behind\n", n, s.name)
		}
	})
}

// client opens an MCP session with serve over streamable HTTP.
func (s *httpServe) client(ctx context.Context) (*client.Client, error) {
	c, err := client.NewStreamableHttpClient(s.url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	ictx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "mcp-code-mode-bench", Version: "0.1.0"}
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(ictx, req); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("initialize over HTTP: %w", err)
	}
	return c, nil
}

// get fetches path from the debug endpoints, up to 16 MiB.
func (s *httpServe) get(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.debug+path, nil)
	if err != nil {
		return nil, err
	}
	req.Close = true // no idle connection left to count among serve's descriptors
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", path, res.Status)
	}
	return body, err
}

// goroutines is serve's goroutine count.
func (s *httpServe) goroutines(ctx context.Context) (int, error) {
	body, err := s.get(ctx, "/debug/pprof/goroutine?debug=1")
	if err != nil {
		return 0, err
	}
	first, _, _ := strings.Cut(string(body), "\n")
	n, err := strconv.Atoi(strings.TrimPrefix(first, "goroutine profile: total "))
	if err != nil {
		return 0, fmt.Errorf("goroutine profile begins %q", first)
	}
	return n, nil
}

// pool is the warm pool's state.
func (s *httpServe) pool(ctx context.Context) (sandbox.PoolStats, error) {
	var st sandbox.PoolStats
	body, err := s.get(ctx, "/debug/pool")
	if err == nil {
		err = json.Unmarshal(body, &st)
	}
	return st, err
}

// fds counts serve's open file descriptors.
func (s *httpServe) fds() (int, error) {
	ents, err := os.ReadDir("/proc/" + strconv.Itoa(s.pid()) + "/fd")
	return len(ents), err
}
