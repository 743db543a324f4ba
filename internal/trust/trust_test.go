package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Approvals survive a save and a load, match only the same directory,
// entry and hash, and the file is its owner's alone.
func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", File)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Approved("/p", "/p/.mcp.json#mcpServers.a", "h1") {
		t.Fatal("an empty store approved an entry")
	}
	s.Add(Approval{Dir: "/p", Source: "/p/.mcp.json#mcpServers.a", Hash: "h1"})
	s.Add(Approval{Dir: "/p", Source: "/p/.mcp.json#mcpServers.b", Hash: "h2"})
	s.Add(Approval{Dir: "/p", Source: "/p/.mcp.json#mcpServers.a", Hash: "h3"}) // re-approved after an edit
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("approvals file: %v %v, want mode 0600", fi, err)
	}
	s, err = Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir, source, hash string
		want              bool
	}{
		{"/p", "/p/.mcp.json#mcpServers.a", "h3", true},
		{"/p", "/p/.mcp.json#mcpServers.a", "h1", false}, // the old version of the entry
		{"/q", "/p/.mcp.json#mcpServers.a", "h3", false}, // another project
		{"/p", "/p/.mcp.json#mcpServers.b", "h2", true},
		{"/p", "/p/.mcp.json#mcpServers.b", "", false},
	} {
		if got := s.Approved(c.dir, c.source, c.hash); got != c.want {
			t.Errorf("Approved(%s, %s, %s) = %v, want %v", c.dir, c.source, c.hash, got, c.want)
		}
	}
	if len(s.approvals) != 2 || !s.Remove("/p", "/p/.mcp.json#mcpServers.b") || s.Remove("/p", "/p/.mcp.json#mcpServers.b") {
		t.Errorf("Remove: want one approval removed once; left %v", s.approvals)
	}
}

// A damaged approvals file is an error that names it, not a store that
// approves anything.
func TestDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	if err := os.WriteFile(path, []byte(`{"version": 1, "approvals": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Load: %v, want an error naming the file", err)
	}
}
