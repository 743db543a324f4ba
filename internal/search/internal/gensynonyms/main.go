// Command gensynonyms writes internal/search/synonyms_wordnet.go: a table of
// related words taken from WordNet 3.0 (Debian's wordnet-base, files under
// /usr/share/wordnet), restricted to the vocabulary of real MCP tool catalogs
// (testdata/catalogs/*.json). Tool search uses it to expand query words that a
// tool's name and description do not contain ("reimburse" -> "refund").
//
// It never reads the blind split of the search benchmark (testdata/search/blind):
// that split measures the ranker on words it was not fitted to.
//
// Run through go generate in package search:
//
//	apt-get install wordnet-base
//	go generate ./internal/search
//
// A word W is related to a catalog word C when
//   - W and C are lemmas of one synset that is among the first -senses senses
//     (WordNet orders senses by frequency) of both words, or
//   - W is a verb, C is a lemma of a direct hypernym of W's most frequent
//     sense, and that hypernym is among C's first -senses senses.
//
// Only senses that occur in WordNet's sense-tagged corpus count, which leaves
// out rare words and rare senses.
//
// Only single-word, alphabetic lemmas are used. The output is committed, so
// building the project needs no WordNet.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
)

func main() {
	wnDir := flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 dict directory (index.* and data.* files)")
	catalogs := flag.String("catalogs", "../../testdata/catalogs", "directory of tool catalogs (*.json) that define the vocabulary")
	out := flag.String("out", "synonyms_wordnet.go", "output Go file")
	senses := flag.Int("senses", 3, "how many of a word's most frequent senses take part")
	flag.Parse()

	vocab, err := catalogVocabulary(*catalogs)
	if err != nil {
		log.Fatal(err)
	}
	wn := &wordnet{dir: *wnDir, index: map[string][]string{}, tagged: map[string]int{}, synsets: map[string]*synset{}}
	for _, pos := range []string{"noun", "verb", "adj"} {
		if err := wn.load(pos); err != nil {
			log.Fatal(err)
		}
	}
	related := wn.relate(vocab, *senses)
	licence, err := wordnetLicence(filepath.Join(*wnDir, "data.noun"))
	if err != nil {
		log.Fatal(err)
	}
	src, err := render(related, len(vocab), *senses, licence)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	n := 0
	for _, cs := range related {
		n += len(cs)
	}
	log.Printf("%d catalog words, %d words with related catalog words, %d pairs -> %s", len(vocab), len(related), n, *out)
}

// catalogVocabulary returns the lower-case alphabetic words (length >= 3) of
// every tool name, description, parameter name and parameter description.
func catalogVocabulary(dir string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no catalogs in %s", dir)
	}
	vocab := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var cat struct {
			Server string `json:"server"`
			Tools  []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(data, &cat); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		add := func(s string) {
			for _, w := range words(s) {
				vocab[w] = true
			}
		}
		add(cat.Server)
		for _, t := range cat.Tools {
			add(t.Name)
			add(t.Description)
			var schema any
			if json.Unmarshal(t.InputSchema, &schema) == nil {
				walkSchema(schema, add)
			}
		}
	}
	return vocab, nil
}

// walkSchema passes every property name and string description in a JSON
// schema to add.
func walkSchema(v any, add func(string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch k {
			case "properties":
				if props, ok := x.(map[string]any); ok {
					for name := range props {
						add(name)
					}
				}
			case "description":
				if s, ok := x.(string); ok {
					add(s)
				}
			}
			walkSchema(x, add)
		}
	case []any:
		for _, x := range v {
			walkSchema(x, add)
		}
	}
}

// words splits s into lower-case alphabetic words, also at camelCase humps.
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) >= 3 {
			out = append(out, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) || r > unicode.MaxASCII {
			flush()
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 {
			prevLower := unicode.IsLower(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || (unicode.IsUpper(rs[i-1]) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

type synset struct {
	lemmas    []string
	hypernyms []string // synset keys
}

type wordnet struct {
	dir     string
	index   map[string][]string // "pos:lemma" -> synset keys, most frequent sense first
	tagged  map[string]int      // "pos:lemma" -> how many of its senses occur in the tagged corpus
	synsets map[string]*synset  // "pos:offset" -> synset
}

func (wn *wordnet) load(pos string) error {
	p := pos[:1]
	if pos == "adj" {
		p = "a"
	}
	if err := eachLine(filepath.Join(wn.dir, "index."+pos), func(f []string) {
		// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
		if len(f) < 4 {
			return
		}
		pcnt, err := strconv.Atoi(f[3])
		if err != nil || len(f) < 6+pcnt {
			return
		}
		if n, err := strconv.Atoi(f[5+pcnt]); err == nil {
			wn.tagged[p+":"+f[0]] = n
		}
		for _, off := range f[6+pcnt:] {
			wn.index[p+":"+f[0]] = append(wn.index[p+":"+f[0]], p+":"+off)
		}
	}); err != nil {
		return err
	}
	return eachLine(filepath.Join(wn.dir, "data."+pos), func(f []string) {
		// offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] | gloss
		if len(f) < 4 {
			return
		}
		wcnt, err := strconv.ParseInt(f[3], 16, 32)
		if err != nil || len(f) < 4+2*int(wcnt)+1 {
			return
		}
		s := &synset{}
		for i := range int(wcnt) {
			w := strings.ToLower(f[4+2*i])
			if j := strings.IndexByte(w, '('); j >= 0 { // adjective markers: "(a)", "(p)"
				w = w[:j]
			}
			s.lemmas = append(s.lemmas, w)
		}
		rest := f[4+2*int(wcnt):]
		pcnt, err := strconv.Atoi(rest[0])
		if err != nil {
			return
		}
		for i := range pcnt {
			k := 1 + 4*i
			if k+3 >= len(rest) {
				break
			}
			if rest[k] == "@" || rest[k] == "@i" {
				s.hypernyms = append(s.hypernyms, pos1(rest[k+2])+":"+rest[k+1])
			}
		}
		wn.synsets[p+":"+f[0]] = s
	})
}

func pos1(p string) string {
	if p == "s" {
		return "a"
	}
	return p
}

func eachLine(path string, fn func([]string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") { // licence header
			continue
		}
		if i := strings.Index(line, " | "); i >= 0 {
			line = line[:i]
		}
		fn(strings.Fields(line))
	}
	return sc.Err()
}

// topSenses returns, for every part of speech, the first k synsets of lemma
// that occur in WordNet's sense-tagged corpus (so rare words and rare senses
// take no part).
func (wn *wordnet) topSenses(lemma string, k int) map[string]bool {
	out := map[string]bool{}
	for _, p := range []string{"n", "v", "a"} {
		ss := wn.index[p+":"+lemma]
		n := min(k, wn.tagged[p+":"+lemma])
		for i := 0; i < len(ss) && i < n; i++ {
			out[ss[i]] = true
		}
	}
	return out
}

func simple(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

func (wn *wordnet) relate(vocab map[string]bool, k int) map[string][]string {
	related := map[string]map[string]bool{}
	link := func(w, c string) {
		if w == c || !simple(w) || !simple(c) || english.IsStopWord(w) {
			return
		}
		if english.Stem(w, false) == english.Stem(c, false) {
			return
		}
		if related[w] == nil {
			related[w] = map[string]bool{}
		}
		related[w][c] = true
	}
	for c := range vocab {
		top := wn.topSenses(c, k)
		keys := make([]string, 0, len(top))
		for key := range top {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			s := wn.synsets[key]
			if s == nil {
				continue
			}
			for _, w := range s.lemmas {
				if wn.topSenses(w, k)[key] {
					link(w, c)
				}
			}
		}
	}
	// Verbs whose most frequent sense is a hyponym of a catalog word's sense:
	// "reimburse" (sense 1) has the hypernym {refund, return, repay}.
	for key, s := range wn.synsets {
		if !strings.HasPrefix(key, "v:") {
			continue
		}
		for _, h := range s.hypernyms {
			hs := wn.synsets[h]
			if hs == nil {
				continue
			}
			for _, c := range hs.lemmas {
				if !vocab[c] || !wn.topSenses(c, k)[h] {
					continue
				}
				for _, w := range s.lemmas {
					if first := wn.topSenses(w, 1); first[key] {
						link(w, c)
					}
				}
			}
		}
	}
	out := map[string][]string{}
	for w, cs := range related {
		for c := range cs {
			out[w] = append(out[w], c)
		}
		sort.Strings(out[w])
	}
	return out
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

func render(related map[string][]string, vocabSize, senses int, licence []string) ([]byte, error) {
	keys := make([]string, 0, len(related))
	for w := range related {
		keys = append(keys, w)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/search/internal/gensynonyms from WordNet 3.0; DO NOT EDIT.\n\n")
	b.WriteString("// The table below is derived from WordNet 3.0, under this licence:\n//\n")
	for _, l := range licence {
		if l == "" {
			b.WriteString("//\n")
			continue
		}
		b.WriteString("//\t" + l + "\n")
	}
	b.WriteString("\npackage search\n\n")
	fmt.Fprintf(&b, "// wordnetRelated maps a word to the words of the tool-catalog vocabulary\n")
	fmt.Fprintf(&b, "// (%d words from testdata/catalogs) that WordNet 3.0 lists as its synonyms\n", vocabSize)
	fmt.Fprintf(&b, "// within the %d most frequent senses of both, or (for verbs) as the hypernym\n", senses)
	fmt.Fprintf(&b, "// of its most frequent sense. Values are space-separated.\n")
	b.WriteString("var wordnetRelated = map[string]string{\n")
	for _, w := range keys {
		fmt.Fprintf(&b, "\t%q: %q,\n", w, strings.Join(related[w], " "))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
