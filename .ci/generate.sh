#!/usr/bin/env bash
# `make generate`: rewrites every generated file and golden file in place:
#   - go generate ./... (internal/search/lexicon.txt.gz, from WordNet 3.0:
#     Debian's wordnet-base, installed here when run as root);
#   - the golden files of each package whose tests take -update (go test
#     -update there).
# `make check-generated` (--check): does the same in a scratch copy of the
# working tree (tracked and untracked files, uncommitted changes included),
# leaving the tree alone, and fails with the diff if anything changed.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

if [ "${1:-}" = --check ]; then
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcm-check-generated.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do
      if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
    done |
    tar --null -T - -cf - | tar -C "$tmp" -xf -
  g() { git -C "$tmp" -c user.name=check -c user.email=check@localhost -c commit.gpgsign=false "$@"; }
  g init -q
  g add -A
  g commit -q -m "the working tree"
  GO=$GO bash "$tmp/.ci/generate.sh"
  if [ -n "$(g status --porcelain)" ]; then
    echo "check-generated: regenerating changes these files (run \`make generate\` and commit the result):" >&2
    g status --porcelain >&2
    g --no-pager diff --stat >&2
    g --no-pager diff | head -200 >&2 || true
    exit 1
  fi
  echo "check-generated: every generated and golden file is up to date"
  exit 0
fi

# WordNet 3.0 for internal/search/internal/genlexicon.
if [ ! -f /usr/share/wordnet/data.noun ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "generate: WordNet is missing; install Debian's wordnet-base and retry" >&2
    exit 1
  fi
  echo "generate: installing wordnet-base from Debian packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 apt-get install -y -qq wordnet-base >/dev/null
fi

echo "generate: go generate ./..."
$GO generate ./...

# Golden files: every package with a test flag -update. Its tests run as
# the unit tests do (no container engine; see UNIT_ENV in the Makefile).
for dir in $(git grep -l --untracked 'flag.Bool("update"' -- '*_test.go' | xargs -n1 dirname | sort -u); do
  echo "generate: go test ./$dir -update"
  if ! out=$(env -u CI DOCKER_HOST=unix:///nonexistent/mcp-code-mode-no-engine.sock \
    $GO test -count=1 "./$dir" -update 2>&1); then
    printf '%s\n' "$out" >&2
    exit 1
  fi
done
