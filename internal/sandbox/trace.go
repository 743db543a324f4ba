package sandbox

import (
	"context"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// span starts a span named name as a child of the span in ctx, with the
// tracer provider of that span: with no span in ctx (or tracing off) it is
// a no-op. The returned func ends it with err's outcome.
func span(ctx context.Context, name string) (context.Context, func(err error)) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, func(error) {}
	}
	ctx, s := parent.TracerProvider().Tracer("github.com/mcp-code-mode/mcp-code-mode/internal/sandbox").Start(ctx, name)
	return ctx, func(err error) {
		if err != nil {
			s.SetStatus(codes.Error, err.Error())
		}
		s.End()
	}
}
