package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	r := New("sk-secret-1234", "sk-secret", "", "sk-secret")
	for in, want := range map[string]string{
		"token sk-secret-1234 here": "token [redacted] here",
		"sk-secret and sk-secret-1": "[redacted] and [redacted]-1",
		"nothing":                   "nothing",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	var none *Replacer
	if got := none.String("sk-secret"); got != "sk-secret" {
		t.Errorf("a nil Replacer changed text: %q", got)
	}
	if got := New().String("x"); got != "x" {
		t.Errorf("an empty Replacer changed text: %q", got)
	}
}

func TestError(t *testing.T) {
	r := New("hunter22")
	cause := fmt.Errorf("dial with hunter22: %w", fs.ErrNotExist)
	err := r.Error(cause)
	if err.Error() != "dial with [redacted]: file does not exist" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Error = %q (wraps the cause: %v)", err, errors.Is(err, fs.ErrNotExist))
	}
	if clean := errors.New("clean"); r.Error(clean) != clean {
		t.Error("an error without a secret was wrapped")
	}
	if r.Error(nil) != nil {
		t.Error("nil became an error")
	}
}

func TestJSON(t *testing.T) {
	r := New("s3cr3t-value", "a<b>&c\"d")
	tests := []struct{ in, want string }{
		{`{"k":"s3cr3t-value","n":1}`, `{"k":"[redacted]","n":1}`},
		{`{"s3cr3t-value":true}`, `{"[redacted]":true}`},
		{`["x s3cr3t-value y", "no"]`, `["x [redacted] y", "no"]`},
		// Written with escapes, the secret is still found.
		{`"\u0073\u0033cr3t-value"`, `"[redacted]"`},
		{`"a\u003cb\u003e\u0026c\"d!"`, `"[redacted]!"`},
		// An escaped quote does not end a string early.
		{`{"a":"x\"s3cr3t-value\"","b":"\\"}`, `{"a":"x\"[redacted]\"","b":"\\"}`},
		// Numbers, literals and formatting stay as they are.
		{"{ \"n\" : 123456789 ,\n \"t\": true }", "{ \"n\" : 123456789 ,\n \"t\": true }"},
		// Not JSON: an unterminated string is left.
		{`"s3cr3t-value`, `"s3cr3t-value`},
	}
	for _, tt := range tests {
		if got := string(r.JSON([]byte(tt.in))); got != tt.want {
			t.Errorf("JSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":"tok-9f8e7d"}`, `["\u0074ok-9f8e7d"]`, `"x\"tok-9f8e7d"`, `{"tok-9f8e7d":1}`, `1`} {
		f.Add([]byte(s))
	}
	r := New("tok-9f8e7d")
	f.Fuzz(func(t *testing.T, in []byte) {
		out := r.JSON(in)
		if !json.Valid(in) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("JSON(%q) = %q, not valid JSON", in, out)
		}
		// Numbers as written: 1e700 is valid JSON, but no float64.
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if s := holding(v, "tok-9f8e7d"); s != "" {
			t.Fatalf("JSON(%q) = %q still holds the secret in %q", in, out, s)
		}
	})
}

// holding returns a string of v (a decoded JSON value) that contains
// secret, or "".
func holding(v any, secret string) string {
	switch x := v.(type) {
	case string:
		if strings.Contains(x, secret) {
			return x
		}
	case []any:
		for _, e := range x {
			if s := holding(e, secret); s != "" {
				return s
			}
		}
	case map[string]any:
		for k, e := range x {
			if s := holding(k, secret); s != "" {
				return s
			}
			if s := holding(e, secret); s != "" {
				return s
			}
		}
	}
	return ""
}

type config struct{ URL string }

func TestHandler(t *testing.T) {
	var buf bytes.Buffer
	r := New("key-0123456789")
	log := slog.New(r.Handler(slog.NewTextHandler(&buf, nil)))
	log = log.With("url", "http://h/?api_key=key-0123456789", "n", 3)
	log.WithGroup("g").Warn("failed with key-0123456789",
		"err", errors.New("dial key-0123456789"),
		"cfg", config{URL: "key-0123456789"},
		slog.Group("inner", "v", "key-0123456789"),
		"clean", []string{"a", "b"})
	out := buf.String()
	if strings.Contains(out, "key-0123456789") {
		t.Fatalf("the log holds the secret: %s", out)
	}
	for _, want := range []string{`msg="failed with [redacted]"`, `url="http://h/?api_key=[redacted]"`, "n=3",
		`g.err="dial [redacted]"`, `g.cfg={URL:[redacted]}`, `g.inner.v=[redacted]`, `g.clean="[a b]"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %s: %s", want, out)
		}
	}
	// One handler of a Replacer is enough.
	if h := r.Handler(r.Handler(slog.DiscardHandler)); h.(*handler).next != slog.DiscardHandler {
		t.Error("a redacting handler was wrapped in another of the same Replacer")
	}
	var nilR *Replacer
	if nilR.Handler(slog.DiscardHandler) != slog.DiscardHandler {
		t.Error("a nil Replacer wrapped the handler")
	}
}

// A secret learned after the handler was made (a token obtained while the
// program runs) is taken out of the records written from then on, and out
// of text.
func TestAddedSecretsAreRedacted(t *testing.T) {
	var buf bytes.Buffer
	r := New()
	log := slog.New(r.Handler(slog.NewTextHandler(&buf, nil))).With("auth", "Bearer tok-added-later-123")
	r.Add("tok-added-later-123", "")
	log.Warn("sent tok-added-later-123")
	if out := buf.String(); strings.Contains(out, "tok-added-later-123") || !strings.Contains(out, "sent [redacted]") {
		t.Errorf("the log after Add: %s", out)
	}
	if got := r.String("x tok-added-later-123 y"); got != "x [redacted] y" {
		t.Errorf("String after Add = %q", got)
	}
}
