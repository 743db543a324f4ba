// Stands in for the chat model: once VS Code offers, for every request, a
// run_python tool whose description contains the request's "match", it
// invokes each through vscode.lm.invokeTool (the path chat takes) and
// appends the answers to $PROBE_OUT as JSON lines. Requests come from the
// JSON file $PROBE_REQUEST: [{"id": "...", "match": "...", "input": {...}}].
const vscode = require('vscode');
const fs = require('fs');

function record(entry) {
  fs.appendFileSync(process.env.PROBE_OUT, JSON.stringify(entry) + '\n');
}

exports.activate = async function () {
  const requests = JSON.parse(fs.readFileSync(process.env.PROBE_REQUEST, 'utf8'));
  record({ event: 'activated' });
  const toolFor = r => vscode.lm.tools.find(t => t.name.endsWith('run_python') && (t.description || '').includes(r.match));
  // Every server is started first (each may ask the user to trust it); the
  // calls, which ask the user to confirm each, come after.
  const deadline = Date.now() + 10 * 60 * 1000;
  let seen = '';
  // ...and the driver has seen them all started (it creates $PROBE_OUT.go),
  // so that the confirmations come while it waits for them.
  const go = () => fs.existsSync(process.env.PROBE_OUT + '.go');
  while (!requests.every(toolFor) || !go()) {
    const names = vscode.lm.tools.map(t => t.name);
    if (names.join(',') !== seen) {
      seen = names.join(',');
      record({ event: 'tools', names });
    }
    if (Date.now() > deadline) {
      record({ event: 'timeout', names });
      return;
    }
    await new Promise(resolve => setTimeout(resolve, 250));
  }
  for (const r of requests) {
    const tool = toolFor(r);
    try {
      const res = await vscode.lm.invokeTool(tool.name, { input: r.input, toolInvocationToken: undefined });
      record({ event: 'result', id: r.id, tool: tool.name, text: res.content.map(p => (typeof p.value === 'string' ? p.value : '')).join('') });
    } catch (e) {
      record({ event: 'error', id: r.id, tool: tool.name, message: String((e && e.message) || e) });
    }
  }
};

exports.deactivate = function () {};
