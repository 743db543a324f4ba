package state

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

var (
	// ErrNotFound is returned (wrapped) for a memory or a saved tool that
	// does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict is what every [*ConflictError] matches with errors.Is.
	ErrConflict = errors.New("version conflict")
	// ErrLimit is what every [*LimitError] matches with errors.Is.
	ErrLimit = errors.New("over a limit")
	// ErrInvalid is what every [*InvalidError] matches with errors.Is.
	ErrInvalid = errors.New("invalid")
	// ErrBusy is returned (wrapped) when other processes kept the database
	// locked through every try of an operation.
	ErrBusy = errors.New("state database busy")
)

// ConflictError is returned by [Store.CompareAndSwapMemory] when the
// memory's version is not the one expected: it was written, created or
// deleted since it was read. Nothing was written.
type ConflictError struct {
	Key      string
	Expected int64 // the version the caller expected; 0: that the key did not exist
	Actual   int64 // the version found; 0: the key does not exist
}

// Error says which key, and the versions expected and found.
func (e *ConflictError) Error() string {
	switch {
	case e.Expected == 0:
		return fmt.Sprintf("memory %s already exists (version %d)", quote(e.Key), e.Actual)
	case e.Actual == 0:
		return fmt.Sprintf("memory %s no longer exists (expected version %d)", quote(e.Key), e.Expected)
	}
	return fmt.Sprintf("memory %s changed: version %d, expected %d", quote(e.Key), e.Actual, e.Expected)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// LimitError is returned for a write that would pass one of the [Limits].
// Nothing was written.
type LimitError struct {
	// Limit is the limit's [Limits] field name in snake case, as the
	// config file spells limits: "max_value_bytes", "max_keys", ...
	Limit string
	Max   int64  // the limit's value
	Got   int64  // what the write would have made it
	Kind  string // "memory" or "tool"
	Key   string // the memory's key or the tool's name
}

// Error names the key, what the limit counts, the count the write would
// have made, and the limit with its name.
func (e *LimitError) Error() string {
	return fmt.Sprintf("%s %s: %s would be %d, over the limit of %d (%s)", e.Kind, quote(e.Key), limitSubject(e.Limit), e.Got, e.Max, e.Limit)
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// limitSubject says in words what a limit counts.
func limitSubject(limit string) string {
	switch limit {
	case "max_value_bytes":
		return "the value's size in bytes (as compact ASCII JSON)"
	case "max_metadata_bytes":
		return "the metadata's size in bytes (as compact ASCII JSON)"
	case "max_namespace_bytes":
		return "the bytes stored in this namespace"
	case "max_keys":
		return "the number of memories"
	case "max_tools":
		return "the number of saved tools"
	case "max_tool_source_bytes":
		return "the source's size in bytes"
	case "max_tool_description_bytes":
		return "the description's size in bytes"
	case "max_name_bytes":
		return "the name's length in bytes"
	}
	return limit
}

// InvalidError is returned for an argument that is not acceptable
// whatever the limits: a key with a control character, a value that is
// not JSON, ... Nothing was written.
type InvalidError struct {
	What   string // "key", "tool name", "namespace", "value", "metadata", ...
	Value  string // the argument (the message shows at most its first 64 bytes)
	Reason string // what is wrong with it
}

// Error names what was invalid, its value (cut short) and why.
func (e *InvalidError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("invalid %s: %s", e.What, e.Reason)
	}
	return fmt.Sprintf("invalid %s %s: %s", e.What, quote(e.Value), e.Reason)
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// quote quotes s for a message, cut to its first 64 bytes (at a rune
// boundary) with "..." after when longer.
func quote(s string) string {
	const max = 64
	if len(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q...", s[:cut])
}
