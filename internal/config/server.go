package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
)

// Transports a server can be reached over.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http" // streamable HTTP
	TransportSSE   = "sse"  // legacy HTTP+SSE
)

// Server is one configured MCP server: how to start or reach it, and the
// policy that limits which of its tools a program may call.
type Server struct {
	Name        string            // name as configured
	Description string            // optional, shown to the model
	Transport   string            // TransportStdio, TransportHTTP or TransportSSE
	Command     string            // stdio: the program to start
	Args        []string          // stdio: its arguments
	Env         map[string]string // stdio: extra environment for it
	Cwd         string            // stdio: its working directory ("" = ours)
	URL         string            // http, sse: the endpoint
	Headers     map[string]string // http, sse: extra request headers
	Allow       []string          // tool-name globs; empty allows every tool
	Deny        []string          // tool-name globs; a match is refused even if allowed
	ReadOnly    bool              // only tools annotated readOnlyHint may be called
	Disabled    bool              // configured but turned off
	Why         string            // why it is disabled
	Source      string            // where it was found: "file" or "file#key"
	// PolicyFrom is where Allow, Deny and ReadOnly were written, for the
	// messages that name the rule refusing a tool: "[servers.NAME] in
	// FILE" for this program's config, CommandLine for serve's --allow and
	// --deny, or "" for the client's entry at Source.
	PolicyFrom string

	// Filled by Discover for servers read from MCP clients' config files.
	Client         string            // ID of the client whose file it came from (a discovery client ID); "" if not discovered
	AlsoIn         []string          // sources of the same server found again in other files (merged into this one)
	BearerTokenEnv string            // http: NAME of the variable holding a bearer token (Codex); never its value
	EnvHeaders     map[string]string // http: header name -> NAME of the variable holding its value (Codex)
	UnsetVars      []string          // variables the entry referred to that were not set (they expanded to "")

	// Project is the project directory when the server comes from a file
	// in it (a repository's .mcp.json, .vscode/mcp.json, ...), which anyone
	// who wrote the repository may have written; "" for the user's own
	// files and this program's config.
	Project string
	// Untrusted marks a project server the user has not approved. It is
	// listed, disabled, and never started, searched or variable-expanded:
	// its fields are as written.
	Untrusted bool
	// EntryHash identifies a project server's entry as written (before
	// expansion); an approval records it, so an edited entry needs a new one.
	EntryHash string
}

// CommandLine is Server.PolicyFrom for a server whose policy the command
// line gave (serve --allow/--deny -- CMD).
const CommandLine = "the command line"

// Key identifies a server's config: everything that decides what the
// server is and so which tools it lists.
func (s Server) Key() string {
	h := sha256.New()
	write := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s;", len(p), p)
		}
	}
	write(s.Transport, s.Command, s.Cwd, s.URL)
	write(s.Args...)
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		write(k, s.Env[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		write(k, s.Headers[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
