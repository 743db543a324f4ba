package upstream

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mcp-code-mode/mcp-code-mode/internal/oauth"
)

// ErrMessageTooLarge marks a message from a wrapped server over
// limits.max_message_bytes: it is refused as it streams in, never held
// whole.
var ErrMessageTooLarge = errors.New("message over the size limit")

// messageLimit reads a stream of newline-separated messages (stdio's
// JSON-RPC lines, an HTTP body, an SSE stream's lines) and fails, reading
// nothing further, once one message is longer than max bytes. over is set
// when that happens, for transports that do not pass the error on.
type messageLimit struct {
	r      io.Reader
	max    int
	run    int // bytes of the current message so far
	over   *atomic.Bool
	onOver func() // called once, when the limit is passed (may be nil)
}

func (m *messageLimit) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	for seg := p[:n]; len(seg) > 0; {
		i := bytes.IndexByte(seg, '\n')
		if i < 0 {
			m.run += len(seg)
			break
		}
		m.run += i
		if m.run > m.max {
			break
		}
		m.run = 0
		seg = seg[i+1:]
	}
	if m.run > m.max {
		if !m.over.Swap(true) && m.onOver != nil {
			m.onOver()
		}
		return 0, ErrMessageTooLarge
	}
	return n, err
}

// limitBody is an HTTP response body read through a messageLimit.
type limitBody struct {
	io.Reader
	io.Closer
}

// limitTransport caps every response body's messages (see messageLimit).
type limitTransport struct {
	base   http.RoundTripper
	max    int
	over   *atomic.Bool
	onOver func()
}

func (t *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = limitBody{Reader: &messageLimit{r: resp.Body, max: t.max, over: t.over, onOver: t.onOver}, Closer: resp.Body}
	return resp, nil
}

// httpClient is an HTTP client whose response bodies are capped; onOver
// (may be nil) is called when one goes over. With auth, requests carry
// that sign-in's token (see oauth.Client.Transport).
func httpClient(max int, over *atomic.Bool, onOver func(), auth *oauth.Client) *http.Client {
	var rt http.RoundTripper = &limitTransport{base: http.DefaultTransport.(*http.Transport).Clone(), max: max, over: over, onOver: onOver}
	if auth != nil {
		rt = auth.Transport(rt)
	}
	return &http.Client{Transport: rt}
}

// foreignLine notes the first line of a stdio server's stdout that is not a
// JSON-RPC message (a banner, a log line, an error printed to the wrong
// stream): when the server then fails to start, it is often the cause.
// What it keeps is capped, and it reads nothing itself.
type foreignLine struct {
	r     io.Reader
	mu    sync.Mutex
	cur   []byte // the start of the current line, at most foreignMax bytes
	first string // the first foreign line, "" if none yet
}

const foreignMax = 200

func (f *foreignLine) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.first != "" {
		return n, err
	}
	for seg := p[:n]; len(seg) > 0 && f.first == ""; {
		i := bytes.IndexByte(seg, '\n')
		part := seg
		if i >= 0 {
			part = seg[:i]
		}
		if room := foreignMax - len(f.cur); room > 0 {
			f.cur = append(f.cur, part[:min(room, len(part))]...)
		}
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(f.cur); len(line) > 0 && line[0] != '{' {
			f.first = string(line)
		}
		f.cur = f.cur[:0]
		seg = seg[i+1:]
	}
	return n, err
}

// line returns the first foreign line seen, "" if none.
func (f *foreignLine) line() string {
	if f == nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.first
}
