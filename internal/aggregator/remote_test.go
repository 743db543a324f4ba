package aggregator

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/catalog"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/oauth"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

// httpTestServer starts the test server over streamable HTTP and returns
// its /mcp URL.
func httpTestServer(t *testing.T) string {
	t.Helper()
	return remoteTestServer(t, "-http")
}

// remoteTestServer starts the test server with mode ("-http" or "-sse") and
// returns its URL.
func remoteTestServer(t *testing.T, mode string) string {
	t.Helper()
	return clitest.RemoteTestServer(t, mode, "-name", "remote")
}

// proxy puts check in front of the server at target. It reads each
// request's body whole before passing it on: a reverse proxy that streams
// the body can lose the response when the server answers before the proxy
// has seen the body end (go.dev/issue/40747), which made these tests fail
// now and then under load.
func proxy(t *testing.T, target string, check func(w http.ResponseWriter, r *http.Request) bool) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !check(w, r) {
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength = http.NoBody, 0
		if len(body) > 0 {
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + u.Path
}

func TestARemoteServerGetsItsBearerTokenFromAVariable(t *testing.T) {
	clitest.NeedEngine(t)
	var sawToken atomic.Value
	url := proxy(t, httpTestServer(t), func(w http.ResponseWriter, r *http.Request) bool {
		sawToken.Store(r.Header.Get("Authorization"))
		if r.Header.Get("Authorization") != "Bearer s3cret-token" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return false
		}
		return true
	})
	srv := config.Server{Name: "remote", Transport: config.TransportHTTP, URL: url, BearerTokenEnv: "MCM_TEST_TOKEN", Source: "test"}

	t.Setenv("MCM_TEST_TOKEN", "s3cret-token")
	dir := t.TempDir()
	a := newAgg(t, func(c *config.Config) { c.CatalogDir = dir }, srv)
	res := run(t, a, `
print(await mcp_remote.add(a=2, b=3))
try:
    await mcp_remote.add(a="2", b=3)
except ToolError as e:
    print("refused:", e)
`, "remote")
	mustSucceed(t, res)
	if !strings.HasPrefix(res.Stdout, "{'sum': 5}\nrefused: arguments of remote.add do not match") {
		t.Fatalf("stdout %q", res.Stdout)
	}
	if sawToken.Load() != "Bearer s3cret-token" {
		t.Fatalf("the server saw Authorization %q", sawToken.Load())
	}
	// The token is in no cache file.
	if ct, ok := (catalog.Catalog{Dir: dir}).Load(srv); !ok || strings.Contains(string(mustJSON(t, ct)), "s3cret") {
		t.Fatalf("catalog: ok=%v, or it holds the token", ok)
	}

	// Wrong token: the server asks for authorization; the error names the
	// server and says what to configure.
	t.Setenv("MCM_TEST_TOKEN", "wrong")
	b := newAgg(t, nil, srv)
	res = b.Run(t.Context(), Request{Code: "print(1)", Servers: []string{"remote"}})
	if res.Error == nil || !strings.Contains(*res.Error, `start server "remote"`) || !strings.Contains(*res.Error, "authorization") || !strings.Contains(*res.Error, "bearer_token_env_var") {
		t.Fatalf("401: %s", deref(res.Error))
	}
	// Unset variable: said before any request.
	t.Setenv("MCM_TEST_TOKEN", "")
	c := newAgg(t, nil, srv)
	res = c.Run(t.Context(), Request{Code: "print(1)", Servers: []string{"remote"}})
	if res.Error == nil || !strings.Contains(*res.Error, "MCM_TEST_TOKEN is not set") {
		t.Fatalf("unset token: %s", deref(res.Error))
	}
}

func TestADroppedHTTPSessionIsRenewed(t *testing.T) {
	clitest.NeedEngine(t)
	var dropped atomic.Bool
	url := proxy(t, httpTestServer(t), func(w http.ResponseWriter, r *http.Request) bool {
		// The first tools/call after the session began: as if the server
		// had restarted and forgotten the session.
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") != "" && !dropped.Load() {
			body, _ := io.ReadAll(r.Body)
			if strings.Contains(string(body), `"tools/call"`) {
				dropped.Store(true)
				http.Error(w, "session not found", http.StatusNotFound)
				return false
			}
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			r.ContentLength = int64(len(body))
		}
		return true
	})
	srv := config.Server{Name: "remote", Transport: config.TransportHTTP, URL: url, Source: "test"}
	a := newAgg(t, nil, srv)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	res := a.Run(ctx, Request{Code: "print(await mcp_remote.add(a=40, b=2))", Servers: []string{"remote"}})
	if res.Error != nil || res.Stdout != "{'sum': 42}\n" {
		t.Fatalf("after a dropped session: %q %s", res.Stdout, deref(res.Error))
	}
	if !dropped.Load() {
		t.Fatal("the proxy never dropped the session: the test proves nothing")
	}
}

// The legacy HTTP+SSE transport goes through the same bridge: checked
// arguments, the headers of the entry, and the configured call timeout
// (not mcp-go's own wait for an SSE answer).
func TestAnSSEServerIsCalledThroughTheBridge(t *testing.T) {
	clitest.NeedEngine(t)
	var sawHeader atomic.Value
	url := proxy(t, remoteTestServer(t, "-sse"), func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/message" {
			sawHeader.Store(r.Header.Get("X-Team"))
		}
		return true
	})
	if !strings.HasSuffix(url, "/sse") {
		t.Fatalf("SSE URL %q", url)
	}
	srv := config.Server{Name: "remote", Transport: config.TransportSSE, URL: url, Headers: map[string]string{"X-Team": "blue"}, Source: "test"}
	a := newAgg(t, func(c *config.Config) { c.Limits.CallTimeout = time.Second }, srv)
	res := run(t, a, `
print(await mcp_remote.add(a=2, b=3))
try:
    await mcp_remote.add(a="2", b=3)
except ToolError as e:
    print("refused:", "do not match its schema" in str(e))
print(await mcp_remote.sleep(ms=200))
try:
    await mcp_remote.sleep(ms=3000)
except ToolError as e:
    print("refused:", e)
`, "remote")
	mustSucceed(t, res)
	want := "{'sum': 5}\nrefused: True\nslept 200\nrefused: remote.sleep timed out after 1s (limits.call_timeout)\n"
	if res.Stdout != want {
		t.Fatalf("stdout %q, want %q", res.Stdout, want)
	}
	if sawHeader.Load() != "blue" {
		t.Fatalf("the server saw X-Team %q", sawHeader.Load())
	}
}

// A remote server that is briefly unavailable (a gateway's 503 while it
// restarts) is tried again; one that stays so fails with what it said.
func TestARemoteServerBrieflyUnavailableIsTriedAgain(t *testing.T) {
	clitest.NeedEngine(t)
	target := httpTestServer(t)
	var refused, attempts, refuseFirst atomic.Int32
	refuseFirst.Store(2)
	url := proxy(t, target, func(w http.ResponseWriter, r *http.Request) bool {
		attempts.Add(1)
		if refused.Load() < refuseFirst.Load() {
			refused.Add(1)
			http.Error(w, "upstream restarting", http.StatusServiceUnavailable)
			return false
		}
		return true
	})
	srv := config.Server{Name: "remote", Transport: config.TransportHTTP, URL: url, Source: "test"}
	a := newAgg(t, nil, srv)
	res := run(t, a, "print(await mcp_remote.add(a=2, b=3))", "remote")
	mustSucceed(t, res)
	if res.Stdout != "{'sum': 5}\n" || refused.Load() != 2 {
		t.Fatalf("stdout %q after %d refusals", res.Stdout, refused.Load())
	}

	// Always 503: four attempts (the first and three more), then the error.
	refused.Store(0)
	refuseFirst.Store(1 << 30)
	attempts.Store(0)
	b := newAgg(t, nil, srv)
	res = b.Run(t.Context(), Request{Code: "print(1)", Servers: []string{"remote"}})
	if res.Error == nil || !strings.Contains(*res.Error, `start server "remote"`) || !strings.Contains(*res.Error, "503") {
		t.Fatalf("a server that stays unavailable: %s", deref(res.Error))
	}
	if n := attempts.Load(); n != 1+upstream.MaxConnectRetries {
		t.Fatalf("%d attempts, want %d", n, 1+upstream.MaxConnectRetries)
	}
}

// A remote server that asks for OAuth sign-in, and is not signed in, fails
// a run with the way to sign in (nothing waits for a browser); once a
// sign-in is stored (by `mcp-code-mode login`, in another process, while
// this one serves), the next run uses it at once, without waiting out the
// back-off of the failed start. Over streamable HTTP and over SSE.
func TestARunUsesASignInMadeMeanwhile(t *testing.T) {
	clitest.NeedEngine(t)
	for _, tc := range []struct{ mode, transport string }{{"-http", config.TransportHTTP}, {"-sse", config.TransportSSE}} {
		t.Run(tc.transport, func(t *testing.T) {
			const token = "tok-stored-by-another-login"
			var saw atomic.Value
			url := proxy(t, remoteTestServer(t, tc.mode), func(w http.ResponseWriter, r *http.Request) bool {
				saw.Store(r.Header.Get("Authorization"))
				if r.Header.Get("Authorization") != "Bearer "+token {
					w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
					http.Error(w, "sign in", http.StatusUnauthorized)
					return false
				}
				return true
			})
			srv := config.Server{Name: "remote", Transport: tc.transport, URL: url}
			var dir string
			a := newAgg(t, func(c *config.Config) { dir = c.TokenDir }, srv)
			res := a.Run(t.Context(), Request{Code: "print(1)", Servers: []string{"remote"}})
			if res.Error == nil || !strings.Contains(*res.Error, "run `mcp-code-mode login remote` to sign in") {
				t.Fatalf("a run before the sign-in: %s", deref(res.Error))
			}
			rec := &oauth.Record{ServerURL: oauth.Canonical(url), Issuer: "http://127.0.0.1:1", TokenEndpoint: "http://127.0.0.1:1/token",
				Grant: config.GrantAuthorizationCode, ClientID: "c", AccessToken: token, SignedIn: time.Now().UTC()}
			if err := (oauth.Store{Dir: dir}).Save(rec); err != nil {
				t.Fatal(err)
			}
			res = a.Run(t.Context(), Request{Code: "print(await mcp_remote.add(a=2, b=3))", Servers: []string{"remote"}})
			mustSucceed(t, res)
			if res.Stdout != "{'sum': 5}\n" || saw.Load() != "Bearer "+token {
				t.Fatalf("after the sign-in: %q, the server saw %q", res.Stdout, saw.Load())
			}
		})
	}
}
