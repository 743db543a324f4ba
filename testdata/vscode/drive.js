// Drives VS Code (code-server) in a headless Chromium the way a new user
// would: open the folder, trust it, and start each MCP server from
// "MCP: List Servers". Then waits until the probe extension has recorded an
// answer for every request, and prints what VS Code showed as JSON: the
// "MCP: <name>" output channel of each server.
//
// usage: node drive.js URL PROBE_OUT COUNT SCREENSHOT SERVER...
// CHROMIUM names the browser binary (default: /usr/bin/chromium).
'use strict';
const fs = require('fs');
const { chromium } = require('playwright-core');

const [url, probeOut, countArg, screenshot, ...servers] = process.argv.slice(2);
const want = Number(countArg);

function answers() {
  let text = '';
  try { text = fs.readFileSync(probeOut, 'utf8'); } catch { return 0; }
  return text.split('\n').filter(l => /"event":"(result|error)"/.test(l)).length;
}

// command runs a command from the command palette (F1).
async function command(page, title) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget').waitFor({ state: 'visible' });
  await page.keyboard.type(title);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
}

// pick chooses the quick-pick row whose label is exactly label.
async function pick(page, label) {
  const row = page.locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp('^\\s*' + label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\s*$') }) })
    .first();
  await row.waitFor({ state: 'visible' });
  await row.click();
}

// answerDialogs confirms the modal dialogs VS Code shows (running a tool,
// trusting a server) as the user would, logging each to stderr.
async function answerDialogs(page, ms) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    const dialog = page.locator('.monaco-dialog-box');
    if (await dialog.isVisible()) {
      const text = (await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 600);
      const yes = dialog.locator('.dialog-buttons a.monaco-button, .dialog-buttons .monaco-button')
        .filter({ hasText: /^(Yes|Trust|Allow|Continue|OK)\b/ }).first();
      console.error('dialog: ' + text);
      if (process.env.DRIVE_DEBUG) await page.screenshot({ path: `${process.env.DRIVE_DEBUG}/dialog-${Date.now()}.png` });
      await yes.click();
      await page.waitForTimeout(200);
      continue;
    }
    await page.waitForTimeout(200);
  }
}

async function serverAction(page, server, action) {
  await command(page, 'MCP: List Servers');
  await pick(page, server);
  await pick(page, action);
  if (process.env.DRIVE_DEBUG) await page.screenshot({ path: `${process.env.DRIVE_DEBUG}/${server}-${action}.png` });
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60000);
  try {
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor();
    await page.getByRole('button', { name: 'Yes, I trust the authors' }).click();
    for (const s of servers) {
      await serverAction(page, s, 'Start Server');
      await answerDialogs(page, 2000);
    }
    for (const end = Date.now() + 120000; answers() < want && Date.now() < end;) {
      await answerDialogs(page, 250);
    }
    const outputs = {};
    for (const s of servers) {
      await serverAction(page, s, 'Show Output');
      const view = page.locator('.output-view .view-lines').first();
      await view.waitFor();
      await page.waitForTimeout(500);
      outputs[s] = await view.innerText();
    }
    console.log(JSON.stringify({ answers: answers(), outputs }, null, 1));
  } catch (e) {
    await page.screenshot({ path: screenshot }).catch(() => {});
    throw e;
  } finally {
    await browser.close();
  }
})().catch(e => {
  console.error(e);
  process.exit(1);
});
