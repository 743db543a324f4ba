package aggregator

import (
	"context"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/telemetry"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

// The telemetry hooks: a span and metrics for each run, the sandbox it
// acquires, each tool call through the bridge and each start of a wrapped
// server. Attributes name servers, tools, outcomes and sizes, never an
// argument's value; texts are redacted as the audit log's are.

// observing is where spans and metrics go (see SetTelemetry).
type observing struct {
	tracing *telemetry.Tracing // nil: off
	tracer  trace.Tracer       // nil: a no-op one
	metrics *telemetry.Metrics // nil: none
}

// Span and attribute names.
const (
	spanRun          = "run_python"
	spanAcquire      = "sandbox.acquire"
	spanCall         = "tool_call"
	spanServerStart  = "server.start"
	attrRun          = "mcp_code_mode.run.id"
	attrSession      = "mcp_code_mode.session"
	attrServers      = "mcp_code_mode.servers"
	attrOutcome      = "mcp_code_mode.outcome"
	attrExitCode     = "mcp_code_mode.exit_code"
	attrCalls        = "mcp_code_mode.calls"
	attrCodeBytes    = "mcp_code_mode.code_bytes"
	attrContainer    = "mcp_code_mode.container"
	attrServer       = "mcp_code_mode.server"
	attrTool         = "mcp_code_mode.tool"
	attrTransport    = "mcp_code_mode.transport"
	attrArgBytes     = "mcp_code_mode.arg_bytes"
	attrResultBytes  = "mcp_code_mode.result_bytes"
	maxStatusRunes   = 300
	maxAttrNameRunes = 200
)

// SetTelemetry sends spans to tracing and records metrics in metrics from
// now on; either may be nil (off). With tracing on, a run joins the trace
// of the client that asked for it when its tools/call carries W3C trace
// context (see joinTrace), and the calls to wrapped servers carry the
// traceparent of their spans (upstream.Server.PassTraceContext). The
// aggregator flushes tracing in Close. Call it before the aggregator is
// used.
func (a *Aggregator) SetTelemetry(tracing *telemetry.Tracing, metrics *telemetry.Metrics) {
	a.obs = observing{tracing: tracing, metrics: metrics}
	if tracing.Enabled() {
		a.obs.tracer = tracing.Tracer()
	}
	for _, e := range a.entries {
		e.up.OnStart(a.startHook(e))
		if tracing.Enabled() {
			e.up.PassTraceContext()
		}
	}
}

func (a *Aggregator) tracer() trace.Tracer {
	if a.obs.tracer == nil {
		return noop.Tracer{}
	}
	return a.obs.tracer
}

// flushTelemetry sends the spans ended so far, waiting a bounded time. It
// reports whether they were sent.
func (a *Aggregator) flushTelemetry() bool {
	if err := a.obs.tracing.Flush(context.Background()); err != nil {
		a.log.Warn("traces", "err", err)
		return false
	}
	return true
}

// closeTelemetry sends the spans not yet sent, waiting a bounded time, and
// stops tracing. When the flush before it failed (flushed false), it does
// not wait again: a collector that did not answer then would only double
// the time it takes to stop.
func (a *Aggregator) closeTelemetry(flushed bool) {
	ctx := context.Background()
	if !flushed {
		c, cancel := context.WithCancel(ctx)
		cancel()
		ctx = c
	}
	if err := a.obs.tracing.Shutdown(ctx); err != nil && flushed {
		a.log.Warn("traces", "err", err)
	}
}

// status sets the span's status to an error with a redacted, bounded text.
func (a *Aggregator) status(span trace.Span, text string) {
	span.SetStatus(codes.Error, truncateRunes(a.redact.String(strings.TrimSpace(text)), maxStatusRunes))
}

// startHook is told of each start of e's server: a span, a child of the
// run's when a run starts it, and the metrics of starts.
func (a *Aggregator) startHook(e *entry) upstream.StartHook {
	transport := e.srv.Transport
	if transport == "" {
		transport = config.TransportStdio
	}
	return func(ctx context.Context) (context.Context, func(error)) {
		ctx, span := a.tracer().Start(ctx, spanServerStart, trace.WithAttributes(
			attribute.String(attrServer, e.srv.Name), attribute.String(attrTransport, transport)))
		return ctx, func(err error) {
			a.obs.metrics.ServerStart(e.srv.Name, err != nil)
			if span.IsRecording() {
				outcome := audit.OK
				if err != nil {
					outcome = audit.Error
					a.status(span, firstLine(err.Error()))
				}
				span.SetAttributes(attribute.String(attrOutcome, outcome))
			}
			span.End()
		}
	}
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// joinTrace returns ctx with the client's span as the remote parent of the
// run's, when the tools/call req carries W3C trace context: its _meta's
// traceparent and tracestate when that traceparent is valid, else those of
// the HTTP request that carried it (serve --http). A value that is
// malformed, repeated or over telemetry.MaxTraceContextBytes is ignored and
// the run is a trace of its own; the log says so at debug level, without
// the value. Neither value becomes a span attribute or reaches a log.
func (a *Aggregator) joinTrace(ctx context.Context, req mcp.CallToolRequest) context.Context {
	if m := req.Params.Meta; m != nil {
		if raw, ok := m.AdditionalFields[telemetry.TraceParentKey]; ok {
			parent, _ := raw.(string)
			state, _ := m.AdditionalFields[telemetry.TraceStateKey].(string)
			if joined, ok := telemetry.RemoteParent(ctx, parent, state); ok {
				return joined
			}
			a.log.Debug("trace context ignored: not a valid traceparent", "in", "_meta", "bytes", len(parent))
		}
	}
	parents := req.Header.Values(telemetry.TraceParentKey)
	if len(parents) == 0 {
		return ctx
	}
	// Several traceparent headers are invalid; several tracestate headers
	// are one list.
	if len(parents) == 1 {
		if joined, ok := telemetry.RemoteParent(ctx, parents[0], joinStates(req.Header.Values(telemetry.TraceStateKey))); ok {
			return joined
		}
	}
	a.log.Debug("trace context ignored: not a valid traceparent", "in", "header", "headers", len(parents), "bytes", len(parents[0]))
	return ctx
}

// joinStates joins tracestate header values into one list, or gives ""
// when it would be longer than telemetry.MaxTraceContextBytes (without
// building it).
func joinStates(values []string) string {
	n := len(values) - 1
	for _, v := range values {
		if n += len(v); n > telemetry.MaxTraceContextBytes {
			return ""
		}
	}
	return strings.Join(values, ",")
}

// startRun starts the span of a run.
func (a *Aggregator) startRun(ctx context.Context, id string, req Request) (context.Context, trace.Span) {
	ctx, span := a.tracer().Start(ctx, spanRun)
	if span.IsRecording() {
		span.SetAttributes(attribute.String(attrRun, id), attribute.String(attrSession, a.redact.String(req.Session)),
			attribute.Int(attrCodeBytes, len(req.Code)))
	}
	return ctx, span
}

// endRun ends the span of the run as it ended with res, and records it in
// the metrics; ran says whether the program was started.
func (a *Aggregator) endRun(span trace.Span, res Result, ran bool, took time.Duration) {
	outcome, reason := runOutcome(res, ran)
	a.obs.metrics.Run(outcome, took)
	if span.IsRecording() {
		span.SetAttributes(attribute.StringSlice(attrServers, res.Servers), attribute.String(attrOutcome, outcome),
			attribute.Int(attrExitCode, res.ExitCode), attribute.Int(attrCalls, res.Calls))
		if outcome != audit.OK {
			a.status(span, reason)
		}
	}
	span.End()
}

// acquire gets the run's sandbox container from the engine, in a span that
// says whether it was warm (started ahead of need) or fresh (started for
// the run, in a child span of the engine's).
func (a *Aggregator) acquire(ctx context.Context) (*sandbox.Container, error) {
	began := time.Now()
	ctx, span := a.tracer().Start(ctx, spanAcquire)
	defer span.End()
	box, err := a.engine.Start(ctx, a.cfg.Spec())
	if err != nil {
		if span.IsRecording() {
			span.SetAttributes(attribute.String(attrOutcome, audit.Error))
			a.status(span, err.Error())
		}
		return nil, err
	}
	a.obs.metrics.Acquire(box.Warm(), time.Since(began))
	if span.IsRecording() {
		kind := "fresh"
		if box.Warm() {
			kind = "warm"
		}
		span.SetAttributes(attribute.String(attrContainer, kind), attribute.String(attrOutcome, audit.OK))
	}
	return box, nil
}

// observeCall ends the span of the call m and records it in the metrics.
// The metrics' labels are bounded: a server or tool the program made up
// (not loaded, or not one of the server's tools) is telemetry.Other. The
// span names what the program named, as the audit log does.
func (s *runState) observeCall(span trace.Span, m runner.Message, took time.Duration, value []byte, err error) {
	outcome, reason := audit.OK, ""
	if err != nil {
		outcome, reason = callOutcome(err)
	}
	server, tool := telemetry.Other, telemetry.Other
	if mod, ok := s.mods[m.Server]; ok {
		server = mod.srv.Name
		_, allowed := mod.tools[m.Tool]
		_, denied := mod.denied[m.Tool]
		if allowed || denied {
			tool = m.Tool
		}
	}
	s.a.obs.metrics.Call(server, tool, outcome, took)
	if span.IsRecording() {
		red := s.a.redact
		named := m.Server
		if mod, ok := s.mods[m.Server]; ok {
			named = mod.srv.Name
		}
		span.SetAttributes(attribute.String(attrRun, s.id),
			attribute.String(attrServer, truncateRunes(red.String(named), maxAttrNameRunes)),
			attribute.String(attrTool, truncateRunes(red.String(m.Tool), maxAttrNameRunes)),
			attribute.String(attrOutcome, outcome), attribute.Int(attrArgBytes, len(m.Args)), attribute.Int(attrResultBytes, len(value)))
		if err != nil {
			s.a.status(span, reason)
		}
	}
	span.End()
}
