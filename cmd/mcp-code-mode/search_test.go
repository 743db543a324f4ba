package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// search --also adds phrasings of the same query, whose rankings are
// fused; each hit shows the line that calls it, in text and in JSON.
func TestSearchAlsoAndSignatures(t *testing.T) {
	f := clitest.NewFixture(t, "")
	r := f.CLI(t, "search", "zzqx", "--also", "sum of two integers", "--also", "plus")
	if r.Code != 0 {
		t.Fatalf("exit status %d, want 0; stderr %s", r.Code, r.Stderr)
	}
	want := "test.add\tAdd two integers a and b.\n    await mcp_test.add(a: int, b: int) -> Any\n"
	if !strings.HasPrefix(r.Stdout, want) {
		t.Errorf("stdout:\n%s\nwant it to start with:\n%s", r.Stdout, want)
	}
	r = f.CLI(t, "search", "--json", "--limit", "1", "weather")
	var docs []struct{ Tool, Signature string }
	if err := json.Unmarshal([]byte(r.Stdout), &docs); err != nil || len(docs) != 1 {
		t.Fatalf("exit %d, %v:\n%s", r.Code, err, r.Stdout)
	}
	if !strings.HasPrefix(docs[0].Signature, "await mcp_test.get_weather(") || !strings.HasSuffix(docs[0].Signature, ") -> Any") {
		t.Errorf("signature %q", docs[0].Signature)
	}
	r = f.CLI(t, "search", "zzqx", "--also", "qqzx")
	if r.Code != 0 || !strings.Contains(r.Stdout, `No tool matches "zzqx" or "qqzx": searched `) {
		t.Errorf("exit %d, stdout %q: want 0 and no match for either phrasing", r.Code, r.Stdout)
	}
	args := []string{"search", "q"}
	for range 10 {
		args = append(args, "--also", "q")
	}
	if r := f.CLI(t, args[0], args[1:]...); r.Code != 2 || !strings.Contains(r.Stderr, "11 phrasings: a search takes at most 10") {
		t.Errorf("eleven phrasings: exit %d, stderr %q; want a usage error", r.Code, r.Stderr)
	}
}

// A server's description in the config helps search find its tools: of two
// servers with the same tools, the one described as a weather station comes
// first for "weather station" (without it, names would break the tie).
func TestSearchUsesTheServersDescription(t *testing.T) {
	f := clitest.NewFixture(t, fmt.Sprintf(`
[servers.zeta]
command = %q
args = ["-name", "zeta"]
description = "the office weather station"
`, clitest.TestServer()))
	r := f.CLI(t, "search", "--json", "--limit", "2", "weather station")
	var docs []struct{ Server, Tool string }
	if err := json.Unmarshal([]byte(r.Stdout), &docs); err != nil || len(docs) != 2 {
		t.Fatalf("exit %d, %v:\n%s", r.Code, err, r.Stdout)
	}
	if docs[0].Server != "zeta" || docs[0].Tool != "get-weather" || docs[1].Server != "test" || docs[1].Tool != "get-weather" {
		t.Errorf("hits %+v, want zeta's get-weather, then test's", docs)
	}
}
