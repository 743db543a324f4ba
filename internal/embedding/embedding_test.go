package embedding

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/catalog"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
)

// standIn is an embedding server for the tests: it checks each request as
// the OpenAI-compatible API defines it and answers with a vector per text
// (its length, then its first byte), in reverse order, with their indexes.
type standIn struct {
	t        *testing.T
	key      string // the bearer token it wants ("" = none)
	requests atomic.Int64
	texts    atomic.Int64
}

func (s *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || r.Header.Get("Content-Type") != "application/json" {
		s.t.Errorf("request %s %s (%s), want POST /v1/embeddings with JSON", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		http.Error(w, "no", http.StatusNotFound)
		return
	}
	if got := r.Header.Get("Authorization"); s.key != "" && got != "Bearer "+s.key || s.key == "" && got != "" {
		http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "test-model" || len(req.Input) == 0 || len(req.Input) > BatchSize {
		s.t.Errorf("request body: %+v, %v", req, err)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.texts.Add(int64(len(req.Input)))
	type item struct {
		Embedding []float64 `json:"embedding"`
		Index     int       `json:"index"`
	}
	var resp struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
	}
	resp.Object = "list"
	for i := len(req.Input) - 1; i >= 0; i-- {
		in := req.Input[i]
		first := 0.0
		if in != "" {
			first = float64(in[0])
		}
		resp.Data = append(resp.Data, item{Embedding: []float64{float64(len(in)), first, 1}, Index: i})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func newClient(t *testing.T, url, key string) *Client {
	t.Helper()
	c, err := New(Options{URL: url, Model: "test-model", APIKey: key, Timeout: 5 * time.Second, MaxResponseBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestEmbedAgainstAStandIn(t *testing.T) {
	s := &standIn{t: t, key: "sk-test-0123456789"}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c := newClient(t, srv.URL, s.key)
	var texts []string
	for i := range 20 {
		texts = append(texts, strings.Repeat("x", i)+"abc")
	}
	vecs, err := c.Embed(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) != 3 || v[0] != float32(len(texts[i])) || v[2] != 1 {
			t.Errorf("vector %d = %v: not the vector of %q (answers in another order are put back in order by their index)", i, v, texts[i])
		}
	}
	if n := s.requests.Load(); n != 3 {
		t.Errorf("%d requests for 20 texts, want 3 (batches of %d)", n, BatchSize)
	}

	// Without the key the server refuses, and the error says what it said.
	_, err = newClient(t, srv.URL, "").Embed(t.Context(), []string{"a"})
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "bad key") {
		t.Errorf("Embed without the key = %v, want the server's 401 and its message", err)
	}
}

func TestEndpoint(t *testing.T) {
	for url, want := range map[string]string{
		"http://localhost:11434":         "http://localhost:11434/v1/embeddings",
		"http://localhost:11434/":        "http://localhost:11434/v1/embeddings",
		"http://localhost:11434/v1":      "http://localhost:11434/v1/embeddings",
		"http://localhost:11434/v1/":     "http://localhost:11434/v1/embeddings",
		"https://models.example/ollama/": "https://models.example/ollama/v1/embeddings",
	} {
		if got := newClient(t, url, "").endpoint; got != want {
			t.Errorf("endpoint of %s = %s, want %s", url, got, want)
		}
	}
	for _, bad := range []string{"", "localhost:11434", "ftp://h", "http://", "http://u:p@h", "http://h?key=1"} {
		if _, err := New(Options{URL: bad, Model: "m", Timeout: time.Second, MaxResponseBytes: 1 << 20}); err == nil {
			t.Errorf("New accepted the URL %q", bad)
		}
	}
}

// Every answer that is not exactly one finite vector per text, all of one
// length, is refused, and so is one that is too large, too slow, a
// redirect, or an error page; no error shows the key, even when the server
// quotes it back.
func TestHostileAnswersAreRefused(t *testing.T) {
	const key = "sk-hostile-test-key-42"
	type answer struct {
		name string
		h    http.HandlerFunc
		want string // in the error
	}
	var answers []answer
	files, err := filepath.Glob(filepath.Join("testdata", "hostile", "*.json"))
	if err != nil || len(files) < 10 {
		t.Fatalf("hostile fixtures: %v %v", files, err)
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, answer{filepath.Base(f), func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }, ""})
	}
	many := func(dims int) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			v := strings.TrimSuffix(strings.Repeat("0.5,", dims), ",")
			fmt.Fprintf(w, `{"data":[{"embedding":[%s],"index":0},{"embedding":[%s],"index":1}]}`, v, v)
		}
	}
	huge := strings.Repeat("0.123456789,", 200_000) // 2.4 MB
	release := make(chan struct{})
	defer close(release)
	answers = append(answers,
		answer{"too many dimensions", many(MaxDims + 1), "dimensions"},
		answer{"a huge answer that says its length", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(len(huge)+40))
			fmt.Fprintf(w, `{"data":[{"embedding":[%s0],"index":0}]}`, huge)
		}, "over the 1048576 bytes accepted"},
		answer{"a huge answer that does not", func(w http.ResponseWriter, _ *http.Request) {
			w.(http.Flusher).Flush() // chunked: no Content-Length
			fmt.Fprintf(w, `{"data":[{"embedding":[%s0],"index":0}]}`, huge)
		}, "over the 1048576 bytes accepted"},
		answer{"an error quoting the key", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"key `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+` is not valid"}}`, http.StatusForbidden)
		}, "403 Forbidden: key [redacted] is not valid"},
		answer{"no answer in time", func(_ http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // the server notices the client leave only once the body is read
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}, "Client.Timeout"},
	)
	// An error holds no escape from the server, in its status line or its
	// body: the error reaches a log line and the terminal.
	answers = append(answers,
		answer{"an error page holding escapes", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "overloaded \x1b]0;pwned\a\x1b[2J\u202e now", http.StatusInternalServerError)
		}, "500 Internal Server Error: overloaded ]0;pwned [2J now"},
		answer{"a status line holding escapes", func(w http.ResponseWriter, _ *http.Request) {
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			buf.WriteString("HTTP/1.1 503 Busy \x1b]0;pwned\a\u202e now\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			buf.Flush()
		}, "503 Busy ]0;pwned now"},
	)
	// A redirect is not followed: the key and the texts go nowhere else.
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	answers = append(answers, answer{"a redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/v1/embeddings", http.StatusTemporaryRedirect)
	}, "307"})

	for _, a := range answers {
		t.Run(a.name, func(t *testing.T) {
			srv := httptest.NewServer(a.h)
			defer srv.Close()
			c, err := New(Options{URL: srv.URL, Model: "m", APIKey: key, Timeout: 500 * time.Millisecond, MaxResponseBytes: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			vecs, err := c.Embed(t.Context(), []string{"first", "second"})
			if err == nil {
				t.Fatalf("Embed accepted the answer: %v", vecs)
			}
			t.Logf("refused: %v", err)
			if !strings.Contains(err.Error(), a.want) {
				t.Errorf("error %q does not say %q", err, a.want)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("the error shows the key: %v", err)
			}
			if !printable.Is(err.Error()) {
				t.Errorf("the error holds an unprintable character: %q", err)
			}
		})
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the redirect was followed %d times", n)
	}
}

// Vectors are embedded once: a second call, or another client over the
// same catalog, asks only for what the catalog lacks; a cached vector of
// another length (the model changed behind its name) is embedded again.
func TestVectorsAreCachedByContent(t *testing.T) {
	s := &standIn{t: t}
	srv := httptest.NewServer(s)
	defer srv.Close()
	cache := catalog.Catalog{Dir: t.TempDir()}
	texts := []string{"alpha", "beta", "gamma"}

	vecs, n, err := newClient(t, srv.URL, "").Vectors(t.Context(), cache, texts, 3)
	if err != nil || n != 3 || len(vecs) != 3 || vecs[1][0] != 4 {
		t.Fatalf("Vectors = %v, %d, %v", vecs, n, err)
	}
	again, n, err := newClient(t, srv.URL, "").Vectors(t.Context(), cache, append(texts, "delta"), 3)
	if err != nil || n != 1 || len(again) != 4 || again[0][0] != 5 || again[3][0] != 5 {
		t.Fatalf("second Vectors = %v, %d embedded, %v; want only delta embedded", again, n, err)
	}
	if got := s.texts.Load(); got != 4 {
		t.Errorf("the server embedded %d texts, want 4", got)
	}
	// A vector stored under another model's key is not this model's.
	other, err := New(Options{URL: srv.URL, Model: "other-model", Timeout: time.Second, MaxResponseBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if other.Key("alpha") == newClient(t, srv.URL, "").Key("alpha") {
		t.Error("two models share a cache key")
	}
	// The query now has 4 dimensions: the cached 3-dimensional vectors are
	// not used, and the server's 3-dimensional ones are refused.
	if _, _, err := newClient(t, srv.URL, "").Vectors(t.Context(), cache, texts, 4); err == nil || !strings.Contains(err.Error(), "dimensions") {
		t.Errorf("Vectors with dims 4 = %v, want an error about dimensions", err)
	}
	if got := s.texts.Load(); got != 7 {
		t.Errorf("the server embedded %d texts, want 7 (the 3 cached of another length again)", got)
	}
}

// decode never panics and accepts only what it promises.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "hostile", "*.json"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b, 2)
	}
	f.Add([]byte(`{"data":[{"embedding":[0.1,0.2],"index":1},{"embedding":[0.3,0.4],"index":0}]}`), 2)
	f.Add([]byte(`{"data":[{"embedding":[1]}]}`), 1)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 0 || n > 64 {
			return
		}
		vecs, err := decode(data, n)
		if err != nil {
			return
		}
		if len(vecs) != n {
			t.Fatalf("%d vectors for %d texts", len(vecs), n)
		}
		for _, v := range vecs {
			if len(v) == 0 || len(v) > MaxDims || len(v) != len(vecs[0]) {
				t.Fatalf("vector of %d dimensions accepted", len(v))
			}
		}
	})
}
