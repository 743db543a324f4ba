package aggregator

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/mcp-code-mode/mcp-code-mode/internal/tail"
)

// output keeps the head and the tail of what the program prints, and
// signals once when it passes the stop threshold.
type output struct {
	max, stopAt int
	head        bytes.Buffer
	tail        tail.Buffer
	total       int
	stop        chan struct{}
	mu          sync.Mutex
}

func newOutput(maxBytes, stopAt int) *output {
	return &output{max: maxBytes, stopAt: stopAt, tail: tail.Buffer{Max: maxBytes - maxBytes/2}, stop: make(chan struct{})}
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	before := o.total
	o.total += len(p)
	if room := o.max/2 - o.head.Len(); room > 0 {
		o.head.Write(p[:min(room, len(p))])
	}
	o.tail.Write(p)
	if before <= o.stopAt && o.total > o.stopAt {
		close(o.stop)
	}
	return len(p), nil
}

// result returns the kept output and whether some was cut.
func (o *output) result() (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.total <= o.max {
		all := o.head.String() + o.tail.String()[max(0, o.head.Len()+o.tail.Len()-o.total):]
		return strings.ToValidUTF8(all, "\uFFFD"), false
	}
	cut := o.total - o.head.Len() - o.tail.Len()
	s := o.head.String() + fmt.Sprintf("\n[... %d bytes of output not shown ...]\n", cut) + o.tail.String()
	return strings.ToValidUTF8(s, "\uFFFD"), true
}
