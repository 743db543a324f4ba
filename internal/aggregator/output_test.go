package aggregator

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

func stopped(o *output) bool {
	select {
	case <-o.stop:
		return true
	default:
		return false
	}
}

func marker(n int) string { return fmt.Sprintf("\n[... %d bytes of output not shown ...]\n", n) }

func TestOutputResult(t *testing.T) {
	const alpha = "0123456789abcdefghijklmnopqrstuvwxyz"
	tests := []struct {
		name      string
		max       int
		writes    []string
		want      string
		truncated bool
	}{
		{"nothing", 16, nil, "", false},
		{"short kept whole", 16, []string{"hello\n"}, "hello\n", false},
		{"short in pieces", 16, []string{"ab", "cd", "", "ef"}, "abcdef", false},
		{"just over half", 16, []string{alpha[:9]}, alpha[:9], false},
		{"total == max in one write", 16, []string{alpha[:16]}, alpha[:16], false},
		{"total == max in pieces", 16, []string{alpha[:3], alpha[3:7], alpha[7:8], alpha[8:13], alpha[13:16]}, alpha[:16], false},
		{"total == max-1", 16, []string{alpha[:15]}, alpha[:15], false},
		{"max+1 cuts one byte", 16, []string{alpha[:17]}, alpha[:8] + marker(1) + alpha[9:17], true},
		{"max+1 in pieces", 16, []string{alpha[:5], alpha[5:12], alpha[12:17]}, alpha[:8] + marker(1) + alpha[9:17], true},
		{"long keeps head and tail", 16, []string{alpha}, alpha[:8] + marker(20) + alpha[28:], true},
		{"many small writes", 10, strings.Split(alpha, ""), alpha[:5] + marker(26) + alpha[31:], true},
		{"odd max under", 5, []string{"abcd"}, "abcd", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := newOutput(tt.max, 1<<20)
			total := 0
			for _, w := range tt.writes {
				n, err := o.Write([]byte(w))
				if n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", w, n, err, len(w))
				}
				total += n
			}
			got, truncated := o.result()
			if got != tt.want || truncated != tt.truncated {
				t.Errorf("after %d bytes with max %d: result() = %q, %v; want %q, %v", total, tt.max, got, truncated, tt.want, tt.truncated)
			}
			if !truncated && got != strings.Join(tt.writes, "") {
				t.Errorf("not truncated, but result %q differs from what was written", got)
			}
		})
	}
}

var markerRE = regexp.MustCompile(`(?s)^(.*)\n\[\.\.\. (\d+) bytes of output not shown \.\.\.\]\n(.*)$`)

// checkOutputInvariants writes total bytes in chunks of size chunk and
// checks the result: whole when it fits in max, else a head and a tail that
// together keep exactly max bytes, with the right count of bytes cut.
func checkOutputInvariants(t *testing.T, max, total, chunk int) {
	t.Helper()
	in := make([]byte, total)
	for i := range in {
		in[i] = 'a' + byte(i%26)
	}
	o := newOutput(max, 1<<20)
	for i := 0; i < total; i += chunk {
		_, _ = o.Write(in[i:min(i+chunk, total)])
	}
	got, truncated := o.result()
	if total <= max {
		if got != string(in) || truncated {
			t.Errorf("max %d, %d bytes in chunks of %d: result() = %q, %v; want all of %q, false", max, total, chunk, got, truncated, in)
		}
		return
	}
	m := markerRE.FindStringSubmatch(got)
	if m == nil || !truncated {
		t.Fatalf("max %d, %d bytes: result() = %q, %v; want head, marker, tail and true", max, total, got, truncated)
	}
	head, tail := m[1], m[3]
	var cut int
	_, _ = fmt.Sscan(m[2], &cut)
	if !strings.HasPrefix(string(in), head) || !strings.HasSuffix(string(in), tail) {
		t.Errorf("max %d, %d bytes: head %q / tail %q are not the start / end of the output", max, total, head, tail)
	}
	if len(head)+len(tail) != max || len(head)+cut+len(tail) != total {
		t.Errorf("max %d, %d bytes: kept %d+%d bytes and reported %d cut; want %d kept and %d in all", max, total, len(head), len(tail), cut, max, total)
	}
}

func TestOutputInvariants(t *testing.T) {
	for max := 2; max <= 12; max += 2 {
		for total := 0; total <= 3*max; total++ {
			for _, chunk := range []int{1, 3, total + 1} {
				checkOutputInvariants(t, max, total, chunk)
			}
		}
	}
}

// With an odd max the head and the tail together keep max-1 bytes, so an
// output of exactly max bytes loses its middle byte while reported whole.
func TestOutputOddMax(t *testing.T) {
	for max := 1; max <= 13; max += 2 {
		for total := 0; total <= 3*max; total++ {
			for _, chunk := range []int{1, 3, total + 1} {
				checkOutputInvariants(t, max, total, chunk)
			}
		}
	}
}

func TestOutputStop(t *testing.T) {
	tests := []struct {
		name      string
		stopAt    int
		writes    []int // sizes
		stoppedAt int   // index of the write after which stop is closed; -1 never
	}{
		{"never reached", 10, []int{3, 3, 3}, -1},
		{"exactly at stopAt does not stop", 10, []int{5, 5}, -1},
		{"one past stopAt stops", 10, []int{5, 5, 1}, 2},
		{"writes after stop do not close again", 10, []int{11, 1, 100, 0, 5}, 0},
		{"one write jumps far past", 10, []int{2, 1000, 3}, 1},
		{"crossing in the middle of a write", 10, []int{9, 2}, 1},
		{"empty writes at stopAt", 10, []int{10, 0, 0}, -1},
		{"stopAt zero stops on first byte", 0, []int{0, 1}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := newOutput(8, tt.stopAt)
			if stopped(o) {
				t.Fatal("stop closed before any write")
			}
			for i, n := range tt.writes {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("write %d of %d bytes panicked (stop closed twice?): %v", i, n, r)
						}
					}()
					_, _ = o.Write([]byte(strings.Repeat("x", n)))
				}()
				want := tt.stoppedAt >= 0 && i >= tt.stoppedAt
				if got := stopped(o); got != want {
					t.Fatalf("after write %d (total %d, stopAt %d): stopped = %v, want %v", i, o.total, tt.stopAt, got, want)
				}
			}
		})
	}
}

func TestOutputStopConcurrent(t *testing.T) {
	o := newOutput(64, 1000)
	var wg sync.WaitGroup
	panics := make(chan any, 100)
	for range 100 {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					panics <- r
				}
			}()
			_, _ = o.Write([]byte(strings.Repeat("y", 50)))
		})
	}
	wg.Wait()
	close(panics)
	for p := range panics {
		t.Errorf("concurrent write panicked: %v", p)
	}
	if !stopped(o) {
		t.Error("5000 bytes written with stopAt 1000, but stop is not closed")
	}
	got, truncated := o.result()
	if !truncated || got != strings.Repeat("y", 32)+marker(5000-64)+strings.Repeat("y", 32) {
		t.Errorf("result() = %q, %v; want 32 y, the marker for 4936 bytes, 32 y", got, truncated)
	}
}

func TestOutputUTF8Repair(t *testing.T) {
	const euro = "€" // 3 bytes
	tests := []struct {
		name      string
		max       int
		in        string
		want      string
		truncated bool
	}{
		// head keeps "abc" and the first byte of €
		{"head cut in a rune", 8, "abc" + euro + strings.Repeat("-", 20) + "wxyz", "abc\uFFFD" + marker(22) + "wxyz", true},
		// tail keeps the last byte of € and "xyz"
		{"tail cut in a rune", 8, "abcd" + strings.Repeat("-", 20) + euro + "xyz", "abcd" + marker(22) + "\uFFFDxyz", true},
		{"both cut", 8, "abc" + euro + strings.Repeat("-", 10) + euro + "xyz", "abc\uFFFD" + marker(14) + "\uFFFDxyz", true},
		{"whole multibyte kept", 16, "héllo " + euro, "héllo " + euro, false},
		{"invalid bytes printed are repaired", 16, "a\xffb\xfe", "a\uFFFDb\uFFFD", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := newOutput(tt.max, 1<<20)
			_, _ = o.Write([]byte(tt.in))
			got, truncated := o.result()
			if !utf8.ValidString(got) {
				t.Errorf("result() = %q is not valid UTF-8", got)
			}
			if got != tt.want || truncated != tt.truncated {
				t.Errorf("result() = %q, %v; want %q, %v", got, truncated, tt.want, tt.truncated)
			}
		})
	}
}
