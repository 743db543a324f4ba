#!/bin/sh
# Installs code-server (VS Code 1.100.3 for a browser) and the browser driver
# without reaching anything but the npm registry.
#
# code-server's own postinstall would fetch ripgrep and argon2 binaries from
# GitHub, which is not reachable here. It is replaced by the same steps with
# those two taken care of: argon2 is compiled from its sources, and ripgrep is
# Debian's. Needs a C++ toolchain, the Kerberos headers and ripgrep
# (.ci/vscode.sh installs them).
set -eu
cd "$(dirname "$0")"

rg=$(command -v rg) || { echo "install.sh: ripgrep (rg) not found" >&2; exit 1; }

npm ci
npm_config_build_from_source=true npm rebuild --ignore-scripts=false argon2

cd node_modules/code-server/lib/vscode
# VS Code's server modules, pinned by the npm-shrinkwrap.json that ships with
# code-server, then the native ones compiled for this Node.
npm install --omit=dev --ignore-scripts --no-audit --no-fund
npm_config_yes=true npm rebuild --ignore-scripts=false \
  kerberos node-pty @parcel/watcher @vscode/deviceid @vscode/spdlog native-watchdog
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$rg" node_modules/@vscode/ripgrep/bin/rg
# The links code-server's postinstall.sh makes.
ln -sfn node_modules node_modules.asar
ln -sfn code-linux.sh bin/remote-cli/code-server
ln -sfn browser-linux.sh bin/helpers/browser.sh
# The built-in extensions' shared dependency (typescript); its postinstall
# only deletes files it does not need.
(cd extensions && npm install --omit=dev --ignore-scripts=false --no-audit --no-fund)
cd ../../../..
touch node_modules/.installed
