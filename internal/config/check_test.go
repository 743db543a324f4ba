package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knadh/koanf/parsers/json"
	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/v2"
)

// A misspelled or misplaced key is not ignored: Load refuses the file and
// names every such key with its line, and the key that was probably meant.
// A misspelled policy key (readonly for read_only) would otherwise leave a
// server unrestricted without a word. The keys under env and headers are
// the user's own and are not checked; no value reaches the message.
func TestLoadReportsEveryUnknownKey(t *testing.T) {
	type want struct {
		key, hint string
		line      map[string]int // by format
	}
	wants := []want{
		{"defualt_policy", "did you mean default_policy?", map[string]int{"toml": 4, "json": 2, "yaml": 2}},
		{"deadline", "it belongs in [limits]", map[string]int{"toml": 5, "json": 3, "yaml": 3}},
		{"limit", "did you mean limits?", map[string]int{"toml": 7, "json": 4, "yaml": 4}},
		{"limits.max_call", "did you mean max_calls?", map[string]int{"toml": 11, "json": 5, "yaml": 7}},
		{"discovery.skp", "did you mean skip?", map[string]int{"toml": 14, "json": 6, "yaml": 9}},
		{"servers.gh.comand", "did you mean command?", map[string]int{"toml": 17, "json": 9, "yaml": 12}},
		{"servers.gh.readonly", "did you mean read_only?", map[string]int{"toml": 18, "json": 10, "yaml": 13}},
		{"servers.remote.Disabled", "did you mean disabled?", map[string]int{"toml": 27, "json": 16, "yaml": 20}},
	}
	for _, format := range []string{"toml", "json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join("testdata", "unknown-keys."+format)
			_, err := Load(path, nil)
			if err == nil {
				t.Fatalf("Load(%s) accepted misspelled keys", path)
			}
			msg := err.Error()
			var errs fileErrors
			if !errors.As(err, &errs) || len(errs) != len(wants) {
				t.Fatalf("Load(%s) = %v\nwant %d problems, one per misspelled key", path, err, len(wants))
			}
			for i, w := range wants {
				e := errs[i]
				prefix := fmt.Sprintf("%s:%d:", path, w.line[format])
				if line := e.Error(); !strings.HasPrefix(line, prefix) || !strings.Contains(line, " "+w.key+": unknown key") || !strings.Contains(line, w.hint) {
					t.Errorf("problem %d = %q\nwant %s...%s: unknown key (%s)", i, line, prefix, w.key, w.hint)
				}
				if e.col < 1 {
					t.Errorf("problem %d = %q: no column", i, e)
				}
			}
			for _, leak := range []string{"s3cr3t", "GITHUB_TOKEN", "anything_goes", "Authorization", "X-Any-Name", "max_calls:"} {
				if strings.Contains(msg, leak) {
					t.Errorf("the error shows %q, a value or a free-form name:\n%s", leak, msg)
				}
			}
		})
	}
}

// The TOML error points at the key's own column, in a [table] header too.
func TestUnknownKeyColumns(t *testing.T) {
	p := writeConfig(t, "c.toml", "[servers.x]\ncommand = \"x\"\n  readonly = true\n[ limit ]\n")
	_, err := Load(p, nil)
	for _, want := range []string{p + ":3:3: servers.x.readonly:", p + ":4:3: limit:"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load = %v, want %q", err, want)
		}
	}
}

// A syntax error names its line (and its column when the parser gives one);
// what the parser could not read is not shown when it is part of a value.
func TestLoadNamesTheLineOfASyntaxError(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                string // after the path
	}{
		{"toml missing value", "c.toml", "image = \"x\"\n\n[limits]\ndeadline =\n", ":4:11: invalid TOML: "},
		{"toml unclosed table", "c.toml", "image = \"x\"\n[limits\n", ":2:8: invalid TOML: "},
		{"toml bad number", "c.toml", "[limits]\nmax_calls = 1.2.3\n", ":2:"},
		{"toml key twice", "c.toml", "image = \"x\"\n[limits]\nwarm = 1\nwarm = 2\n", ":4:1: invalid TOML: key warm is already defined"},
		{"toml table twice", "c.toml", "[limits]\nwarm = 1\n[discovery]\n[limits]\n", ":4:2: invalid TOML: "},
		{"toml key then table", "c.toml", "[servers.x]\ncommand = \"x\"\nenv = 1\n[servers.x.env]\n", ":4:12: invalid TOML: "},
		{"toml inline table extended", "c.toml", "[servers.x]\nenv = {A = \"1\"}\nenv.B = \"2\"\n", ":3:1: invalid TOML: "},
		{"toml dotted table given a header", "c.toml", "[servers]\nx.command = \"y\"\n[servers.x]\n", ":3:10: invalid TOML: "},
		{"json trailing comma", "c.json", "{\n  \"image\": \"x\",\n  \"limits\": {\"warm\": 1,}\n}\n", ":3:24: invalid JSON: "},
		{"json cut short", "c.json", "{\n  \"image\": ", ":2:11: invalid JSON: unexpected end of JSON input"},
		{"json not a value", "c.json", "{\"image\": s3cr3t}", ":1:11: invalid JSON: "},
		{"yaml unclosed list", "c.yaml", "image: x\nenv: [A, B\nlimits:\n  warm: 1\n", ":2: invalid YAML: "},
		{"yaml on the first line", "c.yaml", "image: x: y\n", ":1: invalid YAML: mapping values are not allowed"},
		{"yaml tab", "c.yaml", "limits:\n\twarm: 1\n", ":2: invalid YAML: "},
		{"yaml key twice", "c.yaml", "limits:\n  warm: 1\n  warm: 2\n", ":3:3: limits.warm: key given twice (first on line 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, tt.file, tt.content)
			_, err := Load(p, nil)
			if err == nil || !strings.HasPrefix(err.Error(), p+tt.want) {
				t.Fatalf("Load = %v\nwant %s%s...", err, p, tt.want)
			}
			if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "1.2.3") {
				t.Errorf("the error shows a value: %v", err)
			}
		})
	}
}

// A value of the wrong kind is named with its key and line, not shown;
// what decoding accepts (a number for a string, "true" for a bool, a
// string for a list of one) is still accepted.
func TestLoadRefusesValuesOfTheWrongKind(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                string // "" = loads
	}{
		{"list for a string", "c.toml", "[servers.x]\ncommand = [\"s3cr3t\"]\n", ":2:1: servers.x.command: want a string, not a list"},
		{"table for a list", "c.toml", "[servers.x]\ncommand = \"x\"\n[servers.x.args]\na = \"s3cr3t\"\n", ":3:12: servers.x.args: want a list of strings, not a table"},
		{"string for a table", "c.toml", "[servers.x]\ncommand = \"x\"\nenv = \"s3cr3t\"\n", ":3:1: servers.x.env: want a table, not a string"},
		{"list in a header value", "c.toml", "[servers.x]\nurl = \"u\"\nheaders = { A = [\"s3cr3t\"] }\n", ":3:13: servers.x.headers.A: want a string, not a list"},
		{"word for a number", "c.toml", "[limits]\nmax_calls = \"s3cr3t\"\n", ":2:1: limits.max_calls: want a whole number"},
		{"fraction for a whole number", "c.json", "{\"limits\": {\"max_calls\": 1.5}}", ":1:13: limits.max_calls: want a whole number"},
		{"word for a bool", "c.yaml", "servers:\n  x:\n    command: x\n    read_only: s3cr3t\n", ":4:5: servers.x.read_only: want true or false"},
		{"word for a duration", "c.toml", "[limits]\ndeadline = \"s3cr3t\"\n", ":2:1: limits.deadline: want a duration"},
		{"date for a string", "c.yaml", "servers:\n  x:\n    command: x\n    description: 2024-01-02\n", ":4:5: servers.x.description: want a string, not a date (quote it"},
		{"list of tables", "c.toml", "[[servers]]\ncommand = \"x\"\n", ":1:3: servers: want a table, not a list"},
		{"not a table at all", "c.json", "[\"s3cr3t\"]", ":1:1: the file must hold a table of keys, not a list"},
		{"list of lists", "c.toml", "allow = [[\"s3cr3t\"]]\n", ":1:1: allow: want a list of strings, not of a list"},

		{"number for a string", "c.toml", "[servers.x]\ncommand = \"x\"\ndescription = 42\n", ""},
		{"string for a bool", "c.toml", "[servers.x]\ncommand = \"x\"\nread_only = \"true\"\n", ""},
		{"string for a list", "c.toml", "allow = \"fs\"\n", ""},
		{"numeric string for a number", "c.yaml", "limits:\n  max_calls: \"7\"\n", ""},
		{"whole float for a whole number", "c.json", "{\"limits\": {\"max_calls\": 7.0, \"cpus\": 0.5}}", ""},
		{"null", "c.yaml", "image:\nlimits:\n", ""},
		{"empty toml", "c.toml", "", ""},
		{"empty yaml", "c.yaml", "", ""},
		{"yaml anchors and merge keys", "c.yaml", "servers:\n  a: &base\n    command: x\n    read_only: true\n  b:\n    <<: *base\n    command: y\n", ""},
		{"free-form names", "c.toml", "[servers.x]\ncommand = \"x\"\nenv = { ANY_NAME = \"v\", lower = \"w\" }\n[servers.x.headers]\nX-Whatever = \"h\"\n", ""},
		{"quoted server names", "c.toml", "[servers.\"io.example.x\"]\nurl = \"https://x\"\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, tt.file, tt.content)
			_, err := Load(p, nil)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Load = %v, want it loaded", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), p+tt.want) {
				t.Fatalf("Load = %v\nwant %s%s...", err, p, tt.want)
			}
			if strings.Contains(err.Error(), "s3cr3t") {
				t.Errorf("the error shows a value: %v", err)
			}
		})
	}
}

// What an unknown key's error says: its dotted key (a server name with dots
// quoted), and a hint when one fits.
func TestUnknownKeyHints(t *testing.T) {
	for _, tt := range []struct{ file, content, want string }{
		{"c.json", `{"servers": {"io.example.x": {"url": "https://x", "typ": "sse"}}}`, `servers."io.example.x".typ: unknown key (did you mean type?)`},
		{"c.toml", "[servers.x]\ncommand = \"x\"\nenabled = false\n", "servers.x.enabled: unknown key (did you mean disabled? it says the opposite)"},
		{"c.toml", "[limits]\nread_only = true\n", "limits.read_only: unknown key (it belongs in [servers.NAME])"},
		{"c.toml", "[discovery]\nallow = [\"x\"]\n", "discovery.allow: unknown key (it belongs in the top level or [servers.NAME])"},
		{"c.toml", "mcpServers = {}\n", "mcpServers: unknown key (did you mean servers?)"}, // a client's entries pasted in
		{"c.yaml", "servers:\n  x:\n    command: x\n    cmd: y\n", "servers.x.cmd: unknown key\n"},
	} {
		p := writeConfig(t, tt.file, tt.content)
		_, err := Load(p, nil)
		if err == nil || !strings.Contains(err.Error()+"\n", tt.want) {
			t.Errorf("Load(%q) = %v, want %q", tt.content, err, tt.want)
		}
	}
}

// More than maxReported problems are counted, not all listed.
func TestManyUnknownKeysAreCapped(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "key%d = 1\n", i)
	}
	p := writeConfig(t, "c.toml", b.String())
	_, err := Load(p, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "200 problems in "+p) || !strings.Contains(err.Error(), "and 150 more") ||
		strings.Count(err.Error(), "\n") != maxReported+1 {
		t.Fatalf("Load = %v, want 200 problems, 50 of them listed", err)
	}
}

func TestClosest(t *testing.T) {
	known := []string{"allow", "args", "command", "cwd", "deny", "description", "disabled", "env", "headers", "read_only", "type", "url"}
	for name, want := range map[string]string{
		"readonly": "read_only", "read-only": "read_only", "ReadOnly": "read_only", "READ_ONLY": "read_only",
		"comand": "command", "commmand": "command", "cmd": "", "arg": "args", "urls": "url", "typo": "type",
		"header": "headers", "descripton": "description", "desciption": "description", "enabled": "",
		"environment": "", "name": "", "x": "", "allowed": "allow", "tools": "", "": "",
	} {
		if got := closest(name, known); got != want {
			t.Errorf("closest(%q) = %q, want %q", name, got, want)
		}
	}
}

// FuzzCheckFile feeds any bytes to the checks of every format: no panic;
// an error names the file (and, for TOML and JSON, always a line); what
// the checks accept, koanf's parser accepts too.
func FuzzCheckFile(f *testing.F) {
	for _, name := range []string{"unknown-keys.toml", "unknown-keys.json", "unknown-keys.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{tomlConfig, yamlConfig, jsonConfig,
		"a.b.c = 1\n[a]\n[[x.y]]\nz = {q = [1, {r = 2}]}\n", "a: &a {b: *a}\n<<: [*a, *a]\n", `{"a": {"b": [1, {"c": null}]}}`} {
		f.Add([]byte(s))
	}
	parsers := map[string]koanf.Parser{"toml": toml.Parser(), "json": json.Parser(), "yaml": yaml.Parser()}
	f.Fuzz(func(t *testing.T, b []byte) {
		for format, parser := range parsers {
			err := checkFile("f."+format, format, b)
			if err == nil {
				if _, perr := parser.Unmarshal(b); perr != nil && format != "yaml" {
					t.Fatalf("%s: the checks accepted what koanf refuses: %v", format, perr)
				}
				continue
			}
			var errs fileErrors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("%s: error %v is not a list of problems", format, err)
			}
			for _, e := range errs {
				if e.path != "f."+format || e.msg == "" || e.line < 0 || e.col < 0 || (format != "yaml" && e.line == 0) {
					t.Fatalf("%s: problem without its place: %+v", format, e)
				}
			}
		}
	})
}

// A file with more keys than any config needs is refused at the first key
// too many, before go-toml, whose time grows with the square of the keys,
// reads it (40,000 keys took it 10 s; this file's 100,000 would take
// minutes).
func TestLoadRefusesTooManyKeys(t *testing.T) {
	for _, tt := range []struct{ file, head, line, tail string }{
		{"c.toml", "", "k%d = 1\n", ""},
		{"c.yaml", "", "k%d: 1\n", ""},
		{"c.json", "{\n", "\"k%d\": 1,\n", "\"z\": 1}\n"},
	} {
		var b strings.Builder
		b.WriteString(tt.head)
		for i := range 100_000 {
			fmt.Fprintf(&b, tt.line, i)
		}
		b.WriteString(tt.tail)
		p := writeConfig(t, tt.file, b.String())
		want := fmt.Sprintf("%s:%d:1: too many keys: a config file may hold %d", p, strings.Count(tt.head, "\n")+maxKeys+1, maxKeys)
		if _, err := Load(p, nil); err == nil || err.Error() != want {
			t.Errorf("Load(%d keys) = %v, want %q", 100_000, err, want)
		}
	}
}
