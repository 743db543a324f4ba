package aggregator

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcp-code-mode/mcp-code-mode/internal/catalog"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/oauth"
	"github.com/mcp-code-mode/mcp-code-mode/internal/policy"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/mcp-code-mode/mcp-code-mode/internal/redact"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/state"
	"github.com/mcp-code-mode/mcp-code-mode/internal/stubs"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

// Engine starts sandbox containers: *sandbox.Engine starts a fresh one,
// *sandbox.Pool hands out a warm one.
type Engine interface {
	Start(ctx context.Context, spec sandbox.Spec) (*sandbox.Container, error)
}

// Aggregator serves programs: it owns the configured servers and runs each
// program in a fresh sandbox, checking every call it makes.
type Aggregator struct {
	cfg     config.Config
	engine  Engine
	log     *slog.Logger     // redacts redact's secrets from every record
	redact  *redact.Replacer // every configured server's secrets
	policy  policy.Policy
	entries []*entry          // configured servers, sorted by name
	byName  map[string]*entry // by name and by alias
	wg      sync.WaitGroup    // sandboxes being removed
	// sessions are the sandboxes of client sessions (isolation "session").
	sessions sessionTable

	catalogGen atomic.Int64  // bumped when any tool list changes
	searchMu   sync.Mutex    // guards the cached search index
	search     *searchIndex  // nil until first search
	semantic   *semantic     // the embedding ranker; nil when off
	startSem   chan struct{} // bounds servers started for search and docs
	runSem     chan struct{} // bounds runs at once
	admit      admission     // the runs waiting for runSem, and how long runs hold it
	notices    StartNotices

	// The state store (memories and saved tools), opened on first use.
	localNS     string // the OS user's namespace (LocalNamespace)
	storeMu     sync.Mutex
	store       *state.Store
	storeClosed bool
	savedMu     sync.Mutex
	saved       map[string]*savedCache // by namespace
	audit       auditing               // see SetAudit
	obs         observing              // see SetTelemetry
}

// StartNotices tell the user of a one-shot command about the server starts
// it causes, which may take long (a package to download, a server that
// hangs): which servers must be started, and each that could not be.
// Either may be nil; they may be called from several goroutines at once.
type StartNotices struct {
	Starting func(names []string)
	Failed   func(name string, err error)
}

// NotifyStarts sets the notices; call it before the aggregator is used.
func (a *Aggregator) NotifyStarts(n StartNotices) { a.notices = n }

// starting tells of the servers of entries that a use must start (not
// running and, when known counts, with no tool list known), and returns a
// func to tell of one that failed.
func (a *Aggregator) starting(entries []*entry, known bool) func(e *entry, err error) {
	var cold, starts []string
	for _, e := range entries {
		if e.up.Running() {
			continue
		}
		if _, ok := e.up.KnownTools(); known && ok {
			continue
		}
		cold = append(cold, e.srv.Name)
		if !e.up.BackingOff() {
			starts = append(starts, e.srv.Name)
		}
	}
	if len(starts) > 0 && a.notices.Starting != nil {
		a.notices.Starting(starts)
	}
	return func(e *entry, err error) {
		if err != nil && a.notices.Failed != nil && slices.Contains(cold, e.srv.Name) {
			a.notices.Failed(e.srv.Name, err)
		}
	}
}

func (a *Aggregator) bumpCatalog() { a.catalogGen.Add(1) }

// entry is one configured server and its Python alias.
type entry struct {
	srv   config.Server
	alias string
	up    *upstream.Server

	mu   sync.Mutex
	view *toolView // what runs see of the tools; rebuilt when they change
}

// New returns an aggregator over servers. engine may be nil for commands
// that never run programs. It starts nothing yet.
//
// The values of the servers' secrets (config.Server.Secrets) are taken out
// of every text it gives: what reaches the program (refusals, the servers'
// error texts, the helpers' answers, the modules' docs), its results and
// errors, and every record of log, which it wraps. A successful tool result
// is the tool's answer and reaches the program as it was sent.
func New(cfg config.Config, servers []config.Server, engine Engine, log *slog.Logger) (*Aggregator, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// A remote server's stored sign-in (its tokens) is secret too; tokens
	// obtained later are added as they come (oauth.Options.OnSecret).
	servers = slices.Clone(servers)
	for i, s := range servers {
		if upstream.SignsIn(s) {
			servers[i].SignIn = oauth.Store{Dir: cfg.TokenDir}.Secrets(s.URL)
		}
	}
	secrets := config.AllSecrets(servers)
	var embeddingKey string
	if name := cfg.Search.Embeddings.APIKeyEnv; name != "" && cfg.Search.Embeddings.URL != "" {
		embeddingKey = os.Getenv(name)
		if len(embeddingKey) >= 4 { // a shorter one would hide every word it is part of
			secrets = append(secrets, embeddingKey)
		}
	}
	red := redact.New(secrets...)
	log = slog.New(red.Handler(log.Handler()))
	if name := cfg.Search.Embeddings.APIKeyEnv; name != "" && embeddingKey == "" && cfg.Search.Embeddings.URL != "" {
		log.Warn("search.embeddings.api_key_env names a variable that is not set: no key is sent", "variable", name)
	}
	sem, err := newSemantic(cfg, embeddingKey, log)
	if err != nil {
		return nil, fmt.Errorf("search.embeddings: %w", err)
	}
	pol := policy.Policy{
		Allow: cfg.Allow, Deny: cfg.Deny, DefaultDeny: cfg.DefaultPolicy == "deny",
		AllowFrom: cfg.AllowFrom, DenyFrom: cfg.DenyFrom, DefaultFrom: cfg.DefaultPolicyFrom,
	}
	a := &Aggregator{cfg: cfg, engine: engine, log: log, redact: red, policy: pol, byName: map[string]*entry{}, semantic: sem,
		startSem: make(chan struct{}, 4), runSem: make(chan struct{}, max(1, cfg.Limits.ConcurrentRuns)),
		localNS: LocalNamespace(), saved: map[string]*savedCache{}}
	for i := range servers {
		// Before modelSafe caps them: a secret cut in two would not be found.
		servers[i].Description, servers[i].Why = red.String(servers[i].Description), red.String(servers[i].Why)
	}
	servers = modelSafe(servers, log)
	sorted := slices.SortedFunc(slices.Values(servers), func(x, y config.Server) int { return strings.Compare(x.Name, y.Name) })
	names := map[string]bool{}
	for _, s := range sorted {
		if names[s.Name] {
			return nil, fmt.Errorf("server %q is configured twice (%s)", s.Name, s.Source)
		}
		names[s.Name] = true
	}
	// The user's own servers are named first, then the project's: a
	// project's server never takes a name or an alias (a module) of one of
	// the user's, and is renamed "name@client" instead. Within each group,
	// a name that already is an identifier is its own alias, and the
	// others get theirs around them.
	var namer stubs.Namer
	for _, project := range []bool{false, true} {
		var group []config.Server
		for _, s := range sorted {
			if (s.Project != "") == project {
				group = append(group, s)
			}
		}
		for i := range group {
			s := &group[i]
			if _, taken := a.byName[s.Name]; !project || !taken && !namer.Taken(s.Name) {
				continue
			}
			renamed := s.Name + "@" + s.Client
			for n := 2; names[renamed]; n++ {
				renamed = fmt.Sprintf("%s@%s-%d", s.Name, s.Client, n)
			}
			names[renamed] = true
			s.Name = renamed
		}
		for _, s := range group {
			if stubs.Identifier(s.Name) == s.Name && !namer.Taken(s.Name) {
				namer.Reserve(s.Name)
			}
		}
		for _, s := range group {
			alias := s.Name
			if stubs.Identifier(s.Name) != s.Name {
				alias = namer.Name(s.Name)
			}
			e := &entry{srv: s, alias: alias, up: upstream.New(s, cfg.Env, cfg.Limits, catalog.Catalog{Dir: cfg.CatalogDir}, a.bumpCatalog,
				oauth.Options{Dir: cfg.TokenDir, OnSecret: red.Add}, log)}
			a.entries = append(a.entries, e)
			a.byName[s.Name] = e
		}
		for _, e := range a.entries {
			if _, taken := a.byName[e.alias]; !taken {
				a.byName[e.alias] = e
			}
		}
	}
	slices.SortFunc(a.entries, func(x, y *entry) int { return strings.Compare(x.srv.Name, y.srv.Name) })
	return a, nil
}

// Server names and descriptions reach the model (in run_python's
// description, the helpers' answers and error messages), and they come from
// files anyone may have written. These bound them.
const (
	maxNameRunes        = 64
	maxDescriptionRunes = 200
)

// modelSafe returns the servers with descriptions on one line, without
// control or format characters, and capped. A server whose name has such
// characters or is too long could forge lines of run_python's description:
// it is disabled under a printable form of its name (and left out if that
// form is another server's name).
func modelSafe(servers []config.Server, log *slog.Logger) []config.Server {
	names := map[string]bool{}
	for _, s := range servers {
		names[s.Name] = true
	}
	out := make([]config.Server, 0, len(servers))
	for _, s := range servers {
		s.Description = truncateRunes(printable.Words(s.Description), maxDescriptionRunes)
		if shown := truncateRunes(printable.Words(s.Name), maxNameRunes); shown != s.Name {
			if shown == "" || names[shown] {
				log.Warn("server left out: its name is not printable", "name", fmt.Sprintf("%q", s.Name), "source", s.Source)
				continue
			}
			names[shown] = true
			s.Name, s.Disabled = shown, true
			s.Why = fmt.Sprintf("its name (as configured in %s) has control characters or is over %d characters; rename it", s.Source, maxNameRunes)
		}
		out = append(out, s)
	}
	return out
}

// Close sends the spans of the runs so far, stops every wrapped server,
// waits for sandboxes to be removed, closes the state store and stops
// tracing.
func (a *Aggregator) Close() {
	// The runs' spans are sent first: stopping the servers and removing the
	// last containers can take the engine seconds, and a client that waits
	// only so long for its server to exit may kill it meanwhile.
	flushed := a.flushTelemetry()
	var wg sync.WaitGroup
	for _, e := range a.entries {
		wg.Go(e.up.Close)
	}
	wg.Wait()
	a.endAllSessions()
	a.wg.Wait()
	a.closeState()
	if err := a.audit.log.Close(); err != nil {
		a.log.Warn("audit log", "err", err)
	}
	a.semantic.close()
	a.closeTelemetry(flushed)
}

// Redact returns s with the values of every configured server's secrets
// replaced (see New), for text about the servers that a caller shows
// itself.
func (a *Aggregator) Redact(s string) string { return a.redact.String(s) }

// ServerInfo describes one configured server.
type ServerInfo struct {
	Name        string   `json:"name"`
	Alias       string   `json:"alias"`
	Module      string   `json:"module"`
	Description string   `json:"description,omitempty"`
	Transport   string   `json:"transport"`
	Source      string   `json:"source,omitempty"`
	Enabled     bool     `json:"enabled"`
	Why         string   `json:"why,omitempty"`
	Allow       []string `json:"allow,omitempty"`
	Deny        []string `json:"deny,omitempty"`
	ReadOnly    bool     `json:"read_only,omitempty"`
	Client      string   `json:"client,omitempty"`
	AlsoIn      []string `json:"also_in,omitempty"`
	// Project is the project directory of a server from a project's file.
	Project string `json:"project,omitempty"`
	// NeedsApproval: a project server not approved yet (see Why for how).
	NeedsApproval bool `json:"needs_approval,omitempty"`
	// EntryHash identifies a project server's entry as written.
	EntryHash string `json:"entry_hash,omitempty"`
	// AsWritten is an unapproved project server's command line or URL as
	// its file has it (never expanded), for the user to read before
	// approving it.
	AsWritten string `json:"as_written,omitempty"`
	// SignIn is a remote server's OAuth sign-in: "signed in (...)" or "not
	// signed in"; "" for a server that signs in otherwise (a stdio
	// server, or an Authorization header in its config).
	SignIn string `json:"sign_in,omitempty"`
}

// Servers lists the configured servers, sorted by name.
func (a *Aggregator) Servers() []ServerInfo {
	out := make([]ServerInfo, 0, len(a.entries))
	for _, e := range a.entries {
		out = append(out, ServerInfo{
			Name: e.srv.Name, Alias: e.alias, Module: stubs.Module(e.alias), Description: e.srv.Description,
			Transport: e.srv.Transport, Source: e.srv.Source, Enabled: !e.srv.Disabled, Why: e.srv.Why,
			Allow: e.srv.Allow, Deny: e.srv.Deny, ReadOnly: e.srv.ReadOnly, Client: e.srv.Client, AlsoIn: e.srv.AlsoIn,
			Project: e.srv.Project, NeedsApproval: e.srv.Untrusted, EntryHash: e.srv.EntryHash, AsWritten: asWritten(e.srv),
		})
		if upstream.SignsIn(e.srv) {
			out[len(out)-1].SignIn = oauth.Store{Dir: a.cfg.TokenDir}.Status(e.srv.URL, e.srv.OAuth)
		}
	}
	return out
}

// asWritten is what an unapproved project server would run or reach, as
// its file has it; "" for any other server, whose values may be expanded
// secrets.
func asWritten(s config.Server) string {
	if !s.Untrusted {
		return ""
	}
	var b strings.Builder
	if s.Transport != config.TransportStdio {
		b.WriteString(s.URL)
		for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
			fmt.Fprintf(&b, " (header %s: %q)", k, s.Headers[k])
		}
		return b.String()
	}
	b.WriteString(strconv.Quote(s.Command))
	for _, a := range s.Args {
		b.WriteString(" " + strconv.Quote(a))
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		fmt.Fprintf(&b, " (env %s=%q)", k, s.Env[k])
	}
	if s.EnvFile != "" {
		fmt.Fprintf(&b, " (envFile %q)", s.EnvFile)
	}
	return b.String()
}

// resolve maps requested names to configured, enabled servers.
func (a *Aggregator) resolve(names []string) ([]*entry, error) {
	var out []*entry
	seen := map[*entry]bool{}
	for _, n := range names {
		e, ok := a.byName[n]
		if !ok {
			var known []string
			for _, e := range a.enabled() {
				known = append(known, e.srv.Name)
			}
			if len(known) == 0 {
				return nil, fmt.Errorf("unknown server %q: no servers are configured", n)
			}
			return nil, fmt.Errorf("unknown server %q; configured: %s", n, strings.Join(known, ", "))
		}
		if e.srv.Disabled {
			return nil, fmt.Errorf("server %q is disabled: %s", n, e.srv.Why)
		}
		if a.policy.DeniesServer(e.srv, e.alias) {
			return nil, fmt.Errorf("server %q is denied by the policy (deny %s)", n, strings.Join(a.policy.Deny, ", "))
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out, nil
}
