package discovery

import (
	"slices"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

var dialectOpenCode = &dialect{syntax: syntaxOpenCode}

// decodeOpenCode reads the "mcp" map of opencode.json(c)
// (https://opencode.ai/docs/mcp-servers): "type": "local" with "command" an
// array (program first) and "environment"; "type": "remote" with "url" and
// "headers"; "enabled". {env:VAR} is substituted.
func decodeOpenCode(r *reader, f *file) {
	r.eachServer(f, f.root.get("mcp"), "mcp", func(name, key string, v *cfgValue) {
		e := r.fields(f, v, key)
		raw := rawEntry{name: name, key: key, line: v.line, v: v}
		s := &raw.srv
		switch t := e.str("type"); t {
		case "local":
			raw.typ = config.TransportStdio
		case "remote", "":
		default:
			r.problem(f, v, key+".type", "unknown type %q (want local or remote)", t)
			return
		}
		if cmd := e.list("command"); len(cmd) > 0 {
			s.Command, s.Args = cmd[0], cmd[1:]
		}
		s.Env = e.dict("environment")
		s.URL, s.Headers = e.str("url"), e.dict("headers")
		if on, set := e.flag("enabled"); set && !on {
			s.Disabled, s.Why = true, "disabled in "+f.path
		}
		if !e.ok {
			return
		}
		if raw.typ == "" && s.Command == "" && s.URL == "" && len(v.keys) == 1 && v.keys[0] == "enabled" {
			return // only turns on or off a server defined elsewhere (remote org config)
		}
		r.finish(f, dialectOpenCode, raw)
	})
}

// decodeOpenCodeLegacy reads ~/.opencode.json of the older Go opencode:
// mcpServers with type stdio|sse, command, args, env (a list of "K=V" or a
// map), url, headers.
func decodeOpenCodeLegacy(r *reader, f *file) {
	r.eachServer(f, f.root.get("mcpServers"), "mcpServers", func(name, key string, v *cfgValue) {
		if ev := v.get("env"); ev != nil && ev.kind == cfgArray {
			v = withEnvMap(v, ev)
		}
		if raw, ok := r.entry(f, dialectPlain, name, key, v); ok {
			r.finish(f, dialectPlain, raw)
		}
	})
}

// withEnvMap is v with its "env" list of "K=V" strings turned into a map
// (entries that are not "K=V" strings are kept as they are, to be reported).
func withEnvMap(v, list *cfgValue) *cfgValue {
	m := &cfgValue{kind: cfgObject, line: list.line}
	for _, it := range list.vals {
		k, val, ok := strings.Cut(it.str, "=")
		if it.kind != cfgString || !ok {
			return v
		}
		m.keys = append(m.keys, k)
		m.vals = append(m.vals, &cfgValue{kind: cfgString, str: val, line: it.line})
	}
	out := *v
	out.keys, out.vals = slices.Clone(v.keys), slices.Clone(v.vals)
	for i, k := range out.keys {
		if k == "env" {
			out.vals[i] = m
		}
	}
	return &out
}
