#!/usr/bin/env bash
# Makes a Docker engine reachable: does nothing when one already answers;
# otherwise installs Debian's docker.io (as root) if dockerd is missing and
# starts dockerd in the background, with gVisor's runsc registered (unless
# /etc/docker/daemon.json says otherwise). Prints the PID of a dockerd it started
# to .ci/dockerd.pid so the caller can stop it.
set -euo pipefail
log=${DOCKERD_LOG:-/tmp/mcp-code-mode-dockerd.log}

up() { docker version >/dev/null 2>&1; }

if up; then
  echo "engine: a Docker engine is already running"
  exit 0
fi
if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "engine: no Docker engine; install docker.io (or start Docker/Podman) and retry" >&2
    exit 1
  fi
  echo "engine: installing docker.io from Debian packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi
if [ "$(id -u)" != 0 ]; then
  echo "engine: dockerd is installed but not running; start it (needs root)" >&2
  exit 1
fi
# gVisor (Debian's runsc), registered as runtime "runsc" with no network of
# its own, for `runtime = "runsc"` and its tests.
if ! command -v runsc >/dev/null 2>&1; then
  echo "engine: installing runsc (gVisor) from Debian packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq runsc >/dev/null
fi
opts=()
if [ ! -e /etc/docker/daemon.json ]; then
  conf=/tmp/mcp-code-mode-dockerd.json
  printf '{"runtimes": {"runsc": {"path": "%s", "runtimeArgs": ["--network=none"]}}}\n' "$(command -v runsc)" >"$conf"
  opts=(--config-file "$conf")
fi
# dockerd started just after another one stopped can give up on its
# containerd ("timeout waiting for containerd to start") though containerd
# came up; it then exits, and a second start a few seconds later works. So
# a dockerd that exits before it answers is started again, up to 3 times.
for attempt in 1 2 3; do
  echo "engine: starting dockerd (log: $log)"
  nohup dockerd "${opts[@]}" >"$log" 2>&1 &
  pid=$!
  echo "$pid" > "$(dirname "$0")/dockerd.pid"
  for _ in $(seq 60); do
    if up; then
      echo "engine: ready"
      exit 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$pid" 2>/dev/null; then
    break # still running but not answering after a minute: give up
  fi
  echo "engine: dockerd exited before it answered (attempt $attempt); the end of its log:" >&2
  tail -5 "$log" >&2
  sleep 5
done
echo "engine: dockerd did not come up; the end of its log:" >&2
tail -20 "$log" >&2
exit 1
