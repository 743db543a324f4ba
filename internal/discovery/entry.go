package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

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

// rawEntry is an entry as written, before expansion.
type rawEntry struct {
	name, key string
	line      int
	typ       string // declared transport, "" = inferred
	srv       config.Server
	envFile   string
	v         *cfgValue // the entry as written
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
	raw := rawEntry{name: name, key: key, line: v.line, v: v}
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

	s.Name, s.Transport, s.Client = raw.name, tr, f.client
	// A cloned repository chooses its keys and file names: each is quoted
	// when it holds a terminal escape or other unprintable rune, so that
	// where an entry came from can be shown as it is.
	s.Source = printable.Quote(f.path) + "#" + printable.Quote(raw.key)
	if tr == config.TransportStdio {
		s.URL, s.Headers, s.BearerTokenEnv, s.EnvHeaders = "", nil, "", nil
	} else {
		s.Command, s.Args, s.Env, s.Cwd = "", nil, nil, ""
	}
	var env projectEnvFile
	if f.project {
		if raw.envFile != "" {
			env = r.readProjectEnvFile(d, raw.envFile)
			s.EnvFile = raw.envFile
		}
		s.Project, s.EntryHash = r.cwd, entryHash(raw, env)
		s.Untrusted = !(f.client == "claude-code" && r.claudeApproved(raw.name)) &&
			(r.approved == nil || !r.approved(r.cwd, s.Source, s.EntryHash))
	}
	// An entry of this program itself (the one a user adds to switch a
	// client over) is expected: it is left out without a problem.
	if tr == config.TransportStdio && launchesSelf(s.Command, s.Args, r.self) {
		return
	}
	if !s.Untrusted {
		// Only an approved entry is expanded: expansion reads the host's
		// variables and files, which an unapproved entry must not reach.
		x := r.expander(d)
		if tr == config.TransportStdio {
			s.Command, s.Args, s.Env, s.Cwd = x.expand(s.Command), x.list(s.Args), x.dict(s.Env), x.expand(s.Cwd)
			switch {
			case raw.envFile == "":
			case f.project:
				// The bytes read and hashed before approval, not a second read.
				s.Env = r.mergeEnvFile(f, raw, env.path, env.data, env.err, s.Env)
			default:
				path := r.resolveEnvFile(x.expand(raw.envFile))
				data, err := safefile.Read(path, maxEnvFile)
				s.Env = r.mergeEnvFile(f, raw, path, data, err, s.Env)
			}
		} else {
			s.URL, s.Headers = x.expand(s.URL), x.dict(s.Headers)
		}
		s.Blocked = x.blocked
		if x.blocked != "" && !s.Disabled {
			s.Disabled, s.Why = true, x.blocked
		}
		if len(x.unset) > 0 {
			s.UnsetVars = slices.Sorted(slices.Values(x.unset))
		}
		// A command or URL made only of variables that are not set is
		// nothing to start or reach.
		if tr == config.TransportStdio && strings.TrimSpace(s.Command) == "" {
			r.problem(f, at, raw.key+".command", "is empty once its variables are expanded (not set: %s)", strings.Join(s.UnsetVars, ", "))
			return
		}
		if tr != config.TransportStdio && strings.TrimSpace(s.URL) == "" {
			r.problem(f, at, raw.key+".url", "is empty once its variables are expanded (not set: %s)", strings.Join(s.UnsetVars, ", "))
			return
		}
		if tr == config.TransportStdio && launchesSelf(s.Command, s.Args, r.self) {
			return
		}
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

// maxEnvFile bounds an envFile.
const maxEnvFile = 1 << 20

// resolveEnvFile takes a relative envFile path from the project directory.
func (r *reader) resolveEnvFile(path string) string {
	if !filepath.IsAbs(path) && r.cwd != "" {
		path = filepath.Join(r.cwd, path)
	}
	return path
}

// projectEnvFile is a project entry's envFile, read once before approval:
// its contents are part of the entry's hash, and an approved entry gets the
// variables of exactly the bytes that were hashed.
type projectEnvFile struct {
	path string
	data []byte
	err  error
}

// readProjectEnvFile reads a project entry's envFile. Its path may name the
// editor's own variables (${workspaceFolder}, ${userHome}) but no variable
// of the host's environment: an unapproved entry must not reach those.
func (r *reader) readProjectEnvFile(d *dialect, written string) projectEnvFile {
	x := r.expander(d)
	x.lookup = func(string) (string, bool) { return "", false }
	path := x.expand(written)
	if len(x.unset) > 0 || x.blocked != "" {
		return projectEnvFile{path: written, err: fmt.Errorf("a project server's envFile may name only ${workspaceFolder} and ${userHome}, not other variables")}
	}
	path = r.resolveEnvFile(path)
	data, err := safefile.Read(path, maxEnvFile)
	return projectEnvFile{path: path, data: data, err: err}
}

// mergeEnvFile merges the KEY=VALUE lines of an envFile (data, or the error
// reading path) under env (env wins).
func (r *reader) mergeEnvFile(f *file, raw rawEntry, path string, data []byte, err error, env map[string]string) map[string]string {
	at := &cfgValue{line: raw.line}
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

// entryHash identifies an entry as written: its name and every field and
// value in file order, before expansion, and the contents of its envFile
// (or that it could not be read), which the repository may change as well.
func entryHash(raw rawEntry, env projectEnvFile) string {
	h := sha256.New()
	if raw.envFile != "" {
		if env.err != nil {
			fmt.Fprintf(h, "envFile unreadable;")
		} else {
			fmt.Fprintf(h, "envFile %d:%s;", len(env.data), env.data)
		}
	}
	fmt.Fprintf(h, "%d:%s;", len(raw.name), raw.name)
	var walk func(v *cfgValue)
	walk = func(v *cfgValue) {
		if v == nil {
			h.Write([]byte{0})
			return
		}
		fmt.Fprintf(h, "%d.%d:%s;%d[", v.kind, len(v.str), v.str, len(v.vals))
		for i, it := range v.vals {
			if v.kind == cfgObject {
				fmt.Fprintf(h, "%d:%s;", len(v.keys[i]), v.keys[i])
			}
			walk(it)
		}
		h.Write([]byte{']'})
	}
	walk(raw.v)
	return hex.EncodeToString(h.Sum(nil))
}
