package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzKey checks the key check, which reads keys that programs choose:
// it never panics, refuses with a typed error, and accepts only printable
// UTF-8 of the allowed length without spaces at its ends. (It calls no
// database: instrumented for fuzzing, SQLite runs a few calls a second.
// TestInvalidInputRefused stores and reads back accepted keys.)
func FuzzKey(f *testing.F) {
	for _, seed := range []string{"", "k", "a b", " a", "a\x00", "a\nb", "\u202e", "\xff", "日本語", "🎉", strings.Repeat("x", 257), "a\u200bb"} {
		f.Add(seed)
	}
	const max = 256
	f.Fuzz(func(t *testing.T, key string) {
		err := checkName("memory", "key", key, max)
		if err != nil {
			var le *LimitError
			var ie *InvalidError
			if !errors.As(err, &le) && !errors.As(err, &ie) {
				t.Fatalf("checkName(%q) = %v, neither a LimitError nor an InvalidError", key, err)
			}
			if le != nil && len(key) <= max {
				t.Fatalf("checkName(%q): LimitError for %d bytes", key, len(key))
			}
			return
		}
		if key == "" || len(key) > max || !utf8.ValidString(key) || key[0] == ' ' || key[len(key)-1] == ' ' {
			t.Fatalf("checkName accepted %q", key)
		}
		for _, r := range key {
			if !unicode.IsPrint(r) {
				t.Fatalf("checkName accepted %q with %U", key, r)
			}
		}
	})
}

// FuzzValue checks the check of values and metadata, which programs send:
// it never panics, refuses with an InvalidError, and what it accepts is
// valid UTF-8 JSON (an object for metadata) that it leaves as it is when
// compacted again.
func FuzzValue(f *testing.F) {
	for _, seed := range []string{"", "1", `{"a": [1, 2]}`, ` "x" `, "[", `"\ud800"`, "\"\xff\"", "1 2", `{"a":1}{}`, "nul\x00"} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, in []byte, object bool) {
		out, err := compactJSON("value", in, object)
		if err != nil {
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("compactJSON(%q) = %v, not an InvalidError", in, err)
			}
			return
		}
		if !json.Valid(out) || !utf8.Valid(out) || (object && out[0] != '{') {
			t.Fatalf("compactJSON(%q) accepted and returned %q", in, out)
		}
		again, err := compactJSON("value", out, object)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("compactJSON of its own output %q = %q, %v", out, again, err)
		}
	})
}
