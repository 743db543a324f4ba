package search

import (
	"flag"
	"math"
	"slices"
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

	// Two-fold cross-validation first: weights fitted on half the queries,
	// scored on the other half, say whether fitting generalizes at all.
	var folds [2][]searchQuery
	for i, q := range queries {
		folds[i%2] = append(folds[i%2], q)
	}
	for k := range 2 {
		fitted := fitSearchParams(t, entries, folds[k])
		before := fitObjective(entries, folds[1-k], defaultSearchParams)
		after := fitObjective(entries, folds[1-k], fitted)
		t.Logf("fold %d: held-out half: MRR %.3f -> %.3f, recall@5 %.3f -> %.3f, base recall@5 %.3f -> %.3f",
			k, before.mrr, after.mrr, before.r5, after.r5, before.baseR5, after.baseR5)
	}
	p := fitSearchParams(t, entries, queries)
	t.Logf("fitted on all: %+v", p)
}

// fitResult is what fitSearchParams maximizes and holds.
type fitResult struct{ obj, baseR5, mrr, r5 float64 }

// fitObjective scores params p on queries: MRR plus half of recall@5, and
// the recall@5 of the first five kinds.
func fitObjective(entries []ToolEntry, queries []searchQuery, p searchParams) fitResult {
	return fitObjectiveWith(entries, queries, p, theSearchVocab())
}

// fitObjectiveWith is fitObjective over an index with vocabulary v.
func fitObjectiveWith(entries []ToolEntry, queries []searchQuery, p searchParams, v *searchVocab) fitResult {
	var base []searchQuery
	for _, q := range queries {
		if slices.Contains(searchBaseKinds, q.Kind) {
			base = append(base, q)
		}
	}
	ix := newIndex(entries, p, v)
	all := runSearchQueries(ix, entries, queries, searchKinds).all
	b := runSearchQueries(ix, entries, base, searchKinds).all
	return fitResult{all.mrr() + all.recall5()/2, b.recall5(), all.mrr(), all.recall5()}
}

// fitSearchParams fits defaultSearchParams to queries by coordinate ascent:
// each weight in turn is scaled by a few factors, and a change is kept when
// it raises the objective without lowering the base kinds' recall@5.
func fitSearchParams(t *testing.T, entries []ToolEntry, queries []searchQuery) searchParams {
	p := defaultSearchParams
	best := fitObjective(entries, queries, p)
	floor := best.baseR5
	floats := func(p *searchParams) map[string]*float64 {
		return map[string]*float64{
			"lexSynonym": &p.lexSynonym, "lexGloss": &p.lexGloss,
			"expand": &p.expand, "expandGloss": &p.expandGloss, "expandName": &p.expandName,
			"expandDesc": &p.expandDesc, "expandParam": &p.expandParam,
			"lexTable": &p.lexTable, "phrasePart": &p.phrasePart, "attributive": &p.attributive, "number": &p.number,
			"numeralSelf": &p.numeralSelf, "common": &p.common, "commonFrom": &p.commonFrom,
			"plural": &p.plural, "role": &p.role, "list": &p.list, "place": &p.place, "ask": &p.ask, "tell": &p.tell, "negated": &p.negated, "singular": &p.singular,
			"quoted": &p.quoted, "verb": &p.verb, "when": &p.when,
		}
	}
	ints := func(p *searchParams) map[string]*int {
		return map[string]*int{"lexMax": &p.lexMax, "expandMax": &p.expandMax}
	}
	names := []string{"lexSynonym", "lexGloss", "expand", "expandGloss", "expandName", "expandDesc",
		"expandParam", "lexTable", "phrasePart", "attributive", "number", "numeralSelf", "common", "commonFrom",
		"plural", "role", "list", "place", "ask", "tell", "negated", "quoted", "verb", "when", "lexMax", "expandMax"}
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
				r := fitObjective(entries, queries, q)
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
	return p
}
