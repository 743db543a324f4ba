package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// isolationClients is how many HTTP clients, each its own MCP session, the
// isolation phase runs at once.
const isolationClients = 8

// targetSessionRate is the runs per second isolation = "session" must reach
// with isolationClients clients.
const targetSessionRate = 20.0

// isolationRow is one isolation mode's throughput.
type isolationRow struct {
	Mode    string
	Runs    int           // runs that succeeded in the measured window
	Failed  int           // runs that failed in it
	Elapsed time.Duration // the measured window
}

// Rate is the successful runs per second.
func (r isolationRow) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Runs) / r.Elapsed.Seconds()
}

// phaseIsolation measures throughput with isolation = "run" (the default)
// and isolation = "session", one after the other: one serve --http each,
// isolationClients streamable-HTTP clients, each its own session, sending
// `print(1)` back to back for b.o.isolationTime.
func (b *bench) phaseIsolation(ctx context.Context) error {
	for _, mode := range []string{"run", "session"} {
		row, err := b.isolationRun(ctx, mode)
		if err != nil {
			return fmt.Errorf("isolation = %q: %w", mode, err)
		}
		b.rep.isolation = append(b.rep.isolation, row)
	}
	return nil
}

func (b *bench) isolationRun(ctx context.Context, mode string) (isolationRow, error) {
	row := isolationRow{Mode: mode}
	cfg, err := b.writeConfig("isolation-"+mode+".toml",
		fmt.Sprintf("isolation = %q\n", mode)+serveConfig(filepath.Join(b.tmp, "catalog-isolation"), nil, nil))
	if err != nil {
		return row, err
	}
	addr, err := freeLoopback()
	if err != nil {
		return row, err
	}
	var stderr tail
	cmd := exec.Command(b.cli, append(b.serveArgs(cfg), "--http", addr, "--no-auth")...)
	cmd.Env = cleanEnv()
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return row, err
	}
	owner := ""
	stop := sync.OnceFunc(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = removeContainers(rctx, b.docker, sandbox.LabelOwner+"="+owner)
	})
	host, _ := os.Hostname()
	owner = host + "/" + strconv.Itoa(cmd.Process.Pid)
	b.cl.add(stop)
	defer stop()

	url := "http://" + addr + "/mcp"
	clients := make([]*client.Client, isolationClients)
	for i := range clients {
		c, err := connectHTTP(ctx, url)
		if err != nil {
			return row, fmt.Errorf("client %d: %w\n%s", i, err, stderr.String())
		}
		defer c.Close()
		clients[i] = c
		// One run first: the session's container (or the pool) is warm.
		if err := runPrint1(ctx, c); err != nil {
			return row, fmt.Errorf("client %d: %w\n%s", i, err, stderr.String())
		}
	}
	var ok, failed atomic.Int64
	var firstErr error
	var errOnce sync.Once
	wctx, cancel := context.WithTimeout(ctx, b.o.isolationTime)
	defer cancel()
	began := time.Now()
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Go(func() {
			for wctx.Err() == nil {
				err := runPrint1(wctx, c)
				switch {
				case err == nil:
					ok.Add(1)
				case wctx.Err() != nil: // cut off by the window's end
				default:
					failed.Add(1)
					errOnce.Do(func() { firstErr = err })
				}
			}
		})
	}
	wg.Wait()
	row.Elapsed = time.Since(began)
	row.Runs, row.Failed = int(ok.Load()), int(failed.Load())
	if ctx.Err() != nil {
		return row, ctx.Err()
	}
	if firstErr != nil {
		b.rep.note(fmt.Sprintf("isolation = %q: %d runs failed; the first: %v", mode, row.Failed, firstErr))
	}
	return row, nil
}

// connectHTTP starts an MCP session over streamable HTTP at url, retrying
// while the server comes up.
func connectHTTP(ctx context.Context, url string) (*client.Client, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := client.NewStreamableHttpClient(url)
		if err != nil {
			return nil, err
		}
		if err = c.Start(ctx); err == nil {
			req := mcp.InitializeRequest{}
			req.Params.ClientInfo = mcp.Implementation{Name: "mcp-code-mode-bench", Version: "0.1.0"}
			req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION // one with sessions
			ictx, cancel := context.WithTimeout(ctx, 30*time.Second)
			_, err = c.Initialize(ictx, req)
			cancel()
			if err == nil {
				return c, nil
			}
		}
		_ = c.Close()
		if time.Now().After(deadline) {
			return nil, err
		}
		if err := sleepCtx(ctx, 100*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// runPrint1 runs `print(1)` and checks that it printed 1.
func runPrint1(ctx context.Context, c *client.Client) error {
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_python"
	req.Params.Arguments = map[string]any{"code": trivialProgram}
	out, err := c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	var res runResult
	if err := json.Unmarshal(out.RawStructuredContent, &res); err != nil {
		return fmt.Errorf("run_python result: %w", err)
	}
	if res.Error != nil {
		return errors.New(*res.Error)
	}
	if res.Stdout != "1\n" {
		return fmt.Errorf("printed %q", res.Stdout)
	}
	return nil
}

// freeLoopback returns a loopback address with a port free now.
func freeLoopback() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}
