package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ResourceMetadata is a protected resource's metadata (RFC 9728): which
// resource it is and which authorization servers issue its tokens.
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414, or
// OpenID Connect Discovery): the fields this client uses.
type ServerMetadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint"`
	TokenEndpoint                              string   `json:"token_endpoint"`
	RegistrationEndpoint                       string   `json:"registration_endpoint"`
	RevocationEndpoint                         string   `json:"revocation_endpoint"`
	ScopesSupported                            []string `json:"scopes_supported"`
	GrantTypesSupported                        []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported"`
	TokenEndpointAuthSigningAlgValuesSupported []string `json:"token_endpoint_auth_signing_alg_values_supported"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported"`
}

// Discovery is what discovery found out about a server: the resource to
// ask tokens for and the authorization server that issues them.
type Discovery struct {
	// Resource is the resource indicator (RFC 8707) tokens are asked for:
	// the resource its protected resource metadata names. "" for a server
	// that publishes none (the 2025-03-26 revision of MCP authorization),
	// to which no resource parameter is sent.
	Resource string
	// ScopesSupported are the scopes its protected resource metadata lists.
	ScopesSupported []string
	// Issuer is the authorization server's identifier.
	Issuer string
	// Meta is the authorization server's metadata.
	Meta ServerMetadata
	// Guessed is set when the authorization server published no metadata,
	// and Meta holds the default endpoints (/authorize, /token, /register
	// at the server's origin) the 2025-03-26 revision falls back to.
	Guessed bool
}

// Bounds on what discovery reads.
const (
	maxMetadataBytes = 1 << 20
	maxTokenBytes    = 256 << 10
)

// discover finds the protected resource metadata of the server at
// serverURL (from the challenge's resource_metadata, else the well-known
// URLs, path-based first) and its authorization server's metadata (RFC
// 8414 and OpenID Connect locations, path-aware). A server without
// protected resource metadata is taken, as the 2025-03-26 revision says, to
// have its authorization server at its origin, with default endpoints when
// that publishes no metadata either.
//
// Every URL it uses must be https, or http on a loopback address; a
// resource that is not the server (RFC 9728 §3.3) and metadata whose issuer
// is not the server it was asked of (RFC 8414 §3.3) are refused.
func discover(ctx context.Context, hc *http.Client, serverURL string, ch Challenge) (*Discovery, error) {
	base, err := url.Parse(serverURL)
	if err != nil || base.Host == "" {
		return nil, fmt.Errorf("server URL %q is not an absolute URL", serverURL)
	}
	if err := checkURL("the server URL", serverURL); err != nil {
		return nil, err
	}
	origin := base.Scheme + "://" + base.Host
	var candidates []string
	if ch.ResourceMetadata != "" {
		if err := checkURL("the resource_metadata URL of its challenge", ch.ResourceMetadata); err != nil {
			return nil, err
		}
		candidates = append(candidates, ch.ResourceMetadata)
	}
	if p := strings.TrimSuffix(base.EscapedPath(), "/"); p != "" {
		candidates = append(candidates, origin+"/.well-known/oauth-protected-resource"+p)
	}
	candidates = append(candidates, origin+"/.well-known/oauth-protected-resource")

	var prm *ResourceMetadata
	var prmURL string
	for _, c := range candidates {
		var m ResourceMetadata
		found, err := getJSON(ctx, hc, c, &m)
		if err != nil {
			return nil, fmt.Errorf("protected resource metadata: %w", err)
		}
		if found {
			prm, prmURL = &m, c
			break
		}
	}
	d := &Discovery{}
	var asURL string
	if prm != nil {
		if prm.Resource == "" {
			return nil, fmt.Errorf("the protected resource metadata at %s names no resource", prmURL)
		}
		if !resourceBinds(prm.Resource, serverURL) {
			return nil, &MismatchError{What: "resource", Got: prm.Resource, Want: serverURL, Where: prmURL}
		}
		d.Resource, d.ScopesSupported = prm.Resource, prm.ScopesSupported
		if len(prm.AuthorizationServers) > 0 {
			asURL = prm.AuthorizationServers[0]
		}
	}
	if asURL == "" {
		asURL = origin // the 2025-03-26 revision: the server's origin
	}
	if err := checkURL("the authorization server", asURL); err != nil {
		return nil, err
	}
	for _, c := range serverMetadataURLs(asURL) {
		var m ServerMetadata
		found, err := getJSON(ctx, hc, c, &m)
		if err != nil {
			return nil, fmt.Errorf("authorization server metadata: %w", err)
		}
		if !found {
			continue
		}
		if !issuerMatches(m.Issuer, asURL) {
			return nil, &MismatchError{What: "issuer", Got: m.Issuer, Want: asURL, Where: c}
		}
		d.Issuer, d.Meta = m.Issuer, m
		return d, d.check()
	}
	if prm != nil && len(prm.AuthorizationServers) > 0 {
		return nil, fmt.Errorf("the authorization server %s publishes no metadata (%s)", asURL, strings.Join(serverMetadataURLs(asURL), ", "))
	}
	// No metadata anywhere: the 2025-03-26 default endpoints.
	a := strings.TrimSuffix(asURL, "/")
	d.Issuer, d.Guessed = a, true
	d.Meta = ServerMetadata{Issuer: a, AuthorizationEndpoint: a + "/authorize", TokenEndpoint: a + "/token", RegistrationEndpoint: a + "/register"}
	return d, nil
}

// check refuses metadata whose endpoints are not https (or loopback http).
func (d *Discovery) check() error {
	m := d.Meta
	if m.TokenEndpoint == "" {
		return fmt.Errorf("the authorization server %s names no token_endpoint", d.Issuer)
	}
	for _, e := range []struct{ name, url string }{
		{"token_endpoint", m.TokenEndpoint}, {"authorization_endpoint", m.AuthorizationEndpoint},
		{"registration_endpoint", m.RegistrationEndpoint}, {"revocation_endpoint", m.RevocationEndpoint},
	} {
		if e.url == "" {
			continue
		}
		if err := checkURL("the "+e.name+" of "+d.Issuer, e.url); err != nil {
			return err
		}
	}
	return nil
}

// MismatchError is metadata that names another resource or issuer than the
// one it was fetched for: it is not used.
type MismatchError struct {
	What  string // "resource" or "issuer"
	Got   string // what the metadata says
	Want  string // what it had to say
	Where string // the metadata's URL
}

func (e *MismatchError) Error() string {
	if e.What == "resource" {
		return fmt.Sprintf("the protected resource metadata at %s is for the resource %q, not this server (%s): refused, since a token for it would be a token for another server", e.Where, e.Got, e.Want)
	}
	return fmt.Sprintf("the authorization server metadata at %s names the issuer %q, not %q: refused", e.Where, e.Got, e.Want)
}

// issuerMatches reports whether metadata fetched for the authorization
// server at asURL may be used with the issuer it names: the same
// identifier (but for a final slash), as RFC 8414 §3.3 asks, or another
// path on the same origin. The second is a leniency: an issuer on the same
// scheme and host names no other party, and the authorization servers of
// the pinned MCP conformance suite (0.1.12) publish their bare origin for
// a path-based issuer. An issuer on another origin is refused.
func issuerMatches(issuer, asURL string) bool {
	if strings.TrimSuffix(issuer, "/") == strings.TrimSuffix(asURL, "/") {
		return true
	}
	i, err1 := url.Parse(issuer)
	a, err2 := url.Parse(asURL)
	return err1 == nil && err2 == nil && i.Host != "" && i.Scheme == a.Scheme && strings.EqualFold(i.Host, a.Host) &&
		i.User == nil && i.RawQuery == "" && i.Fragment == ""
}

// serverMetadataURLs are the places an authorization server's metadata is
// looked for, in order (RFC 8414 §3.1 with the path inserted, then OpenID
// Connect Discovery, inserted and appended).
func serverMetadataURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return nil
	}
	origin := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}
}

// resourceBinds reports whether a resource identifier names the server at
// addressed: the same scheme and host, and a path that is the server's or
// a segment-wise prefix of it (a server at /mcp may name its origin).
func resourceBinds(resource, addressed string) bool {
	r, err1 := url.Parse(resource)
	a, err2 := url.Parse(addressed)
	if err1 != nil || err2 != nil || r.Host == "" {
		return false
	}
	if !strings.EqualFold(r.Scheme, a.Scheme) || !strings.EqualFold(r.Host, a.Host) || r.User != nil || r.Fragment != "" || r.RawQuery != "" && r.RawQuery != a.RawQuery {
		return false
	}
	rp, ap := strings.TrimSuffix(r.EscapedPath(), "/"), strings.TrimSuffix(a.EscapedPath(), "/")
	return rp == ap || strings.HasPrefix(ap, rp+"/")
}

// checkURL refuses a URL tokens or credentials would travel to unless it
// is https, or http to a loopback address (this machine).
func checkURL(what, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%s %q is not an absolute URL", what, raw)
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && loopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("%s %q is not https: sign-in needs https, or http on this machine (a loopback address)", what, raw)
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// getJSON fetches a JSON document of at most maxMetadataBytes into v.
// found is false when the server answers 404 or another client error (the
// document is not there); a server error, a network failure or a body
// that is not JSON is an error.
func getJSON(ctx context.Context, hc *http.Client, u string, v any) (found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode >= 400 && resp.StatusCode < 500, resp.StatusCode >= 300 && resp.StatusCode < 400:
		return false, nil
	default:
		return false, fmt.Errorf("GET %s: status %d", u, resp.StatusCode)
	}
	body, err := readBounded(resp.Body, maxMetadataBytes)
	if err != nil {
		return false, fmt.Errorf("GET %s: %w", u, err)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return false, fmt.Errorf("GET %s: not a JSON object: %w", u, err)
	}
	return true, nil
}

// errTooLarge is a body over its bound.
var errTooLarge = errors.New("the answer is too large")

// readBounded reads r whole, failing when it holds more than max bytes.
func readBounded(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w (over %d bytes)", errTooLarge, max)
	}
	return b, nil
}

// union is a's scopes then those of b it lacks.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// subset reports whether every scope of a is in b.
func subset(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}
