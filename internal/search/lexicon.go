package search

//go:generate go run ./internal/genlexicon -wordnet /usr/share/wordnet -out lexicon.txt.gz

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// lexiconGz is lexicon.txt.gz: the part of WordNet 3.0 that search uses,
// written by internal/genlexicon (see there for what is kept), under
// WordNet's licence (at the head of the text; see also NOTICE).
//
// The text, after its "#" comment lines, has a line and three sections:
//
//	parts a A n N r R v V
//	                 the synsets are A adjectives, then N nouns, R adverbs
//	                 and V verbs
//	synsets N        N lines, line i for synset i:
//	                 LEMMAS|GLOSS|LINKS
//	forms N          N lines: INFLECTED BASE ("ran run")
//	words N          N lines, sorted: WORD COUNT SENSE... (COUNT is how often
//	                 the word occurs in WordNet's sense-tagged corpus, SENSE
//	                 the synset's number in base 36, then ":W" with a weight 1..8 unless 9,
//	                 or ":m" for an arithmetic sense that is not among the
//	                 word's frequent ones)
//
// LEMMAS are the synset's lemmas that do not list it among their senses (the
// others are the words whose line names it), GLOSS the content words of its
// definition, LINKS its links to other synsets and words: a kind letter (h
// hypernym, a attribute, s the head of a similar adjective, p pertainym, d
// derivationally related form) and a synset number in base 36 or ":" and a
// word. Multi-word lemmas join their words with "_" ("call_off").
//
//go:embed lexicon.txt.gz
var lexiconGz []byte

// lexiconMaxText bounds the decompressed lexicon.
const lexiconMaxText = 64 << 20

// lexicon is the parsed lexiconGz: the text, and where its lines start.
// Lines are parsed when they are read.
type lexicon struct {
	text    []byte
	synsets []uint32          // synset number -> offset of its line
	words   []uint32          // offsets of the word lines, in word order
	forms   map[string]string // irregular inflection -> base form
	// The words that list a synset among their senses: members[memberAt[s]:memberAt[s+1]]
	// are indexes into words.
	memberAt []uint32
	members  []uint32
	wordStrs []string // the words of the word lines, in order
	// The first words of multi-word lemmas, with the most words of one.
	phraseStart map[string]int
	// The first synset of each part of speech after the adjectives:
	// nouns, adverbs, verbs.
	nounsAt, advsAt, verbsAt int
}

// partOfSpeech returns the part of speech of synset s: 'a', 'n', 'r' or 'v'.
func (lx *lexicon) partOfSpeech(s int) byte {
	switch {
	case s >= lx.verbsAt:
		return 'v'
	case s >= lx.advsAt:
		return 'r'
	case s >= lx.nounsAt:
		return 'n'
	}
	return 'a'
}

// lexSense is one sense of a word: a synset number and its weight (0..1, 1
// for the word's most frequent sense), or an arithmetic sense (math) that
// counts only next to numbers.
type lexSense struct {
	synset int
	weight float64
	math   bool
}

var (
	lexiconOnce sync.Once
	lexiconData *lexicon
)

// theLexicon returns the lexicon, parsed on first use. A lexicon that does
// not parse (which TestLexicon rules out) is empty: search then works
// without it.
func theLexicon() *lexicon {
	lexiconOnce.Do(func() {
		lx, err := parseLexicon(lexiconGz)
		if err != nil {
			lx = &lexicon{forms: map[string]string{}, phraseStart: map[string]int{}}
		}
		lexiconData = lx
	})
	return lexiconData
}

// lexiconError is a malformed lexicon.
type lexiconError string

func (e lexiconError) Error() string { return "search lexicon: " + string(e) }

func parseLexicon(gz []byte) (*lexicon, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	text, err := io.ReadAll(io.LimitReader(zr, lexiconMaxText+1))
	if err != nil {
		return nil, err
	}
	if len(text) > lexiconMaxText {
		return nil, lexiconError("too large")
	}
	lx := &lexicon{text: text, forms: map[string]string{}, phraseStart: map[string]int{}}
	pos := 0
	line := func() (int, []byte, bool) {
		if pos >= len(text) {
			return 0, nil, false
		}
		start := pos
		end := bytes.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text) - pos
		}
		pos += end + 1
		return start, text[start : start+end], true
	}
	section := func(name string) (int, error) {
		for {
			_, l, ok := line()
			if !ok {
				return 0, lexiconError("no " + name + " section")
			}
			if len(l) > 0 && l[0] == '#' {
				continue
			}
			rest, ok := bytes.CutPrefix(l, []byte(name+" "))
			if !ok {
				return 0, lexiconError("want the " + name + " section, got " + strconv.Quote(string(l)))
			}
			n, err := strconv.Atoi(string(rest))
			if err != nil || n < 0 || n > len(text) {
				return 0, lexiconError("bad count in " + strconv.Quote(string(l)))
			}
			return n, nil
		}
	}
	var counts [4]int
	for {
		_, l, ok := line()
		if !ok {
			return nil, lexiconError("no parts line")
		}
		if len(l) > 0 && l[0] == '#' {
			continue
		}
		f := bytes.Fields(l)
		if len(f) != 9 || string(f[0]) != "parts" {
			return nil, lexiconError("want the parts line, got " + strconv.Quote(string(l)))
		}
		for k := range counts {
			c, err := strconv.Atoi(string(f[2+2*k]))
			if err != nil || c < 0 {
				return nil, lexiconError("bad parts line " + strconv.Quote(string(l)))
			}
			counts[k] = c
		}
		break
	}
	lx.nounsAt = counts[0]
	lx.advsAt = lx.nounsAt + counts[1]
	lx.verbsAt = lx.advsAt + counts[2]
	n, err := section("synsets")
	if err != nil {
		return nil, err
	}
	if n != lx.verbsAt+counts[3] {
		return nil, lexiconError("the parts do not add up to the synsets")
	}
	lx.synsets = make([]uint32, n)
	for i := range n {
		start, _, ok := line()
		if !ok {
			return nil, lexiconError("synsets cut short")
		}
		lx.synsets[i] = uint32(start)
	}
	if n, err = section("forms"); err != nil {
		return nil, err
	}
	for range n {
		_, l, ok := line()
		if !ok {
			return nil, lexiconError("forms cut short")
		}
		f, b, ok := bytes.Cut(l, []byte(" "))
		if !ok {
			return nil, lexiconError("bad form line " + strconv.Quote(string(l)))
		}
		lx.forms[string(f)] = string(b)
	}
	if n, err = section("words"); err != nil {
		return nil, err
	}
	lx.words = make([]uint32, n)
	count := make([]uint32, len(lx.synsets)+1)
	for i := range n {
		start, l, ok := line()
		if !ok {
			return nil, lexiconError("words cut short")
		}
		lx.words[i] = uint32(start)
		if w := lx.wordAt(i); bytes.IndexByte(w, '_') > 0 {
			first, _, _ := bytes.Cut(w, []byte("_"))
			lx.phraseStart[string(first)] = max(lx.phraseStart[string(first)], bytes.Count(w, []byte("_"))+1)
		}
		if i > 0 && bytes.Compare(lx.wordAt(i-1), lx.wordAt(i)) >= 0 {
			return nil, lexiconError("words out of order at " + strconv.Quote(string(l)))
		}
		var bad bool
		lx.eachSense(i, func(s lexSense) {
			if s.synset < 0 || s.synset >= len(lx.synsets) {
				bad = true
				return
			}
			count[s.synset+1]++
		})
		if bad {
			return nil, lexiconError("bad sense in " + strconv.Quote(string(l)))
		}
	}
	for s := 1; s < len(count); s++ {
		count[s] += count[s-1]
	}
	lx.wordStrs = make([]string, len(lx.words))
	for i := range lx.words {
		lx.wordStrs[i] = string(lx.wordAt(i))
	}
	lx.memberAt = count
	lx.members = make([]uint32, count[len(count)-1])
	fill := make([]uint32, len(lx.synsets))
	for i := range lx.words {
		lx.eachSense(i, func(s lexSense) {
			lx.members[count[s.synset]+fill[s.synset]] = uint32(i)
			fill[s.synset]++
		})
	}
	return lx, nil
}

// lineAt returns the line that starts at off, without its newline.
func (lx *lexicon) lineAt(off uint32) []byte {
	l := lx.text[off:]
	if i := bytes.IndexByte(l, '\n'); i >= 0 {
		l = l[:i]
	}
	return l
}

// wordAt returns the word of word line i.
func (lx *lexicon) wordAt(i int) []byte {
	l := lx.lineAt(lx.words[i])
	if j := bytes.IndexByte(l, ' '); j >= 0 {
		l = l[:j]
	}
	return l
}

// lookup returns the index of w's word line.
func (lx *lexicon) lookup(w string) (int, bool) {
	i := sort.SearchStrings(lx.wordStrs, w)
	if i < len(lx.wordStrs) && lx.wordStrs[i] == w {
		return i, true
	}
	return 0, false
}

// count returns how often word line i's word occurs in WordNet's
// sense-tagged corpus.
func (lx *lexicon) count(i int) int {
	k := 0
	for f := range bytes.FieldsSeq(lx.lineAt(lx.words[i])) {
		if k == 1 {
			n, err := strconv.Atoi(string(f))
			if err != nil || n < 0 {
				return 0
			}
			return n
		}
		k++
	}
	return 0
}

// eachSense calls fn for every sense on word line i, heaviest first.
func (lx *lexicon) eachSense(i int, fn func(lexSense)) {
	k := 0
	for f := range bytes.FieldsSeq(lx.lineAt(lx.words[i])) {
		if k++; k <= 2 { // the word and its count
			continue
		}
		num, w, hasW := bytes.Cut(f, []byte(":"))
		s, err := strconv.ParseInt(string(num), 36, 32)
		if err != nil {
			fn(lexSense{synset: -1})
			continue
		}
		if hasW && string(w) == "m" {
			fn(lexSense{synset: int(s), weight: 1, math: true})
			continue
		}
		weight := 9
		if hasW {
			if weight, err = strconv.Atoi(string(w)); err != nil || weight < 1 || weight > 9 {
				fn(lexSense{synset: -1})
				continue
			}
		}
		fn(lexSense{synset: int(s), weight: float64(weight) / 9})
	}
}

// synsetFields returns the three fields of synset s's line.
func (lx *lexicon) synsetFields(s int) (lemmas, gloss, links []byte) {
	l := lx.lineAt(lx.synsets[s])
	lemmas, rest, _ := bytes.Cut(l, []byte("|"))
	gloss, links, _ = bytes.Cut(rest, []byte("|"))
	return lemmas, gloss, links
}

// eachLemma calls fn for every lemma of synset s.
func (lx *lexicon) eachLemma(s int, fn func(string)) {
	lemmas, _, _ := lx.synsetFields(s)
	for f := range bytes.FieldsSeq(lemmas) {
		fn(string(f))
	}
	for _, w := range lx.members[lx.memberAt[s]:lx.memberAt[s+1]] {
		fn(lx.wordStrs[w])
	}
}

// eachGlossWord calls fn for every content word of synset s's definition.
func (lx *lexicon) eachGlossWord(s int, fn func(string)) {
	_, gloss, _ := lx.synsetFields(s)
	for f := range bytes.FieldsSeq(gloss) {
		fn(string(f))
	}
}

// eachLink calls fn for every link of synset s: its kind letter and either
// its target synset (word "") or word.
func (lx *lexicon) eachLink(s int, fn func(kind byte, target int, word string)) {
	_, _, links := lx.synsetFields(s)
	for f := range bytes.FieldsSeq(links) {
		if len(f) < 2 {
			continue
		}
		if f[1] == ':' {
			fn(f[0], -1, string(f[2:]))
			continue
		}
		t, err := strconv.ParseInt(string(f[1:]), 36, 32)
		if err != nil || t < 0 || int(t) >= len(lx.synsets) {
			continue
		}
		fn(f[0], int(t), "")
	}
}

// baseForm returns the lexicon's word for w: w itself, its irregular base
// ("ran" -> "run"), or the first of its regular base forms ("folders" ->
// "folder", see searchBaseForms) that the lexicon has.
func (lx *lexicon) baseForm(w string) (int, bool) {
	if i, ok := lx.lookup(w); ok {
		return i, true
	}
	if b, ok := lx.forms[w]; ok {
		if i, ok := lx.lookup(b); ok {
			return i, true
		}
	}
	for _, b := range searchBaseForms(w)[1:] {
		if i, ok := lx.lookup(b); ok {
			return i, true
		}
	}
	return 0, false
}

// lexTerm is a word related to another through the lexicon, with how
// strongly (0..1) and whether through a definition (gloss) rather than a
// synonym or a link.
type lexTerm struct {
	word   string
	weight float64
	gloss  bool
}

// Weights of the ways a word relates to another, before the weight of the
// sense they go through.
const (
	lexSynonymWeight = 1.0 // a lemma of one of the word's senses
	lexLinkWeight    = 0.7 // a lemma of a synset one of its senses links to
	lexGlossWeight   = 1.0 // a content word of the definition of one of its senses
)

// related returns the words related to word line i, each once with its
// highest weight, heaviest first (then in alphabetical order): the lemmas
// of its senses, the lemmas of the synsets they link to, and the content
// words of their definitions. The word itself is left out. Only the senses
// that pass f count.
func (lx *lexicon) related(i int, f senseFilter) []lexTerm {
	self := string(lx.wordAt(i))
	best := map[string]lexTerm{}
	add := func(w string, weight float64, gloss bool) {
		if w == self {
			return
		}
		old, ok := best[w]
		if !ok || weight > old.weight || weight == old.weight && old.gloss && !gloss {
			best[w] = lexTerm{word: w, weight: weight, gloss: gloss}
		}
	}
	keep := lx.senseKeeper(i, f)
	lx.eachSense(i, func(s lexSense) {
		if !keep(s) {
			return
		}
		lx.eachLemma(s.synset, func(w string) { add(w, s.weight*lexSynonymWeight, false) })
		lx.eachLink(s.synset, func(_ byte, t int, word string) {
			if word != "" {
				add(word, s.weight*lexLinkWeight, false)
				return
			}
			lx.eachLemma(t, func(w string) { add(w, s.weight*lexLinkWeight, false) })
		})
		lx.eachGlossWord(s.synset, func(w string) { add(w, s.weight*lexGlossWeight, true) })
	})
	out := make([]lexTerm, 0, len(best))
	for _, t := range best {
		out = append(out, t)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].weight != out[b].weight {
			return out[a].weight > out[b].weight
		}
		return out[a].word < out[b].word
	})
	return out
}

// senseFilter says which senses of a word count: arithmetic ones only when
// math is set, and then only those if the word has any; when parts names parts of speech ("v", "na") and the word
// has a sense of one of them, only those.
type senseFilter struct {
	math  bool
	parts string
}

// senseKeeper returns whether a sense of word line i passes f.
func (lx *lexicon) senseKeeper(i int, f senseFilter) func(lexSense) bool {
	if f.math {
		// Next to numbers, a word's arithmetic senses are the ones meant.
		found := false
		lx.eachSense(i, func(s lexSense) { found = found || s.math })
		if found {
			return func(s lexSense) bool { return s.math }
		}
	}
	parts := f.parts
	if parts != "" {
		found := false
		lx.eachSense(i, func(s lexSense) {
			found = found || !s.math && strings.IndexByte(parts, lx.partOfSpeech(s.synset)) >= 0
		})
		if !found {
			parts = ""
		}
	}
	return func(s lexSense) bool {
		if s.math && !f.math {
			return false
		}
		return parts == "" || strings.IndexByte(parts, lx.partOfSpeech(s.synset)) >= 0
	}
}
