package aggregator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcp-code-mode/mcp-code-mode/internal/catalog"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/embedding"
	"github.com/mcp-code-mode/mcp-code-mode/internal/search"
)

// The optional embedding ranker ([search.embeddings]): the query, each of
// its phrasings, is embedded on every search; the tools once, their
// vectors kept in the catalog directory under a hash of the model and the
// text. Its ranking is fused with the lexical one (search.Fuse). When the
// server fails, search is lexical alone, as if it were off.

const (
	// fuseDepth is how many hits of each ranking are fused.
	fuseDepth = 100
	// embeddingRetry is how long a failed embedding server is left alone:
	// searches meanwhile are lexical and send it nothing.
	embeddingRetry = 30 * time.Second
	// maxEmbedRunes bounds the text of one tool, or one phrasing, sent to
	// be embedded: about 250 tokens, where a description has long said
	// what the tool is for.
	maxEmbedRunes = 1000
)

// MaxPhrasings is the most phrasings one search takes (search_tool_docs's
// list, the search command's query and its --also).
const MaxPhrasings = 10

// semantic is the embedding ranker of one aggregator.
type semantic struct {
	client *embedding.Client
	cache  embedding.Cache
	log    *slog.Logger
	now    func() time.Time

	mu       sync.Mutex
	failing  bool      // the last request failed
	retryAt  time.Time // while failing, no request before this
	failures int       // requests that failed in a row, for the log
}

// newSemantic returns the embedding ranker cfg configures, or nil when it
// is off. The key is read from the variable cfg names.
func newSemantic(cfg config.Config, key string, log *slog.Logger) (*semantic, error) {
	e := cfg.Search.Embeddings
	if e.URL == "" {
		return nil, nil
	}
	c, err := embedding.New(embedding.Options{URL: e.URL, Model: e.Model, APIKey: key, Timeout: e.Timeout, MaxResponseBytes: e.MaxResponseBytes})
	if err != nil {
		return nil, err
	}
	var cache embedding.Cache
	if cfg.CatalogDir != "" {
		cache = catalog.Catalog{Dir: cfg.CatalogDir}
	}
	return &semantic{client: c, cache: cache, log: log, now: time.Now}, nil
}

// close lets go of the connections kept to the server.
func (s *semantic) close() {
	if s != nil {
		s.client.Close()
	}
}

// rankings returns the ranking by embedding of si's tools for each of
// queries (blank ones left out), at most fuseDepth hits each; nil when the
// ranker is off, is waiting after a failure, or fails now.
func (s *semantic) rankings(ctx context.Context, si *searchIndex, queries []string) [][]search.Hit {
	if s == nil || len(si.docs) == 0 {
		return nil
	}
	var texts []string
	for _, q := range queries {
		if q = strings.TrimSpace(q); q != "" {
			texts = append(texts, cut(q, maxEmbedRunes))
		}
	}
	if len(texts) == 0 || !s.ready() {
		return nil
	}
	qv, err := s.client.Embed(ctx, texts)
	if err != nil {
		s.failed(ctx, err)
		return nil
	}
	tv, err := s.toolVectors(ctx, si, len(qv[0]))
	if err != nil {
		s.failed(ctx, err)
		return nil
	}
	s.answered()
	out := make([][]search.Hit, len(qv))
	for i, v := range qv {
		out[i] = search.Nearest(v, tv, fuseDepth)
	}
	return out
}

// toolVectors returns the vectors of si's tools, of dims dimensions: kept
// with si once had, else from the catalog or the server.
func (s *semantic) toolVectors(ctx context.Context, si *searchIndex, dims int) ([][]float32, error) {
	si.vecMu.Lock()
	defer si.vecMu.Unlock()
	if len(si.vecs) == len(si.docs) && len(si.vecs[0]) == dims {
		return si.vecs, nil
	}
	texts := make([]string, len(si.docs))
	for i, d := range si.docs {
		texts[i] = embedText(d)
	}
	vecs, n, err := s.client.Vectors(ctx, s.cache, texts, dims)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		s.log.Info("search: tools embedded", "tools", n, "cached", len(texts)-n)
	}
	si.vecs = vecs
	return vecs, nil
}

// embedText is what is embedded of a tool: its server, name and
// description.
func embedText(d ToolDoc) string {
	return cut(d.Server+" "+d.Tool+": "+d.Description, maxEmbedRunes)
}

// cut is s cut to at most n runes.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// ready reports whether the server may be asked: it has not failed, or
// its wait is over.
func (s *semantic) ready() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.failing || !s.now().Before(s.retryAt)
}

// failed records a failed request: the first of an outage is a warning,
// the others are for debugging. A search cancelled by its caller says
// nothing about the server.
func (s *semantic) failed(ctx context.Context, err error) {
	if ctx.Err() != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures++
	if !s.failing {
		s.log.Warn("search: the embedding server failed; searching by words alone", "err", err, "retry_in", embeddingRetry)
	} else {
		s.log.Debug("search: the embedding server failed again", "err", err, "failures", s.failures)
	}
	s.failing, s.retryAt = true, s.now().Add(embeddingRetry)
}

// answered records a request that succeeded.
func (s *semantic) answered() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failing {
		s.log.Info("search: the embedding server answers again", "after_failures", s.failures)
	}
	s.failing, s.failures = false, 0
}

// CheckEmbeddings asks the embedding server that [search.embeddings]
// configures for the vector of one short text, for doctor: on is false when
// the embedding ranker is off, dims is the vector's length. Errors are
// redacted.
func (a *Aggregator) CheckEmbeddings(ctx context.Context) (on bool, dims int, err error) {
	if a.semantic == nil {
		return false, 0, nil
	}
	vecs, err := a.semantic.client.Embed(ctx, []string{"check that embeddings answer"})
	if err != nil {
		return true, 0, errors.New(a.redact.String(err.Error()))
	}
	if len(vecs) != 1 || len(vecs[0]) == 0 {
		return true, 0, fmt.Errorf("the server answered %d vectors for 1 text", len(vecs))
	}
	return true, len(vecs[0]), nil
}
