package stubs

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestIdentifier(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		// Already valid names are unchanged.
		{"get_weather", "get_weather"},
		{"getWeather", "getWeather"},
		{"_private", "_private"},
		{"x1", "x1"},
		{"match", "match"}, // soft keywords are fine
		{"case", "case"},
		{"_", "_"},
		{"self", "self"},
		// One '_' per replaced rune.
		{"get-weather", "get_weather"},
		{"a.b c", "a_b_c"},
		{"a--b", "a__b"},
		{"a/b:c@d", "a_b_c_d"},
		{"café", "caf_"},
		{"日本", "___"}, // "__" is a dunder
		{"emoji😀", "emoji_"},
		{"tab\tname", "tab_name"},
		{"bad\xffutf8", "bad_utf8"},
		// Leading digits and the empty name.
		{"2fa", "_2fa"},
		{"0", "_0"},
		{"3-d", "_3_d"},
		{"", "_"},
		// Keywords.
		{"class", "class_"},
		{"from", "from_"},
		{"None", "None_"},
		{"True", "True_"},
		{"async", "async_"},
		{"await", "await_"},
		{"lambda", "lambda_"},
		{"Class", "Class"},
		// Builtins.
		{"print", "print_"},
		{"type", "type_"},
		{"id", "id_"},
		{"list", "list_"},
		{"open", "open_"},
		{"anext", "anext_"},
		{"ValueError", "ValueError_"},
		{"ExceptionGroup", "ExceptionGroup_"},
		{"Ellipsis", "Ellipsis_"},
		{"NotImplemented", "NotImplemented_"},
		{"copyright", "copyright_"},
		{"Print", "Print"},
		// Dunders.
		{"__builtins__", "__builtins___"},
		{"__init__", "__init___"},
		{"__", "___"},
		{"__x", "__x"},
		{"x__", "x__"},
		{"--init--", "__init___"},
		// Rewriting can produce a reserved name.
		{"cl\u00e1ss", "cl_ss"},
		{"print ", "print_"},
	}
	for _, tt := range tests {
		if got := Identifier(tt.in); got != tt.want {
			t.Errorf("Identifier(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIdentifierIsValid(t *testing.T) {
	for _, name := range []string{"", "1", "__", "a b", "for", "str", "ü", "\x00", "__dict__"} {
		id := Identifier(name)
		if !validIdentifier(id) || pythonBuiltins[id] {
			t.Errorf("Identifier(%q) = %q, not a usable identifier", name, id)
		}
	}
}

func TestNamer(t *testing.T) {
	tests := []struct {
		name    string
		reserve []string
		in      []string
		want    []string
	}{
		{
			name: "collision",
			in:   []string{"get-weather", "get_weather"},
			want: []string{"get_weather", "get_weather_2"},
		},
		{
			name: "many collisions",
			in:   []string{"a.b", "a-b", "a b", "a_b"},
			want: []string{"a_b", "a_b_2", "a_b_3", "a_b_4"},
		},
		{
			name: "suffix already taken",
			in:   []string{"x", "x_2", "x"},
			want: []string{"x", "x_2", "x_3"},
		},
		{
			name: "suffixed name asked for later",
			in:   []string{"x", "x", "x_2"},
			want: []string{"x", "x_2", "x_2_2"},
		},
		{
			name: "keywords",
			in:   []string{"class", "class_", "class"},
			want: []string{"class_", "class__2", "class__3"},
		},
		{
			name:    "reserved",
			reserve: []string{"Any", "Literal", "foo"},
			in:      []string{"Any", "foo", "Literal", "bar"},
			want:    []string{"Any_2", "foo_2", "Literal_2", "bar"},
		},
		{
			name: "empty names",
			in:   []string{"", "", "_"},
			want: []string{"_", "__2", "__3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for run := range 2 { // The same input order gives the same output.
				var n Namer
				n.Reserve(tt.reserve...)
				var got []string
				for _, in := range tt.in {
					got = append(got, n.Name(in))
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("run %d: names = %q, want %q", run, got, tt.want)
				}
				for _, id := range append(got, tt.reserve...) {
					if !n.Taken(id) {
						t.Errorf("Taken(%q) = false after it was handed out", id)
					}
				}
			}
		})
	}
}

func TestModule(t *testing.T) {
	var n Namer
	if got := Module(n.Name("git-hub")); got != "mcp_git_hub" {
		t.Errorf("Module = %q, want mcp_git_hub", got)
	}
}

func TestFromSchema(t *testing.T) {
	type param struct {
		Name, Py, Type string
		Required       bool
		Default        string
	}
	tests := []struct {
		name   string
		schema string
		want   []param
		extra  bool
	}{
		{name: "nil schema", schema: ""},
		{name: "null schema", schema: " null "},
		{name: "empty object", schema: `{}`},
		{name: "no properties", schema: `{"type": "object"}`},
		{name: "type list", schema: `{"type": ["object", "null"], "properties": {"a": {"type": "string"}}}`,
			want: []param{{"a", "a", "str", false, ""}}},
		{
			name:   "scalars",
			schema: `{"type":"object","properties":{"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},"z":{"type":"null"},"u":{"type":"mystery"}}}`,
			want: []param{
				{"s", "s", "str", false, ""},
				{"i", "i", "int", false, ""},
				{"n", "n", "float", false, ""},
				{"b", "b", "bool", false, ""},
				{"z", "z", "None", false, ""},
				{"u", "u", "Any", false, ""},
			},
		},
		{
			name:   "property order is the JSON order",
			schema: `{"properties":{"zeta":{},"alpha":{},"mid":{},"beta":{}}}`,
			want: []param{
				{"zeta", "zeta", "Any", false, ""},
				{"alpha", "alpha", "Any", false, ""},
				{"mid", "mid", "Any", false, ""},
				{"beta", "beta", "Any", false, ""},
			},
		},
		{
			name:   "required first in required order",
			schema: `{"properties":{"a":{},"b":{},"c":{},"d":{}},"required":["c","a","c",5]}`,
			want: []param{
				{"c", "c", "Any", true, ""},
				{"a", "a", "Any", true, ""},
				{"b", "b", "Any", false, ""},
				{"d", "d", "Any", false, ""},
			},
		},
		{
			name:   "required but not described",
			schema: `{"properties":{"a":{"type":"string"}},"required":["ghost","a"]}`,
			want: []param{
				{"ghost", "ghost", "Any", true, ""},
				{"a", "a", "str", true, ""},
			},
		},
		{
			name:   "unions",
			schema: `{"properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"oneOf":[{"type":"null"},{"type":"integer"},{"type":"string"}]},"c":{"type":["string","null"]},"d":{"anyOf":[{"type":"string"},{}]},"e":{"anyOf":[]},"f":{"type":"string","nullable":true}}}`,
			want: []param{
				{"a", "a", "str | None", false, ""},
				{"b", "b", "int | str | None", false, ""},
				{"c", "c", "str | None", false, ""},
				{"d", "d", "Any", false, ""},
				{"e", "e", "Any", false, ""},
				{"f", "f", "str | None", false, ""},
			},
		},
		{
			name:   "enum and const",
			schema: `{"properties":{"a":{"type":"string","enum":["x","y"]},"b":{"enum":["it's",1,true,null]},"c":{"const":"only"},"d":{"anyOf":[{"const":"p"},{"const":"q"},{"type":"null"}]},"e":{"enum":[1.5,2]},"f":{"enum":[[1],{"a":1}]}}}`,
			want: []param{
				{"a", "a", "Literal['x', 'y']", false, ""},
				{"b", "b", `Literal["it's", 1, True] | None`, false, ""},
				{"c", "c", "Literal['only']", false, ""},
				{"d", "d", "Literal['p', 'q'] | None", false, ""},
				{"e", "e", "float | Literal[2]", false, ""},
				{"f", "f", "list[Any] | dict[str, Any]", false, ""},
			},
		},
		{
			name:   "arrays",
			schema: `{"properties":{"a":{"type":"array","items":{"type":"string"}},"b":{"type":"array"},"c":{"type":"array","items":{"type":"array","items":{"type":"integer"}}},"d":{"items":{"type":"boolean"}},"e":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]},"f":{"type":"array","items":[]},"g":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}}}`,
			want: []param{
				{"a", "a", "list[str]", false, ""},
				{"b", "b", "list[Any]", false, ""},
				{"c", "c", "list[list[int]]", false, ""},
				{"d", "d", "list[bool]", false, ""},
				{"e", "e", "list[Any]", false, ""}, // no "items": more of anything
				{"f", "f", "list[Any]", false, ""},
				{"g", "g", "list[str | int]", false, ""},
			},
		},
		{
			name:   "objects",
			schema: `{"properties":{"a":{"type":"object"},"b":{"type":"object","additionalProperties":{"type":"number"}},"c":{"type":"object","properties":{"x":{}},"additionalProperties":{"type":"number"}},"d":{"properties":{"x":{}}},"e":{"additionalProperties":{"type":"array","items":{"type":"string"}}},"f":{"type":"object","additionalProperties":{}}}}`,
			want: []param{
				{"a", "a", "dict[str, Any]", false, ""},
				{"b", "b", "dict[str, float]", false, ""},
				{"c", "c", "dict[str, Any]", false, ""},
				{"d", "d", "dict[str, Any]", false, ""},
				{"e", "e", "dict[str, list[str]]", false, ""},
				{"f", "f", "dict[str, Any]", false, ""},
			},
		},
		{
			name:   "refs",
			schema: `{"definitions":{"S":{"type":"string"},"a/b":{"type":"integer"},"L":{"$ref":"#/definitions/S"}},"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}},"Loop":{"$ref":"#/$defs/Loop"}},"properties":{"a":{"$ref":"#/definitions/S"},"b":{"$ref":"#/definitions/a~1b"},"c":{"$ref":"#/definitions/L"},"d":{"$ref":"#/$defs/N"},"e":{"$ref":"#/$defs/Loop"},"f":{"$ref":"#/nowhere"},"g":{"$ref":"#"},"h":{"$ref":"#/properties/a"},"i":{"$ref":"#/definitions/S","nullable":true},"j":{"$ref":"other.json#/x"}}}`,
			want: []param{
				{"a", "a", "str", false, ""},
				{"b", "b", "int", false, ""},
				{"c", "c", "str", false, ""},
				{"d", "d", "dict[str, Any]", false, ""},
				{"e", "e", "Any", false, ""},
				{"f", "f", "Any", false, ""},
				{"g", "g", "dict[str, Any]", false, ""},
				{"h", "h", "str", false, ""},
				{"i", "i", "str | None", false, ""},
				{"j", "j", "Any", false, ""},
			},
		},
		{
			name:   "allOf",
			schema: `{"$defs":{"S":{"type":"string"}},"properties":{"a":{"allOf":[{"$ref":"#/$defs/S"}],"description":"d"},"b":{"allOf":[{"type":"string"},{"minLength":1}]},"c":{"allOf":[{"type":"string"},{"type":"integer"}]}}}`,
			want: []param{
				{"a", "a", "str", false, ""},
				{"b", "b", "str", false, ""},
				{"c", "c", "Any", false, ""},
			},
		},
		{
			name:   "anyOf of constraints keeps the type",
			schema: `{"properties":{"a":{"type":"object","anyOf":[{"required":["x"]},{"required":["y"]}]}}}`,
			want:   []param{{"a", "a", "dict[str, Any]", false, ""}},
		},
		{
			name:   "defaults",
			schema: `{"properties":{"a":{"type":"integer","default":5},"b":{"type":"string","default":"x\u003c"},"c":{"default":null},"d":{"default":{"k":[1, "v"]}}},"required":["a"]}`,
			want: []param{
				{"a", "a", "int", true, "5"},
				{"b", "b", "str", false, `"x<"`},
				{"c", "c", "Any", false, "null"},
				{"d", "d", "Any", false, `{"k":[1,"v"]}`},
			},
		},
		{
			name:   "top-level ref",
			schema: `{"$ref":"#/definitions/T","definitions":{"T":{"type":"object","properties":{"x":{"$ref":"#/definitions/U"}},"required":["x"],"additionalProperties":{}},"U":{"type":"integer"}}}`,
			want:   []param{{"x", "x", "int", true, ""}},
			extra:  true,
		},
		{
			name:   "top-level allOf and anyOf",
			schema: `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}},"required":["a"]}],"anyOf":[{"properties":{"b":{"type":"integer"},"c":{}},"required":["b","c"]},{"properties":{"c":{"type":"string"}},"required":["c"]}]}`,
			want: []param{
				{"a", "a", "str", true, ""},
				{"c", "c", "Any", true, ""},
				{"b", "b", "int", false, ""},
			},
		},
		{
			name:   "python names",
			schema: `{"properties":{"from":{},"a-b":{},"a_b":{},"class":{}}}`,
			want: []param{
				{"from", "from_", "Any", false, ""},
				{"a-b", "a_b", "Any", false, ""},
				{"a_b", "a_b_2", "Any", false, ""},
				{"class", "class_", "Any", false, ""},
			},
		},
		{name: "additionalProperties true", schema: `{"properties":{},"additionalProperties":true}`, extra: true},
		{name: "additionalProperties false", schema: `{"additionalProperties":false}`},
		{name: "patternProperties", schema: `{"patternProperties":{"^x":{}}}`, extra: true},
		{
			name:   "garbage is Any",
			schema: `{"properties":{"a":5,"b":{"type":7},"c":{"type":[]},"d":{"anyOf":"x"},"e":{"items":5},"f":{"$ref":5}},"required":"a"}`,
			want: []param{
				{"a", "a", "Any", false, ""},
				{"b", "b", "Any", false, ""},
				{"c", "c", "Any", false, ""},
				{"d", "d", "Any", false, ""},
				{"e", "e", "list[Any]", false, ""},
				{"f", "f", "Any", false, ""},
			},
		},
		{
			name:   "duplicate keys: last value, first position",
			schema: `{"properties":{"a":{"type":"string"},"b":{},"a":{"type":"integer"}}}`,
			want: []param{
				{"a", "a", "int", false, ""},
				{"b", "b", "Any", false, ""},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, err := FromSchema("t", "t", "desc", json.RawMessage(tt.schema))
			if err != nil {
				t.Fatalf("FromSchema: %v", err)
			}
			var got []param
			for _, p := range tool.Params {
				got = append(got, param{p.Name, p.Py, p.Type, p.Required, string(p.Default)})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("params:\n got %+v\nwant %+v", got, tt.want)
			}
			if tool.AllowsExtra != tt.extra {
				t.Errorf("AllowsExtra = %v, want %v", tool.AllowsExtra, tt.extra)
			}
			if tool.Name != "t" || tool.Py != "t" || tool.Description != "desc" {
				t.Errorf("tool = %q, %q, %q; want t, t, desc", tool.Name, tool.Py, tool.Description)
			}
		})
	}
}

func TestFromSchemaDetails(t *testing.T) {
	tool := loadTool(t, "testdata/pydantic_fastmcp.json")
	want := map[string]Param{
		"legacy_options": {
			Name: "legacy_options", Py: "legacy_options", Type: "dict[str, Any]",
			Description: "Old-style options",
			Shape:       "{'timeout'?: int, 'explain'?: bool}",
		},
		"options": {
			Name: "options", Py: "options", Type: "dict[str, Any] | None",
			Default: json.RawMessage("null"),
			Shape:   "{'timeout'?: int, 'explain'?: bool} | None",
		},
		"format": {
			Name: "format", Py: "format_", Type: "Literal['json', 'csv']",
			Default: json.RawMessage(`"json"`),
		},
	}
	for _, p := range tool.Params {
		if w, ok := want[p.Name]; ok {
			if !reflect.DeepEqual(p, w) {
				t.Errorf("param %s:\n got %#v\nwant %#v", p.Name, p, w)
			}
			delete(want, p.Name)
		}
	}
	for n := range want {
		t.Errorf("no param %s", n)
	}

	tool = loadTool(t, "testdata/zod_search_issues.json")
	for _, p := range tool.Params {
		if p.Name == "since" && p.Format != "date-time" {
			t.Errorf("since: Format = %q, want date-time", p.Format)
		}
	}
}

func TestFromSchemaErrors(t *testing.T) {
	tests := []struct {
		schema string
		syntax bool // a *json.SyntaxError is in the chain
	}{
		{`{`, true},
		{`{"type": "object",}`, true},
		{`{"a" 1}`, true},
		{`{} {}`, true},
		{`nul`, true},
		{`[]`, false},
		{`"object"`, false},
		{`true`, false},
		{`42`, false},
		{`{"type": "string"}`, false},
		{`{"type": ["string", "null"]}`, false},
		{`{"$ref": "#/definitions/S", "definitions": {"S": {"type": "array"}}}`, false},
	}
	for _, tt := range tests {
		_, err := FromSchema("my-tool", "my_tool", "", json.RawMessage(tt.schema))
		if err == nil {
			t.Errorf("FromSchema(%s) succeeded, want an error", tt.schema)
			continue
		}
		if !strings.Contains(err.Error(), `"my-tool"`) {
			t.Errorf("FromSchema(%s) error %q does not name the tool", tt.schema, err)
		}
		var se *json.SyntaxError
		if got := errors.As(err, &se); got != tt.syntax {
			t.Errorf("FromSchema(%s) error %q: errors.As(*json.SyntaxError) = %v, want %v", tt.schema, err, got, tt.syntax)
		}
	}
}

// TestFromSchemaHostile checks that schemas with exponentially many paths
// through their $refs, or very deep ones, are handled quickly.
func TestFromSchemaHostile(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := range 40 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"D%d":{"type":"object","properties":{"x":{"anyOf":[{"$ref":"#/$defs/D%d"},{"$ref":"#/$defs/D%d"}]},"y":{"allOf":[{"$ref":"#/$defs/D%d"},{"$ref":"#/$defs/D%d"}]}}}`, i, i+1, i+1, i+1, i+1)
	}
	b.WriteString(`},"properties":{`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"$ref":"#/$defs/D0"}`, i)
	}
	b.WriteString(`}}`)
	deep := `{"properties":{"a":` + strings.Repeat(`{"properties":{"a":`, 4000) + "{}" + strings.Repeat("}}", 4000) + `}}`
	for _, schema := range []string{b.String(), deep} {
		tool, err := FromSchema("x", "x", "", json.RawMessage(schema))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(tool.Stub(), "async def x(") {
			t.Errorf("bad stub:\n%s", tool.Stub())
		}
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		desc, want string
	}{
		{"", ""},
		{"   \n\n ", ""},
		{"Create a new issue in a repository.", "Create a new issue in a repository."},
		{"Create an issue. Then assign it.", "Create an issue."},
		{"Does a thing!  Really.", "Does a thing!"},
		{"Is it done? Maybe.", "Is it done?"},
		{"No period at all", "No period at all"},
		{"First line\nsecond line", "First line"},
		{"First line\n\nSecond paragraph. More.", "First line"},
		{"First line continues\non the next. Then more.", "First line continues on the next."},
		{"Options:\n- a. b\n- c", "Options:"},
		{"Steps\n1. Do this.\n2. Then that.", "Steps"},
		{"Version 3.5 of example.com is used. Other.", "Version 3.5 of example.com is used."},
		{"Uses flags, e.g. -v or -q. Other.", "Uses flags, e.g. -v or -q."},
		{"\n    Indented docstring.\n\n    More text.\n    ", "Indented docstring."},
		{"日本語の説明。次の文。", "日本語の説明。"},
		{strings.Repeat("word ", 40), strings.TrimSpace(strings.Repeat("word ", 23)) + " word…"},
		{strings.Repeat("x", 200), strings.Repeat("x", 119) + "…"},
		// A hostile server's escapes, bell and bidirectional override.
		{"Add \x1b]0;pwned\a\x1b[2Jnumbers\u202e. Then more.", "Add ]0;pwned [2Jnumbers ."},
	}
	for _, tt := range tests {
		got := Tool{Description: tt.desc}.Summary()
		if got != tt.want {
			t.Errorf("Summary(%q) = %q, want %q", tt.desc, got, tt.want)
		}
		if n := utf8.RuneCountInString(got); n > maxSummary {
			t.Errorf("Summary(%q) has %d runes, more than %d", tt.desc, n, maxSummary)
		}
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		s     string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"hello world again", 12, "hello world…"},
		{"hello world again", 11, "hello…"},
		{"abcdefghijklmnop", 8, "abcdefg…"},
		{"ab cdefghijklmnop", 8, "ab cdef…"},
		{"ünïcödé ünïcödé", 9, "ünïcödé…"},
	}
	for _, tt := range tests {
		if got := truncate(tt.s, tt.limit); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.s, tt.limit, got, tt.want)
		}
	}
}

func TestCleanDoc(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"one", "one"},
		{"  one  \n    two\n      three\n", "one\ntwo\n  three"},
		{"\n\n  a\n\n\n\n  b\n\n", "a\n\nb"},
		{"a\r\nb\rc\u2028d", "a\nb\nc\nd"},
		{"a\u00a0b", "a b"},
	}
	for _, tt := range tests {
		if got := cleanDoc(tt.in); got != tt.want {
			t.Errorf("cleanDoc(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStub(t *testing.T) {
	tests := []struct {
		name string
		tool Tool
		want string
	}{
		{
			name: "no params no description",
			tool: Tool{Name: "ping", Py: "ping"},
			want: "async def ping() -> Any:\n    ...\n",
		},
		{
			name: "one-line docstring",
			tool: Tool{Name: "ping", Py: "ping", Description: `Say "pong"`},
			want: "async def ping() -> Any:\n    \"\"\"Say \"pong\\\"\"\"\"\n",
		},
		{
			name: "defaults and None",
			tool: Tool{Name: "f", Py: "f", Params: []Param{
				{Name: "a", Py: "a", Type: "str", Required: true},
				{Name: "b", Py: "b", Type: "int", Default: json.RawMessage("5")},
				{Name: "c", Py: "c", Type: "bool", Default: json.RawMessage("true")},
				{Name: "d", Py: "d", Type: "str", Default: json.RawMessage(`"it's"`)},
				{Name: "e", Py: "e", Type: "str"},
				{Name: "g", Py: "g", Type: "str | None"},
				{Name: "h", Py: "h", Type: "Any"},
				{Name: "i", Py: "i", Type: "list[str]", Default: json.RawMessage("[]")},
				{Name: "j", Py: "j", Type: "str", Default: json.RawMessage("null")},
			}},
			want: "async def f(\n" +
				"    a: str,\n" +
				"    b: int = 5,\n" +
				"    c: bool = True,\n" +
				"    d: str = \"it's\",\n" +
				"    e: str | None = None,\n" +
				"    g: str | None = None,\n" +
				"    h: Any = None,\n" +
				"    i: list[str] | None = None,\n" +
				"    j: str | None = None,\n" +
				") -> Any:\n" +
				"    \"\"\"Args:\n" +
				"        i: Default: [].\n" +
				"    \"\"\"\n",
		},
		{
			name: "bad and duplicate names are repaired",
			tool: Tool{Name: "my tool", Py: "", AllowsExtra: true, Params: []Param{
				{Name: "x", Py: "x", Type: "int", Required: true},
				{Name: "x2", Py: "x", Type: "int", Required: true},
				{Name: "class", Py: "class", Required: true},
				{Name: "kwargs", Py: "kwargs", Type: "str", Required: true},
			}},
			want: "async def my_tool(x: int, x_2: int, class_: Any, kwargs: str, **kwargs_2: Any) -> Any:\n" +
				"    \"\"\"Args:\n" +
				"        x_2 (JSON name \"x2\"):\n" +
				"        class_ (JSON name \"class\"):\n" +
				"        **kwargs_2: Further arguments, passed on under their own names (the schema allows names it does not list).\n" +
				"    \"\"\"\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tool.Stub(); got != tt.want {
				t.Errorf("Stub() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// fixture is a tool as an MCP server lists it.
type fixture struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func loadTool(t testing.TB, path string) Tool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tool, err := FromSchema(f.Name, Identifier(f.Name), f.Description, f.InputSchema)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return tool
}

func fixtures(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata")
	}
	return paths
}

// TestGolden compares the stubs of the fixtures in testdata/*.json with
// testdata/*.golden. Run go test -update to rewrite the golden files.
func TestGolden(t *testing.T) {
	for _, path := range fixtures(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			got := loadTool(t, path).Stub()
			golden := strings.TrimSuffix(path, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Stub() differs from %s (run go test -update to accept):\n%s", golden, got)
			}
		})
	}
}

// pythonTools returns the tools whose stubs are checked with Python: the
// fixtures and some hostile ones.
func pythonTools(t *testing.T) []Tool {
	var tools []Tool
	for _, path := range fixtures(t) {
		tools = append(tools, loadTool(t, path))
	}
	var all strings.Builder
	for r := rune(0); r < 0x200; r++ {
		all.WriteRune(r)
	}
	all.WriteString("\u2028\u2029\u202e\ufeff\U0001F600\ufffd\xff")
	hostile := []string{
		all.String(),
		`"""`, `""""`, `"`, `""`, `\`, `\\`, `\"`, `"\`, `\"""`, `'''`, `"""'''"""`,
		"a\\", "x\"\"\"\"\"\"\"y", "\\N{DASH}", "\\u12", "\x00", "\r", "\n\n\n", "\t",
		strings.Repeat(`"`, 7), strings.Repeat(`\`, 7),
	}
	for i, s := range hostile {
		schema, err := json.Marshal(map[string]any{
			"type": "object",
			"properties": map[string]any{
				s:   map[string]any{"description": s, "default": s, "format": s},
				"e": map[string]any{"enum": []any{s, i}},
				"o": map[string]any{"type": "object", "properties": map[string]any{s: map[string]any{"const": s}}},
			},
			"additionalProperties": true,
		})
		if err != nil {
			t.Fatal(err)
		}
		tool, err := FromSchema(s, Identifier(s), s, schema)
		if err != nil {
			t.Fatalf("FromSchema(%q): %v", s, err)
		}
		tools = append(tools, tool)
		tools = append(tools, Tool{Name: "t", Py: "t", Description: s})
		tools = append(tools, Tool{Name: "t", Py: "t", Description: s + "\nsecond line " + s})
	}
	return tools
}

func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		testenv.SkipOrFail(t, "python3 not found: %v", err)
	}
	return py
}

// TestStubsParse checks that every stub is syntactically valid Python.
func TestStubsParse(t *testing.T) {
	py := python(t)
	for i, tool := range pythonTools(t) {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			stub := tool.Stub()
			cmd := exec.Command(py, "-c", "import ast,sys; ast.parse(sys.stdin.read())")
			cmd.Stdin = strings.NewReader(stub)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("stub of %q is not valid Python: %v\n%s\n%s", tool.Name, err, out, stub)
			}
		})
	}
}

// checkScript runs each stub after Preamble and checks that it defines a
// coroutine function with the expected parameters and docstring.
const checkScript = `
import inspect, json, sys
if sys.version_info < (3, 10):
    print("SKIP: Python", sys.version.split()[0], "has no X | Y types")
    sys.exit(0)
preamble = sys.argv[1]
failed = 0
for case in json.load(sys.stdin):
    ns = {}
    try:
        exec(preamble + case["stub"], ns)
        fn = ns[case["py"]]
        assert inspect.iscoroutinefunction(fn), "not a coroutine function"
        names = list(inspect.signature(fn).parameters)
        assert names == case["params"], "parameters %r != %r" % (names, case["params"])
        doc = fn.__doc__ or ""
        assert doc == case["doc"], "docstring %r != %r" % (doc, case["doc"])
    except Exception as e:
        failed += 1
        print("FAIL %s: %s: %s\n%s" % (case["py"], type(e).__name__, e, case["stub"]))
sys.exit(1 if failed else 0)
`

// TestStubsRun checks that the stubs run: that their type hints are valid
// Python expressions and their docstrings carry the intended text.
func TestStubsRun(t *testing.T) {
	py := python(t)
	type check struct {
		Stub   string   `json:"stub"`
		Py     string   `json:"py"`
		Params []string `json:"params"`
		Doc    string   `json:"doc"`
	}
	var checks []check
	for _, tool := range append(pythonTools(t), randomTools(t, 1000)...) {
		c := check{Stub: tool.Stub(), Py: tool.Py}
		_, c.Doc = tool.render()
		c.Params = []string{}
		sig := strings.SplitN(c.Stub, ") -> Any:", 2)[0]
		for _, p := range tool.Params {
			if !strings.Contains(sig, p.Py+":") {
				t.Errorf("stub of %q has no parameter %s:\n%s", tool.Name, p.Py, c.Stub)
			}
			c.Params = append(c.Params, p.Py)
		}
		if tool.AllowsExtra {
			c.Params = append(c.Params, sig[strings.LastIndex(sig, "**")+2:strings.LastIndex(sig, ": Any")])
		}
		checks = append(checks, c)
	}
	in, err := json.Marshal(checks)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", checkScript, Preamble)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(out) > 0 {
		t.Logf("%s", out)
	}
}

// TestPyRepr compares pyRepr with Python's repr.
func TestPyRepr(t *testing.T) {
	py := python(t)
	var all strings.Builder
	for r := rune(0); r < 0x300; r++ {
		all.WriteRune(r)
	}
	strs := []string{"", "plain", "it's", `say "hi"`, `both ' and "`, `back\slash`, "new\nline\r\t", all.String(),
		"\u2028\u202e\ufeff\U0001F600\U000E0001\u00a0\u3000"}
	var want []string
	for _, s := range strs {
		want = append(want, pyRepr(s))
	}
	in, err := json.Marshal(strs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", "import json,sys; json.dump([repr(s) for s in json.load(sys.stdin)], sys.stdout)")
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for i := range strs {
		if got[i] != want[i] {
			t.Errorf("pyRepr(%q) = %s, Python says %s", strs[i], want[i], got[i])
		}
	}
}

// randomPool holds the pieces random names and descriptions are made of.
var randomPool = []string{"a", "b", "\"", "'", "\\", "\n", "\r", " ", "\t", "\x00", "\x1b", "é", "\u2028", "\u202e", "😀", ".", "-", "1", "_", "class", "__", "\"\"\"", "{", "}", "Any", "None", "…", "\ufeff", "\x85", "\u00a0"}

// rstr returns a random string of up to n pieces.
func rstr(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := r.Intn(n + 1); i > 0; i-- {
		b.WriteString(randomPool[r.Intn(len(randomPool))])
	}
	return b.String()
}

// rschema returns a random subschema.
func rschema(r *rand.Rand, depth int) any {
	if depth > 3 {
		return map[string]any{"type": "string"}
	}
	switch r.Intn(14) {
	case 0:
		return map[string]any{"type": []any{"string", "null", "integer"}[r.Intn(3)], "description": rstr(r, 8), "default": rval(r)}
	case 1:
		return map[string]any{"enum": []any{rval(r), rval(r), rval(r)}}
	case 2:
		return map[string]any{"const": rval(r)}
	case 3:
		return map[string]any{"anyOf": []any{rschema(r, depth+1), rschema(r, depth+1), map[string]any{"type": "null"}}}
	case 4:
		return map[string]any{"type": "array", "items": rschema(r, depth+1)}
	case 5:
		return robj(r, depth+1)
	case 6:
		return map[string]any{"$ref": "#/$defs/" + []string{"A", "B", "C"}[r.Intn(3)]}
	case 7:
		return map[string]any{"type": "object", "additionalProperties": rschema(r, depth+1)}
	case 8:
		return true
	case 9:
		return map[string]any{"allOf": []any{rschema(r, depth+1)}}
	case 10:
		return map[string]any{"type": "number", "format": rstr(r, 3), "nullable": true}
	case 11:
		return map[string]any{"oneOf": []any{rschema(r, depth+1), rschema(r, depth+1)}}
	case 12:
		return map[string]any{"type": "array", "prefixItems": []any{rschema(r, depth+1)}, "items": false}
	}
	return map[string]any{}
}

// rval returns a random JSON value.
func rval(r *rand.Rand) any {
	switch r.Intn(7) {
	case 0:
		return nil
	case 1:
		return r.Intn(2) == 0
	case 2:
		return r.Intn(2000) - 1000
	case 3:
		return r.Float64() * 1e20
	case 4:
		return []any{rstr(r, 3)}
	case 5:
		return map[string]any{rstr(r, 3): rstr(r, 3)}
	}
	return rstr(r, 6)
}

// robj returns a random object schema.
func robj(r *rand.Rand, depth int) map[string]any {
	props := map[string]any{}
	var req []any
	for i := r.Intn(6); i > 0; i-- {
		n := rstr(r, 4)
		props[n] = rschema(r, depth)
		if r.Intn(2) == 0 {
			req = append(req, n)
		}
	}
	o := map[string]any{"type": "object", "properties": props, "required": req}
	if r.Intn(3) == 0 {
		o["additionalProperties"] = r.Intn(2) == 0
	}
	return o
}

// randomTools returns n tools made from random schemas, names and
// descriptions, the same ones on every run.
func randomTools(t *testing.T, n int) []Tool {
	r := rand.New(rand.NewSource(1))
	var tools []Tool
	for range n {
		top := robj(r, 0)
		top["$defs"] = map[string]any{"A": rschema(r, 1), "B": map[string]any{"$ref": "#/$defs/A"}, "C": robj(r, 2)}
		data, err := json.Marshal(top)
		if err != nil {
			t.Fatal(err)
		}
		name := rstr(r, 5)
		tool, err := FromSchema(name, Identifier(name), rstr(r, 40), data)
		if err != nil {
			t.Fatalf("FromSchema(%s): %v", data, err)
		}
		tools = append(tools, tool)
	}
	return tools
}

func FuzzFromSchema(f *testing.F) {
	for _, path := range fixtures(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		var fx fixture
		if err := json.Unmarshal(data, &fx); err != nil {
			f.Fatal(err)
		}
		f.Add(fx.Name, fx.Description, []byte(fx.InputSchema))
	}
	f.Add("", "", []byte(nil))
	f.Add("x", `"""`, []byte(`{"properties":{"a":{"$ref":"#"}},"required":["a"]}`))
	f.Add("x", "", []byte(`{"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/A"}]}},"properties":{"a":{"$ref":"#/$defs/A"}}}`))
	f.Fuzz(func(t *testing.T, name, description string, schema []byte) {
		tool, err := FromSchema(name, Identifier(name), description, schema)
		if err != nil {
			if !strings.Contains(err.Error(), "stubs: tool ") {
				t.Fatalf("error %q does not name the tool", err)
			}
			return
		}
		stub := tool.Stub()
		if !strings.HasPrefix(stub, "async def ") {
			t.Fatalf("Stub() does not start with \"async def \":\n%s", stub)
		}
		if !utf8.ValidString(stub) || strings.ContainsRune(stub, 0) {
			t.Fatalf("Stub() is not clean UTF-8:\n%q", stub)
		}
		if n := utf8.RuneCountInString(tool.Summary()); n > maxSummary {
			t.Fatalf("Summary() has %d runes", n)
		}
		seen := make(map[string]bool)
		for _, p := range tool.Params {
			if !validIdentifier(p.Py) || seen[p.Py] {
				t.Fatalf("bad or duplicate parameter name %q", p.Py)
			}
			seen[p.Py] = true
		}
	})
}
