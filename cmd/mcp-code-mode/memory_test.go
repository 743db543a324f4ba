package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// stdout runs code through run_python and returns what it printed; a run
// that fails fails the test.
func stdout(t *testing.T, c *client.Client, code string) string {
	t.Helper()
	res := clitest.RunPython(t, c, map[string]any{"code": code})
	if res.IsError {
		t.Fatalf("run_python failed: %s", res.Text)
	}
	return res.Structured.Stdout
}

// runPython calls run_python from any goroutine: it returns the error
// instead of failing the test.
func runPython(ctx context.Context, c *client.Client, code string) (string, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_python"
	req.Params.Arguments = map[string]any{"code": code}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	var out struct {
		Stdout string  `json:"stdout"`
		Error  *string `json:"error"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", err
	}
	if out.Error != nil {
		return out.Stdout, fmt.Errorf("run failed: %s", *out.Error)
	}
	return out.Stdout, nil
}

// What a CLI run saves, a stdio serve (another process) loads, and the
// other way round: both are the OS user's namespace by default. The
// memory and saved-tools commands see and change the same store, kept in
// a file only its owner can read.
func TestMemoryCarriesBetweenRunAndServe(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "run", "-c", `
save_memory("from_run", {"n": 1, "word": "héllo"}, metadata={"by": "run"})
save_tool("greet", "def greet(who):\n    return 'hello ' + who\n", "Greets someone by name")
print("saved")`)
	if r.Code != 0 || r.Stdout != "saved\n" {
		t.Fatalf("run: exit %d stdout %q stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config)
	got := stdout(t, c, `
from user_tools import greet
print(load_memory("from_run"), get_memory_info("from_run")["metadata"], greet("serve"))
save_memory("from_serve", [1, 2, 3])`)
	if got != "{'n': 1, 'word': 'héllo'} {'by': 'run'} hello serve\n" {
		t.Errorf("serve loaded %q", got)
	}
	// The CLI, while serve still has the database open.
	r = f.CLI(t, "run", "-c", `print(load_memory("from_serve"))`)
	if r.Code != 0 || r.Stdout != "[1, 2, 3]\n" {
		t.Errorf("run after serve saved: exit %d stdout %q stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	clitest.CloseServe(t, c, cmd, stderr)

	dir := filepath.Join(f.Home, ".local", "share", "mcp-code-mode")
	if fi, err := os.Stat(filepath.Join(dir, "state.db")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state.db: %v %v, want mode 0600", fi, err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("its directory: %v %v, want mode 0700", fi, err)
	}

	r = f.CLI(t, "memory", "ls")
	if r.Code != 0 || !strings.Contains(r.Stdout, "KEY") || !strings.Contains(r.Stdout, "from_run") || !strings.Contains(r.Stdout, "from_serve") ||
		!strings.Contains(r.Stdout, "2 memories and 1 saved tool") || !strings.Contains(r.Stdout, "(state.max_namespace_bytes), in "+filepath.Join(dir, "state.db")) {
		t.Errorf("memory ls: exit %d %q", r.Code, r.Stdout)
	}
	r = f.CLI(t, "memory", "get", "from_run")
	if r.Code != 0 || r.Stdout != "{\n  \"n\": 1,\n  \"word\": \"héllo\"\n}\n" {
		t.Errorf("memory get: exit %d %q", r.Code, r.Stdout)
	}
	r = f.CLI(t, "memory", "set", "--metadata", `{"by": "cli"}`, "from_cli", `{"x": [true, null]}`)
	if r.Code != 0 || !strings.Contains(r.Stdout, `Saved "from_cli" (version 1) in namespace user:`) {
		t.Errorf("memory set: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	r = f.CLI(t, "memory", "get", "--json", "from_cli")
	var m struct {
		Key      string          `json:"key"`
		Value    json.RawMessage `json:"value"`
		Metadata json.RawMessage `json:"metadata"`
		Version  int64           `json:"version"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &m); err != nil || m.Key != "from_cli" || m.Version != 1 ||
		strings.Join(strings.Fields(string(m.Value)), "") != `{"x":[true,null]}` || strings.Join(strings.Fields(string(m.Metadata)), "") != `{"by":"cli"}` {
		t.Errorf("memory get --json: %v %+v (%s)", err, m, r.Stdout)
	}
	r = f.CLI(t, "run", "-c", `print(load_memory("from_cli"), get_memory_info("from_cli")["metadata"])`)
	if r.Stdout != "{'x': [True, None]} {'by': 'cli'}\n" {
		t.Errorf("a run loaded what memory set saved as %q", r.Stdout)
	}
	r = f.Run(t, `{"from": "stdin", "é": 1}`, nil, "memory", "--config", f.Config, "set", "piped", "-")
	if r.Code != 0 {
		t.Errorf("memory set KEY - (stdin): exit %d %q", r.Code, r.Stderr)
	}
	if r = f.CLI(t, "memory", "get", "piped"); r.Stdout != "{\n  \"from\": \"stdin\",\n  \"é\": 1\n}\n" {
		t.Errorf("memory get of a value set from stdin: %q", r.Stdout)
	}
	r = f.CLI(t, "memory", "set", "bad", "{not json")
	if r.Code != 1 || !strings.Contains(r.Stderr, "invalid value: not JSON") {
		t.Errorf("memory set of bad JSON: exit %d %q", r.Code, r.Stderr)
	}
	// Flags go after the arguments too.
	r = f.CLI(t, "memory", "get", "from_cli", "--json")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"value"`) {
		t.Errorf("a flag after the key: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	r = f.CLI(t, "memory", "rm", "from_cli")
	if r.Code != 0 || !strings.Contains(r.Stdout, `Deleted memory "from_cli"`) {
		t.Errorf("memory rm: exit %d %q", r.Code, r.Stdout)
	}
	r = f.CLI(t, "memory", "rm", "--json", "from_cli")
	if r.Code != 1 || !strings.Contains(r.Stdout, `"deleted": false`) {
		t.Errorf("memory rm of a missing key: exit %d %q", r.Code, r.Stdout)
	}
	r = f.CLI(t, "memory", "get", "from_cli")
	if r.Code != 1 || !strings.Contains(r.Stderr, `no memory "from_cli" in namespace user:`) {
		t.Errorf("memory get of a deleted key: exit %d %q", r.Code, r.Stderr)
	}

	r = f.CLI(t, "saved-tools", "ls")
	if r.Code != 0 || !strings.Contains(r.Stdout, "greet") || !strings.Contains(r.Stdout, "def greet(who)") || !strings.Contains(r.Stdout, "Greets someone by name") {
		t.Errorf("saved-tools ls: exit %d %q", r.Code, r.Stdout)
	}
	r = f.CLI(t, "saved-tools", "show", "greet")
	if r.Code != 0 || r.Stdout != "def greet(who):\n    return 'hello ' + who\n" {
		t.Errorf("saved-tools show: exit %d %q", r.Code, r.Stdout)
	}
	r = f.CLI(t, "saved-tools", "rm", "--json", "greet")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"deleted": true`) {
		t.Errorf("saved-tools rm: exit %d %q", r.Code, r.Stdout)
	}
	r = f.CLI(t, "saved-tools", "ls", "--json")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "[]" {
		t.Errorf("saved-tools ls --json after rm: exit %d %q", r.Code, r.Stdout)
	}
	r = f.CLI(t, "run", "-c", "from user_tools import greet")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no saved tool 'greet'") {
		t.Errorf("import of a removed tool: exit %d %q", r.Code, r.Stderr)
	}
}

// Two serve processes over one store: what one saves the other loads, and
// 8 runs at once (4 on each), each adding 1 five times with update_memory,
// leave exactly 40.
func TestTwoServeProcessesShareOneStore(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	a, _, _ := f.StdioServe(t, "serve", "--config", f.Config)
	b, _, _ := f.StdioServe(t, "serve", "--config", f.Config)
	stdout(t, a, `save_memory("hello", "from a")`)
	if got := stdout(t, b, `print(load_memory("hello"))`); got != "from a\n" {
		t.Fatalf("b loaded %q", got)
	}
	const perServe, increments = 4, 5
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2*perServe)
	for _, c := range []*client.Client{a, b} {
		for range perServe {
			wg.Go(func() {
				out, err := runPython(ctx, c, fmt.Sprintf(`
for _ in range(%d):
    update_memory("counter", lambda n: (n or 0) + 1)
print("ok")`, increments))
				if err == nil && out != "ok\n" {
					err = fmt.Errorf("printed %q", out)
				}
				errs <- err
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := stdout(t, a, `print(load_memory("counter"), get_memory_info("counter")["version"])`); got != "40 40\n" {
		t.Errorf("after 8 runs of 5 increments on two serve processes: %q, want 40 at version 40", got)
	}
}

// serve --http --tokens-file: each token is a client with a namespace of
// its own, so two clients with different tokens do not see each other's
// memories or saved tools, and neither sees the OS user's. With --no-auth
// every client shares the namespace "http". A tokens file others can read
// is refused.
func TestHTTPClientsWithDifferentTokensDoNotSeeEachOthersMemory(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	tokenA, tokenB := "token-of-client-a-0123456789", "token-of-client-b-9876543210"
	tokens := filepath.Join(f.Dir, "tokens")
	f.Write(t, tokens, "# one per client\n"+tokenA+"\n\n"+tokenB+"\n")

	if err := os.Chmod(tokens, 0o644); err != nil {
		t.Fatal(err)
	}
	r := f.Run(t, "", nil, "serve", "--config", f.Config, "--http", fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t)), "--tokens-file", tokens)
	if r.Code != 1 || !strings.Contains(r.Stderr, "others may read it (mode 0644)") {
		t.Fatalf("a tokens file of mode 0644: exit %d %q, want refused", r.Code, r.Stderr)
	}
	if err := os.Chmod(tokens, 0o600); err != nil {
		t.Fatal(err)
	}
	// The OS user's namespace has a memory of that name too.
	if r := f.CLI(t, "memory", "set", "secret", `"the user's"`); r.Code != 0 {
		t.Fatalf("memory set: %q", r.Stderr)
	}
	p, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT", "--tokens-file", tokens)
	if !strings.Contains(p.Stderr.String(), tokens+" (2 tokens)") {
		t.Errorf("serve does not say where the tokens are: %q", p.Stderr.String())
	}
	a := clitest.HTTPClient(t, url, map[string]string{"Authorization": "Bearer " + tokenA})
	clitest.Initialize(t, a)
	b := clitest.HTTPClient(t, url, map[string]string{"Authorization": "Bearer " + tokenB})
	clitest.Initialize(t, b)

	stdout(t, a, `
save_memory("secret", "A's secret")
save_tool("a_only", "def a_only():\n    return 'A'\n", "Client A's private helper")`)
	got := stdout(t, b, `
print(load_memory("secret"), list_memories(), list_tools())
print([h["tool"] for h in await runtime.search_tool_docs("client private helper", limit=10) if h["server"] == "user_tools"])
try:
    from user_tools import a_only
except ImportError:
    print("no a_only")
save_memory("secret", "B's secret")`)
	if got != "None [] []\n[]\nno a_only\n" {
		t.Errorf("client B saw %q", got)
	}
	if got := stdout(t, a, `
from user_tools import a_only
print(load_memory("secret"), a_only())`); got != "A's secret A\n" {
		t.Errorf("client A loaded %q after B saved", got)
	}
	sum := sha256.Sum256([]byte(tokenA))
	nsA := "http:" + hex.EncodeToString(sum[:16])
	if r := f.CLI(t, "memory", "get", "--namespace", nsA, "secret"); r.Stdout != "\"A's secret\"\n" {
		t.Errorf("memory get --namespace %s: %q %q", nsA, r.Stdout, r.Stderr)
	}
	if r := f.CLI(t, "memory", "get", "secret"); r.Stdout != "\"the user's\"\n" {
		t.Errorf("the OS user's memory: %q %q", r.Stdout, r.Stderr)
	}

	_, open := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT", "--no-auth")
	for i, c := range []*client.Client{clitest.HTTPClient(t, open, nil), clitest.HTTPClient(t, open, nil)} {
		clitest.Initialize(t, c)
		got := stdout(t, c, `print(update_memory("visits", lambda n: (n or 0) + 1))`)
		if got != fmt.Sprintf("%d\n", i+1) {
			t.Errorf("--no-auth client %d: %q, want the shared count %d", i, got, i+1)
		}
	}
	if r := f.CLI(t, "memory", "get", "--namespace", "http", "visits"); r.Stdout != "2\n" {
		t.Errorf("memory get --namespace http visits: %q %q", r.Stdout, r.Stderr)
	}
}
