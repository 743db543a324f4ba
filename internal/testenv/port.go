package testenv

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"testing"
)

// FreePort returns a loopback TCP port that was free a moment ago, for a
// process the test starts next that takes its port on the command line.
//
// It picks from outside the kernel's ephemeral range
// (net.ipv4.ip_local_port_range). Every outgoing connection on the machine
// takes a port from that range, and so does every listener on port 0, so
// a port found there can be taken by another test package's connection in
// the seconds before the process binds it (code-server once failed with
// EADDRINUSE that way). Outside it, only another explicit bind can.
func FreePort(t testing.TB) int {
	t.Helper()
	lo, hi := 32768, 60999 // Linux's default range
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		var l, h int
		if n, _ := fmt.Sscan(string(b), &l, &h); n == 2 && l > 0 && l <= h {
			lo, hi = l, h
		}
	}
	// Candidates: from 10000 up to the range, and from above it to 65535.
	var spans [][2]int
	if lo > 10001 {
		spans = append(spans, [2]int{10000, lo - 1})
	}
	if hi < 65000 {
		spans = append(spans, [2]int{hi + 1, 65535})
	}
	for range 100 {
		if len(spans) == 0 {
			break
		}
		s := spans[rand.IntN(len(spans))]
		port := s[0] + rand.IntN(s[1]-s[0]+1)
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue // taken: try another
		}
		ln.Close()
		return port
	}
	// No room outside the range, or all tries were taken: let the kernel pick.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
