package aggregator

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
)

// The audit hooks: a call is recorded when the bridge refuses it or when it
// finishes (before the program gets the answer), a run when it ends (before
// the client gets the answer), in the log SetAudit gives.

// auditing is where calls and runs are recorded.
type auditing struct {
	log       *audit.Log // nil: nowhere
	arguments bool       // put the arguments (redacted) in call records
}

// SetAudit records every call and run in log from now on; the aggregator
// closes it in Close. A call's record has the size and SHA-256 of its
// arguments; with arguments, the arguments too, with the values of every
// configured secret redacted. Call it before the aggregator is used.
func (a *Aggregator) SetAudit(log *audit.Log, arguments bool) {
	a.audit = auditing{log: log, arguments: arguments}
}

// httpIdentity is who sent an HTTP request, as far as the audit log can
// tell: a hash of its bearer token (never the token) and its address.
type httpIdentity struct{ token, remote string }

type httpIdentityKey struct{}

// httpClient notes who sent the request in its context (it is HTTPHandler's
// HTTPContextFunc).
func httpClient(ctx context.Context, r *http.Request) context.Context {
	id := httpIdentity{remote: hostOnly(r.RemoteAddr)}
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && tok != "" {
		sum := sha256.Sum256([]byte(tok))
		id.token = "token:" + hex.EncodeToString(sum[:6])
	}
	return context.WithValue(ctx, httpIdentityKey{}, id)
}

// sessionOf names the client of the request ctx serves, for the audit log:
// its MCP session ("stdio", or a streamable HTTP session's id); over HTTP
// without sessions (protocol 2026-07-28 and later), the hash of its bearer
// token, else its address ("addr:IP"). remote is the HTTP client's address.
func sessionOf(ctx context.Context) (session, remote string) {
	id, _ := ctx.Value(httpIdentityKey{}).(httpIdentity)
	if s := server.ClientSessionFromContext(ctx); s != nil {
		session = s.SessionID()
	}
	switch {
	case session != "":
	case id.token != "":
		session = id.token
	case id.remote != "":
		session = "addr:" + id.remote
	}
	return session, id.remote
}

// newRunID is a run's id in the audit log: 16 random hex digits.
func newRunID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// auditCall records the call m, refused or finished after took: value is
// what the program got, err why it got none.
func (s *runState) auditCall(m runner.Message, took time.Duration, value json.RawMessage, err error) {
	log := s.a.audit.log
	if log == nil {
		return
	}
	red := s.a.redact
	server := m.Server
	if mod, ok := s.mods[m.Server]; ok {
		server = mod.srv.Name
	}
	sum := sha256.Sum256(m.Args)
	c := audit.Call{
		Run: s.id, Session: red.String(s.sessionKey), Remote: s.remote,
		Server: red.String(server), Tool: red.String(m.Tool),
		ArgBytes: len(m.Args), ArgSHA256: hex.EncodeToString(sum[:]),
		Outcome: audit.OK, DurationMS: float64(took.Microseconds()) / 1000, ResultBytes: len(value),
	}
	if err != nil {
		c.Outcome, c.Reason = callOutcome(err)
		c.Reason = red.String(c.Reason)
		c.ResultBytes = 0
	}
	if s.a.audit.arguments {
		if json.Valid(m.Args) {
			c.Arguments = red.JSON(m.Args)
		} else {
			c.ArgumentsHead = red.String(string(m.Args))
		}
	}
	if err := log.Call(c); err != nil {
		s.a.log.Warn("audit log", "err", err)
	}
}

// callOutcome is what the audit log says of a call that failed with err:
// its outcome, and a reason that quotes no argument and no text of the
// server's.
func callOutcome(err error) (outcome, reason string) {
	var r *Refusal
	if errors.As(err, &r) {
		outcome, reason = r.outcome, r.reason
		if outcome == "" {
			outcome = audit.Refused
		}
		if reason == "" {
			reason = r.Msg
		}
		return outcome, reason
	}
	var f *hostFault
	if errors.As(err, &f) {
		return audit.Error, "host error: " + f.kind
	}
	return audit.Error, "host error: " + reflect.TypeOf(err).String()
}

// auditRun records the run id as it ended with res; ran says whether the
// program was started (else res.Error is the host's: an unknown server, a
// server or sandbox that did not start).
func (a *Aggregator) auditRun(id string, req Request, res Result, ran bool) {
	if a.audit.log == nil {
		return
	}
	outcome, reason := runOutcome(res, ran)
	sum := sha256.Sum256([]byte(req.Code))
	r := audit.Run{
		Run: id, Session: a.redact.String(req.Session), Remote: req.Remote,
		Servers: res.Servers, CodeBytes: len(req.Code), CodeSHA256: hex.EncodeToString(sum[:]),
		Calls: res.Calls, Outcome: outcome, Reason: a.redact.String(reason),
		ExitCode: res.ExitCode, DurationMS: res.DurationMS,
	}
	if err := a.audit.log.Run(r); err != nil {
		a.log.Warn("audit log", "err", err)
	}
}

// runOutcome is what the audit log and the traces say of a run that ended
// with res: its outcome, and why when it is not ok, quoting nothing the
// program said.
func runOutcome(res Result, ran bool) (outcome, reason string) {
	switch {
	case res.Error == nil:
		return audit.OK, ""
	case res.RetryAfter > 0:
		return audit.Busy, *res.Error
	case res.Stopped:
		return audit.Stopped, *res.Error
	case ran:
		return audit.Error, programFailure(*res.Error, res.ExitCode)
	default:
		return audit.Error, *res.Error
	}
}

// pyName is a Python name, dotted or not: an exception's class.
var pyName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]{0,99}$`)

// programFailure says how a program failed without quoting what it said
// (its message may hold anything it read): the class of the exception its
// traceback ends with, or its exit status.
func programFailure(text string, exit int) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if name, _, ok := strings.Cut(lines[len(lines)-1], ":"); ok && pyName.MatchString(name) {
		return "the program raised " + name
	}
	if strings.HasPrefix(text, "the program was killed by signal") {
		return text
	}
	return fmt.Sprintf("the program failed (exit code %d)", exit)
}
