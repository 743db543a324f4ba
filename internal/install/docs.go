package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
)

// jsonClient is a client file in JSON or JSONC.
type jsonClient struct{ *jsonDoc }

func (c *jsonClient) setSelf(want orderedJSON, exists bool) (bool, error) {
	if exists {
		if v, ok, err := c.entry(EntryName); err == nil && ok {
			m, _ := v.(map[string]any)
			if _, old := m["command"].(map[string]any); old {
				// Zed's older {"command": {"path", "args", "env"}}: rewriting
				// it would drop what the object holds besides the path.
				if cmd, args := jsonCommandOf(m); cmd == want.get("command") && slices.Equal(args, []string{"serve"}) {
					return false, nil
				}
				return false, fmt.Errorf("%s is written in Zed's older form {\"command\": {\"path\": ...}}: change its path by hand, or remove it and install again", EntryName)
			}
		}
		// An entry of this program may set more (env for the engine's
		// socket, say): only what starts it is brought up to date.
		want = slices.DeleteFunc(slices.Clone(want), func(kv keyVal) bool { return kv.key != "command" && kv.key != "args" })
	}
	return c.setEntry(EntryName, want)
}

// jsonCommandOf is the command and args of a decoded entry, in either of
// Zed's forms.
func jsonCommandOf(m map[string]any) (string, []string) {
	if obj, ok := m["command"].(map[string]any); ok {
		p, _ := obj["path"].(string)
		return p, stringList(obj["args"])
	}
	c, _ := m["command"].(string)
	return c, stringList(m["args"])
}

func (c *jsonClient) entry(name string) (any, bool, error) {
	obj, err := c.servers()
	if obj == nil || err != nil {
		return nil, false, err
	}
	i, err := c.find(obj, name, "the server")
	if i < 0 || err != nil {
		return nil, false, err
	}
	var out any
	err = decode(obj.Members[i].Value, &out)
	return out, true, err
}

// tomlClient is Codex's config.toml: servers are [mcp_servers.NAME] tables.
type tomlClient struct {
	t   *tomlDoc
	key string
}

func (c *tomlClient) path(name string) []string { return []string{c.key, name} }

func (c *tomlClient) bytes() []byte { return []byte(c.t.text()) }

func (c *tomlClient) value() (map[string]any, error) { return c.t.value() }

func (c *tomlClient) servers() (map[string]any, error) {
	v, err := c.t.value()
	if err != nil {
		return nil, err
	}
	m, ok := v[c.key]
	if !ok {
		return nil, nil
	}
	tbl, ok := m.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s must be a table of servers", c.key)
	}
	return tbl, nil
}

func (c *tomlClient) entries() ([]rawEntry, error) {
	m, err := c.servers()
	if err != nil {
		return nil, err
	}
	var out []rawEntry
	for _, name := range slices.Sorted(maps.Keys(m)) {
		e := rawEntry{name: name}
		if r, ok := c.t.table(c.path(name)); ok {
			e.line = r.header + 1
		} else {
			e.inline = true
		}
		if tbl, ok := m[name].(map[string]any); ok {
			e.object = true
			e.keys = slices.Sorted(maps.Keys(tbl))
			e.command, _ = tbl["command"].(string)
			e.args = stringList(tbl["args"])
		}
		out = append(out, e)
	}
	// In file order; those not written as tables of their own last.
	slices.SortStableFunc(out, func(a, b rawEntry) int {
		switch {
		case a.inline != b.inline:
			if a.inline {
				return 1
			}
			return -1
		}
		return a.line - b.line
	})
	return out, nil
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, it := range list {
		s, ok := it.(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

func (c *tomlClient) setSelf(want orderedJSON, _ bool) (bool, error) {
	var cmd string
	var args []string
	for _, kv := range want {
		switch kv.key {
		case "command":
			cmd = kv.val.(string)
		case "args":
			args = kv.val.([]string)
		}
	}
	vals := []keyVal{{"command", tomlString(cmd)}, {"args", tomlStrings(args)}}
	r, ok := c.t.table(c.path(EntryName))
	if !ok {
		var b strings.Builder
		fmt.Fprintf(&b, "[%s.%s]\n", tomlKey(c.key), tomlKey(EntryName))
		for _, kv := range vals {
			fmt.Fprintf(&b, "%s = %s\n", kv.key, kv.val)
		}
		c.t.appendBlock(b.String())
		return true, nil
	}
	m, err := c.servers()
	if err != nil {
		return false, err
	}
	cur, _ := m[EntryName].(map[string]any)
	if have, _ := cur["command"].(string); have == cmd && slices.Equal(stringList(cur["args"]), args) {
		return false, nil
	}
	c.t.setKeys(r, vals)
	return true, nil
}

func (c *tomlClient) remove(name string) (saved, error) {
	r, ok := c.t.table(c.path(name))
	if !ok {
		return saved{}, fmt.Errorf("no [%s.%s] table", c.key, name)
	}
	return saved{Entry: c.t.removeRegion(r)}, nil
}

func (c *tomlClient) restore(name string, s saved) error {
	t, err := parseTOMLDoc(s.Entry)
	if err != nil {
		return fmt.Errorf("the saved entry %q: %w", name, err)
	}
	if _, ok := t.table(c.path(name)); !ok {
		return fmt.Errorf("the saved entry %q is not a [%s.%s] table", name, c.key, name)
	}
	block := s.Entry
	if !strings.HasSuffix(block, "\n") {
		block += "\n"
	}
	// Where it was: after the table that was before it, or before the
	// first server's table when it was first; else at the end.
	if s.After != "" {
		if r, ok := c.t.table(c.path(s.After)); ok {
			c.t.insert(r.end, "\n"+block)
			return nil
		}
	} else if r, ok := c.firstServer(); ok {
		c.t.insert(r.start, block+"\n")
		return nil
	}
	c.t.appendBlock(block)
	return nil
}

// firstServer is the region of the first [KEY.NAME] table in the file.
func (c *tomlClient) firstServer() (region, bool) {
	for n := range c.t.lines {
		if h, ok := c.t.headers[n]; ok && !h.array && len(h.path) == 2 && h.path[0] == c.key {
			return c.t.table(h.path)
		}
	}
	return region{}, false
}

func (c *tomlClient) entry(name string) (any, bool, error) {
	m, err := c.servers()
	if err != nil {
		return nil, false, err
	}
	v, ok := m[name]
	return v, ok, nil
}

// edit is what an edit of a client file is meant to change.
type edit struct {
	self   orderedJSON      // Install: the entry EntryName is to hold (only command and args when it existed)
	exists bool             // EntryName existed before
	unself bool             // Uninstall: EntryName is to be gone
	gone   []string         // entries moved out
	back   map[string]saved // entries put back
}

// check parses the new contents of cf again and makes sure they hold what
// they held before, with exactly the changes e intends: nothing else may
// have moved, been lost or been added.
func (cf *clientFile) check(before map[string]any, e edit) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: the edit would not do exactly what it should (%s); nothing was written", cf.f.Path, fmt.Sprintf(format, args...))
	}
	data := cf.doc.bytes()
	var after map[string]any
	var err error
	switch d := cf.doc.(type) {
	case *tomlClient:
		var t *tomlDoc
		if t, err = parseTOMLDoc(string(data)); err == nil {
			after, err = t.value()
		}
	case *jsonClient:
		if d.strict && !json.Valid(bytes.TrimPrefix(data, []byte("\ufeff"))) {
			return fail("the result is not strict JSON")
		}
		var j *jsonDoc
		if j, err = parseJSONDoc(data, d.strict, d.key); err == nil {
			after, err = j.value()
		}
	}
	if err != nil {
		return fail("%v", err)
	}
	if before == nil {
		before = map[string]any{}
	}
	key := cf.f.Key
	bm, _ := before[key].(map[string]any)
	am, _ := after[key].(map[string]any)
	if bm == nil {
		bm = map[string]any{}
	}
	if am == nil {
		am = map[string]any{}
	}
	if e.self != nil {
		got, ok := am[EntryName].(map[string]any)
		if !ok {
			return fail("no %s entry", EntryName)
		}
		want := map[string]any{}
		raw, _ := json.Marshal(e.self)
		_ = json.Unmarshal(raw, &want)
		if e.exists {
			for k := range want {
				if k != "command" && k != "args" {
					delete(want, k) // setSelf brings only these up to date
				}
			}
			old, _ := bm[EntryName].(map[string]any)
			got, old = maps.Clone(got), maps.Clone(old)
			for k, v := range want {
				if !jsonEqual(got[k], v) {
					return fail("%s.%s is not %v", EntryName, k, v)
				}
				delete(got, k)
				delete(old, k)
			}
			if !jsonEqual(got, old) {
				return fail("other keys of %s changed", EntryName)
			}
		} else if !jsonEqual(got, want) {
			return fail("%s is not the entry intended", EntryName)
		}
		delete(am, EntryName)
		delete(bm, EntryName)
	}
	if e.unself {
		if _, ok := am[EntryName]; ok {
			return fail("%s is still there", EntryName)
		}
		delete(bm, EntryName)
	}
	for _, name := range e.gone {
		if _, ok := am[name]; ok {
			return fail("%s is still there", name)
		}
		delete(bm, name)
	}
	for name, s := range e.back {
		want, err := savedValue(cf.doc, Move{Name: name, Saved: s})
		if err != nil {
			return fail("%v", err)
		}
		if !jsonEqual(am[name], want) {
			return fail("%s did not come back as it was", name)
		}
		delete(am, name)
	}
	for _, v := range []map[string]any{before, after} {
		if m, ok := v[key].(map[string]any); ok && len(m) == 0 || v[key] == nil {
			delete(v, key)
		}
	}
	if len(bm) > 0 {
		before[key] = bm
	}
	if len(am) > 0 {
		after[key] = am
	}
	if !jsonEqual(before, after) {
		return fail("other settings would change")
	}
	return nil
}

// selfEntry reports whether e starts this program.
func selfEntry(e rawEntry, self []string) bool {
	return e.object && discovery.LaunchesSelf(e.command, e.args, self)
}
