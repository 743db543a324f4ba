package install

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/knadh/koanf/parsers/toml/v2"
)

// tomlDoc is a TOML file edited as text: tables are found by their
// headers, and added, replaced or removed as regions of lines, so that
// everything else (other tables, keys, comments, layout) stays as written.
type tomlDoc struct {
	lines []string // each with its "\n", the last one maybe without
	// For each line: the table header it is, if any, and whether it
	// starts outside any string or bracket (where a key or header can).
	headers map[int]tomlHeader
	free    []bool
	nl      string // the file's line ending: "\n" or "\r\n"
}

type tomlHeader struct {
	path  []string
	array bool // [[...]]
}

func parseTOMLDoc(text string) (*tomlDoc, error) {
	d := &tomlDoc{nl: "\n"}
	if strings.Contains(text, "\r\n") {
		d.nl = "\r\n"
	}
	d.setText(text)
	if _, err := toml.Parser().Unmarshal([]byte(text)); err != nil {
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	return d, nil
}

func (d *tomlDoc) text() string { return strings.Join(d.lines, "") }

func (d *tomlDoc) setText(text string) {
	d.lines = d.lines[:0]
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			d.lines = append(d.lines, text)
			break
		}
		d.lines = append(d.lines, text[:i+1])
		text = text[i+1:]
	}
	d.scan()
}

// scan finds the headers, following strings, comments and brackets so that
// a "[" inside a value is not taken for one.
func (d *tomlDoc) scan() {
	d.headers = map[int]tomlHeader{}
	d.free = make([]bool, len(d.lines))
	const (
		normal = iota
		basic
		literal
		mlBasic
		mlLiteral
	)
	state, depth := normal, 0
	for n, line := range d.lines {
		d.free[n] = state == normal && depth == 0
		i := 0
		if d.free[n] {
			trimmed := strings.TrimLeft(line, " \t")
			if strings.HasPrefix(trimmed, "[") {
				if h, ok := parseHeader(trimmed); ok {
					d.headers[n] = h
				}
				continue
			}
		}
		for i < len(line) {
			c := line[i]
			switch state {
			case normal:
				switch {
				case c == '#':
					i = len(line)
					continue
				case strings.HasPrefix(line[i:], `"""`):
					state, i = mlBasic, i+3
					continue
				case strings.HasPrefix(line[i:], `'''`):
					state, i = mlLiteral, i+3
					continue
				case c == '"':
					state = basic
				case c == '\'':
					state = literal
				case c == '[' || c == '{':
					depth++
				case c == ']' || c == '}':
					depth = max(depth-1, 0)
				}
			case basic:
				switch c {
				case '\\':
					i++
				case '"', '\n':
					state = normal
				}
			case literal:
				if c == '\'' || c == '\n' {
					state = normal
				}
			case mlBasic, mlLiteral:
				q := `"""`
				if state == mlLiteral {
					q = `'''`
				}
				if state == mlBasic && c == '\\' {
					i += 2
					continue
				}
				if strings.HasPrefix(line[i:], q) {
					i += 3
					for k := 0; k < 2 && i < len(line) && line[i] == q[0]; k++ {
						i++ // up to two more quotes belong to the string
					}
					state = normal
					continue
				}
			}
			i++
		}
	}
}

var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+`)

// parseHeader reads "[a.b."c"]" or "[[a.b]]" at the start of s.
func parseHeader(s string) (tomlHeader, bool) {
	var h tomlHeader
	s = s[1:]
	if strings.HasPrefix(s, "[") {
		h.array, s = true, s[1:]
	}
	path, rest, ok := parseKey(s)
	if !ok {
		return h, false
	}
	closing := "]"
	if h.array {
		closing = "]]"
	}
	if !strings.HasPrefix(rest, closing) {
		return h, false
	}
	h.path = path
	return h, true
}

// parseKey reads a dotted key at the start of s, and returns what follows
// it (after spaces).
func parseKey(s string) ([]string, string, bool) {
	var path []string
	for {
		s = strings.TrimLeft(s, " \t")
		var part string
		switch {
		case strings.HasPrefix(s, `"`):
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, "", false
			}
			p, err := strconv.Unquote(s[:end+1])
			if err != nil {
				return nil, "", false
			}
			part, s = p, s[end+1:]
		case strings.HasPrefix(s, `'`):
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, "", false
			}
			part, s = s[1:end+1], s[end+2:]
		default:
			part = bareKey.FindString(s)
			if part == "" {
				return nil, "", false
			}
			s = s[len(part):]
		}
		path = append(path, part)
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, ".") {
			return path, s, true
		}
		s = s[1:]
	}
}

// region is the lines of a table: its comment lines, its header, its keys
// and its sub-tables.
type region struct {
	start, header, end int // lines [start, end); header is the header's line
}

// table finds the region of the table whose header is exactly path.
func (d *tomlDoc) table(path []string) (region, bool) {
	h := -1
	for n := range d.lines {
		if hd, ok := d.headers[n]; ok && !hd.array && slices.Equal(hd.path, path) {
			h = n
			break
		}
	}
	if h < 0 {
		return region{}, false
	}
	r := region{start: h, header: h, end: len(d.lines)}
	for n := h + 1; n < len(d.lines); n++ {
		if hd, ok := d.headers[n]; ok && !(len(hd.path) > len(path) && slices.Equal(hd.path[:len(path)], path)) {
			r.end = n
			break
		}
	}
	// Comment lines right above a header belong to it.
	for r.start > 0 && d.free[r.start-1] && isComment(d.lines[r.start-1]) {
		r.start--
	}
	if r.end < len(d.lines) {
		for r.end-1 > r.header && d.free[r.end-1] && isComment(d.lines[r.end-1]) {
			r.end--
		}
	}
	for r.end-1 > r.header && d.free[r.end-1] && isBlank(d.lines[r.end-1]) {
		r.end--
	}
	return r, true
}

func isComment(line string) bool { return strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") }
func isBlank(line string) bool   { return strings.TrimSpace(line) == "" }

// body is the end of the table's own keys: the line of its first sub-table,
// or the region's end.
func (d *tomlDoc) body(r region) int {
	for n := r.header + 1; n < r.end; n++ {
		if _, ok := d.headers[n]; ok {
			// Comment lines above a sub-table are the sub-table's.
			for n-1 > r.header && d.free[n-1] && isComment(d.lines[n-1]) {
				n--
			}
			return n
		}
	}
	return r.end
}

// removeRegion deletes the lines of r and returns them, with the blank line
// that separated them from what was above when nothing follows or a blank
// line does.
func (d *tomlDoc) removeRegion(r region) string {
	text := strings.Join(d.lines[r.start:r.end], "")
	start, end := r.start, r.end
	for end < len(d.lines) && isBlank(d.lines[end]) && (end+1 == len(d.lines) || isBlank(d.lines[end+1])) {
		end++
	}
	if start > 0 && isBlank(d.lines[start-1]) && (end == len(d.lines) || isBlank(d.lines[end])) {
		start--
	}
	lines := append(append([]string{}, d.lines[:start]...), d.lines[end:]...)
	d.setText(strings.Join(lines, ""))
	return text
}

// endings turns the line endings of text into the file's.
func (d *tomlDoc) endings(text string) string {
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", d.nl)
}

// appendBlock adds block (whole lines) at the end, after a blank line.
func (d *tomlDoc) appendBlock(block string) {
	text := d.text()
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += d.nl
	}
	if strings.TrimSpace(text) != "" {
		text += d.nl
	}
	d.setText(text + d.endings(block))
}

// insert adds text (whole lines) before line at.
func (d *tomlDoc) insert(at int, text string) {
	lines := append([]string{}, d.lines[:at]...)
	if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		lines[at-1] += d.nl
	}
	lines = append(append(lines, d.endings(text)), d.lines[at:]...)
	d.setText(strings.Join(lines, ""))
}

// setKeys makes the keys of the table at r hold the values given (TOML
// text), replacing those keys' lines or adding them under the header.
func (d *tomlDoc) setKeys(r region, keys []keyVal) {
	end := d.body(r)
	lines := append([]string{}, d.lines[:r.header+1]...)
	var rest []string
	n := r.header + 1
	done := map[string]bool{}
	for n < end {
		next := n + 1
		for next < end && !d.free[next] {
			next++ // a value that spans lines
		}
		key := ""
		if d.free[n] && !isComment(d.lines[n]) && !isBlank(d.lines[n]) {
			if p, after, ok := parseKey(strings.TrimLeft(d.lines[n], " \t")); ok && len(p) == 1 && strings.HasPrefix(after, "=") {
				key = p[0]
			}
		}
		if i := slices.IndexFunc(keys, func(kv keyVal) bool { return kv.key == key }); i >= 0 {
			rest = append(rest, fmt.Sprintf("%s = %s%s", tomlKey(key), keys[i].val, d.nl))
			done[key] = true
		} else {
			rest = append(rest, d.lines[n:next]...)
		}
		n = next
	}
	var added []string
	for _, kv := range keys {
		if !done[kv.key] {
			added = append(added, fmt.Sprintf("%s = %s%s", tomlKey(kv.key), kv.val, d.nl))
		}
	}
	lines = append(append(append(lines, added...), rest...), d.lines[end:]...)
	d.setText(strings.Join(lines, ""))
}

// tomlKey writes a key bare when it can be.
func tomlKey(k string) string {
	if k != "" && bareKey.FindString(k) == k {
		return k
	}
	return tomlString(k)
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case utf8.RuneError:
			b.WriteString(`\uFFFD`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlStrings(list []string) string {
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = tomlString(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func tomlTable(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = tomlKey(k) + " = " + tomlString(m[k])
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// value parses the whole document.
func (d *tomlDoc) value() (map[string]any, error) {
	return toml.Parser().Unmarshal([]byte(d.text()))
}
