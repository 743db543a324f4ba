package discovery

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The user-level file of each client is a file Discover reads, and
// ReadUserFile reads its servers as Discover does, under its key.
func TestFindUserFileIsTheFileDiscoverReads(t *testing.T) {
	opts, _ := fixture(t)
	servers, _ := Discover(opts)
	var sources []string
	for _, s := range servers {
		sources = append(append(sources, s.Source), s.AlsoIn...)
	}
	if len(UserClients()) != 8 {
		t.Fatalf("user clients %v", UserClients())
	}
	for _, id := range UserClients() {
		f, err := FindUserFile(id, opts)
		if err != nil {
			t.Fatal(err)
		}
		if f.Client != id || f.Name == "" || f.Key == "" || f.Format == "" {
			t.Errorf("%s: %+v", id, f)
		}
		if !strings.HasPrefix(f.Path, opts.home) {
			t.Errorf("%s: %s is not under the home directory", id, f.Path)
		}
		if !slices.ContainsFunc(sources, func(s string) bool { return strings.HasPrefix(s, f.Path+"#") }) {
			t.Errorf("%s: Discover found no server in %s", id, f.Path)
		}
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		list, _ := ReadUserFile(f, data, opts)
		if len(list) == 0 {
			t.Errorf("%s: ReadUserFile found no server in %s", id, f.Path)
		}
		for _, s := range list {
			if !strings.HasPrefix(s.Source, f.Path+"#"+f.Key+".") {
				t.Errorf("%s: server %s comes from %s, not %s", id, s.Name, s.Source, f.Key)
			}
		}
	}
	if _, err := FindUserFile("continue", opts); err == nil {
		t.Error("FindUserFile(continue): want an error, the client has no user file of servers")
	}
}

// ReadUserFile resolves no variable: each reference is reported, so that
// an entry is never copied with today's values frozen into it; editor
// variables that mean the same in every project are resolved.
func TestReadUserFileReportsVariableReferences(t *testing.T) {
	opts, _ := fixture(t)
	type want struct {
		vars, editor []string
		arg0         string
	}
	tests := []struct {
		client, data string
		want         map[string]want
	}{
		{"cursor", `{"mcpServers": {
			"env": {"command": "x", "env": {"T": "${env:TOKEN}"}},
			"ws": {"command": "x", "args": ["${workspaceFolder}/src"]},
			"home": {"command": "x", "args": ["${userHome}/data"]},
			"plain": {"command": "x", "args": ["$HOME", "${HOME}"]}}}`,
			map[string]want{
				"env": {vars: []string{"TOKEN"}}, "ws": {editor: []string{"${workspaceFolder}"}},
				"home": {arg0: opts.home + "/data"}, "plain": {arg0: "$HOME", editor: []string{"${HOME}"}},
			}},
		{"vscode", `{"servers": {"in": {"command": "x", "env": {"K": "${input:key}"}}}}`,
			map[string]want{"in": {editor: []string{"${input:key}"}}}},
		{"gemini", `{"mcpServers": {"g": {"command": "x", "args": ["$HOME/a", "${B}"]}}}`,
			map[string]want{"g": {vars: []string{"HOME", "B"}}}},
		{"claude-code", `{"mcpServers": {"c": {"command": "x", "args": ["${A:-b}", "$NOT"]}}}`,
			map[string]want{"c": {vars: []string{"A"}}}},
		{"claude-desktop", `{"mcpServers": {"d": {"command": "x", "args": ["${A}"]}}}`,
			map[string]want{"d": {arg0: "${A}"}}},
	}
	for _, tt := range tests {
		f, err := FindUserFile(tt.client, opts)
		if err != nil {
			t.Fatal(err)
		}
		list, problems := ReadUserFile(f, []byte(tt.data), opts)
		if len(problems) > 0 || len(list) != len(tt.want) {
			t.Fatalf("%s: %v %v", tt.client, list, problems)
		}
		for _, s := range list {
			w := tt.want[s.Name]
			if !slices.Equal(s.Vars, w.vars) || !slices.Equal(s.EditorRefs, w.editor) {
				t.Errorf("%s %s: vars %q editor %q, want %q %q", tt.client, s.Name, s.Vars, s.EditorRefs, w.vars, w.editor)
			}
			if w.arg0 != "" && (len(s.Args) == 0 || s.Args[0] != w.arg0) {
				t.Errorf("%s %s: args %q, want %q first", tt.client, s.Name, s.Args, w.arg0)
			}
		}
	}
}
