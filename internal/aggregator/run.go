package aggregator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/stubs"
	"github.com/mcp-code-mode/mcp-code-mode/internal/tail"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

// Request is one program to run.
type Request struct {
	Code    string
	Servers []string      // names or aliases of the servers to load
	Timeout time.Duration // 0 = the configured deadline; never more than it
	// Progress, if set, is called after each tool call with the number of
	// calls made so far. It must not block.
	Progress func(calls int)
	// Namespace is where the program's memories and saved tools are kept:
	// the front end sets it for the client it serves (serve --http: one
	// per bearer token). "" is the OS user's (LocalNamespace), as over
	// stdio and for the CLI; the config's state.namespace overrides both.
	Namespace string

	// Session and Remote say who asked, for the audit log: the MCP session
	// (or "cli", or the client's identity on HTTP without sessions) and
	// the HTTP client's address.
	Session, Remote string
}

// Result is what a run gives back; it is also run_python's structured
// content.
type Result struct {
	Stdout    string  `json:"stdout"`
	Error     *string `json:"error"`
	Truncated bool    `json:"truncated"`
	Stopped   bool    `json:"stopped"`
	// ExitCode is the program's exit status: 0 when it succeeded
	// (sys.exit() and sys.exit(0) included), N when it called sys.exit(N)
	// with N from 1 to 255, and 1 for every other failure (an exception,
	// sys.exit("message"), a server that did not start, a limit).
	ExitCode   int      `json:"exit_code"`
	Calls      int      `json:"calls"`
	DurationMS int64    `json:"duration_ms"`
	Servers    []string `json:"servers"`
	// RetryAfter is set, in seconds (at least 1), only when the run was
	// refused because the server was busy: every run slot taken and
	// limits.queue runs waiting. Nothing ran.
	RetryAfter int `json:"retry_after,omitempty"`
}

// Failed reports whether the run ended with an error.
func (r Result) Failed() bool { return r.Error != nil }

func (r *Result) fail(format string, args ...any) {
	if r.Error == nil {
		msg := fmt.Sprintf(format, args...)
		r.Error = &msg
		r.ExitCode = 1
	}
}

// loaded is one server as loaded for a run.
type loaded struct {
	*entry
	*toolView
}

// toolView is what runs see of one tool list: the allowed tools, checked,
// and the module the runner builds. It is built once per tool list and
// shared by the runs (nothing in it changes).
type toolView struct {
	gen    uint64                  // the tool list's generation
	tools  map[string]*checkedTool // allowed tools by MCP name
	denied map[string]string       // the other tools by MCP name: the rule that denies each (policy.Denial)
	module runner.Module
}

// Run runs one program and reports what happened. Failures of every kind
// (unknown servers, a server that does not start, the program's exception,
// a limit) are in the result's Error; Run itself does not fail.
func (a *Aggregator) Run(ctx context.Context, req Request) (res Result) {
	began := time.Now()
	res.Servers = []string{}
	id, ran := newRunID(), false
	ctx, span := a.startRun(ctx, id, req)
	defer func() {
		took := time.Since(began)
		res.DurationMS = took.Milliseconds()
		if res.Error != nil {
			msg := a.redact.String(*res.Error)
			res.Error = &msg
		}
		a.auditRun(id, req, res, ran)
		a.endRun(span, res, ran, took)
	}()

	entries, err := a.resolve(req.Servers)
	if err != nil {
		res.fail("%v", err)
		return res
	}
	for _, e := range entries {
		res.Servers = append(res.Servers, e.srv.Name)
	}
	if a.engine == nil {
		res.fail("no sandbox engine is configured")
		return res
	}
	deadline := a.cfg.Limits.Deadline
	if req.Timeout > 0 && req.Timeout < deadline {
		deadline = req.Timeout
	}
	// Runs past the limit wait their turn, for at most one deadline; the
	// deadline of the program starts when it gets its slot. Past the
	// queue's length they are refused at once.
	queued := time.NewTimer(deadline)
	defer queued.Stop()
	// With isolation "session", the session's runs take turns on its
	// sandbox: a run waits for the one before it, within the same bound.
	// session is the run's own session while it holds the session's turn,
	// and nil when the run has a container of its own: a runner that
	// refuses to serve a session (its engine's kernel cannot be cleaned
	// between runs) turns sessions off on that engine, and a run whose
	// container is there goes on as any other, giving the turn back at
	// once.
	var sb, session *sessionBox
	// handedOff: the run ended while its sandbox or a server was still
	// starting, and what the run holds is given back by the goroutine
	// that waits for the starts, not by the run.
	var handedOff bool
	if a.usesSession(req) {
		var err error
		sb, err = a.takeSession(ctx, sessionKey(req.Namespace, req.Session), queued.C)
		var busy *busyError
		switch {
		case errors.As(err, &busy):
			res.RetryAfter = busy.retryAfter
			res.fail("%v", err)
			return res
		case errors.Is(err, context.DeadlineExceeded):
			res.Stopped = true
			res.fail("the run waited %v for the session's run before it to end and gave up (runs of one session take turns on its sandbox)", deadline)
			return res
		case ctx.Err() != nil:
			res.Stopped = true
			res.fail("the run was cancelled while waiting for the session's run before it to end")
			return res
		case err != nil:
			res.fail("sandbox: %v", err)
			return res
		}
		// A stopped run's container was killed: the next run gets a fresh one.
		session = sb
		defer func() {
			if !handedOff && session != nil {
				a.releaseSession(sb, res.Stopped)
			}
		}()
	}
	release, err := a.slot(ctx, deadline)
	if err != nil {
		var busy *busyError
		if errors.As(err, &busy) {
			res.RetryAfter = busy.retryAfter
		} else {
			res.Stopped = true
		}
		res.fail("%v", err)
		return res
	}
	defer func() {
		if !handedOff {
			release()
		}
	}()
	runCtx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()

	// The sandbox and the servers start side by side.
	var (
		wg        sync.WaitGroup
		box       *sandbox.Container
		boxErr    error
		mods      = make([]*loaded, len(entries))
		startErrs = make([]error, len(entries))
	)
	wg.Go(func() {
		if sb == nil {
			box, boxErr = a.acquire(runCtx)
			return
		}
		var own bool
		for {
			box, own, boxErr = a.sessionContainer(runCtx, sb)
			var refused *sessionRefusedError
			if !errors.As(boxErr, &refused) {
				break
			}
			// Another container, maybe on an engine that serves sessions.
			// This ends: sessionContainer asks no engine already refused,
			// so each refusal is of another engine.
			a.refuseSessions(refused)
		}
		if own {
			// The session keeps no container from this run: its next run
			// need not wait for this one.
			session = nil
			a.releaseSession(sb, false)
		}
	})
	failed := a.starting(entries, false)
	for i, e := range entries {
		wg.Go(func() {
			tools, gen, err := e.up.Acquire(runCtx)
			if err != nil {
				startErrs[i] = err
				failed(e, err)
				return
			}
			mods[i] = &loaded{entry: e, toolView: a.view(e, tools, gen)}
		})
	}
	// What the starts leave is given back when the run ends.
	cleanup := func() {
		for _, m := range mods {
			if m != nil {
				m.up.Release()
			}
		}
		if box != nil && session == nil {
			a.wg.Go(func() {
				if err := box.Close(); err != nil {
					a.log.Warn("sandbox cleanup", "err", err)
				}
			})
		}
	}
	if !awaitStarts(runCtx, &wg) {
		// An engine or a server that has not returned from its start
		// since the run's end (a busy engine can take many seconds to
		// remove a half-made container) does not hold the answer: what
		// the starts leave is given back when they return, with the run's
		// slot and its session's turn, which stay taken until then.
		handedOff = true
		a.wg.Go(func() {
			wg.Wait()
			cleanup()
			release()
			if session != nil {
				a.releaseSession(sb, true)
			}
		})
		res.Stopped = true
		if ctx.Err() != nil {
			res.fail("the run was cancelled before the program started")
		} else {
			res.fail("the run exceeded its deadline of %v before the program started (the sandbox or a server was still starting) and was stopped", deadline)
		}
		return res
	}
	defer cleanup()
	if ctx.Err() != nil && (boxErr != nil || errors.Join(startErrs...) != nil) {
		res.Stopped = true
		res.fail("the run was cancelled before the program started")
		return res
	}
	if errors.Is(runCtx.Err(), context.DeadlineExceeded) && (boxErr != nil || errors.Join(startErrs...) != nil) {
		// The deadline covers the sandbox's and the servers' start: an
		// engine or a server that slow ends the run as any run past it.
		res.Stopped = true
		res.fail("the run exceeded its deadline of %v before the program started (the sandbox or a server was still starting) and was stopped", deadline)
		return res
	}
	if err := errors.Join(startErrs...); err != nil {
		res.fail("%s", truncateRunes(a.redact.String(strings.TrimSpace(err.Error())), 600))
		return res
	}
	if boxErr != nil {
		res.fail("sandbox: %v", boxErr)
		return res
	}
	s := &runState{a: a, ctx: runCtx, box: box, session: session, mods: map[string]*loaded{}, budget: &budget{max: a.cfg.Limits.MaxCalls}, progress: req.Progress,
		namespace: a.namespace(req.Namespace), id: id, sessionKey: req.Session, remote: req.Remote}
	for _, m := range mods {
		s.mods[m.alias] = m
	}
	ran = true
	s.execute(ctx, req.Code, mods, deadline, &res)
	res.Calls = int(s.budget.used.Load())
	return res
}

// view returns what runs see of a server with this tool list (of generation
// gen), building it the first time.
func (a *Aggregator) view(e *entry, tools []upstream.Tool, gen uint64) *toolView {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.view != nil && e.view.gen == gen {
		return e.view
	}
	v := &toolView{gen: gen, tools: map[string]*checkedTool{}, denied: map[string]string{}}
	for _, t := range tools {
		// The rule is shown to the program; the patterns in it may come
		// from files others wrote (a project's deny list), so it goes on
		// one line, as server names do.
		if why := printable.Words(a.policy.Denial(e.srv, e.alias, t.Name, t.ReadOnly())); why != "" {
			v.denied[t.Name] = why
		} else {
			v.tools[t.Name] = newCheckedTool(e.srv.Name, t)
		}
	}
	v.module = runner.Module{Alias: e.alias, Module: stubs.Module(e.alias), Server: e.srv.Name, Description: e.srv.Description}
	var namer stubs.Namer
	for _, name := range slices.Sorted(maps.Keys(v.tools)) {
		t := v.tools[name]
		py := namer.Name(name)
		st, err := stubs.FromSchema(name, py, t.Description, t.InputSchema)
		rt := runner.Tool{Name: name, Py: py}
		if err == nil {
			rt.Doc = a.redact.String(st.Stub())
			for _, p := range st.Params {
				nullable := p.Type == "Any" || strings.Contains(p.Type, "None")
				rt.Params = append(rt.Params, runner.Param{Name: p.Name, Py: p.Py, DropNone: !p.Required && !nullable})
			}
		}
		v.module.Tools = append(v.module.Tools, rt)
	}
	// Denied tools are named after the allowed ones, so that the names
	// programs see of allowed tools do not depend on what is denied.
	for _, name := range slices.Sorted(maps.Keys(v.denied)) {
		v.module.Denied = append(v.module.Denied, runner.Tool{Name: name, Py: namer.Name(name)})
	}
	e.view = v
	return v
}

// runState is one run in progress.
type runState struct {
	a        *Aggregator
	ctx      context.Context // ends at the run's deadline
	box      *sandbox.Container
	session  *sessionBox        // the session whose container box is (nil: the run's own)
	mods     map[string]*loaded // by alias
	budget   *budget
	progress func(calls int) // may be nil
	// namespace is where the run's memories and saved tools are.
	namespace string

	id, sessionKey, remote string // for the audit log: the run's id, and who asked (Request)

	helperCalls atomic.Int64

	writeMu sync.Mutex
	ended   bool // a session's run is over: nothing more is sent (guarded by writeMu)
	calls   sync.WaitGroup
}

// reply sends the answer to a call or helper request m. A value the runner
// could not take (a line over its limit, or nesting deep enough to exhaust
// Python's recursion while it is decoded) would end the run; it becomes a
// failure the program can catch instead.
func (s *runState) reply(m runner.Message, r runner.Reply) {
	what := m.Method
	if m.Type == runner.TypeCall {
		what = m.Server + "." + m.Tool
	}
	switch {
	case len(r.Value) > runner.MaxHostLine-64<<10:
		r = runner.Failure(r.ID, fmt.Sprintf("the answer of %s is %d bytes, more than a reply may carry (%d MiB): ask for less (one tool, detail=\"summary\", a smaller page)", what, len(r.Value), runner.MaxHostLine>>20))
	case runner.Depth(r.Value) > runner.MaxDepth:
		r = runner.Failure(r.ID, fmt.Sprintf("the answer of %s nests deeper than %d levels", what, runner.MaxDepth))
	}
	s.send(r)
}

func (s *runState) send(v any) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.ended {
		return
	}
	if err := runner.Encode(s.box.Input, v); err != nil {
		s.a.log.Debug("write to sandbox", "err", err)
	}
}

// execute drives the protocol until the program ends or a limit stops it.
func (s *runState) execute(parent context.Context, code string, mods []*loaded, deadline time.Duration, res *Result) {
	limits := s.a.cfg.Limits
	out := newOutput(limits.MaxOutputBytes, limits.StopOutput)
	// The container's stderr carries only the runner's own failures; a
	// session's container has one reader for all its runs.
	diag := &tail.Buffer{Max: 2 << 10}
	if s.session != nil {
		diag = s.session.diag
	} else {
		go func() { _, _ = io.Copy(diag, s.box.Output) }()
	}
	key := runner.NewKey()
	msgs := make(chan runner.Message)
	readErr := make(chan error, 1)
	loopDone := make(chan struct{})
	endLoop := sync.OnceFunc(func() { close(loopDone) })
	go func() {
		r := runner.NewReader(s.box.Protocol, key)
		for {
			m, err := r.Next()
			if err != nil {
				readErr <- err
				break
			}
			select {
			case msgs <- m:
			case <-loopDone:
			}
			if m.Type == runner.TypeDone && s.session != nil {
				// The session's next run reads on from here. (A run
				// stopped before its done kills the container: the
				// stream is drained below.)
				return
			}
			if isClosed(loopDone) {
				break
			}
		}
		// Once the loop below is over, the rest of the stream is drained
		// unread, so the engine's stream never stalls on it.
		_, _ = io.Copy(io.Discard, s.box.Protocol)
	}()

	modules := make([]runner.Module, 0, len(mods))
	for _, m := range mods {
		modules = append(modules, m.module)
	}
	s.send(runner.NewStart(code, modules, s.a.notLoaded(s.mods), key))

	callCtx, cancelCalls := context.WithCancel(s.ctx)
	defer func() {
		cancelCalls()
		s.calls.Wait()
	}()
	stop := func(format string, args ...any) {
		res.Stopped = true
		res.fail(format, args...)
		// The reader must drain the stream while the engine kills the
		// container: a stalled attach stream can stall the kill.
		endLoop()
		if err := s.box.Kill(context.WithoutCancel(s.ctx)); err != nil {
			s.a.log.Warn("kill sandbox", "err", err)
		}
	}
	finished := false
	for !finished {
		select {
		case m := <-msgs:
			switch m.Type {
			case runner.TypeOutput:
				_, _ = out.Write([]byte(m.Data))
			case runner.TypeDone:
				if m.Error != nil {
					res.fail("%s", *m.Error)
					if m.Exit != 0 {
						res.ExitCode = m.Exit
					}
				}
				finished = true
			case runner.TypeCall:
				s.calls.Go(func() {
					s.reply(m, s.safely(callCtx, m, s.call))
					if s.progress != nil {
						s.progress(int(s.budget.used.Load()))
					}
				})
			case runner.TypeRPC:
				s.calls.Go(func() { s.reply(m, s.safely(callCtx, m, s.rpc)) })
			}
		case err := <-readErr:
			switch {
			case errors.Is(err, runner.ErrProtocol):
				stop("the sandbox broke the protocol and was stopped: %v", err)
			case s.ctx.Err() != nil:
				continue // the select below reports it
			default:
				stop("the sandbox ended without a result%s", s.exitHint())
				if d := strings.TrimSpace(diag.String()); d != "" {
					s.a.log.Warn("sandbox ended without a result", "stderr", d)
				}
			}
			finished = true
		case <-out.stop:
			stop("the program printed more than %d bytes and was stopped", limits.StopOutput)
			finished = true
		case <-s.ctx.Done():
			if parent.Err() != nil {
				stop("the run was cancelled")
			} else {
				stop("the run exceeded its deadline of %v and was stopped", deadline)
			}
			finished = true
		}
	}
	endLoop()
	if s.session != nil {
		// Replies to calls still in flight would reach the session's next
		// run (which skips them); none is sent.
		s.writeMu.Lock()
		s.ended = true
		s.writeMu.Unlock()
	}
	// All the output came before "done": the answer need not wait for the
	// container to exit (it is killed and removed in the background).
	res.Stdout, res.Truncated = out.result()
}

// isClosed reports whether ch is closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func (s *runState) exitHint() string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 5*time.Second)
	defer cancel()
	code, oom, err := s.box.Exit(ctx)
	switch {
	case err != nil:
		return ""
	case oom:
		return " (it ran out of memory)"
	default:
		return fmt.Sprintf(" (exit status %d)", code)
	}
}

// safely answers m with answer, and a panic in answer (a bug of the host,
// reached through what a program or a server sent) with a failure of that
// call: it is logged with its stack, the program gets an error it can
// catch, and the process and the other runs go on.
func (s *runState) safely(ctx context.Context, m runner.Message, answer func(context.Context, runner.Message) runner.Reply) (r runner.Reply) {
	defer func() {
		if v := recover(); v != nil {
			what := m.Method
			if m.Type == runner.TypeCall {
				what = m.Server + "." + m.Tool
			}
			s.a.log.Error("internal error answering the program", "call", what, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			r = runner.Failure(m.ID, fmt.Sprintf("internal error in mcp-code-mode while answering %s (it is logged; the run goes on)", what))
		}
	}()
	return answer(ctx, m)
}

// call checks one tool call and forwards it.
func (s *runState) call(ctx context.Context, m runner.Message) runner.Reply {
	limits := s.a.cfg.Limits
	began := time.Now()
	ctx, span := s.a.tracer().Start(ctx, spanCall)
	value, err := s.check(ctx, m)
	took := time.Since(began)
	s.auditCall(m, took, value, err)
	s.observeCall(span, m, took, value, err)
	if err != nil {
		var r *Refusal
		if !errors.As(err, &r) {
			s.a.log.Warn("tool call failed", "server", m.Server, "tool", m.Tool, "err", err)
		}
		return runner.Failure(m.ID, forCode(err, limits.MaxErrorChars, s.a.redact))
	}
	return runner.Success(m.ID, value)
}

func (s *runState) check(ctx context.Context, m runner.Message) (json.RawMessage, error) {
	limits := s.a.cfg.Limits
	// Every call counts, refused or not: a program that floods the bridge
	// with calls it knows will be refused spends its budget doing so.
	if err := s.budget.take(); err != nil {
		return nil, err
	}
	mod, ok := s.mods[m.Server]
	if !ok {
		return nil, refuse("server %q is not loaded in this run; name it in servers", m.Server)
	}
	tool, ok := mod.tools[m.Tool]
	if !ok {
		if why, denied := mod.denied[m.Tool]; denied {
			return nil, refuse("%s.%s is denied %s", mod.srv.Name, m.Tool, why)
		}
		return nil, refuse("%s has no tool %q (runtime.query_tool_docs(%q) lists its tools)", mod.srv.Name, m.Tool, mod.srv.Name)
	}
	args, err := tool.checkArgs(mod.srv.Name, m.Args, limits.MaxArgBytes)
	if err != nil {
		return nil, err
	}
	s.a.log.Debug("tool call", "server", mod.srv.Name, "tool", m.Tool, "arg_bytes", len(m.Args))
	timeout, which := callDeadline(limits, m.TimeoutMS)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := mod.up.Call(cctx, m.Tool, args)
	if err != nil {
		switch {
		case errors.Is(err, upstream.ErrMessageTooLarge):
			return nil, refuseAs(audit.Error, "", "%s answered %s with a message over the %d-byte limit (limits.max_message_bytes); it was refused unread", mod.srv.Name, m.Tool, limits.MaxMessageBytes)
		case errors.Is(err, upstream.ErrServerDown):
			return nil, refuseAs(audit.Error, "", "%s stopped during the call to %s; it will be restarted on next use", mod.srv.Name, m.Tool)
		case errors.Is(err, upstream.ErrRestartLimit):
			return nil, refuse("%s failed %d times within %v and is not restarted for now; the call to %s was not made", mod.srv.Name, upstream.MaxRestarts+1, upstream.RestartWindow, m.Tool)
		case errors.Is(err, upstream.ErrNotRestarted):
			s.a.log.Warn("restarting a wrapped server failed", "server", mod.srv.Name, "err", err)
			return nil, refuse("%s had stopped and could not be started again; the call to %s was not made", mod.srv.Name, m.Tool)
		}
		return nil, callError(ctx, cctx, mod.srv.Name, m.Tool, which, err)
	}
	return resultValue(mod.srv.Name, m.Tool, res, limits.MaxResultBytes)
}

// notLoaded lists the servers a program could have named but did not (the
// enabled ones the policy does not deny whole), with their modules, for the
// NameError that says to name one.
func (a *Aggregator) notLoaded(loaded map[string]*loaded) []runner.NotLoaded {
	var out []runner.NotLoaded
	for _, e := range a.enabled() {
		if _, ok := loaded[e.alias]; ok || a.policy.DeniesServer(e.srv, e.alias) {
			continue
		}
		out = append(out, runner.NotLoaded{Server: e.srv.Name, Module: stubs.Module(e.alias)})
	}
	return out
}

// startGrace is how long a run past its end waits for the starts of its
// sandbox and servers to return, once cancelled, before it answers
// without them.
const startGrace = time.Second

// awaitStarts waits for the starts in wg and reports whether they
// returned: always while ctx lasts; once it has ended, for at most
// startGrace.
func awaitStarts(ctx context.Context, wg *sync.WaitGroup) bool {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-ctx.Done():
	}
	grace := time.NewTimer(startGrace)
	defer grace.Stop()
	select {
	case <-done:
		return true
	case <-grace.C:
		return false
	}
}
