package search

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The search benchmark: real tools/list captures of MCP servers from npm and
// queries written the way models type them, in two sets.
//
// The tuning set is testdata/catalogs (see its README.md) with
// testdata/search/queries.json: the ranker's related-word tables were written
// and tuned while looking at its misses, so its numbers are optimistic.
//
// The blind split is testdata/search/blind: more servers' catalogs and
// queries written before the ranker was run on them, searched in one index
// with the tuning catalogs. Nothing that builds the ranker reads it
// (TestSearchBlindSplitIsNoTuningInput), and its numbers are reported, not
// held to a floor: tuning on its misses would make it a second tuning set.
// testdata/search/blind2 to blind17 are more blind splits over the same
// catalogs, each written by someone who had seen neither the ranker nor the
// other queries: the second after the first one's misses had been studied,
// the fourth after the second's and third's had been read, the fifth after
// the fourth's had been printed once, by mistake, the sixth and seventh
// after changes chosen on the tuning set and the first four splits, the
// eighth and ninth after three more, the tenth and eleventh after the
// next, the twelfth and thirteenth after the fifth to seventh splits'
// misses had been read and used, the fourteenth and fifteenth after the
// eighth to eleventh's, and the sixteenth and seventeenth at the start of
// the round of changes they judged the end of. Once a split's misses have
// been read it is development data: its README says when.
//
// Run with -update to rewrite testdata/search/results.txt and the blind
// splits' results.txt.

const (
	searchCatalogDir = "../../testdata/catalogs"
	searchQueryFile  = "../../testdata/search/queries.json"
	searchResultFile = "../../testdata/search/results.txt"

	blindDir        = "../../testdata/search/blind"
	blindCatalogDir = blindDir + "/catalogs"
)

// blindSplits are the blind splits' directories, in the order they were
// written; each one's queries.json repeats none of the tuning set's or of
// the earlier splits'. All are searched over one index of the tuning
// catalogs and blindCatalogDir. The second was written after the first
// one's misses had been studied, the third after the second's totals had
// been looked at seven times, the fourth after the second's and third's
// misses had been read, the fifth after the fourth's had been printed once
// by mistake, the sixth and seventh after the changes the fifth split's
// second reading was of, the eighth and ninth after three more changes
// (when the fifth to seventh splits' totals had been read), the tenth and
// eleventh after the eighth and ninth had been run and a vocabulary batch
// had been written from the first four splits' misses, the twelfth and
// thirteenth after the fifth to seventh splits' misses had been read and
// used too, the fourteenth and fifteenth after the eighth to eleventh's,
// and the sixteenth and seventeenth at the start of the next round of work,
// to judge its end.
var blindSplits = []string{
	blindDir,
	"../../testdata/search/blind2",
	"../../testdata/search/blind3",
	"../../testdata/search/blind4",
	"../../testdata/search/blind5",
	"../../testdata/search/blind6",
	"../../testdata/search/blind7",
	"../../testdata/search/blind8",
	"../../testdata/search/blind9",
	"../../testdata/search/blind10",
	"../../testdata/search/blind11",
	"../../testdata/search/blind12",
	"../../testdata/search/blind13",
	"../../testdata/search/blind14",
	"../../testdata/search/blind15",
	"../../testdata/search/blind16",
	"../../testdata/search/blind17",
}

func init() {
	// -update is shared with the other golden-file tests of this package.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files and testdata/search/results.txt")
	}
}

func searchUpdateRequested() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

type searchCatalogFile struct {
	Server   string `json:"server"`
	Package  string `json:"package"`
	Captured string `json:"captured"`
	Tools    []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
}

type searchQuery struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
	Kind   string   `json:"kind"`
}

// loadSearchCatalogs reads every captured catalog of the directories, each
// directory in file-name order, into entries for one index (all servers
// together, as in real use).
func loadSearchCatalogs(tb testing.TB, dirs ...string) ([]ToolEntry, []searchCatalogFile) {
	tb.Helper()
	var entries []ToolEntry
	var cats []searchCatalogFile
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil || len(files) == 0 {
			tb.Fatalf("no catalogs in %s: %v", dir, err)
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			var c searchCatalogFile
			if err := json.Unmarshal(data, &c); err != nil {
				tb.Fatalf("%s: %v", f, err)
			}
			if c.Server == "" || c.Package == "" || len(c.Tools) == 0 {
				tb.Fatalf("%s: server, package and tools are required", f)
			}
			for _, t := range c.Tools {
				entries = append(entries, ToolEntry{Server: c.Server, Tool: t.Name, Description: t.Description, InputSchema: t.InputSchema})
			}
			cats = append(cats, c)
		}
	}
	return entries, cats
}

func loadSearchQueries(tb testing.TB, file string) []searchQuery {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	var qs []searchQuery
	if err := json.Unmarshal(data, &qs); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return qs
}

// searchKinds are the query kinds of the tuning set: the first five kinds
// (searchBaseKinds), then everyday (a task in everyday words that share none
// with the tool's text), phrasal (a task said with a phrasal verb or idiom:
// "call off", "spin up"), sibling (the words' order or direction picks one of
// sibling tools: geocode or reverse geocode, start or stop, mute or unmute)
// and noun (the server's name and a bare plural noun: the list tool is
// meant), and goal: a goal, situation or question in a user's own words,
// written over the tuning catalogs by someone who had seen neither the
// ranker, its tables nor the other queries (first scored before anything
// was tuned on them). blindKinds are the blind split's: sibling as above,
// ambiguous (the phrase names different operations on several servers, any
// of which counts) and multi (one operation that several servers offer).
var (
	searchBaseKinds = []string{"task", "identifier", "typo", "scoped", "keyword"}
	searchKinds     = append(slices.Clip(searchBaseKinds), "everyday", "phrasal", "sibling", "noun", "goal")
	blindKinds      = []string{"task", "sibling", "ambiguous", "multi", "scoped", "typo", "identifier", "keyword"}
)

// checkSearchQueries fails the test on a query of an unknown kind or one
// that expects no tool or a tool no catalog has.
func checkSearchQueries(tb testing.TB, queries []searchQuery, entries []ToolEntry, kinds []string) {
	tb.Helper()
	known := map[string]bool{}
	for _, e := range entries {
		known[e.Server+"."+e.Tool] = true
	}
	for _, q := range queries {
		if !slices.Contains(kinds, q.Kind) {
			tb.Fatalf("query %q: unknown kind %q", q.Query, q.Kind)
		}
		if len(q.Expect) == 0 {
			tb.Fatalf("query %q: no expected tools", q.Query)
		}
		for _, e := range q.Expect {
			if !known[e] {
				tb.Fatalf("query %q expects %q, which no catalog has", q.Query, e)
			}
		}
	}
}

type searchStats struct {
	n, at1, at5 int
	rr          float64
}

func (s searchStats) row(name string) string {
	if s.n == 0 {
		return fmt.Sprintf("%-10s %5d %10s %10s %7s", name, 0, "-", "-", "-")
	}
	return fmt.Sprintf("%-10s %5d %10.3f %10.3f %7.3f", name, s.n,
		float64(s.at1)/float64(s.n), float64(s.at5)/float64(s.n), s.rr/float64(s.n))
}

func (s searchStats) recall5() float64 { return float64(s.at5) / float64(s.n) }
func (s searchStats) mrr() float64     { return s.rr / float64(s.n) }

// searchRun is the outcome of one query set over one index.
type searchRun struct {
	kinds  []string
	all    searchStats
	per    map[string]*searchStats
	misses []string // no expected tool in the top 5
	late   []string // an expected tool in the top 5, but not first
}

// runSearchQueries searches every query (top 10) and scores the rank of the
// first expected tool found.
func runSearchQueries(ix *Index, entries []ToolEntry, queries []searchQuery, kinds []string) searchRun {
	r := searchRun{kinds: kinds, per: map[string]*searchStats{}}
	for _, k := range kinds {
		r.per[k] = &searchStats{}
	}
	for _, q := range queries {
		hits := ix.Search(q.Query, 10)
		want := map[string]bool{}
		for _, e := range q.Expect {
			want[e] = true
		}
		rank := 0
		var got []string
		for i, h := range hits {
			name := entries[h.Index].Server + "." + entries[h.Index].Tool
			if i < 5 {
				got = append(got, name)
			}
			if rank == 0 && want[name] {
				rank = i + 1
			}
		}
		for _, st := range []*searchStats{&r.all, r.per[q.Kind]} {
			st.n++
			if rank == 1 {
				st.at1++
			}
			if rank >= 1 && rank <= 5 {
				st.at5++
			}
			if rank >= 1 {
				st.rr += 1 / float64(rank)
			}
		}
		if rank > 1 && rank <= 5 {
			r.late = append(r.late, fmt.Sprintf("%-9s %q (rank %d): want %s; first %s",
				q.Kind, q.Query, rank, strings.Join(q.Expect, " | "), got[0]))
		}
		if rank == 0 || rank > 5 {
			where := "not in top 10"
			if rank > 5 {
				where = fmt.Sprintf("rank %d", rank)
			}
			r.misses = append(r.misses, fmt.Sprintf("%-9s %q (%s): want %s; got %s",
				q.Kind, q.Query, where, strings.Join(q.Expect, " | "), strings.Join(got, ", ")))
		}
	}
	return r
}

// table writes the per-kind recall and MRR rows.
func (r searchRun) table(b *strings.Builder) {
	fmt.Fprintf(b, "%-10s %5s %10s %10s %7s\n", "kind", "n", "recall@1", "recall@5", "MRR")
	for _, k := range r.kinds {
		b.WriteString(r.per[k].row(k) + "\n")
	}
	b.WriteString(r.all.row("all") + "\n")
}

// lists writes the misses and the late finds.
func (r searchRun) lists(b *strings.Builder) {
	fmt.Fprintf(b, "\nMisses (no expected tool in the top 5): %d\n", len(r.misses))
	for _, m := range r.misses {
		b.WriteString(m + "\n")
	}
	fmt.Fprintf(b, "\nFound, but not first: %d\n", len(r.late))
	for _, m := range r.late {
		b.WriteString(m + "\n")
	}
}

// reportSearch logs the report line by line and, under -update, writes it
// and unlogged after it to file. A blind split's misses go in unlogged: the
// output of a run (make bench) then shows its totals only, and reading it
// does not read the split's misses.
func reportSearch(t *testing.T, report, unlogged, file string) {
	t.Helper()
	for line := range strings.SplitSeq(strings.TrimRight(report, "\n"), "\n") {
		t.Log(line)
	}
	if unlogged != "" {
		t.Logf("(its misses and late finds are in %s, not shown here)", file)
	}
	if searchUpdateRequested() {
		if err := os.WriteFile(file, []byte(report+unlogged), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSearchQuality(t *testing.T) {
	entries, cats := loadSearchCatalogs(t, searchCatalogDir)
	queries := loadSearchQueries(t, searchQueryFile)
	if len(cats) < 15 {
		t.Errorf("%d catalogs, want at least 15", len(cats))
	}
	if len(queries) < 150 {
		t.Errorf("%d queries, want at least 150", len(queries))
	}
	checkSearchQueries(t, queries, entries, searchKinds)

	ix := NewIndex(entries)
	r := runSearchQueries(ix, entries, queries, searchKinds)
	var base, added []searchQuery
	for _, q := range queries {
		switch {
		case slices.Contains(searchBaseKinds, q.Kind):
			base = append(base, q)
		case q.Kind != "goal":
			added = append(added, q)
		}
	}
	baseRun := runSearchQueries(ix, entries, base, searchKinds)
	addedRun := runSearchQueries(ix, entries, added, searchKinds)
	var b strings.Builder
	fmt.Fprintf(&b, "Tool search quality: %d queries over %d tools of %d servers (all in one index).\n",
		len(queries), len(entries), len(cats))
	b.WriteString("Generated by `go test ./internal/search -run TestSearchQuality -update`; do not edit.\n\n")
	r.table(&b)
	b.WriteString(baseRun.all.row("base") + "   (the first five kinds)\n")
	b.WriteString(addedRun.all.row("added") + "   (everyday, phrasal, sibling, noun)\n")
	r.lists(&b)
	reportSearch(t, b.String(), "", searchResultFile)

	if r5 := baseRun.all.recall5(); r5 < 0.90 {
		t.Errorf("recall@5 of the first five kinds = %.3f, want >= 0.90", r5)
	}
	if mrr := baseRun.all.mrr(); mrr < 0.75 {
		t.Errorf("MRR of the first five kinds = %.3f, want >= 0.75", mrr)
	}
}

// TestSearchQualityBlind reports the blind split: its queries over one index
// of the tuning catalogs and the blind ones together. It checks that the
// split is well formed and apart from the tuning set, and holds its numbers
// to no floor (see the top of this file).
func TestSearchQualityBlind(t *testing.T) { testBlindSplitN(t, 1, "blind split") }

// TestSearchQualityBlind2 to TestSearchQualityBlind7 report the later
// splits as the first (see blindSplits).
func TestSearchQualityBlind2(t *testing.T)  { testBlindSplitN(t, 2, "second blind split") }
func TestSearchQualityBlind3(t *testing.T)  { testBlindSplitN(t, 3, "third blind split") }
func TestSearchQualityBlind4(t *testing.T)  { testBlindSplitN(t, 4, "fourth blind split") }
func TestSearchQualityBlind5(t *testing.T)  { testBlindSplitN(t, 5, "fifth blind split") }
func TestSearchQualityBlind6(t *testing.T)  { testBlindSplitN(t, 6, "sixth blind split") }
func TestSearchQualityBlind7(t *testing.T)  { testBlindSplitN(t, 7, "seventh blind split") }
func TestSearchQualityBlind8(t *testing.T)  { testBlindSplitN(t, 8, "eighth blind split") }
func TestSearchQualityBlind9(t *testing.T)  { testBlindSplitN(t, 9, "ninth blind split") }
func TestSearchQualityBlind10(t *testing.T) { testBlindSplitN(t, 10, "tenth blind split") }
func TestSearchQualityBlind11(t *testing.T) { testBlindSplitN(t, 11, "eleventh blind split") }
func TestSearchQualityBlind12(t *testing.T) { testBlindSplitN(t, 12, "twelfth blind split") }
func TestSearchQualityBlind13(t *testing.T) { testBlindSplitN(t, 13, "thirteenth blind split") }
func TestSearchQualityBlind14(t *testing.T) { testBlindSplitN(t, 14, "fourteenth blind split") }
func TestSearchQualityBlind15(t *testing.T) { testBlindSplitN(t, 15, "fifteenth blind split") }
func TestSearchQualityBlind16(t *testing.T) { testBlindSplitN(t, 16, "sixteenth blind split") }
func TestSearchQualityBlind17(t *testing.T) { testBlindSplitN(t, 17, "seventeenth blind split") }

// testBlindSplitN checks and reports the nth of blindSplits (named what),
// apart from the splits written before it.
func testBlindSplitN(t *testing.T, n int, what string) {
	var earlier []string
	for _, d := range blindSplits[:n-1] {
		earlier = append(earlier, d+"/queries.json")
	}
	d := blindSplits[n-1]
	testBlindSplit(t, what, d+"/queries.json", d+"/results.txt", earlier...)
}

// testBlindSplit checks and reports the blind queries of queryFile (named
// what) into resultFile; no query of the tuning set or of the files others
// may be among them.
func testBlindSplit(t *testing.T, what, queryFile, resultFile string, others ...string) {
	tuneEntries, tuneCats := loadSearchCatalogs(t, searchCatalogDir)
	_, blindCats := loadSearchCatalogs(t, blindCatalogDir)
	entries, cats := loadSearchCatalogs(t, searchCatalogDir, blindCatalogDir)
	queries := loadSearchQueries(t, queryFile)
	if len(blindCats) < 15 {
		t.Errorf("%d blind catalogs, want at least 15", len(blindCats))
	}
	if len(cats) < 40 {
		t.Errorf("%d catalogs in all, want at least 40", len(cats))
	}
	if len(queries) < 150 {
		t.Errorf("%d blind queries, want at least 150", len(queries))
	}
	checkSearchQueries(t, queries, entries, blindKinds)

	// Apart from the tuning set: no server in both, no query in both, and
	// every blind server searched for by some query.
	tuneServers := map[string]bool{}
	for _, c := range tuneCats {
		tuneServers[c.Server] = true
	}
	expected := map[string]bool{}
	for _, q := range queries {
		for _, e := range q.Expect {
			expected[strings.SplitN(e, ".", 2)[0]] = true
		}
	}
	for _, c := range blindCats {
		if tuneServers[c.Server] {
			t.Errorf("server %q has a catalog in both %s and %s", c.Server, searchCatalogDir, blindCatalogDir)
		}
		if !expected[c.Server] {
			t.Errorf("no blind query expects a tool of %s", c.Server)
		}
	}
	tuneQueries := loadSearchQueries(t, searchQueryFile)
	seen := map[string]string{}
	for _, q := range tuneQueries {
		seen[queryKey(q.Query)] = searchQueryFile
	}
	for _, f := range others {
		for _, q := range loadSearchQueries(t, f) {
			seen[queryKey(q.Query)] = f
		}
	}
	for _, q := range queries {
		if f, ok := seen[queryKey(q.Query)]; ok {
			t.Errorf("%s query %q is also in %s", what, q.Query, f)
		}
		seen[queryKey(q.Query)] = queryFile
	}

	ix := NewIndex(entries)
	r := runSearchQueries(ix, entries, queries, blindKinds)
	// The tuning queries again, over the larger index: what the added
	// servers alone (more tools to confuse, no new words for the tables)
	// cost the tuning set.
	tuneOver := runSearchQueries(ix, entries, tuneQueries, searchKinds)

	// By where the wanted tools are: only in tuning catalogs (new phrasings
	// of known tools) or in a blind one (words the tables never saw).
	var onTuned, onBlind []searchQuery
	for _, q := range queries {
		blindTool := false
		for _, e := range q.Expect {
			blindTool = blindTool || !tuneServers[strings.SplitN(e, ".", 2)[0]]
		}
		if blindTool {
			onBlind = append(onBlind, q)
		} else {
			onTuned = append(onTuned, q)
		}
	}
	byTuned := runSearchQueries(ix, entries, onTuned, blindKinds)
	byBlind := runSearchQueries(ix, entries, onBlind, blindKinds)

	var b strings.Builder
	fmt.Fprintf(&b, "Tool search quality, %s: %d queries over %d tools of %d servers "+
		"(%d tuning catalogs with %d tools, %d blind catalogs with %d tools; all in one index).\n",
		what, len(queries), len(entries), len(cats), len(tuneCats), len(tuneEntries), len(blindCats), len(entries)-len(tuneEntries))
	b.WriteString("Generated by `go test ./internal/search -run TestSearchQuality -update`; do not edit, and do not tune on it.\n\n")
	r.table(&b)
	b.WriteString("\nBy where the wanted tools are:\n")
	b.WriteString(byTuned.all.row("tuning") + "   (all wanted tools in tuning catalogs)\n")
	b.WriteString(byBlind.all.row("blind") + "   (a wanted tool in a blind catalog)\n")
	fmt.Fprintf(&b, "\nThe %d tuning queries over this index:\n", len(tuneQueries))
	b.WriteString(tuneOver.all.row("all") + "\n")
	var lists strings.Builder
	r.lists(&lists)
	reportSearch(t, b.String(), lists.String(), resultFile)
}

// queryKey is a query as the sets are kept apart by: lower case, words
// only.
func queryKey(q string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// TestSearchBlindSplitIsNoTuningInput checks that nothing that builds the
// ranker reads the blind split: no source file of this package or of its
// generators (internal/...) names it, and no generator reads any tool
// catalog at all: the generate directives and the generators' sources name
// no testdata path (the lexicon derives from WordNet alone, so a server
// nobody captured is covered as well as one in the tuning set).
func TestSearchBlindSplitIsNoTuningInput(t *testing.T) {
	var blinds []string
	for _, d := range blindSplits {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		blinds = append(blinds, abs)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	inside := func(dir, path string) bool { // path is dir or under it
		rel, err := filepath.Rel(dir, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	var paths []string
	checkPath := func(file, p string) {
		paths = append(paths, p)
		// Paths are relative to this package's directory, where go generate runs.
		abs := filepath.Clean(filepath.Join(here, p))
		for _, blind := range blinds {
			if inside(blind, abs) || inside(abs, blind) {
				t.Errorf("%s names %s, which holds or is inside the blind split %s", file, p, blind)
			}
		}
	}
	var files int
	var directives []string
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if !strings.HasPrefix(c.Text, "//go:generate ") {
					continue
				}
				directives = append(directives, c.Text)
				for _, arg := range strings.Fields(c.Text) {
					if strings.Contains(arg, "testdata") {
						checkPath(path, arg)
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			// A path through the blind split (the word alone is in the
			// WordNet table).
			if l := strings.ToLower(s); strings.Contains(l, "blind/") || strings.Contains(l, "/blind") || strings.Contains(l, "blind2") {
				t.Errorf("%s: string %q names the blind split", path, s)
			}
			if strings.Contains(s, "testdata") && !strings.ContainsAny(s, " \n") {
				checkPath(path, s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The check above must have seen the generator and what it reads.
	if files < 3 {
		t.Fatalf("walked %d source files, want this package's and its generator's", files)
	}
	if !slices.ContainsFunc(directives, func(d string) bool { return strings.Contains(d, "./internal/genlexicon") }) {
		t.Fatalf("no go:generate directive runs ./internal/genlexicon (found %q): the directive moved; update this test", directives)
	}
	if len(paths) > 0 {
		t.Errorf("the ranker's sources or generators name testdata paths %q: the lexicon must derive from the dictionary alone", paths)
	}
}

func BenchmarkSearch(b *testing.B) {
	entries, _ := loadSearchCatalogs(b, searchCatalogDir)
	ix := NewIndex(entries)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ix.Search("open a pull request", 5)
	}
}

// BenchmarkSearchTypo measures a query whose words the index lacks, which
// takes the edit-distance path.
func BenchmarkSearchTypo(b *testing.B) {
	entries, _ := loadSearchCatalogs(b, searchCatalogDir)
	ix := NewIndex(entries)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ix.Search("serach isues", 5)
	}
}

// BenchmarkSearch1000 measures a query over an index of more than a
// thousand tools (the tuning and blind catalogs together, 1,137 tools), one
// tuning query after another. It measures latency only: nothing is fitted
// on it.
func BenchmarkSearch1000(b *testing.B) {
	entries, _ := loadSearchCatalogs(b, searchCatalogDir, blindCatalogDir)
	if len(entries) < 1000 {
		b.Fatalf("%d tools, want at least 1000", len(entries))
	}
	queries := loadSearchQueries(b, searchQueryFile)
	ix := NewIndex(entries)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		ix.Search(queries[i%len(queries)].Query, 5)
		i++
	}
}

// BenchmarkSearch1000Long measures the longest query (searchMaxQueryRunes)
// made of the words the idioms' phrases use most, each once: the most idioms
// to match, whole or loosely, and the most words to expand, over the index
// of BenchmarkSearch1000.
func BenchmarkSearch1000Long(b *testing.B) {
	entries, _ := loadSearchCatalogs(b, searchCatalogDir, blindCatalogDir)
	x := theSearchVocab().idiomIndex()
	stems := slices.Collect(maps.Keys(x.byStem))
	slices.SortFunc(stems, func(p, q string) int {
		if n, m := len(x.byStem[p]), len(x.byStem[q]); n != m {
			return m - n
		}
		return strings.Compare(p, q)
	})
	q := strings.Join(stems[:200], " ")[:searchMaxQueryRunes]
	ix := NewIndex(entries)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ix.Search(q, 5)
	}
}

// BenchmarkNewIndex1000 measures building the index of BenchmarkSearch1000.
func BenchmarkNewIndex1000(b *testing.B) {
	entries, _ := loadSearchCatalogs(b, searchCatalogDir, blindCatalogDir)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		NewIndex(entries)
	}
}

func BenchmarkNewIndex(b *testing.B) {
	entries, _ := loadSearchCatalogs(b, searchCatalogDir)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		NewIndex(entries)
	}
}
