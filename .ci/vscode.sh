#!/usr/bin/env bash
# Sets up VS Code as a test client (TestVSCodeConnects): Debian's Chromium,
# ripgrep and a C++ toolchain with the Kerberos headers (installed as root
# when missing), then code-server and the browser driver from npm through
# testdata/vscode/install.sh, again only when its lock file changed.
# Without root and without the packages it says what is missing and stops
# with success, so the test skips; under CI=true it fails instead.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=testdata/vscode
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
[ -e /usr/include/gssapi/gssapi.h ] || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "vscode: missing Debian packages ${missing[*]} (installing needs root); the VS Code client test will skip" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 0
  fi
  echo "vscode: installing ${missing[*]} from Debian packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
stamp=$dir/node_modules/.installed
if [ -f "$stamp" ] && [ "$stamp" -nt $dir/package-lock.json ] && [ "$stamp" -nt $dir/install.sh ]; then
  exit 0
fi
echo "vscode: installing code-server and the browser driver (testdata/vscode)"
sh $dir/install.sh >/tmp/mcp-code-mode-vscode-install.log 2>&1 || {
  echo "vscode: install failed; the end of its log:" >&2
  tail -30 /tmp/mcp-code-mode-vscode-install.log >&2
  exit 1
}
