package aggregator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

// Global patterns match a server by name or alias; an alias may equal the
// name of another server, so a pattern meant for one allows the other.
func TestPolicyAliasCollidesWithOtherServerName(t *testing.T) {
	cfg := config.Default()
	cfg.Allow = []string{"a_b"}
	a, err := New(cfg, []config.Server{
		{Name: "a-b", Transport: config.TransportStdio, Command: "x"},
		{Name: "a_b", Transport: config.TransportStdio, Command: "x"},
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	for _, e := range a.entries {
		if e.srv.Name == "a-b" && a.policy.Allowed(e.srv, e.alias, "t", false) {
			t.Errorf("server %q (alias %q) is allowed by Allow %q, which names the other server", e.srv.Name, e.alias, cfg.Allow)
		}
	}
}

// ---- checkArgs ----

const baseSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "limit": {"type": "integer", "minimum": 1}
  },
  "required": ["path"]
}`

func mustRefusal(t *testing.T, err error, wantSub ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want a refusal containing %q", wantSub)
	}
	var r *Refusal
	if !errors.As(err, &r) {
		t.Fatalf("error %v is %T, want *Refusal", err, err)
	}
	for _, s := range wantSub {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("refusal %q does not contain %q", err.Error(), s)
		}
	}
}

func TestCheckArgs(t *testing.T) {
	const limit = 1 << 10
	tests := []struct {
		name    string
		schema  string
		args    string
		wantErr []string // nil: accepted; else substrings of the refusal
	}{
		{"valid required only", baseSchema, `{"path":"/a"}`, nil},
		{"valid all", baseSchema, `{"path":"/a","limit":3}`, nil},
		{"wrong type", baseSchema, `{"path":1}`, []string{"do not match its schema", "/path"}},
		{"below minimum", baseSchema, `{"path":"a","limit":0}`, []string{"do not match its schema", "/limit"}},
		{"float for integer", baseSchema, `{"path":"a","limit":1.5}`, []string{"do not match its schema", "/limit"}},
		{"missing required", baseSchema, `{}`, []string{"do not match its schema", "path"}},
		{"unlisted name, no additionalProperties", baseSchema, `{"path":"a","extra":1}`, []string{`s.t does not take "extra"`}},
		{"unlisted names sorted", baseSchema, `{"zz":1,"path":"a","aa":1}`, []string{`does not take "aa", "zz"`}},
		{"unlisted name, additionalProperties false",
			`{"type":"object","properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, []string{`does not take "b"`}},
		{"unlisted name, additionalProperties true",
			`{"type":"object","properties":{"a":{}},"additionalProperties":true}`, `{"a":1,"b":2}`, nil},
		{"unlisted name, additionalProperties schema ok",
			`{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"string"}}`, `{"b":"x"}`, nil},
		{"unlisted name, additionalProperties schema violated",
			`{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"string"}}`, `{"b":1}`, []string{"do not match its schema", "/b"}},
		{"unlisted name, patternProperties",
			`{"type":"object","patternProperties":{"^x_":{"type":"integer"}}}`, `{"x_a":1}`, nil},
		{"patternProperties still validated",
			`{"type":"object","patternProperties":{"^x_":{"type":"integer"}}}`, `{"x_a":"no"}`, []string{"do not match its schema", "/x_a"}},
		{"allOf names accepted",
			`{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"integer"}}}]}`, `{"a":"x","b":2}`, nil},
		{"allOf unlisted refused",
			`{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"integer"}}}]}`, `{"a":"x","c":2}`, []string{`does not take "c"`}},
		{"anyOf names accepted",
			`{"type":"object","anyOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"integer"}},"required":["b"]}]}`, `{"b":2}`, nil},
		{"anyOf neither branch",
			`{"type":"object","anyOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"integer"}},"required":["b"]}]}`, `{"a":1}`, []string{"do not match its schema"}},
		{"oneOf names accepted",
			`{"type":"object","oneOf":[{"properties":{"a":{"const":1}},"required":["a"]},{"properties":{"b":{"const":2}},"required":["b"]}]}`, `{"a":1}`, nil},

		{"array args", baseSchema, `["/a"]`, []string{"must be an object"}},
		{"string args", baseSchema, `"/a"`, []string{"must be an object"}},
		{"null args", baseSchema, `null`, []string{"must be an object"}},
		{"number args", baseSchema, `1`, []string{"must be an object"}},
		{"bool args", baseSchema, `true`, []string{"must be an object"}},
		{"invalid JSON", baseSchema, `{"path":`, []string{"are not JSON"}},
		{"trailing data", baseSchema, `{"path":"a"} {}`, []string{"are not JSON"}},
		{"empty args", baseSchema, ``, []string{"are not JSON"}},
		{"single quotes", baseSchema, `{'path':'a'}`, []string{"are not JSON"}},

		{"empty schema takes only {}", ``, `{}`, nil},
		{"empty schema refuses names", ``, `{"a":1}`, []string{`does not take "a"`}},
		{"null schema takes only {}", `null`, `{}`, nil},
		{"null schema refuses names", `null`, `{"a":1}`, []string{`does not take "a"`}},
		{"whitespace schema refuses names", " \n ", `{"a":1}`, []string{`does not take "a"`}},
		{"null schema refuses non-object", `null`, `[]`, []string{"must be an object"}},

		{"huge integer equal to enum", `{"type":"object","properties":{"n":{"enum":[9007199254740993]}}}`, `{"n":9007199254740993}`, nil},
		{"huge integer off by one from enum", `{"type":"object","properties":{"n":{"enum":[9007199254740993]}}}`, `{"n":9007199254740992}`, []string{"do not match its schema", "/n"}},
		{"huge integer const", `{"type":"object","properties":{"n":{"const":9007199254740993}}}`, `{"n":9007199254740994}`, []string{"do not match its schema"}},

		{"draft-07 with definitions and $ref ok",
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"pos":{"type":"integer","minimum":0}},"properties":{"n":{"$ref":"#/definitions/pos"}},"required":["n"],"additionalProperties":false}`,
			`{"n":3}`, nil},
		{"draft-07 $ref target enforced",
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"pos":{"type":"integer","minimum":0}},"properties":{"n":{"$ref":"#/definitions/pos"}},"required":["n"],"additionalProperties":false}`,
			`{"n":-1}`, []string{"do not match its schema"}},
		{"draft-07 unlisted refused",
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"pos":{"type":"integer"}},"properties":{"n":{"$ref":"#/definitions/pos"}}}`,
			`{"n":1,"m":2}`, []string{`does not take "m"`}},
		{"2020-12 $defs",
			`{"type":"object","$defs":{"s":{"type":"string","maxLength":2}},"properties":{"a":{"$ref":"#/$defs/s"}}}`,
			`{"a":"long"}`, []string{"do not match its schema"}},
		{"draft-04 boolean exclusiveMinimum honoured",
			`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`,
			`{"n":0}`, []string{"do not match its schema", "/n"}},

		{"schema not JSON", `{"type":`, `{}`, []string{"cannot be called", "does not compile"}},
		{"schema with invalid type", `{"type":"objekt"}`, `{}`, []string{"does not compile"}},
		{"schema with invalid regex", `{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`, `{"a":"x"}`, []string{"does not compile"}},
		{"schema with dangling local $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`, `{"a":1}`, []string{"does not compile"}},
		{"schema with remote $ref", `{"type":"object","properties":{"a":{"$ref":"https://example.com/x.json"}}}`, `{"a":"x"}`, []string{"does not compile"}},
		{"schema with file $ref to /etc/passwd", `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`, `{"a":"x"}`, []string{"does not compile"}},
		{"top-level remote $ref", `{"$ref":"https://example.com/x.json"}`, `{}`, []string{"does not compile"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := newCheckedTool("s", upstream.Tool{Name: "t", InputSchema: json.RawMessage(tt.schema)})
			err := checkErr(ct, "s", json.RawMessage(tt.args), limit)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("checkArgs(%s) against %s = %v, want accepted", tt.args, tt.schema, err)
				}
				return
			}
			mustRefusal(t, err, tt.wantErr...)
		})
	}
}

func TestCheckArgsSizeLimit(t *testing.T) {
	ct := newCheckedTool("s", upstream.Tool{Name: "t", InputSchema: json.RawMessage(baseSchema)})
	args := func(n int) json.RawMessage { // a valid object of exactly n bytes
		const frame = `{"path":""}`
		return json.RawMessage(`{"path":"` + strings.Repeat("x", n-len(frame)) + `"}`)
	}
	tests := []struct {
		name string
		size int
		max  int
		ok   bool
	}{
		{"well under", 20, 100, true},
		{"exactly at limit", 100, 100, true},
		{"one over limit", 101, 100, false},
		{"far over limit", 10000, 100, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := args(tt.size)
			if len(a) != tt.size {
				t.Fatalf("test bug: args are %d bytes, want %d", len(a), tt.size)
			}
			err := checkErr(ct, "s", a, tt.max)
			if tt.ok {
				if err != nil {
					t.Fatalf("checkArgs of %d bytes with limit %d = %v, want accepted", tt.size, tt.max, err)
				}
				return
			}
			mustRefusal(t, err, fmt.Sprintf("%d-byte limit", tt.max), fmt.Sprintf("%d bytes", tt.size))
		})
	}
	// The size is checked before anything else, even for a broken schema.
	broken := newCheckedTool("s", upstream.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":`)})
	mustRefusal(t, checkErr(broken, "s", args(200), 100), "100-byte limit")
}

// A refusal names where the arguments fail, also under a $ref (pydantic and
// FastMCP put enums and nested models behind $ref).
func TestCheckArgsRefErrorsNamed(t *testing.T) {
	tests := []struct{ name, schema, args, want string }{
		{"$defs maxLength", `{"type":"object","$defs":{"s":{"type":"string","maxLength":2}},"properties":{"a":{"$ref":"#/$defs/s"}}}`, `{"a":"long"}`, "/a: maxLength"},
		{"definitions enum", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"Color":{"enum":["red","blue"]}},"properties":{"c":{"$ref":"#/definitions/Color"}}}`, `{"c":"green"}`, "/c: value must be one of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := newCheckedTool("s", upstream.Tool{Name: "t", InputSchema: json.RawMessage(tt.schema)})
			mustRefusal(t, checkErr(ct, "s", json.RawMessage(tt.args), 1<<10), "do not match its schema", tt.want)
		})
	}
}

// External references are never loaded: a schema that would accept or
// refuse differently if the referenced file were read does not compile, and
// every call of the tool is refused.
func TestCheckArgsExternalRefsNotLoaded(t *testing.T) {
	dir := t.TempDir()
	// If loaded, this schema makes {"a":"x"} valid.
	permissive := filepath.Join(dir, "permissive.json")
	if err := os.WriteFile(permissive, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// If loaded as a metaschema, it accepts any schema.
	meta := filepath.Join(dir, "meta.json")
	if err := os.WriteFile(meta, []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"file://`+meta+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	fileURL := "file://" + permissive
	tests := []struct {
		name   string
		schema string
	}{
		{"property $ref to file", `{"type":"object","properties":{"a":{"$ref":"` + fileURL + `"}}}`},
		{"top-level $ref to file", `{"type":"object","properties":{"a":{}},"allOf":[{"$ref":"` + fileURL + `"}]}`},
		{"relative $ref under a file $id", `{"$id":"file://` + dir + `/root.json","type":"object","properties":{"a":{"$ref":"permissive.json"}}}`},
		{"$schema pointing at a file", `{"$schema":"file://` + meta + `","type":"object","properties":{"a":{"type":"string"}}}`},
		{"$ref to /etc/passwd", `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`},
		{"$ref to https", `{"type":"object","properties":{"a":{"$ref":"https://example.com/x.json"}}}`},
		{"$dynamicRef to https", `{"type":"object","properties":{"a":{"$dynamicRef":"https://example.com/x.json#meta"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := newCheckedTool("srv", upstream.Tool{Name: "tool", InputSchema: json.RawMessage(tt.schema)})
			if ct.schemaErr == nil {
				t.Fatalf("schema %s compiled; an external reference was resolved", tt.schema)
			}
			if ct.schema != nil {
				t.Errorf("schema is set although schemaErr = %v", ct.schemaErr)
			}
			for _, args := range []string{`{"a":"x"}`, `{}`} {
				mustRefusal(t, checkErr(ct, "srv", json.RawMessage(args), 1<<10), "srv.tool cannot be called", "does not compile")
			}
		})
	}
}

// Tools generated by zod-to-json-schema with a name, and by several other
// generators, put the object behind a top-level $ref into definitions.
func TestCheckArgsTopLevelRef(t *testing.T) {
	schema := `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/Args",
	  "definitions":{"Args":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false}}}`
	ct := newCheckedTool("s", upstream.Tool{Name: "t", InputSchema: json.RawMessage(schema)})
	if ct.schemaErr != nil {
		t.Fatalf("schema does not compile: %v", ct.schemaErr)
	}
	if err := checkErr(ct, "s", json.RawMessage(`{"q":"x"}`), 1<<10); err != nil {
		t.Errorf("valid args refused: %v", err)
	}
	mustRefusal(t, checkErr(ct, "s", json.RawMessage(`{"q":"x","z":1}`), 1<<10), `"z"`)
}

// Validating numbers with huge exponents goes through math/big and costs
// tens of milliseconds each: the arguments of one call, within the size
// limit, must not hold the host's CPU for long.
func TestCheckArgsHugeExponentsAreCheap(t *testing.T) {
	ct := newCheckedTool("s", upstream.Tool{Name: "t", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}}}`)})
	args := `{"n":[` + strings.TrimSuffix(strings.Repeat("1e999999,", 100), ",") + `]}`
	done := make(chan error, 1)
	began := time.Now()
	go func() { done <- checkErr(ct, "s", json.RawMessage(args), 16<<10) }()
	select {
	case err := <-done:
		if took := time.Since(began); took > 500*time.Millisecond {
			t.Errorf("checking %d bytes of arguments took %v (err %v), want well under 500ms", len(args), took, err)
		}
	case <-time.After(2 * time.Second):
		t.Errorf("checking %d bytes of arguments took over 2s", len(args))
	}
}

func FuzzCheckArgs(f *testing.F) {
	const limit = 256
	ct := newCheckedTool("s", upstream.Tool{Name: "t", InputSchema: json.RawMessage(`{
	  "type":"object",
	  "properties":{
	    "path":{"type":"string","maxLength":50},
	    "n":{"type":"integer","minimum":-1000,"maximum":1000},
	    "tags":{"type":"array","items":{"type":"string"},"maxItems":5},
	    "opt":{"type":"object","properties":{"x":{"type":"boolean"}},"additionalProperties":false}
	  },
	  "required":["path"],
	  "additionalProperties":false}`)})
	if ct.schemaErr != nil {
		f.Fatal(ct.schemaErr)
	}
	for _, seed := range []string{
		`{"path":"a"}`, `{"path":"a","n":5,"tags":["x"],"opt":{"x":true}}`, `{}`, `[]`, `null`, `"s"`,
		`{"path":"a","n":1e3}`, `{"path":"a","n":1.0}`, `{"path":"a","extra":1}`, `{"path":"\u00e9"}`,
		`{"path":"a"} `, `{"path":"a","path":1}`, "{\"path\":\"\xff\"}", `{`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		err := checkErr(ct, "s", json.RawMessage(args), limit)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("checkArgs(%q) = %v (%T), want nil or *Refusal", args, err, err)
			}
			return
		}
		if len(args) > limit {
			t.Fatalf("accepted %d bytes of arguments, over the %d-byte limit", len(args), limit)
		}
		if !json.Valid(args) {
			t.Fatalf("accepted invalid JSON %q", args)
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
			t.Fatalf("accepted %q, which is not a JSON object: %v", args, err)
		}
		if _, ok := obj["path"]; !ok {
			t.Fatalf("accepted %q without the required path", args)
		}
		for k := range obj {
			if k != "path" && k != "n" && k != "tags" && k != "opt" {
				t.Fatalf("accepted %q with unlisted name %q", args, k)
			}
		}
	})
}

// ---- forCode ----

func TestForCode(t *testing.T) {
	long := strings.Repeat("é", 100) // 2 bytes a rune
	tests := []struct {
		name     string
		err      error
		max      int
		want     string // exact, when not empty
		wantLen  int    // runes, when not 0
		mustNot  []string
		contains []string
	}{
		{"short refusal whole", &Refusal{Msg: "no such tool"}, 50, "no such tool", 0, nil, nil},
		{"refusal at exactly max", &Refusal{Msg: "abcde"}, 5, "abcde", 0, nil, nil},
		{"refusal one over max", &Refusal{Msg: "abcdef"}, 5, "abcd…", 0, nil, nil},
		{"long multibyte refusal capped by runes", &Refusal{Msg: long}, 10, strings.Repeat("é", 9) + "…", 10, nil, nil},
		{"wrapped refusal gives its own message", fmt.Errorf("context: %w", &Refusal{Msg: "inner"}), 50, "inner", 0, nil, nil},
		{"host fault gives kind only", &hostFault{kind: "ServerError", err: errors.New("token=SECRET at /home/u")}, 200,
			"host error: ServerError", 0, []string{"SECRET", "/home"}, nil},
		{"wrapped host fault gives kind only", fmt.Errorf("call: %w", &hostFault{kind: "TransportError", err: errors.New("SECRET")}), 200,
			"host error: TransportError", 0, []string{"SECRET"}, nil},
		{"plain error gives type only", errors.New("SECRET path /etc"), 200, "", 0, []string{"SECRET", "/etc"}, []string{"host error: ", "errorString"}},
		{"wrapped plain error gives type only", fmt.Errorf("x: %w", errors.New("SECRET")), 200, "", 0, []string{"SECRET", "x:"}, []string{"host error: ", "wrapError"}},
		{"host error capped too", &hostFault{kind: "ServerError", err: errors.New("x")}, 8, "host er…", 0, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := forCode(tt.err, tt.max, nil)
			if tt.want != "" && got != tt.want {
				t.Errorf("forCode = %q, want %q", got, tt.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("forCode = %q, not valid UTF-8", got)
			}
			if n := utf8.RuneCountInString(got); n > tt.max {
				t.Errorf("forCode = %q has %d runes, over the cap %d", got, n, tt.max)
			}
			if tt.wantLen != 0 && utf8.RuneCountInString(got) != tt.wantLen {
				t.Errorf("forCode = %q has %d runes, want %d", got, utf8.RuneCountInString(got), tt.wantLen)
			}
			for _, s := range tt.mustNot {
				if strings.Contains(got, s) {
					t.Errorf("forCode = %q leaks %q", got, s)
				}
			}
			for _, s := range tt.contains {
				if !strings.Contains(got, s) {
					t.Errorf("forCode = %q, want it to contain %q", got, s)
				}
			}
		})
	}
}

func TestForCodeTinyCap(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("forCode with cap 0 panicked: %v", r)
		}
	}()
	if got := forCode(&Refusal{Msg: "abc"}, 0, nil); got != "" {
		t.Errorf("forCode with cap 0 = %q, want empty", got)
	}
}

// ---- budget ----

func TestBudgetTake(t *testing.T) {
	for _, tt := range []struct{ max, callers int }{{10, 100}, {0, 5}, {1, 50}, {100, 100}} {
		t.Run(fmt.Sprintf("max%d_callers%d", tt.max, tt.callers), func(t *testing.T) {
			b := &budget{max: tt.max}
			var (
				wg       sync.WaitGroup
				mu       sync.Mutex
				ok, no   int
				otherErr error
			)
			start := make(chan struct{})
			for range tt.callers {
				wg.Go(func() {
					<-start
					err := b.take()
					mu.Lock()
					defer mu.Unlock()
					var r *Refusal
					switch {
					case err == nil:
						ok++
					case errors.As(err, &r):
						no++
					default:
						otherErr = err
					}
				})
			}
			close(start)
			wg.Wait()
			if otherErr != nil {
				t.Fatalf("take returned %v (%T), want nil or *Refusal", otherErr, otherErr)
			}
			want := min(tt.max, tt.callers)
			if ok != want || no != tt.callers-want {
				t.Errorf("%d concurrent takes with max %d: %d succeeded, %d refused; want %d and %d", tt.callers, tt.max, ok, no, want, tt.callers-want)
			}
			if got := b.used.Load(); got != int64(want) {
				t.Errorf("used = %d after the takes, want %d", got, want)
			}
			if tt.callers >= tt.max {
				mustRefusal(t, b.take(), fmt.Sprintf("all %d tool calls", tt.max))
				if got := b.used.Load(); got != int64(tt.max) {
					t.Errorf("used = %d after a refused take, want %d", got, tt.max)
				}
			}
		})
	}
}

// ---- resultValue ----

func TestResultValue(t *testing.T) {
	wire := func(s string) *mcp.CallToolResult {
		t.Helper()
		raw := json.RawMessage(s)
		res, err := mcp.ParseCallToolResult(&raw)
		if err != nil {
			t.Fatalf("parse %s: %v", s, err)
		}
		return res
	}
	text := func(parts ...string) []mcp.Content {
		var out []mcp.Content
		for _, p := range parts {
			out = append(out, mcp.NewTextContent(p))
		}
		return out
	}
	tests := []struct {
		name    string
		res     *mcp.CallToolResult
		max     int
		want    string   // exact JSON when wantErr is nil
		wantErr []string // substrings of the refusal
	}{
		{"raw structured preferred over text", &mcp.CallToolResult{Content: text("ignored"), RawStructuredContent: json.RawMessage(`{"a":1}`)}, 100, `{"a":1}`, nil},
		{"structured preferred over text", &mcp.CallToolResult{Content: text("ignored"), StructuredContent: map[string]any{"b": 2}}, 100, `{"b":2}`, nil},
		{"raw structured null falls back to text", &mcp.CallToolResult{Content: text("hi"), RawStructuredContent: json.RawMessage(`null`)}, 100, `"hi"`, nil},
		{"wire structured kept byte for byte", wire(`{"content":[{"type":"text","text":"x"}],"structuredContent":{"n":9007199254740993,"s":"é"}}`), 100,
			`{"n":9007199254740993,"s":"é"}`, nil},
		{"wire structured array", wire(`{"content":[],"structuredContent":[1,2]}`), 100, `[1,2]`, nil},
		{"wire text only", wire(`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`), 100, `"a\nb"`, nil},
		{"text joined as JSON string", &mcp.CallToolResult{Content: text("line 1", `say "hi"`)}, 100, `"line 1\nsay \"hi\""`, nil},
		{"no content is empty string", &mcp.CallToolResult{}, 100, `""`, nil},
		{"image placeholder", &mcp.CallToolResult{Content: []mcp.Content{mcp.NewImageContent("AAAABBBB", "image/png")}}, 100,
			`"[image image/png, 8 bytes of base64]"`, nil},
		{"audio placeholder", &mcp.CallToolResult{Content: []mcp.Content{mcp.NewAudioContent("AAAA", "audio/wav")}}, 100,
			`"[audio audio/wav, 4 bytes of base64]"`, nil},
		{"resource link placeholder", &mcp.CallToolResult{Content: []mcp.Content{mcp.NewResourceLink("file:///x", "x", "", "")}}, 100,
			`"[resource file:///x]"`, nil},
		{"embedded text resource gives its text", &mcp.CallToolResult{Content: []mcp.Content{
			mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "file:///x", Text: "body"})}}, 100, `"body"`, nil},
		{"embedded blob placeholder", &mcp.CallToolResult{Content: []mcp.Content{
			mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: "file:///x", Blob: "AAAA"})}}, 100, `"[embedded resource]"`, nil},
		{"wire mixed content", wire(`{"content":[{"type":"text","text":"t"},{"type":"image","data":"QUJD","mimeType":"image/gif"},{"type":"resource","resource":{"uri":"file:///r","text":"rt"}}]}`), 200,
			`"t\n[image image/gif, 4 bytes of base64]\nrt"`, nil},

		{"isError gives refusal with tool text", &mcp.CallToolResult{IsError: true, Content: text("boom: no such repo")}, 100, "", []string{"s.t failed: boom: no such repo"}},
		{"isError beats structured content", &mcp.CallToolResult{IsError: true, Content: text("bad"), RawStructuredContent: json.RawMessage(`{"ok":true}`)}, 100, "", []string{"s.t failed: bad"}},
		{"isError without text", &mcp.CallToolResult{IsError: true}, 100, "", []string{"s.t failed: no message"}},
		{"wire isError", wire(`{"content":[{"type":"text","text":"denied"}],"isError":true}`), 100, "", []string{"s.t failed: denied"}},
		{"nil result", nil, 100, "", []string{"s.t returned no result"}},

		{"text exactly at limit", &mcp.CallToolResult{Content: text(strings.Repeat("x", 8))}, 10, `"xxxxxxxx"`, nil},
		{"text one over limit refused", &mcp.CallToolResult{Content: text(strings.Repeat("x", 9))}, 10, "", []string{"11 bytes", "10-byte limit"}},
		{"structured over limit refused", &mcp.CallToolResult{RawStructuredContent: json.RawMessage(`{"data":"` + strings.Repeat("y", 100) + `"}`)}, 50, "", []string{"over the 50-byte limit", "ask for less"}},
		{"escaping counts toward limit", &mcp.CallToolResult{Content: text(strings.Repeat(`"`, 5))}, 10, "", []string{"12 bytes", "10-byte limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resultValue("s", "t", tt.res, tt.max)
			if tt.wantErr != nil {
				if got != nil {
					t.Errorf("resultValue gave value %s with its refusal; a refused result must not be cut and passed on", got)
				}
				mustRefusal(t, err, tt.wantErr...)
				return
			}
			if err != nil {
				t.Fatalf("resultValue = %v, want %s", err, tt.want)
			}
			if string(got) != tt.want {
				t.Errorf("resultValue = %s, want %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("resultValue = %s, not valid JSON", got)
			}
		})
	}
}

// ---- callError ----

func TestCallError(t *testing.T) {
	limits := config.DefaultLimits()
	limits.CallTimeout = 7 * time.Second
	alive := context.Background()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()

	invalidParams := (&mcp.JSONRPCErrorDetails{Code: mcp.INVALID_PARAMS, Message: "SECRET bad field"}).AsError()
	internal := (&mcp.JSONRPCErrorDetails{Code: mcp.INTERNAL_ERROR, Message: "SECRET stack trace"}).AsError()

	// A call whose own deadline is a moment away, in a run that goes on.
	callEnding, cancel3 := context.WithDeadline(context.Background(), time.Now().Add(10*time.Millisecond))
	defer cancel3()

	tests := []struct {
		name      string
		ctx       context.Context
		call      context.Context // the call's context; ctx when nil
		err       error
		refusal   string // substring, when a refusal is wanted
		faultKind string // when a hostFault is wanted
	}{
		{"own timeout, run alive", alive, nil, context.DeadlineExceeded, "s.t timed out after 7s", ""},
		{"own timeout wrapped by transport", alive, nil, transport.NewError(context.DeadlineExceeded), "s.t timed out after 7s", ""},
		{"own timeout wrapped by fmt", alive, nil, fmt.Errorf("call: %w", context.DeadlineExceeded), "timed out after", ""},
		{"run cancelled", cancelled, nil, transport.NewError(context.Canceled), "s.t was cancelled", ""},
		{"run cancelled, deadline error", cancelled, nil, context.DeadlineExceeded, "s.t was cancelled", ""},
		{"run deadline passed", expired, nil, transport.NewError(context.DeadlineExceeded), "was cancelled: the run ended", ""},
		{"invalid params sentinel", alive, nil, mcp.ErrInvalidParams, "the server rejected the request as invalid", ""},
		{"invalid params from JSON-RPC error", alive, nil, invalidParams, "the server rejected the request as invalid", ""},
		{"internal error is server error", alive, nil, internal, "", "ServerError"},
		{"plain error is server error", alive, nil, errors.New("SECRET"), "", "ServerError"},
		{"transport error", alive, nil, transport.NewError(io.EOF), "", "TransportError"},
		{"transport closed", alive, nil, transport.ErrTransportClosed, "", "TransportError"},
		{"transport closed wrapped", alive, nil, fmt.Errorf("send: %w", transport.ErrTransportClosed), "", "TransportError"},
		{"transport's own timer at the call's deadline", alive, callEnding, errors.New("timeout waiting for SSE response after 7s"), "s.t timed out after 7s", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := tt.call
			if call == nil {
				call = tt.ctx
			}
			_, deadline := callDeadline(limits, 0)
			got := callError(tt.ctx, call, "s", "t", deadline, tt.err)
			if got == nil {
				t.Fatal("callError = nil")
			}
			code := forCode(got, limits.MaxErrorChars, nil)
			if strings.Contains(code, "SECRET") {
				t.Errorf("text for code %q leaks the server's message", code)
			}
			if tt.refusal != "" {
				mustRefusal(t, got, tt.refusal)
				return
			}
			var f *hostFault
			if !errors.As(got, &f) {
				t.Fatalf("callError = %v (%T), want *hostFault %s", got, got, tt.faultKind)
			}
			if f.kind != tt.faultKind {
				t.Errorf("fault kind = %q, want %q", f.kind, tt.faultKind)
			}
			if !errors.Is(got, tt.err) {
				t.Errorf("fault does not wrap the original error %v", tt.err)
			}
			if want := "host error: " + tt.faultKind; code != want {
				t.Errorf("text for code = %q, want %q", code, want)
			}
		})
	}
}

// checkErr is checkArgs without the re-encoded arguments.
func checkErr(ct *checkedTool, server string, args json.RawMessage, maxBytes int) error {
	_, err := ct.checkArgs(server, args, maxBytes)
	return err
}

func TestCheckArgsForwardsWhatItValidated(t *testing.T) {
	ct := newCheckedTool("s", upstream.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"integer"}},"additionalProperties":false}`)})
	got, err := ct.checkArgs("s", json.RawMessage(`{"a":1,"a":"ok","n":9007199254740993}`), 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"a":"ok","n":9007199254740993}` {
		t.Fatalf("forwarded %s; want the validated value, duplicate key resolved, number exact", got)
	}
}
