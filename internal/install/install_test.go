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
