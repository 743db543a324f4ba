// Package policy decides which tools of which servers a program may call:
// allow and deny globs (per server and global), read-only servers and a
// default-deny mode. The bridge applies it before a tool is put in a
// program's module and again on every call, and names the rule that refuses
// a tool in the ToolError the program gets.
package policy

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// Policy decides which tools of which servers programs may call. Patterns are
// SERVER (all its tools) or SERVER.TOOL_GLOB (path.Match syntax); a server's
// own Allow and Deny are tool globs. Deny wins.
type Policy struct {
	Allow []string
	Deny  []string
	// DefaultDeny refuses every tool that no allow list names.
	DefaultDeny bool

	// Where Allow, Deny and DefaultDeny were set, for the messages that
	// name the rule refusing a tool: a flag ("--allow", "--deny"), a
	// variable ("MCP_CODE_MODE_DENY") or a config file's path; "" when not
	// known.
	AllowFrom, DenyFrom, DefaultFrom string
}

// Allowed reports whether tool of srv (known to programs as alias) may be
// called. readOnly says whether the tool is annotated readOnlyHint; a
// read-only server allows only those.
func (p Policy) Allowed(srv config.Server, alias, tool string, readOnly bool) bool {
	return p.Denial(srv, alias, tool, readOnly) == ""
}

// Denial says why tool of srv (known to programs as alias) may not be
// called: "" when it may, else the rule that refuses it and where that rule
// was written, as a phrase that follows "denied ": `by --deny
// memory.delete_*`, `by the deny list of [servers.memory] in FILE
// ("delete_*")`, `by read_only in ...: it is not annotated readOnlyHint`,
// `by default_policy = "deny" in FILE: no allow list names it`. The rules
// are tried in the order they take effect; the first that refuses is named.
func (p Policy) Denial(srv config.Server, alias, tool string, readOnly bool) string {
	if g, ok := firstMatch(srv.Deny, tool); ok {
		return "by " + serverList(srv, "deny", []string{g})
	}
	if pat, ok := p.match(p.Deny, srv, alias, tool); ok {
		return "by " + globalList(p.DenyFrom, "deny", []string{pat})
	}
	if srv.ReadOnly && !readOnly {
		return "by read_only" + serverOrigin(srv) + ": it is not annotated readOnlyHint"
	}
	if len(srv.Allow) > 0 && !matchAny(srv.Allow, tool) {
		return "by " + serverList(srv, "allow", srv.Allow) + ", which does not name it"
	}
	if len(p.Allow) > 0 && !p.matches(p.Allow, srv, alias, tool) {
		return "by " + globalList(p.AllowFrom, "allow", p.Allow) + ", which does not name it"
	}
	if p.DefaultDeny && len(srv.Allow) == 0 && len(p.Allow) == 0 {
		return `by default_policy = "deny"` + globalOrigin(p.DefaultFrom) + ": no allow list names it"
	}
	return ""
}

// serverOrigin is where a server's own policy was written, as " in ..."
// (empty when not known).
func serverOrigin(srv config.Server) string {
	switch {
	case srv.PolicyFrom == config.CommandLine:
		return " on the command line"
	case srv.PolicyFrom != "":
		return " in " + srv.PolicyFrom
	case srv.Source != "":
		return " in the entry " + srv.Source
	}
	return ""
}

// serverList names a server's own allow or deny list and the globs of it
// that matter.
func serverList(srv config.Server, key string, globs []string) string {
	if srv.PolicyFrom == config.CommandLine {
		return "--" + key + " " + strings.Join(globs, ",")
	}
	list := "the " + key + " list"
	switch {
	case srv.PolicyFrom != "":
		list += " of " + srv.PolicyFrom
	case srv.Source != "":
		list += " of the entry " + srv.Source
	}
	return list + " (" + quoted(globs) + ")"
}

// globalList names the global allow or deny list, where it was set, and the
// patterns of it that matter.
func globalList(from, key string, patterns []string) string {
	switch {
	case strings.HasPrefix(from, "--"):
		return from + " " + strings.Join(patterns, ",")
	case strings.HasPrefix(from, config.EnvPrefix):
		return from + " (" + quoted(patterns) + ")"
	}
	return "the " + key + " list" + globalOrigin(from) + " (" + quoted(patterns) + ")"
}

// globalOrigin is where a global setting was made, as " in ..." or " (...)".
func globalOrigin(from string) string {
	switch {
	case from == "":
		return ""
	case strings.HasPrefix(from, config.EnvPrefix), strings.HasPrefix(from, "--"):
		return fmt.Sprintf(" (%s)", from)
	}
	return " in " + from
}

func quoted(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// DeniesServer reports whether a deny pattern names the whole server.
func (p Policy) DeniesServer(srv config.Server, alias string) bool {
	for _, pat := range p.Deny {
		if pat == srv.Name || pat == alias {
			return true
		}
	}
	return false
}

func (p Policy) matches(patterns []string, srv config.Server, alias, tool string) bool {
	_, ok := p.match(patterns, srv, alias, tool)
	return ok
}

// match returns the first pattern that names tool of srv.
func (p Policy) match(patterns []string, srv config.Server, alias, tool string) (string, bool) {
	for _, pat := range patterns {
		if pat == srv.Name || pat == alias {
			return pat, true
		}
		for _, name := range []string{srv.Name, alias} {
			if globMatch(pat, name+"."+tool) {
				return pat, true
			}
		}
	}
	return "", false
}

func matchAny(globs []string, name string) bool {
	_, ok := firstMatch(globs, name)
	return ok
}

// firstMatch returns the first glob that matches name.
func firstMatch(globs []string, name string) (string, bool) {
	for _, g := range globs {
		if globMatch(g, name) {
			return g, true
		}
	}
	return "", false
}

// globMatch is path.Match where '*' and '?' also match '/': tool names are
// not paths, and a deny glob must not fail open on "admin/delete".
func globMatch(pattern, name string) bool {
	const sep = "\x00"
	ok, _ := path.Match(strings.ReplaceAll(pattern, "/", sep), strings.ReplaceAll(name, "/", sep))
	return ok
}
