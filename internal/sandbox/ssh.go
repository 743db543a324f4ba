package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	tailbuf "github.com/mcp-code-mode/mcp-code-mode/internal/tail"
)

// An ssh:// engine is reached as the Docker CLI reaches one: each
// connection is an `ssh` process running `docker system dial-stdio` on the
// remote host, which joins its stdin and stdout to the engine's socket there;
// the client speaks HTTP over the process's stdio. The user's ssh config,
// keys and agent apply; ssh is never allowed to prompt (BatchMode), since
// nobody may be there to answer.

// sshSpec is what an ssh:// engine address names.
type sshSpec struct {
	user, host, port string
	socket           string // the engine's socket on the remote host ("" = the docker CLI's default)
}

// safeRemotePath is what a remote socket path may hold: it reaches the remote
// shell inside the command ssh sends.
var safeRemotePath = regexp.MustCompile(`^/[A-Za-z0-9/._-]*$`)

// parseSSH reads ssh://[USER@]HOST[:PORT][/SOCKET]. A password, a query or a
// fragment is refused, as the Docker CLI refuses them, and so is anything
// that ssh or the remote shell would read as more than a name.
func parseSSH(addr string) (sshSpec, error) {
	bad := func(why string) (sshSpec, error) {
		return sshSpec{}, fmt.Errorf("engine %q: %s", addr, why)
	}
	u, err := url.Parse(addr)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return bad(err.Error())
	}
	var s sshSpec
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			return bad("a password in the address is not supported: use a key or ssh-agent")
		}
		s.user = u.User.Username()
	}
	s.host, s.port = u.Hostname(), u.Port()
	switch {
	case s.host == "":
		return bad("no host")
	case strings.HasPrefix(s.host, "-") || strings.HasPrefix(s.user, "-"):
		return bad("a host or user may not begin with '-'")
	case strings.ContainsFunc(s.host+s.user, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return bad("a host or user may not hold spaces or control characters")
	case u.RawQuery != "" || u.Fragment != "":
		return bad("no query or fragment is allowed")
	}
	if s.port != "" {
		if n, err := strconv.Atoi(s.port); err != nil || n < 1 || n > 65535 {
			return bad("the port must be a number from 1 to 65535")
		}
	}
	if p := strings.TrimRight(u.Path, "/"); p != "" {
		if !safeRemotePath.MatchString(p) {
			return bad("the remote socket path may hold only letters, digits and / . _ -")
		}
		s.socket = p
	}
	return s, nil
}

// args are ssh's arguments: the Docker CLI's (a connect timeout, no
// terminal, the user and port, "--" before the host so that it is never read
// as an option), never prompting, then the remote command.
func (s sshSpec) args() []string {
	args := []string{"-o", "ConnectTimeout=30", "-o", "BatchMode=yes", "-T"}
	if s.user != "" {
		args = append(args, "-l", s.user)
	}
	if s.port != "" {
		args = append(args, "-p", s.port)
	}
	args = append(args, "--", s.host, "docker")
	if s.socket != "" {
		args = append(args, "--host=unix://"+s.socket)
	}
	return append(args, "system", "dial-stdio")
}

// sshDialer returns the dialer of the engine at addr (ssh://...): each call
// starts an ssh process and returns its stdio as the connection.
func sshDialer(addr string) (func(ctx context.Context, network, address string) (net.Conn, error), error) {
	spec, err := parseSSH(addr)
	if err != nil {
		return nil, err
	}
	args := spec.args()
	return func(ctx context.Context, _, _ string) (net.Conn, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return startCommandConn("ssh", args...)
	}, nil
}

// commandConn is a connection over a process's stdin and stdout. Closing it
// kills the process (and its process group) and waits for it.
type commandConn struct {
	desc   string // the command line, for messages
	cmd    *exec.Cmd
	in     *os.File // the process's stdin, our end
	out    *os.File // the process's stdout, our end
	stderr *tailbuf.Buffer
	exited chan struct{} // closed once the process has been waited for
	err    error         // how it ended, set before exited is closed

	closeOnce sync.Once
}

// startCommandConn starts name with args and returns its stdio as a
// connection.
func startCommandConn(name string, args ...string) (*commandConn, error) {
	desc := name + " " + strings.Join(args, " ")
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", desc, err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", desc, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("%s: %w", desc, err)
	}
	c := &commandConn{desc: desc, in: inW, out: outR, stderr: &tailbuf.Buffer{Max: 2048}, exited: make(chan struct{})}
	c.cmd = exec.Command(path, args...)
	c.cmd.Stdin, c.cmd.Stdout, c.cmd.Stderr = inR, outW, c.stderr
	// Its own process group: a Ctrl-C meant for this program does not cut
	// the engine's connections under it, and Close reaches the children.
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// An ssh that leaves a child holding stderr (a ControlMaster) must not
	// keep Wait from returning.
	c.cmd.WaitDelay = 2 * time.Second
	err = c.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("%s: %w", desc, err)
	}
	go func() {
		c.err = c.cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// failure is the error of a process that ended, with what it said last.
func (c *commandConn) failure(cause error) error {
	select {
	case <-c.exited:
	case <-time.After(time.Second):
		return cause
	}
	if c.err == nil {
		return cause
	}
	msg := strings.TrimSpace(c.stderr.String())
	if msg == "" {
		return fmt.Errorf("%s: %w", c.desc, c.err)
	}
	return fmt.Errorf("%s: %w: %s", c.desc, c.err, oneLine(msg))
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Read reads the process's stdout. When it ends because the process failed
// (ssh could not connect, docker is missing there), the error says so, with
// the end of what the process wrote on stderr.
func (c *commandConn) Read(p []byte) (int, error) {
	n, err := c.out.Read(p)
	if err == io.EOF {
		if ferr := c.failure(io.EOF); ferr != io.EOF {
			return n, ferr
		}
	}
	return n, err
}

// Write writes to the process's stdin.
func (c *commandConn) Write(p []byte) (int, error) {
	n, err := c.in.Write(p)
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		err = c.failure(err)
	}
	return n, err
}

// CloseWrite closes the process's stdin.
func (c *commandConn) CloseWrite() error { return c.in.Close() }

// Close closes both pipes, kills the process group and waits for the
// process. It is safe to call more than once.
func (c *commandConn) Close() error {
	c.closeOnce.Do(func() {
		c.in.Close()
		c.out.Close()
		select {
		case <-c.exited:
		default:
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
			<-c.exited
		}
	})
	return nil
}

// commandAddr is either end of a commandConn.
type commandAddr string

func (a commandAddr) Network() string { return "command" }
func (a commandAddr) String() string  { return string(a) }

func (c *commandConn) LocalAddr() net.Addr  { return commandAddr("stdio") }
func (c *commandConn) RemoteAddr() net.Addr { return commandAddr(c.desc) }

func (c *commandConn) SetDeadline(t time.Time) error {
	return errors.Join(c.SetReadDeadline(t), c.SetWriteDeadline(t))
}
func (c *commandConn) SetReadDeadline(t time.Time) error  { return c.out.SetReadDeadline(t) }
func (c *commandConn) SetWriteDeadline(t time.Time) error { return c.in.SetWriteDeadline(t) }
