package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

// runSpans are the run_python spans of spans, in the order the runs began,
// and the tool_call spans of each (by the run's span ID).
func runSpans(spans []*tracepb.Span) (runs []*tracepb.Span, calls map[string][]*tracepb.Span) {
	calls = map[string][]*tracepb.Span{}
	for _, s := range spans {
		switch s.Name {
		case "run_python":
			runs = append(runs, s)
		case "tool_call":
			calls[string(s.ParentSpanId)] = append(calls[string(s.ParentSpanId)], s)
		}
	}
	slices.SortFunc(runs, func(a, b *tracepb.Span) int { return int(a.StartTimeUnixNano - b.StartTimeUnixNano) })
	return runs, calls
}

// traceparent is the W3C traceparent of s as a sampled parent.
func traceparent(s *tracepb.Span) string {
	return "00-" + hex.EncodeToString(s.TraceId) + "-" + hex.EncodeToString(s.SpanId) + "-01"
}

// callOf is the tool_call span of calls that called server.
func callOf(t *testing.T, calls []*tracepb.Span, server string) *tracepb.Span {
	t.Helper()
	for _, c := range calls {
		if attrs(c)["mcp_code_mode.server"] == server {
			return c
		}
	}
	t.Fatalf("no tool_call span of server %s among %d", server, len(calls))
	return nil
}

// stopServe ends serve --http with SIGTERM, which flushes its spans.
func stopServe(t *testing.T, p *clitest.Proc) {
	t.Helper()
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.Wait(t, 30*time.Second); code != 0 {
		t.Fatalf("serve exited %d on SIGTERM:\n%s", code, p.Stderr.String())
	}
}

// A run over serve --http whose POST carries traceparent and tracestate
// headers is a child of the client's span, in its trace, with its
// tracestate; its calls are children of the run, and each wrapped server
// gets the traceparent of its call's span (the remote one as a header and
// in _meta, the stdio one in _meta) but not the client's tracestate. When
// _meta and the headers both carry one, _meta's wins. No value the client
// sent is in a span's attributes or in the log, at debug level.
func TestARunOverHTTPJoinsTheTraceOfItsClient(t *testing.T) {
	clitest.NeedEngine(t)
	rcv := newOTLPReceiver(t, "127.0.0.1:0")
	remoteLog := filepath.Join(t.TempDir(), "remote-calls.log")
	remote := clitest.RemoteTestServer(t, "-http", "-name", "remote", "-log", remoteLog)
	f := clitest.NewFixture(t, fmt.Sprintf("[servers.remote]\nurl = %q\n", remote))
	p, mcpURL := f.HTTPServe(t, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL},
		"serve", "--config", f.Config, "--http", "127.0.0.1:PORT", "--log-level=debug")
	c := clitest.HTTPClient(t, mcpURL, f.Auth(t))
	clitest.Initialize(t, c)

	const (
		headerParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
		headerState  = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"
		otherParent  = "00-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbb-01"
		metaParent   = "00-5b8aa5a2d2c872e8321cf37308d69df2-051581bf3cb55c13-01"
	)
	req := mcp.CallToolRequest{Header: http.Header{"Traceparent": {headerParent}, "Tracestate": {headerState}}}
	req.Params.Arguments = map[string]any{"code": "print(await mcp_test.add(a=1, b=2))\nprint(await mcp_remote.add(a=3, b=4))",
		"servers": []string{"test", "remote"}}
	if res := clitest.CallRunPython(t, c, req); res.IsError || res.Structured.Stdout != "{'sum': 3}\n{'sum': 7}\n" {
		t.Fatalf("the run with trace headers: %+v", res)
	}
	req = mcp.CallToolRequest{Header: http.Header{"Traceparent": {otherParent}}}
	req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{"traceparent": metaParent}}
	req.Params.Arguments = map[string]any{"code": "print(1)"}
	if res := clitest.CallRunPython(t, c, req); res.IsError {
		t.Fatalf("the run with _meta and headers: %+v", res)
	}
	_ = c.Close()
	stopServe(t, p)

	_, spans, _, errs := rcv.got()
	if len(errs) > 0 {
		t.Errorf("the receiver refused exports: %v", errs)
	}
	runs, calls := runSpans(spans)
	if len(runs) != 2 {
		t.Fatalf("%d run_python spans, want 2: %v", len(runs), names(spans))
	}
	run := runs[0]
	if got := "00-" + hex.EncodeToString(run.TraceId) + "-" + hex.EncodeToString(run.ParentSpanId) + "-01"; got != headerParent {
		t.Errorf("the first run's trace and parent: %s, want the header's %s", got, headerParent)
	}
	if run.TraceState != headerState {
		t.Errorf("the first run's tracestate: %q, want the header's %q", run.TraceState, headerState)
	}
	if got := "00-" + hex.EncodeToString(runs[1].TraceId) + "-" + hex.EncodeToString(runs[1].ParentSpanId) + "-01"; got != metaParent {
		t.Errorf("the second run's trace and parent: %s, want _meta's %s (not the header's %s)", got, metaParent, otherParent)
	}
	rc := calls[string(run.SpanId)]
	if len(rc) != 2 {
		t.Fatalf("the first run has %d tool_call spans, want 2", len(rc))
	}
	for _, s := range append(slices.Clone(rc), run) {
		if string(s.TraceId) != string(run.TraceId) {
			t.Errorf("span %s is in trace %x, want the client's %x", s.Name, s.TraceId, run.TraceId)
		}
	}
	// Each wrapped server got its call's span as the parent, and nothing of
	// the client's tracestate.
	stdioCall, remoteCall := callOf(t, rc, "test"), callOf(t, rc, "remote")
	recs := clitest.ServerCalls(t, f.Log)
	if len(recs) != 1 || recs[0].MetaTraceparent != traceparent(stdioCall) || recs[0].Traceparent != "" || recs[0].MetaTracestate != "" {
		t.Errorf("the stdio server's call: %+v, want _meta.traceparent %s and no tracestate", recs, traceparent(stdioCall))
	}
	rrecs, err := calllog.Read(remoteLog)
	if err != nil {
		t.Fatal(err)
	}
	if len(rrecs) != 1 || rrecs[0].Traceparent != traceparent(remoteCall) || rrecs[0].MetaTraceparent != traceparent(remoteCall) ||
		rrecs[0].Tracestate != "" || rrecs[0].MetaTracestate != "" {
		t.Errorf("the HTTP server's call: %+v, want the traceparent header and _meta.traceparent %s and no tracestate", rrecs, traceparent(remoteCall))
	}
	// No value the client sent is in an attribute or the log.
	for _, s := range spans {
		text := spanText(s)
		for _, v := range []string{"t61rcWkgMzE", "b7ad6b7169203331", "0af7651916cd43dd", "051581bf3cb55c13"} {
			if strings.Contains(text, v) {
				t.Errorf("span %s holds %s, from the client's trace context: %s", s.Name, v, text)
			}
		}
	}
	for _, v := range []string{"t61rcWkgMzE", "0af7651916cd43dd", "5b8aa5a2d2c872e8", "aaaaaaaaaaaaaaaa"} {
		if strings.Contains(p.Stderr.String(), v) {
			t.Errorf("the log (debug level) holds %s, from the client's trace context:\n%s", v, p.Stderr.String())
		}
	}
}

// A run over stdio whose tools/call carries traceparent and tracestate in
// its _meta is a child of the client's span, in its trace; the stdio server
// it calls gets its call's span as the parent in _meta.
func TestARunOverStdioJoinsTheTraceInItsMeta(t *testing.T) {
	clitest.NeedEngine(t)
	rcv := newOTLPReceiver(t, "127.0.0.1:0")
	f := clitest.NewFixture(t, "")
	f.Env = append(f.Env, "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL)
	c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config)
	const (
		parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		state  = "vendor=opaque-value"
	)
	req := mcp.CallToolRequest{}
	req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{"traceparent": parent, "tracestate": state}}
	req.Params.Arguments = map[string]any{"code": "print(await mcp_test.add(a=2, b=2))", "servers": []string{"test"}}
	if res := clitest.CallRunPython(t, c, req); res.IsError || res.Structured.Stdout != "{'sum': 4}\n" {
		t.Fatalf("the run: %+v", res)
	}
	clitest.CloseServe(t, c, cmd, stderr) // serve flushes its spans as it stops

	_, spans, _, _ := rcv.got()
	runs, calls := runSpans(spans)
	if len(runs) != 1 {
		t.Fatalf("%d run_python spans, want 1: %v", len(runs), names(spans))
	}
	run := runs[0]
	if got := "00-" + hex.EncodeToString(run.TraceId) + "-" + hex.EncodeToString(run.ParentSpanId) + "-01"; got != parent || run.TraceState != state {
		t.Errorf("the run's trace and parent: %s (tracestate %q), want _meta's %s (%q)", got, run.TraceState, parent, state)
	}
	rc := calls[string(run.SpanId)]
	if len(rc) != 1 {
		t.Fatalf("%d tool_call spans under the run, want 1", len(rc))
	}
	if recs := clitest.ServerCalls(t, f.Log); len(recs) != 1 || recs[0].MetaTraceparent != traceparent(rc[0]) || recs[0].MetaTracestate != "" {
		t.Errorf("the server's call: %+v, want _meta.traceparent %s and no tracestate", recs, traceparent(rc[0]))
	}
}

// traceContextCase is a case of testdata/telemetry/trace-context.json.
type traceContextCase struct {
	Name    string              `json:"name"`
	Meta    map[string]any      `json:"meta"`
	Headers map[string][]string `json:"headers"`
	Joins   *struct {
		TraceID string `json:"trace_id"`
		SpanID  string `json:"span_id"`
	} `json:"joins"`
}

// Malformed, oversized and hostile trace context, in _meta and in the HTTP
// headers, is ignored: each run succeeds in a trace of its own (or, for a
// bad tracestate, joins with none), and no part of those values is in a
// span's attributes or in the log.
func TestMalformedTraceContextIsIgnored(t *testing.T) {
	clitest.NeedEngine(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "telemetry", "trace-context.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		HostileTraceID string             `json:"hostile_trace_id"`
		Cases          []traceContextCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &fixture); err != nil {
		t.Fatal(err)
	}
	rcv := newOTLPReceiver(t, "127.0.0.1:0")
	f := clitest.NewFixture(t, "")
	p, mcpURL := f.HTTPServe(t, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL},
		"serve", "--config", f.Config, "--http", "127.0.0.1:PORT", "--log-level=debug")
	c := clitest.HTTPClient(t, mcpURL, f.Auth(t))
	clitest.Initialize(t, c)
	for i, tc := range fixture.Cases {
		req := mcp.CallToolRequest{Header: http.Header{}}
		for k, vs := range tc.Headers {
			req.Header[http.CanonicalHeaderKey(k)] = vs
		}
		if tc.Meta != nil {
			req.Params.Meta = &mcp.Meta{AdditionalFields: tc.Meta}
		}
		req.Params.Arguments = map[string]any{"code": fmt.Sprintf("print(%d)", i)}
		if res := clitest.CallRunPython(t, c, req); res.IsError || res.Structured.Stdout != fmt.Sprintf("%d\n", i) {
			t.Errorf("%s: the run failed: %+v", tc.Name, res)
		}
	}
	_ = c.Close()
	stopServe(t, p)

	_, spans, _, _ := rcv.got()
	runs, _ := runSpans(spans)
	if len(runs) != len(fixture.Cases) {
		t.Fatalf("%d run_python spans, want one per case (%d)", len(runs), len(fixture.Cases))
	}
	for i, tc := range fixture.Cases {
		run := runs[i]
		trace, parent := hex.EncodeToString(run.TraceId), hex.EncodeToString(run.ParentSpanId)
		switch {
		case tc.Joins == nil && (parent != "" || trace == fixture.HostileTraceID):
			t.Errorf("%s: the run is in trace %s with parent %q, want a trace of its own", tc.Name, trace, parent)
		case tc.Joins != nil && (trace != tc.Joins.TraceID || parent != tc.Joins.SpanID || run.TraceState != ""):
			t.Errorf("%s: the run is in trace %s with parent %q, tracestate %q; want %s, %s and none", tc.Name, trace, parent, run.TraceState, tc.Joins.TraceID, tc.Joins.SpanID)
		}
	}
	for _, s := range spans {
		if text := spanText(s); strings.Contains(text, "SENTINEL") || strings.Contains(text, fixture.HostileTraceID) || hex.EncodeToString(s.TraceId) == fixture.HostileTraceID {
			t.Errorf("span %s holds a hostile value or is in the hostile trace: %s", s.Name, text)
		}
	}
	if log := p.Stderr.String(); strings.Contains(log, "SENTINEL") || strings.Contains(log, fixture.HostileTraceID) {
		t.Errorf("the log (debug level) holds a hostile value:\n%s", log)
	}
	if !strings.Contains(p.Stderr.String(), "trace context ignored") {
		t.Errorf("the log (debug level) does not say that trace context was ignored:\n%s", p.Stderr.String())
	}
}

// The calls to a wrapped server over streamable HTTP and over SSE carry
// the traceparent of their tool_call span, as a header and in _meta, when
// tracing is on, and nothing when it is off.
func TestCallsToAWrappedHTTPServerCarryTheirSpansTraceparent(t *testing.T) {
	clitest.NeedEngine(t)
	for _, mode := range []string{"-http", "-sse"} {
		t.Run(strings.TrimPrefix(mode, "-"), func(t *testing.T) {
			rcv := newOTLPReceiver(t, "127.0.0.1:0")
			remoteLog := filepath.Join(t.TempDir(), "remote-calls.log")
			remote := clitest.RemoteTestServer(t, mode, "-name", "remote", "-log", remoteLog)
			kind := "http"
			if mode == "-sse" {
				kind = "sse"
			}
			f := clitest.NewFixture(t, fmt.Sprintf("[servers.remote]\nurl = %q\ntype = %q\n", remote, kind))
			prog := []string{"run", "--config", f.Config, "--servers", "remote", "-c", "print(await mcp_remote.add(a=5, b=6))"}
			on := f.Run(t, "", []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL}, prog...)
			off := f.Run(t, "", nil, prog...)
			if on.Code != 0 || off.Code != 0 || on.Stdout != "{'sum': 11}\n" || off.Stdout != on.Stdout {
				t.Fatalf("the runs: exit %d and %d, stdout %q and %q", on.Code, off.Code, on.Stdout, off.Stdout)
			}
			_, spans, _, _ := rcv.got()
			runs, calls := runSpans(spans)
			if len(runs) != 1 || len(calls[string(runs[0].SpanId)]) != 1 {
				t.Fatalf("spans: %v, want a run and its call", names(spans))
			}
			call := calls[string(runs[0].SpanId)][0]
			recs, err := calllog.Read(remoteLog)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 2 {
				t.Fatalf("the server got %d calls, want 2", len(recs))
			}
			if want := traceparent(call); recs[0].Traceparent != want || recs[0].MetaTraceparent != want {
				t.Errorf("with tracing on the server got traceparent %q and _meta.traceparent %q, want the call's span %s",
					recs[0].Traceparent, recs[0].MetaTraceparent, want)
			}
			if recs[1].Traceparent != "" || recs[1].MetaTraceparent != "" {
				t.Errorf("with tracing off the server got traceparent %q and _meta.traceparent %q, want none", recs[1].Traceparent, recs[1].MetaTraceparent)
			}
		})
	}
}

// What a client's sampled flag decides. Under the default sampler (parent
// based, every root sampled) a run whose client says "not sampled" is not
// exported, and one whose client says "sampled" is; with a ratio sampler
// at 0 a client's "sampled" still makes its run sampled, and only its own;
// with always_on the flag decides nothing.
func TestTheClientsSampledFlagAndTheSampler(t *testing.T) {
	clitest.NeedEngine(t)
	const (
		unsampled = "00-11111111111111111111111111111111-1111111111111111-00"
		sampled   = "00-22222222222222222222222222222222-2222222222222222-01"
	)
	for _, tc := range []struct {
		name string
		env  []string
		want []string // the traces exported, of runs with unsampled, sampled and no traceparent
	}{
		{"default", nil, []string{"22222222222222222222222222222222", "own"}},
		{"parentbased_traceidratio 0", []string{"OTEL_TRACES_SAMPLER=parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG=0"},
			[]string{"22222222222222222222222222222222"}},
		{"always_on", []string{"OTEL_TRACES_SAMPLER=always_on"},
			[]string{"11111111111111111111111111111111", "22222222222222222222222222222222", "own"}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "-"), func(t *testing.T) {
			rcv := newOTLPReceiver(t, "127.0.0.1:0")
			f := clitest.NewFixture(t, "")
			f.Env = append(append(f.Env, "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL), tc.env...)
			c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config)
			for _, parent := range []string{unsampled, sampled, ""} {
				req := mcp.CallToolRequest{}
				if parent != "" {
					req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{"traceparent": parent}}
				}
				req.Params.Arguments = map[string]any{"code": "print(1)"}
				if res := clitest.CallRunPython(t, c, req); res.IsError || res.Structured.Stdout != "1\n" {
					t.Fatalf("the run with traceparent %q: %+v", parent, res)
				}
			}
			clitest.CloseServe(t, c, cmd, stderr)
			_, spans, _, _ := rcv.got()
			runs, _ := runSpans(spans)
			var got []string
			for _, r := range runs {
				id := hex.EncodeToString(r.TraceId)
				if len(r.ParentSpanId) == 0 {
					id = "own"
				}
				got = append(got, id)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("the runs exported: %v, want %v", got, tc.want)
			}
		})
	}
}

// The tools/list a server's start sends carries the traceparent of that
// start's span in its _meta when tracing is on, like the initialize before
// it (the list is sent on the transport directly, so mcp-go's propagators
// do not see it), and nothing when tracing is off.
func TestAStartsToolsListCarriesItsSpansTraceparent(t *testing.T) {
	clitest.NeedEngine(t)
	rcv := newOTLPReceiver(t, "127.0.0.1:0")
	listLog := filepath.Join(t.TempDir(), "lists.log")
	f := clitest.NewFixture(t, fmt.Sprintf("[servers.lister]\ncommand = %q\nargs = [\"-name\", \"lister\", \"-list-log\", %q]\n",
		clitest.TestServer(), listLog))
	prog := []string{"run", "--config", f.Config, "--servers", "lister", "-c", "print(await mcp_lister.add(a=1, b=2))"}
	on := f.Run(t, "", []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL}, prog...)
	off := f.Run(t, "", nil, prog...)
	if on.Code != 0 || off.Code != 0 || on.Stdout != "{'sum': 3}\n" || off.Stdout != on.Stdout {
		t.Fatalf("the runs: exit %d and %d, stdout %q and %q", on.Code, off.Code, on.Stdout, off.Stdout)
	}
	_, spans, _, _ := rcv.got()
	var starts []*tracepb.Span
	for _, s := range spans {
		if s.Name == "server.start" {
			starts = append(starts, s)
		}
	}
	if len(starts) != 1 {
		t.Fatalf("%d server.start spans, want 1: %v", len(starts), names(spans))
	}
	recs, err := calllog.Read(listLog)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Tool != "tools/list" {
		t.Fatalf("the server got %+v, want one tools/list per run", recs)
	}
	if want := traceparent(starts[0]); recs[0].MetaTraceparent != want {
		t.Errorf("with tracing on the tools/list's _meta.traceparent is %q, want the start's span %s", recs[0].MetaTraceparent, want)
	}
	if recs[1].MetaTraceparent != "" {
		t.Errorf("with tracing off the tools/list's _meta.traceparent is %q, want none", recs[1].MetaTraceparent)
	}
}
