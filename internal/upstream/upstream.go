// Package upstream owns the wrapped MCP servers: it starts one on first use
// (a stdio child in its own process group, or a streamable HTTP or SSE
// connection), lists its tools byte for byte, forwards checked calls, stops
// it when idle, restarts it after a crash within a limit, and renews an HTTP
// session the server dropped. It is the only package that speaks to wrapped
// servers, through mark3labs/mcp-go, and it carries that library's
// workarounds.
package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/catalog"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/oauth"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/mcp-code-mode/mcp-code-mode/internal/redact"
	"github.com/mcp-code-mode/mcp-code-mode/internal/tail"
)

// baseEnv are the host variables every wrapped stdio server gets, as the MCP
// SDKs do by default; anything else must be named with --env or in the
// server's own env.
var baseEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR"}

// Tool is a tool as the server listed it, schemas byte for byte.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

// ReadOnly reports whether the tool's annotations say it does not modify
// its environment.
func (t Tool) ReadOnly() bool {
	var a struct {
		ReadOnlyHint bool `json:"readOnlyHint"`
	}
	return len(t.Annotations) > 0 && json.Unmarshal(t.Annotations, &a) == nil && a.ReadOnlyHint
}

// session is one live connection to a wrapped server.
type session struct {
	c      *client.Client
	cancel context.CancelFunc // ends the connection (and a stdio child)
	pgid   atomic.Int64       // stdio: the child's process group
	stderr *tail.Buffer       // stdio: the end of what the child wrote on stderr
	cmd    *exec.Cmd          // stdio: the child
	stdout *os.File           // stdio: the read end of its stdout
	exited chan struct{}      // stdio: closed once the child has been waited for
	dead   atomic.Bool        // the transport failed; start anew on next use
	// tooLarge is set when a message from the server went over
	// limits.max_message_bytes (a transport may not say so itself).
	tooLarge atomic.Bool
	// streamed: every answer comes on one stream (stdio, SSE), which a
	// message over the limit ends for all calls in flight.
	streamed bool
	foreign  *foreignLine // stdio: the first line of stdout that was not JSON-RPC
	// instructions are the server's notes on using it, from its answer
	// to initialize (bounded by MaxInstructionsRunes, secrets taken out).
	instructions string
}

// overflowed ends a streamed session whose stream carried a message over
// the limit: its calls in flight fail now, not at their timeouts.
func (s *session) overflowed() {
	s.dead.Store(true)
	if s.c != nil {
		go func() { _ = s.c.Close() }()
	}
}

// Server owns one wrapped server: it starts it on first use, keeps it
// while it is used, stops it when idle, and restarts it after a crash.
type Server struct {
	srv     config.Server
	passEnv []string
	limits  config.Limits
	log     *slog.Logger
	redact  *redact.Replacer // the server's secrets (config.Server.Secrets)
	catalog catalog.Catalog
	changed func()        // called when the tool list changes
	calls   chan struct{} // bounds calls in flight
	auth    *oauth.Client // a remote server's sign-in; nil when its config authorizes it (or it is stdio)

	mu    sync.Mutex
	sess  *session
	tools []Tool // the last list seen (live or from the catalog); nil if never
	gen   uint64 // counts changes of tools
	// instructions are the server's notes on using it, as last seen with
	// tools (see session.instructions).
	instructions string
	active       int
	idle         *time.Timer
	closed       bool
	wg           sync.WaitGroup // sessions being closed

	restarts []time.Time // restarts after a failure, within the last RestartWindow

	starting chan struct{} // closed when the start in progress ends; nil when none is
	failures int           // starts that failed in a row
	failedAt time.Time     // when the last of them failed
	lastErr  error         // why
	recalled bool          // the catalog's record of failed starts was read

	onStart StartHook // nil: starts are told to no one
	traces  bool      // requests carry the trace context (PassTraceContext)
}

// StartHook is told of each start of a server as it begins; it returns the
// context the start runs in (a span's) and the func to call with its
// result when it ends.
type StartHook func(ctx context.Context) (context.Context, func(err error))

// OnStart sets the hook told of every start of the server (for traces and
// metrics); call it before the server is used.
func (u *Server) OnStart(h StartHook) { u.onStart = h }

// A server that fails is restarted on its next call, at most MaxRestarts
// times within RestartWindow; then calls are refused until a run starts
// after the window, so a server that crashes on start-up is not looped.
const (
	MaxRestarts   = 3
	RestartWindow = time.Minute
)

// New returns the owner of srv, not yet started. passEnv names the host
// variables a stdio server gets besides the base ones; the catalog keeps
// its tool list; changed is called whenever the tool list changes. A
// remote server whose config sends no Authorization header of its own is
// signed in to with OAuth when it asks (see package oauth): signIn says
// where sign-ins are kept and whether a user can sign in now; the secrets
// of a sign-in are added to the server's redaction, and told to
// signIn.OnSecret.
func New(srv config.Server, passEnv []string, limits config.Limits, catalog catalog.Catalog, changed func(), signIn oauth.Options, log *slog.Logger) *Server {
	u := &Server{srv: srv, passEnv: passEnv, limits: limits, catalog: catalog, changed: changed,
		calls: make(chan struct{}, max(1, limits.ServerConcurrency)), log: log.With("server", srv.Name),
		redact: redact.New(srv.Secrets()...)}
	if SignsIn(srv) {
		tell := signIn.OnSecret
		signIn.OnSecret = func(secrets ...string) {
			u.redact.Add(secrets...)
			if tell != nil {
				tell(secrets...)
			}
		}
		if signIn.Log == nil {
			signIn.Log = u.log
		}
		u.auth = oauth.New(srv, signIn)
	}
	return u
}

// SignsIn reports whether srv is signed in to with OAuth when it asks: a
// remote server whose config gives no Authorization header (headers,
// env_http_headers or bearer_token_env_var).
func SignsIn(srv config.Server) bool {
	if srv.Transport != config.TransportHTTP && srv.Transport != config.TransportSSE || srv.BearerTokenEnv != "" {
		return false
	}
	for _, h := range []map[string]string{srv.Headers, srv.EnvHeaders} {
		for k := range h {
			if strings.EqualFold(k, "Authorization") {
				return false
			}
		}
	}
	return true
}

// SignIn is the server's OAuth sign-in, nil when it signs in otherwise
// (see SignsIn).
func (u *Server) SignIn() *oauth.Client { return u.auth }

// KnownTools returns the tool list without starting the server: the live
// one, else the catalog's. ok is false when neither exists.
func (u *Server) KnownTools() ([]Tool, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.tools != nil {
		return u.tools, true
	}
	ct, ok := u.catalog.Load(u.srv)
	if !ok {
		return nil, false
	}
	tools := make([]Tool, 0, len(ct.Tools))
	for _, raw := range ct.Tools {
		var t Tool
		if json.Unmarshal(raw, &t) == nil && usableToolName(t.Name) {
			tools = append(tools, t)
		}
	}
	u.tools, u.instructions = tools, boundInstructions(ct.Instructions)
	u.gen++
	return tools, true
}

// Instructions returns the server's notes on using it, from its answer to
// initialize (MCP's instructions), as last seen: from its last start, or
// from the catalog. It is "" when the server gave none or its tools are
// not known yet (see KnownTools).
func (u *Server) Instructions() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.instructions
}

// setToolsLocked records a fresh tool list, stores it in the catalog and
// tells the owner; u.mu is held.
func (u *Server) setToolsLocked(tools []Tool) {
	u.tools = tools
	u.gen++
	raws := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		// A careless server may quote its token in a description: the
		// catalog, a file that outlives the process, keeps no secret.
		if b, err := json.Marshal(t); err == nil {
			raws = append(raws, u.redact.JSON(b))
		}
	}
	if err := u.catalog.Store(u.srv, raws, u.instructions); err != nil {
		u.log.Warn("catalog", "err", err)
	}
	if u.changed != nil {
		u.changed()
	}
}

// refresh lists the tools again after the server said they changed.
func (u *Server) refresh(sess *session) {
	ctx, cancel := context.WithTimeout(context.Background(), u.limits.ConnectTimeout)
	defer cancel()
	tools, err := u.listTools(ctx, sess.c, nil)
	if err != nil {
		u.log.Debug("refresh after tools/list_changed", "err", u.redact.String(err.Error()))
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.sess == sess {
		u.setToolsLocked(tools)
	}
}

// Acquire makes sure the server is running (starting it if needed, see
// ensure) and returns its tool list with the list's generation. The caller
// must call Release when its run ends.
func (u *Server) Acquire(ctx context.Context) ([]Tool, uint64, error) {
	for {
		if err := u.ensure(ctx); err != nil {
			return nil, 0, err
		}
		u.mu.Lock()
		if u.sess != nil && !u.closed {
			u.active++
			if u.idle != nil {
				u.idle.Stop()
			}
			tools, gen := u.tools, u.gen
			u.mu.Unlock()
			return tools, gen, nil
		}
		u.mu.Unlock() // stopped in between: start it again
	}
}

// ensure returns once the server has a live session, starting one if it
// has none (or a dead one). Every path that starts the server comes here:
// one start at a time, which the callers that arrive meanwhile wait for and
// share, with no lock held while it runs (a server that hangs in its
// handshake delays only those who need it); and after a failed start, none
// for a back-off period (see backoff), so a flood of calls or helper
// requests cannot start a broken server again and again.
func (u *Server) ensure(ctx context.Context) error {
	for {
		u.mu.Lock()
		if u.closed {
			u.mu.Unlock()
			return fmt.Errorf("server %q: shutting down", u.srv.Name)
		}
		if u.sess != nil && u.sess.dead.Load() {
			u.stopLocked("it failed")
		}
		if u.sess != nil {
			u.mu.Unlock()
			return nil
		}
		if wait := u.starting; wait != nil {
			u.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		u.recallLocked()
		if u.failures > 0 && u.auth != nil && needsLogin(u.lastErr) && u.auth.SignedInSince(u.failedAt) {
			u.failures = 0 // signed in since (login, in another process): try now
		}
		if u.failures > 0 {
			if left := time.Until(u.failedAt.Add(backoff(u.failures))); left > 0 {
				err := u.lastErr
				u.mu.Unlock()
				if needsLogin(err) {
					return err // what to do is said; the back-off is no news
				}
				return fmt.Errorf("%w; it failed %d time(s) in a row and is not started again for another %v (`mcp-code-mode doctor` tries it now)", err, u.failures, left.Round(time.Second))
			}
		}
		done := make(chan struct{})
		u.starting = done
		u.mu.Unlock()

		sctx, ended := ctx, func(error) {}
		if u.onStart != nil {
			sctx, ended = u.onStart(ctx)
		}
		sess, tools, err := u.start(sctx)
		ended(err)

		u.mu.Lock()
		u.starting = nil
		switch {
		case err != nil:
			// A start cut short by its caller says nothing of the server.
			if ctx.Err() == nil {
				u.failures++
				u.failedAt, u.lastErr = time.Now(), err
				f := catalog.Failure{Server: u.srv.Name, Failures: u.failures, At: u.failedAt.UTC(), Error: err.Error()}
				if serr := u.catalog.StoreFailure(u.srv, f); serr != nil {
					u.log.Warn("catalog", "err", serr)
				}
			}
		case u.closed:
			u.wg.Go(sess.stop)
			err = fmt.Errorf("server %q: shutting down", u.srv.Name)
		default:
			if u.failures > 0 {
				u.catalog.ClearFailure(u.srv)
			}
			u.failures = 0
			u.sess = sess
			u.instructions = sess.instructions
			u.setToolsLocked(tools)
		}
		close(done)
		u.mu.Unlock()
		if err != nil {
			return err
		}
	}
}

// needsLogin reports whether a failed start needs the user to sign in
// (also when an earlier process recorded it: only its message is known).
func needsLogin(err error) bool {
	var login *oauth.LoginRequiredError
	return errors.As(err, &login) || errors.Is(err, errRecalled) && strings.HasSuffix(err.Error(), oauth.LoginHintSuffix)
}

// errRecalled is the cause of a failed start recorded by an earlier
// process: only its message is known.
var errRecalled = errors.New("failed to start in an earlier command")

// ForgetFailures ends the back-off after failed starts (in this process and
// recorded in the catalog), so that the next use tries the server at once:
// for doctor, whose job is to try.
func (u *Server) ForgetFailures() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.recalled = true
	u.failures, u.lastErr = 0, nil
	u.catalog.ClearFailure(u.srv)
}

// recallLocked reads, once, the failed starts an earlier process recorded
// in the catalog: the next command does not wait again for a server that
// just failed. u.mu is held.
func (u *Server) recallLocked() {
	if u.recalled {
		return
	}
	u.recalled = true
	if f, ok := u.catalog.LoadFailure(u.srv); ok && u.failures == 0 {
		u.failures, u.failedAt, u.lastErr = f.Failures, f.At, &StartError{Server: u.srv.Name, Err: errRecalled, msg: f.Error}
	}
}

// BackingOff reports whether the server is left alone now after failed
// starts (a use fails at once, with the last failure's cause).
func (u *Server) BackingOff() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.recallLocked()
	return u.failures > 0 && time.Now().Before(u.failedAt.Add(backoff(u.failures)))
}

// Running reports whether the server has a live session now.
func (u *Server) Running() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.sess != nil && !u.sess.dead.Load()
}

// backoff is how long a server that failed to start n times in a row is
// left alone: 10 s, doubling, at most 5 minutes.
func backoff(n int) time.Duration {
	return min(10*time.Second<<min(n-1, 5), 5*time.Minute)
}

// Release marks one user gone; the last one arms the idle timer.
func (u *Server) Release() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.active--
	if u.active > 0 || u.sess == nil || u.closed {
		return
	}
	if u.sess.dead.Load() {
		u.stopLocked("it failed")
		return
	}
	if u.idle == nil {
		u.idle = time.AfterFunc(u.limits.ServerIdle, u.stopIdle)
	} else {
		u.idle.Reset(u.limits.ServerIdle)
	}
}

func (u *Server) stopIdle() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.active == 0 && u.sess != nil {
		u.stopLocked("idle")
	}
}

// Close stops the server for good and waits until it is gone.
func (u *Server) Close() {
	u.mu.Lock()
	u.closed = true
	if u.idle != nil {
		u.idle.Stop()
	}
	if u.sess != nil {
		u.stopLocked("shutdown")
	}
	starting := u.starting
	u.mu.Unlock()
	if starting != nil {
		<-starting // its session is stopped as soon as it is up
	}
	u.wg.Wait()
}

func (u *Server) stopLocked(why string) {
	sess := u.sess
	u.sess = nil
	u.log.Debug("stopping wrapped server", "why", why)
	u.wg.Go(sess.stop)
}

// stop ends the session: a polite close, then the whole process group.
func (s *session) stop() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if s.c != nil {
			_ = s.c.Close()
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	if pgid := s.pgid.Load(); pgid > 0 {
		_ = syscall.Kill(-int(pgid), syscall.SIGKILL)
	}
	s.cancel()
	<-done
	if s.exited != nil {
		<-s.exited
		s.stdout.Close()
	}
}

// start connects to the server, initializes and lists its tools. A remote
// server that is briefly unreachable (see transient) is tried again, within
// the connect timeout.
func (u *Server) start(ctx context.Context) (*session, []Tool, error) {
	deadline := time.Now().Add(u.limits.ConnectTimeout)
	for attempt := 0; ; attempt++ {
		sess, tools, err := u.startOnce(ctx)
		if err == nil || u.srv.Transport == config.TransportStdio || u.srv.Transport == "" ||
			attempt == MaxConnectRetries || !transient(err) {
			return sess, tools, err
		}
		pause := 250 * time.Millisecond << attempt
		if time.Now().Add(pause).After(deadline) {
			return nil, nil, err
		}
		u.log.Info("remote server not reachable; trying again", "err", u.redact.String(err.Error()), "in", pause)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return nil, nil, err
		}
	}
}

// MaxConnectRetries is how many times a remote server that is briefly
// unreachable (transient) is tried again, 250 ms, 500 ms and 1 s apart.
const MaxConnectRetries = 3

// transientStatus matches the error mcp-go makes of a gateway or
// unavailable answer; it gives no typed status.
var transientStatus = regexp.MustCompile(`\bstatus (502|503|504)\b`)

// transient reports whether a failed connection to a remote server may
// work a moment later: refused or reset, or a 502, 503 or 504.
func transient(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		transientStatus.MatchString(err.Error())
}

// startOnce connects to the server, initializes and lists its tools.
func (u *Server) startOnce(ctx context.Context) (*session, []Tool, error) {
	began := time.Now()
	// The session outlives the request that started it.
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	sess := &session{cancel: cancel}
	var err error
	switch u.srv.Transport {
	case config.TransportStdio, "":
		sess.streamed = true
		sess.stderr = &tail.Buffer{Max: 4 << 10}
		sess.c, err = u.stdioClient(sess)
	case config.TransportHTTP:
		var headers map[string]string
		if headers, err = u.headers(); err == nil {
			var tr *transport.StreamableHTTP
			tr, err = transport.NewStreamableHTTP(u.srv.URL, transport.WithHTTPHeaders(headers), transport.WithHTTPLogger(u.log),
				transport.WithHTTPBasicClient(httpClient(u.limits.MaxMessageBytes, &sess.tooLarge, nil, u.auth)))
			if err == nil {
				sess.c = client.NewClient(tr, u.traceOptions(u.srv.Transport)...)
			}
		}
	case config.TransportSSE:
		sess.streamed = true
		var headers map[string]string
		if headers, err = u.headers(); err == nil {
			// mcp-go's own waits (30 s for the endpoint, 60 s for each
			// answer) would cut calls the configured timeouts allow; the
			// contexts of the handshake and of each call bound them instead.
			var tr *transport.SSE
			tr, err = transport.NewSSE(u.srv.URL, transport.WithHeaders(headers), transport.WithSSELogger(u.log),
				transport.WithHTTPClient(httpClient(u.limits.MaxMessageBytes, &sess.tooLarge, sess.overflowed, u.auth)),
				transport.WithEndpointTimeout(u.limits.ConnectTimeout),
				transport.WithResponseTimeout(max(u.limits.CallTimeout, u.limits.ConnectTimeout)))
			if err == nil {
				sess.c = client.NewClient(tr, u.traceOptions(u.srv.Transport)...)
			}
		}
	default:
		err = fmt.Errorf("unknown transport %q", u.srv.Transport)
	}
	if err == nil {
		err = sess.c.Start(life)
	}
	var tools []Tool
	if err == nil {
		cctx, ccancel := context.WithTimeout(ctx, u.limits.ConnectTimeout)
		tools, sess.instructions, err = u.handshake(cctx, sess.c)
		if err != nil && errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			err = fmt.Errorf("it did not answer initialize and tools/list within %v (limits.connect_timeout sets it): %w", u.limits.ConnectTimeout, err)
		}
		ccancel()
	}
	if err != nil {
		// Read what the child said before its pipes are closed.
		stderr := sess.stderrTail()
		sess.stop()
		if sess.tooLarge.Load() {
			err = fmt.Errorf("%w: it sent a message over %d bytes (limits.max_message_bytes)", ErrMessageTooLarge, u.limits.MaxMessageBytes)
		}
		se := &StartError{Server: u.srv.Name, Err: err, Stderr: printable.Line(u.redact.String(stderr)), Stdout: printable.Line(u.redact.String(sess.foreign.line()))}
		if sess.cmd != nil && sess.cmd.ProcessState != nil && sess.cmd.ProcessState.Exited() {
			se.Exit = sess.cmd.ProcessState.ExitCode()
		}
		var login *oauth.LoginRequiredError
		var signIn *oauth.SignInError
		switch {
		case errors.As(err, &login):
			se.msg = u.redact.String(login.Error())
		case errors.As(err, &signIn):
			se.msg = fmt.Sprintf("start server %q: %s", u.srv.Name, u.redact.String(signIn.Error()))
		case errors.Is(err, transport.ErrAuthorizationRequired) || errors.Is(err, transport.ErrUnauthorized):
			se.msg = fmt.Sprintf("start server %q: it refused the authorization its config gives (HTTP 401): check the token of its headers, env_http_headers or bearer_token_env_var: %s", u.srv.Name, u.redact.String(err.Error()))
		default:
			se.msg = fmt.Sprintf("start server %q: %s", u.srv.Name, u.redact.String(err.Error()))
			if se.Exit > 0 {
				se.msg += fmt.Sprintf("; it exited with status %d", se.Exit)
			}
			if se.Stdout != "" {
				se.msg += "; it wrote a line on stdout that is not an MCP message (a server must write only MCP messages there)"
			}
			if stderr != "" || se.Stdout != "" {
				se.msg += " (what it wrote is in the log, and `mcp-code-mode doctor` shows it)"
			}
		}
		// The error may quote the server: a remote server's HTTP error
		// body is part of it.
		se.msg = printable.Line(se.msg)
		if stderr != "" {
			u.log.Warn("wrapped server did not start", "err", se.msg, "stderr", se.Stderr)
		}
		return nil, nil, se
	}
	sess.c.OnConnectionLost(func(error) { sess.dead.Store(true) })
	// Handlers run on the transport's read loop: the refresh must not.
	sess.c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			u.wg.Go(func() { u.refresh(sess) })
		}
	})
	u.log.Debug("wrapped server started", "tools", len(tools), "took", time.Since(began))
	return sess, tools, nil
}

// stderrTail is the end of what a stdio server wrote on its standard
// error, on one line.
func (s *session) stderrTail() string {
	if s.stderr == nil {
		return ""
	}
	// What the dead child wrote may still be on its way through the drain.
	for i := 0; i < 20 && strings.TrimSpace(s.stderr.String()) == ""; i++ {
		time.Sleep(25 * time.Millisecond)
	}
	tail := []rune(strings.TrimSpace(s.stderr.String()))
	tail = tail[max(0, len(tail)-300):]
	return strings.ReplaceAll(string(tail), "\n", " | ")
}

// StartError is a server that did not start. Its message names the server
// and the cause, with the values of the server's secrets taken out (see
// config.Server.Secrets), and it is what the model may see. What a stdio server wrote on
// its standard error is kept apart, in Stderr: a server may print its own
// token there, which no redaction can know, so it goes to the log and to
// doctor (Detail), never into the message.
type StartError struct {
	Server string
	Err    error  // the cause, unredacted: for errors.Is, never for display
	Stderr string // the end of the server's standard error, redacted, on one line (printable.Line)
	Stdout string // the first line it wrote on stdout that was not an MCP message, redacted, printable
	Exit   int    // a stdio server's exit status, when it exited (else 0)
	msg    string
}

func (e *StartError) Error() string { return e.msg }
func (e *StartError) Unwrap() error { return e.Err }

// Detail is the message with the end of the server's standard error, for
// the user's eyes (doctor, logs).
func (e *StartError) Detail() string {
	d := e.msg
	if e.Stdout != "" {
		d += "; its first line on stdout that is not an MCP message: " + e.Stdout
	}
	if e.Stderr != "" {
		d += "; its stderr ends: " + e.Stderr
	}
	return d
}

func (u *Server) stdioClient(sess *session) (*client.Client, error) {
	cmd := exec.Command(u.srv.Command, u.srv.Args...)
	cmd.Dir = u.srv.Cwd
	cmd.Env = u.childEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = sess.stderr
	cmd.WaitDelay = 3 * time.Second
	// Pipes of our own: the child's stdout is read through the message
	// limit, and Wait does not close what is still being read.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	sess.pgid.Store(int64(cmd.Process.Pid))
	sess.cmd, sess.stdout = cmd, outR
	sess.exited = make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(sess.exited)
	}()
	sess.foreign = &foreignLine{r: outR}
	tr := transport.NewIO(&messageLimit{r: sess.foreign, max: u.limits.MaxMessageBytes, over: &sess.tooLarge, onOver: sess.overflowed}, inW, nil)
	transport.WithCommandLogger(slog.New(slog.DiscardHandler))(tr)
	return client.NewClient(tr, u.traceOptions(config.TransportStdio)...), nil
}

// headers are the request headers of a remote server: its own, and those
// whose values come from host variables named in its config (read now,
// never stored).
func (u *Server) headers() (map[string]string, error) {
	h := make(map[string]string, len(u.srv.Headers)+len(u.srv.EnvHeaders)+1)
	for k, v := range u.srv.Headers {
		h[k] = v
	}
	for header, name := range u.srv.EnvHeaders {
		v, ok := os.LookupEnv(name)
		if !ok {
			return nil, fmt.Errorf("header %s: variable %s is not set", header, name)
		}
		h[header] = v
	}
	if name := u.srv.BearerTokenEnv; name != "" {
		v := os.Getenv(name)
		if v == "" {
			return nil, fmt.Errorf("bearer token variable %s is not set", name)
		}
		h["Authorization"] = "Bearer " + v
	}
	return h, nil
}

// childEnv is the environment of a stdio server: the base variables and the
// passed-through ones from the host, then the server's own.
func (u *Server) childEnv() []string {
	var env []string
	for _, name := range append(append([]string{}, baseEnv...), u.passEnv...) {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	for k, v := range u.srv.Env {
		env = append(env, k+"="+v)
	}
	return env
}

// handshake initializes the session and lists the tools; it also returns
// the server's instructions, bounded and with its secrets taken out.
func (u *Server) handshake(ctx context.Context, c *client.Client) ([]Tool, string, error) {
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "mcp-code-mode", Version: config.Version}
	// Pinned: an empty version makes the client probe server/discover first,
	// which costs 5 s against servers that ignore unknown methods.
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	res, err := c.Initialize(ctx, req)
	if err != nil {
		return nil, "", fmt.Errorf("initialize: %w", err)
	}
	tools, err := u.listTools(ctx, c, u.listMeta(ctx))
	// Secrets are taken out before the bound, which could cut one short.
	return tools, boundInstructions(u.redact.String(res.Instructions)), err
}

// MaxInstructionsRunes bounds the instructions kept of a server: its notes
// on using it, from its answer to initialize.
const MaxInstructionsRunes = 2000

// boundInstructions returns the first MaxInstructionsRunes of s, valid
// UTF-8, without control or format characters other than newlines and
// tabs, trimmed.
func boundInstructions(s string) string {
	s = strings.ToValidUTF8(s, "")
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == MaxInstructionsRunes {
			break
		}
		if r != '\n' && r != '\t' && printable.Unprintable(r) {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

var rawID atomic.Int64

// ListTools sends tools/list (following every page) and returns each tool's
// JSON as the server sent it: mcp-go's typed decoding keeps only some schema
// keywords.
func ListTools(ctx context.Context, c *client.Client) ([]json.RawMessage, error) {
	return listToolsRaw(ctx, c, nil)
}

// listToolsRaw is ListTools with meta, when not nil, sent as each request's
// _meta.
func listToolsRaw(ctx context.Context, c *client.Client, meta map[string]any) ([]json.RawMessage, error) {
	var all []json.RawMessage
	cursor := ""
	for range 100 {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		if meta != nil {
			params["_meta"] = meta
		}
		resp, err := c.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
			JSONRPC: mcp.JSONRPC_VERSION,
			ID:      mcp.NewRequestId("mcm-" + strconv.FormatInt(rawID.Add(1), 10)),
			Method:  string(mcp.MethodToolsList),
			Params:  params,
		})
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("tools/list: %w", resp.Error.AsError())
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.Result, &page); err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		all = append(all, page.Tools...)
		if page.NextCursor == "" || page.NextCursor == cursor {
			return all, nil
		}
		cursor = page.NextCursor
	}
	return nil, errors.New("tools/list: more than 100 pages")
}

// listTools is ListTools decoded into Tools, with meta as each request's
// _meta (nil: none). A tool whose name is not usable (usableToolName) is
// left out, with a warning.
func (u *Server) listTools(ctx context.Context, c *client.Client, meta map[string]any) ([]Tool, error) {
	raws, err := listToolsRaw(ctx, c, meta)
	if err != nil {
		return nil, err
	}
	tools := make([]Tool, 0, len(raws))
	for _, raw := range raws {
		var t Tool
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		if !usableToolName(t.Name) {
			u.log.Warn("tool left out: its name is empty or not printable", "server", u.srv.Name, "tool", fmt.Sprintf("%q", u.redact.String(t.Name)))
			continue
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// usableToolName reports whether a server's tool may be offered under
// name: not empty, and without control or format characters, which a
// terminal or a log would act on (MCP's names are letters, digits, "_", "-"
// and ".").
func usableToolName(name string) bool {
	return name != "" && printable.Is(name)
}

var (
	// ErrServerDown marks a call that failed because the server's
	// connection is gone (it crashed, or its HTTP session could not be
	// renewed).
	ErrServerDown = errors.New("server connection lost")
	// ErrNotRestarted marks a call not made: the server had failed and
	// could not be started again.
	ErrNotRestarted = errors.New("server not restarted")
	// ErrRestartLimit marks a call not made because the server failed too
	// often (see MaxRestarts).
	ErrRestartLimit = errors.New("server failed too often")
)

// Call forwards one checked call on the current session. A transport
// failure marks the session dead and fails the call (the server may have
// acted on it); the next call starts the server anew (see restart). An
// HTTP session the server dropped (404) is renewed once and the call
// retried, since the server refused it unseen.
//
// The message of an error it returns has the server's secrets taken out
// (a transport's error may quote the URL with its query).
func (u *Server) Call(ctx context.Context, tool string, args json.RawMessage) (_ *mcp.CallToolResult, err error) {
	defer func() { err = u.redact.Error(err) }()
	select {
	case u.calls <- struct{}{}:
		defer func() { <-u.calls }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.RawArguments = args
	renewed := false
	for {
		u.mu.Lock()
		sess := u.sess
		u.mu.Unlock()
		if sess == nil || sess.dead.Load() {
			if err := u.restart(ctx, sess); err != nil {
				return nil, err
			}
			continue
		}
		res, err := sess.c.CallTool(ctx, req)
		switch {
		case err == nil:
			return res, nil
		case errors.Is(err, ErrMessageTooLarge) || sess.streamed && sess.tooLarge.Load() || !sess.streamed && sess.tooLarge.Swap(false):
			return nil, fmt.Errorf("%w: over %d bytes (limits.max_message_bytes)", ErrMessageTooLarge, u.limits.MaxMessageBytes)
		case errors.Is(err, transport.ErrSessionTerminated) && !renewed:
			renewed = true
			if rerr := u.renew(ctx, sess); rerr != nil {
				return nil, fmt.Errorf("%w: renew session: %w", ErrServerDown, rerr)
			}
			continue
		case errors.Is(err, transport.ErrTransportClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe):
			sess.dead.Store(true)
			return nil, fmt.Errorf("%w: %w", ErrServerDown, err)
		}
		return nil, err
	}
}

// restart starts the server anew in place of a failed session (old), for
// the calls of the runs that hold it; see MaxRestarts.
func (u *Server) restart(ctx context.Context, old *session) error {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return fmt.Errorf("server %q: shutting down", u.srv.Name)
	}
	if u.sess != old && u.sess != nil && !u.sess.dead.Load() {
		u.mu.Unlock()
		return nil // another call restarted it already
	}
	now := time.Now()
	u.restarts = slices.DeleteFunc(u.restarts, func(t time.Time) bool { return now.Sub(t) > RestartWindow })
	if len(u.restarts) >= MaxRestarts {
		n := len(u.restarts)
		u.mu.Unlock()
		return fmt.Errorf("%w: %d restarts within %v", ErrRestartLimit, n, RestartWindow)
	}
	u.restarts = append(u.restarts, now)
	if old != nil {
		old.dead.Store(true)
	}
	u.mu.Unlock()
	u.log.Info("restarting the wrapped server after a failure")
	if err := u.ensure(ctx); err != nil {
		return fmt.Errorf("%w: %w", ErrNotRestarted, err)
	}
	return nil
}

// renew replaces a session the server no longer knows with a new one.
func (u *Server) renew(ctx context.Context, old *session) error {
	u.mu.Lock()
	if u.sess != old {
		u.mu.Unlock()
		return nil // another call renewed it already
	}
	old.dead.Store(true)
	u.mu.Unlock()
	u.log.Info("renewing the session the server dropped")
	return u.ensure(ctx)
}
