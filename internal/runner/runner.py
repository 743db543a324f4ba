"""The mcp-code-mode sandbox runner.

It runs as the container's only program, in two processes:

* The supervisor (this process as started) owns the container's stdin and
  stdout: the protocol with the host, one JSON object per line. It reads one
  "start" message, then forks.
* The worker (the forked child) runs the model's code. Its descriptors 0, 1
  and 2 never reach the protocol: 0 is /dev/null, 1 and 2 are a pipe whose
  bytes the supervisor wraps, as data, in "output" messages. The worker talks
  to the supervisor over two private socket pairs (async and sync calls); the
  supervisor checks every line it gets from them and re-encodes it before it
  goes to the host, and cannot be traced or read through /proc by the worker.
  Everything the program printed reaches the host before "done".

In session mode (the host's first line is SESSION_LINE) the process as
started becomes the session's root instead: it never reads a program, and
for each program forks a fresh supervisor, which forks a fresh worker and
runs the one program as above. Between programs the root kills every other
process in the container and a throwaway child of it empties every writable
place, so nothing of one program reaches the next (see session()).

The host treats everything from here as untrusted too.
"""

import ast
import asyncio
import builtins
import codecs
import difflib
import hashlib
import hmac
import inspect
import json
import keyword
import os
import random
import select
import signal
import socket
import sys
import time
import traceback
import types

# Longest line accepted from the host (results are <= 64 KiB of JSON, but
# escaping can grow them) and from the worker (arguments are <= 16 KiB).
MAX_HOST_LINE = 4 << 20
MAX_WORKER_LINE = 256 << 10
# Longest request the worker sends: a larger one would break the line limit
# (and end the run), so it raises ToolError instead. The supervisor gives
# the request a new id, which may be a few digits longer.
MAX_REQUEST = MAX_WORKER_LINE - 1024
# Tries of update_memory's compare-and-swap before it gives up.
MAX_UPDATE_ATTEMPTS = 25
# Output is relayed in chunks small enough that their JSON (escaping can
# grow a byte to six) stays far below the host's line limit.
OUTPUT_CHUNK = 16 << 10
# How much of a traceback reaches the host.
MAX_TRACEBACK_LINES = 12
MAX_TRACEBACK_CHARS = 2000

WORKER_TYPES = {"call", "rpc", "done"}

# The host's first line when the container serves a session of programs
# (runner/protocol.go SessionLine). Every start line is longer, so reading
# this many bytes first never reads into a program.
SESSION_LINE = b'{"type":"session"}\n'
# The answer to SESSION_LINE once this container can serve a session
# (runner/protocol.go SessionReady); a container that cannot exits instead.
SESSION_READY = b'{"type":"session_ready"}\n'
# A session's supervisor exits with this when the host closed the stream:
# the session is over.
HOST_GONE = 3
# The writable places of the container (its root is read-only): each is
# emptied between the programs of a session.
WRITABLE_DIRS = ("/tmp", "/dev/shm", "/dev/mqueue")

# This file, whose frames are left out of the program's tracebacks.
RUNNER_FILE = __file__


class ToolError(Exception):
    """A tool call was refused by the bridge or failed in the wrapped server."""


# ---------------------------------------------------------------- supervisor


class LineBuffer:
    """Splits bytes read from one descriptor into lines of bounded length."""

    def __init__(self, fd, limit):
        self.fd = fd
        self.limit = limit
        self.buf = bytearray()
        self.eof = False

    def fill(self):
        chunk = os.read(self.fd, 65536)
        if not chunk:
            self.eof = True
        self.buf += chunk

    def lines(self):
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                if len(self.buf) > self.limit:
                    raise ValueError("line longer than %d bytes" % self.limit)
                return
            line = bytes(self.buf[:i])
            del self.buf[: i + 1]
            if len(line) > self.limit:
                raise ValueError("line longer than %d bytes" % self.limit)
            yield line


def write_all(fd, data):
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def take_key(start):
    """Splits the run's key off the host's start line, so the program never
    gets it; returns the line without it, and the key."""
    msg = json.loads(start)
    key = bytes.fromhex(msg.pop("key"))
    if len(key) != 32:
        raise ValueError("the key must be 32 bytes")
    return json.dumps(msg, separators=(",", ":")).encode(), key


def signer(fd, key):
    """Returns send(msg): each line to the host is prefixed with the first 32
    hex digits of HMAC-SHA256(key, line number || JSON), which the host checks
    (runner/protocol.go). Only this process knows the key."""
    seq = 0

    def send(msg):
        nonlocal seq
        body = json.dumps(msg, separators=(",", ":"), allow_nan=False).encode()
        mac = hmac.new(key, seq.to_bytes(8, "big") + body, hashlib.sha256).hexdigest()[:32]
        seq += 1
        write_all(fd, mac.encode() + b" " + body + b"\n")

    return send


def set_not_dumpable():
    """Keeps the worker (same uid) from ptrace or /proc/<pid>/fd access."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_DUMPABLE = 4
        if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl")
    except Exception as exc:  # pragma: no cover - depends on the image
        # Without this the worker could attach to the supervisor; refuse to run.
        raise SystemExit("runner: cannot make the supervisor undumpable: %r" % (exc,))


def read_prefix(fd, n):
    """Reads up to n bytes, fewer only at a newline or the end of the stream."""
    data = bytearray()
    while len(data) < n and not data.endswith(b"\n"):
        chunk = os.read(fd, n - len(data))
        if not chunk:
            break
        data += chunk
    return bytes(data)


def read_start(fd, prefix=b"", skip_replies=False):
    """Waits for the host's first line (the program), returned as bytes;
    prefix is what was read of it already. With skip_replies (a session),
    replies to the previous program's calls that the host sent after that
    program had ended are passed over."""
    buf = LineBuffer(fd, MAX_HOST_LINE)
    buf.buf += prefix
    while True:
        for line in buf.lines():
            if skip_replies and line.startswith(b'{"type":"result"'):
                continue
            return line, buf
        if buf.eof:
            raise SystemExit(0)  # host went away before sending a program
        r, _, _ = select.select([fd], [], [])
        buf.fill()


def check_worker_message(msg):
    if not isinstance(msg, dict):
        raise ValueError("message is not an object")
    kind = msg.get("type")
    if kind not in WORKER_TYPES:
        raise ValueError("unknown message type")
    if kind == "done":
        err = msg.get("error")
        if err is not None and not isinstance(err, str):
            raise ValueError("done.error is not a string")
        status = msg.get("exit")
        if status is None:
            return {"type": "done", "error": err}
        if err is None or not isinstance(status, int) or isinstance(status, bool) or not 1 <= status <= 255:
            raise ValueError("done.exit must be 1 to 255, with an error")
        return {"type": "done", "error": err, "exit": status}
    cid = msg.get("id")
    if not isinstance(cid, int) or isinstance(cid, bool) or cid < 1:
        raise ValueError("bad id")
    if kind == "call":
        server, tool, args = msg.get("server"), msg.get("tool"), msg.get("args")
        if not isinstance(server, str) or not isinstance(tool, str):
            raise ValueError("call needs server and tool strings")
        out = {"type": "call", "id": cid, "server": server, "tool": tool, "args": args}
        timeout = msg.get("timeout_ms")
        if timeout is not None:
            if not isinstance(timeout, int) or isinstance(timeout, bool) or timeout < 1:
                raise ValueError("call.timeout_ms must be a positive integer")
            out["timeout_ms"] = timeout
        return out
    method, params = msg.get("method"), msg.get("params")
    if not isinstance(method, str) or not isinstance(params, dict):
        raise ValueError("rpc needs a method string and params object")
    return {"type": "rpc", "id": cid, "method": method, "params": params}


def supervise(pid, proto_in, host_buf, send, channels, out_r, host_gone=0):
    """Relays between the worker's channels and the host until the worker ends."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    os.set_blocking(out_r, False)
    out_open = True

    def from_output():
        """Relays what the program printed; False once the pipe has no more."""
        nonlocal out_open
        try:
            chunk = os.read(out_r, OUTPUT_CHUNK)
        except BlockingIOError:
            return False
        if not chunk:
            out_open = False
            tail = decoder.decode(b"", final=True)
            if tail:
                send({"type": "output", "data": tail})
            return False
        text = decoder.decode(chunk)
        if text:
            send({"type": "output", "data": text})
        return True

    worker_bufs = {ch.fileno(): (ch, LineBuffer(ch.fileno(), MAX_WORKER_LINE)) for ch in channels}
    routes = {}  # host id -> (channel, worker id)
    next_id = 0
    done = None
    # The worker's exit ends the run even if a process it started still holds
    # the sockets open. A pidfd says when; where there is none (gVisor, older
    # kernels), SIGCHLD wakes a pipe and waitpid tells.
    reaped = None
    try:
        exit_fd = os.pidfd_open(pid)
        by_signal = False
    except OSError:
        exit_fd, wake_w = os.pipe()
        os.set_blocking(exit_fd, False)
        os.set_blocking(wake_w, False)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(wake_w)
        by_signal = True

    def worker_exited():
        """Whether the worker has ended (with the pipe: reaping it)."""
        nonlocal reaped
        if not by_signal:
            return True
        try:
            while os.read(exit_fd, 512):
                pass
        except BlockingIOError:
            pass
        wpid, status = os.waitpid(pid, os.WNOHANG)
        if wpid == pid:
            reaped = status
            return True
        return False

    def violation(reason):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        send({"type": "done", "error": "ProtocolError: " + reason})
        os._exit(0)

    def from_worker(fd):
        nonlocal next_id, done
        ch, buf = worker_bufs[fd]
        try:
            buf.fill()
        except OSError:
            buf.eof = True
        try:
            for line in buf.lines():
                msg = check_worker_message(json.loads(line))
                if msg["type"] == "done":
                    done = msg
                    continue
                next_id += 1
                routes[next_id] = (ch, msg["id"])
                msg["id"] = next_id
                send(msg)
        except ValueError as exc:  # includes json.JSONDecodeError
            violation(str(exc)[:200])
        if buf.eof:
            del worker_bufs[fd]

    def from_host():
        host_buf.fill()
        for line in host_buf.lines():
            msg = json.loads(line)
            route = routes.pop(msg.get("id"), None)
            if route is None:
                continue
            ch, wid = route
            msg["id"] = wid
            try:
                ch.sendall(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
            except OSError:
                pass  # the worker is gone; its exit is handled below
        if host_buf.eof:
            # The host ended the run.
            os.kill(pid, signal.SIGKILL)
            os._exit(host_gone)

    # With the pipe, the worker may have ended before SIGCHLD was caught.
    exited = by_signal and worker_exited()
    while not exited and done is None:
        fds = [proto_in, exit_fd] + list(worker_bufs) + ([out_r] if out_open else [])
        readable, _, _ = select.select(fds, [], [])
        for fd in readable:
            if fd == proto_in:
                from_host()
            elif fd == exit_fd:
                exited = worker_exited()
            elif fd == out_r:
                from_output()
            elif fd in worker_bufs:
                from_worker(fd)
    # Take what the worker wrote before it ended (a process it started may
    # still hold the pipe and sockets: take what is there, do not wait).
    while out_open and from_output():
        pass
    while worker_bufs:
        readable, _, _ = select.select(list(worker_bufs), [], [], 0)
        if not readable:
            break
        for fd in readable:
            from_worker(fd)

    if done is None:
        status = reaped
        if status is None:
            _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            hint = " (out of memory?)" if sig == signal.SIGKILL else ""
            done = {"type": "done", "error": "the program was killed by signal %d%s" % (sig, hint)}
        else:
            code = os.WEXITSTATUS(status)
            done = {"type": "done", "error": None}
            if code != 0:
                done = {"type": "done", "error": "the program exited with status %d" % code, "exit": code}
    send(done)


def fork_worker(proto_in, proto_out):
    """Forks the worker, which gets its event loop ready and waits for the
    program; returns its pid and the supervisor's ends of its channels."""
    call_sv, call_wk = socket.socketpair()
    sync_sv, sync_wk = socket.socketpair()
    out_r, out_w = os.pipe()
    start_r, start_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(proto_in)
        os.close(proto_out)
        os.close(out_r)
        os.close(start_w)
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        os.close(out_w)
        call_sv.close()
        sync_sv.close()
        status = 1
        try:
            status = worker(start_r, call_wk, sync_wk)
        finally:
            os._exit(status)
    os.close(out_w)
    os.close(start_r)
    call_wk.close()
    sync_wk.close()
    return pid, [call_sv, sync_sv], out_r, start_w


def run_one(proto_in, proto_out, pid, channels, out_r, start_w, prefix=b"", session=False):
    """Runs one program in the worker pid: reads its start line, hands it
    over, and relays until it ends."""
    try:
        start, host_buf = read_start(proto_in, prefix, skip_replies=session)
        start, key = take_key(start)
    except (SystemExit, ValueError, KeyError, TypeError, AttributeError):
        os.kill(pid, signal.SIGKILL)
        raise
    write_all(start_w, start + b"\n")
    os.close(start_w)
    supervise(pid, proto_in, host_buf, signer(proto_out, key), channels, out_r, HOST_GONE if session else 0)


def main():
    # Private copies of the protocol descriptors, then point 0, 1 and 2 at
    # places that cannot carry a protocol message.
    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    set_not_dumpable()

    # The worker is forked, and gets its event loop ready, before the program
    # arrives: a run then starts at once.
    pid, channels, out_r, start_w = fork_worker(proto_in, proto_out)
    try:
        prefix = read_prefix(proto_in, len(SESSION_LINE))
    except OSError:
        os.kill(pid, signal.SIGKILL)
        raise
    if prefix == SESSION_LINE:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        for fd in (out_r, start_w):
            os.close(fd)
        for ch in channels:
            ch.close()
        session(proto_in, proto_out)
    run_one(proto_in, proto_out, pid, channels, out_r, start_w, prefix)


# ------------------------------------------------------------------- session


def session(proto_in, proto_out):
    """Serves a session: program after program, each in a supervisor and a
    worker forked afresh from this process, which never reads a program (it
    read only SESSION_LINE) and so has nothing of one to pass on. Between
    programs every other process is killed and the writable places are
    emptied. It returns never: the container ends when the host closes the
    stream, or when a supervisor or the cleaning fails."""
    # kill(-1) is safe only inside the container's own PID namespace, where
    # this process is PID 1 (no engine-added init): every orphan is then
    # ours to reap, and no program can signal us.
    if os.getpid() != 1:
        raise SystemExit("runner: session mode needs the runner as PID 1 of its container, not PID %d" % os.getpid())
    # Between programs the System V IPC objects are removed by the list the
    # kernel keeps; a kernel that keeps none (gVisor) leaves no way to tell
    # what a program left, so such a container serves no session.
    if not os.path.isdir("/proc/sysvipc"):
        raise SystemExit("runner: session mode needs /proc/sysvipc to clean System V IPC between programs, and this kernel has none (gVisor?): use isolation = \"run\"")
    write_all(proto_out, SESSION_READY)
    while True:
        sup = os.fork()
        if sup == 0:
            status = 1
            try:
                pid, channels, out_r, start_w = fork_worker(proto_in, proto_out)
                run_one(proto_in, proto_out, pid, channels, out_r, start_w, session=True)
                status = 0
            except SystemExit:
                status = HOST_GONE  # the stream ended before a program
            finally:
                os._exit(status)
        status = reap_until(sup)
        end_processes()
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            # The host is gone, or the supervisor failed (the worker may
            # have killed it): the session ends with the container.
            os._exit(0 if os.WIFEXITED(status) and os.WEXITSTATUS(status) == HOST_GONE else 1)
        cleaner = os.fork()
        if cleaner == 0:
            ok = False
            try:
                ok = empty_writable()
            finally:
                os._exit(0 if ok else 1)
        status = reap_until(cleaner)
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            os._exit(1)


def reap_until(pid):
    """Reaps children (orphans of programs among them) until pid ends;
    returns its wait status."""
    while True:
        try:
            wpid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            raise SystemExit("runner: lost child %d" % pid)
        if wpid == pid:
            return status


def end_processes():
    """Kills every other process this one may signal (in the container: all
    of them, as they share its uid and kill(-1) spares the caller) until
    none is left, and reaps them. A process forked while the signal went out
    is caught by the next round: a process with SIGKILL pending cannot
    fork."""
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass  # none left to signal
        while True:
            try:
                os.waitpid(-1, 0)
            except ChildProcessError:
                break
        try:
            os.kill(-1, 0)
        except ProcessLookupError:
            return


def empty_writable():
    """Empties the container's writable places and its System V IPC
    objects. Runs in a child of the session's root that exits after, so
    that the names it reads stay out of the root's memory. Returns whether
    everything went."""
    ok = True
    for top in WRITABLE_DIRS:
        if os.path.isdir(top):
            ok = empty_dir(top) and ok
    return remove_sysv_ipc() and ok


def empty_dir(top):
    """Removes everything under top without following a link, making
    unreadable directories readable first (they are ours), iteratively, so
    no nesting depth stops it."""
    ok = True
    stack = [(top, False)]
    while stack:
        path, visited = stack.pop()
        if visited:
            try:
                os.rmdir(path)
            except OSError:
                ok = False
            continue
        if path != top:
            try:
                os.chmod(path, 0o700)
            except OSError:
                pass
            stack.append((path, True))
        try:
            entries = list(os.scandir(path))
        except OSError:
            ok = False
            continue
        for e in entries:
            try:
                is_dir = e.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                stack.append((e.path, False))
                continue
            try:
                os.unlink(e.path)
            except FileNotFoundError:
                pass
            except OSError:
                ok = False
    return ok


def remove_sysv_ipc():
    """Removes every System V shared memory segment, semaphore set and
    message queue (the container has an IPC namespace of its own, where
    they would outlast the program that made them). Where the kernel does
    not list them (gVisor has no /proc/sysvipc, and its SHM_STAT finds
    nothing), what is left cannot be told: that is a failure, and the
    container ends."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
    except Exception:  # pragma: no cover - depends on the image
        return False
    IPC_RMID = 0
    ok = True
    for kind, rm in (("shm", libc.shmctl), ("sem", libc.semctl), ("msg", libc.msgctl)):
        try:
            with open("/proc/sysvipc/" + kind) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            ok = False
            continue
        for row in rows:
            fields = row.split()
            if len(fields) < 2:
                continue
            ident = int(fields[1])
            if kind == "sem":
                res = rm(ident, 0, IPC_RMID)
            else:
                res = rm(ident, IPC_RMID, None)
            if res != 0:
                ok = False
    return ok


# -------------------------------------------------------------------- worker


class Channel:
    """The worker's side of the supervisor link."""

    def __init__(self, call_sock, sync_sock):
        self.call_sock = call_sock
        self.sync_sock = sync_sock
        self.next_id = 0
        self.pending = {}
        self.writer = None
        self.reader_task = None

    def _new_id(self):
        self.next_id += 1
        return self.next_id

    @staticmethod
    def _encode(msg):
        try:
            data = json.dumps(msg, separators=(",", ":"), allow_nan=False).encode() + b"\n"
        except (TypeError, ValueError) as exc:
            raise TypeError("tool arguments must be JSON values: %s" % exc) from None
        if len(data) > MAX_REQUEST:
            what = msg.get("method") or "%s.%s" % (msg.get("server"), msg.get("tool"))
            raise ToolError(
                "%s: the request is %d bytes as JSON (a character outside ASCII counts as its \\u escape, 6 bytes), "
                "over the %d bytes one request may carry; nothing was sent" % (what, len(data), MAX_REQUEST)
            )
        return data

    async def start(self):
        reader, self.writer = await asyncio.open_connection(sock=self.call_sock, limit=MAX_HOST_LINE)
        self.reader_task = asyncio.get_running_loop().create_task(self._read(reader))

    async def _read(self, reader):
        while True:
            line = await reader.readline()
            if not line:
                break
            msg = json.loads(line)
            fut = self.pending.pop(msg.get("id"), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        for fut in self.pending.values():
            if not fut.done():
                fut.set_exception(ToolError("the host ended the run"))

    async def request(self, msg):
        cid = self._new_id()
        msg["id"] = cid
        data = self._encode(msg)
        fut = asyncio.get_running_loop().create_future()
        self.pending[cid] = fut
        self.writer.write(data)
        await self.writer.drain()
        return unwrap(await fut)

    def request_sync(self, msg):
        cid = self._new_id()
        msg["id"] = cid
        self.sync_sock.sendall(self._encode(msg))
        buf = bytearray()
        while b"\n" not in buf:
            chunk = self.sync_sock.recv(65536)
            if not chunk:
                raise ToolError("the host ended the run")
            buf += chunk
            if len(buf) > MAX_HOST_LINE:
                raise ToolError("reply too long")
        return unwrap(json.loads(bytes(buf[: buf.index(b"\n")])))


def unwrap(reply):
    if reply.get("ok"):
        return reply.get("value")
    raise ToolError(str(reply.get("error") or "the call failed"))


def make_tool(channel, alias, tool):
    name = tool["name"]
    py = tool["py"]
    params = tool.get("params") or []
    to_json = {p["py"]: p["name"] for p in params}
    order = [p["py"] for p in params]
    # Optional parameters whose schema does not allow null: None leaves them out.
    drop_none = {p["name"] for p in params if p.get("drop_none")}
    # timeout= sets the call's own deadline, unless the tool takes a timeout
    # of its own: then _timeout= does.
    timeout_kw = "_timeout" if "timeout" in to_json or "timeout" in to_json.values() else "timeout"

    async def call(*args, **kwargs):
        timeout = kwargs.pop(timeout_kw, None)
        msg = {"type": "call", "server": alias, "tool": name}
        if timeout is not None:
            if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
                raise TypeError("%s(): %s must be a positive number of seconds" % (py, timeout_kw))
            msg["timeout_ms"] = max(1, int(timeout * 1000))
        if len(args) == 1 and not kwargs and isinstance(args[0], dict):
            arguments = dict(args[0])
        else:
            if len(args) > len(order):
                raise TypeError("%s() takes at most %d positional arguments" % (py, len(order)))
            arguments = {}
            for pyname, value in zip(order, args):
                arguments[to_json[pyname]] = value
            for key, value in kwargs.items():
                json_name = to_json.get(key, key)
                if json_name in arguments:
                    raise TypeError("%s() got multiple values for argument %r" % (py, key))
                arguments[json_name] = value
        for key in [k for k, v in arguments.items() if v is None and k in drop_none]:
            del arguments[key]
        msg["args"] = arguments
        return await channel.request(msg)

    call.__name__ = call.__qualname__ = py
    call.__doc__ = tool.get("doc") or tool.get("description") or ""
    return call


def make_denied(channel, alias, name, py):
    """A tool the policy denies: calling it sends the call, which the bridge
    refuses with a ToolError naming the rule (and counts, as every call)."""

    async def call(*args, **kwargs):
        return await channel.request({"type": "call", "server": alias, "tool": name, "args": {}})

    call.__name__ = call.__qualname__ = py
    call.__doc__ = "Denied by the policy: calling it raises ToolError."
    return call


def make_module(channel, m):
    """The module mcp_<alias> of one server: its allowed tools as attributes.
    A denied tool is no attribute (dir() and the docs leave it out), but
    getting it gives a function whose call raises ToolError saying which rule
    denies it; any other missing name is an AttributeError that suggests the
    closest tools."""
    name, server = m["module"], m["server"]
    mod = types.ModuleType(name, m.get("description") or "")
    tools = []
    for tool in m.get("tools") or []:
        setattr(mod, tool["py"], make_tool(channel, m["alias"], tool))
        tools.append(tool["py"])
    denied = {t["py"]: t["name"] for t in m.get("denied") or []}

    def __getattr__(attr):
        if attr in denied:
            return make_denied(channel, m["alias"], denied[attr], attr)
        msg = "module %r has no attribute %r" % (name, attr)
        if not (attr.startswith("__") and attr.endswith("__")):
            msg = "module %r has no tool %r" % (name, attr)
            close = difflib.get_close_matches(attr, tools, n=3, cutoff=0.6)
            if close:
                msg += ": did you mean %s?" % " or ".join(repr(c) for c in close)
            msg += " (await runtime.query_tool_docs(%r) lists the tools of server %r)" % (server, server)
        # name=None keeps Python from appending a suggestion of its own.
        raise AttributeError(msg, name=None, obj=None)

    mod.__getattr__ = __getattr__
    return mod


def make_runtime(channel, modules):
    rt = types.ModuleType("mcp.runtime", "Discovery and search of the configured MCP servers.")
    by_name = {}
    for m in modules:
        by_name[m["server"]] = m["alias"]
        by_name[m["alias"]] = m["alias"]

    def rpc(method):
        async def call(**params):
            return await channel.request({"type": "rpc", "method": method, "params": params})

        def call_sync(**params):
            return channel.request_sync({"type": "rpc", "method": method, "params": params})

        return call, call_sync

    def define(name, signature, read_only=True):
        call, call_sync = rpc(name)
        ns = {"_call": call, "_call_sync": call_sync}
        args = ", ".join(p.split("=")[0].strip() for p in signature)
        sig = ", ".join(signature)
        kw = ", ".join("%s=%s" % (a.strip(), a.strip()) for a in args.split(",") if a.strip())
        exec("async def %s(%s):\n    return await _call(%s)\n" % (name, sig, kw), ns)
        setattr(rt, name, ns[name])
        if read_only:
            exec("def %s_sync(%s):\n    return _call_sync(%s)\n" % (name, sig, kw), ns)
            setattr(rt, name + "_sync", ns[name + "_sync"])

    define("discovered_servers", [])
    define("list_servers", [])
    define("describe_server", ["name"])
    define("query_tool_docs", ["server", "tool=None", "detail='summary'"])
    define("search_tool_docs", ["query", "limit=5", "detail='summary'"])
    define("capability_summary", [])

    async def call_tool(server, tool, args=None):
        """Calls a tool of a server loaded in this run by its MCP names."""
        alias = by_name.get(server, server)
        return await channel.request({"type": "call", "server": alias, "tool": tool, "args": dict(args or {})})

    rt.call_tool = call_tool
    rt.ToolError = ToolError
    return rt


# ------------------------------------------------------------------ state


def as_json(fn, what, value):
    """Checks that value can be sent as JSON; returns it."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            "%s: the %s must be JSON (dict, list, str, int, float, bool or None): %s" % (fn, what, exc)
        ) from None
    return value


def check_str(fn, what, value):
    if not isinstance(value, str):
        raise TypeError("%s: %s must be a str, not %s" % (fn, what, type(value).__name__))


# Each state helper is written once, as a generator of the steps it takes:
# ("rpc", (method, params)) answered with the host's value, ("await", x)
# with x awaited, ("sleep", seconds). The plain functions in the program's
# namespace run the steps blocking (as the _sync helpers do); their twins
# under runtime are async.


def g_save_memory(key, value, metadata=None):
    """Saves value (JSON) under key; metadata (a dict) replaces the memory's
    metadata, None keeps what it had. Refusals (limits) raise ToolError."""
    check_str("save_memory", "key", key)
    params = {"key": key, "value": as_json("save_memory", "value", value)}
    if metadata is not None:
        if not isinstance(metadata, dict):
            raise TypeError("save_memory: metadata must be a dict or None, not %s" % type(metadata).__name__)
        params["metadata"] = as_json("save_memory", "metadata", metadata)
    yield ("rpc", ("save_memory", params))


def g_load_memory(key, default=None):
    """The value saved under key, or default when there is none."""
    check_str("load_memory", "key", key)
    cur = yield ("rpc", ("load_memory", {"key": key}))
    return cur["value"] if cur["found"] else default


def g_delete_memory(key):
    """Deletes the memory of key; True when there was one."""
    check_str("delete_memory", "key", key)
    return (yield ("rpc", ("delete_memory", {"key": key})))


def g_memory_exists(key):
    """Whether key has a memory."""
    check_str("memory_exists", "key", key)
    return (yield ("rpc", ("memory_exists", {"key": key})))


def g_list_memories(prefix=None):
    """Every memory (whose key starts with prefix), sorted by key: dicts of
    key, size, metadata, version, created_at and updated_at."""
    params = {}
    if prefix is not None:
        check_str("list_memories", "prefix", prefix)
        params["prefix"] = prefix
    return (yield ("rpc", ("list_memories", params)))


def g_get_memory_info(key):
    """All about key's memory but its value (key, size, metadata, version,
    created_at, updated_at), or None when there is none."""
    check_str("get_memory_info", "key", key)
    return (yield ("rpc", ("get_memory_info", {"key": key})))


def g_update_memory(key, fn):
    """Sets key to fn(current value, or None when there is none), atomically:
    the write is a compare-and-swap on the version read, and fn runs again
    on the new value when another run wrote in between. Returns the new
    value."""
    check_str("update_memory", "key", key)
    if not callable(fn):
        raise TypeError("update_memory: fn must be callable, not %s" % type(fn).__name__)
    cur = yield ("rpc", ("load_memory", {"key": key}))
    for attempt in range(1, MAX_UPDATE_ATTEMPTS + 1):
        new = fn(cur["value"] if cur["found"] else None)
        if hasattr(new, "__await__"):
            new = yield ("await", new)
        as_json("update_memory", "new value", new)
        res = yield ("rpc", ("compare_and_swap_memory", {"key": key, "expected": cur["version"], "value": new}))
        if res.get("swapped"):
            return new
        cur = res
        if attempt < MAX_UPDATE_ATTEMPTS:
            yield ("sleep", random.uniform(0, min(0.25, 0.002 * 2**attempt)))
    raise ToolError(
        "update_memory(%r): another run changed the memory before each of %d tries; nothing was written"
        % (key, MAX_UPDATE_ATTEMPTS)
    )


def g_save_tool(name, source, description=""):
    """Saves source, which must define a function name, as a tool that later
    runs import with: from user_tools import name."""
    check_str("save_tool", "name", name)
    check_str("save_tool", "source", source)
    check_str("save_tool", "description", description)
    if not (name.isascii() and name.isidentifier()) or keyword.iskeyword(name) or name.startswith("__"):
        raise ToolError(
            "save_tool(%r): the name must be a Python identifier of ASCII letters, digits and underscores, "
            "not a keyword and not beginning with __" % (name,)
        )
    try:
        tree = ast.parse(source, filename="<user_tools.%s>" % name)
    except (SyntaxError, ValueError) as exc:
        msg = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1]
        line = getattr(exc, "lineno", None)
        where = " (line %d)" % line if line else ""
        raise ToolError("save_tool(%r): the source does not parse%s: %s" % (name, where, msg)) from None
    if not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name for n in tree.body):
        raise ToolError("save_tool(%r): the source defines no top-level function %s(...)" % (name, name))
    yield ("rpc", ("save_tool", {"name": name, "source": source, "description": description}))


def g_delete_tool(name):
    """Deletes the saved tool name; True when there was one."""
    check_str("delete_tool", "name", name)
    return (yield ("rpc", ("delete_tool", {"name": name})))


def g_list_tools():
    """The saved tools: dicts of name, description, signature, source_bytes,
    created_at and updated_at."""
    return (yield ("rpc", ("list_tools", {})))


STATE_HELPERS = [
    ("save_memory", g_save_memory),
    ("load_memory", g_load_memory),
    ("delete_memory", g_delete_memory),
    ("memory_exists", g_memory_exists),
    ("list_memories", g_list_memories),
    ("get_memory_info", g_get_memory_info),
    ("update_memory", g_update_memory),
    ("save_tool", g_save_tool),
    ("delete_tool", g_delete_tool),
    ("list_tools", g_list_tools),
]


def make_state(channel, rt):
    """The state helpers: returns the plain (blocking) functions for the
    program's namespace, and sets their async twins on rt."""

    def drive_sync(name, gen):
        try:
            step = next(gen)
            while True:
                kind, arg = step
                if kind == "rpc":
                    res = channel.request_sync({"type": "rpc", "method": arg[0], "params": arg[1]})
                elif kind == "sleep":
                    time.sleep(arg)
                    res = None
                else:
                    if hasattr(arg, "close"):
                        arg.close()
                    raise TypeError(
                        "%s: fn returned an awaitable; use await runtime.%s(...) for an async fn" % (name, name)
                    )
                step = gen.send(res)
        except StopIteration as stop:
            return stop.value
        finally:
            gen.close()

    async def drive_async(gen):
        try:
            step = next(gen)
            while True:
                kind, arg = step
                if kind == "rpc":
                    res = await channel.request({"type": "rpc", "method": arg[0], "params": arg[1]})
                elif kind == "sleep":
                    await asyncio.sleep(arg)
                    res = None
                else:
                    res = await arg
                step = gen.send(res)
        except StopIteration as stop:
            return stop.value
        finally:
            gen.close()

    plain = {}
    for name, g in STATE_HELPERS:

        def bind(name, g):
            def sync_fn(*args, **kwargs):
                return drive_sync(name, g(*args, **kwargs))

            async def async_fn(*args, **kwargs):
                return await drive_async(g(*args, **kwargs))

            for f in (sync_fn, async_fn):
                f.__name__ = f.__qualname__ = name
                f.__doc__ = g.__doc__
                f.__signature__ = inspect.signature(g)
            return sync_fn, async_fn

        sync_fn, async_fn = bind(name, g)
        plain[name] = sync_fn
        setattr(rt, name, async_fn)
    return plain


def make_user_tools(channel, env):
    """The module user_tools: each attribute is a saved tool, fetched from the
    host on first use (from user_tools import name) and kept for the run. A
    tool's source runs in a namespace of its own with env's names: the
    run's mcp_* modules, runtime, ToolError and the state helpers."""
    mod = types.ModuleType(
        "user_tools", "Tools saved with save_tool(name, source, description): from user_tools import name."
    )
    loading = set()

    def __getattr__(attr):
        if attr.startswith("__"):
            raise AttributeError("module 'user_tools' has no attribute %r" % attr, name=None, obj=None)
        if attr in loading:
            raise ImportError("saved tool %r imports itself while it is loaded" % attr, name="user_tools")
        tool = channel.request_sync({"type": "rpc", "method": "get_tool", "params": {"name": attr}})
        if tool is None:
            raise ImportError(
                "no saved tool %r: list_tools() lists the saved tools; save_tool(name, source, description) saves one"
                % attr,
                name="user_tools",
            )
        ns = dict(env)
        ns["__name__"] = "user_tools." + attr
        ns["__builtins__"] = builtins
        loading.add(attr)
        try:
            try:
                code = compile(tool["source"], "<user_tools.%s>" % attr, "exec")
            except (SyntaxError, ValueError) as exc:
                raise ImportError("saved tool %r does not compile: %s" % (attr, exc), name="user_tools") from None
            exec(code, ns)
        finally:
            loading.discard(attr)
        fn = ns.get(attr)
        if not callable(fn):
            raise ImportError("saved tool %r defines no function %s" % (attr, attr), name="user_tools")
        setattr(mod, attr, fn)
        return fn

    mod.__getattr__ = __getattr__
    return mod


def only_program_frames(te, seen=None):
    """Drops the runner's own frames from a TracebackException (and the
    exceptions chained to it or grouped in it): those before the program's
    first frame (the event loop) and those of this file (a tool's call, a
    module's missing attribute). Frames of the libraries the program
    called stay."""
    seen = seen if seen is not None else set()
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    frames = list(te.stack)
    first = next((i for i, f in enumerate(frames) if f.filename == "<code>"), len(frames))
    te.stack = traceback.StackSummary.from_list([f for f in frames[first:] if f.filename != RUNNER_FILE])
    only_program_frames(te.__cause__, seen)
    only_program_frames(te.__context__, seen)
    for sub in getattr(te, "exceptions", None) or []:
        only_program_frames(sub, seen)


def hint_for_unloaded(exc, not_loaded):
    """Says, in a NameError (or ModuleNotFoundError) for the module of a
    configured server the run did not load, to name that server."""
    if not isinstance(exc, (NameError, ModuleNotFoundError)) or len(exc.args) != 1:
        return
    server = not_loaded.get(getattr(exc, "name", None))
    if server is None:
        return
    msg = "%s: %s is the module of server %s, which this run did not load: add %s to servers (--servers with mcp-code-mode run)" % (
        exc.args[0],
        exc.name,
        json.dumps(server),
        json.dumps(server),
    )
    exc.args = (msg,)
    if isinstance(exc, ImportError):
        exc.msg = msg  # what an ImportError prints


def short_traceback(exc, not_loaded=None):
    """The last lines of the traceback, without the runner's own frames."""
    hint_for_unloaded(exc, not_loaded or {})
    te = traceback.TracebackException.from_exception(exc)
    only_program_frames(te)
    text = "".join(te.format()).rstrip("\n").split("\n")
    text = "\n".join(text[-MAX_TRACEBACK_LINES:])
    return text[-MAX_TRACEBACK_CHARS:]


def exit_outcome(code):
    """What SystemExit(code) means, as Python's own exit would: (error,
    status). sys.exit() and sys.exit(0) succeed; sys.exit(N) ends with N
    (1 to 255; other numbers with 1); anything else (a message) is printed
    and ends with 1."""
    if code is None or (isinstance(code, int) and code == 0):
        return None, None
    if isinstance(code, int):
        return "SystemExit: %d" % code, code if 1 <= code <= 255 else 1
    try:
        return str(code), None
    except Exception:  # noqa: BLE001 - a message that cannot be shown
        return "SystemExit: %s" % type(code).__name__, None


def read_program(fd):
    """Reads the start message the supervisor forwards (one line, then EOF)."""
    data = bytearray()
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        data += chunk
    os.close(fd)
    if not data:
        os._exit(0)  # the run was called off before it began
    return json.loads(bytes(data))


def cancel_leftovers(loop):
    """Cancels what the program left running, as asyncio.run does."""
    tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for t in tasks:
        t.cancel()
    if tasks:
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))


def worker(start_fd, call_sock, sync_sock):
    sync_sock.setblocking(True)
    channel = Channel(call_sock, sync_sock)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    loop.run_until_complete(channel.start())

    start = read_program(start_fd)
    modules = start.get("modules") or []
    mcp_pkg = types.ModuleType("mcp", "mcp-code-mode sandbox API.")
    mcp_pkg.__path__ = []
    mcp_pkg.ToolError = ToolError
    rt = make_runtime(channel, modules)
    mcp_pkg.runtime = rt
    sys.modules["mcp"] = mcp_pkg
    sys.modules["mcp.runtime"] = rt

    env = {"__name__": "__main__", "__builtins__": builtins, "ToolError": ToolError, "runtime": rt, "mcp": mcp_pkg}
    for m in modules:
        mod = make_module(channel, m)
        sys.modules[m["module"]] = mod
        env[m["module"]] = mod
    env.update(make_state(channel, rt))
    # What a saved tool's source sees: the same, but its own __name__.
    tool_env = {k: v for k, v in env.items() if k not in ("__name__", "__builtins__")}
    sys.modules["user_tools"] = make_user_tools(channel, tool_env)
    not_loaded = {n["module"]: n["server"] for n in start.get("not_loaded") or []}

    error, status = None, None
    try:
        code = compile(start.get("code", ""), "<code>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError) as exc:
        error = "".join(traceback.format_exception_only(type(exc), exc)).rstrip()
        code = None

    async def run():
        result = eval(code, env)
        if asyncio.iscoroutine(result):
            await result

    if code is not None:
        try:
            try:
                loop.run_until_complete(run())
            finally:
                cancel_leftovers(loop)
        except SystemExit as exc:
            error, status = exit_outcome(exc.code)
        except BaseException as exc:  # noqa: BLE001 - everything the code raises is reported
            error = short_traceback(exc, not_loaded)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        pass
    done = {"type": "done", "error": error}
    if status is not None:
        done["exit"] = status
    sync_sock.sendall(json.dumps(done).encode() + b"\n")
    return 0


if __name__ == "__main__":
    main()
