// Package install switches an MCP client over to mcp-code-mode: it adds
// one "code-mode" entry, which starts this program, to the client's
// user-level config file, and with MoveServers moves the client's other
// servers into this program's own config file, from where code-mode serves
// them. Uninstall undoes both.
//
//	rep, err := install.Install(install.Options{Client: "cursor", Exe: exe, OwnConfig: cfg, StateDir: state})
//	rep.Print(os.Stdout)
//
// The client's file is the one discovery reads (discovery.FindUserFile).
// It is edited in place: JSON and JSON with comments through its syntax
// tree (github.com/tailscale/hujson), Codex's TOML as regions of lines, so
// that other settings, their order and comments stay as they were. Before a
// file is changed a copy is kept next to it (NAME.bak-20261201T132000Z, with
// the file's mode), and the new contents replace it at once (a temporary
// file renamed over it), after being parsed again and checked to hold the
// original with exactly the intended changes. A file that does not parse,
// a symbolic link, or anything but a regular file is refused untouched.
// Running Install twice changes nothing the second time.
//
// A server is moved only when this program's config can say exactly what
// the client's entry says, now and later: an entry whose values refer to
// variables (which the client reads each time it starts the server, and
// this program's config does not expand), to an editor's inputs or
// workspace, or that has keys this program has no equivalent for, stays
// in the client's file, and the report says why. What was moved is
// recorded in the state directory, so that Uninstall puts back exactly
// those entries, as they were written, and takes them out of this
// program's config again.
package install

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// Options say which client to switch over and where things are.
type Options struct {
	Client      string    // client ID: claude-desktop, claude-code, cursor, vscode, windsurf, gemini, codex, zed
	Exe         string    // absolute path of this program: what the entry starts
	OwnConfig   string    // this program's config file (TOML), where moved servers go
	StateDir    string    // where the record of moved servers is kept (config.StateDir)
	MoveServers bool      // also move the client's other servers into OwnConfig
	DryRun      bool      // say what would change; write nothing
	Now         time.Time // the time of backups and records; zero: now
	// Self are the names and paths of this program, as
	// discovery.Options.Self: entries that start it are never moved.
	Self []string
}

func (o Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now().UTC()
	}
	return o.Now.UTC()
}

// maxFileBytes bounds a client's file: ~/.claude.json also holds history
// and grows large.
const maxFileBytes = 64 << 20

// Report is what Install or Uninstall did, or with DryRun would do.
type Report struct {
	Client  string   // the client's name
	File    string   // its file
	DryRun  bool     // nothing was written
	Changes []Change // in the order they were decided
	Backups []string // copies kept (or, in a dry run, to be kept) before changing a file
	Written []string // files written (or to be written)
	Record  string   // the record of moved servers, when one was written
}

// Change is one line of a Report.
type Change struct {
	Mark string // "+" added, "-" removed, "~" changed, "=" left as it is
	What string
}

func (r *Report) add(mark, format string, args ...any) {
	r.Changes = append(r.Changes, Change{mark, fmt.Sprintf(format, args...)})
}

// Print writes the report as a diff-like summary.
func (r *Report) Print(w io.Writer) {
	head := fmt.Sprintf("%s: %s", r.Client, r.File)
	if r.DryRun {
		head += " (dry run: nothing is written)"
	}
	fmt.Fprintln(w, head)
	for _, c := range r.Changes {
		fmt.Fprintf(w, "  %s %s\n", c.Mark, c.What)
	}
	verb := "backup"
	if r.DryRun {
		verb = "backup to be made"
	}
	for _, b := range r.Backups {
		fmt.Fprintf(w, "  %s: %s\n", verb, b)
	}
	if r.Record != "" {
		fmt.Fprintf(w, "  record of moved servers: %s\n", r.Record)
	}
	if len(r.Written) == 0 {
		fmt.Fprintln(w, "  nothing to change")
	}
}

// clientFile is a client's file as read: its contents and mode, and the
// document to edit.
type clientFile struct {
	f      discovery.UserFile
	data   []byte // nil when the file does not exist
	mode   fs.FileMode
	exists bool
	doc    document
}

// document is a client file being edited.
type document interface {
	entries() ([]rawEntry, error)
	// setSelf makes the entry EntryName start exe serve, keeping an
	// existing entry's other keys; it reports whether anything changed.
	setSelf(want orderedJSON, exists bool) (bool, error)
	remove(name string) (saved, error)
	restore(name string, s saved) error
	// entry decodes the entry name of the document as it is now.
	entry(name string) (any, bool, error)
	value() (map[string]any, error)
	bytes() []byte
}

// rawEntry is an entry of the map of servers, as written.
type rawEntry struct {
	name      string
	line      int
	object    bool     // the entry is an object (a table)
	keys      []string // its keys
	command   string
	args      []string
	duplicate bool // the name appears more than once
	inline    bool // TOML: not a [KEY.NAME] table of its own
}

// saved is an entry as it was in the client's file: enough to put it back.
type saved struct {
	Entry string `json:"entry"`           // the entry's value (JSON) or table (TOML), as written
	Lead  string `json:"lead,omitempty"`  // the comment lines that were above it (JSON)
	Trail string `json:"trail,omitempty"` // a comment after it on its line (JSON)
	After string `json:"after,omitempty"` // the entry before it ("" when it was first; JSON)
}

// readClient reads and parses the client's file. A missing file is an
// empty one.
func readClient(f discovery.UserFile, opts Options) (*clientFile, error) {
	cf := &clientFile{f: f, mode: 0o600}
	data, mode, err := safefile.ReadNoFollow(f.Path, maxFileBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case errors.Is(err, safefile.ErrSymlink):
		return nil, fmt.Errorf("%w: refusing to replace a link (edit the file it points to, or replace the link with a copy)", err)
	case errors.Is(err, safefile.ErrNotRegular):
		return nil, fmt.Errorf("%w: refusing to replace it", err)
	case err != nil:
		return nil, err
	default:
		cf.data, cf.mode, cf.exists = data, mode, true
	}
	if cf.exists {
		// Discovery's parser checks syntax and nesting and says where it
		// fails.
		_, problems := discovery.ReadUserFile(f, data, discovery.Options{Self: opts.Self})
		for _, p := range problems {
			if p.Key == "" {
				return nil, fmt.Errorf("%s (the file was not changed)", p)
			}
		}
	}
	switch f.Format {
	case discovery.FormatTOML:
		t, err := parseTOMLDoc(string(cf.data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		cf.doc = &tomlClient{t: t, key: f.Key}
	default:
		j, err := parseJSONDoc(cf.data, f.Format == discovery.FormatJSON, f.Key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		cf.doc = &jsonClient{j}
	}
	return cf, nil
}

// Install adds the code-mode entry to the client's file and, with
// MoveServers, moves the client's other servers into OwnConfig.
func Install(opts Options) (*Report, error) {
	now := opts.now()
	f, err := discovery.FindUserFile(opts.Client, discovery.Options{Self: opts.Self})
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(opts.Exe) {
		return nil, fmt.Errorf("the path of this program must be absolute, not %q", opts.Exe)
	}
	cf, err := readClient(f, opts)
	if err != nil {
		return nil, err
	}
	rep := &Report{Client: f.Name, File: f.Path, DryRun: opts.DryRun}
	before, err := cf.doc.value()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	entries, err := cf.doc.entries()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	var existing *rawEntry
	for i, e := range entries {
		if e.name != EntryName {
			if selfEntry(e, opts.Self) {
				rep.add("=", "%s.%s%s also starts mcp-code-mode; left as it is", f.Key, e.name, lineOf(e))
			}
			continue
		}
		if e.duplicate || e.inline {
			return nil, fmt.Errorf("%s%s: %s.%s is written in a way this command does not edit (twice, or inline): fix it by hand first", f.Path, lineOf(e), f.Key, e.name)
		}
		if !selfEntry(e, opts.Self) {
			return nil, fmt.Errorf("%s%s: %s already has a server named %q that does not start mcp-code-mode: rename or remove it first", f.Path, lineOf(e), f.Name, EntryName)
		}
		existing = &entries[i]
	}
	want := entryFor(f.Client, opts.Exe)
	changed, err := cf.doc.setSelf(want, existing != nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	switch {
	case changed && existing != nil:
		rep.add("~", "%s.%s: now starts %s serve", f.Key, EntryName, opts.Exe)
	case changed:
		rep.add("+", "%s.%s: %s serve", f.Key, EntryName, opts.Exe)
	default:
		rep.add("=", "%s.%s: already starts %s serve", f.Key, EntryName, opts.Exe)
	}

	var own *ownConfig
	var moves []Move
	if opts.MoveServers {
		own, moves, err = planMoves(cf, entries, opts, now, rep)
		if err != nil {
			return nil, err
		}
	}
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = m.Name
	}
	if err := cf.check(before, edit{self: want, exists: existing != nil, gone: names}); err != nil {
		return nil, err
	}
	if !changed && len(moves) == 0 {
		return rep, nil
	}
	w := writer{rep: rep, dry: opts.DryRun, now: now}
	if len(moves) > 0 {
		rec, err := readRecord(opts.StateDir, f.Client)
		if err != nil {
			return nil, err
		}
		if err := rec.belongsTo(f); err != nil {
			return nil, err
		}
		rec.Client, rec.File = f.Client, f.Path
		rec.Moves = append(rec.Moves, moves...)
		if err := w.record(opts.StateDir, rec); err != nil {
			return nil, err
		}
		if err := w.file(own.path, own.data, own.exists, own.mode, []byte(own.doc.text()), own.verify); err != nil {
			return nil, err
		}
	}
	if err := w.file(f.Path, cf.data, cf.exists, cf.mode, cf.doc.bytes(), nil); err != nil {
		return nil, err
	}
	return rep, nil
}

// Uninstall removes the code-mode entry from the client's file and puts
// back the servers Install moved out of it, taking them out of this
// program's config (unless they were changed there since).
func Uninstall(opts Options) (*Report, error) {
	now := opts.now()
	f, err := discovery.FindUserFile(opts.Client, discovery.Options{Self: opts.Self})
	if err != nil {
		return nil, err
	}
	cf, err := readClient(f, opts)
	if err != nil {
		return nil, err
	}
	rec, err := readRecord(opts.StateDir, f.Client)
	if err != nil {
		return nil, err
	}
	if err := rec.belongsTo(f); err != nil {
		return nil, err
	}
	rep := &Report{Client: f.Name, File: f.Path, DryRun: opts.DryRun}
	if !cf.exists && len(rec.Moves) == 0 {
		rep.add("=", "the file does not exist: nothing to undo")
		return rep, nil
	}
	before, err := cf.doc.value()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	entries, err := cf.doc.entries()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	present := map[string]rawEntry{}
	for _, e := range entries {
		present[e.name] = e
	}
	removed := false
	if e, ok := present[EntryName]; !ok {
		rep.add("=", "%s.%s: not there", f.Key, EntryName)
	} else if e.duplicate || e.inline || !selfEntry(e, opts.Self) {
		rep.add("=", "%s.%s%s: does not start mcp-code-mode, or is written in a way this command does not edit; left as it is", f.Key, EntryName, lineOf(e))
	} else {
		if _, err := cf.doc.remove(EntryName); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		removed = true
		rep.add("-", "%s.%s", f.Key, EntryName)
	}

	var restored []string
	var kept []Move
	owns := map[string]*ownConfig{}
	for _, m := range rec.Moves {
		if e, ok := present[m.Name]; ok {
			same, err := sameEntry(cf.doc, m)
			if err != nil || !same || e.duplicate {
				rep.add("=", "%s.%s: the file has another server of this name now; the one moved on %s stays in this program's config (%s) and in the record", f.Key, m.Name, m.Moved.Format(time.DateOnly), m.OwnConfig)
				kept = append(kept, m)
				continue
			}
			rep.add("=", "%s.%s: already back", f.Key, m.Name)
		} else {
			if err := cf.doc.restore(m.Name, m.Saved); err != nil {
				return nil, fmt.Errorf("%s: put back %q: %w", f.Path, m.Name, err)
			}
			restored = append(restored, m.Name)
			rep.add("+", "%s.%s: put back (moved on %s)", f.Key, m.Name, m.Moved.Format(time.DateOnly))
		}
		own := owns[m.OwnConfig]
		if own == nil {
			own, err = readOwnConfig(m.OwnConfig)
			if err != nil {
				return nil, err
			}
			owns[m.OwnConfig] = own
		}
		own.takeOut(m, rep)
	}
	back := map[string]saved{}
	for _, m := range rec.Moves {
		if slices.Contains(restored, m.Name) {
			back[m.Name] = m.Saved
		}
	}
	if err := cf.check(before, edit{unself: removed, back: back}); err != nil {
		return nil, err
	}
	w := writer{rep: rep, dry: opts.DryRun, now: now}
	if removed || len(restored) > 0 {
		if err := w.file(f.Path, cf.data, cf.exists, cf.mode, cf.doc.bytes(), nil); err != nil {
			return nil, err
		}
	}
	for _, p := range slices.Sorted(maps.Keys(owns)) {
		own := owns[p]
		if !own.changed {
			continue
		}
		if err := w.file(own.path, own.data, own.exists, own.mode, []byte(own.doc.text()), own.verify); err != nil {
			return nil, err
		}
	}
	if len(rec.Moves) > 0 {
		rec.Moves = kept
		if err := w.record(opts.StateDir, rec); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// sameEntry reports whether the entry m.Name of doc is the one m saved.
func sameEntry(doc document, m Move) (bool, error) {
	have, ok, err := doc.entry(m.Name)
	if err != nil || !ok {
		return false, err
	}
	want, err := savedValue(doc, m)
	if err != nil {
		return false, err
	}
	return jsonEqual(have, want), nil
}

// savedValue decodes a saved entry as doc would hold it.
func savedValue(doc document, m Move) (any, error) {
	switch d := doc.(type) {
	case *tomlClient:
		t, err := parseTOMLDoc(m.Saved.Entry)
		if err != nil {
			return nil, err
		}
		v, err := t.value()
		if err != nil {
			return nil, err
		}
		return dig(v, d.key)[m.Name], nil
	}
	j, err := parseJSONDoc([]byte(m.Saved.Entry), false, "")
	if err != nil {
		return nil, err
	}
	var out any
	err = decode(j.root, &out)
	return out, err
}

// dig returns the table at path of v, or nil.
func dig(v map[string]any, path ...string) map[string]any {
	for _, p := range path {
		next, _ := v[p].(map[string]any)
		if next == nil {
			return nil
		}
		v = next
	}
	return v
}
