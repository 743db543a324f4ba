package stubs

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSignature(t *testing.T) {
	got := loadTool(t, filepath.Join("testdata", "github_create_issue.json")).Signature()
	want := "create_issue(owner: str, repo: str, title: str, body: str | None = None, assignees: list[str] | None = None, " +
		"labels: list[str] | None = None, milestone: float | None = None, type_: str | None = None) -> Any"
	if got != want {
		t.Errorf("Signature() =\n%s\nwant\n%s", got, want)
	}
	if got := (Tool{Name: "ping", Py: "ping"}).Signature(); got != "ping() -> Any" {
		t.Errorf("Signature() of a tool without parameters = %q", got)
	}
}

// The one-line signature declares what the stub declares: for every
// fixture, the stub's def line(s), joined, unless parameters had to be
// left out; then it is a prefix of them, ends in "..." and stays within
// its bound.
func TestSignatureIsTheStubsOnOneLine(t *testing.T) {
	def := regexp.MustCompile(`(?s)^async def (.*?) -> Any:\n`)
	tools := pythonTools(t)
	// A tool with more parameters than fit on a line.
	props := map[string]any{}
	var required []string
	for i := range 40 {
		name := fmt.Sprintf("parameter_%02d", i)
		props[name] = map[string]any{"type": "string"}
		if i < 3 {
			required = append(required, name)
		}
	}
	schema, err := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	if err != nil {
		t.Fatal(err)
	}
	many, err := FromSchema("many", "many", "", schema)
	if err != nil {
		t.Fatal(err)
	}
	tools = append(tools, many)
	cut := 0
	for i, tool := range tools {
		sig := tool.Signature()
		m := def.FindStringSubmatch(tool.Stub())
		if m == nil {
			t.Fatalf("tool %d: stub without a def line:\n%s", i, tool.Stub())
		}
		full := strings.NewReplacer("(\n    ", "(", ",\n    ", ", ", ",\n)", ")").Replace(m[1]) + " -> Any"
		if strings.Contains(sig, "\n") {
			t.Errorf("tool %d: signature on more than one line: %q", i, sig)
		}
		if !strings.HasSuffix(sig, "...) -> Any") {
			if sig != full {
				t.Errorf("tool %d: Signature() =\n%s\nthe stub declares\n%s", i, sig, full)
			}
			continue
		}
		cut++
		// The name is always whole, however long.
		if n := utf8.RuneCountInString(sig); n > max(maxSignature, utf8.RuneCountInString(tool.funcName())+len("(...) -> Any"))+len(", ...") {
			t.Errorf("tool %d: signature of %d runes, want at most about %d: %s", i, n, maxSignature, sig)
		}
		if prefix := strings.TrimSuffix(sig, "...) -> Any"); !strings.HasPrefix(full, prefix) {
			t.Errorf("tool %d: cut signature %q is not a prefix of the stub's %q", i, sig, full)
		}
	}
	if s := many.Signature(); !strings.HasPrefix(s, "many(parameter_00: str, parameter_01: str, parameter_02: str, ") {
		t.Errorf("the required parameters were not kept first: %s", s)
	}
	if cut == 0 {
		t.Error("no signature was cut: the long case is not tested")
	}
}
