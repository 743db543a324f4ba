// Package audit keeps the audit trail of what programs called: one JSON
// line per tool call and one per run, appended to a log in a directory only
// its owner can read, rotated by size, and read back (rotated files too,
// oldest first, or followed as it grows).
//
// A record names the run, the client session, the server and tool, the
// size and SHA-256 of the arguments, the outcome with its reason, the
// duration and the size of the result: never an argument's value, unless
// the caller puts the arguments in (Call.Arguments), which it does only
// when told to and with the secrets it knows redacted.
//
//	log, err := audit.Open(audit.Options{Dir: dir, MaxBytes: 10 << 20, Keep: 5})
//	...
//	err = log.Call(audit.Call{Run: id, Session: "stdio", Server: "github", Tool: "get_issue", ...})
package audit

import (
	"encoding/json"
	"time"
	"unicode/utf8"
)

// Kinds of record.
const (
	KindCall = "call"
	KindRun  = "run"
)

// Outcomes of a call (OK, Refused, Error, Timeout, Cancelled) and of a run
// (OK, Error, Stopped, Busy).
const (
	OK        = "ok"        // the call was answered; the run ended without an error
	Refused   = "refused"   // the bridge refused the call: no server saw it
	Error     = "error"     // the server or the tool failed the call; the run failed
	Timeout   = "timeout"   // the call passed its deadline
	Cancelled = "cancelled" // the run ended while the call was in flight
	Stopped   = "stopped"   // a limit or a cancellation ended the run
	Busy      = "busy"      // the run was refused at once: every run slot taken and limits.queue runs waiting
)

// Call is the record of one tool call, made when the bridge refused it or
// when it finished.
type Call struct {
	Time    time.Time `json:"time"` // when it was refused or finished; set by Log.Call when zero
	Kind    string    `json:"kind"` // KindCall; set by Log.Call
	Run     string    `json:"run"`
	Session string    `json:"session"`          // the MCP session, or who asked (see the README)
	Remote  string    `json:"remote,omitempty"` // the HTTP client's address
	Server  string    `json:"server"`
	Tool    string    `json:"tool"`
	// ArgBytes and ArgSHA256 are the size and hash of the arguments as
	// the program sent them (JSON).
	ArgBytes    int     `json:"arg_bytes"`
	ArgSHA256   string  `json:"arg_sha256"`
	Outcome     string  `json:"outcome"`
	Reason      string  `json:"reason,omitempty"` // why, for every outcome but OK; never an argument's value
	DurationMS  float64 `json:"duration_ms"`
	ResultBytes int     `json:"result_bytes"` // the result the program got (0 unless OK)
	// Arguments are the arguments themselves (JSON), put in only when the
	// configuration says so, with the configured secrets redacted; when
	// they are longer than MaxArgumentBytes, or not JSON, ArgumentsHead
	// holds their start as text instead.
	Arguments     json.RawMessage `json:"arguments,omitempty"`
	ArgumentsHead string          `json:"arguments_head,omitempty"`
}

// Run is the record of one run, made when it ended.
type Run struct {
	Time       time.Time `json:"time"` // when it ended; set by Log.Run when zero
	Kind       string    `json:"kind"` // KindRun; set by Log.Run
	Run        string    `json:"run"`
	Session    string    `json:"session"`
	Remote     string    `json:"remote,omitempty"`
	Servers    []string  `json:"servers"`
	CodeBytes  int       `json:"code_bytes"` // the program's size
	CodeSHA256 string    `json:"code_sha256"`
	Calls      int       `json:"calls"` // tool calls made, refused ones included
	Outcome    string    `json:"outcome"`
	Reason     string    `json:"reason,omitempty"` // why it failed or was stopped; never the program's own text
	ExitCode   int       `json:"exit_code"`
	DurationMS int64     `json:"duration_ms"`
}

// The bounds of a record. A record is written with one write(2), and two
// processes may append to one file: kept within MaxRecordBytes (the size of
// PIPE_BUF on Linux), a record is never interleaved with another, even on
// file systems that would split larger writes.
const (
	MaxRecordBytes   = 4096 // one encoded record, newline included
	MaxArgumentBytes = 2048 // Call.Arguments, else ArgumentsHead is cut to this
	maxNameBytes     = 128  // run, session, remote, server, tool
	maxReasonBytes   = 600
	maxServers       = 32 // Run.Servers beyond these are counted, not named
)

// cut returns s cut to at most n bytes, at a rune boundary, with "…" when
// it was cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n -= len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:max(n, 0)] + "…"
}
