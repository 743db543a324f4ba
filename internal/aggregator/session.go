package aggregator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/tail"
)

// CLISession is the session of the one run of the run command. It never
// keeps a sandbox: with isolation "session" its run is as with "run".
const CLISession = "cli"

// With isolation "session", the runs of one client session (Request.Session,
// the key the audit log names it by, within the client's namespace: a
// client that sends another's session id does not reach its box) take turns on one sandbox container:
// taken when the session's first run starts, kept between its runs, and
// removed when the session ends (EndSession), when it has had no run for
// limits.session_idle, or when a run in it had to be stopped (its deadline,
// its output limit, a cancel, the runner breaking the protocol or the
// container ending): the next run then gets a fresh one. The runner gives
// each run a fresh worker process and empties the container between runs
// (runner/protocol.go); the container's memory and process limits hold for
// the session as a whole.

// sessionBox is the sandbox of one client session.
type sessionBox struct {
	key string
	// turn is held by the run that uses the container, and by the removal
	// of the session; what follows is guarded by it.
	turn  chan struct{}
	c     *sandbox.Container // nil until the first run, and after a stopped one
	diag  *tail.Buffer       // c's stderr: the runner's own failures
	idle  *time.Timer        // ends the session once it has idled out (nil while a run holds it)
	ended bool               // removed: a run that finds it so takes the session's new box

	used atomic.Int64 // when a run last gave the turn back (Unix nanoseconds), for trimSessions
}

// sessionTable is the sandboxes of the live sessions, by key.
type sessionTable struct {
	mu     sync.Mutex
	m      map[string]*sessionBox
	closed bool // Close ended them all
	// refused holds the engines (by address, Container.EngineHost) whose
	// runner refused to serve a session (that engine's kernel or runtime
	// cannot be cleaned between runs): from then on every run placed on
	// one of them gets a container of its own. Other engines go on
	// serving sessions. Guarded by mu.
	refused map[string]bool
}

// sessionRefusedError is a runner's refusal to serve a session, with the
// engine it runs on and the reason it gave.
type sessionRefusedError struct{ engine, reason string }

func (e *sessionRefusedError) Error() string {
	return "the sandbox on " + e.engine + " cannot serve a session: " + e.reason
}

// usesSession reports whether req's run takes its session's turn (and its
// sandbox, unless the container lands on an engine that refused sessions:
// see sessionContainer).
func (a *Aggregator) usesSession(req Request) bool {
	return a.cfg.Isolation == config.IsolationSession && req.Session != "" && req.Session != CLISession
}

// refuseSessions records that the runner of err's engine refused to serve
// a session, with one warning per engine that names it and gives the
// runner's reason. That engine's later runs get containers of their own;
// the other engines' runs are as before.
func (a *Aggregator) refuseSessions(err *sessionRefusedError) {
	t := &a.sessions
	t.mu.Lock()
	first := !t.refused[err.engine]
	if first {
		if t.refused == nil {
			t.refused = map[string]bool{}
		}
		t.refused[err.engine] = true
	}
	t.mu.Unlock()
	if first {
		a.log.Warn(`isolation = "session" is not available on this engine: its runs get containers of their own`,
			"engine", err.engine, "runtime", a.cfg.Runtime, "reason", err.reason)
	}
}

// sessionsRefusedOn reports whether the runner of engine refused to serve a
// session.
func (a *Aggregator) sessionsRefusedOn(engine string) bool {
	a.sessions.mu.Lock()
	defer a.sessions.mu.Unlock()
	return a.sessions.refused[engine]
}

// sessionKey is the key of the box of session in namespace (Request's
// fields, as the front end set them).
func sessionKey(namespace, session string) string { return namespace + "\x00" + session }

// sessionBox returns the box of session key, making it on first use; nil
// once Close has ended the sessions.
func (a *Aggregator) sessionBox(key string) *sessionBox {
	t := &a.sessions
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	if t.m == nil {
		t.m = map[string]*sessionBox{}
	}
	sb := t.m[key]
	if sb == nil {
		sb = &sessionBox{key: key, turn: make(chan struct{}, 1)}
		t.m[key] = sb
	}
	return sb
}

// takeSession waits, at most until ctx ends or expired fires, for the turn
// of session key's box; the caller must call releaseSession. A run that
// must wait for its session's turn is waiting as one waiting for a run slot
// is: past limits.queue of them, it is refused at once with a *busyError.
func (a *Aggregator) takeSession(ctx context.Context, key string, expired <-chan time.Time) (*sessionBox, error) {
	counted := false
	defer func() {
		if counted {
			a.admit.waiting.Add(-1)
		}
	}()
	for {
		sb := a.sessionBox(key)
		if sb == nil {
			return nil, errors.New("the server is shutting down")
		}
		select {
		case sb.turn <- struct{}{}:
		default:
			if !counted {
				if a.admit.waiting.Add(1) > int64(a.cfg.Limits.Queue) {
					waiting := int(a.admit.waiting.Add(-1))
					return nil, &busyError{slots: cap(a.runSem), waiting: waiting, retryAfter: a.admit.retryAfter(cap(a.runSem), waiting)}
				}
				counted = true
			}
			select {
			case sb.turn <- struct{}{}:
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-expired:
				return nil, context.DeadlineExceeded
			}
		}
		if !sb.ended {
			if sb.idle != nil {
				sb.idle.Stop()
				sb.idle = nil
			}
			return sb, nil
		}
		<-sb.turn // ended while we waited: the session's next box
	}
}

// sessionContainer returns the session's container, starting one (and
// telling its runner to serve a session) when it has none or the one it had
// ended. A runner that refuses gives a *sessionRefusedError, before any
// program reached it.
//
// A new session container is placed as any container is (by the engine,
// with several engines the provider's least loaded one), not steered away
// from an engine whose runner refused sessions. When it lands on such an
// engine it is returned as the run's own (own is true) and the session
// keeps no container: it is fresh and its runner has read nothing, so the
// run is exactly as with isolation "run", and the session's next run tries
// again and may land on an engine that serves sessions. Steering instead
// would need the provider to skip engines it is told of, and a rule for
// when only refusing ones are usable (wait, or fall back after all); the
// fallback needs neither, leaves the spreading of load to the provider,
// and never makes a run wait for a particular engine.
func (a *Aggregator) sessionContainer(ctx context.Context, sb *sessionBox) (_ *sandbox.Container, own bool, _ error) {
	if sb.c != nil && sb.c.Alive() {
		return sb.c, false, nil
	}
	a.discardSessionContainer(sb)
	c, err := a.acquire(ctx)
	if err != nil {
		return nil, false, err
	}
	if a.sessionsRefusedOn(c.EngineHost()) {
		return c, true, nil
	}
	a.trimSessions(sb)
	diag := &tail.Buffer{Max: 2 << 10}
	diagDone := make(chan struct{})
	go func() {
		defer close(diagDone)
		_, _ = io.Copy(diag, c.Output)
	}()
	if err := a.startSession(ctx, c); err != nil {
		a.wg.Go(func() { _ = c.Close() })
		if errors.Is(err, errNoSessionReady) {
			// The runner ended instead of answering: its stderr says why.
			select {
			case <-diagDone:
			case <-ctx.Done():
				return nil, false, ctx.Err()
			}
			reason := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(diag.String()), "runner:"))
			if reason == "" {
				reason = "the runner ended without a word"
			}
			return nil, false, &sessionRefusedError{engine: c.EngineHost(), reason: a.redact.String(reason)}
		}
		return nil, false, fmt.Errorf("start a session in sandbox %.12s: %w", c.ID, err)
	}
	sb.c, sb.diag = c, diag
	return c, false, nil
}

// errNoSessionReady: the runner's stream ended before its SessionReady.
var errNoSessionReady = errors.New("the runner ended before it was ready to serve a session")

// startSession tells c's runner to serve a session and waits, within ctx,
// for its runner.SessionReady.
func (a *Aggregator) startSession(ctx context.Context, c *sandbox.Container) error {
	if _, err := io.WriteString(c.Input, runner.SessionLine); err != nil {
		return err
	}
	answer := make(chan error, 1)
	go func() {
		buf := make([]byte, len(runner.SessionReady))
		n, err := io.ReadFull(c.Protocol, buf)
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			err = errNoSessionReady
		case err == nil && string(buf[:n]) != runner.SessionReady:
			err = fmt.Errorf("the runner answered %q, not that it is ready to serve a session", buf[:n])
		}
		answer <- err
	}()
	select {
	case err := <-answer:
		return err
	case <-ctx.Done():
		_ = c.Close() // ends the read
		<-answer
		return ctx.Err()
	}
}

// discardSessionContainer removes the session's container, if any, in the
// background.
func (a *Aggregator) discardSessionContainer(sb *sessionBox) {
	c := sb.c
	sb.c, sb.diag = nil, nil
	if c == nil {
		return
	}
	a.wg.Go(func() {
		if err := c.Close(); err != nil {
			a.log.Warn("sandbox cleanup", "err", err)
		}
	})
}

// releaseSession gives the turn back after a run; stopped says the run had
// to be stopped, which costs the session its container.
func (a *Aggregator) releaseSession(sb *sessionBox, stopped bool) {
	if stopped || sb.c == nil || !sb.c.Alive() {
		a.discardSessionContainer(sb)
	}
	if sb.c != nil {
		sb.idle = time.AfterFunc(a.cfg.Limits.SessionIdle, func() { a.endSession(sb) })
	} else {
		// Nothing is kept: the box goes, and the session's next run (or
		// one waiting for this turn) makes a new one, so the boxes of
		// sessions whose runs get containers of their own do not pile up.
		a.sessions.mu.Lock()
		if a.sessions.m[sb.key] == sb {
			delete(a.sessions.m, sb.key)
		}
		a.sessions.mu.Unlock()
		sb.ended = true
	}
	sb.used.Store(time.Now().UnixNano())
	<-sb.turn
}

// trimSessions makes room for one more session container, for sb: while
// limits.session_max others are kept, it removes the one whose last run
// ended longest ago among those no run holds now. A client that opens
// session after session (or an HTTP client without sessions, keyed by its
// address) so keeps at most session_max containers, not one a session.
func (a *Aggregator) trimSessions(sb *sessionBox) {
	a.sessions.mu.Lock()
	defer a.sessions.mu.Unlock()
	var others []*sessionBox
	for _, o := range a.sessions.m {
		if o != sb {
			others = append(others, o)
		}
	}
	slices.SortFunc(others, func(x, y *sessionBox) int { return cmp.Compare(x.used.Load(), y.used.Load()) })
	held := 0
	var idle []*sessionBox
	for _, o := range others {
		select {
		case o.turn <- struct{}{}: // no run holds it: its fields are ours to read
			if o.c != nil && !o.ended {
				held++
				idle = append(idle, o)
				continue
			}
			<-o.turn
		default: // a run holds it, with its container
			held++
		}
	}
	for _, o := range idle {
		if held >= a.cfg.Limits.SessionMax {
			held--
			o.ended = true
			if o.idle != nil {
				o.idle.Stop()
				o.idle = nil
			}
			delete(a.sessions.m, o.key)
			a.discardSessionContainer(o)
		}
		<-o.turn
	}
}

// EndSession removes the sandbox of the client session (of namespace, as
// in Request), once its run in progress (if any) is over. The HTTP front
// end calls it when a client deletes its session; Close ends every
// session.
func (a *Aggregator) EndSession(namespace, session string) {
	a.sessions.mu.Lock()
	sb := a.sessions.m[sessionKey(namespace, session)]
	a.sessions.mu.Unlock()
	if sb != nil {
		a.endSession(sb)
	}
}

// endSession takes sb out of the table, then removes its container in the
// background once no run holds it. After Close it does nothing (Close
// ended every session).
func (a *Aggregator) endSession(sb *sessionBox) {
	a.sessions.mu.Lock()
	defer a.sessions.mu.Unlock()
	if a.sessions.closed {
		return
	}
	a.endSessionLocked(sb)
}

// endSessionLocked is endSession with the table locked. The removal starts
// under the lock, so that Close, which takes it too, waits for it.
func (a *Aggregator) endSessionLocked(sb *sessionBox) {
	if a.sessions.m[sb.key] == sb {
		delete(a.sessions.m, sb.key)
	}
	a.wg.Go(func() {
		sb.turn <- struct{}{}
		defer func() { <-sb.turn }()
		if sb.ended {
			return
		}
		sb.ended = true
		if sb.idle != nil {
			sb.idle.Stop()
			sb.idle = nil
		}
		a.discardSessionContainer(sb)
	})
}

// endAllSessions ends every session, for good (Close).
func (a *Aggregator) endAllSessions() {
	a.sessions.mu.Lock()
	defer a.sessions.mu.Unlock()
	a.sessions.closed = true
	for _, sb := range a.sessions.m {
		a.endSessionLocked(sb)
	}
}
