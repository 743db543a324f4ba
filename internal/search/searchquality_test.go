package search

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The search benchmark: real tools/list captures of MCP servers from npm
// (testdata/catalogs, see its README.md) and queries written the way models
// type them (testdata/search/queries.json). Run with -update to rewrite
// testdata/search/results.txt.

const (
	searchCatalogDir = "../../testdata/catalogs"
	searchQueryFile  = "../../testdata/search/queries.json"
	searchResultFile = "../../testdata/search/results.txt"
)

func init() {
	// -update is shared with the other golden-file tests of this package.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files and testdata/search/results.txt")
	}
}

func searchUpdateRequested() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

type searchCatalogFile struct {
	Server   string `json:"server"`
	Package  string `json:"package"`
	Captured string `json:"captured"`
	Tools    []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
}

type searchQuery struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
	Kind   string   `json:"kind"`
}

// loadSearchCatalogs reads every captured catalog, in file-name order, into
// entries for one index (all servers together, as in real use).
func loadSearchCatalogs(tb testing.TB) ([]ToolEntry, []searchCatalogFile) {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(searchCatalogDir, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no catalogs in %s: %v", searchCatalogDir, err)
	}
	sort.Strings(files)
	var entries []ToolEntry
	var cats []searchCatalogFile
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var c searchCatalogFile
		if err := json.Unmarshal(data, &c); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		if c.Server == "" || c.Package == "" || len(c.Tools) == 0 {
			tb.Fatalf("%s: server, package and tools are required", f)
		}
		for _, t := range c.Tools {
			entries = append(entries, ToolEntry{Server: c.Server, Tool: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
		cats = append(cats, c)
	}
	return entries, cats
}

func loadSearchQueries(tb testing.TB) []searchQuery {
	tb.Helper()
	data, err := os.ReadFile(searchQueryFile)
	if err != nil {
		tb.Fatal(err)
	}
	var qs []searchQuery
	if err := json.Unmarshal(data, &qs); err != nil {
		tb.Fatalf("%s: %v", searchQueryFile, err)
	}
	return qs
}

var searchKinds = []string{"task", "identifier", "typo", "scoped", "keyword"}

type searchStats struct {
	n, at1, at5 int
	rr          float64
}

func (s searchStats) row(name string) string {
	if s.n == 0 {
		return fmt.Sprintf("%-10s %5d %10s %10s %7s", name, 0, "-", "-", "-")
	}
	return fmt.Sprintf("%-10s %5d %10.3f %10.3f %7.3f", name, s.n,
		float64(s.at1)/float64(s.n), float64(s.at5)/float64(s.n), s.rr/float64(s.n))
}

func TestSearchQuality(t *testing.T) {
	entries, cats := loadSearchCatalogs(t)
	queries := loadSearchQueries(t)
	if len(cats) < 15 {
		t.Errorf("%d catalogs, want at least 15", len(cats))
	}
	if len(queries) < 150 {
		t.Errorf("%d queries, want at least 150", len(queries))
	}
	known := map[string]bool{}
	for _, e := range entries {
		known[e.Server+"."+e.Tool] = true
	}
	kindOK := map[string]bool{}
	for _, k := range searchKinds {
		kindOK[k] = true
	}
	for _, q := range queries {
		if !kindOK[q.Kind] {
			t.Fatalf("query %q: unknown kind %q", q.Query, q.Kind)
		}
		if len(q.Expect) == 0 {
			t.Fatalf("query %q: no expected tools", q.Query)
		}
		for _, e := range q.Expect {
			if !known[e] {
				t.Fatalf("query %q expects %q, which no catalog has", q.Query, e)
			}
		}
	}

	ix := NewIndex(entries)
	var all searchStats
	per := map[string]*searchStats{}
	for _, k := range searchKinds {
		per[k] = &searchStats{}
	}
	var misses, late []string
	for _, q := range queries {
		hits := ix.Search(q.Query, 10)
		want := map[string]bool{}
		for _, e := range q.Expect {
			want[e] = true
		}
		rank := 0
		var got []string
		for i, h := range hits {
			name := entries[h.Index].Server + "." + entries[h.Index].Tool
			if i < 5 {
				got = append(got, name)
			}
			if rank == 0 && want[name] {
				rank = i + 1
			}
		}
		s := per[q.Kind]
		for _, st := range []*searchStats{&all, s} {
			st.n++
			if rank == 1 {
				st.at1++
			}
			if rank >= 1 && rank <= 5 {
				st.at5++
			}
			if rank >= 1 {
				st.rr += 1 / float64(rank)
			}
		}
		if rank > 1 && rank <= 5 {
			late = append(late, fmt.Sprintf("%-9s %q (rank %d): want %s; first %s",
				q.Kind, q.Query, rank, strings.Join(q.Expect, " | "), got[0]))
		}
		if rank == 0 || rank > 5 {
			r := "not in top 10"
			if rank > 5 {
				r = fmt.Sprintf("rank %d", rank)
			}
			misses = append(misses, fmt.Sprintf("%-9s %q (%s): want %s; got %s",
				q.Kind, q.Query, r, strings.Join(q.Expect, " | "), strings.Join(got, ", ")))
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "Tool search quality: %d queries over %d tools of %d servers (all in one index).\n",
		len(queries), len(entries), len(cats))
	b.WriteString("Generated by `go test ./internal/search -run TestSearchQuality -update`; do not edit.\n\n")
	fmt.Fprintf(&b, "%-10s %5s %10s %10s %7s\n", "kind", "n", "recall@1", "recall@5", "MRR")
	for _, k := range searchKinds {
		b.WriteString(per[k].row(k) + "\n")
	}
	b.WriteString(all.row("all") + "\n")
	fmt.Fprintf(&b, "\nMisses (no expected tool in the top 5): %d\n", len(misses))
	for _, m := range misses {
		b.WriteString(m + "\n")
	}
	fmt.Fprintf(&b, "\nFound, but not first: %d\n", len(late))
	for _, m := range late {
		b.WriteString(m + "\n")
	}
	for line := range strings.SplitSeq(strings.TrimRight(b.String(), "\n"), "\n") {
		t.Log(line)
	}
	if searchUpdateRequested() {
		if err := os.WriteFile(searchResultFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	r5 := float64(all.at5) / float64(all.n)
	mrr := all.rr / float64(all.n)
	if r5 < 0.90 {
		t.Errorf("recall@5 = %.3f, want >= 0.90", r5)
	}
	if mrr < 0.75 {
		t.Errorf("MRR = %.3f, want >= 0.75", mrr)
	}
}

func BenchmarkSearch(b *testing.B) {
	entries, _ := loadSearchCatalogs(b)
	ix := NewIndex(entries)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ix.Search("open a pull request", 5)
	}
}

// BenchmarkSearchTypo measures a query whose words the index lacks, which
// takes the edit-distance path.
func BenchmarkSearchTypo(b *testing.B) {
	entries, _ := loadSearchCatalogs(b)
	ix := NewIndex(entries)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ix.Search("serach isues", 5)
	}
}

func BenchmarkNewIndex(b *testing.B) {
	entries, _ := loadSearchCatalogs(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		NewIndex(entries)
	}
}
