package search

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

var explainQuery = flag.String("explain", "", "print how a query is read and its top ten tools over the tuning and first blind catalogs (TestExplainSearch)")

// TestExplainSearch prints, for the query given with -explain, the words it
// is looked up as and its ten best tools over the tuning catalogs and the
// first blind split's, to see why a tool ranks where it does:
//
//	go test ./internal/search -run TestExplainSearch -explain 'query' -v
func TestExplainSearch(t *testing.T) {
	if *explainQuery == "" {
		t.Skip("explains only with -explain")
	}
	entries, _ := loadSearchCatalogs(t, searchCatalogDir, blindCatalogDir)
	ix := NewIndex(entries)
	groups, _ := ix.expand(*explainQuery)
	t.Logf("rewritten: %q", ix.vocab.prepare(*explainQuery))
	for _, g := range groups {
		var b strings.Builder
		for _, e := range g {
			if ix.terms[e.stem] == nil && ix.xterms[e.stem] == nil {
				continue
			}
			fmt.Fprintf(&b, " %s:%.2f", e.stem, e.weight)
		}
		t.Logf("group:%s", b.String())
	}
	for i, h := range ix.Search(*explainQuery, 10) {
		e := entries[h.Index]
		t.Logf("%2d %6.2f %s.%s", i+1, h.Score, e.Server, e.Tool)
	}
}
