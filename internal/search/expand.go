package search

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// searchParams are the weights of the ranker's use of the lexicon, fitted on
// the tuning set of the search benchmark (searchquality_test.go).
type searchParams struct {
	// Query side: a query word also finds tools that say a related word.
	lexSynonym float64 // a lemma of one of its senses or of a synset they link to
	lexGloss   float64 // a content word of the definition of one of its senses
	lexMax     int     // most related words kept per query word

	// Tool side: a tool also holds, in two expansion fields, the words
	// related to its own (their synonyms and links, and the words of their
	// definitions), which a query word finds with weight expand.
	expand      float64
	expandGloss float64 // the definitions' field weight (the related words' is 1)
	expandName  float64 // how much a word of the tool's name contributes
	expandDesc  float64 // ... of its description
	expandParam float64 // ... of its parameters' names
	expandMax   int     // most related words taken per tool word
	// The hand-written table's words for the tool's server's name
	// ("obsidian": vault, note, markdown) count this much times their
	// weight: the name says what the server's tools are about when their
	// text does not ("the vault" is obsidian's).
	expandServer float64

	lexTable float64 // scales the hand-written table's words for a related word from the lexicon

	phrasePart  float64 // the words of a phrasal verb in the query, each on its own
	attributive float64 // a participle used as an adjective ("a paused project"): a state of the thing, not the action asked for
	number      float64 // "number" for a numeral in the query
	numeralSelf float64 // a numeral of the query as itself (a value more than a word of the tool)

	// Common words say less: a word that occurs n > commonFrom times in
	// WordNet's tagged corpus weighs 1/(1+common*ln(n/commonFrom)), in the
	// query and as a source of a tool's expansion.
	common     float64
	commonFrom float64

	plural float64 // bonus of a tool whose name has a plural the query uses
	role   float64 // bonus of a tool that gives what the query wants or starts from what it has (minus: the reverse)
	list   float64 // bonus of a listing tool for a query of nouns only
	verb   float64 // share of its score a tool whose name holds the request's verb gains (searchRequestVerbs)
	ask    float64 // share of its score a tool that changes something loses to a question
	tell   float64 // share of its score a tool that only reads loses to a request for a change

	// A word of the query that says where ("an index from a collection",
	// "a user in the team") counts this much toward covering a tool's
	// name: the name is more likely the other word's.
	place float64

	negated float64 // the word a negation stands before ("don't send it yet", "without merging"): not what is asked for

	// A word only in the text the query quotes ("a card called 'Fix
	// login'", "file a bug: the login button does nothing"): what the tool
	// is to write or find, not what the query asks for.
	quoted float64

	// The idioms that name a tool (idiomWords): the weight of their words
	// in the tool, the least share of an idiom's replacement the tool's
	// name must make, and the most tools an idiom may name.
	idiom      float64
	idiomShare float64
	idiomTools int

	// A query that holds an idiom's words but not its phrase
	// (looseIdiomGroups): the weight of the replacement's words, and the
	// most idioms read so.
	idiomLoose    float64
	idiomLooseMax int

	// A query about one thing (no plural, no "each" or "all") ranks a tool
	// for one thing above its sibling for more than one (create_issue,
	// create_issues) when it scores at least this share of the sibling's.
	singular float64

	// Two words next to each other in the query that stand close in a
	// tool's name or description (at most nearWindow words apart, stop
	// words not counted) add near times their weights times the rarer
	// one's idf (nearBonuses).
	near       float64
	nearWindow int

	// A word of a time the query gives as a value ("deals closing this
	// month", "a call tomorrow"; searchTimed): not what the tool is about.
	when float64

	// A number written inside a value ("2026-11-30", "dpl_7Gh2", "v1.2.3";
	// searchValueDigitStems): weighed this much, and never read as
	// "number".
	valueDigit float64

	// A word of a link's scheme or host ("https", "blog", "example" and
	// "com" in https://blog.example.com/post-42), unless it names a server
	// of the index: weighed this much. It is where the page is, not what
	// is to be done with it.
	linkHost float64
}

var defaultSearchParams = searchParams{
	lexSynonym: 0.26,
	lexGloss:   0.15,
	lexMax:     36,

	expand:      0.6,
	expandGloss: 0.9,
	expandName:  2.5,
	expandDesc:  0.35,
	expandParam: 0.25,
	expandMax:   24,

	expandServer: 2,

	lexTable: 2,

	phrasePart:  0.1,
	attributive: 0.5,
	number:      2,
	numeralSelf: 0.7,

	common:     0.3,
	commonFrom: 300,

	plural: 1,
	role:   1,
	list:   1,
	verb:   0.1,
	ask:    0.5,
	tell:   0.1,

	place: 0.7,

	negated:  0.3,
	quoted:   0.5,
	singular: 0.8,

	idiom:      0.4,
	idiomShare: 0.5,
	idiomTools: 10,

	idiomLoose:    0.2,
	idiomLooseMax: 3,

	near:       0.2,
	nearWindow: 2,

	when: 0.5,

	valueDigit: 0.2,
	linkHost:   0.2,
}

// expansion fields of a tool
const (
	xfieldRelated = iota
	xfieldGloss
	numXFields
)

// lexStem is the index term of a lexicon word: a multi-word lemma as it is
// ("call_off"), a word as its stem.
func lexStem(w string) string {
	if strings.Contains(w, "_") {
		return w
	}
	return searchStem(w)
}

// expander builds the tools' expansion fields. Terms are interned: a
// tool's fields are summed in dense arrays indexed by term id.
type expander struct {
	p     searchParams
	lx    *lexicon
	cache map[string][]xTerm // word or lemma -> its related terms
	ids   map[string]int32   // term -> id
	terms []string           // id -> term
	raw   [][]xPosting       // id -> postings
	lens  []float64          // doc -> length of its expansion field

	// scratch, per tool
	src     map[string]float64
	own     map[string]bool
	words   []string
	starts  map[string]phraseStart
	acc     [][numXFields]float32
	touched []int32
}

// xTerm is a related term of a word, interned, with its weight and field.
type xTerm struct {
	id     int32
	weight float32
	field  uint8
}

type xPosting struct {
	doc int32
	tf  [numXFields]float32
}

func newExpander(p searchParams) *expander {
	return &expander{p: p, lx: theLexicon(), cache: map[string][]xTerm{}, ids: map[string]int32{},
		src: map[string]float64{}, own: map[string]bool{}, starts: map[string]phraseStart{}}
}

func (x *expander) id(term string) int32 {
	if id, ok := x.ids[term]; ok {
		return id
	}
	id := int32(len(x.terms))
	x.ids[term] = id
	x.terms = append(x.terms, term)
	x.raw = append(x.raw, nil)
	x.acc = append(x.acc, [numXFields]float32{})
	return id
}

// related returns the terms related to w (a word in any inflection, or a
// multi-word lemma): at most expandMax of the lexicon's related words,
// stemmed, weighed by how common w is; and a lemma itself.
func (x *expander) related(w string, stems map[string]string) []xTerm {
	if r, ok := x.cache[w]; ok {
		return r
	}
	var out []xTerm
	if strings.Contains(w, "_") {
		// The expression itself, as the query would name it.
		out = append(out, xTerm{id: x.id(w), weight: 1, field: xfieldRelated})
	}
	if i, ok := x.lx.baseForm(w); ok {
		rel := x.lx.related(i, senseFilter{})
		c := x.p.commonness(x.lx.count(i))
		if len(rel) > x.p.expandMax {
			rel = rel[:x.p.expandMax]
		}
		for _, r := range rel {
			st, ok := stems[r.word]
			if !ok {
				st = lexStem(r.word)
				stems[r.word] = st
			}
			f := uint8(xfieldRelated)
			if r.gloss {
				f = xfieldGloss
			}
			out = append(out, xTerm{id: x.id(st), weight: float32(r.weight * c), field: f})
		}
	}
	x.cache[w] = out
	return out
}

// addTool adds tool doc's expansion fields: the related words of the words
// of its name, description and parameter names (fields), and of the
// multi-word expressions of its name and description (texts: their words,
// stop words kept), and server: the table's words for its server's name.
func (x *expander) addTool(doc int32, fields [numToolFields][]searchToken, texts [2][]string, stems map[string]string, server []termExpansion) {
	clear(x.src)
	clear(x.own)
	for _, f := range []struct {
		f int
		w float64
	}{{fieldToolName, x.p.expandName}, {fieldToolDesc, x.p.expandDesc}, {fieldToolParam, x.p.expandParam}} {
		for _, t := range fields[f.f] {
			x.own[t.stem] = true
			x.src[t.surface] = max(x.src[t.surface], f.w)
		}
	}
	var toks []searchToken
	for k, w := range [2]float64{x.p.expandName, x.p.expandDesc} {
		toks = toks[:0]
		for _, s := range texts[k] {
			toks = append(toks, searchToken{surface: s})
		}
		for i := range toks {
			if l, n := x.lx.phraseAt(toks, i, x.starts); n > 0 {
				x.src[l] = max(x.src[l], w)
			}
		}
	}
	x.touched = x.touched[:0]
	x.words = x.words[:0]
	for w := range x.src {
		x.words = append(x.words, w)
	}
	sort.Strings(x.words) // the sums below in one order, so ties are stable
	for _, w := range x.words {
		sw := x.src[w]
		for _, r := range x.related(w, stems) {
			if x.own[x.terms[r.id]] {
				continue
			}
			a := &x.acc[r.id]
			if a[xfieldRelated] == 0 && a[xfieldGloss] == 0 {
				x.touched = append(x.touched, r.id)
			}
			a[r.field] += float32(sw) * r.weight
		}
	}
	for _, e := range server {
		if x.own[e.stem] {
			continue
		}
		id := x.id(e.stem)
		a := &x.acc[id]
		if a[xfieldRelated] == 0 && a[xfieldGloss] == 0 {
			x.touched = append(x.touched, id)
		}
		a[xfieldRelated] += float32(x.p.expandServer * e.weight)
	}
	var total float64
	for _, id := range x.touched {
		a := x.acc[id]
		x.raw[id] = append(x.raw[id], xPosting{doc: doc, tf: a})
		total += float64(a[xfieldRelated]) + x.p.expandGloss*float64(a[xfieldGloss])
		x.acc[id] = [numXFields]float32{}
	}
	for len(x.lens) <= int(doc) {
		x.lens = append(x.lens, 0)
	}
	x.lens[doc] = total
}

// index writes the expansion postings into ix.xterms: BM25 over the
// weighted field, length-normalised.
func (x *expander) index(ix *Index) {
	n := float64(len(ix.docs))
	var sum float64
	for _, l := range x.lens {
		sum += l
	}
	avg := 1.0
	if len(ix.docs) > 0 && sum > 0 {
		avg = sum / n
	}
	const b = 0.75
	for id, ps := range x.raw {
		if len(ps) == 0 {
			continue
		}
		sort.Slice(ps, func(a, c int) bool { return ps[a].doc < ps[c].doc })
		t := &searchTerm{idf: searchIDF(n, len(ps)), postings: make([]searchPosting, len(ps))}
		for k, p := range ps {
			w := (float64(p.tf[xfieldRelated]) + x.p.expandGloss*float64(p.tf[xfieldGloss])) / (1 - b + b*x.lens[p.doc]/avg)
			t.postings[k] = searchPosting{doc: p.doc, tf: float32(w * (searchK1 + 1) / (w + searchK1))}
		}
		ix.xterms[x.terms[id]] = t
	}
}

// searchParticles are the adverbs and prepositions that make phrasal verbs
// ("take the tag off"), looked for a few words after a verb.
var searchParticles = map[string]bool{
	"up": true, "down": true, "off": true, "out": true, "in": true, "on": true, "over": true,
	"back": true, "away": true, "aside": true, "through": true, "along": true, "around": true,
	"about": true, "together": true, "apart": true, "forward": true, "ahead": true,
}

// phraseStart is what a word may start: the most words of a multi-word
// lemma that one of its forms begins, and those forms.
type phraseStart struct {
	longest int
	firsts  []string
}

// inflections returns w and the base forms it may be an inflection of.
func (lx *lexicon) inflections(w string) []string {
	out := []string{w}
	if b, ok := lx.forms[w]; ok {
		out = append(out, b)
	}
	return append(out, searchBaseForms(w)[1:]...)
}

func (lx *lexicon) phraseStartOf(w string) phraseStart {
	firsts := lx.inflections(w)
	longest := 0
	for _, f := range firsts {
		longest = max(longest, lx.phraseStart[f])
	}
	if longest == 0 {
		return phraseStart{}
	}
	return phraseStart{longest, firsts}
}

// phraseAt returns the multi-word lemma that toks (lower case, stop words
// kept) start at i with ("call off", "phone numbers", "took the tag off"),
// and how many tokens it spans; 0 when none. The longest wins. starts, when
// not nil, memoises phraseStartOf.
func (lx *lexicon) phraseAt(toks []searchToken, i int, starts map[string]phraseStart) (string, int) {
	if i >= len(toks) || isSearchStopWord(toks[i].surface) && !searchParticles[toks[i].surface] {
		return "", 0
	}
	var st phraseStart
	if starts != nil {
		var ok bool
		if st, ok = starts[toks[i].surface]; !ok {
			st = lx.phraseStartOf(toks[i].surface)
			starts[toks[i].surface] = st
		}
	} else {
		st = lx.phraseStartOf(toks[i].surface)
	}
	longest, firsts := st.longest, st.firsts
	if longest == 0 {
		return "", 0
	}
	base := lx.inflections
	for n := min(longest, len(toks)-i); n >= 2; n-- {
		words := make([]string, n)
		for k := range n {
			words[k] = toks[i+k].surface
		}
		// The first word or the last may be inflected: "calling off",
		// "phone numbers".
		for _, first := range firsts {
			for _, last := range base(words[n-1]) {
				ws := append([]string{first}, words[1:n-1]...)
				l := strings.Join(append(ws, last), "_")
				if _, ok := lx.lookup(l); ok {
					return l, n
				}
			}
		}
	}
	// A verb and its particle a word or two apart: "take the tag off".
	for j := i + 2; j <= i+3 && j < len(toks); j++ {
		if !searchParticles[toks[j].surface] {
			continue
		}
		for _, first := range firsts {
			l := first + "_" + toks[j].surface
			if _, ok := lx.lookup(l); ok {
				return l, j - i + 1
			}
		}
	}
	return "", 0
}

// queryGroups returns a group of weighted stems for every distinct word of
// the query and every multi-word expression in it: the word itself, its
// corrections when the index does not know it, its related words from the
// hand-written table and from the lexicon, and, through the hand-written
// table, the words related to those.
func (ix *Index) queryGroups(query string, quoted map[string]bool) ([][]termExpansion, *parsedQuery) {
	p := &ix.params
	lx := theLexicon()
	all := searchTokenize(query, true)
	if len(all) > 4*searchMaxQueryWords {
		all = all[:4*searchMaxQueryWords]
	}
	// Numbers about: arithmetic senses count ("plus", "times"). Not the
	// numbers of a value ("2026-11-30").
	valueDigits := searchValueDigitStems(query)
	math := false
	for _, t := range all {
		math = math || (lx.numeral(t.surface) && !valueDigits[t.stem])
	}
	// Multi-word expressions, the longest first, none inside another.
	partOf := make([]bool, len(all))  // a word of a phrasal verb
	covered := make([]bool, len(all)) // a word of any expression
	var phrases [][]termExpansion
	seenPhrase := map[string]bool{}
	for i := range all {
		if covered[i] {
			continue
		}
		l, n := lx.phraseAt(all, i, nil)
		if n == 0 || seenPhrase[l] {
			continue
		}
		seenPhrase[l] = true
		// The words of a phrasal verb ("call off") say little on their
		// own; those of a compound noun ("postal code") keep their weight.
		// A verb and a particle apart ("take the tag off") span words of
		// their own in between.
		verb := false
		if li, ok := lx.lookup(l); ok {
			verb = lx.dominantPart(li) == 'v'
		}
		// A noun's place is no verb's: "the urgent tag on this task" has
		// no "tag on".
		if verb && searchNounAt(lx, all, i) {
			continue
		}
		// A verb and its particle apart ("take the tag off", "got it
		// back") cover their own two words only.
		apart := strings.Count(l, "_")+1 < n
		for k := i; k < i+n; k++ {
			if !apart || k == i || k == i+n-1 {
				covered[k] = true
				partOf[k] = verb
			}
		}
		g := []termExpansion{{stem: l, weight: 1, blend: true, direct: true, loose: true}}
		f := senseFilter{math: math}
		if li, ok := lx.lookup(l); ok {
			g = append(g, ix.lexTerms(lx.related(li, f), math)...)
		}
		phrases = append(phrases, dedupeExpansions(g))
	}

	timed := searchTimed(all)
	hostWords := searchLinkHostStems(query)
	for st := range hostWords {
		if ix.serverStems[st] {
			delete(hostWords, st)
		}
	}
	names := searchNames(query)
	var groups [][]termExpansion
	seen := map[string]bool{}
	for i, t := range all {
		if isSearchStopWord(t.surface) || seen[t.stem] || len(groups) >= searchMaxQueryWords {
			continue
		}
		seen[t.stem] = true
		self := 1.0
		if lx.numeral(t.surface) {
			self = p.numeralSelf
		}
		li, inLexicon := lx.baseForm(t.surface)
		scale := 1.0
		if inLexicon {
			scale = p.commonness(lx.count(li))
		}
		g := []termExpansion{{stem: t.stem, weight: self, blend: true, direct: true}}
		_, known := ix.terms[t.stem]
		if _, ok := ix.surface[t.surface]; ok {
			known = true
		}
		// A name ("a sync with Ana") is nobody's typo.
		if !known && !names[t.surface] {
			for _, c := range ix.corrections(t.surface) {
				c.direct = true
				g = append(g, c)
			}
		}
		// Related words of a correction ("refnud" -> "refund" -> "reimburse")
		// are not followed: two guesses in a row are too weak. Nor are the
		// table's or the lexicon's for a word that names a server of the
		// index ("notion", "github"): it says where to look, not what for
		// (notion is not an opinion, so not a comment). A product the index
		// has no server of ("chrome" with only playwright) keeps them.
		if !ix.serverStems[t.stem] {
			for _, e := range ix.vocab.synonymStems(t.surface, t.stem) {
				e.direct = true
				g = append(g, e)
			}
		}
		// A word of one or two letters ("t", "fr", "em") is mostly a
		// fragment of a value or an abbreviation; its dictionary senses
		// (thymine, francium, a printer's em) are not what it means here.
		// The table's entries for it (above) stay, as do a numeral's.
		// Nor are a number's when it is a piece of a value ("2026-11-30"
		// is no eleven, no dozen).
		if inLexicon && (len(t.surface) > 2 || lx.numeral(t.surface)) && !ix.serverStems[t.stem] && !valueDigits[t.stem] {
			f := senseFilter{math: math, parts: searchPartHint(all, i)}
			g = append(g, ix.lexTerms(lx.related(li, f), math)...)
		}
		// A numeral that counts the thing the next word names ("30
		// minutes", "the last 50 messages") is a value the tool is given,
		// not a number to compute with.
		// Nor is one that says when: an hour or a year.
		// Nor is one inside a value: a date, an ID, a version.
		if valueDigits[t.stem] {
			scale *= p.valueDigit
		}
		if hostWords[t.stem] {
			scale *= p.linkHost
		}
		if lx.numeral(t.surface) && !valueDigits[t.stem] && !searchCounts(lx, all, i) && !searchWhen(all, i) {
			g = append(g, termExpansion{stem: searchStem("number"), weight: p.number, loose: true})
		}
		if partOf[i] {
			scale *= p.phrasePart
		}
		if searchAttributive(all, i) {
			scale *= p.attributive
		}
		if searchNegated(all, i) {
			scale *= p.negated
		}
		if quoted[t.stem] {
			scale *= p.quoted
		}
		if timed[i] {
			scale *= p.when
		}
		for k := range g {
			g[k].weight *= scale
		}
		groups = append(groups, dedupeExpansions(g))
	}
	for _, ph := range phrases {
		if len(groups) >= searchMaxQueryWords {
			break
		}
		groups = append(groups, ph)
	}
	q := parseIntent(all, func(st string) bool { return ix.serverStems[st] })
	// What the query wants and starts from, with the words a tool may say
	// for them (its own, and the hand-written table's).
	widen := func(m map[string]bool) map[string]bool {
		if m == nil {
			return nil
		}
		out := map[string]bool{}
		for st := range m {
			out[st] = true
			for _, g := range groups {
				if g[0].stem != st {
					continue
				}
				for _, e := range g {
					if e.direct {
						out[e.stem] = true
					}
				}
			}
		}
		return out
	}
	q.to, q.from = widen(roleStems(all, searchToWords)), widen(mergeStems(roleStems(all, searchFromWords), sourceStems(all)))
	q.place = roleStems(all, searchPlaceWords)
	return groups, q
}

// searchCounts reports whether numeral i of all counts the thing the next
// word names ("30 minutes", "the last 50 messages"): a quantity the tool is
// given, not a number to compute with.
func searchCounts(lx *lexicon, all []searchToken, i int) bool {
	if i+1 >= len(all) {
		return false
	}
	next := all[i+1].surface
	if isSearchStopWord(next) || lx.numeral(next) {
		return false
	}
	li, ok := lx.baseForm(next)
	return ok && lx.dominantPart(li) == 'n'
}

// searchNames are the words (lower-cased) the query writes as names: of
// letters only, the first capital and the others not, and not first in a
// sentence ("a sync with Ana", "ask Priya"). An identifier ("GetUser",
// "NVDA") or a sentence's first word is no name.
func searchNames(q string) map[string]bool {
	out := map[string]bool{}
	first := true
	for _, f := range strings.Fields(q) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		r, size := utf8.DecodeRuneInString(w)
		rest := w[size:]
		if !first && unicode.IsUpper(r) && rest != "" && strings.ToLower(rest) == rest &&
			!strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
			out[strings.ToLower(w)] = true
		}
		first = strings.ContainsAny(f[len(f)-1:], ".:?!")
	}
	return out
}

// searchTimeWords are the words of a time the query gives ("this month",
// "last Tuesday", "tomorrow").
var searchTimeWords = wordSet("day days week weeks month months year years quarter quarters morning afternoon evening night weekend " +
	"monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december " +
	"spring summer autumn winter")

// searchTimeDeictic are the times that need no word before them.
var searchTimeDeictic = wordSet("today tomorrow yesterday tonight")

// searchTimeLead are the words that make a time word after them (a numeral
// may stand between) a time given: "this month", "in October", "the last
// 3 weeks".
var searchTimeLead = wordSet("this last next past every each in on during since until by before after for of")

// searchTimed marks the words of the times the query gives as values
// ("deals closing this month", "book it for tomorrow"), but none when the
// query says nothing else: then the time is what it asks about ("how many
// days in February").
func searchTimed(all []searchToken) []bool {
	timed := make([]bool, len(all))
	other := false
	for i, t := range all {
		w := t.surface
		switch {
		case searchTimeDeictic[w]:
			timed[i] = true
		case searchTimeWords[w]:
			j := i - 1
			if j >= 0 && searchDigits(all[j].surface) {
				j--
			}
			if j >= 0 && searchTimeLead[all[j].surface] {
				timed[i] = true
			}
		}
		if !timed[i] && !isSearchStopWord(w) && !searchTimeWords[w] && !searchDigits(w) {
			other = true
		}
	}
	if !other {
		return make([]bool, len(all))
	}
	return timed
}

// searchDigits reports whether w is a whole number written in digits.
func searchDigits(w string) bool {
	_, err := strconv.Atoi(w)
	return err == nil
}

// searchWhen reports whether numeral i of all says when: an hour after
// "at" ("tomorrow at 10") or a year ("in 2023", "October 2025").
func searchWhen(all []searchToken, i int) bool {
	n, err := strconv.Atoi(all[i].surface)
	if err != nil {
		return false
	}
	if len(all[i].surface) == 4 && n >= 1900 && n < 2100 {
		return true
	}
	return i > 0 && all[i-1].surface == "at" && n <= 24
}

// commonness returns the weight of a word that occurs n times in WordNet's
// tagged corpus.
func (p *searchParams) commonness(n int) float64 {
	if p.common <= 0 || float64(n) <= p.commonFrom {
		return 1
	}
	return 1 / (1 + p.common*math.Log(float64(n)/p.commonFrom))
}

// searchNounAt reports whether token i of all stands where a noun does,
// after a determiner or an adjective ("the urgent tag on it"), so that it
// does not start a phrasal verb ("tag on").
func searchNounAt(lx *lexicon, all []searchToken, i int) bool {
	if i == 0 {
		return false
	}
	prev := all[i-1].surface
	if searchDeterminers[prev] {
		return true
	}
	if isSearchStopWord(prev) {
		return false
	}
	li, ok := lx.lookup(prev)
	return ok && lx.dominantPart(li) == 'a'
}

// searchNounContext are the words after which a noun (or an adjective)
// comes: articles, possessives, quantifiers, prepositions.
var searchNounContext = wordSet(`a an the this that these those my your our their his her its some
	every each any all of several many few no in on at for with from into about by`)

// searchPartHint says which parts of speech query word i is likely to be,
// from the word before it: after an article, a possessive or a
// preposition a noun or an adjective ("na"); first in the query, an
// imperative verb ("v"); otherwise any ("").
func searchPartHint(all []searchToken, i int) string {
	if i == 0 {
		return "v"
	}
	if searchNounContext[all[i-1].surface] {
		return "na"
	}
	return ""
}

// numeral reports whether w is a number: digits, or a word one of whose
// senses digits also name ("seventeen", "dozen").
func (lx *lexicon) numeral(w string) bool {
	if w == "" {
		return false
	}
	if strings.Trim(w, "0123456789") == "" {
		return true
	}
	i, ok := lx.lookup(w)
	if !ok {
		return false
	}
	found := false
	lx.eachSense(i, func(s lexSense) {
		if found || s.math || s.weight < 1 {
			return
		}
		lx.eachLemma(s.synset, func(l string) {
			found = found || strings.Trim(l, "0123456789") == ""
		})
	})
	return found
}

// lexTerms turns related words into weighted stems, at most lexMax, and
// adds the words the hand-written table relates to each (not through
// definitions): the lexicon says "get rid of" is "remove", the table that
// tools say "delete". Next to numbers (math) the table, which is about
// software ("add" is "create"), is left out.
func (ix *Index) lexTerms(rel []lexTerm, math bool) []termExpansion {
	p := &ix.params
	var out []termExpansion
	for k, r := range rel {
		if k >= p.lexMax {
			break
		}
		w := p.lexSynonym
		if r.gloss {
			w = p.lexGloss
		}
		w *= r.weight
		if w <= 0 {
			continue
		}
		st := lexStem(r.word)
		out = append(out, termExpansion{stem: st, weight: w, loose: true})
		if r.gloss {
			continue
		}
		if p.lexTable <= 0 || math {
			continue
		}
		for _, e := range ix.vocab.synonymStems(r.word, st) {
			out = append(out, termExpansion{stem: e.stem, weight: w * e.weight * p.lexTable, loose: true})
		}
	}
	return out
}

// searchAttributive reports whether query word i is a participle used as an
// adjective: after a determiner and before a word that is not a stop word
// ("bring a paused project back", "wake the sleeping backend"), or a past
// participle right after a form of "be", maybe with an adverb between
// ("whether the yaml is well formed", "which accounts are connected"; not
// "is the yaml well formed", whose "be" stands apart). It says the state the
// thing is in, which the tool named for that action (pause_project) would
// put it in, not the action asked for; nor is "formed" the noun "form".
func searchAttributive(all []searchToken, i int) bool {
	w := all[i].surface
	if i > 0 && len(w) > 4 && strings.HasSuffix(w, "ed") {
		j := i - 1
		if j > 0 && searchStateAdverb(all[j].surface) {
			j--
		}
		if searchCopulas[all[j].surface] {
			return true
		}
	}
	if i == 0 || i+1 >= len(all) || !searchDeterminers[all[i-1].surface] || isSearchStopWord(all[i+1].surface) {
		return false
	}
	return len(w) > 4 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing"))
}

// searchCopulas are the forms of "be" a state follows ("isn" and "aren" as
// split from "isn't" and "aren't").
var searchCopulas = wordSet(`is are was were be been isn aren wasn weren`)

// searchStateAdverb reports whether w may stand between a form of "be" and
// the participle it says: "well", "already", "still", or an adverb in -ly.
func searchStateAdverb(w string) bool {
	return w == "well" || w == "already" || w == "still" || strings.HasSuffix(w, "ly")
}

var searchDeterminers = wordSet(`a an the this that these those my your our their his her its some every each all`)

// searchNegations are the words that say the next content word is not
// asked for; "don't" and "doesn't" are split before the apostrophe
// ("won't" is not among them: "won" is also a verb).
var searchNegations = wordSet(`don doesn didn wouldn shouldn not never without`)

// searchNegated reports whether token i of all is the first content word
// after a negation ("write a reply but don't send it", "fetch without
// merging"), with no other content word between.
func searchNegated(all []searchToken, i int) bool {
	for j := i - 1; j >= 0; j-- {
		w := all[j].surface
		if searchNegations[w] {
			return true
		}
		if !isSearchStopWord(w) {
			return false
		}
	}
	return false
}
