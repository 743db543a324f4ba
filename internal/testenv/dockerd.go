package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Dockerd is a Docker engine of a test's own, beside the one the tests
// share: its own data root, exec root (and so its own containerd), pid file,
// socket, cgroup parent and bridge, and no iptables rules, so the two do not
// touch each other's containers, networks or firewall. (Not --bridge=none:
// with it, dockerd deletes the host's docker0, the first engine's bridge.)
// StartDockerd starts it; the test's cleanup stops it and removes
// everything it made.
type Dockerd struct {
	// Host is its socket, as DOCKER_HOST takes it (unix:///...).
	Host string
	// TCP is its TLS port (tcp://127.0.0.1:PORT) when DockerdOptions.TLS
	// was given, else "".
	TCP string

	t       testing.TB
	dir     string
	bridge  string // its bridge interface, made for it
	docker0 bool   // the host had docker0 when it started
	args    []string
	cmd     *exec.Cmd
	done    chan struct{} // closed when cmd has been waited for
}

// DockerdOptions say what else the engine has.
type DockerdOptions struct {
	// Runtimes are OCI runtimes to register, by name (path of the binary);
	// none by default.
	Runtimes map[string]string
	// DefaultRuntime is the runtime of containers that name none (one of
	// Runtimes, or "runc"); "" leaves dockerd's default, runc.
	DefaultRuntime string
	// TLS, when set, makes the engine also listen on a loopback TCP port
	// with --tlsverify: only clients with a certificate signed by CA get in.
	TLS *DockerdTLS
}

// DockerdTLS are the PEM files of a TLS listener.
type DockerdTLS struct{ CA, Cert, Key string }

// StartDockerd starts a second Docker engine for t, or skips t (fails
// under CI) when it cannot: it needs root and dockerd.
func StartDockerd(t testing.TB, opts DockerdOptions) *Dockerd {
	t.Helper()
	if os.Geteuid() != 0 {
		SkipOrFail(t, "a second Docker engine needs root (running as uid %d)", os.Geteuid())
	}
	bin, err := exec.LookPath("dockerd")
	if err != nil {
		SkipOrFail(t, "a second Docker engine needs dockerd (Debian's docker.io): %v", err)
	}
	// A short path: containerd's sockets live under the exec root, and a
	// socket's path has at most 107 bytes.
	if _, err := exec.LookPath("ip"); err != nil {
		SkipOrFail(t, "a second Docker engine needs ip (iproute2) for its bridge: %v", err)
	}
	dir, err := os.MkdirTemp("", "mcm-dockerd-")
	if err != nil {
		t.Fatal(err)
	}
	d := &Dockerd{t: t, dir: dir, Host: "unix://" + filepath.Join(dir, "docker.sock"), docker0: exists("/sys/class/net/docker0")}
	t.Cleanup(d.cleanup)
	d.makeBridge()
	conf := map[string]any{}
	if len(opts.Runtimes) > 0 {
		rt := map[string]any{}
		for name, path := range opts.Runtimes {
			rt[name] = map[string]any{"path": path, "runtimeArgs": []string{"--network=none"}}
		}
		conf["runtimes"] = rt
	}
	if opts.DefaultRuntime != "" {
		conf["default-runtime"] = opts.DefaultRuntime
	}
	b, _ := json.Marshal(conf)
	if err := os.WriteFile(filepath.Join(dir, "daemon.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	// Its own config file, so /etc/docker/daemon.json (the first engine's)
	// is not read; its own cgroup parent, so its containers' cgroups are
	// apart from the first engine's.
	d.args = []string{bin,
		"--config-file", filepath.Join(dir, "daemon.json"),
		"--data-root", filepath.Join(dir, "data"),
		"--exec-root", filepath.Join(dir, "exec"),
		"--pidfile", filepath.Join(dir, "dockerd.pid"),
		"-H", d.Host,
		"--bridge=" + d.bridge, "--iptables=false", "--ip-masq=false", "--ip6tables=false",
		"--cgroup-parent=/" + filepath.Base(dir),
	}
	if opts.TLS != nil {
		port := strconv.Itoa(FreePort(t))
		d.TCP = "tcp://127.0.0.1:" + port
		d.args = append(d.args, "-H", d.TCP, "--tlsverify",
			"--tlscacert", opts.TLS.CA, "--tlscert", opts.TLS.Cert, "--tlskey", opts.TLS.Key)
	}
	d.Start()
	return d
}

// makeBridge makes the engine's bridge: a name of its own and a /24 of the
// benchmarking range (198.18.0.0/15) no route of the host uses.
func (d *Dockerd) makeBridge() {
	d.t.Helper()
	routes, err := exec.Command("ip", "-4", "route").Output()
	if err != nil {
		d.t.Fatalf("ip -4 route: %v", err)
	}
	name := "mcm-" + strings.TrimPrefix(filepath.Base(d.dir), "mcm-dockerd-")
	name = name[:min(len(name), 15)]
	for n := range 254 {
		subnet := fmt.Sprintf("198.18.%d.", (n+int(time.Now().UnixNano()))%254+1)
		if bytes.Contains(routes, []byte(subnet)) {
			continue
		}
		for _, args := range [][]string{
			{"link", "add", name, "type", "bridge"},
			{"addr", "add", subnet + "1/24", "dev", name},
			{"link", "set", name, "up"},
		} {
			if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
				d.t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
			}
			d.bridge = name
		}
		return
	}
	d.t.Fatal("no free /24 in 198.18.0.0/15 for the second engine's bridge")
}

// Start starts the engine (again, after Kill or Stop, with the same data)
// and waits until it answers.
func (d *Dockerd) Start() {
	d.t.Helper()
	logf, err := os.OpenFile(filepath.Join(d.dir, "dockerd.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		d.t.Fatal(err)
	}
	d.cmd = exec.Command(d.args[0], d.args[1:]...)
	d.cmd.Stdout, d.cmd.Stderr = logf, logf
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := d.cmd.Start(); err != nil {
		logf.Close()
		d.t.Fatalf("start dockerd: %v", err)
	}
	logf.Close()
	d.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) {
		_ = cmd.Wait()
		close(done)
	}(d.cmd, d.done)
	sock := strings.TrimPrefix(d.Host, "unix://")
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}, Timeout: 2 * time.Second}
	defer hc.CloseIdleConnections()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := hc.Get("http://docker/_ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-d.done:
			d.t.Fatalf("dockerd exited at start; its log ends:\n%s", d.logTail())
		default:
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("dockerd did not answer within 60s (%v); its log ends:\n%s", err, d.logTail())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Kill kills the engine at once (SIGKILL), as a crash would, and waits for
// it to be gone. Its containers live on, as they would, and the next Start
// takes them up again. Its containerd dies with it (dockerd starts it with
// a parent-death signal); Kill also waits for that containerd to be gone,
// both exited and reaped. A dockerd started before then finds the old
// containerd's pid file and a process by that ID (still exiting under
// load, or a zombie that some machines' init reaps seconds late), takes it
// for a running containerd, waits for its socket and gives up ("timeout
// waiting for containerd to start").
func (d *Dockerd) Kill() {
	d.t.Helper()
	containerd := readPID(filepath.Join(d.dir, "exec", "containerd", "containerd.pid"))
	started := startTime(containerd)
	d.stop(syscall.SIGKILL)
	if containerd <= 0 || started == "" {
		return
	}
	deadline := time.Now().Add(60 * time.Second)
	for startTime(containerd) == started {
		if time.Now().After(deadline) {
			d.t.Fatalf("the killed engine's containerd (pid %d) was not gone within 60s", containerd)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readPID is the process ID in a pid file, or 0.
func readPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// startTime is when process pid started, in clock ticks after boot, or ""
// when there is no such process (exited and reaped). A zombie still has
// one. Comparing it tells the process apart from a later one given the
// same ID.
func startTime(pid int) string {
	if pid <= 0 {
		return ""
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return ""
	}
	// The fields follow the command name, which is in parentheses and may
	// hold any byte: the state is the first field after the last ')', the
	// start time the twentieth (field 22 of proc(5)).
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// Stop stops the engine as its service manager would (SIGTERM) and waits.
func (d *Dockerd) Stop() {
	d.t.Helper()
	d.stop(syscall.SIGTERM)
}

func (d *Dockerd) stop(sig syscall.Signal) {
	if d.cmd == nil {
		return
	}
	select {
	case <-d.done:
		return
	default:
	}
	_ = d.cmd.Process.Signal(sig)
	select {
	case <-d.done:
	case <-time.After(60 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
	}
}

// killLeftovers kills, by process ID, what the engine started and left
// running (its containerd, container shims and their processes): the
// processes whose command line names this engine's directory, and their
// process groups.
func (d *Dockerd) killLeftovers() {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(d.dir)) {
			continue
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	// The containers' processes, found by their cgroups (the engine's own
	// cgroup parent), whose directories are then removed, deepest first.
	var groups []string
	roots, _ := filepath.Glob(filepath.Join("/sys/fs/cgroup", "*", filepath.Base(d.dir)))
	if root := filepath.Join("/sys/fs/cgroup", filepath.Base(d.dir)); exists(root) {
		roots = append(roots, root)
	}
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && e.IsDir() {
				groups = append(groups, p)
			}
			return nil
		})
	}
	for _, g := range groups {
		b, _ := os.ReadFile(filepath.Join(g, "cgroup.procs"))
		for f := range strings.FieldsSeq(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid != os.Getpid() {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	slices.SortFunc(groups, func(a, b string) int { return len(b) - len(a) })
	for _, g := range groups {
		for range 50 {
			if err := syscall.Rmdir(g); err == nil || errors.Is(err, syscall.ENOENT) {
				break
			}
			time.Sleep(20 * time.Millisecond) // its processes are still exiting
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// cleanup stops the engine, kills what it left, unmounts what it mounted
// under its directory and removes the directory.
func (d *Dockerd) cleanup() {
	d.Stop()
	d.killLeftovers()
	var mounts []string
	if b, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[4], d.dir+"/") {
				mounts = append(mounts, f[4])
			}
		}
	}
	// Deepest first.
	slices.SortFunc(mounts, func(a, b string) int { return len(b) - len(a) })
	for _, m := range mounts {
		_ = syscall.Unmount(m, syscall.MNT_DETACH)
	}
	if err := os.RemoveAll(d.dir); err != nil {
		d.t.Errorf("remove the second engine's directory: %v", errors.Join(err, fmt.Errorf("mounts: %v", mounts)))
	}
	if d.bridge != "" {
		if out, err := exec.Command("ip", "link", "del", d.bridge).CombinedOutput(); err != nil {
			d.t.Errorf("remove the second engine's bridge %s: %v: %s", d.bridge, err, out)
		}
	}
	if d.docker0 && !exists("/sys/class/net/docker0") {
		d.t.Errorf("the host's docker0 (the first engine's bridge) is gone since the second engine started")
	}
}

// logTail is the end of the engine's log, without the gRPC client's lines:
// while dockerd waits for its containerd, they repeat every second and
// would push out the lines that say what it waits for.
func (d *Dockerd) logTail() string {
	b, _ := os.ReadFile(filepath.Join(d.dir, "dockerd.log"))
	var kept []string
	for line := range strings.SplitSeq(string(b), "\n") {
		if !strings.Contains(line, "module=grpc") {
			kept = append(kept, line)
		}
	}
	s := strings.Join(kept, "\n")
	if len(s) > 4000 {
		s = s[len(s)-4000:]
	}
	return s
}
