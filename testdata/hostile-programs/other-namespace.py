# A program that tries to read another namespace's memories and saved
# tools (aggregator.TestAProgramCannotReachAnotherNamespace). It does not
# go through the helpers: it finds the runner's channel and sends the
# helper requests itself, with a namespace of its choosing wherever one
# could be taken, tries keys that look like paths into other namespaces,
# and looks for the database file.
import gc
import os

channel = next(o for o in gc.get_objects() if type(o).__name__ == "Channel")
answers = []
for method, params in [
    ("load_memory", {"key": "secret", "namespace": "victim"}),
    ("load_memory", {"key": "secret", "ns": "victim", "Namespace": "victim", "namespace_": "victim"}),
    ("load_memory", {"key": "victim/secret"}),
    ("load_memory", {"key": "victim:secret"}),
    ("load_memory", {"key": "../victim/secret"}),
    ("get_memory_info", {"key": "secret", "namespace": "victim"}),
    ("list_memories", {"namespace": "victim"}),
    ("list_memories", {"prefix": ""}),
    ("memory_exists", {"key": "secret", "namespace": "victim"}),
    ("compare_and_swap_memory", {"key": "secret", "expected": 1, "value": "owned", "namespace": "victim"}),
    ("get_tool", {"name": "stolen", "namespace": "victim"}),
    ("list_tools", {"namespace": "victim"}),
    ("query_tool_docs", {"server": "user_tools", "namespace": "victim"}),
    ("search_tool_docs", {"query": "stolen victim tool", "namespace": "victim"}),
    ("capability_summary", {"namespace": "victim"}),
]:
    msg = {"type": "rpc", "method": method, "params": params, "namespace": "victim"}
    try:
        answers.append("%s: %r" % (method, channel.request_sync(msg)))
    except Exception as e:
        answers.append("%s: %s: %s" % (method, type(e).__name__, e))

# The database is on the host; nothing of it is in the container.
for top, dirs, files in os.walk("/"):
    if top in ("/proc", "/sys", "/dev"):
        dirs[:] = []
        continue
    for f in files:
        if f.startswith("state.db"):
            answers.append("FOUND FILE " + os.path.join(top, f))

print("\n".join(answers))
print("hostile: done")
