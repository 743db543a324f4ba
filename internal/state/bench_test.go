package state

import (
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
)

// BenchmarkSaveMemory is one write, uncontended: a transaction and its
// fsync.
func BenchmarkSaveMemory(b *testing.B) {
	s := openStore(b, DefaultLimits())
	ctx := b.Context()
	value := raw(`{"text":"a value of some size, as a program would save it","n":[1,2,3]}`)
	i := 0
	for b.Loop() {
		if _, err := s.SaveMemory(ctx, "ns", "k"+strconv.Itoa(i%100), value, nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
}

// BenchmarkLoadMemory is one read.
func BenchmarkLoadMemory(b *testing.B) {
	s := openStore(b, DefaultLimits())
	ctx := b.Context()
	if _, err := s.SaveMemory(ctx, "ns", "k", raw(`{"text":"hello"}`), nil); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.LoadMemory(ctx, "ns", "k"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareAndSwapContended is update_memory on one key from 8
// goroutines of one process at once: each op is one increment that
// succeeded, after whatever conflicts it met.
func BenchmarkCompareAndSwapContended(b *testing.B) {
	s := openStore(b, DefaultLimits())
	var conflicts atomic.Int64
	b.SetParallelism(max(1, 8/runtime.GOMAXPROCS(0)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c, err := increment(b.Context(), s, "ns", "counter")
			if err != nil {
				b.Error(err)
				return
			}
			conflicts.Add(int64(c))
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "increments/s")
	b.ReportMetric(float64(conflicts.Load())/float64(b.N), "conflicts/op")
}

// BenchmarkCompareAndSwapAcrossProcesses is update_memory on one key from
// 4 processes at once (b.N increments in all, at least 4 each); the time
// includes starting the processes.
func BenchmarkCompareAndSwapAcrossProcesses(b *testing.B) {
	const procs = 4
	path := filepath.Join(b.TempDir(), FileName)
	times := max(4, b.N/procs)
	b.ResetTimer()
	conflicts := incrementInProcesses(b, path, procs, times)
	b.StopTimer()
	n := procs * times
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "increments/s")
	b.ReportMetric(float64(conflicts)/float64(n), "conflicts/op")
}
