package search

import (
	"bytes"
	"compress/gzip"
	"slices"
	"strings"
	"testing"
)

// The committed lexicon stays within its budget (the generator refuses to
// write more; this catches a file written otherwise).
const lexiconBudget = 2_000_000

func TestLexicon(t *testing.T) {
	if len(lexiconGz) > lexiconBudget {
		t.Errorf("lexicon.txt.gz is %d bytes, over the budget of %d", len(lexiconGz), lexiconBudget)
	}
	lx, err := parseLexicon(lexiconGz)
	if err != nil {
		t.Fatalf("the embedded lexicon does not parse: %v", err)
	}
	if len(lx.words) < 50000 || len(lx.synsets) < 50000 {
		t.Errorf("lexicon has %d words and %d synsets, want at least 50000 of each", len(lx.words), len(lx.synsets))
	}
	if theLexicon() == nil || len(theLexicon().words) != len(lx.words) {
		t.Error("theLexicon does not return the embedded lexicon")
	}
	related := func(word string, f senseFilter) []string {
		t.Helper()
		i, ok := lx.baseForm(word)
		if !ok {
			t.Fatalf("%q is not in the lexicon", word)
		}
		var out []string
		for _, r := range lx.related(i, f) {
			out = append(out, r.word)
		}
		return out
	}
	for _, c := range []struct{ word, related, how string }{
		{"purchase", "buy", "a synonym"},
		{"call_off", "cancel", "a synonym of a multi-word lemma"},
		{"reimburse", "refund", "the hypernym of a verb"},
		{"heavy", "heaviness", "the noun an adjective values"},
		{"thermometer", "temperature", "a word of the definition"},
		{"folders", "folder", "nothing: an inflection finds its base form, which is left out"},
	} {
		rel := related(c.word, senseFilter{})
		if c.how[:7] == "nothing" {
			if slices.Contains(rel, c.related) {
				t.Errorf("%q is related to itself (%q)", c.word, c.related)
			}
			if len(rel) == 0 {
				t.Errorf("%q has no related words", c.word)
			}
			continue
		}
		if !slices.Contains(rel, c.related) {
			t.Errorf("%q is not related to %q (%s); related: %v", c.word, c.related, c.how, rel)
		}
	}
	// Irregular inflections.
	if i, ok := lx.baseForm("ran"); !ok || lx.wordStrs[i] != "run" {
		t.Errorf(`baseForm("ran") = %v, want "run"`, ok)
	}
	// Arithmetic senses count next to numbers only.
	if slices.Contains(related("plus", senseFilter{}), "summation") {
		t.Error(`"plus" is "summation" without numbers about`)
	}
	if !slices.Contains(related("plus", senseFilter{math: true}), "summation") {
		t.Error(`"plus" is not "summation" next to numbers`)
	}
	for w, want := range map[string]bool{"17": true, "seventeen": true, "dozen": true, "page": false, "": false} {
		if got := lx.numeral(w); got != want {
			t.Errorf("numeral(%q) = %v, want %v", w, got, want)
		}
	}
	// Parts of speech: "run" is a verb first, "invoice" a noun.
	for w, want := range map[string]byte{"run": 'v', "invoice": 'n', "heavy": 'a'} {
		i, _ := lx.lookup(w)
		if got := lx.dominantPart(i); got != want {
			t.Errorf("dominantPart(%q) = %c, want %c", w, got, want)
		}
	}
}

func TestLexiconPhrases(t *testing.T) {
	lx := theLexicon()
	for _, c := range []struct {
		query, lemma string
		at, span     int
	}{
		{"call off the meeting", "call_off", 0, 2},
		{"please calling off the meeting", "call_off", 1, 2},
		{"take the label off", "take_off", 0, 4},
		{"list the bank accounts", "bank_account", 2, 2},
		{"look at the meeting", "look_at", 0, 2},
		{"meeting notes", "", 0, 0},
	} {
		toks := searchTokenize(c.query, true)
		l, n := lx.phraseAt(toks, c.at, nil)
		if l != c.lemma || n != c.span {
			t.Errorf("phraseAt(%q, %d) = %q, %d; want %q, %d", c.query, c.at, l, n, c.lemma, c.span)
		}
	}
}

// TestParseLexiconErrors feeds parseLexicon broken lexicons: each is an
// error, none a panic.
func TestParseLexiconErrors(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		_, _ = w.Write([]byte(s))
		_ = w.Close()
		return b.Bytes()
	}
	good := "# comment\nparts a 0 n 1 r 0 v 1\nsynsets 2\nx|y z|h1\n|gloss|\nforms 1\nran run\nwords 2\nrun 5 1 0:4\nx 0 0\n"
	if _, err := parseLexicon(gz(good)); err != nil {
		t.Fatalf("a well-formed lexicon: %v", err)
	}
	for name, text := range map[string]string{
		"empty":              "",
		"no parts line":      "synsets 0\n",
		"bad parts":          "parts a x n 1 r 0 v 1\n",
		"parts do not add":   "parts a 0 n 1 r 0 v 0\nsynsets 2\nx||\n||\nforms 0\nwords 0\n",
		"synsets cut short":  "parts a 0 n 1 r 0 v 1\nsynsets 2\nx||\n",
		"bad count":          "parts a 0 n 1 r 0 v 1\nsynsets -2\n",
		"no forms":           "parts a 0 n 0 r 0 v 0\nsynsets 0\nwords 0\n",
		"bad form":           "parts a 0 n 0 r 0 v 0\nsynsets 0\nforms 1\nran\nwords 0\n",
		"words out of order": strings.Replace(good, "run 5 1 0:4\nx 0 0\n", "x 0 0\nrun 5 1\n", 1),
		"sense out of range": strings.Replace(good, "run 5 1 0:4", "run 5 9", 1),
		"bad sense":          strings.Replace(good, "run 5 1 0:4", "run 5 1:x", 1),
		"words cut short":    strings.Replace(good, "words 2", "words 3", 1),
	} {
		if _, err := parseLexicon(gz(text)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := parseLexicon([]byte("not gzip")); err == nil {
		t.Error("not gzip: no error")
	}
}
