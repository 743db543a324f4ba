package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"go.yaml.in/yaml/v3"
)

// This file reads a config file into a tree of keys that knows where each
// key is, for the checks of check.go; koanf, which decodes the file, keeps
// no positions. Each reader first lets the format's own parser judge the
// syntax, so a syntax error is reported as that parser sees it, with its
// line (and column when it gives one).

// kind is what a value of a config file is.
type kind int

const (
	kindNull kind = iota // YAML's null or an empty value, JSON's null
	kindString
	kindBool
	kindNumber
	kindTime // a TOML date or time, a YAML timestamp
	kindList
	kindTable
)

func (k kind) String() string {
	return [...]string{"nothing", "a string", "true or false", "a number", "a date", "a list", "a table"}[k]
}

// node is one value of a config file and where its key is. Its text (a
// scalar's) is only ever parsed, never printed: it may be a secret. A
// list keeps no items (no key of Config is a list of anything but
// strings): only the kind of its first item that is not a string, number
// or bool, and its last item (for TOML's [[name]], which later keys
// extend).
type node struct {
	kind      kind
	line, col int              // of its key (for the root and list items: of the nearest key)
	text      string           // a string, number or bool as written (numbers and bools) or decoded (strings)
	members   []member         // a table's keys, in the order of the file
	index     map[string]*node // a table's keys, by name
	itemKind  kind             // a list's first item that is not a scalar (kindNull: none)
	last      *node            // a list's last item
}

// member is one key of a table.
type member struct {
	name  string
	value *node
}

func (n *node) get(name string) *node { return n.index[name] }

func (n *node) add(name string, v *node) {
	n.members = append(n.members, member{name: name, value: v})
	if n.index == nil {
		n.index = map[string]*node{}
	}
	if n.index[name] == nil {
		n.index[name] = v
	}
}

// item records v as the next item of the list n.
func (n *node) item(v *node) {
	if n.itemKind == kindNull && !scalar(v.kind) && v.kind != kindNull {
		n.itemKind = v.kind
	}
	n.last = v
}

// maxDepth is how deep the readers build the tree: deeper than any key of
// the schema (servers.NAME.env.VAR is 4), so nothing the checks look at
// is cut; below it a value keeps its kind but not its contents.
const maxDepth = 12

// maxNodes bounds the nodes a YAML file's aliases may expand to.
const maxNodes = 1 << 20

// maxKeys bounds the keys (and TOML tables) of a config file: far more
// than any needs, few enough for go-toml, whose time grows with their
// square (5,000 take it 0.1 s).
const maxKeys = 5000

func tooManyKeys(path string, at *node) error {
	return fileErrors{{path: path, line: at.line, col: at.col, msg: fmt.Sprintf("too many keys: a config file may hold %d", maxKeys)}}
}

// fileError is one problem at a place in a config file. It names the
// file, the line (and column), the key, and what is wrong; never a value.
type fileError struct {
	path      string
	line, col int    // 1-based; 0 when not known
	key       string // dotted key; "" when the problem is not a key's
	msg       string
	unknown   *unknownKey // the key is unknown: what to suggest instead is worked out for the errors shown
}

// unknownKey is a key name the table of schema s does not know.
type unknownKey struct {
	table *schema
	name  string
}

func (e fileError) Error() string {
	var b strings.Builder
	b.WriteString(e.path)
	if e.line > 0 {
		fmt.Fprintf(&b, ":%d", e.line)
		if e.col > 0 {
			fmt.Fprintf(&b, ":%d", e.col)
		}
	}
	b.WriteString(": ")
	if e.key != "" {
		b.WriteString(e.key)
		b.WriteString(": ")
	}
	b.WriteString(e.msg)
	return b.String()
}

// fileErrors are the problems found in a config file, in the order of the
// file: one per line.
type fileErrors []fileError

// maxReported caps the problems one error lists.
const maxReported = 50

func (es fileErrors) Error() string {
	if len(es) == 1 {
		return es[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems in %s:", len(es), es[0].path)
	for i, e := range es {
		if i == maxReported {
			fmt.Fprintf(&b, "\n  ... and %d more", len(es)-maxReported)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(e.Error())
	}
	return b.String()
}

// positions turns offsets in data into lines and columns (in characters),
// both from 1. It moves on from the offset asked for last, so asking for
// offsets in the order of the file costs one pass over it.
type positions struct {
	data           []byte
	off, line, col int
}

func newPositions(data []byte) *positions { return &positions{data: data, line: 1, col: 1} }

func (p *positions) at(offset int) (int, int) {
	offset = max(0, min(offset, len(p.data)))
	if offset < p.off {
		p.off, p.line, p.col = 0, 1, 1
	}
	for p.off < offset {
		r, size := utf8.DecodeRune(p.data[p.off:])
		if r == '\n' {
			p.line, p.col = p.line+1, 1
		} else {
			p.col++
		}
		p.off += size
	}
	return p.line, p.col
}

// readTree parses a config file of the given format ("toml", "yaml" or
// "json") into a tree, or returns its syntax error.
func readTree(path, format string, data []byte) (*node, error) {
	switch format {
	case "toml":
		return readTOML(path, data)
	case "yaml":
		return readYAML(path, data)
	case "json":
		return readJSON(path, data)
	}
	return nil, fmt.Errorf("config %s: unknown format %q", path, format)
}

// numberInMessage finds what strconv quotes of a number the TOML parser
// could not read: a part of a value, which is not printed.
var numberInMessage = regexp.MustCompile(`strconv\.\w+: parsing "[^"]*": `)

func readTOML(path string, data []byte) (*node, error) {
	// go-toml's time grows with the square of the keys (40,000 take it
	// 10 s): they are counted first, by a reading that takes linear time.
	b, buildErr := buildTOML(data)
	if b.keys > maxKeys {
		return nil, tooManyKeys(path, b.over)
	}
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		e := fileError{path: path, msg: "invalid TOML: " + numberInMessage.ReplaceAllString(strings.TrimPrefix(err.Error(), "toml: "), "")}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			e.line, e.col = de.Position()
		} else if b.again != nil {
			// A key or table defined twice: go-toml says which, not
			// where.
			e.line, e.col = b.again.line, b.again.col
		}
		return nil, fileErrors{e}
	}
	if buildErr != nil {
		// toml.Unmarshal accepted what this parser refuses: not expected,
		// but reported as a syntax error all the same.
		return nil, fileErrors{{path: path, msg: "invalid TOML: " + numberInMessage.ReplaceAllString(buildErr.Error(), "")}}
	}
	return b.root, nil
}

// buildTOML reads a TOML document into a tree (b.root), up to its first
// syntax error (err). b.again is where it first finds a key or table
// defined a second time, or a table extended where TOML does not allow it
// (nil if nowhere).
func buildTOML(data []byte) (b *tomlBuilder, err error) {
	var p unstable.Parser
	p.Reset(data)
	b = &tomlBuilder{pos: newPositions(data), how: map[*node]defined{}}
	b.root = &node{kind: kindTable, line: 1, col: 1}
	cur := b.root
	for b.over == nil && p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			cur = b.root
			keys := keyParts(e.Key())
			for i, k := range keys {
				line, col := b.at(k)
				name := string(k.Data)
				switch {
				case i < len(keys)-1:
					cur = b.table(cur, name, line, col, byParent)
				case e.Kind == unstable.Table:
					cur = b.table(cur, name, line, col, byHeader)
				default:
					cur = b.arrayTable(cur, name, line, col)
				}
			}
		case unstable.KeyValue:
			b.keyValue(cur, e, 1)
		}
	}
	return b, p.Error()
}

// defined is how a TOML table came to be.
type defined int

const (
	byParent    defined = iota + 1 // named on the way to another ([a] of [a.b]): may get a header later
	byHeader                       // [a] itself
	byDottedKey                    // a of a.b = 1: no header may follow
	inline                         // a = {...}, and the tables in it: closed once read
	arrayOf                        // [[a]] (the list), or an item of it
	static                         // a = [...]
)

// tomlBuilder holds what building a TOML tree needs besides the tree.
type tomlBuilder struct {
	root  *node
	pos   *positions
	how   map[*node]defined
	again *node // where a key or table is first defined a second time
	keys  int   // keys and tables read
	over  *node // where the key past maxKeys is
}

// count counts a key or table, at line, col.
func (b *tomlBuilder) count(line, col int) {
	if b.keys++; b.keys == maxKeys+1 {
		b.over = &node{line: line, col: col}
	}
}

// at is the line and column of the key k.
func (b *tomlBuilder) at(k *unstable.Node) (int, int) { return b.pos.at(int(k.Raw.Offset)) }

func (b *tomlBuilder) conflict(line, col int) {
	if b.again == nil {
		b.again = &node{line: line, col: col}
	}
}

// table is the table name in t, made if t has none, as TOML's rules let
// it be reached by how; a breach of them is noted. A list of tables
// ([[name]]) stands for its last item.
func (b *tomlBuilder) table(t *node, name string, line, col int, how defined) *node {
	c := t.get(name)
	if c == nil {
		c = &node{kind: kindTable, line: line, col: col}
		b.how[c] = how
		b.count(line, col)
		t.add(name, c)
		return c
	}
	was := b.how[c]
	switch {
	case c.kind == kindList && was == arrayOf && c.last != nil && how != byHeader:
		return c.last
	case c.kind != kindTable || was == inline:
		b.conflict(line, col)
	case how == byHeader && (was == byHeader || was == byDottedKey || was == arrayOf):
		b.conflict(line, col)
	case how == byHeader:
		b.how[c] = byHeader
	case how == byDottedKey && (was == byHeader || was == byParent):
		b.conflict(line, col)
	}
	return c
}

// arrayTable adds an item to the list of tables name in t ([[name]]) and
// returns it.
func (b *tomlBuilder) arrayTable(t *node, name string, line, col int) *node {
	c := t.get(name)
	if c == nil {
		c = &node{kind: kindList, line: line, col: col}
		b.how[c] = arrayOf
		t.add(name, c)
	} else if c.kind != kindList || b.how[c] != arrayOf {
		b.conflict(line, col)
	}
	item := &node{kind: kindTable, line: line, col: col}
	b.how[item] = arrayOf
	b.count(line, col)
	c.item(item)
	return item
}

// seal closes the inline table n, and the tables in it, to keys from
// outside.
func (b *tomlBuilder) seal(n *node) {
	b.how[n] = inline
	for _, m := range n.members {
		if m.value.kind == kindTable && b.how[m.value] != inline {
			b.seal(m.value)
		}
	}
}

// keyParts are the parts of a (dotted) TOML key.
func keyParts(it unstable.Iterator) []*unstable.Node {
	var keys []*unstable.Node
	for it.Next() {
		keys = append(keys, it.Node())
	}
	return keys
}

// keyValue adds the key = value expression kv to the table t.
func (b *tomlBuilder) keyValue(t *node, kv *unstable.Node, depth int) {
	keys := keyParts(kv.Key())
	if len(keys) == 0 {
		return
	}
	for _, k := range keys[:len(keys)-1] {
		line, col := b.at(k)
		t = b.table(t, string(k.Data), line, col, byDottedKey)
	}
	last := keys[len(keys)-1]
	line, col := b.at(last)
	if t.get(string(last.Data)) != nil {
		b.conflict(line, col)
	}
	b.count(line, col)
	t.add(string(last.Data), b.value(kv.Value(), line, col, depth+len(keys)-1))
}

// value is the value v, whose key is at line, col.
func (b *tomlBuilder) value(v *unstable.Node, line, col int, depth int) *node {
	n := &node{line: line, col: col}
	switch v.Kind {
	case unstable.String:
		n.kind, n.text = kindString, string(v.Data)
	case unstable.Bool:
		n.kind, n.text = kindBool, string(v.Data)
	case unstable.Integer, unstable.Float:
		n.kind, n.text = kindNumber, string(v.Data)
	case unstable.Array:
		n.kind = kindList
		b.how[n] = static
		if depth < maxDepth {
			for it := v.Children(); it.Next(); {
				n.item(b.value(it.Node(), line, col, depth+1))
			}
		}
	case unstable.InlineTable:
		n.kind = kindTable
		if depth < maxDepth {
			for it := v.Children(); it.Next(); {
				if kv := it.Node(); kv.Kind == unstable.KeyValue {
					b.keyValue(n, kv, depth+1)
				}
			}
		}
		b.seal(n)
	default:
		n.kind = kindTime
	}
	return n
}

func readJSON(path string, data []byte) (*node, error) {
	var raw json.RawMessage // checked, not decoded
	if err := json.Unmarshal(data, &raw); err != nil {
		e := fileError{path: path, msg: "invalid JSON: " + err.Error()}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Offset is what was read when the error was found: the
			// offending byte is the last of it.
			e.line, e.col = newPositions(data).at(int(se.Offset) - 1)
		}
		return nil, fileErrors{e}
	}
	r := &jsonReader{data: data, pos: newPositions(data), dec: json.NewDecoder(bytes.NewReader(data))}
	r.dec.UseNumber()
	root, err := r.value(0)
	if r.over != nil {
		return nil, tooManyKeys(path, r.over)
	}
	if err != nil {
		return nil, fileErrors{{path: path, msg: "invalid JSON: " + err.Error()}}
	}
	return root, nil
}

// jsonReader reads a JSON document already known to be valid into a tree.
type jsonReader struct {
	data []byte
	pos  *positions
	dec  *json.Decoder
	keys int
	over *node // where the key past maxKeys is
}

// next is where the next token starts: past blanks and the separators the
// decoder has not consumed yet.
func (r *jsonReader) next() (int, int) {
	i := int(r.dec.InputOffset())
	for i < len(r.data) && strings.IndexByte(" \t\r\n,:", r.data[i]) >= 0 {
		i++
	}
	return r.pos.at(i)
}

func (r *jsonReader) value(depth int) (*node, error) {
	line, col := r.next()
	n := &node{line: line, col: col}
	if depth >= maxDepth {
		var skip json.RawMessage
		if err := r.dec.Decode(&skip); err != nil {
			return nil, err
		}
		switch {
		case len(skip) > 0 && skip[0] == '{':
			n.kind = kindTable
		case len(skip) > 0 && skip[0] == '[':
			n.kind = kindList
		default:
			n.kind = kindString
		}
		return n, nil
	}
	tok, err := r.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n.kind = kindTable
			for r.dec.More() {
				kline, kcol := r.next()
				key, err := r.dec.Token()
				if err != nil {
					return nil, err
				}
				name, _ := key.(string)
				v, err := r.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.line, v.col = kline, kcol
				if r.keys++; r.keys > maxKeys {
					r.over = v
					return nil, errors.New("too many keys")
				}
				n.add(name, v)
			}
		} else {
			n.kind = kindList
			for r.dec.More() {
				v, err := r.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.item(v)
			}
		}
		if _, err := r.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.kind, n.text = kindString, t
	case json.Number:
		n.kind, n.text = kindNumber, t.String()
	case bool:
		n.kind, n.text = kindBool, strconv.FormatBool(t)
	case nil:
		n.kind = kindNull
	}
	return n, nil
}

// yamlLine is the line yaml.v3 puts in its messages.
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

func readYAML(path string, data []byte) (*node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		e := fileError{path: path, msg: "invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
		// yaml.v3 leaves the line out when it is the first, and for
		// problems of encoding, which it does not place.
		if !strings.Contains(e.msg, "UTF-8") && !strings.Contains(e.msg, "Unicode") && !strings.Contains(e.msg, "control characters") {
			e.line = 1
		}
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			// yaml.v3 names the line of the construct it was reading,
			// counted from 0 for parser errors (from 1 for the
			// scanner's); with no line, the problem is on the first.
			line, _ := strconv.Atoi(m[1])
			if strings.HasPrefix(m[2], "did not find expected") {
				line++
			}
			e.line, e.msg = line, "invalid YAML: "+m[2]
		}
		return nil, fileErrors{e}
	}
	r := &yamlReader{path: path, twice: map[[2]int]bool{}}
	root := &node{kind: kindTable, line: 1, col: 1}
	if len(doc.Content) > 0 {
		root = r.value(doc.Content[0], 1, 1, nil)
	}
	if r.over != nil {
		return nil, tooManyKeys(path, r.over)
	}
	if r.errs != nil {
		return nil, r.errs
	}
	return root, nil
}

// yamlReader turns yaml.v3's nodes into a tree, expanding aliases and
// merge keys (<<) as decoding does.
type yamlReader struct {
	path  string
	nodes int
	errs  fileErrors
	twice map[[2]int]bool // where a key given twice was reported
	keys  int
	over  *node // where the key past maxKeys is
}

func (r *yamlReader) value(y *yaml.Node, line, col int, key []string) *node {
	depth := len(key)
	n := &node{line: line, col: col}
	r.nodes++
	if r.nodes > maxNodes {
		if r.errs == nil {
			r.errs = fileErrors{{path: r.path, line: y.Line, col: y.Column, msg: "invalid YAML: its aliases expand to too many values"}}
		}
		n.kind = kindNull
		return n
	}
	switch y = unalias(y); y.Kind {
	case yaml.MappingNode:
		n.kind = kindTable
		if depth < maxDepth {
			r.mapping(n, y, key)
		}
	case yaml.SequenceNode:
		n.kind = kindList
		if depth < maxDepth {
			for _, c := range y.Content {
				n.item(r.value(c, line, col, append(key[:depth:depth], "[]")))
			}
		}
	case yaml.ScalarNode:
		n.text = y.Value
		switch y.ShortTag() {
		case "!!null":
			n.kind = kindNull
		case "!!bool":
			n.kind = kindBool
		case "!!int", "!!float":
			n.kind = kindNumber
		case "!!timestamp":
			n.kind = kindTime
		default:
			n.kind = kindString
		}
	default:
		n.kind = kindNull
	}
	return n
}

// mapping adds the keys of the mapping y to the table n: its own keys
// first, a key given twice being an error, then those its merge keys (<<)
// bring that it does not set itself.
func (r *yamlReader) mapping(n *node, y *yaml.Node, key []string) {
	if len(key) >= maxDepth || r.nodes > maxNodes {
		return
	}
	var merges []*yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.ShortTag() == "!!merge" || k.Tag == "") {
			merges = append(merges, v)
			continue
		}
		name := k.Value
		sub := append(key[:len(key):len(key)], name)
		if first, ok := seen[name]; ok {
			if r.twice[[2]int{k.Line, k.Column}] {
				continue // a mapping merged in more than once
			}
			r.twice[[2]int{k.Line, k.Column}] = true
			r.errs = append(r.errs, fileError{path: r.path, line: k.Line, col: k.Column, key: dottedKey(sub),
				msg: fmt.Sprintf("key given twice (first on line %d)", first)})
			continue
		}
		seen[name] = k.Line
		if r.keys++; r.keys == maxKeys+1 {
			r.over = &node{line: k.Line, col: k.Column}
		}
		if r.over != nil {
			return
		}
		n.add(name, r.value(v, k.Line, k.Column, sub))
	}
	for _, m := range merges {
		m = unalias(m)
		sources := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			sources = m.Content
		}
		for _, s := range sources {
			if s = unalias(s); s.Kind != yaml.MappingNode {
				continue
			}
			merged := &node{kind: kindTable}
			r.mapping(merged, s, append(key[:len(key):len(key)], "<<"))
			for _, mm := range merged.members {
				if _, ok := seen[mm.name]; !ok {
					seen[mm.name] = mm.value.line
					n.add(mm.name, mm.value)
				}
			}
		}
	}
}

// unalias is the node an alias refers to (an alias cannot have an anchor,
// so one step is all there is).
func unalias(y *yaml.Node) *yaml.Node {
	if y.Kind == yaml.AliasNode && y.Alias != nil {
		return y.Alias
	}
	return y
}
