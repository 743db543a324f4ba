package search

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/sahilm/fuzzy"
)

// ToolEntry is one tool as search sees it.
type ToolEntry struct {
	Server      string          // server name
	Tool        string          // MCP tool name
	Description string          // tool description
	InputSchema json.RawMessage // raw; parameter names and descriptions are indexed too
	// ServerDescription is what the user's config says the server is for
	// ("the team wiki"), and what the server says of itself (its
	// instructions): its words count for each of the server's tools, less
	// than the tool's own, and each once however often it is repeated.
	ServerDescription string
}

// Hit is one search result: Index into the entries given to NewIndex, and its
// score (higher is better).
type Hit struct {
	Index int
	Score float64
}

// Index ranks tools for a query. Build once per catalog; Search is safe for
// concurrent use.
//
// Text is split into words at punctuation and at snake_case, kebab-case,
// camelCase and letter/digit boundaries, lower-cased, stripped of stop words
// and stemmed (Snowball English). A tool is scored by:
//
//   - BM25F (field-weighted BM25) over five fields: the words of its name, its
//     description, its parameter names, its parameter descriptions, and what
//     its server's config and instructions say of the server (each word once;
//     see ToolEntry);
//   - its server's name, a field of its own, which scopes rather than adds: when
//     the query names the server ("github issue comments"), the tool's BM25F
//     score is multiplied up and a fixed score added, while the words that
//     named the server count no more in its tools' text and less in other
//     servers' tools. A tool that matches only its server's name therefore
//     does not outrank one that matches the task ("forget everything about a
//     person" is memory.delete_entities, not the "everything" server);
//   - bonuses from its name: the query spells the name (any case style,
//     optionally server-qualified), starts it, covers its words, or matches it
//     as an identifier (github.com/sahilm/fuzzy);
//   - its expansion fields: the words related to its own (their synonyms,
//     hypernyms, derived forms, the nouns an adjective values, and the words
//     of their definitions), from a lexicon derived from WordNet
//     (lexicon.go), so that a query in plain words meets a tool named in
//     jargon ("how heavy is it" finds a tool that measures weight), and the
//     hand-written table's words for its server's name ("obsidian": vault,
//     note, markdown);
//   - which way the query points (intent.go): of two tools of a server whose
//     names differ only by a verb of doing or undoing or an un-/dis-/de-
//     prefix (add_label and remove_label, mute_host and unmute_host), the
//     one the query's first such word points to ranks above the other; a
//     tool that gives what the query wants ("... to coordinates") or starts
//     from what it has ("an address into ...") ranks up, and of a server's
//     tools, those that go the query's way rank above those that go the
//     other; a query of the server's name and plural nouns ("stripe
//     invoices") favours the tools that list, and a query about one thing
//     the tool for one over its sibling for several (create_issue over
//     create_issues) when the two score close;
//   - what the query's form asks for: a question that asks for no change
//     ("how much money is in the account", "what did I change") weighs the
//     tools named for a change (create_refund) less, and a request for a
//     change ("keep", "delete") those that only read; the word after a
//     negation ("don't send it") counts little.
//
// Every query word is expanded with related words (related.txt: a
// hand-written table of domain verbs and nouns and the everyday words for
// them; the lexicon: synonyms,
// hypernyms and links of its senses, weighed by how frequent each sense is,
// the words of their definitions, and the hand-written table's words for
// those) and, when the index does not know it, with the known words within a
// small edit distance and those it is a prefix of. A multi-word expression
// of the lexicon ("call off", "get rid of", "take the tag off") is a word of
// its own, and the words of a phrasal verb then count little alone. Next to
// numbers, words take their arithmetic senses ("plus" is an addition).
// Two words side by side in the query score more in a tool that says them
// close together (nearBonuses). A British spelling is stemmed as the
// American one ("finalise" as "finalize"). Common English words (by their
// frequency in WordNet's tagged corpus) weigh less. Expansions weigh less
// than the word itself, and a tool scores for each query word by its best
// expansion. The weights are searchParams, fitted on the tuning set of the
// search benchmark and the blind splits whose misses have been read
// (TestFitSearchParams).
type Index struct {
	params      searchParams
	vocab       *searchVocab // the related-word table and idioms
	docs        []searchDoc
	servers     []searchServer
	terms       map[string]*searchTerm // stem -> its postings and idf
	xterms      map[string]*searchTerm // stem -> its postings and idf in the tools' expansion fields
	iterms      map[string]*searchTerm // stem -> its postings and idf in the words of the idioms that name the tools (idiomWords)
	intent      []siblingInfo          // per tool: its reverse sibling, whether it lists, its name's words
	serverStems map[string]bool        // the stems of the servers' names
	surface     map[string]string      // every indexed word as written (lower case) -> its stem
	byLen       [][][]rune             // surface words by rune length, for typo look-ups
	names       []string               // tool names, for fuzzy identifier matching
}

// BM25F fields of a tool, with their weights and length normalisation.
const (
	fieldToolName = iota
	fieldToolDesc
	fieldToolParam
	fieldToolParamDesc
	fieldServerDesc // the same words in every tool of the server: not length-normalised
	numToolFields
)

var (
	toolFieldWeight = [numToolFields]float64{3.0, 1.0, 0.6, 0.3, 0.5}
	toolFieldB      = [numToolFields]float64{0.5, 0.75, 0.5, 0.75, 0}
)

const (
	searchK1 = 1.2

	searchTypoWeight1    = 0.75 // a known word one edit away from an unknown query word
	searchTypoWeight2    = 0.55 // two edits away (long words only)
	searchPrefixWeight   = 0.5  // a known word the unknown query word is a prefix of (scaled by length)
	searchMaxCorrections = 8    // corrections kept per unknown query word
	searchMaxQueryRunes  = 512  // longer queries are cut
	searchMaxQueryWords  = 32   // further words are ignored

	searchServerScope     = 1.0 // BM25F score multiplied by 1 + searchServerScope*m when the query names the server (m in [0,1])
	searchServerOnly      = 4.0 // score of a tool whose server the query names (times m)
	searchServerElsewhere = 0.5 // a stem that names a server counts this much less (times its share of the name) in other servers' tools

	searchExactBonus  = 12.0 // the query is the tool's name (any case style, optionally server-qualified)
	searchPrefixBonus = 4.0  // the query starts the tool's name (scaled by how much of it)
	searchFuzzyBonus  = 3.0  // an identifier-like query fuzzily matches the name (scaled by quality)
	searchCoverBonus  = 3.0  // the query covers the words of the name (scaled by the share covered)
)

type searchDoc struct {
	server      int32  // index into Index.servers
	tool        string // MCP tool name
	compactTool string // lower-case letters and digits only: "getfilecontents"
	coverStems  []string
	length      [numToolFields]float64
	seq         [2][]string // the stems of the name and of the description, in order, without stop words (for nearness)
}

// searchServer is one server name: its stems, each weighted by how
// distinctive it is (idf), so that "search" in "brave-search" counts less
// than "brave".
type searchServer struct {
	name    string
	compact string
	stems   []string
	weights []float64 // normalised to sum 1
}

// searchTerm is one indexed stem.
type searchTerm struct {
	idf      float64
	postings []searchPosting
}

// searchPosting is one tool that contains a stem, with the stem's BM25F
// weight in it (field-weighted, length-normalised, saturated; without idf).
type searchPosting struct {
	doc int32
	tf  float32
}

// searchToken is one word of text: its surface form (lower case) and its stem.
type searchToken struct {
	surface, stem string
}

// termExpansion is one stem a query word is looked up as. Words from the
// query and their true synonyms (the "=" groups of the hand-written table)
// blend: they share the idf of the most common among them, as if they were one
// term, so that a rare way of saying a common thing ("make" for "create")
// does not outweigh the tools that say it the common way.
//
// Loose expansions (the lexicon's) are too unsure to name a server.
type termExpansion struct {
	stem   string
	weight float64
	blend  bool
	loose  bool
	direct bool // the query's own word, a correction of it or a hand-written synonym: also looked up in the expansion fields
}

// Warm reads what every index needs, once per process: the lexicon, the
// related-word table and the idioms, which the first NewIndex otherwise
// reads (about 200 ms). A server calls it in the background as it starts,
// so that the first search a model makes does not wait for them.
func Warm() {
	theLexicon()
	theSearchVocab().idiomIndex()
}

// NewIndex builds the search index over entries. Hits refer to entries by
// position.
func NewIndex(entries []ToolEntry) *Index {
	return newIndex(entries, defaultSearchParams, theSearchVocab())
}

func newIndex(entries []ToolEntry, params searchParams, vocab *searchVocab) *Index {
	ix := &Index{
		params:      params,
		vocab:       vocab,
		docs:        make([]searchDoc, len(entries)),
		terms:       map[string]*searchTerm{},
		xterms:      map[string]*searchTerm{},
		serverStems: map[string]bool{},
		surface:     map[string]string{},
		names:       make([]string, len(entries)),
	}
	type rawPosting struct {
		doc int32
		tf  [numToolFields]float32
	}
	raw := map[string][]rawPosting{}
	stems := map[string]string{} // word -> stem, shared by all tools
	// A server's description, once per server: its words, each once.
	aboutServer := map[string][]searchToken{}
	xp := newExpander(params)
	serverIdx := map[string]int32{}
	var serverX [][]termExpansion
	nameStems := make([][]string, len(entries))
	nameWords := make([][]string, len(entries))
	descTo := make([]map[string]bool, len(entries))
	descFrom := make([]map[string]bool, len(entries))
	var totals [numToolFields]float64
	for i, e := range entries {
		d := &ix.docs[i]
		si, ok := serverIdx[e.Server]
		if !ok {
			si = int32(len(ix.servers))
			serverIdx[e.Server] = si
			s := searchServer{name: e.Server, compact: compactIdent(e.Server)}
			for _, t := range tokenizeCached(e.Server, stems) {
				s.stems = append(s.stems, t.stem)
				ix.serverStems[t.stem] = true
				if _, ok := ix.surface[t.surface]; !ok {
					ix.surface[t.surface] = t.stem
				}
			}
			ix.servers = append(ix.servers, s)
			// The table's words for the server's name, for its tools'
			// expansion fields.
			var sx []termExpansion
			if params.expandServer > 0 {
				for _, t := range tokenizeCached(e.Server, stems) {
					sx = append(sx, vocab.synonymStems(t.surface, t.stem)...)
				}
			}
			serverX = append(serverX, sx)
		}
		d.server, d.tool = si, e.Tool
		d.compactTool = compactIdent(e.Tool)
		ix.names[i] = e.Tool

		var fields [numToolFields][]searchToken
		// Name and description with their stop words, which multi-word
		// expressions need ("call off", "sign in").
		nameAll, descAll := searchSplitWords(e.Tool, true), searchSplitWords(e.Description, true)
		fields[fieldToolName] = stemWords(nameAll, stems)
		for _, t := range fields[fieldToolName] {
			nameWords[i] = append(nameWords[i], t.surface)
		}
		fields[fieldToolDesc] = stemWords(descAll, stems)
		for k, f := range [2]int{fieldToolName, fieldToolDesc} {
			for _, t := range fields[f] {
				if !isSearchStopWord(t.surface) {
					d.seq[k] = append(d.seq[k], t.stem)
				}
			}
		}
		var pnames, pdescs []string
		searchSchemaText(e.InputSchema, &pnames, &pdescs)
		descTo[i], descFrom[i] = descriptionRoles(e.Description)
		for _, p := range pnames {
			fields[fieldToolParam] = append(fields[fieldToolParam], tokenizeCached(p, stems)...)
		}
		for _, p := range pdescs {
			fields[fieldToolParamDesc] = append(fields[fieldToolParamDesc], tokenizeCached(p, stems)...)
		}
		about, ok := aboutServer[e.ServerDescription]
		if !ok {
			seenStem := map[string]bool{}
			for _, t := range tokenizeCached(e.ServerDescription, stems) {
				if !seenStem[t.stem] {
					seenStem[t.stem] = true
					about = append(about, t)
				}
			}
			aboutServer[e.ServerDescription] = about
		}
		fields[fieldServerDesc] = about

		tf := map[string]*[numToolFields]float32{}
		seen := map[string]bool{}
		for f, toks := range fields {
			d.length[f] = float64(len(toks))
			totals[f] += float64(len(toks))
			for _, t := range toks {
				c := tf[t.stem]
				if c == nil {
					c = new([numToolFields]float32)
					tf[t.stem] = c
				}
				c[f]++
				if _, ok := ix.surface[t.surface]; !ok {
					ix.surface[t.surface] = t.stem
				}
				if f == fieldToolName && !seen[t.stem] {
					seen[t.stem] = true
					nameStems[i] = append(nameStems[i], t.stem)
				}
			}
		}
		for st, c := range tf {
			raw[st] = append(raw[st], rawPosting{doc: int32(i), tf: *c})
		}
		xp.addTool(int32(i), fields, [2][]string{nameAll, descAll}, stems, serverX[si])
	}
	xp.index(ix)
	if params.idiom > 0 {
		// The words of a tool's name that say what it does: less those of
		// any server's name ("firecrawl" in firecrawl_scrape).
		does := make([][]string, len(entries))
		for i, ns := range nameStems {
			for _, st := range ns {
				if !ix.serverStems[st] {
					does[i] = append(does[i], st)
				}
			}
		}
		ix.iterms = idiomTerms(idiomWords(does, vocab.idiomIndex(), params), params.idiom)
	}
	ix.findSiblings(nameWords)
	for i := range ix.intent {
		ix.intent[i].to, ix.intent[i].from = descTo[i], descFrom[i]
	}

	var avgLen [numToolFields]float64
	for f := range totals {
		avgLen[f] = 1
		if len(entries) > 0 && totals[f] > 0 {
			avgLen[f] = totals[f] / float64(len(entries))
		}
	}
	n := float64(len(entries))
	for st, ps := range raw {
		sort.Slice(ps, func(a, b int) bool { return ps[a].doc < ps[b].doc })
		t := &searchTerm{
			idf:      searchIDF(n, len(ps)),
			postings: make([]searchPosting, len(ps)),
		}
		for k, p := range ps {
			d := &ix.docs[p.doc]
			var w float64
			for f := range numToolFields {
				if p.tf[f] == 0 {
					continue
				}
				norm := 1 - toolFieldB[f] + toolFieldB[f]*d.length[f]/avgLen[f]
				w += toolFieldWeight[f] * float64(p.tf[f]) / norm
			}
			t.postings[k] = searchPosting{doc: p.doc, tf: float32(w * (searchK1 + 1) / (w + searchK1))}
		}
		ix.terms[st] = t
	}

	// Server stems weigh by idf; a stem found nowhere else is most distinctive.
	for si := range ix.servers {
		s := &ix.servers[si]
		var sum float64
		for _, st := range s.stems {
			w := searchIDF(n, 0)
			if t := ix.terms[st]; t != nil {
				w = t.idf
			}
			s.weights = append(s.weights, w)
			sum += w
		}
		for k := range s.weights {
			s.weights[k] /= sum
		}
	}

	// The words a tool's name is judged on for coverage: its name's stems,
	// less those most of its server's tools share ("browser" in browser_click,
	// "api" in API-get-user), which say nothing about what this tool does.
	perServer := map[int32]map[string]int{}
	toolsOf := map[int32]int{}
	for i := range ix.docs {
		si := ix.docs[i].server
		toolsOf[si]++
		if perServer[si] == nil {
			perServer[si] = map[string]int{}
		}
		for _, st := range nameStems[i] {
			perServer[si][st]++
		}
	}
	for i := range ix.docs {
		d := &ix.docs[i]
		for _, st := range nameStems[i] {
			if toolsOf[d.server] >= 3 && 2*perServer[d.server][st] > toolsOf[d.server] {
				continue
			}
			d.coverStems = append(d.coverStems, st)
		}
	}

	for w := range ix.surface {
		r := []rune(w)
		for len(ix.byLen) <= len(r) {
			ix.byLen = append(ix.byLen, nil)
		}
		ix.byLen[len(r)] = append(ix.byLen[len(r)], r)
	}
	for _, ws := range ix.byLen {
		sort.Slice(ws, func(a, b int) bool { return string(ws[a]) < string(ws[b]) })
	}
	return ix
}

func searchIDF(n float64, df int) float64 {
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// tokenizeCached is searchTokenize with stop words dropped and stems
// memoised in cache.
func tokenizeCached(text string, cache map[string]string) []searchToken {
	return stemWords(searchSplitWords(text, true), cache)
}

// stemWords is tokenizeCached for text already split (stop words kept).
func stemWords(words []string, cache map[string]string) []searchToken {
	out := make([]searchToken, 0, len(words))
	for _, w := range words {
		out = appendStemmed(out, w, cache)
	}
	return out
}

// appendStemmed appends the word w (lower case) with its stem, unless it
// is a stop word.
func appendStemmed(toks []searchToken, w string, cache map[string]string) []searchToken {
	if isSearchStopWord(w) {
		return toks
	}
	st, ok := cache[w]
	if !ok {
		st = searchStem(w)
		cache[w] = st
	}
	return append(toks, searchToken{surface: w, stem: st})
}

// Search returns at most limit tools for query, best first. Ties are broken
// by server name, then tool name (then position). Tools that match nothing
// are left out, so an empty query gives no hits (nil). limit <= 0 means no
// limit.
func (ix *Index) Search(query string, limit int) []Hit {
	if ix == nil || len(ix.docs) == 0 {
		return nil
	}
	if utf8.RuneCountInString(query) > searchMaxQueryRunes {
		query = string([]rune(query)[:searchMaxQueryRunes])
	}
	query = strings.ToValidUTF8(query, " ")
	groups, intent := ix.expand(query)
	scores := make([]float64, len(ix.docs))

	// The server name scopes: named[s] is how much of server s's name the
	// query names. A stem that names a tool's server counts for that tool
	// through the scoping only, not again through the tool's text.
	named, namedBy := ix.namedServers(intent.own, groups)

	// BM25F: a tool scores for each query word by its best expansion.
	best := make([]float64, len(ix.docs))
	touched := make([]int32, 0, 64)
	for _, g := range groups {
		blendIDF := math.Inf(1)
		for _, e := range g {
			if t := ix.terms[e.stem]; t != nil && e.blend {
				blendIDF = math.Min(blendIDF, t.idf)
			}
		}
		touched = touched[:0]
		for _, e := range g {
			t := ix.terms[e.stem]
			if t == nil {
				continue
			}
			idf := t.idf
			if e.blend {
				idf = blendIDF
			}
			w := e.weight * idf
			names := namedBy[e.stem]
			for _, p := range t.postings {
				s := w * float64(p.tf)
				if names != nil {
					if _, ok := names[ix.docs[p.doc].server]; ok {
						continue
					}
					s *= 1 - searchServerElsewhere*names[-1]
				}
				if best[p.doc] == 0 {
					touched = append(touched, p.doc)
				}
				if s > best[p.doc] {
					best[p.doc] = s
				}
			}
		}
		// The tools whose words the query word is related to (their
		// expansion fields), and the tools named by idioms that say it
		// (idiomWords). Only the query's own words look these up.
		for _, f := range [...]struct {
			terms map[string]*searchTerm
			scale float64
		}{{ix.xterms, ix.params.expand}, {ix.iterms, 1}} {
			for _, e := range g {
				t := f.terms[e.stem]
				if t == nil || !e.direct || namedBy[e.stem] != nil {
					continue
				}
				w := e.weight * t.idf * f.scale
				for _, p := range t.postings {
					s := w * float64(p.tf)
					if best[p.doc] == 0 {
						touched = append(touched, p.doc)
					}
					if s > best[p.doc] {
						best[p.doc] = s
					}
				}
			}
		}
		for _, d := range touched {
			scores[d] += best[d]
			best[d] = 0
		}
	}
	ix.nearBonuses(groups, scores)
	if named != nil {
		for i := range ix.docs {
			if m := named[ix.docs[i].server]; m > 0 {
				scores[i] = scores[i]*(1+searchServerScope*m) + searchServerOnly*m
			}
		}
	}

	ix.nameBonuses(query, groups, intent.place, scores)
	ix.intentBonuses(intent, scores)

	var hits []Hit
	for i, s := range scores {
		if s > 0 {
			hits = append(hits, Hit{Index: i, Score: s})
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		ha, hb := hits[a], hits[b]
		if ha.Score != hb.Score {
			return ha.Score > hb.Score
		}
		da, db := &ix.docs[ha.Index], &ix.docs[hb.Index]
		if sa, sb := ix.servers[da.server].name, ix.servers[db.server].name; sa != sb {
			return sa < sb
		}
		if da.tool != db.tool {
			return da.tool < db.tool
		}
		return ha.Index < hb.Index
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// nearBonuses adds to each tool that scores a bonus for each two
// neighbouring words of the query (two groups in a row) that its name or
// its description says close together, in either order: "a column to the
// table" is nearer "a column in a table" than a tool that says "table" and,
// elsewhere, "column". Only the words as the query says them count (each
// group's direct stems), not their looser relations. For each two groups,
// the best pair within the window counts: near times the two stems'
// weights times the rarer one's idf.
func (ix *Index) nearBonuses(groups [][]termExpansion, scores []float64) {
	if ix.params.near == 0 || len(groups) < 2 {
		return
	}
	// Each direct stem with the groups it is in (of the first 64).
	type member struct {
		group  int
		w, idf float64
	}
	of := map[string][]member{}
	for gi, g := range groups[:min(len(groups), 64)] {
		for _, e := range g {
			t := ix.terms[e.stem]
			if t == nil || !e.direct {
				continue
			}
			ms := of[e.stem]
			k := slices.IndexFunc(ms, func(m member) bool { return m.group == gi })
			switch {
			case k < 0:
				of[e.stem] = append(ms, member{gi, e.weight, t.idf})
			case e.weight > ms[k].w:
				ms[k].w = e.weight
			}
		}
	}
	// Only a tool that holds words of two groups in a row is read.
	groupsIn := make([]uint64, len(ix.docs))
	for st, ms := range of {
		var bits uint64
		for _, m := range ms {
			bits |= 1 << m.group
		}
		for _, p := range ix.terms[st].postings {
			groupsIn[p.doc] |= bits
		}
	}
	win := ix.params.nearWindow
	best := make([]float64, min(len(groups), 64))
	for d, bits := range groupsIn {
		if bits&(bits>>1) == 0 || scores[d] == 0 {
			continue
		}
		clear(best)
		for _, seq := range ix.docs[d].seq {
			for p, st := range seq {
				for _, a := range of[st] {
					if bits&(1<<(a.group+1)) == 0 {
						continue
					}
					for q := max(0, p-win); q <= min(len(seq)-1, p+win); q++ {
						if seq[q] == st {
							continue
						}
						for _, b := range of[seq[q]] {
							if b.group != a.group+1 {
								continue
							}
							if v := a.w * b.w * math.Min(a.idf, b.idf); v > best[a.group] {
								best[a.group] = v
							}
						}
					}
				}
			}
		}
		var bonus float64
		for _, v := range best {
			bonus += v
		}
		scores[d] += ix.params.near * bonus
	}
}

// namedServers returns, per server, how much of its name the query names
// (0..1, its stems weighted by idf), and per stem the servers it names with
// the stem's share of each name (key -1: the largest share); nil when the
// query names no server. Only the query's own words (own, its stems) name
// a server, not those an idiom rewrote it to: "make the meeting longer" is
// read as "update event duration end time", which is no request for a
// server named time.
func (ix *Index) namedServers(own []string, groups [][]termExpansion) (named []float64, namedBy map[string]map[int32]float64) {
	for si, s := range ix.servers {
		var m float64
		for k, st := range s.stems {
			var w float64
			by := st
			for _, g := range groups {
				if !slices.Contains(own, g[0].stem) {
					continue
				}
				for _, e := range g {
					if e.stem == st && !e.loose {
						w = max(w, e.weight)
					}
				}
				// A query word that starts the name's word and is most of
				// it: "mongo" for mongodb, "postgres" for postgresql.
				if e := g[0]; e.weight > w && e.direct && !e.loose && searchShortFor(e.stem, st) {
					w, by = e.weight, e.stem
				}
			}
			if w == 0 {
				continue
			}
			m += w * s.weights[k]
			if namedBy == nil {
				namedBy = map[string]map[int32]float64{}
			}
			if namedBy[by] == nil {
				namedBy[by] = map[int32]float64{}
			}
			namedBy[by][int32(si)] = s.weights[k]
			namedBy[by][-1] = max(namedBy[by][-1], s.weights[k])
		}
		if m > 0 {
			if named == nil {
				named = make([]float64, len(ix.servers))
			}
			named[si] = m
		}
	}
	return named, namedBy
}

// expand turns the query into groups of weighted stems, one group per
// distinct query word: the word itself, its related words and, for a word the
// index does not contain, its likely corrections. A stem that several groups
// reach stays only in the group that reaches it with the highest weight (the
// earliest on a tie), so that "make a new folder" does not count a tool's
// "create" twice. No group is empty.
func (ix *Index) expand(query string) ([][]termExpansion, *parsedQuery) {
	groups, intent := ix.queryGroups(ix.vocab.prepare(query), searchQuotedStems(query))
	intent.question = searchAsksQuestion(query)
	// The stems of the query as written, before its idioms are rewritten.
	seen := map[string]bool{}
	words := searchTokenize(query, false)
	for _, t := range words {
		if !seen[t.stem] {
			seen[t.stem] = true
			intent.own = append(intent.own, t.stem)
		}
	}
	// A server named by the initial of a word and the next word: "google
	// drive" for gdrive, "google mail" for gmail.
	for k := 1; k < len(words) && len(groups) < searchMaxQueryWords; k++ {
		r, _ := utf8.DecodeRuneInString(words[k-1].surface)
		joined := string(r) + words[k].surface
		st := searchStem(joined)
		if ix.serverStems[st] && !seen[st] && ix.serverWord(joined) {
			seen[st] = true
			intent.own = append(intent.own, st)
			groups = append(groups, []termExpansion{{stem: st, weight: 1, blend: true, direct: true}})
		}
	}
	// Each stem goes to one group only.
	owner := map[string]int{}
	for gi, g := range groups {
		for _, e := range g {
			o, ok := owner[e.stem]
			if !ok || e.weight > searchWeightIn(groups[o], e.stem) {
				owner[e.stem] = gi
			}
		}
	}
	// A group whose every stem another group reaches more strongly is
	// left out: "go" in "make it go away" is all in "go away".
	kept := groups[:0]
	for gi, g := range groups {
		out := g[:0]
		for _, e := range g {
			if owner[e.stem] == gi {
				out = append(out, e)
			}
		}
		if len(out) > 0 {
			kept = append(kept, out)
		}
	}
	kept = ix.looseIdiomGroups(intent.own, kept)
	intent.verbs = searchRequestVerbs(query, kept)
	return kept, intent
}

// serverWord reports whether w is a word of a server's name as written
// ("gdrive"; not "sentries" for sentry).
func (ix *Index) serverWord(w string) bool {
	for _, s := range ix.servers {
		if slices.Contains(searchSplitWords(s.name, true), w) {
			return true
		}
	}
	return false
}

func searchWeightIn(g []termExpansion, stem string) float64 {
	for _, e := range g {
		if e.stem == stem {
			return e.weight
		}
	}
	return 0
}

// corrections returns the indexed words that an unknown query word w was
// probably meant to be: those within one edit (two for words of eight or more
// letters; a transposition counts as one), and those that w is a prefix of.
func (ix *Index) corrections(w string) []termExpansion {
	rw := []rune(w)
	n := len(rw)
	if n < 3 {
		return nil
	}
	maxD := 1
	if n >= 8 {
		maxD = 2
	}
	type cand struct {
		word   string
		weight float64
	}
	var cands []cand
	var buf searchOSA
	for l := max(1, n-maxD); l <= n+maxD && l < len(ix.byLen); l++ {
		for _, v := range ix.byLen[l] {
			if d := buf.distance(rw, v, maxD); d <= maxD {
				wt := searchTypoWeight1
				if d == 2 {
					wt = searchTypoWeight2
				}
				cands = append(cands, cand{string(v), wt})
			}
		}
	}
	for l := n + 1; l < len(ix.byLen); l++ {
		for _, v := range ix.byLen[l] {
			if searchHasPrefix(v, rw) {
				// the closer the lengths, the likelier the completion
				cands = append(cands, cand{string(v), searchPrefixWeight * float64(n) / float64(l)})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].weight != cands[j].weight {
			return cands[i].weight > cands[j].weight
		}
		return cands[i].word < cands[j].word
	})
	var out []termExpansion
	for _, c := range cands {
		if len(out) >= searchMaxCorrections {
			break
		}
		out = append(out, termExpansion{stem: ix.surface[c.word], weight: c.weight})
	}
	return out
}

func searchHasPrefix(s, prefix []rune) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i, r := range prefix {
		if s[i] != r {
			return false
		}
	}
	return true
}

// dedupeExpansions keeps the highest weight of each stem, in first-seen
// order; a stem blends if any of its entries does.
func dedupeExpansions(g []termExpansion) []termExpansion {
	pos := map[string]int{}
	out := g[:0]
	for _, e := range g {
		if i, ok := pos[e.stem]; ok {
			if e.weight > out[i].weight {
				out[i].weight = e.weight
			}
			out[i].blend = out[i].blend || e.blend
			out[i].direct = out[i].direct || e.direct
			out[i].loose = out[i].loose && e.loose
			continue
		}
		pos[e.stem] = len(out)
		out = append(out, e)
	}
	return out
}

// nameBonuses adds the name-based bonuses to scores.
func (ix *Index) nameBonuses(query string, groups [][]termExpansion, place map[string]bool, scores []float64) {
	q := strings.TrimSpace(query)
	cq := compactIdent(q)
	if cq == "" {
		return
	}
	// "server.tool", "mcp_server.tool": the part after the last dot names the tool.
	var cServerPart, cToolPart string
	if i := strings.LastIndexByte(q, '.'); i > 0 && i < len(q)-1 {
		cServerPart = compactIdent(strings.TrimPrefix(strings.ToLower(q[:i]), "mcp_"))
		cToolPart = compactIdent(q[i+1:])
	}
	for i := range ix.docs {
		d := &ix.docs[i]
		cs := ix.servers[d.server].compact
		switch {
		case cq == d.compactTool, cq == cs+d.compactTool:
			scores[i] += searchExactBonus
		case cToolPart != "" && cToolPart == d.compactTool:
			scores[i] += searchExactBonus
			if cServerPart == cs {
				scores[i] += searchExactBonus / 2
			}
		case len(cq) >= 4 && strings.HasPrefix(d.compactTool, cq):
			scores[i] += searchPrefixBonus * float64(len(cq)) / float64(len(d.compactTool))
		}
	}

	// The query explains the tool's name: "create issue" covers create_issue
	// fully and create_issue_comment by two thirds.
	if len(groups) > 0 {
		matched := map[string]float64{}
		for _, g := range groups {
			w := 1.0
			if place[g[0].stem] {
				w = ix.params.place
			}
			for _, e := range g {
				matched[e.stem] = max(matched[e.stem], e.weight*w)
			}
		}
		for i := range ix.docs {
			d := &ix.docs[i]
			if scores[i] == 0 || len(d.coverStems) == 0 {
				continue
			}
			var sum float64
			for _, s := range d.coverStems {
				sum += matched[s]
			}
			share := sum / float64(len(d.coverStems))
			scores[i] += searchCoverBonus * share * share
		}
	}

	// Identifier-like queries (one word, no spaces) match names fuzzily:
	// "readFile" finds read_file and read_text_file, "rdfile" still read_file.
	if strings.ContainsAny(q, " \t\n") || len(cq) < 3 {
		return
	}
	self := fuzzy.Find(cq, []string{cq})
	if len(self) == 0 || self[0].Score <= 0 {
		return
	}
	for _, m := range fuzzy.Find(cq, ix.names) {
		if m.Score <= 0 {
			continue
		}
		// The pattern must cover most of the name's letters.
		cover := float64(len(cq)) / float64(max(1, len(ix.docs[m.Index].compactTool)))
		if cover < 0.5 {
			continue
		}
		ratio := math.Min(1, float64(m.Score)/float64(self[0].Score))
		scores[m.Index] += searchFuzzyBonus * ratio * math.Min(1, cover)
	}
}

// searchShortFor reports whether the query stem q is a short form of the
// server name's stem st: its start, five letters or more and at least 60%
// of it ("mongo" for "mongodb"; not "cloud" for "cloudflare").
func searchShortFor(q, st string) bool {
	return len(q) >= 5 && len(q) < len(st) && 10*len(q) >= 6*len(st) && strings.HasPrefix(st, q)
}

// compactIdent lower-cases s and keeps only its letters and digits, so that
// get_file_contents, get-file-contents and getFileContents compare equal.
func compactIdent(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// searchTokenize splits text into words (see searchSplitWords), lower-cased and
// stemmed; stop words are dropped unless keepStop.
func searchTokenize(text string, keepStop bool) []searchToken {
	words := searchSplitWords(text, keepStop)
	out := make([]searchToken, len(words))
	for i, w := range words {
		out[i] = searchToken{surface: w, stem: searchStem(w)}
	}
	return out
}

// searchSplitWords splits text into lower-case words: at anything that is not a
// letter or digit, at camelCase humps ("readFile" -> "read" "file",
// "HTTPServer" -> "http" "server") and between letters and digits ("base64"
// -> "base" "64"). English clitics go ("customer's" -> "customer"). Stop words
// are dropped unless keepStop.
func searchSplitWords(text string, keepStop bool) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) == 0 {
			return
		}
		w := strings.ToLower(string(cur))
		cur = cur[:0]
		if !keepStop && isSearchStopWord(w) {
			return
		}
		out = append(out, w)
	}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		var prev rune
		if i > 0 {
			prev = rs[i-1]
		}
		switch {
		case unicode.IsLetter(r):
			if len(cur) > 0 {
				switch {
				case unicode.IsDigit(prev):
					flush()
				case unicode.IsUpper(r) && unicode.IsLower(prev):
					flush() // readFile
				case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
					flush() // HTTPServer
				}
			}
			cur = append(cur, r)
		case unicode.IsDigit(r):
			if len(cur) > 0 && !unicode.IsDigit(prev) {
				flush()
			}
			cur = append(cur, r)
		case (r == '\'' || r == '’') && len(cur) > 0:
			// "customer's", "don't", "we'll": drop a clitic with its apostrophe.
			j := i + 1
			for j < len(rs) && unicode.IsLetter(rs[j]) {
				j++
			}
			switch strings.ToLower(string(rs[i+1 : j])) {
			case "s", "t", "re", "ll", "ve", "d", "m":
				flush()
				i = j - 1
			default:
				flush()
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

// searchStem returns the Snowball English stem of a lower-case word. Numbers and
// words of two letters or fewer are kept as they are.
func searchStem(w string) string {
	if len(w) <= 2 {
		return w
	}
	for _, r := range w {
		if r > unicode.MaxASCII || !unicode.IsLetter(r) {
			return w
		}
	}
	if s, ok := searchStemExceptions[w]; ok {
		return s
	}
	return english.Stem(searchAmericanSpelling(w), true)
}

// searchBritishEndings are British endings with their American spelling:
// of verbs in -ise and -yse and the words made from them, and of colour,
// centre, catalogue, licence and programme.
var searchBritishEndings = [...][2]string{
	{"isations", "izations"}, {"isation", "ization"},
	{"ising", "izing"}, {"ised", "ized"}, {"ises", "izes"},
	{"isers", "izers"}, {"iser", "izer"}, {"ise", "ize"},
	{"ysing", "yzing"}, {"ysed", "yzed"}, {"yse", "yze"},
	{"ourites", "orites"}, {"ourite", "orite"},
	{"ouring", "oring"}, {"oured", "ored"}, {"ours", "ors"}, {"our", "or"},
	{"tres", "ters"}, {"tre", "ter"}, {"bres", "bers"}, {"bre", "ber"},
	{"ogues", "ogs"}, {"ogue", "og"},
	{"ences", "enses"}, {"ence", "ense"},
	{"ammes", "ams"}, {"amme", "am"},
}

// searchAmericanSpelling returns w in its American spelling when it is a
// British spelling ("finalise", "authorisation", "colours", "centre",
// "licence", "programme"), which the stemmer would otherwise keep apart
// from the American one ("finalis" against "final"); otherwise w. The
// American spelling must be a word of the dictionary, as written or
// inflected, so "promise", "exercise" and "presence" stay as they are.
func searchAmericanSpelling(w string) string {
	if len(w) < 6 {
		return w
	}
	for _, e := range searchBritishEndings {
		base, ok := strings.CutSuffix(w, e[0])
		if !ok {
			continue
		}
		if _, known := theLexicon().baseForm(base + e[1]); known {
			return base + e[1]
		}
		return w
	}
	return w
}

// searchStemExceptions are words the Snowball stemmer conflates with unrelated
// words of tool catalogs.
var searchStemExceptions = map[string]string{
	"production":  "production", // not "product" (Stripe products)
	"productions": "production",
	"general":     "general", // not "generate"
	"generally":   "general",
	"organ":       "organ", // "organization" stems to "organ"
	"news":        "news",
	"timbre":      "timbre", // not "timber", its American spelling's look-alike
}

// isSearchStopWord reports words that say nothing about which tool is meant.
// Direction words (up, down, back, out, ...) are kept: "go back", "scale down".
func isSearchStopWord(w string) bool {
	switch w {
	case "a", "about", "also", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been",
		"being", "but", "by", "can", "could", "did", "do", "does", "doing", "each", "either", "eg", "etc",
		"for", "from", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his",
		"how", "i", "ie", "if", "in", "into", "is", "it", "its", "itself", "just", "let", "lets", "like",
		"may", "me", "might", "must", "my", "myself", "need", "needs", "of", "on", "or", "our",
		"ours", "please", "s", "shall", "she", "should", "so", "some", "such", "than", "that", "the",
		"their", "theirs", "them", "then", "there", "these", "they", "this", "those", "to", "too",
		"us", "using", "via", "want", "was", "we", "were", "what", "when", "where", "which",
		"while", "who", "whom", "whose", "why", "will", "with", "would", "you", "your", "yours",
		"another", "other", "others", "one", "ones", "every", "something", "anything", "thing", "things", "stuff":
		return true
	}
	return false
}

// searchSchemaText collects the property names and the descriptions (and string
// enum values) of a JSON schema, recursively.
func searchSchemaText(raw json.RawMessage, names, descs *[]string) {
	if len(raw) == 0 {
		return
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	walkSearchSchema(v, names, descs, 0)
}

func walkSearchSchema(v any, names, descs *[]string, depth int) {
	if depth > 12 {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			x := v[k]
			switch k {
			case "properties":
				if props, ok := x.(map[string]any); ok {
					pk := make([]string, 0, len(props))
					for name := range props {
						pk = append(pk, name)
					}
					sort.Strings(pk)
					for _, name := range pk {
						*names = append(*names, name)
						walkSearchSchema(props[name], names, descs, depth+1)
					}
				}
				continue
			case "description":
				if s, ok := x.(string); ok {
					*descs = append(*descs, s)
				}
				continue
			case "enum":
				if xs, ok := x.([]any); ok {
					for _, e := range xs {
						if s, ok := e.(string); ok {
							*descs = append(*descs, s)
						}
					}
				}
				continue
			case "title", "$schema", "$id", "$ref", "type", "format", "pattern", "default", "examples", "const", "required":
				continue
			}
			walkSearchSchema(x, names, descs, depth+1)
		}
	case []any:
		for _, x := range v {
			walkSearchSchema(x, names, descs, depth+1)
		}
	}
}

// searchOSA holds the rows of searchOSA.distance between calls.
type searchOSA struct {
	prev2, prev, cur []int
}

// distance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and transpositions of adjacent
// letters each cost one). It returns maxD+1 as soon as the distance must
// exceed maxD.
func (o *searchOSA) distance(a, b []rune, maxD int) int {
	if searchAbs(len(a)-len(b)) > maxD {
		return maxD + 1
	}
	if cap(o.cur) < len(b)+1 {
		o.prev2, o.prev, o.cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev2, prev, cur := o.prev2[:len(b)+1], o.prev[:len(b)+1], o.cur[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > maxD {
			return maxD + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func searchAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
