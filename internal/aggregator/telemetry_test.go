package aggregator

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/telemetry"
)

// benchAgg is an aggregator over the test server for a benchmark, with
// tracing on (to an OTLP/HTTP endpoint that takes every export) or off.
func benchAgg(b *testing.B, eng Engine, traced bool) *Aggregator {
	b.Helper()
	// Started first, so that it is closed after the aggregator flushes.
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	b.Cleanup(sink.Close)
	cfg := config.Default()
	cfg.CatalogDir, cfg.TokenDir = b.TempDir(), b.TempDir()
	cfg.State.Path = filepath.Join(b.TempDir(), "state.db")
	cfg.Runtime = testRuntime()
	srv := config.Server{Name: "test", Transport: config.TransportStdio, Command: clitest.TestServer(),
		Args: []string{"-name", "test", "-log", filepath.Join(b.TempDir(), "calls.log")}, Source: "bench"}
	a, err := New(cfg, []config.Server{srv}, eng, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(a.Close)
	var tr *telemetry.Tracing
	if traced {
		b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", sink.URL)
		if tr, err = telemetry.NewTracing(b.Context(), telemetry.TracingOptions{}); err != nil || !tr.Enabled() {
			b.Fatalf("tracing: %v (enabled %v)", err, tr.Enabled())
		}
	}
	a.SetTelemetry(tr, telemetry.NewMetrics(nil))
	return a
}

// BenchmarkRunTracing runs the same program (five tool calls) through the
// real engine with tracing off and on, one after the other in each
// iteration, and reports the time of a run of each and their ratio.
func BenchmarkRunTracing(b *testing.B) {
	eng, err := clitest.Engine()
	if err != nil {
		b.Skipf("no engine: %v", err)
	}
	off, on := benchAgg(b, eng, false), benchAgg(b, eng, true)
	const prog = "for i in range(5):\n    await mcp_test.add(a=i, b=1)\nprint('ok')"
	runOne := func(a *Aggregator) time.Duration {
		began := time.Now()
		res := a.Run(b.Context(), Request{Code: prog, Servers: []string{"test"}})
		if res.Error != nil || res.Stdout != "ok\n" {
			b.Fatalf("run: %+v", res)
		}
		return time.Since(began)
	}
	runOne(off) // the server and the image warmed
	runOne(on)
	var tOff, tOn time.Duration
	b.ResetTimer()
	for range b.N {
		tOff += runOne(off)
		tOn += runOne(on)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tOff.Microseconds())/n/1000, "ms/run-off")
	b.ReportMetric(float64(tOn.Microseconds())/n/1000, "ms/run-on")
	b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
}

// BenchmarkSpansOfARun measures what the telemetry of one run costs by
// itself: the spans and metrics of a run, a server start and five calls,
// with tracing off and on (exported in batches to a local endpoint).
func BenchmarkSpansOfARun(b *testing.B) {
	for _, traced := range []bool{false, true} {
		name := "off"
		if traced {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			a := benchAgg(b, nil, traced)
			e := a.entries[0]
			mod := &loaded{entry: e, toolView: &toolView{tools: map[string]*checkedTool{"add": nil}, denied: map[string]string{}}}
			hook := a.startHook(e)
			msg := runner.Message{Type: runner.TypeCall, Server: "test", Tool: "add", Args: []byte(`{"a":1,"b":2}`)}
			refused := errors.New("refused")
			b.ReportAllocs()
			for b.Loop() {
				ctx, span := a.startRun(context.Background(), "0123456789abcdef", Request{Code: "x", Session: "cli"})
				_, ended := hook(ctx)
				ended(nil)
				s := &runState{a: a, id: "0123456789abcdef", mods: map[string]*loaded{"test": mod}}
				for i := range 5 {
					_, cs := a.tracer().Start(ctx, spanCall)
					var err error
					if i == 4 {
						err = refused
					}
					s.observeCall(cs, msg, time.Millisecond, []byte(`{"sum":3}`), err)
				}
				a.endRun(span, Result{Servers: []string{"test"}, Calls: 5}, true, time.Second)
			}
		})
	}
}
