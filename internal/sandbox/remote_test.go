package sandbox

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// copyImage copies the default image from one engine to another, as
// `docker save | docker load` would.
func copyImage(t testing.TB, from, to *Engine) {
	t.Helper()
	saved, err := from.cli.ImageSave(t.Context(), []string{DefaultImage()})
	if err != nil {
		t.Fatalf("save %s: %v", DefaultImage(), err)
	}
	defer saved.Close()
	res, err := to.cli.ImageLoad(t.Context(), saved)
	if err != nil {
		t.Fatalf("load %s: %v", DefaultImage(), err)
	}
	defer res.Close()
	_, _ = io.Copy(io.Discard, res)
	if ok, err := to.ImageExists(t.Context(), DefaultImage()); err != nil || !ok {
		t.Fatalf("%s not on %s after loading it: %v", DefaultImage(), to.Host(), err)
	}
}

// authority is a certificate authority of a test.
type authority struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

// serial is a random certificate serial number.
func serial(t *testing.T) *big.Int {
	t.Helper()
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func newAuthority(t *testing.T, name string) authority {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: serial(t), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return authority{cert, key, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue returns the PEM certificate and key of a server (for 127.0.0.1) or
// a client, signed by a.
func (a authority) issue(t *testing.T, name string, server bool) (certPEM, keyPEM []byte) {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: serial(t), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.cert, &key.PublicKey, a.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

// writeFiles writes name → content into dir.
func writeFiles(t *testing.T, dir string, files map[string][]byte) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A tcp:// engine with --tlsverify (a second dockerd on a loopback port)
// is reached with the Docker CLI's settings, DOCKER_TLS_VERIFY and
// DOCKER_CERT_PATH (or ~/.docker), and a program runs there; a client
// without a certificate, with one of another authority, trusting another
// authority, or without TLS is refused, and the error says what to check.
func TestATLSEngineNeedsTheRightCertificate(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second Docker engine")
	}
	e1 := testEngine(t)
	defaultImageOn(t, e1)
	dir := t.TempDir()
	ca, rogue := newAuthority(t, "engine CA"), newAuthority(t, "rogue CA")
	srvCert, srvKey := ca.issue(t, "dockerd", true)
	writeFiles(t, filepath.Join(dir, "server"), map[string][]byte{"ca.pem": ca.pem, "cert.pem": srvCert, "key.pem": srvKey})
	d2 := testenv.StartDockerd(t, testenv.DockerdOptions{TLS: &testenv.DockerdTLS{
		CA: filepath.Join(dir, "server", "ca.pem"), Cert: filepath.Join(dir, "server", "cert.pem"), Key: filepath.Join(dir, "server", "key.pem"),
	}})
	local, err := Dial(t.Context(), d2.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	copyImage(t, e1, local)

	cliCert, cliKey := ca.issue(t, "client", false)
	rogueCert, rogueKey := rogue.issue(t, "client", false)
	good := writeFiles(t, filepath.Join(dir, "good"), map[string][]byte{"ca.pem": ca.pem, "cert.pem": cliCert, "key.pem": cliKey})

	t.Run("the right certificate", func(t *testing.T) {
		t.Setenv("DOCKER_TLS_VERIFY", "1")
		t.Setenv("DOCKER_CERT_PATH", good)
		p := NewProvider([]string{d2.TCP}, DefaultSpec(), Warming{Min: 1}, nil)
		defer p.Close()
		for range 3 {
			if host := runOn(t, p); host != d2.TCP {
				t.Fatalf("ran on %s", host)
			}
		}
		p.Close()
		noContainersLeft(t, local)
	})
	t.Run("from ~/.docker", func(t *testing.T) {
		home := t.TempDir()
		writeFiles(t, filepath.Join(home, ".docker"), map[string][]byte{"ca.pem": ca.pem, "cert.pem": cliCert, "key.pem": cliKey})
		t.Setenv("HOME", home)
		t.Setenv("DOCKER_TLS_VERIFY", "1")
		t.Setenv("DOCKER_CERT_PATH", "")
		e, err := Dial(t.Context(), d2.TCP)
		if err != nil {
			t.Fatal(err)
		}
		e.Close()
	})

	refused := []struct {
		name   string
		verify string
		files  map[string][]byte
		want   []string
	}{
		{"no client certificate", "1", map[string][]byte{"ca.pem": ca.pem}, []string{"certificate", "check ca.pem, cert.pem and key.pem"}},
		{"a client certificate of another authority", "1", map[string][]byte{"ca.pem": ca.pem, "cert.pem": rogueCert, "key.pem": rogueKey}, []string{"certificate", "check ca.pem"}},
		{"trusting another authority", "1", map[string][]byte{"ca.pem": rogue.pem, "cert.pem": cliCert, "key.pem": cliKey}, []string{"certificate signed by unknown authority", "check ca.pem"}},
		{"no TLS", "", nil, []string{"set DOCKER_TLS_VERIFY=1"}},
	}
	for i, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DOCKER_TLS_VERIFY", tt.verify)
			t.Setenv("DOCKER_CERT_PATH", writeFiles(t, filepath.Join(dir, "refused"+strconv.Itoa(i)), tt.files))
			e, err := Dial(t.Context(), d2.TCP)
			if err == nil {
				e.Close()
				t.Fatal("connected")
			}
			for _, w := range append(tt.want, d2.TCP) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q: %v", w, err)
				}
			}
		})
	}
}

// childrenNamed lists this process's children whose command is name.
func childrenNamed(name string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || !strings.HasSuffix(s[:i+1], " ("+name+")") {
			continue
		}
		if f := strings.Fields(s[i+1:]); len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// An ssh:// engine is reached as the Docker CLI reaches one: ssh runs
// `docker system dial-stdio` on the host and the API goes over its stdio.
// No sshd runs here, so a stand-in for ssh (testdata/fake-ssh/ssh) takes
// the place of the network hop and runs the real dial-stdio against a
// second dockerd; programs run there, attach streams included, and no ssh
// or docker process outlives the provider.
func TestAnSSHEngineRunsThroughDockerDialStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second Docker engine")
	}
	if _, err := exec.LookPath("docker"); err != nil {
		testenv.SkipOrFail(t, "ssh:// engines need the docker CLI on the remote host (Debian's docker.io): %v", err)
	}
	e1 := testEngine(t)
	defaultImageOn(t, e1)
	d2 := testenv.StartDockerd(t, testenv.DockerdOptions{})
	local, err := Dial(t.Context(), d2.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	copyImage(t, e1, local)

	fake, err := filepath.Abs(filepath.Join("testdata", "fake-ssh"))
	if err != nil {
		t.Fatal(err)
	}
	argsFile := filepath.Join(t.TempDir(), "args")
	t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_SSH_ARGS", argsFile)
	t.Setenv("FAKE_SSH_HOST", "engine.example")
	t.Setenv("FAKE_SSH_DOCKER_HOST", d2.Host)

	host := "ssh://alice@engine.example:2222"
	p := NewProvider([]string{host}, DefaultSpec(), Warming{Min: 1}, nil)
	for range 3 {
		if got := runOn(t, p); got != host {
			t.Fatalf("ran on %s", got)
		}
	}
	p.Close()
	noContainersLeft(t, local)
	if left := append(childrenNamed("ssh"), childrenNamed("docker")...); len(left) > 0 {
		for _, pid := range left {
			stat, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
			cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
			t.Errorf("process left after Close: %s (%q)", stat, cmd)
		}
	}
	b, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	want := "-o\nConnectTimeout=30\n-o\nBatchMode=yes\n-T\n-l\nalice\n-p\n2222\n--\nengine.example\ndocker\nsystem\ndial-stdio\n\n"
	calls := strings.SplitAfter(string(b), "\n\n")
	if len(calls) < 2 || calls[0] != want {
		t.Fatalf("ssh was run with\n%s\nwant\n%s", b, want)
	}
	for _, c := range calls {
		if c != "" && c != want {
			t.Errorf("ssh was also run with\n%s", c)
		}
	}

	// A host ssh cannot reach: the error names the command, its status and
	// what ssh said.
	_, err = Dial(t.Context(), "ssh://alice@elsewhere.example")
	if err == nil {
		t.Fatal("an unreachable ssh host answered")
	}
	for _, w := range []string{"ssh://alice@elsewhere.example", "ssh -o ConnectTimeout=30", "exit status 255", "Could not resolve hostname elsewhere.example"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say %q: %v", w, err)
		}
	}
}

// With the real ssh, a host that does not exist fails with ssh's own words.
func TestABadSSHHostFailsClearly(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		testenv.SkipOrFail(t, "no ssh client: %v", err)
	}
	t.Setenv("HOME", t.TempDir()) // no ssh config or known hosts of the user's
	_, err := Dial(t.Context(), "ssh://nobody@no-such-host.invalid")
	if err == nil {
		t.Fatal("connected to no-such-host.invalid")
	}
	for _, w := range []string{"ssh://nobody@no-such-host.invalid", "exit status 255", "no-such-host.invalid"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say %q: %v", w, err)
		}
	}
	if left := childrenNamed("ssh"); len(left) > 0 {
		t.Errorf("ssh processes left: %v", left)
	}
}

func TestParseSSH(t *testing.T) {
	good := []struct {
		addr string
		args []string
	}{
		{"ssh://host", []string{"--", "host", "docker", "system", "dial-stdio"}},
		{"ssh://me@host:22", []string{"-l", "me", "-p", "22", "--", "host", "docker", "system", "dial-stdio"}},
		{"ssh://host/run/user/1000/docker.sock", []string{"--", "host", "docker", "--host=unix:///run/user/1000/docker.sock", "system", "dial-stdio"}},
		{"ssh://[::1]:2200", []string{"-p", "2200", "--", "::1", "docker", "system", "dial-stdio"}},
	}
	for _, tt := range good {
		s, err := parseSSH(tt.addr)
		if err != nil {
			t.Errorf("%s: %v", tt.addr, err)
			continue
		}
		args := s.args()
		if !slices.Equal(args[:5], []string{"-o", "ConnectTimeout=30", "-o", "BatchMode=yes", "-T"}) || !slices.Equal(args[5:], tt.args) {
			t.Errorf("%s: args %q, want the options then %q", tt.addr, args, tt.args)
		}
	}
	// The hostile addresses: each must be refused before ssh runs.
	b, err := os.ReadFile(filepath.Join("testdata", "hostile-engines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{}
	for line := range strings.SplitSeq(string(b), "\n") {
		if addr, want, ok := strings.Cut(line, "\t"); ok && !strings.HasPrefix(line, "#") {
			bad[addr] = want
		}
	}
	if len(bad) < 10 {
		t.Fatalf("read %d hostile addresses: the fixture's format is broken", len(bad))
	}
	for addr, want := range bad {
		_, err := parseSSH(addr)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", addr, err, want)
		}
	}
}

func TestCheckHost(t *testing.T) {
	for _, h := range []string{"", "unix:///var/run/docker.sock", "tcp://10.0.0.2:2376", "ssh://me@host"} {
		if err := CheckHost(h); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
	for h, want := range map[string]string{
		"/var/run/docker.sock":   "want unix:///PATH",
		"unix://run/docker.sock": "absolute path",
		"http://host:2375":       `unknown scheme "http"`,
		"ssh://a:b@host":         "password",
	} {
		if err := CheckHost(h); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one saying %q", h, err, want)
		}
	}
}
