package aggregator

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// A bug of the host reached through what a program sent (a search query
// once made the index panic) must fail that call, not the process: the
// bridge answers each call and helper on a goroutine of its own, which
// mcp-go's recovery of tool handlers does not cover. No panic of the host
// can be caused through a program on purpose (each found one is fixed), so
// the answer itself panics here.
func TestAPanicAnsweringAProgramFailsThatCallOnly(t *testing.T) {
	a := newAgg(t, nil)
	var logs testenv.Buffer
	a.log = slog.New(slog.NewTextHandler(&logs, nil))
	s := &runState{a: a}
	for _, m := range []runner.Message{
		{Type: runner.TypeRPC, ID: 7, Method: "search_tool_docs"},
		{Type: runner.TypeCall, ID: 8, Server: "files", Tool: "read_file"},
	} {
		r := s.safely(t.Context(), m, func(context.Context, runner.Message) runner.Reply {
			var groups [][]int
			return runner.Success(m.ID, []byte{byte(groups[0][0])}) // index out of range
		})
		what := m.Method
		if what == "" {
			what = m.Server + "." + m.Tool
		}
		if r.OK || r.ID != m.ID || !strings.Contains(r.Error, "internal error") || !strings.Contains(r.Error, what) {
			t.Errorf("reply to a panicking %s: %+v, want a failure of call %d naming it", what, r, m.ID)
		}
		if l := logs.String(); !strings.Contains(l, "index out of range") || !strings.Contains(l, "panic_test.go") {
			t.Errorf("the log does not give the panic and its stack:\n%s", l)
		}
	}
	// An answer that does not panic is passed on as it is.
	ok := s.safely(t.Context(), runner.Message{Type: runner.TypeRPC, ID: 9}, func(_ context.Context, m runner.Message) runner.Reply {
		return runner.Success(m.ID, []byte(`1`))
	})
	if !ok.OK || ok.ID != 9 {
		t.Errorf("a plain answer came back as %+v", ok)
	}
}
