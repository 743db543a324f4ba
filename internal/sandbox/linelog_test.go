package sandbox

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// records is a slog handler that keeps each record's "line" attribute,
// and whether it says the line was cut.
type records struct {
	mu    sync.Mutex
	lines []string
	cut   []bool
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *records) WithGroup(string) slog.Handler            { return r }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	line, cut := "", false
	rec.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "line":
			line = a.Value.String()
		case "cut_at":
			cut = true
		}
		return true
	})
	r.lines, r.cut = append(r.lines, line), append(r.cut, cut)
	return nil
}

// A build's progress is logged a line at a time, however it is written,
// each line bounded.
func TestLineLogLogsEachLineWithABound(t *testing.T) {
	var r records
	w := &lineLog{log: slog.New(&r), msg: "build"}
	long := strings.Repeat("x", maxLogLine+100)
	for _, s := range []string{"a\nb", "c\n", "\n", long + "\n", "tail"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", len(s), n, err)
		}
	}
	w.flush()
	w.flush() // nothing more
	want := []string{"a", "bc", "", long[:maxLogLine], "tail"}
	if len(r.lines) != len(want) {
		t.Fatalf("logged %d lines, want %d: %q", len(r.lines), len(want), r.lines)
	}
	for i := range want {
		if r.lines[i] != want[i] || r.cut[i] != (i == 3) {
			t.Errorf("line %d: %.20q (cut %v), want %.20q (cut %v)", i, r.lines[i], r.cut[i], want[i], i == 3)
		}
	}
}
