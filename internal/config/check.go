package config

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The checks of a config file: every key must be one Config knows (at any
// level; the names under env and headers are the user's own), and every
// value of the kind its key takes. koanf would ignore a misspelled key and
// fail on a value of the wrong kind without saying where; these name the
// file, the line and the key, and suggest the key that was meant.

// shape is what a key of Config takes.
type shape int

const (
	shapeTable    shape = iota // a struct: known keys
	shapeMap                   // any keys (server names, variable and header names), each of elem's shape
	shapeList                  // a list of strings
	shapeString                // (also a number or a bool, which decoding turns into one)
	shapeBool                  // (also a number, or a string strconv.ParseBool reads)
	shapeInt                   // a whole number (or a string strconv.ParseInt reads)
	shapeFloat                 // a number (or a string of one)
	shapeDuration              // "90s", or a number of seconds
)

// schema is the shape of a key, and of the keys under it.
type schema struct {
	shape  shape
	fields map[string]*schema // shapeTable: its keys
	elem   *schema            // shapeMap: the shape of each value
	// where is the dotted key of this table for messages ("" at the top,
	// "servers.NAME" for a server).
	where string
}

// schemaOf is the schema of a value of type t, read from its koanf tags.
func schemaOf(t reflect.Type, where string) *schema {
	if t == reflect.TypeFor[time.Duration]() {
		return &schema{shape: shapeDuration, where: where}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return schemaOf(t.Elem(), where)
	case reflect.Struct:
		s := &schema{shape: shapeTable, fields: map[string]*schema{}, where: where}
		for f := range t.Fields() {
			if name := f.Tag.Get("koanf"); name != "" && name != "-" {
				s.fields[name] = schemaOf(f.Type, join(where, name))
			}
		}
		return s
	case reflect.Map:
		return &schema{shape: shapeMap, elem: schemaOf(t.Elem(), join(where, "NAME")), where: where}
	case reflect.Slice:
		return &schema{shape: shapeList, where: where}
	case reflect.Bool:
		return &schema{shape: shapeBool, where: where}
	case reflect.Int, reflect.Int64:
		return &schema{shape: shapeInt, where: where}
	case reflect.Float64:
		return &schema{shape: shapeFloat, where: where}
	}
	return &schema{shape: shapeString, where: where}
}

func join(where, name string) string {
	if where == "" {
		return name
	}
	return where + "." + name
}

// checkTree checks the tree of a config file against Config's schema and
// returns every problem, in the order of the file.
func checkTree(path string, root *node) error {
	c := checker{path: path, top: schemaOf(reflect.TypeFor[Config](), "")}
	if root.kind != kindTable && root.kind != kindNull {
		c.fail(root, "", fmt.Sprintf("the file must hold a table of keys, not %v", root.kind))
	} else {
		c.walk(root, c.top, nil)
	}
	if c.errs == nil {
		return nil
	}
	// A TOML table's keys may be spread over the file.
	slices.SortStableFunc(c.errs, func(a, b fileError) int { return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col)) })
	for i := range c.errs[:min(len(c.errs), maxReported)] {
		if u := c.errs[i].unknown; u != nil {
			c.errs[i].msg += c.hint(u.table, u.name)
		}
	}
	return c.errs
}

type checker struct {
	path string
	top  *schema
	errs fileErrors
}

func (c *checker) fail(n *node, key, msg string) {
	c.errs = append(c.errs, fileError{path: c.path, line: n.line, col: n.col, key: key, msg: msg})
}

// walk checks the value n of the key whose parts are key against s.
func (c *checker) walk(n *node, s *schema, key []string) {
	dotted := dottedKey(key)
	if n.kind == kindNull { // decoded as if absent
		return
	}
	switch s.shape {
	case shapeTable, shapeMap:
		if n.kind != kindTable {
			c.fail(n, dotted, fmt.Sprintf("want a table, not %v", n.kind))
			return
		}
		for _, m := range n.members {
			k := append(key[:len(key):len(key)], m.name)
			if s.shape == shapeMap {
				c.walk(m.value, s.elem, k)
				continue
			}
			f, ok := s.fields[m.name]
			if !ok {
				c.fail(m.value, dottedKey(k), "unknown key")
				c.errs[len(c.errs)-1].unknown = &unknownKey{table: s, name: m.name}
				continue
			}
			c.walk(m.value, f, k)
		}
	case shapeList:
		switch n.kind {
		case kindList:
			if n.itemKind != kindNull {
				c.fail(n, dotted, fmt.Sprintf("want a list of strings, not of %v", n.itemKind))
			}
		case kindString, kindNumber, kindBool: // decoded as a list of one
		default:
			c.fail(n, dotted, fmt.Sprintf("want a list of strings, not %v", n.kind))
		}
	default:
		if msg := scalarProblem(n, s.shape); msg != "" {
			c.fail(n, dotted, msg)
		}
	}
}

func scalar(k kind) bool { return k == kindString || k == kindNumber || k == kindBool }

// scalarProblem says what is wrong with n as a value of shape, or "".
// What it accepts is what decoding accepts (a number for a string, "true"
// for a bool, ...), so no file that loaded before is refused for it.
func scalarProblem(n *node, sh shape) string {
	want := map[shape]string{
		shapeString: "a string", shapeBool: "true or false", shapeInt: "a whole number",
		shapeFloat: "a number", shapeDuration: "a duration such as 90s or a number of seconds",
	}[sh]
	bad := "want " + want + ", not " + n.kind.String()
	if n.kind == kindTime {
		bad += " (quote it to make it a string)"
	}
	switch n.kind {
	case kindString, kindNumber, kindBool:
	default:
		return bad
	}
	text := strings.TrimSpace(n.text)
	switch sh {
	case shapeBool:
		if n.kind == kindString && n.text != "" {
			if _, err := strconv.ParseBool(n.text); err != nil {
				return "want true or false"
			}
		}
	case shapeInt:
		switch n.kind {
		case kindString:
			if _, err := strconv.ParseInt(n.text, 0, 64); err != nil && n.text != "" {
				return "want a whole number"
			}
		case kindNumber:
			if _, err := strconv.ParseInt(text, 0, 64); err != nil {
				f, err := strconv.ParseFloat(text, 64)
				if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
					return "want a whole number"
				}
			}
		}
	case shapeFloat:
		if n.kind == kindString && n.text != "" {
			if _, err := strconv.ParseFloat(n.text, 64); err != nil {
				return "want a number"
			}
		}
	case shapeDuration:
		switch n.kind {
		case kindBool:
			return bad
		case kindString:
			if _, err := ParseSeconds(n.text); err != nil {
				return "want " + want
			}
		}
	}
	return ""
}

// hint suggests, for an unknown key name in the table s, the key that was
// probably meant: a known key of s close to it in spelling, else a table
// where a key of that name belongs. "" when there is none.
func (c *checker) hint(s *schema, name string) string {
	if k := closest(name, slices.Sorted(maps.Keys(s.fields))); k != "" {
		return " (did you mean " + k + "?)"
	}
	if _, ok := s.fields["disabled"]; ok && strings.EqualFold(name, "enabled") { // as OpenCode and Codex write it
		return " (did you mean disabled? it says the opposite)"
	}
	var elsewhere []string
	var find func(t *schema)
	find = func(t *schema) {
		switch t.shape {
		case shapeMap:
			find(t.elem)
		case shapeTable:
			if t != s {
				if _, ok := t.fields[name]; ok {
					elsewhere = append(elsewhere, t.where)
				}
			}
			for _, f := range t.fields {
				find(f)
			}
		}
	}
	find(c.top)
	if len(elsewhere) == 0 {
		return ""
	}
	slices.Sort(elsewhere)
	for i, w := range elsewhere {
		if w == "" {
			elsewhere[i] = "the top level"
		} else {
			elsewhere[i] = "[" + w + "]"
		}
	}
	return " (it belongs in " + strings.Join(elsewhere, " or ") + ")"
}

// closest is the one of known (sorted) nearest to name, if it is near
// enough to be a misspelling of it: the same but for case, '-' and '_', or
// within an edit distance of 1 for names up to 4 characters (for up to 3,
// only a letter left out), 2 up to 9, and 3 beyond. Ties go to the first
// in known.
func closest(name string, known []string) string {
	norm := func(s string) string { return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s)) }
	for _, k := range known {
		if norm(k) == norm(name) {
			return k
		}
	}
	n := len([]rune(name))
	limit := 3
	switch {
	case n <= 4:
		limit = 1
	case n <= 9:
		limit = 2
	}
	best, bestD := "", limit+1
	for _, k := range known {
		d := editDistance(strings.ToLower(name), k)
		if n <= 3 && len([]rune(k)) != n+1 {
			continue // a short name is only a key with a letter left out ("arg"), not any key a letter away ("cmd", "cwd")
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, each 1.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	if len(x) > 64 || len(y) > 64 { // far longer than any key
		return math.MaxInt / 2
	}
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// dottedKey joins the parts of a key with dots, quoting a part that is not
// a bare TOML key (a server named "io.example.remote").
func dottedKey(parts []string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		if bare(p) {
			out[i] = p
		} else {
			out[i] = strconv.Quote(p)
		}
	}
	return strings.Join(out, ".")
}

func bare(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// checkFile parses a config file of format ("toml", "yaml" or "json") and
// checks its keys and the kinds of its values.
func checkFile(path, format string, data []byte) error {
	root, err := readTree(path, format, data)
	if err != nil {
		return err
	}
	return checkTree(path, root)
}
