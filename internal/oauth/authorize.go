package oauth

import (
	"bytes"
	"context"
	"encoding/json"

	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// authorizeLocked signs in with the authorization code grant: discovery,
// the client (configured, metadata document, the one registered before,
// or a new dynamic registration), an authorization request with PKCE and
// the resource, answered at once (see probe) or, at login, in the user's
// browser through a loopback redirect; then the code for tokens. Without a
// user it succeeds only when the authorization server grants at once, with
// the client of the stored sign-in. c.mu is held.
func (c *Client) authorizeLocked(ctx context.Context, ch Challenge, scopes []string) error {
	user := c.opts.User
	have := c.rec
	if user == nil && have == nil {
		return c.loginRequired("server %q requires sign-in", c.name)
	}
	d, err := discover(ctx, c.hc, c.url, ch)
	if err != nil {
		return fmt.Errorf("sign in to server %q: %w", c.name, err)
	}
	switch {
	case d.Guessed && !ch.Bearer:
		return fmt.Errorf("sign in to server %q: it answered 401 without a Bearer challenge and publishes no OAuth metadata, so it does not sign in with OAuth: give it its credentials in its config (headers)", c.name)
	case d.Meta.AuthorizationEndpoint == "":
		return fmt.Errorf("sign in to server %q: its authorization server %s names no authorization_endpoint", c.name, d.Issuer)
	case !d.Guessed && !slices.Contains(d.Meta.CodeChallengeMethodsSupported, "S256"):
		return fmt.Errorf("sign in to server %q: its authorization server %s does not list PKCE with S256 (code_challenge_methods_supported), which MCP requires", c.name, d.Issuer)
	}
	if len(scopes) == 0 {
		scopes = d.ScopesSupported
	}
	var redirect string
	var ln net.Listener
	if user != nil {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("sign in to server %q: the loopback redirect: %w", c.name, err)
		}
		defer ln.Close()
		redirect = fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	} else {
		if have.RedirectURI == "" || have.Issuer != d.Issuer {
			return c.loginRequired("server %q asks for a new sign-in", c.name)
		}
		redirect = have.RedirectURI
	}
	cl, err := c.chooseClient(ctx, d, redirect, scopes, have)
	if err != nil {
		return fmt.Errorf("sign in to server %q: %w", c.name, err)
	}
	verifier, challenge, err := pkce()
	if err != nil {
		return err
	}
	state, err := transport.GenerateState()
	if err != nil {
		return err
	}
	q := url.Values{
		"response_type": {"code"}, "client_id": {cl.id}, "redirect_uri": {redirect}, "state": {state},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"},
	}
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	if d.Resource != "" {
		q.Set("resource", d.Resource)
	}
	authURL := d.Meta.AuthorizationEndpoint
	if strings.Contains(authURL, "?") {
		authURL += "&" + q.Encode()
	} else {
		authURL += "?" + q.Encode()
	}
	answer, err := c.probe(ctx, authURL, redirect)
	if err != nil {
		return fmt.Errorf("sign in to server %q: %w", c.name, err)
	}
	if answer == nil {
		if user == nil {
			return c.loginRequired("server %q asks for a new sign-in in a browser", c.name)
		}
		if answer, err = c.browse(ctx, user, authURL, state, ln); err != nil {
			return fmt.Errorf("sign in to server %q: %w", c.name, err)
		}
	}
	switch {
	case answer.Get("state") != state:
		return fmt.Errorf("sign in to server %q: the authorization answer carries another state than the request's: refused", c.name)
	case answer.Get("error") != "":
		return fmt.Errorf("sign in to server %q: the authorization server refused: %s", c.name, oauthError(answer.Get("error"), answer.Get("error_description")))
	case answer.Get("iss") != "" && answer.Get("iss") != d.Issuer:
		// RFC 9207: the answer names the issuer that sent it.
		return fmt.Errorf("sign in to server %q: the authorization answer comes from the issuer %q, not %q: refused", c.name, clip(answer.Get("iss"), 200), d.Issuer)
	case answer.Get("code") == "":
		return fmt.Errorf("sign in to server %q: the authorization answer has no code", c.name)
	}
	rec := c.newRecord(d, cl, config.GrantAuthorizationCode, redirect)
	form := url.Values{"grant_type": {"authorization_code"}, "code": {answer.Get("code")}, "redirect_uri": {redirect}, "code_verifier": {verifier}}
	if d.Resource != "" {
		form.Set("resource", d.Resource)
	}
	tok, err := c.requestToken(ctx, &rec, form)
	if err != nil {
		return fmt.Errorf("sign in to server %q: %w", c.name, err)
	}
	rec.apply(tok, scopes)
	c.signins++
	c.log.Info("signed in", "issuer", rec.Issuer, "client", rec.Registration, "scopes", strings.Join(rec.Scopes, " "))
	return c.keepLocked(&rec)
}

// chooseClient picks how this program is known to the authorization
// server, in the order MCP authorization gives: a pre-registered client
// (client_id), a client ID metadata document (client_metadata_url) when
// the server accepts them, the client dynamic registration gave before for
// the same redirect, or a new dynamic registration (RFC 7591).
func (c *Client) chooseClient(ctx context.Context, d *Discovery, redirect string, scopes []string, have *Record) (client, error) {
	switch {
	case c.set.ClientID != "":
		return c.preRegistered(d.Meta)
	case c.set.ClientMetadataURL != "" && d.Meta.ClientIDMetadataDocumentSupported:
		return client{id: c.set.ClientMetadataURL, method: "none", registration: metadataDocument}, nil
	case have != nil && have.Registration == dynamic && have.Issuer == d.Issuer && have.RedirectURI == redirect:
		return client{id: have.ClientID, secret: have.ClientSecret, method: have.AuthMethod, registration: dynamic}, nil
	case d.Meta.RegistrationEndpoint != "":
		return c.register(ctx, d, redirect, scopes)
	}
	hint := "register a client with it and set client_id (and client_secret_env) under [servers." + c.name + ".oauth]"
	if c.set.ClientMetadataURL == "" && d.Meta.ClientIDMetadataDocumentSupported {
		hint += ", or set client_metadata_url to your client ID metadata document"
	}
	return client{}, fmt.Errorf("the authorization server %s offers no dynamic client registration: %s", d.Issuer, hint)
}

// register registers this program as a native client with a loopback
// redirect (RFC 7591, RFC 8252), as a public client when the
// authorization server allows.
func (c *Client) register(ctx context.Context, d *Discovery, redirect string, scopes []string) (client, error) {
	supported := d.Meta.TokenEndpointAuthMethodsSupported
	method := "none"
	if len(supported) > 0 && !slices.Contains(supported, "none") {
		method = secretMethod(supported)
	}
	reg := map[string]any{
		"client_name":                "mcp-code-mode",
		"redirect_uris":              []string{redirect},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
		"application_type":           "native",
	}
	if len(scopes) > 0 {
		reg["scope"] = strings.Join(scopes, " ")
	}
	body, _ := json.Marshal(reg)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.Meta.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return client{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return client{}, fmt.Errorf("dynamic client registration at %s: %w", d.Meta.RegistrationEndpoint, err)
	}
	defer resp.Body.Close()
	b, err := readBounded(resp.Body, maxTokenBytes)
	if err != nil {
		return client{}, fmt.Errorf("dynamic client registration at %s: %w", d.Meta.RegistrationEndpoint, err)
	}
	var r struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		Method       string `json:"token_endpoint_auth_method"`
		Error        string `json:"error"`
		Description  string `json:"error_description"`
	}
	jsonErr := json.Unmarshal(b, &r)
	switch {
	case r.Error != "":
		return client{}, fmt.Errorf("dynamic client registration at %s refused: %s", d.Meta.RegistrationEndpoint, oauthError(r.Error, r.Description))
	case resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK:
		return client{}, fmt.Errorf("dynamic client registration at %s: status %d", d.Meta.RegistrationEndpoint, resp.StatusCode)
	case jsonErr != nil || r.ClientID == "":
		return client{}, fmt.Errorf("dynamic client registration at %s: the answer has no client_id", d.Meta.RegistrationEndpoint)
	}
	cl := client{id: r.ClientID, secret: r.ClientSecret, registration: dynamic}
	switch {
	case slices.Contains([]string{"none", "client_secret_basic", "client_secret_post"}, r.Method):
		cl.method = r.Method // what the server registered (RFC 7591 §3.2.1)
	case r.ClientSecret == "":
		cl.method = "none"
	case len(supported) == 0 || slices.Contains(supported, "client_secret_basic"):
		cl.method = "client_secret_basic"
	case slices.Contains(supported, "client_secret_post"):
		cl.method = "client_secret_post"
	default:
		cl.method = "none"
	}
	if cl.secret != "" && c.opts.OnSecret != nil {
		c.opts.OnSecret(cl.secret)
	}
	return cl, nil
}

// probe sends the authorization request itself, without a browser, and
// returns the answer when the authorization server grants (or refuses) at
// once: it redirects straight back to the redirect URI, as a server that
// needs no user does. nil when it answers anything else (a login page).
func (c *Client) probe(ctx context.Context, authURL, redirect string) (url.Values, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("authorization endpoint: %w", err)
	}
	_, _ = readBounded(resp.Body, maxMetadataBytes)
	resp.Body.Close()
	if resp.StatusCode < 300 || resp.StatusCode > 399 {
		return nil, nil
	}
	loc, err := resp.Location()
	if err != nil {
		return nil, nil
	}
	want, _ := url.Parse(redirect)
	if loc.Scheme != want.Scheme || loc.Host != want.Host || loc.Path != want.Path {
		return nil, nil
	}
	c.log.Info("the authorization server granted at once, without a browser")
	return loc.Query(), nil
}

// browse shows the user the authorization URL, opens it in their browser
// when it can, and waits (at most user.Timeout) for the browser to come
// back to the loopback redirect with the request's state.
func (c *Client) browse(ctx context.Context, user *User, authURL, state string, ln net.Listener) (url.Values, error) {
	got := make(chan url.Values, 1)
	srv := &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/callback" {
				http.NotFound(w, r)
				return
			}
			q := r.URL.Query()
			if q.Get("state") != state {
				// Not the answer to this request (another page, or a
				// forgery): refused, and the wait goes on.
				http.Error(w, "This is not the answer to the sign-in mcp-code-mode is waiting for.", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			msg := "Signed in. You can close this tab."
			if e := q.Get("error"); e != "" {
				msg = "The sign-in was refused: " + clip(e, 60) + ". You can close this tab."
			}
			fmt.Fprintf(w, "<!doctype html><title>mcp-code-mode</title><p>%s</p>\n", html.EscapeString(msg))
			select {
			case got <- q:
			default:
			}
		}),
	}
	go func() { _ = srv.Serve(ln) }()
	// The browser's page is written before its answer is taken: Shutdown
	// lets that response finish (Close would reset the connection, and the
	// user would see an error instead of "Signed in"), within a bound.
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			_ = srv.Close()
		}
	}()
	timeout := user.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	fmt.Fprintf(user.Out, "To sign in to %s, open this URL in a browser:\n\n  %s\n\n", c.name, authURL)
	if user.Open != nil {
		if err := user.Open(authURL); err != nil {
			fmt.Fprintf(user.Out, "(no browser was opened: %v)\n", err)
		}
	}
	fmt.Fprintf(user.Out, "Waiting for the browser to come back to %s (at most %v)...\n", "http://"+ln.Addr().String()+"/callback", timeout)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case q := <-got:
		return q, nil
	case <-timer.C:
		return nil, fmt.Errorf("no answer from the browser within %v", timeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
