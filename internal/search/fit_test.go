package search

import (
	"flag"
	"fmt"
	"math"
	"testing"
)

var fitParams = flag.Bool("fit", false, "fit searchParams to the tuning set (TestFitSearchParams) and print them")

// TestFitSearchParams fits the ranker's weights (searchParams) to the tuning
// set by coordinate ascent and prints the best it found, to be copied into
// defaultSearchParams by hand. It reads the tuning catalogs and queries only:
// no blind catalog or query takes part, so the blind splits stay a fair test
// of the fitted weights. It runs only when asked:
//
//	go test ./internal/search -run TestFitSearchParams -fit -v
//
// The objective is the tuning set's MRR plus half its recall@5, with the
// recall@5 of the first five kinds held at least where the current weights
// put it.
func TestFitSearchParams(t *testing.T) {
	if !*fitParams {
		t.Skip("fits only with -fit")
	}
	entries, _ := loadSearchCatalogs(t, searchCatalogDir)
	queries := loadSearchQueries(t, searchQueryFile)
	var base []searchQuery
	for _, q := range queries {
		if q.Kind == "task" || q.Kind == "identifier" || q.Kind == "typo" || q.Kind == "scoped" || q.Kind == "keyword" {
			base = append(base, q)
		}
	}
	type result struct{ obj, baseR5, mrr, r5 float64 }
	eval := func(p searchParams) result {
		ix := newIndex(entries, p)
		all := runSearchQueries(ix, entries, queries, searchKinds).all
		b := runSearchQueries(ix, entries, base, searchKinds).all
		return result{all.mrr() + all.recall5()/2, b.recall5(), all.mrr(), all.recall5()}
	}
	p := defaultSearchParams
	best := eval(p)
	floor := best.baseR5
	t.Logf("start: objective %.4f (MRR %.3f, recall@5 %.3f, base recall@5 %.3f)", best.obj, best.mrr, best.r5, best.baseR5)

	floats := func(p *searchParams) map[string]*float64 {
		return map[string]*float64{
			"lexSynonym": &p.lexSynonym, "lexGloss": &p.lexGloss,
			"expand": &p.expand, "expandGloss": &p.expandGloss, "expandName": &p.expandName,
			"expandDesc": &p.expandDesc, "expandParam": &p.expandParam,
			"lexTable": &p.lexTable, "phrasePart": &p.phrasePart, "number": &p.number,
			"numeralSelf": &p.numeralSelf, "common": &p.common, "commonFrom": &p.commonFrom,
			"plural": &p.plural, "role": &p.role, "list": &p.list, "place": &p.place,
		}
	}
	ints := func(p *searchParams) map[string]*int {
		return map[string]*int{"lexMax": &p.lexMax, "expandMax": &p.expandMax}
	}
	names := []string{"lexSynonym", "lexGloss", "expand", "expandGloss", "expandName", "expandDesc",
		"expandParam", "lexTable", "phrasePart", "number", "numeralSelf", "common", "commonFrom",
		"plural", "role", "list", "place", "lexMax", "expandMax"}
	for round := 1; round <= 4; round++ {
		improved := false
		for _, name := range names {
			for _, m := range []float64{0.5, 0.75, 0.9, 1.1, 1.33, 2} {
				q := p
				if f, ok := floats(&q)[name]; ok {
					*f = math.Round(*f*m*1000) / 1000
				} else {
					n := ints(&q)[name]
					v := int(math.Round(float64(*n) * m))
					if v == *n {
						continue
					}
					*n = v
				}
				r := eval(q)
				if r.baseR5 >= floor && r.obj > best.obj+1e-9 {
					p, best, improved = q, r, true
					t.Logf("round %d: %s x%v: objective %.4f (MRR %.3f, recall@5 %.3f, base recall@5 %.3f)",
						round, name, m, r.obj, r.mrr, r.r5, r.baseR5)
				}
			}
		}
		if !improved {
			break
		}
	}
	t.Logf("fitted: %s", fmt.Sprintf("%+v", p))
}
