package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// prometheusBin is Debian's Prometheus server (make test installs it).
const prometheusBin = "/usr/bin/prometheus"

// promQuery asks the Prometheus at base for the instant vector of query,
// and returns each series' labels (as label=value text) and value.
func promQuery(t *testing.T, base, query string) (map[string]float64, error) {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(query))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Status string `json:"status"`
		Data   struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&out); err != nil {
		return nil, err
	}
	if out.Status != "success" {
		return nil, fmt.Errorf("query %s: status %q", query, out.Status)
	}
	got := map[string]float64{}
	for _, r := range out.Data.Result {
		var keys []string
		for k, v := range r.Metric {
			if k != "instance" && k != "job" && k != "__name__" {
				keys = append(keys, k+"="+v)
			}
		}
		s, _ := r.Value[1].(string)
		v, _ := strconv.ParseFloat(s, 64)
		slices.Sort(keys)
		got[strings.Join(keys, ",")] = v
	}
	return got, nil
}

// Debian's Prometheus scrapes serve --http's /metrics with the bearer
// token and sees the runs and calls a client made, by outcome, with the
// names a program made up under one label value; a scrape without the
// token is refused (the target is down), as a request is.
func TestPrometheusScrapesServesMetricsBehindTheToken(t *testing.T) {
	clitest.NeedEngine(t)
	if _, err := os.Stat(prometheusBin); err != nil {
		testenv.SkipOrFail(t, "%s is missing (apt-get install prometheus; make test installs it): %v", prometheusBin, err)
	}
	f := clitest.NewFixture(t, "deny = [\"env\"]\n")
	_, mcpURL := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT")
	metricsURL := strings.TrimSuffix(mcpURL, "/mcp") + "/metrics"
	target := strings.TrimPrefix(strings.TrimSuffix(mcpURL, "/mcp"), "http://")

	// Without the token (or with a wrong one), no metrics.
	for _, auth := range []string{"", "Bearer wrong"} {
		req, _ := http.NewRequest(http.MethodGet, metricsURL, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || strings.Contains(string(body), "mcp_code_mode_") {
			t.Errorf("GET /metrics with %q: %d %q, want 401 and no metrics", auth, resp.StatusCode, body)
		}
	}

	c := clitest.HTTPClient(t, mcpURL, f.Auth(t))
	clitest.Initialize(t, c)
	prog := `from mcp import runtime
print(await mcp_test.echo(message="m"))
for name in ["env", "made-up-1", "made-up-2"]:
    try:
        await runtime.call_tool("test", name, {})
    except ToolError:
        pass
try:
    await runtime.call_tool("nosuchserver", "made-up-3", {})
except ToolError:
    pass
`
	for i := range 2 {
		if res := clitest.RunPython(t, c, map[string]any{"code": prog, "servers": []string{"test"}}); res.IsError || res.Structured.Calls != 5 {
			t.Fatalf("run %d: %+v", i, res.Structured)
		}
	}
	if res := clitest.RunPython(t, c, map[string]any{"code": "1/0"}); !res.IsError {
		t.Fatalf("the failing run did not fail: %+v", res.Structured)
	}

	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	f.Write(t, tokenFile, f.HTTPToken(t))
	cfg := fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: mcm
    static_configs: [{targets: [%q]}]
    authorization:
      credentials_file: %s
  - job_name: mcm-no-token
    static_configs: [{targets: [%q]}]
`, target, tokenFile, target)
	cfgFile := filepath.Join(dir, "prometheus.yml")
	f.Write(t, cfgFile, cfg)
	port := testenv.FreePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	prom := exec.CommandContext(ctx, prometheusBin, "--config.file", cfgFile, "--storage.tsdb.path", filepath.Join(dir, "tsdb"),
		"--web.listen-address", fmt.Sprintf("127.0.0.1:%d", port))
	var promLog testenv.Buffer
	prom.Stdout, prom.Stderr = &promLog, &promLog
	prom.Cancel = func() error { return prom.Process.Signal(syscall.SIGTERM) }
	prom.WaitDelay = 10 * time.Second
	if err := prom.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = prom.Wait()
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)

	want := map[string]map[string]float64{
		`up{job="mcm"}`:                       {"": 1},
		`up{job="mcm-no-token"}`:              {"": 0},
		`mcp_code_mode_runs_total{job="mcm"}`: {"outcome=ok": 2, "outcome=error": 1},
		`mcp_code_mode_tool_calls_total{job="mcm"}`: {
			"outcome=ok,server=test,tool=echo":          2,
			"outcome=refused,server=test,tool=env":      2,
			"outcome=refused,server=test,tool=_other":   4,
			"outcome=refused,server=_other,tool=_other": 2,
		},
		`mcp_code_mode_server_starts_total{job="mcm"}`:                               {"server=test": 1},
		`sum(mcp_code_mode_tool_call_duration_seconds_count{job="mcm"}) by (server)`: {"server=test": 8, "server=_other": 2},
		`mcp_code_mode_pool_ready_containers{job="mcm"} >= 0`:                        {"": -1}, // present, any value
		`mcp_code_mode_run_duration_seconds_count{job="mcm"}`:                        {"": 3},
		`go_goroutines{job="mcm"} > 0`:                                               {"": -1},
	}
	var last map[string]string
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		last = map[string]string{}
		for q, w := range want {
			got, err := promQuery(t, base, q)
			if err != nil {
				last[q] = err.Error()
				continue
			}
			if !matches(got, w) {
				last[q] = fmt.Sprint(got)
			}
		}
		if len(last) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus did not show the expected values within 90s; mismatches: %v\nprometheus log:\n%s", last, clitest.Clip(promLog.String(), 3000))
		}
	}
	// The scrape without the token failed for the reason of a request without it.
	resp, err := http.Get(base + "/api/v1/targets")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if !strings.Contains(string(body), "401 Unauthorized") {
		t.Errorf("the target without the token should be down with 401 Unauthorized: %s", body)
	}
}

// matches reports whether got has exactly the series of want with their
// values; a value of -1 matches any.
func matches(got, want map[string]float64) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || w != -1 && g != w {
			return false
		}
	}
	return true
}

// With --no-auth /metrics is open like /mcp, and like it refuses a request
// whose Host is not this server's (DNS rebinding).
func TestWithNoAuthMetricsAreOpenLikeTheEndpoint(t *testing.T) {
	f := clitest.NewFixture(t, "")
	_, mcpURL := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT", "--no-auth")
	metricsURL := strings.TrimSuffix(mcpURL, "/mcp") + "/metrics"
	for host, want := range map[string]int{"": http.StatusOK, "attacker.example": http.StatusForbidden} {
		req, _ := http.NewRequest(http.MethodGet, metricsURL, nil)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if resp.StatusCode != want || (want == http.StatusOK) != strings.Contains(string(body), "mcp_code_mode_pool_ready_containers") {
			t.Errorf("GET /metrics (Host %q): %d, want %d; body %s", host, resp.StatusCode, want, clitest.Clip(string(body), 300))
		}
	}
}
