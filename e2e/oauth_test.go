package e2e

// Signing in to a remote MCP server protected by a real OAuth
// authorization server: oidc-provider (pinned in testdata/npm), started by
// testdata/npm/oidc/server.mjs with the small MCP server it protects.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// oidcServer is a running testdata/npm/oidc/server.mjs.
type oidcServer struct {
	Issuer string `json:"issuer"`
	MCP    string `json:"mcp"`
}

// startOIDC starts the authorization server and its MCP server, and stops
// them when the test ends.
func startOIDC(t *testing.T, env []string) oidcServer {
	t.Helper()
	pinnedNpmBin(t, "conformance") // node and testdata/npm are there
	script, err := filepath.Abs(filepath.Join("..", "testdata", "npm", "oidc", "server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "..", "node_modules", "oidc-provider")); err != nil {
		t.Fatalf("oidc-provider is not installed in testdata/npm (run `make testdata`): %v", err)
	}
	cmd := exec.Command("node", script)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe() // closing it ends the server
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
	}()
	var srv oidcServer
	select {
	case s := <-line:
		if err := json.Unmarshal([]byte(s), &srv); err != nil || srv.MCP == "" {
			t.Fatalf("server.mjs said %q: %v", s, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server.mjs did not start within 30 s")
	}
	return srv
}

// stats are the grants the authorization server made, by grant type, and
// its revocations.
func (s oidcServer) stats(t *testing.T) map[string]int {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(s.MCP, "/mcp") + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]int{}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// storedSignIn is the one stored sign-in of the fixture's state directory.
type storedSignIn struct {
	path string
	raw  map[string]any
}

func readSignIn(t *testing.T, f *clitest.Fixture) storedSignIn {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(f.Home, ".local", "state", "mcp-code-mode", "oauth", "*.json"))
	if len(files) != 1 {
		t.Fatalf("want one stored sign-in, found %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	s := storedSignIn{path: files[0]}
	if err := json.Unmarshal(b, &s.raw); err != nil {
		t.Fatal(err)
	}
	return s
}

// browserDone returns the log of the test browser (testdata/npm/oidc/browser.mjs)
// once it has ended: login may finish as soon as the callback reaches it,
// before the browser notes the answer it got.
func browserDone(t *testing.T, log string) []byte {
	t.Helper()
	var b []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ = os.ReadFile(log)
		for _, end := range []string{"callback answered ", "no form on ", "too many steps"} {
			if bytes.Contains(b, []byte(end)) {
				return b
			}
		}
	}
	return b
}

func (s storedSignIn) str(key string) string { v, _ := s.raw[key].(string); return v }

// TestLoginRefreshLogoutWithARealAuthorizationServer signs in to a server
// that oidc-provider protects, as a person would: login prints the URL and
// opens $BROWSER (a script that signs in on the authorization server's
// page and comes back to the loopback redirect), and keeps the tokens.
// Runs then use them: a token about to expire is refreshed before it is
// sent, a token the server no longer takes is refreshed after the 401, and
// neither opens a browser. A hostile tool that quotes the Authorization
// header in its error shows the program no token. Logout revokes both
// tokens with the authorization server and forgets them.
func TestLoginRefreshLogoutWithARealAuthorizationServer(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	srv := startOIDC(t, f.Env)
	cfg := filepath.Join(f.Dir, "oidc.toml")
	f.Write(t, cfg, "[servers.oidc]\nurl = \""+srv.MCP+"\"\n")
	browser, err := filepath.Abs(filepath.Join("..", "testdata", "npm", "oidc", "browser.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	browserLog := filepath.Join(f.Dir, "browser.log")
	env := []string{"BROWSER=node " + browser, "BROWSER_LOG=" + browserLog}
	cli := func(args ...string) clitest.Result {
		t.Helper()
		return f.Run(t, "", env, append([]string{args[0], "--no-discovery", "--config", cfg}, args[1:]...)...)
	}
	whoami := "print(await mcp_oidc.whoami())"

	r := cli("run", "--servers", "oidc", "-c", whoami)
	if r.Code == 0 || !strings.Contains(r.Stderr, "run `mcp-code-mode login oidc` to sign in") {
		t.Fatalf("a run before login: exit %d, %q; want the way to sign in", r.Code, r.Stderr)
	}
	if _, err := os.Stat(browserLog); err == nil {
		t.Fatal("a run opened the browser")
	}

	r = cli("login", "oidc")
	if r.Code != 0 || !strings.Contains(r.Stdout, "open this URL in a browser") || !strings.Contains(r.Stdout, "Signed in to oidc at "+srv.Issuer+" (scope mcp:read; token expires in") {
		t.Fatalf("login: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	visited := browserDone(t, browserLog)
	if !strings.Contains(string(visited), "login=alice") || !strings.Contains(string(visited), "callback answered 200") {
		t.Fatalf("the browser did not sign in on the authorization server's page and come back:\n%s", visited)
	}
	first := readSignIn(t, f)
	if first.str("refresh_token") == "" || first.str("registration") != "dynamic" || first.str("resource") != srv.MCP {
		t.Fatalf("the stored sign-in: %v", first.raw)
	}
	if n := srv.stats(t); n["authorization_code"] != 1 || n["refresh_token"] != 0 {
		t.Fatalf("grants after login: %v, want one authorization code and no refresh", n)
	}

	r = cli("run", "--servers", "oidc", "-c", whoami)
	if r.Code != 0 || r.Stdout != "account alice\n" {
		t.Fatalf("a run after login: exit %d, %q %q", r.Code, r.Stdout, r.Stderr)
	}

	// The token is about to expire, as it would be 25 s after it was
	// issued: the next run refreshes it before sending it, and the refresh
	// token rotates.
	first.raw["signed_in"] = time.Now().Add(-25 * time.Second).UTC().Format(time.RFC3339)
	first.raw["expires_at"] = time.Now().Add(5 * time.Second).UTC().Format(time.RFC3339)
	b, _ := json.Marshal(first.raw)
	if err := os.WriteFile(first.path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	r = cli("run", "--servers", "oidc", "-c", whoami)
	second := readSignIn(t, f)
	if r.Code != 0 || r.Stdout != "account alice\n" || srv.stats(t)["refresh_token"] != 1 {
		t.Fatalf("a run with a token about to expire: exit %d, %q %q; grants %v", r.Code, r.Stdout, r.Stderr, srv.stats(t))
	}
	if second.str("access_token") == first.str("access_token") || second.str("refresh_token") == first.str("refresh_token") {
		t.Error("the refresh kept the old tokens")
	}

	// The authorization server revokes the access token: the server answers
	// 401, and the run refreshes and goes on.
	revoke(t, srv, second.str("access_token"), second.str("client_id"))
	r = cli("run", "--servers", "oidc", "-c", whoami)
	if r.Code != 0 || r.Stdout != "account alice\n" || srv.stats(t)["refresh_token"] != 2 {
		t.Fatalf("a run after the token was revoked: exit %d, %q %q; grants %v", r.Code, r.Stdout, r.Stderr, srv.stats(t))
	}
	third := readSignIn(t, f)

	// The hostile tool fails quoting the Authorization header it got: the
	// program sees no token.
	r = cli("run", "--servers", "oidc", "-c", `
try:
    await mcp_oidc.leak()
except ToolError as e:
    print("ToolError:", e)`)
	if r.Code != 0 || !strings.Contains(r.Stdout, "ToolError: oidc.leak failed: refused the Authorization header Bearer [redacted]") {
		t.Errorf("the hostile tool's error: exit %d, %q %q; want the token redacted", r.Code, r.Stdout, r.Stderr)
	}
	now := readSignIn(t, f)
	for _, s := range []storedSignIn{first, second, third, now} {
		for _, tok := range []string{s.str("access_token"), s.str("refresh_token")} {
			if strings.Contains(r.Stdout+r.Stderr, tok) {
				t.Errorf("the program or its error shows a token: %s", r.Stdout+r.Stderr)
			}
		}
	}

	r = cli("servers")
	if !strings.Contains(r.Stdout, "signed in (expires in") || !strings.Contains(r.Stdout, "refreshable") {
		t.Errorf("servers should show oidc signed in:\n%s", r.Stdout)
	}
	if visited2, _ := os.ReadFile(browserLog); string(visited2) != string(visited) {
		t.Errorf("a run opened the browser:\n%s", visited2)
	}

	r = cli("logout", "oidc")
	// Three revocations: the test's own, then logout's refresh and access
	// tokens.
	if r.Code != 0 || !strings.Contains(r.Stdout, "Signed out of oidc") || srv.stats(t)["revocation"] != 3 {
		t.Fatalf("logout: exit %d, %q %q; stats %v (want the refresh and access tokens revoked)", r.Code, r.Stdout, r.Stderr, srv.stats(t))
	}
	if files, _ := filepath.Glob(filepath.Join(filepath.Dir(now.path), "*.json")); len(files) != 0 {
		t.Errorf("after logout, sign-ins are still stored: %v", files)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.MCP, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Authorization", "Bearer "+now.str("access_token"))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the access token still works after logout: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}
	r = cli("run", "--servers", "oidc", "-c", whoami)
	if r.Code == 0 || !strings.Contains(r.Stderr, "run `mcp-code-mode login oidc` to sign in") {
		t.Errorf("a run after logout: exit %d, %q", r.Code, r.Stderr)
	}

	// No token of any of the sign-ins is in a file of the home directory
	// (the audit log, the tool catalog, the state) but the token store's.
	files := 0
	_ = filepath.WalkDir(f.Home, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Dir(p) == filepath.Dir(now.path) {
			return nil
		}
		files++
		b, _ := os.ReadFile(p)
		for _, s := range []storedSignIn{first, second, third, now} {
			for _, tok := range []string{s.str("access_token"), s.str("refresh_token")} {
				if strings.Contains(string(b), tok) {
					t.Errorf("%s holds a token", p)
				}
			}
		}
		return nil
	})
	t.Logf("no token in the %d other files of the home directory", files)
}

// revoke revokes a token at the authorization server, as its
// administrator might.
func revoke(t *testing.T, srv oidcServer, token, clientID string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	form := url.Values{"token": {token}, "client_id": {clientID}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.Issuer+"/token/revocation", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("revoke: %v %v", err, resp)
	}
	resp.Body.Close()
}
