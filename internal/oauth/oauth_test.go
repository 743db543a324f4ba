package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
)

// hostile is a protected MCP server on loopback whose protected resource
// metadata and authorization server metadata are fixtures of testdata/
// ({{origin}} stands for its own origin); it counts what reaches its
// authorization, registration and token endpoints.
type hostile struct {
	*httptest.Server
	authorize, register, token atomic.Int32
}

func newHostile(t *testing.T, prm, as string) *hostile {
	t.Helper()
	h := &hostile{}
	fixture := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return []byte(strings.ReplaceAll(string(b), "{{origin}}", h.URL))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) { w.Write(fixture(prm)) })
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) { w.Write(fixture(as)) })
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) { h.authorize.Add(1); http.Error(w, "no", 400) })
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) { h.register.Add(1); http.Error(w, "no", 400) })
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) { h.token.Add(1); http.Error(w, "no", 400) })
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+h.URL+`/.well-known/oauth-protected-resource/mcp"`)
		http.Error(w, "sign in", http.StatusUnauthorized)
	})
	h.Server = httptest.NewServer(mux)
	t.Cleanup(h.Close)
	return h
}

// user is someone at login whose browser must never be needed.
func noBrowser(t *testing.T) *User {
	return &User{Out: io.Discard, Timeout: time.Second, Open: func(u string) error {
		t.Errorf("a browser was opened for %s", u)
		return errors.New("no")
	}}
}

// get sends a request to url through c's transport.
func get(t *testing.T, c *Client, url string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return (&http.Client{Transport: c.Transport(http.DefaultTransport)}).Do(req)
}

// A server whose metadata names another server's resource, another
// origin's issuer, endpoints in clear, or no PKCE gets no sign-in: the
// client refuses before any authorization or registration request, so no
// token for another server can be minted for it.
func TestDiscoveryRefusesMetadataOfAnotherServer(t *testing.T) {
	for _, tc := range []struct{ prm, as, want string }{
		{"prm-another-server.json", "as-good.json", `is for the resource "https://victim.example.com/mcp", not this server`},
		{"prm-sibling-path.json", "as-good.json", `/mcp-admin", not this server`},
		{"prm-good.json", "as-another-issuer.json", `names the issuer "https://accounts.victim.example.com"`},
		{"prm-good.json", "as-plain-http-endpoints.json", `"http://auth.attacker.example/token" is not https`},
		{"prm-good.json", "as-no-pkce.json", "does not list PKCE with S256"},
	} {
		t.Run(tc.prm+"+"+tc.as, func(t *testing.T) {
			h := newHostile(t, tc.prm, tc.as)
			c := New(config.Server{Name: "h", URL: h.URL + "/mcp", Transport: config.TransportHTTP}, Options{Dir: t.TempDir(), User: noBrowser(t)})
			resp, err := get(t, c, h.URL+"/mcp")
			if err == nil {
				resp.Body.Close()
				t.Fatalf("the request went through: %d", resp.StatusCode)
			}
			var se *SignInError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want a SignInError saying %q", err, tc.want)
			}
			if n := h.authorize.Load() + h.register.Load() + h.token.Load(); n != 0 {
				t.Errorf("%d requests reached the authorization server's endpoints", n)
			}
			if c.Current() != nil {
				t.Error("a sign-in was kept")
			}
		})
	}
}

// Nothing is sent in clear to another machine: a server, a
// resource_metadata URL or an authorization server on plain http is
// refused unless it is on a loopback address.
func TestSignInRefusesPlainHTTP(t *testing.T) {
	for _, tc := range []struct {
		server string
		ch     Challenge
		want   string
	}{
		{"http://192.0.2.1/mcp", Challenge{}, `the server URL "http://192.0.2.1/mcp" is not https`},
		{"https://example.com/mcp", Challenge{ResourceMetadata: "http://example.com/.well-known/oauth-protected-resource"}, "the resource_metadata URL of its challenge"},
		{"ftp://example.com/mcp", Challenge{}, "is not https"},
	} {
		_, err := discover(t.Context(), http.DefaultClient, tc.server, tc.ch)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("discover(%s, %+v) = %v, want %q", tc.server, tc.ch, err, tc.want)
		}
	}
	for _, u := range []string{"http://127.0.0.1:8/x", "http://[::1]:8/x", "http://localhost/x", "https://example.com/x"} {
		if err := checkURL("u", u); err != nil {
			t.Errorf("checkURL(%s) = %v", u, err)
		}
	}
}

// The loopback redirect takes only the answer to its own request: a
// callback with another state (a page of another site forging one, or a
// stale tab) is refused and the wait goes on.
func TestTheLoopbackRedirectTakesOnlyTheRequestsState(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	base := "http://" + ln.Addr().String()
	codes := make(chan int, 3)
	user := &User{Out: io.Discard, Timeout: time.Minute, Open: func(string) error {
		go func() {
			defer close(codes)
			for _, path := range []string{"/callback?state=forged&code=evil", "/elsewhere?state=s3cret-state&code=evil", "/callback?state=s3cret-state&code=good"} {
				resp, err := http.Get(base + path)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				codes <- resp.StatusCode
			}
		}()
		return nil
	}}
	c := New(config.Server{Name: "s", URL: "https://example.com/mcp"}, Options{})
	q, err := c.browse(t.Context(), user, "https://as.example/authorize", "s3cret-state", ln)
	if err != nil {
		t.Fatal(err)
	}
	if q.Get("code") != "good" {
		t.Errorf("took the code %q, want the one with the request's state", q.Get("code"))
	}
	// The browser reads each page whole, the last ("Signed in") too: the
	// server is shut down only after it is written.
	for i, want := range []int{400, 404, 200} {
		if got, ok := <-codes; !ok || got != want {
			t.Errorf("callback %d answered %d (%v), want %d", i, got, ok, want)
		}
	}
	for range codes { // the browser's goroutine has ended
	}
}

// Each sign-in is kept readable by its owner alone, named by the server's
// URL, resource and issuer (not its configured name); another server's
// client never sends it, even under the same name, and a file another tool
// widened is narrowed again.
func TestATokenGoesOnlyToTheServerItWasIssuedFor(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "oauth")
	var got atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Authorization"))
		w.Write([]byte("ok"))
	}))
	defer other.Close()
	st := Store{Dir: dir}
	rec := &Record{ServerURL: Canonical("https://MCP.example.com/mcp"), Resource: "https://mcp.example.com/mcp", Issuer: "https://as.example.com",
		TokenEndpoint: "https://as.example.com/token", AccessToken: "tok-of-example-com", SignedIn: time.Now()}
	if err := st.Save(rec); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 || strings.Contains(files[0], "example") {
		t.Fatalf("files %v: want one, named by a hash", files)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, files[0]: 0o600} {
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", path, err, info.Mode(), want)
		}
	}
	if err := os.Chmod(files[0], 0o644); err != nil {
		t.Fatal(err)
	}
	if r, _ := st.Find("https://mcp.example.com/mcp"); r == nil || r.AccessToken != "tok-of-example-com" {
		t.Fatalf("Find = %+v", r)
	}
	if info, _ := os.Stat(files[0]); info.Mode().Perm() != 0o600 {
		t.Errorf("a widened file stays %v", info.Mode())
	}
	// Same name, another URL: the token is not sent.
	c := New(config.Server{Name: "example", URL: other.URL + "/mcp", Transport: config.TransportHTTP}, Options{Dir: dir})
	resp, err := get(t, c, other.URL+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if a, _ := got.Load().(string); a != "" {
		t.Errorf("another server got Authorization %q", a)
	}
	if s := st.Secrets(other.URL + "/mcp"); len(s) != 0 {
		t.Errorf("secrets of another server: %v", s)
	}
}

// A WWW-Authenticate header, which a server writes, is read for its
// Bearer challenge whatever else it holds.
func TestParseChallenges(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   Challenge
		ok     bool
	}{
		{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", scope="a b"`,
			Challenge{ResourceMetadata: "https://x/.well-known/oauth-protected-resource/mcp", Scopes: []string{"a", "b"}}, true},
		{`Basic realm="x", Bearer error="insufficient_scope", scope="mcp:basic mcp:write", error_description="needs \"write\""`,
			Challenge{Error: "insufficient_scope", Scopes: []string{"mcp:basic", "mcp:write"}, Description: `needs "write"`}, true},
		{`bearer   ERROR=invalid_token ,SCOPE=read`, Challenge{Error: "invalid_token", Scopes: []string{"read"}}, true},
		{`Negotiate abc123==, Bearer`, Challenge{}, true},
		{`Basic realm="only"`, Challenge{}, false},
		{`Bearer scope="unterminated`, Challenge{Scopes: []string{"unterminated"}}, true},
	} {
		resp := &http.Response{Header: http.Header{"Www-Authenticate": {tc.header}}}
		got, ok := challengeOf(resp)
		if ok != tc.ok || got.ResourceMetadata != tc.want.ResourceMetadata || got.Error != tc.want.Error ||
			got.Description != tc.want.Description || strings.Join(got.Scopes, " ") != strings.Join(tc.want.Scopes, " ") {
			t.Errorf("%s:\n got %+v %v\nwant %+v %v", tc.header, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzParseChallenges(f *testing.F) {
	for _, s := range []string{`Bearer resource_metadata="u", scope="a b"`, `Basic realm="x", Bearer error=e`, `a, b=, =c,,"`, `Bearer x="\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		for _, c := range parseChallenges(h) {
			if c.scheme == "" || len(c.params) > len(h) {
				t.Fatalf("%q: %+v", h, c)
			}
		}
	})
}

// A private_key_jwt assertion is a JWT signed with the key under its
// algorithm, issued by and about the client, for the authorization server.
func TestClientAssertionVerifies(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rs, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	for _, tc := range []struct {
		key crypto.Signer
		alg string
	}{{ec, ""}, {ec, "ES256"}, {rs, "RS256"}, {rs, "PS256"}, {ed, "EdDSA"}} {
		der, err := x509.MarshalPKCS8PrivateKey(tc.key)
		if err != nil {
			t.Fatal(err)
		}
		key, err := parsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
		if err != nil {
			t.Fatal(err)
		}
		jwt, err := clientAssertion(key, tc.alg, "client-1", "https://as.example", time.Now())
		if err != nil {
			t.Fatalf("%s: %v", tc.alg, err)
		}
		parts := strings.Split(jwt, ".")
		if len(parts) != 3 {
			t.Fatalf("%s: %q", tc.alg, jwt)
		}
		var header struct{ Alg string }
		var claims struct {
			Iss, Sub, Aud, Jti string
			Exp, Iat           int64
		}
		dec := func(s string, v any) {
			b, err := base64.RawURLEncoding.DecodeString(s)
			if err != nil || json.Unmarshal(b, v) != nil {
				t.Fatalf("%s: part %q", tc.alg, s)
			}
		}
		dec(parts[0], &header)
		dec(parts[1], &claims)
		if claims.Iss != "client-1" || claims.Sub != "client-1" || claims.Aud != "https://as.example" || claims.Jti == "" || claims.Exp <= claims.Iat {
			t.Errorf("%s: claims %+v", tc.alg, claims)
		}
		sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
		input := []byte(parts[0] + "." + parts[1])
		sum := sha256.Sum256(input)
		var ok bool
		switch header.Alg {
		case "ES256":
			ok = len(sig) == 64 && ecdsa.Verify(&ec.PublicKey, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:]))
		case "RS256":
			ok = rsa.VerifyPKCS1v15(&rs.PublicKey, crypto.SHA256, sum[:], sig) == nil
		case "PS256":
			ok = rsa.VerifyPSS(&rs.PublicKey, crypto.SHA256, sum[:], sig, nil) == nil
		case "EdDSA":
			ok = ed25519.Verify(ed.Public().(ed25519.PublicKey), input, sig)
		}
		if !ok || tc.alg != "" && header.Alg != tc.alg {
			t.Errorf("%s: the signature (alg %s) does not verify", tc.alg, header.Alg)
		}
	}
	if _, err := clientAssertion(ec, "RS256", "c", "a", time.Now()); err == nil {
		t.Error("an EC key signed RS256")
	}
}

// A LoginRequiredError says the command to run, quoted for a shell when
// the name needs it.
func TestLoginRequiredSaysTheCommand(t *testing.T) {
	for name, want := range map[string]string{
		"notion":    "run `mcp-code-mode login notion` to sign in",
		"my server": "run `mcp-code-mode login 'my server'` to sign in",
		"a'b":       `run ` + "`" + `mcp-code-mode login 'a'\''b'` + "`" + ` to sign in`,
	} {
		err := &LoginRequiredError{Server: name, Reason: "x"}
		if !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%q: %s", name, err)
		}
	}
}

// A server that answers 401 without a Bearer challenge and publishes no
// OAuth metadata (it wants an API key) is not signed in to: login says
// to give it its credentials, and nothing is registered.
func TestAServerThatDoesNotSignInWithOAuthIsToldApart(t *testing.T) {
	var register atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/register" {
			register.Add(1)
		}
		w.Header().Set("WWW-Authenticate", `ApiKey realm="x"`)
		http.Error(w, "api key", http.StatusUnauthorized)
	}))
	defer srv.Close()
	c := New(config.Server{Name: "k", URL: srv.URL + "/mcp", Transport: config.TransportHTTP}, Options{Dir: t.TempDir(), User: noBrowser(t)})
	if _, err := get(t, c, srv.URL+"/mcp"); err == nil || !strings.Contains(err.Error(), "does not sign in with OAuth: give it its credentials in its config (headers)") {
		t.Errorf("login: %v", err)
	}
	run := New(config.Server{Name: "k", URL: srv.URL + "/mcp", Transport: config.TransportHTTP}, Options{Dir: t.TempDir()})
	if _, err := get(t, run, srv.URL+"/mcp"); err == nil || !strings.Contains(err.Error(), "without a Bearer challenge") {
		t.Errorf("run: %v", err)
	}
	if register.Load() != 0 {
		t.Error("a client was registered")
	}
}

// What an authorization server or a protected server says when it refuses
// (error, error_description, a challenge's description, the issuer it
// names) reaches the user's terminal in an error: it comes on one line,
// clipped, without escapes, bells or bidirectional overrides.
func TestARefusalCarriesNoEscapes(t *testing.T) {
	hostileText := "invalid_grant\x1b]0;pwned\a\n\x1b[2Jnext line \u202eevil\u200b"
	for _, got := range []string{
		oauthError(hostileText, hostileText),
		clipDescription(hostileText),
		clip(strings.Repeat(hostileText, 50), 200),
	} {
		if strings.ContainsFunc(got, printable.Unprintable) {
			t.Errorf("%q holds an unprintable rune", got)
		}
		if !strings.Contains(got, "invalid_grant ]0;pwned [2Jnext line evil") {
			t.Errorf("%q: the text is not shown", got)
		}
	}
}
