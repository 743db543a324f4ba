#!/usr/bin/env bash
# `make demo`: an MCP client (the MCP Inspector CLI) talks to
# `mcp-code-mode serve` over stdio, as a model's client would, and this
# prints what the model sees: the one tool's description, then the answers
# to six programs. Each call starts its own serve process, as a client
# starting a new session would: the last two show what one run remembers
# for the next.
set -euo pipefail
cd "$(dirname "$0")/.."
inspector=testdata/npm/node_modules/.bin/mcp-inspector
serve=(bin/mcp-code-mode serve --no-discovery --config configs/demo.toml)
rm -f /tmp/mcp-code-mode-demo-memory.jsonl /tmp/mcp-code-mode-demo-state.db /tmp/mcp-code-mode-demo-state.db-wal /tmp/mcp-code-mode-demo-state.db-shm

# Prints the text content of a tools/call answer, or the description from tools/list.
show() { node -e '
let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
  const r = JSON.parse(s);
  if (r.tools) { for (const t of r.tools) console.log("tool " + t.name + ":\n" + t.description); return; }
  for (const c of r.content || []) if (c.type === "text") console.log(c.text.replace(/\n$/, ""));
  const sc = r.structuredContent;
  if (sc) console.log(`[calls=${sc.calls} duration_ms=${sc.duration_ms} servers=${JSON.stringify(sc.servers)} stopped=${sc.stopped} error=${sc.error !== null}]`);
});'; }

call() { # call TITLE SERVERS_JSON CODE [TOOL_ARG...]
  echo; echo "=== $1"; echo "--- program (servers: $2):"; echo "$3"; echo "--- what the model gets back:"
  local title=$1 servers=$2 code=$3; shift 3
  local extra=()
  for a in "$@"; do extra+=(--tool-arg "$a"); done
  "$inspector" --cli --method tools/call --tool-name run_python \
    --tool-arg "code=$code" --tool-arg "servers=$servers" "${extra[@]}" -- "${serve[@]}" 2>/dev/null | show || true
}

echo "=== tools/list: the only tool the model sees"
"$inspector" --cli --method tools/list -- "${serve[@]}" 2>/dev/null | show || true

call "1. Find a tool by searching, read its signature, call it" '["everything"]' \
'from mcp import runtime
hits = await runtime.search_tool_docs("add two numbers", limit=3)
for h in hits:
    print(h["server"], h["tool"], "-", h["summary"])
doc = (await runtime.query_tool_docs("everything", "get-sum", detail="full"))[0]
print(doc["stub"])
print(await mcp_everything.get_sum(a=19, b=23))'

call "2. Three servers in one program, calls in parallel" '["everything", "memory", "toolbox"]' \
'import asyncio, time
t0 = time.monotonic()
weather, _, slept = await asyncio.gather(
    mcp_everything.get_structured_content(location="Chicago"),
    mcp_memory.create_entities(entities=[{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]),
    asyncio.gather(*(mcp_toolbox.sleep(ms=300) for _ in range(5))),
)
graph = await mcp_memory.read_graph()
print("weather:", weather)
print("graph:", [e["name"] for e in graph["entities"]])
print("5 x 300 ms sleeps took %.2f s in all" % (time.monotonic() - t0))'

call "3. Hostile code: every attempt is refused or contained" '["toolbox"]' \
'import os, socket
print("environment:", sorted(os.environ))
try:
    socket.create_connection(("1.1.1.1", 53), timeout=2)
except OSError as e:
    print("network:", type(e).__name__)
try:
    open("/etc/passwd", "a")
except OSError as e:
    print("write root:", e.strerror)
from mcp import runtime
for tool, args in [("env", {"name": "HOME"}), ("add", {"a": "1", "b": 2}), ("echo", {"message": "x" * 20000})]:
    try:
        await runtime.call_tool("toolbox", tool, args)
    except ToolError as e:
        print("refused:", e)'

call "4. A runaway program is stopped at its deadline (timeout: 3 s)" '["toolbox"]' \
'import time
print("working...")
while True:
    time.sleep(0.1)' timeout=3

call "5. Memory: a run keeps a note, counts itself and saves a tool (its serve process then exits)" '[]' \
'visits = update_memory("demo:visits", lambda n: (n or 0) + 1)
save_memory("demo:note", {"city": "Chicago", "by": "program 5"}, metadata={"kind": "note"})
save_tool("weather_report", """
async def weather_report(city: str) -> str:
    \"\"\"The weather in a city, from the toolbox server, kept as the last report.\"\"\"
    report = await mcp_toolbox.get_weather(city=city)
    save_memory("demo:last_report", report)
    return report
""", description="Weather in a city, kept as the last report")
print("visits:", visits)
print("memories:", [m["key"] for m in list_memories()], "tools:", [t["signature"] for t in list_tools()])'

call "6. A later run, in a new serve process, finds the note and imports the saved tool" '["toolbox"]' \
'from user_tools import weather_report
note = load_memory("demo:note")
print("note:", note, get_memory_info("demo:note")["metadata"])
print("report:", await weather_report(note["city"]), "| kept:", load_memory("demo:last_report"))
print("visits:", update_memory("demo:visits", lambda n: n + 1))
hits = await runtime.search_tool_docs("weather report for a city", limit=3)
print("search:", [h["server"] + "." + h["tool"] for h in hits])'
