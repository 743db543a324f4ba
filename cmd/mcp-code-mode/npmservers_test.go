package main

// Real third-party MCP servers and clients from the pinned npm packages in
// testdata/npm, against the mcp-code-mode binary.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// startEverythingHTTP starts @modelcontextprotocol/server-everything over
// streamable HTTP on a free port and returns its endpoint. It listens on
// every interface (the server has no option to bind loopback only).
func startEverythingHTTP(t *testing.T) string {
	t.Helper()
	bin := pinnedNpmBin(t, "mcp-server-everything")
	port := clitest.FreePort(t)
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	var out clitest.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	})
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if strings.Contains(out.String(), "listening on port") {
			break
		}
		select {
		case <-done:
			t.Fatalf("server-everything exited before listening:\n%s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen within 20s:\n%s", out.String())
		}
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

// Three real npm servers wrapped at once, over two transports, and used
// from one run_python call through `serve` driven by an MCP client:
// server-everything over streamable HTTP, server-filesystem on a temp dir
// and server-memory over stdio.
func TestNpmServersInOneRun(t *testing.T) {
	clitest.NeedEngine(t)
	fsBin := pinnedNpmBin(t, "mcp-server-filesystem")
	memBin := pinnedNpmBin(t, "mcp-server-memory")
	everything := startEverythingHTTP(t)

	dir, err := os.MkdirTemp(clitest.Dir(), "npm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data := filepath.Join(dir, "data")
	memoryFile := filepath.Join(dir, "memory.jsonl")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "seed.txt"), []byte("seed"), 0o644); err != nil {
		t.Fatal(err)
	}
	// server-memory takes no arguments; the one given marks its process
	// as this test's, for the leak check below.
	f := clitest.NewFixture(t, fmt.Sprintf(`
[servers.everything]
url = %q
description = "the MCP reference test server"

[servers.fs]
command = %q
args = [%q]

[servers.memory]
command = %q
args = [%q]
env = { MEMORY_FILE_PATH = %q }
`, everything, fsBin, data, memBin, dir, memoryFile))
	c, cmd, _ := f.StdioServe(t, "serve", "--config", f.Config, "--no-discovery")
	tool := clitest.OnlyRunPython(t, c)
	for _, s := range []string{"everything", "fs", "memory"} {
		if !strings.Contains(tool.Description, "- "+s+": mcp_"+s) {
			t.Errorf("description does not list server %s:\n%s", s, tool.Description)
		}
	}

	code := fmt.Sprintf(`import asyncio, json
DATA = %q
total, listing, created = await asyncio.gather(
    mcp_everything.get_sum(a=2, b=3),
    mcp_fs.list_directory(path=DATA),
    mcp_memory.create_entities(entities=[{"name": "Ada Lovelace", "entityType": "person", "observations": ["wrote the first program"]}]),
)
wrote = await mcp_fs.write_file(path=DATA + "/note.txt", content="written from the sandbox")
back = await mcp_fs.read_text_file(path=DATA + "/note.txt")
graph = await mcp_memory.read_graph()
print(json.dumps({"sum": total, "listing": listing, "created": created, "wrote": wrote, "back": back, "graph": graph}))
`, data)
	res := clitest.RunPython(t, c, map[string]any{"code": code, "servers": []string{"everything", "fs", "memory"}})
	if res.IsError {
		t.Fatalf("run failed: %s", res.Text)
	}
	var got struct {
		Sum     string
		Listing struct{ Content string }
		Wrote   struct{ Content string }
		Back    struct{ Content string }
		Graph   struct {
			Entities []struct {
				Name, EntityType string
				Observations     []string
			}
		}
	}
	if err := json.Unmarshal([]byte(res.Structured.Stdout), &got); err != nil {
		t.Fatalf("stdout is not the JSON printed: %v\n%s", err, res.Structured.Stdout)
	}
	if got.Sum != "The sum of 2 and 3 is 5." {
		t.Errorf("everything.get-sum: %q", got.Sum)
	}
	if !strings.Contains(got.Listing.Content, "[FILE] seed.txt") {
		t.Errorf("fs.list_directory: %q", got.Listing.Content)
	}
	if got.Back.Content != "written from the sandbox" {
		t.Errorf("fs.read_text_file after write_file (%q): %q", got.Wrote.Content, got.Back.Content)
	}
	if len(got.Graph.Entities) != 1 || got.Graph.Entities[0].Name != "Ada Lovelace" || got.Graph.Entities[0].EntityType != "person" {
		t.Errorf("memory.read_graph: %+v", got.Graph)
	}
	if res.Structured.Calls != 6 {
		t.Errorf("calls %d, want 6", res.Structured.Calls)
	}
	servers := append([]string{}, res.Structured.Servers...)
	sort.Strings(servers)
	if strings.Join(servers, ",") != "everything,fs,memory" {
		t.Errorf("servers loaded %v, want everything, fs and memory", res.Structured.Servers)
	}
	// What the servers did happened on the host.
	if b, err := os.ReadFile(filepath.Join(data, "note.txt")); err != nil || string(b) != "written from the sandbox" {
		t.Errorf("note.txt on the host: %q %v", b, err)
	}
	if b, err := os.ReadFile(memoryFile); err != nil || !strings.Contains(string(b), "Ada Lovelace") {
		t.Errorf("memory file on the host: %q %v", b, err)
	}

	clitest.CloseServe(t, c, cmd)
	// serve ended its stdio servers with it.
	for deadline := time.Now().Add(5 * time.Second); len(clitest.Pgrep(dir)) > 0 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	if pids := clitest.Pgrep(dir); len(pids) > 0 {
		t.Errorf("LEAK: wrapped npm servers still running after serve ended: %v", pids)
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
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
		args := append(append([]string{"--cli"}, opts...), "--transport", "http", url)
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
