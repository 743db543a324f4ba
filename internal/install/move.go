package install

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// Move is one server Install moved out of a client's file: enough for
// Uninstall to put it back as it was and to take it out of this program's
// config again.
type Move struct {
	Name      string    `json:"name"`
	Key       string    `json:"key"` // where it was: "mcpServers.github"
	Saved     saved     `json:"saved"`
	OwnConfig string    `json:"own_config"`
	OwnText   string    `json:"own_text"` // the lines written into OwnConfig
	Moved     time.Time `json:"moved"`
}

// planMoves decides which of the client's servers move, takes them out of
// cf's document and adds them to this program's config (in memory), and
// says why the others stay.
func planMoves(cf *clientFile, entries []rawEntry, opts Options, now time.Time, rep *Report) (*ownConfig, []Move, error) {
	f := cf.f
	own, err := readOwnConfig(opts.OwnConfig)
	if err != nil {
		return nil, nil, err
	}
	found, problems := discovery.ReadUserFile(f, cf.data, discovery.Options{Self: opts.Self})
	byName := map[string]discovery.UserServer{}
	for _, s := range found {
		byName[s.Name] = s
	}
	var moves []Move
	for i, e := range entries {
		if e.name == EntryName || selfEntry(e, opts.Self) {
			continue
		}
		key := f.Key + "." + e.name
		s, ok := byName[e.name]
		var left []string // keys only the client acts on
		for _, k := range e.keys {
			if keyRules[f.Client][k] == dropped {
				left = append(left, k)
			}
		}
		why := ""
		switch {
		case e.duplicate:
			why = "the name appears more than once"
		case e.inline:
			why = fmt.Sprintf("it is not a [%s] table of its own; move it by hand", key)
		case !e.object:
			why = "it is not an object"
		case strings.Contains(e.name, "."):
			why = "its name has a dot, which a server name in this program's config cannot have"
		}
		switch {
		case why != "":
		case !ok:
			why = "discovery finds no server in it"
			for _, p := range problems {
				if p.Key == key || strings.HasPrefix(p.Key, key+".") {
					why = "it cannot be used as it is: " + p.Err
					break
				}
			}
			if f.Client == "zed" && why == "discovery finds no server in it" {
				why = "it is provided by a Zed extension (no command or url of its own)"
			}
		case unknownKey(f.Client, e.keys) != "":
			k := unknownKey(f.Client, e.keys)
			if why = whyNot[k]; why == "" {
				why = fmt.Sprintf("it has %q, which this program's config has no equivalent for", k)
			}
		case len(s.Vars) > 0:
			why = fmt.Sprintf("it refers to %s, which %s reads each time it starts the server; this program's config does not expand variables, and copying today's values would freeze them into another file",
				plural("the variable", "the variables", s.Vars), f.Name)
		case len(s.EditorRefs) > 0:
			why = fmt.Sprintf("it uses %s, which only %s can resolve", strings.Join(s.EditorRefs, ", "), f.Name)
		case s.BearerTokenEnv != "" || len(s.EnvHeaders) > 0:
			why = "it reads its token from a variable each time, which this program's config cannot say"
		case hasDot(s.Env) || hasDot(s.Headers):
			why = "a name in its env or headers has a dot, which this program's config cannot hold"
		case own.has(e.name):
			why = fmt.Sprintf("this program's config (%s) already has a server named %q", own.path, e.name)
		}
		if why != "" {
			rep.add("=", "%s%s: left in place: %s", key, lineOf(e), why)
			continue
		}
		sv, err := cf.doc.remove(e.name)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		if i > 0 {
			sv.After = entries[i-1].name // as the file had them: it may have moved too, and comes back first
		}
		block := ownBlock(s.Server, f, key, now)
		own.add(e.name, block, s.Server)
		moves = append(moves, Move{Name: e.name, Key: key, Saved: sv, OwnConfig: own.path, OwnText: block, Moved: now})
		note := ""
		if len(left) > 0 {
			note = fmt.Sprintf(" (not carried over, as only %s acts on it: %s)", f.Name, strings.Join(left, ", "))
		}
		rep.add("-", "%s: moved to [servers.%s] of %s%s", key, e.name, own.path, note)
	}
	return own, moves, nil
}

// unknownKey is the first of keys that a moved entry may not have.
func unknownKey(client string, keys []string) string {
	for _, k := range keys {
		if keyRules[client][k] == 0 {
			return k
		}
	}
	return ""
}

func lineOf(e rawEntry) string {
	if e.line > 0 {
		return fmt.Sprintf(" (line %d)", e.line)
	}
	return ""
}

func plural(one, many string, list []string) string {
	if len(list) == 1 {
		return one + " " + list[0]
	}
	return many + " " + strings.Join(list, ", ")
}

func hasDot(m map[string]string) bool {
	for k := range m {
		if strings.Contains(k, ".") {
			return true
		}
	}
	return false
}

// ownBlock is the table of s in this program's config, with a comment
// saying where it came from.
func ownBlock(s config.Server, f discovery.UserFile, key string, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Moved from %s (%s) on %s by `mcp-code-mode install %s --move-servers`;\n", f.Path, key, now.Format(time.DateOnly), f.Client)
	fmt.Fprintf(&b, "# `mcp-code-mode uninstall %s` puts it back there.\n", f.Client)
	fmt.Fprintf(&b, "[servers.%s]\n", tomlKey(s.Name))
	line := func(k, v string) { fmt.Fprintf(&b, "%s = %s\n", k, v) }
	if s.Transport == config.TransportStdio {
		line("command", tomlString(s.Command))
		if len(s.Args) > 0 {
			line("args", tomlStrings(s.Args))
		}
		if len(s.Env) > 0 {
			line("env", tomlTable(s.Env))
		}
		if s.Cwd != "" {
			line("cwd", tomlString(s.Cwd))
		}
	} else {
		line("url", tomlString(s.URL))
		if s.Transport == config.TransportSSE {
			line("type", tomlString(s.Transport))
		}
		if len(s.Headers) > 0 {
			line("headers", tomlTable(s.Headers))
		}
	}
	if s.Description != "" {
		line("description", tomlString(s.Description))
	}
	if len(s.Allow) > 0 {
		line("allow", tomlStrings(s.Allow))
	}
	if len(s.Deny) > 0 {
		line("deny", tomlStrings(s.Deny))
	}
	if s.Disabled {
		line("disabled", "true")
	}
	return b.String()
}

// maxOwnBytes bounds this program's config, as config.Load does.
const maxOwnBytes = 4 << 20

// ownConfig is this program's config file being edited.
type ownConfig struct {
	path    string
	data    []byte
	mode    fs.FileMode
	exists  bool
	doc     *tomlDoc
	servers map[string]config.ServerConfig // as it was
	added   map[string]config.Server       // what each added table must mean
	removed []string
	changed bool
}

func readOwnConfig(path string) (*ownConfig, error) {
	if path == "" {
		return nil, errors.New("no config file of this program to move servers into")
	}
	if strings.ToLower(filepath.Ext(path)) != ".toml" {
		return nil, fmt.Errorf("%s: moved servers are written in TOML, and this config file is not (give a .toml file with --config)", path)
	}
	o := &ownConfig{path: path, mode: 0o600, added: map[string]config.Server{}}
	data, mode, err := safefile.ReadNoFollow(path, maxOwnBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case errors.Is(err, safefile.ErrSymlink):
		return nil, fmt.Errorf("%w: refusing to replace a link (edit the file it points to, or give it with --config)", err)
	case err != nil:
		return nil, err
	default:
		o.data, o.mode, o.exists = data, mode, true
	}
	if o.doc, err = parseTOMLDoc(string(o.data)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if o.exists {
		cfg, err := config.Load(path, nil)
		if err != nil {
			return nil, err
		}
		o.servers = cfg.Servers
	}
	return o, nil
}

func (o *ownConfig) has(name string) bool {
	_, ok := o.servers[name]
	_, added := o.added[name]
	return ok || added
}

func (o *ownConfig) add(name, block string, s config.Server) {
	o.doc.appendBlock(block)
	o.added[name] = s
	o.changed = true
}

// takeOut removes the table m wrote, unless it was changed since.
func (o *ownConfig) takeOut(m Move, rep *Report) {
	r, ok := o.doc.table([]string{"servers", m.Name})
	if !ok {
		rep.add("=", "[servers.%s] is no longer in %s", m.Name, o.path)
		return
	}
	text := strings.Join(o.doc.lines[r.start:r.end], "")
	if norm := func(s string) string { return strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n") }; norm(text) != norm(m.OwnText) {
		rep.add("=", "[servers.%s] of %s was changed since it was moved; left there", m.Name, o.path)
		return
	}
	o.doc.removeRegion(r)
	o.removed = append(o.removed, m.Name)
	o.changed = true
	rep.add("-", "[servers.%s] of %s", m.Name, o.path)
}

// verify loads data as this program loads its config and checks that it
// holds what it held, less the servers taken out, plus the servers added,
// each meaning exactly what the client's entry meant.
func (o *ownConfig) verify(data []byte) error {
	dir, err := os.MkdirTemp("", "mcp-code-mode-install-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: the new config would not hold exactly what it should (%s); nothing was written", o.path, fmt.Sprintf(format, args...))
	}
	cfg, err := config.Load(tmp, nil)
	if err != nil {
		return fail("%v", err)
	}
	list, err := cfg.Merge(o.path, nil)
	if err != nil {
		return fail("%v", err)
	}
	rest := maps.Clone(cfg.Servers)
	for name, want := range o.added {
		i := slices.IndexFunc(list, func(s config.Server) bool { return s.Name == name })
		if i < 0 {
			return fail("no server %q", name)
		}
		if got, w := meaning(list[i]), meaning(want); !jsonEqual(got, w) {
			return fail("server %q would not mean what it meant", name)
		}
		delete(rest, name)
	}
	was := maps.Clone(o.servers)
	for _, name := range o.removed {
		if _, ok := cfg.Servers[name]; ok {
			return fail("server %q is still there", name)
		}
		delete(was, name)
	}
	if !jsonEqual(rest, was) && !(len(rest) == 0 && len(was) == 0) {
		return fail("other servers would change")
	}
	return nil
}

// meaning is what decides what a server is and does.
func meaning(s config.Server) map[string]any {
	m := map[string]any{
		"transport": s.Transport, "command": s.Command, "args": s.Args, "env": s.Env, "cwd": s.Cwd,
		"url": s.URL, "headers": s.Headers, "allow": s.Allow, "deny": s.Deny, "read_only": s.ReadOnly,
		"disabled": s.Disabled, "description": s.Description,
	}
	for k, v := range m {
		switch x := v.(type) {
		case []string:
			if len(x) == 0 {
				delete(m, k)
			}
		case map[string]string:
			if len(x) == 0 {
				delete(m, k)
			}
		}
	}
	return m
}
