package aggregator

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/catalog"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

func TestCatalogKeepsNoSecret(t *testing.T) {
	dir := t.TempDir()
	c := catalog.Catalog{Dir: dir}
	s := config.Server{Name: "gh", Transport: "http", URL: "https://x", Headers: map[string]string{"Authorization": "Bearer sekr1t"}, Env: map[string]string{"TOKEN": "sekr2t"}}
	if err := c.Store(s, []json.RawMessage{json.RawMessage(`{"name":"t","inputSchema":{}}`)}, ""); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Load(s)
	if !ok || len(got.Tools) != 1 || got.Server != "gh" {
		t.Fatalf("Load = %+v, %v", got, ok)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b)+p, "sekr") {
			t.Errorf("%s holds a secret: %s", p, b)
		}
		return nil
	})
	// Another config (a changed argument, header or variable) is another entry.
	s2 := s
	s2.Headers = map[string]string{"Authorization": "Bearer other"}
	if _, ok := c.Load(s2); ok {
		t.Fatal("a changed header found the old cache entry")
	}
}

func TestSearchUsesTheCatalogWithoutStartingServers(t *testing.T) {
	dir := t.TempDir()
	srv := config.Server{Name: "cached", Transport: "stdio", Command: filepath.Join(dir, "no-such-server")}
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"create_pull_request","description":"Open a new pull request","inputSchema":{"type":"object","properties":{"title":{"type":"string"}}}}`),
		json.RawMessage(`{"name":"list_issues","description":"List issues of a repository","inputSchema":{"type":"object"}}`),
	}
	if err := (catalog.Catalog{Dir: dir}).Store(srv, tools, ""); err != nil {
		t.Fatal(err)
	}
	a := newAgg(t, func(c *config.Config) { c.CatalogDir = dir }, srv)
	hits, err := a.Search(t.Context(), "open a pull request", 1, "full")
	if err != nil || len(hits) != 1 || hits[0].Tool != "create_pull_request" || !strings.Contains(hits[0].Stub, "async def create_pull_request(") {
		t.Fatalf("Search = %+v, %v", hits, err)
	}
	res, err := a.helper(t.Context(), "discovered_servers", json.RawMessage(`{}`), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"tools":2`) {
		t.Fatalf("discovered_servers: %s, want the catalogued tool count", b)
	}
}

func TestSearchStartsUncataloguedServersAndCachesThem(t *testing.T) {
	srv, _ := testServer(t, "fresh")
	dir := t.TempDir()
	a := newAgg(t, func(c *config.Config) { c.CatalogDir = dir }, srv)
	hits, err := a.Search(t.Context(), "weather", 3, "summary")
	if err != nil || len(hits) == 0 || hits[0].Tool != "get-weather" {
		t.Fatalf("Search = %+v, %v", hits, err)
	}
	if ct, ok := (catalog.Catalog{Dir: dir}).Load(srv); !ok || len(ct.Tools) < 10 {
		t.Fatalf("the started server's tools were not catalogued: %+v", ct)
	}
}

func TestToolsListChangedRefreshesTheCatalog(t *testing.T) {
	clitest.NeedEngine(t)
	srv, _ := testServer(t, "t")
	dir := t.TempDir()
	a := newAgg(t, func(c *config.Config) { c.CatalogDir = dir }, srv)
	mustSucceed(t, run(t, a, `print(await mcp_t.grow(name="sprouted"))`, "t"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		ct, _ := (catalog.Catalog{Dir: dir}).Load(srv)
		if strings.Contains(string(mustJSON(t, ct.Tools)), `"sprouted"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("tools/list_changed did not refresh the catalog")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The next run sees the new tool.
	res := run(t, a, `print(await mcp_t.sprouted())`, "t")
	mustSucceed(t, res)
	if res.Stdout != "grown\n" {
		t.Fatalf("stdout %q", res.Stdout)
	}
	hits, err := a.Search(context.Background(), "sprouted", 1, "summary")
	if err != nil || len(hits) != 1 || hits[0].Tool != "sprouted" {
		t.Fatalf("search after the change: %+v %v", hits, err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A server's instructions (its answer to initialize) are kept, bounded and
// printable, in the catalog with its tools; describe_server shows them, and
// search counts their words for the server's tools, from the catalog too.
func TestServerInstructionsAreKeptShownAndSearched(t *testing.T) {
	dir := t.TempDir()
	alpha, _ := testServer(t, "alpha", "-instructions", "")
	zeta, _ := testServer(t, "zeta", "-instructions", `Readings of the rooftop\x1bweather station.\u202e`)
	flood, _ := testServer(t, "flood", "-instructions", "spam ", "-instructions-repeat", "10000")
	a := newAgg(t, func(c *config.Config) { c.CatalogDir = dir }, alpha, zeta, flood)
	search := func(a *Aggregator) []ToolDoc {
		t.Helper()
		hits, err := a.Search(t.Context(), "rooftop weather", 2, "summary")
		if err != nil || len(hits) != 2 {
			t.Fatalf("Search = %+v, %v", hits, err)
		}
		return hits
	}
	// Without the instructions, names would break the tie: alpha first.
	if hits := search(a); hits[0].Server != "zeta" || hits[0].Tool != "get-weather" {
		t.Errorf("hits %+v, want zeta's get-weather first", hits)
	}
	describe := func(a *Aggregator, name string) string {
		t.Helper()
		v, err := a.helper(t.Context(), "describe_server", json.RawMessage(`{"name":"`+name+`"}`), nil, "")
		if err != nil {
			t.Fatal(err)
		}
		return v.(ServerDescription).Instructions
	}
	if got, want := describe(a, "zeta"), "Readings of the rooftop weather station."; got != want {
		t.Errorf("zeta's instructions %q, want %q (control and format characters made spaces, trimmed)", got, want)
	}
	if got := describe(a, "flood"); len([]rune(got)) != upstream.MaxInstructionsRunes-1 || !strings.HasPrefix(got, "spam spam") {
		t.Errorf("a flood of instructions kept as %d characters, want %d", len([]rune(got)), upstream.MaxInstructionsRunes-1)
	}
	a.Close()

	// Another process: the catalog has them, and nothing is started.
	b := newAgg(t, func(c *config.Config) { c.CatalogDir = dir }, alpha, zeta, flood)
	if hits := search(b); hits[0].Server != "zeta" {
		t.Errorf("from the catalog: hits %+v, want zeta's get-weather first", hits)
	}
	if got := describe(b, "zeta"); got != "Readings of the rooftop weather station." {
		t.Errorf("zeta's instructions from the catalog: %q", got)
	}
	// discovered_servers says which servers have them, so the program knows
	// where describe_server has more to say.
	v, err := b.helper(t.Context(), "discovered_servers", json.RawMessage(`{}`), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{}
	for _, d := range v.([]ServerDoc) {
		has[d.Name] = d.HasInstructions
	}
	if want := map[string]bool{"alpha": false, "zeta": true, "flood": true}; !maps.Equal(has, want) {
		t.Errorf("discovered_servers has_instructions %v, want %v", has, want)
	}
	for _, e := range b.entries {
		if e.up.Running() {
			t.Errorf("%s was started, though the catalog had its tools", e.srv.Name)
		}
	}
}
