// Command mcp-code-mode is one MCP server that replaces many: it exposes a
// single tool, run_python, whose programs call the tools of the wrapped
// servers from a locked-down container through a checking bridge.
//
// Usage:
//
//	mcp-code-mode serve [flags] [-- CMD ARGS...]
//	mcp-code-mode run [flags] (-c CODE | FILE | -)
//	mcp-code-mode servers [flags]
//	mcp-code-mode tools [flags] [SERVER...]
//	mcp-code-mode search [flags] QUERY
//	mcp-code-mode log [--follow] [--since WHEN] [--json]
//	mcp-code-mode build-image [flags]
//	mcp-code-mode trust [flags] [SERVER...]
//	mcp-code-mode untrust [flags] [SERVER...]
//	mcp-code-mode install [flags] CLIENT
//	mcp-code-mode uninstall [flags] CLIENT
//	mcp-code-mode memory ls|get KEY|set KEY JSON|rm KEY [flags]
//	mcp-code-mode saved-tools ls|show NAME|rm NAME [flags]
//	mcp-code-mode login [flags] SERVER
//	mcp-code-mode logout [flags] SERVER
//	mcp-code-mode doctor [flags]
//	mcp-code-mode version [--json]
//	mcp-code-mode completion bash|zsh|fish|powershell
//
// Flags may come before or after the arguments; "mcp-code-mode help
// COMMAND" or "COMMAND --help" shows a command's flags. Exit status: 0 on
// success, 1 on failure, 2 for a usage error, 130 on Ctrl-C and 143 on
// SIGTERM; run exits with the program's own sys.exit status.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signalContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// signalContext is signal.NotifyContext whose cause, once one of sigs
// arrives, is a signalCause naming it (so the exit status can say which).
func signalContext(parent context.Context, sigs ...os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cancel(signalCause{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// signalCause is the cause of a context a signal ended.
type signalCause struct{ sig os.Signal }

func (c signalCause) Error() string { return c.sig.String() + " signal received" }

// signalStatus is the shell's exit status for a command a signal ended
// (128 + its number: 130 for Ctrl-C, 143 for SIGTERM), or 0 when ctx was
// not ended by a signal.
func signalStatus(ctx context.Context) int {
	var c signalCause
	if errors.As(context.Cause(ctx), &c) {
		if s, ok := c.sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
	}
	return 0
}

// exitError carries an exit status without a message of its own.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// usageError is a command used wrongly: an unknown command or flag, a bad
// flag value, missing or extra arguments. It exits with status 2.
type usageError struct {
	cmd *cobra.Command
	err error
}

func (e usageError) Error() string { return e.err.Error() }

// streams are the command's standard input, output and error.
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// run runs the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(streams{stdin, stdout, stderr})
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	var ee exitError
	var ue usageError
	switch {
	case err == nil:
		return 0
	case signalStatus(ctx) != 0:
		// Interrupted: the command has cleaned up and said what it stopped.
		if !errors.As(err, &ee) {
			fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
		}
		return signalStatus(ctx)
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		cmd = ue.cmd
		fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
		fmt.Fprintf(stderr, "Usage: %s\nRun \"%s --help\" for more.\n", cmd.UseLine(), cmd.CommandPath())
		return 2
	case strings.HasPrefix(err.Error(), "unknown command"):
		// cobra's message names the command and suggests the closest.
		fmt.Fprintf(stderr, "mcp-code-mode: %v\n%s", err, root.UsageString())
		return 2
	default:
		fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
		return 1
	}
}

// newRoot builds the command tree.
func newRoot(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "mcp-code-mode",
		Short: "One MCP server that runs Python against all your MCP servers",
		Long: `mcp-code-mode is one MCP server that replaces the many an MCP client has configured.
It exposes one tool, run_python, whose programs call the tools of the servers your
MCP clients already configure, from a locked-down container, through a bridge that
checks every call.`,
		Version:       versionLine(),
		SilenceErrors: true,
		SilenceUsage:  true,
		// Without a command: the help, and a usage error.
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SetOut(s.stderr)
			_ = cmd.Help()
			return exitError{2}
		},
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{cmd, err} })
	root.AddGroup(&cobra.Group{ID: "use", Title: "Use it:"}, &cobra.Group{ID: "set", Title: "Set it up:"})
	for _, c := range []*cobra.Command{serveCmd(s), runCmd(s), serversCmd(s), toolsCmd(s), searchCmd(s), memoryCmd(s), savedToolsCmd(s), logCmd(s)} {
		c.GroupID = "use"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{installCmd(s, "install"), installCmd(s, "uninstall"), loginCmd(s), logoutCmd(s), trustCmd(s), untrustCmd(s), buildImageCmd(s), doctorCmd(s), versionCmd(s)} {
		c.GroupID = "set"
		root.AddCommand(c)
	}
	root.SetHelpCommandGroupID("set")
	root.SetCompletionCommandGroupID("set")
	return root
}

// usageArgs wraps a cobra argument check so that its error is a usage
// error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{cmd, err}
		}
		return nil
	}
}
