package aggregator

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
