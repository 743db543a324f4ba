package discovery

import (
	"fmt"
	"path/filepath"
	"slices"
)

var (
	// Claude Desktop: command, args, env (modelcontextprotocol.io quickstart);
	// no variable expansion.
	dialectClaudeDesktop = &dialect{typeKeys: []string{"type"}}
	// Claude Code: type stdio|sse|http ("streamable-http" is an alias),
	// url, headers; ${VAR}, ${VAR:-default} (https://code.claude.com/docs/en/mcp).
	dialectClaudeCode = &dialect{syntax: syntaxBraces, typeKeys: []string{"type"}}
)

// decodeClaudeLocal reads the local scope of ~/.claude.json:
// projects[<cwd>].mcpServers, and the lists of servers turned off for the
// project there (disabledMcpServers, written by /mcp; disabledMcpjsonServers,
// the .mcp.json servers the user rejected).
func decodeClaudeLocal(r *reader, f *file) {
	projects := f.root.get("projects")
	if projects == nil || projects.kind == cfgNull {
		return
	}
	if projects.kind != cfgObject {
		r.problem(f, projects, "projects", "must be an object, not %s", projects.kindName())
		return
	}
	var proj *cfgValue
	projects.members(func(k string, v *cfgValue) {
		if r.cwd != "" && filepath.Clean(k) == r.cwd {
			proj, r.claudeProjectKey = v, k
		}
	})
	if proj == nil {
		return
	}
	key := "projects." + r.claudeProjectKey
	if proj.kind != cfgObject {
		r.problem(f, proj, key, "must be an object, not %s", proj.kindName())
		return
	}
	e := r.fields(f, proj, key)
	r.claudeDisabled = e.list("disabledMcpServers")
	r.claudeDisabledMcpjson = e.list("disabledMcpjsonServers")
	// Claude Code asks before it uses the servers of a project's .mcp.json,
	// and records the answer here; an approval there counts here too.
	r.claudeEnabledMcpjson = e.list("enabledMcpjsonServers")
	r.claudeEnableAllMcpjson, _ = e.flag("enableAllProjectMcpServers")
	r.serverMap(f, proj.get("mcpServers"), key+".mcpServers", dialectClaudeCode, r.claudeOff(f.path, false))
}

// claudeOff says why ~/.claude.json turns a server off for this project.
func (r *reader) claudeOff(claudeJSON string, mcpjson bool) func(string) string {
	return func(name string) string {
		key := "projects." + r.claudeProjectKey
		if slices.Contains(r.claudeDisabled, name) {
			return fmt.Sprintf("disabled in %s (%s.disabledMcpServers)", claudeJSON, key)
		}
		if mcpjson && slices.Contains(r.claudeDisabledMcpjson, name) {
			return fmt.Sprintf("disabled in %s (%s.disabledMcpjsonServers)", claudeJSON, key)
		}
		return ""
	}
}

// claudeApproved reports whether the user approved the .mcp.json server
// name in Claude Code (~/.claude.json, projects[<cwd>]).
func (r *reader) claudeApproved(name string) bool {
	return r.claudeEnableAllMcpjson || slices.Contains(r.claudeEnabledMcpjson, name)
}

func decodeClaudeProject(r *reader, f *file) {
	r.serverMap(f, f.root.get("mcpServers"), "mcpServers", dialectClaudeCode, r.claudeOff(r.userFile("claude-code"), true))
}

func decodeClaudeUser(r *reader, f *file) {
	r.serverMap(f, f.root.get("mcpServers"), "mcpServers", dialectClaudeCode, r.claudeOff(f.path, false))
}
