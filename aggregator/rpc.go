package aggregator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/sahilm/fuzzy"

	"github.com/mcp-code-mode/mcp-code-mode/runner"
	"github.com/mcp-code-mode/mcp-code-mode/stubs"
)

// rpc answers a runtime helper call from the program.
func (s *runState) rpc(ctx context.Context, m runner.Message) runner.Reply {
	v, err := s.a.helper(ctx, m.Method, m.Params, s.mods)
	if err == nil {
		var b []byte
		if b, err = json.Marshal(v); err == nil {
			return runner.Success(m.ID, b)
		}
	}
	var r *Refusal
	if !errors.As(err, &r) {
		s.a.log.Warn("runtime helper failed", "method", m.Method, "err", err)
	}
	return runner.Failure(m.ID, forCode(err, s.a.cfg.Limits.MaxErrorChars))
}

// ToolDoc is one tool as the discovery helpers describe it.
type ToolDoc struct {
	Server      string          `json:"server"`
	Alias       string          `json:"alias"`
	Tool        string          `json:"tool"`
	Py          string          `json:"py"`
	Call        string          `json:"call"`
	Summary     string          `json:"summary"`
	Description string          `json:"description,omitempty"`
	Stub        string          `json:"stub,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	Score       float64         `json:"score,omitempty"`
}

// helper dispatches one runtime helper. loaded are the servers of the run
// (nil outside a run).
func (a *Aggregator) helper(ctx context.Context, method string, params json.RawMessage, loaded map[string]*loaded) (any, error) {
	var p struct {
		Name   string `json:"name"`
		Server string `json:"server"`
		Tool   string `json:"tool"`
		Detail string `json:"detail"`
		Query  string `json:"query"`
		Limit  int    `json:"limit"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, refuse("%s: bad arguments", method)
	}
	isLoaded := func(e *entry) bool { _, ok := loaded[e.alias]; return ok }
	switch method {
	case "discovered_servers", "list_servers":
		var out []map[string]any
		for _, e := range a.entries {
			if e.srv.Disabled {
				continue
			}
			out = append(out, map[string]any{
				"name": e.srv.Name, "alias": e.alias, "module": stubs.Module(e.alias),
				"description": e.srv.Description, "transport": e.srv.Transport, "loaded": isLoaded(e),
			})
		}
		if method == "list_servers" {
			names := make([]string, 0, len(out))
			for _, s := range out {
				names = append(names, s["name"].(string))
			}
			return names, nil
		}
		return out, nil
	case "describe_server":
		e, err := a.lookup(p.Name)
		if err != nil {
			return nil, err
		}
		docs, err := a.docs(ctx, e, "", "summary")
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"name": e.srv.Name, "alias": e.alias, "module": stubs.Module(e.alias), "description": e.srv.Description,
			"transport": e.srv.Transport, "cwd": e.srv.Cwd, "loaded": isLoaded(e), "tools": docs,
		}, nil
	case "query_tool_docs":
		e, err := a.lookup(p.Server)
		if err != nil {
			return nil, err
		}
		return a.docs(ctx, e, p.Tool, p.Detail)
	case "search_tool_docs":
		return a.Search(ctx, p.Query, p.Limit, p.Detail)
	case "capability_summary":
		var b strings.Builder
		b.WriteString("Servers (load with run_python servers=[...]; call as await mcp_<alias>.<tool>(...)):\n")
		for _, e := range a.entries {
			if e.srv.Disabled {
				continue
			}
			fmt.Fprintf(&b, "- %s (module %s)", e.srv.Name, stubs.Module(e.alias))
			if e.srv.Description != "" {
				fmt.Fprintf(&b, ": %s", e.srv.Description)
			}
			b.WriteString("\n")
		}
		b.WriteString("Find tools with runtime.search_tool_docs(query); read one with runtime.query_tool_docs(server, tool, detail='full').")
		return b.String(), nil
	}
	return nil, refuse("unknown runtime helper %q", method)
}

func (a *Aggregator) lookup(name string) (*entry, error) {
	e, ok := a.byName[name]
	if !ok || e.srv.Disabled {
		return nil, refuse("unknown server %q", name)
	}
	return e, nil
}

// tools returns a server's tool list, starting it if it was never listed.
// The program sees only that the server did not start; the error keeps why.
func (a *Aggregator) tools(ctx context.Context, e *entry) ([]RawTool, error) {
	_, tools, err := e.up.acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", refuse("server %q could not be started", e.srv.Name), err)
	}
	e.up.release()
	return tools, nil
}

// docs describes the allowed tools of one server (or one tool of it).
func (a *Aggregator) docs(ctx context.Context, e *entry, tool, detail string) ([]ToolDoc, error) {
	tools, err := a.tools(ctx, e)
	if err != nil {
		return nil, err
	}
	var namer stubs.Namer
	var out []ToolDoc
	names := make([]string, 0, len(tools))
	byName := map[string]RawTool{}
	for _, t := range tools {
		if a.policy.Allowed(e.srv, e.alias, t.Name) {
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
		return nil, refuse("%s has no tool %q that may be called", e.srv.Name, tool)
	}
	return out, nil
}

func toolDoc(e *entry, t RawTool, py, detail string) ToolDoc {
	st, _ := stubs.FromSchema(t.Name, py, t.Description, t.InputSchema)
	d := ToolDoc{
		Server: e.srv.Name, Alias: e.alias, Tool: t.Name, Py: py,
		Call: "await " + stubs.Module(e.alias) + "." + py + "(...)", Summary: st.Summary(),
	}
	if detail == "full" {
		d.Description = t.Description
		d.Stub = st.Stub()
		d.InputSchema = t.InputSchema
	}
	return d
}

// Search ranks the allowed tools of every enabled server for query.
func (a *Aggregator) Search(ctx context.Context, query string, limit int, detail string) ([]ToolDoc, error) {
	if limit <= 0 {
		limit = 5
	}
	var all []ToolDoc
	var keys []string
	for _, e := range a.entries {
		if e.srv.Disabled {
			continue
		}
		docs, err := a.docs(ctx, e, "", "full")
		if err != nil {
			continue // a server that does not start has nothing to offer
		}
		for _, d := range docs {
			all = append(all, d)
			keys = append(keys, d.Server+"."+d.Tool+" "+d.Description)
		}
	}
	scores := map[int]float64{}
	words := strings.Fields(strings.ToLower(query))
	for i, k := range keys {
		lk := strings.ToLower(k)
		for _, w := range words {
			if strings.Contains(lk, w) {
				scores[i] += 10
			}
		}
	}
	for _, m := range fuzzy.Find(query, keys) {
		scores[m.Index] += float64(m.Score) / 10
	}
	idx := make([]int, 0, len(scores))
	for i, sc := range scores {
		if sc > 0 {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(x, y int) bool {
		if scores[idx[x]] != scores[idx[y]] {
			return scores[idx[x]] > scores[idx[y]]
		}
		return idx[x] < idx[y]
	})
	out := []ToolDoc{}
	for _, i := range idx[:min(limit, len(idx))] {
		d := all[i]
		d.Score = scores[i]
		if detail != "full" {
			d.Description, d.Stub, d.InputSchema = "", "", nil
		}
		out = append(out, d)
	}
	return out, nil
}

// Tools describes, with stubs, the allowed tools of the named servers (all
// enabled servers when names is empty), starting them as needed.
func (a *Aggregator) Tools(ctx context.Context, names []string) ([]ToolDoc, error) {
	var entries []*entry
	if len(names) == 0 {
		for _, e := range a.entries {
			if !e.srv.Disabled {
				entries = append(entries, e)
			}
		}
	} else {
		var err error
		if entries, err = a.resolve(names); err != nil {
			return nil, err
		}
	}
	var out []ToolDoc
	for _, e := range entries {
		docs, err := a.docs(ctx, e, "", "full")
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}
