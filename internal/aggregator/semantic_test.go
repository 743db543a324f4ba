package aggregator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/mcp-code-mode/mcp-code-mode/internal/catalog"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// No embedding model can be downloaded where the tests run, so these tests
// stand one in: an HTTP server that speaks the OpenAI-compatible
// embeddings API as Ollama, llama.cpp's server, LM Studio and vLLM do, and
// computes a deterministic vector for each text, a bag of words hashed into
// 256 dimensions where the words of a few synonym pairs share one
// dimension. It knows, as a real model would, that "bin" is "delete" and
// "stale" is "old": words the lexical ranker has no relation for.

// standInSynonyms maps a word to the word whose dimension it shares.
var standInSynonyms = map[string]string{
	"axe": "delete", "bin": "delete", "nuke": "delete", "wipe": "delete", "stale": "old", "unused": "old", "folks": "people",
	"huddle": "meeting", "palaver": "meeting", "shelve": "archive",
}

// standInStop are words the stand-in leaves out.
var standInStop = map[string]bool{"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "from": true, "and": true, "that": true, "its": true, "it": true, "so": true, "with": true}

// standInVector is the stand-in model's vector of text.
func standInVector(text string) []float64 {
	v := make([]float64, 256)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if standInStop[w] {
			continue
		}
		if s, ok := standInSynonyms[w]; ok {
			w = s
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%256]++
	}
	var n float64
	for _, x := range v {
		n += x * x
	}
	if n > 0 {
		for i := range v {
			v[i] /= math.Sqrt(n)
		}
	}
	return v
}

// embeddingStandIn is the stand-in server. fail, when set, answers each
// request in its place.
type embeddingStandIn struct {
	t        *testing.T
	key      string
	requests atomic.Int64
	texts    atomic.Int64
	mu       sync.Mutex
	fail     http.HandlerFunc
}

func (s *embeddingStandIn) failWith(h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = h
}

func (s *embeddingStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	s.mu.Lock()
	fail := s.fail
	s.mu.Unlock()
	if fail != nil {
		fail(w, r)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		s.t.Errorf("stand-in: %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if s.key != "" && r.Header.Get("Authorization") != "Bearer "+s.key {
		http.Error(w, `{"error":{"message":"wrong key"}}`, http.StatusUnauthorized)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil || req.Model != "stand-in" {
		s.t.Errorf("stand-in: request %+v, %v", req, err)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.texts.Add(int64(len(req.Input)))
	type item struct {
		Object    string    `json:"object"`
		Embedding []float64 `json:"embedding"`
		Index     int       `json:"index"`
	}
	resp := struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
		Model  string `json:"model"`
	}{Object: "list", Model: req.Model}
	for i, in := range req.Input {
		resp.Data = append(resp.Data, item{Object: "embedding", Embedding: standInVector(in), Index: i})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// searchCatalog is the tools the search tests rank, catalogued for three
// servers that are never started.
var searchCatalog = map[string][]string{
	"repo": {
		`{"name":"create_branch","description":"Create a new branch from a commit","inputSchema":{"type":"object","properties":{"name":{"type":"string"},"from":{"type":"string"}},"required":["name"]}}`,
		`{"name":"delete_branch","description":"Delete a branch from the repository","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Branch name"}},"required":["name"]}}`,
		`{"name":"list_branches","description":"List the branches of the repository","inputSchema":{"type":"object","properties":{}}}`,
		`{"name":"merge_pull_request","description":"Merge a pull request into its base branch","inputSchema":{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}}`,
		`{"name":"create_issue","description":"Create a new issue in the repository","inputSchema":{"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"}},"required":["title"]}}`,
		`{"name":"close_issue","description":"Close an issue","inputSchema":{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}}`,
	},
	"chat": {
		`{"name":"post_message","description":"Post a message to a channel","inputSchema":{"type":"object","properties":{"channel":{"type":"string"},"text":{"type":"string"}},"required":["channel","text"]}}`,
		`{"name":"list_channels","description":"List the channels of the workspace","inputSchema":{"type":"object","properties":{}}}`,
		`{"name":"archive_channel","description":"Archive a channel so that nobody can post in it","inputSchema":{"type":"object","properties":{"channel":{"type":"string"}},"required":["channel"]}}`,
		`{"name":"invite_people","description":"Invite people to a channel","inputSchema":{"type":"object","properties":{"channel":{"type":"string"},"users":{"type":"array","items":{"type":"string"}}},"required":["channel","users"]}}`,
	},
	"calendar": {
		`{"name":"create_event","description":"Create an event in the calendar","inputSchema":{"type":"object","properties":{"title":{"type":"string"},"start":{"type":"string","format":"date-time"}},"required":["title","start"]}}`,
		`{"name":"schedule_meeting","description":"Schedule a meeting with attendees","inputSchema":{"type":"object","properties":{"attendees":{"type":"array","items":{"type":"string"}},"start":{"type":"string"}},"required":["attendees","start"]}}`,
		`{"name":"cancel_event","description":"Cancel an event and tell its attendees","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}`,
	},
}

// catalogued returns servers whose tool lists are in dir's catalog; their
// commands do not exist, so nothing can start them.
func catalogued(t *testing.T, dir string) []config.Server {
	t.Helper()
	var servers []config.Server
	for name, tools := range searchCatalog {
		srv := config.Server{Name: name, Transport: config.TransportStdio, Command: filepath.Join(dir, "no-such-server-"+name), Source: "test"}
		var raw []json.RawMessage
		for _, tool := range tools {
			raw = append(raw, json.RawMessage(tool))
		}
		if err := (catalog.Catalog{Dir: dir}).Store(srv, raw, ""); err != nil {
			t.Fatal(err)
		}
		servers = append(servers, srv)
	}
	return servers
}

// semanticAgg is an aggregator over the catalogued servers of dir, with
// the embedding ranker at url when url is not "", logging to logs.
func semanticAgg(t *testing.T, dir, url string, logs io.Writer, tune func(*config.EmbeddingsConfig)) *Aggregator {
	t.Helper()
	cfg := config.Default()
	cfg.CatalogDir = dir
	if url != "" {
		cfg.Search.Embeddings.URL, cfg.Search.Embeddings.Model = url, "stand-in"
	}
	if tune != nil {
		tune(&cfg.Search.Embeddings)
	}
	a, err := New(cfg, catalogued(t, dir), nil, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// rankOf is the rank (from 1) of server.tool in docs, or 0.
func rankOf(docs []ToolDoc, server, tool string) int {
	for i, d := range docs {
		if d.Server == server && d.Tool == tool {
			return i + 1
		}
	}
	return 0
}

func names(docs []ToolDoc) string {
	var out []string
	for _, d := range docs {
		out = append(out, fmt.Sprintf("%s.%s (%.4f)", d.Server, d.Tool, d.Score))
	}
	return strings.Join(out, ", ")
}

// liftExamples are queries the lexical ranker gets wrong, with the tool
// meant: a real model, like the stand-in, knows what their words mean.
var liftExamples = []struct{ query, server, tool string }{
	{"palaver with folks", "calendar", "schedule_meeting"},  // no word of it is in any tool
	{"bin the branch once merged", "repo", "delete_branch"}, // "merged" pulls merge_pull_request up
}

// With the embedding ranker, search finds what words alone miss, and still
// finds what they find; the fused ranking is reciprocal rank fusion of the
// two.
func TestEmbeddingsLiftWhatWordsMiss(t *testing.T) {
	standIn := &embeddingStandIn{t: t}
	srv := httptest.NewServer(standIn)
	defer srv.Close()
	lexical := semanticAgg(t, t.TempDir(), "", io.Discard, nil)
	fused := semanticAgg(t, t.TempDir(), srv.URL, io.Discard, nil)
	for _, ex := range liftExamples {
		l, err := lexical.Search(t.Context(), ex.query, 5, "summary")
		if err != nil {
			t.Fatal(err)
		}
		f, err := fused.Search(t.Context(), ex.query, 5, "summary")
		if err != nil {
			t.Fatal(err)
		}
		lr, fr := rankOf(l, ex.server, ex.tool), rankOf(f, ex.server, ex.tool)
		t.Logf("%q: %s.%s is %s by words alone, %d fused\n  words: %s\n  fused: %s", ex.query, ex.server, ex.tool, rankWord(lr), fr, names(l), names(f))
		if lr == 1 {
			t.Errorf("%q: the lexical ranker already finds %s.%s: the example shows nothing", ex.query, ex.server, ex.tool)
		}
		if fr != 1 {
			t.Errorf("%q: %s.%s is %d in the fused ranking, want 1", ex.query, ex.server, ex.tool, fr)
		}
		if want := 1.0/(60+1) + 1.0/float64(60+lr); lr > 0 && math.Abs(f[0].Score-want) > 1e-9 {
			t.Errorf("%q: fused score %v, want 1/61 + 1/%d = %v (first by embedding, %d by words)", ex.query, f[0].Score, 60+lr, want, lr)
		}
	}
	// What words find, fusion keeps.
	for query, want := range map[string]string{"create an issue": "create_issue", "archive a channel": "archive_channel", "merge a pull request": "merge_pull_request"} {
		f, err := fused.Search(t.Context(), query, 3, "summary")
		if err != nil || len(f) == 0 || f[0].Tool != want {
			t.Errorf("fused search %q = %s, %v; want %s first", query, names(f), err, want)
		}
	}
	// A query whose words mean nothing to either ranker finds nothing.
	if f, err := fused.Search(t.Context(), "zzqx vvbn", 5, "summary"); err != nil || len(f) != 0 {
		t.Errorf("fused search for nonsense = %s, %v; want nothing", names(f), err)
	}
}

func rankWord(r int) string {
	if r == 0 {
		return "absent"
	}
	return fmt.Sprintf("%d", r)
}

// Tools are embedded once: the first search asks for the query and every
// tool, later ones for the query alone, and so does a later process (a
// new aggregator) over the same catalog directory.
func TestEmbeddingsAreCachedInTheCatalog(t *testing.T) {
	standIn := &embeddingStandIn{t: t}
	srv := httptest.NewServer(standIn)
	defer srv.Close()
	dir := t.TempDir()
	tools := 0
	for _, ts := range searchCatalog {
		tools += len(ts)
	}
	type count struct{ requests, texts int64 }
	step := func(a *Aggregator, what string, want count) {
		t.Helper()
		before := count{standIn.requests.Load(), standIn.texts.Load()}
		hits, err := a.Search(t.Context(), "bin the branch once merged", 3, "summary")
		if err != nil || rankOf(hits, "repo", "delete_branch") != 1 {
			t.Fatalf("%s: %s, %v", what, names(hits), err)
		}
		got := count{standIn.requests.Load() - before.requests, standIn.texts.Load() - before.texts}
		t.Logf("%s: %d requests, %d texts embedded", what, got.requests, got.texts)
		if got != want {
			t.Errorf("%s: %d requests for %d texts, want %d for %d", what, got.requests, got.texts, want.requests, want.texts)
		}
	}
	first := semanticAgg(t, dir, srv.URL, io.Discard, nil)
	step(first, "first search", count{3, int64(tools) + 1}) // the query; the 13 tools in batches of 8 and 5
	step(first, "second search", count{1, 1})
	step(semanticAgg(t, dir, srv.URL, io.Discard, nil), "first search of a new process", count{1, 1})
	stored, err := filepath.Glob(filepath.Join(dir, "embeddings", "*.f32"))
	if err != nil || len(stored) != tools {
		t.Errorf("the catalog holds %d vectors, want %d: %v", len(stored), tools, err)
	}
}

// When the embedding server fails in any way, search is what it is without
// it, word for word and score for score; one warning says so, and the
// server is left alone for a while (no request) before it is asked again.
func TestEmbeddingServerFailureFallsBackToWords(t *testing.T) {
	huge := `{"data":[{"embedding":[` + strings.Repeat("0.25,", 30_000) + `0.25],"index":0}]}` // 150 KB
	failures := []struct {
		name string
		h    http.HandlerFunc
		log  string
	}{
		{"an error status", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error":{"message":"model not found"}}`, http.StatusNotFound)
		}, "404 Not Found: model not found"},
		{"no answer in time", func(_ http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // so that the server notices the client leave
			<-r.Context().Done()
		}, "Client.Timeout"},
		{"an oversized answer", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, huge) }, "over the 65536 bytes accepted"},
		{"not an embeddings answer", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"data":[]}`) }, "0 vectors in the answer to a request for 1"},
		{"nobody listening", nil, "connection refused"},
	}
	lexical := semanticAgg(t, t.TempDir(), "", io.Discard, nil)
	want, err := lexical.Search(t.Context(), liftExamples[1].query, 5, "summary")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			standIn := &embeddingStandIn{t: t}
			standIn.failWith(f.h)
			srv := httptest.NewServer(standIn)
			defer srv.Close()
			url := srv.URL
			if f.h == nil {
				srv.Close()
			}
			var logs testenv.Buffer
			a := semanticAgg(t, t.TempDir(), url, &logs, func(e *config.EmbeddingsConfig) {
				e.Timeout, e.MaxResponseBytes = 300*time.Millisecond, 64<<10
			})
			now := time.Now()
			a.semantic.now = func() time.Time { return now }
			for i := range 3 {
				got, err := a.Search(t.Context(), liftExamples[1].query, 5, "summary")
				if err != nil {
					t.Fatal(err)
				}
				if names(got) != names(want) {
					t.Fatalf("search %d with a failing embedding server:\n%s\nwant what words alone give:\n%s", i+1, names(got), names(want))
				}
			}
			warnings := strings.Count(logs.String(), "level=WARN")
			if warnings != 1 || !strings.Contains(logs.String(), f.log) {
				t.Errorf("%d warnings, want 1 saying %q:\n%s", warnings, f.log, logs.String())
			}
			if f.h != nil {
				if n := standIn.requests.Load(); n != 1 {
					t.Errorf("the failed server got %d requests in three searches, want 1 (then it is left alone)", n)
				}
				// Once it answers, and its wait is over, fusion is back.
				standIn.failWith(nil)
				now = now.Add(embeddingRetry)
				got, err := a.Search(t.Context(), liftExamples[1].query, 5, "summary")
				if err != nil || rankOf(got, "repo", "delete_branch") != 1 {
					t.Errorf("after the server recovered: %s, %v", names(got), err)
				}
				if !strings.Contains(logs.String(), "answers again") {
					t.Errorf("no record of the recovery:\n%s", logs.String())
				}
			}
		})
	}
}

// The key is read from the variable api_key_env names, sent as a bearer
// token, and written nowhere: not in the log, even at debug level, when
// the server quotes it back in an error, nor in the catalog.
func TestTheEmbeddingKeyStaysOutOfLogsAndCaches(t *testing.T) {
	const key = "sk-embed-test-6f1e2d3c"
	t.Setenv("MCM_TEST_EMBEDDING_KEY", key)
	standIn := &embeddingStandIn{t: t, key: key}
	srv := httptest.NewServer(standIn)
	defer srv.Close()
	dir := t.TempDir()
	var logs testenv.Buffer
	a := semanticAgg(t, dir, srv.URL, &logs, func(e *config.EmbeddingsConfig) { e.APIKeyEnv = "MCM_TEST_EMBEDDING_KEY" })
	hits, err := a.Search(t.Context(), liftExamples[0].query, 3, "summary")
	if err != nil || rankOf(hits, "calendar", "schedule_meeting") != 1 {
		t.Fatalf("search with the key: %s, %v (the stand-in refuses requests without it)", names(hits), err)
	}
	standIn.failWith(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "rejected "+r.Header.Get("Authorization")+" for "+r.Header.Get("Authorization")[7:], http.StatusForbidden)
	})
	a.semantic.now = func() time.Time { return time.Now().Add(time.Hour) }
	if _, err := a.Search(t.Context(), "schedule", 3, "summary"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "403 Forbidden: rejected Bearer [redacted]") {
		t.Errorf("the log does not record the refusal:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), key) {
		t.Errorf("the log shows the key:\n%s", logs.String())
	}
	if leaks := filesHolding(t, dir, key); len(leaks) > 0 {
		t.Errorf("the catalog holds the key in %v", leaks)
	}
}

// filesHolding lists the files under dir that contain s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(s)) {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// search_tool_docs takes a list of phrasings: each is ranked and the
// rankings fused, so a tool that several phrasings agree on comes first,
// and one phrasing that words miss does not sink the others. A bad query is
// refused with what was wrong. Every hit carries its one-line signature.
func TestSearchToolDocsTakesSeveralPhrasings(t *testing.T) {
	a := semanticAgg(t, t.TempDir(), "", io.Discard, nil)
	helper := func(params string) ([]ToolDoc, error) {
		t.Helper()
		v, err := a.helper(t.Context(), "search_tool_docs", json.RawMessage(params), nil, "")
		if err != nil {
			return nil, err
		}
		return v.([]ToolDoc), nil
	}
	one, err := helper(`{"query": "palaver with folks", "limit": 3}`)
	if err != nil || len(one) != 0 {
		t.Fatalf("one phrasing words miss: %s, %v; want nothing", names(one), err)
	}
	several, err := helper(`{"query": ["palaver with folks", "set up a meeting with people", "arrange a meeting"], "limit": 3}`)
	if err != nil || len(several) == 0 {
		t.Fatalf("several phrasings: %s, %v", names(several), err)
	}
	t.Logf("fused over three phrasings: %s", names(several))
	if several[0].Tool != "schedule_meeting" {
		t.Errorf("first hit %s, want calendar.schedule_meeting", names(several))
	}
	if want := "await mcp_calendar.schedule_meeting(attendees: list[str], start: str) -> Any"; several[0].Signature != want {
		t.Errorf("signature %q, want %q", several[0].Signature, want)
	}
	if several[0].Stub != "" || several[0].InputSchema != nil {
		t.Errorf("summary detail carries the stub or schema: %+v", several[0])
	}
	// A list of one is the string itself, score for score.
	a1, err1 := helper(`{"query": ["create an issue"]}`)
	a2, err2 := helper(`{"query": "create an issue"}`)
	if err1 != nil || err2 != nil || names(a1) != names(a2) {
		t.Errorf("[q] gives %s (%v), q gives %s (%v)", names(a1), err1, names(a2), err2)
	}
	for params, want := range map[string]string{
		`{"query": 5}`:          "query must be a str or a list of str",
		`{"query": ["a", 5]}`:   "query must be a str or a list of str",
		`{"query": {"q": "a"}}`: "query must be a str or a list of str",
		`{"query": []}`:         "empty list",
		`{"query": null}`:       "query must be a str or a list of str",
		`{"query": ["a","b","c","d","e","f","g","h","i","j","k"]}`: "11 phrasings, at most 10",
	} {
		_, err := helper(params)
		var r *Refusal
		if !errors.As(err, &r) || !strings.Contains(r.Msg, want) {
			t.Errorf("search_tool_docs(%s) = %v, want a refusal saying %q", params, err, want)
		}
	}
}

// From a program: runtime.search_tool_docs takes a list of phrasings, its
// hits carry the line to call, and a query of another type is refused with
// what it must be.
func TestSearchToolDocsFromAProgram(t *testing.T) {
	clitest.NeedEngine(t)
	dir := t.TempDir()
	a := newAgg(t, func(c *config.Config) { c.CatalogDir = dir }, catalogued(t, dir)...)
	res := run(t, a, `from mcp import runtime
hits = await runtime.search_tool_docs(["palaver with folks", "set up a meeting with people"], limit=2)
print(hits[0]["signature"])
print(runtime.search_tool_docs_sync(("create an issue",), limit=1)[0]["signature"])
try:
    await runtime.search_tool_docs(42)
except Exception as e:
    print(type(e).__name__, e)`)
	mustSucceed(t, res)
	want := "await mcp_calendar.schedule_meeting(attendees: list[str], start: str) -> Any\n" +
		"await mcp_repo.create_issue(title: str, body: str | None = None) -> Any\n" +
		"ToolError search_tool_docs: query must be a str or a list of str\n"
	if res.Stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", res.Stdout, want)
	}
}
