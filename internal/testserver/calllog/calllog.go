// Package calllog is the test server's record of the tools/call requests it
// received: one JSON line each, appended by the server (-log FILE) and read
// by the tests, so that they can prove what reached a wrapped server and
// what did not.
package calllog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// Record is one call the server received.
type Record struct {
	Tool          string          `json:"tool"`
	Args          json.RawMessage `json:"args"` // as the client sent them
	StartUnixNano int64           `json:"start_unix_nano"`
	EndUnixNano   int64           `json:"end_unix_nano"`
	// Unknown is set for a tools/call naming a tool the server does not
	// have (mcp-go answers it with a JSON-RPC error; no handler runs).
	Unknown bool `json:"unknown,omitempty"`
	// The W3C trace context the call came with: in the headers of the HTTP
	// request that carried it (-http, -sse), and in its _meta.
	Traceparent     string `json:"traceparent,omitempty"`
	Tracestate      string `json:"tracestate,omitempty"`
	MetaTraceparent string `json:"meta_traceparent,omitempty"`
	MetaTracestate  string `json:"meta_tracestate,omitempty"`
}

// Writer appends records to a log file; it is safe for concurrent use.
// Each line is one write(2) to an O_APPEND file, under a mutex, so lines
// never interleave and readers see a line as soon as Write returns.
type Writer struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (creating it if needed) the log at path for appending.
func Open(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("call log: %w", err)
	}
	return &Writer{f: f}, nil
}

// Write appends rec as one line. Arguments that are not valid JSON are
// kept as a JSON string rather than lost.
func (w *Writer) Write(rec Record) error {
	if len(rec.Args) == 0 {
		rec.Args = json.RawMessage("null")
	}
	line, err := json.Marshal(rec)
	if err != nil {
		rec.Args, _ = json.Marshal(string(rec.Args))
		if line, err = json.Marshal(rec); err != nil {
			return fmt.Errorf("call log: %w", err)
		}
	}
	line = append(line, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(line); err != nil {
		return fmt.Errorf("call log: %w", err)
	}
	return nil
}

// Read returns the records of the log at path; none if it does not exist.
func Read(path string) ([]Record, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("call log: %w", err)
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("call log %s: line %q: %w", path, sc.Text(), err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("call log %s: %w", path, err)
	}
	return out, nil
}

// Tools returns the tool names of recs, in order.
func Tools(recs []Record) []string {
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Tool)
	}
	return out
}
