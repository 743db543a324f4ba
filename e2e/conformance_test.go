package e2e

// The MCP conformance suite (@modelcontextprotocol/conformance, pinned in
// testdata/npm) against mcp-code-mode: in server mode against
// `serve --http`, and in client mode with mcp-code-mode as the client that
// connects to the suite's test server as a wrapped (upstream) server.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// conformanceCheck is one entry of a scenario's checks.json.
type conformanceCheck struct {
	ID           string          `json:"id"`
	Status       string          `json:"status"` // SUCCESS, FAILURE, WARNING, INFO
	Description  string          `json:"description"`
	ErrorMessage string          `json:"errorMessage"`
	Details      json.RawMessage `json:"details"`
}

// readChecks reads the checks.json of the one result directory under dir
// whose name starts with prefix.
func readChecks(t *testing.T, dir, prefix string) ([]conformanceCheck, string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, prefix+"-*", "checks.json"))
	// A scenario name can be a prefix of another's ("tools-call-error" and
	// "tools-call-error-x"): the timestamp that follows starts with a digit.
	var found []string
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(filepath.Dir(m)), prefix+"-")
		if rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one result for %s in %s, found %v", prefix, dir, found)
	}
	raw, err := os.ReadFile(found[0])
	if err != nil {
		t.Fatal(err)
	}
	var checks []conformanceCheck
	if err := json.Unmarshal(raw, &checks); err != nil {
		t.Fatalf("%s: %v", found[0], err)
	}
	return checks, filepath.Dir(found[0])
}

// countChecks counts the checks by status.
func countChecks(checks []conformanceCheck) map[string]int {
	n := map[string]int{}
	for _, c := range checks {
		n[c.Status]++
	}
	return n
}

// passed says whether a scenario passed: at least one SUCCESS, and no
// FAILURE or WARNING (the suite counts a warning as a failed run too).
func passed(checks []conformanceCheck) bool {
	n := countChecks(checks)
	return n["SUCCESS"] > 0 && n["FAILURE"] == 0 && n["WARNING"] == 0
}

func describeChecks(checks []conformanceCheck) string {
	var b strings.Builder
	for _, c := range checks {
		fmt.Fprintf(&b, "  [%s] %s: %s", c.Status, c.ID, c.Description)
		if c.ErrorMessage != "" {
			fmt.Fprintf(&b, " -- %s", c.ErrorMessage)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The server scenarios of conformance 0.1.12 that apply to a server whose
// only tool is run_python (and that has no resources, prompts, completions
// or logging).
var conformanceServerApplicable = []string{
	"server-initialize",
	"ping",
	"tools-list",
	"server-sse-multiple-streams",
	"dns-rebinding-protection",
}

// The other server scenarios, and why they do not apply. Each calls a
// method our server does not offer (it answers -32601 "... not supported")
// or a test tool of the suite's reference server (-32602 "tool ... not
// found").
var conformanceServerNotApplicable = map[string]string{
	"logging-set-level":             "logging/setLevel: the server declares no logging capability (it sends no log messages to clients)",
	"completion-complete":           "completion/complete: no completions capability (there are no prompts or resource templates to complete)",
	"tools-call-simple-text":        "calls the suite's test tool test_simple_text; our only tool is run_python",
	"tools-call-image":              "calls the suite's test tool test_image_content (image content); our only tool is run_python",
	"tools-call-audio":              "calls the suite's test tool test_audio_content (audio content); our only tool is run_python",
	"tools-call-embedded-resource":  "calls the suite's test tool test_embedded_resource (resource content); our only tool is run_python",
	"tools-call-mixed-content":      "calls the suite's test tool test_multiple_content_types; our only tool is run_python",
	"tools-call-with-logging":       "needs logging/setLevel and the test tool test_tool_with_logging; no logging capability",
	"tools-call-error":              "calls the suite's test tool test_error_handling (run_python's own isError results are covered by cmd/mcp-code-mode's TestServeStdio)",
	"tools-call-with-progress":      "calls the suite's test tool test_tool_with_progress (run_python's progress is covered by cmd/mcp-code-mode's TestServeReportsProgress)",
	"tools-call-sampling":           "calls test_sampling: sampling/createMessage from the server; our server does not ask clients for sampling",
	"tools-call-elicitation":        "calls test_elicitation: elicitation/create from the server; our server does not elicit",
	"json-schema-2020-12":           "looks for the suite's tool json_schema_2020_12_tool; our only tool is run_python",
	"elicitation-sep1034-defaults":  "calls test_elicitation_sep1034_defaults: elicitation, which our server does not use",
	"elicitation-sep1330-enums":     "calls test_elicitation_sep1330_enums: elicitation, which our server does not use",
	"server-sse-polling":            "calls the suite's test tool test_reconnection (SEP-1699 stream resumption); our server answers POSTs with JSON, so the suite records only INFO (no pass or fail)",
	"resources-list":                "resources: the server has no resources capability",
	"resources-read-text":           "resources: the server has no resources capability",
	"resources-read-binary":         "resources: the server has no resources capability",
	"resources-templates-read":      "resources: the server has no resources capability",
	"resources-subscribe":           "resources: the server has no resources capability",
	"resources-unsubscribe":         "resources: the server has no resources capability",
	"prompts-list":                  "prompts: the server has no prompts capability",
	"prompts-get-simple":            "prompts: the server has no prompts capability",
	"prompts-get-with-args":         "prompts: the server has no prompts capability",
	"prompts-get-embedded-resource": "prompts: the server has no prompts capability",
	"prompts-get-with-image":        "prompts: the server has no prompts capability",
}

// listScenarios parses `conformance list --server|--client`.
func listScenarios(t *testing.T, conformance string, env []string, dir, kind string) []string {
	t.Helper()
	out, errOut, code := nodeRun(t, 30*time.Second, env, dir, conformance, "list", "--"+kind)
	if code != 0 {
		t.Fatalf("conformance list --%s: exit %d\n%s%s", kind, code, out, errOut)
	}
	var names []string
	for _, line := range strings.Split(out, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		t.Fatalf("conformance list --%s printed no scenarios:\n%s", kind, out)
	}
	return names
}

// TestConformanceServer runs the suite's server scenarios against
// `mcp-code-mode serve --http 127.0.0.1:PORT`. Serving initialize, ping
// and tools/list needs no container engine, so neither does this test.
func TestConformanceServer(t *testing.T) {
	conformance := pinnedNpmBin(t, "conformance")
	f := clitest.NewFixture(t, "")
	// The suite's --url gives it no way to send a header: this server runs
	// without authentication, as only a loopback address allows.
	_, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--no-discovery", "--http", "127.0.0.1:PORT", "--no-auth")
	results := filepath.Join(f.Dir, "results")

	// Every scenario the suite has is classified here: a new one (after an
	// upgrade of the suite) must be looked at.
	all := listScenarios(t, conformance, f.Env, f.Dir, "server")
	applicable := map[string]bool{}
	for _, s := range conformanceServerApplicable {
		applicable[s] = true
	}
	for _, s := range all {
		if !applicable[s] && conformanceServerNotApplicable[s] == "" {
			t.Errorf("server scenario %q is new: decide whether it applies to mcp-code-mode and list it in conformanceServerApplicable or conformanceServerNotApplicable", s)
		}
	}
	listed := strings.Join(all, " ")
	for _, s := range conformanceServerApplicable {
		if !strings.Contains(" "+listed+" ", " "+s+" ") {
			t.Errorf("applicable scenario %q is no longer in the suite", s)
		}
	}

	for _, scenario := range conformanceServerApplicable {
		t.Run(scenario, func(t *testing.T) {
			args := []string{"server", "--url", url, "--scenario", scenario, "-o", results}
			out, errOut, code := nodeRun(t, 60*time.Second, f.Env, f.Dir, conformance, args...)
			t.Logf("conformance %s -> exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
			checks, _ := readChecks(t, results, "server-"+scenario)
			if code != 0 || !passed(checks) {
				t.Errorf("scenario %s did not pass (exit %d, %v):\n%s", scenario, code, countChecks(checks), describeChecks(checks))
			}
		})
	}

	// The others are run once together, only to record what they find.
	t.Run("not applicable", func(t *testing.T) {
		dir := filepath.Join(f.Dir, "all")
		args := []string{"server", "--url", url, "--suite", "all", "-o", dir}
		out, _, code := nodeRun(t, 60*time.Second, f.Env, f.Dir, conformance, args...)
		if i := strings.Index(out, "=== SUMMARY ==="); i >= 0 {
			out = out[i:]
		}
		t.Logf("conformance %s -> exit %d (it fails on the scenarios that do not apply)\n%s", strings.Join(args, " "), code, out)
		names := make([]string, 0, len(conformanceServerNotApplicable))
		for s := range conformanceServerNotApplicable {
			names = append(names, s)
		}
		sort.Strings(names)
		for _, s := range names {
			checks, _ := readChecks(t, dir, "server-"+s)
			observed := fmt.Sprint(countChecks(checks))
			for _, c := range checks {
				if c.Status == "FAILURE" {
					observed = c.ErrorMessage
					break
				}
			}
			t.Logf("not applicable: %-30s %s\n    observed: %s", s, conformanceServerNotApplicable[s], observed)
		}
	})
}

// conformanceClientScript is the client command given to `conformance
// client`: the suite appends its test server's URL as the last argument and
// names the scenario in MCP_CONFORMANCE_SCENARIO. It writes a config naming
// that URL as server "conf" and runs one program that uses it.
const conformanceClientScript = `#!/bin/sh
set -eu
url=$1
cfg="DIR/conf-$$.toml"
trap 'rm -f "$cfg"' EXIT
printf '[servers.conf]\nurl = "%s"\n' "$url" > "$cfg"
case "${MCP_CONFORMANCE_SCENARIO:-}" in
tools_call) code='print(await mcp_conf.add_numbers(a=2, b=3))' ;;
sse-retry) code='print(await mcp_conf.test_reconnection())' ;;
*) code='d = await runtime.describe_server("conf"); print(d["name"], d["transport"], d["loaded"])' ;;
esac
exec BIN run --no-discovery --config "$cfg" --servers conf -c "$code"
`

// conformanceClientNotApplicable are the client scenarios that do not
// apply, and why. The auth/* scenarios run in TestConformanceClientAuth.
var conformanceClientNotApplicable = map[string]string{
	"elicitation-sep1034-client-defaults": "elicitation: the server asks its client for input (elicitation/create), and mcp-code-mode declares no elicitation capability to wrapped servers: a program in the sandbox has no user to ask",
}

// TestConformanceClient runs the suite's client scenarios initialize,
// tools_call and sse-retry with mcp-code-mode as the client: the suite
// starts a test MCP server, and mcp-code-mode wraps it (streamable HTTP)
// and calls its tool from a program in the sandbox. Every client scenario
// of the suite is run here or in TestConformanceClientAuth, or is listed
// in conformanceClientNotApplicable with the reason, which is logged.
func TestConformanceClient(t *testing.T) {
	conformance := pinnedNpmBin(t, "conformance")
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	script := filepath.Join(f.Dir, "client.sh")
	f.Write(t, script, strings.NewReplacer("DIR", f.Dir, "BIN", clitest.Bin()).Replace(conformanceClientScript))
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(script, " \t'\"") {
		t.Skipf("the suite splits --command on spaces; temp path %q has one", script)
	}
	results := filepath.Join(f.Dir, "results")

	// run runs one client scenario and returns its checks, the suite's
	// output, what our client printed, and the suite's exit status.
	run := func(t *testing.T, scenario string, env []string) ([]conformanceCheck, string, string, int) {
		t.Helper()
		args := []string{"client", "--command", script, "--scenario", scenario, "--timeout", "40000", "-o", results}
		out, errOut, code := nodeRun(t, 60*time.Second, env, f.Dir, conformance, args...)
		t.Logf("conformance %s -> exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		checks, dir := readChecks(t, results, scenario)
		printed, _ := os.ReadFile(filepath.Join(dir, "stdout.txt"))
		t.Logf("our client printed: %q", printed)
		os.RemoveAll(dir) // a rerun must find only its own result
		return checks, out + errOut, string(printed), code
	}

	for _, s := range listScenarios(t, conformance, f.Env, f.Dir, "client") {
		switch why := conformanceClientNotApplicable[s]; {
		case s == "initialize" || s == "tools_call" || s == "sse-retry" || strings.HasPrefix(s, "auth/"):
		case why != "":
			t.Logf("not applicable: %s: %s", s, why)
		default:
			t.Errorf("client scenario %q is new: run it, or list it in conformanceClientNotApplicable with the reason", s)
		}
	}

	t.Run("initialize", func(t *testing.T) {
		checks, _, printed, code := run(t, "initialize", f.Env)
		if code != 0 || !passed(checks) {
			t.Errorf("initialize did not pass (exit %d):\n%s", code, describeChecks(checks))
		}
		if printed != "conf http True\n" {
			t.Errorf("the program printed %q, want the wrapped server described as loaded", printed)
		}
		for _, c := range checks {
			if c.ID == "mcp-client-initialization" {
				t.Logf("what the suite saw of our client: %s", c.Details)
			}
		}
	})

	t.Run("tools_call", func(t *testing.T) {
		// testdata/npm holds the suite's own SDK at 1.25.2: conformance
		// 0.1.12's test server breaks with SDK >= 1.26 (conformance#134).
		checks, _, printed, code := run(t, "tools_call", f.Env)
		if code != 0 || !passed(checks) {
			t.Errorf("tools_call did not pass (exit %d):\n%s", code, describeChecks(checks))
		}
		if printed != "The sum of 2 and 3 is 5\n" {
			t.Errorf("the program printed %q, want the tool's answer", printed)
		}
		for _, c := range checks {
			if c.ID == "tool-add-numbers" && c.Status == "SUCCESS" {
				t.Logf("the suite's add_numbers tool was called by the sandboxed program: %s", c.Details)
			}
		}
	})

	// The server ends the tool call's SSE stream after a priming event
	// with retry: 500 ms; the client must reconnect with GET and
	// Last-Event-ID after that wait and get the answer there (mcp-go's
	// streamable HTTP transport does). The suite times the wait: on a
	// loaded machine a reconnection up to 500 ms late is a WARNING, logged
	// here; early, or more than 500 ms late, is a FAILURE.
	t.Run("sse-retry", func(t *testing.T) {
		checks, _, printed, code := run(t, "sse-retry", f.Env)
		for _, c := range checks {
			switch {
			case c.Status == "FAILURE":
				t.Errorf("sse-retry: %s failed: %s %s", c.ID, c.Description, c.Details)
			case c.Status == "WARNING" && c.ID == "client-sse-retry-timing":
				t.Logf("sse-retry: the reconnection came a little late (the machine is loaded?): %s", c.Details)
			case c.Status == "WARNING":
				t.Errorf("sse-retry: %s: %s", c.ID, c.Description)
			}
		}
		if n := countChecks(checks); n["SUCCESS"] < 2 || code != 0 && n["WARNING"] == 0 {
			t.Errorf("sse-retry: exit %d, %v:\n%s", code, n, describeChecks(checks))
		}
		if printed != "Reconnection test completed successfully\n" {
			t.Errorf("the program printed %q, want the answer sent after the reconnection", printed)
		}
	})
}
