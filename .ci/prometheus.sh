#!/usr/bin/env bash
# Installs Debian's Prometheus server for the test that has it scrape
# serve --http's /metrics (TestPrometheusScrapesServesMetricsBehindTheToken),
# as root when it is missing. Without root it says what is missing and
# stops with success, so the test skips; under CI=true it fails instead.
set -euo pipefail
[ -x /usr/bin/prometheus ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "prometheus: the Debian package prometheus is missing (installing needs root); the metrics scrape test will skip" >&2
  [ "${CI:-}" = true ] && exit 1
  exit 0
fi
echo "prometheus: installing it from Debian packages"
apt-get update -qq
# Its service is not started here (no init system in CI): the test runs its
# own instance.
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
