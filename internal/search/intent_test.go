package search

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// intentEntries are tools whose names differ only in direction (add or
// remove, mute or unmute, start or stop), a server whose tools list,
// create and finalize one thing, and tools said in words a query might not
// use.
func intentEntries() []ToolEntry {
	return append(testSearchEntries(),
		ToolEntry{Server: "tracker", Tool: "add_label", Description: "Add a label to an issue"},
		ToolEntry{Server: "tracker", Tool: "create_issue", Description: "Create a new issue in a project"},
		ToolEntry{Server: "tracker", Tool: "create_issues", Description: "Create many new issues in a project at once"},
		ToolEntry{Server: "tracker", Tool: "remove_label", Description: "Remove a label from an issue"},
		ToolEntry{Server: "alerts", Tool: "mute_host", Description: "Mute a host"},
		ToolEntry{Server: "alerts", Tool: "unmute_host", Description: "Unmute a host"},
		ToolEntry{Server: "recorder", Tool: "start_recording", Description: "Start recording the screen"},
		ToolEntry{Server: "recorder", Tool: "stop_recording", Description: "Stop recording the screen"},
		ToolEntry{Server: "shop", Tool: "create_invoice", Description: "Create an invoice"},
		ToolEntry{Server: "shop", Tool: "finalize_invoice", Description: "Finalize an invoice"},
		ToolEntry{Server: "shop", Tool: "list_invoices", Description: "List invoices"},
		ToolEntry{Server: "shop", Tool: "create_label", Description: "Create a label"},
		ToolEntry{Server: "shop", Tool: "delete_labels", Description: "Delete labels"},
		ToolEntry{Server: "shop", Tool: "list_labels", Description: "List labels"},
		ToolEntry{Server: "shop", Tool: "create_board", Description: "Create a board"},
		ToolEntry{Server: "shop", Tool: "delete_boards", Description: "Delete boards"},
		ToolEntry{Server: "shop", Tool: "list_boards", Description: "List boards"},
		ToolEntry{Server: "calendar", Tool: "cancel_meeting", Description: "Cancel a meeting"},
		ToolEntry{Server: "calendar", Tool: "schedule_meeting", Description: "Schedule a meeting"},
		ToolEntry{Server: "tickets", Tool: "buy_ticket", Description: "Buy a ticket for an event"},
		ToolEntry{Server: "tickets", Tool: "list_events", Description: "List upcoming events"},
		ToolEntry{Server: "calc", Tool: "add", Description: "Add two numbers"},
		ToolEntry{Server: "scale", Tool: "measure", Description: "Measure the weight of an object"},
	)
}

func TestSearchPhrasalVerbs(t *testing.T) {
	entries := intentEntries()
	ix := NewIndex(entries)
	// WordNet's multi-word lemmas: "call off" is "cancel", also with the
	// object in between.
	expectSearchTop(t, ix, entries, "call off the meeting", "calendar.cancel_meeting")
	expectSearchTop(t, ix, entries, "call the meeting off", "calendar.cancel_meeting")
	expectSearchTop(t, ix, entries, "take the label off the issue", "tracker.remove_label")

	// A word where a noun stands, after a determiner or an adjective,
	// starts no phrasal verb: "the urgent tag on this task" is a tag, not
	// "tag on" (append), whose words would count a tenth.
	for q, want := range map[string]bool{
		"put the urgent tag on this task": false,
		"put a tag on this task":          false,
		"tag on a note at the end":        true,
	} {
		groups, _ := ix.expand(q)
		phrase := false
		for _, g := range groups {
			for _, e := range g {
				phrase = phrase || e.stem == "tag_on"
			}
		}
		if phrase != want {
			t.Errorf("%q read as the phrasal verb tag_on: %v, want %v", q, phrase, want)
		}
	}

	// A verb and its particle apart cover their own words, not the one
	// between: in "got saved about" (read as "get about"), "saved" keeps
	// its weight.
	groups, _ := ix.expand("what have you got saved about Dana")
	saved := 0.0
	for _, g := range groups {
		if g[0].stem == searchStem("saved") {
			saved = g[0].weight
		}
	}
	if saved < 0.5 {
		t.Errorf("\"saved\" between \"got\" and \"about\" weighs %v, as a word of the phrasal verb", saved)
	}
}

func TestSearchDirection(t *testing.T) {
	entries := intentEntries()
	ix := NewIndex(entries)
	// Sibling tools: the query's first word that does or undoes picks one.
	expectSearchTop(t, ix, entries, "detach the label from the issue", "tracker.remove_label")
	expectSearchTop(t, ix, entries, "put a label on the issue", "tracker.add_label")
	expectSearchTop(t, ix, entries, "stop muting the host", "alerts.unmute_host")
	expectSearchTop(t, ix, entries, "revoke the host's mute", "alerts.unmute_host")
	expectSearchTop(t, ix, entries, "silence the host", "alerts.mute_host")
	expectSearchTop(t, ix, entries, "end the screen recording", "recorder.stop_recording")
	expectSearchTop(t, ix, entries, "begin recording the screen", "recorder.start_recording")
	// What a tool gives and starts from ("convert an address into
	// coordinates") against what the query wants and has.
	expectSearchTop(t, ix, entries, "coordinates to an address", "google-maps.maps_reverse_geocode")
	expectSearchTop(t, ix, entries, "from an address to coordinates", "google-maps.maps_geocode")
	// Coordinates written out are what the query has.
	expectSearchTop(t, ix, entries, "what street is at 40.7128, -74.0060", "google-maps.maps_reverse_geocode")
}

func TestSearchListing(t *testing.T) {
	entries := intentEntries()
	ix := NewIndex(entries)
	// The server's name and a plural noun, no verb: the tool that lists.
	expectSearchTop(t, ix, entries, "shop invoices", "shop.list_invoices")
	// "labels" is a plural noun though "label" is mostly a verb, and
	// "boards" though the dictionary has it as a word of its own.
	expectSearchTop(t, ix, entries, "shop labels", "shop.list_labels")
	expectSearchTop(t, ix, entries, "shop boards", "shop.list_boards")
	// With a verb it is the verb's tool.
	expectSearchTop(t, ix, entries, "finalize shop invoices", "shop.finalize_invoice")
}

// TestSearchSingularSibling checks that a query about one thing puts the
// tool for one above its sibling for several when the two score close, and
// leaves them be for a query about several or when they are far apart.
func TestSearchSingularSibling(t *testing.T) {
	entries := intentEntries()
	ix := NewIndex(entries)
	one, many := -1, -1
	for i, e := range entries {
		switch e.Server + "." + e.Tool {
		case "tracker.create_issue":
			one = i
		case "tracker.create_issues":
			many = i
		}
	}
	if one < 0 || many < 0 || ix.intent[one].plural != int32(many) || ix.intent[many].plural != -1 {
		t.Fatalf("create_issue (%d) and create_issues (%d) are not found as siblings: %+v", one, many, ix.intent[one])
	}
	for _, c := range []struct {
		query      string
		oneScore   float64
		wantSwitch bool
	}{
		{"file a bug in the project", 9, true},
		{"file a bug for each page", 9, false},     // "each": several
		{"file bugs in the project", 9, false},     // a plural
		{"file a bug in the project", 5, false},    // far apart: the text decides
		{"list everyone in the project", 9, false}, // "everyone", "list": several
	} {
		_, q := ix.expand(c.query)
		scores := make([]float64, len(entries))
		scores[one], scores[many] = c.oneScore, 10
		ix.intentBonuses(q, scores)
		if got := scores[one] > scores[many]; got != c.wantSwitch {
			t.Errorf("%q with scores %v and 10: the tool for one first = %v, want %v", c.query, c.oneScore, got, c.wantSwitch)
		}
	}
}

func TestSearchLexicon(t *testing.T) {
	entries := intentEntries()
	ix := NewIndex(entries)
	// A query word the tool does not use, related by WordNet: a synonym, and
	// (through the tool's expansion field) the noun an adjective values.
	expectSearchTop(t, ix, entries, "purchase a ticket", "tickets.buy_ticket")
	expectSearchTop(t, ix, entries, "how heavy is my suitcase", "scale.measure")
	// Next to numbers, "plus" is an addition.
	expectSearchTop(t, ix, entries, "what is 12 plus 30", "calc.add")
}

// A participle between a determiner and a noun, or a past participle after
// a form of "be", is the thing's state, not the action asked for: "paused"
// in "bring a paused project back" and "which projects are paused", but
// not in "list paused projects".
func TestSearchAttributive(t *testing.T) {
	for q, want := range map[string]string{
		"bring a paused project back":       "paused",
		"wake the sleeping demo backend":    "sleeping",
		"rerun my failed build":             "failed",
		"which projects are paused":         "paused",
		"list paused projects":              "",
		"the project was paused":            "paused",
		"whether this yaml is well formed":  "formed",
		"which accounts are really linked":  "linked",
		"is it running":                     "",
		"it is red":                         "",
		"show the red button":               "",
		"show the updated":                  "",
		"open the shared drive of the team": "shared",
	} {
		all := searchTokenize(q, true)
		got := ""
		for i := range all {
			if searchAttributive(all, i) {
				got = all[i].surface
			}
		}
		if got != want {
			t.Errorf("%q: attributive %q, want %q", q, got, want)
		}
	}
	// "formed" is not the noun "form" of a tool that fills one in.
	entries := []ToolEntry{
		{Server: "browser", Tool: "fill_form", Description: "Fill out multiple form elements (inputs, selects, checkboxes) at once"},
		{Server: "calc", Tool: "format_validate", Description: "Validate and parse JSON, CSV, XML, or YAML strings"},
	}
	expectSearchTop(t, NewIndex(entries), entries, "check whether this yaml is well formed", "calc.format_validate")
}

// TestSearchQuestionOrRequest checks that a question asks for a tool that
// reads and a request for a change for one that changes, among tools whose
// text fits the query as well: "how much money is in the account" is not a
// refund, though a refund has an amount and a payment.
func TestSearchQuestionOrRequest(t *testing.T) {
	entries := []ToolEntry{
		{Server: "pay", Tool: "create_refund", Description: "Refund an amount of money of a payment to the account"},
		{Server: "pay", Tool: "get_balance", Description: "The balance of an account"},
		{Server: "notes", Tool: "post_note", Description: "A note of the project"},
		{Server: "notes", Tool: "get_note", Description: "A note of the project"},
		{Server: "notes", Tool: "add_memo", Description: "A memo of the project"},
		{Server: "notes", Tool: "read_memo", Description: "A memo of the project"},
		{Server: "repo", Tool: "change_file", Description: "Change a file since the last commit"},
		{Server: "repo", Tool: "show_diff", Description: "The changes to files since the last commit"},
	}
	ix := NewIndex(entries)
	expectSearchTop(t, ix, entries, "how much money is in our payment account", "pay.get_balance")
	expectSearchTop(t, ix, entries, "what's the project's memo", "notes.read_memo")
	// The note's query over the related words without the idioms, which
	// know "save a note" and would decide it alone.
	words := newSearchVocab(searchDomainTable, "")
	expectSearchTop(t, newIndex(entries, defaultSearchParams, words), entries, "save a note in the project", "notes.post_note")
	// A change asked about ("did") is not one asked for.
	expectSearchTop(t, ix, entries, "what did I change since the last commit", "repo.show_diff")
	expectSearchTop(t, ix, entries, "change the file", "repo.change_file")

	// Without the cues, the refund's words win, and of the notes the one
	// the query does not want: the cues, not the text, decide.
	p := defaultSearchParams
	p.ask, p.tell = 0, 0
	plain := newIndex(entries, p, theSearchVocab())
	expectSearchTop(t, plain, entries, "how much money is in our payment account", "pay.create_refund")
	expectSearchTop(t, plain, entries, "what's the project's memo", "notes.add_memo")
	expectSearchTop(t, newIndex(entries, p, words), entries, "save a note in the project", "notes.get_note")
	expectSearchTop(t, plain, entries, "what did I change since the last commit", "repo.change_file")
}

// TestSearchScopeIsNotTheQuestion checks that a leading clause naming
// where to look ("in resend, ...", "cloudflare: ...") does not hide the
// question after it, which weighs the tools that change things less.
func TestSearchScopeIsNotTheQuestion(t *testing.T) {
	for q, want := range map[string]bool{
		"in resend, which sending domains do we have":  true,
		"on our hubspot: what deals close this month":  true,
		"cloudflare: which key-value stores do I have": true,
		"via github, who reviewed it":                  true,
		"in the morning, remind me to call":            false,
		"in which folder is it":                        false, // no scope: "in" asks
		"which domains do we have":                     true,
		"create a domain":                              false,
	} {
		if got := searchAsksQuestion(q); got != want {
			t.Errorf("searchAsksQuestion(%q) = %v, want %v", q, got, want)
		}
	}
	entries := []ToolEntry{
		{Server: "mail", Tool: "create-domains", Description: "Create sending domains for the account"},
		{Server: "mail", Tool: "list-domains", Description: "List the domains"},
	}
	ix := newIndex(entries, defaultSearchParams, newSearchVocab(searchDomainTable, ""))
	expectSearchTop(t, ix, entries, "in mail, which sending domains do we have", "mail.list-domains")
	// Read as a request, the tool that says more of its words wins.
	p := defaultSearchParams
	p.ask = 0
	expectSearchTop(t, newIndex(entries, p, newSearchVocab(searchDomainTable, "")), entries, "in mail, which sending domains do we have", "mail.create-domains")
}

// TestSearchRequestVerb checks that a tool named for the verb a request
// starts with (or a synonym of it) does what the request asks.
func TestSearchRequestVerb(t *testing.T) {
	for q, want := range map[string]string{
		"in discord, read the last messages": "read",
		"fetch the page":                     "fetch",
		"which pages are there":              "",
		"the page":                           "",
	} {
		verbs := searchRequestVerbs(q, nil)
		var got []string
		for v := range verbs {
			got = append(got, v)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("searchRequestVerbs(%q) = %v, want %q", q, got, want)
		}
	}
	// Two tools said alike: the one named for the request's verb, or for
	// a synonym of it ("fetch" is a read), does what it asks.
	for q, want := range map[string][2]string{
		"read the file contents":     {"read_file", "file_contents"},
		"fetch the channel messages": {"read_messages", "channel_messages"},
	} {
		entries := []ToolEntry{
			{Server: "x", Tool: want[0], Description: "Contents of a file, messages of a channel"},
			{Server: "x", Tool: want[1], Description: "Contents of a file, messages of a channel"},
		}
		words := newSearchVocab(searchDomainTable, "")
		expectSearchTop(t, newIndex(entries, defaultSearchParams, words), entries, q, "x."+want[0])
		p := defaultSearchParams
		p.verb = 0
		expectSearchTop(t, newIndex(entries, p, words), entries, q, "x."+want[1])
	}
}

// TestSearchCountingNumeral checks that a numeral counting the next word's
// thing ("30 minutes", "the last 50 messages") is a value given to the
// tool, not a number to compute with: it does not look for tools about
// numbers, as "add 30 and 12" does.
func TestSearchCountingNumeral(t *testing.T) {
	all := searchTokenize("book 30 minutes, read the last 50 messages, add 30 and 12, is 97 prime", true)
	lx := theLexicon()
	want := map[int]bool{}
	for i, tok := range all {
		if (tok.surface == "30" && all[i+1].surface == "minutes") || tok.surface == "50" {
			want[i] = true
		}
	}
	for i, tok := range all {
		if lx.numeral(tok.surface) && searchCounts(lx, all, i) != want[i] {
			t.Errorf("searchCounts(%q before %q) = %v, want %v", tok.surface, all[i+1].surface, !want[i], want[i])
		}
	}
	entries := []ToolEntry{
		{Server: "cal", Tool: "days_in_month", Description: "The number of days in a month"},
		{Server: "cal", Tool: "create_event", Description: "Create an event in the calendar"},
		{Server: "calc", Tool: "add", Description: "Add two numbers"},
	}
	ix := NewIndex(entries)
	score := func(q string, tool int) float64 {
		for _, h := range ix.Search(q, 0) {
			if h.Index == tool {
				return h.Score
			}
		}
		return 0
	}
	// "30" adds nothing to the tool about a number of days.
	if a, b := score("book 30 minutes with Ana this month", 0), score("book minutes with Ana this month", 0); a != b {
		t.Errorf("days_in_month scores %v with a counting numeral, %v without it", a, b)
	}
	expectSearchTop(t, ix, entries, "add 30 and 12", "calc.add")
}

// TestSearchAsksForChange checks which queries ask for a change: a verb
// of change or a request word ("keep", "note"), not the same word as a noun
// after an article or possessive, nor a change asked about after "did".
func TestSearchAsksForChange(t *testing.T) {
	for q, want := range map[string]bool{
		"keep my home address for later":          true,
		"note that alice manages bob":             true,
		"update the ticket":                       true,
		"show the note":                           false,
		"what's in the latest update":             false,
		"read my file":                            false,
		"what did I change since the last commit": false,
		"did anyone delete the branch":            false,
		"delete the branch":                       true,
	} {
		p := parseIntent(searchTokenize(q, true), func(string) bool { return false })
		if p.changes != want {
			t.Errorf("%q: asks for a change = %v, want %v", q, p.changes, want)
		}
	}
}

// TestSearchNegation checks that the word a negation stands before is not
// what the query asks for: a reply not sent yet is a draft.
func TestSearchNegation(t *testing.T) {
	entries := []ToolEntry{
		{Server: "mail", Tool: "send_reply", Description: "Send a reply to an email"},
		{Server: "mail", Tool: "draft_reply", Description: "Write a draft of a reply, kept to finish later"},
	}
	// The idioms know "don't send it yet" as a draft: without them, the
	// negation alone decides.
	words := newSearchVocab(searchDomainTable, "")
	ix := newIndex(entries, defaultSearchParams, words)
	expectSearchTop(t, ix, entries, "write a reply but don't send it yet", "mail.draft_reply")
	expectSearchTop(t, ix, entries, "send the reply", "mail.send_reply")

	// Without it, sending wins.
	p := defaultSearchParams
	p.negated = 1
	expectSearchTop(t, newIndex(entries, p, words), entries, "write a reply but don't send it yet", "mail.send_reply")
	all := searchTokenize("who won the final, and fetch without merging", true)
	for i, tok := range all {
		if want := tok.surface == "merging"; searchNegated(all, i) != want {
			t.Errorf("searchNegated(%q) = %v, want %v", tok.surface, !want, want)
		}
	}
}

// TestSearchRoleOrdersSiblings checks that what a query converts from and
// to ranks the tool that goes its way first, even when the other says more
// of its words: "an address into coordinates" is geocoding.
func TestSearchRoleOrdersSiblings(t *testing.T) {
	entries := []ToolEntry{
		{Server: "geo", Tool: "lookup_b", Description: "Convert coordinates into an address"},
		{Server: "geo", Tool: "lookup_a", Description: "Convert an address into coordinates"},
		{Server: "geo", Tool: "elevation", Description: "The height of a place"},
	}
	// The idioms know "turn * into coordinates" as geocoding: without
	// them, the direction alone decides.
	ix := newIndex(entries, defaultSearchParams, newSearchVocab(searchDomainTable, ""))
	expectSearchTop(t, ix, entries, "turn a street address into coordinates", "geo.lookup_a")
	expectSearchTop(t, ix, entries, "turn coordinates into a street address", "geo.lookup_b")

	// However far behind the tool that goes the query's way is, it takes
	// the higher score; a tool that goes neither way keeps its own.
	_, q := ix.expand("turn a street address into coordinates")
	scores := []float64{9, 2, 5}
	ix.orderByRole(q, scores)
	if want := []float64{2, 9, 5}; !slices.Equal(scores, want) {
		t.Errorf("scores after orderByRole = %v, want %v", scores, want)
	}

	toks := searchTokenize("convert the coordinates and heights into an address", true)
	if got := sourceStems(toks); len(got) != 2 || !got["coordin"] || !got["height"] {
		t.Errorf("sourceStems = %v, want coordin and height (not the verb)", got)
	}
}

// A numeral that says when, an hour after "at" or a year, is no number to
// compute with either.
func TestSearchWhenNumeral(t *testing.T) {
	for q, want := range map[string]bool{
		"a call tomorrow at 10":          true,
		"closing prices in October 2025": true,
		"sales for 1999":                 true,
		"add 30 and 12":                  false,
		"stop at 300 rows":               false,
		"the top 2500 rows":              false,
	} {
		all := searchTokenize(q, true)
		got := false
		for i, tok := range all {
			if searchDigits(tok.surface) {
				got = got || searchWhen(all, i)
			}
		}
		if got != want {
			t.Errorf("%q: a numeral says when: %v, want %v", q, got, want)
		}
	}
}

// TestSearchTimesGiven checks that the times a query gives as values
// count less ("deals closing this month" is about deals), unless the query
// is about nothing but a time ("what day is it tomorrow").
func TestSearchTimesGiven(t *testing.T) {
	for q, want := range map[string]string{
		"find deals closing this month":     "month",
		"book a call with Sam tomorrow":     "tomorrow",
		"orders of the last 3 weeks":        "weeks",
		"what shipped on Friday":            "friday",
		"how many days in February":         "february",
		"what day is it tomorrow":           "",
		"the month with the most new users": "",
	} {
		all := searchTokenize(q, true)
		var got []string
		for i, timed := range searchTimed(all) {
			if timed {
				got = append(got, all[i].surface)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q: times given %q, want %q", q, got, want)
		}
	}
	entries := []ToolEntry{
		{Server: "time", Tool: "days_in_month", Description: "How many days a month has"},
		{Server: "time", Tool: "current_time", Description: "The current time in a time zone"},
		{Server: "crm", Tool: "search_objects", Description: "Search contacts, companies or deals by their properties"},
		{Server: "crm", Tool: "get_contact", Description: "Get a contact by ID"},
		{Server: "crm", Tool: "create_deal", Description: "Create a deal"},
	}
	for _, when := range []float64{defaultSearchParams.when, 1} {
		p := defaultSearchParams
		p.when = when
		top := searchTopNames(entries, newIndex(entries, p, theSearchVocab()).Search("deals we won this month", 1), 1)
		if got, want := strings.HasPrefix(top[0], "crm."), when < 1; got != want {
			t.Errorf("when=%v: %q first; want a crm tool first: %v", when, top[0], want)
		}
	}
}

// TestSearchNamesAreNoTypos checks that a name in the query ("with Ana")
// is not corrected to an indexed word one edit away ("iana"); the test of
// an hour given ("at 10") shares its tools.
func TestSearchNamesAreNoTypos(t *testing.T) {
	got := searchNames("set up a sync with Ana. Ask Priya about NVDA and GetUser, o'Neil")
	if want := map[string]bool{"ana": true, "priya": true}; !maps.Equal(got, want) {
		t.Errorf("searchNames = %v, want %v", got, want)
	}
	entries := []ToolEntry{
		{Server: "tz", Tool: "list_iana_zones", Description: "List the IANA time zones"},
		{Server: "tz", Tool: "convert_time", Description: "Convert a time between time zones"},
		{Server: "cal", Tool: "create_event", Description: "Create a calendar event with attendees"},
		{Server: "calc", Tool: "add", Description: "Add two numbers"},
	}
	ix := NewIndex(entries)
	expectSearchTop(t, ix, entries, "sync with Ana", "tz.convert_time")
	expectSearchTop(t, ix, entries, "list ana zones", "tz.list_iana_zones")
	if hits := ix.Search("what does Ana have on", 5); len(hits) > 0 {
		t.Errorf("a name alone finds %v", searchTopNames(entries, hits, len(hits)))
	}
	// The hour a sync is at is no number to add.
	expectSearchTop(t, ix, entries, "a sync at 10", "tz.convert_time")
}

// TestSearchValueDigits checks that the numbers written inside a value (a
// date, an ID, a version, an address) are read as parts of it, not as
// numbers: they weigh little, take no "number", and turn no word to its
// arithmetic sense; amounts and percentages stay numbers, as does a number
// the query also writes outside a value.
func TestSearchValueDigits(t *testing.T) {
	for q, want := range map[string]string{
		"open my journal entries for 2026-11-30 from the vault": "11 2026 30",
		"stop the build dpl_7Gh2, wrong branch":                 "2 7",
		"is 1.2.3 newer than 1.10.0":                            "0 1 10 2 3",
		"mail ana42@example.com about 42 invoices":              "",
		"what is 17.5% of 2340":                                 "",
		"refund $40 to the customer":                            "",
		"add 31 and 58":                                         "",
	} {
		if got := searchSortedStems(searchValueDigitStems(q)); got != want {
			t.Errorf("%q: value digits %q, want %q", q, got, want)
		}
	}
	entries := []ToolEntry{
		{Server: "notes", Tool: "read_notes", Description: "Read several notes of the vault at once"},
		{Server: "calc", Tool: "number_base", Description: "Convert a number between bases: binary, octal, decimal, hex"},
		{Server: "calc", Tool: "random", Description: "A random number between two numbers"},
	}
	ix := newIndex(entries, defaultSearchParams, theSearchVocab())
	groups, _ := ix.expand("read the notes 2026-11-30 and 2026-12-01")
	for _, g := range groups {
		if searchWeightIn(g, searchStem("number")) > 0 || searchWeightIn(g, searchStem("eleven")) > 0 {
			t.Errorf("the pieces of a date are looked up as numbers: %v", g)
		}
	}
	top := searchTopNames(entries, ix.Search("open the notes 2026-11-30 and 2026-12-01 of my vault", 1), 1)
	if top[0] != "notes.read_notes" {
		t.Errorf("%q first, want notes.read_notes", top[0])
	}
}

// TestSearchLinkHost checks that the words of a link's scheme and host are
// where a page is, not what is asked for: "example" in
// https://news.example.com/story-7 draws no template tool, while the link's
// path and a host that names a server still count.
func TestSearchLinkHost(t *testing.T) {
	for q, want := range map[string]string{
		"read https://blog.example.com/post-42 as text":        "blog com exampl https",
		"open www.example.org/docs please":                     "exampl org www",
		"what changed in https://github.com/acme/api/pull/431": "com github https",
		"no link here": "",
	} {
		if got := searchSortedStems(searchLinkHostStems(q)); got != want {
			t.Errorf("%q: link host stems %q, want %q", q, got, want)
		}
	}
	// Over the tuning and first blind catalogs, "example" would read as a
	// template (resend's get-template second) without this; the fetching
	// tools stay first.
	entries, _ := loadSearchCatalogs(t, searchCatalogDir, blindCatalogDir)
	const q = "give me the clean text of https://news.example.com/story-7"
	for _, host := range []float64{defaultSearchParams.linkHost, 1} {
		p := defaultSearchParams
		p.linkHost = host
		top := searchTopNames(entries, newIndex(entries, p, theSearchVocab()).Search(q, 5), 5)
		if got := slices.Contains(top, "resend.get-template"); got != (host == 1) {
			t.Errorf("linkHost=%v: %q ranks %v; resend.get-template among them: %v, want %v", host, q, top, got, host == 1)
		}
		if !slices.Contains(top, "exa.web_fetch_exa") {
			t.Errorf("linkHost=%v: %q ranks %v, without exa.web_fetch_exa", host, q, top)
		}
	}
	groups, _ := NewIndex(entries).expand("which files does https://github.com/acme/api/pull/431 change")
	for _, g := range groups {
		if st := g[0].stem; (st == "github" || st == "pull") && g[0].weight < 1 {
			t.Errorf("%q weighs %v in a link, want 1: it names a server, or is the link's path", st, g[0].weight)
		}
	}
}

// TestSearchServerNameExpands checks that a tool holds the hand-written
// table's words for its server's name: obsidian's tools say nothing of a
// vault, but the table says an obsidian is one, so over the tuning and first
// blind catalogs "open ... from my vault" finds its read_notes first, and
// not in the first five without it.
func TestSearchServerNameExpands(t *testing.T) {
	entries, _ := loadSearchCatalogs(t, searchCatalogDir, blindCatalogDir)
	const q = "open Inbox/2025-01-02.md and Ideas/books.md from my vault"
	for _, xs := range []float64{defaultSearchParams.expandServer, 0} {
		p := defaultSearchParams
		p.expandServer = xs
		top := searchTopNames(entries, newIndex(entries, p, theSearchVocab()).Search(q, 5), 5)
		first := len(top) > 0 && top[0] == "obsidian.read_notes"
		if xs > 0 && !first || xs == 0 && slices.Contains(top, "obsidian.read_notes") {
			t.Errorf("expandServer=%v: %q ranks %v", xs, q, top)
		}
	}
}

// TestSearchArithmetic checks that two numbers joined by an operation read
// as arithmetic, and that dates, ranges and counts do not: over the tuning
// and first blind catalogs, "add 31 and 58" finds a tool that sums.
func TestSearchArithmetic(t *testing.T) {
	for q, want := range map[string]bool{
		"add 31 and 58":                         true,
		"add 8,431 and 2,977 together":          true,
		"what's 2,340 plus 12.99 shipping":      true,
		"3 * 7":                                 true,
		"subtract 12 from 40":                   true,
		"is Dana free Thursday 2-4pm":           false,
		"is 10.0.0.5 in 10.0.0.0/8":             false,
		"12 / 4":                                true,
		"notes from 2026-11-30":                 false,
		"add 3 people to the 5 pm meeting":      false,
		"between march 3 and july 19":           false,
		"how far from 3 warehouses to 5 stores": false,
	} {
		if got := searchArithmetic.MatchString(q); got != want {
			t.Errorf("%q: arithmetic %v, want %v", q, got, want)
		}
	}
	entries, _ := loadSearchCatalogs(t, searchCatalogDir, blindCatalogDir)
	top := searchTopNames(entries, NewIndex(entries).Search("add 31 and 58", 5), 5)
	if !slices.Contains(top, "everything.get-sum") && !slices.Contains(top, "calc.math") {
		t.Errorf("add 31 and 58: %v, without a tool that sums", top)
	}
}

// searchSortedStems returns the stems of set, sorted, joined by spaces.
func searchSortedStems(set map[string]bool) string {
	var stems []string
	for st := range set {
		stems = append(stems, st)
	}
	slices.Sort(stems)
	return strings.Join(stems, " ")
}
