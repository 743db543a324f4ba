package telemetry

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

// RemoteParent takes a valid traceparent (and its tracestate) as the
// remote parent, refuses what the W3C specification calls invalid and what
// is over the bound, and drops a bad tracestate but keeps the traceparent.
func TestRemoteParent(t *testing.T) {
	const (
		tp      = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
		span    = "00f067aa0ba902b7"
	)
	later := "01-" + traceID + "-" + span + "-01-"
	for _, tc := range []struct {
		name, parent, state string
		ok                  bool
		wantState           string
		sampled             bool
	}{
		{"valid, sampled", tp, "", true, "", true},
		{"valid, not sampled", "00-" + traceID + "-" + span + "-00", "", true, "", false},
		{"with a tracestate", tp, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", true, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", true},
		{"a later version with a field more", later + "more", "", true, "", true},
		{"a later version at the bound", later + strings.Repeat("x", MaxTraceContextBytes-len(later)), "", true, "", true},
		{"a later version over the bound", later + strings.Repeat("x", MaxTraceContextBytes-len(later)+1), "", false, "", false},
		{"a malformed tracestate is dropped", tp, "Not A=List;;", true, "", true},
		{"a tracestate over the bound is dropped", tp, "k=" + strings.Repeat("v", MaxTraceContextBytes), true, "", true},
		{"empty", "", "rojo=1", false, "", false},
		{"garbage", "hello", "", false, "", false},
		{"upper case", strings.ToUpper(tp), "", false, "", false},
		{"zero trace ID", "00-00000000000000000000000000000000-" + span + "-01", "", false, "", false},
		{"zero span ID", "00-" + traceID + "-0000000000000000-01", "", false, "", false},
		{"version ff", "ff" + tp[2:], "", false, "", false},
		{"version 00 with a field more", tp + "-x", "", false, "", false},
		{"reserved flags in version 00", tp[:len(tp)-2] + "09", "", false, "", false},
		{"a line break", tp + "\r\nX: y", "", false, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, ok := RemoteParent(t.Context(), tc.parent, tc.state)
			sc := trace.SpanContextFromContext(ctx)
			if ok != tc.ok || ok != sc.IsValid() {
				t.Fatalf("ok %v, span context valid %v; want %v", ok, sc.IsValid(), tc.ok)
			}
			if !ok {
				return
			}
			if sc.TraceID().String() != traceID || sc.SpanID().String() != span || !sc.IsRemote() || sc.IsSampled() != tc.sampled || sc.TraceState().String() != tc.wantState {
				t.Errorf("span context %s/%s remote %v sampled %v tracestate %q", sc.TraceID(), sc.SpanID(), sc.IsRemote(), sc.IsSampled(), sc.TraceState())
			}
		})
	}
}

// TraceParent gives the traceparent of the span in ctx, never its
// tracestate, and nothing when there is no span.
func TestTraceParent(t *testing.T) {
	if got := TraceParent(t.Context()); got != "" {
		t.Errorf("without a span: %q, want none", got)
	}
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	ctx, ok := RemoteParent(t.Context(), tp, "rojo=1")
	if !ok {
		t.Fatal("RemoteParent refused a valid traceparent")
	}
	if got := TraceParent(ctx); got != tp {
		t.Errorf("TraceParent: %q, want %q", got, tp)
	}
}

// No input makes RemoteParent panic or take a value over the bound, and a
// traceparent it takes names the trace and span it reads back as.
func FuzzRemoteParent(f *testing.F) {
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "rojo=00f067aa0ba902b7")
	f.Add("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03-extra", "a=b,c=d")
	f.Add("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "")
	f.Fuzz(func(t *testing.T, parent, state string) {
		ctx, ok := RemoteParent(context.Background(), parent, state)
		if !ok {
			if trace.SpanContextFromContext(ctx).IsValid() {
				t.Fatal("refused, yet ctx holds a span context")
			}
			return
		}
		if len(parent) > MaxTraceContextBytes {
			t.Fatalf("took a traceparent of %d bytes", len(parent))
		}
		if len(trace.SpanContextFromContext(ctx).TraceState().String()) > MaxTraceContextBytes {
			t.Fatal("took a tracestate over the bound")
		}
		if got := TraceParent(ctx); got[3:52] != parent[3:52] {
			t.Fatalf("took %q, reads back as %q", parent, got)
		}
	})
}

// What reading a client's trace context costs a run (with tracing on).
func BenchmarkRemoteParent(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		if _, ok := RemoteParent(ctx, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"); !ok {
			b.Fatal("refused")
		}
	}
}
