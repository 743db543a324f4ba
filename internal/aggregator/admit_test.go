package aggregator

import (
	"testing"
	"time"
)

func TestRetryAfterFollowsRecentRunDurations(t *testing.T) {
	var q admission
	if got := q.retryAfter(2, 0); got != 1 {
		t.Errorf("no run ended yet, one slot to free of 2: retry after %d s, want 1", got)
	}
	if got := q.retryAfter(2, 5); got != 3 {
		t.Errorf("no run ended yet, 6 slots to free of 2 (a second a run): retry after %d s, want 3", got)
	}
	for _, d := range []time.Duration{time.Second, 4 * time.Second, 4 * time.Second, 30 * time.Second, 4 * time.Second} {
		q.record(d)
	}
	// The median hold is 4 s: 2 runs to get through on 2 slots.
	if got := q.retryAfter(2, 1); got != 4 {
		t.Errorf("retry after %d s, want 4", got)
	}
	for range 40 { // the ring keeps the recent ones only
		q.record(100 * time.Millisecond)
	}
	if got := q.retryAfter(8, 0); got != 1 {
		t.Errorf("short runs: retry after %d s, want at least 1", got)
	}
	if got := q.retryAfter(1, 29); got != 3 {
		t.Errorf("30 runs of 0.1 s on one slot: retry after %d s, want 3", got)
	}
}
