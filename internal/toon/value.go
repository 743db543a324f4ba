package toon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth is how deeply objects and arrays may nest in a value given to
// [Marshal] or a document given to [DecodeJSON]: the root container is at
// depth 1.
const MaxDepth = 256

// Member is one key and value of an [Object].
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its keys in order. Its values are any
// of the values [Marshal] accepts.
type Object []Member

// MarshalJSON writes the object as a JSON object with its keys in order.
// A key that appears twice is written twice.
func (o Object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", m.Key, err)
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// number is a JSON number already in canonical form.
type number string

// objectBuilder collects members, keeping the first position and the last
// value of a key given twice.
type objectBuilder struct {
	obj   Object
	index map[string]int // built once the object is too long to scan
}

func (b *objectBuilder) set(key string, v any) {
	if b.index == nil && len(b.obj) >= 16 {
		b.index = make(map[string]int, 2*len(b.obj))
		for i, m := range b.obj {
			if _, dup := b.index[m.Key]; !dup {
				b.index[m.Key] = i
			}
		}
	}
	if b.index != nil {
		if i, ok := b.index[key]; ok {
			b.obj[i].Value = v
			return
		}
		b.index[key] = len(b.obj)
	} else {
		for i := range b.obj {
			if b.obj[i].Key == key {
				b.obj[i].Value = v
				return
			}
		}
	}
	b.obj = append(b.obj, Member{Key: key, Value: v})
}

// pathElem is one step of the path to a value, for error messages.
type pathElem struct {
	key   string
	index int // -1 for a key
}

// normalizer turns a value into the encoder's closed set of types: Object
// (without duplicate keys), []any, string (valid UTF-8), number, bool and
// nil.
type normalizer struct {
	path []pathElem
}

func (n *normalizer) errorf(format string, args ...any) error {
	var b strings.Builder
	b.WriteByte('$')
	for _, p := range n.path {
		if p.index >= 0 {
			fmt.Fprintf(&b, "[%d]", p.index)
		} else if isIdentifierSegment(p.key) {
			b.WriteString("." + p.key)
		} else {
			b.WriteString("[" + strconv.Quote(p.key) + "]")
		}
	}
	return fmt.Errorf("toon: at %s: %s", b.String(), fmt.Sprintf(format, args...))
}

func (n *normalizer) value(v any, depth int) (any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return v, nil
	case string:
		return validString(v), nil
	case json.Number:
		s, err := canonicalDecimal(string(v))
		if err != nil {
			return nil, n.errorf("%v", err)
		}
		return number(s), nil
	case float64:
		return floatNumber(v, 64), nil
	case float32:
		return floatNumber(float64(v), 32), nil
	case int:
		return number(strconv.FormatInt(int64(v), 10)), nil
	case int8:
		return number(strconv.FormatInt(int64(v), 10)), nil
	case int16:
		return number(strconv.FormatInt(int64(v), 10)), nil
	case int32:
		return number(strconv.FormatInt(int64(v), 10)), nil
	case int64:
		return number(strconv.FormatInt(v, 10)), nil
	case uint:
		return number(strconv.FormatUint(uint64(v), 10)), nil
	case uint8:
		return number(strconv.FormatUint(uint64(v), 10)), nil
	case uint16:
		return number(strconv.FormatUint(uint64(v), 10)), nil
	case uint32:
		return number(strconv.FormatUint(uint64(v), 10)), nil
	case uint64:
		return number(strconv.FormatUint(v, 10)), nil
	case Object:
		if depth >= MaxDepth {
			return nil, n.errorf("nested more than %d levels deep (or a cycle)", MaxDepth)
		}
		var b objectBuilder
		b.obj = make(Object, 0, len(v))
		for _, m := range v {
			n.path = append(n.path, pathElem{key: m.Key, index: -1})
			x, err := n.value(m.Value, depth+1)
			n.path = n.path[:len(n.path)-1]
			if err != nil {
				return nil, err
			}
			b.set(validString(m.Key), x)
		}
		return b.obj, nil
	case map[string]any:
		if depth >= MaxDepth {
			return nil, n.errorf("nested more than %d levels deep (or a cycle)", MaxDepth)
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var b objectBuilder
		b.obj = make(Object, 0, len(v))
		for _, k := range keys {
			n.path = append(n.path, pathElem{key: k, index: -1})
			x, err := n.value(v[k], depth+1)
			n.path = n.path[:len(n.path)-1]
			if err != nil {
				return nil, err
			}
			// Two invalid keys can become one valid key.
			b.set(validString(k), x)
		}
		return b.obj, nil
	case []any:
		if depth >= MaxDepth {
			return nil, n.errorf("nested more than %d levels deep (or a cycle)", MaxDepth)
		}
		out := make([]any, len(v))
		for i, x := range v {
			n.path = append(n.path, pathElem{index: i})
			y, err := n.value(x, depth+1)
			n.path = n.path[:len(n.path)-1]
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	case json.RawMessage:
		return n.json(v, depth)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, n.errorf("%T: %v", v, err)
		}
		return n.json(b, depth)
	}
}

// json decodes JSON text found inside a value and normalizes the result.
func (n *normalizer) json(b []byte, depth int) (any, error) {
	v, err := decodeJSON(b, depth)
	if err != nil {
		return nil, n.errorf("%v", err)
	}
	return n.value(v, depth)
}

// validString replaces each byte of s that is not part of valid UTF-8
// with U+FFFD, as encoding/json does.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// floatNumber formats a float as §2 asks: canonical decimal form in
// [1e-6, 1e21), JSON exponent form outside it, null for NaN and ±Inf.
func floatNumber(f float64, bitSize int) any {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return nil
	case f == 0:
		return number("0")
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return number(strconv.FormatFloat(f, 'f', -1, bitSize))
	}
	s := strconv.FormatFloat(f, 'e', -1, bitSize)
	// Go writes at least two exponent digits (1e-07); JSON and JavaScript
	// write no leading zero (1e-7).
	i := strings.IndexByte(s, 'e') + 2
	j := i
	for j < len(s)-1 && s[j] == '0' {
		j++
	}
	return number(s[:i] + s[j:])
}

// canonicalDecimal rewrites a JSON number in the form floatNumber gives,
// but exactly: from its decimal digits, without going through a float.
func canonicalDecimal(s string) (string, error) {
	bad := func() (string, error) { return "", fmt.Errorf("%q is not a JSON number", s) }
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[start:i]
	if intPart == "" || (len(intPart) > 1 && intPart[0] == '0') {
		return bad()
	}
	var frac string
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		frac = s[start:i]
		if frac == "" {
			return bad()
		}
	}
	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		digits := strings.TrimLeft(s[start:i], "0")
		if start == i {
			return bad()
		}
		if len(digits) > 15 {
			return "", fmt.Errorf("number %q: exponent out of range", s)
		}
		if digits != "" {
			exp, _ = strconv.ParseInt(digits, 10, 64)
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(s) {
		return bad()
	}

	// The value is digits × 10^p.
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "0", nil
	}
	p := exp - int64(len(frac))
	trimmed := strings.TrimRight(digits, "0")
	p += int64(len(digits) - len(trimmed))
	digits = trimmed
	n := int64(len(digits))
	lead := n + p - 1 // the power of ten of the first digit

	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case lead < -6 || lead >= 21:
		b.WriteByte(digits[0])
		if n > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if lead < 0 {
			b.WriteByte('-')
			lead = -lead
		} else {
			b.WriteByte('+')
		}
		b.WriteString(strconv.FormatInt(lead, 10))
	case p >= 0:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", int(p)))
	case n+p > 0:
		b.WriteString(digits[:n+p])
		b.WriteByte('.')
		b.WriteString(digits[n+p:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", int(-(n + p))))
		b.WriteString(digits)
	}
	return b.String(), nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
