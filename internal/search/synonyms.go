package search

import (
	_ "embed"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// searchDomainTable is the hand-written table of related words for tool
// search (related.txt): the verbs and nouns people use for the same
// operation in software and API work, and the everyday, modern and
// abbreviated words people use for what tools name otherwise. A line
// "= a b c" makes every word in it related to every other; a line
// "word: a b c" is one-way (a query word on the left also finds tools that
// use a word on the right); "#" starts a comment. A query word finds its
// line as written or through its base form ("deleting" -> "delete", see
// searchBaseForms); the related words are stemmed, so "list" finds tools
// that say "lists" or "listing". A query word that names a server of the
// index ("notion") takes nothing from the table: it says where to look,
// not what for. Expansions from this table weigh searchSynonymWeight, less
// than the query's own words; those from the lexicon (lexicon.go) are
// weighed by searchParams. Only the "=" groups blend (see termExpansion).
//
//go:embed related.txt
var searchDomainTable string

const searchSynonymWeight = 0.7 // a word from searchDomainTable

// searchVocab is the hand-kept vocabulary of tool search, parsed: the
// related-word table (searchDomainTable) and the idioms (searchIdioms).
// An Index reads it and never changes it.
type searchVocab struct {
	related map[string][]termExpansion // table word -> related stems with weights, best first
	idioms  []searchIdiom              // in file order
	byFirst map[string][]searchIdiom   // whole phrases by first word (lower case), the longest first
	slotted map[string][]searchIdiom   // phrases with a slot by first word (lower case), in file order
	// modified are the whole phrases whose last word follows a determiner
	// (modifiedPhraseAt), by first word, the longest first.
	modified map[string][]searchModified

	// idiomIndex is the idioms read for the tools they name and the
	// queries that hold their words (readIdioms), on first use.
	idiomIndex func() *searchIdiomIndex
}

// searchIdiom is one line of idioms.txt: a phrase and what it is rewritten
// to. A phrase may hold one slot, "*", between two words ("bring * back"):
// then head and tail are the words before and after it.
type searchIdiom struct{ from, to, head, tail string }

// searchModified is a whole phrase whose last word follows a determiner,
// split into its words before the last (head) and its last word.
type searchModified struct {
	idiom      searchIdiom
	head, last string
}

// searchSlotWords is how many words a slot of an idiom may hold.
const searchSlotWords = 4

// theSearchVocab is the vocabulary built from the embedded files, once.
var theSearchVocab = sync.OnceValue(func() *searchVocab {
	return newSearchVocab(searchDomainTable, searchIdioms)
})

// newSearchVocab parses a related-word table and idioms in the form of
// related.txt and idioms.txt. Malformed lines are skipped (the tests of the
// embedded files report them).
func newSearchVocab(table, idioms string) *searchVocab {
	v := &searchVocab{related: buildSearchSynonyms(table), idioms: parseSearchIdioms(idioms)}
	v.byFirst, v.slotted = map[string][]searchIdiom{}, map[string][]searchIdiom{}
	for _, p := range v.idioms {
		first := strings.ToLower(p.from[:searchWordEnd(p.from, 0)])
		if p.head != "" {
			v.slotted[first] = append(v.slotted[first], p)
		} else {
			v.byFirst[first] = append(v.byFirst[first], p)
		}
	}
	v.modified = map[string][]searchModified{}
	for first, ps := range v.byFirst {
		sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].from) > len(ps[j].from) })
		for _, p := range ps {
			sp := strings.LastIndexByte(p.from, ' ')
			if sp < 0 {
				continue
			}
			head := p.from[:sp]
			if det := head[strings.LastIndexByte(head, ' ')+1:]; det != head && searchDeterminers[strings.ToLower(det)] {
				v.modified[first] = append(v.modified[first], searchModified{idiom: p, head: head, last: p.from[sp+1:]})
			}
		}
	}
	v.idiomIndex = sync.OnceValue(func() *searchIdiomIndex { return readIdioms(v.idioms) })
	return v
}

// synonymStems returns the stems related to the query word w (lower case),
// best weight first, without stem itself (w's own stem). The tables are
// keyed by word, not by stem, because stems conflate: "customer" and
// "custom" share the stem "custom", but only "custom" means "usage". w is
// looked up as written and as its likely base forms ("deleting" -> "delete").
func (v *searchVocab) synonymStems(w, stem string) []termExpansion {
	var out []termExpansion
	for _, b := range searchBaseForms(w) {
		for _, e := range v.related[b] {
			if e.stem != stem {
				out = append(out, e)
			}
		}
	}
	return out
}

// searchBaseForms returns w and the words it may be an inflection of: plural,
// -ing and -ed forms with their spelling changes.
func searchBaseForms(w string) []string {
	out := []string{w}
	add := func(b string) {
		if len(b) >= 2 {
			out = append(out, b)
		}
	}
	doubled := func(s string) bool { n := len(s); return n >= 2 && s[n-1] == s[n-2] }
	switch {
	case strings.HasSuffix(w, "ies"):
		add(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "es"):
		add(w[:len(w)-2])
		add(w[:len(w)-1])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		add(w[:len(w)-1])
	case strings.HasSuffix(w, "ing"):
		b := w[:len(w)-3]
		add(b)
		add(b + "e")
		if doubled(b) {
			add(b[:len(b)-1])
		}
	case strings.HasSuffix(w, "ied"):
		add(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "ed"):
		b := w[:len(w)-2]
		add(b)
		add(b + "e")
		if doubled(b) {
			add(b[:len(b)-1])
		}
	}
	return out
}

// buildSearchSynonyms parses a related-word table: each word on a line's
// left (or in an "=" group) -> its related stems, best weight first.
func buildSearchSynonyms(table string) map[string][]termExpansion {
	best := map[string]map[string]termExpansion{}
	stems := map[string]string{} // word -> searchTableStem(word): a word recurs
	stem := func(w string) string {
		st, ok := stems[w]
		if !ok {
			st = searchTableStem(w)
			stems[w] = st
		}
		return st
	}
	add := func(from, to string, w float64, blend, loose bool) {
		a, b := strings.ToLower(strings.TrimSpace(from)), stem(to)
		if a == "" || b == "" || stem(a) == b {
			return
		}
		m := best[a]
		if m == nil {
			m = map[string]termExpansion{}
			best[a] = m
		}
		old := m[b]
		if old.weight == 0 {
			old.loose = true
		}
		m[b] = termExpansion{stem: b, weight: max(w, old.weight), blend: blend || old.blend, loose: loose && old.loose}
	}
	for line := range strings.SplitSeq(table, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "="); ok {
			group := strings.Fields(rest)
			for _, a := range group {
				for _, b := range group {
					add(a, b, searchSynonymWeight, true, false)
				}
			}
			continue
		}
		w, rel, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		for r := range strings.FieldsSeq(rel) {
			add(w, r, searchSynonymWeight, false, false)
		}
	}
	out := make(map[string][]termExpansion, len(best))
	for a, m := range best {
		exps := make([]termExpansion, 0, len(m))
		for _, e := range m {
			exps = append(exps, e)
		}
		sort.Slice(exps, func(i, j int) bool {
			if exps[i].weight != exps[j].weight {
				return exps[i].weight > exps[j].weight
			}
			return exps[i].stem < exps[j].stem
		})
		out[a] = exps
	}
	return out
}

// searchTableStem stems one table word with the tokenizer used for tool text; a
// word that splits into several tokens or is a stop word gives "".
func searchTableStem(word string) string {
	toks := searchTokenize(word, false)
	if len(toks) != 1 {
		return ""
	}
	return toks[0].stem
}

// searchIdioms are rewritten before a query is split into words (idioms.txt,
// one a line, "phrase -> replacement", "#" starting a comment): idioms whose
// words, taken one by one, point elsewhere ("how many" is a count, not
// insert-many).
//
//go:embed idioms.txt
var searchIdioms string

// parseSearchIdioms returns the idioms of a file in the form of idioms.txt,
// in order.
func parseSearchIdioms(text string) []searchIdiom {
	out := make([]searchIdiom, 0, strings.Count(text, " -> "))
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		from, to, ok := strings.Cut(line, " -> ")
		if !ok {
			continue // TestSearchIdiomsFile reports it
		}
		p := searchIdiom{from: strings.TrimSpace(from), to: strings.TrimSpace(to)}
		if head, tail, ok := strings.Cut(p.from, " * "); ok {
			if head == "" || tail == "" || strings.Contains(tail, "*") || strings.Contains(head, "*") {
				continue // TestSearchIdiomsFile reports it
			}
			p.head, p.tail = head, tail
		} else if strings.Contains(p.from, "*") {
			continue // TestSearchIdiomsFile reports it
		}
		out = append(out, p)
	}
	return out
}

// prepare readies a query for splitting into words: it writes its
// apostrophes plainly (searchApostrophes), adds the words
// of the answer a question asks for (searchAnswerType) and of the kinds of
// value it holds (searchLiteralKinds), then drops its opaque values
// (searchDropOpaque; after their kinds are noted) and rewrites its idioms
// (rewritePhrases), except in the text a request quotes
// (searchContentStart).
func (v *searchVocab) prepare(q string) string {
	q = searchApostrophes.Replace(q)
	q = searchDropOpaque(searchLiteralKinds(searchAnswerType(q)))
	k := searchContentStart(q)
	return v.rewritePhrases(q[:k]) + q[k:]
}

// searchContentStart returns where the words a request quotes start: after
// a colon that ends a short request to write something ("file a bug: the
// login button does nothing", "post in the channel: deploy is done"), or
// len(q). Those words are the text the tool is to write, not the request,
// so no idiom reads them as one.
func searchContentStart(q string) int {
	i := strings.Index(q, ": ")
	if i < 0 {
		return len(q)
	}
	words := strings.Fields(strings.ToLower(q[:i]))
	if len(words) > searchContentRequestWords {
		return len(q)
	}
	for _, w := range words {
		if searchWriteWords[w] {
			return i + 1
		}
	}
	return len(q)
}

// searchContentRequestWords is the most words a request before a colon
// may have for what follows to be quoted text.
const searchContentRequestWords = 8

// searchQuote is a quoted text: a title, a name or a value the tool is to
// write or find ("a card called 'Fix login'", "post \"deploy done\""),
// between quotes that open after a space and close before one or a
// punctuation mark.
var searchQuote = regexp.MustCompile(`(^|[\s(])['"“‘]([^'"”’\n]{1,120})['"”’]([\s,.;:?!)]|$)`)

// searchFileValue is a file's name with its extension: the name (group 1)
// is a value the tool is given ("invoice" in "invoice.pdf"), the extension
// says what kind of file it is.
var searchFileValue = regexp.MustCompile(`(?i)(?:^|[\s(/])([\w~./-]*\w)\.(?:` + searchFileEndings + `)\b`)

// searchQuotedStems returns the stems of q's words that it says only in
// quoted text: between quotes (searchQuote), after the colon of a short
// request to write (searchContentStart), or in a file's name before its
// extension (searchFileValue).
func searchQuotedStems(q string) map[string]bool {
	q = searchApostrophes.Replace(q)
	var spans [][2]int
	for _, m := range searchQuote.FindAllStringSubmatchIndex(q, -1) {
		spans = append(spans, [2]int{m[4], m[5]})
	}
	if k := searchContentStart(q); k < len(q) {
		spans = append(spans, [2]int{k, len(q)})
	}
	for _, m := range searchFileValue.FindAllStringSubmatchIndex(q, -1) {
		spans = append(spans, [2]int{m[2], m[3]})
	}
	return searchStemsOnlyIn(q, spans, false)
}

// searchStemsOnlyIn returns the stems of q's words that q says inside the
// byte spans and nowhere else (only those written in digits when
// digits). Overlapping spans count as one.
func searchStemsOnlyIn(q string, spans [][2]int, digits bool) map[string]bool {
	if len(spans) == 0 {
		return nil
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a][0] < spans[b][0] })
	inside := map[string]bool{}
	outside := map[string]bool{}
	last := 0
	for _, sp := range spans {
		if sp[1] <= last {
			continue
		}
		sp[0] = max(sp[0], last)
		for _, t := range searchTokenize(q[last:sp[0]], false) {
			outside[t.stem] = true
		}
		for _, t := range searchTokenize(q[sp[0]:sp[1]], false) {
			if !digits || searchDigits(t.surface) {
				inside[t.stem] = true
			}
		}
		last = sp[1]
	}
	for _, t := range searchTokenize(q[last:], false) {
		outside[t.stem] = true
	}
	for st := range outside {
		delete(inside, st)
	}
	return inside
}

// searchValueDigitStems returns the stems of the numbers q writes only
// inside a value of a kind searchLiterals or searchEmailAddress knows (a
// date, a time, a version, an address, an ID, a path, a link): the pieces of
// "2026-11-30" or "dpl_7Gh2" are not numbers to compute with, nor words the
// tool is about. Amounts and percentages are left out: arithmetic is done
// on them.
func searchValueDigitStems(q string) map[string]bool {
	if !strings.ContainsAny(q, "0123456789") {
		return nil
	}
	var spans [][2]int
	lower := strings.ToLower(q)
	for i := range searchLiterals {
		l := &searchLiterals[i]
		if l.number || !l.mayHold(q, lower) {
			continue
		}
		for _, m := range l.re.FindAllStringIndex(q, -1) {
			spans = append(spans, [2]int{m[0], m[1]})
		}
	}
	for _, m := range searchEmailAddress.FindAllStringIndex(q, -1) {
		spans = append(spans, [2]int{m[0], m[1]})
	}
	return searchStemsOnlyIn(q, spans, true)
}

// searchLinkHost is a link's scheme and host name (group 1 the host).
var searchLinkHost = regexp.MustCompile(`(?i)\b(?:https?://|www\.)([\w.-]*)`)

// searchLinkHostStems returns the stems of the words q writes only in a
// link's scheme or host name: "https", "blog", "example" and "com" in
// https://blog.example.com/post-42, not "post".
func searchLinkHostStems(q string) map[string]bool {
	var spans [][2]int
	for _, m := range searchLinkHost.FindAllStringSubmatchIndex(q, -1) {
		spans = append(spans, [2]int{m[0], m[3]})
	}
	return searchStemsOnlyIn(q, spans, false)
}

// searchApostrophes writes typographic apostrophes as the idioms do, so that
// "can’t log in" is "can't log in". The tokenizer reads both alike.
var searchApostrophes = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u02bc", "'")

// rewritePhrases applies v's idioms to q in one pass from the
// left: at each word, the longest phrase that starts there
// (case-insensitive, whole words) is replaced by its words, which no other
// phrase rewrites again. Failing that, or when that phrase is no longer
// than the head of one with a slot, a phrase with a slot ("bring *
// back") whose slot holds 1 to searchSlotWords words (of several, the
// best by searchSlotBetter): its head is replaced by its words, the slot's
// words are kept (and may be rewritten), and its tail is dropped ("bring a
// paused project back" -> "restore a paused project"). The rest of q is
// kept as it is, case included.
func (v *searchVocab) rewritePhrases(q string) string {
	var b strings.Builder
	tail, tailEnd := -1, -1 // the pending tail of a phrase with a slot
	for i := 0; i < len(q); {
		if i == tail {
			i, tail = tailEnd, -1
			continue
		}
		if !searchIsWordByte(q[i]) {
			b.WriteByte(q[i])
			i++
			continue
		}
		end := searchWordEnd(q, i)
		first := strings.ToLower(q[i:end])
		var whole *searchIdiom
		for k, p := range v.byFirst[first] {
			if j, ok := searchWordsAt(q, i, p.from); ok && (tail < 0 || j <= tail) {
				whole = &v.byFirst[first][k]
				break
			}
		}
		n := 0
		if tail < 0 {
			// Of the phrases with a slot that match here, the best
			// (searchSlotBetter), then the first in the file. A whole
			// phrase wins unless it is no longer than the head ("who won
			// * final" over "who won").
			var best *searchIdiom
			for k, p := range v.slotted[first] {
				if whole != nil && len(p.head) < len(whole.from) {
					continue
				}
				ts, te, ok := searchMatchSlot(q, i, p)
				if !ok || !strings.Contains(p.tail, " ") && v.longerPhraseAt(q, ts+1, te) {
					continue
				}
				if searchSlotBetter(i, p, ts, te, best, tail, tailEnd) {
					best, tail, tailEnd = &v.slotted[first][k], ts, te
				}
			}
			if best != nil {
				b.WriteString(best.to)
				n = len(best.head)
				// A tail that ends in "into", "to", "from" or "as" keeps
				// that word: it says which way ("turn an address into
				// coordinates" is not the reverse).
				last := best.tail[strings.LastIndexByte(best.tail, ' ')+1:]
				if searchToWords[strings.ToLower(last)] || searchFromWords[strings.ToLower(last)] {
					tailEnd -= len(last) + 1
				}
			}
		}
		if n == 0 && whole != nil {
			b.WriteString(whole.to)
			n = len(whole.from)
		}
		if n == 0 && tail < 0 {
			if p, word, e, ok := v.modifiedPhraseAt(q, i, first); ok {
				b.WriteString(p.to + " " + word)
				n = e - i
			}
		}
		if n == 0 {
			n = end - i
			b.WriteString(q[i:end])
		}
		i += n
	}
	return b.String()
}

// modifiedPhraseAt finds a whole phrase whose last word follows a
// determiner ("set aside my changes", "move the meeting") said at q[i]
// with one word more before that last word ("set aside my uncommitted
// changes", "move the weekly meeting"). It returns the phrase, the word
// more, and where the match ends. (Another determiner in the phrase's, "set
// aside our changes", was tried too: it lost more first places than it
// gained.)
func (v *searchVocab) modifiedPhraseAt(q string, i int, first string) (searchIdiom, string, int, bool) {
	for _, m := range v.modified[first] {
		j, ok := searchWordsAt(q, i, m.head)
		if !ok || j >= len(q) || q[j] != ' ' {
			continue
		}
		k := j + 1
		for k < len(q) && (searchIsWordByte(q[k]) || searchInWordByte(q, k)) {
			k++
		}
		if k == j+1 || k >= len(q) || q[k] != ' ' {
			continue
		}
		if e, ok := searchWordsAt(q, k+1, m.last); ok {
			return m.idiom, q[j+1 : k], e, true
		}
	}
	return searchIdiom{}, "", 0, false
}

// searchSlotBetter reports whether the phrase with a slot p, which matches
// at i with its tail at [ts, te), reads the words there better than best,
// whose tail is at [bts, bte): one whose head holds the other's tail ("make
// the private * public" over "make * private"), then the one whose tail
// comes sooner, then the longer tail ("turn * off and on again" over "turn *
// off"), then the longer head ("start emailing * again" over "start *
// again").
func searchSlotBetter(i int, p searchIdiom, ts, te int, best *searchIdiom, bts, bte int) bool {
	switch {
	case best == nil, i+len(p.head) > bts:
		return true
	case i+len(best.head) > ts:
		return false
	case ts != bts:
		return ts < bts
	case te != bte:
		return te > bte
	}
	return len(p.head) > len(best.head)
}

// searchMatchSlot reports whether the phrase with a slot p matches q at i:
// its head, then 1 to searchSlotWords words (with the punctuation inside
// them, searchInWordByte) each after one space, then its tail as whole
// words. It returns where the tail, with the space before it, starts and
// ends.
func searchMatchSlot(q string, i int, p searchIdiom) (tailStart, tailEnd int, ok bool) {
	j := i + len(p.head)
	if j >= len(q) || !strings.EqualFold(q[i:j], p.head) || q[j] != ' ' {
		return 0, 0, false
	}
	for words := 0; j < len(q) && q[j] == ' '; {
		j++
		if words > 0 {
			if e, ok := searchWordsAt(q, j, p.tail); ok {
				return j - 1, e, true // with the space before it
			}
		}
		if words == searchSlotWords {
			break
		}
		k := j
		for k < len(q) && (searchIsWordByte(q[k]) || searchInWordByte(q, k)) {
			k++
		}
		if k == j {
			break
		}
		j, words = k, words+1
	}
	return 0, 0, false
}

// searchInWordByte reports whether q[k] is punctuation inside a word that a
// slot holds whole: an apostrophe or a hyphen ("Acme's", "new-site"), or a
// dot, "@", "/" or ":" between two word characters ("config.yaml", "v1.2",
// "jane@acme.io", "deploy/web").
func searchInWordByte(q string, k int) bool {
	switch q[k] {
	case '\'', '-':
		return true
	case '.', '@', '/', ':':
		return k > 0 && k+1 < len(q) && searchIsWordByte(q[k-1]) && searchIsWordByte(q[k+1])
	}
	return false
}

// longerPhraseAt reports whether a whole phrase that starts at q[i] runs
// past end: a phrase with a slot and a one-word tail ("are * running")
// does not take "are we running out of space", whose "running out of"
// says more.
func (v *searchVocab) longerPhraseAt(q string, i, end int) bool {
	for _, p := range v.byFirst[strings.ToLower(q[i:searchWordEnd(q, i)])] {
		if j, ok := searchWordsAt(q, i, p.from); ok && j > end {
			return true
		}
	}
	return false
}

// searchWordsAt reports whether q holds the words w at i (case aside, and
// ending at a word's end), and where they end.
func searchWordsAt(q string, i int, w string) (end int, ok bool) {
	j := i + len(w)
	if j > len(q) || !strings.EqualFold(q[i:j], w) || j < len(q) && searchIsWordByte(q[j]) {
		return 0, false
	}
	return j, true
}

// searchWordEnd returns where the word that starts at s[i] ends.
func searchWordEnd(s string, i int) int {
	for i < len(s) && searchIsWordByte(s[i]) {
		i++
	}
	return i
}

func searchIsWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}

// searchAnswerTypes are the kinds of answer a question word asks for, in the
// words tools use for them: "why does this keep failing" wants a cause,
// "who owns this" a user. The question words themselves are stop words.
var searchAnswerTypes = map[string]string{
	"why":   "cause",
	"who":   "user owner",
	"when":  "time date",
	"where": "location place",
}

// searchAnswerType adds to q the words of the answer its first word asks for
// (see searchAnswerTypes), or documentation for a how-to question. Only a
// question's first words count: "notify me when it ends" asks for no time.
func searchAnswerType(q string) string {
	lower := strings.ToLower(strings.TrimSpace(q))
	first := searchFirstWord(q)
	if kind, ok := searchAnswerTypes[first]; ok {
		return q + " " + kind
	}
	// A how-to question wants documentation, unless it asks the way
	// somewhere ("how do I get to the station").
	if strings.HasPrefix(lower, "how do i get ") {
		return q
	}
	for _, p := range []string{"how do ", "how does ", "how to ", "how can ", "how should "} {
		if strings.HasPrefix(lower, p) {
			return q + " documentation docs"
		}
	}
	return q
}

// searchLiterals recognise values written into a query, which say what kind
// of thing the query is about though no word names it: "todo.txt" is a
// file, "https://acme.dev/pricing" a web page, "#support" a channel. Each
// adds the words tools use for that kind (searchLiteralKinds), as do file
// names (searchFileName). ".js" is not among the files' endings: "node.js"
// and "next.js" are mostly libraries. Coordinates need three decimals, so
// "3.5, 2.5" is two numbers. An IP address has four parts and a version
// three ("2.3.1"); dates, times of day, amounts of money, percentages, card
// and phone numbers each name their kind, as do an SQL statement, a cron
// expression ("0 3 * * 1"), an environment variable (DATABASE_URL), a
// bucket's URI (s3://, gs://), a Kubernetes object (deploy/web), an
// issue's key (PROJ-123, not SHA-256), a subreddit (r/golang), a container
// image with its tag (node:20-alpine) and a Terraform resource type
// (aws_s3_bucket).
//
// A place given as coordinates is what the query starts from: "what street
// is at 40.7128, -74.0060" converts coordinates into an address, so their
// words also follow a "from", which the query's roles read
// (parseIntent). Other values are more often what a tool is given than
// what it converts.
var searchLiterals = []searchLiteral{
	{re: regexp.MustCompile(`(?i)\b(png|jpe?g|gif|svg|webp|mp3|mp4|wav|mov)\b`), words: "media image"},
	{re: regexp.MustCompile(`(?i)\blocalhost:\d{2,5}\b|(^|\s):\d{2,5}\b`), words: "port localhost"},
	{re: regexp.MustCompile(`(?i)(^|\s)~?/[\w.-]+/[\w./-]*`), words: "file path"},
	{re: regexp.MustCompile(`(?i)\bhttps?://\S+|\bwww\.\S+|\b[\w-]+(\.[\w-]+)*\.(com|org|net|io|dev|app|ai|co|edu|gov)\b`), words: "url page website"},
	{re: regexp.MustCompile(`(^|\s)#[a-z][\w-]*`), words: "channel"},
	{re: regexp.MustCompile(`-?\b\d{1,3}\.\d{3,}\s*,\s*-?\d{1,3}\.\d{3,}\b`), words: searchCoordinateWords},
	{re: regexp.MustCompile(`\b\d{1,3}(\.\d{1,3}){3}\b`), words: "ip address"},
	{re: regexp.MustCompile(`\b\d{1,3}(\.\d{1,3}){3}/\d{1,2}\b`), words: "subnet network range"},
	{re: regexp.MustCompile(`(?i)(^|\s)v?\d+\.\d+\.\d+(-[0-9a-z.]+)?([\s,;:?!)]|$)`), words: "version"},
	{re: regexp.MustCompile(`(?i)\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(st|nd|rd|th)?\b|\b\d{1,2}(st|nd|rd|th)?\s+(of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b`), words: "date"},
	{re: regexp.MustCompile(`(?i)\b\d{1,2}(:\d{2})?\s?(am|pm)\b|\b\d{1,2}:\d{2}\b`), words: "time"},
	{re: regexp.MustCompile(`(?i)[$€£¥]\s?\d|\b\d+(\.\d+)?\s?(usd|eur|gbp|jpy|cad|aud|chf)\b`), words: "amount price currency", number: true},
	{re: regexp.MustCompile(`\d(\.\d+)?\s?%`), words: "percent percentage", number: true},
	{re: regexp.MustCompile(`\b\d{4}([ -]?\d{4}){3}\b`), words: "card number"},
	{re: regexp.MustCompile(`(^|\s)\+\d[\d -]{7,}\d\b`), words: "phone number"},
	{re: regexp.MustCompile(`\b(SELECT\s.+\sFROM|INSERT\s+INTO|DELETE\s+FROM|CREATE\s+TABLE|UPDATE\s+\w+\s+SET)\s+\w|(?i:\bselect\s+(\*|count\(|distinct\s|\w+\s*,\s*\w+)[^.?!]*\sfrom\s+\w)`), words: "sql query database"},
	{re: regexp.MustCompile(`\b[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\b`), words: "environment variable"},
	{re: regexp.MustCompile(`(?i)\b(s3|gs|az)://\S+`), words: "bucket object storage"},
	{re: regexp.MustCompile(`\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b`), words: "issue", not: searchStandardNames},
	{re: regexp.MustCompile(`(?i)(^|[\s(])/?r/[a-z0-9]\w{1,20}\b`), words: "subreddit reddit"},
	{re: regexp.MustCompile(`(?i)\b[a-z][\w.-]*(/[\w.-]+)*:(latest|\d+\.\d+(\.\d+)?(-[a-z0-9]+)*|\d+-[a-z][a-z0-9]*|[\w.-]*(alpine|slim|bookworm|bullseye|jammy|noble)[\w.-]*)([\s,;?!)]|$)`), words: "container image"},
	{re: regexp.MustCompile(`\b(aws|azurerm|azuread|google|kubernetes|helm|cloudflare|github|datadog|vault|consul|random|null|tls)(_[a-z0-9]+){1,6}\b`), words: "terraform resource provider"},
	{re: regexp.MustCompile(`(?i)\b(deployment|deploy|pod|svc|service|statefulset|sts|daemonset|ds|cronjob|configmap|cm|secret|ns|namespace|node|ingress|pvc)/[a-z0-9][\w.-]*`), words: "kubernetes resource"},
	// Well-known shapes of IDs: a Slack member's or channel's, a Vercel
	// deployment's, a Stripe object's by its prefix, a YouTube video's link.
	{re: regexp.MustCompile(`\b[UW]0[A-Z0-9]{4,10}\b`), words: "user member", hint: "0"},
	{re: regexp.MustCompile(`\bC0[A-Z0-9]{4,10}\b`), words: "channel id", hint: "C0"},
	{re: regexp.MustCompile(`\bdpl_[A-Za-z0-9]+`), words: "deployment", hint: "dpl_"},
	{re: regexp.MustCompile(`\bcus_[A-Za-z0-9]+`), words: "customer", hint: "cus_"},
	{re: regexp.MustCompile(`\b(pi|ch|py)_[A-Za-z0-9]+`), words: "payment charge", hint: "_"},
	{re: regexp.MustCompile(`\bin_[A-Za-z0-9]{6,}`), words: "invoice", hint: "in_"},
	{re: regexp.MustCompile(`\bsub_[A-Za-z0-9]+`), words: "subscription", hint: "sub_"},
	{re: regexp.MustCompile(`(?i)\b(youtu\.be/|youtube\.com/(watch|shorts/))`), words: "video", hint: "youtu"},
}

// searchLiteral is a kind of value a query may write (searchLiterals).
type searchLiteral struct {
	re    *regexp.Regexp
	words string // the words of its kind, added to the query
	// hint is a text every match holds (in its case or in lower case): a
	// query without it is not matched against re. "" for none.
	hint string
	// not are the matches that are no value of the kind, by their part up
	// to the first "-".
	not map[string]bool
	// number marks a value arithmetic is done on (an amount, a
	// percentage): its numbers stay numbers (searchValueDigitStems).
	number bool
}

// mayHold reports whether q, whose lower case is lower, may hold a match
// of l: it holds l's hint, if l has one.
func (l *searchLiteral) mayHold(q, lower string) bool {
	return l.hint == "" || strings.Contains(q, l.hint) || strings.Contains(lower, l.hint)
}

// searchStandardNames are names written with a number after a hyphen
// ("SHA-256", "UTF-8", "CVE-2024") that are not an issue's key ("PROJ-123").
var searchStandardNames = wordSet(`SHA MD UTF ISO RFC CVE CWE AES RSA HTTP TLS SSL IPV COVID SARS MP ES ECMA IEEE ANSI PEP JSR CSS HTML IE GPT RTX RX GTX`)

// searchHasLiteral reports whether q holds a match of re whose part up to
// its first "-" is not in not.
func searchHasLiteral(re *regexp.Regexp, not map[string]bool, q string) bool {
	if not == nil {
		return re.MatchString(q)
	}
	for _, m := range re.FindAllString(q, -1) {
		if head, _, _ := strings.Cut(m, "-"); !not[head] {
			return true
		}
	}
	return false
}

// searchCoordinateWords are the words of coordinates, a kind of value.
const searchCoordinateWords = "coordinates latitude longitude"

// searchUnitWords are units of measure, as written after a number or on
// their own ("in feet"); searchUnitName folds the spellings of one unit
// into one name.
const searchUnitWords = `mm|cm|km|millimeters?|millimetres?|centimeters?|centimetres?|meters?|metres?|` +
	`kilometers?|kilometres?|inch|inches|ft|feet|foot|yards?|miles?|mi|mg|kg|grams?|kilograms?|` +
	`lbs?|pounds?|oz|ounces?|stones?|tons?|tonnes?|ml|liters?|litres?|gallons?|quarts?|pints?|cups?|` +
	`celsius|fahrenheit|kelvin|mph|kph|km/h|knots?|kb|mb|gb|tb|bytes?|kilobytes?|megabytes?|` +
	`gigabytes?|terabytes?|acres?|hectares?|sq ft|square feet|square meters?|square metres?`

var (
	searchUnit     = regexp.MustCompile(`\b(` + searchUnitWords + `)\b`)
	searchQuantity = regexp.MustCompile(`(?i)\b\d+(\.\d+)?\s?(` + searchUnitWords + `)\b`)
)

// searchUnitName is the one name of a unit as written (lower case):
// "metres", "meters" and "meter" are all "meter", "ft" and "feet" "foot".
func searchUnitName(u string) string {
	if full, ok := searchUnitForms[u]; ok {
		return full
	}
	if len(u) > 3 {
		u = strings.TrimSuffix(u, "s")
	}
	u = strings.ReplaceAll(u, "metre", "meter")
	u = strings.ReplaceAll(u, "litre", "liter")
	if full, ok := searchUnitForms[u]; ok {
		return full
	}
	return u
}

// searchUnitForms spell out the abbreviated and irregular units of
// searchUnitWords.
var searchUnitForms = map[string]string{
	"mm": "millimeter", "cm": "centimeter", "km": "kilometer", "ft": "foot", "feet": "foot",
	"inches": "inch", "mi": "mile", "mg": "milligram", "kg": "kilogram", "lb": "pound",
	"lbs": "pound", "oz": "ounce", "ml": "milliliter", "kph": "km/h", "kb": "kilobyte",
	"mb": "megabyte", "gb": "gigabyte", "tb": "terabyte", "sq ft": "square foot",
	"square feet": "square foot",
}

// searchFileName is a file's name ("todo.txt"): a query that names one is
// about a file, and one that names two or more about several at once.
var searchFileName = regexp.MustCompile(`(?i)\b[\w-]+\.(` + searchFileEndings + `)\b`)

// searchFileEndings are the extensions that make a word a file's name
// (searchFileName, searchFileValue).
const searchFileEndings = `txt|md|json|ya?ml|csv|tsv|log|toml|ini|conf|cfg|env|xml|html?|css|ts|tsx|jsx|py|go|rs|java|rb|php|sh|sql|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|webp|mp3|mp4|wav|zip|tar|gz`

// searchCron is a cron expression ("0 3 * * 1", "*/5 * * * *"): five
// fields, with two stars in a row or a step (searchCronStars), which
// arithmetic ("2 * 3 * 4") does not have.
var (
	searchCron      = regexp.MustCompile(`(^|\s)([\d*/,-]+\s+){4}[\d*/,-]+([\s,.;:?!)]|$)`)
	searchCronStars = regexp.MustCompile(`\*\s+\*|\*/\d`)
)

// searchEmailAddress is an email address: the kind it adds is email, and
// its domain is not a web page.
var searchEmailAddress = regexp.MustCompile(`\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b`)

// searchLiteralKinds adds to q the words of the kinds of value it holds (see
// searchFileName, searchLiterals, searchCron and searchEmailAddress), each
// kind once, and a conversion when it names two units of measure, one with a
// number.
func searchLiteralKinds(q string) string {
	var add []string
	rest := q
	if searchEmailAddress.MatchString(q) {
		add = append(add, "email")
		rest = searchEmailAddress.ReplaceAllString(q, " ")
	}
	switch len(searchFileName.FindAllStringIndex(rest, 2)) {
	case 1:
		add = append(add, "file")
	case 2:
		add = append(add, "file multiple")
	}
	lower := strings.ToLower(rest)
	for i := range searchLiterals {
		l := &searchLiterals[i]
		if !l.mayHold(rest, lower) {
			continue
		}
		if searchHasLiteral(l.re, l.not, rest) {
			add = append(add, l.words)
			if l.words == searchCoordinateWords {
				add = append(add, "from "+l.words)
			}
		}
	}
	if m := searchCron.FindString(rest); m != "" && searchCronStars.MatchString(m) {
		add = append(add, "cron schedule")
	}
	// Two units of measure, one of them with a number ("how many feet is
	// 3 meters", "20 celsius in fahrenheit"): a conversion.
	if searchQuantity.MatchString(rest) {
		units := map[string]bool{}
		for _, m := range searchUnit.FindAllStringSubmatch(strings.ToLower(rest), -1) {
			units[searchUnitName(m[1])] = true
		}
		if len(units) >= 2 {
			add = append(add, "convert unit")
		}
	}
	// Two numbers joined by an operation ("17 and 25" after "add", "2,340
	// plus 12.99", "3 * 7"): arithmetic.
	if searchArithmetic.MatchString(rest) {
		add = append(add, "sum calculate arithmetic")
	}
	if len(add) == 0 {
		return q
	}
	return q + " " + strings.Join(add, " ")
}

// searchArithmetic is two numbers joined by an operation: a sign (a minus
// or a slash between spaces: "2-4pm" is a range, 10.0.0.0/8 a network), a
// word for one, or "and" after a verb of adding or subtracting.
var searchArithmetic = regexp.MustCompile(`(?i)\d(?:\s*[+*×÷^]\s*|\s+[-/]\s+|\s+(?:plus|minus|times|divided\s+by|multiplied\s+by|over)\s+)\(?-?\d|\b(?:add|sum|total|subtract|multiply|average|mean)\s+(?:up\s+)?-?\d[\d,]*(?:\.\d+)?\s+(?:and|to|from|by|with)\s+-?\d`)

// searchDropOpaque removes from q the opaque values it quotes: IDs, hashes
// and keys such as "ChIJN1t_tDeuEmsRUsoyG83frY4", "a3f9c2d" or a UUID. Split
// into words they would be a dozen letters and fragments ("r", "fr", "em"),
// each related to unrelated tools (roentgen, francium) or corrected into
// some tool's word. A value is opaque when letters and digits alternate
// in it at least four times; "sha256sum", "ec2" and "PMC1234567" are kept.
// What a value is (a file, a URL, coordinates) has been noted before
// (searchLiteralKinds).
func searchDropOpaque(q string) string {
	fields := strings.Fields(q)
	kept := fields[:0]
	dropped := false
	for _, f := range fields {
		if searchOpaque(f) {
			dropped = true
			continue
		}
		kept = append(kept, f)
	}
	if !dropped {
		return q
	}
	return strings.Join(kept, " ")
}

// searchOpaque reports whether letters and digits alternate in w at least
// four times.
func searchOpaque(w string) bool {
	const (
		none = iota
		letter
		digit
	)
	last, changes := none, 0
	for _, r := range w {
		kind := none
		switch {
		case unicode.IsLetter(r):
			kind = letter
		case unicode.IsDigit(r):
			kind = digit
		}
		if kind == none {
			continue
		}
		if last != none && kind != last {
			changes++
		}
		last = kind
	}
	return changes >= 4
}
