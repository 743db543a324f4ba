package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcp-code-mode/mcp-code-mode/internal/aggregator"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/mcp-code-mode/mcp-code-mode/internal/state"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The commands on what programs keep between runs: memory (ls, get, set,
// rm) and saved-tools (ls, show, rm), in one namespace of the state store.

// stateCommand is a subcommand's flags, parsed, and its namespace.
type stateCommand struct {
	c         *common
	asJSON    *bool
	namespace *string
	// maxNamespaceBytes is the config's state.max_namespace_bytes (once
	// open has loaded it).
	maxNamespaceBytes int64
}

// newStateCommand adds the flags of the state commands to fs (the
// persistent flags of memory or saved-tools, so they go before or after
// the subcommand): the common ones, --json and --namespace.
func newStateCommand(fs *pflag.FlagSet) *stateCommand {
	c := newCommonOn(fs)
	return &stateCommand{
		c:         c,
		asJSON:    c.fs.Bool("json", false, "print JSON"),
		namespace: c.fs.String("namespace", "", "the namespace to work in (default: state.namespace of the config, else this OS user's, user:NAME; a client of serve --http has http: and the first 32 hex digits of its token's SHA-256)"),
	}
}

// stateGroup is "memory" or "saved-tools": a command whose subcommands
// (name, arguments, what it does) each run sub with the parsed flags.
func stateGroup(s streams, use, short string, subs []stateSub, run func(ctx context.Context, sc *stateCommand, sub string, args []string, metadata string, s streams) error) *cobra.Command {
	parent := &cobra.Command{
		Use:   use + " COMMAND",
		Short: short,
		Args:  usageArgs(cobra.NoArgs),
		// Without a subcommand: its help, and a usage error.
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SetOut(s.stderr)
			_ = cmd.Help()
			return exitError{2}
		},
	}
	sc := newStateCommand(parent.PersistentFlags())
	for _, sub := range subs {
		cmd := &cobra.Command{Use: sub.use, Short: sub.short, Args: usageArgs(cobra.ExactArgs(sub.args))}
		var metadata string
		name, _, _ := strings.Cut(sub.use, " ")
		if name == "set" {
			cmd.Flags().StringVar(&metadata, "metadata", "", "a JSON object kept with the value, replacing the memory's metadata (default: it keeps what it had)")
		}
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			return run(cmd.Context(), sc, name, args, metadata, s)
		}
		parent.AddCommand(cmd)
	}
	return parent
}

// stateSub is one subcommand of a stateGroup.
type stateSub struct {
	use, short string
	args       int
}

func memoryCmd(s streams) *cobra.Command {
	return stateGroup(s, "memory", "What programs saved with save_memory: ls, get, set, rm", []stateSub{
		{"ls", "The memories of the namespace: key, size, version, last update", 0},
		{"get KEY", "The value of KEY (--json: the memory with its metadata and times)", 1},
		{"set KEY JSON", "Save the JSON value (- reads it from stdin) under KEY", 2},
		{"rm KEY", "Delete the memory of KEY", 1},
	}, memorySub)
}

func savedToolsCmd(s streams) *cobra.Command {
	return stateGroup(s, "saved-tools", "The tools programs saved with save_tool: ls, show, rm", []stateSub{
		{"ls", "The saved tools: name, signature, description", 0},
		{"show NAME", "The source of a saved tool, with any escape or carriage return written as its escape (--json: as saved, with its description and times)", 1},
		{"rm NAME", "Delete a saved tool", 1},
	}, savedToolsSub)
}

// open opens the store, creating the database only when create is set
// (else the store is nil when there is none yet); it returns the
// namespace.
func (sc *stateCommand) open(ctx context.Context, create bool) (*state.Store, string, error) {
	cfg, _, err := sc.c.load()
	if err != nil {
		return nil, "", err
	}
	sc.maxNamespaceBytes = cfg.State.MaxNamespaceBytes
	ns := *sc.namespace
	if ns == "" {
		ns = cfg.State.Namespace
	}
	if ns == "" {
		ns = aggregator.LocalNamespace()
	}
	if err := state.CheckNamespace(ns); err != nil {
		return nil, "", fmt.Errorf("--namespace: %w", err)
	}
	st, err := aggregator.OpenState(ctx, cfg.State, create)
	if err != nil {
		return nil, "", err
	}
	return st, ns, nil
}

// memorySub runs memory SUB.
func memorySub(ctx context.Context, sc *stateCommand, sub string, rest []string, metadata string, s streams) error {
	stdin, stdout := s.stdin, s.stdout
	switch sub {
	case "ls":
		st, ns, err := sc.open(ctx, false)
		if err != nil {
			return err
		}
		var list []state.MemoryInfo
		if st != nil {
			defer st.Close()
			if list, err = st.ListMemories(ctx, ns); err != nil {
				return err
			}
		}
		out := make([]aggregator.MemoryInfo, 0, len(list))
		for _, m := range list {
			out = append(out, aggregator.NewMemoryInfo(m))
		}
		if *sc.asJSON {
			return writeJSON(stdout, out)
		}
		if len(out) == 0 {
			fmt.Fprintf(stdout, "No memories in namespace %s.\n", ns)
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tSIZE\tVERSION\tUPDATED")
		for _, m := range out {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", m.Key, m.Size, m.Version, m.UpdatedAt)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		// What the namespace holds against its limit, and where.
		u, err := st.Usage(ctx, ns)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nNamespace %s: %s and %s, %d bytes of %d (state.max_namespace_bytes), in %s.\n",
			ns, memories(u.Memories), plural(u.Tools, "saved tool"), u.Bytes, sc.maxNamespaceBytes, st.Path())
		return nil
	case "get":
		m, err := lookUp(ctx, sc, "memory", rest[0], (*state.Store).LoadMemory)
		if err != nil {
			return err
		}
		if *sc.asJSON {
			info := aggregator.NewMemoryInfo(state.MemoryInfo{Key: m.Key, Size: len(m.Value), Metadata: m.Metadata, Version: m.Version, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt})
			return writeJSON(stdout, struct {
				aggregator.MemoryInfo
				Value json.RawMessage `json:"value"`
			}{info, m.Value})
		}
		return writeReadableJSON(stdout, m.Value)
	case "set":
		st, ns, err := sc.open(ctx, true)
		if err != nil {
			return err
		}
		defer st.Close()
		value := []byte(rest[1])
		if rest[1] == "-" {
			// A value may be 252 KiB at most (the config refuses more).
			if value, err = io.ReadAll(io.LimitReader(stdin, 1<<20+1)); err != nil {
				return fmt.Errorf("read the value from stdin: %w", err)
			}
			if len(value) > 1<<20 {
				return fmt.Errorf("the value on stdin is over 1 MiB, more than any memory may hold")
			}
		}
		var meta json.RawMessage
		if metadata != "" {
			meta = json.RawMessage(metadata)
		}
		version, err := st.SaveMemory(ctx, ns, rest[0], value, meta)
		if err != nil {
			return err
		}
		if *sc.asJSON {
			return writeJSON(stdout, map[string]any{"key": rest[0], "version": version, "namespace": ns})
		}
		fmt.Fprintf(stdout, "Saved %q (version %d) in namespace %s.\n", rest[0], version, ns)
		return nil
	case "rm":
		return remove(ctx, sc, stdout, "key", "memory", rest[0], (*state.Store).DeleteMemory)
	}
	return fmt.Errorf("memory: unknown command %q", sub)
}

// savedToolsSub runs saved-tools SUB.
func savedToolsSub(ctx context.Context, sc *stateCommand, sub string, rest []string, _ string, s streams) error {
	stdout := s.stdout
	switch sub {
	case "ls":
		st, ns, err := sc.open(ctx, false)
		if err != nil {
			return err
		}
		if st != nil {
			defer st.Close()
		}
		list, err := aggregator.ListSavedTools(ctx, st, ns)
		if err != nil {
			return err
		}
		if *sc.asJSON {
			return writeJSON(stdout, list)
		}
		if len(list) == 0 {
			fmt.Fprintf(stdout, "No saved tools in namespace %s.\n", ns)
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tSIGNATURE\tDESCRIPTION")
		for _, t := range list {
			desc, _, _ := strings.Cut(t.Description, "\n")
			fmt.Fprintf(tw, "%s\t%s\t%s\n", t.Name, printable.Line(t.Signature), printable.Line(desc))
		}
		return tw.Flush()
	case "show":
		t, err := lookUp(ctx, sc, "saved tool", rest[0], (*state.Store).GetTool)
		if err != nil {
			return err
		}
		if *sc.asJSON {
			return writeJSON(stdout, map[string]any{"name": t.Name, "description": t.Description, "source": t.Source,
				"created_at": aggregator.Timestamp(t.CreatedAt), "updated_at": aggregator.Timestamp(t.UpdatedAt)})
		}
		// A program saved it: what would hide a line from the reader (an
		// escape, a carriage return) shows as its escape instead.
		fmt.Fprint(stdout, printable.Text(t.Source))
		if !strings.HasSuffix(t.Source, "\n") {
			fmt.Fprintln(stdout)
		}
		return nil
	case "rm":
		return remove(ctx, sc, stdout, "name", "saved tool", rest[0], (*state.Store).DeleteTool)
	}
	return fmt.Errorf("saved-tools: unknown command %q", sub)
}

// lookUp reads the what called name from the namespace with load; a
// database not created yet holds none.
func lookUp[T any](ctx context.Context, sc *stateCommand, what, name string, load func(*state.Store, context.Context, string, string) (T, error)) (T, error) {
	var zero T
	st, ns, err := sc.open(ctx, false)
	if err != nil {
		return zero, err
	}
	if st == nil {
		return zero, fmt.Errorf("no %s %q in namespace %s", what, name, ns)
	}
	defer st.Close()
	v, err := load(st, ctx, ns, name)
	if errors.Is(err, state.ErrNotFound) {
		return zero, fmt.Errorf("no %s %q in namespace %s", what, name, ns)
	}
	return v, err
}

// remove deletes the what called name from the namespace with del, and
// reports it (field names it in the JSON answer).
func remove(ctx context.Context, sc *stateCommand, w io.Writer, field, what, name string, del func(*state.Store, context.Context, string, string) (bool, error)) error {
	st, ns, err := sc.open(ctx, false)
	if err != nil {
		return err
	}
	deleted := false
	if st != nil {
		defer st.Close()
		if deleted, err = del(st, ctx, ns, name); err != nil {
			return err
		}
	}
	return reportRemoved(w, *sc.asJSON, field, name, what, ns, deleted)
}

// reportRemoved says whether rm deleted what it names; one that did not
// exist is exit status 1.
func reportRemoved(w io.Writer, asJSON bool, field, name, what, ns string, deleted bool) error {
	if asJSON {
		if err := writeJSON(w, map[string]any{field: name, "deleted": deleted, "namespace": ns}); err != nil {
			return err
		}
	} else if deleted {
		fmt.Fprintf(w, "Deleted %s %q from namespace %s.\n", what, name, ns)
	}
	if !deleted {
		if !asJSON {
			return fmt.Errorf("no %s %q in namespace %s", what, name, ns)
		}
		return exitError{1}
	}
	return nil
}

// writeReadableJSON writes a stored value indented, in its own key order,
// with the printable characters the store keeps as \u escapes written
// out.
func writeReadableJSON(w io.Writer, raw json.RawMessage) error {
	var ind bytes.Buffer
	if err := json.Indent(&ind, raw, "", "  "); err != nil {
		return fmt.Errorf("the stored value: %w", err)
	}
	b := ind.Bytes()
	var out bytes.Buffer
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out.WriteByte(b[i])
			continue
		}
		if r, n := unicodeEscape(b[i:]); n > 0 && r >= utf8.RuneSelf && unicode.IsPrint(r) {
			out.WriteRune(r)
			i += n - 1
			continue
		}
		out.Write(b[i : i+2]) // an escape of another kind, or of a character kept escaped
		i++
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

// unicodeEscape reads the \uXXXX escape (or surrogate pair of two) at the
// start of b: the character and the bytes it took, or 0 bytes.
func unicodeEscape(b []byte) (rune, int) {
	hex4 := func(b []byte) (rune, bool) {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[2:6]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex4(b[6:]); ok {
			if c := utf16.DecodeRune(r, r2); c != unicode.ReplacementChar {
				return c, 12
			}
		}
		return 0, 0
	}
	return r, 6
}

// memories is "1 memory", "2 memories".
func memories(n int) string {
	if n == 1 {
		return "1 memory"
	}
	return fmt.Sprintf("%d memories", n)
}
