# A program that tries to get the values of its arguments, and a configured
# secret, into the spans a run exports. Every word SENTINEL... below must
# appear in no attribute, status or event; each call must have its span,
# with its outcome.
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

# A tool name that is the configured secret (tok-SENTINEL-secret-77 in the
# test's config): the span may name the call, but not with the secret.
try:
    await runtime.call_tool("test", "tok-SENTINEL-secret-77", {"k": "SENTINEL-VALUE-5"})
except ToolError as e:
    print("made up:", type(e).__name__)

# A server that is not loaded.
try:
    await runtime.call_tool("nosuchserver", "x", {})
except ToolError as e:
    print("no server:", type(e).__name__)

# The program fails with a message of its own.
raise ValueError("SENTINEL-RAISE-6")
