package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
)

// The entry Install writes is, to discovery, this program: it is never
// served as a server of its own (which would wrap mcp-code-mode in
// itself), in every client's file, whatever this program's file is named.
func TestTheEntryIsThisProgramToDiscovery(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	for _, exe := range []string{"/opt/bin/mcp-code-mode", "/usr/local/bin/mcm"} {
		self := []string{"mcp-code-mode", exe}
		for _, id := range discovery.UserClients() {
			rep, err := Install(Options{Client: id, Exe: exe, StateDir: filepath.Join(home, "state"), Self: self, Now: time.Date(2026, 12, 1, 13, 20, 0, 0, time.UTC)})
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			data, err := os.ReadFile(rep.File)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), exe) {
				t.Fatalf("%s: %s does not start %s:\n%s", id, rep.File, exe, data)
			}
			f, _ := discovery.FindUserFile(id, discovery.Options{})
			servers, _ := discovery.ReadUserFile(f, data, discovery.Options{Self: self})
			for _, s := range servers {
				t.Errorf("%s: discovery serves %s from %s (%s %q)", id, s.Name, rep.File, s.Command, s.Args)
			}
			if len(rep.Backups) > 0 && exe == "/opt/bin/mcp-code-mode" {
				t.Errorf("%s: a backup of a file that did not exist: %v", id, rep.Backups)
			}
		}
	}
}

// Servers moved out of one file are never put back into another: when the
// client's file is elsewhere now ($CODEX_HOME changed), uninstall refuses
// and touches nothing.
func TestUninstallPutsServersBackOnlyWhereTheyCameFrom(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	first := filepath.Join(home, "codex-a")
	t.Setenv("CODEX_HOME", first)
	if err := os.MkdirAll(first, 0o700); err != nil {
		t.Fatal(err)
	}
	orig := "[mcp_servers.fs]\ncommand = \"fs-server\"\nargs = [\"/data\"]\n"
	if err := os.WriteFile(filepath.Join(first, "config.toml"), []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := Options{Client: "codex", Exe: "/opt/mcp-code-mode", OwnConfig: filepath.Join(home, "own.toml"),
		StateDir: filepath.Join(home, "state"), MoveServers: true, Self: []string{"mcp-code-mode"}}
	rep, err := Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	if own, _ := os.ReadFile(opts.OwnConfig); !strings.Contains(string(own), "[servers.fs]\ncommand = \"fs-server\"\nargs = [\"/data\"]\n") {
		t.Fatalf("fs was not moved:\n%s\n%+v", own, rep)
	}
	second := filepath.Join(home, "codex-b")
	t.Setenv("CODEX_HOME", second)
	if _, err := Uninstall(opts); err == nil || !strings.Contains(err.Error(), first) {
		t.Fatalf("uninstall with the file elsewhere: %v, want a refusal naming %s", err, first)
	}
	if _, err := os.Stat(second); !os.IsNotExist(err) {
		t.Errorf("uninstall created %s", second)
	}
	t.Setenv("CODEX_HOME", first)
	if _, err := Uninstall(opts); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(first, "config.toml")); string(b) != orig {
		t.Errorf("after uninstall:\n%s\nwant:\n%s", b, orig)
	}
}
