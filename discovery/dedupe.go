package discovery

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// dedupe merges servers found more than once and makes names unique. Its
// input is in discovery order (clients in the order of the clients table,
// each client's files in its own precedence order, entries in file order),
// and so is its output:
//
//   - The same server (same transport, command and arguments after
//     expansion; or, for a remote one, the same URL) found again is dropped,
//     and its Source is added to AlsoIn of the first one found. The first
//     one's settings (env, headers, allow list, disabled) are kept; deny
//     lists are merged, so a tool turned off in any client stays off.
//   - A different server whose name is taken gets "name@client", and if that
//     is taken too "name@client-2", "name@client-3", ...
func dedupe(found []Server) []Server {
	var out []Server
	byIdentity := map[string]int{}
	taken := map[string]bool{}
	for _, s := range found {
		id := identity(s)
		if i, ok := byIdentity[id]; ok {
			out[i].AlsoIn = append(out[i].AlsoIn, s.Source)
			for _, d := range s.Deny {
				if !slices.Contains(out[i].Deny, d) {
					out[i].Deny = append(out[i].Deny, d)
				}
			}
			continue
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
		byIdentity[id] = len(out)
		out = append(out, s)
	}
	return out
}

// identity is what makes two entries the same server.
func identity(s Server) string {
	if s.Transport == TransportStdio {
		return "stdio\x00" + s.Command + "\x00" + strings.Join(s.Args, "\x00")
	}
	return "remote\x00" + s.URL
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
