#!/usr/bin/env bash
# Re-captures the blind split's tool catalogs (catalogs/*.json beside this
# script) from npm. No build or test runs it; the captured JSON is committed.
#
#   bash testdata/search/blind/capture.sh [SERVER...]   # all servers, or the named ones
#
# Each package, at the exact version pinned in package.json beside this script,
# is installed without install scripts into its own scratch directory under
# $CAPTURE_DIR (default /tmp/blind-capture), started over stdio by
# testdata/capture (initialize + raw tools/list) and never asked to call a
# tool. No server gets real credentials: those that insist get dummy tokens,
# files or addresses on 127.0.0.1 that refuse connections, so listing needs no
# network beyond the npm install.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=${CAPTURE_DIR:-/tmp/blind-capture}
date=${CAPTURE_DATE:-$(date -u +%F)}
mkdir -p "$work/pkgs" "$work/run" "$work/home/.gmail-mcp" "$work/home/.claude-server-commander" "$work/vault/.obsidian"
(cd "$root" && go build -o "$work/capture" ./testdata/capture)

# Dummy Google OAuth client and tokens (google-calendar, gmail, gdrive read
# them at start), and desktop-commander's config with telemetry off.
H=$work/home
printf '%s\n' '{"installed":{"client_id":"dummy.apps.googleusercontent.com","client_secret":"dummy","redirect_uris":["http://localhost"]}}' >"$H/gcp-oauth.keys.json"
cp "$H/gcp-oauth.keys.json" "$H/.gmail-mcp/gcp-oauth.keys.json"
printf '%s\n' '{"access_token":"dummy","refresh_token":"dummy","token_type":"Bearer","expiry_date":4102444800000}' >"$H/.gmail-mcp/credentials.json"
cp "$H/.gmail-mcp/credentials.json" "$H/.gdrive-server-credentials.json"
[ -f "$H/.claude-server-commander/config.json" ] || printf '%s\n' '{"telemetryEnabled": false}' >"$H/.claude-server-commander/config.json"

ONLY=("$@")

# cap SERVER PACKAGE 'K=V ...' COMMAND [ARGS...]: install PACKAGE at its pinned
# version, then capture. COMMAND is a name under node_modules/.bin, or a path
# under node_modules run with node.
cap() {
  local server=$1 pkg=$2 env=$3 cmd=$4; shift 4
  if [ ${#ONLY[@]} -gt 0 ] && [[ " ${ONLY[*]} " != *" $server "* ]]; then return; fi
  local ver dir e=()
  ver=$(node -p "require('$here/package.json').dependencies['$pkg'] || ''")
  [ -n "$ver" ] || { echo "capture.sh: $pkg is not pinned in package.json" >&2; exit 1; }
  dir=$work/pkgs/$server
  if [ "$(node -p "try{require('$dir/node_modules/$pkg/package.json').version}catch(e){''}")" != "$ver" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    echo '{"private":true}' >"$dir/package.json"
    (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
      npm install --ignore-scripts --no-audit --no-fund --save-exact "$pkg@$ver" >install.log 2>&1) ||
      { echo "capture.sh: npm install $pkg@$ver failed, see $dir/install.log" >&2; exit 1; }
  fi
  for kv in $env; do e+=(-env "$kv"); done
  local argv=("$dir/node_modules/.bin/$cmd")
  [[ $cmd == */* ]] && argv=(node "$dir/node_modules/$cmd")
  "$work/capture" -server "$server" -package "$pkg@$ver" -date "$date" -dir "$work/run" \
    ${e[@]+"${e[@]}"} -out "$here/catalogs/$server.json" -- "${argv[@]}" "$@"
}

mkdir -p "$here/catalogs"
cap airtable airtable-mcp-server "AIRTABLE_API_KEY=patDUMMY.dummy" airtable-mcp-server
cap asana @roychri/mcp-server-asana "ASANA_ACCESS_TOKEN=dummy" mcp-server-asana
cap aws-kb @modelcontextprotocol/server-aws-kb-retrieval "AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1" mcp-server-aws-kb-retrieval
cap bitbucket bitbucket-mcp "BITBUCKET_URL=http://127.0.0.1:1 BITBUCKET_USERNAME=u BITBUCKET_PASSWORD=p BITBUCKET_WORKSPACE=w" bitbucket-mcp
cap calc @coo-quack/calc-mcp "" calc-mcp
cap chart @antv/mcp-server-chart "" mcp-server-chart
cap cloudflare @cloudflare/mcp-server-cloudflare "CLOUDFLARE_API_TOKEN=dummy CLOUDFLARE_ACCOUNT_ID=0000" mcp-server-cloudflare run 0000
cap desktop-commander @wonderwhy-er/desktop-commander "HOME=$H" desktop-commander --no-onboarding
cap discord mcp-discord "DISCORD_TOKEN=dummy" mcp-discord
cap docker @0xshariq/docker-mcp-server "" @0xshariq/docker-mcp-server/dist/index.js
cap elasticsearch @elastic/mcp-server-elasticsearch "ES_URL=http://127.0.0.1:1 ES_API_KEY=dummy" mcp-server-elasticsearch
cap excel @negokaz/excel-mcp-server "" excel-mcp-server
cap gdrive @modelcontextprotocol/server-gdrive "HOME=$H GDRIVE_CREDENTIALS_PATH=$H/.gdrive-server-credentials.json GDRIVE_OAUTH_PATH=$H/gcp-oauth.keys.json" mcp-server-gdrive
cap git @cyanheads/git-mcp-server "MCP_TRANSPORT_TYPE=stdio MCP_LOG_LEVEL=error" git-mcp-server
cap gmail @gongrzhe/server-gmail-autoauth-mcp "HOME=$H" gmail-mcp
cap google-calendar @cocal/google-calendar-mcp "HOME=$H GOOGLE_OAUTH_CREDENTIALS=$H/gcp-oauth.keys.json" google-calendar-mcp
cap hubspot @hubspot/mcp-server "PRIVATE_APP_ACCESS_TOKEN=pat-dummy" mcp-hubspot
cap jira @aaronsb/jira-cloud-mcp "JIRA_API_TOKEN=dummy JIRA_EMAIL=a@example.com JIRA_HOST=http://127.0.0.1:1" jira-cloud-mcp
cap lighthouse @danielsogl/lighthouse-mcp "" lighthouse-mcp-server
cap linear linear-mcp "LINEAR_ACCESS_TOKEN=lin_api_dummy" linear-mcp/build/index.js
cap mapbox @mapbox/mcp-server "MAPBOX_ACCESS_TOKEN=pk.dummy" mcp-server
cap netlify @netlify/mcp "NETLIFY_PERSONAL_ACCESS_TOKEN=dummy" netlify-mcp
cap obsidian mcp-obsidian "" mcp-obsidian "$work/vault"
cap pdf @sylphx/pdf-reader-mcp "" pdf-reader-mcp
cap reddit reddit-mcp-buddy "" reddit-mcp-buddy
cap resend resend-mcp "RESEND_API_KEY=re_dummy" resend-mcp
cap shopify @shopify/dev-mcp "OPT_OUT_INSTRUMENTATION=true" shopify-dev-mcp
cap sonarqube sonarqube-mcp-server "SONARQUBE_TOKEN=dummy SONARQUBE_URL=http://127.0.0.1:1" sonarqube-mcp-server
cap stock stockquotes-mcp "" stockquotes-mcp
cap terraform terraform-mcp-server "" terraform-mcp-server
cap time time-mcp "" time-mcp
cap todoist todoist-mcp "API_KEY=dummy" todoist-mcp
cap trello @delorenj/mcp-server-trello "TRELLO_API_KEY=dummy TRELLO_TOKEN=dummy TRELLO_BOARD_ID=dummy" mcp-server-trello
cap vercel vercel-mcp "VERCEL_API_KEY=dummy" vercel-mcp VERCEL_API_KEY=dummy
cap weather @dangahagan/weather-mcp "ENABLED_TOOLS=all" weather-mcp
cap wikipedia wikipedia-mcp "" wikipedia-mcp
cap youtube @kimtaeyoon83/mcp-server-youtube-transcript "" mcp-server-youtube-transcript
