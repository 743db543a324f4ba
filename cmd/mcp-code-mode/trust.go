package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/aggregator"
	"github.com/mcp-code-mode/mcp-code-mode/internal/trust"
	"github.com/spf13/cobra"
)

// projectServers builds the configuration as the other commands do and
// returns the servers that come from this directory's project files.
func projectServers(c *common, stderr io.Writer) ([]aggregator.ServerInfo, error) {
	agg, eng, _, err := setup(c, stderr, nil, inspect)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	defer agg.Close()
	var out []aggregator.ServerInfo
	for _, s := range agg.Servers() {
		if s.Project != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

func trustCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trust [flags] [SERVER...]",
		Short: "Review this directory's project servers, and approve them",
		Long: `The servers of the working directory's client config files (.mcp.json, .vscode/, .cursor/,
.gemini/, opencode.json, .zed/, .continue/, .kiro/, mcp-servers/) come with the project, so they
are not started, searched or expanded until approved. Without names, trust lists them and shows
what each would run, as written. With names (or --all) it approves them, for this directory
and these entries as written: an edited entry needs approving again.`,
		Example: `  mcp-code-mode trust
  mcp-code-mode trust github@claude-code`,
	}
	c := newCommon(cmd)
	var all, asJSON bool
	cmd.Flags().BoolVar(&all, "all", false, "approve every project server of this directory that needs approval")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = func(cmd *cobra.Command, names []string) error { return approve(c, s, names, all, asJSON) }
	return cmd
}

func approve(c *common, s streams, names []string, all, asJSON bool) error {
	stdout, stderr := s.stdout, s.stderr
	list, err := projectServers(c, stderr)
	if err != nil {
		return err
	}
	if len(names) == 0 && !all {
		if asJSON {
			if list == nil {
				list = []aggregator.ServerInfo{}
			}
			return writeJSON(stdout, list)
		}
		return showProjectServers(stdout, list)
	}
	if all {
		names = nil
		for _, s := range list {
			if s.NeedsApproval {
				names = append(names, s.Name)
			}
		}
		if len(names) == 0 {
			if asJSON {
				return writeJSON(stdout, []aggregator.ServerInfo{})
			}
			fmt.Fprintln(stdout, "No project server here needs approval.")
			return nil
		}
	}
	store, err := trustStore()
	if err != nil {
		return err
	}
	var approved []aggregator.ServerInfo
	for _, name := range names {
		s, err := projectServer(list, name)
		if err != nil {
			return err
		}
		if !s.NeedsApproval {
			if !asJSON {
				fmt.Fprintf(stdout, "%s is approved already.\n", s.Name)
			}
			continue
		}
		store.Add(trust.Approval{Dir: s.Project, Source: s.Source, Hash: s.EntryHash})
		approved = append(approved, s)
	}
	if len(approved) > 0 {
		if err := store.Save(); err != nil {
			return err
		}
	}
	if asJSON {
		if approved == nil {
			approved = []aggregator.ServerInfo{}
		}
		return writeJSON(stdout, approved)
	}
	if len(approved) == 0 {
		return nil
	}
	for _, s := range approved {
		fmt.Fprintf(stdout, "Approved %s (%s): %s\n", s.Name, s.Source, s.AsWritten)
	}
	fmt.Fprintln(stdout, "An edit of an approved entry needs approving again.")
	return nil
}

func untrustCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "untrust [flags] (SERVER... | --all)",
		Short: "Withdraw approvals of this directory's project servers",
	}
	c := newCommon(cmd)
	var all, asJSON bool
	cmd.Flags().BoolVar(&all, "all", false, "withdraw every approval of this directory's project servers")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: the servers whose approval was withdrawn")
	cmd.Args = usageArgs(func(_ *cobra.Command, names []string) error {
		if len(names) == 0 && !all {
			return errors.New("name the servers to withdraw approval from, or --all")
		}
		return nil
	})
	cmd.RunE = func(cmd *cobra.Command, names []string) error { return withdraw(c, s, names, all, asJSON) }
	return cmd
}

func withdraw(c *common, s streams, names []string, all, asJSON bool) error {
	stdout, stderr := s.stdout, s.stderr
	list, err := projectServers(c, stderr)
	if err != nil {
		return err
	}
	store, err := trustStore()
	if err != nil {
		return err
	}
	var withdrawn []string
	if all {
		for _, s := range list {
			if store.Remove(s.Project, s.Source) {
				withdrawn = append(withdrawn, s.Name)
			}
		}
	}
	for _, name := range names {
		s, err := projectServer(list, name)
		if err != nil {
			return err
		}
		if store.Remove(s.Project, s.Source) {
			withdrawn = append(withdrawn, s.Name)
		} else if !s.NeedsApproval {
			// Approved in Claude Code: its record is Claude Code's to change.
			fmt.Fprintf(stdout, "%s is approved in Claude Code (~/.claude.json), not here: withdraw it there.\n", s.Name)
		}
	}
	if len(withdrawn) > 0 {
		if err := store.Save(); err != nil {
			return err
		}
	}
	if asJSON {
		if withdrawn == nil {
			withdrawn = []string{}
		}
		return writeJSON(stdout, withdrawn)
	}
	if len(withdrawn) == 0 {
		return nil
	}
	fmt.Fprintf(stdout, "Withdrew the approval of %s.\n", strings.Join(withdrawn, ", "))
	return nil
}

// projectServer finds the project server named name.
func projectServer(list []aggregator.ServerInfo, name string) (aggregator.ServerInfo, error) {
	i := slices.IndexFunc(list, func(s aggregator.ServerInfo) bool { return s.Name == name })
	if i >= 0 {
		return list[i], nil
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return aggregator.ServerInfo{}, fmt.Errorf("no project server %q: this directory's client config files configure none", name)
	}
	return aggregator.ServerInfo{}, fmt.Errorf("no project server %q here; the project servers are: %s", name, strings.Join(names, ", "))
}

// showProjectServers lists the project servers, those needing approval
// with what they would run as written.
func showProjectServers(w io.Writer, list []aggregator.ServerInfo) error {
	if len(list) == 0 {
		fmt.Fprintln(w, "This directory's client config files (.mcp.json, .vscode/, .cursor/, .gemini/, opencode.json, .zed/, .continue/, .kiro/, mcp-servers/) configure no server.")
		return nil
	}
	pending := 0
	for _, s := range list {
		if s.NeedsApproval {
			pending++
			fmt.Fprintf(w, "needs approval  %s  (%s)\n    runs: %s\n", s.Name, s.Source, s.AsWritten)
		} else {
			fmt.Fprintf(w, "approved        %s  (%s)\n", s.Name, s.Source)
		}
	}
	if pending > 0 {
		fmt.Fprintln(w, "\nRead each entry; approve with \"mcp-code-mode trust NAME...\" (or --all). Variables in it are filled from your environment once approved.")
	}
	return nil
}
