package toon

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// mustDecode decodes JSON for a test.
func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, err := DecodeJSON([]byte(s))
	if err != nil {
		t.Fatalf("DecodeJSON(%s): %v", s, err)
	}
	return v
}

func TestNumbers(t *testing.T) {
	exact := []struct{ in, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"-0.0e5", "0"},
		{"0e-999999999999999", "0"},
		{"1.5000", "1.5"},
		{"1.0", "1"},
		{"1E+2", "100"},
		{"12.5e-1", "1.25"},
		{"0.0000010", "0.000001"},
		{"1e-6", "0.000001"},
		{"1e-7", "1e-7"},
		{"-1.25e-7", "-1.25e-7"},
		{"1e20", "100000000000000000000"},
		{"1e21", "1e+21"},
		{"123456789012345678901234", "1.23456789012345678901234e+23"},
		{"9007199254740993", "9007199254740993"}, // above 2^53: every digit kept
		{"0.1000000000000000000001", "0.1000000000000000000001"},
		{"1e400", "1e+400"},
		{"-5e-400", "-5e-400"},
		{"100e-2", "1"},
		{"0.000123", "0.000123"},
	}
	for _, tc := range exact {
		got, err := canonicalDecimal(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("canonicalDecimal(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "-", "01", "-01", "1.", ".5", "+1", "1e", "1e+", "0x10", "1 ", "NaN", "Infinity", "1e1234567890123456"} {
		if got, err := canonicalDecimal(bad); err == nil {
			t.Errorf("canonicalDecimal(%q) = %q, want an error", bad, got)
		}
		if _, err := Marshal(json.Number(bad), Options{}); err == nil || !strings.Contains(err.Error(), "at $") {
			t.Errorf("Marshal(json.Number(%q)) = %v, want an error that says where", bad, err)
		}
	}

	tenth, fifth := 0.1, 0.2
	floats := []struct {
		in   float64
		want any
	}{
		{math.Copysign(0, -1), number("0")},
		{1e6, number("1000000")},
		{1e21, number("1e+21")},
		{1e-7, number("1e-7")},
		{5e-324, number("5e-324")},
		{math.MaxFloat64, number("1.7976931348623157e+308")},
		{1.0 / 3, number("0.3333333333333333")},
		{tenth + fifth, number("0.30000000000000004")},
		{-123.456, number("-123.456")},
		{math.NaN(), nil},
		{math.Inf(1), nil},
		{math.Inf(-1), nil},
	}
	for _, tc := range floats {
		if got := floatNumber(tc.in, 64); got != tc.want {
			t.Errorf("floatNumber(%v) = %#v, want %#v", tc.in, got, tc.want)
		}
		// The exact path agrees with the float path on a float's shortest form.
		if w, ok := tc.want.(number); ok {
			got, err := canonicalDecimal(fmtFloat(tc.in))
			if err != nil || got != string(w) {
				t.Errorf("canonicalDecimal(%v) = %q, %v; want %q", tc.in, got, err, w)
			}
		}
	}
	if got := floatNumber(float64(float32(0.1)), 32); got != number("0.1") {
		t.Errorf("float32 0.1 = %v, want 0.1", got)
	}
}

func fmtFloat(f float64) string {
	b, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestMarshalGoValues covers the values that do not come from DecodeJSON.
func TestMarshalGoValues(t *testing.T) {
	type point struct {
		Y int    `json:"y"`
		X int    `json:"x"`
		L string `json:"label,omitempty"`
	}
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"map keys sorted", map[string]any{"b": 1, "a": []any{true, nil}, "c": map[string]any{}}, "a[2]: true,null\nb: 1\nc:"},
		{"Go integers", []any{int8(-8), uint64(math.MaxUint64), int64(math.MinInt64), uint8(7)}, "[4]: -8,18446744073709551615,-9223372036854775808,7"},
		{"float32", float32(2.5), "2.5"},
		{"float64 NaN", math.NaN(), "null"},
		{"struct fields in declared order", []point{{Y: 1, X: 2}, {Y: 3, X: 4}}, "[2]{y,x}:\n  1,2\n  3,4"},
		{"json.RawMessage keeps order", Object{{"raw", json.RawMessage(`{"z":1,"a":2}`)}}, "raw:\n  z: 1\n  a: 2"},
		{"invalid UTF-8", Object{{"k\xff", "a\xffb"}}, "\"k\uFFFD\": a\uFFFDb"},
		{"duplicate key keeps first place, last value", Object{{"a", 1}, {"b", 2}, {"a", 3}}, "a: 3\nb: 2"},
		{"root empty object", Object{}, ""},
		{"root nil Object", Object(nil), ""},
		{"Object inside a struct", struct {
			O Object `json:"o"`
		}{Object{{"z", 1}, {"a", 2}}}, "o:\n  z: 1\n  a: 2"},
	}
	for _, tc := range cases {
		got, err := Marshal(tc.in, Options{})
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: Marshal = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestQuotingBeyondTheSpec covers the strings quoted for readers newer or
// laxer than the specification (see the package documentation).
func TestQuotingBeyondTheSpec(t *testing.T) {
	for in, want := range map[string]string{
		"#tag":         `"#tag"`,
		"a#b":          `a#b`,
		"\ufeffx":      "\"\ufeffx\"",
		"x\ufeff":      "x\ufeff",
		"+1":           `"+1"`,
		"+x":           `+x`,
		"\u00a0x":      "\"\u00a0x\"",
		"x\u3000":      "\"x\u3000\"",
		"1.":           `1.`,
		"mid dle":      `mid dle`,
		"\u2028inside": "\"\u2028inside\"",
	} {
		got, err := Marshal(in, Options{})
		if err != nil || string(got) != want {
			t.Errorf("Marshal(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestKeyFolding covers folding cases the fixtures leave out.
func TestKeyFolding(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		depth int
		want  string
	}{
		{"chain ending at an object of several keys",
			`{"a":{"b":{"x":1,"y":{"c":{"d":2}}}}}`, 0,
			"a.b:\n  x: 1\n  y.c.d: 2"},
		{"the depth left after a cut chain",
			`{"a":{"b":{"c":{"d":{"e":1}}}}}`, 3,
			"a.b.c:\n  d:\n    e: 1"},
		{"budget not spent by an unfolded parent",
			`{"a":{"k":1,"b":{"c":{"d":2}}}}`, 2,
			"a:\n  k: 1\n  b.c:\n    d: 2"},
		{"a root dotted key blocks the same path folded below",
			`{"a":{"k":1,"b":{"c":1}},"a.b.c":2}`, 0,
			"a:\n  k: 1\n  b:\n    c: 1\na.b.c: 2"},
		{"non-identifier segment deep in the chain",
			`{"a":{"b":{"c-d":1}}}`, 0,
			"a:\n  b:\n    \"c-d\": 1"},
		{"quoted key never folds",
			`{"a b":{"c":1}}`, 0,
			"\"a b\":\n  c: 1"},
		{"folds inside list items but not on the hyphen line",
			`{"items":[{"first":{"x":{"y":1}},"second":{"p":{"q":2}}}]}`, 0,
			"items[1]:\n  - first:\n      x.y: 1\n    second.p.q: 2"},
		{"the hyphen line's key counts as a sibling",
			`{"items":[{"b.c":1,"b":{"c":2}}]}`, 0,
			"items[1]:\n  - b.c: 1\n    b:\n      c: 2"},
		{"chain ending at a table",
			`{"a":{"rows":[{"x":1},{"x":2}]}}`, 0,
			"a.rows[2]{x}:\n  1\n  2"},
		{"chain ending at an empty array",
			`{"a":{"b":[]}}`, 0,
			"a.b: []"},
		{"a long object's siblings",
			`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"a.b":0,"a":{"b":1},"c":{"d":2}}`, 0,
			"k0: 0\nk1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9\nk10: 10\nk11: 11\nk12: 12\nk13: 13\nk14: 14\nk15: 15\nk16: 16\na.b: 0\na:\n  b: 1\nc.d: 2"},
	}
	for _, tc := range cases {
		got, err := Marshal(mustDecode(t, tc.in), Options{KeyFolding: true, FlattenDepth: tc.depth})
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: Marshal(%s) =\n%s\n(%v), want\n%s", tc.name, tc.in, got, err, tc.want)
		}
	}
}

func TestMarshalErrors(t *testing.T) {
	deep := any("leaf")
	for range MaxDepth {
		deep = []any{deep}
	}
	if _, err := Marshal(deep, Options{}); err != nil {
		t.Errorf("Marshal(%d levels): %v", MaxDepth, err)
	}
	cycle := []any{nil}
	cycle[0] = cycle
	cyclicMap := map[string]any{}
	cyclicMap["self"] = cyclicMap

	cases := []struct {
		name string
		v    any
		opts Options
		want string
	}{
		{"bad delimiter", 1, Options{Delimiter: ';'}, "delimiter ';'"},
		{"negative indent", 1, Options{Indent: -1}, "indent -1"},
		{"huge indent", 1, Options{Indent: 33}, "indent 33"},
		{"negative flatten depth", 1, Options{FlattenDepth: -2}, "flatten depth -2"},
		{"too deep", []any{deep}, Options{}, "nested more than 256 levels deep"},
		{"cycle of slices", cycle, Options{}, "nested more than 256 levels deep (or a cycle)"},
		{"cycle of maps", cyclicMap, Options{}, "at $.self.self"},
		{"unmarshalable value", Object{{"a", []any{map[string]any{"f-1": make(chan int)}}}}, Options{}, `at $.a[0]["f-1"]: chan int: json: unsupported type`},
		{"bad raw JSON", Object{{"r", json.RawMessage(`{"a":`)}}, Options{}, "at $.r: unexpected end of input"},
		{"bad number", []any{json.Number("1e")}, Options{}, `at $[0]: "1e" is not a JSON number`},
	}
	for _, tc := range cases {
		got, err := Marshal(tc.v, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "toon: ") {
			t.Errorf("%s: Marshal = %q, %v; want an error with %q", tc.name, got, err, tc.want)
		}
	}
}

func TestDecodeJSON(t *testing.T) {
	v := mustDecode(t, ` {"z":1,"a":{"y":[1.50,"s",true,null,{}],"b":2},"z":3} `)
	want := Object{
		{"z", json.Number("3")},
		{"a", Object{{"y", []any{json.Number("1.50"), "s", true, nil, Object{}}}, {"b", json.Number("2")}}},
	}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("DecodeJSON = %#v, want %#v", v, want)
	}

	// Past 16 keys duplicates are found through an index.
	var long strings.Builder
	long.WriteString(`{`)
	for i := range 20 {
		long.WriteString(`"k` + string(rune('a'+i)) + `":1,`)
	}
	long.WriteString(`"kb":2,"kt":3}`)
	obj := mustDecode(t, long.String()).(Object)
	if len(obj) != 20 || obj[1] != (Member{"kb", json.Number("2")}) || obj[19] != (Member{"kt", json.Number("3")}) {
		t.Errorf("duplicates in a long object: %v", obj)
	}

	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := DecodeJSON([]byte(deep)); err != nil {
		t.Errorf("DecodeJSON(%d levels): %v", MaxDepth, err)
	}
	for in, msg := range map[string]string{
		"":                    "unexpected end of input",
		"  ":                  "unexpected end of input",
		`{"a":1} x`:           "data after the value at offset",
		`[1,2`:                "unexpected end of input",
		`{"a" 1}`:             "invalid character",
		`{1:2}`:               "invalid character",
		`]`:                   "invalid character",
		"[" + deep + "]":      "nested more than 256 levels deep at offset 257",
		`{"a":` + deep + `}`:  "nested more than 256 levels deep",
		"[" + deep[:MaxDepth]: "nested more than 256 levels deep", // unclosed, but too deep first
	} {
		got, err := DecodeJSON([]byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), "toon: decode JSON: ") || !strings.Contains(err.Error(), msg) {
			t.Errorf("DecodeJSON(%.40q) = %v, %v; want an error with %q", in, got, err, msg)
		}
	}
}

func TestObjectMarshalJSON(t *testing.T) {
	v := Object{{"z", 1}, {"a", Object{{"y", []any{json.Number("1.50"), "<s>"}}}}, {"e", Object{}}}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"z":1,"a":{"y":[1.50,"\u003cs\u003e"]},"e":{}}`; string(b) != want {
		t.Errorf("json.Marshal(Object) = %s, want %s", b, want)
	}
	if _, err := json.Marshal(Object{{"c", make(chan int)}}); err == nil || !strings.Contains(err.Error(), `key "c"`) {
		t.Errorf("json.Marshal(Object with a channel) = %v, want an error naming the key", err)
	}
}

func TestDropEmpty(t *testing.T) {
	in := Object{
		{"s", ""},
		{"l", []any{}},
		{"nil list", []any(nil)},
		{"o", Object{}},
		{"nested", Object{{"x", ""}, {"y", Object{{"z", []any{}}}}}},
		{"m", map[string]any{"a": "", "b": map[string]any{"c": nil}, "d": map[string]any{"e": []any{}}}},
		{"list", []any{"", []any{}, Object{}, Object{{"k", ""}, {"v", 1}}, map[string]any{"gone": ""}}},
		{"zero", 0},
		{"false", false},
		{"null", nil},
		{"space", " "},
	}
	before, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := DropEmpty(in)
	want := Object{
		{"m", map[string]any{"b": map[string]any{"c": nil}}},
		{"list", []any{"", []any{}, Object{}, Object{{"v", 1}}, map[string]any{}}},
		{"zero", 0},
		{"false", false},
		{"null", nil},
		{"space", " "},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DropEmpty =\n%#v\nwant\n%#v", got, want)
	}
	if after, _ := json.Marshal(in); string(after) != string(before) {
		t.Errorf("DropEmpty changed its input:\n%s\nwas\n%s", after, before)
	}

	for _, root := range []any{"", []any{}, Object{}, map[string]any{}, nil, 5} {
		if got := DropEmpty(root); !reflect.DeepEqual(got, root) {
			t.Errorf("DropEmpty(%#v) = %#v, want it unchanged", root, got)
		}
	}
	if got := DropEmpty(Object{{"a", Object{{"b", ""}}}}); !reflect.DeepEqual(got, Object{}) {
		t.Errorf("DropEmpty of a root that empties = %#v, want an empty Object", got)
	}

	// A cycle ends at MaxDepth instead of overflowing the stack, and
	// Marshal then refuses the value.
	cycle := []any{nil}
	cycle[0] = cycle
	if _, err := Marshal(DropEmpty(cycle), Options{}); err == nil {
		t.Error("Marshal(DropEmpty(cycle)) succeeded, want an error")
	}
}
