package aggregator

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcp-code-mode/mcp-code-mode/internal/search"
	"github.com/mcp-code-mode/mcp-code-mode/internal/state"
	"github.com/mcp-code-mode/mcp-code-mode/internal/stubs"
)

// Saved tools in the discovery helpers: search_tool_docs ranks them with the
// servers' tools (as server "user_tools"), query_tool_docs("user_tools")
// describes them, and capability_summary lists them, each in the run's
// namespace only. Their signatures are read from their sources here, and
// kept per namespace until the tool is saved again.

// savedTool is one saved tool as the discovery helpers see it.
type savedTool struct {
	info    SavedTool
	async   bool
	params  []string // parameter names, for search
	updated int64    // UpdatedAt in Unix nanoseconds: a tool saved again differs
}

// savedCache is what is known of one namespace's saved tools.
type savedCache struct {
	tools map[string]savedTool // by name
	// The search index of the servers' tools and these tools, and what it
	// was built from.
	base  *searchIndex
	stamp string
	index *searchIndex
}

// maxSavedCaches bounds the namespaces whose saved tools are kept in
// memory (one per HTTP client): past it, they are all forgotten.
const maxSavedCaches = 64

// savedTools returns the namespace's saved tools, sorted by name, reading
// the sources of those saved since the last call.
func (a *Aggregator) savedTools(ctx context.Context, st *state.Store, ns string) ([]savedTool, error) {
	if st == nil {
		return nil, state.CheckNamespace(ns)
	}
	list, err := st.ListTools(ctx, ns)
	if err != nil {
		return nil, err
	}
	a.savedMu.Lock()
	var known map[string]savedTool
	if c := a.saved[ns]; c != nil {
		known = c.tools
	}
	a.savedMu.Unlock()
	tools := make(map[string]savedTool, len(list))
	out := make([]savedTool, 0, len(list))
	for _, ti := range list {
		t, ok := known[ti.Name]
		if !ok || t.updated != ti.UpdatedAt.UnixNano() {
			full, err := st.GetTool(ctx, ns, ti.Name)
			if err != nil {
				continue // deleted since it was listed
			}
			sig, async, params := pySignature(ti.Name, full.Source)
			t = savedTool{
				info: SavedTool{Name: ti.Name, Description: ti.Description, Signature: sig, SourceBytes: ti.SourceBytes,
					CreatedAt: Timestamp(ti.CreatedAt), UpdatedAt: Timestamp(ti.UpdatedAt)},
				async: async, params: params, updated: ti.UpdatedAt.UnixNano(),
			}
		}
		tools[t.info.Name] = t
		out = append(out, t)
	}
	a.savedMu.Lock()
	defer a.savedMu.Unlock()
	c := a.saved[ns]
	if c == nil {
		if len(a.saved) >= maxSavedCaches {
			clear(a.saved)
		}
		c = &savedCache{}
		a.saved[ns] = c
	}
	c.tools = tools
	return out, nil
}

// doc describes a saved tool as the discovery helpers describe a tool.
func (t savedTool) doc(detail string) ToolDoc {
	call := t.info.Name + "(...)"
	if t.async {
		call = "await " + call
	}
	sig := t.info.Signature
	if sig == "" {
		sig = "def " + t.info.Name + "(...)"
	}
	summary := stubs.Tool{Description: t.info.Description}.Summary()
	if summary == "" {
		summary = sig
	}
	d := ToolDoc{
		Server: UserTools, Alias: UserTools, Tool: t.info.Name, Py: t.info.Name,
		Call: "from user_tools import " + t.info.Name + "; " + call, Summary: summary,
		Signature: "from user_tools import " + t.info.Name + "; " + call,
	}
	if t.info.Signature != "" {
		// "async def f(a, b=1) -> int" is called as "await f(a, b=1) -> int".
		line := strings.TrimPrefix(strings.TrimPrefix(t.info.Signature, "async "), "def ")
		if t.async {
			line = "await " + line
		}
		d.Signature = "from user_tools import " + t.info.Name + "; " + line
	}
	if detail == "full" {
		d.Description = t.info.Description
		d.Stub = sig + ":\n    " + `"""` + strings.ReplaceAll(t.info.Description, `"""`, `\"\"\"`) + `"""`
	}
	return d
}

// savedToolDocs answers query_tool_docs("user_tools", tool, detail). With
// one tool named and detail "full", its source comes too.
func (a *Aggregator) savedToolDocs(ctx context.Context, ns, tool, detail string) ([]ToolDoc, error) {
	st, err := a.stateStore(ctx, false)
	if err != nil {
		a.log.Warn("state database", "err", err)
		return nil, refuse("query_tool_docs: the state database could not be opened (the host's log says why)")
	}
	tools, err := a.savedTools(ctx, st, ns)
	if err != nil {
		return nil, a.stateError("query_tool_docs", err)
	}
	out := []ToolDoc{}
	for _, t := range tools {
		if tool != "" && tool != t.info.Name {
			continue
		}
		d := t.doc(detail)
		if tool != "" && detail == "full" {
			full, err := st.GetTool(ctx, ns, t.info.Name)
			if err != nil {
				return nil, a.stateError("query_tool_docs", err)
			}
			d.Source = full.Source
		}
		out = append(out, d)
	}
	if tool != "" && len(out) == 0 {
		return nil, refuse("user_tools has no saved tool %q (list_tools() lists them; save_tool(name, source) saves one)", tool)
	}
	return out, nil
}

// withSavedTools returns the search index of base and the namespace's
// saved tools (base itself when it has none, or they cannot be read).
func (a *Aggregator) withSavedTools(ctx context.Context, base *searchIndex, ns string) *searchIndex {
	st, err := a.stateStore(ctx, false)
	if err != nil {
		a.log.Warn("state database", "err", err)
		return base
	}
	tools, err := a.savedTools(ctx, st, ns)
	if err != nil {
		a.log.Warn("search: saved tools left out", "err", err)
		return base
	}
	if len(tools) == 0 {
		return base
	}
	var stamp strings.Builder
	for _, t := range tools {
		fmt.Fprintf(&stamp, "%s\x00%d\x00", t.info.Name, t.updated)
	}
	a.savedMu.Lock()
	if c := a.saved[ns]; c != nil && c.base == base && c.stamp == stamp.String() && c.index != nil {
		a.savedMu.Unlock()
		return c.index
	}
	a.savedMu.Unlock()
	si := &searchIndex{gen: base.gen, scope: base.scope, docs: slices.Clip(base.docs), entries: slices.Clip(base.entries)}
	for _, t := range tools {
		si.docs = append(si.docs, t.doc("full"))
		props := map[string]json.RawMessage{}
		for _, p := range t.params {
			props[p] = json.RawMessage(`{}`)
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		si.entries = append(si.entries, search.ToolEntry{
			Server: UserTools, Tool: t.info.Name, Description: t.info.Description, InputSchema: schema,
		})
	}
	si.scope.Tools += len(tools)
	si.ix = search.NewIndex(si.entries)
	a.savedMu.Lock()
	defer a.savedMu.Unlock()
	if c := a.saved[ns]; c != nil {
		c.base, c.stamp, c.index = base, stamp.String(), si
	}
	return si
}

// maxSignatureRunes bounds a saved tool's signature as the helpers show it.
const maxSignatureRunes = 300

// pySignature finds the function name defines at the top level of a
// Python source, and returns its signature on one line ("def name(a, b=1)
// -> int", comments left out), whether it is async, and its parameters'
// names. The source was checked in the sandbox before it was saved; one
// this cannot read gives "", false, nil.
func pySignature(name, src string) (sig string, async bool, params []string) {
	for start := 0; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		rest, isAsync := cutWord(line, "async")
		if !isAsync {
			rest = line
		}
		if rest, ok := cutWord(rest, "def"); ok {
			if after, ok := strings.CutPrefix(rest, name); ok {
				after = strings.TrimLeft(after, " \t")
				if strings.HasPrefix(after, "(") {
					if s, ps, ok := readSignature(src, start+len(line)-len(after)); ok {
						prefix := "def "
						if isAsync {
							prefix = "async def "
						}
						return truncateRunes(prefix+name+s, maxSignatureRunes), isAsync, ps
					}
					return "", false, nil
				}
			}
		}
		start = end + 1
	}
	return "", false, nil
}

// cutWord cuts the keyword word and the spaces after it from the start of
// line (which must begin with it: a top-level statement).
func cutWord(line, word string) (string, bool) {
	rest, ok := strings.CutPrefix(line, word)
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return line, false
	}
	return strings.TrimLeft(rest, " \t"), true
}

// readSignature reads, from src[open] (a '('), the parameter list and the
// return annotation up to the ':' that ends the def, on one line, and the
// parameters' names.
func readSignature(src string, open int) (string, []string, bool) {
	var out strings.Builder
	var params []string
	var param strings.Builder
	depth := 0
	inParams := true
	for i := open; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '\'' || c == '"':
			j := skipString(src, i)
			if j < 0 {
				return "", nil, false
			}
			out.WriteString(src[i:j])
			i = j
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				return "", nil, false
			}
		case c == ',' && depth == 1 && inParams:
			params = appendParam(params, param.String())
			param.Reset()
			out.WriteByte(c)
			i++
			continue
		case c == ':' && depth == 0:
			return strings.Join(strings.Fields(out.String()), " "), params, true
		}
		if inParams && depth >= 1 && !(depth == 1 && c == '(') {
			param.WriteByte(c)
		}
		if c == ')' && depth == 0 && inParams {
			params = appendParam(params, param.String())
			inParams = false
		}
		if c == '\n' || c == '\r' || c == '\t' {
			c = ' '
		}
		out.WriteByte(c)
		i++
		if out.Len() > 16<<10 {
			return "", nil, false
		}
	}
	return "", nil, false
}

// appendParam appends the name of the parameter written p ("a: int = 1",
// "*args", "**kw"); "/" and "*" name none.
func appendParam(params []string, p string) []string {
	p = strings.TrimLeft(strings.TrimSpace(p), "*")
	end := strings.IndexFunc(p, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= utf8.RuneSelf)
	})
	if end >= 0 {
		p = p[:end]
	}
	if p == "" || len(params) >= 64 {
		return params
	}
	return append(params, p)
}

// skipString returns the index just past the string literal that starts at
// src[i] (a quote; triple quotes too), or -1 when it does not end.
func skipString(src string, i int) int {
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], q+q+q) {
		q = q + q + q
	}
	for j := i + len(q); j < len(src); j++ {
		switch {
		case src[j] == '\\':
			j++
		case strings.HasPrefix(src[j:], q):
			return j + len(q)
		case len(q) == 1 && src[j] == '\n':
			return -1
		}
	}
	return -1
}

// memoryHelp is how capability_summary and run_python's description tell
// of the state helpers.
const memoryHelp = "State kept between runs: save_memory(key, value, metadata=None), load_memory(key, default=None), update_memory(key, fn), delete_memory(key), memory_exists(key), list_memories(), get_memory_info(key); save_tool(name, source, description), then in a later run: from user_tools import name (list_tools(), delete_tool(name)). Plain functions; await runtime.save_memory(...) etc. are their async twins."

// maxSummarizedTools bounds the saved tools capability_summary lists.
const maxSummarizedTools = 30

// summarizeSavedTools adds the namespace's saved tools to a capability
// summary, one line each.
func (a *Aggregator) summarizeSavedTools(ctx context.Context, ns string, b *strings.Builder) {
	st, err := a.stateStore(ctx, false)
	if err != nil {
		a.log.Warn("state database", "err", err)
		return
	}
	tools, err := a.savedTools(ctx, st, ns)
	if err != nil || len(tools) == 0 {
		return
	}
	fmt.Fprintf(b, "Saved tools (%d; from user_tools import NAME):\n", len(tools))
	for i, t := range tools {
		if i == maxSummarizedTools {
			fmt.Fprintf(b, "- ... and %d more: list_tools() lists them all\n", len(tools)-i)
			break
		}
		d := t.doc("summary")
		fmt.Fprintf(b, "- %s: %s\n", t.info.Name, d.Summary)
	}
}

// ListSavedTools describes the saved tools of namespace ns (none when st is
// nil: no database yet), with the signatures read from their sources, for
// the CLI.
func ListSavedTools(ctx context.Context, st *state.Store, ns string) ([]SavedTool, error) {
	if st == nil {
		return []SavedTool{}, state.CheckNamespace(ns)
	}
	list, err := st.ListTools(ctx, ns)
	if err != nil {
		return nil, err
	}
	out := make([]SavedTool, 0, len(list))
	for _, ti := range list {
		t, err := st.GetTool(ctx, ns, ti.Name)
		if err != nil {
			continue // deleted since it was listed
		}
		sig, _, _ := pySignature(t.Name, t.Source)
		out = append(out, SavedTool{Name: t.Name, Description: t.Description, Signature: sig, SourceBytes: len(t.Source),
			CreatedAt: Timestamp(t.CreatedAt), UpdatedAt: Timestamp(t.UpdatedAt)})
	}
	return out, nil
}
