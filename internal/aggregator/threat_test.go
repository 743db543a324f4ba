package aggregator

// The threat model's controls, each tried with the attack it stops, against
// a real engine and a real wrapped server. README.md's threat model table
// names these tests.

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

func TestNoSecretFromTheHostIsInside(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	const secret = "s3cr3t-host-value-6d1f"
	t.Setenv("MCM_TEST_SECRET", secret)
	srv, _ := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
import os, glob
print(sorted(os.environ))
for p in glob.glob("/proc/*/environ"):
    try:
        print(open(p, "rb").read())
    except OSError as e:
        print(p, type(e).__name__)
print(open("/proc/self/mountinfo").read())
print(os.path.exists("/var/run/docker.sock"), os.path.exists("/run/docker.sock"))
`, "t")
	mustSucceed(t, res)
	if strings.Contains(res.Stdout, secret) || strings.Contains(res.Stdout, "MCM_TEST_SECRET") {
		t.Fatalf("the host's secret reached the sandbox: %s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "False False") {
		t.Fatalf("a Docker socket is inside the sandbox: %s", res.Stdout)
	}
	for _, m := range []string{"/home", "/root", "docker.sock", "/work"} {
		if strings.Contains(res.Stdout, " "+m) {
			t.Fatalf("a host path (%s) is mounted in the sandbox:\n%s", m, res.Stdout)
		}
	}
}

func TestTheWrappedServerGetsOnlyTheEnvironmentItIsGiven(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
	clitest.NeedEngine(t)
	t.Setenv("MCM_TEST_SECRET", "not-for-servers")
	t.Setenv("MCM_TEST_PASSED", "passed-on")
	srv, _ := testServer(t, "t")
	a := newAgg(t, func(c *config.Config) { c.Env = []string{"MCM_TEST_PASSED"} }, srv)
	res := run(t, a, `
print(repr(await mcp_t.env(name="MCM_TEST_SECRET")))
print(repr(await mcp_t.env(name="MCM_TEST_PASSED")))
`, "t")
	mustSucceed(t, res)
	if res.Stdout != "''\n'passed-on'\n" {
		t.Fatalf("server environment: got %q, want the secret absent and the named variable passed", res.Stdout)
	}
}

func TestNeitherThisProgramNorAnMCPClientIsInTheImage(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	a := newAgg(t, nil)
	res := run(t, a, `
import os, importlib.util, shutil, sys
found = []
for root, dirs, files in os.walk("/"):
    if root.startswith(("/proc", "/sys", "/dev")):
        dirs[:] = []
        continue
    for f in files + dirs:
        low = f.lower()
        if "mcp-code-mode" in low and os.path.join(root, f) != "/opt/mcp-code-mode" and not root.startswith("/opt/mcp-code-mode"):
            found.append(os.path.join(root, f))
        if low in ("node", "nodejs", "npx", "docker", "dockerd", "podman", "sh", "bash", "dash", "busybox", "curl", "wget"):
            found.append(os.path.join(root, f))
        if low in ("mcp", "modelcontextprotocol", "mcp_code_mode") and "site-packages" in root or low.startswith("mcp-") and low.endswith(".dist-info"):
            found.append(os.path.join(root, f))
print("found:", found)
print("opt:", sorted(os.listdir("/opt/mcp-code-mode")))
try:
    import mcp.client
    print("mcp.client importable")
except ImportError:
    print("no mcp.client")
print("which:", [shutil.which(x) for x in ("node", "npx", "docker", "sh", "mcp-code-mode")])
`)
	mustSucceed(t, res)
	for _, want := range []string{"found: []", "opt: ['runner.py']", "no mcp.client", "which: [None, None, None, None, None]"} {
		if !strings.Contains(res.Stdout, want) {
			t.Fatalf("image holds more than Python and the runner: want %q in\n%s", want, res.Stdout)
		}
	}
}

func TestThereIsNoNetwork(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	a := newAgg(t, nil)
	res := run(t, a, `
import socket
for addr in [("1.1.1.1", 53), ("8.8.8.8", 443), ("172.17.0.1", 2375), ("10.0.0.1", 80)]:
    try:
        socket.create_connection(addr, timeout=2)
        print("CONNECTED", addr)
    except OSError as e:
        print("blocked", addr, type(e).__name__)
try:
    socket.getaddrinfo("example.com", 80)
    print("RESOLVED")
except OSError as e:
    print("no dns", type(e).__name__)
print(sorted(n for _, n in socket.if_nameindex()))
`)
	mustSucceed(t, res)
	if strings.Contains(res.Stdout, "CONNECTED") || strings.Contains(res.Stdout, "RESOLVED") {
		t.Fatalf("the sandbox reached the network:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "['lo']") {
		t.Fatalf("the sandbox has a network interface besides lo:\n%s", res.Stdout)
	}
}

func TestTheFilesystemIsReadOnlyAndTmpCannotExecute(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	a := newAgg(t, nil)
	res := run(t, a, `
import os, shutil, subprocess, sys
for path in ["/etc/planted", "/opt/mcp-code-mode/runner.py", "/usr/bin/planted", "/planted"]:
    try:
        open(path, "w").write("x")
        print("WROTE", path)
    except OSError as e:
        print("refused", path, e.errno)
shutil.copy(sys.executable, "/tmp/py")
os.chmod("/tmp/py", 0o755)
try:
    subprocess.run(["/tmp/py", "-c", "print('EXECUTED')"], check=True)
    print("EXECUTED-FROM-TMP")
except OSError as e:
    print("exec refused", e.errno)
print("uid", os.getuid(), os.getgid())
print("caps", [l for l in open("/proc/self/status") if l.startswith(("CapEff", "CapPrm", "NoNewPrivs"))])
`)
	mustSucceed(t, res)
	if strings.Contains(res.Stdout, "WROTE") || strings.Contains(res.Stdout, "EXECUTED") {
		t.Fatalf("the sandbox could write the root or execute from /tmp:\n%s", res.Stdout)
	}
	for _, want := range []string{"exec refused 13", "uid 65534 65534", "CapEff:\\t0000000000000000", "NoNewPrivs:\\t1"} {
		if want == "NoNewPrivs:\\t1" && testRuntime() == "runsc" {
			t.Log("gVisor's /proc/self/status has no NoNewPrivs line: not checked under runsc")
			continue
		}
		if !strings.Contains(res.Stdout, want) {
			t.Fatalf("want %q in\n%s", want, res.Stdout)
		}
	}
}

func TestRunawayCodeEndsWithinTheDeadline(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	const deadline = 6 * time.Second
	a := newAgg(t, func(c *config.Config) { c.Limits.Deadline = deadline })
	programs := map[string]string{
		"fork bomb": `
import os, time
n = 0
while True:
    try:
        os.fork()
        n += 1
    except OSError:
        time.sleep(0.01)
`,
		"1 GiB": `
blocks = []
for _ in range(1024):
    blocks.append(bytearray(1 << 20))
print("ALLOCATED 1 GiB")
`,
		"endless loop": `
while True:
    pass
`,
	}
	for name, code := range programs {
		t.Run(name, func(t *testing.T) {
			began := time.Now()
			res := run(t, a, code)
			took := time.Since(began)
			if res.Error == nil {
				t.Fatalf("runaway program %s ended without an error", name)
			}
			if strings.Contains(res.Stdout, "ALLOCATED") {
				t.Fatalf("the sandbox allocated 1 GiB")
			}
			// The deadline plus container start and removal; a run the
			// engine did not stop would take far longer.
			if took > deadline+10*time.Second {
				t.Fatalf("runaway program %s ran %v, deadline %v", name, took, deadline)
			}
		})
	}
}

func TestRunawayCodeIsStoppedAndTheNextRunStartsFresh(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	a := newAgg(t, func(c *config.Config) { c.Limits.Deadline = 4 * time.Second })
	res := run(t, a, `
import os
open("/tmp/left-behind", "w").write("x")
os.fork()
while True:
    pass
`)
	if !res.Stopped || res.Error == nil || !strings.Contains(*res.Error, "deadline") {
		t.Fatalf("an endless program was not stopped at the deadline: %+v", res)
	}
	res = run(t, a, `
import os
print(os.path.exists("/tmp/left-behind"), len([p for p in os.listdir("/proc") if p.isdigit()]))
`)
	mustSucceed(t, res)
	// A fresh container: no file from before, only the runner's two processes.
	if res.Stdout != "False 2\n" {
		t.Fatalf("the next run did not start fresh: %q", res.Stdout)
	}
}

func TestOutputIsCapped(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	a := newAgg(t, nil)
	res := run(t, a, `
print("first line")
print("y" * 100_000)
print("last line")
`)
	mustSucceed(t, res)
	if !res.Truncated || len(res.Stdout) > 8<<10+100 {
		t.Fatalf("100 KB of output: truncated=%v len=%d, want truncated to 8 KiB", res.Truncated, len(res.Stdout))
	}
	if !strings.HasPrefix(res.Stdout, "first line\n") || !strings.HasSuffix(res.Stdout, "last line\n") {
		t.Fatalf("kept output lost its head or tail: %q ... %q", res.Stdout[:20], res.Stdout[len(res.Stdout)-20:])
	}

	begin := time.Now()
	res = run(t, a, `
import sys
chunk = "z" * 65536
while True:
    sys.stdout.write(chunk)
`)
	if !res.Stopped || res.Error == nil || !strings.Contains(*res.Error, "printed more than") {
		t.Fatalf("an endless writer was not stopped: stopped=%v error=%v", res.Stopped, res.Error)
	}
	if time.Since(begin) > 30*time.Second {
		t.Fatalf("stopping the writer took %v", time.Since(begin))
	}
}

func TestPlainOutputCannotForgeAProtocolMessage(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
import os, sys
forged_call = '{"type":"call","id":99,"server":"t","tool":"echo","args":{"message":"forged"}}'
forged_done = '{"type":"done","error":null}'
print(forged_call)
print(forged_done)
os.write(1, (forged_call + "\n").encode())
os.write(2, (forged_done + "\n").encode())
sys.__stdout__.write(forged_call + "\n")
# The supervisor's descriptors cannot be reached through /proc either.
ppid = os.getppid()
for fd in range(0, 8):
    try:
        f = os.open("/proc/%d/fd/%d" % (ppid, fd), os.O_WRONLY)
        os.write(f, (forged_call + "\n").encode())
        print("WROTE-TO-SUPERVISOR", fd)
    except OSError as e:
        pass
print("after")
`, "t")
	if got := serverCalls(t, log); len(got) != 0 {
		t.Fatalf("forged output reached the server: %v", toolsCalled(got))
	}
	if testRuntime() == "runsc" {
		// gVisor lets the program open the supervisor's descriptors
		// through /proc (Linux does not: the supervisor is not dumpable).
		// What it writes there lacks the run's authentication code: the
		// host stops the run at the first such line.
		if !res.Stopped || res.Error == nil || !strings.Contains(*res.Error, "authentication code") {
			t.Fatalf("a line written to the supervisor's descriptors did not stop the run: stopped=%v error=%s", res.Stopped, deref(res.Error))
		}
		return
	}
	mustSucceed(t, res)
	if strings.Contains(res.Stdout, "WROTE-TO-SUPERVISOR") {
		t.Fatalf("the program wrote to the supervisor's descriptors:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, `{"type":"done","error":null}`) || !strings.HasSuffix(res.Stdout, "after\n") {
		t.Fatalf("forged lines should come back as plain output, and the run go on: %q", res.Stdout)
	}
}

func TestGarbageOnTheProtocolPipeEndsTheRunSafely(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, nil, srv)
	// The program writes garbage on its own channel to the supervisor.
	res := run(t, a, `
import socket, os
for fd in range(3, 20):
    try:
        s = socket.socket(fileno=fd)
        s.sendall(b"this is not json\n")
        s.detach()
    except OSError:
        pass
print("STILL RUNNING")
`, "t")
	if res.Error == nil || !strings.Contains(*res.Error, "ProtocolError") {
		t.Fatalf("garbage from the program did not end the run: %+v", res)
	}
	if got := serverCalls(t, log); len(got) != 0 {
		t.Fatalf("garbage reached the server: %v", toolsCalled(got))
	}

	// A hostile runner (the whole container's stdout) is also stopped.
	hostile := map[string]string{
		"not json":     `print("garbage")`,
		"unknown type": `print('{"type":"result","id":1,"ok":true}')`,
		"huge line":    `import sys; sys.stdout.write("{" + "x" * (1 << 20)); sys.stdout.flush()`,
		"silent exit":  `import sys; sys.exit(0)`,
	}
	for name, code := range hostile {
		t.Run(name, func(t *testing.T) {
			b := newAgg(t, nil, srv)
			b.engine = entrypointEngine{[]string{"python3", "-c", code}}
			res := run(t, b, "print(1)", "t")
			if res.Error == nil || !res.Stopped {
				t.Fatalf("a hostile runner did not stop the run: %+v", res)
			}
		})
	}
	// And the engine still serves the next run.
	mustSucceed(t, run(t, a, "print(1)"))
}

// entrypointEngine starts containers with another entrypoint.
type entrypointEngine struct{ entrypoint []string }

func (e entrypointEngine) Start(ctx context.Context, spec sandbox.Spec) (*sandbox.Container, error) {
	spec.Entrypoint = e.entrypoint
	eng, err := clitest.Engine()
	if err != nil {
		return nil, err
	}
	return eng.Start(ctx, spec)
}

func TestUnknownToolsAreRefusedBeforeTheServerSeesThem(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
from mcp import runtime
for name in ["no_such_tool", "../admin", ""]:
    try:
        await runtime.call_tool("t", name, {})
        print("CALLED", name)
    except ToolError as e:
        print("refused:", e)
try:
    await runtime.call_tool("not-loaded", "echo", {"message": "x"})
except ToolError as e:
    print("refused:", e)
`, "t")
	mustSucceed(t, res)
	if strings.Contains(res.Stdout, "CALLED") || strings.Count(res.Stdout, "refused:") != 4 {
		t.Fatalf("unknown tools were not refused:\n%s", res.Stdout)
	}
	if got := serverCalls(t, log); len(got) != 0 {
		t.Fatalf("the server saw refused calls: %v", toolsCalled(got))
	}
}

func TestTheAllowlistKeepsOtherToolsOut(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	srv.Allow = []string{"add", "get-*"}
	srv.PolicyFrom = "[servers.t] in test.toml"
	a := newAgg(t, func(c *config.Config) { c.Deny, c.DenyFrom = []string{"t.get-weather"}, "--deny" }, srv)
	res := run(t, a, `
import asyncio
from mcp import runtime
print(sorted(n for n in dir(mcp_t) if not n.startswith("_")))
print(await mcp_t.add(a=1, b=2))
for tool, args in [("echo", {"message": "x"}), ("crash", {}), ("get-weather", {"city": "x"})]:
    try:
        await runtime.call_tool("t", tool, args)
        print("CALLED", tool)
    except ToolError as e:
        print("refused:", e)
# The module's functions for denied tools are no attributes, but calling
# one raises ToolError like any refused call, in a gather too.
print(await asyncio.gather(mcp_t.crash(), mcp_t.get_weather(city="x"), return_exceptions=True))
docs = await runtime.query_tool_docs("t")
print([d["tool"] for d in docs])
`, "t")
	mustSucceed(t, res)
	notNamed := `denied by the allow list of [servers.t] in test.toml ("add", "get-*"), which does not name it`
	want := "['add']\n{'sum': 3}\n" +
		"refused: t.echo is " + notNamed + "\n" +
		"refused: t.crash is " + notNamed + "\n" +
		"refused: t.get-weather is denied by --deny t.get-weather\n" +
		"[ToolError('t.crash is " + notNamed + "'), ToolError('t.get-weather is denied by --deny t.get-weather')]\n" +
		"['add']\n"
	if res.Stdout != want {
		t.Fatalf("the allowlist let other tools in, or did not say which rule kept them out:\n%s\nwant:\n%s", res.Stdout, want)
	}
	if got := toolsCalled(serverCalls(t, log)); !slices.Equal(got, []string{"add"}) {
		t.Fatalf("the server saw %v, want only add", got)
	}
}

func TestArgumentsOutsideTheSchemaAreRefused(t *testing.T) {
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
cases = [
    dict(a="1", b=2),          # wrong type
    dict(a=1),                 # missing required
    dict(a=1, b=2, c=3),       # a name the schema does not list
    dict(a=1.5, b=2),          # not an integer
]
for args in cases:
    try:
        await mcp_t.add(args)
        print("CALLED", args)
    except ToolError as e:
        print("refused:", e)
try:
    await mcp_t.add(1, 2, 3)
except TypeError as e:
    print("refused locally:", e)
try:
    await mcp_t.sleep(ms=-5)
except ToolError as e:
    print("refused:", e)
print(await mcp_t.add(a=2, b=40))
`, "t")
	mustSucceed(t, res)
	if strings.Contains(res.Stdout, "CALLED") || strings.Count(res.Stdout, "refused") != 6 || !strings.HasSuffix(res.Stdout, "{'sum': 42}\n") {
		t.Fatalf("bad arguments were not refused:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, `does not take "c"`) {
		t.Fatalf("an unlisted argument name was not named in the refusal:\n%s", res.Stdout)
	}
	if got := toolsCalled(serverCalls(t, log)); !slices.Equal(got, []string{"add"}) {
		t.Fatalf("the server saw %v, want one good add", got)
	}
}

func TestOversizedArgumentsAreRefused(t *testing.T) {
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
try:
    await mcp_t.echo(message="x" * 20000)
    print("CALLED")
except ToolError as e:
    print("refused:", e)
print(len(await mcp_t.echo(message="x" * 16000)))
`, "t")
	mustSucceed(t, res)
	if !strings.Contains(res.Stdout, "over the 16384-byte limit") || !strings.HasSuffix(res.Stdout, "16000\n") {
		t.Fatalf("oversized arguments were not refused:\n%s", res.Stdout)
	}
	if got := serverCalls(t, log); len(got) != 1 {
		t.Fatalf("the server saw %d calls, want 1", len(got))
	}
}

func TestARunHasAFixedBudgetOfCalls(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
	clitest.NeedEngine(t)
	srv, log := testServer(t, "t")
	a := newAgg(t, func(c *config.Config) { c.Limits.MaxCalls = 5 }, srv)
	res := run(t, a, `
import asyncio
ok = refused = 0
async def one():
    global ok, refused
    try:
        await mcp_t.noop()
        ok += 1
    except ToolError as e:
        refused += 1
        last[0] = str(e)
last = [""]
await asyncio.gather(*(one() for _ in range(12)))
# Refused calls (bad arguments) do not reach the server either way.
try:
    await mcp_t.add(a="x", b=1)
except ToolError:
    pass
print(ok, refused, last[0])
`, "t")
	mustSucceed(t, res)
	if !strings.HasPrefix(res.Stdout, "5 7 this run has used all 5 tool calls") {
		t.Fatalf("budget: %q", res.Stdout)
	}
	if res.Calls != 5 || len(serverCalls(t, log)) != 5 {
		t.Fatalf("calls=%d server saw %d, want 5", res.Calls, len(serverCalls(t, log)))
	}
	// The budget is per run: the next run has all of it again.
	res = run(t, a, "await mcp_t.noop()\nprint('ok')", "t")
	mustSucceed(t, res)
}

func TestASlowToolTimesOutAndTheServerSurvives(t *testing.T) {
	clitest.NeedEngine(t)
	srv, _ := testServer(t, "t")
	a := newAgg(t, func(c *config.Config) { c.Limits.CallTimeout = time.Second }, srv)
	res := run(t, a, `
print(await mcp_t.counter())
try:
    await mcp_t.sleep(ms=20000)
    print("SLEPT")
except ToolError as e:
    print("refused:", e)
print(await mcp_t.counter())
`, "t")
	mustSucceed(t, res)
	if res.Stdout != "1\nrefused: t.sleep timed out after 1s (limits.call_timeout)\n2\n" {
		t.Fatalf("slow tool: %q (want a timeout, then the same server process)", res.Stdout)
	}
	if res.DurationMS > 15000 {
		t.Fatalf("the run waited for the slow tool: %d ms", res.DurationMS)
	}
}

func TestOversizedResultsAreRefusedNotCut(t *testing.T) {
	clitest.NeedEngine(t)
	srv, _ := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
try:
    r = await mcp_t.huge(bytes=70000)
    print("GOT", len(r))
except ToolError as e:
    print("refused:", e)
print(len(await mcp_t.huge(bytes=60000)))
`, "t")
	mustSucceed(t, res)
	if !strings.HasPrefix(res.Stdout, "refused: the result of t.huge is 70002 bytes, over the 65536-byte limit") || !strings.HasSuffix(res.Stdout, "\n60000\n") {
		t.Fatalf("oversized result: %q", res.Stdout)
	}
}

func TestAHostFaultRaisesInTheCodeWithoutItsDetails(t *testing.T) {
	clitest.NeedEngine(t)
	srv, _ := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
try:
    await mcp_t.protocol_error(message="/home/alice/.ssh/id_rsa SECRET=hunter2")
except ToolError as e:
    print("caught:", e)
`, "t")
	mustSucceed(t, res)
	if strings.Contains(res.Stdout, "hunter2") || strings.Contains(res.Stdout, "alice") {
		t.Fatalf("host fault details reached the code: %q", res.Stdout)
	}
	if res.Stdout != "caught: host error: ServerError\n" {
		t.Fatalf("host fault: %q, want only its type name", res.Stdout)
	}
}

func TestRefusalMessagesAreCapped(t *testing.T) {
	clitest.NeedEngine(t)
	srv, _ := testServer(t, "t")
	a := newAgg(t, nil, srv)
	res := run(t, a, `
try:
    await mcp_t.fail(message="e" * 5000)
except ToolError as e:
    print(len(str(e)))
`, "t")
	mustSucceed(t, res)
	if res.Stdout != "500\n" {
		t.Fatalf("a tool's error reached the code at %q characters, want 500", res.Stdout)
	}
}

// With runtime = "runsc", the code runs on gVisor's kernel, not the host's:
// a kernel exploit has gVisor to cross first.
func TestWithGVisorTheCodeRunsOnGVisorsKernel(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
	e := clitest.NeedEngine(t)
	_, names, err := e.Describe(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, "runsc") {
		testenv.SkipOrFail(t, "the engine has no runsc runtime (it has %v): install gVisor and register it (see README; .ci/engine.sh does)", names)
	}
	var host syscall.Utsname
	if err := syscall.Uname(&host); err != nil {
		t.Fatal(err)
	}
	hostRelease := utsString(host.Release[:])
	code := "import platform; print(platform.release())"
	for _, runtime := range []string{"", "runsc"} {
		a := newAgg(t, func(c *config.Config) { c.Runtime = runtime })
		res := run(t, a, code)
		mustSucceed(t, res)
		got := strings.TrimSpace(res.Stdout)
		if runtime == "runsc" && (got == hostRelease || got == "") {
			t.Errorf("under runsc the code sees kernel %q, the host's is %q", got, hostRelease)
		}
		if runtime == "" && testRuntime() == "" && got != hostRelease {
			t.Errorf("under the default runtime the code sees kernel %q, want the host's %q", got, hostRelease)
		}
	}
}

func utsString(b []int8) string {
	var s []byte
	for _, c := range b {
		if c == 0 {
			break
		}
		s = append(s, byte(c))
	}
	return string(s)
}
