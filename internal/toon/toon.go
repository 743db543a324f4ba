package toon

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options are the encoder options of the specification (§13). The zero
// value is the specification's defaults.
type Options struct {
	// Indent is the number of spaces per level (indentSize); 0 means 2.
	// At most 32.
	Indent int
	// Delimiter separates the values of inline arrays and table rows:
	// ',' (0 means ','), '\t' or '|'.
	Delimiter rune
	// KeyFolding writes chains of single-key objects as one dotted key
	// (a.b.c: 1), where every segment is an identifier and the dotted key
	// collides with no sibling key, nor, spelled from the root, with a
	// dotted key of the root object (keyFolding "safe", §13.4). The first
	// field of an object in a list, on the hyphen line, is not folded.
	KeyFolding bool
	// FlattenDepth is the most segments a folded key may have
	// (flattenDepth); 0 means no limit. A value of 1 folds nothing.
	FlattenDepth int
}

// Marshal encodes v as a TOON document. v is a value as [DecodeJSON] or
// encoding/json decode JSON, or anything else encoding/json can marshal
// (see the package documentation for the mapping). It returns an error for
// invalid options, a value encoding/json cannot marshal, a json.Number
// that is not a JSON number, and nesting deeper than [MaxDepth].
func Marshal(v any, opts Options) ([]byte, error) {
	e, err := newEncoder(opts)
	if err != nil {
		return nil, err
	}
	var n normalizer
	v, err = n.value(v, 0)
	if err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case Object:
		var root foldScope
		if e.fold {
			root = foldScope{rootKeys: dottedKeys(v), remaining: e.flatten}
		}
		e.fields(0, v, v, root)
	case []any:
		e.array(0, "", "", v, 1, true)
	default:
		e.line(0)
		e.primitive(v)
	}
	return e.buf, nil
}

// encoder writes a normalized value (see normalizer) line by line.
type encoder struct {
	buf     []byte
	started bool // a line has been written
	indent  int
	delim   byte
	fold    bool
	flatten int // the segment limit of folded keys; math.MaxInt for none
}

func newEncoder(opts Options) (*encoder, error) {
	e := &encoder{indent: opts.Indent, fold: opts.KeyFolding, flatten: opts.FlattenDepth}
	switch {
	case e.indent == 0:
		e.indent = 2
	case e.indent < 0 || e.indent > 32:
		return nil, fmt.Errorf("toon: indent %d: must be between 1 and 32", opts.Indent)
	}
	switch opts.Delimiter {
	case 0, ',':
		e.delim = ','
	case '\t', '|':
		e.delim = byte(opts.Delimiter)
	default:
		return nil, fmt.Errorf("toon: delimiter %q: must be ',', '\\t' or '|'", opts.Delimiter)
	}
	switch {
	case e.flatten == 0:
		e.flatten = math.MaxInt
	case e.flatten < 0:
		return nil, fmt.Errorf("toon: flatten depth %d: must not be negative", opts.FlattenDepth)
	}
	return e, nil
}

// line starts a line at depth.
func (e *encoder) line(depth int) {
	if e.started {
		e.buf = append(e.buf, '\n')
	}
	e.started = true
	for range depth * e.indent {
		e.buf = append(e.buf, ' ')
	}
}

// foldScope is what key folding needs to know about an object's place.
type foldScope struct {
	// rootKeys are the dotted keys of the root object, which a folded key
	// must not spell out from the root either; nil inside arrays.
	rootKeys map[string]bool
	// path is the object's dotted path from the root object.
	path string
	// remaining is how many segments a folded key may still have.
	remaining int
}

func (s foldScope) child(key string) foldScope {
	if s.path != "" {
		key = s.path + "." + key
	}
	return foldScope{rootKeys: s.rootKeys, path: key, remaining: s.remaining}
}

func dottedKeys(obj Object) map[string]bool {
	var keys map[string]bool
	for _, m := range obj {
		if strings.Contains(m.Key, ".") {
			if keys == nil {
				keys = map[string]bool{}
			}
			keys[m.Key] = true
		}
	}
	return keys
}

// fields writes members at depth as key: value lines (§8). siblings is the
// whole object, which a folded key must not collide with.
func (e *encoder) fields(depth int, members, siblings Object, scope foldScope) {
	var keys map[string]bool // siblings' keys, for a long object
	for _, m := range members {
		if e.fold && e.folded(depth, m, siblings, &keys, scope) {
			continue
		}
		e.value(depth, "", appendKey(nil, m.Key), m.Value, depth+1, scope.child(m.Key))
	}
}

// folded writes m as a folded key (§13.4) if it folds, and reports whether
// it did.
func (e *encoder) folded(depth int, m Member, siblings Object, keys *map[string]bool, scope foldScope) bool {
	segments := []string{m.Key}
	leaf := m.Value
	for len(segments) < scope.remaining {
		o, ok := leaf.(Object)
		if !ok || len(o) != 1 {
			break
		}
		segments = append(segments, o[0].Key)
		leaf = o[0].Value
	}
	if len(segments) < 2 {
		return false
	}
	for _, s := range segments {
		if !isIdentifierSegment(s) {
			return false
		}
	}
	key := strings.Join(segments, ".")
	if hasKey(siblings, key, keys) {
		return false
	}
	inner := scope.child(key)
	if scope.rootKeys[inner.path] {
		return false
	}
	if o, ok := leaf.(Object); ok && len(o) > 0 {
		// The chain was cut by the depth limit or ends at an object of
		// several keys: that object goes below the folded key.
		e.line(depth)
		e.buf = append(e.buf, key...)
		e.buf = append(e.buf, ':')
		inner.remaining = scope.remaining - len(segments)
		e.fields(depth+1, o, o, inner)
		return true
	}
	e.value(depth, "", []byte(key), leaf, depth+1, inner)
	return true
}

// hasKey reports whether obj has key, building *index for a long object on
// first use.
func hasKey(obj Object, key string, index *map[string]bool) bool {
	if len(obj) <= 16 {
		for _, m := range obj {
			if m.Key == key {
				return true
			}
		}
		return false
	}
	if *index == nil {
		*index = make(map[string]bool, len(obj))
		for _, m := range obj {
			(*index)[m.Key] = true
		}
	}
	return (*index)[key]
}

// value writes a keyed value on a line at depth that starts with prefix
// ("" or "- " for the first field of an object in a list): key: value for a
// primitive, the array's header for an array, key: and the object's fields
// at childDepth for an object.
func (e *encoder) value(depth int, prefix string, key []byte, v any, childDepth int, scope foldScope) {
	switch v := v.(type) {
	case []any:
		e.array(depth, prefix, string(key), v, childDepth, true)
	case Object:
		e.line(depth)
		e.buf = append(e.buf, prefix...)
		e.buf = append(e.buf, key...)
		e.buf = append(e.buf, ':')
		if len(v) > 0 {
			e.fields(childDepth, v, v, scope)
		}
	default:
		e.line(depth)
		e.buf = append(e.buf, prefix...)
		e.buf = append(e.buf, key...)
		e.buf = append(e.buf, ':', ' ')
		e.primitive(v)
	}
}

// array writes an array on a line at depth that starts with prefix and key
// (the key already encoded; "" at the root and for an array in a list),
// with its rows or items at childDepth. tabular is false for an array in a
// list, where a field list has no place (§9.4).
func (e *encoder) array(depth int, prefix, key string, arr []any, childDepth int, tabular bool) {
	e.line(depth)
	e.buf = append(e.buf, prefix...)
	e.buf = append(e.buf, key...)
	if len(arr) == 0 && (key != "" || prefix == "") {
		// key: [] in an object, [] at the root (§9.1).
		if key != "" {
			e.buf = append(e.buf, ':', ' ')
		}
		e.buf = append(e.buf, '[', ']')
		return
	}
	e.header(len(arr))
	if primitives(arr) {
		e.buf = append(e.buf, ':')
		for i, v := range arr {
			if i == 0 {
				e.buf = append(e.buf, ' ')
			} else {
				e.buf = append(e.buf, e.delim)
			}
			e.primitive(v)
		}
		return
	}
	if tabular {
		if fields := tableFields(arr); fields != nil {
			e.buf = append(e.buf, '{')
			for i, f := range fields {
				if i > 0 {
					e.buf = append(e.buf, e.delim)
				}
				e.buf = appendKey(e.buf, f)
			}
			e.buf = append(e.buf, '}', ':')
			for _, row := range arr {
				e.line(childDepth)
				for i, f := range fields {
					if i > 0 {
						e.buf = append(e.buf, e.delim)
					}
					e.primitive(field(row.(Object), i, f))
				}
			}
			return
		}
	}
	e.buf = append(e.buf, ':')
	for _, v := range arr {
		e.item(childDepth, v)
	}
}

// header writes an array's bracket segment: [N], with the delimiter when
// it is not a comma.
func (e *encoder) header(n int) {
	e.buf = append(e.buf, '[')
	e.buf = strconv.AppendInt(e.buf, int64(n), 10)
	if e.delim != ',' {
		e.buf = append(e.buf, e.delim)
	}
	e.buf = append(e.buf, ']')
}

// item writes one element of an array in list form at depth (§9.4, §10).
func (e *encoder) item(depth int, v any) {
	switch v := v.(type) {
	case []any:
		e.array(depth, "- ", "", v, depth+1, false)
	case Object:
		if len(v) == 0 {
			e.line(depth)
			e.buf = append(e.buf, '-')
			return
		}
		// The first field goes on the hyphen line, what it holds at
		// depth+2 (a table's rows included); the other fields at depth+1.
		scope := foldScope{remaining: e.flatten}
		e.value(depth, "- ", appendKey(nil, v[0].Key), v[0].Value, depth+2, scope)
		e.fields(depth+1, v[1:], v, scope)
	default:
		e.line(depth)
		e.buf = append(e.buf, '-', ' ')
		e.primitive(v)
	}
}

func primitives(arr []any) bool {
	for _, v := range arr {
		switch v.(type) {
		case []any, Object:
			return false
		}
	}
	return true
}

// tableFields returns the field list of an array that can be written as a
// table (§9.3), or nil: every element an object with the same keys, at
// least one, and only primitive values. The fields are in the first
// object's order.
func tableFields(arr []any) []string {
	first, ok := arr[0].(Object)
	if !ok || len(first) == 0 {
		return nil
	}
	fields := make([]string, len(first))
	for i, m := range first {
		fields[i] = m.Key
	}
	for _, v := range arr {
		row, ok := v.(Object)
		if !ok || len(row) != len(fields) {
			return nil
		}
		for i, f := range fields {
			switch field(row, i, f).(type) {
			case []any, Object, missing:
				return nil
			}
		}
	}
	return fields
}

// missing is what field returns for a key the object does not have.
type missing struct{}

// field returns the value of key in row, where it is most likely the i-th
// member. Keys are unique (see normalizer).
func field(row Object, i int, key string) any {
	if i < len(row) && row[i].Key == key {
		return row[i].Value
	}
	for _, m := range row {
		if m.Key == key {
			return m.Value
		}
	}
	return missing{}
}

// primitive writes a normalized primitive: null, true, false, a number or
// a string, quoted when it must be.
func (e *encoder) primitive(v any) {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, v)
	case number:
		e.buf = append(e.buf, v...)
	case string:
		if needsQuotes(v, e.delim) {
			e.buf = appendQuoted(e.buf, v)
		} else {
			e.buf = append(e.buf, v...)
		}
	}
}

// needsQuotes reports whether a string value must be quoted (§7.2, and the
// additions the package documentation lists).
func needsQuotes(s string, delim byte) bool {
	if s == "" || s == "true" || s == "false" || s == "null" || numericLike(s) {
		return true
	}
	switch s[0] {
	case '-', '#':
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if unicode.IsSpace(first) || unicode.IsSpace(last) || first == '\uFEFF' {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c == ':', c == '"', c == '\\', c == '[', c == ']', c == '{', c == '}', c == delim:
			return true
		}
	}
	return false
}

// numericLike reports whether s looks like a number to a reader:
// /^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/i (§7.2, with a leading + as well).
func numericLike(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i > start
	}
	if !digits() {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}

// appendKey appends an object key or field name, quoted unless it matches
// /^[A-Za-z_][A-Za-z0-9_.]*$/ (§7.3).
func appendKey(b []byte, key string) []byte {
	if isUnquotedKey(key) {
		return append(b, key...)
	}
	return appendQuoted(b, key)
}

func isUnquotedKey(key string) bool {
	if key == "" || isDigit(key[0]) {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; !isWordByte(c) && c != '.' {
			return false
		}
	}
	return key[0] != '.'
}

// isIdentifierSegment reports whether s may be a segment of a folded key:
// /^[A-Za-z_][A-Za-z0-9_]*$/ (§1.9).
func isIdentifierSegment(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}

func isWordByte(c byte) bool {
	return c == '_' || isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// appendQuoted appends s in double quotes, escaped as §7.1 says: \\ \" \n
// \r \t, \u00xx for the other control characters, everything else as is.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
