package aggregator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/search"
	"github.com/mcp-code-mode/mcp-code-mode/internal/stubs"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

// The runtime helpers: what the program's runtime module asks the host
// (discovered_servers, list_servers, describe_server, query_tool_docs,
// search_tool_docs, capability_summary), answered from the configured
// servers and their known tool lists.

// rpc answers a runtime helper call from the program. Every helper counts
// toward the run's max_helper_calls, the memory and saved-tool helpers too.
func (s *runState) rpc(ctx context.Context, m runner.Message) runner.Reply {
	if max := s.a.cfg.Limits.MaxHelperCalls; s.helperCalls.Add(1) > int64(max) {
		return runner.Failure(m.ID, fmt.Sprintf("this run has used all %d runtime helper calls it may make (limits.max_helper_calls)", max))
	}
	if isStateMethod(m.Method) {
		b, err := s.a.stateHelper(ctx, s.namespace, m.Method, m.Params)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				s.a.log.Warn("runtime helper failed", "method", m.Method, "err", err)
			}
			return runner.Failure(m.ID, forCode(err, s.a.cfg.Limits.MaxErrorChars, s.a.redact))
		}
		return runner.Success(m.ID, b)
	}
	v, err := s.a.helper(ctx, m.Method, m.Params, s.mods, s.namespace)
	if err == nil {
		var b []byte
		if b, err = json.Marshal(v); err == nil {
			// Tool descriptions and schemas come from the servers; one may
			// quote its own configuration.
			return runner.Success(m.ID, s.a.redact.JSON(b))
		}
	}
	var r *Refusal
	if !errors.As(err, &r) {
		s.a.log.Warn("runtime helper failed", "method", m.Method, "err", err)
	}
	return runner.Failure(m.ID, forCode(err, s.a.cfg.Limits.MaxErrorChars, s.a.redact))
}

// ServerDoc is one server as discovered_servers() describes it to the
// program. The JSON keys are in alphabetical order, as the program has
// always seen them.
type ServerDoc struct {
	Alias       string `json:"alias"`
	Description string `json:"description"`
	// HasInstructions says the server sent notes on using it, which
	// describe_server(name) shows; false until it has been started once (or
	// its catalog entry read).
	HasInstructions bool   `json:"has_instructions"`
	Loaded          bool   `json:"loaded"` // named in this run's servers
	Module          string `json:"module"`
	Name            string `json:"name"`
	Tools           *int   `json:"tools"` // allowed tools; null until its tool list is known
	Transport       string `json:"transport"`
}

// ServerDescription is one server as describe_server(name) describes it:
// ServerDoc's fields with its working directory, its instructions and its
// tools.
type ServerDescription struct {
	Alias       string `json:"alias"`
	Cwd         string `json:"cwd"`
	Description string `json:"description"`
	// Instructions are the server's own notes on using it, from its answer
	// to initialize (MCP's instructions; at most 2,000 characters).
	Instructions string    `json:"instructions,omitempty"`
	Loaded       bool      `json:"loaded"`
	Module       string    `json:"module"`
	Name         string    `json:"name"`
	Tools        []ToolDoc `json:"tools"`
	Transport    string    `json:"transport"`
}

// ToolDoc is one tool as the discovery helpers describe it.
type ToolDoc struct {
	Server      string          `json:"server"`
	Alias       string          `json:"alias"`
	Tool        string          `json:"tool"`
	Py          string          `json:"py"`
	Call        string          `json:"call"`
	Signature   string          `json:"signature"` // the call on one line: await mcp_x.tool(a: str, b: int = 1) -> Any
	Summary     string          `json:"summary"`
	Description string          `json:"description,omitempty"`
	Stub        string          `json:"stub,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	Score       float64         `json:"score,omitempty"`
	// Source is a saved tool's source (query_tool_docs("user_tools",
	// name, detail="full")).
	Source string `json:"source,omitempty"`
}

// helper dispatches one runtime helper. loaded are the servers of the run
// (nil outside a run), ns its namespace, whose saved tools the discovery
// helpers describe too.
func (a *Aggregator) helper(ctx context.Context, method string, params json.RawMessage, loaded map[string]*loaded, ns string) (any, error) {
	var p struct {
		Name   string          `json:"name"`
		Server string          `json:"server"`
		Tool   string          `json:"tool"`
		Detail string          `json:"detail"`
		Query  json.RawMessage `json:"query"`
		Limit  int             `json:"limit"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, refuse("%s: bad arguments", method)
	}
	isLoaded := func(e *entry) bool { _, ok := loaded[e.alias]; return ok }
	switch method {
	case "discovered_servers":
		out := []ServerDoc{}
		for _, e := range a.enabled() {
			d := ServerDoc{
				Alias: e.alias, Description: e.srv.Description, HasInstructions: e.up.Instructions() != "", Loaded: isLoaded(e),
				Module: stubs.Module(e.alias), Name: e.srv.Name, Transport: e.srv.Transport,
			}
			if tools, ok := e.up.KnownTools(); ok {
				n := 0
				for _, t := range tools {
					if a.policy.Allowed(e.srv, e.alias, t.Name, t.ReadOnly()) {
						n++
					}
				}
				d.Tools = &n
			}
			out = append(out, d)
		}
		return out, nil
	case "list_servers":
		names := []string{}
		for _, e := range a.enabled() {
			names = append(names, e.srv.Name)
		}
		return names, nil
	case "describe_server":
		e, err := a.lookup(p.Name)
		if err != nil {
			return nil, err
		}
		docs, err := a.docs(ctx, e, "", "summary")
		if err != nil {
			return nil, err
		}
		return ServerDescription{
			Alias: e.alias, Cwd: e.srv.Cwd, Description: e.srv.Description, Instructions: a.redact.String(e.up.Instructions()), Loaded: isLoaded(e),
			Module: stubs.Module(e.alias), Name: e.srv.Name, Tools: docs, Transport: e.srv.Transport,
		}, nil
	case "query_tool_docs":
		if _, server := a.byName[p.Server]; p.Server == UserTools && !server {
			return a.savedToolDocs(ctx, ns, p.Tool, p.Detail)
		}
		e, err := a.lookup(p.Server)
		if err != nil {
			return nil, err
		}
		return a.docs(ctx, e, p.Tool, p.Detail)
	case "search_tool_docs":
		queries, err := phrasings(p.Query)
		if err != nil {
			return nil, err
		}
		return a.rank(ctx, queries, p.Limit, p.Detail, ns)
	case "capability_summary":
		var b strings.Builder
		b.WriteString("Servers (load with run_python servers=[...]; call as await mcp_{alias}.{tool}(...)):\n")
		for _, e := range a.enabled() {
			fmt.Fprintf(&b, "- %s (module %s)", e.srv.Name, stubs.Module(e.alias))
			if e.srv.Description != "" {
				fmt.Fprintf(&b, ": %s", e.srv.Description)
			}
			b.WriteString("\n")
		}
		b.WriteString("Find tools with runtime.search_tool_docs(query); read one with runtime.query_tool_docs(server, tool, detail='full').\n")
		b.WriteString(memoryHelp + "\n")
		a.summarizeSavedTools(ctx, ns, &b)
		return strings.TrimSuffix(b.String(), "\n"), nil
	}
	return nil, refuse("unknown runtime helper %q", method)
}

// enabled returns the servers that are not disabled, in name order.
func (a *Aggregator) enabled() []*entry {
	var out []*entry
	for _, e := range a.entries {
		if !e.srv.Disabled {
			out = append(out, e)
		}
	}
	return out
}

// lookup returns the enabled server a program names.
func (a *Aggregator) lookup(name string) (*entry, error) {
	e, ok := a.byName[name]
	if !ok || e.srv.Disabled {
		return nil, refuse("unknown server %q", name)
	}
	return e, nil
}

// tools returns a server's tool list: the live or catalogued one, else it
// starts the server (a few at a time) and lets it stop again when idle. The
// program sees only that a server did not start; the error keeps why.
func (a *Aggregator) tools(ctx context.Context, e *entry) ([]upstream.Tool, error) {
	if tools, ok := e.up.KnownTools(); ok {
		return tools, nil
	}
	select {
	case a.startSem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-a.startSem }()
	tools, _, err := e.up.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", refuse("server %q could not be started", e.srv.Name), err)
	}
	e.up.Release()
	return tools, nil
}

// docs describes the allowed tools of one server (or one tool of it).
func (a *Aggregator) docs(ctx context.Context, e *entry, tool, detail string) ([]ToolDoc, error) {
	tools, err := a.tools(ctx, e)
	if err != nil {
		return nil, err
	}
	var namer stubs.Namer
	out := []ToolDoc{}
	names := make([]string, 0, len(tools))
	byName := map[string]upstream.Tool{}
	for _, t := range tools {
		if a.policy.Allowed(e.srv, e.alias, t.Name, t.ReadOnly()) {
			names = append(names, t.Name)
			byName[t.Name] = t
		}
	}
	slices.Sort(names)
	for _, name := range names {
		t := byName[name]
		py := namer.Name(name)
		if tool != "" && tool != name && tool != py {
			continue
		}
		out = append(out, toolDoc(e, t, py, detail))
	}
	if tool != "" && len(out) == 0 {
		for _, t := range tools {
			if t.Name == tool || stubs.Identifier(t.Name) == tool {
				return nil, refuse("%s.%s is denied %s", e.srv.Name, tool, printable.Words(a.policy.Denial(e.srv, e.alias, t.Name, t.ReadOnly())))
			}
		}
		return nil, refuse("%s has no tool %q that may be called", e.srv.Name, tool)
	}
	return out, nil
}

func toolDoc(e *entry, t upstream.Tool, py, detail string) ToolDoc {
	call := "await " + stubs.Module(e.alias) + "."
	d := ToolDoc{Server: e.srv.Name, Alias: e.alias, Tool: t.Name, Py: py, Call: call + py + "(...)"}
	st, err := stubs.FromSchema(t.Name, py, t.Description, t.InputSchema)
	if err != nil {
		// A schema the stub cannot read says nothing of the parameters.
		st = stubs.Tool{Name: t.Name, Py: py, Description: t.Description}
		d.Signature = d.Call
	} else {
		d.Signature = call + st.Signature()
	}
	d.Summary = st.Summary()
	if detail == "full" {
		d.Description = t.Description
		d.Stub = st.Stub()
		d.InputSchema = t.InputSchema
	}
	return d
}

// searchIndex is the ranking over every allowed tool of every enabled
// server, rebuilt when a tool list changes.
type searchIndex struct {
	gen     int64
	docs    []ToolDoc
	entries []search.ToolEntry // what ix was built from, docs[i] is entries[i]
	ix      *search.Index
	scope   SearchScope

	vecMu sync.Mutex
	vecs  [][]float32 // the tools' embeddings, once the embedding ranker has them
}

// SearchScope is what a search covers.
type SearchScope struct {
	Tools   int      // the allowed tools searched
	Servers int      // the servers whose tools were searched
	Failed  []string // enabled servers left out: their tool list could not be had (they did not start)
}

// SearchScope says what Search covers now: how many tools of how many
// servers, and which servers it had to leave out. Like Search, it starts
// the servers never catalogued.
func (a *Aggregator) SearchScope(ctx context.Context) (SearchScope, error) {
	si, err := a.searchIndex(ctx)
	if err != nil {
		return SearchScope{}, err
	}
	return si.scope, nil
}

// Search ranks the allowed tools of every enabled server for query; each
// of also is another phrasing of it (see rank). Servers never catalogued
// are started for it, a few at a time, in parallel. The servers' secrets
// are taken out of the answer (see New).
func (a *Aggregator) Search(ctx context.Context, query string, limit int, detail string, also ...string) ([]ToolDoc, error) {
	queries := append([]string{query}, also...)
	if len(queries) > MaxPhrasings {
		return nil, fmt.Errorf("search: %d phrasings, at most %d", len(queries), MaxPhrasings)
	}
	docs, err := a.rank(ctx, queries, limit, detail, "")
	return a.redactDocs(docs), a.redact.Error(err)
}

// phrasings reads search_tool_docs's query: a str, or a list of str.
func phrasings(raw json.RawMessage) ([]string, error) {
	var one string
	if err := json.Unmarshal(raw, &one); err == nil && string(raw) != "null" {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil || many == nil {
		return nil, refuse("search_tool_docs: query must be a str or a list of str")
	}
	switch {
	case len(many) == 0:
		return nil, refuse("search_tool_docs: query is an empty list: give a str, or a list of phrasings")
	case len(many) > MaxPhrasings:
		return nil, refuse("search_tool_docs: query has %d phrasings, at most %d", len(many), MaxPhrasings)
	}
	return many, nil
}

// redactDocs takes the servers' secrets out of docs (in place).
func (a *Aggregator) redactDocs(docs []ToolDoc) []ToolDoc {
	for i := range docs {
		d := &docs[i]
		d.Summary, d.Description, d.Stub = a.redact.String(d.Summary), a.redact.String(d.Description), a.redact.String(d.Stub)
		if d.InputSchema != nil {
			d.InputSchema = a.redact.JSON(d.InputSchema)
		}
	}
	return docs
}

// rank is Search as the program's helper asks it (its answer is redacted
// with the others), with the saved tools of namespace ns ("": none). One
// phrasing, with no embedding ranker (or one that failed), is ranked by
// words alone, scored by BM25F. Otherwise each phrasing is ranked by words
// and, with the embedding ranker, by embedding, and the rankings are fused
// by reciprocal rank (search.Fuse), which gives the scores.
func (a *Aggregator) rank(ctx context.Context, queries []string, limit int, detail, ns string) ([]ToolDoc, error) {
	if limit <= 0 {
		limit = 5
	}
	si, err := a.searchIndex(ctx)
	if err != nil {
		return nil, err
	}
	if ns != "" {
		si = a.withSavedTools(ctx, si, ns)
	}
	semantic := a.semantic.rankings(ctx, si, queries)
	var hits []search.Hit
	if len(queries) == 1 && len(semantic) == 0 {
		hits = si.ix.Search(queries[0], limit)
	} else {
		lists := make([][]search.Hit, 0, len(queries)+len(semantic))
		for _, q := range queries {
			lists = append(lists, si.ix.Search(q, fuseDepth))
		}
		hits = search.Fuse(limit, append(lists, semantic...)...)
	}
	out := []ToolDoc{}
	for _, h := range hits {
		d := si.docs[h.Index]
		d.Score = h.Score
		if detail != "full" {
			d.Description, d.Stub, d.InputSchema = "", "", nil
		}
		out = append(out, d)
	}
	return out, nil
}

func (a *Aggregator) searchIndex(ctx context.Context) (*searchIndex, error) {
	enabled := a.enabled()
	// Every server needs a tool list: the known ones cost nothing, the
	// others are started (a few at a time, in parallel).
	failed := a.starting(enabled, true)
	var wg sync.WaitGroup
	for _, e := range enabled {
		wg.Go(func() {
			if _, err := a.tools(ctx, e); err != nil {
				a.log.Info("search: server skipped", "server", e.srv.Name, "err", err)
				failed(e, err)
			}
		})
	}
	wg.Wait()
	a.searchMu.Lock()
	defer a.searchMu.Unlock()
	gen := a.catalogGen.Load()
	if a.search != nil && a.search.gen == gen {
		return a.search, nil
	}
	si := &searchIndex{gen: gen}
	var entries []search.ToolEntry
	for _, e := range enabled {
		docs, err := a.docs(ctx, e, "", "full")
		if err != nil {
			si.scope.Failed = append(si.scope.Failed, e.srv.Name)
			continue // a server that does not start has nothing to offer
		}
		si.scope.Servers++
		si.scope.Tools += len(docs)
		// What the config and the server itself say the server is for.
		about := strings.TrimSpace(e.srv.Description + "\n" + e.up.Instructions())
		for _, doc := range docs {
			si.docs = append(si.docs, doc)
			entries = append(entries, search.ToolEntry{Server: doc.Server, Tool: doc.Tool, Description: doc.Description, InputSchema: doc.InputSchema, ServerDescription: about})
		}
	}
	si.ix = search.NewIndex(entries)
	si.entries = entries
	a.search = si
	return si, nil
}

// Tools describes, with stubs, the allowed tools of the named servers (all
// enabled servers when names is empty), starting them as needed. The
// servers' secrets are taken out of the answer and of its error (see New).
func (a *Aggregator) Tools(ctx context.Context, names []string) ([]ToolDoc, error) {
	docs, err := a.toolDocs(ctx, names)
	return a.redactDocs(docs), a.redact.Error(err)
}

func (a *Aggregator) toolDocs(ctx context.Context, names []string) ([]ToolDoc, error) {
	var entries []*entry
	if len(names) == 0 {
		entries = a.enabled()
	} else {
		var err error
		if entries, err = a.resolve(names); err != nil {
			return nil, err
		}
	}
	failed := a.starting(entries, true)
	out := []ToolDoc{}
	for _, e := range entries {
		docs, err := a.docs(ctx, e, "", "full")
		if err != nil {
			failed(e, err)
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

// Instructions returns the named server's own notes on using it, from its
// answer to initialize (see ServerDescription), with its secrets taken
// out: "" when it sent none, or has not started since its tool list was
// last stored.
func (a *Aggregator) Instructions(name string) string {
	e := a.byName[name]
	if e == nil {
		return ""
	}
	return a.redact.String(e.up.Instructions())
}

// Probe starts the named server now, even during the back-off after failed
// starts (which it ends), and returns how many of its tools may be called:
// for doctor, whose job is to try.
func (a *Aggregator) Probe(ctx context.Context, name string) (int, error) {
	es, err := a.resolve([]string{name})
	if err != nil {
		return 0, err
	}
	e := es[0]
	e.up.ForgetFailures()
	tools, _, err := e.up.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer e.up.Release()
	n := 0
	for _, t := range tools {
		if a.policy.Allowed(e.srv, e.alias, t.Name, t.ReadOnly()) {
			n++
		}
	}
	return n, nil
}
