package aggregator

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/server"
)

// HTTPOptions guard the streamable HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, must come as "Authorization: Bearer <Token>".
	Token string
	// AllowedHosts are extra Host header values accepted besides loopback
	// names (for a server bound to another address, its public names).
	AllowedHosts []string
}

// HTTPHandler serves s over streamable HTTP at /mcp. It refuses requests
// whose Host is not this server's (DNS rebinding), whose Origin is a
// foreign site (a browser page driving a local server), and, with a token,
// requests without it.
func HTTPHandler(s *server.MCPServer, opts HTTPOptions) http.Handler {
	mcpHandler := server.NewStreamableHTTPServer(s, server.WithEndpointPath("/mcp"))
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard(opts, mcpHandler))
	return mux
}

func guard(opts HTTPOptions, next http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, h := range opts.AllowedHosts {
		allowed[strings.ToLower(hostOnly(h))] = true
	}
	want := []byte("Bearer " + opts.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(hostOnly(r.Host))
		if !loopbackName(host) && !allowed[host] {
			http.Error(w, "Forbidden: Host "+r.Host+" is not this server's", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
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
		if opts.Token != "" && subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcp-code-mode"`)
			http.Error(w, "Unauthorized: missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
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
