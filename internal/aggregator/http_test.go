package aggregator

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

func TestHTTPGuardRefusesForeignHostsOriginsAndMissingTokens(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	tests := []struct {
		name   string
		opts   HTTPOptions
		host   string
		origin string
		auth   string
		want   int
	}{
		{"loopback host", HTTPOptions{}, "127.0.0.1:8931", "", "", http.StatusTeapot},
		{"localhost host", HTTPOptions{}, "localhost:8931", "", "", http.StatusTeapot},
		{"ipv6 loopback", HTTPOptions{}, "[::1]:8931", "", "", http.StatusTeapot},
		{"rebinding host", HTTPOptions{}, "evil.example:8931", "", "", http.StatusForbidden},
		{"allowed host", HTTPOptions{AllowedHosts: []string{"mcp.internal"}}, "mcp.internal:8931", "", "", http.StatusTeapot},
		{"same-site origin", HTTPOptions{}, "127.0.0.1:8931", "http://localhost:3000", "", http.StatusTeapot},
		{"foreign origin", HTTPOptions{}, "127.0.0.1:8931", "https://evil.example", "", http.StatusForbidden},
		{"null origin", HTTPOptions{}, "127.0.0.1:8931", "null", "", http.StatusForbidden},
		{"token missing", HTTPOptions{Token: "t0k"}, "127.0.0.1:8931", "", "", http.StatusUnauthorized},
		{"token wrong", HTTPOptions{Token: "t0k"}, "127.0.0.1:8931", "", "Bearer nope", http.StatusUnauthorized},
		{"token right", HTTPOptions{Token: "t0k"}, "127.0.0.1:8931", "", "Bearer t0k", http.StatusTeapot},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}"))
			req.Host = tt.host
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			guard(tt.opts, ok).ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Fatalf("status %d, want %d (%s)", rec.Code, tt.want, rec.Body)
			}
		})
	}
}

// A browser page may read answers only when its origin was allowed by name:
// the attack is a page on another local port (or a foreign site) calling the
// server through a visitor's browser.
func TestHTTPGuardAnswersCORSOnlyForAllowedOrigins(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	opts := HTTPOptions{Token: "t0k", AllowedOrigins: []string{"http://127.0.0.1:8099/", "HTTPS://Editor.Example"}}
	tests := []struct {
		name, method, origin, auth string
		want                       int
		cors                       bool
	}{
		{"preflight from an allowed origin", http.MethodOptions, "http://127.0.0.1:8099", "", http.StatusNoContent, true},
		{"allowed origin, case and slash as browsers send", http.MethodOptions, "https://editor.example", "", http.StatusNoContent, true},
		{"call from an allowed origin", http.MethodPost, "http://127.0.0.1:8099", "Bearer t0k", http.StatusTeapot, true},
		{"allowed origin still needs the token", http.MethodPost, "http://127.0.0.1:8099", "", http.StatusUnauthorized, true},
		{"preflight from another loopback port", http.MethodOptions, "http://127.0.0.1:3000", "", http.StatusUnauthorized, false},
		{"call from another loopback port", http.MethodPost, "http://localhost:3000", "Bearer t0k", http.StatusTeapot, false},
		{"preflight from a foreign site", http.MethodOptions, "https://evil.example", "", http.StatusForbidden, false},
		{"lookalike of an allowed origin", http.MethodOptions, "https://editor.example.evil", "", http.StatusForbidden, false},
		{"allowed host but other scheme", http.MethodOptions, "http://editor.example", "", http.StatusForbidden, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "/mcp", strings.NewReader("{}"))
			req.Host = "127.0.0.1:8931"
			req.Header.Set("Origin", tt.origin)
			if tt.method == http.MethodOptions {
				req.Header.Set("Access-Control-Request-Method", "POST")
				req.Header.Set("Access-Control-Request-Headers", "content-type, mcp-protocol-version")
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			guard(opts, ok).ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("status %d, want %d (%s)", rec.Code, tt.want, rec.Body)
			}
			acao := rec.Header().Get("Access-Control-Allow-Origin")
			if tt.cors && acao != tt.origin {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", acao, tt.origin)
			}
			if !tt.cors && acao != "" {
				t.Errorf("Access-Control-Allow-Origin %q for an origin that was not allowed", acao)
			}
			if exposed := rec.Header().Get("Access-Control-Expose-Headers"); tt.cors && exposed != "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate" {
				t.Errorf("exposed headers %q, want the session, protocol version and authentication headers", exposed)
			}
			if tt.cors && tt.method == http.MethodOptions && rec.Header().Get("Access-Control-Allow-Headers") != "content-type, mcp-protocol-version" {
				t.Errorf("Access-Control-Allow-Headers %q", rec.Header().Get("Access-Control-Allow-Headers"))
			}
		})
	}
}

func TestNormalizeOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8099":   "http://127.0.0.1:8099",
		"HTTPS://Editor.Example/": "https://editor.example",
		"http://[::1]:80":         "http://[::1]:80",
	} {
		if got, err := NormalizeOrigin(in); err != nil || got != want {
			t.Errorf("NormalizeOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "127.0.0.1:8099", "file:///tmp", "http://", "http://a/b", "http://a?x=1", "http://u@a", "null", "*"} {
		if got, err := NormalizeOrigin(bad); err == nil {
			t.Errorf("NormalizeOrigin(%q) = %q, want an error", bad, got)
		}
	}
}

// A body over the cap is refused with 413: before any of it is read when
// it says its length, and after MaxRequestBytes when it does not (chunked).
func TestHTTPGuardCapsRequestBodies(t *testing.T) {
	read := 0
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		read = len(b)
		if err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		w.WriteHeader(http.StatusTeapot)
	})
	h := guard(HTTPOptions{}, next)
	// Declared too large: refused unread.
	body := &countingReader{r: strings.NewReader(strings.Repeat("x", 100))}
	req := httptest.NewRequest(http.MethodPost, "/mcp", body)
	req.Host, req.ContentLength = "127.0.0.1:8931", 600<<20
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || body.n != 0 {
		t.Errorf("declared 600 MB: status %d, %d bytes read; want 413 and none", rec.Code, body.n)
	}
	// Undeclared (chunked) and too large: read up to the cap only.
	body = &countingReader{r: io.LimitReader(zeros{}, 600<<20)}
	req = httptest.NewRequest(http.MethodPost, "/mcp", body)
	req.Host, req.ContentLength = "127.0.0.1:8931", -1
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || body.n > MaxRequestBytes+64<<10 || read > MaxRequestBytes {
		t.Errorf("chunked 600 MB: status %d, %d bytes read from the client, %d handed on; want 413 and at most the cap", rec.Code, body.n, read)
	}
	// Within the cap: handed on whole.
	req = httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}"))
	req.Host = "127.0.0.1:8931"
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusTeapot || read != 2 {
		t.Errorf("small body: status %d, %d bytes; want it handed on", rec.Code, read)
	}
	// The whole handler, in front of mcp-go, says 413 too.
	a, err := New(config.Default(), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	req = httptest.NewRequest(http.MethodPost, "/mcp", io.LimitReader(zeros{}, 600<<20))
	req.Host, req.ContentLength = "127.0.0.1:8931", -1
	req.Header.Set("Content-Type", "application/json")
	rec = httptest.NewRecorder()
	a.HTTPHandler(HTTPOptions{}).ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked 600 MB to HTTPHandler: status %d, want 413 (%s)", rec.Code, clip(rec.Body.String(), 200))
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// The token file is created once, the owner's alone, and read again after;
// a file others could read is narrowed; a token too short is refused.
func TestLoadOrCreateToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", TokenFile)
	tok, err := LoadOrCreateToken(path)
	if err != nil || len(tok) != 64 {
		t.Fatalf("new token %q, %v", tok, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v, %v; want 0600", fi.Mode(), err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := LoadOrCreateToken(path)
	if err != nil || again != tok {
		t.Fatalf("second read %q, %v; want the same token", again, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("a world-readable token file was left %v", fi.Mode())
	}
	if err := os.WriteFile(path, []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateToken(path); err == nil || !strings.Contains(err.Error(), "shorter") {
		t.Errorf("a short token: %v", err)
	}
}

// A client that sends its body slowly does not hold a handler: reading the
// body fails at the body timeout. A request whose body came in time keeps
// its connection without a deadline, so a long answer is not cut.
func TestHTTPGuardTimesOutSlowBodies(t *testing.T) {
	got := make(chan error, 2)
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		if err == nil {
			time.Sleep(600 * time.Millisecond) // a long answer, past the body timeout
			_, err = w.Write([]byte("done"))
		}
		got <- err
	})
	srv := httptest.NewServer(guard(HTTPOptions{BodyTimeout: 300 * time.Millisecond}, next))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")

	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Length: 100\r\n\r\n{", host)
	select {
	case err := <-got:
		if err == nil || !strings.Contains(err.Error(), "timeout") {
			t.Errorf("reading a body that never comes: %v, want a timeout", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler is still waiting for the body")
	}

	resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := <-got; err != nil || string(body) != "done" {
		t.Errorf("a body in time, a long answer: %v %q", err, body)
	}
}

// A tokens file holds one token a line; one others can read, a short or
// repeated token, a token with a space, and an empty file are refused,
// naming the file and line.
func TestLoadTokens(t *testing.T) {
	dir := t.TempDir()
	write := func(content string, mode os.FileMode) string {
		p := filepath.Join(dir, fmt.Sprintf("tokens-%d", time.Now().UnixNano()))
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("# clients\n\n  first-token-0123456789  \nsecond-token-0123456789\n", 0o600)
	tokens, err := LoadTokens(good)
	if err != nil || strings.Join(tokens, ",") != "first-token-0123456789,second-token-0123456789" {
		t.Fatalf("LoadTokens = %q, %v", tokens, err)
	}
	for content, want := range map[string]string{
		"short-token\n":                          ":1: the token is shorter than 16 characters",
		"a-token-0123456789 more\n":              ":1: a token has no spaces",
		"a-token-0123456789\na-token-0123456789": ":2: the same token as line 1",
		"# nothing\n\n":                          ": no token in it",
	} {
		if _, err := LoadTokens(write(content, 0o600)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadTokens(%q) = %v, want %q", content, err, want)
		}
	}
	for _, mode := range []os.FileMode{0o640, 0o604} {
		if _, err := LoadTokens(write("first-token-0123456789\n", mode)); err == nil || !strings.Contains(err.Error(), "others may read it") {
			t.Errorf("a tokens file of mode %#o: %v, want refused", mode, err)
		}
	}
}

// The guard accepts each of several tokens, and gives each request the
// namespace of its token (NoAuthNamespace without tokens).
func TestHTTPGuardGivesEachTokenItsNamespace(t *testing.T) {
	seen := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, namespaceFrom(r.Context())) })
	opts := HTTPOptions{Tokens: []string{"token-one-0123456789", "token-two-0123456789"}}
	h := guard(opts, seen)
	for _, tc := range []struct{ auth, want string }{
		{"Bearer token-one-0123456789", TokenNamespace("token-one-0123456789")},
		{"Bearer token-two-0123456789", TokenNamespace("token-two-0123456789")},
		{"Bearer token-three-0123456789", "401"},
		{"", "401"},
	} {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader("{}"))
		if tc.auth != "" {
			r.Header.Set("Authorization", tc.auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		got := w.Body.String()
		if w.Code == http.StatusUnauthorized {
			got = "401"
		}
		if got != tc.want {
			t.Errorf("Authorization %q: %q, want %q", tc.auth, got, tc.want)
		}
	}
	if a, b := TokenNamespace("token-one-0123456789"), TokenNamespace("token-two-0123456789"); a == b || !strings.HasPrefix(a, "http:") || len(a) != len("http:")+32 {
		t.Errorf("token namespaces %q and %q", a, b)
	}
	w := httptest.NewRecorder()
	guard(HTTPOptions{}, seen).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/mcp", nil))
	if w.Body.String() != NoAuthNamespace {
		t.Errorf("without tokens: namespace %q, want %q", w.Body.String(), NoAuthNamespace)
	}
}
