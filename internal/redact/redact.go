// Package redact takes known secret values out of text before it leaves
// the host: out of messages and answers for the program and the MCP client,
// out of JSON (inside its strings only, so it stays valid), and out of every
// record a slog.Handler writes. It knows values, not shapes: which values
// are secret is the caller's to say (config.Server.Secrets).
package redact

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
)

// Mark is what a secret is replaced with.
const Mark = "[redacted]"

// Replacer replaces a set of secret values, to which Add adds more (a
// token obtained while the program runs). A nil Replacer, or one with no
// secrets, leaves text as it is. It is safe for concurrent use.
type Replacer struct {
	mu      sync.RWMutex
	secrets []string // longest first, no duplicates
	r       *strings.Replacer
}

// New returns a Replacer of secrets; empty values are ignored. Where one
// secret contains another, the longer is replaced whole.
func New(secrets ...string) *Replacer {
	r := &Replacer{}
	r.Add(secrets...)
	return r
}

// Add adds secrets to those r replaces; empty values are ignored.
func (r *Replacer) Add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := slices.DeleteFunc(append(slices.Clone(r.secrets), secrets...), func(s string) bool { return s == "" })
	// Longest first: strings.Replacer prefers the earlier of two pairs that
	// match at one position.
	slices.SortFunc(list, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	list = slices.Compact(list)
	if len(list) == len(r.secrets) {
		return
	}
	pairs := make([]string, 0, 2*len(list))
	for _, s := range list {
		pairs = append(pairs, s, Mark)
	}
	r.secrets, r.r = list, strings.NewReplacer(pairs...)
}

// replacer is the current strings.Replacer, nil when there is no secret.
func (r *Replacer) replacer() *strings.Replacer {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.r
}

func (r *Replacer) empty() bool { return r.replacer() == nil }

// String returns s with every secret replaced by Mark.
func (r *Replacer) String(s string) string {
	if rep := r.replacer(); rep != nil {
		return rep.Replace(s)
	}
	return s
}

// Error returns err with its message redacted, still wrapping err (for
// errors.Is and errors.As); nil stays nil, and an error whose message holds
// no secret is returned as it is.
func (r *Replacer) Error(err error) error {
	if err == nil || r.empty() {
		return err
	}
	msg := err.Error()
	if red := r.String(msg); red != msg {
		return &redacted{err: err, msg: red}
	}
	return err
}

type redacted struct {
	err error
	msg string
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// JSON returns the JSON text b with every secret replaced inside its
// strings (member names included); the rest is left byte for byte, so
// valid JSON stays valid and keeps its order. A string is compared in its
// decoded form, so a secret written with escapes is found too. b is
// returned as it is when nothing changes.
func (r *Replacer) JSON(b []byte) []byte {
	if r.empty() {
		return b
	}
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		start, j, escaped := i, i+1, false
		for ; j < len(b) && b[j] != '"'; j++ {
			if b[j] == '\\' {
				escaped = true
				j++
			}
		}
		if j >= len(b) {
			break // an unterminated string: not JSON; left as it is
		}
		lit := b[start : j+1]
		i = j
		var s string
		if !escaped {
			s = string(lit[1 : len(lit)-1])
		} else if json.Unmarshal(lit, &s) != nil {
			continue
		}
		red := r.String(s)
		if red == s {
			continue
		}
		enc, err := json.Marshal(red)
		if err != nil {
			continue
		}
		out = append(append(out, b[last:start]...), enc...)
		last = j + 1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// Handler returns a slog.Handler that hands next every record with the
// secrets replaced in its message and in the values of its attributes
// (strings, errors and anything else as it would be printed), those given
// to WithAttrs included, and those added to r later. A nil Replacer returns
// next itself, and a handler of r is not wrapped in another of r.
func (r *Replacer) Handler(next slog.Handler) slog.Handler {
	if r == nil {
		return next
	}
	if h, ok := next.(*handler); ok && h.r == r {
		return next
	}
	return &handler{next: next, r: r}
}

type handler struct {
	next slog.Handler
	r    *Replacer
	// attrs given to WithAttrs since the last group, kept as given and
	// redacted with each record, so a secret added later is taken out too.
	attrs []slog.Attr
}

func (h *handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	next := h.next
	if len(h.attrs) > 0 {
		next = next.WithAttrs(h.redacted(h.attrs))
	}
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return next.Handle(ctx, out)
}

func (h *handler) redacted(attrs []slog.Attr) []slog.Attr {
	red := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		red[i] = h.attr(a)
	}
	return red
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &handler{next: h.next, r: h.r, attrs: append(slices.Clip(h.attrs), attrs...)}
}

func (h *handler) WithGroup(name string) slog.Handler {
	// The attributes so far belong outside the group: they are fixed now.
	next := h.next
	if len(h.attrs) > 0 {
		next = next.WithAttrs(h.redacted(h.attrs))
	}
	return &handler{next: next.WithGroup(name), r: h.r}
}

// attr redacts one attribute's value. A value of another kind than string
// or group is replaced by its redacted text only when that text held a
// secret, so structured values keep their form otherwise.
func (h *handler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.r.String(v.String()))
	case slog.KindGroup:
		group := v.Group()
		red := make([]slog.Attr, len(group))
		for i, g := range group {
			red[i] = h.attr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(red...)}
	case slog.KindAny:
		var s string
		if err, ok := v.Any().(error); ok {
			s = err.Error()
		} else {
			s = fmt.Sprintf("%+v", v.Any())
		}
		if red := h.r.String(s); red != s {
			return slog.String(a.Key, red)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
