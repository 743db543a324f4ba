package install

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/tailscale/hujson"

	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
)

func jsonFile(t testing.TB, data string, strict bool) *clientFile {
	t.Helper()
	format := discovery.FormatJSONC
	if strict {
		format = discovery.FormatJSON
	}
	f := discovery.UserFile{Client: "cursor", Name: "Cursor", Path: "/x/mcp.json", Format: format, Key: "mcpServers"}
	j, err := parseJSONDoc([]byte(data), strict, f.Key)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return &clientFile{f: f, data: []byte(data), exists: true, doc: &jsonClient{j}}
}

// switchOver does what Install and Uninstall do to a document: add the
// entry and move server "a" out, then take the entry out and put "a" back,
// checking each edit as they do. It returns the document in between.
func switchOver(t testing.TB, data string, strict bool) string {
	t.Helper()
	want := entryFor("cursor", "/opt/mcp-code-mode")
	cf := jsonFile(t, data, strict)
	before, err := cf.doc.value()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := cf.doc.entries()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cf.doc.setSelf(want, false); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(entries, func(e rawEntry) bool { return e.name == "a" })
	sv, err := cf.doc.remove("a")
	if err != nil {
		t.Fatal(err)
	}
	if i > 0 {
		sv.After = entries[i-1].name
	}
	if err := cf.check(before, edit{self: want, gone: []string{"a"}}); err != nil {
		t.Fatalf("install: %v\n%s", err, cf.doc.bytes())
	}
	mid := string(cf.doc.bytes())

	cf = jsonFile(t, mid, strict)
	if before, err = cf.doc.value(); err != nil {
		t.Fatal(err)
	}
	if _, err := cf.doc.remove(EntryName); err != nil {
		t.Fatal(err)
	}
	if err := cf.doc.restore("a", sv); err != nil {
		t.Fatal(err)
	}
	if err := cf.check(before, edit{unself: true, back: map[string]saved{"a": sv}}); err != nil {
		t.Fatalf("uninstall: %v\n%s", err, cf.doc.bytes())
	}
	if got := string(cf.doc.bytes()); got != data {
		t.Errorf("after install and uninstall:\n%s\nwant the file as it was:\n%s\n(in between:\n%s)", got, data, mid)
	}
	return mid
}

// Adding the entry, moving a server out, and undoing both gives back the
// file byte for byte, whatever its layout: comments before, after and
// inside entries, trailing commas, one-line objects, tabs, CRLF, a BOM.
func TestJSONEditsGiveBackTheFileAsItWas(t *testing.T) {
	tests := []struct {
		name, data string
		strict     bool
		mid        []string // text the file holds in between
	}{
		{"first of two", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},\n    \"b\": {\"command\": \"y\"}\n  }\n}\n", true,
			[]string{"{\n  \"mcpServers\": {\n    \"b\": {\"command\": \"y\"},\n    \"code-mode\": {\n      \"command\": \"/opt/mcp-code-mode\",\n      \"args\": [\"serve\"]\n    }\n  }\n}\n"}},
		{"last, with comments", `// top
{
  "theme": "dark", // same line
  "mcpServers": {
    // about b
    "b": {"command": "y"}, // after b
    // about a
    "a": {
      "command": "x", // inside a
      "args": ["1"]
    } // after a
  },
  "other": [1, 2]
}
`, false, []string{"// after b\n", "// same line"}},
		{"middle, trailing commas", "{\n\t\"mcpServers\": {\n\t\t\"b\": {},\n\t\t\"a\": {\"command\": \"x\",},\n\t\t\"c\": {},\n\t},\n}", false,
			[]string{"\t\t\"code-mode\": {\n\t\t\t\"command\""}},
		{"one line", `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`, true,
			[]string{`{"mcpServers": {"b": {"command": "y"}, "code-mode": {"command":"/opt/mcp-code-mode","args":["serve"]}}}`}},
		{"only server", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  }\n}", true, nil},
		{"CRLF", "{\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"x\"},\r\n    \"b\": {}\r\n  }\r\n}\r\n", true,
			[]string{"    \"code-mode\": {\r\n      \"command\""}},
		{"BOM", "\ufeff{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}", true, []string{"\ufeff{"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mid := switchOver(t, tt.data, tt.strict)
			for _, s := range tt.mid {
				if !strings.Contains(mid, s) {
					t.Errorf("in between, the file has no %q:\n%s", s, mid)
				}
			}
		})
	}
}

// A file without the map of servers, or without any content, gets one.
func TestJSONEntryIsAddedWhereThereWasNone(t *testing.T) {
	for in, want := range map[string]string{
		"":                       "{\n  \"mcpServers\": {\n    \"code-mode\": {\n      \"command\": \"/m\",\n      \"args\": [\"serve\"]\n    }\n  }\n}\n",
		"{}":                     "{\n  \"mcpServers\": {\n    \"code-mode\": {\n      \"command\": \"/m\",\n      \"args\": [\"serve\"]\n    }\n  }\n}",
		`{"mcpServers": null}`:   `{"mcpServers": {"code-mode": {"command":"/m","args":["serve"]}}}`,
		"{\n\t\"theme\": 1\n}\n": "{\n\t\"theme\": 1,\n\t\"mcpServers\": {\n\t\t\"code-mode\": {\n\t\t\t\"command\": \"/m\",\n\t\t\t\"args\": [\"serve\"]\n\t\t}\n\t}\n}\n",
	} {
		cf := jsonFile(t, in, true)
		before, _ := cf.doc.value()
		want0 := entryFor("cursor", "/m")
		if _, err := cf.doc.setSelf(want0, false); err != nil {
			t.Fatal(err)
		}
		if got := string(cf.doc.bytes()); got != want {
			t.Errorf("from %q:\n%s\nwant:\n%s", in, got, want)
		}
		if err := cf.check(before, edit{self: want0}); err != nil {
			t.Errorf("from %q: %v", in, err)
		}
	}
}

// An entry of this program that sets more than its command keeps the rest
// when its command changes (the program was moved, say).
func TestJSONExistingEntryKeepsItsOtherKeys(t *testing.T) {
	cf := jsonFile(t, `{"mcpServers": {"code-mode": {"command": "/old/mcp-code-mode", "args": ["serve"], "env": {"DOCKER_HOST": "unix:///x.sock"}}}}`, true)
	before, _ := cf.doc.value()
	want := entryFor("claude-code", "/new/mcp-code-mode")
	changed, err := cf.doc.setSelf(want, true)
	if err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	got := string(cf.doc.bytes())
	if !strings.Contains(got, `"command": "/new/mcp-code-mode"`) || !strings.Contains(got, `"DOCKER_HOST": "unix:///x.sock"`) {
		t.Errorf("got %s", got)
	}
	if err := cf.check(before, edit{self: want, exists: true}); err != nil {
		t.Error(err)
	}
	if changed, _ := cf.doc.setSelf(want, true); changed {
		t.Error("a second setSelf changed something")
	}
}

// The check refuses an edit that changes more than it should: a server
// lost on the way, another setting changed, the entry not as intended.
func TestCheckRefusesAnEditThatDoesMore(t *testing.T) {
	const data = `{"theme": "dark", "mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`
	want := entryFor("cursor", "/m")
	for name, spoil := range map[string]func(d *jsonClient){
		"a server lost": func(d *jsonClient) { _, _ = d.remove("b") },
		"a setting changed": func(d *jsonClient) {
			v, _ := hujson.Parse([]byte(`"light"`))
			d.rootObj().Members[0].Value = v
		},
		"the entry not as intended": func(d *jsonClient) {
			_, _ = d.setEntry(EntryName, orderedJSON{{"command", "/elsewhere"}})
		},
	} {
		cf := jsonFile(t, data, true)
		before, _ := cf.doc.value()
		if _, err := cf.doc.setSelf(want, false); err != nil {
			t.Fatal(err)
		}
		if _, err := cf.doc.remove("a"); err != nil {
			t.Fatal(err)
		}
		if err := cf.check(before, edit{self: want, gone: []string{"a"}}); err != nil {
			t.Fatalf("the right edit is refused: %v", err)
		}
		spoil(cf.doc.(*jsonClient))
		if err := cf.check(before, edit{self: want, gone: []string{"a"}}); err == nil || !strings.Contains(err.Error(), "nothing was written") {
			t.Errorf("%s: check = %v, want a refusal", name, err)
		}
	}
}

const codexTOML = `# Codex
model = "o3"
notes = """
[mcp_servers.not_a_header]
"""

[mcp_servers.first]
command = "one"
args = [
  "-x",
  "[y]",
]

# about second
[mcp_servers.second]
command = "two"

[mcp_servers.second.env]
K = "v"

[profiles.p]
model = 'o4' # after
`

func tomlFile(t testing.TB, data string) *clientFile {
	t.Helper()
	f := discovery.UserFile{Client: "codex", Name: "Codex", Path: "/x/config.toml", Format: discovery.FormatTOML, Key: "mcp_servers"}
	d, err := parseTOMLDoc(data)
	if err != nil {
		t.Fatal(err)
	}
	return &clientFile{f: f, data: []byte(data), exists: true, doc: &tomlClient{t: d, key: f.Key}}
}

// Tables are found by their headers only (not a "[" in a string or an
// array), come out with their comments and sub-tables, and go back where
// they were.
func TestTOMLTablesComeOutAndGoBackAsTheyWere(t *testing.T) {
	for _, name := range []string{"first", "second"} {
		for _, crlf := range []bool{false, true} {
			data := codexTOML
			if crlf {
				data = strings.ReplaceAll(data, "\n", "\r\n")
			}
			cf := tomlFile(t, data)
			before, _ := cf.doc.value()
			entries, err := cf.doc.entries()
			if err != nil {
				t.Fatal(err)
			}
			if got := []string{entries[0].name, entries[1].name}; len(entries) != 2 || !slices.Equal(got, []string{"first", "second"}) {
				t.Fatalf("entries %v", entries)
			}
			want := entryFor("codex", "/m")
			if _, err := cf.doc.setSelf(want, false); err != nil {
				t.Fatal(err)
			}
			sv, err := cf.doc.remove(name)
			if err != nil {
				t.Fatal(err)
			}
			if name == "second" {
				sv.After = "first"
				if !strings.Contains(sv.Entry, "# about second") || !strings.Contains(sv.Entry, "K = \"v\"") {
					t.Errorf("the table came out without its comment or sub-table:\n%s", sv.Entry)
				}
			}
			if err := cf.check(before, edit{self: want, gone: []string{name}}); err != nil {
				t.Fatal(err)
			}
			mid := string(cf.doc.bytes())
			if !strings.Contains(mid, "[mcp_servers.not_a_header]") || strings.Contains(mid, "[mcp_servers."+name+"]") {
				t.Errorf("in between:\n%s", mid)
			}
			cf = tomlFile(t, mid)
			before, _ = cf.doc.value()
			if _, err := cf.doc.remove(EntryName); err != nil {
				t.Fatal(err)
			}
			if err := cf.doc.restore(name, sv); err != nil {
				t.Fatal(err)
			}
			if err := cf.check(before, edit{unself: true, back: map[string]saved{name: sv}}); err != nil {
				t.Fatal(err)
			}
			if got := string(cf.doc.bytes()); got != data {
				t.Errorf("%s (CRLF %v): after install and uninstall:\n%q\nwant:\n%q", name, crlf, got, data)
			}
		}
	}
}

// An entry of this program in Codex's file has its command brought up to
// date in place: a multi-line value replaced whole, other keys and
// comments kept.
func TestTOMLExistingEntryKeepsItsOtherKeys(t *testing.T) {
	const data = "[mcp_servers.code-mode]\n# mine\ncommand = \"/old/mcp-code-mode\"\nargs = [\n  \"serve\",\n  \"--old\",\n]\nenv = { DOCKER_HOST = \"unix:///x.sock\" }\n"
	cf := tomlFile(t, data)
	before, _ := cf.doc.value()
	want := entryFor("codex", "/new/mcp-code-mode")
	if changed, err := cf.doc.setSelf(want, true); err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	got := string(cf.doc.bytes())
	const wantText = "[mcp_servers.code-mode]\n# mine\ncommand = \"/new/mcp-code-mode\"\nargs = [\"serve\"]\nenv = { DOCKER_HOST = \"unix:///x.sock\" }\n"
	if got != wantText {
		t.Errorf("got:\n%s\nwant:\n%s", got, wantText)
	}
	if err := cf.check(before, edit{self: want, exists: true}); err != nil {
		t.Error(err)
	}
}

// TOML strings written for this program's config read back as written.
func TestTOMLStringsReadBackAsWritten(t *testing.T) {
	for _, s := range []string{"plain", `quo"te\back`, "tab\tnew\nline\r", "\x00\x1f\x7f", "ünïcödé ✓", "bad \xff utf8"} {
		m, err := toml.Parser().Unmarshal([]byte("k = " + tomlString(s) + "\n" + tomlKey(s) + " = 1\n"))
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if m["k"] != want {
			t.Errorf("%q read back as %q", s, m["k"])
		}
		if _, ok := m[want]; !ok {
			t.Errorf("key %q not read back: %v", s, m)
		}
	}
}

// FuzzTOMLHeaders checks the header scanner against the TOML parser: every
// table header it finds in a document the parser accepts is a table the
// parser found.
func FuzzTOMLHeaders(f *testing.F) {
	f.Add(codexTOML)
	f.Add("a = '''\n[x]\n'''\n[y]\nb = [\n[1],\n]\n")
	f.Add("[\"q.x\".'y z']\n")
	f.Fuzz(func(t *testing.T, text string) {
		m, err := toml.Parser().Unmarshal([]byte(text))
		if err != nil {
			return
		}
		d, err := parseTOMLDoc(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range d.headers {
			if h.array {
				continue
			}
			v := any(m)
			for _, p := range h.path {
				tbl, ok := v.(map[string]any)
				if !ok {
					t.Fatalf("header %q is no table of the document:\n%s", h.path, text)
				}
				v = tbl[p]
			}
			if _, ok := v.(map[string]any); !ok {
				t.Fatalf("header %q is no table of the document:\n%s", h.path, text)
			}
		}
	})
}

// FuzzJSONMoveAndRestore takes each server out of a document and puts it
// back: the document must read the same, and parse.
func FuzzJSONMoveAndRestore(f *testing.F) {
	f.Add(`{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`)
	f.Add("{\n  // c\n  \"mcpServers\": {\n    \"a\": {}, // x\n    /* y */ \"b\": {},\n  },\n}")
	f.Add("{//\n\"mcpServers\": {\n\"\":{},/*\n000000000*/ \"0\": {       }        } }") // a line break inside a block comment
	f.Fuzz(func(t *testing.T, data string) {
		if d := bytes.Count([]byte(data), []byte("{")) + bytes.Count([]byte(data), []byte("[")); d > 100 {
			return // nesting is bounded before a file gets here
		}
		j, err := parseJSONDoc([]byte(data), false, "mcpServers")
		if err != nil {
			return
		}
		entries, err := j.entries()
		if err != nil {
			return
		}
		before, err := j.value()
		if err != nil {
			return
		}
		for i, e := range entries {
			if e.duplicate {
				continue
			}
			sv, err := j.remove(e.name)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				sv.After = entries[i-1].name
			}
			if err := j.restore(e.name, sv); err != nil {
				t.Fatal(err)
			}
			again, err := parseJSONDoc(j.bytes(), false, "mcpServers")
			if err != nil {
				t.Fatalf("after moving %q out and back: %v\n%s", e.name, err, j.bytes())
			}
			after, _ := again.value()
			if !jsonEqual(before, after) {
				t.Fatalf("after moving %q out and back it reads differently:\n%s\nwas:\n%s", e.name, j.bytes(), data)
			}
		}
	})
}

// A code-mode entry in Zed's older form is left alone when it already
// starts this program, and refused when it would have to be rewritten
// (its object may hold more than the path).
func TestZedOlderFormIsNotRewritten(t *testing.T) {
	const data = `{"context_servers": {"code-mode": {"command": {"path": "/m", "args": ["serve"], "env": {"DOCKER_HOST": "x"}}}}}`
	f := discovery.UserFile{Client: "zed", Name: "Zed", Path: "/x/settings.json", Format: discovery.FormatJSONC, Key: "context_servers"}
	for exe, wantErr := range map[string]bool{"/m": false, "/elsewhere/mcp-code-mode": true} {
		j, err := parseJSONDoc([]byte(data), false, f.Key)
		if err != nil {
			t.Fatal(err)
		}
		c := &jsonClient{j}
		changed, err := c.setSelf(entryFor("zed", exe), true)
		if changed || (err != nil) != wantErr || string(c.bytes()) != data {
			t.Errorf("%s: changed %v, err %v; want no change and error %v:\n%s", exe, changed, err, wantErr, c.bytes())
		}
	}
}
