package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// No command prints a configured secret, on stdout or in its log on
// stderr (at debug level): not servers, tools, search, run or doctor, for a
// remote server whose connection errors quote its URL, a stdio server that
// fails with its token in its error, and a careless server that quotes its
// token in its docs and errors (the test server's -leak).
func TestNoCommandPrintsAConfiguredSecret(t *testing.T) {
	clitest.NeedEngine(t)
	const (
		urlKey     = "SECRETVALUE1234"
		hdrToken   = "hdr-secret-5b5b9"
		envSecret  = "env-secret-7f3a9c"
		toolSecret = "tool-secret-d00d42"
	)
	secrets := []string{urlKey, hdrToken, envSecret, toolSecret}
	f := clitest.NewFixture(t, "")
	f.Write(t, f.Config, fmt.Sprintf(`
[limits]
connect_timeout = "3s"

[servers.remote]
url = "http://127.0.0.1:9/mcp?api_key=%s"
headers = { Authorization = "Bearer %s" }

[servers.leaky]
command = %q
args = ["-fail-start", "fatal: cannot log in with %s"]
env = { API_TOKEN = %q }

[servers.chatty]
command = %q
args = ["-leak", "CHATTY_TOKEN"]
env = { CHATTY_TOKEN = %q }
description = "notes (token %s)"
`, urlKey, hdrToken, f.Server, envSecret, envSecret, f.Server, toolSecret, toolSecret))

	debug := "--log-level=debug"
	runs := []clitest.Result{
		f.CLI(t, "servers", debug),
		f.CLI(t, "servers", debug, "--json"),
		f.CLI(t, "tools", debug),
		f.CLI(t, "tools", debug, "--json", "chatty"),
		f.CLI(t, "search", debug, "--json", "echo a message"),
		f.CLI(t, "run", debug, "--servers", "chatty", "-c", `
try:
    await mcp_chatty.fail(message="bad")
except ToolError as e:
    print("refused:", e)
print(mcp_chatty.echo.__doc__)
raise RuntimeError("the end")`),
		f.CLI(t, "run", debug, "--servers", "remote", "-c", "print('never')"),
		f.CLI(t, "doctor", debug),
	}
	var all strings.Builder
	for _, r := range runs {
		all.WriteString(r.Stdout + r.Stderr)
	}
	for _, s := range secrets {
		for i, r := range runs {
			if strings.Contains(r.Stdout+r.Stderr, s) {
				t.Errorf("command %d printed the secret %q:\nstdout: %s\nstderr: %s", i, s, r.Stdout, r.Stderr)
			}
		}
	}
	// The paths were taken: the secrets were there to print, redacted.
	for _, want := range []string{"api_key=[redacted]", "chatty.fail failed: bad (token [redacted])", "Connected with token [redacted].",
		"notes (token [redacted])", "[FAIL] server leaky", "[FAIL] server remote", "[ok  ] server chatty"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no command printed %q", want)
		}
	}
}
