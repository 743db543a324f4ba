package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
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
	Blocked     string            // why it cannot be used as configured, whatever a config file says ("" = it can)
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

	// OAuth is how to sign in to it when it asks for OAuth authorization
	// ([servers.NAME.oauth] of this program's config).
	OAuth OAuth
	// SignIn holds the secret values of its stored sign-in (access and
	// refresh tokens, a registered client's secret), read from the token
	// store for redaction only; never written anywhere.
	SignIn []string

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
	// expansion) and the contents of the envFile it names; an approval
	// records it, so an entry or env file edited afterwards needs a new one.
	EntryHash string
	// EnvFile is a project server's envFile as written ("" if none), shown
	// with the rest of the entry when it asks for approval.
	EnvFile string
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

// Secrets returns the values of this server's config that may be secret,
// for redaction (package redact): the values of its env and headers (and a
// header's token after "Bearer " or "Basic "), its URL's query values, the
// values of secret-named flags in its arguments ("--api-key V",
// "--token=V", "GITHUB_TOKEN=V"), the password of any URL among these or
// its arguments, the host variables it takes a bearer token, headers or an
// OAuth client secret from (read now), and its stored sign-in (SignIn).
//
// Not every configured value is a secret (LOG_LEVEL=info, a path), and one
// that is not would be hidden wherever it appears; so a value counts when
// it has at least 8 characters, or at least 4 and a name (variable, header,
// query key, flag) that says secret: key, token, secret, pass, pwd, auth,
// cred, cookie, session, sig, private, pat. Passwords and the values of
// token variables count from 4 characters whatever their name.
func (s Server) Secrets() []string {
	var out []string
	var add func(v string, named bool)
	add = func(v string, named bool) {
		if n := len(v); n >= minSecret && (named || n >= minUnnamedSecret) {
			out = append(out, v)
			if e := url.QueryEscape(v); e != v {
				out = append(out, e) // as it appears in a URL
			}
		}
		if u, err := url.Parse(v); err == nil && u.User != nil {
			if p, ok := u.User.Password(); ok {
				add(p, true)
			}
		}
	}
	for k, v := range s.Env {
		add(v, secretName.MatchString(k))
	}
	for k, v := range s.Headers {
		add(v, secretName.MatchString(k))
		if scheme, tok, ok := strings.Cut(v, " "); ok && (strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "Basic")) {
			add(strings.TrimSpace(tok), true)
		}
	}
	for _, name := range s.EnvHeaders {
		add(os.Getenv(name), true)
	}
	if s.BearerTokenEnv != "" {
		add(os.Getenv(s.BearerTokenEnv), true)
	}
	if s.OAuth.ClientSecretEnv != "" {
		add(os.Getenv(s.OAuth.ClientSecretEnv), true)
	}
	for _, v := range s.SignIn {
		add(v, true)
	}
	queryOf := func(raw string) {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "" {
			return
		}
		if p, ok := u.User.Password(); ok {
			add(p, true)
		}
		for k, vs := range u.Query() {
			for _, v := range vs {
				add(v, secretName.MatchString(k))
			}
		}
	}
	queryOf(s.URL)
	for i, a := range s.Args {
		queryOf(a)
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case hasValue && secretName.MatchString(name):
			add(value, true)
		case !hasValue && strings.HasPrefix(a, "-") && secretName.MatchString(name) && i+1 < len(s.Args) && !strings.HasPrefix(s.Args[i+1], "-"):
			add(s.Args[i+1], true)
		}
	}
	return out
}

// AllSecrets is Secrets of every server.
func AllSecrets(servers []Server) []string {
	var out []string
	for _, s := range servers {
		out = append(out, s.Secrets()...)
	}
	return out
}

// The shortest values Secrets counts: with a secret-sounding name, and
// without one.
const (
	minSecret        = 4
	minUnnamedSecret = 8
)

// secretName matches the names of variables, headers, query keys and flags
// whose values are secrets.
var secretName = regexp.MustCompile(`(?i)key|token|secret|pass|pwd|auth|cred|cookie|session|sig|private|pat`)
