package upstream

import (
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/telemetry"
)

// The propagators put the traceparent of the span in ctx in a request's
// headers and _meta, keep what _meta held (a progress token, other keys)
// without changing the caller's, and add nothing without a span.
func TestTracePropagatorsCarryTheSpansTraceparent(t *testing.T) {
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	ctx, ok := telemetry.RemoteParent(t.Context(), tp, "rojo=1")
	if !ok {
		t.Fatal("RemoteParent refused a valid traceparent")
	}
	h := http.Header{}
	traceHeader{}.Inject(ctx, h)
	if got := h.Get("traceparent"); got != tp || h.Get("tracestate") != "" {
		t.Errorf("headers %v, want traceparent %s and no tracestate", h, tp)
	}
	mine := &mcp.Meta{ProgressToken: "p1", AdditionalFields: map[string]any{"k": "v"}}
	got := traceMeta{}.InjectMeta(ctx, mine)
	if got.ProgressToken != "p1" || got.AdditionalFields["k"] != "v" || got.AdditionalFields["traceparent"] != tp || len(got.AdditionalFields) != 2 {
		t.Errorf("_meta %+v, want the progress token, k and the traceparent", got)
	}
	if _, changed := mine.AdditionalFields["traceparent"]; changed {
		t.Error("the caller's _meta was changed")
	}
	if got := (traceMeta{}).InjectMeta(t.Context(), nil); got != nil {
		t.Errorf("without a span: _meta %+v, want none", got)
	}
	h = http.Header{}
	traceHeader{}.Inject(t.Context(), h)
	if len(h) != 0 {
		t.Errorf("without a span: headers %v, want none", h)
	}
}
