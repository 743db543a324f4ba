package e2e

// The MCP Inspector CLI (@modelcontextprotocol/inspector, pinned in
// testdata/npm), a third-party client, drives serve over stdio and HTTP.

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// The MCP Inspector CLI, a third-party client, drives `serve` over stdio.
func TestInspectorCLI(t *testing.T) {
	clitest.NeedEngine(t)
	inspector := pinnedNpmBin(t, "mcp-inspector")
	f := clitest.NewFixture(t, "")
	inspect := func(t *testing.T, opts ...string) (string, string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		defer cancel()
		// Inspector options first; everything after "--" is the target.
		args := append(append([]string{"--cli"}, opts...), "--", clitest.Bin(), "serve", "--config", f.Config)
		cmd := exec.CommandContext(ctx, inspector, args...)
		cmd.Env = f.Env
		cmd.Dir = f.Dir
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
		t.Logf("inspector %v -> %d\nstdout: %s\nstderr: %s", opts, code, clitest.Clip(stdout.String(), 800), clitest.Clip(stderr.String(), 800))
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
	f.ExpectNoServers(t)
}

// The MCP Inspector CLI drives `serve --http` over streamable HTTP (the
// stdio case is TestInspectorCLI).
func TestInspectorCLIHTTP(t *testing.T) {
	clitest.NeedEngine(t)
	inspector := pinnedNpmBin(t, "mcp-inspector")
	f := clitest.NewFixture(t, "")
	_, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--no-discovery", "--http", "127.0.0.1:PORT")
	inspect := func(t *testing.T, opts ...string) (string, int) {
		t.Helper()
		// Inspector options first; the target URL last, after --transport
		// (which also ends the list of --tool-arg values).
		args := append(append([]string{"--cli"}, opts...), "--header", "Authorization: Bearer "+f.HTTPToken(t), "--transport", "http", url)
		out, errOut, code := nodeRun(t, 60*time.Second, f.Env, f.Dir, inspector, args...)
		t.Logf("mcp-inspector %s -> %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, clitest.Clip(out, 800), clitest.Clip(errOut, 800))
		return out, code
	}

	t.Run("tools/list", func(t *testing.T) {
		out, code := inspect(t, "--method", "tools/list")
		var list struct {
			Tools []struct {
				Name, Description string
				InputSchema       struct {
					Required []string `json:"required"`
				} `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 {
			t.Fatalf("exit %d, output not JSON: %v", code, err)
		}
		if len(list.Tools) != 1 || list.Tools[0].Name != "run_python" || !strings.Contains(list.Tools[0].Description, "- test: mcp_test") {
			t.Errorf("tools: %+v", list.Tools)
		}
		if len(list.Tools) == 1 && strings.Join(list.Tools[0].InputSchema.Required, ",") != "code" {
			t.Errorf("run_python requires %v, want [code]", list.Tools[0].InputSchema.Required)
		}
	})
	t.Run("tools/call", func(t *testing.T) {
		out, code := inspect(t, "--method", "tools/call", "--tool-name", "run_python",
			"--tool-arg", "code=print(await mcp_test.add(a=2,b=3))", `servers=["test"]`)
		var res struct {
			IsError    bool `json:"isError"`
			Structured struct {
				Stdout  string   `json:"stdout"`
				Calls   int      `json:"calls"`
				Servers []string `json:"servers"`
			} `json:"structuredContent"`
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
			t.Fatalf("exit %d, output not JSON: %v", code, err)
		}
		if res.IsError || res.Structured.Stdout != "{'sum': 5}\n" || res.Structured.Calls != 1 || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "{'sum': 5}") {
			t.Errorf("result: %+v", res)
		}
		if got := clitest.ServerCalls(t, f.Log); len(got) != 1 || got[0].Tool != "add" || string(got[0].Args) != `{"a":2,"b":3}` {
			t.Errorf("the wrapped server received %+v, want one add(a=2, b=3)", got)
		}
	})
	t.Run("tools/call failing", func(t *testing.T) {
		out, code := inspect(t, "--method", "tools/call", "--tool-name", "run_python", "--tool-arg", "code=raise RuntimeError('nope')")
		if code == 0 || !strings.Contains(out, `"isError": true`) || !strings.Contains(out, "RuntimeError: nope") {
			t.Errorf("exit %d, output %q: want isError and the exception", code, out)
		}
	})
}
