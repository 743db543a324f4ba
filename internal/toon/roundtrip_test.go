package toon

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// decodeScript reads a JSON array of {"doc": TOON document, "indent": n}
// on stdin and writes a JSON array with, for each, {"value": decoded} or
// {"error": message}, decoded by the reference implementation (strict
// mode, its default).
const decodeScript = `
import { decode } from "@toon-format/toon";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map(({ doc, indent }) => {
  try { return { value: decode(doc, { indent }) }; } catch (e) { return { error: String(e && e.message) }; }
});
process.stdout.write(JSON.stringify(out));
`

// referenceDoc is a document for referenceDecode.
type referenceDoc struct {
	Doc    string `json:"doc"`
	Indent int    `json:"indent"`
}

// referenceDecode decodes docs with the pinned @toon-format/toon, in one
// node process. The test skips without node or the package, and fails
// instead under CI=true.
func referenceDecode(t *testing.T, docs []referenceDoc) []struct {
	Value json.RawMessage `json:"value"`
	Error string          `json:"error"`
} {
	t.Helper()
	if _, err := os.Stat(filepath.Join(npmDir, "node_modules", "@toon-format", "toon", "package.json")); err != nil {
		testenv.SkipOrFail(t, "@toon-format/toon is not installed in testdata/npm (run `make testdata`): %v", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		testenv.SkipOrFail(t, "node not found: %v", err)
	}
	in, err := json.Marshal(docs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "node", "--input-type=module", "-e", decodeScript)
	cmd.Dir = npmDir
	cmd.Stdin = bytes.NewReader(in)
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	var results []struct {
		Value json.RawMessage `json:"value"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("node's output: %v\n%s", err, out)
	}
	if len(results) != len(docs) {
		t.Fatalf("node decoded %d documents, want %d", len(results), len(docs))
	}
	return results
}

// roundTripValues are the values of the round-trip test, as JSON (decoded
// with DecodeJSON, so key order is theirs), with what decoding gives back
// where it is not the input after DropEmpty.
var roundTripValues = map[string]struct{ in, want string }{
	"nested objects": {in: `{"server":{"host":"localhost","port":8080,"tls":{"enabled":true,"cert":null,"ciphers":["a","b"]}},"name":"api"}`},
	"table": {in: `{"users":[
		{"id":1,"name":"Smith, John","email":"john@example.com","score":9.5,"active":true,"note":null},
		{"id":2,"name":"a:b","email":"x|y","score":-0.25,"active":false,"note":"- dash"},
		{"id":3,"name":"#hash","email":"tab\there","score":1e21,"active":true,"note":"true"},
		{"id":4,"name":"42","email":" padded ","score":1e-7,"active":false,"note":"[x]"}
	]}`},
	// A table has one field order (§9.3), so rows come back in it.
	"table rows with keys in another order": {
		in:   `[{"a":1,"b":"x"},{"b":"y","a":2}]`,
		want: `[{"a":1,"b":"x"},{"a":2,"b":"y"}]`,
	},
	"mixed array": {in: `{"items":[1,"two",{"three":3,"four":[4]},[5,6],[],{},null,true,
		[{"a":1},{"b":2}],[[1],[2,3],[]],[{"x":1,"y":2},{"x":3,"y":4}],"-","",["a,b","c|d"]]}`},
	"objects in a list, a table first": {in: `{"groups":[
		{"members":[{"id":1,"role":"admin"},{"id":2,"role":"user"}],"name":"g1","tags":["x"]},
		{"name":"g2","members":[]},
		{"config":{"deep":{"er":1}},"n":2},
		{"list":[{"a":1},{"b":2}],"after":"yes"},
		{"pairs":[[1,2],[3]]}
	]}`},
	"strings that need quotes": {in: `{"s":["", " lead", "trail ", "true", "false", "null", "42", "-3.14", "1e-6", "05",
		"+1", "a:b", "q\"uote", "back\\slash", "[3]: x", "{k}", "line\nbreak", "cr\rhere", "ctl\u0001",
		"- item", "-", "#comment", "\ufeffbom", "\u00a0nbsp", "café 👋", "a,b", "a|b", "a\tb"],
		"v":"#not a comment","w":"- not a list item","x":"a,b|c"}`},
	"keys that need quotes": {in: `{"my-key":1,"":2,"a b":[1,2],"1x":{"y":1},"x.y":3,"#k":[{"f-1":1,"f 2":2}],"quote\"d":{"":"v"}}`},
	"numbers":               {in: `[0,-0,1.5,-7,1e6,1e-6,1e-7,1e21,123456789.125,0.1,9007199254740991,1.7976931348623157e308,5e-324]`},
	"empty fields": {
		in: `{"a":"","b":[],"c":{},"d":{"e":"","f":{"g":[]}},"h":[{"i":"","j":1},{"j":2}],
			"keep":0,"n":null,"f2":false,"arr":["",[],{}],"z":"last"}`,
		want: `{"h":[{"j":1},{"j":2}],"keep":0,"n":null,"f2":false,"arr":["",[],{}],"z":"last"}`,
	},
	"root string":        {in: `"hello, world"`},
	"root empty string":  {in: `""`},
	"root hash string":   {in: `"#x"`},
	"root number":        {in: `-12.5`},
	"root null":          {in: `null`},
	"root empty object":  {in: `{}`},
	"root empty array":   {in: `[]`},
	"root array of rows": {in: `[{"id":1,"v":"a"},{"id":2,"v":"b"}]`},
	"deep arrays":        {in: `[[[[1,2],[{"a":[[]]}]]]]`},
}

// TestRoundTripReference encodes values after DropEmpty with several
// option sets, decodes each document with the reference implementation's
// decoder, and compares the result with what went in: the same values,
// the same key order, numbers equal.
func TestRoundTripReference(t *testing.T) {
	optionSets := []Options{{}, {Delimiter: '\t'}, {Delimiter: '|'}, {Indent: 4}}
	type job struct {
		name string
		doc  referenceDoc
		want any
	}
	var jobs []job
	for name, tc := range roundTripValues {
		v, err := DecodeJSON([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		v = DropEmpty(v)
		want := v
		if tc.want != "" {
			if want, err = DecodeJSON([]byte(tc.want)); err != nil {
				t.Fatalf("%s: want: %v", name, err)
			}
		}
		var n normalizer
		if want, err = n.value(want, 0); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, opts := range optionSets {
			doc, err := Marshal(v, opts)
			if err != nil {
				t.Fatalf("%s: Marshal(%+v): %v", name, opts, err)
			}
			indent := opts.Indent
			if indent == 0 {
				indent = 2
			}
			jobs = append(jobs, job{name: name + " " + optionsName(opts), doc: referenceDoc{string(doc), indent}, want: want})
		}
	}
	docs := make([]referenceDoc, len(jobs))
	for i, j := range jobs {
		docs[i] = j.doc
	}
	results := referenceDecode(t, docs)
	for i, j := range jobs {
		r := results[i]
		if r.Error != "" {
			t.Errorf("%s: the reference decoder refused\n%s\n: %s", j.name, j.doc.Doc, r.Error)
			continue
		}
		got, err := DecodeJSON(r.Value)
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		var n normalizer
		if got, err = n.value(got, 0); err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		if !reflect.DeepEqual(got, j.want) {
			t.Errorf("%s: decoded\n%s\nas %s, want %s", j.name, j.doc.Doc, r.Value, mustJSON(t, j.want))
		}
	}
	t.Logf("%d documents decoded back by the reference decoder", len(jobs))
}

func optionsName(o Options) string {
	switch {
	case o.Delimiter == '\t':
		return "(tab)"
	case o.Delimiter != 0:
		return "(" + string(o.Delimiter) + ")"
	case o.Indent != 0:
		return "(indent " + strings.Repeat(" ", o.Indent) + ")"
	}
	return "(defaults)"
}

// mustJSON writes a normalized value as JSON, for messages.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	var b []byte
	var err error
	switch v := v.(type) {
	case number:
		return string(v)
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = mustJSON(t, x)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case Object:
		parts := make([]string, len(v))
		for i, m := range v {
			k, _ := json.Marshal(m.Key)
			parts[i] = string(k) + ":" + mustJSON(t, m.Value)
		}
		return "{" + strings.Join(parts, ",") + "}"
	default:
		b, err = json.Marshal(v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
