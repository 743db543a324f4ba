package testenv_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// An engine killed and started again at once comes back: Kill waits for
// the old containerd to be gone (exited, which takes a while under load,
// and reaped, which some machines' init does seconds late), so the new
// dockerd does not take it for a running containerd.
func TestAKilledEngineStartsAgainAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second Docker engine")
	}
	d := testenv.StartDockerd(t, testenv.DockerdOptions{})
	for range 2 {
		d.Kill()
		d.Start() // fails the test, with dockerd's log, when it exits at start
	}
	sock := strings.TrimPrefix(d.Host, "unix://")
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	defer hc.CloseIdleConnections()
	resp, err := hc.Get("http://docker/_ping")
	if err != nil {
		t.Fatalf("the restarted engine does not answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the restarted engine answers %s", resp.Status)
	}
}
