// Drives VS Code (code-server) in a headless Chromium the way a new user
// would: open the folder, trust it, start each MCP server from "MCP: List
// Servers" until its output channel says VS Code has its tools, and confirm
// the tool calls VS Code asks about. Waits until the probe extension has
// recorded an answer for every request, and prints what VS Code showed as
// JSON: the "MCP: <name>" output channel of each server. Dialogs are logged
// on stderr.
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

// command runs a command from the command palette (F1). A modal dialog
// (a tool call to confirm) blocks the palette: it is answered first.
async function command(page, title) {
  const palette = page.locator('.quick-input-widget');
  for (let i = 0; ; i++) {
    await answerDialog(page);
    await page.keyboard.press('F1');
    try {
      await palette.waitFor({ state: 'visible', timeout: 3000 });
      break;
    } catch (e) {
      if (i >= 10) throw e;
    }
  }
  await page.keyboard.type(title);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
}

// pick chooses the quick-pick row whose label is exactly label.
async function pick(page, label, timeout) {
  const row = page.locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp('^\\s*' + label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\s*$') }) })
    .first();
  await row.waitFor({ state: 'visible', timeout });
  await row.click();
}

// answerDialog confirms the modal dialog VS Code shows, if any (running a
// tool, trusting a server), as the user would, logging it to stderr. It
// reports whether there was one.
async function answerDialog(page) {
  const dialog = page.locator('.monaco-dialog-box');
  if (!(await dialog.isVisible())) return false;
  const text = (await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 600);
  console.error('dialog: ' + text);
  if (process.env.DRIVE_DEBUG) await page.screenshot({ path: `${process.env.DRIVE_DEBUG}/dialog-${Date.now()}.png` });
  // A long text (run_python's description can be 3,000 characters) can push
  // the buttons below the window, where no pointer reaches them; a user then
  // answers with the keyboard, and so does this.
  const button = dialog.locator('.dialog-buttons .monaco-button').filter({ hasText: /^(Yes|Trust|Allow|Continue|OK)\b/ }).first();
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForTimeout(200);
  return true;
}

// answerDialogs answers the dialogs that come within ms.
async function answerDialogs(page, ms) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (!(await answerDialog(page))) await page.waitForTimeout(200);
  }
}

async function serverAction(page, server, action, timeout) {
  for (let i = 0; ; i++) {
    try {
      await command(page, 'MCP: List Servers');
      await pick(page, server, 15000);
      await pick(page, action, timeout ?? 15000);
      break;
    } catch (e) {
      // A dialog may have come up over the list: close the list, answer
      // the dialog, and do it again.
      if (i >= 2) throw e;
      await page.keyboard.press('Escape');
      await answerDialogs(page, 500);
    }
  }
  if (process.env.DRIVE_DEBUG) await page.screenshot({ path: `${process.env.DRIVE_DEBUG}/${server}-${action}.png` });
}

// outputOf shows a server's output channel and returns its text.
async function outputOf(page, server) {
  await serverAction(page, server, 'Show Output');
  const view = page.locator('.output-view .view-lines').first();
  await view.waitFor();
  await page.waitForTimeout(300);
  return view.innerText();
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
    // The trust has taken effect when Restricted Mode leaves the status bar.
    await page.locator('.statusbar-item', { hasText: /^\s*Restricted Mode\s*$/ }).waitFor({ state: 'hidden', timeout: 30000 })
      .catch(() => console.error('Restricted Mode still shown after trusting the folder'));
    // Start each server, and read its output channel until VS Code says it
    // has the server's tools; a user whose click went unheeded clicks again.
    const outputs = {};
    let pending = [...servers];
    for (let round = 1; round <= 3 && pending.length > 0; round++) {
      for (const s of pending) {
        try {
          await serverAction(page, s, 'Start Server', round === 1 ? undefined : 5000);
        } catch (e) {
          // Not offered: the server is starting or running already.
          await page.keyboard.press('Escape');
        }
        await answerDialogs(page, 1000);
      }
      for (const end = Date.now() + 20000; pending.length > 0 && Date.now() < end;) {
        for (const s of [...pending]) {
          outputs[s] = await outputOf(page, s);
          if (/Discovered\s\d+\stools/.test(outputs[s])) pending = pending.filter(p => p !== s);
        }
        await answerDialogs(page, 500);
      }
      if (pending.length > 0) {
        console.error(`round ${round}: VS Code has no tools yet from ${pending.join(', ')}`);
        await page.screenshot({ path: screenshot.replace(/\.png$/, `-round${round}.png`) }).catch(() => {});
      }
    }
    // The probe calls the tools once VS Code has all of them and this says
    // go; each call asks the user first.
    fs.writeFileSync(probeOut + '.go', '');
    for (const end = Date.now() + 45000; answers() < want && Date.now() < end;) {
      await answerDialogs(page, 250);
    }
    for (const s of servers) {
      outputs[s] = await outputOf(page, s);
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
