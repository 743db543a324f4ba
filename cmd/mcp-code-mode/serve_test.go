package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

func TestServeStdio(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config)

	tool := clitest.OnlyRunPython(t, c)
	if !strings.Contains(tool.Description, "- test: mcp_test - test tools") {
		t.Errorf("description should list server test in one line:\n%s", tool.Description)
	}
	if len(tool.Description) > 3000 {
		t.Errorf("description is %d bytes; it should stay short", len(tool.Description))
	}
	if got := clitest.Pgrep(f.Server); len(got) != 0 {
		t.Errorf("test server started before any run needed it: %v", got)
	}

	res := clitest.RunPython(t, c, map[string]any{"code": "print(await mcp_test.add(a=2, b=3))", "servers": []string{"test"}})
	if res.IsError || res.Structured.Stdout != "{'sum': 5}\n" || res.Structured.Error != nil || res.Structured.Calls != 1 {
		t.Errorf("add: isError=%v structured=%+v", res.IsError, res.Structured)
	}
	if len(res.Structured.Servers) != 1 || res.Structured.Servers[0] != "test" {
		t.Errorf("servers %v, want [test]", res.Structured.Servers)
	}
	if !strings.Contains(res.Text, "{'sum': 5}") {
		t.Errorf("text %q should carry stdout", res.Text)
	}

	res = clitest.RunPython(t, c, map[string]any{"code": "print('partial')\n1/0"})
	if !res.IsError || !strings.Contains(res.Text, "Error:") || !strings.Contains(res.Text, "ZeroDivisionError") || !strings.Contains(res.Text, "partial") {
		t.Errorf("failing program: isError=%v text=%q", res.IsError, res.Text)
	}
	if res.Structured.Error == nil || res.Structured.Stdout != "partial\n" || exitCode(res) != 1 {
		t.Errorf("failing program: structured %+v", res.Structured)
	}
	// sys.exit(N) is the run's exit_code; sys.exit(0) is a success.
	res = clitest.RunPython(t, c, map[string]any{"code": "import sys\nsys.exit(3)"})
	if !res.IsError || exitCode(res) != 3 || res.Structured.Error == nil || *res.Structured.Error != "SystemExit: 3" {
		t.Errorf("sys.exit(3): isError=%v exit_code=%d error=%v, want an error and exit_code 3", res.IsError, exitCode(res), res.Structured.Error)
	}
	res = clitest.RunPython(t, c, map[string]any{"code": "import sys\nprint('done')\nsys.exit(0)"})
	if res.IsError || exitCode(res) != 0 || res.Structured.Stdout != "done\n" {
		t.Errorf("sys.exit(0): isError=%v structured=%+v, want success", res.IsError, res.Structured)
	}

	res = clitest.RunPython(t, c, map[string]any{"code": "print(1)", "servers": []string{"nope"}})
	if !res.IsError || !strings.Contains(res.Text, "nope") {
		t.Errorf("unknown server: isError=%v text=%q", res.IsError, res.Text)
	}
	res = clitest.RunPython(t, c, map[string]any{"code": "import time\ntime.sleep(30)", "timeout": 1})
	if !res.IsError || !res.Structured.Stopped || !strings.Contains(res.Text, "deadline") {
		t.Errorf("timeout 1: isError=%v stopped=%v text=%q", res.IsError, res.Structured.Stopped, res.Text)
	}
	res = clitest.RunPython(t, c, map[string]any{"servers": []string{"test"}})
	if !res.IsError || !strings.Contains(res.Text, "code") {
		t.Errorf("missing code: isError=%v text=%q", res.IsError, res.Text)
	}

	if len(clitest.Pgrep(f.Server)) == 0 {
		t.Errorf("the test server should still be running between runs")
	}
	// Closing the client ends serve, and serve ends the wrapped server.
	clitest.CloseServe(t, c, cmd, stderr)
	f.ExpectNoServers(t)
}

func TestServeWrap(t *testing.T) {
	clitest.NeedEngine(t)
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
			f := clitest.NewFixture(t, "")
			args := append([]string{"serve", "--allow", "add"}, tc.flags...)
			args = append(args, "--", f.Server, "-name", "wrapped", "-log", f.Log)
			c, cmd, stderr := f.StdioServe(t, args...)
			tool := clitest.OnlyRunPython(t, c)
			if !strings.Contains(tool.Description, "- "+tc.server+": "+tc.module) {
				t.Errorf("description should list %s: %s:\n%s", tc.server, tc.module, tool.Description)
			}
			alias := strings.TrimPrefix(tc.module, "mcp_")
			src := strings.NewReplacer("NAME", alias, "SERVER", tc.server).Replace(code)
			res := clitest.RunPython(t, c, map[string]any{"code": src, "servers": []string{tc.server}})
			if res.IsError {
				t.Fatalf("run failed: %q", res.Text)
			}
			want := []string{"{'sum': 5}", "['add']"}
			for _, w := range want {
				if !strings.Contains(res.Structured.Stdout, w) {
					t.Errorf("stdout %q lacks %q", res.Structured.Stdout, w)
				}
			}
			// echo is no attribute, but calling it says which rule denies it.
			if w := "echo refused: " + tc.server + ".echo is denied by --allow add, which does not name it\n"; !strings.Contains(res.Structured.Stdout, w) {
				t.Errorf("stdout %q lacks %q", res.Structured.Stdout, w)
			}
			if !strings.Contains(res.Structured.Stdout, "call_tool echo refused") {
				t.Errorf("runtime.call_tool echo should raise ToolError: %q", res.Structured.Stdout)
			}
			// The alias works as a server name too.
			res = clitest.RunPython(t, c, map[string]any{"code": "print(await mcp_" + alias + ".add(a=1, b=1))", "servers": []string{alias}})
			if res.IsError || res.Structured.Stdout != "{'sum': 2}\n" {
				t.Errorf("servers [%s]: isError=%v %+v", alias, res.IsError, res.Structured)
			}
			if got := calllog.Tools(clitest.ServerCalls(t, f.Log)); strings.Join(got, ",") != "add,add" {
				t.Errorf("wrapped server saw %v, want only the two add calls", got)
			}
			clitest.CloseServe(t, c, cmd, stderr)
			f.ExpectNoServers(t)
		})
	}
}

func TestServeHTTP(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	p, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT")
	c := clitest.HTTPClient(t, url, f.Auth(t))
	clitest.Initialize(t, c)
	clitest.OnlyRunPython(t, c)
	res := clitest.RunPython(t, c, map[string]any{"code": "print(await mcp_test.add(a=2, b=3))", "servers": []string{"test"}})
	if res.IsError || res.Structured.Stdout != "{'sum': 5}\n" {
		t.Errorf("add over HTTP: isError=%v %+v", res.IsError, res.Structured)
	}
	// A second client gets its own session on the same server.
	c2 := clitest.HTTPClient(t, url, f.Auth(t))
	clitest.Initialize(t, c2)
	res = clitest.RunPython(t, c2, map[string]any{"code": "print(await mcp_test.counter())", "servers": []string{"test"}})
	if res.IsError || res.Structured.Stdout != "1\n" {
		t.Errorf("second client: isError=%v %+v", res.IsError, res.Structured)
	}
	_ = c.Close()
	_ = c2.Close()
	// SIGTERM ends serve cleanly, and with it the wrapped server.
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	if code := p.Wait(t, 30*time.Second); code != 0 {
		t.Errorf("serve --http exited %d after SIGTERM, want 0\nstderr: %s", code, p.Stderr.String())
	}
	f.ExpectNoServers(t)
}

func TestServeHTTPToken(t *testing.T) {
	f := clitest.NewFixture(t, "")
	t.Run("no auth off loopback refused", func(t *testing.T) {
		port := strconv.Itoa(testenv.FreePort(t))
		for _, addr := range []string{"0.0.0.0:" + port, ":" + port} {
			r := f.Run(t, "", nil, "serve", "--config", f.Config, "--http", addr, "--no-auth")
			if r.Code != 1 || !strings.Contains(r.Stderr, "--no-auth is only allowed on a loopback address") {
				t.Errorf("--http %s --no-auth: exit %d stderr %q: want 1 and why", addr, r.Code, r.Stderr)
			}
		}
	})
	t.Run("a token by default", func(t *testing.T) {
		clitest.NeedEngine(t)
		p, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT")
		path := filepath.Join(f.Home, ".local", "state", "mcp-code-mode", "http-token")
		if !strings.Contains(p.Stderr.String(), path) {
			t.Errorf("serve does not say where the token is: %q", p.Stderr.String())
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("token file: %v %v; want mode 0600", fi, err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
		if _, err := clitest.HTTPClient(t, url, nil).Initialize(ctx, req); err == nil {
			t.Errorf("initialize without the token succeeded")
		}
		c := clitest.HTTPClient(t, url, f.Auth(t))
		clitest.Initialize(t, c)
		res := clitest.RunPython(t, c, map[string]any{"code": "print(await mcp_test.add(a=2, b=3))", "servers": []string{"test"}})
		if res.IsError || res.Structured.Stdout != "{'sum': 5}\n" {
			t.Errorf("add with the token from the file: isError=%v %+v", res.IsError, res.Structured)
		}
	})
	t.Run("no auth on loopback", func(t *testing.T) {
		clitest.NeedEngine(t)
		p, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT", "--no-auth")
		if !strings.Contains(p.Stderr.String(), "without authentication") {
			t.Errorf("serve --no-auth does not warn: %q", p.Stderr.String())
		}
		c := clitest.HTTPClient(t, url, nil)
		clitest.Initialize(t, c)
	})
	t.Run("token variable unset", func(t *testing.T) {
		port := strconv.Itoa(testenv.FreePort(t))
		r := f.Run(t, "", nil, "serve", "--config", f.Config, "--http", "0.0.0.0:"+port, "--token-env", "MCM_TEST_TOKEN")
		if r.Code != 1 || !strings.Contains(r.Stderr, "MCM_TEST_TOKEN") {
			t.Errorf("exit %d stderr %q: want 1 and the variable named", r.Code, r.Stderr)
		}
	})
	t.Run("malformed --allow-origin refused", func(t *testing.T) {
		port := strconv.Itoa(testenv.FreePort(t))
		for _, origin := range []string{"127.0.0.1:8080", "http://127.0.0.1:8080/app", "*"} {
			r := f.Run(t, "", nil, "serve", "--config", f.Config, "--http", "127.0.0.1:"+port, "--allow-origin", origin)
			if r.Code != 1 || !strings.Contains(r.Stderr, "--allow-origin") || !strings.Contains(r.Stderr, origin) {
				t.Errorf("--allow-origin %q: exit %d stderr %q: want 1 and the flag and value named", origin, r.Code, r.Stderr)
			}
		}
	})
	t.Run("bearer token required", func(t *testing.T) {
		clitest.NeedEngine(t)
		const token = "s3cret-t0ken"
		_, url := f.HTTPServe(t, []string{"MCM_TEST_TOKEN=" + token}, "serve", "--config", f.Config, "--http", "0.0.0.0:PORT", "--token-env", "MCM_TEST_TOKEN")
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
		bad := clitest.HTTPClient(t, url, nil)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
		if _, err := bad.Initialize(ctx, req); err == nil {
			t.Errorf("initialize without the token succeeded")
		}
		// ...and with it, works.
		c := clitest.HTTPClient(t, url, map[string]string{"Authorization": "Bearer " + token})
		clitest.Initialize(t, c)
		res := clitest.RunPython(t, c, map[string]any{"code": "print(await mcp_test.add(a=2, b=3))", "servers": []string{"test"}})
		if res.IsError || res.Structured.Stdout != "{'sum': 5}\n" {
			t.Errorf("add with token: isError=%v %+v", res.IsError, res.Structured)
		}
	})
}

// exitCode is run_python's exit_code, or -1 when it has none (RunPython
// reports that).
func exitCode(r clitest.RunResult) int {
	if r.Structured.ExitCode == nil {
		return -1
	}
	return *r.Structured.ExitCode
}
