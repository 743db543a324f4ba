package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// A cold search must start every server it has no tool list of. It says
// so on stderr, names each server that could not start with the cause (an
// exit status and what it wrote on stderr, a line on stdout that is not
// MCP, a timeout and the key that sets it), and still answers from the
// others. The failures are remembered: the next command does not start
// those servers again (nor wait for them) until the back-off ends, while
// doctor tries them at once.
func TestServerStartsAreVisibleAndFailuresRemembered(t *testing.T) {
	clitest.NeedEngine(t)
	starts := func(name string) string { return filepath.Join(t.TempDir(), name+".starts") }
	hangLog, bannerLog := starts("hang"), starts("banner")
	f := clitest.NewFixture(t, fmt.Sprintf(`
[limits]
connect_timeout = "2s"

[servers.crashy]
command = %q
args = ["-fail-start", "cannot open database /var/db/x with sekrit-token-9876"]
env = { TOKEN = "sekrit-token-9876" }

[servers.hangs]
command = "sh"
args = ["-c", "echo start >> %s; exec sleep 60"]

[servers.banner]
command = "sh"
args = ["-c", "echo start >> %s; echo 'Welcome to banner-server 1.0'; exec sleep 60"]
`, clitest.TestServer(), hangLog, bannerLog))
	count := func(p string) int {
		b, _ := os.ReadFile(p)
		return strings.Count(string(b), "start")
	}

	r := f.CLI(t, "search", "add two numbers")
	if r.Code != 0 || !strings.Contains(r.Stdout, "test.add") {
		t.Fatalf("search: want an answer from the server that starts, got %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{
		"starting 4 servers (banner, crashy, hangs, test)...",
		"server crashy left out: ", "exited with status 1", "cannot open database /var/db/x",
		"server hangs left out: ", "within 2s (limits.connect_timeout sets it)",
		"server banner left out: ", "Welcome to banner-server 1.0",
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("search's stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if count(hangLog) != 1 || count(bannerLog) != 1 {
		t.Fatalf("starts: hangs %d, banner %d, want 1 each", count(hangLog), count(bannerLog))
	}

	// The next command knows: it starts none of them, and says why.
	r = f.CLI(t, "search", "add two numbers")
	if r.Code != 0 || !strings.Contains(r.Stdout, "test.add") {
		t.Fatalf("second search: %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	if count(hangLog) != 1 || count(bannerLog) != 1 {
		t.Errorf("the second search started a server that had just failed: hangs %d, banner %d starts", count(hangLog), count(bannerLog))
	}
	if strings.Contains(r.Stderr, "starting") || !strings.Contains(r.Stderr, "not started again for another") || !strings.Contains(r.Stderr, "within 2s") {
		t.Errorf("second search: want the remembered cause and the back-off, got:\n%s", r.Stderr)
	}
	r = f.CLI(t, "run", "--servers", "hangs", "-c", "print(1)")
	if r.Code == 0 || !strings.Contains(r.Stderr, "not started again for another") || count(hangLog) != 1 {
		t.Errorf("run with a server in its back-off: want refused at once, got %d %q (%d starts)", r.Code, r.Stderr, count(hangLog))
	}

	// What is remembered holds no secret: not the server's env, not what it
	// wrote on stderr.
	catalog := filepath.Join(f.Home, ".cache", "mcp-code-mode", "catalog")
	files, _ := filepath.Glob(filepath.Join(catalog, "*.failed.json"))
	if len(files) != 3 {
		t.Errorf("want the 3 failed servers remembered in %s, got %v", catalog, files)
	}
	for _, p := range files {
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "sekrit") {
			t.Errorf("%s holds a secret: %s", p, b)
		}
	}

	// doctor's job is to try: it starts them now.
	r = f.CLI(t, "doctor")
	if count(hangLog) != 2 || !strings.Contains(r.Stdout, "[FAIL] server hangs") {
		t.Errorf("doctor: want it to try hangs again (%d starts) and report it:\n%s", count(hangLog), r.Stdout)
	}
}
