package discovery

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// dedupe merges servers found more than once and makes names unique. Its
// input is in discovery order (clients in the order of the clients table,
// each client's files in its own precedence order, entries in file order),
// and so is its output, with the user's own servers before the project's:
//
//   - The same server found again is dropped, and its Source is added to
//     AlsoIn of the first one found. Two entries are the same server when
//     they start the same command with the same arguments in the same
//     directory (after expansion), or reach the same URL, and their
//     credentials agree: no variable or header is set to two different
//     values (say, the tokens of two accounts). The first one's settings
//     (allow list, disabled) are kept, variables and headers only one of
//     them sets are added, and deny lists are merged, so a tool turned off
//     in any client stays off.
//   - A different server whose name is taken gets "name@client", and if that
//     is taken too "name@client-2", "name@client-3", ... The user's own
//     servers come first, so a project server is the one renamed.
//   - A project's entry of one of the user's servers adds only its Source
//     and deny list; an unapproved one is never merged.
func dedupe(found []config.Server) []config.Server {
	// The user's own servers first, so that they keep their names: a
	// project's server never takes the name of one of the user's.
	ordered := make([]config.Server, 0, len(found))
	for _, s := range found {
		if s.Project == "" {
			ordered = append(ordered, s)
		}
	}
	for _, s := range found {
		if s.Project != "" {
			ordered = append(ordered, s)
		}
	}
	var out []config.Server
	byIdentity := map[string][]int{}
	taken := map[string]bool{}
next:
	for _, s := range ordered {
		id := identity(s)
		for _, i := range byIdentity[id] {
			if s.Untrusted || out[i].Untrusted || !agree(out[i], s) {
				continue
			}
			out[i].AlsoIn = append(out[i].AlsoIn, s.Source)
			for _, d := range s.Deny {
				if !slices.Contains(out[i].Deny, d) {
					out[i].Deny = append(out[i].Deny, d)
				}
			}
			if s.Project != "" && out[i].Project == "" {
				// A project's file adds nothing to the user's server but
				// a deny list: its variables would change what the
				// user's server runs with.
				continue next
			}
			out[i].Env = union(out[i].Env, s.Env)
			out[i].Headers = union(out[i].Headers, s.Headers)
			out[i].EnvHeaders = union(out[i].EnvHeaders, s.EnvHeaders)
			if out[i].BearerTokenEnv == "" {
				out[i].BearerTokenEnv = s.BearerTokenEnv
			}
			continue next
		}
		name := s.Name
		if taken[name] {
			name = s.Name + "@" + s.Client
			for n := 2; taken[name]; n++ {
				name = fmt.Sprintf("%s@%s-%d", s.Name, s.Client, n)
			}
		}
		taken[name] = true
		s.Name = name
		byIdentity[id] = append(byIdentity[id], len(out))
		out = append(out, s)
	}
	return out
}

// identity is how an entry starts or reaches its server.
func identity(s config.Server) string {
	if s.Transport == config.TransportStdio {
		return "stdio\x00" + s.Command + "\x00" + strings.Join(s.Args, "\x00") + "\x01" + s.Cwd
	}
	return "remote\x00" + s.URL
}

// agree reports whether two entries of one identity use the same
// credentials: nothing set to two different values.
func agree(a, b config.Server) bool {
	return compatible(a.Env, b.Env) && compatible(sentHeaders(a), sentHeaders(b))
}

// sentHeaders is what an entry sends as headers, by lower-case name: the
// literal ones, and those whose values come from variables, named by the
// variable (a bearer token variable sets Authorization).
func sentHeaders(s config.Server) map[string]string {
	h := map[string]string{}
	for k, v := range s.Headers {
		h[strings.ToLower(k)] = v
	}
	for k, name := range s.EnvHeaders {
		h[strings.ToLower(k)] = "\x00env:" + name
	}
	if s.BearerTokenEnv != "" {
		h["authorization"] = "\x00bearer:" + s.BearerTokenEnv
	}
	return h
}

func compatible(a, b map[string]string) bool {
	for k, v := range a {
		if w, ok := b[k]; ok && w != v {
			return false
		}
	}
	return true
}

// union is a with the keys only b has added; a is not modified.
func union(a, b map[string]string) map[string]string {
	if len(b) == 0 {
		return a
	}
	out := maps.Clone(a)
	if out == nil {
		out = map[string]string{}
	}
	for k, v := range b {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return out
}

// launchers run a package named in their arguments.
var launchers = map[string]bool{
	"npx": true, "uvx": true, "bunx": true, "pnpx": true, "pipx": true,
	"uv": true, "pnpm": true, "yarn": true, "bun": true, "npm": true,
	"go": true, "deno": true,
}

// launchesSelf reports whether a stdio entry would start this program: its
// command is one of self (a path, or a base name), or it is a launcher such
// as npx or uvx whose arguments name a package with one of self's base
// names. self always includes "mcp-code-mode".
func launchesSelf(command string, args []string, self []string) bool {
	names := map[string]bool{"mcp-code-mode": true}
	paths := map[string]bool{}
	for _, p := range self {
		if p == "" {
			continue
		}
		names[progName(p)] = true
		if strings.ContainsAny(p, `/\`) {
			paths[filepath.Clean(p)] = true
		}
	}
	if command == "" {
		return false
	}
	if paths[filepath.Clean(command)] || names[progName(command)] {
		return true
	}
	if !launchers[progName(command)] {
		return false
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if names[packageName(a)] {
			return true
		}
	}
	return false
}

// progName is the base name of a program path, without a Windows suffix.
func progName(p string) string {
	p = p[strings.LastIndexAny(p, `/\`)+1:]
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		if len(p) > len(ext) && strings.EqualFold(p[len(p)-len(ext):], ext) {
			return p[:len(p)-len(ext)]
		}
	}
	return p
}

// packageName is the last path element of a package spec without its
// version: "@scope/mcp-code-mode@1.2" and
// "github.com/x/mcp-code-mode/cmd/mcp-code-mode@latest" give
// "mcp-code-mode", "mcp-code-mode==0.3" too.
func packageName(spec string) string {
	spec = strings.TrimSuffix(spec, "/")
	spec = spec[strings.LastIndexAny(spec, `/\`)+1:]
	if i := strings.LastIndex(spec, "@"); i > 0 {
		spec = spec[:i]
	}
	if i := strings.IndexAny(spec, "=<>~!["); i > 0 {
		spec = spec[:i]
	}
	return progName(spec)
}
