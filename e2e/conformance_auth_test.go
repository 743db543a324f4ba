package e2e

// The auth scenarios of the MCP conformance suite with mcp-code-mode as
// the client: the suite starts a protected MCP server and its
// authorization server, the client script signs in with `login` and calls
// the server's tool from a `run` program.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// conformanceAuthMap writes the config of server "conf" for one scenario:
// the URL the suite gives, and under [servers.conf.oauth] the credentials
// the scenario passes in MCP_CONFORMANCE_CONTEXT (client_id; client_secret
// in a file the script exports as CONF_CLIENT_SECRET; private_key_pem in
// a key file, with signing_algorithm), the client ID metadata document
// URL the suite's authorization server accepts, and the client credentials
// grant for the scenarios of that grant.
const conformanceAuthMap = `const fs = require('fs');
const [url, dir] = process.argv.slice(2);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO || '';
const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const q = JSON.stringify;
let out = '[servers.conf]\nurl = ' + q(url) + '\n\n[servers.conf.oauth]\n' +
  'client_metadata_url = "https://conformance-test.local/client-metadata.json"\n';
if (ctx.client_id) out += 'client_id = ' + q(ctx.client_id) + '\n';
if (ctx.client_secret) {
  fs.writeFileSync(dir + '/secret', ctx.client_secret, {mode: 0o600});
  out += 'client_secret_env = "CONF_CLIENT_SECRET"\n';
}
if (ctx.private_key_pem) {
  fs.writeFileSync(dir + '/key.pem', ctx.private_key_pem, {mode: 0o600});
  out += 'private_key_file = ' + q(dir + '/key.pem') + '\n';
}
if (ctx.signing_algorithm) out += 'signing_algorithm = ' + q(ctx.signing_algorithm) + '\n';
if (scenario.startsWith('auth/client-credentials')) out += 'grant = "client_credentials"\n';
process.stdout.write(out);
`

// conformanceAuthScript is the client command of the auth scenarios. Each
// scenario gets a folder of its own (state, cache, config, and what each
// command printed, for the test to read): a run before any sign-in (which
// must fail saying to log in; with the client credentials grant it signs
// in itself), then login, then a run calling the server's tool. $BROWSER
// is a script that leaves a mark: the suite's authorization server grants
// at once, so no browser may be needed. For auth/metadata-default it also
// lets a search meet the server before the sign-in, shows the signed-in
// server through every command and helper (with debug logs), then logs
// out and runs once more.
const conformanceAuthScript = `#!/bin/sh
set -u
url=$1
art="DIR/sc/$(echo "$MCP_CONFORMANCE_SCENARIO" | tr / _)"
mkdir -p "$art"
export XDG_STATE_HOME="$art/state" XDG_CACHE_HOME="$art/cache" XDG_CONFIG_HOME="$art/config" BROWSER="$art/browser"
printf '#!/bin/sh\necho "$@" >> "%s/browser-opened"\n' "$art" > "$art/browser"
chmod +x "$art/browser"
cfg="$art/conf.toml"
node DIR/map.js "$url" "$art" > "$cfg" || exit 3
if [ -f "$art/secret" ]; then CONF_CLIENT_SECRET=$(cat "$art/secret"); export CONF_CLIENT_SECRET; fi
m() { name=$1; shift; BIN "$@" > "$art/$name.out" 2> "$art/$name.err"; echo $? > "$art/$name.code"; }
common="--no-discovery --config $cfg"
call='print(await mcp_conf.test_tool())'
m pre-run run $common --servers conf -c "$call"
if [ "$MCP_CONFORMANCE_SCENARIO" = auth/metadata-default ]; then
  m pre-search search $common test
fi
m login login $common conf
m run run $common --servers conf -c "$call"
[ -d "$art/state/mcp-code-mode/oauth" ] && cp -rp "$art/state/mcp-code-mode/oauth" "$art/signed-in"
if [ "$MCP_CONFORMANCE_SCENARIO" = auth/metadata-default ]; then
  m servers servers $common --json
  m tools tools $common --json conf
  m search search $common --json test
  m helpers run $common --log-level debug --servers conf -c '
print(await runtime.describe_server("conf"))
print(await runtime.query_tool_docs("conf", detail="full"))
print(await runtime.search_tool_docs("test tool", detail="full"))
print(await runtime.call_tool("conf", "test-tool", {}))
print(await mcp_conf.test_tool())'
  m logout logout $common conf
  m post-logout run $common --servers conf -c "$call"
  m post-logout-servers servers $common
fi
cat "$art/run.out"
cat "$art/login.err" "$art/run.err" >&2
exit $(cat "$art/run.code")
`

// conformanceAuthOutcome is what a scenario's client must end with when
// the flow cannot complete: its run fails, saying why.
var conformanceAuthOutcome = map[string]string{
	"auth/resource-mismatch": `is for the resource "https://evil.example.com/mcp", not this server`,
	"auth/scope-retry-limit": `refused its token for lack of scope "mcp:admin", which the token was granted`,
}

// TestConformanceClientAuth runs every auth/* client scenario of the pinned
// conformance suite with mcp-code-mode as the client, each of which must
// pass; and checks on the way what the client did: no browser, a run
// before the sign-in refused with the way to sign in, the sign-in's file
// readable by its owner alone, and (on auth/metadata-default) the token in
// nothing the sandbox, the MCP client or the logs see, and a logout that
// leaves the server unsigned.
func TestConformanceClientAuth(t *testing.T) {
	conformance := pinnedNpmBin(t, "conformance")
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	script := filepath.Join(f.Dir, "client.sh")
	f.Write(t, filepath.Join(f.Dir, "map.js"), conformanceAuthMap)
	f.Write(t, script, strings.NewReplacer("DIR", f.Dir, "BIN", clitest.Bin()).Replace(conformanceAuthScript))
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(f.Dir, " \t'\"") {
		t.Skipf("the suite splits --command on spaces; temp path %q has one", f.Dir)
	}
	results := filepath.Join(f.Dir, "results")
	var auth []string
	for _, s := range listScenarios(t, conformance, f.Env, f.Dir, "client") {
		if strings.HasPrefix(s, "auth/") {
			auth = append(auth, s)
		}
	}
	if len(auth) < 19 {
		t.Fatalf("the suite lists %d auth scenarios, want at least the 19 of 0.1.12: %v", len(auth), auth)
	}
	for _, scenario := range auth {
		t.Run(scenario, func(t *testing.T) {
			args := []string{"client", "--command", script, "--scenario", scenario, "--timeout", "90000", "-o", results}
			out, errOut, code := nodeRun(t, 120*time.Second, f.Env, f.Dir, conformance, args...)
			checks, dir := readChecks(t, filepath.Join(results, "auth"), strings.TrimPrefix(scenario, "auth/"))
			if code != 0 || !passed(checks) {
				t.Errorf("%s did not pass (exit %d, %v):\n%s\n%s%s", scenario, code, countChecks(checks), describeChecks(checks), out, errOut)
			} else {
				t.Logf("%s passed: %v", scenario, countChecks(checks))
			}
			os.RemoveAll(dir)
			art := filepath.Join(f.Dir, "sc", strings.ReplaceAll(scenario, "/", "_"))
			read := func(name string) string {
				b, _ := os.ReadFile(filepath.Join(art, name))
				return string(b)
			}
			if b := read("browser-opened"); b != "" {
				t.Errorf("a browser was opened, though the authorization server grants at once: %s", b)
			}
			cc := strings.HasPrefix(scenario, "auth/client-credentials")
			switch pre := read("pre-run.err"); {
			case cc:
				if read("pre-run.code") != "0\n" || read("pre-run.out") != "test\n" {
					t.Errorf("with the client credentials grant, a run before login should sign in itself: exit %s, %q %q", read("pre-run.code"), read("pre-run.out"), pre)
				}
			case read("pre-run.code") == "0\n" || !strings.Contains(pre, "run `mcp-code-mode login conf` to sign in"):
				t.Errorf("a run before login: exit %s, stderr %q; want a failure that says to run mcp-code-mode login conf", read("pre-run.code"), pre)
			}
			if want, bad := conformanceAuthOutcome[scenario]; bad {
				if !strings.Contains(read("login.err")+read("run.err"), want) {
					t.Errorf("the client should fail saying %q; login said %q, run said %q", want, read("login.err"), read("run.err"))
				}
				return
			}
			if read("login.code") != "0\n" || !strings.Contains(read("login.out"), "Signed in to conf") {
				t.Errorf("login: exit %s, %q %q", read("login.code"), read("login.out"), read("login.err"))
			}
			if read("run.out") != "test\n" {
				t.Errorf("the run printed %q (stderr %q), want the tool's answer", read("run.out"), read("run.err"))
			}
			// As the script copied it after the run (logout removes it).
			records, _ := filepath.Glob(filepath.Join(art, "signed-in", "*.json"))
			if len(records) != 1 {
				t.Fatalf("want one stored sign-in, found %v", records)
			}
			info, err := os.Stat(records[0])
			if err != nil || info.Mode().Perm() != 0o600 || strings.Contains(filepath.Base(records[0]), "conf") {
				t.Errorf("the stored sign-in %s: %v, mode %v; want 0600, named without the server's name", records[0], err, info.Mode())
			}
			if dirInfo, err := os.Stat(filepath.Dir(records[0])); err != nil || dirInfo.Mode().Perm() != 0o700 {
				t.Errorf("the token folder: %v %v, want 0700", err, dirInfo.Mode())
			}
			if scenario == "auth/metadata-default" {
				checkTokenNeverShown(t, records[0], read)
			}
		})
	}
}

// checkTokenNeverShown checks, on auth/metadata-default, that the token and
// the client secret the suite's server registered (read from the stored
// sign-in) appear in nothing the commands printed: runs (their output,
// which holds every helper's answer, and their debug logs), servers,
// tools and search, login and logout; that a search before the sign-in
// named the server left out with the way to sign in; and that after
// logout the server is not signed in and a run says to log in again.
func checkTokenNeverShown(t *testing.T, record string, read func(string) string) {
	t.Helper()
	raw, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		AccessToken  string `json:"access_token"`
		ClientSecret string `json:"client_secret"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil || !strings.HasPrefix(rec.AccessToken, "test-token") {
		t.Fatalf("the stored sign-in: %v, access token %q", err, rec.AccessToken)
	}
	secrets := []string{rec.AccessToken}
	if rec.ClientSecret != "" {
		secrets = append(secrets, rec.ClientSecret)
	}
	if !strings.Contains(read("pre-search.err"), "server conf left out") || !strings.Contains(read("pre-search.err"), "run `mcp-code-mode login conf` to sign in") {
		t.Errorf("a search before the sign-in should name conf as left out, with the way to sign in: %q", read("pre-search.err"))
	}
	helpers := read("helpers.out")
	for _, want := range []string{"'name': 'conf'", "test_tool", "test\ntest\n"} {
		if !strings.Contains(helpers, want) {
			t.Errorf("the helpers' answers lack %q:\n%s", want, helpers)
		}
	}
	if !strings.Contains(read("helpers.err"), "level=DEBUG") {
		t.Errorf("the run with --log-level debug logged nothing at debug level:\n%s", read("helpers.err"))
	}
	if !strings.Contains(read("servers.out"), `"sign_in": "signed in (expires in`) {
		t.Errorf("servers --json should show conf signed in:\n%s", read("servers.out"))
	}
	var seen int
	for _, name := range []string{"pre-run", "pre-search", "login", "run", "servers", "tools", "search", "helpers", "logout", "post-logout", "post-logout-servers"} {
		for _, ext := range []string{".out", ".err"} {
			text := read(name + ext)
			seen += len(text)
			for _, s := range secrets {
				if strings.Contains(text, s) {
					t.Errorf("%s%s shows a secret of the sign-in (%.12s...):\n%s", name, ext, s, text)
				}
			}
		}
	}
	t.Logf("the token and the registered client's secret are in none of the %d bytes the commands printed", seen)
	// Nor in the cache (the tool catalog and the record of failed starts).
	cache := filepath.Join(filepath.Dir(filepath.Dir(record)), "cache")
	files := 0
	_ = filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		files++
		b, _ := os.ReadFile(p)
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("the cache file %s holds a secret of the sign-in", p)
			}
		}
		return nil
	})
	if files == 0 {
		t.Errorf("no file in the cache %s: the tool catalog was not written where the test looks", cache)
	}
	if read("logout.code") != "0\n" || !strings.Contains(read("logout.out"), "Signed out of conf") {
		t.Errorf("logout: exit %s, %q %q", read("logout.code"), read("logout.out"), read("logout.err"))
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(record), "..", "state", "mcp-code-mode", "oauth", filepath.Base(record))); !os.IsNotExist(err) {
		t.Errorf("after logout the stored sign-in is still there: %v", err)
	}
	if read("post-logout.code") == "0\n" || !strings.Contains(read("post-logout.err"), "run `mcp-code-mode login conf` to sign in") {
		t.Errorf("a run after logout: exit %s, %q; want the way to sign in", read("post-logout.code"), read("post-logout.err"))
	}
	if !strings.Contains(read("post-logout-servers.out"), "not signed in") {
		t.Errorf("servers after logout:\n%s", read("post-logout-servers.out"))
	}
}
