// Package config is everything mcp-code-mode is told: its own config file,
// the MCP_CODE_MODE_* variables and flags, the servers they add or change,
// and one documented default for every limit.
package config

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/json"
	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/v2"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/state"
)

// Version is this program's version, reported to wrapped servers and to
// MCP clients.
const Version = "0.1.0"

// Limits are every limit a run is held to. DefaultLimits documents the
// defaults; each can be changed in the config file.
type Limits struct {
	Deadline       time.Duration `koanf:"deadline"`         // wall clock per run; the container is killed at it
	MaxCalls       int           `koanf:"max_calls"`        // tool calls per run
	MaxHelperCalls int           `koanf:"max_helper_calls"` // runtime helper calls (search, docs) per run
	CallTimeout    time.Duration `koanf:"call_timeout"`     // per tool call
	// MaxCallTimeout caps the deadline a program sets for one call
	// (await mcp_x.tool(..., timeout=S)).
	MaxCallTimeout time.Duration `koanf:"max_call_timeout"`
	MaxArgBytes    int           `koanf:"max_arg_bytes"`    // JSON size of one call's arguments
	MaxResultBytes int           `koanf:"max_result_bytes"` // JSON size of one call's result; larger is refused
	// MaxMessageBytes bounds one message from a wrapped server (a stdio
	// line, an HTTP body, an SSE event), read as it streams in: a larger
	// one is not held, and fails that call (or start).
	MaxMessageBytes int           `koanf:"max_message_bytes"`
	MaxOutputBytes  int           `koanf:"max_output_bytes"` // printed output kept (head and tail)
	StopOutput      int           `koanf:"stop_output"`      // printed output after which the run is stopped
	MaxErrorChars   int           `koanf:"max_error_chars"`  // length of an error message that reaches the code
	ServerIdle      time.Duration `koanf:"server_idle"`      // an unused wrapped server is stopped after this
	ConnectTimeout  time.Duration `koanf:"connect_timeout"`  // starting a wrapped server and listing its tools

	MemoryBytes int64   `koanf:"memory_bytes"` // container memory (no swap)
	CPUs        float64 `koanf:"cpus"`         // container CPUs
	Pids        int64   `koanf:"pids"`         // container processes
	OpenFiles   int64   `koanf:"open_files"`   // container open files
	TmpfsBytes  int64   `koanf:"tmpfs_bytes"`  // size of the container's /tmp
	Warm        int     `koanf:"warm"`         // containers started ahead of need by serve (0: none)
	// SessionIdle is how long a client session's sandbox (isolation =
	// "session") is kept with no run in it before it is removed.
	SessionIdle time.Duration `koanf:"session_idle"`
	// SessionMax is how many client sessions' sandboxes (isolation =
	// "session") are kept between runs; past it, the one least recently
	// used is removed (its session's next run gets a fresh container).
	SessionMax int `koanf:"session_max"`
	// WarmMax is the most containers serve's warm pool grows to while
	// runs find none ready (below Warm it is taken as Warm); it shrinks
	// back to Warm when idle (sandbox.DefaultIdle).
	WarmMax int `koanf:"warm_max"`

	ServerConcurrency int `koanf:"server_concurrency"` // calls in flight to one server; more wait
	ConcurrentRuns    int `koanf:"concurrent_runs"`    // runs at once; more wait their turn
	// Queue is how many runs may wait for one of the ConcurrentRuns
	// slots; a run past that is refused at once as busy, with a time
	// to retry after.
	Queue int `koanf:"queue"`
}

// DefaultLimits returns the default limits (the README lists them).
func DefaultLimits() Limits {
	spec := sandbox.DefaultSpec()
	return Limits{
		Deadline:        90 * time.Second,
		MaxCalls:        200,
		MaxHelperCalls:  1000,
		CallTimeout:     30 * time.Second,
		MaxCallTimeout:  120 * time.Second,
		MaxArgBytes:     16 << 10,
		MaxResultBytes:  64 << 10,
		MaxMessageBytes: 4 << 20,
		MaxOutputBytes:  8 << 10,
		StopOutput:      1 << 20,
		MaxErrorChars:   500,
		ServerIdle:      10 * time.Minute,
		ConnectTimeout:  60 * time.Second,
		MemoryBytes:     spec.MemoryBytes,
		CPUs:            float64(spec.NanoCPUs) / 1e9,
		Pids:            spec.Pids,
		OpenFiles:       spec.OpenFiles,
		TmpfsBytes:      spec.TmpfsBytes,
		Warm:            2,
		SessionIdle:     5 * time.Minute,
		SessionMax:      16,
		// As many as runs may run at once: more could never be taken
		// together.
		WarmMax: 8,

		ServerConcurrency: 50,
		ConcurrentRuns:    8,
		// Twice the runs at once: a client that sends a second wave
		// while the first runs still gets in line; past that, a run
		// would wait more than two runs' time and is better told so.
		Queue: 16,
	}
}

// ServerConfig is one server in this program's own config file.
type ServerConfig struct {
	Command     string            `koanf:"command"`
	Args        []string          `koanf:"args"`
	Env         map[string]string `koanf:"env"`
	Cwd         string            `koanf:"cwd"`
	URL         string            `koanf:"url"`
	Type        string            `koanf:"type"` // stdio, http or sse; inferred when empty
	Headers     map[string]string `koanf:"headers"`
	Description string            `koanf:"description"`
	Allow       []string          `koanf:"allow"`
	Deny        []string          `koanf:"deny"`
	ReadOnly    bool              `koanf:"read_only"` // only tools annotated readOnlyHint
	// Disabled turns the server off (true) or on (false), overriding the
	// flag of the client it was discovered in; nil leaves that flag as
	// the client set it.
	Disabled *bool `koanf:"disabled"`
	// OAuth is how to sign in to a remote server that asks for OAuth
	// ([servers.NAME.oauth]); nil: discover and register dynamically.
	OAuth *OAuth `koanf:"oauth"`
}

// StateConfig is the [state] table: where programs' memories and saved
// tools are kept (package state), in which namespace, and the limits of a
// namespace. DefaultState documents the defaults.
type StateConfig struct {
	// Path is the database file ("" when there is no home directory:
	// then the memory helpers fail with a message that names this key).
	Path string `koanf:"path"`
	// Namespace, when set, is the namespace of every run, whoever asks:
	// the stdio and CLI runs, and every client of serve --http. Unset,
	// each OS user has one, and each bearer token of serve --http one.
	Namespace string `koanf:"namespace"`

	MaxValueBytes           int   `koanf:"max_value_bytes"`            // one memory's value, as compact JSON with non-ASCII characters escaped
	MaxMetadataBytes        int   `koanf:"max_metadata_bytes"`         // one memory's metadata, the same way
	MaxNamespaceBytes       int64 `koanf:"max_namespace_bytes"`        // all of a namespace's memories and tools
	MaxKeys                 int   `koanf:"max_keys"`                   // memories in a namespace
	MaxTools                int   `koanf:"max_tools"`                  // saved tools in a namespace
	MaxToolSourceBytes      int   `koanf:"max_tool_source_bytes"`      // one saved tool's source
	MaxToolDescriptionBytes int   `koanf:"max_tool_description_bytes"` // one saved tool's description
	MaxNameBytes            int   `koanf:"max_name_bytes"`             // a memory key or a tool name
}

// DefaultState returns the defaults of the [state] table: the database at
// state.DefaultPath(), no fixed namespace, and the store's default limits
// (state.DefaultLimits).
func DefaultState() StateConfig {
	path, err := state.DefaultPath()
	if err != nil {
		path = ""
	}
	l := state.DefaultLimits()
	return StateConfig{
		Path:                    path,
		MaxValueBytes:           l.MaxValueBytes,
		MaxMetadataBytes:        l.MaxMetadataBytes,
		MaxNamespaceBytes:       l.MaxNamespaceBytes,
		MaxKeys:                 l.MaxKeys,
		MaxTools:                l.MaxTools,
		MaxToolSourceBytes:      l.MaxToolSourceBytes,
		MaxToolDescriptionBytes: l.MaxToolDescriptionBytes,
		MaxNameBytes:            l.MaxNameBytes,
	}
}

// Limits returns the store's limits.
func (s StateConfig) Limits() state.Limits {
	return state.Limits{
		MaxValueBytes:           s.MaxValueBytes,
		MaxMetadataBytes:        s.MaxMetadataBytes,
		MaxNamespaceBytes:       s.MaxNamespaceBytes,
		MaxKeys:                 s.MaxKeys,
		MaxTools:                s.MaxTools,
		MaxToolSourceBytes:      s.MaxToolSourceBytes,
		MaxToolDescriptionBytes: s.MaxToolDescriptionBytes,
		MaxNameBytes:            s.MaxNameBytes,
	}
}

// stateLineRoom is what a request line of the sandbox's protocol
// (runner.MaxLine) must keep free besides a memory's value, metadata and
// key, or a saved tool's source, description and name: the message's
// other fields, with room to spare.
const stateLineRoom = 4 << 10

func (s StateConfig) validate() error {
	if s.Namespace != "" {
		if err := state.CheckNamespace(s.Namespace); err != nil {
			return fmt.Errorf("state.namespace: %w", err)
		}
	}
	if s.MaxValueBytes <= 0 || s.MaxMetadataBytes <= 0 || s.MaxNamespaceBytes <= 0 || s.MaxKeys <= 0 || s.MaxTools <= 0 ||
		s.MaxToolSourceBytes <= 0 || s.MaxToolDescriptionBytes <= 0 || s.MaxNameBytes <= 0 {
		return fmt.Errorf("the limits of [state] must all be positive")
	}
	// A memory travels from the sandbox on one protocol line: its key
	// (each character up to 6 bytes as a \u escape), value and metadata
	// must fit one, or a value under the limits could not be saved.
	if n := s.MaxValueBytes + s.MaxMetadataBytes + 6*s.MaxNameBytes + stateLineRoom; n > runner.MaxLine {
		return fmt.Errorf("state.max_value_bytes + state.max_metadata_bytes + 6 x state.max_name_bytes must be at most %d (a memory is sent from the sandbox on one line of at most %d bytes), got %d",
			runner.MaxLine-stateLineRoom, runner.MaxLine, n-stateLineRoom)
	}
	if n := s.MaxToolSourceBytes + s.MaxToolDescriptionBytes + 6*s.MaxNameBytes + stateLineRoom; n > runner.MaxLine {
		return fmt.Errorf("state.max_tool_source_bytes + state.max_tool_description_bytes + 6 x state.max_name_bytes must be at most %d (a tool is sent from the sandbox on one line of at most %d bytes), got %d",
			runner.MaxLine-stateLineRoom, runner.MaxLine, n-stateLineRoom)
	}
	return nil
}

// SearchConfig configures how tools are found, beyond the lexical ranking
// that always runs.
type SearchConfig struct {
	Embeddings EmbeddingsConfig `koanf:"embeddings"`
}

// EmbeddingsConfig names an embedding server that speaks the
// OpenAI-compatible POST {url}/v1/embeddings (Ollama, llama.cpp's server,
// LM Studio, vLLM). With a URL, search ranks tools by their embeddings too
// and fuses that ranking with the lexical one; without one (the default),
// search is lexical only. Whatever the server does, search falls back to the
// lexical ranking when it fails.
type EmbeddingsConfig struct {
	URL   string `koanf:"url"`   // the server's base address: http://localhost:11434 ("" = off)
	Model string `koanf:"model"` // the embedding model it serves, by the name it knows
	// APIKeyEnv names the host variable holding the key sent as a bearer
	// token; the key itself is never written in the config.
	APIKeyEnv        string        `koanf:"api_key_env"`
	Timeout          time.Duration `koanf:"timeout"`            // per request
	MaxResponseBytes int           `koanf:"max_response_bytes"` // a larger answer is refused
}

// DefaultEmbeddings returns the defaults of [search.embeddings]: off, 2 s
// per request, 8 MiB per answer.
func DefaultEmbeddings() EmbeddingsConfig {
	return EmbeddingsConfig{Timeout: 2 * time.Second, MaxResponseBytes: 8 << 20}
}

// DiscoveryConfig says which MCP client config files to read.
type DiscoveryConfig struct {
	Skip    []string `koanf:"skip"`    // client IDs not to read (claude-desktop, cursor, vscode, ...)
	Exclude []string `koanf:"exclude"` // discovered servers to leave out, by name
}

// AuditConfig says where serve and run keep the audit log of the calls
// programs make, and how much of it.
type AuditConfig struct {
	Dir      string `koanf:"dir"`       // "" = $XDG_STATE_HOME/mcp-code-mode/audit (AuditDir)
	MaxBytes int64  `koanf:"max_bytes"` // audit.log is rotated before it grows past this
	Keep     int    `koanf:"keep"`      // rotated files kept (audit.log.1 ... audit.log.N)
	// Arguments puts each call's arguments in its record, with the values
	// of the configured secrets redacted; without it a record has only
	// their size and SHA-256.
	Arguments bool `koanf:"arguments"`
}

// DefaultAudit returns the audit log's defaults.
func DefaultAudit() AuditConfig {
	return AuditConfig{MaxBytes: 10 << 20, Keep: 5}
}

// AuditDir is the directory of the audit log: Dir, or audit in the state
// directory.
func (a AuditConfig) AuditDir() (string, error) {
	if a.Dir != "" {
		return a.Dir, nil
	}
	dir, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "audit"), nil
}

func (a AuditConfig) validate() error {
	switch {
	case a.Dir != "" && !filepath.IsAbs(a.Dir):
		return fmt.Errorf("audit.dir must be an absolute path, got %q", a.Dir)
	case a.MaxBytes < 4096:
		return fmt.Errorf("audit.max_bytes must be at least 4096 (one record), got %d", a.MaxBytes)
	case a.Keep < 0 || a.Keep > 1000:
		return fmt.Errorf("audit.keep must be between 0 and 1000, got %d", a.Keep)
	}
	return nil
}

// Config is everything this program is told: the environment
// (MCP_CODE_MODE_*), then its own config file, then flags, each overriding
// the one before.
type Config struct {
	Image   string `koanf:"image"`   // sandbox image
	Runtime string `koanf:"runtime"` // the engine's OCI runtime for sandboxes ("" = its default; "runsc" = gVisor)
	// Engines are the container engines runs are spread over, each as
	// sandbox.Dial takes it (unix://, tcp://, ssh://), without a trailing
	// slash; none means the one DOCKER_HOST names, or the default socket.
	Engines []string `koanf:"engines"`
	// Isolation is what a sandbox container serves: IsolationRun (one run,
	// the default) or IsolationSession (the runs of one client session).
	Isolation string                  `koanf:"isolation"`
	Limits    Limits                  `koanf:"limits"`  // see DefaultLimits
	Servers   map[string]ServerConfig `koanf:"servers"` // servers of this program's own config
	Allow     []string                `koanf:"allow"`   // SERVER or SERVER.TOOL_GLOB; empty allows all
	Deny      []string                `koanf:"deny"`    // SERVER or SERVER.TOOL_GLOB; wins over Allow
	Env       []string                `koanf:"env"`     // host variables passed to wrapped stdio servers
	// DefaultPolicy is "allow" (every tool not denied) or "deny" (only tools
	// an allow list names).
	DefaultPolicy string          `koanf:"default_policy"`
	Discovery     DiscoveryConfig `koanf:"discovery"`
	// NoDiscovery ignores MCP client config files.
	NoDiscovery bool `koanf:"no_discovery"`
	// CatalogDir caches tool lists ("" caches nothing).
	CatalogDir string `koanf:"catalog_dir"`
	// Search configures the optional embedding ranker.
	Search SearchConfig `koanf:"search"`
	// TokenDir is where the sign-ins to remote servers are kept (package
	// oauth): $XDG_STATE_HOME/mcp-code-mode/oauth. Not a config key.
	TokenDir string `koanf:"-"`
	// OutputMode is what run_python's text block holds: "compact" (what
	// the program printed, and the error), "toon" (the structured result
	// as TOON, empty fields dropped) or "json" (it as indented JSON).
	OutputMode string `koanf:"output_mode"`
	// State is where programs' memories and saved tools are kept.
	State StateConfig `koanf:"state"`
	// Audit is the audit log of calls and runs (serve and run keep it).
	Audit AuditConfig `koanf:"audit"`

	// Where Allow, Deny and DefaultPolicy were set (not config keys): a
	// variable's name, the config file's path, or a flag ("--deny") when
	// the command line set them; "" for the defaults. Messages that name
	// the rule refusing a tool say it.
	AllowFrom, DenyFrom, DefaultPolicyFrom string `koanf:"-"`
}

// Isolation modes: what one sandbox container serves.
const (
	IsolationRun     = "run"     // one run: a fresh container each
	IsolationSession = "session" // the runs of one client session, one after another
)

// Output modes of run_python's text block.
const (
	OutputCompact = "compact"
	OutputTOON    = "toon"
	OutputJSON    = "json"
)

// Default returns the defaults: the default image and limits, no
// servers, no policy beyond the limits.
func Default() Config {
	return Config{
		Image: sandbox.DefaultImage(), Limits: DefaultLimits(), CatalogDir: DefaultCatalogDir(), TokenDir: DefaultTokenDir(), DefaultPolicy: "allow",
		OutputMode: OutputCompact, Isolation: IsolationRun, State: DefaultState(), Audit: DefaultAudit(), Search: SearchConfig{Embeddings: DefaultEmbeddings()},
	}
}

// DefaultCatalogDir is $XDG_CACHE_HOME/mcp-code-mode/catalog (or the
// platform's cache directory), where tool lists are cached.
func DefaultCatalogDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "mcp-code-mode", "catalog")
}

// DefaultTokenDir is the oauth folder of StateDir, where sign-ins to
// remote servers are kept; "" when there is no home directory.
func DefaultTokenDir() string {
	dir, err := StateDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "oauth")
}

// StateDir is where this program keeps what it must remember between runs
// and is not a cache: $XDG_STATE_HOME/mcp-code-mode, or
// ~/.local/state/mcp-code-mode.
func StateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "mcp-code-mode"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("state directory: %w", err)
	}
	return filepath.Join(home, ".local", "state", "mcp-code-mode"), nil
}

// EnvPrefix is the prefix of the environment variables that set config keys:
// MCP_CODE_MODE_IMAGE sets image, MCP_CODE_MODE_LIMITS__DEADLINE sets
// limits.deadline ("__" separates levels).
const EnvPrefix = "MCP_CODE_MODE_"

// maxFileBytes bounds this program's own config file.
const maxFileBytes = 4 << 20

// bytesProvider gives koanf a config file already read.
type bytesProvider []byte

func (b bytesProvider) ReadBytes() ([]byte, error) { return b, nil }

func (b bytesProvider) Read() (map[string]any, error) {
	return nil, errors.New("bytesProvider: use ReadBytes")
}

// Load reads the defaults, then the MCP_CODE_MODE_* variables of
// environ, then the config file at path (TOML, YAML or JSON by extension; ""
// for none); each overrides the one before. A duration given as a plain
// number means seconds.
func Load(path string, environ []string) (Config, error) {
	k := koanf.New(".")
	envs := map[string]string{}
	for _, kv := range environ {
		if name, value, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(name, EnvPrefix) {
			envs[name] = value
		}
	}
	err := k.Load(env.Provider(".", env.Opt{
		Prefix: EnvPrefix,
		EnvironFunc: func() []string {
			out := make([]string, 0, len(envs))
			for _, name := range slices.Sorted(maps.Keys(envs)) {
				out = append(out, name+"="+envs[name])
			}
			return out
		},
		TransformFunc: func(key, value string) (string, any) {
			key = strings.ToLower(strings.TrimPrefix(key, EnvPrefix))
			key = strings.ReplaceAll(key, "__", ".")
			switch key {
			case "allow", "deny", "env", "engines":
				return key, strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })
			}
			return key, value
		},
	}), nil)
	if err != nil {
		return Config{}, fmt.Errorf("environment: %w", err)
	}
	// Where each policy key was set (AllowFrom, ...), and engines, for
	// its errors: the file overrides the environment.
	sourcedKeys := [...]string{"allow", "deny", "default_policy", "engines"}
	from := map[string]string{}
	for _, key := range sourcedKeys {
		if k.Exists(key) {
			from[key] = EnvPrefix + strings.ToUpper(key)
		}
	}
	if path != "" {
		var parser koanf.Parser
		var format string
		switch strings.ToLower(filepath.Ext(path)) {
		case ".toml":
			parser, format = toml.Parser(), "toml"
		case ".yaml", ".yml":
			parser, format = yaml.Parser(), "yaml"
		case ".json":
			parser, format = json.Parser(), "json"
		default:
			return Config{}, fmt.Errorf("config %s: unknown format (want .toml, .yaml, .yml or .json)", path)
		}
		data, err := safefile.Read(path, maxFileBytes)
		if err != nil {
			return Config{}, fmt.Errorf("config: %w", err)
		}
		// Syntax errors, unknown keys and values of the wrong kind are
		// refused here, with their line: koanf keeps no positions.
		if err := checkFile(path, format, data); err != nil {
			return Config{}, err
		}
		kf := koanf.New(".")
		if err := kf.Load(bytesProvider(data), parser); err != nil {
			return Config{}, fmt.Errorf("config %s: %w", path, err)
		}
		if err := k.Merge(kf); err != nil {
			return Config{}, fmt.Errorf("config %s: %w", path, err)
		}
		for _, key := range sourcedKeys {
			if kf.Exists(key) {
				from[key] = path
			}
		}
	}
	for _, key := range durationKeys {
		if v := k.Get(key); v != nil {
			d, err := parseSeconds(v)
			if err != nil {
				return Config{}, fmt.Errorf("config: %s: %w", key, err)
			}
			if err := k.Set(key, d); err != nil {
				return Config{}, fmt.Errorf("config: %s: %w", key, err)
			}
		}
	}
	// Decoding onto the defaults keeps every key the sources leave unset.
	cfg := Default()
	if err := k.UnmarshalWithConf("", &cfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	switch cfg.Isolation {
	case IsolationRun, IsolationSession:
	default:
		return Config{}, fmt.Errorf("config: isolation must be run or session, got %q", cfg.Isolation)
	}
	switch cfg.OutputMode {
	case OutputCompact, OutputTOON, OutputJSON:
	default:
		return Config{}, fmt.Errorf("config: output_mode must be compact, toon or json, got %q", cfg.OutputMode)
	}
	cfg.AllowFrom, cfg.DenyFrom, cfg.DefaultPolicyFrom = from["allow"], from["deny"], from["default_policy"]
	switch cfg.DefaultPolicy {
	case "allow", "deny":
	default:
		return Config{}, fmt.Errorf("config: default_policy must be allow or deny, got %q", cfg.DefaultPolicy)
	}
	if strings.TrimSpace(cfg.Image) == "" {
		return Config{}, fmt.Errorf("config: image must not be empty")
	}
	if cfg.Engines, err = normalEngines(cfg.Engines); err != nil {
		return Config{}, fmt.Errorf("config: %s: %w", from["engines"], err)
	}
	if err := cfg.Limits.validate(); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if err := cfg.State.validate(); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if err := cfg.Audit.validate(); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if err := cfg.Search.Embeddings.validate(); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return cfg, nil
}

// durationKeys are the config keys holding durations.
var durationKeys = []string{"limits.deadline", "limits.call_timeout", "limits.max_call_timeout", "limits.server_idle", "limits.session_idle", "limits.connect_timeout", "search.embeddings.timeout"}

// parseSeconds reads a duration: a Go duration string ("90s", "1m30s") or a
// plain number of seconds (90, 1.5, "90").
func parseSeconds(v any) (time.Duration, error) {
	switch x := v.(type) {
	case time.Duration:
		return x, nil
	case int:
		return time.Duration(x) * time.Second, nil
	case int64:
		return time.Duration(x) * time.Second, nil
	case float64:
		return time.Duration(x * float64(time.Second)), nil
	case string:
		return ParseSeconds(x)
	}
	return 0, fmt.Errorf("want a duration such as 90s or a number of seconds, got %v", v)
}

// ParseSeconds reads a Go duration ("90s", "1m30s") or a plain number of
// seconds ("90", "1.5").
func ParseSeconds(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration such as 90s or a number of seconds, got %q", s)
	}
	return d, nil
}

func (l Limits) validate() error {
	switch {
	case l.Deadline < time.Second:
		return fmt.Errorf("limits.deadline must be at least 1s, got %v", l.Deadline)
	case l.CallTimeout <= 0:
		return fmt.Errorf("limits.call_timeout must be positive, got %v", l.CallTimeout)
	case l.MaxCallTimeout <= 0:
		return fmt.Errorf("limits.max_call_timeout must be positive, got %v", l.MaxCallTimeout)
	case l.MaxCalls < 0 || l.MaxHelperCalls < 0:
		return fmt.Errorf("limits.max_calls and limits.max_helper_calls must not be negative")
	case l.MaxArgBytes <= 0 || l.MaxResultBytes <= 0 || l.MaxOutputBytes <= 0 || l.StopOutput <= 0:
		return fmt.Errorf("limits on sizes must be positive")
	case l.MaxMessageBytes < 64<<10 || l.MaxMessageBytes < l.MaxResultBytes:
		return fmt.Errorf("limits.max_message_bytes must be at least 64 KiB and at least limits.max_result_bytes, got %d", l.MaxMessageBytes)
	case l.MaxErrorChars < 20:
		return fmt.Errorf("limits.max_error_chars must be at least 20, got %d", l.MaxErrorChars)
	case l.MemoryBytes < 32<<20:
		return fmt.Errorf("limits.memory_bytes must be at least 32 MiB, got %d", l.MemoryBytes)
	case l.ConnectTimeout <= 0 || l.ServerIdle <= 0 || l.SessionIdle <= 0:
		return fmt.Errorf("limits.connect_timeout, limits.server_idle and limits.session_idle must be positive")
	case l.ServerConcurrency < 1 || l.ConcurrentRuns < 1:
		return fmt.Errorf("limits.server_concurrency and limits.concurrent_runs must be at least 1")
	case l.Warm < 0 || l.Warm > 64:
		return fmt.Errorf("limits.warm must be between 0 and 64, got %d", l.Warm)
	case l.WarmMax < 0 || l.WarmMax > 64:
		return fmt.Errorf("limits.warm_max must be between 0 and 64, got %d", l.WarmMax)
	case l.Queue < 0:
		return fmt.Errorf("limits.queue must not be negative, got %d", l.Queue)
	case l.SessionMax < 1:
		return fmt.Errorf("limits.session_max must be at least 1, got %d", l.SessionMax)
	case l.CPUs <= 0 || l.Pids < 4 || l.OpenFiles < 16 || l.TmpfsBytes <= 0:
		return fmt.Errorf("limits on cpus, pids (>= 4), open_files (>= 16) and tmpfs_bytes must be positive")
	}
	return nil
}

// validate checks [search.embeddings]: all of it or nothing, an http(s)
// URL without credentials (the key goes in api_key_env), and bounds.
func (e EmbeddingsConfig) validate() error {
	if e.URL == "" {
		if e.Model != "" || e.APIKeyEnv != "" {
			return errors.New("search.embeddings: model and api_key_env need a url")
		}
		return nil
	}
	u, err := url.Parse(e.URL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return errors.New("search.embeddings.url must be an http or https address such as http://localhost:11434")
	case u.User != nil:
		return errors.New("search.embeddings.url must not hold credentials: name the variable holding the key in search.embeddings.api_key_env")
	case u.RawQuery != "" || u.Fragment != "":
		return errors.New("search.embeddings.url must be the server's base address, without a query or fragment")
	case strings.TrimSpace(e.Model) == "":
		return errors.New("search.embeddings.model must name the embedding model when url is set")
	case e.Timeout <= 0:
		return fmt.Errorf("search.embeddings.timeout must be positive, got %v", e.Timeout)
	case e.MaxResponseBytes < 64<<10:
		return fmt.Errorf("search.embeddings.max_response_bytes must be at least 64 KiB, got %d", e.MaxResponseBytes)
	}
	return nil
}

// normalEngines checks each engine address without connecting, drops a
// trailing slash, and refuses an address listed twice, with or without the
// slash: one engine under two addresses would get two warm pools and two
// shares of the runs. (Spellings that differ otherwise, a symlink to a
// socket or localhost for 127.0.0.1, are told apart only by the engine's
// identity, when serve connects.)
func normalEngines(engines []string) ([]string, error) {
	if engines == nil {
		return nil, nil
	}
	out := make([]string, 0, len(engines))
	first := map[string]int{}
	for i, h := range engines {
		if err := sandbox.CheckHost(h); err != nil {
			return nil, fmt.Errorf("engines[%d]: %w", i, err)
		}
		n := h
		if scheme, rest, _ := strings.Cut(h, "://"); strings.TrimRight(rest, "/") != "" {
			n = scheme + "://" + strings.TrimRight(rest, "/")
		}
		if j, ok := first[n]; ok {
			if engines[j] == h {
				return nil, fmt.Errorf("engines[%d]: %q is listed twice (engines[%d] too): list each engine once", i, h, j)
			}
			return nil, fmt.Errorf("engines[%d]: %q is listed twice (engines[%d] is %q: a trailing slash makes no other engine): list each engine once", i, h, j, engines[j])
		}
		first[n] = i
		out = append(out, n)
	}
	return out, nil
}

// Spec returns what each sandbox container is: image, runtime and limits.
func (c Config) Spec() sandbox.Spec {
	l := c.Limits
	return sandbox.Spec{
		Image:       c.Image,
		Runtime:     c.Runtime,
		MemoryBytes: l.MemoryBytes,
		NanoCPUs:    int64(l.CPUs * 1e9),
		Pids:        l.Pids,
		OpenFiles:   l.OpenFiles,
		TmpfsBytes:  l.TmpfsBytes,
	}
}

// Warming is how serve's warm pool is sized: limits.warm when idle, up to
// limits.warm_max while runs find none ready.
func (l Limits) Warming() sandbox.Warming {
	return sandbox.Warming{Min: l.Warm, Max: l.WarmMax}
}

// Merge returns the servers programs may use: the discovered ones, less
// those discovery.exclude names, with the config file (source) on top. A
// complete entry (command or url) adds a server or replaces the discovered
// one of that name; an entry with only policy keys (allow, deny, read_only,
// disabled, description) changes the discovered server of that name. A
// project's server (Project set) whose name a complete entry takes is
// renamed "name@client", never replaced. The result is sorted by name.
func (c Config) Merge(source string, discovered []Server) ([]Server, error) {
	excluded := map[string]bool{}
	for _, n := range c.Discovery.Exclude {
		excluded[n] = true
	}
	var out []Server
	index := map[string]int{}
	for _, s := range discovered {
		if excluded[s.Name] {
			continue
		}
		index[s.Name] = len(out)
		out = append(out, s)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Servers)) {
		sc := c.Servers[name]
		where := source + "#servers." + name
		if sc.Command == "" && sc.URL == "" && sc.Type == "" {
			i, ok := index[name]
			if !ok {
				return nil, fmt.Errorf("server %q (%s): needs a command or a url (no discovered server has this name to apply it to)", name, where)
			}
			s := &out[i]
			if sc.Description != "" {
				s.Description = sc.Description
			}
			if sc.Allow != nil {
				s.Allow = sc.Allow
			}
			if sc.Deny != nil {
				s.Deny = sc.Deny
			}
			s.ReadOnly = s.ReadOnly || sc.ReadOnly
			if sc.Allow != nil || sc.Deny != nil || sc.ReadOnly {
				s.PolicyFrom = table(name, source)
			}
			if sc.OAuth != nil {
				if s.Transport != TransportHTTP && s.Transport != TransportSSE {
					return nil, fmt.Errorf("server %q (%s): oauth applies to remote servers (a url), and the discovered server of this name is a %s server", name, where, s.Transport)
				}
				if err := sc.OAuth.check(fmt.Sprintf("server %q (%s)", name, where)); err != nil {
					return nil, err
				}
				s.OAuth = *sc.OAuth
			}
			sc.turn(s, source)
			continue
		}
		s, err := sc.server(name, source)
		if err != nil {
			return nil, err
		}
		if i, ok := index[name]; ok && out[i].Project != "" {
			// A project's server never takes the name of one of the
			// user's: it moves to a qualified name, as in discovery.
			p := &out[i]
			taken := func(n string) bool { _, dup := index[n]; _, own := c.Servers[n]; return dup || own }
			renamed := p.Name + "@" + p.Client
			for n := 2; taken(renamed); n++ {
				renamed = fmt.Sprintf("%s@%s-%d", p.Name, p.Client, n)
			}
			p.Name = renamed
			index[renamed] = i
			delete(index, name)
		}
		if i, ok := index[name]; ok {
			out[i] = s
		} else {
			index[name] = len(out)
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(x, y Server) int { return strings.Compare(x.Name, y.Name) })
	return out, nil
}

// table names the [servers.NAME] table of the config file source.
func table(name, source string) string {
	return fmt.Sprintf("[servers.%s] in %s", name, source)
}

// turn applies the entry's disabled key, when it has one, to the
// discovered server s: true turns it off; false turns it on even though
// its client turned it off, unless it cannot be used as its client
// configured it (Blocked) or comes from a project the user has not
// approved (Untrusted).
func (sc ServerConfig) turn(s *Server, source string) {
	switch {
	case sc.Disabled == nil:
	case *sc.Disabled:
		s.Disabled, s.Why = true, "disabled in "+source
	case s.Untrusted:
		s.Disabled = true
		s.Why = fmt.Sprintf("needs approval (\"mcp-code-mode trust\" in %s) before disabled = false in %s can turn it on", s.Project, source)
	case s.Blocked != "":
		s.Disabled, s.Why = true, s.Blocked
	default:
		s.Disabled, s.Why = false, ""
	}
}

// server turns a complete entry into a server.
func (sc ServerConfig) server(name, source string) (Server, error) {
	s := Server{
		Name: name, Description: sc.Description,
		Command: sc.Command, Args: sc.Args, Env: sc.Env, Cwd: sc.Cwd,
		URL: sc.URL, Headers: sc.Headers,
		Allow: sc.Allow, Deny: sc.Deny, ReadOnly: sc.ReadOnly, Disabled: sc.Disabled != nil && *sc.Disabled,
		Source: source + "#servers." + name,
	}
	if sc.Allow != nil || sc.Deny != nil || sc.ReadOnly {
		s.PolicyFrom = table(name, source)
	}
	switch {
	case sc.Type != "":
		s.Transport = strings.ToLower(sc.Type)
	case sc.URL != "":
		s.Transport = TransportHTTP
	default:
		s.Transport = TransportStdio
	}
	if s.Transport == "streamable-http" || s.Transport == "streamable_http" {
		s.Transport = TransportHTTP
	}
	switch s.Transport {
	case TransportStdio:
		if s.Command == "" {
			return s, fmt.Errorf("server %q (%s): stdio server needs a command", name, s.Source)
		}
	case TransportHTTP, TransportSSE:
		if s.URL == "" {
			return s, fmt.Errorf("server %q (%s): %s server needs a url", name, s.Source, s.Transport)
		}
	default:
		return s, fmt.Errorf("server %q (%s): unknown type %q (want stdio, http or sse)", name, s.Source, sc.Type)
	}
	if sc.OAuth != nil {
		if s.Transport == TransportStdio {
			return s, fmt.Errorf("server %q (%s): oauth applies to remote servers (a url), not to a stdio server", name, s.Source)
		}
		if err := sc.OAuth.check(fmt.Sprintf("server %q (%s)", name, s.Source)); err != nil {
			return s, err
		}
		s.OAuth = *sc.OAuth
	}
	if s.Disabled {
		s.Why = "disabled in " + source
	}
	return s, nil
}
