// Package telemetry sets up what operators watch mcp-code-mode with:
// OpenTelemetry traces, exported over OTLP when the standard OTEL_*
// environment variables ask for it, and Prometheus metrics in a registry of
// the server's own. Neither keeps package-level state: the aggregator is
// handed a Tracing and a Metrics, and a nil or disabled one costs nothing
// beyond a no-op tracer.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// InstrumentationName names the tracer of this program's spans.
const InstrumentationName = "github.com/mcp-code-mode/mcp-code-mode"

// FlushTimeout bounds how long Shutdown waits for the spans not yet sent:
// a collector that does not answer delays the end of serve or run by at
// most this.
const FlushTimeout = 3 * time.Second

// Protocols are the values of OTEL_EXPORTER_OTLP_PROTOCOL (and
// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) supported; http/protobuf is the
// default, as the specification says.
var Protocols = []string{"http/protobuf", "grpc"}

// Tracing is where spans go: an OTLP exporter behind a batching span
// processor, or nowhere (a no-op tracer). The zero value and nil are
// tracing that is off.
type Tracing struct {
	sdk      *sdktrace.TracerProvider // nil when off
	protocol string
}

// TracingOptions say how the exporter behaves.
type TracingOptions struct {
	// Version is the service.version of the spans' resource.
	Version string
	// OneShot is for a command that ends after one run: failed exports are
	// not retried, so a collector that is down does not delay its end
	// beyond the first attempt.
	OneShot bool
}

// NewTracing sets up tracing from the standard OpenTelemetry environment
// variables. It is on when OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, and off otherwise, or when
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. The exporter reads
// the rest itself (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _CERTIFICATE, and
// their _TRACES_ forms); the SDK reads OTEL_TRACES_SAMPLER(_ARG) and
// OTEL_BSP_*; the resource takes OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES. An unsupported protocol or exporter is an
// error that names the supported ones. Nothing is connected to yet: an
// unreachable collector shows only as failed exports, in the background.
func NewTracing(ctx context.Context, opts TracingOptions) (*Tracing, error) {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return &Tracing{}, nil
	}
	switch exp := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); exp {
	case "", "otlp":
	case "none":
		return &Tracing{}, nil
	default:
		return nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%q is not supported: use otlp (or none)", exp)
	}
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		return &Tracing{}, nil
	}
	protocol, from := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	if protocol == "" {
		protocol, from = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL"), "OTEL_EXPORTER_OTLP_PROTOCOL"
	}
	protocol = strings.TrimSpace(protocol)
	var (
		exp sdktrace.SpanExporter
		err error
	)
	switch protocol {
	case "", "http/protobuf":
		protocol = "http/protobuf"
		var o []otlptracehttp.Option
		if opts.OneShot {
			o = append(o, otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
		}
		exp, err = otlptracehttp.New(ctx, o...)
	case "grpc":
		var o []otlptracegrpc.Option
		if opts.OneShot {
			o = append(o, otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{Enabled: false}))
		}
		exp, err = otlptracegrpc.New(ctx, o...)
	default:
		return nil, fmt.Errorf("%s=%q is not supported: use %s", from, protocol, strings.Join(Protocols, " or "))
	}
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter (%s): %w", protocol, err)
	}
	version := opts.Version
	if version == "" {
		version = "unknown"
	}
	// Later sources win: the variables override the program's own name.
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "mcp-code-mode"), attribute.String("service.version", version)),
		resource.WithTelemetrySDK(), resource.WithFromEnv())
	if err != nil && res == nil {
		_ = exp.Shutdown(ctx)
		return nil, fmt.Errorf("OpenTelemetry resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{sdk: tp, protocol: protocol}, nil
}

// Enabled reports whether spans are exported.
func (t *Tracing) Enabled() bool { return t != nil && t.sdk != nil }

// Protocol is the OTLP protocol spans are exported with ("" when off).
func (t *Tracing) Protocol() string {
	if !t.Enabled() {
		return ""
	}
	return t.protocol
}

// Tracer returns the tracer of this program's spans: a no-op one when
// tracing is off.
func (t *Tracing) Tracer() trace.Tracer {
	if !t.Enabled() {
		return noop.NewTracerProvider().Tracer(InstrumentationName)
	}
	return t.sdk.Tracer(InstrumentationName)
}

// Flush sends the spans ended so far, waiting at most FlushTimeout (less if
// ctx ends first). Tracing stays on. It is safe to call on tracing that is
// off.
func (t *Tracing) Flush(ctx context.Context) error {
	if !t.Enabled() {
		return nil
	}
	return bounded(ctx, t.sdk.ForceFlush)
}

// Shutdown sends the spans not yet sent and stops the exporter, waiting at
// most FlushTimeout (less if ctx ends first: an ended ctx stops it without
// waiting). It is safe to call on tracing that is off, and more than once.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if !t.Enabled() {
		return nil
	}
	return bounded(ctx, t.sdk.Shutdown)
}

// bounded calls f with ctx cut to FlushTimeout, and says so when that cut
// it short.
func bounded(ctx context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, FlushTimeout)
	defer cancel()
	err := f(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("spans not sent within %v: %w", FlushTimeout, err)
	}
	return err
}
