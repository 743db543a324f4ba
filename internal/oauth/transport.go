package oauth

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Transport returns an http.RoundTripper that sends every request to the
// server with its sign-in's token (refreshed before it expires), and
// answers the server's challenges: after a 401 it refreshes the token or
// signs in (see Client.unauthorized), after a 403 insufficient_scope it
// asks for more scope (at most maxStepUps times a request), and sends the
// request again. A request it cannot send again (a body without GetBody)
// gets the server's answer as it is.
func (c *Client) Transport(base http.RoundTripper) http.RoundTripper {
	return &roundTripper{c: c, base: base}
}

type roundTripper struct {
	c    *Client
	base http.RoundTripper
}

func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	rec := t.c.token(ctx)
	resp, err := t.send(req, rec, false)
	if err != nil {
		return nil, err
	}
	replayable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	unauthorized, stepUps := 0, 0
	for replayable {
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			ch, _ := challengeOf(resp)
			drain(resp)
			next, err := t.c.unauthorized(ctx, rec, ch, unauthorized > 0)
			if err != nil {
				return nil, signInError(err)
			}
			unauthorized++
			rec = next
		case http.StatusForbidden:
			ch, ok := challengeOf(resp)
			if !ok || ch.Error != "insufficient_scope" || stepUps >= maxStepUps {
				return resp, nil
			}
			next, retry, err := t.c.insufficientScope(ctx, rec, ch)
			if err != nil {
				drain(resp)
				return nil, signInError(err)
			}
			if !retry {
				if rec == nil || len(ch.Scopes) == 0 {
					return resp, nil
				}
				drain(resp)
				return nil, &SignInError{Err: fmt.Errorf("server %q refused its token for lack of scope %q, which the token was granted (HTTP 403 insufficient_scope%s)",
					t.c.name, strings.Join(ch.Scopes, " "), clipDescription(ch.Description))}
			}
			drain(resp)
			stepUps++
			rec = next
		default:
			return resp, nil
		}
		if resp, err = t.send(req, rec, true); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

// send sends a copy of req with rec's token (none when rec is nil); again
// says the body must be made anew.
func (t *roundTripper) send(req *http.Request, rec *Record, again bool) (*http.Response, error) {
	out := req.Clone(req.Context())
	if again && req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		out.Body = body
	}
	out.Header.Del("Authorization")
	if rec != nil {
		out.Header.Set("Authorization", "Bearer "+rec.AccessToken)
	}
	return t.base.RoundTrip(out)
}

// drain reads a little of an answer that is not passed on, so the
// connection can be reused, and closes it.
func drain(resp *http.Response) {
	_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
	resp.Body.Close()
}

// SignInError is a request not sent because signing in failed: its
// message says why, without the transport's wrapping.
type SignInError struct{ Err error }

func (e *SignInError) Error() string { return e.Err.Error() }
func (e *SignInError) Unwrap() error { return e.Err }

// signInError wraps err in a SignInError, unless it is a
// LoginRequiredError (which says what to do) or one already.
func signInError(err error) error {
	var lr *LoginRequiredError
	var se *SignInError
	if errors.As(err, &lr) || errors.As(err, &se) {
		return err
	}
	return &SignInError{Err: err}
}

// clipDescription is a challenge's error_description for a message.
func clipDescription(d string) string {
	if d == "" {
		return ""
	}
	return ": " + clip(d, 200)
}
