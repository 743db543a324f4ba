package clitest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// StdioServe starts `mcp-code-mode args...` as an MCP server over stdio,
// driven by mcp-go's client, initialized; it returns the client, the
// process and its stderr. The test's cleanup closes the client, kills the
// process group if it is still alive and checks for leftover sandboxes.
func (f *Fixture) StdioServe(t testing.TB, args ...string) (*client.Client, *exec.Cmd, *testenv.Buffer) {
	t.Helper()
	stderr := &testenv.Buffer{}
	var cmd *exec.Cmd
	if len(args) > 0 && args[0] == "serve" {
		// serve says why it stops (see CloseServe).
		args = append([]string{"serve", "--log-level=info"}, args[1:]...)
	}
	tr := transport.NewStdioWithOptions(binPath, nil, args,
		transport.WithCommandFunc(func(ctx context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
			cmd = exec.CommandContext(ctx, command, args...)
			cmd.Env = f.Env
			cmd.Dir = f.Dir
			cmd.Stderr = stderr
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			return cmd, nil
		}))
	c := client.NewClient(tr)
	// The ctx given to Start is the lifetime of the process.
	life, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		_ = c.Close()
		cancel()
		if cmd != nil && cmd.Process != nil {
			if cmd.ProcessState == nil { // Close reaps it; only a stuck one is left
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			}
			ExpectNoContainers(t, cmd.Process.Pid)
		}
		if t.Failed() {
			t.Logf("serve stderr:\n%s", stderr.String())
		}
	})
	if err := c.Start(life); err != nil {
		t.Fatalf("start %v: %v", args, err)
	}
	Initialize(t, c)
	return c, cmd, stderr
}

func Initialize(t testing.TB, c *client.Client) *mcp.InitializeResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "cli-test", Version: "0"}
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	info, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if info.ServerInfo.Name != "mcp-code-mode" {
		t.Errorf("server name %q, want mcp-code-mode", info.ServerInfo.Name)
	}
	return info
}

// OnlyRunPython lists the tools and checks there is exactly run_python.
func OnlyRunPython(t testing.TB, c *client.Client) mcp.Tool {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "run_python" {
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		t.Fatalf("tools %v, want exactly [run_python]", names)
	}
	return res.Tools[0]
}

// RunResult is run_python's answer.
type RunResult struct {
	IsError    bool
	Text       string
	Structured struct {
		Stdout    string   `json:"stdout"`
		Error     *string  `json:"error"`
		Truncated bool     `json:"truncated"`
		Stopped   bool     `json:"stopped"`
		ExitCode  *int     `json:"exit_code"`
		Calls     int      `json:"calls"`
		Servers   []string `json:"servers"`
		Duration  *int64   `json:"duration_ms"`
	}
}

// RunPython calls run_python with args.
func RunPython(t testing.TB, c *client.Client, args map[string]any) RunResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Arguments = args
	return CallRunPython(t, c, req)
}

// CallRunPython sends req, a tools/call of run_python (its name is set
// here), for a test that sets more than the arguments: its _meta, or the
// HTTP headers of the request that carries it.
func CallRunPython(t testing.TB, c *client.Client, req mcp.CallToolRequest) RunResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	req.Params.Name = "run_python"
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("tools/call run_python: %v", err)
	}
	var out RunResult
	out.IsError = res.IsError
	for _, content := range res.Content {
		if tc, ok := mcp.AsTextContent(content); ok {
			out.Text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &out.Structured); err != nil {
			t.Fatalf("structuredContent %s: %v", raw, err)
		}
		if out.Structured.Duration == nil || out.Structured.ExitCode == nil {
			t.Errorf("structuredContent lacks duration_ms or exit_code: %s", raw)
		}
	} else if !strings.Contains(out.Text, "code is required") {
		t.Errorf("run_python gave no structuredContent (text %q)", out.Text)
	}
	t.Logf("run_python -> isError=%v text=%q", out.IsError, Clip(out.Text, 400))
	return out
}

// CloseServe closes a stdio client and checks that serve ended by itself
// on EOF (mcp-go's Close signals the process if it has not exited 2s after
// stdin closed; serve says at level info why it stopped, which StdioServe
// turns on).
func CloseServe(t testing.TB, c *client.Client, cmd *exec.Cmd, stderr *testenv.Buffer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Errorf("close: %v (serve did not exit cleanly)", err)
	}
	// aggregator.StdinClosed (not imported: aggregator's tests import this package).
	if !strings.Contains(stderr.String(), "the client closed the connection (end of stdin)") {
		t.Errorf("serve did not stop by itself when stdin closed (it was signalled); stderr:\n%s", stderr.String())
	}
	if st := cmd.ProcessState; st == nil || !st.Success() {
		t.Errorf("serve ended with %v, want exit status 0", st)
	}
}

// HTTPServe starts `serve --http ADDR` and waits until it listens.
func (f *Fixture) HTTPServe(t testing.TB, env []string, args ...string) (*Proc, string) {
	t.Helper()
	port := strconv.Itoa(testenv.FreePort(t))
	addr := ""
	for i, a := range args {
		if a == "--http" {
			args[i+1] = strings.ReplaceAll(args[i+1], "PORT", port)
			addr = args[i+1]
		}
	}
	p := f.Start(t, nil, env, args...)
	p.WaitStderr(t, "serving streamable HTTP", 15*time.Second)
	_, gotPort, _ := net.SplitHostPort(addr)
	return p, "http://127.0.0.1:" + gotPort + "/mcp"
}

func HTTPClient(t testing.TB, url string, headers map[string]string) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(headers), transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	return c
}

// RemoteTestServer starts the test server with mode ("-http" or "-sse"),
// and args (say, "-log", FILE), listening on a free loopback port, and
// returns its URL. The test's cleanup kills it.
func RemoteTestServer(t testing.TB, mode string, args ...string) string {
	t.Helper()
	cmd := exec.Command(serverBin, append(append([]string{}, args...), mode, "127.0.0.1:0")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if i := strings.Index(sc.Text(), "http://"); i >= 0 {
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return strings.TrimSpace(sc.Text()[i:])
		}
	}
	t.Fatal("the test server did not say where it listens")
	return ""
}
