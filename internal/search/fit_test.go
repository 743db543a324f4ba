package search

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
)

var (
	fitParams = flag.Bool("fit", false, "fit searchParams (TestFitSearchParams) and print them")
	fitSplits = flag.Int("fit-splits", 0, "with -fit: also fit on the first n blind splits, whose misses have been read")
	fitCheck  = flag.Int("fit-check", 0, "with -fit and -fit-splits n: report the blind splits n+1 to m, held out, after each step")
)

// TestFitSearchParams fits the ranker's weights (searchParams) by
// coordinate ascent and prints each step and the best it found, to be copied
// into defaultSearchParams by hand. It runs only when asked:
//
//	go test ./internal/search -run TestFitSearchParams -fit -v
//	go test ./internal/search -run TestFitSearchParams -fit -fit-splits 11 -fit-check 13 -v
//
// By default it fits the tuning set alone (its catalogs and queries; no
// blind catalog or query takes part), after a two-fold cross-validation that
// says whether fitting generalizes at all. With -fit-splits n it fits the
// tuning set and the first n blind splits, which are development data once
// their misses have been read (each split's README says when), searched
// over all catalogs; with -fit-check m it also reports the splits n+1 to m
// after each step, held out, to see where fitting stops helping them. A
// split nobody has read takes no part in either.
//
// The objective is MRR plus half of recall@5 over all the queries fitted,
// with the tuning set's recall@5 of its first five kinds held at least where
// the current weights put it.
func TestFitSearchParams(t *testing.T) {
	if !*fitParams {
		t.Skip("fits only with -fit")
	}
	tuneEntries, _ := loadSearchCatalogs(t, searchCatalogDir)
	tuning := fitSet{entries: tuneEntries, queries: loadSearchQueries(t, searchQueryFile), kinds: searchKinds, tuning: true}
	if *fitSplits == 0 {
		// Two-fold cross-validation first: weights fitted on half the
		// queries, scored on the other half.
		var folds [2]fitSet
		for k := range folds {
			folds[k] = tuning
			folds[k].queries = nil
		}
		for i, q := range tuning.queries {
			folds[i%2].queries = append(folds[i%2].queries, q)
		}
		for k := range 2 {
			fitted := fitSearchParams(t, []fitSet{folds[k]}, nil)
			before := fitObjective([]fitSet{folds[1-k]}, defaultSearchParams)
			after := fitObjective([]fitSet{folds[1-k]}, fitted)
			t.Logf("fold %d: held-out half: MRR %.3f -> %.3f, recall@5 %.3f -> %.3f, base recall@5 %.3f -> %.3f",
				k, before.mrr, after.mrr, before.r5, after.r5, before.baseR5, after.baseR5)
		}
		t.Logf("fitted on all: %+v", fitSearchParams(t, []fitSet{tuning}, nil))
		return
	}
	if *fitSplits > len(blindSplits) || *fitCheck > len(blindSplits) {
		t.Fatalf("there are %d blind splits", len(blindSplits))
	}
	allEntries, _ := loadSearchCatalogs(t, searchCatalogDir, blindCatalogDir)
	split := func(i int) fitSet {
		return fitSet{entries: allEntries, queries: loadSearchQueries(t, blindSplits[i]+"/queries.json"), kinds: blindKinds}
	}
	train := []fitSet{tuning}
	for i := range *fitSplits {
		train = append(train, split(i))
	}
	var held []fitSet
	for i := *fitSplits; i < *fitCheck; i++ {
		held = append(held, split(i))
	}
	t.Logf("fitted on all: %+v", fitSearchParams(t, train, held))
}

// fitSet is queries over a catalog, scored over kinds; tuning marks the
// tuning set, whose first five kinds' recall@5 the fit holds.
type fitSet struct {
	entries []ToolEntry
	queries []searchQuery
	kinds   []string
	tuning  bool
}

// fitResult is what fitSearchParams maximizes and holds.
type fitResult struct{ obj, baseR5, mrr, r5 float64 }

func (r fitResult) String() string {
	return fmt.Sprintf("objective %.4f (MRR %.3f, recall@5 %.3f, base recall@5 %.3f)", r.obj, r.mrr, r.r5, r.baseR5)
}

// fitObjective scores params p on sets: MRR plus half of recall@5 over all
// their queries, and the recall@5 of the tuning set's first five kinds.
func fitObjective(sets []fitSet, p searchParams) fitResult {
	return fitObjectiveWith(sets, p, theSearchVocab())
}

// fitObjectiveWith is fitObjective over indexes with vocabulary v.
func fitObjectiveWith(sets []fitSet, p searchParams, v *searchVocab) fitResult {
	var all searchStats
	var r fitResult
	indexes := map[*ToolEntry]*Index{}
	for _, s := range sets {
		ix := indexes[&s.entries[0]]
		if ix == nil {
			ix = newIndex(s.entries, p, v)
			indexes[&s.entries[0]] = ix
		}
		st := runSearchQueries(ix, s.entries, s.queries, s.kinds).all
		all.n += st.n
		all.at1 += st.at1
		all.at5 += st.at5
		all.rr += st.rr
		if s.tuning {
			var base []searchQuery
			for _, q := range s.queries {
				if slices.Contains(searchBaseKinds, q.Kind) {
					base = append(base, q)
				}
			}
			r.baseR5 = runSearchQueries(ix, s.entries, base, s.kinds).all.recall5()
		}
	}
	r.mrr, r.r5 = all.mrr(), all.recall5()
	r.obj = r.mrr + r.r5/2
	return r
}

// fitSearchParams fits defaultSearchParams to sets by coordinate ascent: each
// weight in turn is scaled by a few factors (tried in parallel), and the best
// is kept when it raises the objective without lowering the base kinds'
// recall@5. After each step it logs held's figures, when there are any.
func fitSearchParams(t *testing.T, sets, held []fitSet) searchParams {
	p := defaultSearchParams
	best := fitObjective(sets, p)
	floor := best.baseR5
	t.Logf("start: %v", best)
	logHeld := func() {
		if held != nil {
			h := fitObjective(held, p)
			t.Logf("    held out: MRR %.3f, recall@5 %.3f", h.mrr, h.r5)
		}
	}
	logHeld()
	floats := func(p *searchParams) map[string]*float64 {
		return map[string]*float64{
			"lexSynonym": &p.lexSynonym, "lexGloss": &p.lexGloss,
			"expand": &p.expand, "expandGloss": &p.expandGloss, "expandName": &p.expandName,
			"expandDesc": &p.expandDesc, "expandParam": &p.expandParam, "expandServer": &p.expandServer,
			"lexTable": &p.lexTable, "phrasePart": &p.phrasePart, "attributive": &p.attributive, "number": &p.number,
			"numeralSelf": &p.numeralSelf, "common": &p.common, "commonFrom": &p.commonFrom,
			"plural": &p.plural, "role": &p.role, "list": &p.list, "place": &p.place, "ask": &p.ask, "tell": &p.tell, "negated": &p.negated, "singular": &p.singular,
			"quoted": &p.quoted, "verb": &p.verb, "when": &p.when, "valueDigit": &p.valueDigit, "linkHost": &p.linkHost,
			"idiom": &p.idiom, "idiomShare": &p.idiomShare, "idiomLoose": &p.idiomLoose, "near": &p.near,
		}
	}
	ints := func(p *searchParams) map[string]*int {
		return map[string]*int{"lexMax": &p.lexMax, "expandMax": &p.expandMax}
	}
	names := []string{"lexSynonym", "lexGloss", "expand", "expandGloss", "expandName", "expandDesc",
		"expandParam", "expandServer", "lexTable", "phrasePart", "attributive", "number", "numeralSelf", "common", "commonFrom",
		"plural", "role", "list", "place", "ask", "tell", "negated", "quoted", "verb", "when", "valueDigit", "linkHost",
		"idiom", "idiomShare", "idiomLoose", "near", "singular", "lexMax", "expandMax"}
	factors := []float64{0.5, 0.75, 1.33, 2}
	for round := 1; round <= 3; round++ {
		improved := false
		for _, name := range names {
			tries := make([]searchParams, 0, len(factors))
			for _, m := range factors {
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
				tries = append(tries, q)
			}
			results := make([]fitResult, len(tries))
			var wg sync.WaitGroup
			for i, q := range tries {
				wg.Go(func() { results[i] = fitObjective(sets, q) })
			}
			wg.Wait()
			pick := -1
			for i, r := range results {
				if r.baseR5 >= floor && r.obj > best.obj+1e-9 && (pick < 0 || r.obj > results[pick].obj) {
					pick = i
				}
			}
			if pick < 0 {
				continue
			}
			p, best, improved = tries[pick], results[pick], true
			var value any
			if f, ok := floats(&p)[name]; ok {
				value = *f
			} else {
				value = *ints(&p)[name]
			}
			t.Logf("round %d: %s = %v: %v", round, name, value, best)
			logHeld()
		}
		if !improved {
			break
		}
	}
	return p
}
