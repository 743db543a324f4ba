// Package sandbox runs the model's code in locked-down, single-use containers
// through the Docker Engine API, and builds the image they run.
package sandbox

import (
	"context"
	"fmt"
	"slices"

	"github.com/moby/moby/client"
)

// Labels put on every container and image this program creates, so that
// orphans can be found and removed.
const (
	LabelApp   = "io.mcp-code-mode.app"
	LabelRole  = "io.mcp-code-mode.role"
	LabelOwner = "io.mcp-code-mode.owner"
	AppName    = "mcp-code-mode"
)

// Engine is a connection to a Docker-compatible engine. The zero value is not
// usable; call New.
type Engine struct {
	cli     *client.Client
	seccomp string // the security option that applies the sandbox's seccomp profile ("" = the engine's default)
}

// New connects to the engine named by DOCKER_HOST (and the other DOCKER_*
// variables), or the default local socket, and checks that it answers.
func New(ctx context.Context) (*Engine, error) {
	cli, err := client.New(client.FromEnv, client.WithUserAgent("mcp-code-mode"))
	if err != nil {
		return nil, fmt.Errorf("docker client: %w", err)
	}
	if _, err := cli.Ping(ctx, client.PingOptions{NegotiateAPIVersion: true}); err != nil {
		cli.Close()
		return nil, fmt.Errorf("docker engine not reachable at %s: %w", cli.DaemonHost(), err)
	}
	opt, err := seccompOption(ctx, cli)
	if err != nil {
		cli.Close()
		return nil, err
	}
	return &Engine{cli: cli, seccomp: opt}, nil
}

// Close releases the connection to the engine.
func (e *Engine) Close() error { return e.cli.Close() }

// Runtimes returns the names of the OCI runtimes the engine knows.
func (e *Engine) Runtimes(ctx context.Context) ([]string, error) {
	info, err := e.cli.Info(ctx, client.InfoOptions{})
	if err != nil {
		return nil, fmt.Errorf("engine info: %w", err)
	}
	names := make([]string, 0, len(info.Info.Runtimes))
	for name := range info.Info.Runtimes {
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}
