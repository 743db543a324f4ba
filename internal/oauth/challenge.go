package oauth

import (
	"net/http"
	"strings"
)

// Challenge is what a Bearer challenge in a WWW-Authenticate header says
// (RFC 6750 §3, RFC 9728 §5.1): where the resource's metadata is, which
// scopes it wants and why it refused.
type Challenge struct {
	Bearer           bool     // the answer carried a Bearer challenge at all
	ResourceMetadata string   // resource_metadata: the protected resource metadata URL
	Scopes           []string // scope, split on spaces
	Error            string   // error: invalid_token, insufficient_scope, ...
	Description      string   // error_description
}

// challengeOf reads the Bearer challenge of a response (the first, when it
// has several); ok is false when it has none.
func challengeOf(resp *http.Response) (Challenge, bool) {
	for _, h := range resp.Header.Values("WWW-Authenticate") {
		for _, c := range parseChallenges(h) {
			if strings.EqualFold(c.scheme, "Bearer") {
				return Challenge{
					Bearer:           true,
					ResourceMetadata: c.params["resource_metadata"],
					Scopes:           strings.Fields(c.params["scope"]),
					Error:            c.params["error"],
					Description:      c.params["error_description"],
				}, true
			}
		}
	}
	return Challenge{}, false
}

// rawChallenge is one challenge of a WWW-Authenticate header: its scheme
// and its auth-params (names in lower case).
type rawChallenge struct {
	scheme string
	params map[string]string
}

// maxChallenge bounds the header text parsed.
const maxChallenge = 8 << 10

// parseChallenges parses a WWW-Authenticate header value (RFC 9110 §11.6.1):
// challenges separated by commas, each a scheme followed by auth-params
// (name=token or name="quoted string") or a token68. What does not parse is
// skipped, never fatal.
func parseChallenges(h string) []rawChallenge {
	if len(h) > maxChallenge {
		h = h[:maxChallenge]
	}
	var out []rawChallenge
	p := &lexer{s: h}
	for {
		p.skip(" \t,")
		if p.done() {
			return out
		}
		scheme := p.token()
		if scheme == "" {
			p.i++ // not a token: skip the character
			continue
		}
		c := rawChallenge{scheme: scheme, params: map[string]string{}}
		for {
			p.skip(" \t")
			save := p.i
			name := p.token()
			p.skip(" \t")
			if name == "" || !p.eat('=') {
				// The next challenge's scheme (or a token68, which no
				// scheme used here carries).
				p.i = save
				if name != "" && !p.done() && p.s[p.i] != ',' {
					for !p.done() && p.s[p.i] != ',' {
						p.i++
					}
				}
				break
			}
			p.skip(" \t")
			var value string
			if !p.done() && p.s[p.i] == '"' {
				value = p.quoted()
			} else {
				value = p.token()
				for !p.done() && p.s[p.i] == '=' { // token68 padding
					value += "="
					p.i++
				}
			}
			if _, dup := c.params[strings.ToLower(name)]; !dup {
				c.params[strings.ToLower(name)] = value
			}
			p.skip(" \t")
			if !p.eat(',') {
				break
			}
			// After a comma: another param of this challenge, or the
			// next challenge (a token followed by a space or the end).
			p.skip(" \t,")
			look := p.i
			next := p.token()
			p.skip(" \t")
			isParam := next != "" && !p.done() && p.s[p.i] == '='
			p.i = look
			if !isParam {
				break
			}
		}
		out = append(out, c)
	}
}

type lexer struct {
	s string
	i int
}

func (p *lexer) done() bool { return p.i >= len(p.s) }

func (p *lexer) skip(chars string) {
	for !p.done() && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *lexer) eat(c byte) bool {
	if !p.done() && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// token reads an RFC 9110 token (and the characters of a token68).
func (p *lexer) token() string {
	start := p.i
	for !p.done() {
		c := p.s[p.i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),:;<=>?@[\\]{}", c) >= 0 {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

// quoted reads a quoted string, unescaping its backslash escapes.
func (p *lexer) quoted() string {
	p.i++ // the opening quote
	var b strings.Builder
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch c {
		case '"':
			return b.String()
		case '\\':
			if !p.done() {
				b.WriteByte(p.s[p.i])
				p.i++
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
