package discovery

import (
	"fmt"
	"path/filepath"
	"strings"
)

// decodeContinue reads Continue's config.yaml and its block files. YAML:
// mcpServers is a list of {name, type, command, args, env, cwd, url}
// (type stdio, sse or streamable-http; remote headers also under
// requestOptions.headers); a block file may also be one server. JSON block
// files are copied from other clients: {"mcpServers": {name: entry}} or one
// server, named after the file.
func decodeContinue(r *reader, f *file) {
	base := strings.TrimSuffix(filepath.Base(f.path), filepath.Ext(f.path))
	ms := f.root.get("mcpServers")
	switch {
	case ms != nil && ms.kind == cfgArray:
		for i, v := range ms.vals {
			r.continueEntry(f, v, fmt.Sprintf("mcpServers[%d]", i), "")
		}
	case ms != nil && ms.kind == cfgObject:
		r.serverMap(f, ms, "mcpServers", dialectPlain, nil)
	case ms != nil && ms.kind != cfgNull:
		r.problem(f, ms, "mcpServers", "must be a list or an object of servers, not %s", ms.kindName())
	case f.root.get("command") != nil || f.root.get("url") != nil:
		r.continueEntry(f, f.root, "", base)
	}
}

func (r *reader) continueEntry(f *file, v *cfgValue, key, defName string) {
	where := key
	if v.kind != cfgObject {
		r.problem(f, v, where, "must be an object, not %s", v.kindName())
		return
	}
	e := r.fields(f, v, key)
	name := e.str("name")
	if name == "" {
		name = defName
	}
	if key == "" {
		key = name
	}
	if name == "" {
		r.problem(f, v, where+".name", "a server needs a name")
		return
	}
	if v.get("command") == nil && v.get("url") == nil && v.get("uses") != nil {
		r.problem(f, v, where, "refers to a Continue Hub block (uses), which is not resolved here")
		return
	}
	raw, ok := r.entry(f, dialectPlain, name, key, v)
	if ro := v.get("requestOptions"); ro != nil && ro.kind == cfgObject && raw.srv.Headers == nil {
		sub := r.fields(f, ro, key+".requestOptions")
		raw.srv.Headers = sub.dict("headers")
		ok = ok && sub.ok
	}
	if ok && e.ok {
		r.finish(f, dialectPlain, raw)
	}
}
