// Command genlexicon writes internal/search/lexicon.txt.gz: the part of
// WordNet 3.0 (Debian's wordnet-base, files under /usr/share/wordnet) that
// tool search uses to relate words that are not spelled alike. It reads
// nothing but WordNet: the table covers the dictionary's common vocabulary,
// not the words of some tool catalogs, so a server nobody has seen is
// covered as well as any.
//
// Run through go generate in package search:
//
//	apt-get install wordnet-base
//	go generate ./internal/search
//
// The output is gzip-compressed text (see package search's lexicon.go for
// the format), committed, so building the project needs no WordNet. Its
// size is held under -budget bytes: the generator fails rather than write a
// larger file.
//
// What is kept, for every lemma (single words, numbers and multi-word
// expressions such as "call off" or "sea level"):
//
//   - how often it occurs in WordNet's sense-tagged corpus (cntlist.rev,
//     all senses together), which says how common a word it is;
//   - its senses that occur in that corpus, each weighed by its share of
//     the lemma's tagged occurrences, leaving out senses with less than a
//     tenth of the most frequent one's count, at most -senses per part of
//     speech; a part of speech with no tagged sense contributes its first
//     sense (weighed low when another part of speech has tagged ones);
//     multi-word nouns and adjectives that never occur in the tagged
//     corpus are left out, as are proper names (instances) and the senses
//     filed under animals and plants;
//   - for each kept sense (synset): its lemmas, the content words of its
//     definition (not its quoted examples), and its links to other synsets:
//     hypernyms, attributes (tall -> height), the head of a similar
//     adjective, pertainyms (monthly -> month) and derivations
//     (convert -> conversion), whose lemmas are kept too;
//   - the senses of arithmetic ("plus": addition), which a reader takes
//     only next to numbers;
//   - the irregular inflections of the kept lemmas ("ran" -> "run").
//
// The same WordNet files give the same bytes (gzip without a name or a
// time), so make check-generated can compare them.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	wnDir := flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 dict directory (index.*, data.* and cntlist.rev)")
	out := flag.String("out", "lexicon.txt.gz", "output file")
	senses := flag.Int("senses", 3, "most senses kept per lemma and part of speech")
	glossWords := flag.Int("gloss", 12, "most content words kept of a definition")
	budget := flag.Int("budget", 2_000_000, "largest output size in bytes")
	flag.Parse()

	wn, err := loadWordNet(*wnDir)
	if err != nil {
		log.Fatal(err)
	}
	lx := wn.choose(*senses)
	licence, err := wordnetLicence(filepath.Join(*wnDir, "data.noun"))
	if err != nil {
		log.Fatal(err)
	}
	text := lx.render(wn, licence, *glossWords)
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := zw.Write(text); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if gz.Len() > *budget {
		log.Fatalf("lexicon is %d bytes compressed, over the budget of %d", gz.Len(), *budget)
	}
	if err := os.WriteFile(*out, gz.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d words, %d synsets, %d bytes of text, %d compressed -> %s",
		len(lx.words), len(lx.order), len(text), gz.Len(), *out)
}

// WordNet's parts of speech: the data and index files' suffix and its letter.
var parts = []struct{ file, letter string }{
	{"noun", "n"}, {"verb", "v"}, {"adj", "a"}, {"adv", "r"},
}

type synset struct {
	key       string   // "n:00001740"
	lexFile   int      // lexicographer file number
	lemmas    []string // lower case, "_" between the words of an expression
	gloss     string   // definition and examples
	ptrs      []pointer
	instance  bool // a proper name: an instance of its hypernym
	satellite bool // an adjective satellite, whose "similar" link names its head
}

type pointer struct {
	symbol string // "@", "=", "&", "\\", "+", ";c", ...
	target string // synset key
	word   int    // a lexical pointer's target word (from 1), or 0
}

type wordnet struct {
	forms   map[string]string // irregular inflection -> its base form ("ran" -> "run")
	synsets map[string]*synset
	index   map[string][]string // "n:lemma" -> synset keys in WordNet's sense order
	counts  map[string]int      // "n:lemma:sense" -> tagged count (sense from 1)
}

func loadWordNet(dir string) (*wordnet, error) {
	wn := &wordnet{forms: map[string]string{}, synsets: map[string]*synset{}, index: map[string][]string{}, counts: map[string]int{}}
	for _, p := range parts {
		if err := eachLine(filepath.Join(dir, "index."+p.file), func(line string) error {
			// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
			f := strings.Fields(line)
			if len(f) < 4 {
				return fmt.Errorf("short line %q", line)
			}
			pcnt, err := strconv.Atoi(f[3])
			if err != nil || len(f) < 6+pcnt {
				return fmt.Errorf("bad line %q", line)
			}
			for _, off := range f[6+pcnt:] {
				wn.index[p.letter+":"+f[0]] = append(wn.index[p.letter+":"+f[0]], p.letter+":"+off)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		// Irregular inflections: "inflected base [base...]"; the first base
		// of the first file that lists a form wins.
		if err := eachLine(filepath.Join(dir, p.file+".exc"), func(line string) error {
			f := strings.Fields(line)
			if len(f) < 2 {
				return fmt.Errorf("bad line %q", line)
			}
			if _, ok := wn.forms[f[0]]; !ok && f[0] != f[1] {
				wn.forms[f[0]] = f[1]
			}
			return nil
		}); err != nil {
			return nil, err
		}
		if err := eachLine(filepath.Join(dir, "data."+p.file), func(line string) error {
			s, err := parseSynset(p.letter, line)
			if err != nil {
				return err
			}
			wn.synsets[s.key] = s
			return nil
		}); err != nil {
			return nil, err
		}
	}
	// cntlist.rev: sense_key sense_number tag_cnt, the key being
	// lemma%ss_type:lex_filenum:lex_id:head_word:head_id.
	if err := eachLine(filepath.Join(dir, "cntlist.rev"), func(line string) error {
		f := strings.Fields(line)
		if len(f) != 3 {
			return fmt.Errorf("bad line %q", line)
		}
		lemma, rest, ok := strings.Cut(f[0], "%")
		if !ok || rest == "" {
			return fmt.Errorf("bad sense key %q", f[0])
		}
		pos := map[byte]string{'1': "n", '2': "v", '3': "a", '4': "r", '5': "a"}[rest[0]]
		n, err1 := strconv.Atoi(f[2])
		if pos == "" || err1 != nil {
			return fmt.Errorf("bad line %q", line)
		}
		wn.counts[pos+":"+lemma+":"+f[1]] += n
		return nil
	}); err != nil {
		return nil, err
	}
	return wn, nil
}

// parseSynset reads one line of a data file:
// offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] [frames...] | gloss
func parseSynset(pos, line string) (*synset, error) {
	head, gloss, _ := strings.Cut(line, " | ")
	f := strings.Fields(head)
	if len(f) < 5 {
		return nil, fmt.Errorf("short synset line %q", line)
	}
	lex, err := strconv.Atoi(f[1])
	if err != nil {
		return nil, fmt.Errorf("bad synset line %q", line)
	}
	wcnt, err := strconv.ParseInt(f[3], 16, 32)
	if err != nil || len(f) < 5+2*int(wcnt) {
		return nil, fmt.Errorf("bad synset line %q", line)
	}
	s := &synset{key: pos + ":" + f[0], lexFile: lex, gloss: strings.TrimSpace(gloss), satellite: f[2] == "s"}
	for i := range int(wcnt) {
		w := strings.ToLower(f[4+2*i])
		if j := strings.IndexByte(w, '('); j >= 0 { // adjective markers: "(a)", "(p)"
			w = w[:j]
		}
		s.lemmas = append(s.lemmas, w)
	}
	rest := f[4+2*int(wcnt):]
	pcnt, err := strconv.Atoi(rest[0])
	if err != nil || len(rest) < 1+4*pcnt {
		return nil, fmt.Errorf("bad pointers in %q", line)
	}
	for i := range pcnt {
		sym, off, p := rest[1+4*i], rest[2+4*i], rest[3+4*i]
		if p == "s" {
			p = "a"
		}
		if sym == "@i" {
			s.instance = true
		}
		word, err := strconv.ParseInt(rest[4+4*i], 16, 32)
		if err != nil {
			return nil, fmt.Errorf("bad pointer in %q", line)
		}
		s.ptrs = append(s.ptrs, pointer{symbol: sym, target: p + ":" + off, word: int(word & 0xff)})
	}
	return s, nil
}

func eachLine(path string, fn func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "  ") || strings.TrimSpace(line) == "" { // licence header
			continue
		}
		if err := fn(line); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// Lexicographer files left out: noun.animal and noun.plant (the taxonomy of
// living things, which no tool is about).
var skipLexFile = map[int]bool{5: true, 20: true}

// sense is one kept sense of a word: its synset and weight (1..9, 9 for the
// word's most frequent sense; mathSense for a sense kept for its subject).
type sense struct {
	key    string
	weight int
}

// mathSense is the weight of an arithmetic sense that is not among a
// word's frequent ones ("plus" as in addition), written ":m": a reader uses
// it when numbers are about.
const mathSense = -1

type lexicon struct {
	words map[string][]sense // lemma -> kept senses, heaviest first
	count map[string]int     // lemma -> its tagged occurrences, all senses
	order []string           // kept synset keys, in output order
	full  map[string]bool    // synsets whose gloss and links are written (the others: lemmas only)
}

func (wn *wordnet) choose(maxSenses int) *lexicon {
	lx := &lexicon{words: map[string][]sense{}, count: map[string]int{}, full: map[string]bool{}}
	lemmas := map[string]bool{}
	for k := range wn.index {
		lemmas[k[2:]] = true
	}
	for lemma := range lemmas {
		if !plainLemma(lemma) {
			continue
		}
		// Tagged counts of every sense of every part of speech.
		type cand struct {
			key   string
			count int
			pos   string
			rank  int
		}
		var cands []cand
		maxCount := 0
		for _, p := range parts {
			for i, key := range wn.index[p.letter+":"+lemma] {
				c := wn.counts[p.letter+":"+lemma+":"+strconv.Itoa(i+1)]
				cands = append(cands, cand{key, c, p.letter, i})
				maxCount = max(maxCount, c)
			}
		}
		multi := strings.Contains(lemma, "_")
		var kept []sense
		for _, p := range parts {
			posTagged := false
			for _, c := range cands {
				if c.pos == p.letter && c.count > 0 {
					posTagged = true
				}
			}
			n := 0
			for _, c := range cands {
				if c.pos != p.letter || n >= maxSenses {
					continue
				}
				s := wn.synsets[c.key]
				if s == nil || s.instance || skipLexFile[s.lexFile] {
					continue
				}
				switch {
				case posTagged:
					if 10*c.count < maxCount || c.count == 0 {
						continue
					}
					kept = append(kept, sense{c.key, max(1, (9*c.count+maxCount-1)/maxCount)})
				case c.rank == 0 && (!multi || p.letter == "v" || p.letter == "r"):
					// An untagged part of speech: its first sense, weighed
					// low when another part of speech is tagged.
					w := 9
					if maxCount > 0 {
						w = 2
					}
					kept = append(kept, sense{c.key, w})
				default:
					continue
				}
				n++
			}
		}
		if len(kept) == 0 {
			continue
		}
		sort.SliceStable(kept, func(i, j int) bool { return kept[i].weight > kept[j].weight })
		lx.words[lemma] = kept
		for _, c := range cands {
			lx.count[lemma] += c.count
		}
		for _, s := range kept {
			lx.full[s.key] = true
		}
	}
	// Arithmetic senses: "plus" is an asset first, but an addition next to
	// numbers.
	for _, key := range sortedKeys(wn.mathSynsets()) {
		s := wn.synsets[key]
		for _, l := range s.lemmas {
			if !plainLemma(l) || lx.hasSense(l, key) {
				continue
			}
			lx.words[l] = append(lx.words[l], sense{key, mathSense})
			lx.full[key] = true
		}
	}
	// Linked synsets are written too, for their lemmas.
	keys := map[string]bool{}
	for k := range lx.full {
		keys[k] = true
		s := wn.synsets[k]
		for _, p := range s.ptrs {
			if kind := linkKind(s, p.symbol); kind != 0 && p.word == 0 {
				keys[p.target] = true
			}
		}
	}
	for k := range keys {
		lx.order = append(lx.order, k)
	}
	sort.Strings(lx.order)
	return lx
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (lx *lexicon) hasSense(word, key string) bool {
	for _, s := range lx.words[word] {
		if s.key == key {
			return true
		}
	}
	return false
}

// mathSynsets returns the synsets of arithmetic: those whose topic is
// mathematics or arithmetic, and the kinds of arithmetic operation.
func (wn *wordnet) mathSynsets() map[string]bool {
	topics := map[string]bool{}
	for key, s := range wn.synsets {
		for _, l := range s.lemmas {
			if l == "mathematics" || l == "arithmetic" || l == "arithmetic_operation" {
				topics[key] = true
			}
		}
	}
	out := map[string]bool{}
	for key, s := range wn.synsets {
		for _, p := range s.ptrs {
			if p.symbol == ";c" && topics[p.target] {
				out[key] = true
			}
		}
		// A kind of arithmetic operation, up to three levels down.
		for h, depth := s, 0; h != nil && depth < 3; depth++ {
			next := (*synset)(nil)
			for _, p := range h.ptrs {
				if p.symbol == "@" {
					if topics[p.target] && wn.synsets[p.target].lemmas[0] == "arithmetic_operation" {
						out[key] = true
					}
					next = wn.synsets[p.target]
					break
				}
			}
			h = next
		}
	}
	return out
}

// linkKind is the letter a kept link between synsets is written with, or 0.
func linkKind(from *synset, symbol string) byte {
	switch symbol {
	case "@", "@i":
		return 'h' // hypernym
	case "=":
		return 'a' // attribute: an adjective and the noun it values
	case "&":
		if from.satellite {
			return 's' // similar: an adjective satellite's head
		}
	case "\\":
		return 'p' // pertainym: an adjective or adverb and what it pertains to
	case "+":
		return 'd' // derivationally related form
	}
	return 0
}

// plainLemma reports lemmas made of lower-case letters and digits, in words
// joined by "_" or "-", of which at least one has a letter or all are digits.
func plainLemma(l string) bool {
	if l == "" || len(l) > 40 {
		return false
	}
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == '_' || r == '-' }) {
		for _, r := range w {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return !strings.HasPrefix(l, "_") && !strings.HasSuffix(l, "_") && !strings.Contains(l, "__")
}

// glossStop are words of definitions that say nothing about the sense.
var glossStop = map[string]bool{}

func init() {
	for w := range strings.FieldsSeq(`a about above after again against all also am an and any are as at be because been
		before being below between both but by can could did do does doing down during each either etc few for from
		further had has have having he her here hers him his how if in into is it its itself just may might more most
		much must my neither no nor not of off on once one ones only or other others our out over own same several she
		should so some something someone somebody such than that the their them themselves then there these they this
		those through to too under until up upon very was we were what when where which while who whom whose why will
		with within without would you your especially usually often typically something anything thing things
		person people used use using way ways kind kinds sort sorts type types make makes made act acts state
		quality another every many certain particular given e g i`) {
		glossStop[w] = true
	}
}

// glossContent returns the content words of a synset's definition: the
// gloss without its quoted examples, lower-cased, split at anything but
// letters, without stop words and words of fewer than three letters, each
// once, at most n.
func glossContent(gloss string, n int) []string {
	var out []string
	seen := map[string]bool{}
	for part := range strings.SplitSeq(gloss, ";") {
		part = strings.TrimSpace(part)
		if part == "" || strings.HasPrefix(part, "\"") {
			continue
		}
		if i := strings.IndexByte(part, '"'); i >= 0 { // an example after a colon
			part = part[:i]
		}
		for w := range strings.FieldsFuncSeq(strings.ToLower(part), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) < 3 || glossStop[w] || seen[w] {
				continue
			}
			seen[w] = true
			out = append(out, w)
			if len(out) >= n {
				return out
			}
		}
	}
	return out
}

// render writes the lexicon's text (see lexicon.go in package search).
func (lx *lexicon) render(wn *wordnet, licence []string, glossWords int) []byte {
	num := make(map[string]int, len(lx.order))
	for i, k := range lx.order {
		num[k] = i
	}
	var b bytes.Buffer
	b.WriteString("# Derived from WordNet 3.0 by internal/search/internal/genlexicon; do not edit.\n")
	b.WriteString("# WordNet's licence:\n#\n")
	for _, l := range licence {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	// Synsets are in key order, so each part of speech is a range:
	// adjectives, nouns, adverbs, verbs.
	posCount := map[byte]int{}
	for _, k := range lx.order {
		posCount[k[0]]++
	}
	fmt.Fprintf(&b, "parts a %d n %d r %d v %d\n", posCount['a'], posCount['n'], posCount['r'], posCount['v'])
	fmt.Fprintf(&b, "synsets %d\n", len(lx.order))
	for _, k := range lx.order {
		s := wn.synsets[k]
		// Lemmas that list this synset among their senses are not
		// repeated: a reader finds them from the words' lines.
		var lemmas []string
		seen := map[string]bool{}
		for _, l := range s.lemmas {
			if plainLemma(l) && !seen[l] && !lx.hasSense(l, k) {
				seen[l] = true
				lemmas = append(lemmas, l)
			}
		}
		b.WriteString(strings.Join(lemmas, " "))
		b.WriteByte('|')
		if lx.full[k] {
			b.WriteString(strings.Join(glossContent(s.gloss, glossWords), " "))
			b.WriteByte('|')
			var links []string
			seenLink := map[string]bool{}
			for _, p := range s.ptrs {
				kind := linkKind(s, p.symbol)
				if kind == 0 {
					continue
				}
				var l string
				if p.word > 0 {
					// A lexical link names its target word.
					ts := wn.synsets[p.target]
					if ts == nil || p.word > len(ts.lemmas) || !plainLemma(ts.lemmas[p.word-1]) {
						continue
					}
					l = string(kind) + ":" + ts.lemmas[p.word-1]
				} else {
					t, ok := num[p.target]
					if !ok || p.target == k {
						continue
					}
					l = string(kind) + strconv.FormatInt(int64(t), 36)
				}
				if !seenLink[l] {
					seenLink[l] = true
					links = append(links, l)
				}
			}
			b.WriteString(strings.Join(links, " "))
		} else {
			b.WriteByte('|')
		}
		b.WriteByte('\n')
	}
	words := make([]string, 0, len(lx.words))
	for w := range lx.words {
		words = append(words, w)
	}
	sort.Strings(words)
	var forms []string
	for f, base := range wn.forms {
		if plainLemma(f) && lx.words[base] != nil && lx.words[f] == nil {
			forms = append(forms, f+" "+base)
		}
	}
	sort.Strings(forms)
	fmt.Fprintf(&b, "forms %d\n", len(forms))
	for _, f := range forms {
		b.WriteString(f + "\n")
	}
	fmt.Fprintf(&b, "words %d\n", len(words))
	for _, w := range words {
		b.WriteString(w)
		fmt.Fprintf(&b, " %d", lx.count[w])
		for _, s := range lx.words[w] {
			b.WriteByte(' ')
			b.WriteString(strconv.FormatInt(int64(num[s.key]), 36))
			switch {
			case s.weight == mathSense:
				b.WriteString(":m")
			case s.weight != 9:
				fmt.Fprintf(&b, ":%d", s.weight)
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// wordnetLicence returns the licence text that heads every WordNet data file;
// it must go with every copy of (a part of) the database.
func wordnetLicence(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "  ") {
			break
		}
		// "  12 text  " -> "text"
		fields := strings.SplitN(strings.TrimSpace(line), " ", 2)
		text := ""
		if len(fields) == 2 {
			text = strings.TrimSpace(fields[1])
		}
		out = append(out, text)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no licence header", path)
	}
	return out, sc.Err()
}
