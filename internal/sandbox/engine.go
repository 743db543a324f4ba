// Package sandbox runs the model's code in locked-down, single-use containers
// through the Docker Engine API, and builds the image they run.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
// usable; call New or Dial.
type Engine struct {
	cli     *client.Client
	host    string // where it is, for messages
	seccomp string // the security option that applies the sandbox's seccomp profile ("" = the engine's default)
}

// New connects to the engine named by DOCKER_HOST (and the other DOCKER_*
// variables), or the default local socket, and checks that it answers.
func New(ctx context.Context) (*Engine, error) { return Dial(ctx, "") }

// Dial connects to the engine at host and checks that it answers. Host is
// "" for the engine New connects to, or an address as the Docker CLI takes
// it:
//
//   - unix:///PATH, a local socket;
//   - tcp://HOST:PORT, with TLS when DOCKER_TLS_VERIFY is set: the server
//     must present a certificate signed by ca.pem, and the client presents
//     cert.pem and key.pem when they exist, all three from DOCKER_CERT_PATH
//     (default ~/.docker);
//   - ssh://[USER@]HOST[:PORT][/SOCKET], through `ssh ... -- HOST docker
//     system dial-stdio` (see sshDialer), so the remote host needs sshd
//     and the docker CLI, and nothing else listening.
func Dial(ctx context.Context, host string) (*Engine, error) {
	if h := os.Getenv(client.EnvOverrideHost); host == "" && strings.HasPrefix(h, "ssh://") {
		host = h // the moby client cannot reach an ssh:// DOCKER_HOST by itself
	}
	opts, err := clientOptions(host)
	if err != nil {
		return nil, err
	}
	cli, err := client.New(append(opts, client.WithUserAgent("mcp-code-mode"))...)
	if err != nil {
		return nil, fmt.Errorf("docker client for %s: %w", displayHost(host), err)
	}
	name := host
	if name == "" {
		name = cli.DaemonHost()
	}
	if _, err := cli.Ping(ctx, client.PingOptions{NegotiateAPIVersion: true}); err != nil {
		cli.Close()
		// Over ssh the request's URL is a stand-in (see clientOptions):
		// what ssh said is the news.
		var uerr *url.Error
		if strings.HasPrefix(name, "ssh://") && errors.As(err, &uerr) {
			err = uerr.Err
		}
		return nil, fmt.Errorf("docker engine not reachable at %s: %w%s", name, err, tlsHint(host, err))
	}
	opt, err := seccompOption(ctx, cli)
	if err != nil {
		cli.Close()
		return nil, err
	}
	return &Engine{cli: cli, host: name, seccomp: opt}, nil
}

// CheckHost reports whether host is an engine address Dial takes, without
// connecting: config files are checked before anything runs.
func CheckHost(host string) error {
	_, err := clientOptions(host)
	return err
}

// clientOptions are the moby client's options for an engine at host.
func clientOptions(host string) ([]client.Opt, error) {
	scheme, rest, ok := strings.Cut(host, "://")
	switch {
	case host == "":
		return []client.Opt{client.FromEnv}, nil
	case !ok || rest == "":
		return nil, fmt.Errorf("engine %q: want unix:///PATH, tcp://HOST:PORT or ssh://[USER@]HOST[:PORT]", host)
	case scheme == "unix":
		if !strings.HasPrefix(rest, "/") {
			return nil, fmt.Errorf("engine %q: a unix socket needs an absolute path (unix:///var/run/docker.sock)", host)
		}
		return []client.Opt{client.WithHost(host)}, nil
	case scheme == "tcp":
		opts := []client.Opt{client.WithHost(host)}
		tlsOpt, err := tlsFromEnv()
		if err != nil {
			return nil, fmt.Errorf("engine %q: %w", host, err)
		}
		if tlsOpt != nil {
			opts = append(opts, tlsOpt)
		}
		return opts, nil
	case scheme == "ssh":
		dial, err := sshDialer(host)
		if err != nil {
			return nil, err
		}
		// The transport of a unix socket (no proxy, no compression, the
		// engine's name as the Host header), with ssh's stdio in place of
		// the socket: every connection, the hijacked attach streams
		// included, goes through dial.
		return []client.Opt{client.WithHost("unix:///var/run/docker.sock"), client.WithDialContext(dial)}, nil
	}
	return nil, fmt.Errorf("engine %q: unknown scheme %q: want unix://, tcp:// or ssh://", host, scheme)
}

// tlsFromEnv is the TLS the Docker CLI uses for a tcp:// engine: with
// DOCKER_TLS_VERIFY set, ca.pem from DOCKER_CERT_PATH (default ~/.docker)
// as the only root, and cert.pem and key.pem as the client's certificate
// when both exist. Without DOCKER_TLS_VERIFY, nil: plain TCP.
func tlsFromEnv() (client.Opt, error) {
	if os.Getenv(client.EnvTLSVerify) == "" {
		return nil, nil
	}
	dir := os.Getenv(client.EnvOverrideCertPath)
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("DOCKER_TLS_VERIFY is set and DOCKER_CERT_PATH is not: %w", err)
		}
		dir = filepath.Join(home, ".docker")
	}
	ca := filepath.Join(dir, "ca.pem")
	if _, err := os.Stat(ca); err != nil {
		return nil, fmt.Errorf("DOCKER_TLS_VERIFY is set but the CA certificate is missing: %w", err)
	}
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if !exists(cert) || !exists(key) {
		cert, key = "", ""
	}
	return client.WithTLSClientConfig(ca, cert, key), nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// tlsHint says what to check when a tcp:// engine refused the connection
// for want of TLS or of the right certificate.
func tlsHint(host string, err error) string {
	if !strings.HasPrefix(host, "tcp://") {
		return ""
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "HTTP request to an HTTPS server") || strings.Contains(msg, "malformed HTTP response"):
		return " (the engine speaks TLS: set DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH)"
	case strings.Contains(msg, "certificate") || strings.Contains(msg, "tls:"):
		return " (check ca.pem, cert.pem and key.pem in DOCKER_CERT_PATH)"
	}
	return ""
}

func displayHost(host string) string {
	if host == "" {
		return "the default engine"
	}
	return host
}

// Host returns where the engine is: the address it was dialled at, or the
// one DOCKER_HOST or the default named.
func (e *Engine) Host() string { return e.host }

// Ping checks that the engine still answers.
func (e *Engine) Ping(ctx context.Context) error {
	if _, err := e.cli.Ping(ctx, client.PingOptions{}); err != nil {
		return fmt.Errorf("docker engine not reachable at %s: %w", e.host, err)
	}
	return nil
}

// Close releases the connection to the engine.
func (e *Engine) Close() error { return e.cli.Close() }

// Identity is what tells one engine from another, as its Info reports it.
// Two addresses that reach one daemon (a socket and a symlink to it,
// localhost and 127.0.0.1) give equal identities.
//
// The daemon's ID alone does not do: Docker before 23.0 derives it from
// /etc/docker/key.json, which every daemon of a host shares, so the host
// name and the data root go with it (two daemons cannot share a data
// root). Podman makes up a new ID on every call, so two addresses of one
// Podman service never match.
type Identity struct {
	ID      string // the daemon's ID, as `docker info` prints it
	Name    string // its host name
	RootDir string // its data root (/var/lib/docker)
}

// Known reports whether the engine reported an ID: an engine that reports
// none is like no other.
func (id Identity) Known() bool { return id.ID != "" }

// Identity returns what tells the engine from another (see Identity).
func (e *Engine) Identity(ctx context.Context) (Identity, error) {
	id, _, err := e.Describe(ctx)
	return id, err
}

// Describe returns the engine's Identity and the names of the OCI runtimes
// it knows (sorted), from one call of the engine's info.
func (e *Engine) Describe(ctx context.Context) (Identity, []string, error) {
	info, err := e.cli.Info(ctx, client.InfoOptions{})
	if err != nil {
		return Identity{}, nil, fmt.Errorf("engine info: %w", err)
	}
	names := make([]string, 0, len(info.Info.Runtimes))
	for name := range info.Info.Runtimes {
		names = append(names, name)
	}
	slices.Sort(names)
	return Identity{ID: info.Info.ID, Name: info.Info.Name, RootDir: info.Info.DockerRootDir}, names, nil
}
