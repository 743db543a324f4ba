// Package policy decides which tools of which servers a program may call:
// allow and deny globs (per server and global), read-only servers and a
// default-deny mode. The bridge applies it before a tool is put in a
// program's module and again on every call.
package policy

import (
	"path"
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
}

// Allowed reports whether tool of srv (known to programs as alias) may be
// called. readOnly says whether the tool is annotated readOnlyHint; a
// read-only server allows only those.
func (p Policy) Allowed(srv config.Server, alias, tool string, readOnly bool) bool {
	if matchAny(srv.Deny, tool) || p.matches(p.Deny, srv, alias, tool) {
		return false
	}
	if srv.ReadOnly && !readOnly {
		return false
	}
	if len(srv.Allow) > 0 && !matchAny(srv.Allow, tool) {
		return false
	}
	if len(p.Allow) > 0 && !p.matches(p.Allow, srv, alias, tool) {
		return false
	}
	return !p.DefaultDeny || len(srv.Allow) > 0 || len(p.Allow) > 0
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
	for _, pat := range patterns {
		if pat == srv.Name || pat == alias {
			return true
		}
		for _, name := range []string{srv.Name, alias} {
			if globMatch(pat, name+"."+tool) {
				return true
			}
		}
	}
	return false
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if globMatch(g, name) {
			return true
		}
	}
	return false
}

// globMatch is path.Match where '*' and '?' also match '/': tool names are
// not paths, and a deny glob must not fail open on "admin/delete".
func globMatch(pattern, name string) bool {
	const sep = "\x00"
	ok, _ := path.Match(strings.ReplaceAll(pattern, "/", sep), strings.ReplaceAll(name, "/", sep))
	return ok
}
