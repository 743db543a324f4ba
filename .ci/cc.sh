#!/usr/bin/env bash
# Makes a C compiler available for `go test -race`, which needs cgo: installs
# Debian's gcc (as root) when `go env CC` names no program on PATH.
set -euo pipefail
cc=$(${GO:-go} env CC)
cc=${cc%% *}
cc=${cc:-gcc}
if command -v "$cc" >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "cc: no C compiler ($cc), which -race needs; install gcc and retry" >&2
  exit 1
fi
echo "cc: installing gcc from Debian packages (-race needs cgo)"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 apt-get install -y -qq gcc libc6-dev >/dev/null
