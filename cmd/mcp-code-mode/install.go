package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
	"github.com/mcp-code-mode/mcp-code-mode/internal/install"
)

func cmdInstall(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return installCommand("install", args, stdout, stderr)
}

func cmdUninstall(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return installCommand("uninstall", args, stdout, stderr)
}

// installCommand parses the flags of install and uninstall and runs them.
func installCommand(name string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "this program's config file, where --move-servers puts servers (TOML); default $XDG_CONFIG_HOME/mcp-code-mode/config.toml")
	dryRun := fs.Bool("dry-run", false, "print what would change, and write nothing")
	move := new(bool)
	if name == "install" {
		move = fs.Bool("move-servers", false, "also move the client's other servers into this program's config")
	}
	clients := strings.Join(discovery.UserClients(), ", ")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcp-code-mode %s [flags] CLIENT\nCLIENT is one of: %s\n", name, clients)
		fs.PrintDefaults()
	}
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		fs.Usage()
		return exitError{2}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("the path of this program: %w", err)
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return err
	}
	own := *cfgPath
	if own == "" {
		if own = defaultConfigPath(); own == "" && configDir() != "" {
			own = filepath.Join(configDir(), "config.toml")
		}
	}
	state, err := config.StateDir()
	if err != nil {
		return err
	}
	opts := install.Options{
		Client: rest[0], Exe: exe, OwnConfig: own, StateDir: state,
		MoveServers: *move, DryRun: *dryRun,
		Self: selfNames(),
	}
	do := install.Install
	if name == "uninstall" {
		do = install.Uninstall
	}
	rep, err := do(opts)
	if err != nil {
		return err
	}
	rep.Print(stdout)
	if !*dryRun && len(rep.Written) > 0 {
		fmt.Fprintf(stdout, "Restart %s (or reload its MCP servers) for the change to take effect.\n", rep.Client)
	}
	return nil
}

// parseInterspersed parses flags before and after the positional
// arguments (install cursor --dry-run), and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := parse(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest, args = append(rest, args[0]), args[1:]
	}
}
