package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// Claude Code, a real client, adds mcp-code-mode as its README says (stdio
// and HTTP) and its health check connects to both.
func TestClaudeCodeConnects(t *testing.T) {
	claude := pinnedNpmBin(t, "claude")
	f := clitest.NewFixture(t, "")
	_, url := f.HTTPServe(t, nil, "serve", "--no-discovery", "--config", f.Config, "--http", "127.0.0.1:PORT")
	env := append(append([]string{}, f.Env...), "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	steps := [][]string{
		{"mcp", "add", "code-mode", "--", clitest.Bin(), "serve", "--no-discovery", "--config", f.Config},
		{"mcp", "add", "--transport", "http", "code-mode-http", url, "--header", "Authorization: Bearer " + f.HTTPToken(t)},
	}
	for _, args := range steps {
		if out, errOut, code := nodeRun(t, time.Minute, env, f.Dir, claude, args...); code != 0 {
			t.Fatalf("claude %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
	out, errOut, code := nodeRun(t, 2*time.Minute, env, f.Dir, claude, "mcp", "list")
	t.Logf("claude mcp list:\n%s%s", out, errOut)
	if code != 0 {
		t.Fatalf("claude mcp list: exit %d", code)
	}
	for _, name := range []string{"code-mode:", "code-mode-http:"} {
		line := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, name) {
				line = l
			}
		}
		if !strings.Contains(line, "Connected") {
			t.Errorf("Claude Code did not connect to %s %q", strings.TrimSuffix(name, ":"), line)
		}
	}
}
