package search

import (
	"slices"
	"strings"
	"testing"
)

// idiomTestEntries are the tools of the idiom tests: one the idiom "keep in
// mind" names, and two it does not.
func idiomTestEntries() []ToolEntry {
	return []ToolEntry{
		{Server: "memory", Tool: "add_observations", Description: "Add new observations to existing entities"},
		{Server: "memory", Tool: "delete_entities", Description: "Delete entities and their relations"},
		{Server: "notes", Tool: "create_note", Description: "Create a note"},
	}
}

// A tool holds the words of the idioms that name it, so a query that says
// them otherwise than the idiom still finds it.
func TestSearchIdiomNamesTool(t *testing.T) {
	entries := idiomTestEntries()
	vocab := newSearchVocab("", "keep in mind -> add observation memory\n")
	// "mind that she moved" is not the idiom's phrase: nothing rewrites it.
	const q = "mind that she moved"
	if got := vocab.prepare(q); got != q {
		t.Fatalf("prepare(%q) = %q, want it unchanged", q, got)
	}
	ix := newIndex(entries, defaultSearchParams, vocab)
	expectSearchTop(t, ix, entries, q, "memory.add_observations")

	off := defaultSearchParams
	off.idiom = 0
	if hits := newIndex(entries, off, vocab).Search(q, 5); len(hits) > 0 && entries[hits[0].Index].Tool == "add_observations" {
		t.Errorf("%q finds add_observations first without the idioms' words: the test shows nothing", q)
	}
}

func TestIdiomWords(t *testing.T) {
	p := defaultSearchParams
	read := func(idioms string) *searchIdiomIndex {
		return readIdioms(newSearchVocab("", idioms).idioms)
	}
	// The stems of the names of firecrawl_scrape, post_message and slack
	// (of server slack), less the servers' names.
	names := [][]string{{"scrape"}, {"post", "messag"}, nil}
	words := func(ws []searchToken) string {
		var out []string
		for _, w := range ws {
			out = append(out, w.surface)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		idioms string
		want   [3]string
	}{
		// The replacement covers the name: the phrase's other words.
		{"grab * off a site -> scrape page\n", [3]string{"grab off site", "", ""}},
		{"send a dm -> post message direct\n", [3]string{"", "send dm", ""}},
		// The name is less than half the replacement.
		{"drop a line -> post note email letter\n", [3]string{"", "", ""}},
		// A word of the name is missing.
		{"ping the team -> post team\n", [3]string{"", "", ""}},
	} {
		got := idiomWords(names, read(c.idioms), p)
		for i := range 3 {
			if w := words(got[i]); w != c.want[i] {
				t.Errorf("%q: tool %d holds %q, want %q", c.idioms, i, w, c.want[i])
			}
		}
	}

	// An idiom that names more tools than idiomTools names none.
	many := make([][]string, p.idiomTools+1)
	for i := range many {
		many[i] = []string{"list"}
	}
	for i, ws := range idiomWords(many, read("what have we got -> list\n"), p) {
		if len(ws) != 0 {
			t.Errorf("tool %d of %d named list holds %q", i, len(many), words(ws))
		}
	}
	if got := idiomWords(many[:p.idiomTools], read("what have we got -> list\n"), p); words(got[0]) != "got" {
		t.Errorf("one of %d tools named list holds %q, want %q", p.idiomTools, words(got[0]), "got")
	}
}

// searchPhraseTokens is a quicker tokenizeCached for the idioms' words:
// the same tokens for every phrase and replacement of idioms.txt.
func TestSearchPhraseTokens(t *testing.T) {
	stems := map[string]string{}
	bad := 0
	for _, p := range theSearchVocab().idioms {
		for _, s := range []string{p.from, p.to} {
			if got, want := searchPhraseTokens(s, stems), tokenizeCached(s, stems); !slices.Equal(got, want) {
				if bad++; bad <= 5 {
					t.Errorf("searchPhraseTokens(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}

// A query that holds every word of an idiom's phrase, though not as the
// phrase, also looks for its replacement, with less weight.
func TestSearchLooseIdiom(t *testing.T) {
	entries := idiomTestEntries()
	vocab := newSearchVocab("", "keep in mind -> add observation memory\n")
	p := defaultSearchParams
	p.idiom = 0 // the tools hold no idiom's words: the query's groups alone
	ix := newIndex(entries, p, vocab)
	added := func(q string) []string {
		groups, _ := ix.expand(q)
		var out []string
		for _, g := range groups {
			if len(g) == 1 && g[0].weight == p.idiomLoose && g[0].loose && !g[0].direct {
				out = append(out, g[0].stem)
			}
		}
		return out
	}
	for q, want := range map[string][]string{
		"she moved, keep that in your mind": {"add", "memori", "observ"},
		"mind that she moved, keep it":      {"add", "memori", "observ"},
		"keep in mind that she moved":       nil, // the idiom itself: rewritten
		"mind that she moved":               nil, // one word of two
	} {
		if got := added(q); !slices.Equal(got, want) {
			t.Errorf("%q adds %q, want %q", q, got, want)
		}
	}
	expectSearchTop(t, ix, entries, "mind that she moved, keep it", "memory.add_observations")

	p.idiomLoose = 0
	if got := newIndex(entries, p, vocab).Search("mind that she moved, keep it", 5); len(got) > 0 && entries[got[0].Index].Tool == "add_observations" {
		t.Errorf("add_observations is first without the idiom's words: the test shows nothing")
	}
}

// An index judges a tool by its name less every server's name: the idiom
// names firecrawl_scrape though it does not say "firecrawl".
func TestSearchIdiomNamesToolBeyondItsServer(t *testing.T) {
	entries := []ToolEntry{
		{Server: "firecrawl", Tool: "firecrawl_scrape", Description: "Scrape a page"},
		{Server: "slack", Tool: "slack_post_message", Description: "Post a message"},
	}
	ix := newIndex(entries, defaultSearchParams, newSearchVocab("", "grab * off a site -> scrape page\n"))
	t1 := ix.iterms["grab"]
	if t1 == nil || len(t1.postings) != 1 || t1.postings[0].doc != 0 {
		t.Errorf("the idiom's word grab is in %+v, want firecrawl_scrape alone", t1)
	}
}
