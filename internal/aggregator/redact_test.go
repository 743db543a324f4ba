package aggregator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// A server's configured secrets (env, headers, URL query) reach neither the
// program, nor the MCP client, nor the log, whatever path the text takes:
// a remote server's connection errors that quote its URL, a stdio server
// that fails with its token in its error, a remote server whose tools/list
// fails quoting its key, a careless server that quotes its
// token in its tool descriptions and in its errors (the test server's
// -leak), a transport that fails mid-call, the helpers' answers, the
// modules' docs, and every log record down to debug.
func TestNoConfiguredSecretLeavesTheHost(t *testing.T) {
	clitest.NeedEngine(t)
	const (
		urlKey     = "SECRETVALUE1234"
		hdrToken   = "hdr-secret-5b5b9"
		envSecret  = "env-secret-7f3a9c"
		toolSecret = "tool-secret-d00d42"
		webKey     = "web-key-a11ce7"
		listKey    = "list-key-0ddba11"
	)
	secrets := []string{urlKey, hdrToken, envSecret, toolSecret, webKey, listKey}

	remote := config.Server{Name: "remote", Transport: config.TransportHTTP, Source: "test",
		URL: "http://127.0.0.1:9/mcp?api_key=" + urlKey, Headers: map[string]string{"Authorization": "Bearer " + hdrToken}}
	leaky, _ := testServer(t, "leaky", "-fail-start", "fatal: cannot log in with "+envSecret)
	leaky.Env = map[string]string{"API_TOKEN": envSecret}
	chatty, _ := testServer(t, "chatty", "-leak", "CHATTY_TOKEN")
	chatty.Env = map[string]string{"CHATTY_TOKEN": toolSecret}
	chatty.Description = "notes (token " + toolSecret + ")"
	web := config.Server{Name: "web", Transport: config.TransportHTTP, Source: "test",
		URL: httpTestServer(t) + "?api_key=" + webKey}
	// A server that takes the handshake and then refuses tools/list,
	// quoting the key it was given.
	listURL := proxy(t, httpTestServer(t), func(w http.ResponseWriter, r *http.Request) bool {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return false
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Method != string(mcp.MethodToolsList) {
			return true
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"no tools for the key %s"}}`, msg.ID, r.URL.Query().Get("api_key"))
		return false
	})
	lister := config.Server{Name: "lister", Transport: config.TransportHTTP, Source: "test", URL: listURL + "?api_key=" + listKey}

	var logs testenv.Buffer
	cfg := config.Default()
	cfg.CatalogDir = t.TempDir()
	cfg.Runtime = testRuntime()
	cfg.Limits.ConnectTimeout = 3 * time.Second
	eng, _ := clitest.Engine()
	a, err := New(cfg, []config.Server{remote, leaky, chatty, web, lister}, eng,
		slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	srv := httptest.NewServer(a.HTTPHandler(HTTPOptions{}))
	t.Cleanup(srv.Close)

	// An MCP client over streamable HTTP; every answer it gets is kept.
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	c, err := client.NewStreamableHttpClient(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	clitest.Initialize(t, c)
	var answers []string
	keep := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, string(b))
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	keep(tools)
	runPython := func(code string, servers ...string) Result {
		t.Helper()
		var req mcp.CallToolRequest
		req.Params.Name = ToolName
		req.Params.Arguments = map[string]any{"code": code, "servers": servers}
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatalf("run_python: %v", err)
		}
		keep(res)
		var r Result
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		t.Logf("servers %v: stdout=%q error=%s", servers, clip(r.Stdout, 1500), deref(r.Error))
		return r
	}

	// Servers that do not start: their errors quote the URL and the token.
	for _, name := range []string{"remote", "leaky", "lister"} {
		if r := runPython("print('never')", name); r.Error == nil || !strings.Contains(*r.Error, `start server "`+name+`"`) {
			t.Errorf("%s: want a start error, got %s", name, deref(r.Error))
		}
	}
	// A careless server: its errors and its docs quote its token; the
	// helpers answer about every server, the broken ones too.
	r := runPython(`
from mcp import runtime
for call in (lambda: mcp_chatty.fail(message="bad"), lambda: mcp_chatty.protocol_error(message="bad")):
    try:
        await call()
    except ToolError as e:
        print("refused:", e)
print("doc:", mcp_chatty.echo.__doc__)
print("query:", await runtime.query_tool_docs("chatty", "echo", detail="full"))
print("describe:", await runtime.describe_server("chatty"))
print("discovered:", runtime.discovered_servers_sync())
print("search:", await runtime.search_tool_docs("echo a message", limit=3, detail="full"))
print("summary:", runtime.capability_summary_sync())
for name in ("remote", "leaky"):
    try:
        await runtime.query_tool_docs(name)
    except ToolError as e:
        print("refused:", e)
`, "chatty")
	mustSucceed(t, r)
	for _, want := range []string{"refused: chatty.fail failed: bad (token [redacted])", "Connected with token [redacted].",
		"refused: host error: ServerError", `server "remote" could not be started`, "notes (token [redacted])"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the program's output lacks %q", want)
		}
	}
	// A remote server that dies in the middle of a call: the transport's
	// errors quote its URL with the key.
	r = runPython(`
print(await mcp_web.add(a=1, b=2))
for call in (mcp_web.crash, lambda: mcp_web.add(a=1, b=2)):
    try:
        await call()
    except ToolError as e:
        print("refused:", e)
`, "web")
	mustSucceed(t, r)
	if !strings.Contains(r.Stdout, "{'sum': 3}") || strings.Count(r.Stdout, "refused:") != 2 {
		t.Errorf("web: want a sum and two refusals, got %q", r.Stdout)
	}

	// What the library and the commands get: docs, searches, errors.
	docs, err := a.Tools(ctx, []string{"chatty"})
	keep(docs)
	if err != nil || len(docs) == 0 {
		t.Errorf("Tools(chatty) = %d docs, %v", len(docs), err)
	}
	for _, name := range []string{"remote", "leaky", "lister"} {
		if _, err := a.Tools(ctx, []string{name}); err == nil {
			t.Errorf("Tools(%s) did not fail", name)
		} else {
			keep(err.Error())
		}
	}
	hits, err := a.Search(ctx, "echo a message", 5, "full")
	keep(hits)
	if err != nil || len(hits) == 0 {
		t.Errorf("Search = %d hits, %v", len(hits), err)
	}
	keep(a.Servers())
	keep(a.Description())
	// The server's instructions quote its token too.
	desc, err := a.helper(ctx, "describe_server", json.RawMessage(`{"name":"chatty"}`), nil, "")
	keep(desc)
	if d, ok := desc.(ServerDescription); err != nil || !ok || !strings.Contains(d.Instructions, "Token: ") {
		t.Errorf("describe_server(chatty) = %+v, %v; want its instructions", desc, err)
	}
	// Nor does the catalog keep them.
	catalogued, err := os.ReadDir(cfg.CatalogDir)
	if err != nil || len(catalogued) == 0 {
		t.Errorf("the catalog holds %d files (%v)", len(catalogued), err)
	}
	for _, f := range catalogued {
		b, err := os.ReadFile(filepath.Join(cfg.CatalogDir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		keep(string(b))
	}

	for _, s := range secrets {
		for i, ans := range answers {
			if strings.Contains(ans, s) {
				t.Errorf("answer %d holds the secret %q: %s", i, s, clip(ans, 2000))
			}
		}
	}
	// The secrets reached the log's path, and left it redacted.
	log := logs.String()
	for _, s := range secrets {
		if strings.Contains(log, s) {
			for _, line := range strings.Split(log, "\n") {
				if strings.Contains(line, s) {
					t.Errorf("a log line holds the secret %q: %s", s, line)
				}
			}
		}
	}
	for _, want := range []string{"api_key=[redacted]", "(token [redacted])", "no tools for the key [redacted]"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q (the path it stands for was not taken):\n%s", want, clip(log, 4000))
		}
	}
}
