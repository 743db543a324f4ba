package discovery

import (
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// decodeCodex reads [mcp_servers.NAME] tables of Codex's config.toml. Fields
// as RawMcpServerConfig in openai/codex codex-rs/config/src/mcp_types.rs:
// command, args, env, cwd (stdio); url, bearer_token_env_var, http_headers,
// env_http_headers (streamable HTTP); enabled, enabled_tools,
// disabled_tools. An inline bearer_token is refused, as Codex refuses it.
func decodeCodex(r *reader, f *file) {
	m := f.root.get("mcp_servers")
	if m == nil {
		return
	}
	if m.kind != cfgObject {
		r.problem(f, m, "mcp_servers", "must be a table of servers, not %s", m.kindName())
		return
	}
	m.members(func(name string, v *cfgValue) {
		key := "mcp_servers." + name
		if v.kind != cfgObject {
			r.problem(f, v, key, "must be a table, not %s", v.kindName())
			return
		}
		e := r.fields(f, v, key)
		raw := rawEntry{name: name, key: key, line: v.line, v: v}
		s := &raw.srv
		s.Command, s.Args, s.Env, s.Cwd = e.str("command"), e.list("args"), e.dict("env"), e.str("cwd")
		s.URL, s.Headers = e.str("url"), e.dict("http_headers")
		s.BearerTokenEnv, s.EnvHeaders = e.str("bearer_token_env_var"), e.dict("env_http_headers")
		s.Allow, s.Deny = e.list("enabled_tools"), e.list("disabled_tools")
		if on, set := e.flag("enabled"); set && !on {
			s.Disabled, s.Why = true, "disabled in "+f.path
		}
		if v.get("bearer_token") != nil {
			r.problem(f, v, key+".bearer_token", "an inline bearer_token is not supported (Codex refuses it): use bearer_token_env_var")
			return
		}
		if s.Command != "" && s.URL != "" {
			r.problem(f, v, key, "has both command and url (Codex refuses it)")
			return
		}
		if !e.ok {
			return
		}
		if s.URL != "" {
			raw.typ = config.TransportHTTP // Codex speaks Streamable HTTP only
		}
		r.finish(f, &dialect{}, raw)
	})
}
