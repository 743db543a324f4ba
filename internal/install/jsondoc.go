package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// jsonDoc is a client file in JSON or JSONC, edited in place: members are
// added, replaced and removed in its syntax tree, and everything else (other
// keys, their order, comments, whitespace, trailing commas) is written back
// as it was read.
type jsonDoc struct {
	root   hujson.Value
	bom    bool
	strict bool   // strict JSON: the result must stay standard JSON
	key    string // the top-level key of the map of servers
	unit   string // one level of indentation, as the file has it
	nl     string // the file's line ending: "\n" or "\r\n"
	// compact: the file is one line, so an empty object that gets a
	// member stays on it.
	compact bool
	src     []byte // the text parsed (without a BOM), for line numbers
}

// parseJSONDoc parses data (the caller has checked that it parses, with
// bounded nesting). Empty data is an empty object.
func parseJSONDoc(data []byte, strict bool, key string) (*jsonDoc, error) {
	d := &jsonDoc{strict: strict, key: key}
	if b, ok := bytes.CutPrefix(data, []byte("\ufeff")); ok {
		data, d.bom = b, true
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, fmt.Errorf("the top level must be an object")
	}
	d.root, d.src = v, data
	d.compact = len(d.rootObj().Members) > 0 && !bytes.Contains(bytes.TrimSpace(data), []byte("\n"))
	d.nl = "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	d.unit = "  "
	for _, m := range d.rootObj().Members {
		if ind, ok := lineIndent(m.Name.BeforeExtra); ok && ind != "" {
			d.unit = ind
			break
		}
	}
	return d, nil
}

func (d *jsonDoc) rootObj() *hujson.Object { return d.root.Value.(*hujson.Object) }

func (d *jsonDoc) bytes() []byte {
	out := d.root.Pack()
	if d.bom {
		out = append([]byte("\ufeff"), out...)
	}
	return out
}

// line is the 1-based line of offset off in the parsed text.
func (d *jsonDoc) line(off int) int {
	return 1 + bytes.Count(d.src[:min(max(off, 0), len(d.src))], []byte("\n"))
}

// find returns the index of the member named name in obj, or -1. A name
// that appears more than once is an error: which one counts is not for
// an edit to guess.
func (d *jsonDoc) find(obj *hujson.Object, name, where string) (int, error) {
	at := -1
	for i, m := range obj.Members {
		if memberName(m) != name {
			continue
		}
		if at >= 0 {
			return -1, fmt.Errorf("%s %q appears twice (lines %d and %d): remove one by hand first",
				where, name, d.line(obj.Members[at].Name.StartOffset), d.line(m.Name.StartOffset))
		}
		at = i
	}
	return at, nil
}

func memberName(m hujson.ObjectMember) string {
	lit, _ := m.Name.Value.(hujson.Literal)
	return lit.String()
}

// servers returns the object holding the map of servers, or nil when the
// file has none.
func (d *jsonDoc) servers() (*hujson.Object, error) {
	i, err := d.find(d.rootObj(), d.key, "the key")
	if err != nil || i < 0 {
		return nil, err
	}
	m := &d.rootObj().Members[i]
	switch v := m.Value.Value.(type) {
	case *hujson.Object:
		return v, nil
	case hujson.Literal:
		if v.Kind() == 'n' {
			return nil, nil
		}
	}
	return nil, fmt.Errorf("line %d: %s must be an object of servers", d.line(m.Value.StartOffset), d.key)
}

// serversOrNew returns the map of servers, adding an empty one (or
// replacing a null) when the file has none.
func (d *jsonDoc) serversOrNew() (*hujson.Object, error) {
	obj, err := d.servers()
	if obj != nil || err != nil {
		return obj, err
	}
	empty, _ := hujson.Parse([]byte("{}"))
	if i, _ := d.find(d.rootObj(), d.key, "the key"); i >= 0 { // null
		empty.BeforeExtra = d.rootObj().Members[i].Value.BeforeExtra
		empty.AfterExtra = d.rootObj().Members[i].Value.AfterExtra
		d.rootObj().Members[i].Value = empty
	} else {
		d.appendMember(d.rootObj(), member{name: d.key, val: empty})
	}
	return d.servers()
}

// entries lists the members of the map of servers.
func (d *jsonDoc) entries() ([]rawEntry, error) {
	obj, err := d.servers()
	if obj == nil || err != nil {
		return nil, err
	}
	var out []rawEntry
	seen := map[string]int{}
	for _, m := range obj.Members {
		name := memberName(m)
		e := rawEntry{name: name, line: d.line(m.Name.StartOffset)}
		seen[name]++
		if o, ok := m.Value.Value.(*hujson.Object); ok {
			e.object = true
			for _, f := range o.Members {
				e.keys = append(e.keys, memberName(f))
			}
			e.command, e.args = jsonCommand(m.Value)
		}
		out = append(out, e)
	}
	for i := range out {
		out[i].duplicate = seen[out[i].name] > 1
	}
	return out, nil
}

// jsonCommand is the command and args of an entry: "command" and "args",
// or Zed's older {"command": {"path": ..., "args": [...]}}.
func jsonCommand(v hujson.Value) (string, []string) {
	var m map[string]any
	if decode(v, &m) != nil {
		return "", nil
	}
	return jsonCommandOf(m)
}

// decode decodes a (JSONC) value into out.
func decode(v hujson.Value, out any) error {
	c := v.Clone()
	c.Standardize()
	dec := json.NewDecoder(bytes.NewReader(c.Pack()))
	dec.UseNumber()
	return dec.Decode(out)
}

// memberIndent is the indentation of the members of obj, whose own line
// is indented by outer; "" with compact when obj is written on one line.
func (d *jsonDoc) memberIndent(obj *hujson.Object, outer string) (indent string, compact bool) {
	for _, m := range obj.Members {
		if ind, ok := lineIndent(m.Name.BeforeExtra); ok {
			return ind, false
		}
	}
	if len(obj.Members) > 0 || d.compact {
		return "", true
	}
	return outer + d.unit, false
}

// lineIndent is the whitespace after the last newline of extra, if extra
// has a newline.
func lineIndent(extra []byte) (string, bool) {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return "", false
	}
	rest := string(extra[i+1:])
	if strings.TrimLeft(rest, " \t") != "" {
		return "", false
	}
	return rest, true
}

// outerIndent is the indentation of the line of the member of the root
// named key (the map of servers), "" for the root itself.
func (d *jsonDoc) outerIndent(obj *hujson.Object) string {
	if obj == d.rootObj() {
		return ""
	}
	for _, m := range d.rootObj().Members {
		if m.Value.Value == obj {
			if ind, ok := lineIndent(m.Name.BeforeExtra); ok {
				return ind
			}
		}
	}
	return d.unit
}

// format renders v (an orderedJSON or raw JSON) for a member of obj.
func (d *jsonDoc) format(obj *hujson.Object, v any) (hujson.Value, error) {
	indent, compact := d.memberIndent(obj, d.outerIndent(obj))
	var text []byte
	if o, ok := v.(orderedJSON); ok && !compact && len(o) > 0 {
		// One key a line, each value on its line: {"args": ["serve"]}.
		var b bytes.Buffer
		b.WriteString("{")
		for i, kv := range o {
			val, err := marshalNoEscape(kv.val)
			if err != nil {
				return hujson.Value{}, err
			}
			k, _ := marshalNoEscape(kv.key)
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%s%s%s%s: %s", d.nl, indent, d.unit, k, val)
		}
		fmt.Fprintf(&b, "%s%s}", d.nl, indent)
		text = b.Bytes()
	} else {
		var err error
		if text, err = marshalNoEscape(v); err != nil {
			return hujson.Value{}, err
		}
	}
	out, err := hujson.Parse(text)
	if err != nil {
		return hujson.Value{}, err
	}
	out.BeforeExtra = []byte(" ")
	return out, nil
}

// member is a member to insert: its name and value, and the comments
// that go with it.
type member struct {
	name  string
	val   hujson.Value
	lead  string // comment lines above it, indentation included
	trail string // a comment after it on its line
}

// appendMember adds m as the last member of obj.
func (d *jsonDoc) appendMember(obj *hujson.Object, m member) {
	d.insertMember(obj, len(obj.Members), m)
}

// insertMember adds m to obj before member i (at the end when i is the
// number of members). A comment at the end of the line before stays on
// that line.
func (d *jsonDoc) insertMember(obj *hujson.Object, i int, m member) {
	indent, compact := d.memberIndent(obj, d.outerIndent(obj))
	nm := hujson.ObjectMember{Name: hujson.Value{Value: hujson.String(m.name)}, Value: m.val}
	if nm.Value.BeforeExtra == nil {
		nm.Value.BeforeExtra = []byte(" ")
	}
	last := i == len(obj.Members)
	// next is what stands between the new member and the one after it (or
	// the closing brace).
	next := &obj.AfterExtra
	if !last {
		next = &obj.Members[i].Name.BeforeExtra
	}
	if compact {
		nm.Name.BeforeExtra = []byte(" ")
		switch {
		case i == 0 && last: // {} gets its first member
			nm.Name.BeforeExtra = nil
		case i == 0: // the spacing after the brace stays there
			nm.Name.BeforeExtra = append([]byte{}, *next...)
			*next = []byte(" ")
		}
	} else {
		before := []byte(d.nl)
		after := append([]byte{}, *next...)
		if line, rest := splitFirstLine(*next); lineBreak(*next) >= 0 && hasComment(line) {
			before = append([]byte{}, line...)
			after = append([]byte(d.nl), rest...)
		} else if len(obj.Members) == 0 {
			after = []byte(d.nl + d.outerIndent(obj))
		}
		if m.lead != "" {
			before = append(before, m.lead...)
		} else {
			before = append(before, indent...)
		}
		nm.Name.BeforeExtra = before
		if m.trail != "" {
			after = append([]byte(strings.TrimRight(m.trail, "\r\n")), after...)
		}
		*next = after
	}
	if last {
		if n := len(obj.Members); n > 0 && obj.Members[n-1].Value.AfterExtra != nil {
			// The last member had a trailing comma: the new last one keeps it.
			nm.Value.AfterExtra = []byte{}
		}
	}
	obj.Members = slices.Insert(obj.Members, i, nm)
}

// removeMember takes member i out of obj with the comment lines above it
// and a comment after it on its line, keeping a comment on the line
// before it. It returns the member's value as written and those comments.
func (d *jsonDoc) removeMember(obj *hujson.Object, i int) (text, lead, trail string) {
	m := obj.Members[i]
	text = string(hujson.Value{Value: m.Value.Value}.Pack())
	multiline := lineBreak(m.Name.BeforeExtra) >= 0
	prevLine, own := splitFirstLine(m.Name.BeforeExtra)
	if !multiline {
		prevLine, own = nil, m.Name.BeforeExtra
	}
	if hasComment(own) {
		lead = string(own)
	}
	last := i == len(obj.Members)-1
	next := &obj.AfterExtra
	if !last {
		next = &obj.Members[i+1].Name.BeforeExtra
	}
	switch {
	case !multiline:
		// One line: the next member keeps its own spacing, or the first
		// member's spacing after the brace stays.
		if i == 0 && !last {
			*next = append([]byte{}, m.Name.BeforeExtra...)
		}
	default:
		line, nextOwn := splitFirstLine(*next)
		if lineBreak(*next) < 0 {
			line, nextOwn = *next, nil
		}
		if hasComment(line) {
			trail = string(line)
		}
		*next = append(append([]byte{}, prevLine...), nextOwn...)
	}
	if last && i > 0 {
		prev := &obj.Members[i-1].Value
		switch {
		case m.Value.AfterExtra != nil && prev.AfterExtra == nil:
			prev.AfterExtra = []byte{}
		case m.Value.AfterExtra == nil && prev.AfterExtra != nil:
			obj.AfterExtra = append(prev.AfterExtra, obj.AfterExtra...)
			prev.AfterExtra = nil
		}
	}
	obj.Members = slices.Delete(obj.Members, i, i+1)
	if len(obj.Members) == 0 && !hasComment(obj.AfterExtra) {
		obj.AfterExtra = nil
	}
	return text, lead, trail
}

// splitFirstLine splits extra (whitespace and comments) after its first
// line break that is not inside a block comment: what is left of the line
// before, and the lines after. ok is false when there is no such break.
func splitFirstLine(extra []byte) (line, rest []byte) {
	if i := lineBreak(extra); i >= 0 {
		return extra[:i+1], extra[i+1:]
	}
	return extra, nil
}

// lineBreak is the offset of the first "\n" of extra outside a block
// comment, or -1.
func lineBreak(extra []byte) int {
	for i := 0; i < len(extra); i++ {
		switch {
		case extra[i] == '\n':
			return i
		case bytes.HasPrefix(extra[i:], []byte("/*")):
			end := bytes.Index(extra[i+2:], []byte("*/"))
			if end < 0 {
				return -1
			}
			i += 2 + end + 1
		}
	}
	return -1
}

func hasComment(extra []byte) bool {
	return bytes.Contains(extra, []byte("//")) || bytes.Contains(extra, []byte("/*"))
}

// setEntry makes the member name of the map of servers hold want, adding
// it when missing. An existing entry keeps its other keys: only the keys
// of want that differ are replaced, in place. It reports whether anything
// changed.
func (d *jsonDoc) setEntry(name string, want orderedJSON) (bool, error) {
	obj, err := d.serversOrNew()
	if err != nil {
		return false, err
	}
	i, err := d.find(obj, name, "the server")
	if err != nil {
		return false, err
	}
	if i < 0 {
		v, err := d.format(obj, want)
		if err != nil {
			return false, err
		}
		d.appendMember(obj, member{name: name, val: v})
		return true, nil
	}
	entry, ok := obj.Members[i].Value.Value.(*hujson.Object)
	if !ok {
		v, err := d.format(obj, want)
		if err != nil {
			return false, err
		}
		v.BeforeExtra, v.AfterExtra = obj.Members[i].Value.BeforeExtra, obj.Members[i].Value.AfterExtra
		obj.Members[i].Value = v
		return true, nil
	}
	changed := false
	for _, kv := range want {
		j, err := d.find(entry, kv.key, "the key")
		if err != nil {
			return false, err
		}
		wantJSON, err := json.Marshal(kv.val)
		if err != nil {
			return false, err
		}
		if j >= 0 {
			var have, wantAny any
			if decode(entry.Members[j].Value, &have) == nil && json.Unmarshal(wantJSON, &wantAny) == nil && jsonEqual(have, wantAny) {
				continue
			}
		}
		v, err := hujson.Parse(wantJSON)
		if err != nil {
			return false, err
		}
		if j >= 0 {
			v.BeforeExtra, v.AfterExtra = entry.Members[j].Value.BeforeExtra, entry.Members[j].Value.AfterExtra
			entry.Members[j].Value = v
		} else {
			v.BeforeExtra = []byte(" ")
			d.appendMember(entry, member{name: kv.key, val: v})
		}
		changed = true
	}
	return changed, nil
}

// remove takes the entry name out of the map of servers.
func (d *jsonDoc) remove(name string) (saved, error) {
	obj, err := d.servers()
	if err != nil {
		return saved{}, err
	}
	if obj == nil {
		return saved{}, fmt.Errorf("no %s", d.key)
	}
	i, err := d.find(obj, name, "the server")
	if err != nil {
		return saved{}, err
	}
	if i < 0 {
		return saved{}, fmt.Errorf("no server %q", name)
	}
	text, lead, trail := d.removeMember(obj, i)
	return saved{Entry: text, Lead: lead, Trail: trail}, nil
}

// restore puts back an entry remove took out, with its comments, after
// the entry that was before it if that is still there (first if it was
// first), else at the end.
func (d *jsonDoc) restore(name string, s saved) error {
	obj, err := d.serversOrNew()
	if err != nil {
		return err
	}
	v, err := hujson.Parse([]byte(s.Entry))
	if err != nil {
		return fmt.Errorf("the saved entry %q: %w", name, err)
	}
	if d.strict && !v.IsStandard() {
		return fmt.Errorf("the saved entry %q is not standard JSON", name)
	}
	v.BeforeExtra = []byte(" ")
	at := len(obj.Members)
	if s.After == "" && len(obj.Members) > 0 {
		at = 0
	} else if j, _ := d.find(obj, s.After, "the server"); j >= 0 {
		at = j + 1
	}
	d.insertMember(obj, at, member{name: name, val: v, lead: s.Lead, trail: s.Trail})
	return nil
}

// value decodes the whole document.
func (d *jsonDoc) value() (map[string]any, error) {
	var out map[string]any
	err := decode(d.root, &out)
	return out, err
}

// orderedJSON is a JSON object whose keys keep the order they are given in.
type orderedJSON []keyVal

type keyVal struct {
	key string
	val any
}

// get is the value of key, or nil.
func (o orderedJSON) get(key string) any {
	for _, kv := range o {
		if kv.key == key {
			return kv.val
		}
	}
	return nil
}

// MarshalJSON writes the members in order.
func (o orderedJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(kv.key)
		if err != nil {
			return nil, err
		}
		v, err := marshalNoEscape(kv.val)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// jsonEqual compares decoded JSON values.
func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
