package aggregator

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"

	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// HTTPOptions guard the streamable HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, must come as "Authorization: Bearer <Token>".
	Token string
	// Tokens are more tokens, each accepted as Token is: one per client,
	// so that each client's runs keep their memories and saved tools
	// apart (TokenNamespace). With neither Token nor Tokens, no token is
	// asked for, and every client's runs share NoAuthNamespace.
	Tokens []string
	// AllowedHosts are extra Host header values accepted besides loopback
	// names (for a server bound to another address, its public names).
	AllowedHosts []string
	// AllowedOrigins are browser origins ("http://127.0.0.1:8080") whose
	// pages may call the endpoint and read its answers: requests from them
	// get CORS headers and their preflights are answered. Pages of any other
	// origin get no CORS headers, so a browser keeps the answers from them.
	AllowedOrigins []string
	// BodyTimeout bounds the reading of a request's body (default 30 s), so
	// a client that sends it slowly does not hold a handler.
	BodyTimeout time.Duration
}

// HTTPHandler serves run_python over streamable HTTP at /mcp. It refuses
// requests whose Host is not this server's (DNS rebinding), whose Origin is
// a foreign site (a browser page driving a local server), and, with a
// token, requests without it. Only pages of opts.AllowedOrigins get CORS
// headers. A client cancels a run with notifications/cancelled in its
// session (protocol versions before 2026-07-28) or by closing the run's
// response stream (2026-07-28 and later, which have no sessions). With
// metrics (SetTelemetry), it serves them at /metrics behind the same guard.
func (a *Aggregator) HTTPHandler(opts HTTPOptions) http.Handler {
	if ns := a.cfg.State.Namespace; ns != "" && len(opts.Tokens) > 0 {
		a.log.Warn("state.namespace is set: every client of serve --http shares its memories and saved tools, whatever its token", "namespace", ns)
	}
	mcpHandler := server.NewStreamableHTTPServer(newMCPServer(a), server.WithEndpointPath("/mcp"),
		server.WithStreamableHTTPLogger(a.log), server.WithHTTPContextFunc(httpClient))
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard(opts, sessionlessCancels(a.endSessions(mcpHandler))))
	if a.obs.metrics != nil {
		// The metrics name servers and tools: they are behind the same
		// guard (the token) as the endpoint.
		mux.Handle("/metrics", guard(opts, a.obs.metrics.Handler()))
	}
	return mux
}

// endSessions passes requests on, and after a DELETE that ended a session
// (200) removes that session's sandbox (isolation "session").
func (a *Aggregator) endSessions(next http.Handler) http.Handler {
	if a.cfg.Isolation != config.IsolationSession {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodDelete {
			next.ServeHTTP(w, r)
			return
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		if id := r.Header.Get(server.HeaderKeySessionID); id != "" && rec.status == http.StatusOK {
			a.EndSession(namespaceFrom(r.Context()), id)
		}
	})
}

// statusRecorder notes the status a handler answered with.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// sessionlessCancels answers, without passing them on, the
// notifications/cancelled of protocol version 2026-07-28 and later (by the
// MCP-Protocol-Version header or the message's _meta, as mcp-go tells the
// eras apart). Those versions have no sessions, so such a notification
// names a request id and nothing of its sender: mcp-go would cancel
// whichever client's request has that id. Their streamable HTTP transport
// defines no notifications from the client: a client cancels a request by
// closing its response stream, which cancels the request's context. Older
// versions' cancels carry their session (Mcp-Session-Id), under which
// mcp-go keeps each request, and are passed on.
func sessionlessCancels(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		// The guard has bounded the body; mcp-go reads it whole too.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				http.Error(w, fmt.Sprintf("Request Entity Too Large: over %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
			} else {
				http.Error(w, "Bad Request: reading the body: "+err.Error(), http.StatusBadRequest)
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
			Params struct {
				Meta *mcp.Meta `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.ID == nil && msg.Method == string(mcp.MethodNotificationCancelled) &&
			(mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) || mcp.IsModernProtocol(msg.Params.Meta.ProtocolVersion())) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func guard(opts HTTPOptions, next http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, h := range opts.AllowedHosts {
		allowed[strings.ToLower(hostOnly(h))] = true
	}
	origins := map[string]bool{}
	for _, o := range opts.AllowedOrigins {
		if n, err := NormalizeOrigin(o); err == nil {
			origins[n] = true
		}
	}
	var wants [][]byte
	for _, t := range append([]string{opts.Token}, opts.Tokens...) {
		if t != "" {
			wants = append(wants, []byte("Bearer "+t))
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(hostOnly(r.Host))
		if !loopbackName(host) && !allowed[host] {
			http.Error(w, "Forbidden: Host "+r.Host+" is not this server's", http.StatusForbidden)
			return
		}
		origin := r.Header.Get("Origin")
		if n, err := NormalizeOrigin(origin); origin != "" && err == nil && origins[n] {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate")
			// A preflight carries no credentials: it is answered before the
			// token check, and says which requests may follow.
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
				if rh := r.Header.Get("Access-Control-Request-Headers"); rh != "" {
					h.Set("Access-Control-Allow-Headers", rh)
				}
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		} else if origin != "" {
			u, err := url.Parse(origin)
			oh := ""
			if err == nil {
				oh = strings.ToLower(u.Hostname())
			}
			if oh == "" || !(loopbackName(oh) && loopbackName(host) || oh == host || allowed[oh]) {
				http.Error(w, "Forbidden: Origin "+origin+" is not allowed", http.StatusForbidden)
				return
			}
		}
		ns := NoAuthNamespace
		if len(wants) > 0 {
			got := []byte(r.Header.Get("Authorization"))
			var match []byte
			for _, want := range wants { // each compared, in constant time
				if subtle.ConstantTimeCompare(got, want) == 1 {
					match = want
				}
			}
			if match == nil {
				w.Header().Set("WWW-Authenticate", `Bearer realm="mcp-code-mode"`)
				http.Error(w, "Unauthorized: missing or wrong bearer token", http.StatusUnauthorized)
				return
			}
			ns = TokenNamespace(strings.TrimPrefix(string(match), "Bearer "))
		}
		// The runs of this request keep their memories and saved tools in
		// the namespace of the token it carries.
		r = r.WithContext(withNamespace(r.Context(), ns))
		// A body is read only up to the cap; one that says it is larger is
		// refused before any of it is read.
		if r.ContentLength > MaxRequestBytes {
			http.Error(w, fmt.Sprintf("Request Entity Too Large: over %d bytes", MaxRequestBytes), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
		if r.ContentLength != 0 && r.Body != http.NoBody {
			// The deadline covers the body only: it is lifted once the body
			// is read, so a long answer (an SSE stream) is not cut by it.
			rc := http.NewResponseController(w)
			timeout := opts.BodyTimeout
			if timeout <= 0 {
				timeout = 30 * time.Second
			}
			if rc.SetReadDeadline(time.Now().Add(timeout)) == nil {
				r.Body = &bodyDeadline{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// bodyDeadline lifts the read deadline of a request once its body has been
// read to the end (or failed).
type bodyDeadline struct {
	io.ReadCloser
	lift func()
	once sync.Once
}

func (b *bodyDeadline) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.once.Do(b.lift)
	}
	return n, err
}

// MaxRequestBytes bounds the body of one HTTP request: a run_python call
// with its program fits many times over.
const MaxRequestBytes = 4 << 20

// TokenFile is the name of the file, in the state directory, that holds the
// bearer token serve --http requires unless told otherwise.
const TokenFile = "http-token"

// LoadOrCreateToken returns the bearer token kept in the file at path,
// creating the file (and its directory) with a new random token when it is
// missing. The file is the owner's alone (0600): one with wider permissions
// is narrowed first, so no other local user can read the token.
func LoadOrCreateToken(path string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	b, err := safefile.Read(path, 4096)
	if errors.Is(err, fs.ErrNotExist) {
		raw := make([]byte, 32)
		if _, err := rand.Read(raw); err != nil {
			return "", fmt.Errorf("token: %w", err)
		}
		token := hex.EncodeToString(raw)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return "", fmt.Errorf("token file: %w", err)
		}
		_, werr := f.WriteString(token + "\n")
		if err := errors.Join(werr, f.Close()); err != nil {
			return "", fmt.Errorf("token file: %w", err)
		}
		return token, nil
	}
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if len(token) < 16 {
		return "", fmt.Errorf("token file %s: the token is shorter than 16 characters; remove the file to make a new one", path)
	}
	return token, nil
}

// maxTokens bounds the tokens of a tokens file.
const maxTokens = 1000

// LoadTokens reads the bearer tokens of a tokens file (serve --http
// --tokens-file): one a line, each of 16 characters or more without spaces;
// blank lines and lines beginning with # are skipped. The file must be
// readable by its owner alone: one that others can read is refused, since
// its tokens may be known.
func LoadTokens(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("tokens file: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("tokens file %s: others may read it (mode %#o), so its tokens may be known: chmod 600 it, and make new tokens if others did read it", path, perm)
	}
	b, err := safefile.Read(path, 256<<10)
	if err != nil {
		return nil, fmt.Errorf("tokens file: %w", err)
	}
	var tokens []string
	seen := map[string]int{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		switch prev, dup := seen[line]; {
		case strings.ContainsAny(line, " \t"):
			return nil, fmt.Errorf("tokens file %s:%d: a token has no spaces (one token a line)", path, i+1)
		case len(line) < 16:
			return nil, fmt.Errorf("tokens file %s:%d: the token is shorter than 16 characters", path, i+1)
		case dup:
			return nil, fmt.Errorf("tokens file %s:%d: the same token as line %d", path, i+1, prev)
		case len(tokens) == maxTokens:
			return nil, fmt.Errorf("tokens file %s: more than %d tokens", path, maxTokens)
		}
		seen[line] = i + 1
		tokens = append(tokens, line)
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("tokens file %s: no token in it", path)
	}
	return tokens, nil
}

// NormalizeOrigin checks that origin is a browser origin (http or https,
// a host, an optional port, nothing else) and returns it in the form
// browsers send: lower case, without a trailing slash.
func NormalizeOrigin(origin string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil {
		return "", fmt.Errorf("origin %q: %w", origin, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("origin %q: want scheme://host[:port], as in http://127.0.0.1:8080", origin)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// hostOnly strips the port from a Host header value or address.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// loopbackName reports whether host is localhost or a loopback address.
func loopbackName(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
