package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// doctor checks the audit log's directory and, when one is configured, the
// embedding server, and says what is wrong with each.
func TestDoctorChecksTheAuditLogAndTheEmbeddingServer(t *testing.T) {
	f := clitest.NewFixture(t, "")
	embed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.6,0.8,0]}],"model":"m"}`))
	}))
	defer embed.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()

	doctor := func(name, cfg string) map[string]struct {
		OK     bool
		Detail string
	} {
		t.Helper()
		path := filepath.Join(f.Dir, name+".toml")
		f.Write(t, path, cfg)
		r := f.Run(t, "", nil, "doctor", "--json", "--no-discovery", "--config", path)
		var checks []struct {
			Check, Detail string
			OK            bool
		}
		if err := json.Unmarshal([]byte(r.Stdout), &checks); err != nil {
			t.Fatalf("%s: doctor --json: %v\n%s%s", name, err, r.Stdout, r.Stderr)
		}
		out := map[string]struct {
			OK     bool
			Detail string
		}{}
		for _, c := range checks {
			out[c.Check] = struct {
				OK     bool
				Detail string
			}{c.OK, c.Detail}
		}
		return out
	}

	auditDir := filepath.Join(f.Dir, "audit")
	got := doctor("good", "[audit]\ndir = "+strconv.Quote(auditDir)+"\n[search.embeddings]\nurl = "+strconv.Quote(embed.URL+"/v1")+"\nmodel = \"m\"\n")
	if c := got["audit log"]; !c.OK || c.Detail != auditDir {
		t.Errorf("audit log: %+v, want ok at %s", c, auditDir)
	}
	if c := got["embedding server"]; !c.OK || !strings.Contains(c.Detail, "3-dimension vector") {
		t.Errorf("embedding server: %+v, want ok with a 3-dimension vector", c)
	}

	got = doctor("bad", "[audit]\ndir = \"/proc/mcp-code-mode-audit\"\n[search.embeddings]\nurl = "+strconv.Quote(closedURL+"/v1")+"\nmodel = \"m\"\n")
	if c := got["audit log"]; c.OK || !strings.Contains(c.Detail, "/proc/mcp-code-mode-audit") {
		t.Errorf("audit log in /proc: %+v, want a failure naming the directory", c)
	}
	if c := got["embedding server"]; c.OK || c.Detail == "" {
		t.Errorf("embedding server not listening: %+v, want a failure saying why", c)
	}

	got = doctor("off", "[audit]\ndir = "+strconv.Quote(auditDir)+"\n")
	if _, ok := got["embedding server"]; ok {
		t.Error("doctor checked an embedding server none configured")
	}
}

// engineUnderTwoAddresses returns the test engine, a fixture, and a
// second address of the engine: a symlink to its socket in the fixture's
// directory. It skips the test when the engine is not at a unix socket.
func engineUnderTwoAddresses(t *testing.T) (*sandbox.Engine, *clitest.Fixture, string) {
	t.Helper()
	e := clitest.NeedEngine(t)
	sock, ok := strings.CutPrefix(e.Host(), "unix://")
	if !ok {
		t.Skipf("the engine is at %s, not a unix socket a symlink can point at", e.Host())
	}
	f := clitest.NewFixture(t, "")
	link := "unix://" + filepath.Join(f.Dir, "docker.sock")
	if err := os.Symlink(sock, strings.TrimPrefix(link, "unix://")); err != nil {
		t.Fatal(err)
	}
	return e, f, link
}

// doctor, given one engine under two addresses (its socket and a symlink
// to it), says the second is the same engine, which serve uses under the
// first address only.
func TestDoctorSaysWhenTwoAddressesAreOneEngine(t *testing.T) {
	e, f, link := engineUnderTwoAddresses(t)
	path := filepath.Join(f.Dir, "engines.toml")
	f.Write(t, path, "engines = ["+strconv.Quote(e.Host())+", "+strconv.Quote(link)+"]\n")
	r := f.Run(t, "", nil, "doctor", "--json", "--no-discovery", "--config", path)
	var checks []check
	if err := json.Unmarshal([]byte(r.Stdout), &checks); err != nil {
		t.Fatalf("doctor --json: %v\n%s%s", err, r.Stdout, r.Stderr)
	}
	found := map[string]check{}
	for _, c := range checks {
		found[c.Check] = c
	}
	if c := found["container engine "+e.Host()]; !c.OK || c.Detail != "reachable" {
		t.Errorf("the first address: %+v, want reachable", c)
	}
	want := "the same engine as " + e.Host() + ": serve uses that address only"
	if c := found["container engine "+link]; !c.OK || c.Detail != want {
		t.Errorf("the symlink: %+v, want %q", c, want)
	}
	if _, ok := found["sandbox image "+link]; ok {
		t.Errorf("doctor checked the image again under the second address: %+v", checks)
	}
	if c := found["sandbox run"]; !c.OK {
		t.Errorf("sandbox run: %+v", c)
	}
}

// doctor checks the configured runtime against the ones the engine has,
// with one address and with two for one engine (where the same look at the
// engine also says which engine it is): a runtime the engine lacks is a failed
// check naming the runtimes it has, and runc, which every engine has, passes.
func TestDoctorChecksTheRuntime(t *testing.T) {
	e, f, link := engineUnderTwoAddresses(t)
	for _, c := range []struct {
		runtime string
		engines bool
		ok      bool
	}{
		{"no-such-runtime", false, false},
		{"no-such-runtime", true, false},
		{"runc", false, true},
		{"runc", true, true},
	} {
		conf := "runtime = " + strconv.Quote(c.runtime) + "\n"
		what := "sandbox runtime"
		if c.engines {
			conf += "engines = [" + strconv.Quote(e.Host()) + ", " + strconv.Quote(link) + "]\n"
			what += " " + e.Host()
		}
		path := filepath.Join(f.Dir, "runtime.toml")
		f.Write(t, path, conf)
		r := f.Run(t, "", nil, "doctor", "--json", "--no-discovery", "--config", path)
		var checks []check
		if err := json.Unmarshal([]byte(r.Stdout), &checks); err != nil {
			t.Fatalf("doctor --json: %v\n%s%s", err, r.Stdout, r.Stderr)
		}
		var got *check
		for i := range checks {
			if checks[i].Check == what {
				got = &checks[i]
			}
		}
		switch {
		case got == nil:
			t.Errorf("%s (engines listed: %v): no check %q in %+v", c.runtime, c.engines, what, checks)
		case got.OK != c.ok:
			t.Errorf("%s (engines listed: %v): %+v, want ok=%v", c.runtime, c.engines, *got, c.ok)
		case !c.ok && !strings.Contains(got.Detail, `the engine has no runtime "no-such-runtime" (it has `) || !c.ok && !strings.Contains(got.Detail, "runc"):
			t.Errorf("%s: detail %q does not name the missing runtime and the ones there are", c.runtime, got.Detail)
		}
		if !c.ok && r.Code == 0 {
			t.Errorf("%s: doctor exited 0 with a failed check", c.runtime)
		}
	}
}
