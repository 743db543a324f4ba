package upstream

import (
	"context"
	"maps"
	"net/http"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/tracing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/telemetry"
)

// PassTraceContext makes the server's requests carry the W3C traceparent
// of the span their context holds (a tool call's, the start's for the
// handshake), so that a wrapped server that traces joins the same trace:
// in the request's _meta on every transport (the MCP convention), and as
// the traceparent header to a remote server. The traceparent alone is
// passed on, never a client's tracestate. Call it before the server is
// used, and only when tracing is on.
func (u *Server) PassTraceContext() { u.traces = true }

// traceOptions are the client options that pass the trace context on, for
// a client over the transport named kind (none unless PassTraceContext was
// called).
func (u *Server) traceOptions(kind string) []client.ClientOption {
	if !u.traces {
		return nil
	}
	opts := []client.ClientOption{client.WithMetaPropagator(traceMeta{})}
	if kind == config.TransportHTTP || kind == config.TransportSSE {
		opts = append(opts, client.WithPropagator(traceHeader{}))
	}
	return opts
}

// listMeta is the _meta of the handshake's tools/list: the traceparent of
// the span ctx holds, when the trace context is passed on (nil otherwise).
// That request is sent on the transport directly, to keep each tool's JSON
// as the server wrote it, so neither of mcp-go's propagators sees it: the
// traceparent goes in _meta only, not in an HTTP header.
func (u *Server) listMeta(ctx context.Context) map[string]any {
	if !u.traces {
		return nil
	}
	tp := telemetry.TraceParent(ctx)
	if tp == "" {
		return nil
	}
	return map[string]any{telemetry.TraceParentKey: tp}
}

// traceHeader puts the traceparent of a request's span in its HTTP headers
// (mcp-go's tracing.Propagator).
type traceHeader struct{}

func (traceHeader) Inject(ctx context.Context, h http.Header) {
	if tp := telemetry.TraceParent(ctx); tp != "" {
		h.Set(telemetry.TraceParentKey, tp)
	}
}

func (traceHeader) Extract(ctx context.Context, _ http.Header) context.Context { return ctx }

// traceMeta puts the traceparent of a request's span in its _meta
// (mcp-go's tracing.MetaPropagator), leaving the caller's Meta as it was.
type traceMeta struct{}

func (traceMeta) InjectMeta(ctx context.Context, meta *mcp.Meta) *mcp.Meta {
	tp := telemetry.TraceParent(ctx)
	if tp == "" {
		return meta
	}
	out := &mcp.Meta{AdditionalFields: map[string]any{}}
	if meta != nil {
		out.ProgressToken = meta.ProgressToken
		maps.Copy(out.AdditionalFields, meta.AdditionalFields)
	}
	out.AdditionalFields[telemetry.TraceParentKey] = tp
	return out
}

func (traceMeta) ExtractMeta(ctx context.Context, _ *mcp.Meta) context.Context { return ctx }

var (
	_ tracing.Propagator     = traceHeader{}
	_ tracing.MetaPropagator = traceMeta{}
)
