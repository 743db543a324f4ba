package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/tailscale/hujson"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// installCase is one client: where its user file is under HOME, the
// fixture written there (testdata/install), and what --move-servers does
// with its entries.
type installCase struct {
	client, path, fixture, key string
	moved                      []string          // entries moved into this program's config
	kept                       map[string]string // entries left in place, and a word of the reason given
}

var installCases = []installCase{
	{"claude-desktop", ".config/Claude/claude_desktop_config.json", "claude-desktop.json", "mcpServers",
		[]string{"mover", "notes"}, nil},
	{"claude-code", ".claude.json", "claude-code.json", "mcpServers",
		[]string{"mover"}, map[string]string{"tokened": "API_TOKEN"}},
	{"cursor", ".cursor/mcp.json", "cursor.json", "mcpServers",
		[]string{"mover", "remote"}, map[string]string{"github": "GITHUB_TOKEN", "workspace": "${workspaceFolder}"}},
	{"vscode", ".config/Code/User/mcp.json", "vscode.json", "servers",
		[]string{"mover"}, map[string]string{"prompted": "${input:token}", "with-env-file": "envFile"}},
	{"windsurf", ".codeium/windsurf/mcp_config.json", "windsurf.json", "mcpServers",
		[]string{"mover", "docs"}, nil},
	{"gemini", ".gemini/settings.json", "gemini.json", "mcpServers",
		[]string{"mover"}, map[string]string{"home-relative": "HOME"}},
	{"codex", ".codex/config.toml", "codex.toml", "mcp_servers",
		[]string{"mover"}, map[string]string{"figma": "bearer_token_env_var"}},
	{"zed", ".config/zed/settings.json", "zed.json", "context_servers",
		[]string{"mover"}, map[string]string{"postgres-context-server": "extension"}},
}

// installFixture writes the client's fixture under the fixture's HOME and
// returns its path and contents.
func installFixture(t *testing.T, f *clitest.Fixture, c installCase) (string, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "install", c.fixture))
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, []byte("@TESTSERVER@"), []byte(f.Server))
	path := filepath.Join(f.Home, c.path)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o640); err != nil {
		t.Fatal(err)
	}
	return path, b
}

// installCLI runs install or uninstall with the fixture's config (and
// CODEX_HOME pointed into the fixture, whatever the machine has).
func installCLI(t *testing.T, f *clitest.Fixture, args ...string) clitest.Result {
	t.Helper()
	args = append([]string{args[0], "--config", f.Config}, args[1:]...)
	return f.Run(t, "", []string{"CODEX_HOME=" + filepath.Join(f.Home, ".codex")}, args...)
}

// clientServers decodes the map of servers of a client file.
func clientServers(t *testing.T, path, key string) map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if strings.HasSuffix(path, ".toml") {
		if doc, err = toml.Parser().Unmarshal(b); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	} else {
		std, err := hujson.Standardize(b)
		if err != nil {
			t.Fatalf("%s: %v\n%s", path, err, b)
		}
		if err := json.Unmarshal(std, &doc); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]map[string]any{}
	m, _ := doc[key].(map[string]any)
	for name, v := range m {
		out[name], _ = v.(map[string]any)
	}
	return out
}

// backups lists the backups next to path.
func backups(t *testing.T, path string) []string {
	t.Helper()
	list, err := filepath.Glob(path + ".bak-*")
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// lines are the lines of b, trimmed, with a trailing comma dropped (adding
// a member after the last one gives it one).
func lines(b []byte) []string {
	var out []string
	for l := range strings.SplitSeq(string(b), "\n") {
		if l = strings.TrimSuffix(strings.TrimSpace(l), ","); l != "" {
			out = append(out, l)
		}
	}
	return out
}

type serversOutput struct {
	Servers []struct {
		Name, Source, Client, Transport string
		Enabled                         bool
		Allow, Deny                     []string
	}
	Problems []struct {
		Path, Key, Error string
	}
}

func listServers(t *testing.T, f *clitest.Fixture) serversOutput {
	t.Helper()
	r := installCLI(t, f, "servers", "--json")
	if r.Code != 0 {
		t.Fatalf("servers: exit %d: %s", r.Code, r.Stderr)
	}
	var out serversOutput
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Each client's user file, as a user has it (comments, other settings,
// other servers), is switched over and back: the code-mode entry is added
// after a backup, a second install changes nothing, --dry-run writes
// nothing, --move-servers moves what this program's config can say
// exactly and leaves the rest with the reason, and uninstall gives back the
// file as it was, byte for byte, and this program's config as it was.
func TestInstallSwitchesEachClientOverAndBack(t *testing.T) {
	for _, c := range installCases {
		t.Run(c.client, func(t *testing.T) {
			f := clitest.NewFixture(t, "")
			path, orig := installFixture(t, f, c)
			ownBefore, err := os.ReadFile(f.Config)
			if err != nil {
				t.Fatal(err)
			}

			// --dry-run says what it would do and writes nothing.
			r := installCLI(t, f, "install", c.client, "--dry-run")
			if r.Code != 0 || !strings.Contains(r.Stdout, "+ "+c.key+".code-mode: "+clitest.Bin()+" serve") || !strings.Contains(r.Stdout, "dry run") {
				t.Fatalf("install --dry-run: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) || len(backups(t, path)) > 0 {
				t.Fatalf("--dry-run changed the file or made a backup")
			}

			// install: a backup, then the entry; every line kept.
			r = installCLI(t, f, "install", c.client)
			if r.Code != 0 {
				t.Fatalf("install: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
			baks := backups(t, path)
			if len(baks) != 1 {
				t.Fatalf("backups %v, want one", baks)
			}
			if b, _ := os.ReadFile(baks[0]); !bytes.Equal(b, orig) {
				t.Errorf("the backup is not the file as it was")
			}
			for _, p := range []string{baks[0], path} {
				if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o640 {
					t.Errorf("%s: mode %v (%v), want the file's 0640", p, fi.Mode(), err)
				}
			}
			after, _ := os.ReadFile(path)
			have := lines(after)
			for _, l := range lines(orig) {
				if !slices.Contains(have, l) {
					t.Errorf("line %q of the file is gone:\n%s", l, after)
				}
			}
			entry := clientServers(t, path, c.key)["code-mode"]
			args, _ := entry["args"].([]any)
			if entry["command"] != clitest.Bin() || len(args) != 1 || args[0] != "serve" {
				t.Fatalf("code-mode entry %v, want %s serve:\n%s", entry, clitest.Bin(), after)
			}
			if c.client == "claude-code" {
				// What `claude mcp add --scope user` writes, in its order.
				want := fmt.Sprintf(`"code-mode":{"type":"stdio","command":%q,"args":["serve"],"env":{}}`, clitest.Bin())
				if !strings.Contains(strings.Join(strings.Fields(string(after)), ""), want) {
					t.Errorf("claude-code entry is not %s:\n%s", want, after)
				}
			}

			// Idempotent: nothing changes, no second backup.
			r = installCLI(t, f, "install", c.client)
			if b, _ := os.ReadFile(path); r.Code != 0 || !bytes.Equal(b, after) || len(backups(t, path)) != 1 || !strings.Contains(r.Stdout, "nothing to change") {
				t.Fatalf("second install: exit %d, file changed %v, backups %v\n%s", r.Code, !bytes.Equal(b, after), backups(t, path), r.Stdout)
			}

			// Discovery knows the entry for this program: it is not
			// served, and it is no problem beyond being itself.
			out := listServers(t, f)
			for _, s := range out.Servers {
				if s.Name == "code-mode" || strings.HasPrefix(s.Name, "code-mode@") {
					t.Errorf("discovery serves the code-mode entry: %+v", s)
				}
			}
			for _, p := range out.Problems {
				if strings.HasSuffix(p.Key, ".code-mode") && !strings.Contains(p.Error, "mcp-code-mode itself") {
					t.Errorf("discovery reports the code-mode entry: %+v", p)
				}
			}

			// uninstall: the file as it was, byte for byte.
			r = installCLI(t, f, "uninstall", c.client)
			if b, _ := os.ReadFile(path); r.Code != 0 || !bytes.Equal(b, orig) {
				t.Fatalf("uninstall: exit %d; the file is not as it was:\n%s\n%s%s", r.Code, b, r.Stdout, r.Stderr)
			}

			// --move-servers: the movable servers go to this program's
			// config, with where they came from; the others stay, with why.
			r = installCLI(t, f, "install", c.client, "--move-servers")
			if r.Code != 0 {
				t.Fatalf("install --move-servers: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
			servers := clientServers(t, path, c.key)
			own, _ := os.ReadFile(f.Config)
			for _, name := range c.moved {
				if _, ok := servers[name]; ok {
					t.Errorf("%s is still in the client's file", name)
				}
				if !strings.Contains(r.Stdout, "- "+c.key+"."+name+": moved to [servers."+name+"]") {
					t.Errorf("the report does not say %s moved:\n%s", name, r.Stdout)
				}
				if !strings.Contains(string(own), fmt.Sprintf("# Moved from %s (%s.%s) on ", path, c.key, name)) || !strings.Contains(string(own), "[servers."+name+"]") {
					t.Errorf("this program's config has no %s with its provenance:\n%s", name, own)
				}
			}
			for name, why := range c.kept {
				if _, ok := servers[name]; !ok {
					t.Errorf("%s left the client's file", name)
				}
				if !strings.Contains(r.Stdout, "= "+c.key+"."+name) || !strings.Contains(r.Stdout, why) {
					t.Errorf("the report does not say why %s stays (%q):\n%s", name, why, r.Stdout)
				}
			}
			out = listServers(t, f)
			for _, name := range c.moved {
				i := slices.IndexFunc(out.Servers, func(s struct {
					Name, Source, Client, Transport string
					Enabled                         bool
					Allow, Deny                     []string
				}) bool {
					return s.Name == name
				})
				if i < 0 || out.Servers[i].Source != f.Config+"#servers."+name {
					t.Errorf("servers --json does not list %s from this program's config: %+v", name, out.Servers)
				}
			}
			// A second run moves nothing more and writes nothing.
			moved, _ := os.ReadFile(path)
			r = installCLI(t, f, "install", c.client, "--move-servers")
			if b, _ := os.ReadFile(path); r.Code != 0 || !bytes.Equal(b, moved) || !strings.Contains(r.Stdout, "nothing to change") {
				t.Fatalf("second install --move-servers: exit %d\n%s", r.Code, r.Stdout)
			}

			// uninstall --dry-run says what it would put back, and writes nothing.
			r = installCLI(t, f, "uninstall", c.client, "--dry-run")
			if b, _ := os.ReadFile(path); r.Code != 0 || !bytes.Equal(b, moved) || !strings.Contains(r.Stdout, "+ "+c.key+"."+c.moved[0]+": put back") {
				t.Fatalf("uninstall --dry-run: exit %d, file changed %v\n%s", r.Code, !bytes.Equal(b, moved), r.Stdout)
			}

			// uninstall puts everything back where it was.
			r = installCLI(t, f, "uninstall", c.client)
			if b, _ := os.ReadFile(path); r.Code != 0 || !bytes.Equal(b, orig) {
				t.Fatalf("uninstall after a move: exit %d; the file is not as it was:\n%s\n%s%s", r.Code, b, r.Stdout, r.Stderr)
			}
			if b, _ := os.ReadFile(f.Config); !bytes.Equal(b, ownBefore) {
				t.Fatalf("this program's config is not as it was:\n%s", b)
			}
			if _, err := os.Stat(filepath.Join(f.Home, ".local", "state", "mcp-code-mode", "install", c.client+".json")); !os.IsNotExist(err) {
				t.Errorf("the record of moved servers is still there (%v)", err)
			}
		})
	}
}

// A server moved out of a client's file is served from this program's
// config exactly as it was from the client's: a program calls it, with
// the tool the client had turned off still refused.
func TestAMovedServerStillRuns(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	c := installCases[slices.IndexFunc(installCases, func(c installCase) bool { return c.client == "windsurf" })]
	installFixture(t, f, c)
	if r := installCLI(t, f, "install", c.client, "--move-servers"); r.Code != 0 {
		t.Fatalf("install --move-servers: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r := installCLI(t, f, "run", "--servers", "mover", "-c", "print(await mcp_mover.add(a=20, b=22))")
	if r.Code != 0 || r.Stdout != "{'sum': 42}\n" {
		t.Fatalf("run with the moved server: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	// Windsurf's disabledTools became the entry's deny list.
	r = installCLI(t, f, "run", "--servers", "mover", "-c", "print('fail' in dir(mcp_mover))\ntry:\n    await mcp_mover.fail()\nexcept ToolError as e:\n    print('refused:', e)")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "False\nrefused: mover.fail is denied by the deny list of [servers.mover]") {
		t.Fatalf("the tool Windsurf turned off is callable after the move: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
}

// What install must not touch: a client file that is a link (to a file
// or to nothing), a FIFO, a directory, a file that does not parse, and a
// code-mode entry that is not this program. Each is refused with what and
// where, nothing is written through the link or next to the file, and
// nothing blocks.
func TestInstallRefusesWhatItMustNotEdit(t *testing.T) {
	f := clitest.NewFixture(t, "")
	path := filepath.Join(f.Home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(f.Dir, "elsewhere.json")
	hostile := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "install", "hostile", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	target := hostile("elsewhere.json")
	cases := []struct {
		name, want string
		setup      func()
	}{
		{"a link to another file", "symbolic link", func() {
			f.Write(t, elsewhere, string(target))
			if err := os.Symlink(elsewhere, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"a link to nothing", "symbolic link", func() {
			if err := os.Symlink(filepath.Join(f.Dir, "nothing.json"), path); err != nil {
				t.Fatal(err)
			}
		}},
		{"a FIFO", "not a regular file (a FIFO)", func() {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"a directory", "not a regular file (a directory)", func() {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"a file that does not parse", path + ":3: cursor: not valid JSON", func() {
			f.Write(t, path, string(hostile("broken.json")))
		}},
		{"a code-mode entry of another program", `already has a server named "code-mode" that does not start mcp-code-mode`, func() {
			f.Write(t, path, string(hostile("taken.json")))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(path)
			os.Remove(elsewhere)
			tc.setup()
			before, _ := os.Lstat(path)
			var content []byte
			if before.Mode().IsRegular() { // the test must not block on the FIFO either
				content, _ = os.ReadFile(path)
			}
			began := time.Now()
			r := installCLI(t, f, "install", "cursor", "--move-servers")
			if r.Code != 1 || !strings.Contains(r.Stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want 1 and %q", r.Code, r.Stderr, tc.want)
			}
			if took := time.Since(began); took > 30*time.Second {
				t.Errorf("took %v", took)
			}
			after, err := os.Lstat(path)
			if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
				t.Errorf("%s was replaced (%v)", path, err)
			}
			if after.Mode().IsRegular() {
				if b, _ := os.ReadFile(path); !bytes.Equal(b, content) {
					t.Errorf("%s was changed", path)
				}
			}
			if b, err := os.ReadFile(elsewhere); err == nil && !bytes.Equal(b, target) {
				t.Errorf("the link's target was written to:\n%s", b)
			}
			if _, err := os.Lstat(filepath.Join(f.Dir, "nothing.json")); err == nil {
				t.Errorf("a file was created where the dangling link points")
			}
			if b := backups(t, path); len(b) > 0 {
				t.Errorf("backups were made: %v", b)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".mcp.json.tmp-*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
	// This program's own config is not written through a link either.
	t.Run("this program's config is a link", func(t *testing.T) {
		os.RemoveAll(path)
		f.Write(t, path, `{"mcpServers": {"mover": {"command": "x"}}}`)
		own := filepath.Join(f.Dir, "own.toml")
		f.Write(t, own, "")
		link := filepath.Join(f.Dir, "link.toml")
		if err := os.Symlink(own, link); err != nil {
			t.Fatal(err)
		}
		r := f.Run(t, "", nil, "install", "--config", link, "cursor", "--move-servers")
		if r.Code != 1 || !strings.Contains(r.Stderr, "symbolic link") {
			t.Fatalf("exit %d, stderr %q; want the link refused", r.Code, r.Stderr)
		}
		if b, _ := os.ReadFile(own); len(b) != 0 {
			t.Errorf("written through the link: %s", b)
		}
		if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"mover"`) || strings.Contains(string(b), "code-mode") {
			t.Errorf("the client's file was changed: %s", b)
		}
	})
}

// The commands of the README's "Switching a client over", run as written
// (bin/mcp-code-mode is the binary under test), in order, against a Cursor
// file with a server to move: each succeeds, and the last one leaves the
// file as it was.
func TestREADMESwitchingAClientOver(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### Switching a client over\n")
	if !ok {
		t.Fatal("README has no section \"Switching a client over\"")
	}
	section, _, _ = strings.Cut(section, "\n#")
	_, block, ok := strings.Cut(section, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	if !ok {
		t.Fatal("the section has no sh block")
	}
	f := clitest.NewFixture(t, "")
	c := installCases[slices.IndexFunc(installCases, func(c installCase) bool { return c.client == "cursor" })]
	path, orig := installFixture(t, f, c)
	var ran []string
	for line := range strings.SplitSeq(block, "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		args := strings.Fields(cmd)
		if len(args) == 0 {
			continue
		}
		if args[0] != "bin/mcp-code-mode" {
			t.Fatalf("README command %q does not run bin/mcp-code-mode", line)
		}
		r := f.Run(t, "", nil, args[1:]...)
		if r.Code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", cmd, r.Code, r.Stdout, r.Stderr)
		}
		ran = append(ran, strings.Join(args[1:], " "))
	}
	want := []string{"install cursor --dry-run", "install cursor", "install cursor --move-servers", "uninstall cursor"}
	if !slices.Equal(ran, want) {
		t.Fatalf("README ran %q, want %q", ran, want)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Errorf("after the README's commands the file is not as it was:\n%s", b)
	}
}
