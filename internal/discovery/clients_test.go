package discovery

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

// fakeEnv is the only environment the tests expand from: no test reads the
// machine's variables or its HOME.
var fakeEnv = map[string]string{
	"GITHUB_TOKEN": "ghp-test-token",
	"SENTRY_TOKEN": "sentry-test-token",
	"DATABASE_URL": "postgres://localhost/app",
	"NOTION_TOKEN": "notion-test-token",
	"API_KEY":      "api-test-key",
	"REPO_DIR":     "/src/repo",
	"WORK_DIR":     "/work",
	"OC_TOKEN":     "oc-test-token",
	"AWS_PROFILE":  "dev",
}

func lookupIn(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// fixture copies testdata/home and testdata/cwd into a temporary directory
// (so that ~/.claude.json can name the project by its absolute path, and so
// that a Discover that wrote anything could not touch the checked-in files)
// and returns options pointing at the copies.
func fixture(t *testing.T) (Options, string) {
	t.Helper()
	root := t.TempDir()
	home, cwd := filepath.Join(root, "home"), filepath.Join(root, "cwd")
	copyTree(t, filepath.Join("testdata", "home"), home, cwd)
	copyTree(t, filepath.Join("testdata", "cwd"), cwd, cwd)
	return Options{
		home:      home,
		cwd:       cwd,
		goos:      "linux",
		lookupEnv: lookupIn(fakeEnv),
		Self:      []string{"/usr/local/bin/mcp-code-mode"},
		// The fixture's project files are approved, so that their
		// variables are expanded (untrusted_test.go covers the others).
		Approved: func(dir, source, hash string) bool { return dir == cwd && hash != "" },
	}, root
}

func copyTree(t *testing.T, from, to, cwd string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b = bytes.ReplaceAll(b, []byte("@@CWD@@"), []byte(cwd))
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// treeHash fingerprints every file (path, mode, contents) under root.
func treeHash(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, _ := d.Info()
		h.Write([]byte(p + info.Mode().String() + "\x00"))
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			h.Write(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(h.Sum(nil))
}

// goldenServer is config.Server as the golden file shows it.
type goldenServer struct {
	Name           string            `json:"name"`
	Client         string            `json:"client"`
	Transport      string            `json:"transport"`
	Command        string            `json:"command,omitempty"`
	Args           []string          `json:"args,omitempty"`
	Env            map[string]string `json:"env,omitempty"`
	Cwd            string            `json:"cwd,omitempty"`
	URL            string            `json:"url,omitempty"`
	Headers        map[string]string `json:"headers,omitempty"`
	BearerTokenEnv string            `json:"bearer_token_env,omitempty"`
	EnvHeaders     map[string]string `json:"env_headers,omitempty"`
	Description    string            `json:"description,omitempty"`
	Allow          []string          `json:"allow,omitempty"`
	Deny           []string          `json:"deny,omitempty"`
	Disabled       bool              `json:"disabled,omitempty"`
	Why            string            `json:"why,omitempty"`
	UnsetVars      []string          `json:"unset_vars,omitempty"`
	Source         string            `json:"source"`
	AlsoIn         []string          `json:"also_in,omitempty"`
	Project        string            `json:"project,omitempty"`
	Untrusted      bool              `json:"untrusted,omitempty"`
}

type goldenProblem struct {
	Client string `json:"client"`
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Key    string `json:"key,omitempty"`
	Err    string `json:"err"`
}

func golden(servers []config.Server, problems []Problem, root string) []byte {
	var doc struct {
		Servers  []goldenServer  `json:"servers"`
		Problems []goldenProblem `json:"problems"`
	}
	for _, s := range servers {
		doc.Servers = append(doc.Servers, goldenServer{
			s.Name, s.Client, s.Transport, s.Command, s.Args, s.Env, s.Cwd, s.URL, s.Headers,
			s.BearerTokenEnv, s.EnvHeaders, s.Description, s.Allow, s.Deny, s.Disabled, s.Why,
			s.UnsetVars, s.Source, s.AlsoIn, s.Project, s.Untrusted,
		})
	}
	for _, p := range problems {
		doc.Problems = append(doc.Problems, goldenProblem(p))
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err)
	}
	b = bytes.ReplaceAll(b, []byte(filepath.Join(root, "home")), []byte("$HOME"))
	b = bytes.ReplaceAll(b, []byte(filepath.Join(root, "cwd")), []byte("$CWD"))
	return append(b, '\n')
}

// TestDiscoverGolden reads a fake HOME with a config for every client and a
// fake project, and compares every server and every problem with
// testdata/discover.golden.json (go test ./internal/discovery -update rewrites it).
func TestDiscoverGolden(t *testing.T) {
	opts, root := fixture(t)
	before := treeHash(t, root)
	servers, problems := Discover(opts)
	if after := treeHash(t, root); after != before {
		t.Fatal("Discover changed files under the fixture: it must only read")
	}
	got := golden(servers, problems, root)
	path := filepath.Join("testdata", "discover.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/discovery -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Discover differs from %s (go test ./internal/discovery -update, then review the diff):\n%s", path, lineDiff(string(want), string(got)))
	}

	// Properties the golden file shows, checked by name so a careless
	// -update cannot hide their loss.
	byName := map[string]config.Server{}
	for _, s := range servers {
		if _, dup := byName[s.Name]; dup {
			t.Errorf("name %q returned twice", s.Name)
		}
		byName[s.Name] = s
	}
	clients := map[string]bool{}
	for _, s := range servers {
		clients[s.Client] = true
	}
	for _, c := range clientTable {
		if c.id != "lmstudio" && !clients[c.id] { // LM Studio's fixture is the broken file
			t.Errorf("no server from client %s", c.id)
		}
	}
	// One GitHub server package, with the token written in Claude Desktop's
	// file, and with $GITHUB_TOKEN in Cursor's and Windsurf's: two accounts,
	// so two servers; Cursor's and Windsurf's are one.
	gh := byName["github"]
	if gh.Client != "claude-desktop" || len(gh.AlsoIn) != 0 || gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "literal-token-in-file" {
		t.Errorf("github: want Claude Desktop's alone, with its token, got %+v", gh)
	}
	// The user's own servers are named first: the project's github (in
	// the project's .cursor/mcp.json) is the one renamed last.
	if s := byName["github@cursor"]; s.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "ghp-test-token" || len(s.AlsoIn) != 1 ||
		s.Project != "" || !strings.HasSuffix(s.Source, "home/.cursor/mcp.json#mcpServers.github") ||
		!strings.HasSuffix(s.AlsoIn[0], "mcp_config.json#mcpServers.github") {
		t.Errorf("github@cursor: want the user's Cursor npx entry, also in Windsurf's file, got %+v", s)
	}
	if s := byName["github@cursor-2"]; s.Command != "docker" || s.Project == "" {
		t.Errorf("github@cursor-2: want the project's github server (docker), got %+v", s)
	}
	if s := byName["perplexity"]; !s.Disabled || !strings.Contains(s.Why, `"token"`) || s.Blocked != s.Why {
		t.Errorf("perplexity: want disabled and blocked naming input token, got %+v", s)
	}
	if s := byName["figma"]; s.BearerTokenEnv != "FIGMA_TOKEN" || s.EnvHeaders["X-Org"] != "FIGMA_ORG" {
		t.Errorf("figma: want the variable names, got %+v", s)
	}
	if _, ok := byName["code-mode"]; ok {
		t.Error("code-mode launches this program and must be skipped")
	}
	for _, p := range problems {
		if strings.Contains(p.Err, "mcp-code-mode") {
			t.Errorf("an entry of this program itself is expected, not a problem: %s", p)
		}
	}
	for _, p := range problems {
		for _, secret := range []string{"secret-should-not-appear", "hf-secret", "abc123", "literal-token-in-file"} {
			if strings.Contains(p.String(), secret) {
				t.Errorf("problem shows a value from a file: %s", p)
			}
		}
	}
}

// lineDiff shows the lines of want and got that differ, in order.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
			if b.Len() > 4000 {
				b.WriteString("...\n")
				break
			}
		}
	}
	return b.String()
}

func TestDiscoverSkip(t *testing.T) {
	opts, _ := fixture(t)
	opts.Skip = map[string]bool{"cursor": true, "lmstudio": true}
	servers, problems := Discover(opts)
	for _, s := range servers {
		if s.Client == "cursor" || s.Client == "lmstudio" {
			t.Errorf("skipped client's server returned: %+v", s)
		}
		for _, src := range s.AlsoIn {
			if strings.Contains(src, ".cursor") {
				t.Errorf("skipped client's file in AlsoIn: %s", src)
			}
		}
		if s.Name == "github@cursor" {
			t.Error("github@cursor returned although cursor is skipped")
		}
	}
	for _, p := range problems {
		if p.Client == "cursor" || p.Client == "lmstudio" {
			t.Errorf("skipped client's problem returned: %s", p)
		}
	}
}

// TestDiscoverPlatforms checks which files are read on each OS, and that
// XDG_CONFIG_HOME is honoured, from Options and from the environment.
func TestDiscoverPlatforms(t *testing.T) {
	entry := func(name string) string {
		return `{"mcpServers": {"` + name + `": {"command": "` + name + `-server"}}, "servers": {"` + name + `": {"command": "` + name + `-server"}}}`
	}
	write := func(t *testing.T, path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		goos  string
		xdg   string // Options.xdgConfigHome, relative to the temp dir
		xdgEn string // $XDG_CONFIG_HOME, relative to the temp dir
		files []string
		want  []string // "client name"
	}{
		{
			name: "linux uses ~/.config",
			goos: "linux",
			files: []string{
				"home/.config/Claude/claude_desktop_config.json=cd-linux",
				"home/Library/Application Support/Claude/claude_desktop_config.json=cd-mac",
				"home/.config/Code/User/mcp.json=vscode-linux",
				"home/.config/zed/settings.json=zed-linux",
			},
			want: []string{"claude-desktop cd-linux", "vscode vscode-linux"},
		},
		{
			name: "darwin uses ~/Library/Application Support",
			goos: "darwin",
			files: []string{
				"home/.config/Claude/claude_desktop_config.json=cd-linux",
				"home/Library/Application Support/Claude/claude_desktop_config.json=cd-mac",
				"home/Library/Application Support/Code/User/mcp.json=vscode-mac",
				"home/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json=cline-mac",
				"home/.config/mcp/servers/dir.json=dir-mac",
			},
			want: []string{"claude-desktop cd-mac", "vscode vscode-mac", "cline cline-mac", "mcp-dir dir-mac"},
		},
		{
			name: "windows uses %APPDATA%",
			goos: "windows",
			files: []string{
				"appdata/Claude/claude_desktop_config.json=cd-win",
				"appdata/Code/User/mcp.json=vscode-win",
				"home/.cursor/mcp.json=cursor-win",
			},
			want: []string{"claude-desktop cd-win", "cursor cursor-win", "vscode vscode-win"},
		},
		{
			name: "xdgConfigHome option",
			goos: "linux",
			xdg:  "xdg",
			files: []string{
				"home/.config/Claude/claude_desktop_config.json=cd-home",
				"xdg/Claude/claude_desktop_config.json=cd-xdg",
				"xdg/mcp/servers/a.json=dir-xdg",
				"xdg/opencode/opencode.json=x",
			},
			want: []string{"claude-desktop cd-xdg", "mcp-dir dir-xdg"},
		},
		{
			name:  "XDG_CONFIG_HOME variable",
			goos:  "linux",
			xdgEn: "xdg-env",
			files: []string{
				"home/.config/Claude/claude_desktop_config.json=cd-home",
				"xdg-env/Claude/claude_desktop_config.json=cd-env",
			},
			want: []string{"claude-desktop cd-env"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tt.files {
				path, name, _ := strings.Cut(f, "=")
				write(t, filepath.Join(root, path), entry(name))
			}
			envv := map[string]string{}
			if tt.xdgEn != "" {
				envv["XDG_CONFIG_HOME"] = filepath.Join(root, tt.xdgEn)
			}
			opts := Options{
				home: filepath.Join(root, "home"), cwd: filepath.Join(root, "project"),
				goos: tt.goos, lookupEnv: lookupIn(envv), appData: filepath.Join(root, "appdata"),
			}
			if tt.xdg != "" {
				opts.xdgConfigHome = filepath.Join(root, tt.xdg)
			}
			servers, problems := Discover(opts)
			var got []string
			for _, s := range servers {
				got = append(got, s.Client+" "+s.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if len(problems) > 0 {
				t.Errorf("problems: %v", problems)
			}
		})
	}
}

// tablePaths lists the clients of the table in the order Discover reads
// them, and the files each reads with these options (skipped clients too).
func tablePaths(opts Options) (ids []string, paths map[string][]string) {
	e := resolve(opts)
	paths = map[string][]string{}
	for _, c := range clientTable {
		ids = append(ids, c.id)
		for _, st := range c.files(&e) {
			if st.path != "" && !slices.Contains(paths[c.id], st.path) {
				paths[c.id] = append(paths[c.id], st.path)
			}
		}
	}
	return ids, paths
}

func TestClientTable(t *testing.T) {
	opts := Options{home: "/h", cwd: "/p", goos: "darwin", lookupEnv: lookupIn(map[string]string{"CODEX_HOME": "/codex"})}
	ids, got := tablePaths(opts)
	wantIDs := []string{"claude-desktop", "claude-code", "cursor", "vscode", "gemini", "codex", "opencode", "zed", "windsurf", "cline", "continue", "kiro", "lmstudio", "mcp-dir"}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("ids %q, want %q", ids, wantIDs)
	}
	want := map[string][]string{
		"claude-desktop": {"/h/Library/Application Support/Claude/claude_desktop_config.json"},
		"claude-code":    {"/h/.claude.json", "/p/.mcp.json"},
		"vscode":         {"/p/.vscode/mcp.json", "/p/.vscode/settings.json", "/h/Library/Application Support/Code/User/mcp.json", "/h/Library/Application Support/Code/User/settings.json"},
		"codex":          {"/codex/config.toml"},
		"zed":            {"/p/.zed/settings.json", "/h/.config/zed/settings.json"},
		"mcp-dir":        {"/p/mcp-servers/*.json", "/h/.config/mcp/servers/*.json"},
	}
	for id, paths := range want {
		if !slices.Equal(got[id], paths) {
			t.Errorf("%s: %q, want %q", id, got[id], paths)
		}
	}
}

// TestDiscoverDefaults runs with zero Options, pointing the process's own
// HOME and XDG variables at an empty directory so that the machine's real
// files are not read.
func TestDiscoverDefaults(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("APPDATA", filepath.Join(home, "AppData"))
	t.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".cursor", "mcp.json"), []byte(`{"mcpServers": {"d": {"command": "d"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	servers, problems := Discover(Options{})
	if len(servers) != 1 || servers[0].Name != "d" || len(problems) != 0 {
		t.Errorf("got %+v %v, want the one server in $HOME/.cursor/mcp.json", servers, problems)
	}
	_, paths := tablePaths(Options{})
	wd, _ := os.Getwd()
	for id, ps := range paths {
		for _, p := range ps {
			if !strings.HasPrefix(p, home) && !strings.HasPrefix(p, wd) {
				t.Errorf("%s: %s is neither under $HOME nor the working directory", id, p)
			}
		}
	}
}

// An entry that needs a VS Code input is blocked even when its client
// also turned it off, so that a config file turning it back on (disabled =
// false) cannot start it with the input unexpanded.
func TestAnEntryNeedingAnInputIsBlockedWhateverItsFlag(t *testing.T) {
	home := t.TempDir()
	user := filepath.Join(home, ".config", "Code", "User")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	body := `{"servers": {
  "off": {"type": "stdio", "command": "x", "env": {"T": "${input:t}"}, "disabled": true},
  "plain": {"type": "stdio", "command": "y", "disabled": true}
}}`
	if err := os.WriteFile(filepath.Join(user, "mcp.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	servers, problems := Discover(Options{home: home, cwd: filepath.Join(home, "p"), goos: "linux", lookupEnv: lookupIn(nil)})
	if len(servers) != 2 || len(problems) != 0 {
		t.Fatalf("got %+v %v, want the two servers", servers, problems)
	}
	for _, s := range servers {
		if !s.Disabled || !strings.HasPrefix(s.Why, "disabled in ") {
			t.Errorf("%s: Disabled %v, Why %q: want it off as its client says", s.Name, s.Disabled, s.Why)
		}
		if blocked := s.Name == "off"; (s.Blocked != "") != blocked || blocked && !strings.Contains(s.Blocked, `"t"`) {
			t.Errorf("%s: Blocked %q", s.Name, s.Blocked)
		}
	}
}

// TestDiscoverStrictJSON checks that Claude's files are JSON, not JSONC, and
// that the line of a syntax error comes from encoding/json's offset.
func TestDiscoverStrictJSON(t *testing.T) {
	home := t.TempDir()
	body := "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"a\"},\n  }\n}\n" // trailing comma, line 3-4
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	servers, problems := Discover(Options{home: home, cwd: filepath.Join(home, "p"), goos: "linux", lookupEnv: lookupIn(nil)})
	if len(servers) != 0 {
		t.Errorf("servers from a broken file: %+v", servers)
	}
	want := Problem{Client: "claude-code", Path: filepath.Join(home, ".claude.json"), Line: 4,
		Err: `not valid JSON: invalid character '}' looking for beginning of object key string`}
	if len(problems) != 1 || problems[0] != want {
		t.Errorf("problems %v, want exactly %v", problems, want)
	}
}

func TestProblemString(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{"cursor", "/h/.cursor/mcp.json", 7, "mcpServers.x.args", "must be a list of strings, not a string"},
			"/h/.cursor/mcp.json:7: cursor: mcpServers.x.args: must be a list of strings, not a string"},
		{Problem{"codex", "/h/.codex/config.toml", 0, "mcp_servers.y", "has both command and url"},
			"/h/.codex/config.toml: codex: mcp_servers.y: has both command and url"},
		{Problem{"zed", "/h/.config/zed/settings.json", 3, "", "not valid JSON: x"},
			"/h/.config/zed/settings.json:3: zed: not valid JSON: x"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// Locations lists each file Discover reads once, in its order, without the
// clients skipped, and a file that is both a project's and the user's (the
// working directory is the home directory) as the user's.
func TestLocationsListsEachFileOnceInReadingOrder(t *testing.T) {
	opts := Options{home: "/h", cwd: "/p", goos: "linux", Skip: map[string]bool{"cursor": true}, lookupEnv: lookupIn(nil)}
	locs := Locations(opts)
	_, paths := tablePaths(opts)
	var want []Location
	for _, id := range []string{"claude-desktop", "claude-code"} {
		for _, p := range paths[id] {
			want = append(want, Location{Client: id, Path: p, Project: strings.HasPrefix(p, "/p/")})
		}
	}
	if len(locs) < len(want) || !slices.Equal(locs[:len(want)], want) {
		t.Errorf("first locations %+v, want %+v", locs[:min(len(locs), len(want))], want)
	}
	n := 0
	for _, ps := range paths {
		n += len(ps)
	}
	if len(locs) != n-len(paths["cursor"]) {
		t.Errorf("%d locations, want %d (every client's files but cursor's)", len(locs), n-len(paths["cursor"]))
	}
	for _, l := range locs {
		if l.Client == "cursor" {
			t.Errorf("skipped client listed: %+v", l)
		}
	}

	// From the home directory, ~/.cursor/mcp.json is the user's file.
	home := Locations(Options{home: "/h", cwd: "/h", goos: "linux", lookupEnv: lookupIn(nil)})
	var cursor []Location
	for _, l := range home {
		if l.Client == "cursor" {
			cursor = append(cursor, l)
		}
	}
	if want := []Location{{Client: "cursor", Path: "/h/.cursor/mcp.json"}}; !slices.Equal(cursor, want) {
		t.Errorf("cursor from the home directory: %+v, want %+v", cursor, want)
	}
}
