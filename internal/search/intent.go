package search

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Which way a query points, among tools that differ only in that: add or
// remove, start or stop, mute or unmute; and whether it asks for a list.
// Nothing here names a server or a tool: the cues are English words and
// prefixes, and siblings are found in each server's own tool names.

// searchUndoWords are verbs that take away, end or reverse; searchDoWords
// those that add, begin or set. A tool whose name differs from a sibling's
// only by one of them (or by an un-, dis- or de- prefix) is the sibling's
// reverse.
var (
	searchUndoWords = wordSet(`remove delete drop erase destroy purge discard cancel stop end halt
		terminate abort kill revoke withdraw retract rescind undo reverse disable deactivate detach
		disconnect unset unassign unsubscribe unfollow unpin unlock uninstall unmute unpause unarchive
		unstar unwatch unschedule unlink unblock dismiss clear close leave exit`)
	searchDoWords = wordSet(`add create insert make new start begin launch enable activate attach
		connect set assign subscribe follow pin lock install mute pause archive star watch schedule
		link block open join enter apply approve`)
	// searchListWords are the verbs of tools that list.
	searchListWords = wordSet(`list search find browse enumerate show query`)
	// searchChangeWords are the verbs of tools that change something, which
	// a question ("how much is in the account") does not ask for.
	searchChangeWords = wordSet(`add create insert make new update edit modify change patch set put
		write save store delete remove drop erase destroy purge discard send post publish upload move
		rename copy merge replace refund cancel archive unarchive invite assign unassign
		deploy install uninstall enable disable mute unmute pause unpause resume restore
		revoke approve reject submit schedule unschedule reply comment mark reset restart rerun
		upsert attach detach lock unlock pin unpin follow unfollow subscribe unsubscribe star unstar
		link unlink block unblock clear fork transfer grant run execute trigger launch kill`)
	// searchAsksChangeWords ask for a change in a query, though a tool
	// named for them may only look (start a trace, open a page), or though
	// tools do not name themselves so (keep, remember, note).
	searchAsksChangeWords = wordSet(`start stop open close keep remember record jot note file`)
	// searchWriteWords ask for text to be written: a colon after a short
	// request with one of them starts the text (searchContentStart).
	searchWriteWords = wordSet(`file report open create raise log submit write send post reply comment
		say tell message note type add draft email text ask answer`)
	// searchReadWords are the verbs of tools that read.
	searchReadWords = wordSet(`get list search find read retrieve fetch describe show view query count
		check inspect lookup browse explain analyze`)
	// searchManyWords say that a query is about more than one thing, though
	// no noun of it is a plural ("each page", "list everyone").
	searchManyWords = wordSet(`each every all multiple several many batch bulk both these those them
		some everyone everybody everything list`)
	// searchQuestionWords start a question.
	searchQuestionWords = wordSet(`how what what's whats which who who's whose whom when where
		where's why is are was were does did can could any`)
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(s) {
		m[w] = true
	}
	return m
}

// searchNegPrefixes reverse the word they start: unmute, disconnect,
// deactivate.
var searchNegPrefixes = []string{"un", "dis", "de"}

// siblingInfo is what a tool's name says about direction and listing.
type siblingInfo struct {
	sibling  int32           // a tool of the same server that does the reverse, or -1
	plural   int32           // the same tool for more than one thing (create_issues for create_issue), or -1
	undo     bool            // this tool is the one that takes away
	list     bool            // its name has a verb of listing
	surfaces []string        // its name's words as written (lower case)
	changes  bool            // its name has a verb of change
	reads    bool            // its name has a verb of reading and none of change
	to, from map[string]bool // what its description says it gives and starts from
}

// findSiblings fills in ix.intent from the tools' names.
func (ix *Index) findSiblings(names [][]string) {
	ix.intent = make([]siblingInfo, len(ix.docs))
	byServer := map[int32][]int{}
	for i := range ix.docs {
		ix.intent[i] = siblingInfo{sibling: -1, plural: -1, surfaces: names[i]}
		byServer[ix.docs[i].server] = append(byServer[ix.docs[i].server], i)
		for _, w := range names[i] {
			if searchListWords[w] {
				ix.intent[i].list = true
			}
			if searchChangeWords[w] {
				ix.intent[i].changes = true
			}
			if searchReadWords[w] {
				ix.intent[i].reads = true
			}
		}
		ix.intent[i].reads = ix.intent[i].reads && !ix.intent[i].changes
	}
	for _, docs := range byServer {
		// Singular and plural siblings: one name with a word in the plural
		// (create_issue, create_issues).
		byKey := map[string][]int{}
		for _, d := range docs {
			k := singularKey(names[d])
			byKey[k] = append(byKey[k], d)
		}
		for _, ds := range byKey {
			if len(ds) != 2 {
				continue
			}
			// The longer name has the plural; equal lengths are no pair.
			a, b := ds[0], ds[1]
			la, lb := len(strings.Join(names[a], "")), len(strings.Join(names[b], ""))
			if la > lb {
				a, b, la, lb = b, a, lb, la
			}
			if la < lb {
				ix.intent[a].plural = int32(b)
			}
		}
		// A name's key: its words with the direction marker taken out. Two
		// tools with one key, one that undoes and one that does not, are
		// siblings.
		type entry struct {
			doc  int
			undo bool
		}
		keys := map[string][]entry{}
		for _, d := range docs {
			for _, v := range directionVariants(names[d]) {
				keys[v.key] = append(keys[v.key], entry{d, v.undo})
			}
		}
		for _, es := range keys {
			if len(es) != 2 || es[0].undo == es[1].undo || es[0].doc == es[1].doc {
				continue
			}
			for k, e := range es {
				o := es[1-k]
				if ix.intent[e.doc].sibling < 0 {
					ix.intent[e.doc].sibling = int32(o.doc)
					ix.intent[e.doc].undo = e.undo
				}
			}
		}
	}
}

// singularKey is a tool name's words with their plurals made singular
// ("issues" -> "issue", "entries" -> "entry"), which a tool for one thing and
// its sibling for more than one share.
func singularKey(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = strings.TrimSuffix(w, "s")
			if base, ok := strings.CutSuffix(w, "ie"); ok {
				w = base + "y"
			}
		}
		out[i] = w
	}
	return strings.Join(out, " ")
}

type directionVariant struct {
	key  string
	undo bool
}

// directionVariants returns the ways a name's words may carry a direction:
// a verb of doing or undoing taken out ("stop_port_forward" ->
// "port forward", undo), or a prefix ("unmute_host" -> "mute host", undo;
// "mute_host" -> "mute host", not).
func directionVariants(words []string) []directionVariant {
	var out []directionVariant
	for i, w := range words {
		rest := strings.Join(append(append([]string{}, words[:i]...), words[i+1:]...), " ")
		switch {
		case searchUndoWords[w]:
			out = append(out, directionVariant{"-" + rest, true})
		case searchDoWords[w]:
			out = append(out, directionVariant{"-" + rest, false})
		}
		for _, p := range searchNegPrefixes {
			if base, ok := strings.CutPrefix(w, p); ok && len(base) >= 3 {
				ws := append(append(append([]string{}, words[:i]...), base), words[i+1:]...)
				out = append(out, directionVariant{"+" + strings.Join(ws, " "), true})
			}
		}
	}
	out = append(out, directionVariant{"+" + strings.Join(words, " "), false})
	return out
}

// queryDirection says whether the query asks to undo (-1), to do (+1), or
// neither (0): by its first word or expression that says either ("stop
// muting" undoes), through the word itself, a prefix that reverses it, or
// the lexicon's synonyms of its most frequent sense ("get rid of" is
// "remove").
func queryDirection(all []searchToken) int {
	lx := theLexicon()
	cue := func(w string) int {
		base := w
		if i, ok := lx.baseForm(w); ok {
			base = lx.wordStrs[i]
		}
		switch {
		case searchUndoWords[w] || searchUndoWords[base]:
			return -1
		case searchDoWords[w] || searchDoWords[base]:
			return 1
		}
		for _, p := range searchNegPrefixes {
			if rest, ok := strings.CutPrefix(base, p); ok && len(rest) >= 3 && searchDoWords[rest] {
				return -1
			}
		}
		if i, ok := lx.baseForm(w); ok {
			for _, r := range lx.related(i, senseFilter{}) {
				if r.weight < 1 || r.gloss {
					break
				}
				if searchUndoWords[r.word] {
					return -1
				}
			}
		}
		return 0
	}
	for i, t := range all {
		if l, n := lx.phraseAt(all, i, nil); n > 0 {
			if d := cue(l); d != 0 {
				return d
			}
		}
		if !isSearchStopWord(t.surface) {
			if d := cue(t.surface); d != 0 {
				return d
			}
		}
	}
	return 0
}

// intentBonuses adjusts scores by what the query's form says: a tool whose
// name holds the verb a request starts with, or a synonym, gains a share
// (searchRequestVerbs); the sibling its direction points to takes the
// higher of the two siblings' scores; a query about one thing puts a tool
// for one above its sibling for several (create_issue, create_issues) when
// the two score close; tools whose name
// has the plural it uses gain; tools that give what it wants or start from
// what it has gain, and outrank their server's tools that go the other way
// (orderByRole); a question that asks for no change
// weighs tools that change less, and a request for a change tools that
// only read; and a query of nouns only that names a plural ("stripe
// invoices") favours the tools that list.
func (ix *Index) intentBonuses(q *parsedQuery, scores []float64) {
	p := &ix.params
	// A tool named for the request's verb does what it asks.
	if len(q.verbs) > 0 && p.verb > 0 {
		for i := range ix.docs {
			if scores[i] > 0 && slices.ContainsFunc(ix.docs[i].coverStems, inSet(q.verbs)) {
				scores[i] *= 1 + p.verb
			}
		}
	}
	if q.direction != 0 {
		// The sibling pointed to takes the other's score when that is
		// higher, and the other its own: the cue says which of the two,
		// not how well they fit.
		for i := range ix.docs {
			in := &ix.intent[i]
			o := in.sibling
			if o < 0 || scores[i] <= 0 || scores[o] <= 0 || in.undo != (q.direction < 0) || scores[i] >= scores[o] {
				continue
			}
			scores[i], scores[o] = scores[o], scores[i]
		}
	}
	if len(q.plurals) == 0 && !q.many && p.singular > 0 {
		// A query about one thing: of a tool for one and its sibling for
		// more than one, scored close, the one for one comes first.
		for i := range ix.docs {
			o := ix.intent[i].plural
			if o >= 0 && scores[i] > 0 && scores[o] > scores[i] && scores[i] >= p.singular*scores[o] {
				scores[i], scores[o] = scores[o], scores[i]
			}
		}
	}
	if len(q.plurals) > 0 && p.plural > 0 {
		for i := range ix.docs {
			if scores[i] > 0 && slices.ContainsFunc(ix.intent[i].surfaces, inSet(q.plurals)) {
				scores[i] += p.plural
			}
		}
	}
	if p.role > 0 && (len(q.to) > 0 || len(q.from) > 0) {
		for i := range ix.docs {
			in := &ix.intent[i]
			if scores[i] <= 0 || (in.to == nil && in.from == nil) {
				continue
			}
			if overlaps(q.to, in.to) || overlaps(q.from, in.from) {
				scores[i] += p.role
			}
			if overlaps(q.to, in.from) || overlaps(q.from, in.to) {
				scores[i] -= min(p.role, scores[i]/2)
			}
		}
		ix.orderByRole(q, scores)
	}
	if q.asks() && p.ask > 0 {
		for i := range ix.docs {
			if ix.intent[i].changes {
				scores[i] *= 1 - p.ask
			}
		}
	}
	if q.changes && !q.question && p.tell > 0 {
		for i := range ix.docs {
			if ix.intent[i].reads {
				scores[i] *= 1 - p.tell
			}
		}
	}
	if q.listing && p.list > 0 {
		for i := range ix.docs {
			if scores[i] > 0 && ix.intent[i].list {
				scores[i] += p.list
			}
		}
	}
}

// inSet returns a test of membership in set.
func inSet(set map[string]bool) func(string) bool {
	return func(w string) bool { return set[w] }
}

func overlaps(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// parsedQuery is what intentBonuses needs to know of a query.
type parsedQuery struct {
	to, from  map[string]bool // what the query wants and starts from, with their related words
	place     map[string]bool // the stems of words that say where (after "from", "in", ...), as written
	direction int
	plurals   map[string]bool // the query's plural nouns, as written
	listing   bool            // nouns only (besides server names), one of them plural
	changes   bool            // a verb of change
	question  bool            // it starts as a question does
	many      bool            // a word of more than one (searchManyWords)
	own       []string        // the stems of the query as written (before idioms rewrite it), each once
	verbs     map[string]bool // the verb a request starts with, and its synonyms (searchRequestVerbs)
}

// asks reports whether the query is a question that asks for no change.
func (q *parsedQuery) asks() bool { return q.question && !q.changes }

// parseIntent reads the query's direction, plurals and whether it asks for
// a list; serverStem reports the stems that name a server, which are
// neither verbs nor nouns of the task.
func parseIntent(all []searchToken, serverStem func(string) bool) *parsedQuery {
	lx := theLexicon()
	q := &parsedQuery{direction: queryDirection(all), plurals: map[string]bool{}}
	verb := false
	for k, t := range all {
		w := t.surface
		if searchManyWords[w] {
			q.many = true
		}
		if (searchChangeWords[w] || searchAsksChangeWords[w]) && !searchAfterDid(all, k) && !searchAsNoun(all, k) {
			q.changes = true
		}
		if isSearchStopWord(w) || serverStem(t.stem) {
			continue
		}
		i, ok := lx.lookup(w)
		if !ok {
			// Not a dictionary word as written: maybe a plural.
			if b, okb := lx.baseForm(w); okb && strings.HasSuffix(w, "s") && string(lx.wordAt(b)) != w {
				q.plurals[w] = true
				if lx.dominantPart(b) == 'v' && !lx.hasPart(b, 'n') {
					verb = true
				}
				continue
			}
			if searchDoWords[w] || searchUndoWords[w] || searchListWords[w] {
				verb = true
			}
			continue
		}
		// A plural that is a word of its own too ("boards", "channels").
		if one, ok := lx.lookup(strings.TrimSuffix(w, "s")); ok && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && lx.hasPart(one, 'n') {
			q.plurals[w] = true
		}
		if lx.dominantPart(i) == 'v' || searchDoWords[w] || searchUndoWords[w] || searchListWords[w] {
			verb = true
		}
	}
	q.listing = !verb && len(q.plurals) > 0
	return q
}

// hasPart reports whether word line i has a sense of part of speech pos
// ('n', 'v', ...) among its kept senses.
func (lx *lexicon) hasPart(i int, pos byte) bool {
	has := false
	lx.eachSense(i, func(s lexSense) {
		if !s.math && lx.partOfSpeech(s.synset) == pos {
			has = true
		}
	})
	return has
}

// dominantPart returns the part of speech of word line i's heaviest sense.
func (lx *lexicon) dominantPart(i int) byte {
	var pos byte
	lx.eachSense(i, func(s lexSense) {
		if pos == 0 && !s.math {
			pos = lx.partOfSpeech(s.synset)
		}
	})
	return pos
}

// searchToWords introduce what an operation gives ("convert an address
// into coordinates"), searchFromWords what it starts from.
var (
	searchToWords   = wordSet("to into as")
	searchFromWords = wordSet("from")
	// searchPlaceWords start words that say where, not what.
	searchPlaceWords = wordSet("from in inside within on at")
)

// roleStems returns the stems of the words that follow a word of marks in
// toks (lower case, stop words kept): up to three, skipping articles, "and"
// and "or", and up to the next other stop word.
func roleStems(toks []searchToken, marks map[string]bool) map[string]bool {
	var out map[string]bool
	for i, t := range toks {
		if !marks[t.surface] {
			continue
		}
		out = roleWords(toks, i+1, 1, len(toks), out)
	}
	return out
}

// roleWords adds to out (made when nil) the stems of up to three words of
// toks from j on, in steps of step (1 or -1) and short of end, skipping
// articles, "and" and "or", up to the next other stop word.
func roleWords(toks []searchToken, j, step, end int, out map[string]bool) map[string]bool {
	for n := 0; j != end && n < 3; j += step {
		w := toks[j].surface
		if w == "and" || w == "or" || w == "a" || w == "an" || w == "the" {
			continue
		}
		if isSearchStopWord(w) {
			break
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[toks[j].stem] = true
		n++
	}
	return out
}

// descriptionRoles returns what a tool's description says it gives and
// starts from, in its first sentence.
func descriptionRoles(desc string) (to, from map[string]bool) {
	if i := strings.IndexAny(desc, ".\n"); i >= 0 {
		desc = desc[:i]
	}
	toks := searchTokenize(desc, true)
	return roleStems(toks, searchToWords), mergeStems(roleStems(toks, searchFromWords), sourceStems(toks))
}

// searchAsNoun reports whether the word at i is a noun by what comes
// before it: an article, a possessive or a preposition (searchNounContext),
// maybe with up to two adjectives between ("the update", "my latest note").
func searchAsNoun(all []searchToken, i int) bool {
	lx := theLexicon()
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		w := all[k].surface
		if searchNounContext[w] {
			return true
		}
		li, ok := lx.baseForm(w)
		if !ok {
			return false
		}
		if p := lx.dominantPart(li); p != 'a' && p != 's' {
			return false
		}
	}
	return false
}

// searchAfterDid reports whether the word at i follows "did" or "didn't"
// within three words ("what did I change", "did anyone delete it"): a change
// that happened, asked about, not one asked for.
func searchAfterDid(all []searchToken, i int) bool {
	for k := max(0, i-3); k < i; k++ {
		if w := all[k].surface; w == "did" || w == "didn't" || w == "didnt" {
			return true
		}
	}
	return false
}

// searchRequestVerbs returns the stems of the verb q starts with, after a
// leading scope ("in discord, read the messages"), and of the words its
// group of groups holds directly with at least searchVerbSynonym of its
// weight ("fetch": get, retrieve, ...); nil when q does not start with a
// verb. A tool whose name holds one does what the request asks.
func searchRequestVerbs(q string, groups [][]termExpansion) map[string]bool {
	q = strings.ToLower(strings.TrimSpace(q))
	toks := searchTokenize(q[searchScopeEnd(q):], false)
	if len(toks) == 0 {
		return nil
	}
	first := toks[0]
	verb := searchDoWords[first.surface] || searchUndoWords[first.surface] || searchListWords[first.surface] ||
		searchReadWords[first.surface] || searchChangeWords[first.surface]
	if !verb {
		lx := theLexicon()
		if li, ok := lx.lookup(first.surface); ok {
			verb = lx.hasPart(li, 'v')
		}
	}
	if !verb {
		return nil
	}
	verbs := map[string]bool{first.stem: true}
	for _, g := range groups {
		if g[0].stem != first.stem {
			continue
		}
		for _, e := range g {
			if e.direct && e.weight >= searchVerbSynonym {
				verbs[e.stem] = true
			}
		}
	}
	return verbs
}

// searchVerbSynonym is the least weight of a word related to a request's
// verb for a tool's name that holds it to do what the request asks.
const searchVerbSynonym = 0.3

// searchAsksQuestion reports whether q starts as a question does ("how
// much", "which", "is there").
func searchAsksQuestion(q string) bool {
	return searchQuestionWords[strings.Trim(searchFirstWord(q), ",.?!")]
}

// searchFirstWord returns q's first word as written, in lower case, with
// any punctuation it carries, after a leading scope ("in trello, which
// boards": "which").
func searchFirstWord(q string) string {
	q = strings.ToLower(strings.TrimSpace(q))
	q = q[searchScopeEnd(q):]
	first, _, _ := strings.Cut(q, " ")
	return first
}

// searchScope is a leading clause that names where a query is to look, not
// what it asks: "in trello, ...", "on our hubspot: ...", "cloudflare: ...".
var searchScope = regexp.MustCompile(`^((in|on|via|using|with|through|from|for)\s+(our\s+|my\s+|the\s+)?[\w.-]+\s*[,:]|[\w.-]+\s*:)\s+`)

// searchScopeEnd returns where q's words start after a leading scope
// (searchScope), or 0.
func searchScopeEnd(q string) int {
	if m := searchScope.FindStringIndex(q); m != nil {
		return m[1]
	}
	return 0
}

// orderByRole ranks, within each server, the tools that go the query's
// way (give what it wants, start from what it has) above those that go the
// other way (geocode and reverse geocode for "an address into
// coordinates"): the two groups' scores are dealt out again, the higher
// ones to the tools that go the query's way, each group in its own order.
func (ix *Index) orderByRole(q *parsedQuery, scores []float64) {
	type group struct{ with, against []int }
	var byServer map[int32]*group
	for i := range ix.docs {
		in := &ix.intent[i]
		if scores[i] <= 0 || (in.to == nil && in.from == nil) {
			continue
		}
		with := overlaps(q.to, in.to) || overlaps(q.from, in.from)
		against := overlaps(q.to, in.from) || overlaps(q.from, in.to)
		if with == against {
			continue
		}
		if byServer == nil {
			byServer = map[int32]*group{}
		}
		g := byServer[ix.docs[i].server]
		if g == nil {
			g = &group{}
			byServer[ix.docs[i].server] = g
		}
		if with {
			g.with = append(g.with, i)
		} else {
			g.against = append(g.against, i)
		}
	}
	for _, g := range byServer {
		if len(g.with) == 0 || len(g.against) == 0 {
			continue
		}
		byScore := func(a, b int) int { return cmp.Compare(scores[b], scores[a]) }
		slices.SortStableFunc(g.with, byScore)
		slices.SortStableFunc(g.against, byScore)
		order := append(append([]int{}, g.with...), g.against...)
		vals := make([]float64, len(order))
		for k, i := range order {
			vals[k] = scores[i]
		}
		slices.SortFunc(vals, func(a, b float64) int { return cmp.Compare(b, a) })
		for k, i := range order {
			scores[i] = vals[k]
		}
	}
}

// sourceStems returns the stems of the words before "into" ("convert
// coordinates into an address" starts from coordinates): up to three,
// skipping articles, "and" and "or", back to the previous other stop word
// or to the first word, the verb, which is left out.
func sourceStems(toks []searchToken) map[string]bool {
	var out map[string]bool
	for i, t := range toks {
		if t.surface != "into" {
			continue
		}
		if i > 0 {
			out = roleWords(toks, i-1, -1, 0, out)
		}
	}
	return out
}

// mergeStems returns the union of a and b (nil when both are empty).
func mergeStems(a, b map[string]bool) map[string]bool {
	if len(b) == 0 {
		return a
	}
	if a == nil {
		a = map[string]bool{}
	}
	for k := range b {
		a[k] = true
	}
	return a
}
