package discovery

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExpand(t *testing.T) {
	env := lookupIn(map[string]string{"A": "alpha", "B_2": "beta", "EMPTY": ""})
	vars := map[string]string{"workspaceFolder": "/proj", "userHome": "/home/u", "/": "/"}
	tests := []struct {
		syntax  expandSyntax
		inputs  bool
		in      string
		want    string
		unset   []string
		blocked bool
	}{
		{syntaxNone, false, "${A} $A {env:A}", "${A} $A {env:A}", nil, false},

		{syntaxBraces, false, "${A}/${B_2}", "alpha/beta", nil, false},
		{syntaxBraces, false, "${NOPE:-dflt}", "dflt", nil, false},
		{syntaxBraces, false, "${A:-dflt}", "alpha", nil, false},
		{syntaxBraces, false, "${EMPTY:-dflt}", "", nil, false}, // set, even if empty
		{syntaxBraces, false, "${NOPE:-}x", "x", nil, false},
		{syntaxBraces, false, "x${NOPE}y", "xy", []string{"NOPE"}, false},
		{syntaxBraces, false, "$A ${env:A}", "$A ${env:A}", nil, false}, // bare $VAR is not expanded
		{syntaxBraces, false, "${A", "${A", nil, false},

		{syntaxDollar, false, "$A-${B_2}", "alpha-beta", nil, false},
		{syntaxDollar, false, "Bearer $NOPE", "Bearer ", []string{"NOPE"}, false},
		{syntaxDollar, false, "$$A", "$alpha", nil, false},
		{syntaxDollar, false, "cost $5", "cost ", []string{"5"}, false}, // \w+ matches digits, as in Gemini

		{syntaxEditor, false, "${env:A}:${workspaceFolder}${/}x", "alpha:/proj/x", nil, false},
		{syntaxEditor, false, "${env:NOPE}", "", []string{"NOPE"}, false},
		{syntaxEditor, false, "${A} ${unknownVar}", "${A} ${unknownVar}", nil, false},
		{syntaxEditor, false, "${input:tok}", "${input:tok}", nil, false}, // Cursor: left as written
		{syntaxEditor, true, "Bearer ${input:tok}", "Bearer ${input:tok}", nil, true},
		{syntaxEditor, true, "${command:pick}", "${command:pick}", nil, true},

		{syntaxOpenCode, false, "{env:A}-{env:NOPE}", "alpha-", []string{"NOPE"}, false},
		{syntaxOpenCode, false, "${A} {file:~/x}", "${A} {file:~/x}", nil, false},
	}
	for _, tt := range tests {
		x := &expander{syntax: tt.syntax, lookup: env, vars: vars, inputs: tt.inputs}
		got := x.expand(tt.in)
		if got != tt.want || !slices.Equal(x.unset, tt.unset) || (x.blocked != "") != tt.blocked {
			t.Errorf("syntax %d expand(%q) = %q unset %q blocked %q; want %q unset %q blocked %v",
				tt.syntax, tt.in, got, x.unset, x.blocked, tt.want, tt.unset, tt.blocked)
		}
	}
}

func TestParseEnvFile(t *testing.T) {
	in := "\ufeff# comment\n\nA=1\nexport B = two words \nC=\"quoted # not a comment\\nnext\"\nD='single $x'\nE=val # comment\nbad line\n=novalue\nF=\n"
	got, bad := parseEnvFile([]byte(in))
	want := map[string]string{"A": "1", "B": "two words", "C": "quoted # not a comment\nnext", "D": "single $x", "E": "val", "F": ""}
	if !maps.Equal(got, want) {
		t.Errorf("vars %q, want %q", got, want)
	}
	wantBad := []envFileLine{{8, "not KEY=VALUE"}, {9, "not KEY=VALUE"}}
	if !slices.Equal(bad, wantBad) {
		t.Errorf("bad lines %v, want %v", bad, wantBad)
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{"${A}", "${A:-b}", "$A${B}", "${env:A}${input:x}", "{env:A}", "${", "$", "${}", "{env:}", "${workspaceFolder}"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, syn uint8) {
		x := &expander{
			syntax: expandSyntax(syn % 5), inputs: syn&8 != 0,
			lookup: lookupIn(map[string]string{"A": "a"}),
			vars:   map[string]string{"workspaceFolder": "/w"},
		}
		out := x.expand(s)
		if x.syntax == syntaxNone && out != s {
			t.Fatalf("syntaxNone changed %q to %q", s, out)
		}
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("expand(%q) made invalid UTF-8", s)
		}
		for _, n := range x.unset {
			if !strings.Contains(s, n) {
				t.Fatalf("unset %q not in input %q", n, s)
			}
		}
	})
}

func FuzzParseEnvFile(f *testing.F) {
	f.Add([]byte("A=1\nexport B='2'\n# c\nbad\n"))
	f.Add([]byte("X=\"a\\nb\"\r\nY"))
	f.Fuzz(func(t *testing.T, b []byte) {
		vars, bad := parseEnvFile(b)
		for k := range vars {
			if !envName.MatchString(k) {
				t.Fatalf("bad name %q accepted", k)
			}
		}
		for _, l := range bad {
			if l.line < 1 || (l.err != "not KEY=VALUE" && l.err != "line too long") {
				t.Fatalf("bad report %+v", l)
			}
		}
	})
}
