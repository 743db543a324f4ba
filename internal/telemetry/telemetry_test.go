package telemetry

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
)

// traceService is an OTLP/gRPC trace receiver that keeps the names of the
// spans it gets.
type traceService struct {
	coltrace.UnimplementedTraceServiceServer
	mu    sync.Mutex
	names []string
}

func (s *traceService) Export(_ context.Context, req *coltrace.ExportTraceServiceRequest) (*coltrace.ExportTraceServiceResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				s.names = append(s.names, sp.Name)
			}
		}
	}
	return &coltrace.ExportTraceServiceResponse{}, nil
}

// grpcReceiver clears the OTEL_* variables and starts an OTLP/gRPC trace
// receiver that the variables then name, stopped when the test ends.
func grpcReceiver(t *testing.T) *traceService {
	t.Helper()
	clearEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	svc := &traceService{}
	gs := grpc.NewServer()
	coltrace.RegisterTraceServiceServer(gs, svc)
	go func() { _ = gs.Serve(ln) }()
	t.Cleanup(gs.Stop)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+ln.Addr().String())
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	return svc
}

// hungTracing is tracing with one span ended and not yet sent, to a
// collector that takes connections and never reads or answers, until the
// test ends.
func hungTracing(t *testing.T) *Tracing {
	t.Helper()
	clearEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	t.Cleanup(func() { close(release); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { <-release; c.Close() }() // reads nothing, answers nothing
		}
	}()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+ln.Addr().String())
	tr, err := NewTracing(t.Context(), TracingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, span := tr.Tracer().Start(t.Context(), "x")
	span.End()
	return tr
}

// clearEnv unsets every OTEL_* variable for the test.
func clearEnv(t *testing.T) {
	for _, name := range []string{"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
		"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG"} {
		t.Setenv(name, "")
	}
}

// With OTEL_EXPORTER_OTLP_PROTOCOL=grpc spans go to an OTLP/gRPC receiver,
// and Shutdown sends those not sent yet.
func TestSpansAreExportedOverGRPC(t *testing.T) {
	svc := grpcReceiver(t)
	tr, err := NewTracing(t.Context(), TracingOptions{Version: "test"})
	if err != nil || !tr.Enabled() || tr.Protocol() != "grpc" {
		t.Fatalf("NewTracing: %v (enabled %v, protocol %q)", err, tr.Enabled(), tr.Protocol())
	}
	_, span := tr.Tracer().Start(t.Context(), "over-grpc")
	span.End()
	if err := tr.Shutdown(t.Context()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	svc.mu.Lock()
	defer svc.mu.Unlock()
	if len(svc.names) != 1 || svc.names[0] != "over-grpc" {
		t.Errorf("the receiver got %v, want [over-grpc]", svc.names)
	}
}

// Flush sends the spans ended so far and leaves tracing on: a span ended
// after it is sent by Shutdown.
func TestFlushSendsTheSpansEndedSoFar(t *testing.T) {
	svc := grpcReceiver(t)
	tr, err := NewTracing(t.Context(), TracingOptions{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		svc.mu.Lock()
		defer svc.mu.Unlock()
		return slices.Clone(svc.names)
	}
	_, span := tr.Tracer().Start(t.Context(), "before")
	span.End()
	if err := tr.Flush(t.Context()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if got := names(); !slices.Equal(got, []string{"before"}) {
		t.Errorf("after Flush the receiver has %v, want [before]", got)
	}
	_, span = tr.Tracer().Start(t.Context(), "after")
	span.End()
	if err := tr.Shutdown(t.Context()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if got := names(); !slices.Equal(got, []string{"before", "after"}) {
		t.Errorf("after Shutdown the receiver has %v, want [before after]", got)
	}
	if err := (&Tracing{}).Flush(t.Context()); err != nil {
		t.Errorf("Flush with tracing off: %v", err)
	}
}

// What turns tracing off, and what is an error.
func TestTracingFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		enabled bool
		sampled bool
		err     string
	}{
		{name: "no variable", env: nil},
		{name: "a service name alone", env: map[string]string{"OTEL_SERVICE_NAME": "x"}},
		{name: "endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"}, enabled: true, sampled: true},
		{name: "traces endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:1/v1/traces"}, enabled: true, sampled: true},
		{name: "disabled", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_SDK_DISABLED": "TRUE"}},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_TRACES_EXPORTER": "none"}},
		{name: "sampler off", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_TRACES_SAMPLER": "always_off"}, enabled: true},
		{name: "http/json", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
			err: `OTEL_EXPORTER_OTLP_PROTOCOL="http/json" is not supported: use http/protobuf or grpc`},
		{name: "traces protocol wins", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "thrift"},
			err: `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="thrift" is not supported`},
		{name: "zipkin", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_TRACES_EXPORTER": "zipkin"},
			err: `OTEL_TRACES_EXPORTER="zipkin" is not supported: use otlp`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			tr, err := NewTracing(t.Context(), TracingOptions{OneShot: true})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = tr.Shutdown(context.Background()) }()
			_, span := tr.Tracer().Start(t.Context(), "x")
			defer span.End()
			if tr.Enabled() != tc.enabled || span.IsRecording() != tc.sampled {
				t.Errorf("enabled %v, span recorded %v; want %v, %v", tr.Enabled(), span.IsRecording(), tc.enabled, tc.sampled)
			}
		})
	}
}

// Shutdown waits at most FlushTimeout for a collector that accepts the
// connection and never answers.
func TestShutdownIsBoundedWhenTheCollectorHangs(t *testing.T) {
	tr := hungTracing(t)
	done := make(chan error, 1)
	go func() { done <- tr.Shutdown(context.Background()) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "spans not sent within") {
			t.Errorf("Shutdown against a collector that never answers: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Shutdown did not return within a minute")
	}
}

// A Flush against a collector that never answers gives up after
// FlushTimeout and says so; a Shutdown then given an ended ctx (as
// Aggregator.Close gives it after a failed flush) does not wait again.
func TestAFailedFlushIsNotWaitedForTwice(t *testing.T) {
	tr := hungTracing(t)
	if err := tr.Flush(context.Background()); err == nil || !strings.Contains(err.Error(), "spans not sent within") {
		t.Errorf("Flush against a collector that never answers: %v", err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if err := tr.Shutdown(ended); !errors.Is(err, context.Canceled) {
		t.Errorf("Shutdown with an ended ctx: %v, want context.Canceled (no second wait)", err)
	}
}

// The metrics' registry is the server's own: two servers in one process
// count apart.
func TestMetricsOfTwoServersAreApart(t *testing.T) {
	a, b := NewMetrics(func() PoolState { return PoolState{Ready: 2, InUse: 1, Target: 3} }), NewMetrics(nil)
	a.Run("ok", time.Second)
	a.Call("test", "echo", "ok", time.Millisecond)
	var nilMetrics *Metrics
	nilMetrics.Run("ok", time.Second) // records nothing, does not panic
	count := func(m *Metrics, name string) float64 {
		fams, err := m.reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		var n float64
		for _, f := range fams {
			if f.GetName() != name {
				continue
			}
			for _, m := range f.Metric {
				n += m.GetCounter().GetValue() + m.GetGauge().GetValue()
			}
		}
		return n
	}
	if count(a, "mcp_code_mode_runs_total") != 1 || count(b, "mcp_code_mode_runs_total") != 0 || count(a, "mcp_code_mode_pool_ready_containers") != 2 ||
		count(a, "mcp_code_mode_pool_in_use_containers") != 1 || count(a, "mcp_code_mode_pool_target_containers") != 3 {
		t.Errorf("runs: %v and %v; ready %v", count(a, "mcp_code_mode_runs_total"), count(b, "mcp_code_mode_runs_total"), count(a, "mcp_code_mode_pool_ready_containers"))
	}
}
