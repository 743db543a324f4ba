package aggregator

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Admission to the run slots. A run is running from when it takes one of
// the limits.concurrent_runs slots (runSem) until its answer: its sandbox
// and servers start, its program runs, all within its slot. A run is
// waiting from when it finds every slot taken until it gets one, gives up
// after its deadline or is cancelled. When limits.queue runs are waiting
// already, a new run is refused at once as busy, with a time to retry
// after estimated from how long recent runs held their slot.

// admission is what deciding on a run needs beyond the slots themselves.
type admission struct {
	waiting atomic.Int64 // runs waiting for a slot

	mu   sync.Mutex
	held [32]time.Duration // how long the last runs held their slot (a ring)
	n    int               // holds recorded; the next goes to held[n%len(held)]
}

// busyError is a run refused because every slot was taken and the queue
// was full.
type busyError struct {
	slots, waiting int
	retryAfter     int // seconds, at least 1
}

func (e *busyError) Error() string {
	return fmt.Sprintf("the server is busy: all %d run slots are taken and the queue of %d waiting runs is full (limits.queue); retry after %d s",
		e.slots, e.waiting, e.retryAfter)
}

// slot waits for one of the run slots, for at most wait, and returns the
// function that gives it back. It fails at once with a *busyError when
// limits.queue runs are waiting already.
func (a *Aggregator) slot(ctx context.Context, wait time.Duration) (release func(), err error) {
	took := func() func() {
		began := time.Now()
		return func() {
			a.admit.record(time.Since(began))
			<-a.runSem
		}
	}
	select {
	case a.runSem <- struct{}{}:
		return took(), nil
	default:
	}
	if a.admit.waiting.Add(1) > int64(a.cfg.Limits.Queue) {
		waiting := int(a.admit.waiting.Add(-1))
		return nil, &busyError{slots: cap(a.runSem), waiting: waiting, retryAfter: a.admit.retryAfter(cap(a.runSem), waiting)}
	}
	defer a.admit.waiting.Add(-1)
	queued := time.NewTimer(wait)
	defer queued.Stop()
	select {
	case a.runSem <- struct{}{}:
		return took(), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("the run was cancelled while waiting for one of the %d run slots", cap(a.runSem))
	case <-queued.C:
		return nil, fmt.Errorf("the run waited %v for one of the %d run slots and gave up", wait, cap(a.runSem))
	}
}

// record notes that a run held its slot for d.
func (q *admission) record(d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.held[q.n%len(q.held)] = d
	q.n++
}

// retryAfter estimates in whole seconds (at least 1) when a run refused
// now would get a slot: the waiting runs and it need waiting+1 slots to
// free, and the slots free at one per median hold of the recent runs
// divided by slots (one second per run before any has ended).
func (q *admission) retryAfter(slots, waiting int) int {
	q.mu.Lock()
	recent := slices.Clone(q.held[:min(q.n, len(q.held))])
	q.mu.Unlock()
	typical := time.Second
	if len(recent) > 0 {
		slices.Sort(recent)
		typical = recent[len(recent)/2]
	}
	secs := math.Ceil(float64(waiting+1) * typical.Seconds() / float64(max(1, slots)))
	return max(1, int(secs))
}
