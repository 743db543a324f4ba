package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// MaxTraceContextBytes bounds a traceparent or tracestate value taken from
// a client. A version-00 traceparent is 55 bytes; the W3C specification
// asks that at least 512 bytes of tracestate be passed on.
const MaxTraceContextBytes = 512

// The W3C trace context's keys, as HTTP headers (any case) and as keys of
// an MCP request's _meta (this case: the convention of the OpenTelemetry
// MCP semantic conventions and of MCP's SEP-414).
const (
	TraceParentKey = "traceparent"
	TraceStateKey  = "tracestate"
)

// RemoteParent returns ctx with the span context that a W3C traceparent,
// and the tracestate that came with it, carry: spans started in it are
// children of that remote span, in its trace. ok is false, and ctx comes
// back as it was, when traceparent is empty, malformed (see the W3C Trace
// Context specification: version, 32 and 16 lower-case hex digits, not all
// zero, flags) or longer than MaxTraceContextBytes. A tracestate that is
// malformed or longer than the bound is dropped and the traceparent still
// counts, as the specification says.
func RemoteParent(ctx context.Context, traceparent, tracestate string) (_ context.Context, ok bool) {
	if traceparent == "" || len(traceparent) > MaxTraceContextBytes {
		return ctx, false
	}
	carrier := propagation.MapCarrier{TraceParentKey: traceparent}
	if tracestate != "" && len(tracestate) <= MaxTraceContextBytes {
		carrier[TraceStateKey] = tracestate
	}
	sc := trace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(), carrier))
	if !sc.IsValid() {
		return ctx, false
	}
	return trace.ContextWithRemoteSpanContext(ctx, sc), true
}

// TraceParent is the W3C traceparent of the span ctx holds ("" when it
// holds none, as when tracing is off). It is the traceparent alone: the
// tracestate a client sent stays on this program's spans and is not passed
// on to anyone else.
func TraceParent(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier[TraceParentKey]
}
