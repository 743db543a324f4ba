package discovery

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// Format is how a client config file is written.
type Format string

// The formats of the user-level files.
const (
	FormatJSON  Format = "json"  // strict JSON, as JSON.parse reads it
	FormatJSONC Format = "jsonc" // JSON with comments and trailing commas
	FormatTOML  Format = "toml"
)

// UserFile is the user-level config file of one MCP client: the file
// that holds the servers the client starts in every project, and the
// one `mcp-code-mode install` edits.
type UserFile struct {
	Client string // client ID: "cursor", "vscode", ...
	Name   string // the client's name, for messages: "Cursor"
	Path   string
	Format Format
	Key    string // the top-level key of its map of servers: "mcpServers", "servers", "context_servers", "mcp_servers"
}

type userClient struct {
	id, name, key string
	syntax        expandSyntax
}

// userClients are the clients with a user-level file of servers, in the
// order of the client table, with the syntax of their variable
// references.
var userClients = []userClient{
	{"claude-desktop", "Claude Desktop", "mcpServers", dialectClaudeDesktop.syntax},
	{"claude-code", "Claude Code", "mcpServers", dialectClaudeCode.syntax},
	{"cursor", "Cursor", "mcpServers", dialectCursor.syntax},
	{"vscode", "VS Code", "servers", dialectVSCode.syntax},
	{"gemini", "Gemini CLI", "mcpServers", dialectGemini.syntax},
	{"codex", "Codex", "mcp_servers", syntaxNone},
	{"zed", "Zed", "context_servers", syntaxNone},
	{"windsurf", "Windsurf", "mcpServers", dialectWindsurf.syntax},
}

// UserClients returns the IDs of the clients that have a user-level file
// of servers.
func UserClients() []string {
	ids := make([]string, len(userClients))
	for i, c := range userClients {
		ids[i] = c.id
	}
	return ids
}

// FindUserFile returns the user-level file of client id: the same path
// Discover reads (the file need not exist).
func FindUserFile(id string, opts Options) (UserFile, error) {
	i := slices.IndexFunc(userClients, func(c userClient) bool { return c.id == id })
	if i < 0 {
		return UserFile{}, fmt.Errorf("unknown client %q (want one of %s)", id, strings.Join(UserClients(), ", "))
	}
	e := resolve(opts)
	f := UserFile{Client: id, Name: userClients[i].name, Key: userClients[i].key, Path: e.userFile(id)}
	if f.Path == "" {
		return f, fmt.Errorf("%s: no home directory to find its config file in", f.Name)
	}
	st, ok := userStep(&e, id, f.Path)
	if !ok {
		return f, fmt.Errorf("%s: %s is not among the files discovery reads", f.Name, f.Path)
	}
	switch st[0].format {
	case formatJSON:
		f.Format = FormatJSON
	case formatTOML:
		f.Format = FormatTOML
	default:
		f.Format = FormatJSONC
	}
	return f, nil
}

// userStep returns the steps of client id's table entry that read path
// (~/.claude.json is read twice: its local scope and its user scope).
func userStep(e *env, id, path string) ([]fileStep, bool) {
	var steps []fileStep
	for _, c := range clientTable {
		if c.id != id {
			continue
		}
		for _, st := range c.files(e) {
			if st.path == path {
				steps = append(steps, st)
			}
		}
	}
	return steps, len(steps) > 0
}

// UserServer is one server of a user-level file, as Discover reads it but
// with its variable references left unresolved.
type UserServer struct {
	config.Server
	// Vars are the environment variables the entry refers to, which the
	// client reads each time it starts the server. In the Server's fields
	// each reference stands as VarMarker(name).
	Vars []string
	// EditorRefs are references only the editor can resolve, as written:
	// ${input:ID}, ${command:ID}, ${workspaceFolder} and the like.
	EditorRefs []string
}

// VarMarker is what a reference to the variable name reads as in the
// fields of a UserServer: a string no config file holds.
func VarMarker(name string) string { return "\x00" + name + "\x00" }

var (
	markerRef     = regexp.MustCompile("\x00([^\x00]*)\x00")
	leftEditorRef = regexp.MustCompile(`\$\{[^}]+\}`)
)

// workspaceMarker stands for the project directory, which a user-level
// entry gets from the editor's open workspace.
var workspaceMarker = VarMarker("${workspaceFolder}")

// ReadUserFile reads the servers of f from data, its contents, exactly as
// Discover reads that file (the same fields, dialect and flags, and the
// same Problems), except that no variable is resolved: each reference is
// reported in the server's Vars or EditorRefs. Editor variables that
// stand for the same thing in every project (${userHome},
// ${pathSeparator}) are resolved. Entries that launch mcp-code-mode itself
// are left out, as Discover leaves them out.
func ReadUserFile(f UserFile, data []byte, opts Options) ([]UserServer, []Problem) {
	e := resolve(opts)
	steps, ok := userStep(&e, f.Client, f.Path)
	if !ok {
		return nil, []Problem{{Client: f.Client, Path: f.Path, Err: "not among the files discovery reads"}}
	}
	e.lookup = func(name string) (string, bool) { return VarMarker(name), true }
	e.cwd = workspaceMarker
	r := &reader{env: e, parsed: map[string]*file{}}
	format := steps[0].format
	root, err := parseConfig(data, format)
	if err != nil {
		p := Problem{Client: f.Client, Path: f.Path, Err: err.Error()}
		var pe *parseError
		if errors.As(err, &pe) {
			p.Line = pe.line
		}
		return nil, []Problem{p}
	}
	if root.kind != cfgObject {
		return nil, []Problem{{Client: f.Client, Path: f.Path, Line: root.line, Err: "the top level must be an object, not " + root.kindName()}}
	}
	parsed := &file{client: f.Client, path: f.Path, root: root}
	for _, st := range steps {
		st.decode(r, parsed)
	}
	editor := false
	for _, c := range userClients {
		if c.id == f.Client {
			editor = c.syntax == syntaxEditor
		}
	}
	out := make([]UserServer, 0, len(r.servers))
	for _, s := range r.servers {
		u := UserServer{Server: s}
		for _, v := range fieldsOf(s) {
			for _, m := range markerRef.FindAllStringSubmatch(v, -1) {
				if strings.HasPrefix(m[1], "${") {
					u.EditorRefs = appendNew(u.EditorRefs, m[1])
				} else {
					u.Vars = appendNew(u.Vars, m[1])
				}
			}
			if editor {
				for _, m := range leftEditorRef.FindAllString(markerRef.ReplaceAllString(v, ""), -1) {
					u.EditorRefs = appendNew(u.EditorRefs, m)
				}
			}
		}
		out = append(out, u)
	}
	return out, r.problems
}

// fieldsOf is every string of s that a client may expand.
func fieldsOf(s config.Server) []string {
	out := []string{s.Command, s.Cwd, s.URL}
	out = append(out, s.Args...)
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for _, k := range sortedKeys(m) {
			out = append(out, m[k])
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// LaunchesSelf reports whether a stdio entry that starts command with args
// would start mcp-code-mode itself, as Discover decides it: command is one
// of self (paths or base names; "mcp-code-mode" always counts), or a
// launcher such as npx or uvx names a package of that name.
func LaunchesSelf(command string, args []string, self []string) bool {
	return launchesSelf(command, args, self)
}
