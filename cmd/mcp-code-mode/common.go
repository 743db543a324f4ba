package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/aggregator"
	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
	"github.com/mcp-code-mode/mcp-code-mode/internal/redact"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/telemetry"
	"github.com/mcp-code-mode/mcp-code-mode/internal/trust"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.opentelemetry.io/otel"
)

// listFlag is a repeatable flag; commas also separate values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Type() string   { return "list" }
func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// secondsFlag is a duration given as a Go duration ("90s") or a plain
// number of seconds ("90").
type secondsFlag struct{ d *time.Duration }

func (f secondsFlag) String() string {
	if f.d == nil || *f.d == 0 {
		return ""
	}
	return f.d.String()
}

func (f secondsFlag) Type() string { return "duration" }

func (f secondsFlag) Set(v string) error {
	d, err := config.ParseSeconds(v)
	if err != nil {
		return err
	}
	*f.d = d
	return nil
}

// common are the flags every command that reads the configuration takes.
type common struct {
	config      string
	noDiscovery bool
	allow, deny listFlag
	env         listFlag
	image       string
	runtime     string
	deadline    time.Duration
	maxCalls    int
	logLevel    string
	fs          *pflag.FlagSet
}

// newCommon adds the flags every command that reads the configuration
// takes to cmd. Their defaults are the real ones; a flag given overrides
// the config file (load).
func newCommon(cmd *cobra.Command) *common { return newCommonOn(cmd.Flags()) }

// newCommonOn adds the common flags to fs (a command's persistent flags,
// for a command whose subcommands share them).
func newCommonOn(fs *pflag.FlagSet) *common {
	def := config.DefaultLimits()
	c := &common{fs: fs, deadline: def.Deadline}
	c.fs.StringVar(&c.config, "config", "", "this program's config file (TOML, YAML or JSON); default $XDG_CONFIG_HOME/mcp-code-mode/config.toml if present")
	c.fs.BoolVar(&c.noDiscovery, "no-discovery", false, "ignore MCP client config files")
	c.fs.Var(&c.allow, "allow", "allow only SERVER or SERVER.TOOL_GLOB (repeatable, or comma-separated); with serve -- CMD, a TOOL name of that server")
	c.fs.Var(&c.deny, "deny", "refuse SERVER or SERVER.TOOL_GLOB (repeatable, or comma-separated); wins over --allow")
	c.fs.Var(&c.env, "env", "pass this host variable to wrapped stdio servers (repeatable)")
	c.fs.StringVar(&c.image, "image", sandbox.DefaultImage(), "sandbox image")
	c.fs.StringVar(&c.runtime, "runtime", "", "the engine's OCI runtime for sandboxes, such as runsc (gVisor); default: the engine's")
	c.fs.Var(secondsFlag{&c.deadline}, "deadline", "wall-clock limit per run: seconds, or a duration such as 2m")
	c.fs.IntVar(&c.maxCalls, "max-calls", def.MaxCalls, "tool calls per run")
	c.fs.StringVar(&c.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn, error")
	return c
}

// configDir is where this program's config file is looked for:
// $XDG_CONFIG_HOME/mcp-code-mode, or ~/.config/mcp-code-mode; "" when there
// is no home directory.
func configDir() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "mcp-code-mode")
}

// defaultConfigPath is the config file used when --config is not given.
func defaultConfigPath() string {
	dir := configDir()
	if dir == "" {
		return ""
	}
	for _, name := range []string{"config.toml", "config.yaml", "config.yml", "config.json"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// load reads the configuration: flags override the config file, which
// overrides the MCP_CODE_MODE_* variables, which override the defaults
// (config.Load reads the last three).
func (c *common) load() (config.Config, string, error) {
	path := c.config
	if path == "" {
		path = defaultConfigPath()
	}
	cfg, err := config.Load(path, os.Environ())
	if err != nil {
		return cfg, path, err
	}
	set := map[string]bool{}
	// Changed is kept on the flag itself, which a subcommand shares with
	// the persistent flags of its parent.
	c.fs.VisitAll(func(f *pflag.Flag) { set[f.Name] = f.Changed })
	if set["no-discovery"] {
		cfg.NoDiscovery = c.noDiscovery
	}
	if set["allow"] {
		cfg.Allow, cfg.AllowFrom = c.allow, "--allow"
	}
	if set["deny"] {
		cfg.Deny, cfg.DenyFrom = c.deny, "--deny"
	}
	if set["env"] {
		cfg.Env = c.env
	}
	if set["image"] {
		cfg.Image = c.image
	}
	if set["runtime"] {
		cfg.Runtime = c.runtime
	}
	if set["deadline"] {
		if c.deadline < time.Second {
			return cfg, path, fmt.Errorf("--deadline must be at least 1s, got %v", c.deadline)
		}
		cfg.Limits.Deadline = c.deadline
	}
	if set["max-calls"] {
		if c.maxCalls < 0 {
			return cfg, path, fmt.Errorf("--max-calls must not be negative")
		}
		cfg.Limits.MaxCalls = c.maxCalls
	}
	return cfg, path, nil
}

func (c *common) logger(stderr io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		level = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

// servers gathers the configured servers: those of the MCP clients' config
// files (unless discovery is off), with this program's config file on top;
// or only wrapped (from serve -- CMD) when given. The problems met in
// client files are returned, not fatal.
func servers(cfg config.Config, path string, wrapped *config.Server) ([]config.Server, []discovery.Problem, error) {
	if wrapped != nil {
		return []config.Server{*wrapped}, nil, nil
	}
	source := path
	if source == "" {
		source = "config"
	}
	var found []config.Server
	var problems []discovery.Problem
	if !cfg.NoDiscovery {
		opts, err := discoveryOptions(cfg)
		if err != nil {
			return nil, nil, err
		}
		found, problems = discovery.Discover(opts)
	}
	list, err := cfg.Merge(source, found)
	return list, problems, err
}

// discoveryOptions are the places to look, what counts as this program,
// and the user's approvals of project servers.
func discoveryOptions(cfg config.Config) (discovery.Options, error) {
	opts := discovery.Options{Self: selfNames(), Skip: map[string]bool{}}
	for _, id := range cfg.Discovery.Skip {
		opts.Skip[id] = true
	}
	store, err := trustStore()
	if err != nil {
		return opts, err
	}
	opts.Approved = store.Approved
	return opts, nil
}

// selfNames are the names and path this program goes by: an entry that
// launches one of them is this program's own.
func selfNames() []string {
	self := []string{"mcp-code-mode"}
	if exe, err := os.Executable(); err == nil {
		self = append(self, exe)
	}
	return self
}

// trustStore loads the user's approvals of project servers.
func trustStore() (*trust.Store, error) {
	dir, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	return trust.Load(trust.Path(dir))
}

// purpose is what a command sets the aggregator up for.
type purpose int

const (
	inspect purpose = iota // servers, tools, search, doctor, trust: no program runs
	runOnce                // run: one program, in the audit log
	serving                // serve: programs for a client, in the audit log, with containers started ahead of need
)

// setup loads the configuration and builds the aggregator, and returns the
// problems met in client config files (already logged). What use runs
// programs records them in the audit log; serve keeps containers started
// ahead of need (a one-shot command would only waste them).
func setup(c *common, stderr io.Writer, wrapped *config.Server, use purpose) (*aggregator.Aggregator, *sandbox.Provider, []discovery.Problem, error) {
	cfg, path, err := c.load()
	if err != nil {
		return nil, nil, nil, err
	}
	log := c.logger(stderr)
	list, problems, err := servers(cfg, path, wrapped)
	if err != nil {
		return nil, nil, nil, err
	}
	// What is logged from here on, here and in the aggregator, has the
	// servers' secrets taken out.
	red := redact.New(config.AllSecrets(list)...)
	log = slog.New(red.Handler(log.Handler()))
	for i := range problems {
		problems[i].Err = red.String(problems[i].Err)
	}
	for _, p := range problems {
		log.Warn("client config", "problem", p.String())
	}
	var auditLog *audit.Log
	if use != inspect {
		dir, err := cfg.Audit.AuditDir()
		if err == nil {
			auditLog, err = audit.Open(audit.Options{Dir: dir, MaxBytes: cfg.Audit.MaxBytes, Keep: cfg.Audit.Keep})
		}
		if err != nil {
			return nil, nil, nil, err
		}
	}
	var warm sandbox.Warming // one run: no pool
	if use == serving {
		warm = cfg.Limits.Warming()
	}
	eng := sandbox.NewProvider(cfg.Engines, cfg.Spec(), warm, log)
	agg, err := aggregator.New(cfg, list, eng, log)
	if err != nil {
		_ = auditLog.Close()
		return nil, nil, nil, err
	}
	agg.SetAudit(auditLog, cfg.Audit.Arguments)
	if use != inspect {
		if err := observe(agg, eng, log, use); err != nil {
			agg.Close()
			return nil, nil, nil, err
		}
	}
	return agg, eng, problems, nil
}

// observe sets up the traces (when the OTEL_* variables ask for them) and,
// for serve, the metrics of agg.
func observe(agg *aggregator.Aggregator, eng *sandbox.Provider, log *slog.Logger, use purpose) error {
	tracing, err := telemetry.NewTracing(context.Background(), telemetry.TracingOptions{Version: config.Version, OneShot: use == runOnce})
	if err != nil {
		return fmt.Errorf("traces: %w", err)
	}
	if tracing.Enabled() {
		// The exporter's failures (a collector that is down) are logged,
		// not printed by the SDK's own logger.
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Warn("traces: export failed", "err", err) }))
		log.Info("traces: exporting spans over OTLP", "protocol", tracing.Protocol())
	}
	var metrics *telemetry.Metrics
	if use == serving {
		metrics = telemetry.NewMetrics(func() telemetry.PoolState {
			st := eng.Stats()
			return telemetry.PoolState{Ready: st.Ready, InUse: st.InUse, Target: st.Target}
		})
	}
	agg.SetTelemetry(tracing, metrics)
	return nil
}
