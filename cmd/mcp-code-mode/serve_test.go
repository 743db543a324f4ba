package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// stdioServe starts `mcp-code-mode args...` as an MCP server over stdio,
// driven by mcp-go's client, initialized; it returns the client, the
// process and its stderr. The test's cleanup closes the client, kills the
// process group if it is still alive and checks for leftover sandboxes.
func (f *fixture) stdioServe(t *testing.T, args ...string) (*client.Client, *exec.Cmd, *buffer) {
	t.Helper()
	stderr := &buffer{}
	var cmd *exec.Cmd
	tr := transport.NewStdioWithOptions(binPath, nil, args,
		transport.WithCommandFunc(func(ctx context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
			cmd = exec.CommandContext(ctx, command, args...)
			cmd.Env = f.env
			cmd.Dir = f.dir
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
			expectNoContainers(t, cmd.Process.Pid)
		}
		if t.Failed() {
			t.Logf("serve stderr:\n%s", stderr.String())
		}
	})
	if err := c.Start(life); err != nil {
		t.Fatalf("start %v: %v", args, err)
	}
	initialize(t, c)
	return c, cmd, stderr
}

func initialize(t *testing.T, c *client.Client) {
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
}

// onlyRunPython lists the tools and checks there is exactly run_python.
func onlyRunPython(t *testing.T, c *client.Client) mcp.Tool {
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

// runResult is run_python's answer.
type runResult struct {
	isError    bool
	text       string
	structured struct {
		Stdout    string   `json:"stdout"`
		Error     *string  `json:"error"`
		Truncated bool     `json:"truncated"`
		Stopped   bool     `json:"stopped"`
		Calls     int      `json:"calls"`
		Servers   []string `json:"servers"`
		Duration  *int64   `json:"duration_ms"`
	}
}

// runPython calls run_python with args.
func runPython(t *testing.T, c *client.Client, args map[string]any) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_python"
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("tools/call run_python: %v", err)
	}
	var out runResult
	out.isError = res.IsError
	for _, content := range res.Content {
		if tc, ok := mcp.AsTextContent(content); ok {
			out.text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &out.structured); err != nil {
			t.Fatalf("structuredContent %s: %v", raw, err)
		}
		if out.structured.Duration == nil {
			t.Errorf("structuredContent lacks duration_ms: %s", raw)
		}
	} else if !strings.Contains(out.text, "code is required") {
		t.Errorf("run_python gave no structuredContent (text %q)", out.text)
	}
	t.Logf("run_python -> isError=%v text=%q", out.isError, clip(out.text, 400))
	return out
}

// closeServe closes a stdio client and checks that serve ended by itself
// on EOF: mcp-go's Close waits 2s for the process before it signals it,
// and returns once the process is reaped.
func closeServe(t *testing.T, c *client.Client, cmd *exec.Cmd) {
	t.Helper()
	began := time.Now()
	if err := c.Close(); err != nil {
		t.Errorf("close: %v (serve did not exit cleanly)", err)
	}
	if took := time.Since(began); took > 1900*time.Millisecond {
		t.Errorf("serve took %v to exit after stdin closed; the client had to signal it", took)
	}
	if st := cmd.ProcessState; st == nil || !st.Success() {
		t.Errorf("serve ended with %v, want exit status 0", st)
	}
}

func TestServeStdio(t *testing.T) {
	needDocker(t)
	f := newFixture(t, "")
	c, cmd, _ := f.stdioServe(t, "serve", "--config", f.config)

	tool := onlyRunPython(t, c)
	if !strings.Contains(tool.Description, "- test: mcp_test - test tools") {
		t.Errorf("description should list server test in one line:\n%s", tool.Description)
	}
	if len(tool.Description) > 3000 {
		t.Errorf("description is %d bytes; it should stay short", len(tool.Description))
	}
	if got := pgrep(f.server); len(got) != 0 {
		t.Errorf("test server started before any run needed it: %v", got)
	}

	res := runPython(t, c, map[string]any{"code": "print(await mcp_test.add(a=2, b=3))", "servers": []string{"test"}})
	if res.isError || res.structured.Stdout != "{'sum': 5}\n" || res.structured.Error != nil || res.structured.Calls != 1 {
		t.Errorf("add: isError=%v structured=%+v", res.isError, res.structured)
	}
	if len(res.structured.Servers) != 1 || res.structured.Servers[0] != "test" {
		t.Errorf("servers %v, want [test]", res.structured.Servers)
	}
	if !strings.Contains(res.text, "{'sum': 5}") {
		t.Errorf("text %q should carry stdout", res.text)
	}

	res = runPython(t, c, map[string]any{"code": "print('partial')\n1/0"})
	if !res.isError || !strings.Contains(res.text, "Error:") || !strings.Contains(res.text, "ZeroDivisionError") || !strings.Contains(res.text, "partial") {
		t.Errorf("failing program: isError=%v text=%q", res.isError, res.text)
	}
	if res.structured.Error == nil || res.structured.Stdout != "partial\n" {
		t.Errorf("failing program: structured %+v", res.structured)
	}

	res = runPython(t, c, map[string]any{"code": "print(1)", "servers": []string{"nope"}})
	if !res.isError || !strings.Contains(res.text, "nope") {
		t.Errorf("unknown server: isError=%v text=%q", res.isError, res.text)
	}
	res = runPython(t, c, map[string]any{"code": "import time\ntime.sleep(30)", "timeout": 1})
	if !res.isError || !res.structured.Stopped || !strings.Contains(res.text, "deadline") {
		t.Errorf("timeout 1: isError=%v stopped=%v text=%q", res.isError, res.structured.Stopped, res.text)
	}
	res = runPython(t, c, map[string]any{"servers": []string{"test"}})
	if !res.isError || !strings.Contains(res.text, "code") {
		t.Errorf("missing code: isError=%v text=%q", res.isError, res.text)
	}

	if len(pgrep(f.server)) == 0 {
		t.Errorf("the test server should still be running between runs")
	}
	// Closing the client ends serve, and serve ends the wrapped server.
	closeServe(t, c, cmd)
	f.expectNoServers(t)
}

func TestServeWrap(t *testing.T) {
	needDocker(t)
	code := `print(await mcp_NAME.add(a=2, b=3))
print(sorted(n for n in dir(mcp_NAME) if not n.startswith('_')))
try:
    await mcp_NAME.echo(message="hi")
except AttributeError:
    print("no echo attribute")
except ToolError as e:
    print("echo refused:", e)
try:
    await runtime.call_tool("SERVER", "echo", {"message": "hi"})
    print("call_tool echo: allowed")
except ToolError as e:
    print("call_tool echo refused:", e)
`
	cases := []struct {
		name   string
		flags  []string
		server string // expected server name
		module string
	}{
		{"base name", nil, "testserver", "mcp_testserver"},
		{"--name", []string{"--name", "wrapped-one"}, "wrapped-one", "mcp_wrapped_one"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "")
			args := append([]string{"serve", "--allow", "add"}, tc.flags...)
			args = append(args, "--", f.server, "-name", "wrapped", "-log", f.log)
			c, cmd, _ := f.stdioServe(t, args...)
			tool := onlyRunPython(t, c)
			if !strings.Contains(tool.Description, "- "+tc.server+": "+tc.module) {
				t.Errorf("description should list %s: %s:\n%s", tc.server, tc.module, tool.Description)
			}
			alias := strings.TrimPrefix(tc.module, "mcp_")
			src := strings.NewReplacer("NAME", alias, "SERVER", tc.server).Replace(code)
			res := runPython(t, c, map[string]any{"code": src, "servers": []string{tc.server}})
			if res.isError {
				t.Fatalf("run failed: %q", res.text)
			}
			want := []string{"{'sum': 5}", "['add']"}
			for _, w := range want {
				if !strings.Contains(res.structured.Stdout, w) {
					t.Errorf("stdout %q lacks %q", res.structured.Stdout, w)
				}
			}
			if !strings.Contains(res.structured.Stdout, "no echo attribute") && !strings.Contains(res.structured.Stdout, "echo refused") {
				t.Errorf("echo should not be in the module: %q", res.structured.Stdout)
			}
			if !strings.Contains(res.structured.Stdout, "call_tool echo refused") {
				t.Errorf("runtime.call_tool echo should raise ToolError: %q", res.structured.Stdout)
			}
			// The alias works as a server name too.
			res = runPython(t, c, map[string]any{"code": "print(await mcp_" + alias + ".add(a=1, b=1))", "servers": []string{alias}})
			if res.isError || res.structured.Stdout != "{'sum': 2}\n" {
				t.Errorf("servers [%s]: isError=%v %+v", alias, res.isError, res.structured)
			}
			if got := toolsCalled(serverCalls(t, f.log)); strings.Join(got, ",") != "add,add" {
				t.Errorf("wrapped server saw %v, want only the two add calls", got)
			}
			closeServe(t, c, cmd)
			f.expectNoServers(t)
		})
	}
}

// freePort returns a TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// httpServe starts `serve --http ADDR` and waits until it listens.
func (f *fixture) httpServe(t *testing.T, env []string, args ...string) (*proc, string) {
	t.Helper()
	port := strconv.Itoa(freePort(t))
	addr := ""
	for i, a := range args {
		if a == "--http" {
			args[i+1] = strings.ReplaceAll(args[i+1], "PORT", port)
			addr = args[i+1]
		}
	}
	p := f.start(t, nil, env, args...)
	p.waitStderr(t, "serving streamable HTTP", 15*time.Second)
	_, gotPort, _ := net.SplitHostPort(addr)
	return p, "http://127.0.0.1:" + gotPort + "/mcp"
}

func httpClient(t *testing.T, url string, headers map[string]string) *client.Client {
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

func TestServeHTTP(t *testing.T) {
	needDocker(t)
	f := newFixture(t, "")
	p, url := f.httpServe(t, nil, "serve", "--config", f.config, "--http", "127.0.0.1:PORT")
	c := httpClient(t, url, nil)
	initialize(t, c)
	onlyRunPython(t, c)
	res := runPython(t, c, map[string]any{"code": "print(await mcp_test.add(a=2, b=3))", "servers": []string{"test"}})
	if res.isError || res.structured.Stdout != "{'sum': 5}\n" {
		t.Errorf("add over HTTP: isError=%v %+v", res.isError, res.structured)
	}
	// A second client gets its own session on the same server.
	c2 := httpClient(t, url, nil)
	initialize(t, c2)
	res = runPython(t, c2, map[string]any{"code": "print(await mcp_test.counter())", "servers": []string{"test"}})
	if res.isError || res.structured.Stdout != "1\n" {
		t.Errorf("second client: isError=%v %+v", res.isError, res.structured)
	}
	_ = c.Close()
	_ = c2.Close()
	// SIGTERM ends serve cleanly, and with it the wrapped server.
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 8*time.Second); code != 0 {
		t.Errorf("serve --http exited %d after SIGTERM, want 0\nstderr: %s", code, p.stderr.String())
	}
	f.expectNoServers(t)
}

func TestServeHTTPToken(t *testing.T) {
	f := newFixture(t, "")
	t.Run("non-loopback without token refused", func(t *testing.T) {
		port := strconv.Itoa(freePort(t))
		r := f.run(t, "", nil, "serve", "--config", f.config, "--http", "0.0.0.0:"+port)
		if r.code != 1 || !strings.Contains(r.stderr, "token-env") {
			t.Errorf("exit %d stderr %q: want 1 and a message about --token-env", r.code, r.stderr)
		}
		r = f.run(t, "", nil, "serve", "--config", f.config, "--http", ":"+port)
		if r.code != 1 || !strings.Contains(r.stderr, "token-env") {
			t.Errorf("--http :PORT (all interfaces): exit %d stderr %q: want 1 and a message about --token-env", r.code, r.stderr)
		}
	})
	t.Run("token variable unset", func(t *testing.T) {
		port := strconv.Itoa(freePort(t))
		r := f.run(t, "", nil, "serve", "--config", f.config, "--http", "0.0.0.0:"+port, "--token-env", "MCM_TEST_TOKEN")
		if r.code != 1 || !strings.Contains(r.stderr, "MCM_TEST_TOKEN") {
			t.Errorf("exit %d stderr %q: want 1 and the variable named", r.code, r.stderr)
		}
	})
	t.Run("malformed --allow-origin refused", func(t *testing.T) {
		port := strconv.Itoa(freePort(t))
		for _, origin := range []string{"127.0.0.1:8080", "http://127.0.0.1:8080/app", "*"} {
			r := f.run(t, "", nil, "serve", "--config", f.config, "--http", "127.0.0.1:"+port, "--allow-origin", origin)
			if r.code != 1 || !strings.Contains(r.stderr, "--allow-origin") || !strings.Contains(r.stderr, origin) {
				t.Errorf("--allow-origin %q: exit %d stderr %q: want 1 and the flag and value named", origin, r.code, r.stderr)
			}
		}
	})
	t.Run("bearer token required", func(t *testing.T) {
		needDocker(t)
		const token = "s3cret-t0ken"
		_, url := f.httpServe(t, []string{"MCM_TEST_TOKEN=" + token}, "serve", "--config", f.config, "--http", "0.0.0.0:PORT", "--token-env", "MCM_TEST_TOKEN")
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + mcp.LATEST_LEGACY_PROTOCOL_VERSION + `","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
		for _, auth := range []string{"", "Bearer wrong", "Basic " + token, token} {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewBufferString(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("Authorization %q: status %d, want 401", auth, resp.StatusCode)
			}
		}
		// The mcp-go client without the token fails to initialize...
		bad := httpClient(t, url, nil)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
		if _, err := bad.Initialize(ctx, req); err == nil {
			t.Errorf("initialize without the token succeeded")
		}
		// ...and with it, works.
		c := httpClient(t, url, map[string]string{"Authorization": "Bearer " + token})
		initialize(t, c)
		res := runPython(t, c, map[string]any{"code": "print(await mcp_test.add(a=2, b=3))", "servers": []string{"test"}})
		if res.isError || res.structured.Stdout != "{'sum': 5}\n" {
			t.Errorf("add with token: isError=%v %+v", res.isError, res.structured)
		}
	})
}

// The MCP Inspector CLI, a third-party client, drives `serve` over stdio.
func TestInspectorCLI(t *testing.T) {
	needDocker(t)
	inspector, _ := filepath.Abs("../../testdata/npm/node_modules/.bin/mcp-inspector")
	if _, err := os.Stat(inspector); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("MCP Inspector not installed under CI (run `npm ci` in testdata/npm): %v", err)
		}
		t.Skipf("MCP Inspector not installed (run `npm ci` in testdata/npm): %v", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node not found under CI: %v", err)
		}
		t.Skipf("node not found: %v", err)
	}
	f := newFixture(t, "")
	inspect := func(t *testing.T, opts ...string) (string, string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		defer cancel()
		// Inspector options first; everything after "--" is the target.
		args := append(append([]string{"--cli"}, opts...), "--", binPath, "serve", "--config", f.config)
		cmd := exec.CommandContext(ctx, inspector, args...)
		cmd.Env = f.env
		cmd.Dir = f.dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 5 * time.Second
		err := cmd.Run()
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // nothing of its group may linger
		}
		code := 0
		if err != nil {
			code = -1
			if cmd.ProcessState != nil {
				code = cmd.ProcessState.ExitCode()
			}
		}
		t.Logf("inspector %v -> %d\nstdout: %s\nstderr: %s", opts, code, clip(stdout.String(), 800), clip(stderr.String(), 800))
		return stdout.String(), stderr.String(), code
	}

	t.Run("tools/list", func(t *testing.T) {
		out, _, code := inspect(t, "--method", "tools/list")
		var list struct {
			Tools []struct {
				Name, Description string
				InputSchema       map[string]any `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 {
			t.Fatalf("exit %d, output not JSON: %v", code, err)
		}
		if len(list.Tools) != 1 || list.Tools[0].Name != "run_python" || !strings.Contains(list.Tools[0].Description, "mcp_test") {
			t.Errorf("tools: %+v", list.Tools)
		}
	})
	t.Run("tools/call", func(t *testing.T) {
		// --tool-arg values are parsed as JSON when they are JSON, else
		// taken as strings: servers becomes a list, code stays a string.
		out, _, code := inspect(t, "--method", "tools/call", "--tool-name", "run_python",
			"--tool-arg", "code=print(await mcp_test.add(a=2,b=3))", "--tool-arg", `servers=["test"]`)
		var res struct {
			IsError    bool `json:"isError"`
			Structured struct {
				Stdout string `json:"stdout"`
			} `json:"structuredContent"`
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
			t.Fatalf("exit %d, output not JSON: %v", code, err)
		}
		if res.IsError || res.Structured.Stdout != "{'sum': 5}\n" || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "{'sum': 5}") {
			t.Errorf("result: %+v", res)
		}
	})
	t.Run("tools/call failing", func(t *testing.T) {
		out, _, code := inspect(t, "--method", "tools/call", "--tool-name", "run_python", "--tool-arg", "code=raise RuntimeError('nope')")
		// The inspector exits non-zero when the tool reports isError.
		if code == 0 || !strings.Contains(out, `"isError": true`) || !strings.Contains(out, "RuntimeError: nope") {
			t.Errorf("exit %d, output %q: want isError and the exception", code, out)
		}
	})
	f.expectNoServers(t)
}
