#!/usr/bin/env bash
# Runs the sandbox's security and pool tests (those that call
# testenv.Engines(t, ..., testenv.Podman, ...)) against Podman's Docker-
# compatible API: installs Debian's podman (as root) when missing, starts
# its API service on a private socket, builds the image there, runs the
# tests with DOCKER_HOST pointing at it, and stops the service. -v lists
# the tests, and the run fails when none ran.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v podman >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "podman: not installed, and installing needs root" >&2
    exit 1
  fi
  echo "podman: installing Debian's podman"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman >/dev/null
fi
sock=/tmp/mcp-code-mode-podman.sock
rm -f "$sock"
# From a scratch directory: conmon writes a file named "oom" into its
# working directory when a container exits, which would land in the repo.
scratch=$(mktemp -d)
(cd "$scratch" && exec podman system service --time=0 "unix://$sock") >/tmp/mcp-code-mode-podman.log 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$sock"; rm -rf "$scratch"' EXIT
# It usually listens within a second, but once took more than five on a
# machine still busy with the previous suite: wait up to a minute, and say
# why when it never does.
for _ in $(seq 600); do
  [ -S "$sock" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "podman: the API service exited before it listened; its log:" >&2
    cat /tmp/mcp-code-mode-podman.log >&2
    exit 1
  fi
  sleep 0.1
done
if [ ! -S "$sock" ]; then
  echo "podman: the API service did not listen on $sock within 60 s; its log:" >&2
  cat /tmp/mcp-code-mode-podman.log >&2
  exit 1
fi
export DOCKER_HOST="unix://$sock"
podman --version
bin/mcp-code-mode build-image --if-stale | tail -1
MCM_TEST_SUITE=podman go test -count=1 -v ./internal/aggregator
