#!/usr/bin/env bash
# The unused-code half of `make lint` (the Makefile passes GO, UNPARAM,
# DEADCODE, TEST_SUPPORT and LINT_WAIVED):
#   - unparam -tests: parameters that always receive the same value, results
#     nobody reads, in code and tests;
#   - deadcode (without -test): functions unreachable from any main package,
#     so also production code that only tests call. The TEST_SUPPORT packages
#     exist for the tests, so for them only code no test reaches either
#     (deadcode -test) counts.
# A finding fails the target unless LINT_WAIVED (one finding a line, its
# :LINE:COLUMN left out so that edits above it do not matter) lists it.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${GO:=go}" "${UNPARAM:?}" "${DEADCODE:?}" "${TEST_SUPPORT:=}" "${LINT_WAIVED:=}"
module=$($GO list -m) || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# unparam exits 1 when it reports something, which `go run` echoes as
# "exit status 1"; anything else on stderr but the module downloads of a
# first run ("go: downloading ...") is a failure to run.
$GO run "$UNPARAM" -tests ./... >"$tmp/unparam" 2>"$tmp/unparam.err"
if grep -Ev '^(exit status 1|go: downloading .*)$' "$tmp/unparam.err" | grep -q .; then
  echo "unparam failed:" >&2
  cat "$tmp/unparam.err" >&2
  exit 1
fi

# deadcode exits 0 whatever it reports, non-zero only when it cannot run.
$GO run "$DEADCODE" ./... >"$tmp/deadcode" || exit 1
support_re=""
for p in $TEST_SUPPORT; do
  support_re+="${support_re:+|}$p"
done
if [ -n "$support_re" ]; then
  grep -Ev "^($support_re)/[^/]+\.go:" "$tmp/deadcode" >"$tmp/deadcode.main"
  $GO run "$DEADCODE" -test -filter "^$module/($support_re)\$" ./... >>"$tmp/deadcode.main" || exit 1
  mv "$tmp/deadcode.main" "$tmp/deadcode"
fi

printf '%s\n' "$LINT_WAIVED" | sed '/^[[:space:]]*$/d' >"$tmp/waived"
cat "$tmp/unparam" "$tmp/deadcode" | awk -v waived="$tmp/waived" '
  BEGIN { while ((getline w < waived) > 0) want[w] = 1 }
  {
    key = $0
    sub(/:[0-9]+:[0-9]+: /, ": ", key)
    if (key in want) { seen[key] = 1; next }
    print
    bad = 1
  }
  END {
    for (w in want) if (!(w in seen)) print "note: waived finding no longer reported (remove it from LINT_WAIVED): " w > "/dev/stderr"
    exit bad
  }'
