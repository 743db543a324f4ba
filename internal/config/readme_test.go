package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every config example of the README works as pasted: each ```toml block
// loads, and merges into a list of servers; an entry that only changes a
// discovered server is merged onto one of that name, turned off by its
// client, as the README describes. Each `key = value` in its text is a key
// of one of the tables. So do the files of configs/, which it links to.
func TestTheREADMEConfigExamplesLoad(t *testing.T) {
	text := readme(t)
	blocks := regexp.MustCompile("(?ms)^```toml\n(.*?)^```").FindAllStringSubmatch(text, -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d ```toml blocks in README.md: the pattern is broken", len(blocks))
	}
	examples := map[string]string{}
	for i, b := range blocks {
		examples["block "+string(rune('1'+i))] = b[1]
	}
	demos, err := filepath.Glob(filepath.Join("..", "..", "configs", "*.toml"))
	if err != nil || len(demos) == 0 {
		t.Fatalf("configs/*.toml: %v %v", demos, err)
	}
	for _, p := range demos {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		examples[filepath.Base(p)] = string(b)
	}
	for name, example := range examples {
		t.Run(name, func(t *testing.T) {
			p := writeConfig(t, "config.toml", example)
			cfg, err := Load(p, nil)
			if err != nil {
				t.Fatalf("Load:\n%v\n\n%s", err, example)
			}
			var discovered []Server
			for name, sc := range cfg.Servers {
				if sc.Command == "" && sc.URL == "" && sc.Type == "" {
					discovered = append(discovered, Server{Name: name, Transport: TransportStdio, Command: "npx",
						Source: "cursor.json#mcpServers." + name, Disabled: true, Why: "disabled in cursor.json"})
				}
			}
			servers, err := cfg.Merge(p, discovered)
			if err != nil {
				t.Fatalf("Merge: %v\n\n%s", err, example)
			}
			if len(servers) != len(cfg.Servers) {
				t.Fatalf("Merge gave %d servers for the %d entries: %+v", len(servers), len(cfg.Servers), servers)
			}
			for _, s := range servers {
				if sc := cfg.Servers[s.Name]; sc.Disabled != nil && s.Disabled != *sc.Disabled {
					t.Errorf("server %s: Disabled %v, but the example says disabled = %v", s.Name, s.Disabled, *sc.Disabled)
				}
			}
		})
	}

	// `key = value` in the text: a key of the top level, or of some table.
	inline := regexp.MustCompile("`([a-z_]+ = [^`]+)`").FindAllStringSubmatch(text, -1)
	if len(inline) < 3 {
		t.Fatalf("found %d `key = value` spans in README.md: the pattern is broken", len(inline))
	}
	for _, m := range inline {
		var errs []string
		for _, table := range []string{"", "[limits]\n", "[discovery]\n", "[state]\n", "[servers.x]\ncommand = \"x\"\n"} {
			_, err := Load(writeConfig(t, "c.toml", table+m[1]+"\n"), nil)
			if err == nil {
				errs = nil
				break
			}
			errs = append(errs, err.Error())
		}
		if errs != nil {
			t.Errorf("README's `%s` is a key of no table:\n%s", m[1], strings.Join(errs, "\n"))
		}
	}
}

// The keys the README documents are the keys Config has: the flags table's
// config keys and the [limits] table's are each known, and every key
// Config knows is named in the README.
func TestTheREADMEDocumentsEveryConfigKey(t *testing.T) {
	text := readme(t)
	top := schemaOf(reflect.TypeFor[Config](), "")
	known := func(dotted string) bool {
		s := top
		for part := range strings.SplitSeq(dotted, ".") {
			if s.shape == shapeMap {
				s = s.elem
			}
			if s.shape != shapeTable || s.fields[part] == nil {
				return false
			}
			s = s.fields[part]
		}
		return true
	}
	var documented []string
	// | `--deadline D` | `limits.deadline` | ... (the flags table)
	for _, m := range regexp.MustCompile("(?m)^\\| `--[^|]*\\| `([a-z_.]+)` \\|").FindAllStringSubmatch(text, -1) {
		documented = append(documented, m[1])
	}
	// | `call_timeout` | `30s` | ... and | `memory_bytes`, `cpus`, ... | (the [limits] table)
	start := strings.Index(text, "Every other limit is a config key under `[limits]`")
	if start < 0 {
		t.Fatal("README.md no longer introduces the [limits] table as this test expects")
	}
	for line := range strings.SplitSeq(text[start:], "\n") {
		if strings.HasPrefix(line, "A server entry") {
			break
		}
		if cells := strings.Split(line, "|"); len(cells) > 2 && strings.Contains(cells[1], "`") && !strings.Contains(cells[1], "key") {
			for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(cells[1], -1) {
				documented = append(documented, "limits."+m[1])
			}
		}
	}
	if len(documented) < 20 {
		t.Fatalf("found %d documented keys: the patterns are broken (%v)", len(documented), documented)
	}
	for _, k := range documented {
		if !known(k) {
			t.Errorf("README documents %s, which Config does not know", k)
		}
	}
	var walk func(s *schema, key string)
	walk = func(s *schema, key string) {
		switch s.shape {
		case shapeMap:
			if s.elem.shape == shapeTable {
				walk(s.elem, key)
			}
		case shapeTable:
			for name, f := range s.fields {
				dotted := join(key, name)
				if !strings.Contains(text, "`"+name+"`") && !strings.Contains(text, "`"+dotted+"`") &&
					!strings.Contains(text, "`["+dotted+"]`") && !strings.Contains(text, "`"+dotted+".") && !strings.Contains(text, "\n"+name+" = ") {
					t.Errorf("README never names the config key %s", join(key, name))
				}
				walk(f, join(key, name))
			}
		}
	}
	walk(top, "")
}
