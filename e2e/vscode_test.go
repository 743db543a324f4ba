package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// vscodeDir holds code-server (VS Code 1.100.3 for a browser), the browser
// driver and the probe extension; testdata/vscode/install.sh installs them.
const vscodeDir = "../testdata/vscode"

// TestVSCodeConnects is VS Code used as a new user would: the README's
// .vscode/mcp.json entry (stdio) in a project, and an HTTP entry in the user
// settings. In a browser, the test trusts the folder, starts both servers
// from "MCP: List Servers", and confirms each tool call VS Code asks about.
// A probe extension stands in for the chat model: it calls each run_python
// through vscode.lm.invokeTool, the path chat takes.
func TestVSCodeConnects(t *testing.T) {
	clitest.NeedEngine(t)
	dir, err := filepath.Abs(vscodeDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".installed")); err != nil {
		testenv.SkipOrFail(t, "code-server is not installed (run `make testdata-vscode`): %v", err)
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		testenv.SkipOrFail(t, "chromium not found (Debian package chromium; .ci/vscode.sh installs it): %v", err)
	}

	f := clitest.NewFixture(t, "")
	// The HTTP entry gets its own server, so each answer shows which
	// transport carried it.
	httpConfig := filepath.Join(f.Dir, "http.toml")
	f.Write(t, httpConfig, "[servers.viahttp]\ncommand = "+strconv.Quote(f.Server)+
		"\nargs = [\"-name\", \"viahttp\", \"-log\", "+strconv.Quote(f.Log)+"]\n")
	editorPort := strconv.Itoa(testenv.FreePort(t))
	editor := "http://127.0.0.1:" + editorPort
	// VS Code runs servers from the user settings in the browser (a web
	// worker), so this one needs the editor's origin allowed for CORS.
	_, mcpURL := f.HTTPServe(t, nil, "serve", "--no-discovery", "--config", httpConfig,
		"--http", "127.0.0.1:PORT", "--allow-origin", editor)

	project := filepath.Join(f.Dir, "project")
	writeJSONFile(t, filepath.Join(project, ".vscode", "mcp.json"), map[string]any{
		"servers": map[string]any{
			"code-mode": map[string]any{"type": "stdio", "command": clitest.Bin(), "args": []string{"serve", "--no-discovery", "--config", f.Config}},
		},
	})
	// VS Code checks each tool's inputSchema against the draft-07
	// meta-schema, which it downloads; offline, it is given a local copy.
	var metaSchema any
	readJSONFile(t, filepath.Join(dir, "node_modules", "ajv", "dist", "refs", "json-schema-draft-07.json"), &metaSchema)
	writeJSONFile(t, filepath.Join(f.Home, ".local", "share", "code-server", "User", "settings.json"), map[string]any{
		"mcp": map[string]any{
			"servers": map[string]any{"code-mode-http": map[string]any{"type": "http", "url": mcpURL, "headers": f.Auth(t)}},
		},
		"json.schemas": []any{map[string]any{"url": "https://json-schema.org/draft-07/schema", "schema": metaSchema}},
	})
	extensions := filepath.Join(f.Dir, "extensions")
	if err := os.MkdirAll(filepath.Join(extensions, "probe"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"package.json", "extension.js"} {
		b, err := os.ReadFile(filepath.Join(dir, "probe", name))
		if err != nil {
			t.Fatal(err)
		}
		f.Write(t, filepath.Join(extensions, "probe", name), string(b))
	}
	probeRequest, probeOut := filepath.Join(f.Dir, "probe-request.json"), filepath.Join(f.Dir, "probe-out.jsonl")
	writeJSONFile(t, probeRequest, []map[string]any{
		{"id": "stdio", "match": "mcp_test", "input": map[string]any{"code": "print(await mcp_test.add(a=2, b=3))", "servers": []string{"test"}}},
		{"id": "http", "match": "mcp_viahttp", "input": map[string]any{"code": "print(await mcp_viahttp.add(a=20, b=22))", "servers": []string{"viahttp"}}},
	})

	env := append(append([]string{}, f.Env...), "PROBE_REQUEST="+probeRequest, "PROBE_OUT="+probeOut, "CHROMIUM="+chromium)
	codeServer := startCodeServer(t, env, dir, "--auth", "none", "--bind-addr", "127.0.0.1:"+editorPort,
		"--disable-telemetry", "--disable-update-check", "--extensions-dir", extensions, project)

	shot := filepath.Join(os.TempDir(), "mcp-code-mode-vscode-failure.png")
	out, errOut, code := nodeRun(t, 5*time.Minute, env, dir, "node", "drive.js",
		editor+"/?folder="+project, probeOut, "2", shot, "code-mode", "code-mode-http")
	t.Logf("driver stderr:\n%s", clitest.Clip(errOut, 4000))
	if code != 0 {
		t.Fatalf("driving VS Code failed (exit %d; screenshot %s)\ncode-server: %s", code, shot, clitest.Clip(codeServer.String(), 4000))
	}
	// What the user reads before confirming a call: the call pattern intact
	// (VS Code renders the description as Markdown).
	if !strings.Contains(errOut, "dialog: ") || !strings.Contains(errOut, "await mcp_{alias}.{tool}(name=value") {
		t.Errorf("VS Code's confirmation dialog did not show run_python's call pattern")
	}
	var shown struct {
		Outputs map[string]string `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatalf("driver output: %v\n%s", err, out)
	}
	for _, name := range []string{"code-mode", "code-mode-http"} {
		log := strings.ReplaceAll(shown.Outputs[name], "\u00a0", " ")
		t.Logf("VS Code's output channel MCP: %s\n%s", name, log)
		if !strings.Contains(log, "Discovered 1 tools") || strings.Contains(log, "invalid") {
			t.Errorf("VS Code did not take run_python from %s", name)
		}
	}

	answers := map[string]string{}
	b, err := os.ReadFile(probeOut)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e struct{ Event, ID, Text, Message string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("probe line %q: %v", line, err)
		}
		switch e.Event {
		case "result":
			answers[e.ID] = e.Text
		case "error", "timeout":
			t.Errorf("probe: %s", line)
		}
	}
	if answers["stdio"] != "{'sum': 5}\n" || answers["http"] != "{'sum': 42}\n" {
		t.Errorf("answers through VS Code: %q", answers)
	}
	var sums []string
	for _, c := range clitest.ServerCalls(t, f.Log) {
		if c.Tool == "add" {
			sums = append(sums, string(c.Args))
		}
	}
	if len(sums) != 2 {
		t.Errorf("the wrapped servers saw %d add calls, want 2: %v", len(sums), sums)
	}

	// The stdio server VS Code started ends with the editor, and takes its
	// warm containers with it.
	pids := clitest.Pgrep("--config " + f.Config)
	stopProcessGroup(codeServer.cmd, 20*time.Second)
	for deadline := time.Now().Add(15 * time.Second); len(clitest.Pgrep("--config "+f.Config)) > 0 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	if left := clitest.Pgrep("--config " + f.Config); len(left) > 0 {
		t.Errorf("LEAK: the server VS Code started outlived it: %v", left)
	}
	for _, pid := range pids {
		clitest.ExpectNoContainers(t, pid)
	}
}

// codeServerProc is a running code-server and its output.
type codeServerProc struct {
	cmd *exec.Cmd
	out testenv.Buffer
}

func (p *codeServerProc) String() string { return p.out.String() }

// startCodeServer starts code-server in its own process group and waits
// until it listens; the test's cleanup stops the group.
func startCodeServer(t *testing.T, env []string, dir string, args ...string) *codeServerProc {
	t.Helper()
	p := &codeServerProc{}
	p.cmd = exec.Command("node", append([]string{filepath.Join("node_modules", "code-server", "out", "node", "entry.js")}, args...)...)
	p.cmd.Env = env
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopProcessGroup(p.cmd, 20*time.Second) })
	for deadline := time.Now().Add(time.Minute); !strings.Contains(p.out.String(), "HTTP server listening"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("code-server did not start:\n%s", p.out.String())
		}
	}
	return p
}

// stopProcessGroup ends cmd's process group: SIGTERM, then SIGKILL for
// whatever is left after grace. It is safe to call more than once.
func stopProcessGroup(cmd *exec.Cmd, grace time.Duration) {
	if cmd.Process == nil || cmd.ProcessState != nil {
		return
	}
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
	}
	// Children of the group (the extension hosts) may outlive its leader.
	for deadline := time.Now().Add(grace); groupAlive(pgid) && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-done
}

func groupAlive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}

func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
