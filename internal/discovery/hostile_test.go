package discovery

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO where a client config file should be would block a plain open
// until someone writes to it, hanging every command. It is skipped with a
// problem that names it, at once, and the other files still count.
func TestAFIFOInPlaceOfAConfigFileIsSkippedWithoutBlocking(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "project")
	for _, p := range []string{filepath.Join(cwd, ".mcp.json"), filepath.Join(home, ".cursor", "mcp.json"), filepath.Join(cwd, "mcp-servers", "x.json")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"mcpServers": {"ok": {"command": "ok-server"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	type result struct {
		servers  int
		problems []Problem
	}
	done := make(chan result, 1)
	go func() {
		s, p := Discover(Options{home: home, cwd: cwd, goos: "linux", lookupEnv: lookupIn(nil)})
		done <- result{len(s), p}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Discover blocked on a FIFO")
	}
	if r.servers != 1 {
		t.Errorf("found %d servers, want the one of the regular file", r.servers)
	}
	fifos := 0
	for _, p := range r.problems {
		if strings.Contains(p.Err, "not a regular file (a FIFO)") {
			fifos++
		}
	}
	if fifos != 3 {
		t.Errorf("%d problems name a FIFO, want 3: %v", fifos, r.problems)
	}
}
