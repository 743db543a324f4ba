package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/moby/moby/client"
	"github.com/moby/profiles/seccomp"
)

// The sandbox's seccomp profile is Docker's current default (from
// github.com/moby/profiles) with no io_uring: io_uring's syscalls let a
// program do file and network I/O that the syscall filter never sees, and
// have been a steady source of kernel exploits. Docker 25 dropped them from
// its default; Docker 20.10 and Podman 4 still allow them. It is passed to
// every container, whatever the engine's own default.

// deniedSyscalls are taken out of the default profile.
var deniedSyscalls = []string{"io_uring_setup", "io_uring_enter", "io_uring_register"}

// seccompProfile returns the profile as JSON.
func seccompProfile() ([]byte, error) {
	p := seccomp.DefaultProfile()
	for _, sc := range p.Syscalls {
		sc.Names = slices.DeleteFunc(sc.Names, func(n string) bool { return slices.Contains(deniedSyscalls, n) })
	}
	p.Syscalls = slices.DeleteFunc(p.Syscalls, func(sc *seccomp.Syscall) bool { return len(sc.Names) == 0 })
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("seccomp profile: %w", err)
	}
	return b, nil
}

// seccompOption returns the security option that applies the profile on
// this engine. Docker takes the JSON inline. Podman's compatible API takes a
// path on its own side: for a Podman on this machine (a unix socket) the
// profile is written to a file named by its hash in the user's cache
// directory; for a remote Podman
// there is no way to hand it over, and its own default applies.
func seccompOption(ctx context.Context, cli *client.Client) (string, error) {
	profile, err := seccompProfile()
	if err != nil {
		return "", err
	}
	v, err := cli.ServerVersion(ctx, client.ServerVersionOptions{})
	if err != nil {
		return "", fmt.Errorf("engine version: %w", err)
	}
	podman := strings.Contains(strings.ToLower(v.Platform.Name), "podman")
	for _, c := range v.Components {
		podman = podman || strings.Contains(strings.ToLower(c.Name), "podman")
	}
	if !podman {
		return "seccomp=" + string(profile), nil
	}
	if !strings.HasPrefix(cli.DaemonHost(), "unix://") {
		return "", nil
	}
	// In a directory of the user's own, not a shared /tmp where another
	// user could put a file of their choosing under the name first.
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("seccomp profile for podman: %w", err)
	}
	dir := filepath.Join(cache, "mcp-code-mode")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("seccomp profile for podman: %w", err)
	}
	sum := sha256.Sum256(profile)
	path := filepath.Join(dir, "seccomp-"+hex.EncodeToString(sum[:8])+".json")
	tmp, err := os.CreateTemp(dir, "seccomp-*.json")
	if err != nil {
		return "", fmt.Errorf("seccomp profile for podman: %w", err)
	}
	_, werr := tmp.Write(profile)
	if err := errors.Join(werr, tmp.Close(), os.Rename(tmp.Name(), path)); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("seccomp profile for podman: %w", err)
	}
	return "seccomp=" + path, nil
}
