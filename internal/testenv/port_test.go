package testenv

import (
	"fmt"
	"net"
	"os"
	"testing"
)

// TestFreePortOutsideEphemeralRange checks that FreePort's ports are free
// and lie outside the range the kernel hands to outgoing connections and
// port-0 listeners, where another package's connection could take them.
func TestFreePortOutsideEphemeralRange(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		t.Skipf("no ephemeral port range to check against: %v", err)
	}
	var lo, hi int
	if _, err := fmt.Sscan(string(b), &lo, &hi); err != nil {
		t.Fatalf("ip_local_port_range %q: %v", b, err)
	}
	if lo <= 10001 && hi >= 65000 {
		t.Skipf("the ephemeral range %d-%d leaves no room outside it", lo, hi)
	}
	seen := map[int]bool{}
	for range 20 {
		p := FreePort(t)
		if p >= lo && p <= hi {
			t.Errorf("port %d is in the ephemeral range %d-%d", p, lo, hi)
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			t.Errorf("port %d is not free: %v", p, err)
			continue
		}
		ln.Close()
		seen[p] = true
	}
	if len(seen) < 10 {
		t.Errorf("20 calls gave only %d distinct ports: %v", len(seen), seen)
	}
}
