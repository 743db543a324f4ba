package discovery

import (
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// decodeZed reads context_servers of a Zed settings.json. Three shapes, as
// ContextServerSettingsContent in zed-industries/zed (settings_content):
// {"command": "prog", "args": [...], "env": {...}} (source "custom"), the
// older {"command": {"path": "prog", "args": [...], "env": {...}}}, and
// {"url": ..., "headers": {...}}; "enabled": false turns one off. Entries
// an extension provides ("source": "extension", only "settings") carry no
// command: they are skipped without a problem.
func decodeZed(r *reader, f *file) {
	r.eachServer(f, f.root.get("context_servers"), "context_servers", func(name, key string, v *cfgValue) {
		e := r.fields(f, v, key)
		raw := rawEntry{name: name, key: key, line: v.line, v: v}
		s := &raw.srv
		source := e.str("source")
		cmd := v.get("command")
		s.URL = e.str("url")
		if (cmd == nil || cmd.kind == cfgNull) && s.URL == "" && source != "custom" {
			return // provided by an extension
		}
		switch {
		case cmd == nil || cmd.kind == cfgNull:
		case cmd.kind == cfgString:
			s.Command, s.Args, s.Env = cmd.str, e.list("args"), e.dict("env")
		case cmd.kind == cfgObject:
			sub := r.fields(f, cmd, key+".command")
			s.Command, s.Args, s.Env = sub.str("path"), sub.list("args"), sub.dict("env")
			e.ok = e.ok && sub.ok
		default:
			e.bad("command", cmd, "a string or an object")
		}
		if s.URL != "" {
			raw.typ = config.TransportHTTP
			s.Headers = e.dict("headers")
		}
		if on, set := e.flag("enabled"); set && !on {
			s.Disabled, s.Why = true, "disabled in "+f.path
		}
		if e.ok {
			r.finish(f, &dialect{}, raw)
		}
	})
}
