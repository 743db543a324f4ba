package discovery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/tailscale/hujson"
)

// Problem is a config file that could not be used, or an entry in it that
// could not be. It never holds a value from the file (values may be
// secrets): only where the trouble is and what kind it is.
type Problem struct {
	Client string `json:"client"`         // client ID: "claude-code", "cursor", ...
	Path   string `json:"path"`           // the file
	Line   int    `json:"line,omitempty"` // 1-based; 0 if unknown
	Key    string `json:"key,omitempty"`  // dotted key path of the entry or field, "" for the whole file
	Err    string `json:"error"`          // what is wrong
}

// String formats p as "path:line: client: key: what is wrong", leaving out
// the parts that are unknown.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Path)
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line))
	}
	for _, s := range []string{p.Client, p.Key} {
		if s != "" {
			b.WriteString(": " + s)
		}
	}
	b.WriteString(": " + p.Err)
	// A file's path, its keys and the values quoted in Err come from the
	// file: shown on one line, without the runes a terminal would act on.
	return printable.Line(b.String())
}

// cfgKind is the kind of a cfgValue.
type cfgKind byte

const (
	cfgNull cfgKind = iota
	cfgBool
	cfgNumber
	cfgString
	cfgObject
	cfgArray
	cfgOther // TOML dates and the like
)

// cfgValue is one value of a parsed client config file: the common tree of
// JSON, JSONC, TOML and YAML documents. Objects keep their keys in document
// order for JSON (so "the first server" means what the user sees) and in
// sorted order for TOML and YAML, whose parsers do not keep it.
type cfgValue struct {
	kind cfgKind
	str  string // cfgString: the text; cfgNumber, cfgBool, cfgOther: the literal
	keys []string
	vals []*cfgValue // cfgObject: values parallel to keys; cfgArray: items
	line int         // 1-based line the value starts on; 0 if unknown
}

// get returns the member key of an object (the last one when a key repeats,
// as JSON.parse does), or nil.
func (v *cfgValue) get(key string) *cfgValue {
	if v == nil || v.kind != cfgObject {
		return nil
	}
	for i := len(v.keys) - 1; i >= 0; i-- {
		if v.keys[i] == key {
			return v.vals[i]
		}
	}
	return nil
}

// members calls f for each member of an object in order, skipping a member
// whose key appears again later (the later one wins, as in JSON.parse).
func (v *cfgValue) members(f func(key string, val *cfgValue)) {
	if v == nil || v.kind != cfgObject {
		return
	}
	for i, k := range v.keys {
		if slices.Contains(v.keys[i+1:], k) {
			continue
		}
		f(k, v.vals[i])
	}
}

// kindName names v's kind for messages: "an object", "a list", ...
func (v *cfgValue) kindName() string {
	if v == nil {
		return "missing"
	}
	switch v.kind {
	case cfgNull:
		return "null"
	case cfgBool:
		return "a boolean"
	case cfgNumber:
		return "a number"
	case cfgString:
		return "a string"
	case cfgObject:
		return "an object"
	case cfgArray:
		return "a list"
	}
	return "a " + v.str
}

// Limits on what a config file may be; beyond them it is a Problem.
const (
	maxConfigSize = 64 << 20 // ~/.claude.json also holds history and grows large
	maxNesting    = 200
)

// parseError is a file that could not be parsed: the line if the parser
// tells it, and a message with no value from the file in it.
type parseError struct {
	line int
	msg  string
}

func (e *parseError) Error() string { return e.msg }

// parseJSON parses strict JSON, as JSON.parse does: no comments, no
// trailing commas. Syntax errors carry the line, from the byte offset
// encoding/json reports.
func parseJSON(b []byte) (*cfgValue, error) {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var probe any
	if err := json.Unmarshal(b, &probe); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &parseError{line: lineAt(b, int(se.Offset)-1), msg: "not valid JSON: " + se.Error()}
		}
		return nil, &parseError{msg: "not valid JSON: " + err.Error()}
	}
	return parseJSONC(b) // valid JSON is valid JSONC; this keeps order and lines
}

var hujsonLine = regexp.MustCompile(`^hujson: line (\d+), column \d+: `)

// parseJSONC parses JSON with comments and trailing commas (VS Code, Zed,
// OpenCode, ...) using github.com/tailscale/hujson.
func parseJSONC(b []byte) (*cfgValue, error) {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if d := nestingDepth(b); d > maxNesting {
		return nil, &parseError{line: d - maxNesting, msg: fmt.Sprintf("nested deeper than %d levels", maxNesting)}
	}
	v, err := hujson.Parse(b)
	if err != nil {
		msg := err.Error()
		line := 0
		if m := hujsonLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = msg[len(m[0]):]
		}
		return nil, &parseError{line: line, msg: "not valid JSON: " + msg}
	}
	lines := newLineIndex(b)
	return fromHuJSON(&v, lines), nil
}

// nestingDepth is the deepest bracket nesting of a JSON/JSONC text, so that
// hostile input cannot drive the recursive parsers arbitrarily deep. When
// the limit is passed it returns maxNesting plus the line it happened on.
func nestingDepth(b []byte) int {
	depth, line := 0, 1
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '\n':
			line++
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				} else if b[i] == '\n' {
					line++
				}
			}
		case '/':
			if i+1 < len(b) && b[i+1] == '/' {
				for i < len(b) && b[i] != '\n' {
					i++
				}
				i-- // let the loop count the newline
			} else if i+1 < len(b) && b[i+1] == '*' {
				end := bytes.Index(b[i+2:], []byte("*/"))
				if end < 0 {
					return 0 // unterminated: the parser reports it
				}
				line += bytes.Count(b[i:i+2+end], []byte("\n"))
				i += 2 + end + 1
			}
		case '{', '[':
			depth++
			if depth > maxNesting {
				return maxNesting + line
			}
		case '}', ']':
			depth--
		}
	}
	return 0
}

// lineIndex turns byte offsets into 1-based lines.
type lineIndex []int // offsets of each '\n'

func newLineIndex(b []byte) lineIndex {
	var idx lineIndex
	for i, c := range b {
		if c == '\n' {
			idx = append(idx, i)
		}
	}
	return idx
}

func (idx lineIndex) line(off int) int {
	return 1 + sort.SearchInts(idx, off)
}

func lineAt(b []byte, off int) int {
	off = min(max(off, 0), len(b))
	return 1 + bytes.Count(b[:off], []byte("\n"))
}

func fromHuJSON(v *hujson.Value, lines lineIndex) *cfgValue {
	out := &cfgValue{line: lines.line(v.StartOffset)}
	switch t := v.Value.(type) {
	case *hujson.Object:
		out.kind = cfgObject
		for i := range t.Members {
			m := &t.Members[i]
			name, _ := m.Name.Value.(hujson.Literal)
			out.keys = append(out.keys, name.String())
			out.vals = append(out.vals, fromHuJSON(&m.Value, lines))
		}
	case *hujson.Array:
		out.kind = cfgArray
		for i := range t.Elements {
			out.vals = append(out.vals, fromHuJSON(&t.Elements[i], lines))
		}
	case hujson.Literal:
		switch t.Kind() {
		case 'n':
			out.kind = cfgNull
		case 't', 'f':
			out.kind, out.str = cfgBool, string(t)
		case '"':
			out.kind, out.str = cfgString, t.String()
		default:
			out.kind, out.str = cfgNumber, string(t)
		}
	}
	return out
}

// parseTOML parses TOML (Codex) through koanf's TOML parser
// (github.com/pelletier/go-toml/v2 underneath).
func parseTOML(b []byte) (*cfgValue, error) {
	m, err := toml.Parser().Unmarshal(b)
	if err != nil {
		pe := &parseError{msg: "not valid TOML: " + strings.TrimPrefix(err.Error(), "toml: ")}
		// go-toml's *DecodeError knows the position; asserting on the method
		// keeps go-toml an indirect dependency.
		var pos interface{ Position() (int, int) }
		if errors.As(err, &pos) {
			pe.line, _ = pos.Position()
		}
		return nil, pe
	}
	return fromMap(m, 0), nil
}

var (
	yamlLine   = regexp.MustCompile(`line (\d+)`)
	yamlQuoted = regexp.MustCompile("`[^`]*`")
)

// parseYAML parses YAML (Continue) through koanf's YAML parser
// (go.yaml.in/yaml/v3 underneath). The top level must be a mapping.
func parseYAML(b []byte) (*cfgValue, error) {
	m, err := yaml.Parser().Unmarshal(b)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		pe := &parseError{}
		if s := yamlLine.FindStringSubmatch(msg); s != nil {
			pe.line, _ = strconv.Atoi(s[1])
		}
		// yaml.v3 quotes offending values in backticks: keep them out.
		msg = yamlQuoted.ReplaceAllString(msg, "a value")
		msg = strings.ReplaceAll(strings.ReplaceAll(msg, "unmarshal errors:\n  ", ""), "\n  ", "; ")
		pe.msg = "not valid YAML: " + msg
		return nil, pe
	}
	return fromMap(m, 0), nil
}

// fromMap converts what the TOML and YAML parsers return. Keys are sorted:
// those parsers do not keep document order.
func fromMap(x any, depth int) *cfgValue {
	if depth > maxNesting {
		return &cfgValue{kind: cfgOther, str: "value nested too deeply"}
	}
	switch t := x.(type) {
	case nil:
		return &cfgValue{kind: cfgNull}
	case bool:
		return &cfgValue{kind: cfgBool, str: strconv.FormatBool(t)}
	case string:
		return &cfgValue{kind: cfgString, str: t}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return &cfgValue{kind: cfgNumber, str: fmt.Sprint(t)}
	case map[string]any:
		out := &cfgValue{kind: cfgObject}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, fromMap(t[k], depth+1))
		}
		return out
	case map[any]any: // YAML mappings with non-string keys
		conv := make(map[string]any, len(t))
		for k, v := range t {
			conv[fmt.Sprint(k)] = v
		}
		return fromMap(conv, depth)
	case []any:
		out := &cfgValue{kind: cfgArray}
		for _, e := range t {
			out.vals = append(out.vals, fromMap(e, depth+1))
		}
		return out
	}
	return &cfgValue{kind: cfgOther, str: fmt.Sprintf("%T value", x)}
}
