package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
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
// set) and returns it without insignificant space.
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
	return out, nil
}
