package main

import (
	"compress/gzip"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// otlpReceiver is an OTLP/HTTP trace receiver: it decodes each export as
// the collector does (protobuf, gzip or not) and keeps its spans.
type otlpReceiver struct {
	URL string // http://127.0.0.1:PORT

	mu       sync.Mutex
	requests int
	headers  []http.Header
	services []string
	spans    []*tracepb.Span
	errs     []string
}

// newOTLPReceiver listens on addr ("127.0.0.1:0" for any port) until the
// test ends.
func newOTLPReceiver(t *testing.T, addr string) *otlpReceiver {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("OTLP receiver: %v", err)
	}
	r := &otlpReceiver{URL: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: r}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return r
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
		r.errs = append(r.errs, fmt.Sprintf("%s %s (%s)", req.Method, req.URL.Path, req.Header.Get("Content-Type")))
		http.Error(w, "not an OTLP/HTTP protobuf trace export", http.StatusBadRequest)
		return
	}
	var body io.Reader = http.MaxBytesReader(w, req.Body, 8<<20)
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(body)
		if err != nil {
			r.errs = append(r.errs, err.Error())
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(io.LimitReader(body, 32<<20))
	var msg coltrace.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(raw, &msg)
	}
	if err != nil {
		r.errs = append(r.errs, err.Error())
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.headers = append(r.headers, req.Header.Clone())
	for _, rs := range msg.ResourceSpans {
		for _, kv := range rs.GetResource().GetAttributes() {
			if kv.Key == "service.name" {
				r.services = append(r.services, kv.Value.GetStringValue())
			}
		}
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// got returns what the receiver has: the requests, spans and services.
func (r *otlpReceiver) got() (requests int, spans []*tracepb.Span, services []string, errs []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests, slices.Clone(r.spans), slices.Clone(r.services), slices.Clone(r.errs)
}

// attrs are a span's attributes as text.
func attrs(s *tracepb.Span) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes {
		m[kv.Key] = anyValue(kv.Value)
	}
	return m
}

func anyValue(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return fmt.Sprint(x.IntValue)
	case *commonpb.AnyValue_BoolValue:
		return fmt.Sprint(x.BoolValue)
	case *commonpb.AnyValue_ArrayValue:
		var parts []string
		for _, e := range x.ArrayValue.Values {
			parts = append(parts, anyValue(e))
		}
		return strings.Join(parts, ",")
	}
	return v.String()
}

// spanText is everything a span carries as text: its name, attributes,
// status and events.
func spanText(s *tracepb.Span) string {
	var b strings.Builder
	b.WriteString(s.Name + " " + s.GetStatus().GetMessage())
	for k, v := range attrs(s) {
		b.WriteString(" " + k + "=" + v)
	}
	for _, e := range s.Events {
		b.WriteString(" " + e.Name)
		for _, kv := range e.Attributes {
			b.WriteString(" " + kv.Key + "=" + anyValue(kv.Value))
		}
	}
	return b.String()
}

const traceSecret = "tok-SENTINEL-secret-77"

// The spans of a real run reach a real OTLP/HTTP receiver when the
// standard variables name it: the run's, its container's, its server's
// start and each call's, children of the run's span, with the outcomes of
// the audit log; no argument value and no configured secret is in any of
// them. A hostile program tries to put them there.
func TestARunsSpansReachTheOTLPEndpointWithoutArgumentsOrSecrets(t *testing.T) {
	clitest.NeedEngine(t)
	rcv := newOTLPReceiver(t, "127.0.0.1:0")
	f := clitest.NewFixture(t, "deny = [\"env\"]\n[servers.test.env]\nAPI_TOKEN = \""+traceSecret+"\"\n")
	prog, err := filepath.Abs(filepath.Join("testdata", "telemetry", "hostile.py"))
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL, "OTEL_EXPORTER_OTLP_HEADERS=x-collector-key=k123",
		"OTEL_SERVICE_NAME=mcm-under-test"}
	r := f.Run(t, "", env, "run", "--config", f.Config, prog, "--servers", "test")
	if r.Code != 1 || !strings.Contains(r.Stdout, "ok: ") || !strings.Contains(r.Stderr, "ValueError") {
		t.Fatalf("the hostile program: exit %d (want 1, its ValueError)\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	// run flushes its spans before it exits: they are all here now.
	_, spans, services, errs := rcv.got()
	if len(errs) > 0 {
		t.Errorf("the receiver refused exports: %v", errs)
	}
	if len(services) == 0 || slices.ContainsFunc(services, func(s string) bool { return s != "mcm-under-test" }) {
		t.Errorf("service.name of the exports: %v, want mcm-under-test (OTEL_SERVICE_NAME)", services)
	}
	rcv.mu.Lock()
	for _, h := range rcv.headers {
		if h.Get("X-Collector-Key") != "k123" {
			t.Errorf("an export without the header of OTEL_EXPORTER_OTLP_HEADERS: %v", h)
		}
	}
	rcv.mu.Unlock()

	byName := map[string][]*tracepb.Span{}
	for _, s := range spans {
		byName[s.Name] = append(byName[s.Name], s)
		if text := spanText(s); strings.Contains(text, "SENTINEL") {
			t.Errorf("span %s holds an argument value or the secret: %s", s.Name, text)
		}
	}
	if len(byName["run_python"]) != 1 {
		t.Fatalf("%d run_python spans, want 1; spans: %v", len(byName["run_python"]), names(spans))
	}
	run := byName["run_python"][0]
	ra := attrs(run)
	if len(ra["mcp_code_mode.run.id"]) != 16 || ra["mcp_code_mode.session"] != "cli" || ra["mcp_code_mode.servers"] != "test" ||
		ra["mcp_code_mode.outcome"] != "error" || ra["mcp_code_mode.exit_code"] != "1" || ra["mcp_code_mode.calls"] != "6" {
		t.Errorf("the run's span: %v", ra)
	}
	if run.GetStatus().GetCode() != tracepb.Status_STATUS_CODE_ERROR || run.GetStatus().GetMessage() != "the program raised ValueError" {
		t.Errorf("the run's status: %v", run.GetStatus())
	}
	if len(run.ParentSpanId) != 0 {
		t.Errorf("the run's span has a parent: %x", run.ParentSpanId)
	}
	childOf := func(s, parent *tracepb.Span) bool {
		return string(s.TraceId) == string(parent.TraceId) && string(s.ParentSpanId) == string(parent.SpanId)
	}
	acq := byName["sandbox.acquire"]
	if len(acq) != 1 || !childOf(acq[0], run) || attrs(acq[0])["mcp_code_mode.container"] != "fresh" {
		t.Fatalf("the acquire span: %v (want one, a child of the run, of a fresh container)", acq)
	}
	if st := byName["sandbox.start"]; len(st) != 1 || !childOf(st[0], acq[0]) {
		t.Errorf("the container's start span: %v (want one, a child of the acquire span)", st)
	}
	ss := byName["server.start"]
	if len(ss) != 1 || !childOf(ss[0], run) {
		t.Fatalf("server start spans: %v (want one, a child of the run)", ss)
	}
	if a := attrs(ss[0]); a["mcp_code_mode.server"] != "test" || a["mcp_code_mode.transport"] != "stdio" || a["mcp_code_mode.outcome"] != "ok" {
		t.Errorf("the server start span: %v", a)
	}
	want := []struct{ server, tool, outcome string }{
		{"test", "echo", "ok"},
		{"test", "env", "refused"},
		{"test", "fail", "error"},
		{"test", "sleep", "timeout"},
		{"test", "[redacted]", "refused"},
		{"nosuchserver", "x", "refused"},
	}
	calls := byName["tool_call"]
	slices.SortFunc(calls, func(a, b *tracepb.Span) int { return int(a.StartTimeUnixNano - b.StartTimeUnixNano) })
	if len(calls) != len(want) {
		t.Fatalf("%d tool_call spans, want %d: %v", len(calls), len(want), names(spans))
	}
	for i, w := range want {
		c := calls[i]
		a := attrs(c)
		if !childOf(c, run) || a["mcp_code_mode.server"] != w.server || a["mcp_code_mode.tool"] != w.tool || a["mcp_code_mode.outcome"] != w.outcome ||
			a["mcp_code_mode.run.id"] != ra["mcp_code_mode.run.id"] {
			t.Errorf("call %d: parent %s, %v; want a child of the run %s, %+v", i, hex.EncodeToString(c.ParentSpanId), a, hex.EncodeToString(run.SpanId), w)
		}
		if (w.outcome == "ok") != (c.GetStatus().GetCode() != tracepb.Status_STATUS_CODE_ERROR) {
			t.Errorf("call %d (%s): status %v", i, w.outcome, c.GetStatus())
		}
	}
}

func names(spans []*tracepb.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

// A collector that refuses connections neither fails nor stops a run: the
// spans are dropped, the output and the exit status are the run's.
func TestARunSucceedsWhenTheOTLPEndpointRefusesConnections(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	port := testenv.FreePort(t) // nothing listens there
	for _, protocol := range []string{"http/protobuf", "grpc"} {
		t.Run(strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			env := []string{fmt.Sprintf("OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:%d", port), "OTEL_EXPORTER_OTLP_PROTOCOL=" + protocol}
			r := f.Run(t, "", env, "run", "--config", f.Config, "--servers", "test", "-c", "print(await mcp_test.add(a=2, b=3))")
			if r.Code != 0 || r.Stdout != "{'sum': 5}\n" {
				t.Errorf("run with an unreachable collector: exit %d, stdout %q, stderr %s", r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}

// Without an OTEL_EXPORTER_OTLP_*ENDPOINT variable nothing is exported:
// a receiver on the default endpoint (127.0.0.1:4318) gets no request, even
// with the other OTEL_* variables set; and none with OTEL_SDK_DISABLED=true
// either, whatever the endpoint.
func TestNoSpansAreExportedUnlessAnEndpointIsSet(t *testing.T) {
	clitest.NeedEngine(t)
	ln, err := net.Listen("tcp", "127.0.0.1:4318")
	if err != nil {
		t.Skipf("the default OTLP/HTTP port is taken (%v): this test needs it free", err)
	}
	ln.Close()
	rcv := newOTLPReceiver(t, "127.0.0.1:4318")
	f := clitest.NewFixture(t, "")
	for _, env := range [][]string{
		{"OTEL_SERVICE_NAME=mcm", "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_TRACES_SAMPLER=always_on"},
		{"OTEL_SDK_DISABLED=true", "OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL},
		{"OTEL_TRACES_EXPORTER=none", "OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL},
	} {
		r := f.Run(t, "", env, "run", "--config", f.Config, "--servers", "test", "-c", "print(await mcp_test.add(a=1, b=1))")
		if r.Code != 0 || r.Stdout != "{'sum': 2}\n" {
			t.Errorf("run with %v: exit %d, stdout %q, stderr %s", env, r.Code, r.Stdout, r.Stderr)
		}
	}
	if n, spans, _, _ := rcv.got(); n != 0 {
		t.Errorf("%d requests reached the default endpoint (%d spans), want none", n, len(spans))
	}
	// The receiver works: with the endpoint named, the same run reaches it.
	r := f.Run(t, "", []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + rcv.URL + "/v1/traces"}, "run", "--config", f.Config, "-c", "print(1)")
	if n, spans, _, _ := rcv.got(); r.Code != 0 || n == 0 || len(spans) == 0 {
		t.Errorf("with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: exit %d, %d requests, %d spans; want the run's spans", r.Code, n, len(spans))
	}
}

// An OTLP protocol that is not supported stops run with an error that
// names the supported ones.
func TestAnUnsupportedOTLPProtocolIsAClearError(t *testing.T) {
	f := clitest.NewFixture(t, "")
	r := f.Run(t, "", []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL=http/json"},
		"run", "--config", f.Config, "-c", "print(1)")
	if r.Code == 0 || !strings.Contains(r.Stderr, `OTEL_EXPORTER_OTLP_PROTOCOL="http/json" is not supported: use http/protobuf or grpc`) {
		t.Errorf("exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// serve --http exports the spans of its runs and flushes those not yet sent
// when it stops; a run that finds a warm container says so in its acquire
// span (and starts none: no sandbox.start span).
func TestServeFlushesItsSpansWhenItStops(t *testing.T) {
	clitest.NeedEngine(t)
	rcv := newOTLPReceiver(t, "127.0.0.1:0")
	f := clitest.NewFixture(t, "")
	// Batches wait a minute: only the flush at the stop sends them.
	env := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL, "OTEL_BSP_SCHEDULE_DELAY=60000"}
	p, mcpURL := f.HTTPServe(t, env, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT")
	metricsURL := strings.TrimSuffix(mcpURL, "/mcp") + "/metrics"
	auth := f.Auth(t)
	// Wait for the pool to have a warm container, as its gauge says.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, metricsURL, nil)
		req.Header.Set("Authorization", auth["Authorization"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if regexp.MustCompile(`(?m)^mcp_code_mode_pool_ready_containers [1-9]`).Match(body) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no warm container within 60s:\n%s", clitest.Clip(string(body), 2000))
		}
	}
	c := clitest.HTTPClient(t, mcpURL, auth)
	clitest.Initialize(t, c)
	if res := clitest.RunPython(t, c, map[string]any{"code": "print(await mcp_test.add(a=1, b=2))", "servers": []string{"test"}}); res.IsError {
		t.Fatalf("run: %+v", res.Structured)
	}
	_ = c.Close()
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.Wait(t, 30*time.Second); code != 0 {
		t.Fatalf("serve exited %d on SIGTERM:\n%s", code, p.Stderr.String())
	}
	_, spans, _, errs := rcv.got()
	if len(errs) > 0 {
		t.Errorf("the receiver refused exports: %v", errs)
	}
	count := map[string]int{}
	var acquire *tracepb.Span
	for _, s := range spans {
		count[s.Name]++
		if s.Name == "sandbox.acquire" {
			acquire = s
		}
	}
	if count["run_python"] != 1 || count["tool_call"] != 1 || count["server.start"] != 1 || acquire == nil || count["sandbox.start"] != 0 {
		t.Fatalf("spans after serve stopped: %v; want a run, a call, a server start, an acquire and no sandbox.start", count)
	}
	if a := attrs(acquire); a["mcp_code_mode.container"] != "warm" {
		t.Errorf("the acquire span: %v, want a warm container", a)
	}
}
