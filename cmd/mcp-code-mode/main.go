// Command mcp-code-mode is one MCP server that replaces many: it exposes a
// single tool, run_python, whose programs call the tools of the wrapped
// servers from a locked-down container through a checking bridge.
//
// Usage:
//
//	mcp-code-mode serve [flags] [-- CMD ARGS...]
//	mcp-code-mode run [flags] [--servers a,b] [--timeout S] (-c CODE | FILE | -)
//	mcp-code-mode servers [--json]
//	mcp-code-mode tools [--json] [SERVER...]
//	mcp-code-mode search [--limit N] [--json] QUERY
//	mcp-code-mode build-image [--base IMAGE] [--tag IMAGE]
//	mcp-code-mode trust [--all] [SERVER...]
//	mcp-code-mode untrust [--all] [SERVER...]
//	mcp-code-mode memory ls|get KEY|set KEY JSON|rm KEY
//	mcp-code-mode saved-tools ls|show NAME|rm NAME
//	mcp-code-mode doctor
//	mcp-code-mode version
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
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

const usage = `mcp-code-mode: one MCP server that runs Python against all your MCP servers.

Commands:
  serve        serve run_python over stdio (default) or streamable HTTP (--http ADDR);
               "serve [flags] -- CMD ARGS..." wraps that one command as the only server
  run          run one program as run_python would: run [--servers a,b] [--timeout S] (-c CODE | FILE | -)
  servers      list the configured servers
  tools        list the tools of servers, with their Python stubs: tools [SERVER...]
  search       search the tools of every server: search QUERY
  build-image  build the sandbox image (offline from Debian packages when no registry answers)
  trust        review this directory's project servers, and approve them: trust [--all] [SERVER...]
  untrust      withdraw approvals of this directory's project servers: untrust [--all] [SERVER...]
  memory       what programs saved with save_memory: memory ls | get KEY | set KEY JSON | rm KEY
  saved-tools  the tools programs saved with save_tool: saved-tools ls | show NAME | rm NAME
  doctor       check the engine, the image, the configuration and each server
  version      print the version

Run "mcp-code-mode COMMAND -h" for the flags of a command.
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmds := map[string]func(context.Context, []string, io.Reader, io.Writer, io.Writer) error{
		"serve":       cmdServe,
		"run":         cmdRun,
		"servers":     cmdServers,
		"tools":       cmdTools,
		"search":      cmdSearch,
		"build-image": cmdBuildImage,
		"trust":       cmdTrust,
		"untrust":     cmdUntrust,
		"memory":      cmdMemory,
		"saved-tools": cmdSavedTools,
		"doctor":      cmdDoctor,
		"version":     cmdVersion,
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd, ok := cmds[name]
	if !ok {
		fmt.Fprintf(stderr, "mcp-code-mode: unknown command %q\n\n%s", name, usage)
		return 2
	}
	err := cmd(ctx, args[1:], stdin, stdout, stderr)
	var ee exitError
	switch {
	case err == nil:
		return 0
	case signalStatus(ctx) != 0:
		// Interrupted: the command has cleaned up and said what it stopped.
		if !errors.As(err, &ee) {
			fmt.Fprintf(stderr, "mcp-code-mode %s: %v\n", name, err)
		}
		return signalStatus(ctx)
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintf(stderr, "mcp-code-mode %s: %v\n", name, err)
		return 1
	}
}
