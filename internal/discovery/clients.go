package discovery

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// Options say where to look. Tests point Home etc. at fixtures; zero values
// mean the real ones.
type Options struct {
	Home          string                      // "" = os.UserHomeDir()
	XDGConfigHome string                      // "" = $XDG_CONFIG_HOME (if absolute) or Home/.config
	AppData       string                      // Windows %APPDATA%; "" = $APPDATA or Home/AppData/Roaming
	Cwd           string                      // project dir for project-level files ("" = os.Getwd())
	GOOS          string                      // "" = runtime.GOOS; decides macOS vs Linux vs Windows paths
	LookupEnv     func(string) (string, bool) // nil = os.LookupEnv; for ${VAR} expansion, XDG_CONFIG_HOME, APPDATA, CODEX_HOME
	Self          []string                    // paths/names of this program: entries launching it are skipped
	Skip          map[string]bool             // client IDs to ignore
}

// ClientFiles is one client Discover knows and the files it reads for it.
// A path with a "*" is a pattern (a directory of server files).
type ClientFiles struct {
	ID, Name string
	Paths    []string
}

// Clients lists the client IDs Discover knows, in the order it reads them,
// with their files for these options (for the servers and doctor commands).
// Skipped clients are listed too.
func Clients(opts Options) []ClientFiles {
	e := resolve(opts)
	var out []ClientFiles
	for _, c := range clientTable {
		cf := ClientFiles{ID: c.id, Name: c.name}
		for _, st := range c.files(&e) {
			if st.path != "" && !slices.Contains(cf.Paths, st.path) {
				cf.Paths = append(cf.Paths, st.path)
			}
		}
		out = append(out, cf)
	}
	return out
}

// Discover reads every known client's config files and returns the servers
// they configure, and the problems met. It only reads: no file is written
// or created. A file that is missing is not a problem; one that cannot be
// read or parsed is, and never stops the others. An entry that cannot be
// read completely (a field of the wrong shape, no command or url, an
// unknown type) is a problem and is left out; the other entries of its file
// are used.
//
// Order: clients in the order Clients lists them; each client's files in
// the client's own precedence order, the most specific first (project or
// local scope before user scope); entries in file order (JSON), or sorted
// by name (TOML and YAML maps). Duplicates and name clashes are then
// resolved as dedupe documents.
func Discover(opts Options) ([]config.Server, []Problem) {
	r := &reader{env: resolve(opts), parsed: map[string]*file{}}
	for _, c := range clientTable {
		if opts.Skip[c.id] {
			continue
		}
		for _, st := range c.files(&r.env) {
			if st.path == "" {
				continue
			}
			paths := []string{st.path}
			if strings.Contains(st.path, "*") {
				paths, _ = filepath.Glob(st.path) // sorted; the only error is a bad pattern
			}
			for _, p := range paths {
				if f := r.load(c.id, p, st.format); f != nil {
					st.decode(r, f)
				}
			}
		}
	}
	return dedupe(r.servers), r.problems
}

// env is Options with the defaults filled in.
type env struct {
	home, xdg, appData, cwd, goos, codexHome string
	lookup                                   func(string) (string, bool)
	self                                     []string
}

func resolve(o Options) env {
	e := env{home: o.Home, xdg: o.XDGConfigHome, appData: o.AppData, cwd: o.Cwd, goos: o.GOOS, lookup: o.LookupEnv, self: o.Self}
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
	path   string // "" when its base directory is unknown
	format fileFormat
	decode func(r *reader, f *file)
}

type clientDef struct {
	id, name string
	files    func(e *env) []fileStep
}

// clientTable is every client Discover knows, in the order it reads them
// (which is the order that decides which duplicate is kept).
var clientTable = []clientDef{
	{"claude-desktop", "Claude Desktop", func(e *env) []fileStep {
		// Locations as VS Code's own discovery of Claude Desktop's file
		// (microsoft/vscode src/vs/workbench/contrib/mcp/common/discovery/
		// nativeMcpDiscoveryAdapters.ts): %APPDATA%\Claude, ~/Library/Application
		// Support/Claude, $XDG_CONFIG_HOME/Claude.
		return []fileStep{{e.appSupport("Claude", "claude_desktop_config.json"), formatJSON, mcpServersIn("mcpServers", dialectClaudeDesktop)}}
	}},
	{"claude-code", "Claude Code", func(e *env) []fileStep {
		// Scopes and their precedence, local > project > user
		// (https://code.claude.com/docs/en/mcp, "Scope hierarchy"): local is
		// projects[<project path>].mcpServers of ~/.claude.json, project is
		// .mcp.json in the project, user is mcpServers of ~/.claude.json.
		claudeJSON := join(e.home, ".claude.json")
		return []fileStep{
			{claudeJSON, formatJSON, decodeClaudeLocal},
			{join(e.cwd, ".mcp.json"), formatJSON, decodeClaudeProject},
			{claudeJSON, formatJSON, decodeClaudeUser},
		}
	}},
	{"cursor", "Cursor", func(e *env) []fileStep {
		// Project .cursor/mcp.json overrides global ~/.cursor/mcp.json
		// (https://cursor.com/docs/mcp).
		return []fileStep{
			{join(e.cwd, ".cursor", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectCursor)},
			{join(e.home, ".cursor", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectCursor)},
		}
	}},
	{"vscode", "VS Code", func(e *env) []fileStep {
		// Workspace .vscode/mcp.json and the user profile's mcp.json, root key
		// "servers", JSONC (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration;
		// allowComments/allowTrailingCommas in mcpConfiguration.ts). Before
		// mcp.json, servers lived in settings.json under "mcp": {"servers": ...}.
		user := e.appSupport("Code", "User")
		return []fileStep{
			{join(e.cwd, ".vscode", "mcp.json"), formatJSONC, mcpServersIn("servers", dialectVSCode)},
			{join(e.cwd, ".vscode", "settings.json"), formatJSONC, decodeVSCodeSettings},
			{join(user, "mcp.json"), formatJSONC, mcpServersIn("servers", dialectVSCode)},
			{join(user, "settings.json"), formatJSONC, decodeVSCodeSettings},
		}
	}},
	{"gemini", "Gemini CLI", func(e *env) []fileStep {
		// ~/.gemini/settings.json and <project>/.gemini/settings.json; project
		// settings override user settings (geminicli.com/docs/cli/configuration).
		// Comments are stripped (strip-json-comments in settings.ts).
		return []fileStep{
			{join(e.cwd, ".gemini", "settings.json"), formatJSONC, decodeGemini},
			{join(e.home, ".gemini", "settings.json"), formatJSONC, decodeGemini},
		}
	}},
	{"codex", "Codex", func(e *env) []fileStep {
		return []fileStep{{join(e.codexHome, "config.toml"), formatTOML, decodeCodex}}
	}},
	{"opencode", "OpenCode", func(e *env) []fileStep {
		// Project opencode.json(c) overrides the global
		// ~/.config/opencode/opencode.json(c) (https://opencode.ai/docs/config,
		// "Precedence order"); ~/.opencode.json is the older Go opencode's file.
		return []fileStep{
			{join(e.cwd, "opencode.json"), formatJSONC, decodeOpenCode},
			{join(e.cwd, "opencode.jsonc"), formatJSONC, decodeOpenCode},
			{join(e.xdg, "opencode", "opencode.json"), formatJSONC, decodeOpenCode},
			{join(e.xdg, "opencode", "opencode.jsonc"), formatJSONC, decodeOpenCode},
			{join(e.home, ".opencode.json"), formatJSONC, decodeOpenCodeLegacy},
		}
	}},
	{"zed", "Zed", func(e *env) []fileStep {
		// ~/.config/zed/settings.json (also on macOS), %APPDATA%\Zed on Windows,
		// and .zed/settings.json in a project; "context_servers"
		// (https://zed.dev/docs/ai/mcp).
		user := join(e.xdg, "zed", "settings.json")
		if e.goos == "windows" {
			user = join(e.appData, "Zed", "settings.json")
		}
		return []fileStep{
			{join(e.cwd, ".zed", "settings.json"), formatJSONC, decodeZed},
			{user, formatJSONC, decodeZed},
		}
	}},
	{"windsurf", "Windsurf", func(e *env) []fileStep {
		// ~/.codeium/windsurf/mcp_config.json on every OS
		// (https://docs.windsurf.com/windsurf/cascade/mcp).
		return []fileStep{{join(e.home, ".codeium", "windsurf", "mcp_config.json"), formatJSONC, mcpServersIn("mcpServers", dialectWindsurf)}}
	}},
	{"cline", "Cline", func(e *env) []fileStep {
		// The VS Code extension keeps cline_mcp_settings.json in its
		// globalStorage (saoudrizwan.claude-dev/settings); the Cline CLI uses
		// ~/.cline/data/settings (docs.cline.bot/mcp/configuring-mcp-servers).
		return []fileStep{
			{e.appSupport("Code", "User", "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json"), formatJSONC, mcpServersIn("mcpServers", dialectCline)},
			{join(e.home, ".cline", "data", "settings", "cline_mcp_settings.json"), formatJSONC, mcpServersIn("mcpServers", dialectCline)},
		}
	}},
	{"continue", "Continue", func(e *env) []fileStep {
		// mcpServers in ~/.continue/config.yaml, and block files (YAML, or
		// JSON copied from other clients) in .continue/mcpServers/
		// (docs.continue.dev/customize/deep-dives/mcp).
		var steps []fileStep
		for _, dir := range []string{join(e.cwd, ".continue", "mcpServers"), ""} {
			if dir == "" {
				steps = append(steps, fileStep{join(e.home, ".continue", "config.yaml"), formatYAML, decodeContinue})
				dir = join(e.home, ".continue", "mcpServers")
			}
			for _, pat := range []string{"*.yaml", "*.yml", "*.json"} {
				steps = append(steps, fileStep{join(dir, pat), formatByExt, decodeContinue})
			}
		}
		return steps
	}},
	{"kiro", "Kiro", func(e *env) []fileStep {
		// Workspace .kiro/settings/mcp.json takes precedence over the user's
		// ~/.kiro/settings/mcp.json (https://kiro.dev/docs/mcp/configuration).
		return []fileStep{
			{join(e.cwd, ".kiro", "settings", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectKiro)},
			{join(e.home, ".kiro", "settings", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectKiro)},
		}
	}},
	{"lmstudio", "LM Studio", func(e *env) []fileStep {
		// ~/.lmstudio/mcp.json, "LM Studio currently follows Cursor's mcp.json
		// notation" (lmstudio-ai/docs 0_app/2_mcp/index.mdx).
		return []fileStep{{join(e.home, ".lmstudio", "mcp.json"), formatJSONC, mcpServersIn("mcpServers", dialectLMStudio)}}
	}},
	{"mcp-dir", "MCP server directories", func(e *env) []fileStep {
		// One file per server, as the multi-server bridge of
		// seeds/004 reads them: ./mcp-servers/*.json and ~/.config/mcp/servers/*.json.
		return []fileStep{
			{join(e.cwd, "mcp-servers", "*.json"), formatJSONC, decodeMCPDir},
			{join(e.xdg, "mcp", "servers", "*.json"), formatJSONC, decodeMCPDir},
		}
	}},
}

// reader collects what Discover finds.
type reader struct {
	env
	servers  []config.Server
	problems []Problem
	parsed   map[string]*file // by path: ~/.claude.json is read by two steps

	// From ~/.claude.json projects[<cwd>]: servers turned off there.
	claudeDisabled, claudeDisabledMcpjson []string
	claudeProjectKey                      string
}

// file is one parsed config file.
type file struct {
	client, path string
	root         *cfgValue
}

func (r *reader) problem(f *file, v *cfgValue, key, format string, args ...any) {
	p := Problem{Client: f.client, Path: f.path, Key: key, Err: fmt.Sprintf(format, args...)}
	if v != nil {
		p.Line = v.line
	}
	r.problems = append(r.problems, p)
}

// load reads and parses a file once; nil if it is missing or unusable (the
// latter is a Problem).
func (r *reader) load(client, path string, format fileFormat) *file {
	if f, ok := r.parsed[path]; ok {
		return f
	}
	r.parsed[path] = nil
	fail := func(line int, msg string) *file {
		r.problems = append(r.problems, Problem{Client: client, Path: path, Line: line, Err: msg})
		return nil
	}
	fh, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fail(0, "cannot read: "+osErr(err))
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxConfigSize+1))
	if err != nil {
		return fail(0, "cannot read: "+osErr(err))
	}
	if len(data) > maxConfigSize {
		return fail(0, fmt.Sprintf("larger than %d MiB", maxConfigSize>>20))
	}
	if format == formatByExt {
		format = formatJSONC
		if ext := strings.ToLower(filepath.Ext(path)); ext == ".yaml" || ext == ".yml" {
			format = formatYAML
		}
	}
	root, err := parseConfig(data, format)
	if err != nil {
		var pe *parseError
		if errors.As(err, &pe) {
			return fail(pe.line, pe.msg)
		}
		return fail(0, err.Error())
	}
	if root.kind != cfgObject {
		return fail(root.line, "the top level must be an object, not "+root.kindName())
	}
	f := &file{client: client, path: path, root: root}
	r.parsed[path] = f
	return f
}

func parseConfig(data []byte, format fileFormat) (*cfgValue, error) {
	switch format {
	case formatJSON:
		return parseJSON(data)
	case formatTOML:
		return parseTOML(data)
	case formatYAML:
		return parseYAML(data)
	}
	return parseJSONC(data)
}

// osErr is an OS error without the path (Problem.Path has it).
func osErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// ---- Entries -------------------------------------------------------------

// dialect is how one client writes the entries of an "mcpServers"-style map
// and what its fields mean.
type dialect struct {
	syntax     expandSyntax
	inputs     bool     // ${input:ID} blocks the entry (VS Code)
	editorVars bool     // ${workspaceFolder}, ${userHome}, ... (VS Code, Cursor)
	remote     string   // transport of a url entry without a type; "" = from the URL
	urlKeys    []urlKey // remote-URL fields besides "url"
	typeKeys   []string // fields naming the transport ("type", ...)
	envFile    bool     // honours "envFile"
	allowKey   string   // tool allow list field
	denyKey    string   // tool deny list field
}

type urlKey struct{ name, transport string }

var (
	// Claude Desktop: command, args, env (modelcontextprotocol.io quickstart);
	// no variable expansion.
	dialectClaudeDesktop = &dialect{typeKeys: []string{"type"}}
	// Claude Code: type stdio|sse|http ("streamable-http" is an alias),
	// url, headers; ${VAR}, ${VAR:-default} (https://code.claude.com/docs/en/mcp).
	dialectClaudeCode = &dialect{syntax: syntaxBraces, typeKeys: []string{"type"}}
	// Cursor: url entries are remote (Streamable HTTP or SSE); ${env:NAME},
	// ${userHome}, ${workspaceFolder}; envFile (cursor.com/docs/mcp).
	dialectCursor = &dialect{syntax: syntaxEditor, editorVars: true, typeKeys: []string{"type"}, envFile: true}
	// VS Code: type stdio|http|sse, envFile, inputs (mcpConfiguration.ts).
	// With no type VS Code tries Streamable HTTP and falls back to SSE.
	dialectVSCode = &dialect{syntax: syntaxEditor, editorVars: true, inputs: true, typeKeys: []string{"type"}, envFile: true}
	// Gemini CLI: url is SSE, httpUrl Streamable HTTP; includeTools,
	// excludeTools; $VAR and ${VAR} (docs/tools/mcp-server.md).
	dialectGemini = &dialect{syntax: syntaxDollar, remote: config.TransportSSE, urlKeys: []urlKey{{"httpUrl", config.TransportHTTP}}, typeKeys: []string{"type"}, allowKey: "includeTools", denyKey: "excludeTools"}
	// Windsurf: serverUrl for remote servers, disabled, ${env:NAME}
	// (docs.windsurf.com/windsurf/cascade/mcp); disabledTools as its tool
	// toggles write it.
	dialectWindsurf = &dialect{syntax: syntaxEditor, urlKeys: []urlKey{{"serverUrl", ""}}, typeKeys: []string{"type"}, denyKey: "disabledTools"}
	// Cline: disabled, autoApprove (ignored); a url with no type is SSE and
	// "streamableHttp" must be asked for (src/services/mcp/schemas.ts; the
	// older field is transportType).
	dialectCline = &dialect{remote: config.TransportSSE, typeKeys: []string{"type", "transportType"}}
	// Kiro: disabled, autoApprove (ignored), disabledTools, ${VAR}
	// (https://kiro.dev/docs/mcp/configuration).
	dialectKiro = &dialect{syntax: syntaxBraces, typeKeys: []string{"type"}, denyKey: "disabledTools"}
	// LM Studio follows Cursor's notation; no expansion is documented.
	dialectLMStudio = &dialect{typeKeys: []string{"type"}}
	// Continue and mcp-dir files as other clients write them.
	dialectPlain = &dialect{typeKeys: []string{"type"}}
)

// rawEntry is an entry as written, before expansion.
type rawEntry struct {
	name, key string
	line      int
	typ       string // declared transport, "" = inferred
	srv       config.Server
	envFile   string
}

// fields reads the fields of one entry, recording each wrong shape.
type fields struct {
	r   *reader
	f   *file
	v   *cfgValue
	key string
	ok  bool
}

func (r *reader) fields(f *file, v *cfgValue, key string) *fields {
	return &fields{r: r, f: f, v: v, key: key, ok: true}
}

func (e *fields) bad(field string, v *cfgValue, want string) {
	key := field
	if e.key != "" {
		key = e.key + "." + field
	}
	e.r.problem(e.f, v, key, "must be %s, not %s", want, v.kindName())
	e.ok = false
}

func (e *fields) str(name string) string {
	v := e.v.get(name)
	if v == nil || v.kind == cfgNull {
		return ""
	}
	if v.kind != cfgString {
		e.bad(name, v, "a string")
		return ""
	}
	return v.str
}

func (e *fields) flag(name string) (val, set bool) {
	v := e.v.get(name)
	if v == nil || v.kind == cfgNull {
		return false, false
	}
	if v.kind != cfgBool {
		e.bad(name, v, "true or false")
		return false, false
	}
	return v.str == "true", true
}

func scalar(v *cfgValue) bool {
	return v.kind == cfgString || v.kind == cfgNumber || v.kind == cfgBool
}

func (e *fields) list(name string) []string {
	v := e.v.get(name)
	if v == nil || v.kind == cfgNull {
		return nil
	}
	if v.kind != cfgArray {
		e.bad(name, v, "a list of strings")
		return nil
	}
	out := make([]string, 0, len(v.vals))
	for i, it := range v.vals {
		if !scalar(it) {
			e.bad(fmt.Sprintf("%s[%d]", name, i), it, "a string")
			return nil
		}
		out = append(out, it.str)
	}
	return out
}

// dict reads an object of strings (numbers and booleans are taken as their
// text, null members are left out, as VS Code's env allows).
func (e *fields) dict(name string) map[string]string {
	v := e.v.get(name)
	if v == nil || v.kind == cfgNull {
		return nil
	}
	return e.dictOf(name, v)
}

func (e *fields) dictOf(name string, v *cfgValue) map[string]string {
	if v.kind != cfgObject {
		e.bad(name, v, "an object of strings")
		return nil
	}
	out := map[string]string{}
	ok := true
	v.members(func(k string, it *cfgValue) {
		switch {
		case it.kind == cfgNull:
		case scalar(it):
			out[k] = it.str
		default:
			e.bad(name+"."+k, it, "a string")
			ok = false
		}
	})
	if !ok {
		return nil
	}
	return out
}

// mcpServersIn decodes the map of name -> entry under key in the top-level
// object, with the dialect d.
func mcpServersIn(key string, d *dialect) func(r *reader, f *file) {
	return func(r *reader, f *file) {
		r.serverMap(f, f.root.get(key), key, d, nil)
	}
}

// serverMap decodes a map of name -> entry found at key. off, if set, says
// why a named server is turned off ("" = it is not).
func (r *reader) serverMap(f *file, m *cfgValue, key string, d *dialect, off func(name string) string) {
	r.eachServer(f, m, key, func(name, key string, v *cfgValue) {
		raw, ok := r.entry(f, d, name, key, v)
		if !ok {
			return
		}
		if off != nil && !raw.srv.Disabled {
			if why := off(name); why != "" {
				raw.srv.Disabled, raw.srv.Why = true, why
			}
		}
		r.finish(f, d, raw)
	})
}

// eachServer calls fn with every member of the object of servers m found at
// key that is an object (and the member's own key), reporting anything else
// found there.
func (r *reader) eachServer(f *file, m *cfgValue, key string, fn func(name, key string, v *cfgValue)) {
	if m == nil || m.kind == cfgNull {
		return
	}
	if m.kind != cfgObject {
		r.problem(f, m, key, "must be an object of servers, not %s", m.kindName())
		return
	}
	m.members(func(name string, v *cfgValue) {
		key := key + "." + name
		if v.kind != cfgObject {
			r.problem(f, v, key, "must be an object, not %s", v.kindName())
			return
		}
		fn(name, key, v)
	})
}

// entry reads one "mcpServers"-style entry.
func (r *reader) entry(f *file, d *dialect, name, key string, v *cfgValue) (rawEntry, bool) {
	raw := rawEntry{name: name, key: key, line: v.line}
	if v.kind != cfgObject {
		r.problem(f, v, key, "must be an object, not %s", v.kindName())
		return raw, false
	}
	e := r.fields(f, v, key)
	for _, k := range d.typeKeys {
		if raw.typ = e.str(k); raw.typ != "" {
			break
		}
	}
	s := &raw.srv
	s.Command = e.str("command")
	s.Args = e.list("args")
	s.Env = e.dict("env")
	s.Cwd = e.str("cwd")
	s.URL = e.str("url")
	for _, u := range d.urlKeys {
		if v := e.str(u.name); v != "" && s.URL == "" {
			s.URL = v
			if raw.typ == "" {
				raw.typ = u.transport
			}
		}
	}
	s.Headers = e.dict("headers")
	s.Description = e.str("description")
	if d.allowKey != "" {
		s.Allow = e.list(d.allowKey)
	}
	if d.denyKey != "" {
		s.Deny = e.list(d.denyKey)
	}
	if d.envFile {
		raw.envFile = e.str("envFile")
	}
	// "disabled": true (Windsurf, Cline, Kiro) and "enabled": false are
	// honoured in every client's entries: a user who wrote them meant it.
	if off, _ := e.flag("disabled"); off {
		s.Disabled, s.Why = true, "disabled in "+f.path
	}
	if on, set := e.flag("enabled"); set && !on {
		s.Disabled, s.Why = true, "disabled in "+f.path
	}
	return raw, e.ok
}

// transportOf normalizes a declared type: stdio, http (streamable-http,
// streamableHttp, ...) or sse.
func transportOf(typ string) (string, bool) {
	t := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(typ))
	switch t {
	case "stdio", "local":
		return config.TransportStdio, true
	case "http", "streamablehttp", "streamable", "remote":
		return config.TransportHTTP, true
	case "sse":
		return config.TransportSSE, true
	}
	return "", false
}

// transportFromURL guesses the transport of a remote entry: a path ending
// in /sse is the legacy HTTP+SSE transport, anything else Streamable HTTP.
func transportFromURL(raw string) string {
	p := raw
	if u, err := url.Parse(raw); err == nil {
		p = u.Path
	}
	if strings.HasSuffix(strings.TrimSuffix(p, "/"), "/sse") {
		return config.TransportSSE
	}
	return config.TransportHTTP
}

// finish checks an entry, expands its variables and adds the server.
func (r *reader) finish(f *file, d *dialect, raw rawEntry) {
	at := &cfgValue{line: raw.line}
	if raw.name == "" {
		r.problem(f, at, raw.key, "a server needs a name")
		return
	}
	s := raw.srv
	tr := ""
	if raw.typ != "" {
		var ok bool
		if tr, ok = transportOf(raw.typ); !ok {
			r.problem(f, at, raw.key+".type", "unknown type %q (want stdio, http or sse)", raw.typ)
			return
		}
	}
	switch {
	case tr == "" && s.Command != "":
		tr = config.TransportStdio
	case tr == "" && s.URL != "":
		tr = d.remote
		if tr == "" {
			tr = transportFromURL(s.URL)
		}
	case tr == "":
		r.problem(f, at, raw.key, "has neither a command nor a url")
		return
	case tr == config.TransportStdio && s.Command == "":
		r.problem(f, at, raw.key, "a stdio server needs a command")
		return
	case tr != config.TransportStdio && s.URL == "":
		r.problem(f, at, raw.key, "a %s server needs a url", tr)
		return
	}

	x := r.expander(d)
	s.Name, s.Transport, s.Client = raw.name, tr, f.client
	s.Source = f.path + "#" + raw.key
	if tr == config.TransportStdio {
		s.Command, s.Args, s.Env, s.Cwd = x.expand(s.Command), x.list(s.Args), x.dict(s.Env), x.expand(s.Cwd)
		s.URL, s.Headers, s.BearerTokenEnv, s.EnvHeaders = "", nil, "", nil
		if raw.envFile != "" {
			s.Env = r.envFile(f, raw, x.expand(raw.envFile), s.Env)
		}
	} else {
		s.URL, s.Headers = x.expand(s.URL), x.dict(s.Headers)
		s.Command, s.Args, s.Env, s.Cwd = "", nil, nil, ""
	}
	if x.blocked != "" && !s.Disabled {
		s.Disabled, s.Why = true, x.blocked
	}
	if len(x.unset) > 0 {
		s.UnsetVars = slices.Sorted(slices.Values(x.unset))
	}
	if tr == config.TransportStdio && launchesSelf(s.Command, s.Args, r.self) {
		r.problem(f, at, raw.key, "skipped: launches mcp-code-mode itself")
		return
	}
	if len(s.Allow) == 0 {
		s.Allow = nil
	}
	if len(s.Deny) == 0 {
		s.Deny = nil
	}
	r.servers = append(r.servers, s)
}

func (r *reader) expander(d *dialect) *expander {
	x := &expander{syntax: d.syntax, lookup: r.lookup, inputs: d.inputs}
	if d.editorVars {
		// VS Code's predefined variables (code.visualstudio.com/docs/reference/variables-reference),
		// the ones that mean something outside an open editor.
		sep := string(filepath.Separator)
		if r.goos == "windows" {
			sep = `\`
		} else if r.goos != "" {
			sep = "/"
		}
		x.vars = map[string]string{
			"workspaceFolder":         r.cwd,
			"workspaceRoot":           r.cwd,
			"workspaceFolderBasename": filepath.Base(r.cwd),
			"userHome":                r.home,
			"pathSeparator":           sep,
			"/":                       sep,
		}
	}
	return x
}

// envFile merges the KEY=VALUE lines of an envFile under env (env wins).
// Relative paths are taken from the project directory.
func (r *reader) envFile(f *file, raw rawEntry, path string, env map[string]string) map[string]string {
	if !filepath.IsAbs(path) && r.cwd != "" {
		path = filepath.Join(r.cwd, path)
	}
	at := &cfgValue{line: raw.line}
	data, err := os.ReadFile(path)
	if err != nil {
		r.problem(f, at, raw.key+".envFile", "cannot read %s: %s", path, osErr(err))
		return env
	}
	vars, bad := parseEnvFile(data)
	for _, b := range bad {
		r.problems = append(r.problems, Problem{Client: f.client, Path: path, Line: b.line, Key: raw.key + ".envFile", Err: b.err})
	}
	if len(vars) == 0 {
		return env
	}
	for k, v := range env {
		vars[k] = v
	}
	return vars
}

// ---- Clients with their own shapes ---------------------------------------

// decodeClaudeLocal reads the local scope of ~/.claude.json:
// projects[<cwd>].mcpServers, and the lists of servers turned off for the
// project there (disabledMcpServers, written by /mcp; disabledMcpjsonServers,
// the .mcp.json servers the user rejected).
func decodeClaudeLocal(r *reader, f *file) {
	projects := f.root.get("projects")
	if projects == nil || projects.kind == cfgNull {
		return
	}
	if projects.kind != cfgObject {
		r.problem(f, projects, "projects", "must be an object, not %s", projects.kindName())
		return
	}
	var proj *cfgValue
	projects.members(func(k string, v *cfgValue) {
		if r.cwd != "" && filepath.Clean(k) == r.cwd {
			proj, r.claudeProjectKey = v, k
		}
	})
	if proj == nil {
		return
	}
	key := "projects." + r.claudeProjectKey
	if proj.kind != cfgObject {
		r.problem(f, proj, key, "must be an object, not %s", proj.kindName())
		return
	}
	e := r.fields(f, proj, key)
	r.claudeDisabled = e.list("disabledMcpServers")
	r.claudeDisabledMcpjson = e.list("disabledMcpjsonServers")
	r.serverMap(f, proj.get("mcpServers"), key+".mcpServers", dialectClaudeCode, r.claudeOff(f.path, false))
}

// claudeOff says why ~/.claude.json turns a server off for this project.
func (r *reader) claudeOff(claudeJSON string, mcpjson bool) func(string) string {
	return func(name string) string {
		key := "projects." + r.claudeProjectKey
		if slices.Contains(r.claudeDisabled, name) {
			return fmt.Sprintf("disabled in %s (%s.disabledMcpServers)", claudeJSON, key)
		}
		if mcpjson && slices.Contains(r.claudeDisabledMcpjson, name) {
			return fmt.Sprintf("disabled in %s (%s.disabledMcpjsonServers)", claudeJSON, key)
		}
		return ""
	}
}

func decodeClaudeProject(r *reader, f *file) {
	r.serverMap(f, f.root.get("mcpServers"), "mcpServers", dialectClaudeCode, r.claudeOff(join(r.home, ".claude.json"), true))
}

func decodeClaudeUser(r *reader, f *file) {
	r.serverMap(f, f.root.get("mcpServers"), "mcpServers", dialectClaudeCode, r.claudeOff(f.path, false))
}

// decodeVSCodeSettings reads the servers of a settings.json: "mcp":
// {"servers": ...}, or the flat key "mcp.servers".
func decodeVSCodeSettings(r *reader, f *file) {
	if m := f.root.get("mcp"); m != nil && m.kind == cfgObject {
		r.serverMap(f, m.get("servers"), "mcp.servers", dialectVSCode, nil)
	}
	r.serverMap(f, f.root.get("mcp.servers"), "mcp.servers", dialectVSCode, nil)
}

// decodeGemini reads mcpServers of a Gemini CLI settings.json, with the
// file's server allow and exclude lists: "mcp": {"allowed", "excluded"}
// (older: allowMCPServers, excludeMCPServers).
func decodeGemini(r *reader, f *file) {
	e := r.fields(f, f.root, "")
	var allowed, excluded []string
	var allowKey, excludeKey string
	if m := f.root.get("mcp"); m != nil && m.kind == cfgObject {
		e := r.fields(f, m, "mcp")
		allowed, excluded = e.list("allowed"), e.list("excluded")
		allowKey, excludeKey = "mcp.allowed", "mcp.excluded"
	}
	if allowed == nil {
		allowed, allowKey = e.list("allowMCPServers"), "allowMCPServers"
	}
	if excluded == nil {
		excluded, excludeKey = e.list("excludeMCPServers"), "excludeMCPServers"
	}
	off := func(name string) string {
		if slices.Contains(excluded, name) {
			return fmt.Sprintf("disabled in %s (%s)", f.path, excludeKey)
		}
		if allowed != nil && !slices.Contains(allowed, name) {
			return fmt.Sprintf("disabled in %s (not in %s)", f.path, allowKey)
		}
		return ""
	}
	r.serverMap(f, f.root.get("mcpServers"), "mcpServers", dialectGemini, off)
}

// decodeCodex reads [mcp_servers.NAME] tables of Codex's config.toml. Fields
// as RawMcpServerConfig in openai/codex codex-rs/config/src/mcp_types.rs:
// command, args, env, cwd (stdio); url, bearer_token_env_var, http_headers,
// env_http_headers (streamable HTTP); enabled, enabled_tools,
// disabled_tools. An inline bearer_token is refused, as Codex refuses it.
func decodeCodex(r *reader, f *file) {
	m := f.root.get("mcp_servers")
	if m == nil {
		return
	}
	if m.kind != cfgObject {
		r.problem(f, m, "mcp_servers", "must be a table of servers, not %s", m.kindName())
		return
	}
	m.members(func(name string, v *cfgValue) {
		key := "mcp_servers." + name
		if v.kind != cfgObject {
			r.problem(f, v, key, "must be a table, not %s", v.kindName())
			return
		}
		e := r.fields(f, v, key)
		raw := rawEntry{name: name, key: key, line: v.line}
		s := &raw.srv
		s.Command, s.Args, s.Env, s.Cwd = e.str("command"), e.list("args"), e.dict("env"), e.str("cwd")
		s.URL, s.Headers = e.str("url"), e.dict("http_headers")
		s.BearerTokenEnv, s.EnvHeaders = e.str("bearer_token_env_var"), e.dict("env_http_headers")
		s.Allow, s.Deny = e.list("enabled_tools"), e.list("disabled_tools")
		if on, set := e.flag("enabled"); set && !on {
			s.Disabled, s.Why = true, "disabled in "+f.path
		}
		if v.get("bearer_token") != nil {
			r.problem(f, v, key+".bearer_token", "an inline bearer_token is not supported (Codex refuses it): use bearer_token_env_var")
			return
		}
		if s.Command != "" && s.URL != "" {
			r.problem(f, v, key, "has both command and url (Codex refuses it)")
			return
		}
		if !e.ok {
			return
		}
		if s.URL != "" {
			raw.typ = config.TransportHTTP // Codex speaks Streamable HTTP only
		}
		r.finish(f, &dialect{}, raw)
	})
}

var dialectOpenCode = &dialect{syntax: syntaxOpenCode}

// decodeOpenCode reads the "mcp" map of opencode.json(c)
// (https://opencode.ai/docs/mcp-servers): "type": "local" with "command" an
// array (program first) and "environment"; "type": "remote" with "url" and
// "headers"; "enabled". {env:VAR} is substituted.
func decodeOpenCode(r *reader, f *file) {
	r.eachServer(f, f.root.get("mcp"), "mcp", func(name, key string, v *cfgValue) {
		e := r.fields(f, v, key)
		raw := rawEntry{name: name, key: key, line: v.line}
		s := &raw.srv
		switch t := e.str("type"); t {
		case "local":
			raw.typ = config.TransportStdio
		case "remote", "":
		default:
			r.problem(f, v, key+".type", "unknown type %q (want local or remote)", t)
			return
		}
		if cmd := e.list("command"); len(cmd) > 0 {
			s.Command, s.Args = cmd[0], cmd[1:]
		}
		s.Env = e.dict("environment")
		s.URL, s.Headers = e.str("url"), e.dict("headers")
		if on, set := e.flag("enabled"); set && !on {
			s.Disabled, s.Why = true, "disabled in "+f.path
		}
		if !e.ok {
			return
		}
		if raw.typ == "" && s.Command == "" && s.URL == "" && len(v.keys) == 1 && v.keys[0] == "enabled" {
			return // only turns on or off a server defined elsewhere (remote org config)
		}
		r.finish(f, dialectOpenCode, raw)
	})
}

// decodeOpenCodeLegacy reads ~/.opencode.json of the older Go opencode:
// mcpServers with type stdio|sse, command, args, env (a list of "K=V" or a
// map), url, headers.
func decodeOpenCodeLegacy(r *reader, f *file) {
	r.eachServer(f, f.root.get("mcpServers"), "mcpServers", func(name, key string, v *cfgValue) {
		if ev := v.get("env"); ev != nil && ev.kind == cfgArray {
			v = withEnvMap(v, ev)
		}
		if raw, ok := r.entry(f, dialectPlain, name, key, v); ok {
			r.finish(f, dialectPlain, raw)
		}
	})
}

// withEnvMap is v with its "env" list of "K=V" strings turned into a map
// (entries that are not "K=V" strings are kept as they are, to be reported).
func withEnvMap(v, list *cfgValue) *cfgValue {
	m := &cfgValue{kind: cfgObject, line: list.line}
	for _, it := range list.vals {
		k, val, ok := strings.Cut(it.str, "=")
		if it.kind != cfgString || !ok {
			return v
		}
		m.keys = append(m.keys, k)
		m.vals = append(m.vals, &cfgValue{kind: cfgString, str: val, line: it.line})
	}
	out := *v
	out.keys, out.vals = slices.Clone(v.keys), slices.Clone(v.vals)
	for i, k := range out.keys {
		if k == "env" {
			out.vals[i] = m
		}
	}
	return &out
}

// decodeZed reads context_servers of a Zed settings.json. Three shapes, as
// ContextServerSettingsContent in zed-industries/zed (settings_content):
// {"command": "prog", "args": [...], "env": {...}} (source "custom"), the
// older {"command": {"path": "prog", "args": [...], "env": {...}}}, and
// {"url": ..., "headers": {...}}; "enabled": false turns one off. Entries
// an extension provides ("source": "extension", only "settings") carry no
// command: they are skipped without a problem.
func decodeZed(r *reader, f *file) {
	r.eachServer(f, f.root.get("context_servers"), "context_servers", func(name, key string, v *cfgValue) {
		e := r.fields(f, v, key)
		raw := rawEntry{name: name, key: key, line: v.line}
		s := &raw.srv
		source := e.str("source")
		cmd := v.get("command")
		s.URL = e.str("url")
		if (cmd == nil || cmd.kind == cfgNull) && s.URL == "" && source != "custom" {
			return // provided by an extension
		}
		switch {
		case cmd == nil || cmd.kind == cfgNull:
		case cmd.kind == cfgString:
			s.Command, s.Args, s.Env = cmd.str, e.list("args"), e.dict("env")
		case cmd.kind == cfgObject:
			sub := r.fields(f, cmd, key+".command")
			s.Command, s.Args, s.Env = sub.str("path"), sub.list("args"), sub.dict("env")
			e.ok = e.ok && sub.ok
		default:
			e.bad("command", cmd, "a string or an object")
		}
		if s.URL != "" {
			raw.typ = config.TransportHTTP
			s.Headers = e.dict("headers")
		}
		if on, set := e.flag("enabled"); set && !on {
			s.Disabled, s.Why = true, "disabled in "+f.path
		}
		if e.ok {
			r.finish(f, &dialect{}, raw)
		}
	})
}

// decodeContinue reads Continue's config.yaml and its block files. YAML:
// mcpServers is a list of {name, type, command, args, env, cwd, url}
// (type stdio, sse or streamable-http; remote headers also under
// requestOptions.headers); a block file may also be one server. JSON block
// files are copied from other clients: {"mcpServers": {name: entry}} or one
// server, named after the file.
func decodeContinue(r *reader, f *file) {
	base := strings.TrimSuffix(filepath.Base(f.path), filepath.Ext(f.path))
	ms := f.root.get("mcpServers")
	switch {
	case ms != nil && ms.kind == cfgArray:
		for i, v := range ms.vals {
			r.continueEntry(f, v, fmt.Sprintf("mcpServers[%d]", i), "")
		}
	case ms != nil && ms.kind == cfgObject:
		r.serverMap(f, ms, "mcpServers", dialectPlain, nil)
	case ms != nil && ms.kind != cfgNull:
		r.problem(f, ms, "mcpServers", "must be a list or an object of servers, not %s", ms.kindName())
	case f.root.get("command") != nil || f.root.get("url") != nil:
		r.continueEntry(f, f.root, "", base)
	}
}

func (r *reader) continueEntry(f *file, v *cfgValue, key, defName string) {
	where := key
	if v.kind != cfgObject {
		r.problem(f, v, where, "must be an object, not %s", v.kindName())
		return
	}
	e := r.fields(f, v, key)
	name := e.str("name")
	if name == "" {
		name = defName
	}
	if key == "" {
		key = name
	}
	if name == "" {
		r.problem(f, v, where+".name", "a server needs a name")
		return
	}
	if v.get("command") == nil && v.get("url") == nil && v.get("uses") != nil {
		r.problem(f, v, where, "refers to a Continue Hub block (uses), which is not resolved here")
		return
	}
	raw, ok := r.entry(f, dialectPlain, name, key, v)
	if ro := v.get("requestOptions"); ro != nil && ro.kind == cfgObject && raw.srv.Headers == nil {
		sub := r.fields(f, ro, key+".requestOptions")
		raw.srv.Headers = sub.dict("headers")
		ok = ok && sub.ok
	}
	if ok && e.ok {
		r.finish(f, dialectPlain, raw)
	}
}

// decodeMCPDir reads one file of an MCP server directory:
// {"mcpServers": {name: entry}} or a bare object of name -> entry.
func decodeMCPDir(r *reader, f *file) {
	if m := f.root.get("mcpServers"); m != nil {
		r.serverMap(f, m, "mcpServers", dialectPlain, nil)
		return
	}
	m := f.root
	m.members(func(name string, v *cfgValue) {
		if raw, ok := r.entry(f, dialectPlain, name, name, v); ok {
			r.finish(f, dialectPlain, raw)
		}
	})
}
