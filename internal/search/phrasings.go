package search

import (
	"slices"
	"strings"
)

// A tool also holds, in a field of its own (Index.iterms), the words of the
// idioms that name it. The idiom "keep in mind -> add observation memory"
// names memory's add_observations, whose name its replacement covers, so
// that tool holds "keep" and "mind". A query that says an idiom's words
// otherwise than the idiom ("kept it in mind", "mind that she moved")
// matches no idiom and is not rewritten, yet it still meets the tool. The
// idioms are written for no catalog: which tools they name is decided by
// each index from its own tools' names.

// searchIdiomStems is an idiom read for the tools it names: the stems of
// its replacement, sorted and each once, and its phrase.
type searchIdiomStems struct {
	to   []string
	from string
}

// stemIdioms reads each idiom for the tools it names.
func stemIdioms(idioms []searchIdiom) []searchIdiomStems {
	stems := map[string]string{}
	out := make([]searchIdiomStems, len(idioms))
	var one [1]string
	for k, p := range idioms {
		var to []string
		for _, w := range strings.Fields(p.to) {
			if !searchPlainWord(w) {
				for _, t := range tokenizeCached(w, stems) {
					to = append(to, t.stem)
				}
				continue
			}
			one[0] = w
			for _, t := range stemWords(one[:], stems) {
				to = append(to, t.stem)
			}
		}
		slices.Sort(to)
		out[k] = searchIdiomStems{to: slices.Clip(slices.Compact(to)), from: p.from}
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
func idiomWords(names [][]string, idioms []searchIdiomStems, p searchParams) [][]searchToken {
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
	stems := map[string]string{}
	var hits []int32
	for _, id := range idioms {
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
		var from []searchToken
		for _, t := range tokenizeCached(strings.Replace(id.from, "*", " ", 1), stems) {
			if _, ok := slices.BinarySearch(id.to, t.stem); !ok {
				from = append(from, t)
			}
		}
		for _, d := range hits {
			out[d] = append(out[d], from...)
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
