# A hostile program for isolation = "session": it leaves everything it can
# behind in its container, for the session's next run to find
# (session-probe.py checks that none of it is there). SECRET is replaced by
# the test with a random value.
import builtins
import ctypes
import os
import signal
import sys
import time
import types

import mcp

SECRET = "SECRET"

# Files in every writable place, one in a directory it cannot read back.
for d in ("/tmp", "/dev/shm"):
    with open(os.path.join(d, "planted"), "w") as f:
        f.write(SECRET)
os.makedirs("/tmp/deep/er/still", exist_ok=True)
with open("/tmp/deep/er/still/planted", "w") as f:
    f.write(SECRET)
os.symlink("/tmp/deep", "/tmp/link")
os.chmod("/tmp/deep/er", 0)
os.chmod("/tmp/deep", 0o500)
os.mkfifo("/tmp/fifo")

libc = ctypes.CDLL(None, use_errno=True)
# A POSIX message queue (a file in /dev/mqueue, where the runtime has one:
# gVisor has not).
if os.path.isdir("/dev/mqueue"):
    fd = os.open("/dev/mqueue/planted", os.O_CREAT | os.O_RDWR, 0o600)
    os.close(fd)
# System V shared memory, a semaphore set and a message queue, which outlast
# their maker in the container's IPC namespace.
IPC_CREAT = 0o1000
assert libc.shmget(0x5EC, 4096, IPC_CREAT | 0o600) >= 0, ctypes.get_errno()
assert libc.semget(0x5ED, 1, IPC_CREAT | 0o600) >= 0, ctypes.get_errno()
assert libc.msgget(0x5EE, IPC_CREAT | 0o600) >= 0, ctypes.get_errno()

# The environment, and module state of every kind.
os.environ["PLANTED"] = SECRET
os.putenv("PLANTED_PUTENV", SECRET)
sys.modules["planted"] = types.ModuleType("planted", SECRET)
builtins.planted = SECRET
builtins.input = lambda *a: SECRET
mcp.runtime.call_tool = lambda *a, **k: SECRET
mcp.ToolError = None
mcp.planted = SECRET
sys.path.insert(0, "/tmp")
os.umask(0)

# Memory: the secret in a global, and a large global full of it (160 MiB:
# were it kept, the next run's 160 MiB would not fit under the 256 MiB
# limit).
PLANTED = SECRET
BIG = bytearray(160 << 20)
pattern = (SECRET.encode() * (1 << 20))[: 1 << 20]
for i in range(160):
    BIG[i << 20 : (i + 1) << 20] = pattern
del pattern


def daemon(body):
    """Double-forks and setsids a process that runs body."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            try:
                body()
            finally:
                os._exit(0)
        os._exit(0)


def late_writer():
    """Writes a marker once the next run may have started."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    for _ in range(600):
        time.sleep(0.05)
        for d in ("/tmp", "/dev/shm"):
            try:
                with open(os.path.join(d, "late"), "w") as f:
                    f.write(SECRET)
            except OSError:
                pass


daemon(late_writer)
# A child of this process, not detached, ignoring SIGTERM.
if os.fork() == 0:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(600)
    os._exit(0)
time.sleep(0.2)  # the daemon is up
print("planted")
