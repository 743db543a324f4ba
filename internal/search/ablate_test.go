package search

import (
	"flag"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	ablateVocab       = flag.Bool("ablate", false, "score the tuning set without each related-word line and idiom a tuning query reaches (TestAblateSearchVocab)")
	ablateRelatedFrom = flag.Int("ablate-related-from", 1, "with -ablate: only related.txt lines from this line number on")
	ablateIdiomsFrom  = flag.Int("ablate-idioms-from", 1, "with -ablate: only idioms.txt lines from this line number on")
)

// TestAblateSearchVocab scores the tuning set without each line of the
// related-word table and each idiom that a tuning query reaches, one at a
// time, and prints the lines whose removal raises the score: those are
// lines that pull wrong tools in more often than right ones. It reads the
// tuning catalogs and queries only, so the blind splits stay a fair test of
// what is kept. It runs only when asked (a few minutes for a thousand
// lines):
//
//	go test ./internal/search -run TestAblateSearchVocab -ablate -v
//	go test ./internal/search -run TestAblateSearchVocab -ablate -ablate-related-from 5000 -ablate-idioms-from 2500 -v
//
// The score is fitObjective's: MRR plus half of recall@5 over all tuning
// queries; a removal that lowers the first five kinds' recall@5 is not
// reported as a gain.
func TestAblateSearchVocab(t *testing.T) {
	if !*ablateVocab {
		t.Skip("ablates only with -ablate")
	}
	entries, _ := loadSearchCatalogs(t, searchCatalogDir)
	queries := loadSearchQueries(t, searchQueryFile)
	full := newSearchVocab(searchDomainTable, searchIdioms)
	sets := []fitSet{{entries: entries, queries: queries, kinds: searchKinds, tuning: true}}
	base := fitObjectiveWith(sets, defaultSearchParams, full)
	t.Logf("all lines: objective %.4f (MRR %.3f, recall@5 %.3f, base recall@5 %.3f)", base.obj, base.mrr, base.r5, base.baseR5)

	// What the tuning queries reach: their words (after the idioms, as
	// written and as base forms) and, for idioms, their text.
	words := map[string]bool{}
	var texts []string
	for _, q := range queries {
		texts = append(texts, " "+strings.ToLower(q.Query)+" ")
		for _, tok := range searchTokenize(full.prepare(q.Query), true) {
			for _, b := range searchBaseForms(tok.surface) {
				words[b] = true
			}
		}
	}
	reachesTable := func(line string) bool {
		var ws []string
		if rest, ok := strings.CutPrefix(line, "="); ok {
			ws = strings.Fields(rest)
		} else if w, _, ok := strings.Cut(line, ":"); ok {
			ws = []string{strings.ToLower(strings.TrimSpace(w))}
		}
		for _, w := range ws {
			if words[w] {
				return true
			}
		}
		return false
	}
	reachesIdiom := func(line string) bool {
		from, _, ok := strings.Cut(line, " -> ")
		if !ok {
			return false
		}
		// A slot is one to searchSlotWords words.
		phrase := strings.ReplaceAll(regexp.QuoteMeta(strings.ToLower(strings.TrimSpace(from))), ` \* `, fmt.Sprintf(`( [a-z0-9_'-]+){1,%d} `, searchSlotWords))
		re := regexp.MustCompile(`(^|[^a-z0-9_])` + phrase + `($|[^a-z0-9_])`)
		for _, s := range texts {
			if re.MatchString(s) {
				return true
			}
		}
		return false
	}

	type result struct {
		where, line string
		gain        float64
		r           fitResult
	}
	var gains []result
	try := func(file string, from int, text string, reaches func(string) bool, build func(string) *searchVocab) int {
		lines := strings.Split(text, "\n")
		n := 0
		for i, line := range lines {
			line = strings.TrimSpace(line)
			if i+1 < from || line == "" || strings.HasPrefix(line, "#") || !reaches(line) {
				continue
			}
			n++
			without := strings.Join(lines[:i], "\n") + "\n\n" + strings.Join(lines[i+1:], "\n")
			r := fitObjectiveWith(sets, defaultSearchParams, build(without))
			if r.obj > base.obj+1e-9 && r.baseR5 >= base.baseR5 {
				gains = append(gains, result{fmt.Sprintf("%s:%d", file, i+1), line, r.obj - base.obj, r})
			}
		}
		return n
	}
	nt := try("related.txt", *ablateRelatedFrom, searchDomainTable, reachesTable, func(s string) *searchVocab {
		return newSearchVocab(s, searchIdioms)
	})
	ni := try("idioms.txt", *ablateIdiomsFrom, searchIdioms, reachesIdiom, func(s string) *searchVocab {
		return newSearchVocab(searchDomainTable, s)
	})
	t.Logf("tried %d table lines and %d idioms that a tuning query reaches; %d removals raise the score", nt, ni, len(gains))
	sort.Slice(gains, func(i, j int) bool { return gains[i].gain > gains[j].gain })
	for _, g := range gains {
		t.Logf("%+.4f without %s %q (MRR %.3f, recall@5 %.3f)", g.gain, g.where, g.line, g.r.mrr, g.r.r5)
	}
}
