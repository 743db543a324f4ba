package search

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// testSearchEntries is a small catalog with the traps of real ones: the same
// tool names on two servers, server-prefixed names, a tool known only by its
// parameters, and names in several case styles.
func testSearchEntries() []ToolEntry {
	schema := func(props map[string]string) json.RawMessage {
		p := map[string]any{}
		for name, desc := range props {
			p[name] = map[string]any{"type": "string", "description": desc}
		}
		b, _ := json.Marshal(map[string]any{"type": "object", "properties": p})
		return b
	}
	return []ToolEntry{
		{Server: "github", Tool: "create_issue", Description: "Create a new issue in a GitHub repository",
			InputSchema: schema(map[string]string{"owner": "Repository owner", "repo": "Repository name", "title": "Issue title"})},
		{Server: "github", Tool: "add_issue_comment", Description: "Add a comment to an existing issue"},
		{Server: "github", Tool: "create_pull_request", Description: "Create a new pull request in a GitHub repository"},
		{Server: "github", Tool: "search_issues", Description: "Search for issues and pull requests across GitHub repositories"},
		{Server: "github", Tool: "get_file_contents", Description: "Get the contents of a file or directory from a GitHub repository"},
		{Server: "gitlab", Tool: "create_issue", Description: "Create a new issue in a GitLab project"},
		{Server: "gitlab", Tool: "get_file_contents", Description: "Get the contents of a file or directory from a GitLab project"},
		{Server: "filesystem", Tool: "read_file", Description: "Read the complete contents of a file as text."},
		{Server: "filesystem", Tool: "list_directory", Description: "Get a detailed listing of all files and directories in a specified path."},
		{Server: "filesystem", Tool: "move_file", Description: "Move or rename files and directories."},
		{Server: "stripe", Tool: "create_refund", Description: "This tool will refund a payment intent in Stripe."},
		{Server: "stripe", Tool: "create_customer", Description: "This tool will create a customer in Stripe."},
		{Server: "memory", Tool: "add_observations", Description: "Add new observations to existing entities in the knowledge graph"},
		{Server: "memory", Tool: "delete_entities", Description: "Delete multiple entities and their associated relations from the knowledge graph"},
		{Server: "slack", Tool: "slack_post_message", Description: "Post a new message to a Slack channel"},
		{Server: "playwright", Tool: "browser_take_screenshot", Description: "Take a screenshot of the current page."},
		{Server: "playwright", Tool: "browser_navigate", Description: "Navigate to a URL"},
		{Server: "mongodb", Tool: "insert-many", Description: "Insert an array of documents into a MongoDB collection"},
		{Server: "context7", Tool: "resolve-library-id", Description: "Resolves a package name to a library ID."},
		{Server: "google-maps", Tool: "maps_geocode", Description: "Convert an address into geographic coordinates",
			InputSchema: schema(map[string]string{"address": "The address to geocode"})},
		{Server: "google-maps", Tool: "maps_reverse_geocode", Description: "Convert coordinates into an address",
			InputSchema: schema(map[string]string{"latitude": "Latitude coordinate", "longitude": "Longitude coordinate"})},
		{Server: "weather", Tool: "forecast", Description: "Weather for a place",
			InputSchema: schema(map[string]string{"zipcode": "Postal code of the place"})},
	}
}

func newTestSearchIndex(t testing.TB) (*Index, []ToolEntry) {
	t.Helper()
	entries := testSearchEntries()
	return NewIndex(entries), entries
}

// searchTopNames returns "server.tool" for the first n hits.
func searchTopNames(entries []ToolEntry, hits []Hit, n int) []string {
	var out []string
	for i, h := range hits {
		if i == n {
			break
		}
		out = append(out, entries[h.Index].Server+"."+entries[h.Index].Tool)
	}
	return out
}

func expectSearchTop(t *testing.T, ix *Index, entries []ToolEntry, query string, want ...string) {
	t.Helper()
	hits := ix.Search(query, 5)
	if len(hits) == 0 {
		t.Errorf("%q: no hits, want %v first", query, want)
		return
	}
	got := searchTopNames(entries, hits, 1)[0]
	if !slices.Contains(want, got) {
		t.Errorf("%q: first hit %s, want one of %v (top: %v)", query, got, want, searchTopNames(entries, hits, 5))
	}
}

func TestTokenizeIdentifiers(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"get_file_contents", []string{"get", "file", "contents"}},
		{"resolve-library-id", []string{"resolve", "library", "id"}},
		{"readFile", []string{"read", "file"}},
		{"getHTTPServerURL", []string{"get", "http", "server", "url"}},
		{"API-post-page", []string{"api", "post", "page"}},
		{"base64Encode", []string{"base", "64", "encode"}},
		{"context7", []string{"context", "7"}},
		{"ec2 instances", []string{"ec", "2", "instances"}},
		{"mcp_github.create_issue", []string{"mcp", "github", "create", "issue"}},
		{"a customer's subscription", []string{"customer", "subscription"}},
		{"Open a Pull Request, please!", []string{"open", "pull", "request"}},
		{"  \t\n ", nil},
		{"Größe ändern", []string{"größe", "ändern"}},
	}
	for _, c := range cases {
		if got := searchSplitWords(c.in, false); !reflect.DeepEqual(got, c.want) {
			t.Errorf("searchSplitWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Stop words are kept on request (a query of stop words only).
	if got := searchSplitWords("all of the above", true); !reflect.DeepEqual(got, []string{"all", "of", "the", "above"}) {
		t.Errorf("searchSplitWords(keepStop) = %q", got)
	}
}

func TestTokenizeStemming(t *testing.T) {
	same := [][]string{
		{"issue", "issues"},
		{"delete", "deleting", "deleted"},
		{"entity", "entities"},
		{"observation", "observations"},
		{"list", "listing", "lists"},
	}
	for _, ws := range same {
		want := searchStem(ws[0])
		for _, w := range ws[1:] {
			if got := searchStem(w); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q; want equal", ws[0], want, w, got)
			}
		}
	}
	// Over-stemming the catalogs cannot afford.
	if searchStem("production") == searchStem("product") {
		t.Error(`"production" and "product" share a stem`)
	}
	if got := searchStem("64"); got != "64" {
		t.Errorf("stem(64) = %q", got)
	}
	toks := searchTokenize("Deleting Entities", false)
	if len(toks) != 2 || toks[0].surface != "deleting" || toks[0].stem != searchStem("delete") {
		t.Errorf("searchTokenize = %+v", toks)
	}
}

func TestSearchStemming(t *testing.T) {
	ix, entries := newTestSearchIndex(t)
	expectSearchTop(t, ix, entries, "deleting entities", "memory.delete_entities")
	expectSearchTop(t, ix, entries, "observation", "memory.add_observations")
	expectSearchTop(t, ix, entries, "refunds", "stripe.create_refund")
}

func TestSynonymTable(t *testing.T) {
	has := func(word, related string) bool {
		for _, e := range theSearchVocab().synonymStems(word, searchStem(word)) {
			if e.stem == searchStem(related) {
				return true
			}
		}
		return false
	}
	for _, c := range [][2]string{
		{"make", "create"}, {"open", "create"}, {"remove", "delete"}, {"drop", "delete"},
		{"enumerate", "list"}, {"fetch", "get"}, {"retrieve", "get"}, {"modify", "update"},
		{"find", "search"}, {"lookup", "search"}, {"publish", "send"}, {"reimburse", "refund"},
		{"folder", "directory"}, {"remember", "memory"},
		{"deleting", "remove"}, // inflections find the entry of their base form
		{"folders", "directory"},
		{"wiki", "notion"}, {"crm", "hubspot"}, // a kind of product, by the products of that kind
	} {
		if !has(c[0], c[1]) {
			t.Errorf("%q is not related to %q", c[0], c[1])
		}
	}
	// The tables are keyed by word, not stem: "customer" shares a stem with
	// "custom", but WordNet's custom -> usage must not apply to it.
	if has("customer", "usage") {
		t.Error(`"customer" is related to "usage" (through the stem of "custom")`)
	}
	for _, e := range theSearchVocab().synonymStems("create", searchStem("create")) {
		if e.stem == searchStem("create") {
			t.Error("a word is listed as its own synonym")
		}
		if e.weight >= 1 || e.weight <= 0 {
			t.Errorf("synonym %q weighs %v, want in (0, 1)", e.stem, e.weight)
		}
	}
}

func TestSearchSynonyms(t *testing.T) {
	ix, entries := newTestSearchIndex(t)
	expectSearchTop(t, ix, entries, "open a pull request", "github.create_pull_request")
	expectSearchTop(t, ix, entries, "reimburse a payment", "stripe.create_refund")
	expectSearchTop(t, ix, entries, "remember this fact", "memory.add_observations")
	expectSearchTop(t, ix, entries, "show what is in a folder", "filesystem.list_directory")
	expectSearchTop(t, ix, entries, "rename a file", "filesystem.move_file")
	// An exact word outranks a synonym: "insert" is a synonym of "add", but
	// "add a comment" is add_issue_comment.
	expectSearchTop(t, ix, entries, "add a comment", "github.add_issue_comment")
}

func TestSearchIdentifiers(t *testing.T) {
	ix, entries := newTestSearchIndex(t)
	expectSearchTop(t, ix, entries, "get_file_contents", "github.get_file_contents", "gitlab.get_file_contents")
	expectSearchTop(t, ix, entries, "getFileContents", "github.get_file_contents", "gitlab.get_file_contents")
	expectSearchTop(t, ix, entries, "readFile", "filesystem.read_file")
	expectSearchTop(t, ix, entries, "resolveLibraryId", "context7.resolve-library-id")
	expectSearchTop(t, ix, entries, "insertMany", "mongodb.insert-many")
	expectSearchTop(t, ix, entries, "postMessage", "slack.slack_post_message")
	expectSearchTop(t, ix, entries, "github.create_issue", "github.create_issue")
	expectSearchTop(t, ix, entries, "mcp_gitlab.create_issue", "gitlab.create_issue")
	expectSearchTop(t, ix, entries, "browser_nav", "playwright.browser_navigate") // prefix
	expectSearchTop(t, ix, entries, "rdfile", "filesystem.read_file")             // fuzzy
	// The exact name wins over longer names that contain it.
	hits := ix.Search("create_issue", 0)
	if got := searchTopNames(entries, hits, 2); !slices.Contains(got, "github.create_issue") || !slices.Contains(got, "gitlab.create_issue") {
		t.Errorf("create_issue: top 2 = %v", got)
	}
}

func TestSearchTypos(t *testing.T) {
	ix, entries := newTestSearchIndex(t)
	expectSearchTop(t, ix, entries, "serach issues", "github.search_issues")
	expectSearchTop(t, ix, entries, "pul request", "github.create_pull_request")
	expectSearchTop(t, ix, entries, "screenshoot", "playwright.browser_take_screenshot")
	expectSearchTop(t, ix, entries, "refnud", "stripe.create_refund")
	expectSearchTop(t, ix, entries, "craete customer", "stripe.create_customer")
	expectSearchTop(t, ix, entries, "geocod adress", "google-maps.maps_geocode")
	// "mongo" is a prefix of a known word.
	expectSearchTop(t, ix, entries, "mongo insert", "mongodb.insert-many")

	// Known words are not "corrected".
	groups, _ := ix.expand("issue")
	for _, g := range groups {
		for _, e := range g {
			if e.weight == searchTypoWeight1 || e.weight == searchTypoWeight2 {
				t.Errorf("known word expanded with correction %q", e.stem)
			}
		}
	}
}

func TestOSADistance(t *testing.T) {
	var b searchOSA
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"search", "search", 0}, {"serach", "search", 1}, {"pul", "pull", 1}, {"slak", "slack", 1},
		{"kitten", "sitting", 3}, {"", "abc", 3}, {"naviagte", "navigate", 1}, {"dowload", "download", 1},
	} {
		got := b.distance([]rune(c.a), []rune(c.b), 5)
		if got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if got := b.distance([]rune("kitten"), []rune("sitting"), 1); got != 2 {
		t.Errorf("bounded distance = %d, want 2 (maxD+1)", got)
	}
}

func TestSearchScoped(t *testing.T) {
	ix, entries := newTestSearchIndex(t)
	expectSearchTop(t, ix, entries, "gitlab create issue", "gitlab.create_issue")
	expectSearchTop(t, ix, entries, "github create issue", "github.create_issue")
	expectSearchTop(t, ix, entries, "gitlab file contents", "gitlab.get_file_contents")
	expectSearchTop(t, ix, entries, "github issue comments", "github.add_issue_comment")
	expectSearchTop(t, ix, entries, "google maps geocode", "google-maps.maps_geocode")

	// A bare server name lists that server's tools.
	hits := ix.Search("memory", 0)
	if got := searchTopNames(entries, hits, 2); len(got) != 2 || !strings.HasPrefix(got[0], "memory.") || !strings.HasPrefix(got[1], "memory.") {
		t.Errorf("memory: top %v", got)
	}
	// A server name used as an ordinary word does not drag in that server:
	// "memory" tools do not win "delete entities from memory" only by name,
	// and a query naming no server is not scoped.
	expectSearchTop(t, ix, entries, "delete entities from memory", "memory.delete_entities")
}

// Only the query's own words name a server: an idiom rewrites "make the
// meeting longer" to "update event duration end time", and the server named
// time is not what it asks for.
func TestSearchRewriteNamesNoServer(t *testing.T) {
	entries := []ToolEntry{
		{Server: "time", Tool: "convert_time", Description: "Convert a time between timezones"},
		{Server: "time", Tool: "get_current_time", Description: "Get the current time in a timezone"},
		{Server: "calendar", Tool: "edit_meeting", Description: "Change a meeting: its title, when it starts and how long it lasts"},
		{Server: "calendar", Tool: "create_meeting", Description: "Put a new meeting on the calendar"},
	}
	ix := NewIndex(entries)
	expectSearchTop(t, ix, entries, "make the meeting longer", "calendar.edit_meeting")
	expectSearchTop(t, ix, entries, "extend the meeting", "calendar.edit_meeting")
	// Said by the query itself, the name still scopes.
	if got := searchTopNames(entries, ix.Search("time", 0), 2); len(got) != 2 || !strings.HasPrefix(got[0], "time.") || !strings.HasPrefix(got[1], "time.") {
		t.Errorf("time: top %v, want the time server's tools", got)
	}
}

// A query may name a server by the start of its name: "mongo" is mongodb,
// but "cloud" is not cloudflare (too little of it) and "post" not postgres.
func TestSearchScopedByShortName(t *testing.T) {
	entries := []ToolEntry{
		{Server: "mongodb", Tool: "collection_indexes", Description: "List the indexes of a collection"},
		{Server: "search", Tool: "list_indexes", Description: "List the indexes of a search engine"},
		{Server: "cloudflare", Tool: "r2_list_buckets", Description: "List storage buckets"},
		{Server: "drive", Tool: "list_buckets", Description: "List buckets in the cloud"},
	}
	ix := NewIndex(entries)
	expectSearchTop(t, ix, entries, "list indexes in mongo", "mongodb.collection_indexes")
	expectSearchTop(t, ix, entries, "list buckets in the cloud", "drive.list_buckets")
	for q, want := range map[string]bool{"mongo mongodb": true, "postgres postgresql": true, "cloud cloudflare": false, "post postgres": false, "mongodb mongodb": false} {
		f := strings.Fields(q)
		if got := searchShortFor(f[0], f[1]); got != want {
			t.Errorf("searchShortFor(%q, %q) = %v, want %v", f[0], f[1], got, want)
		}
	}
}

// A query may name a server by the initial of a word and the next word:
// "team docs" is tdocs, as "google drive" is gdrive, also when "docs" is
// a word of the index (which a typo of the name would not be).
func TestSearchScopedByInitial(t *testing.T) {
	entries := []ToolEntry{
		{Server: "tdocs", Tool: "search", Description: "Search for files"},
		{Server: "slides", Tool: "find_deck", Description: "Find slides in the docs"},
	}
	ix := NewIndex(entries)
	expectSearchTop(t, ix, entries, "find the Q4 board deck in team docs", "tdocs.search")
	expectSearchTop(t, ix, entries, "find the Q4 board deck", "slides.find_deck")
	// The name as written: "show entries" is no "sentries", though its stem
	// is sentry's.
	entries = append(entries, ToolEntry{Server: "sentry", Tool: "list_issues", Description: "List issues"})
	ix = NewIndex(entries)
	groups, intent := ix.expand("show entries in docs")
	if named, _ := ix.namedServers(intent.own, groups); named != nil {
		t.Errorf("show entries in docs names servers: %v", named)
	}
}

func TestSearchParameters(t *testing.T) {
	ix, entries := newTestSearchIndex(t)
	// "zipcode" occurs only in the forecast tool's parameters.
	expectSearchTop(t, ix, entries, "zipcode", "weather.forecast")
	// "postal code" alone also finds the geocoding tools, whose "address" the
	// lexicon relates to codes; the place settles it.
	expectSearchTop(t, ix, entries, "postal code of a place", "weather.forecast")
	// "latitude longitude" is in the reverse geocoder's parameters only.
	// The idioms give it to the forward geocoder too, as what people say
	// when they want a place's latitude and longitude: the two lead, in
	// either order.
	top := searchTopNames(entries, ix.Search("latitude longitude", 5), 2)
	if !slices.Contains(top, "google-maps.maps_reverse_geocode") || !slices.Contains(top, "google-maps.maps_geocode") {
		t.Errorf(`"latitude longitude": top two %v, want both geocoders`, top)
	}
}

func TestSearchEmptyQuery(t *testing.T) {
	ix, _ := newTestSearchIndex(t)
	for _, q := range []string{"", "   ", "\t\n", "!!! ??? ...", "-_-", "the of and", "\x00\xff"} {
		if hits := ix.Search(q, 5); len(hits) != 0 {
			t.Errorf("Search(%q) = %v, want no hits", q, hits)
		}
	}
	if hits := NewIndex(nil).Search("issue", 5); hits != nil {
		t.Errorf("empty index: %v", hits)
	}
	var nilIndex *Index
	if hits := nilIndex.Search("issue", 5); hits != nil {
		t.Errorf("nil index: %v", hits)
	}
	// No hit ever has a zero score.
	for _, q := range []string{"issue", "zzzzqqq", "x", "create"} {
		for _, h := range ix.Search(q, 0) {
			if h.Score <= 0 {
				t.Errorf("Search(%q): hit with score %v", q, h.Score)
			}
		}
	}
}

// A word whose every related stem another word of the query reaches more
// strongly ("go" in "go away", a phrase of the lexicon) leaves no empty
// group behind: the name bonuses read each group's first stem, and an empty
// group made Search panic.
func TestSearchWordAllTakenByAPhrase(t *testing.T) {
	ix, entries := newTestSearchIndex(t)
	for _, q := range []string{"make it go away", "the popup should go away"} {
		groups, _ := ix.expand(q)
		for i, g := range groups {
			if len(g) == 0 {
				t.Errorf("expand(%q): group %d of %d is empty", q, i, len(groups))
			}
		}
		_ = ix.Search(q, 5)
	}
	expectSearchTop(t, ix, entries, "make the entities go away", "memory.delete_entities")
}

func TestSearchLimit(t *testing.T) {
	ix, _ := newTestSearchIndex(t)
	all := ix.Search("create", 0)
	if len(all) < 4 {
		t.Fatalf("create: %d hits, want several", len(all))
	}
	for _, limit := range []int{1, 2, 3} {
		got := ix.Search("create", limit)
		if len(got) != limit || !reflect.DeepEqual(got, all[:limit]) {
			t.Errorf("limit %d: %v, want %v", limit, got, all[:limit])
		}
	}
	if got := ix.Search("create", -1); !reflect.DeepEqual(got, all) {
		t.Errorf("limit -1: %d hits, want all %d", len(got), len(all))
	}
	if got := ix.Search("create", 1000); !reflect.DeepEqual(got, all) {
		t.Errorf("limit 1000: %d hits, want all %d", len(got), len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i].Score > all[i-1].Score {
			t.Fatalf("hits not best first: %v", all)
		}
	}
}

func TestSearchDeterministicTies(t *testing.T) {
	// Identical tools: equal scores, ordered by server then tool, whatever
	// the input order.
	mk := func(order []int) []string {
		base := []ToolEntry{
			{Server: "zeta", Tool: "send_message", Description: "Send a message"},
			{Server: "alpha", Tool: "send_message", Description: "Send a message"},
			{Server: "mid", Tool: "send_message", Description: "Send a message"},
			{Server: "mid", Tool: "send_messages", Description: "Send a message"},
		}
		var es []ToolEntry
		for _, i := range order {
			es = append(es, base[i])
		}
		hits := NewIndex(es).Search("message", 0)
		var got []string
		for _, h := range hits {
			got = append(got, es[h.Index].Server+"."+es[h.Index].Tool)
		}
		return got
	}
	a := mk([]int{0, 1, 2, 3})
	b := mk([]int{3, 2, 1, 0})
	c := mk([]int{2, 0, 3, 1})
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
		t.Errorf("order depends on input: %v / %v / %v", a, b, c)
	}
	// Repeated searches give identical results.
	ix, _ := newTestSearchIndex(t)
	first := ix.Search("create issue", 0)
	for range 20 {
		if got := ix.Search("create issue", 0); !reflect.DeepEqual(got, first) {
			t.Fatal("results differ between runs")
		}
	}
	// Equal scores: server then tool order.
	eq := NewIndex([]ToolEntry{
		{Server: "b", Tool: "x_tool", Description: "frobnicate"},
		{Server: "a", Tool: "y_tool", Description: "frobnicate"},
		{Server: "a", Tool: "x_tool", Description: "frobnicate"},
	})
	got := eq.Search("frobnicate", 0)
	want := []int{2, 1, 0} // a.x_tool, a.y_tool, b.x_tool
	if len(got) != 3 || got[0].Score != got[2].Score {
		t.Fatalf("hits: %v", got)
	}
	for i, h := range got {
		if h.Index != want[i] {
			t.Errorf("tie order: %v, want indices %v", got, want)
			break
		}
	}
}

func TestSearchConcurrent(t *testing.T) {
	ix, _ := newTestSearchIndex(t)
	queries := []string{"open a pull request", "serach issues", "readFile", "github issue comments", "refund", "", "mongo insert"}
	want := make([][]Hit, len(queries))
	for i, q := range queries {
		want[i] = ix.Search(q, 5)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				i := (g + k) % len(queries)
				if got := ix.Search(queries[i], 5); !reflect.DeepEqual(got, want[i]) {
					select {
					case errs <- fmt.Sprintf("%q: %v, want %v", queries[i], got, want[i]):
					default:
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// A query is readied for splitting into words: idioms rewritten, and the
// answer a question asks for added.
func TestSearchPhrases(t *testing.T) {
	checkRewrites(t, "prepare", theSearchVocab().prepare, map[string]string{
		"how many documents":  "count documents",
		"How Many documents":  "count documents",
		"showmany things":     "showmany things",
		"look up a user":      "lookup a user",
		"how many how many":   "count count",
		"sign in; log in":     "login; login",
		"İstanbul how much":   "İstanbul amount",
		"readFile how many x": "readFile count x",
		// A leading question word adds the kind of answer it asks for;
		// the same word later in the query adds nothing.
		"why does it fail":           "why does it fail cause",
		"  Who owns it":              "  Who owns it user owner",
		"notify me when it ends":     "notify me when it ends",
		"whoever":                    "whoever",
		"change every order":         "change many multiple order",
		"How do I refund a charge":   "How do I refund a charge documentation docs",
		"how do i get to the museum": "directions route the museum",
		"where is the cafe how far?": "where is the cafe distance? location place",
		// The longest phrase at a word wins, wherever it is in the list.
		"running out of room":    "disk usage size",
		"running out of credits": "quota limit usage credits",
		// Typographic apostrophes are read as plain ones.
		"sign in; log in; how many": "login; login; count",
	})
	for _, q := range []string{"I can\u2019t log in", "I can\u2018t log in", "I can\u02bct log in"} {
		if got, want := theSearchVocab().prepare(q), theSearchVocab().prepare("I can't log in"); got != want {
			t.Errorf("prepare(%q) = %q, want %q as with a plain apostrophe", q, got, want)
		}
	}
	seen := map[string]bool{}
	for _, p := range theSearchVocab().idioms {
		if k := strings.ToLower(p.from); seen[k] {
			t.Errorf("the phrase %q is listed twice", p.from)
		} else {
			seen[k] = true
		}
	}
}

// An idiom with a slot matches its head, one to four words and its tail:
// the head is rewritten, the slot's words kept (and rewritten in turn), the
// tail dropped, but for a last word that says which way (into, to, from,
// as). Of several that match at a word, the one whose tail comes soonest
// wins, then the longest tail; one whose one-word tail starts a longer
// phrase does not match.
func TestSearchSlottedIdioms(t *testing.T) {
	v := newSearchVocab("", `
bring * back -> restore
make * public -> publish visibility
how many -> count
turn off -> disable
turn * off -> disable
turn * off and on again -> restart
get * to -> send
get * back online -> restore
turn * into -> convert
are * running -> status running
running out of -> quota
bring * up to date -> update
up to date with -> synced
how many * left -> remaining
start * again -> restart
start emailing * again -> resubscribe
make the private * public -> open up
make * private -> restrict
`)
	checkRewrites(t, "prepare", v.prepare, map[string]string{
		"bring a paused project back":           "restore a paused project",
		"Bring it back":                         "restore it",
		"bring back the old one":                "bring back the old one",
		"bring our three old projects back now": "restore our three old projects now",
		"bring one two three four five back":    "bring one two three four five back",
		"make Acme's new-site repo public":      "publish visibility Acme's new-site repo",
		"make it public, please":                "publish visibility it, please",
		"make it, public":                       "make it, public",
		"make how many public":                  "publish visibility count",
		"turn off the lights":                   "disable the lights",
		"turn the porch lights off":             "disable the porch lights",
		"turn the lights offline":               "turn the lights offline",
		"bring back":                            "bring back",
		"bring  it back":                        "bring  it back",
		"bring it back bring that back":         "restore it restore that",
		"bring make it public back":             "restore make it public",
		// Of several that match, the soonest tail, then the longest, wins,
		// wherever it is in the list.
		"turn the router off and on again":    "restart the router",
		"turn the router off again":           "disable the router again",
		"get the server back online to serve": "restore the server to serve",
		"get the report to Sam":               "send the report to Sam",
		"turn an address into coordinates":    "convert an address into coordinates",
		// A one-word tail that starts a longer phrase gives way to it; a
		// longer tail does not.
		"are the jobs running":                 "status running the jobs",
		"are we running out of space":          "are we quota space",
		"bring my branch up to date with main": "update my branch with main",
		// A whole phrase no longer than a head gives way to the phrase
		// with the slot, whose tail says more.
		"how many seats are left": "remaining seats are",
		"how many seats":          "count seats",
		// A slot holds a word with a dot, "@", "/" or ":" inside it whole.
		"make config.yaml public": "publish visibility config.yaml file",
		"bring jane@acme.io back": "restore jane@acme.io email",
		"bring deploy/web back":   "restore deploy/web kubernetes resource",
		"bring it. back":          "bring it. back",
		"bring v1.2 back.":        "restore v1.2.",
		// Of two with the same tail, the longer head wins; a head that
		// holds another's tail wins over it.
		"start emailing the list again": "resubscribe the list",
		"start the list again":          "restart the list",
		"make the private repo public":  "open up repo",
		"make the old repo private":     "restrict the old repo",
	})
	// A slot's phrase does not start inside another's slot.
	if got := v.prepare("bring turn it off back"); got != "restore turn it off" {
		t.Errorf("prepare(%q) = %q", "bring turn it off back", got)
	}
}

// TestSearchQuotedContent checks that the text a short request to write
// quotes after a colon is not read as a request: "file a bug: the button
// does nothing" asks for an issue, whatever idioms its text holds.
func TestSearchQuotedContent(t *testing.T) {
	v := newSearchVocab("", `
file a bug -> create issue
does nothing -> broken logs
`)
	checkRewrites(t, "prepare", v.prepare, map[string]string{
		"file a bug: the login button does nothing":    "create issue: the login button does nothing",
		"post in the channel: the export does nothing": "post in the channel: the export does nothing",
		// No word of writing before the colon, or too many words: no quote.
		"the export does nothing: why":                                            "the export broken logs: why",
		"if I click it and wait and wait and then post it: the page does nothing": "if I click it and wait and wait and then post it: the page broken logs",
		"file a bug:the page does nothing":                                        "create issue:the page broken logs",
	})
}

// TestSearchQuotedWords checks that the words a query says only in quoted
// text (a title between quotes, the text after a short request to write)
// count less than its request: a card called 'Fix login' is no sign-in.
func TestSearchQuotedWords(t *testing.T) {
	for q, want := range map[string]string{
		"put a card called 'Fix login' on the list": "fix login",
		"post \u201cdeploy done\u201d to #eng":      "deploy done",
		"file a bug: the login button does nothing": "button login noth",
		"add a page called 'page two'":              "two", // "page" is said outside the quotes too
		"what's Tom's job title":                    "",    // apostrophes, not quotes
		"find the issue":                            "",
		"drag invoice.pdf into the form":            "invoic", // a file's name, not its extension
		"open Daily/2026-11-30.md and notes.txt":    "11 2026 30 daili note",
		"what changed in node.js 22":                "",
	} {
		var got []string
		for st := range searchQuotedStems(q) {
			got = append(got, st)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != want {
			t.Errorf("searchQuotedStems(%q) = %q, want %q", q, strings.Join(got, " "), want)
		}
	}
	entries := []ToolEntry{
		{Server: "board", Tool: "add_card", Description: "Add a card to a list"},
		{Server: "chat", Tool: "login", Description: "Log in to the chat with a token"},
	}
	words := newSearchVocab(searchDomainTable, "")
	q := "add the 'fix chat login token' card"
	expectSearchTop(t, newIndex(entries, defaultSearchParams, words), entries, q, "board.add_card")
	p := defaultSearchParams
	p.quoted = 1
	expectSearchTop(t, newIndex(entries, p, words), entries, q, "chat.login")
}

// checkRewrites checks that f, named name, rewrites each key of cases to its
// value.
func checkRewrites(t *testing.T, name string, f func(string) string, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q) = %q, want %q", name, in, got, want)
		}
	}
}

func TestSearchLongQuery(t *testing.T) {
	ix, _ := newTestSearchIndex(t)
	long := strings.Repeat("create issue serach zzqx ", 500)
	if hits := ix.Search(long, 5); len(hits) == 0 {
		t.Error("long query: no hits")
	}
}

func FuzzSearch(f *testing.F) {
	for _, s := range []string{
		"", "open a pull request", "serach issues", "readFile", "get_file_contents", "github.create_issue",
		"mcp_slack.slack_get_users", "how many", "İ", "\xff\xfe", "a'b's", "HTTPServer2Go", "   ", "pul",
		strings.Repeat("x", 600), "Größe 🚀 ändern", "github issue comments",
	} {
		f.Add(s, 5)
	}
	ix, entries := newTestSearchIndex(f)
	f.Fuzz(func(t *testing.T, q string, limit int) {
		hits := ix.Search(q, limit)
		if limit > 0 && len(hits) > limit {
			t.Fatalf("%d hits for limit %d", len(hits), limit)
		}
		seen := map[int]bool{}
		for i, h := range hits {
			if h.Index < 0 || h.Index >= len(entries) || seen[h.Index] {
				t.Fatalf("bad or repeated index %d", h.Index)
			}
			seen[h.Index] = true
			if !(h.Score > 0) {
				t.Fatalf("score %v", h.Score)
			}
			if i > 0 && h.Score > hits[i-1].Score {
				t.Fatalf("not sorted: %v", hits)
			}
		}
		if utf8.ValidString(q) && strings.TrimSpace(q) == "" && len(hits) != 0 {
			t.Fatalf("blank query %q: %v", q, hits)
		}
	})
}

// A value written into a query says what kind of thing it is about.
func TestSearchLiteralKinds(t *testing.T) {
	checkRewrites(t, "searchLiteralKinds", searchLiteralKinds, map[string]string{
		"show the last lines of server.log":     "show the last lines of server.log file",
		"what is in ~/notes/today":              "what is in ~/notes/today file path",
		"load example.com and click around":     "load example.com and click around url page website",
		"open https://acme.dev/pricing":         "open https://acme.dev/pricing url page website",
		"tell #eng the deploy is done":          "tell #eng the deploy is done channel",
		"find jane@example.com":                 "find jane@example.com email", // its domain is not a page
		"what is at 48.8584, 2.2945":            "what is at 48.8584, 2.2945 coordinates latitude longitude from coordinates latitude longitude",
		"multiply 3.5, 2.5":                     "multiply 3.5, 2.5",            // two numbers
		"how do I use node.js streams":          "how do I use node.js streams", // a library, not a file
		"look at cat.png":                       "look at cat.png file media image",
		"diff a.yaml and b.yaml":                "diff a.yaml and b.yaml file multiple",
		"a.txt, b.txt and c.txt":                "a.txt, b.txt and c.txt file multiple",
		"hit the pod from localhost:5432":       "hit the pod from localhost:5432 port localhost",
		"issue #12 and the c# docs":             "issue #12 and the c# docs",
		"mail a@b.io the report.pdf from a.co":  "mail a@b.io the report.pdf from a.co email file url page website",
		"ping 10.0.0.5":                         "ping 10.0.0.5 ip address",
		"is 10.0.0.5 in 10.0.0.0/8":             "is 10.0.0.5 in 10.0.0.0/8 ip address subnet network range",
		"is 2.3.1 newer than 2.10.0":            "is 2.3.1 newer than 2.10.0 version", // not an IP address
		"upgrade to v1.4.0-rc.1":                "upgrade to v1.4.0-rc.1 version",
		"what weekday was 4 july 1976":          "what weekday was 4 july 1976 date",
		"due 2024-05-01":                        "due 2024-05-01 date",
		"move my 2pm meeting to 4:30":           "move my 2pm meeting to 4:30 time",
		"charge $20 to the card":                "charge $20 to the card amount price currency",
		"a 20% discount":                        "a 20% discount percent percentage",
		"is 4111 1111 1111 1111 valid":          "is 4111 1111 1111 1111 valid card number",
		"U024BE7LH's title":                     "U024BE7LH's title user member",
		"post in C01ABCD2EF":                    "post in C01ABCD2EF channel id",
		"logs of dpl_8xYz":                      "logs of dpl_8xYz deployment",
		"refund pi_123 for cus_Nf8":             "refund pi_123 for cus_Nf8 customer payment charge",
		"words of https://youtu.be/dQw4w9WgXcQ": "words of https://youtu.be/dQw4w9WgXcQ url page website video",
		"USA and UK2024":                        "USA and UK2024", // no ID's shape
		"call +1 415 555 0100":                  "call +1 415 555 0100 phone number",
		"how many feet is 3 meters":             "how many feet is 3 meters convert unit",
		"20 celsius in fahrenheit":              "20 celsius in fahrenheit convert unit",
		"3 metres in meters":                    "3 metres in meters",        // one unit, spelt two ways
		"buffer 3 meters around it":             "buffer 3 meters around it", // one unit: no conversion
		"what does SELECT name FROM users give": "what does SELECT name FROM users give sql query database",
		"select a row from the table":           "select a row from the table", // words, not a statement
		"run it at 0 3 * * 1":                   "run it at 0 3 * * 1 cron schedule",
		"add 1 2 3 4 5":                         "add 1 2 3 4 5", // five numbers, no star or range
		"what is DATABASE_URL set to":           "what is DATABASE_URL set to environment variable",
		"read the README":                       "read the README", // one capitalised word
		"copy gs://acme/logs here":              "copy gs://acme/logs here bucket object storage",
		"restart deploy/web":                    "restart deploy/web kubernetes resource",
		"select * from orders where id = 3":     "select * from orders where id = 3 sql query database",
		"every 0 0 1 * * and */5 * * * *":       "every 0 0 1 * * and */5 * * * * cron schedule",
		"what is 2 * 3 * 4 * 5 * 6":             "what is 2 * 3 * 4 * 5 * 6 sum calculate arithmetic", // arithmetic, no cron: no two stars in a row
		"move PROJ-123 to Done":                 "move PROJ-123 to Done issue",
		"the SHA-256 of it, in UTF-8":           "the SHA-256 of it, in UTF-8", // standards, not issues
		"what's hot on r/golang":                "what's hot on r/golang subreddit reddit",
		"pull node:20-alpine":                   "pull node:20-alpine container image",
		"run nginx:latest and python:3.12":      "run nginx:latest and python:3.12 container image",
		"store it under user:42 at 10:30":       "store it under user:42 at 10:30 time", // a key and a time, no image
		"an aws_s3_bucket with versioning":      "an aws_s3_bucket with versioning terraform resource provider",
	})
}

// Opaque values (IDs, hashes, keys) are not split into words.
func TestSearchDropOpaque(t *testing.T) {
	checkRewrites(t, "searchDropOpaque", searchDropOpaque, map[string]string{
		"hours for ChIJN1t_tDeuEmsRUsoyG83frY4":           "hours for",
		"show commit a3f9c2d":                             "show commit",
		"get 550e8400-e29b-41d4-a716-446655440000 please": "get please",
		"sha256sum of a file":                             "sha256sum of a file",
		"start an ec2 instance":                           "start an ec2 instance",
		"read PMC1234567":                                 "read PMC1234567",
		"call get_v2_3_items":                             "call get_v2_3_items",
		"refund pi_123":                                   "refund pi_123",
	})
}

// A word of one or two letters takes no dictionary senses ("fr" is not
// francium, "t" not thymine); a numeral still does ("4" is four).
func TestShortWordsTakeNoDictionarySenses(t *testing.T) {
	ix, _ := newTestSearchIndex(t)
	stems := func(q string) map[string]bool {
		groups, _ := ix.expand(q)
		m := map[string]bool{}
		for _, g := range groups {
			for _, e := range g {
				m[e.stem] = true
			}
		}
		return m
	}
	got := stems("t fr em 4")
	for _, s := range []string{"thymin", "francium", "em_quad"} {
		if got[s] {
			t.Errorf("a short word was expanded to %q", s)
		}
	}
	if !got["four"] {
		t.Error(`"4" was not expanded to "four"`)
	}
	if !stems("francium")["fr"] && !stems("francium")["element"] {
		t.Error("a long word lost its dictionary senses")
	}
}

// The words of a server's description count for its tools: of two servers
// with the same tools, the one described as what the query names comes
// first, and without descriptions the other one does (names break ties).
func TestSearchServerDescription(t *testing.T) {
	tools := func(desc string) []ToolEntry {
		var out []ToolEntry
		for _, server := range []string{"alpha", "zeta"} {
			d := ""
			if server == "zeta" {
				d = desc
			}
			for _, tool := range []string{"get_page", "create_page", "list_users"} {
				out = append(out, ToolEntry{Server: server, Tool: tool, Description: strings.ReplaceAll(tool, "_", " ") + ".", ServerDescription: d})
			}
		}
		return out
	}
	for desc, want := range map[string]string{"": "alpha", "Our team wiki": "zeta"} {
		ix := NewIndex(tools(desc))
		entries := tools(desc)
		hits := ix.Search("get a page from the wiki", 3)
		if len(hits) == 0 {
			t.Fatalf("description %q: no hits", desc)
		}
		if e := entries[hits[0].Index]; e.Server != want || e.Tool != "get_page" {
			t.Errorf("description %q: first hit %s.%s, want %s.get_page", desc, e.Server, e.Tool, want)
		}
	}
}

// Every word of the related-word table says something: a word on the left
// is one token as a query splits it (else no query word finds its line),
// and each word on the right gives a stem (a stop word or a split word
// would be dropped without a word).
func TestSynonymTableWordsSaySomething(t *testing.T) {
	lineOf := map[string]int{} // a left word -> its line
	for i, line := range strings.Split(searchDomainTable, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		right, group := strings.CutPrefix(line, "=")
		if !group {
			left, r, ok := strings.Cut(line, ":")
			if !ok {
				t.Errorf("line %q is neither a group nor word: words", line)
				continue
			}
			if toks := searchTokenize(left, true); len(toks) != 1 {
				t.Errorf("line %q: %q is %d words to a query", line, left, len(toks))
			}
			// One line a word, so that what a word finds is read in one
			// place.
			w := strings.ToLower(strings.TrimSpace(left))
			if j, ok := lineOf[w]; ok {
				t.Errorf("related.txt:%d: %q has a line already, at %d", i+1, w, j)
			}
			lineOf[w] = i + 1
			right = r
		}
		for _, w := range strings.Fields(right) {
			if searchTableStem(w) == "" {
				t.Errorf("line %q: %q gives no stem", line, w)
			}
		}
	}
}

// Every multi-word lemma of the lexicon and every idiom, alone and in a few
// sentence frames, is searched without a panic. Before the empty-group fix,
// 602 of these panicked ("auction off", "assert oneself"), while the fuzzer
// had found none: it seldom writes two words that make a phrase. Under
// -short (the race run) every tenth phrase is tried.
func TestSearchNeverPanicsOnPhrases(t *testing.T) {
	ix, _ := newTestSearchIndex(t)
	var phrases []string
	for _, w := range theLexicon().wordStrs {
		if strings.Contains(w, "_") {
			phrases = append(phrases, strings.ReplaceAll(w, "_", " "))
		}
	}
	for _, p := range theSearchVocab().idioms {
		phrases = append(phrases, strings.Replace(p.from, "*", "the thing", 1))
	}
	step := 1
	if testing.Short() {
		step = 10
	}
	n := 0
	for i := 0; i < len(phrases); i += step {
		p := phrases[i]
		first, rest, _ := strings.Cut(p, " ")
		for _, q := range []string{p, "make it " + p + " now", first + " it " + rest, p + " " + p, first + " " + p} {
			func() {
				defer func() {
					if v := recover(); v != nil {
						t.Errorf("Search(%q) panicked: %v", q, v)
					}
				}()
				ix.Search(q, 5)
				n++
			}()
		}
	}
	if n < 5000/step {
		t.Errorf("only %d queries tried", n)
	}
}

// Every idiom of idioms.txt rewrites its own words (its slot filled with a
// word no phrase holds): a phrase that another line always takes first would
// never fire.
func TestSearchIdiomsFireOnTheirOwnWords(t *testing.T) {
	v := theSearchVocab()
	for _, p := range v.idioms {
		q := strings.Replace(p.from, "*", "zzyzx", 1)
		got := strings.Join(strings.Fields(v.rewritePhrases(q)), " ")
		if !strings.HasPrefix(got, strings.Join(strings.Fields(p.to), " ")) {
			t.Errorf("idioms.txt: %q -> %q: rewritten as %q; an earlier line takes its words", p.from, p.to, got)
		}
	}
}

// A whole phrase whose last word follows a determiner also reads the
// phrase with one word more before that word, which it keeps: "set aside
// my uncommitted changes" is a stash.
func TestSearchIdiomWithAModifier(t *testing.T) {
	v := newSearchVocab("", "set aside my changes -> stash\nmove the meeting -> reschedule event\nlog in -> login\n")
	checkRewrites(t, "rewritePhrases", v.rewritePhrases, map[string]string{
		"set aside my uncommitted changes now": "stash uncommitted now",
		"move the weekly meeting":              "reschedule event weekly",
		"move the meeting":                     "reschedule event",
		"move our weekly meeting":              "move our weekly meeting",       // the phrase's determiner only
		"move the weekly sales meeting":        "move the weekly sales meeting", // one word more only
		"log me in":                            "log me in",                     // no determiner before the last word
	})
}

// Every line of idioms.txt is a comment, blank, or "phrase -> replacement"
// with both sides holding a word: a line that is none of these would be
// skipped without a word.
func TestSearchIdiomsFile(t *testing.T) {
	n := 0
	for i, line := range strings.Split(searchIdioms, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		from, to, ok := strings.Cut(line, " -> ")
		if !ok || strings.TrimSpace(from) == "" || strings.TrimSpace(to) == "" || strings.Contains(to, " -> ") {
			t.Errorf("idioms.txt:%d: %q is not \"phrase -> replacement\"", i+1, line)
			continue
		}
		if n := strings.Count(from, "*"); n > 1 || n == 1 && !strings.Contains(strings.TrimSpace(from)[1:], " * ") {
			t.Errorf("idioms.txt:%d: %q: a phrase holds at most one slot, \" * \", between two words", i+1, line)
			continue
		}
		n++
	}
	if n != len(theSearchVocab().idioms) || n < 2000 {
		t.Errorf("%d idiom lines, %d idioms read", n, len(theSearchVocab().idioms))
	}
}

// Two words side by side in the query count more in the tool that says
// them close together than in one that says both, apart. Over the tuning
// catalogs, "notion create page" is notion's post-page ("Create a page"),
// not create-a-comment ("Create comment", whose page is only in its
// parameters); "who is in the workspace" is slack's get_users ("all users
// in the workspace"), not supabase's list_organizations. Without the bonus,
// neither ranks first. (The second case was "kubernetes describe
// deployment", then "kick off a fresh CI build on feature/login", until
// other changes found them without the bonus, or not with it.)
func TestSearchNear(t *testing.T) {
	entries, _ := loadSearchCatalogs(t, searchCatalogDir)
	cases := map[string]string{
		"notion create page":      "notion.API-post-page",
		"who is in the workspace": "slack.slack_get_users",
	}
	for _, near := range []float64{defaultSearchParams.near, 0} {
		p := defaultSearchParams
		p.near = near
		ix := newIndex(entries, p, theSearchVocab())
		for q, want := range cases {
			top := searchTopNames(entries, ix.Search(q, 5), 5)
			if first := len(top) > 0 && top[0] == want; first != (near > 0) {
				t.Errorf("near %g: %q ranks %v, want %s first only with the bonus", near, q, top, want)
			}
			if !slices.Contains(top, want) {
				t.Errorf("near %g: %q ranks %v, without %s", near, q, top, want)
			}
		}
	}
}

// A British spelling meets the American one (and the other way round):
// the stemmer alone keeps "finalise" ("finalis") apart from "finalize"
// ("final"). A word whose American look-alike is no word stays itself.
func TestSearchBritishSpelling(t *testing.T) {
	for w, want := range map[string]string{
		"finalise": "finalize", "finalised": "finalized", "authorisation": "authorization",
		"colours": "colors", "behaviour": "behavior", "centre": "center",
		"catalogue": "catalog", "licence": "license", "programmes": "programs", "analyse": "analyze",
		"promise": "promise", "exercise": "exercise", "presence": "presence", "enterprise": "enterprise",
		"finalize": "finalize", "color": "color",
	} {
		if got := searchAmericanSpelling(w); got != want {
			t.Errorf("searchAmericanSpelling(%q) = %q, want %q", w, got, want)
		}
	}
	// The two spellings of a query rank the same tools first with the same
	// scores (the dictionary's words related to each, which find the tools
	// further down, differ); before, the British one met the American
	// tools only through the dictionary's synonyms, at a third of the
	// weight.
	entries := []ToolEntry{
		{Server: "pay", Tool: "finalize_invoice", Description: "Finalize a draft invoice"},
		{Server: "pay", Tool: "finalise_payout", Description: "Finalise a payout to the bank account"},
		{Server: "pay", Tool: "void_invoice", Description: "Void an invoice"},
		{Server: "chart", Tool: "set_color", Description: "Set the color of a series"},
		{Server: "chart", Tool: "set_title", Description: "Set the title of a chart"},
		{Server: "docs", Tool: "catalog_search", Description: "Search the product catalogue"},
		{Server: "docs", Tool: "page_search", Description: "Search the pages of the site"},
	}
	ix := NewIndex(entries)
	for british, american := range map[string]string{
		"finalise the invoice":            "finalize the invoice",
		"change the colour of the series": "change the color of the series",
		"search the catalogue":            "search the catalog",
	} {
		b, a := ix.Search(british, 2), ix.Search(american, 2)
		if !slices.Equal(b, a) || len(a) < 2 {
			t.Errorf("%q ranks %v, %q %v", british, b, american, a)
		}
	}
	expectSearchTop(t, ix, entries, "finalise the invoice", "pay.finalize_invoice")
	expectSearchTop(t, ix, entries, "search the catalog", "docs.catalog_search")
}
