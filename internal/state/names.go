package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// checkName checks a memory key or tool name, which come from the
// programs: 1 to max bytes of UTF-8, every character printable (letters,
// marks, numbers, punctuation, symbols and the ASCII space: no control or
// format character, no other kind of space, no invalid byte), and no
// space at either end. kind is "memory" or "tool", what is "key" or "tool
// name".
func checkName(kind, what, name string, max int) error {
	if len(name) > max {
		return &LimitError{Limit: "max_name_bytes", Max: int64(max), Got: int64(len(name)), Kind: kind, Key: name}
	}
	return checkChars(what, name)
}

// CheckNamespace checks a namespace as every method does: the same
// characters as a key (printable, no space at either end), 1 to 512 bytes.
func CheckNamespace(namespace string) error { return checkNamespace(namespace) }

// checkNamespace checks a namespace, which the caller chooses: the same
// characters as a key, up to maxNamespaceBytes.
func checkNamespace(namespace string) error {
	if len(namespace) > maxNamespaceBytes {
		return &InvalidError{What: "namespace", Value: namespace, Reason: "longer than 512 bytes"}
	}
	return checkChars("namespace", namespace)
}

func checkChars(what, name string) error {
	if name == "" {
		return &InvalidError{What: what, Reason: "empty"}
	}
	for i, r := range name {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(name[i:]); size == 1 {
				return &InvalidError{What: what, Value: name, Reason: "not valid UTF-8"}
			}
		}
		if !unicode.IsPrint(r) {
			return &InvalidError{What: what, Value: name, Reason: "has a control, format or space character other than the ASCII space: " + fmt.Sprintf("%U", r)}
		}
	}
	if name[0] == ' ' || name[len(name)-1] == ' ' {
		return &InvalidError{What: what, Value: name, Reason: "begins or ends with a space"}
	}
	return nil
}

// compactJSON checks that raw is one JSON value (an object when object is
// set) and returns it in the form the store keeps: without insignificant
// space, and with every character outside ASCII written as a \u escape
// (as Python's json.dumps writes it, and as values travel on the sandbox's
// protocol lines), so that a value's size is the same whoever wrote it.
func compactJSON(what string, raw []byte, object bool) ([]byte, error) {
	if !utf8.Valid(raw) {
		return nil, &InvalidError{What: what, Reason: "not valid UTF-8"}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, &InvalidError{What: what, Reason: "not JSON: " + err.Error()}
	}
	out := buf.Bytes()
	if len(out) == 0 {
		return nil, &InvalidError{What: what, Reason: "empty"}
	}
	if object && out[0] != '{' {
		return nil, &InvalidError{What: what, Reason: "not a JSON object"}
	}
	return asciiJSON(out), nil
}

// asciiJSON writes every character of valid JSON text b outside ASCII as a
// \u escape (a surrogate pair beyond the Basic Multilingual Plane). Such
// characters can only be in strings, where the escape means the same.
func asciiJSON(b []byte) []byte {
	n := 0
	for _, c := range b {
		if c >= utf8.RuneSelf {
			n++
		}
	}
	if n == 0 {
		return b
	}
	out := make([]byte, 0, len(b)+5*n)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			out = append(out, b[i])
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if r1, r2 := utf16.EncodeRune(r); r1 != unicode.ReplacementChar {
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
	}
	return out
}
