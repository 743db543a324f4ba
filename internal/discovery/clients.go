package discovery

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// Options say what to leave out. Where to look is the real home, project
// and environment; the unexported fields let tests point at fixtures
// instead (zero values mean the real ones).
type Options struct {
	Self []string        // paths/names of this program: entries launching it are skipped
	Skip map[string]bool // client IDs to ignore
	// Approved reports whether the user approved the project server whose
	// entry is at source ("file#key") in the project dir, as written
	// (hash: EntryHash). nil approves none; Claude Code's own approvals in
	// ~/.claude.json count either way.
	Approved func(dir, source, hash string) bool

	home          string                      // "" = os.UserHomeDir()
	xdgConfigHome string                      // "" = $XDG_CONFIG_HOME (if absolute) or home/.config
	appData       string                      // Windows %APPDATA%; "" = $APPDATA or home/AppData/Roaming
	cwd           string                      // project dir for project-level files ("" = os.Getwd())
	goos          string                      // "" = runtime.GOOS; decides macOS vs Linux vs Windows paths
	lookupEnv     func(string) (string, bool) // nil = os.LookupEnv; for ${VAR} expansion, XDG_CONFIG_HOME, APPDATA, CODEX_HOME
}

// Discover reads every known client's config files and returns the servers
// they configure, and the problems met. It only reads: no file is written
// or created. A file that is missing is not a problem; one that cannot be
// read or parsed is, and never stops the others. An entry that cannot be
// read completely (a field of the wrong shape, no command or url, an
// unknown type) is a problem and is left out; the other entries of its file
// are used.
//
// Order: clients in the order of the client table (Claude Desktop first,
// MCP server directories last); each client's files in the client's own
// precedence order, the most specific first (project or
// local scope before user scope); entries in file order (JSON), or sorted
// by name (TOML and YAML maps). Duplicates and name clashes are then
// resolved as the package documentation describes (dedupe.go).
//
// Project files (those in the working directory) are untrusted until the
// user approves their servers (Options.Approved, or Claude Code's record in
// ~/.claude.json for .mcp.json): until then their servers are returned
// with Untrusted and Disabled set and their fields as written, never
// expanded. When the working directory is the home directory, a file that
// is both a client's project file and its user file is read as the user's.
func Discover(opts Options) ([]config.Server, []Problem) {
	r := &reader{env: resolve(opts), parsed: map[string]*file{}, approved: opts.Approved}
	for _, c := range clientTable {
		if opts.Skip[c.id] {
			continue
		}
		steps := c.files(&r.env)
		user := map[string]bool{}
		for _, st := range steps {
			if !st.project {
				user[st.path] = true
			}
		}
		for _, st := range steps {
			if st.path == "" || st.project && user[st.path] {
				continue
			}
			paths := []string{st.path}
			if strings.Contains(st.path, "*") {
				paths, _ = filepath.Glob(st.path) // sorted; the only error is a bad pattern
			}
			for _, p := range paths {
				if f := r.load(c.id, p, st.format); f != nil {
					f.project = st.project
					st.decode(r, f)
				}
			}
		}
	}
	servers := dedupe(r.servers)
	for i := range servers {
		if s := &servers[i]; s.Untrusted && !s.Disabled {
			s.Disabled = true
			s.Why = fmt.Sprintf("needs approval: it comes from %s in the project %s, which whoever wrote the project may have written; "+
				"read the entry, then approve it with \"mcp-code-mode trust\" in that directory", fileOf(s.Source), s.Project)
		}
	}
	return servers, r.problems
}

// Location is one file (or pattern of files, with *) that Discover reads.
type Location struct {
	Client  string `json:"client"`  // client ID
	Path    string `json:"path"`    // the file, or a pattern such as ~/.config/mcp/servers/*.json
	Project bool   `json:"project"` // in the working directory: its servers need approval
}

// Locations lists the files Discover would read with opts, in the order it
// reads them, each once: for saying where it looked when it found nothing.
func Locations(opts Options) []Location {
	e := resolve(opts)
	var out []Location
	seen := map[string]bool{}
	for _, c := range clientTable {
		if opts.Skip[c.id] {
			continue
		}
		steps := c.files(&e)
		user := map[string]bool{}
		for _, st := range steps {
			if !st.project {
				user[st.path] = true
			}
		}
		for _, st := range steps {
			if st.path == "" || seen[st.path] || st.project && user[st.path] {
				continue
			}
			seen[st.path] = true
			out = append(out, Location{Client: c.id, Path: st.path, Project: st.project})
		}
	}
	return out
}

// fileOf is the file of a "file#key" source.
func fileOf(source string) string {
	if i := strings.LastIndex(source, "#"); i >= 0 {
		return source[:i]
	}
	return source
}

// env is Options with the defaults filled in.
type env struct {
	home, xdg, appData, cwd, goos, codexHome string
	lookup                                   func(string) (string, bool)
	self                                     []string
}

func resolve(o Options) env {
	e := env{home: o.home, xdg: o.xdgConfigHome, appData: o.appData, cwd: o.cwd, goos: o.goos, lookup: o.lookupEnv, self: o.Self}
	if e.lookup == nil {
		e.lookup = os.LookupEnv
	}
	if e.goos == "" {
		e.goos = runtime.GOOS
	}
	if e.home == "" {
		e.home, _ = os.UserHomeDir()
	}
	if e.cwd == "" {
		e.cwd, _ = os.Getwd()
	}
	if e.cwd != "" {
		if abs, err := filepath.Abs(e.cwd); err == nil {
			e.cwd = abs
		}
	}
	if e.xdg == "" {
		if v, ok := e.lookup("XDG_CONFIG_HOME"); ok && filepath.IsAbs(v) {
			e.xdg = v // the XDG spec ignores relative values
		} else {
			e.xdg = join(e.home, ".config")
		}
	}
	if e.appData == "" && e.goos == "windows" {
		if v, ok := e.lookup("APPDATA"); ok && v != "" {
			e.appData = v
		} else {
			e.appData = join(e.home, "AppData", "Roaming")
		}
	}
	// Codex: "$CODEX_HOME/config.toml, default ~/.codex" (openai/codex docs/config.md).
	if v, ok := e.lookup("CODEX_HOME"); ok && v != "" {
		e.codexHome = v
	} else {
		e.codexHome = join(e.home, ".codex")
	}
	return e
}

// join is filepath.Join that keeps an unknown base unknown: a file under
// an unknown home must not turn into a path relative to the process.
func join(base string, elem ...string) string {
	if base == "" {
		return ""
	}
	return filepath.Join(append([]string{base}, elem...)...)
}

// appSupport is where desktop apps keep their settings: ~/Library/Application
// Support on macOS, %APPDATA% on Windows, $XDG_CONFIG_HOME elsewhere.
func (e *env) appSupport(elem ...string) string {
	switch e.goos {
	case "darwin":
		return join(e.home, append([]string{"Library", "Application Support"}, elem...)...)
	case "windows":
		return join(e.appData, elem...)
	}
	return join(e.xdg, elem...)
}

// userFile is the user-level config file of a client, the one that holds
// the servers of every project (the client table reads it, and
// `mcp-code-mode install` edits it); "" for a client without one or an
// unknown base directory.
func (e *env) userFile(id string) string {
	switch id {
	case "claude-desktop":
		// Locations as VS Code's own discovery of Claude Desktop's file
		// (microsoft/vscode src/vs/workbench/contrib/mcp/common/discovery/
		// nativeMcpDiscoveryAdapters.ts): %APPDATA%\Claude, ~/Library/Application
		// Support/Claude, $XDG_CONFIG_HOME/Claude.
		return e.appSupport("Claude", "claude_desktop_config.json")
	case "claude-code":
		return join(e.home, ".claude.json")
	case "cursor":
		return join(e.home, ".cursor", "mcp.json")
	case "vscode":
		return e.appSupport("Code", "User", "mcp.json")
	case "gemini":
		return join(e.home, ".gemini", "settings.json")
	case "codex":
		return join(e.codexHome, "config.toml")
	case "zed":
		if e.goos == "windows" {
			return join(e.appData, "Zed", "settings.json")
		}
		return join(e.xdg, "zed", "settings.json")
	case "windsurf":
		return join(e.home, ".codeium", "windsurf", "mcp_config.json")
	}
	return ""
}

// fileFormat is how a file is parsed.
type fileFormat int

const (
	formatJSON  fileFormat = iota // strict, as JSON.parse
	formatJSONC                   // comments and trailing commas allowed
	formatTOML
	formatYAML
	formatByExt // .yaml/.yml as YAML, anything else as JSONC
)

// fileStep is one file (or pattern) a client reads and how it reads it.
type fileStep struct {
	path    string // "" when its base directory is unknown
	format  fileFormat
	decode  func(r *reader, f *file)
	project bool // in the working directory: untrusted until approved
}

type clientDef struct {
	id    string
	files func(e *env) []fileStep
}

// clientTable is every client Discover knows, in the order it reads them
// (which is the order that decides which duplicate is kept).
var clientTable = []clientDef{
	{"claude-desktop", func(e *env) []fileStep {
		return []fileStep{{e.userFile("claude-desktop"), formatJSON, mcpServersIn("mcpServers", dialectClaudeDesktop), false}}
	}},
	{"claude-code", func(e *env) []fileStep {
		// Scopes and their precedence, local > project > user
		// (https://code.claude.com/docs/en/mcp, "Scope hierarchy"): local is
		// projects[<project path>].mcpServers of ~/.claude.json, project is
		// .mcp.json in the project, user is mcpServers of ~/.claude.json.
		claudeJSON := e.userFile("claude-code")
		return []fileStep{
			{claudeJSON, formatJSON, decodeClaudeLocal, false},
			{join(e.cwd, ".mcp.json"), formatJSON, decodeClaudeProject, true},
			{claudeJSON, formatJSON, decodeClaudeUser, false},
		}
	}},
	{"cursor", func(e *env) []fileStep {
		// Project .cursor/mcp.json overrides global ~/.cursor/mcp.json
		// (https://cursor.com/docs/mcp).
		return []fileStep{
			{join(e.cwd, ".cursor", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectCursor), true},
			{e.userFile("cursor"), formatJSONC, mcpServersIn("mcpServers", dialectCursor), false},
		}
	}},
	{"vscode", func(e *env) []fileStep {
		// Workspace .vscode/mcp.json and the user profile's mcp.json, root key
		// "servers", JSONC (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration;
		// allowComments/allowTrailingCommas in mcpConfiguration.ts). Before
		// mcp.json, servers lived in settings.json under "mcp": {"servers": ...}.
		return []fileStep{
			{join(e.cwd, ".vscode", "mcp.json"), formatJSONC, mcpServersIn("servers", dialectVSCode), true},
			{join(e.cwd, ".vscode", "settings.json"), formatJSONC, decodeVSCodeSettings, true},
			{e.userFile("vscode"), formatJSONC, mcpServersIn("servers", dialectVSCode), false},
			{e.appSupport("Code", "User", "settings.json"), formatJSONC, decodeVSCodeSettings, false},
		}
	}},
	{"gemini", func(e *env) []fileStep {
		// ~/.gemini/settings.json and <project>/.gemini/settings.json; project
		// settings override user settings (geminicli.com/docs/cli/configuration).
		// Comments are stripped (strip-json-comments in settings.ts).
		return []fileStep{
			{join(e.cwd, ".gemini", "settings.json"), formatJSONC, decodeGemini, true},
			{e.userFile("gemini"), formatJSONC, decodeGemini, false},
		}
	}},
	{"codex", func(e *env) []fileStep {
		return []fileStep{{e.userFile("codex"), formatTOML, decodeCodex, false}}
	}},
	{"opencode", func(e *env) []fileStep {
		// Project opencode.json(c) overrides the global
		// ~/.config/opencode/opencode.json(c) (https://opencode.ai/docs/config,
		// "Precedence order"); ~/.opencode.json is the older Go opencode's file.
		return []fileStep{
			{join(e.cwd, "opencode.json"), formatJSONC, decodeOpenCode, true},
			{join(e.cwd, "opencode.jsonc"), formatJSONC, decodeOpenCode, true},
			{join(e.xdg, "opencode", "opencode.json"), formatJSONC, decodeOpenCode, false},
			{join(e.xdg, "opencode", "opencode.jsonc"), formatJSONC, decodeOpenCode, false},
			{join(e.home, ".opencode.json"), formatJSONC, decodeOpenCodeLegacy, false},
		}
	}},
	{"zed", func(e *env) []fileStep {
		// ~/.config/zed/settings.json (also on macOS), %APPDATA%\Zed on Windows,
		// and .zed/settings.json in a project; "context_servers"
		// (https://zed.dev/docs/ai/mcp).
		return []fileStep{
			{join(e.cwd, ".zed", "settings.json"), formatJSONC, decodeZed, true},
			{e.userFile("zed"), formatJSONC, decodeZed, false},
		}
	}},
	{"windsurf", func(e *env) []fileStep {
		// ~/.codeium/windsurf/mcp_config.json on every OS
		// (https://docs.windsurf.com/windsurf/cascade/mcp).
		return []fileStep{{e.userFile("windsurf"), formatJSONC, mcpServersIn("mcpServers", dialectWindsurf), false}}
	}},
	{"cline", func(e *env) []fileStep {
		// The VS Code extension keeps cline_mcp_settings.json in its
		// globalStorage (saoudrizwan.claude-dev/settings); the Cline CLI uses
		// ~/.cline/data/settings (docs.cline.bot/mcp/configuring-mcp-servers).
		return []fileStep{
			{e.appSupport("Code", "User", "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json"), formatJSONC, mcpServersIn("mcpServers", dialectCline), false},
			{join(e.home, ".cline", "data", "settings", "cline_mcp_settings.json"), formatJSONC, mcpServersIn("mcpServers", dialectCline), false},
		}
	}},
	{"continue", func(e *env) []fileStep {
		// mcpServers in ~/.continue/config.yaml, and block files (YAML, or
		// JSON copied from other clients) in .continue/mcpServers/
		// (docs.continue.dev/customize/deep-dives/mcp).
		var steps []fileStep
		blocks := func(dir string, project bool) {
			for _, pat := range []string{"*.yaml", "*.yml", "*.json"} {
				steps = append(steps, fileStep{join(dir, pat), formatByExt, decodeContinue, project})
			}
		}
		blocks(join(e.cwd, ".continue", "mcpServers"), true)
		steps = append(steps, fileStep{join(e.home, ".continue", "config.yaml"), formatYAML, decodeContinue, false})
		blocks(join(e.home, ".continue", "mcpServers"), false)
		return steps
	}},
	{"kiro", func(e *env) []fileStep {
		// Workspace .kiro/settings/mcp.json takes precedence over the user's
		// ~/.kiro/settings/mcp.json (https://kiro.dev/docs/mcp/configuration).
		return []fileStep{
			{join(e.cwd, ".kiro", "settings", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectKiro), true},
			{join(e.home, ".kiro", "settings", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectKiro), false},
		}
	}},
	{"lmstudio", func(e *env) []fileStep {
		// ~/.lmstudio/mcp.json, "LM Studio currently follows Cursor's mcp.json
		// notation" (lmstudio-ai/docs 0_app/2_mcp/index.mdx).
		return []fileStep{{join(e.home, ".lmstudio", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectLMStudio), false}}
	}},
	{"mcp-dir", func(e *env) []fileStep {
		// MCP server directories, one file per server, as multi-server
		// bridges that read a folder of server files expect them:
		// ./mcp-servers/*.json and ~/.config/mcp/servers/*.json.
		return []fileStep{
			{join(e.cwd, "mcp-servers", "*.json"), formatJSONC, decodeMCPDir, true},
			{join(e.xdg, "mcp", "servers", "*.json"), formatJSONC, decodeMCPDir, false},
		}
	}},
}
