package toon

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzMarshal decodes arbitrary bytes as JSON and encodes what decodes,
// as is and after DropEmpty, with options taken from mode. Nothing may
// panic; the only error allowed is a number whose exponent is out of
// range; the output must be valid UTF-8 that keeps §12's invariants (LF
// only, no trailing newline or space, indentation in whole levels of
// spaces) and be the same when encoded again.
func FuzzMarshal(f *testing.F) {
	for _, seed := range []string{
		`{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}],"tags":["a","b"]}`,
		`{"a":{"b":{"c":1}},"a.b":2,"x":{"y":[{"z":{"w":[]}}]}}`,
		`[1,"two",{"three":[3,{"four":4}]},[[5],[]],{},"",null,true,-0,1e21,1e-7]`,
		`{"":"","- x":"#y","k":"a,b|c\td","q":"\"\\\u0001\n","n":12345678901234567890123e-40}`,
		`[[{"a":1,"b":2},{"b":3,"a":4}],[{"a":[]}]]`,
		`{"s":"\ufeff","t":" x ","u":"+1","v":"05","w":"true"}`,
		`"plain"`, `""`, `-0.0`, `null`, `{}`, `[]`,
	} {
		f.Add([]byte(seed), byte(0))
		f.Add([]byte(seed), byte(0b1110_0110))
	}
	f.Fuzz(func(t *testing.T, data []byte, mode byte) {
		v, err := DecodeJSON(data)
		if err != nil {
			return
		}
		opts := Options{
			Delimiter:    []rune{',', '\t', '|', 0}[mode&3],
			Indent:       int(mode>>2&3) + 1,
			KeyFolding:   mode&0x10 != 0,
			FlattenDepth: int(mode >> 5),
		}
		for _, v := range []any{v, DropEmpty(v)} {
			out, err := Marshal(v, opts)
			if err != nil {
				if !strings.Contains(err.Error(), "exponent out of range") {
					t.Fatalf("Marshal(%s, %+v): %v", data, opts, err)
				}
				return
			}
			checkDocument(t, out, opts.Indent)
			again, err := Marshal(v, opts)
			if err != nil || !bytes.Equal(again, out) {
				t.Fatalf("Marshal is not deterministic: %q then %q (%v)", out, again, err)
			}
		}
	})
}

// checkDocument checks the invariants §12 and §1.2 set for every encoder
// output.
func checkDocument(t *testing.T, doc []byte, indent int) {
	t.Helper()
	if !utf8.Valid(doc) {
		t.Fatalf("output is not valid UTF-8: %q", doc)
	}
	if bytes.ContainsRune(doc, '\r') {
		t.Fatalf("output has a CR: %q", doc)
	}
	if len(doc) == 0 {
		return
	}
	for i, line := range strings.Split(string(doc), "\n") {
		content := strings.TrimLeft(line, " ")
		switch {
		case content == "":
			t.Fatalf("line %d is blank in %q", i+1, doc)
		case strings.HasSuffix(line, " "):
			t.Fatalf("line %d ends with a space in %q", i+1, doc)
		case content[0] == '\t':
			t.Fatalf("line %d is indented with a tab in %q", i+1, doc)
		case (len(line)-len(content))%indent != 0:
			t.Fatalf("line %d is indented by %d spaces, not a multiple of %d, in %q", i+1, len(line)-len(content), indent, doc)
		}
	}
}
