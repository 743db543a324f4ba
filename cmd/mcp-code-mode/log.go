package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/spf13/cobra"
)

func logCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "log [flags]",
		Short: "Show the audit log: each tool call programs made, and each run",
		Long: `Show the audit log serve and run keep: a record for each tool call (refused ones included) and
each run, oldest first, from the rotated files too. A record names the run, the client session,
the server and tool, the size and SHA-256 of the arguments (never their values, unless
audit.arguments is set), the outcome and why, the duration and the size of the result.
--since takes a duration back from now (10m) or an RFC 3339 time; --follow goes on printing
records as they are written, across rotations, until interrupted.`,
		Example: `  mcp-code-mode log --since 10m
  mcp-code-mode log --follow
  mcp-code-mode log --since 2026-05-01T09:00:00Z --json`,
		Args: usageArgs(cobra.NoArgs),
	}
	var cfgPath string
	var since sinceFlag
	var follow, asJSON bool
	cmd.Flags().StringVar(&cfgPath, "config", "", "this program's config file, for its [audit] dir; default $XDG_CONFIG_HOME/mcp-code-mode/config.toml if present")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "go on printing records as they are written, across rotations, until interrupted")
	cmd.Flags().Var(&since, "since", "only the records from `WHEN` on: a duration back from now (10m, 2h) or an RFC 3339 time")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the records as they are kept: one JSON object a line")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return showLog(cmd.Context(), s, cfgPath, since.t, follow, asJSON)
	}
	return cmd
}

// sinceFlag is a point in time given as a duration back from now ("10m",
// or a number of seconds) or as an RFC 3339 time.
type sinceFlag struct{ t time.Time }

func (f *sinceFlag) String() string {
	if f.t.IsZero() {
		return ""
	}
	return f.t.Format(time.RFC3339)
}

func (f *sinceFlag) Type() string { return "time" }

func (f *sinceFlag) Set(v string) error {
	if d, err := config.ParseSeconds(v); err == nil {
		if d < 0 {
			return fmt.Errorf("want a duration back from now, not a negative one: %q", v)
		}
		f.t = time.Now().Add(-d)
		return nil
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
	if err != nil {
		return fmt.Errorf("want a duration such as 10m or an RFC 3339 time such as 2026-05-01T09:00:00Z, got %q", v)
	}
	f.t = t
	return nil
}

func showLog(ctx context.Context, s streams, cfgPath string, since time.Time, follow, asJSON bool) error {
	path := cfgPath
	if path == "" {
		path = defaultConfigPath()
	}
	cfg, err := config.Load(path, os.Environ())
	if err != nil {
		return err
	}
	dir, err := cfg.Audit.AuditDir()
	if err != nil {
		return err
	}
	files, err := audit.Files(dir)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		if !follow {
			fmt.Fprintf(s.stderr, "mcp-code-mode log: no audit log in %s yet (serve and run write it)\n", dir)
			return nil
		}
		fmt.Fprintf(s.stderr, "mcp-code-mode log: no audit log in %s yet; waiting for one\n", dir)
	}
	if !asJSON {
		fmt.Fprintf(s.stdout, "%-23s  %-8s  %-16s  %-30s  %-9s  %8s  %s\n", "TIME", "RUN", "SESSION", "CALL OR RUN", "OUTCOME", "TOOK", "DETAIL")
	}
	opts := audit.ReadOptions{Since: since, Follow: follow, Note: func(n string) { fmt.Fprintf(s.stderr, "mcp-code-mode log: %s\n", n) }}
	err = audit.Read(ctx, dir, opts, func(e audit.Entry) error {
		var err error
		if asJSON {
			_, err = s.stdout.Write(append(e.Line, '\n'))
		} else {
			_, err = io.WriteString(s.stdout, entryLine(e))
		}
		return err
	})
	if err == nil && ctx.Err() != nil {
		// Interrupted (how --follow ends): the exit status says by what.
		return exitError{1}
	}
	return err
}

// entryLine is a record as a line of log's table. Every text in it is
// shown on one line, without control characters (names in refused calls
// are the program's).
func entryLine(e audit.Entry) string {
	var what, detail, took string
	switch e.Kind {
	case audit.KindCall:
		what = e.Server + "." + e.Tool
		detail = "args " + size(e.ArgBytes)
		if e.Outcome == audit.OK {
			detail += ", result " + size(e.ResultBytes)
		}
		took = strconv.FormatFloat(e.DurationMS, 'f', 1, 64) + "ms"
	default:
		what = "run " + strings.Join(e.Servers, ",")
		detail = fmt.Sprintf("%d calls, exit %d", e.Calls, e.ExitCode)
		if e.Calls == 1 {
			detail = fmt.Sprintf("1 call, exit %d", e.ExitCode)
		}
		took = strconv.FormatFloat(e.DurationMS, 'f', 0, 64) + "ms"
	}
	if e.Reason != "" {
		detail += ": " + e.Reason
	}
	return fmt.Sprintf("%-23s  %-8s  %-16s  %-30s  %-9s  %8s  %s\n", e.Time.Local().Format("2006-01-02 15:04:05.000"),
		column(e.Run[:min(8, len(e.Run))], 8), column(e.Session, 16), column(what, 30), column(e.Outcome, 9), took, printable.Line(detail))
}

func size(n int) string {
	if n < 10<<10 {
		return strconv.Itoa(n) + " B"
	}
	return strconv.Itoa(n>>10) + " KiB"
}

// column is s on one line, cut to width runes.
func column(s string, width int) string {
	s = printable.Line(s)
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}
