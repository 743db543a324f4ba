// Package oauth signs this program in to remote MCP servers that ask for
// OAuth authorization, as the MCP authorization specification (2025-03-26,
// 2025-06-18 and 2025-11-25 revisions) describes a client: discovery of the
// protected resource's metadata (RFC 9728) and of its authorization
// server's (RFC 8414, OpenID Connect), with the 2025-03-26 fallbacks; a
// pre-registered client, a client ID metadata document or dynamic client
// registration (RFC 7591); the authorization code grant with PKCE (S256)
// and a loopback redirect, or the client credentials grant; the resource
// indicator (RFC 8707); client authentication none, client_secret_basic,
// client_secret_post or private_key_jwt (RFC 7523); refresh before expiry;
// and more scope when a server answers 403 insufficient_scope.
//
// A Client holds one server's sign-in; its Transport puts the token on
// every request to that server. The tokens are kept by a Store, one file
// per server, and nothing else: they reach no log, error or answer.
//
// mark3labs/mcp-go, which speaks MCP to the servers, has an OAuth handler
// of its own; it is not used here, since it discovers protected resource
// metadata only at the path-based well-known URL, requires an advertised
// metadata URL's resource to equal the server URL exactly, knows neither
// client ID metadata documents, the client credentials grant,
// private_key_jwt nor scope step-up, and chooses a client's authentication
// method without the authorization server's list. Its PKCE helpers are.
package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// Options are what a Client may use besides the server's settings.
type Options struct {
	// Dir is the token store's folder (config.Config.TokenDir); "" keeps
	// nothing.
	Dir string
	// User is someone who can sign in in a browser now (the login
	// command); nil when nobody can (a run), and no use ever waits for a
	// browser.
	User *User
	// OnSecret is told every secret value the client obtains (tokens, a
	// registered client's secret), so that it can be redacted.
	OnSecret func(secrets ...string)
	// Log receives what the sign-in does (never a secret).
	Log *slog.Logger
}

// User is a person at a terminal who signs in in a browser.
type User struct {
	Out     io.Writer              // where the authorization URL and progress are printed
	Open    func(url string) error // opens a URL in a browser; nil only prints it
	Timeout time.Duration          // how long to wait for the browser to come back
}

// Client is the sign-in to one remote server.
type Client struct {
	name  string // the server's configured name, for messages
	url   string // the server's URL, canonical
	set   config.OAuth
	opts  Options
	store Store
	hc    *http.Client // for metadata and the authorization server
	log   *slog.Logger

	mu      sync.Mutex
	rec     *Record
	loaded  bool
	fresh   bool // ignore the stored record (login signs in anew)
	signins int  // sign-ins this client made
}

// New returns the sign-in to the remote server srv.
func New(srv config.Server, opts Options) *Client {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	hc := &http.Client{
		Timeout: 30 * time.Second,
		// No redirect is followed: an authorization server that answers
		// with one is answering the probe of an authorization request
		// (see probe), and metadata must be where it is looked for.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport:     http.DefaultTransport.(*http.Transport).Clone(),
	}
	return &Client{name: srv.Name, url: Canonical(srv.URL), set: srv.OAuth, opts: opts, store: Store{Dir: opts.Dir},
		hc: hc, log: log.With("oauth", srv.Name)}
}

// Fresh makes the client ignore the stored sign-in, so that its first use
// signs in anew (what login wants), with the scopes a run found missing.
func (c *Client) Fresh() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fresh = true
}

// SignIns is how many sign-ins the client has made.
func (c *Client) SignIns() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.signins
}

// Current is the sign-in in use, nil when there is none.
func (c *Client) Current() *Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	return c.rec
}

// LoginRequiredError is a use of a server that needs someone to sign in
// (`mcp-code-mode login SERVER`).
type LoginRequiredError struct {
	Server string // the configured name
	Reason string
}

func (e *LoginRequiredError) Error() string {
	return fmt.Sprintf("%s; run `mcp-code-mode login %s`%s", e.Reason, shellWord(e.Server), LoginHintSuffix)
}

// LoginHintSuffix ends the message of every LoginRequiredError.
const LoginHintSuffix = " to sign in"

// shellWord quotes s for a POSIX shell when it needs quoting.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.@/:+=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (c *Client) loginRequired(format string, args ...any) error {
	return &LoginRequiredError{Server: c.name, Reason: fmt.Sprintf(format, args...)}
}

// loadLocked reads the stored sign-in once; c.mu is held.
func (c *Client) loadLocked() {
	if c.loaded {
		return
	}
	c.loaded = true
	if c.fresh {
		return
	}
	rec, err := c.store.Find(c.url)
	if err != nil {
		c.log.Warn("reading the stored sign-in", "err", err)
	}
	if rec != nil && c.set.ClientID != "" && rec.ClientID != c.set.ClientID {
		c.log.Info("the stored sign-in is of another client than client_id; it is not used")
		rec = nil
	}
	if rec != nil {
		c.tell(rec)
	}
	c.rec = rec
}

// reloadLocked adopts a sign-in stored since the client read the store
// (by login in another process, while this one serves) and reports
// whether it found one. Not at login, which signs in anew. c.mu is held.
func (c *Client) reloadLocked() bool {
	if c.fresh || c.opts.User != nil {
		return false
	}
	rec, _ := c.store.Find(c.url)
	if rec == nil || c.set.ClientID != "" && rec.ClientID != c.set.ClientID ||
		c.rec != nil && rec.AccessToken == c.rec.AccessToken {
		return false
	}
	c.log.Info("using the sign-in stored since this process read it")
	c.tell(rec)
	c.rec = rec
	return true
}

// SignedInSince reports whether the store holds a sign-in made after t
// (by login, perhaps in another process): a start that failed for want
// of one may be tried again at once.
func (c *Client) SignedInSince(t time.Time) bool {
	rec, _ := c.store.Find(c.url)
	return rec != nil && !rec.SignedIn.Before(t.Truncate(time.Second))
}

// tell hands the record's secrets to OnSecret.
func (c *Client) tell(rec *Record) {
	if c.opts.OnSecret != nil {
		c.opts.OnSecret(rec.Secrets()...)
	}
}

// refreshMargin is how long before its expiry a token is refreshed: a
// minute, or half its lifetime for a token that lives less than two.
func (rec *Record) refreshMargin() time.Duration {
	return min(time.Minute, rec.ExpiresAt.Sub(rec.SignedIn)/2)
}

// token returns the sign-in to use for a request, refreshed first when it
// expires within its refreshMargin; nil when there is none.
func (c *Client) token(ctx context.Context) *Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	rec := c.rec
	if rec == nil || rec.ExpiresAt.IsZero() || time.Until(rec.ExpiresAt) > rec.refreshMargin() {
		return rec
	}
	if err := c.renewLocked(ctx); err != nil {
		c.log.Info("refreshing the token before it expires failed", "err", err)
	}
	return c.rec
}

// renewLocked gets a new token without anyone: with the refresh token, or
// anew by client credentials. c.mu is held.
func (c *Client) renewLocked(ctx context.Context) error {
	rec := c.rec
	switch {
	case rec == nil:
		return errors.New("not signed in")
	case rec.RefreshToken != "":
		form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rec.RefreshToken}}
		if rec.Resource != "" {
			form.Set("resource", rec.Resource)
		}
		tok, err := c.requestToken(ctx, rec, form)
		if err != nil {
			return fmt.Errorf("refresh: %w", err)
		}
		next := *rec
		next.apply(tok, rec.Scopes)
		if next.RefreshToken == "" {
			next.RefreshToken = rec.RefreshToken
		}
		return c.keepLocked(&next)
	case rec.Grant == config.GrantClientCredentials:
		return c.clientCredentialsLocked(ctx, rec.Scopes, rec)
	}
	return errors.New("the token expired and there is no refresh token")
}

// keepLocked makes rec the sign-in in use and stores it. c.mu is held.
func (c *Client) keepLocked(rec *Record) error {
	c.tell(rec)
	c.rec, c.loaded = rec, true
	if err := c.store.Save(rec); err != nil {
		return err
	}
	return nil
}

// unauthorized handles a 401 to a request sent with sent (nil: sent
// without a token): it returns the sign-in to send it again with, after a
// refresh, a client credentials grant, or a sign-in of the user (login
// only); else a LoginRequiredError.
func (c *Client) unauthorized(ctx context.Context, sent *Record, ch Challenge, again bool) (*Record, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	if c.rec != nil && c.rec != sent {
		return c.rec, nil // another request renewed it meanwhile
	}
	if again {
		if c.opts.User != nil {
			return nil, fmt.Errorf("server %q refused the token it was just given (HTTP 401%s)", c.name, describe(ch))
		}
		return nil, c.loginRequired("server %q refused the token it was just given (HTTP 401%s)", c.name, describe(ch))
	}
	if c.reloadLocked() {
		return c.rec, nil // a login in another process signed in since
	}
	if sent != nil {
		if err := c.renewLocked(ctx); err == nil {
			return c.rec, nil
		} else {
			c.log.Info("renewing the token after HTTP 401 failed", "err", err)
		}
	}
	scopes := c.scopesFor(ch.Scopes, sent)
	switch {
	case c.set.GrantOrDefault() == config.GrantClientCredentials:
		if err := c.clientCredentialsLocked(ctx, scopes, nil, ch); err != nil {
			return nil, err
		}
		return c.rec, nil
	case c.opts.User != nil:
		if err := c.authorizeLocked(ctx, ch, scopes); err != nil {
			return nil, err
		}
		return c.rec, nil
	case sent != nil:
		return nil, c.loginRequired("the sign-in to server %q has expired or was revoked (HTTP 401%s)", c.name, describe(ch))
	case !ch.Bearer:
		return nil, c.loginRequired("server %q requires authorization (HTTP 401, without a Bearer challenge: if it does not sign in with OAuth, give it its credentials in headers)", c.name)
	}
	return nil, c.loginRequired("server %q requires sign-in (HTTP 401%s)", c.name, describe(ch))
}

// describe is the challenge's error, for messages.
func describe(ch Challenge) string {
	if ch.Error == "" {
		return ""
	}
	return ": " + ch.Error
}

// scopesFor are the scopes to ask for: the configured ones, else those of
// the challenge, else (at discovery) all the resource lists; with those
// the stored sign-in has and a run found missing.
func (c *Client) scopesFor(challenged []string, have *Record) []string {
	var s []string
	if len(c.set.Scopes) > 0 {
		s = slices.Clone(c.set.Scopes)
	} else {
		s = slices.Clone(challenged)
	}
	if have != nil {
		s = union(s, have.Wanted)
	}
	if c.fresh {
		if old, _ := c.store.Find(c.url); old != nil {
			s = union(s, old.Wanted)
		}
	}
	return s
}

// maxStepUps bounds the sign-ins one request may cause by answering 403
// insufficient_scope, so that a server that is never satisfied is not
// asked forever.
const maxStepUps = 2

// insufficientScope handles a 403 insufficient_scope to a request sent with
// sent: it returns a sign-in with the scopes the server asks for besides
// those it has, obtained without anyone when the authorization server
// allows (client credentials, or an authorization it grants at once), or by
// the user at login; else a LoginRequiredError, and the next login asks for
// them. ok is false when a new token could not help: the server asks only
// for scopes the token has.
func (c *Client) insufficientScope(ctx context.Context, sent *Record, ch Challenge) (*Record, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	if sent == nil || len(ch.Scopes) == 0 {
		return nil, false, nil
	}
	if c.rec != nil && c.rec != sent && subset(ch.Scopes, c.rec.Scopes) {
		return c.rec, true, nil
	}
	if subset(ch.Scopes, sent.Scopes) {
		c.log.Info("the server refused a token for lack of scopes it has", "scopes", strings.Join(ch.Scopes, " "))
		return nil, false, nil
	}
	scopes := union(sent.Scopes, ch.Scopes)
	c.log.Info("the server asks for more scope", "scopes", strings.Join(scopes, " "))
	var err error
	switch {
	case sent.Grant == config.GrantClientCredentials:
		err = c.clientCredentialsLocked(ctx, scopes, sent, ch)
	default:
		err = c.authorizeLocked(ctx, ch, scopes)
	}
	if err != nil {
		var lr *LoginRequiredError
		if errors.As(err, &lr) && c.rec != nil {
			next := *c.rec
			next.Wanted = union(next.Wanted, scopes)
			_ = c.store.Save(&next)
			c.rec = &next
			return nil, false, c.loginRequired("server %q asks for more access (scope %q) than its sign-in grants", c.name, strings.Join(scopes, " "))
		}
		return nil, false, err
	}
	return c.rec, true, nil
}

// SignInIfOffered signs in to a server that did not ask for it but
// publishes protected resource metadata (it may ask later, for a tool
// call): login uses it. It reports whether it signed in.
func (c *Client) SignInIfOffered(ctx context.Context) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, err := discover(ctx, c.hc, c.url, Challenge{})
	if err != nil || d.Resource == "" {
		return false, err
	}
	scopes := c.scopesFor(nil, nil)
	if c.set.GrantOrDefault() == config.GrantClientCredentials {
		return true, c.clientCredentialsLocked(ctx, scopes, nil, Challenge{})
	}
	return true, c.authorizeLocked(ctx, Challenge{}, scopes)
}

// client is how this program is known to an authorization server.
type client struct {
	id, secret   string
	method       string // token endpoint authentication
	registration string
}

// secretFromEnv reads the configured client secret's variable.
func (c *Client) secretFromEnv() (string, error) {
	if c.set.ClientSecretEnv == "" {
		return "", nil
	}
	v := os.Getenv(c.set.ClientSecretEnv)
	if v == "" {
		return "", fmt.Errorf("[servers.%s.oauth] client_secret_env: the variable %s is not set", c.name, c.set.ClientSecretEnv)
	}
	return v, nil
}

// preRegistered is the configured client, with the authentication method
// the authorization server's metadata allows.
func (c *Client) preRegistered(m ServerMetadata) (client, error) {
	cl := client{id: c.set.ClientID, registration: preRegistered, method: "none"}
	secret, err := c.secretFromEnv()
	if err != nil {
		return cl, err
	}
	switch {
	case c.set.PrivateKeyFile != "":
		cl.method = "private_key_jwt"
	case secret != "":
		cl.secret = secret
		cl.method = secretMethod(m.TokenEndpointAuthMethodsSupported)
	}
	return cl, nil
}

// secretMethod is how a client with a secret authenticates, given the
// methods the authorization server lists: client_secret_basic (RFC 8414's
// default) unless only client_secret_post is listed.
func secretMethod(supported []string) string {
	if !slices.Contains(supported, "client_secret_basic") && slices.Contains(supported, "client_secret_post") {
		return "client_secret_post"
	}
	return "client_secret_basic"
}

// authenticate adds the client's authentication to a token request.
func (c *Client) authenticate(req *http.Request, form url.Values, rec *Record) error {
	switch rec.AuthMethod {
	case "client_secret_basic", "client_secret_post":
		secret := rec.ClientSecret
		if rec.Registration == preRegistered {
			var err error
			if secret, err = c.secretFromEnv(); err != nil {
				return err
			}
		}
		if rec.AuthMethod == "client_secret_post" {
			form.Set("client_id", rec.ClientID)
			form.Set("client_secret", secret)
		} else {
			// RFC 6749 §2.3.1: form-encoded, then Basic.
			req.SetBasicAuth(url.QueryEscape(rec.ClientID), url.QueryEscape(secret))
		}
	case "private_key_jwt":
		pemBytes, err := safefile.Read(c.set.PrivateKeyFile, 64<<10)
		if err != nil {
			return fmt.Errorf("[servers.%s.oauth] private_key_file: %w", c.name, err)
		}
		key, err := parsePrivateKey(pemBytes)
		if err != nil {
			return fmt.Errorf("[servers.%s.oauth] private_key_file %s: %w", c.name, c.set.PrivateKeyFile, err)
		}
		jwt, err := clientAssertion(key, c.set.SigningAlgorithm, rec.ClientID, rec.Issuer, time.Now())
		if err != nil {
			return fmt.Errorf("[servers.%s.oauth] private_key_file %s: %w", c.name, c.set.PrivateKeyFile, err)
		}
		form.Set("client_id", rec.ClientID)
		form.Set("client_assertion_type", clientAssertionType)
		form.Set("client_assertion", jwt)
	default:
		form.Set("client_id", rec.ClientID)
	}
	return nil
}

// tokenResponse is a token endpoint's answer (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string      `json:"access_token"`
	TokenType    string      `json:"token_type"`
	ExpiresIn    json.Number `json:"expires_in"`
	RefreshToken string      `json:"refresh_token"`
	Scope        string      `json:"scope"`
	Error        string      `json:"error"`
	Description  string      `json:"error_description"`
}

// apply takes a token response into r; asked are the scopes asked for,
// which the token has when the response does not say (RFC 6749 §5.1).
func (r *Record) apply(t *tokenResponse, asked []string) {
	r.AccessToken, r.RefreshToken = t.AccessToken, t.RefreshToken
	r.ExpiresAt = time.Time{}
	if n, err := t.ExpiresIn.Int64(); err == nil && n > 0 {
		r.ExpiresAt = time.Now().Add(time.Duration(n) * time.Second).UTC().Truncate(time.Second)
	}
	if t.Scope != "" {
		r.Scopes = strings.Fields(t.Scope)
	} else {
		r.Scopes = slices.Clone(asked)
	}
	r.Wanted = slices.DeleteFunc(slices.Clone(r.Wanted), func(s string) bool { return slices.Contains(r.Scopes, s) })
	if len(r.Wanted) == 0 {
		r.Wanted = nil
	}
	r.SignedIn = time.Now().UTC().Truncate(time.Second)
}

// requestToken posts form to rec's token endpoint, authenticated as rec's
// client, and returns the token it issued.
func (c *Client) requestToken(ctx context.Context, rec *Record, form url.Values) (*tokenResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rec.TokenEndpoint, nil)
	if err != nil {
		return nil, err
	}
	if err := c.authenticate(req, form, rec); err != nil {
		return nil, err
	}
	body := form.Encode()
	req.Body = io.NopCloser(strings.NewReader(body))
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("token endpoint %s: %w", rec.TokenEndpoint, err)
	}
	defer resp.Body.Close()
	b, err := readBounded(resp.Body, maxTokenBytes)
	if err != nil {
		return nil, fmt.Errorf("token endpoint %s: %w", rec.TokenEndpoint, err)
	}
	var t tokenResponse
	jsonErr := json.Unmarshal(b, &t)
	switch {
	case t.Error != "":
		return nil, fmt.Errorf("token endpoint %s refused: %s", rec.TokenEndpoint, oauthError(t.Error, t.Description))
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, fmt.Errorf("token endpoint %s: status %d", rec.TokenEndpoint, resp.StatusCode)
	case jsonErr != nil:
		return nil, fmt.Errorf("token endpoint %s: the answer is not JSON", rec.TokenEndpoint)
	case t.AccessToken == "":
		return nil, fmt.Errorf("token endpoint %s: the answer has no access_token", rec.TokenEndpoint)
	case t.TokenType != "" && !strings.EqualFold(t.TokenType, "Bearer"):
		return nil, fmt.Errorf("token endpoint %s: a token of type %q, where MCP uses Bearer tokens", rec.TokenEndpoint, clip(t.TokenType, 40))
	}
	return &t, nil
}

// oauthError is an OAuth error code and its description, on one line and
// capped: it comes from the authorization server.
func oauthError(code, desc string) string {
	s := clip(code, 60)
	if desc != "" {
		s += " (" + clip(desc, 200) + ")"
	}
	return s
}

// clip caps s at n runes and puts it on one line, without the runes a
// terminal would act on: what an authorization server says is shown to
// the user.
func clip(s string, n int) string {
	s = printable.Words(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// clientCredentialsLocked gets a token with the client credentials grant
// (the client signs in as itself: no user). With have, its endpoints and
// client are used; else discovery runs. c.mu is held.
func (c *Client) clientCredentialsLocked(ctx context.Context, scopes []string, have *Record, ch ...Challenge) error {
	var rec Record
	if have != nil {
		rec = *have
	} else {
		var challenge Challenge
		if len(ch) > 0 {
			challenge = ch[0]
		}
		d, err := discover(ctx, c.hc, c.url, challenge)
		if err != nil {
			return fmt.Errorf("sign in to server %q: %w", c.name, err)
		}
		if len(scopes) == 0 {
			scopes = d.ScopesSupported
		}
		cl, err := c.preRegistered(d.Meta)
		if err != nil {
			return err
		}
		rec = c.newRecord(d, cl, config.GrantClientCredentials, "")
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	if rec.Resource != "" {
		form.Set("resource", rec.Resource)
	}
	tok, err := c.requestToken(ctx, &rec, form)
	if err != nil {
		return fmt.Errorf("sign in to server %q with client credentials: %w", c.name, err)
	}
	rec.apply(tok, scopes)
	c.signins++
	c.log.Info("signed in with client credentials", "issuer", rec.Issuer, "scopes", strings.Join(rec.Scopes, " "))
	return c.keepLocked(&rec)
}

// newRecord starts the record of a sign-in.
func (c *Client) newRecord(d *Discovery, cl client, grant, redirect string) Record {
	return Record{
		ServerURL: c.url, Resource: d.Resource, Issuer: d.Issuer,
		AuthorizationEndpoint: d.Meta.AuthorizationEndpoint, TokenEndpoint: d.Meta.TokenEndpoint, RevocationEndpoint: d.Meta.RevocationEndpoint,
		Grant: grant, ClientID: cl.id, Registration: cl.registration, AuthMethod: cl.method, RedirectURI: redirect,
		ClientSecret: map[bool]string{true: cl.secret}[cl.registration == dynamic],
	}
}

// pkce is a PKCE verifier and its S256 challenge (RFC 7636), from mcp-go.
func pkce() (verifier, challenge string, err error) {
	verifier, err = transport.GenerateCodeVerifier()
	if err != nil {
		return "", "", err
	}
	return verifier, transport.GenerateCodeChallenge(verifier), nil
}
