// Package codemode embeds mcp-code-mode in a Go program: it runs Python
// programs in a locked-down container, where each MCP server they name is a
// module of async functions, and checks every call on the host before the
// server sees it.
//
//	cm, err := codemode.New(codemode.Options{
//		Servers: map[string]codemode.Server{
//			"fs": {Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/data"}},
//		},
//	})
//	if err != nil { ... }
//	defer cm.Close()
//	res, err := cm.Run(ctx, `print(await mcp_fs.list_directory(path="/data"))`, "fs")
//
// It needs a Docker (or Podman) engine and the sandbox image, which the
// mcp-code-mode command builds (mcp-code-mode build-image). Servers are
// started on first use and stopped when idle or when the CodeMode is
// closed. The same limits as the command apply; Options sets the common
// ones, and ConfigFile reads all of them from mcp-code-mode's own config
// file. Nothing is read from MCP clients' config files: the program names
// its servers.
package codemode

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/aggregator"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
)

// Server is one MCP server a program may use: a command started over stdio,
// or a URL reached over streamable HTTP.
type Server struct {
	Command string            // stdio: the program to start
	Args    []string          // stdio: its arguments
	Env     map[string]string // stdio: its environment, besides HOME, PATH, LANG and a few more
	Dir     string            // stdio: its working directory ("" = the current one)
	URL     string            // streamable HTTP: the endpoint (instead of Command)
	Headers map[string]string // HTTP: request headers

	Description string   // shown to the model beside the server's name
	Allow       []string // tool-name globs a program may call; empty allows every tool
	Deny        []string // tool-name globs refused even if allowed
	ReadOnly    bool     // only tools annotated readOnlyHint may be called
}

// Options configure a CodeMode. The zero value of each field keeps the
// default (or the config file's value when ConfigFile is set).
type Options struct {
	// Servers are the servers programs may name, by name; each becomes the
	// module mcp_NAME (with NAME made a Python identifier).
	Servers map[string]Server
	// ConfigFile is an mcp-code-mode config file (TOML, YAML or JSON) read
	// first, with its servers, policy and limits.
	ConfigFile string

	// Engines are the container engines runs are spread over (unix://,
	// tcp:// or ssh:// addresses; default: the config file's engines, else
	// the one DOCKER_HOST names or the default socket).
	Engines  []string
	Image    string        // the sandbox image (default sandbox.DefaultImage(): mcp-code-mode-sandbox:<runner digest>)
	Deadline time.Duration // wall-clock limit of a run (default 90s)
	MaxCalls int           // tool calls per run (default 200)
	// Warm is how many containers to keep started ahead of need (default
	// none; a long-lived program that runs often wants 1 or 2). With
	// some, the pool grows while runs find none ready, up to the config
	// file's limits.warm_max, and shrinks back when idle.
	Warm int
	// Logger receives the logs (default: none).
	Logger *slog.Logger
}

// CodeMode runs programs against a fixed set of servers. It is safe for
// concurrent use; runs beyond the configured number at once wait their turn.
type CodeMode struct {
	agg      *aggregator.Aggregator
	provider *sandbox.Provider
}

// New checks the options and returns a CodeMode. It starts nothing: the
// engine is reached and servers are started by the first run that needs
// them.
func New(opts Options) (*CodeMode, error) {
	cfg, err := config.Load(opts.ConfigFile, nil)
	if err != nil {
		return nil, fmt.Errorf("codemode: %w", err)
	}
	if opts.Image != "" {
		cfg.Image = opts.Image
	}
	for _, h := range opts.Engines {
		if err := sandbox.CheckHost(h); err != nil {
			return nil, fmt.Errorf("codemode: %w", err)
		}
	}
	if len(opts.Engines) > 0 {
		cfg.Engines = opts.Engines
	}
	if opts.Deadline > 0 {
		cfg.Limits.Deadline = opts.Deadline
	}
	if opts.MaxCalls > 0 {
		cfg.Limits.MaxCalls = opts.MaxCalls
	}
	if cfg.Servers == nil {
		cfg.Servers = map[string]config.ServerConfig{}
	}
	for _, name := range slices.Sorted(maps.Keys(opts.Servers)) {
		s := opts.Servers[name]
		if s.Command == "" && s.URL == "" {
			return nil, fmt.Errorf("codemode: server %q: give a Command or a URL", name)
		}
		cfg.Servers[name] = config.ServerConfig{
			Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Dir, URL: s.URL, Headers: s.Headers,
			Description: s.Description, Allow: s.Allow, Deny: s.Deny, ReadOnly: s.ReadOnly,
		}
	}
	source := opts.ConfigFile
	if source == "" {
		source = "codemode.Options"
	}
	servers, err := cfg.Merge(source, nil)
	if err != nil {
		return nil, fmt.Errorf("codemode: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	provider := sandbox.NewProvider(cfg.Engines, cfg.Spec(), sandbox.Warming{Min: max(0, opts.Warm), Max: cfg.Limits.WarmMax}, log)
	agg, err := aggregator.New(cfg, servers, provider, log)
	if err != nil {
		_ = provider.Close()
		return nil, fmt.Errorf("codemode: %w", err)
	}
	return &CodeMode{agg: agg, provider: provider}, nil
}

// Result is what a run gives back.
type Result struct {
	// Output is what the program printed: its head and tail when it
	// printed more than is kept.
	Output    string
	Truncated bool          // Output was cut
	Stopped   bool          // a limit ended the run (deadline, output flood, cancellation)
	Calls     int           // tool calls the program made
	Duration  time.Duration // wall-clock time of the run
	Servers   []string      // the servers loaded for it
}

// RunError is the error of a run that failed: the program raised (its
// traceback's last lines), a server did not start, or a limit stopped it.
// The Result beside it holds what the run printed before.
type RunError struct {
	Msg string
	// ExitCode is N when the program called sys.exit(N) (1 to 255), else 1.
	ExitCode int
}

func (e *RunError) Error() string { return e.Msg }

// Run runs code (Python 3, top-level await allowed) with the named servers
// loaded as modules mcp_NAME, and waits for it to end. A run that fails
// returns a *RunError along with the result; ctx cancels the run and
// removes its container.
func (c *CodeMode) Run(ctx context.Context, code string, servers ...string) (Result, error) {
	r := c.agg.Run(ctx, aggregator.Request{Code: code, Servers: servers})
	res := Result{
		Output: r.Stdout, Truncated: r.Truncated, Stopped: r.Stopped, Calls: r.Calls,
		Duration: time.Duration(r.DurationMS) * time.Millisecond, Servers: r.Servers,
	}
	if r.Error != nil {
		return res, &RunError{Msg: *r.Error, ExitCode: r.ExitCode}
	}
	return res, nil
}

// Tool is a tool a search found.
type Tool struct {
	Server string // the server's name
	Name   string // the tool's MCP name
	Call   string // how a program calls it: await mcp_server.tool(...)
	// Signature is the call on one line, with its parameters: await
	// mcp_server.tool(a: str, b: int = 1) -> Any.
	Signature string
	Summary   string  // the first sentence of its description
	Score     float64 // rank score; higher is better
}

// Search ranks the tools every server allows for query, in plain words,
// best first. Each of also is another phrasing of the same query: every
// phrasing is ranked and the rankings are fused (at most 10 phrasings in
// all). Servers whose tool list is not known yet are started for it.
func (c *CodeMode) Search(ctx context.Context, query string, limit int, also ...string) ([]Tool, error) {
	docs, err := c.agg.Search(ctx, query, limit, "summary", also...)
	if err != nil {
		return nil, fmt.Errorf("codemode: search: %w", err)
	}
	out := make([]Tool, 0, len(docs))
	for _, d := range docs {
		out = append(out, Tool{Server: d.Server, Name: d.Tool, Call: d.Call, Signature: d.Signature, Summary: d.Summary, Score: d.Score})
	}
	return out, nil
}

// Close stops every server and removes the containers this CodeMode
// started.
func (c *CodeMode) Close() error {
	c.agg.Close()
	return c.provider.Close()
}
