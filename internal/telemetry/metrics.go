package telemetry

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Other is the label value of every server or tool name that is not a
// configured server or one of its tools: a program can make names up, and
// each would otherwise be a series of its own.
const Other = "_other"

// Metrics are the Prometheus metrics of one server, in a registry of its
// own (with the Go and process collectors). A nil *Metrics records nothing.
type Metrics struct {
	reg           *prometheus.Registry
	runs          *prometheus.CounterVec
	runSeconds    prometheus.Histogram
	calls         *prometheus.CounterVec
	callSeconds   *prometheus.HistogramVec
	waits         prometheus.Counter
	waitSeconds   prometheus.Histogram
	starts        *prometheus.CounterVec
	startFailures *prometheus.CounterVec
}

// namespace prefixes every metric name.
const namespace = "mcp_code_mode"

// PoolState is what the warm pool of sandbox containers holds now.
type PoolState struct {
	Ready  int // started and waiting for a program
	InUse  int // handed out to runs and not yet removed
	Target int // how many the pool keeps started now (between limits.warm and limits.warm_max)
}

// NewMetrics returns the metrics of a server; pool, if not nil, tells what
// the warm pool holds.
func NewMetrics(pool func() PoolState) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.runs = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "runs_total",
		Help: "Runs of run_python that ended, by outcome (ok, error, stopped, busy)."}, []string{"outcome"})
	m.runSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace, Name: "run_duration_seconds",
		Help:    "How long runs took, from the request to the answer.",
		Buckets: []float64{0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}})
	m.calls = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "tool_calls_total",
		Help: "Tool calls programs made through the bridge, by server, tool and outcome (ok, refused, error, timeout, cancelled); names that are not a configured server's tools are " + Other + "."},
		[]string{"server", "tool", "outcome"})
	m.callSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "tool_call_duration_seconds",
		Help:    "How long tool calls took, refused ones included, by server.",
		Buckets: []float64{0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120}}, []string{"server"})
	m.waits = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "pool_waits_total",
		Help: "Runs that found no warm sandbox container ready and waited for one to start."})
	m.waitSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace, Name: "pool_wait_seconds",
		Help:    "How long runs that found no warm container waited for one to start.",
		Buckets: []float64{0.1, 0.25, 0.5, 1, 2, 5, 10, 30}})
	m.starts = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "server_starts_total",
		Help: "Starts of wrapped servers, by server (failed ones included)."}, []string{"server"})
	m.startFailures = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "server_start_failures_total",
		Help: "Starts of wrapped servers that failed, by server."}, []string{"server"})
	m.reg.MustRegister(m.runs, m.runSeconds, m.calls, m.callSeconds, m.waits, m.waitSeconds, m.starts, m.startFailures,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if pool != nil {
		for _, g := range []struct {
			name, help string
			value      func(PoolState) int
		}{
			{"pool_ready_containers", "Sandbox containers started and waiting for a program.", func(p PoolState) int { return p.Ready }},
			{"pool_in_use_containers", "Sandbox containers handed out to runs and not yet removed.", func(p PoolState) int { return p.InUse }},
			{"pool_target_containers", "How many sandbox containers the warm pool keeps started now (it grows while runs wait, up to limits.warm_max).", func(p PoolState) int { return p.Target }},
		} {
			m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Name: g.name, Help: g.help},
				func() float64 { return float64(g.value(pool())) }))
		}
	}
	return m
}

// Handler serves the metrics in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, MaxRequestsInFlight: 4, Timeout: 10 * time.Second})
}

// Run records a run that ended with outcome after took.
func (m *Metrics) Run(outcome string, took time.Duration) {
	if m == nil {
		return
	}
	m.runs.WithLabelValues(outcome).Inc()
	m.runSeconds.Observe(took.Seconds())
}

// Call records a tool call. The caller bounds the labels: server and tool
// are a configured server and one of its tools, or Other.
func (m *Metrics) Call(server, tool, outcome string, took time.Duration) {
	if m == nil {
		return
	}
	m.calls.WithLabelValues(server, tool, outcome).Inc()
	m.callSeconds.WithLabelValues(server).Observe(took.Seconds())
}

// Acquire records how a run got its sandbox container: a warm one, or one
// started for it after took.
func (m *Metrics) Acquire(warm bool, took time.Duration) {
	if m == nil || warm {
		return
	}
	m.waits.Inc()
	m.waitSeconds.Observe(took.Seconds())
}

// ServerStart records a start of the configured server; failed says
// whether it failed.
func (m *Metrics) ServerStart(server string, failed bool) {
	if m == nil {
		return
	}
	m.starts.WithLabelValues(server).Inc()
	if failed {
		m.startFailures.WithLabelValues(server).Inc()
	}
}
