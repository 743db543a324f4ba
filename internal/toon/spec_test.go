package toon

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// npmDir is testdata/npm, where `make testdata` installs the pinned
// @toon-format/spec (the specification's conformance fixtures) and
// @toon-format/toon (the reference implementation, whose decoder the
// round-trip test uses).
var npmDir = filepath.Join("..", "..", "testdata", "npm")

// specDir returns the installed @toon-format/spec package. The test skips
// without it, and fails instead under CI=true.
func specDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(npmDir, "node_modules", "@toon-format", "spec")
	if _, err := os.Stat(filepath.Join(dir, "SPEC.md")); err != nil {
		testenv.SkipOrFail(t, "@toon-format/spec is not installed in testdata/npm (run `make testdata`): %v", err)
	}
	return dir
}

// fixtureFile is one file of tests/fixtures/encode.
type fixtureFile struct {
	Version  string        `json:"version"`
	Category string        `json:"category"`
	Tests    []fixtureCase `json:"tests"`
}

type fixtureCase struct {
	Name        string                     `json:"name"`
	Input       json.RawMessage            `json:"input"`
	Expected    json.RawMessage            `json:"expected"`
	Options     map[string]json.RawMessage `json:"options"`
	ShouldError bool                       `json:"shouldError"`
}

// fixtureOptions maps a fixture's options to Options; an option this test
// does not know fails the case rather than being ignored.
func fixtureOptions(raw map[string]json.RawMessage) (Options, error) {
	var opts Options
	for name, v := range raw {
		var err error
		switch name {
		case "delimiter":
			var s string
			if err = json.Unmarshal(v, &s); err == nil {
				if len([]rune(s)) != 1 {
					return opts, fmt.Errorf("delimiter %q", s)
				}
				opts.Delimiter = []rune(s)[0]
			}
		case "indent":
			err = json.Unmarshal(v, &opts.Indent)
		case "keyFolding":
			var s string
			if err = json.Unmarshal(v, &s); err == nil {
				switch s {
				case "safe":
					opts.KeyFolding = true
				case "off":
				default:
					return opts, fmt.Errorf("keyFolding %q", s)
				}
			}
		case "flattenDepth":
			err = json.Unmarshal(v, &opts.FlattenDepth)
			if err == nil && opts.FlattenDepth == 0 {
				// The specification's 0 folds nothing, as 1 does; this
				// package's 0 is no limit.
				opts.FlattenDepth = 1
			}
		default:
			return opts, fmt.Errorf("unknown option %q", name)
		}
		if err != nil {
			return opts, fmt.Errorf("option %s: %w", name, err)
		}
	}
	return opts, nil
}

// floats turns the json.Numbers of v into float64, as encoding/json
// decodes numbers by default.
func floats(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, _ := v.Float64() // out of range: ±Inf, which encodes as null
		return f
	case Object:
		out := make(Object, len(v))
		for i, m := range v {
			out[i] = Member{m.Key, floats(m.Value)}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = floats(x)
		}
		return out
	}
	return v
}

// TestEncodeFixtures runs every case of the specification's encoder
// conformance fixtures (tests/fixtures/encode/*.json) with its options and
// compares the output byte for byte; a case that expects an error must
// get one. Each case runs twice: with numbers as json.Number (as
// DecodeJSON gives them) and as float64 (as encoding/json gives them).
func TestEncodeFixtures(t *testing.T) {
	dir := filepath.Join(specDir(t), "tests", "fixtures", "encode")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases, passed := 0, 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var file fixtureFile
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if file.Category != "encode" {
			t.Fatalf("%s: category %q, want encode", path, file.Category)
		}
		for _, tc := range file.Tests {
			cases++
			name := strings.TrimSuffix(filepath.Base(path), ".json") + "/" + tc.Name
			ok := t.Run(name, func(t *testing.T) {
				opts, err := fixtureOptions(tc.Options)
				if err != nil {
					t.Fatal(err)
				}
				input, err := DecodeJSON(tc.Input)
				if err != nil {
					t.Fatalf("input: %v", err)
				}
				for _, variant := range []struct {
					name  string
					input any
				}{{"json.Number", input}, {"float64", floats(input)}} {
					got, err := Marshal(variant.input, opts)
					if tc.ShouldError {
						if err == nil {
							t.Errorf("%s: Marshal = %q, want an error", variant.name, got)
						}
						continue
					}
					var want string
					if err := json.Unmarshal(tc.Expected, &want); err != nil {
						t.Fatalf("expected: %v", err)
					}
					if err != nil {
						t.Errorf("%s: Marshal: %v", variant.name, err)
					} else if string(got) != want {
						t.Errorf("%s: Marshal(%s, %+v)\n got: %q\nwant: %q", variant.name, tc.Input, opts, got, want)
					}
				}
			})
			if ok {
				passed++
			}
		}
	}
	t.Logf("encode fixtures: %d of %d cases passed, from %d files", passed, cases, len(files))
	if cases < 150 {
		t.Errorf("found only %d cases in %s: the fixtures moved or the loader is broken", cases, dir)
	}
}

// TestSpecExamples encodes the specification's examples that come with
// their JSON (examples/conversions with the default options, and the key
// folding examples with keyFolding "safe") and compares them with the
// .toon files, which end without or with a newline.
func TestSpecExamples(t *testing.T) {
	dir := filepath.Join(specDir(t), "examples")
	var found []string
	for _, sub := range []string{"conversions", "valid"} {
		files, err := filepath.Glob(filepath.Join(dir, sub, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			name := sub + "/" + strings.TrimSuffix(filepath.Base(path), ".json")
			found = append(found, name)
			t.Run(name, func(t *testing.T) {
				input, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".toon")
				if err != nil {
					t.Fatal(err)
				}
				v, err := DecodeJSON(input)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Marshal(v, Options{KeyFolding: strings.Contains(name, "key-folding")})
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != strings.TrimSuffix(string(want), "\n") {
					t.Errorf("got:\n%s\nwant:\n%s", got, want)
				}
			})
		}
	}
	if !slices.Contains(found, "conversions/users") || !slices.Contains(found, "valid/key-folding-basic") {
		t.Errorf("examples found: %v; want conversions/users and valid/key-folding-basic among them", found)
	}
}
