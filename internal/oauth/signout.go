package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// SignOut forgets the server's sign-in: its stored records are removed,
// and their tokens are revoked (RFC 7009) where the authorization server
// offers revocation. It returns how many sign-ins it forgot and, for a
// revocation that failed, why (the tokens are forgotten all the same).
func (c *Client) SignOut(ctx context.Context) (int, []string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	recs, err := c.store.Delete(c.url)
	c.rec, c.loaded = nil, true
	var problems []string
	for _, rec := range recs {
		if rec.RevocationEndpoint == "" {
			continue
		}
		for _, tok := range []struct{ value, hint string }{{rec.RefreshToken, "refresh_token"}, {rec.AccessToken, "access_token"}} {
			if tok.value == "" {
				continue
			}
			if rerr := c.revoke(ctx, rec, tok.value, tok.hint); rerr != nil {
				problems = append(problems, rerr.Error())
			}
		}
	}
	return len(recs), problems, err
}

// revoke asks the authorization server to revoke one token.
func (c *Client) revoke(ctx context.Context, rec *Record, token, hint string) error {
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rec.RevocationEndpoint, nil)
	if err != nil {
		return err
	}
	if err := c.authenticate(req, form, rec); err != nil {
		return err
	}
	body := form.Encode()
	req.Body = nopCloser{strings.NewReader(body)}
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("revoke the %s at %s: %w", strings.ReplaceAll(hint, "_", " "), rec.RevocationEndpoint, err)
	}
	drain(resp)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("revoke the %s at %s: status %d", strings.ReplaceAll(hint, "_", " "), rec.RevocationEndpoint, resp.StatusCode)
	}
	return nil
}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }
