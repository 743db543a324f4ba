# Looks, in the session's next run, for what session-plant.py left behind;
# prints one line per thing found ("found: ..."), then "probed". MASKED is
# replaced by the test with the hex of the secret, each byte xor 0xff, so
# that this program does not hold the secret itself.
import builtins
import ctypes
import os
import sys

import mcp

found = []

for d in ("/tmp", "/dev/shm", "/dev/mqueue"):
    names = os.listdir(d) if os.path.isdir(d) else []
    if names:
        found.append("%s holds %s" % (d, sorted(names)))
# The planted System V objects, found by their keys (no runtime needs to
# list them for this: gVisor does not).
ipc = ctypes.CDLL(None, use_errno=True)
for kind, ident in (("shm", ipc.shmget(0x5EC, 0, 0)), ("sem", ipc.semget(0x5ED, 0, 0)), ("msg", ipc.msgget(0x5EE, 0))):
    if ident >= 0:
        found.append("System V %s: id %d" % (kind, ident))

# Processes: only the runner (PID 1, this run's supervisor) and this one.
me, parent = os.getpid(), os.getppid()
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) not in (1, me, parent):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ")
        except OSError:
            continue  # gone
        found.append("process %s: %r" % (pid, cmd))

if "PLANTED" in os.environ or "PLANTED_PUTENV" in os.environ:
    found.append("environment")
libc = ctypes.CDLL(None)
libc.getenv.restype = ctypes.c_char_p
if libc.getenv(b"PLANTED") or libc.getenv(b"PLANTED_PUTENV"):
    found.append("the C environment")
if "planted" in sys.modules or hasattr(builtins, "planted") or hasattr(mcp, "planted"):
    found.append("module state")
if input.__name__ == "<lambda>" or mcp.ToolError is None or "/tmp" in sys.path or mcp.runtime.call_tool.__name__ == "<lambda>":
    found.append("patched builtins or modules")
umask = os.umask(0o022)
if umask == 0:
    found.append("umask")

# Memory: the large global's room is free again (this much more fits under
# the container's memory limit), and the secret is nowhere in this process.
room = b"\x01" * (160 << 20)
del room
needle = bytearray.fromhex("MASKED")
for i in range(len(needle)):
    needle[i] ^= 0xFF
own = ctypes.addressof((ctypes.c_char * len(needle)).from_buffer(needle))
hits = 0
with open("/proc/self/maps") as f:
    maps = f.read().splitlines()
# /proc/self/mem is closed to this process (the runner makes itself
# undumpable); its readable mappings are read in place instead.
for line in maps:
    fields = line.split()
    if not fields[1].startswith("r") or (len(fields) > 5 and fields[5].startswith("[v")):
        continue
    lo, hi = (int(x, 16) for x in fields[0].split("-"))
    if len(fields) > 5 and fields[5].startswith("/"):
        continue  # a file's pages: the files are the image's, read-only
    for addr in range(lo, hi, 1 << 20):
        size = min((1 << 20) + len(needle) - 1, hi - addr)
        chunk = ctypes.string_at(addr, size)
        at = chunk.find(needle)
        while at >= 0:
            if addr + at != own:
                hits += 1
            at = chunk.find(needle, at + 1)
        del chunk
if hits:
    found.append("the secret in memory %d times" % hits)

for f in found:
    print("found:", f)
print("probed")
