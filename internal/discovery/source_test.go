package discovery

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		parse func([]byte) (*cfgValue, error)
		in    string
		line  int
		msg   string
	}{
		{"json trailing comma", parseJSON, "{\n  \"a\": 1,\n}\n", 3, "not valid JSON: invalid character '}' looking for beginning of object key string"},
		{"json comment", parseJSON, "{\n  // no\n  \"a\": 1\n}", 2, "not valid JSON: invalid character '/' looking for beginning of object key string"},
		{"json truncated", parseJSON, "{\n  \"a\": [1,\n", 2, "not valid JSON: unexpected end of JSON input"},
		{"jsonc missing comma", parseJSONC, "{\n  // ok\n  \"a\": 1\n  \"b\": 2,\n}", 4, "not valid JSON: invalid character '\"' after object value (expecting ',' or '}')"},
		{"jsonc too deep", parseJSONC, "\n" + strings.Repeat("[", maxNesting+1), 2, "nested deeper than 200 levels"},
		{"toml", parseTOML, "a = 1\n[b\nc = 2\n", 2, ""},
		{"yaml", parseYAML, "a: 1\nb: [\n", 2, "not valid YAML: line 2: did not find expected node content"},
		{"yaml top-level list", parseYAML, "- a\n- b\n", 1, "not valid YAML: line 1: cannot unmarshal !!seq into map[string]interface {}"},
		{"yaml hides values", parseYAML, "secret-value\n", 1, "not valid YAML: line 1: cannot unmarshal !!str a value into map[string]interface {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.parse([]byte(tt.in))
			var pe *parseError
			if !errors.As(err, &pe) {
				t.Fatalf("err %v, want a parseError", err)
			}
			if pe.line != tt.line || (tt.msg != "" && pe.msg != tt.msg) {
				t.Errorf("got line %d %q, want line %d %q", pe.line, pe.msg, tt.line, tt.msg)
			}
		})
	}
}

func TestParseTree(t *testing.T) {
	v, err := parseJSONC([]byte("{\n  \"b\": 1,\n  \"a\": {\"x\": [true, null, \"s\"]},\n  \"b\": \"last\", // dup\n}"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	v.members(func(k string, _ *cfgValue) { keys = append(keys, k) })
	if strings.Join(keys, ",") != "a,b" || v.get("b").str != "last" || v.get("b").line != 4 {
		t.Errorf("members %q, b=%+v: want document order with the last duplicate", keys, v.get("b"))
	}
	x := v.get("a").get("x")
	if x.kind != cfgArray || x.line != 3 || x.vals[0].kind != cfgBool || x.vals[1].kind != cfgNull || x.vals[2].str != "s" {
		t.Errorf("x = %+v", x)
	}

	tv, err := parseTOML([]byte("[s.z]\nn = 1\n[s.a]\nd = 1979-05-27\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := tv.get("s"); strings.Join(s.keys, ",") != "a,z" || s.get("a").get("d").kind != cfgOther {
		t.Errorf("toml tree %+v: want sorted keys and a date as other", s)
	}
}

// fuzzReader is a reader over a fixed fake environment.
func fuzzReader() *reader {
	return &reader{env: env{home: "/h", xdg: "/h/.config", cwd: "/p", goos: "linux", codexHome: "/h/.codex",
		lookup: lookupIn(map[string]string{"A": "a"})}, parsed: map[string]*file{}}
}

func fuzzParser(f *testing.F, parse func([]byte) (*cfgValue, error), seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := parse(b)
		if err != nil {
			var pe *parseError
			if !errors.As(err, &pe) || pe.msg == "" || pe.line < 0 {
				t.Fatalf("error %v is not a parseError with a message", err)
			}
			return
		}
		if v == nil {
			t.Fatal("nil tree without an error")
		}
	})
}

func FuzzParseJSON(f *testing.F) {
	fuzzParser(f, parseJSON, `{"mcpServers": {"a": {"command": "x", "args": ["1"]}}}`, `{"a":`, `[1,]`)
}

func FuzzParseJSONC(f *testing.F) {
	fuzzParser(f, parseJSONC, "{/* c */ \"a\": [1,], // x\n}", `{"a": "\u00e9"}`, "[[[[")
}

func FuzzParseTOML(f *testing.F) {
	fuzzParser(f, parseTOML, "[mcp_servers.a]\ncommand = \"x\"\nargs = [\"1\"]\n", "a = [", "[a.b.c]\nd = 1979-05-27T07:32:00Z")
}

func FuzzParseYAML(f *testing.F) {
	fuzzParser(f, parseYAML, "mcpServers:\n  - name: a\n    command: x\n", "a: &a [*a]", "- a")
}

// FuzzClientFiles feeds the same bytes to every client's reader, as each
// file format, and checks that untrusted input only ever yields servers that
// make sense and problems, never a panic.
func FuzzClientFiles(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers": {"a": {"command": "x", "args": ["${A}"], "env": {"K": 1}, "disabled": true}, "b": {"url": "https://h/sse", "headers": {"h": "$A"}}}}`,
		`{"servers": {"a": {"type": "stdio", "command": "x", "envFile": "${workspaceFolder}/.env", "env": {"T": "${input:t}"}}}}`,
		`{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}, "disabledMcpServers": ["a"]}}, "mcpServers": {"b": {"type": "http", "url": "u"}}}`,
		`{"mcp": {"a": {"type": "local", "command": ["x", "y"], "environment": {"E": "{env:A}"}}, "b": {"type": "remote", "url": "u"}}}`,
		`{"context_servers": {"a": {"command": {"path": "x", "args": []}}, "b": {"source": "extension"}, "c": {"url": "u"}}}`,
		"[mcp_servers.a]\ncommand = \"x\"\n[mcp_servers.b]\nurl = \"u\"\nbearer_token_env_var = \"T\"\n",
		"mcpServers:\n  - name: a\n    command: x\n  - uses: y\n",
		`{"bare": {"command": "x"}}`,
		`{"command": "npx", "args": ["mcp-code-mode"]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var roots []*cfgValue
		for _, format := range []fileFormat{formatJSON, formatJSONC, formatTOML, formatYAML} {
			if root, err := parseConfig(b, format); err == nil && root.kind == cfgObject {
				roots = append(roots, root)
			}
		}
		if len(roots) == 0 {
			return
		}
		for _, c := range clientTable {
			r := fuzzReader()
			for _, st := range c.files(&r.env) {
				for _, root := range roots {
					st.decode(r, &file{client: c.id, path: filepath.Join("/fuzz", c.id), root: root})
				}
			}
			for _, s := range dedupe(r.servers) {
				switch {
				case s.Name == "" || s.Client != c.id || !strings.HasPrefix(s.Source, "/fuzz/"):
					t.Fatalf("%s: server without name or provenance: %+v", c.id, s)
				case s.Transport == config.TransportStdio && (s.Command == "" || s.URL != ""):
					t.Fatalf("%s: bad stdio server %+v", c.id, s)
				case s.Transport != config.TransportStdio && (s.Transport != config.TransportHTTP && s.Transport != config.TransportSSE || s.URL == "" || s.Command != ""):
					t.Fatalf("%s: bad remote server %+v", c.id, s)
				case s.Disabled && s.Why == "":
					t.Fatalf("%s: disabled without a reason: %+v", c.id, s)
				case s.Transport == config.TransportStdio && launchesSelf(s.Command, s.Args, nil):
					t.Fatalf("%s: self not skipped: %+v", c.id, s)
				}
			}
			for _, p := range r.problems {
				if p.Client != c.id || p.Err == "" || p.Path == "" {
					t.Fatalf("%s: problem without provenance: %+v", c.id, p)
				}
			}
		}
	})
}
