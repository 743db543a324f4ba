package aggregator

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
)

func TestMergeAppliesTheConfigFileOnTopOfDiscovery(t *testing.T) {
	discovered := []discovery.Server{
		{Name: "github", Transport: "stdio", Command: "npx", Args: []string{"gh"}, Source: "claude.json#mcpServers.github"},
		{Name: "fs", Transport: "stdio", Command: "npx", Args: []string{"fs"}, Source: "cursor.json#mcpServers.fs"},
		{Name: "noise", Transport: "stdio", Command: "x", Source: "cursor.json#mcpServers.noise"},
	}
	cfg := DefaultConfig()
	cfg.Discovery.Exclude = []string{"noise"}
	cfg.Servers = map[string]ServerConfig{
		"github": {Deny: []string{"delete_*"}, ReadOnly: true, Description: "code hosting"}, // policy only
		"fs":     {Command: "my-fs", Args: []string{"/data"}},                               // replaces
		"extra":  {URL: "https://example.com/mcp"},                                          // adds
	}
	got, err := cfg.Merge("cfg.toml", discovered)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"extra", "fs", "github"}) {
		t.Fatalf("servers %v, want extra, fs, github (noise excluded)", names)
	}
	gh := got[2]
	if gh.Command != "npx" || !slices.Equal(gh.Deny, []string{"delete_*"}) || !gh.ReadOnly || gh.Description != "code hosting" || gh.Source != "claude.json#mcpServers.github" {
		t.Fatalf("github with policy overlay: %+v", gh)
	}
	if fs := got[1]; fs.Command != "my-fs" || fs.Source != "cfg.toml#servers.fs" {
		t.Fatalf("fs replaced: %+v", fs)
	}
	cfg.Servers = map[string]ServerConfig{"ghost": {Deny: []string{"x"}}}
	if _, err := cfg.Merge("cfg.toml", discovered); err == nil || !strings.Contains(err.Error(), `"ghost"`) {
		t.Fatalf("a policy entry for no server: %v", err)
	}
}

func TestPolicyReadOnlyAndDefaultDeny(t *testing.T) {
	srv := discovery.Server{Name: "s"}
	ro := discovery.Server{Name: "s", ReadOnly: true}
	allowing := discovery.Server{Name: "s", Allow: []string{"get_*"}}
	tests := []struct {
		name     string
		p        Policy
		srv      discovery.Server
		tool     string
		readOnly bool
		want     bool
	}{
		{"default allows", Policy{}, srv, "delete", false, true},
		{"read-only server refuses a writer", Policy{}, ro, "delete", false, false},
		{"read-only server allows a reader", Policy{}, ro, "get", true, true},
		{"default deny refuses unnamed", Policy{DefaultDeny: true}, srv, "get", true, false},
		{"default deny allows the server's allow list", Policy{DefaultDeny: true}, allowing, "get_x", false, true},
		{"default deny allows a global allow", Policy{DefaultDeny: true, Allow: []string{"s.get"}}, srv, "get", false, true},
		{"default deny still refuses outside the allow list", Policy{DefaultDeny: true}, allowing, "put_x", false, false},
	}
	for _, tt := range tests {
		if got := tt.p.Allowed(tt.srv, tt.srv.Name, tt.tool, tt.readOnly); got != tt.want {
			t.Errorf("%s: Allowed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCatalogKeepsNoSecret(t *testing.T) {
	dir := t.TempDir()
	c := discovery.Catalog{Dir: dir}
	s := discovery.Server{Name: "gh", Transport: "http", URL: "https://x", Headers: map[string]string{"Authorization": "Bearer sekr1t"}, Env: map[string]string{"TOKEN": "sekr2t"}}
	if err := c.Store(s, []json.RawMessage{json.RawMessage(`{"name":"t","inputSchema":{}}`)}); err != nil {
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
	srv := discovery.Server{Name: "cached", Transport: "stdio", Command: filepath.Join(dir, "no-such-server")}
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"create_pull_request","description":"Open a new pull request","inputSchema":{"type":"object","properties":{"title":{"type":"string"}}}}`),
		json.RawMessage(`{"name":"list_issues","description":"List issues of a repository","inputSchema":{"type":"object"}}`),
	}
	if err := (discovery.Catalog{Dir: dir}).Store(srv, tools); err != nil {
		t.Fatal(err)
	}
	a := newAgg(t, func(c *Config) { c.CatalogDir = dir }, srv)
	hits, err := a.Search(t.Context(), "open a pull request", 1, "full")
	if err != nil || len(hits) != 1 || hits[0].Tool != "create_pull_request" || !strings.Contains(hits[0].Stub, "async def create_pull_request(") {
		t.Fatalf("Search = %+v, %v", hits, err)
	}
	res, err := a.helper(t.Context(), "discovered_servers", json.RawMessage(`{}`), nil)
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
	a := newAgg(t, func(c *Config) { c.CatalogDir = dir }, srv)
	hits, err := a.Search(t.Context(), "weather", 3, "summary")
	if err != nil || len(hits) == 0 || hits[0].Tool != "get-weather" {
		t.Fatalf("Search = %+v, %v", hits, err)
	}
	if ct, ok := (discovery.Catalog{Dir: dir}).Load(srv); !ok || len(ct.Tools) < 10 {
		t.Fatalf("the started server's tools were not catalogued: %+v", ct)
	}
}

func TestToolsListChangedRefreshesTheCatalog(t *testing.T) {
	needEngine(t)
	srv, _ := testServer(t, "t")
	dir := t.TempDir()
	a := newAgg(t, func(c *Config) { c.CatalogDir = dir }, srv)
	mustSucceed(t, run(t, a, `print(await mcp_t.grow(name="sprouted"))`, "t"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		ct, _ := (discovery.Catalog{Dir: dir}).Load(srv)
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
