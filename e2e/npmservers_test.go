package e2e

// Real third-party MCP servers from the pinned npm packages in testdata/npm,
// wrapped by the mcp-code-mode binary.

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
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// startEverythingHTTP starts @modelcontextprotocol/server-everything over
// streamable HTTP on a free port and returns its endpoint. It listens on
// every interface (the server has no option to bind loopback only).
func startEverythingHTTP(t *testing.T) string {
	t.Helper()
	bin := pinnedNpmBin(t, "mcp-server-everything")
	port := testenv.FreePort(t)
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	var out testenv.Buffer
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
	c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config, "--no-discovery")
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

	clitest.CloseServe(t, c, cmd, stderr)
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

// runJSON runs `mcp-code-mode run --json` with the program against config
// (discovery off), with servers loaded, and returns what the program
// printed; it fails the test when the run failed.
func runJSON(t *testing.T, f *clitest.Fixture, config, code string, servers ...string) string {
	t.Helper()
	r := f.Run(t, "", nil, "run", "--config", config, "--no-discovery", "--servers", strings.Join(servers, ","), "--json", "-c", code)
	var res struct {
		Stdout string  `json:"stdout"`
		Error  *string `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("run --json: exit %d, output not JSON: %v\nstderr: %s", r.Code, err, r.Stderr)
	}
	if res.Error != nil || r.Code != 0 {
		t.Fatalf("run failed (exit %d): %s\nstderr: %s", r.Code, clitest.Clip(fmt.Sprint(deref(res.Error)), 2000), r.Stderr)
	}
	return res.Stdout
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// server-everything's tools from a program: a result, an echo, structured
// content, and arguments outside the schema refused before the server
// sees them.
func TestServerEverythingFromNpm(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	config := filepath.Join(f.Dir, "npm.toml")
	f.Write(t, config, fmt.Sprintf("[servers.everything]\ncommand = %q\n", pinnedNpmBin(t, "mcp-server-everything")))
	out := runJSON(t, f, config, `
print(await mcp_everything.get_sum(a=2, b=3))
print(await mcp_everything.echo(message="hello from the sandbox"))
s = await mcp_everything.get_structured_content(location="New York")
print(sorted(s))
try:
    await mcp_everything.get_sum(a="two", b=3)
except ToolError as e:
    print("refused:", e)
`, "everything")
	for _, want := range []string{"The sum of 2 and 3 is 5.", "Echo: hello from the sandbox", "['conditions', 'humidity', 'temperature']", "refused: arguments of everything.get-sum do not match its schema"} {
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in:\n%s", want, out)
		}
	}
}

// A program finds a tool by searching every server (loaded or not), reads
// the best hit's full docs, and calls it, against real npm servers.
func TestSearchReadDocsAndCallFromTheSandbox(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	root := filepath.Join(f.Dir, "files")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// MEMORY_FILE_PATH keeps the memory server's graph in the test's dir;
	// server-memory takes no arguments, and the one given marks its
	// process as this test's, for the leak check below.
	config := filepath.Join(f.Dir, "npm.toml")
	f.Write(t, config, fmt.Sprintf(`
[servers.everything]
command = %q

[servers.memory]
command = %q
args = [%q]
env = { MEMORY_FILE_PATH = %q }

[servers.files]
command = %q
args = [%q]
`, pinnedNpmBin(t, "mcp-server-everything"), pinnedNpmBin(t, "mcp-server-memory"), f.Dir, filepath.Join(f.Dir, "memory.jsonl"), pinnedNpmBin(t, "mcp-server-filesystem"), root))
	out := runJSON(t, f, config, `
from mcp import runtime
import json
hits = await runtime.search_tool_docs("store a new person in the knowledge graph", limit=3)
print([h["server"] + "." + h["tool"] for h in hits])
best = hits[0]
doc = (await runtime.query_tool_docs(best["server"], best["tool"], detail="full"))[0]
assert doc["stub"].startswith("async def "), doc
assert "entities" in json.dumps(doc["input_schema"])
print(doc["stub"].splitlines()[0])
out = await runtime.call_tool(best["server"], best["tool"], {"entities": [{"name": "Ada", "entityType": "person", "observations": ["first programmer"]}]})
graph = await mcp_memory.read_graph()
print([e["name"] for e in graph["entities"]])
print(runtime.search_tool_docs_sync("write a file", limit=1)[0]["tool"])
servers = {s["name"]: s for s in runtime.discovered_servers_sync()}
print(servers["memory"]["loaded"], servers["files"]["loaded"], servers["memory"]["tools"] > 0)
`, "memory")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "['memory.create_entities'") ||
		!strings.HasPrefix(lines[1], "async def create_entities(") || lines[2] != "['Ada']" ||
		lines[3] != "write_file" || lines[4] != "True False True" {
		t.Fatalf("stdout:\n%s", out)
	}
	if b, err := os.ReadFile(filepath.Join(f.Dir, "memory.jsonl")); err != nil || !strings.Contains(string(b), "Ada") {
		t.Errorf("the memory server's graph on the host: %q %v", b, err)
	}
	// run ended the servers it started.
	for deadline := time.Now().Add(5 * time.Second); len(clitest.Pgrep(f.Dir)) > 0 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	if pids := clitest.Pgrep(f.Dir); len(pids) > 0 {
		t.Errorf("LEAK: wrapped npm servers still running after run ended: %v", pids)
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// timeout= ends a long call of a real server at the program's own
// deadline: server-everything's trigger-long-running-operation for 30 s,
// given 2 s. The run goes on, with the server still usable.
func TestPerCallTimeoutEndsALongCallOfServerEverything(t *testing.T) {
	clitest.NeedEngine(t)
	everything := startEverythingHTTP(t)
	f := clitest.NewFixture(t, fmt.Sprintf("[servers.everything]\nurl = %q\n", everything))
	code := `
try:
    print(await mcp_everything.trigger_long_running_operation(duration=30, steps=30, timeout=2))
except ToolError as e:
    print("ToolError:", e)
print(await mcp_everything.get_sum(a=2, b=3))
`
	r := f.CLI(t, "run", "--no-discovery", "--servers", "everything", "-c", code)
	if r.Code != 0 {
		t.Fatalf("run: exit %d: %s %s", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{
		"ToolError: everything.trigger-long-running-operation timed out after 2s (its timeout=)",
		"The sum of 2 and 3 is 5.",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.Stdout)
		}
	}
}

// A tool saved by one run (the CLI's) is imported by a later run in another
// process (serve over stdio), where it calls the real server-filesystem
// that run named and keeps what it found with save_memory; search_tool_docs
// ranks it with the servers' tools, as server user_tools.
func TestASavedToolUsesARealNpmServerInALaterRun(t *testing.T) {
	clitest.NeedEngine(t)
	fsBin := pinnedNpmBin(t, "mcp-server-filesystem")
	dir, err := os.MkdirTemp(clitest.Dir(), "npm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, name := range []string{"a.txt", "b.txt", "c.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := clitest.NewFixture(t, fmt.Sprintf("[servers.fs]\ncommand = %q\nargs = [%q]\n", fsBin, dir))
	out := runJSON(t, f, f.Config, `
save_tool("count_text_files", '''
async def count_text_files(path: str) -> int:
    """Counts the .txt files of a directory and remembers the count."""
    listing = (await mcp_fs.list_directory(path=path))["content"]
    n = sum(1 for line in listing.splitlines() if line.startswith("[FILE]") and line.endswith(".txt"))
    save_memory("text_files:" + path, n)
    return n
''', description="Count the text files of a directory")
print([t["signature"] for t in list_tools()])`)
	if out != "['async def count_text_files(path: str) -> int']\n" {
		t.Fatalf("the first run printed %q", out)
	}
	c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config, "--no-discovery")
	res := clitest.RunPython(t, c, map[string]any{"servers": []string{"fs"}, "code": fmt.Sprintf(`
from user_tools import count_text_files
print(await count_text_files(%q), load_memory("text_files:" + %q))
hits = await runtime.search_tool_docs("count the text files in a directory", limit=3)
print(hits[0]["server"], hits[0]["tool"])`, dir, dir)})
	if res.IsError || res.Structured.Stdout != "2 2\nuser_tools count_text_files\n" || res.Structured.Calls != 1 {
		t.Errorf("the later run: isError=%v %+v", res.IsError, res.Structured)
	}
	clitest.CloseServe(t, c, cmd, stderr)
}
