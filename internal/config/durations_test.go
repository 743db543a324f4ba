package config

import (
	"testing"
	"time"
)

// Every duration key takes a plain number as seconds, as the README says:
// max_call_timeout = 120 is two minutes, not 120 nanoseconds.
func TestEveryDurationKeyTakesSeconds(t *testing.T) {
	p := writeConfig(t, "c.toml", `[limits]
deadline = 100
call_timeout = 20
max_call_timeout = 120
server_idle = 300
connect_timeout = 45

[search.embeddings]
url = "http://localhost:11434"
model = "m"
timeout = 3
`)
	cfg, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := cfg.Limits
	got := []time.Duration{l.Deadline, l.CallTimeout, l.MaxCallTimeout, l.ServerIdle, l.ConnectTimeout, cfg.Search.Embeddings.Timeout}
	want := []time.Duration{100 * time.Second, 20 * time.Second, 120 * time.Second, 300 * time.Second, 45 * time.Second, 3 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("duration %d = %v, want %v", i, got[i], want[i])
		}
	}
}
