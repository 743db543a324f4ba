// Package embedding asks an embedding server for the vectors of texts, over
// the OpenAI-compatible API that Ollama, llama.cpp's server, LM Studio and
// vLLM serve, and keeps them by content so that each text is embedded once.
//
//	c, err := embedding.New(embedding.Options{
//		URL: "http://localhost:11434", Model: "nomic-embed-text",
//		Timeout: 2 * time.Second, MaxResponseBytes: 8 << 20,
//	})
//	vecs, err := c.Embed(ctx, []string{"open a pull request"})
//
// A request is POST {url}/v1/embeddings with {"model": ..., "input": [...]};
// the answer is {"data": [{"embedding": [...], "index": n}, ...]}. Every
// request has a deadline and every answer a size bound, and an answer is
// used only when it holds exactly one finite vector per text, all of one
// length. The server is never followed to another address (no redirects).
package embedding

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
)

// Limits of what is asked and what is accepted.
const (
	// BatchSize is the most texts one request carries; more are sent in
	// several requests, so that each stays within its deadline when the
	// model runs on a small machine's CPU.
	BatchSize = 8
	// MaxDims is the longest vector accepted (the largest common models
	// have 4,096 dimensions).
	MaxDims = 16384
	// maxErrorBody is how much of a failed answer's body an error quotes.
	maxErrorBody = 200
)

// Cache keeps vectors between processes, by a key that names the model and
// the text (see Client.Key). A cache that cannot load or store is no error:
// the text is embedded again.
type Cache interface {
	LoadVector(key string) ([]float32, bool)
	StoreVector(key string, v []float32) error
}

// Options configure a Client.
type Options struct {
	// URL is the server's base address (http://localhost:11434); the
	// request goes to URL/v1/embeddings (a URL that already ends in /v1
	// is taken as meaning the same).
	URL   string
	Model string // the model, by the name the server knows it
	// APIKey is sent as "Authorization: Bearer APIKey" when not empty. It
	// appears in no error.
	APIKey           string
	Timeout          time.Duration // per request, answer included
	MaxResponseBytes int           // a longer answer is refused
	// Transport carries the requests (nil: a copy of
	// http.DefaultTransport, which honours the proxy variables).
	Transport http.RoundTripper
}

// Client asks one embedding server for vectors. It is safe for concurrent
// use.
type Client struct {
	endpoint string // URL/v1/embeddings
	model    string
	key      string
	maxBytes int
	http     *http.Client
}

// New checks opts and returns a client. It sends nothing.
func New(opts Options) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(opts.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("embedding: the server's URL must be an http or https address")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("embedding: the server's URL must be a base address, without credentials, query or fragment")
	}
	if strings.TrimSpace(opts.Model) == "" {
		return nil, errors.New("embedding: no model named")
	}
	if opts.Timeout <= 0 || opts.MaxResponseBytes <= 0 {
		return nil, errors.New("embedding: the timeout and the response bound must be positive")
	}
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/v1") + "/v1/embeddings"
	rt := opts.Transport
	if rt == nil {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	return &Client{
		endpoint: u.String(),
		model:    opts.Model,
		key:      opts.APIKey,
		maxBytes: opts.MaxResponseBytes,
		http: &http.Client{
			Transport: rt,
			Timeout:   opts.Timeout,
			// A redirect could carry the key, or the texts, elsewhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}, nil
}

// Close lets go of the idle connections to the server. The client may
// still be used.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// Key is the cache key of text's vector under this client's model: the hex
// SHA-256 of the model's name, a NUL byte and the text.
func (c *Client) Key(text string) string {
	h := sha256.New()
	h.Write([]byte(c.model))
	h.Write([]byte{0})
	h.Write([]byte(text))
	return hex.EncodeToString(h.Sum(nil))
}

// Embed returns the vector of each text, in order, in requests of at most
// BatchSize texts. The first request that fails fails it all.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += BatchSize {
		batch := texts[start:min(start+BatchSize, len(texts))]
		vecs, err := c.request(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	if err := sameLength(out); err != nil {
		return nil, fmt.Errorf("embedding server %s: %w", c.endpoint, err)
	}
	return out, nil
}

// Vectors returns the vector of each text: from cache when it holds one of
// dims dimensions (any length when dims is 0), else embedded (in batches)
// and stored there. It also returns how many texts it embedded. cache may
// be nil.
func (c *Client) Vectors(ctx context.Context, cache Cache, texts []string, dims int) ([][]float32, int, error) {
	out := make([][]float32, len(texts))
	var missing []int
	for i, text := range texts {
		if cache != nil {
			if v, ok := cache.LoadVector(c.Key(text)); ok && (dims == 0 || len(v) == dims) {
				out[i] = v
				continue
			}
		}
		missing = append(missing, i)
	}
	for start := 0; start < len(missing); start += BatchSize {
		idx := missing[start:min(start+BatchSize, len(missing))]
		batch := make([]string, len(idx))
		for k, i := range idx {
			batch[k] = texts[i]
		}
		vecs, err := c.request(ctx, batch)
		if err != nil {
			return nil, start, err
		}
		for k, i := range idx {
			out[i] = vecs[k]
			if cache != nil {
				_ = cache.StoreVector(c.Key(texts[i]), vecs[k]) // a cache that cannot store costs a request next time
			}
		}
	}
	if err := sameLength(out); err != nil {
		return nil, len(missing), fmt.Errorf("embedding server %s: %w", c.endpoint, err)
	}
	if dims > 0 && len(out) > 0 && len(out[0]) != dims {
		return nil, len(missing), fmt.Errorf("embedding server %s: vectors of %d dimensions, where the query's have %d", c.endpoint, len(out[0]), dims)
	}
	return out, len(missing), nil
}

// request asks for the vectors of one batch.
func (c *Client) request(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{c.model, texts})
	if err != nil {
		return nil, fmt.Errorf("embedding: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embedding: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embedding server %s: %w", c.endpoint, c.scrub(err))
	}
	defer resp.Body.Close()
	if resp.ContentLength > int64(c.maxBytes) {
		return nil, fmt.Errorf("embedding server %s: an answer of %d bytes, over the %d bytes accepted", c.endpoint, resp.ContentLength, c.maxBytes)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.maxBytes)+1))
	if err != nil {
		return nil, fmt.Errorf("embedding server %s: reading the answer: %w", c.endpoint, c.scrub(err))
	}
	if len(data) > c.maxBytes {
		return nil, fmt.Errorf("embedding server %s: an answer over the %d bytes accepted", c.endpoint, c.maxBytes)
	}
	if resp.StatusCode != http.StatusOK {
		msg := fmt.Sprintf("embedding server %s: %s", c.endpoint, printable.Words(resp.Status))
		if q := c.quote(data); q != "" {
			msg += ": " + q
		}
		return nil, errors.New(msg)
	}
	vecs, err := decode(data, len(texts))
	if err != nil {
		return nil, fmt.Errorf("embedding server %s: %w", c.endpoint, err)
	}
	return vecs, nil
}

// decode reads an answer that must hold n vectors.
func decode(data []byte, n int) ([][]float32, error) {
	var r struct {
		Data []struct {
			Embedding []float64 `json:"embedding"`
			Index     *int      `json:"index"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("the answer is not an embeddings response: %w", err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("%d vectors in the answer to a request for %d", len(r.Data), n)
	}
	out := make([][]float32, n)
	for pos, d := range r.Data {
		i := pos
		if d.Index != nil {
			i = *d.Index
		}
		if i < 0 || i >= n {
			return nil, fmt.Errorf("vector index %d out of range for %d texts", i, n)
		}
		if out[i] != nil {
			return nil, fmt.Errorf("two vectors for text %d", i)
		}
		if len(d.Embedding) == 0 || len(d.Embedding) > MaxDims {
			return nil, fmt.Errorf("a vector of %d dimensions (want 1 to %d)", len(d.Embedding), MaxDims)
		}
		v := make([]float32, len(d.Embedding))
		for k, x := range d.Embedding {
			if math.IsNaN(x) || math.Abs(x) > math.MaxFloat32 {
				return nil, errors.New("a vector with a value that is not a finite number")
			}
			v[k] = float32(x)
		}
		out[i] = v
	}
	if err := sameLength(out); err != nil {
		return nil, err
	}
	return out, nil
}

// sameLength checks that every vector has the length of the first.
func sameLength(vecs [][]float32) error {
	for _, v := range vecs {
		if len(v) != len(vecs[0]) {
			return fmt.Errorf("vectors of %d and %d dimensions in one answer", len(vecs[0]), len(v))
		}
	}
	return nil
}

// quote is the start of a failed answer's body, on one line, printable,
// without the key: the server's own words on what went wrong.
func (c *Client) quote(body []byte) string {
	var e struct {
		Error any `json:"error"`
	}
	text := string(body)
	if json.Unmarshal(body, &e) == nil && e.Error != nil {
		switch m := e.Error.(type) {
		case string:
			text = m
		case map[string]any:
			if s, ok := m["message"].(string); ok {
				text = s
			}
		}
	}
	text = printable.Words(text)
	text = c.hide(text)
	if r := []rune(text); len(r) > maxErrorBody {
		text = string(r[:maxErrorBody]) + "…"
	}
	return text
}

// hide takes the key out of s.
func (c *Client) hide(s string) string {
	if c.key == "" {
		return s
	}
	return strings.ReplaceAll(s, c.key, "[redacted]")
}

// scrub is err with the key taken out of its text (a transport error
// quotes the URL, never the headers; this is for what a proxy may say).
func (c *Client) scrub(err error) error {
	if c.key == "" || !strings.Contains(err.Error(), c.key) {
		return err
	}
	return errors.New(c.hide(err.Error()))
}
