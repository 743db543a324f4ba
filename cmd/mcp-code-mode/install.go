package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
	"github.com/mcp-code-mode/mcp-code-mode/internal/install"
	"github.com/spf13/cobra"
)

func installCmd(s streams, name string) *cobra.Command {
	clients := strings.Join(discovery.UserClients(), ", ")
	cmd := &cobra.Command{
		Use:  name + " [flags] CLIENT",
		Args: usageArgs(cobra.ExactArgs(1)),
	}
	if name == "install" {
		cmd.Short = "Switch an MCP client over: add the code-mode entry to its user-level file"
		cmd.Long = `Add the code-mode entry (this program, serve) to the client's user-level config file, with a
timestamped backup of the file, keeping the rest of it (comments too). With --move-servers, the
client's other servers move into this program's config, where code-mode serves them, and out
of the client's file; uninstall puts them back. CLIENT is one of: ` + clients + "."
		cmd.Example = "  mcp-code-mode install cursor --dry-run\n  mcp-code-mode install claude-code --move-servers"
	} else {
		cmd.Short = "Undo install: take the code-mode entry out, and put moved servers back"
		cmd.Long = "Take the code-mode entry out of the client's user-level file and put back the servers install moved. CLIENT is one of: " + clients + "."
	}
	var cfgPath string
	var dryRun, move, asJSON bool
	cmd.Flags().StringVar(&cfgPath, "config", "", "this program's config file, where --move-servers puts servers (TOML); default $XDG_CONFIG_HOME/mcp-code-mode/config.toml")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would change, and write nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	if name == "install" {
		cmd.Flags().BoolVar(&move, "move-servers", false, "also move the client's other servers into this program's config")
	}
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		return switchClient(s, name, args[0], cfgPath, dryRun, move, asJSON)
	}
	return cmd
}

// switchClient runs install or uninstall for client.
func switchClient(s streams, name, client, cfgPath string, dryRun, move, asJSON bool) error {
	stdout := s.stdout
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("the path of this program: %w", err)
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return err
	}
	own := cfgPath
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
		Client: client, Exe: exe, OwnConfig: own, StateDir: state,
		MoveServers: move, DryRun: dryRun,
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
	if asJSON {
		return writeJSON(stdout, rep)
	}
	rep.Print(stdout)
	if !dryRun && len(rep.Written) > 0 {
		fmt.Fprintf(stdout, "Restart %s (or reload its MCP servers) for the change to take effect.\n", rep.Client)
	}
	return nil
}
