# A program that tries to get the values of its arguments into the audit
# log, and to forge records of its own there. Every word SENTINEL... below
# (and the number 987654321) must appear nowhere in the log; each call must
# be there, with its outcome.
from mcp import runtime

print("ok:", await mcp_test.echo(message="SENTINEL-ECHO-1"))

# Refused by the policy (deny = ["env"]): no server sees it.
try:
    await runtime.call_tool("test", "env", {"name": "SENTINEL-DENIED-2"})
except ToolError as e:
    print("refused:", e)

# A tool error whose text quotes the argument.
try:
    await mcp_test.fail(message="SENTINEL-FAIL-3")
except ToolError as e:
    print("error:", e)

# Past its own deadline.
try:
    await mcp_test.sleep(ms=5000, timeout=0.3)
except ToolError as e:
    print("timeout:", e)

# Refused by the schema, whose complaint quotes the value.
try:
    await mcp_test.sleep(ms=987654321)
except ToolError as e:
    print("schema:", e)

# Refused: an argument name the schema does not list.
try:
    await runtime.call_tool("test", "echo", {"message": "m", "SENTINEL_KEY_4": "SENTINEL-VALUE-5"})
except ToolError as e:
    print("names:", e)

# A tool name that tries to end its record and start a forged one, in the
# JSON lines and in the log command's table.
forged = 'x"}\n{"time":"2030-01-01T00:00:00Z","kind":"call","run":"forged","session":"cli","server":"test","tool":"FORGED","outcome":"ok"}\n\x1b[2K'
try:
    await runtime.call_tool("test", forged, {})
except ToolError as e:
    print("forged:", type(e).__name__)

# The program fails with a message of its own.
raise ValueError("SENTINEL-RAISE-6")
