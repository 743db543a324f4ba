// A browser for the tests of `mcp-code-mode login`, given as $BROWSER: it
// opens the authorization URL it is given and does what a person would on
// oidc-provider's development pages (sign in with any name and password),
// following redirects with the cookies set on the way, until the
// authorization server sends it back to login's loopback redirect, which
// it then opens. It notes each URL it opened in the file named by
// $BROWSER_LOG.
import fs from 'node:fs';

const jar = new Map();
const log = (line) => process.env.BROWSER_LOG && fs.appendFileSync(process.env.BROWSER_LOG, line + '\n');
async function go(url, init = {}) {
  log(`${init.method || 'GET'} ${url}`);
  const headers = { ...(init.headers || {}), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  for (const c of res.headers.getSetCookie()) {
    const kv = c.split(';')[0];
    const i = kv.indexOf('=');
    jar.set(kv.slice(0, i), kv.slice(i + 1));
  }
  return res;
}

let url = process.argv[2];
for (let step = 0; step < 20; step++) {
  const res = await go(url);
  if (res.status >= 300 && res.status < 400) {
    url = new URL(res.headers.get('location'), url).href;
    const u = new URL(url);
    if (u.hostname === '127.0.0.1' && u.pathname === '/callback') {
      const back = await go(url);
      log(`callback answered ${back.status}`);
      process.exit(0);
    }
    continue;
  }
  const html = await res.text();
  const action = html.match(/action="([^"]+)"/);
  if (!action) {
    log(`no form on ${url} (${res.status}): ${html.slice(0, 300)}`);
    process.exit(1);
  }
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) form.set(m[1], m[2]);
  if (html.includes('name="login"')) {
    form.set('login', 'alice');
    form.set('password', 'any');
  }
  log(`form ${form}`);
  const posted = await go(new URL(action[1], url).href, {
    method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  url = new URL(posted.headers.get('location'), url).href;
}
log('too many steps');
process.exit(1);
