package sandbox

import (
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// waitWarm waits until every engine of p is usable with its pool full.
func waitWarm(b testing.TB, p *Provider) {
	b.Helper()
	if err := p.Connect(b.Context()); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		full := true
		p.mu.Lock()
		for _, m := range p.members {
			full = full && m.state == usable && ready(m.pool) >= p.warm.Min
		}
		p.mu.Unlock()
		if full {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("the pools did not fill within 3 minutes: %+v", p.Engines())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Throughput of runs (a container from the pool, a program through the
// runner's protocol, the container removed) from 8 clients at once, with
// one engine and with two (the shared engine and a second dockerd on the
// same machine), measured side by side in alternating rounds:
//
//	go test ./internal/sandbox -run '^$' -bench BenchmarkThroughputOneEngineAgainstTwo -benchtime 1x
func BenchmarkThroughputOneEngineAgainstTwo(b *testing.B) {
	const clients, perClient, rounds, warm = 8, 8, 3, 2
	e1 := testEngine(b)
	defaultImageOn(b, e1)
	d2 := testenv.StartDockerd(b, testenv.DockerdOptions{})
	e2, err := Dial(b.Context(), d2.Host)
	if err != nil {
		b.Fatal(err)
	}
	defer e2.Close()
	copyImage(b, e1, e2)
	configs := []struct {
		name  string
		hosts []string
	}{
		{"one engine", []string{e1.Host()}},
		{"two engines", []string{e1.Host(), d2.Host}},
	}
	b.ResetTimer()
	for b.Loop() {
		elapsed := make([]time.Duration, len(configs))
		for range rounds {
			for i, c := range configs {
				p := NewProvider(c.hosts, DefaultSpec(), Warming{Min: warm, Max: warm}, nil)
				waitWarm(b, p)
				began := time.Now()
				runConcurrently(b, p, clients*perClient, clients)
				elapsed[i] += time.Since(began)
				p.Close()
			}
		}
		runs := float64(rounds * clients * perClient)
		one, two := runs/elapsed[0].Seconds(), runs/elapsed[1].Seconds()
		b.ReportMetric(one, "runs/s-one-engine")
		b.ReportMetric(two, "runs/s-two-engines")
		b.ReportMetric(two/one, "ratio")
	}
	noContainersLeft(b, e1)
	noContainersLeft(b, e2)
}
