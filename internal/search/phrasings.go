package search

import (
	"slices"
	"strings"
)

// The idioms reach further than the queries that say them.
//
// A tool also holds, in a field of its own (Index.iterms), the words of the
// idioms that name it. The idiom "keep in mind -> add observation memory"
// names memory's add_observations, whose name its replacement covers, so
// that tool holds "keep" and "mind". A query that says an idiom's words
// otherwise than the idiom ("kept it in mind", "mind that she moved")
// matches no idiom and is not rewritten, yet it still meets the tool. The
// idioms are written for no catalog: which tools they name is decided by
// each index from its own tools' names.
//
// And a query that holds every word of an idiom's phrase, though not as
// the phrase, also looks for the idiom's replacement, with less weight
// (looseIdiomGroups).

// searchIdiomIndex is the idioms read for the tools they name (idiomWords) and
// for the queries that hold their words without their phrase
// (looseIdiomGroups).
type searchIdiomIndex struct {
	idioms []searchIdiomStems
	byStem map[string][]int32 // a stem -> the idioms whose phrase holds it
}

// searchIdiomStems is one idiom, read.
type searchIdiomStems struct {
	to    []string      // the stems of its replacement, sorted, each once
	from  []searchToken // the words of its phrase, without stop words
	stems int           // how many stems its phrase has, each once
}

// readIdioms reads idioms for the tools they name and the queries that
// hold their words.
func readIdioms(idioms []searchIdiom) *searchIdiomIndex {
	stems := map[string]string{}
	x := &searchIdiomIndex{idioms: make([]searchIdiomStems, len(idioms)), byStem: map[string][]int32{}}
	for k, p := range idioms {
		var to []string
		for _, t := range searchPhraseTokens(p.to, stems) {
			to = append(to, t.stem)
		}
		slices.Sort(to)
		from := searchPhraseTokens(p.from, stems)
		n := 0
		for i, t := range from {
			if !slices.ContainsFunc(from[:i], func(u searchToken) bool { return u.stem == t.stem }) {
				x.byStem[t.stem] = append(x.byStem[t.stem], int32(k))
				n++
			}
		}
		x.idioms[k] = searchIdiomStems{to: slices.Clip(slices.Compact(to)), from: from, stems: n}
	}
	return x
}

// searchPhraseTokens is tokenizeCached for the words of an idiom, quicker:
// a word of lower-case ASCII letters only is taken as it is.
func searchPhraseTokens(s string, stems map[string]string) []searchToken {
	out := make([]searchToken, 0, strings.Count(s, " ")+1)
	for w := range strings.FieldsSeq(s) {
		if !searchPlainWord(w) {
			out = append(out, tokenizeCached(w, stems)...)
			continue
		}
		out = appendStemmed(out, w, stems)
	}
	return out
}

// searchPlainWord reports whether w is lower-case ASCII letters only, a
// word the tokenizer would take as it is.
func searchPlainWord(w string) bool {
	for i := range len(w) {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// idiomWords returns, for each tool, the words of the idioms that name it,
// given the stems of each tool's name less those of the index's server
// names (names; empty for a tool named by its server alone). An idiom names
// a tool when the tool's name stems are all among the stems of the idiom's
// replacement and make at least p.idiomShare of them ("send a dm -> post
// message direct" names post_message); an idiom that names more than
// p.idiomTools tools names none, as it says nothing about which.
func idiomWords(names [][]string, idioms *searchIdiomIndex, p searchParams) [][]searchToken {
	// Each tool is found through the rarest stem of its name: an idiom
	// that names it holds that stem.
	count := map[string]int{}
	for _, ns := range names {
		for _, s := range ns {
			count[s]++
		}
	}
	byRarest := map[string][]int32{}
	for i, ns := range names {
		if len(ns) == 0 {
			continue
		}
		r := ns[0]
		for _, s := range ns[1:] {
			if count[s] < count[r] || count[s] == count[r] && s < r {
				r = s
			}
		}
		byRarest[r] = append(byRarest[r], int32(i))
	}
	out := make([][]searchToken, len(names))
	var hits []int32
	for _, id := range idioms.idioms {
		hits = hits[:0]
		for _, s := range id.to {
			for _, d := range byRarest[s] {
				ns := names[d]
				if float64(len(ns)) < p.idiomShare*float64(len(id.to)) {
					continue
				}
				if !searchAllIn(ns, id.to) {
					continue
				}
				hits = append(hits, d)
			}
		}
		if len(hits) == 0 || len(hits) > p.idiomTools {
			continue
		}
		// The phrase's words that the replacement does not hold.
		for _, t := range id.from {
			if _, ok := slices.BinarySearch(id.to, t.stem); !ok {
				for _, d := range hits {
					out[d] = append(out[d], t)
				}
			}
		}
	}
	return out
}

// searchAllIn reports whether every word of a is in the sorted set b.
func searchAllIn(a, b []string) bool {
	for _, s := range a {
		if _, ok := slices.BinarySearch(b, s); !ok {
			return false
		}
	}
	return true
}

// idiomTerms indexes the words of the idioms that name each tool (words,
// from idiomWords) as a field of weight w: BM25, length-normalised, with
// the idf of the field itself. Only a query's own words and their
// hand-written synonyms look it up: the words of an idiom are what people
// say, and a looser relation to them says too little.
func idiomTerms(words [][]searchToken, w float64) map[string]*searchTerm {
	const b = 0.75
	var total float64
	for _, ws := range words {
		total += float64(len(ws))
	}
	if total == 0 {
		return nil
	}
	avg := total / float64(len(words))
	out := map[string]*searchTerm{}
	tf := map[string]int{}
	for d, ws := range words {
		clear(tf)
		for _, t := range ws {
			tf[t.stem]++
		}
		norm := 1 - b + b*float64(len(ws))/avg
		for st, c := range tf {
			t := out[st]
			if t == nil {
				t = &searchTerm{}
				out[st] = t
			}
			x := w * float64(c) / norm
			t.postings = append(t.postings, searchPosting{doc: int32(d), tf: float32(x * (searchK1 + 1) / (x + searchK1))})
		}
	}
	for _, t := range out {
		t.idf = searchIDF(float64(len(words)), len(t.postings))
	}
	return out
}

// looseIdiomGroups returns groups, and a group for each word of the
// replacements of the idioms whose phrase's every stem (two or more) the
// query holds, though not as the phrase: in another order, another form or
// with other words between ("mind that she moved, keep it" holds "keep in
// mind"). own is the query's stems, each once. Of several idioms, the
// p.idiomLooseMax with the most stems, then the first in the file. The
// words weigh p.idiomLoose, and a stem a group already holds is not added.
func (ix *Index) looseIdiomGroups(own []string, groups [][]termExpansion) [][]termExpansion {
	p := &ix.params
	if p.idiomLoose <= 0 || p.idiomLooseMax <= 0 {
		return groups
	}
	x := ix.vocab.idiomIndex()
	// held[k]: how many of idiom k's stems the query holds (a query's
	// distinct stems are fewer than 256: searchMaxQueryRunes).
	held := make([]uint8, len(x.idioms))
	var touched []int32
	for _, st := range own {
		for _, k := range x.byStem[st] {
			if held[k] == 0 {
				touched = append(touched, k)
			}
			held[k]++
		}
	}
	// The best p.idiomLooseMax, kept in order as they come: the most
	// stems, then the first in the file.
	better := func(a, b int32) bool {
		if na, nb := x.idioms[a].stems, x.idioms[b].stems; na != nb {
			return na > nb
		}
		return a < b
	}
	var found []int32
	for _, k := range touched {
		if n := int(held[k]); n < 2 || n != x.idioms[k].stems {
			continue
		}
		i := len(found)
		for i > 0 && better(k, found[i-1]) {
			i--
		}
		if i < p.idiomLooseMax {
			found = slices.Insert(found, i, k)
			found = found[:min(len(found), p.idiomLooseMax)]
		}
	}
	if len(found) == 0 {
		return groups
	}
	have := map[string]bool{}
	for _, g := range groups {
		for _, e := range g {
			have[e.stem] = true
		}
	}
	for _, k := range found {
		for _, st := range x.idioms[k].to {
			if !have[st] {
				have[st] = true
				groups = append(groups, []termExpansion{{stem: st, weight: p.idiomLoose, loose: true}})
			}
		}
	}
	return groups
}
