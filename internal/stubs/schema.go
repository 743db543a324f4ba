package stubs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Param is one argument of a tool, as the sandbox and the stub see it.
type Param struct {
	Name     string // MCP (JSON) property name
	Py       string // Python identifier for it (unique among the tool's params)
	Type     string // Python type hint, e.g. "str", "list[str]", "Literal['a', 'b']", "str | None", "Any"
	Required bool
	// Default is the schema's "default" as compact JSON, or nil if it has
	// none.
	Default     json.RawMessage
	Description string // as given by the schema, or ""
	Format      string // the schema's "format" ("date-time", "uri", ...), or ""
	// Shape spells out the structure that Type abbreviates as
	// dict[str, Any] when the schema lists the properties of an object
	// (also inside lists and unions), e.g. "list[{'oldText': str,
	// 'newText': str, 'note'?: str}]", where '?' marks an optional key. It
	// is "" when it would say nothing more than Type.
	Shape string
}

// Tool is one MCP tool rendered for Python.
type Tool struct {
	Name        string // MCP name
	Py          string // Python identifier, assigned by the caller (for example with a Namer)
	Description string
	// Params lists the required parameters first, in the order of the
	// schema's "required" array, and then the optional ones, in the order
	// their properties appear in the schema's JSON text. This is the order in
	// which positional arguments fill them.
	Params []Param
	// AllowsExtra reports whether the schema explicitly allows arguments it
	// does not list: "additionalProperties" is true or a schema, or
	// "patternProperties" is present.
	AllowsExtra bool
}

// Limits that keep hints finite and cheap on hostile or huge schemas.
const (
	maxHintDepth  = 12     // nesting of subschemas looked at for one hint
	maxShapeDepth = 3      // nesting of objects spelled out in a Shape
	maxShapeLen   = 400    // longest Shape kept, in bytes
	maxSteps      = 5000   // subschemas visited for one parameter
	maxTotalSteps = 500000 // subschemas visited by one FromSchema call
)

// FromSchema builds a Tool from an MCP tool's name, its Python identifier,
// its description and its raw inputSchema, exactly as the server sent it.
// An empty or null schema means the tool takes no parameters.
//
// FromSchema copes with the schemas real servers send: drafts 07 and
// 2020-12, local "$ref"s (to "#/definitions/X", "#/$defs/X" or any JSON
// pointer into the document, including recursive ones), "anyOf", "oneOf"
// and "allOf", "type" arrays, "enum", "const", "nullable", arrays with
// "items" or "prefixItems", nested objects and a missing "type". It is
// lenient: anything it does not understand becomes Any. A top-level "$ref"
// and the properties of top-level "allOf", "anyOf" and "oneOf" branches are
// followed to find the parameters.
//
// It returns an error, which names the tool, only if inputSchema is not valid
// JSON or its top level is not an object schema (not a JSON object, or one
// whose "type" excludes "object").
func FromSchema(name, py, description string, inputSchema json.RawMessage) (Tool, error) {
	t := Tool{Name: name, Py: py, Description: description}
	data := bytes.TrimSpace(inputSchema)
	if len(data) == 0 || string(data) == "null" {
		return t, nil
	}
	root, err := decodeJSON(data)
	if err != nil {
		return Tool{}, fmt.Errorf("stubs: tool %q: input schema: %w", name, err)
	}
	top, ok := root.(*object)
	if !ok {
		return Tool{}, fmt.Errorf("stubs: tool %q: input schema is a JSON %s, not an object schema", name, jsonKind(root))
	}
	c := &converter{root: root, active: make(map[string]bool)}
	top = c.follow(top)
	if typ, ok := top.get("type"); ok && !allowsObject(typ) {
		return Tool{}, fmt.Errorf("stubs: tool %q: input schema has type %s, not an object schema", name, appendJSON(nil, typ))
	}

	var ps propSet
	c.collect(top, &ps, true, 0)
	t.AllowsExtra = allowsExtra(top)

	// Required parameters: first in the order of the top-level "required"
	// array, then any others (required by an allOf branch) in property
	// order; then the optional ones in property order.
	var order []string
	seen := make(map[string]bool)
	if req, ok := top.arr("required"); ok {
		for _, r := range req {
			if s, ok := r.(string); ok && !seen[s] {
				seen[s] = true
				order = append(order, s)
			}
		}
	}
	for _, n := range ps.names {
		if ps.required[n] && !seen[n] {
			seen[n] = true
			order = append(order, n)
		}
	}
	nreq := len(order)
	for _, n := range ps.names {
		if !seen[n] {
			seen[n] = true
			order = append(order, n)
		}
	}

	var namer Namer
	t.Params = make([]Param, 0, len(order))
	for i, n := range order {
		c.steps = 0
		t.Params = append(t.Params, c.param(n, ps.schemas[n], i < nreq, &namer))
	}
	return t, nil
}

// param builds the Param for property n with schema s.
func (c *converter) param(n string, s any, required bool, namer *Namer) Param {
	p := Param{
		Name:     n,
		Py:       namer.Name(n),
		Type:     c.hint(s, 0, 0).String(),
		Required: required,
	}
	o, _ := s.(*object)
	if o == nil {
		return p
	}
	if d, ok := o.get("default"); ok {
		p.Default = appendJSON(nil, d)
	}
	p.Description, _ = o.str("description")
	p.Format, _ = o.str("format")
	if target := c.follow(o); target != o {
		if p.Description == "" {
			p.Description, _ = target.str("description")
		}
		if p.Format == "" {
			p.Format, _ = target.str("format")
		}
	}
	if p.Format == "" {
		p.Format = branchFormat(o)
	}
	for depth := maxShapeDepth; depth > 0; depth-- {
		shape := c.hint(s, 0, depth).String()
		if shape == p.Type {
			break
		}
		if len(shape) <= maxShapeLen {
			p.Shape = shape
			break
		}
	}
	return p
}

// branchFormat returns the "format" of the first anyOf or oneOf branch that
// has one, so that {"anyOf": [{"type": "string", "format": "uri"},
// {"type": "null"}]} still documents its format.
func branchFormat(o *object) string {
	for _, k := range [...]string{"anyOf", "oneOf"} {
		branches, _ := o.arr(k)
		for _, b := range branches {
			if bo, ok := b.(*object); ok {
				if f, ok := bo.str("format"); ok {
					return f
				}
			}
		}
	}
	return ""
}

// allowsObject reports whether a schema's "type" value admits objects.
// Values that are not a type name or a list of them are ignored.
func allowsObject(typ any) bool {
	switch typ := typ.(type) {
	case string:
		return typ == "object"
	case []any:
		for _, t := range typ {
			if t == "object" {
				return true
			}
		}
		return len(typ) == 0
	}
	return true
}

// allowsExtra reports whether object schema o explicitly allows properties
// that it does not list.
func allowsExtra(o *object) bool {
	if _, ok := o.get("patternProperties"); ok {
		return true
	}
	switch ap := o.vals["additionalProperties"].(type) {
	case bool:
		return ap
	case *object:
		return true
	}
	return false
}

// converter turns the subschemas of one document into Python type hints.
type converter struct {
	root   any
	active map[string]bool // $refs being expanded, to stop recursion
	steps  int             // subschemas visited for the current parameter
	total  int             // subschemas visited in all
}

// step counts a visit to a subschema and reports whether the budget allows
// it. Past the budget, everything is Any: hostile schemas can make the
// number of paths through their $refs exponential.
func (c *converter) step() bool {
	c.steps++
	c.total++
	return c.steps <= maxSteps && c.total <= maxTotalSteps
}

// resolve returns the subschema that a local "$ref" points to.
func (c *converter) resolve(ref string) (any, bool) {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false // Remote references are not fetched.
	}
	if p, err := url.PathUnescape(ptr); err == nil {
		ptr = p
	}
	if ptr == "" {
		return c.root, true
	}
	if ptr[0] != '/' {
		return nil, false // Anchors ("#foo") are not supported.
	}
	cur := c.root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case *object:
			next, ok := v.get(tok)
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, ok := arrayIndex(tok, len(v))
			if !ok {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// arrayIndex parses a JSON pointer token as an index into an array of n
// elements.
func arrayIndex(tok string, n int) (int, bool) {
	if tok == "" || len(tok) > 1 && tok[0] == '0' {
		return 0, false
	}
	i := 0
	for _, c := range []byte(tok) {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
		if i >= n {
			return 0, false
		}
	}
	return i, true
}

// follow returns the object schema that o refers to through a chain of
// "$ref"s, or o itself if it has no (resolvable, non-circular) "$ref".
func (c *converter) follow(o *object) *object {
	seen := map[*object]bool{o: true}
	for {
		ref, ok := o.str("$ref")
		if !ok {
			return o
		}
		target, ok := c.resolve(ref)
		next, isObj := target.(*object)
		if !ok || !isObj || seen[next] {
			return o
		}
		seen[next] = true
		o = next
	}
}

// propSet gathers the properties of an object schema.
type propSet struct {
	names    []string       // in order of first appearance
	schemas  map[string]any // first non-nil schema seen for each name
	required map[string]bool
}

func (ps *propSet) add(name string, s any) {
	if ps.schemas == nil {
		ps.schemas = make(map[string]any)
		ps.required = make(map[string]bool)
	}
	cur, ok := ps.schemas[name]
	if !ok {
		ps.names = append(ps.names, name)
	}
	if cur == nil {
		ps.schemas[name] = s
	}
}

// collect adds the properties of object schema o to ps, following "$ref"s
// and "allOf", "anyOf" and "oneOf" branches. If mandatory, the names o
// requires are marked required; names required by an allOf branch are too,
// and so are names required by every anyOf (or oneOf) branch.
func (c *converter) collect(o *object, ps *propSet, mandatory bool, depth int) {
	if !c.step() || depth > maxHintDepth {
		return
	}
	o = c.follow(o)
	if props, ok := o.obj("properties"); ok {
		for _, k := range props.keys {
			ps.add(k, props.vals[k])
		}
	}
	if mandatory {
		req, _ := o.arr("required")
		for _, r := range req {
			if s, ok := r.(string); ok {
				ps.add(s, nil) // Required but not described: Any.
				ps.required[s] = true
			}
		}
	}
	branches, _ := o.arr("allOf")
	for _, b := range branches {
		if bo, ok := b.(*object); ok {
			c.collect(bo, ps, mandatory, depth+1)
		}
	}
	for _, k := range [...]string{"anyOf", "oneOf"} {
		branches, _ := o.arr(k)
		var common map[string]bool // required by every branch so far
		for i, b := range branches {
			bo, ok := b.(*object)
			if !ok {
				common = nil
				continue
			}
			var sub propSet
			c.collect(bo, &sub, true, depth+1)
			for _, n := range sub.names {
				ps.add(n, sub.schemas[n])
			}
			if i == 0 {
				common = sub.required
			} else {
				for n := range common {
					if !sub.required[n] {
						delete(common, n)
					}
				}
			}
		}
		if mandatory {
			for n := range common {
				ps.required[n] = true
			}
		}
	}
}

// hint returns the Python type hint for schema s. At shape > 0, objects
// that list their properties are spelled out, to that depth, as
// {'key': T, 'optional'?: T} instead of dict[str, Any].
func (c *converter) hint(s any, depth, shape int) union {
	o, ok := s.(*object)
	if !c.step() || !ok || depth > maxHintDepth {
		return anyType() // true, false, a missing schema or too deep
	}
	u := c.hintNoNull(o, depth, shape)
	if nullable, _ := o.vals["nullable"].(bool); nullable {
		u.none = true
	}
	return u
}

func (c *converter) hintNoNull(o *object, depth, shape int) union {
	if ref, ok := o.str("$ref"); ok {
		target, ok := c.resolve(ref)
		if !ok {
			return anyType()
		}
		if c.active[ref] {
			if shape > 0 {
				// A recursive structure: give the inner level as a
				// plain hint.
				return c.hint(target, depth+1, 0)
			}
			return anyType()
		}
		c.active[ref] = true
		defer delete(c.active, ref)
		return c.hint(target, depth+1, shape)
	}
	if values, ok := o.arr("enum"); ok {
		var u union
		for _, v := range values {
			u.addValue(v)
		}
		return u
	}
	if v, ok := o.get("const"); ok {
		var u union
		u.addValue(v)
		return u
	}
	for _, k := range [...]string{"anyOf", "oneOf"} {
		branches, ok := o.arr(k)
		if !ok || len(branches) == 0 {
			continue
		}
		var u union
		for _, b := range branches {
			u.add(c.hint(b, depth+1, shape))
		}
		if !u.any {
			return u
		}
		// Branches that only add constraints ({"required": [...]}) say
		// nothing about the type; let "type" speak if it is there.
		if _, ok := o.get("type"); !ok {
			return u
		}
	}
	if branches, ok := o.arr("allOf"); ok && len(branches) > 0 {
		var found []union
		for _, b := range branches {
			if h := c.hint(b, depth+1, shape); !h.any && !slices.ContainsFunc(found, h.equal) {
				found = append(found, h)
			}
		}
		if len(found) == 1 {
			return found[0]
		}
		if _, ok := o.get("type"); !ok {
			return anyType()
		}
	}
	switch typ := o.vals["type"].(type) {
	case string:
		return c.typeHint(o, typ, depth, shape)
	case []any:
		var u union
		for _, t := range typ {
			if ts, ok := t.(string); ok {
				u.add(c.typeHint(o, ts, depth, shape))
			} else {
				u.add(anyType())
			}
		}
		if len(typ) == 0 {
			return anyType()
		}
		return u
	}
	// No usable "type": guess from the keywords that are there.
	for _, k := range [...]string{"properties", "additionalProperties", "patternProperties"} {
		if _, ok := o.get(k); ok {
			return c.typeHint(o, "object", depth, shape)
		}
	}
	for _, k := range [...]string{"items", "prefixItems"} {
		if _, ok := o.get(k); ok {
			return c.typeHint(o, "array", depth, shape)
		}
	}
	return anyType()
}

// typeHint returns the hint for o read as a schema of JSON type typ.
func (c *converter) typeHint(o *object, typ string, depth, shape int) union {
	switch typ {
	case "string":
		return single("str")
	case "integer":
		return single("int")
	case "number":
		return single("float")
	case "boolean":
		return single("bool")
	case "null":
		return union{none: true}
	case "array":
		var items union
		prefix, hasPrefix := o.arr("prefixItems")
		for _, p := range prefix {
			items.add(c.hint(p, depth+1, shape))
		}
		switch it := o.vals["items"].(type) {
		case []any: // draft 07 tuple
			for _, p := range it {
				items.add(c.hint(p, depth+1, shape))
			}
			if len(it) == 0 {
				items.add(anyType())
			}
		case *object:
			items.add(c.hint(it, depth+1, shape))
		case bool:
			if it || !hasPrefix {
				items.add(anyType())
			}
		default:
			items.add(anyType())
		}
		if items.empty() {
			items.add(anyType())
		}
		return single("list[" + items.String() + "]")
	case "object":
		if shape > 0 {
			if s, ok := c.shapeOf(o, depth, shape); ok {
				return single(s)
			}
		}
		props, _ := o.obj("properties")
		if ap, ok := o.obj("additionalProperties"); ok && (props == nil || len(props.keys) == 0) {
			return single("dict[str, " + c.hint(ap, depth+1, shape).String() + "]")
		}
		return single("dict[str, Any]")
	}
	return anyType()
}

// shapeOf spells out object schema o as {'key': T, 'optional'?: T}, if it
// lists any properties.
func (c *converter) shapeOf(o *object, depth, shape int) (string, bool) {
	var ps propSet
	c.collect(o, &ps, true, depth+1)
	if len(ps.names) == 0 {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range ps.names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pyRepr(n))
		if !ps.required[n] {
			b.WriteByte('?')
		}
		b.WriteString(": ")
		b.WriteString(c.hint(ps.schemas[n], depth+1, shape-1).String())
	}
	if allowsExtra(o) {
		b.WriteString(", ...")
	}
	b.WriteByte('}')
	return b.String(), true
}

// union is a Python type hint: a union of alternatives.
type union struct {
	any   bool            // Any: absorbs everything else
	none  bool            // includes None (always written last)
	types []string        // alternatives in order; litMark is where Literal[...] goes
	lits  []string        // the Python literals of the Literal[...] alternative
	seen  map[string]bool // the types and (prefixed with litMark) lits
}

// litMark stands in types for the Literal[...] alternative.
const litMark = "\x00Literal"

func anyType() union        { return union{any: true} }
func single(t string) union { return union{types: []string{t}} }

func (u *union) empty() bool { return !u.any && !u.none && len(u.types) == 0 }

// mark records key as present in u and reports whether it is new.
func (u *union) mark(key string) bool {
	if u.seen == nil {
		u.seen = make(map[string]bool)
	}
	if u.seen[key] {
		return false
	}
	u.seen[key] = true
	return true
}

func (u *union) addType(t string) {
	if u.mark(t) {
		u.types = append(u.types, t)
	}
}

func (u *union) addLiteral(lit string) {
	u.addType(litMark)
	if u.mark(litMark + lit) {
		u.lits = append(u.lits, lit)
	}
}

// add merges v into u. Unions share their seen maps when copied, so only
// the union being built may be added to.
func (u *union) add(v union) {
	u.any = u.any || v.any
	u.none = u.none || v.none
	for _, t := range v.types {
		if t == litMark {
			for _, l := range v.lits {
				u.addLiteral(l)
			}
		} else {
			u.addType(t)
		}
	}
}

// addValue adds the JSON value v (from an enum or const) as a Literal, or,
// for values Literal cannot hold, as the type of v.
func (u *union) addValue(v any) {
	switch v := v.(type) {
	case nil:
		u.none = true
	case bool:
		u.addLiteral(pyBool(v))
	case string:
		u.addLiteral(pyRepr(v))
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			u.addType("float")
		} else {
			u.addLiteral(string(v))
		}
	case []any:
		u.addType("list[Any]")
	default:
		u.addType("dict[str, Any]")
	}
}

func (u union) equal(v union) bool {
	return u.any == v.any && u.none == v.none && slices.Equal(u.types, v.types) && slices.Equal(u.lits, v.lits)
}

// String renders u as Python, e.g. "Literal['a', 'b'] | None".
func (u union) String() string {
	if u.any {
		return "Any"
	}
	parts := make([]string, 0, len(u.types)+1)
	for _, t := range u.types {
		if t == litMark {
			t = "Literal[" + strings.Join(u.lits, ", ") + "]"
		}
		parts = append(parts, t)
	}
	if u.none {
		parts = append(parts, "None")
	}
	if len(parts) == 0 {
		return "Any" // An empty anyOf, for instance.
	}
	return strings.Join(parts, " | ")
}
