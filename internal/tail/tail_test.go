package tail

import (
	"fmt"
	"sync"
	"testing"
)

func TestBufferKeepsTheLastBytes(t *testing.T) {
	b := &Buffer{Max: 4}
	for _, s := range []string{"ab", "cdef", "g"} {
		if _, err := b.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.String(); got != "defg" || b.Len() != 4 {
		t.Fatalf("kept %q, want %q", got, "defg")
	}
	var zero Buffer
	_, _ = zero.Write([]byte("x"))
	if zero.String() != "" {
		t.Fatalf("the zero Buffer kept %q", zero.String())
	}
}

func TestBufferConcurrentWrites(t *testing.T) {
	b := &Buffer{Max: 10}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { fmt.Fprintf(b, "%d", i) })
	}
	wg.Wait()
	if n := len(b.String()); n != 8 {
		t.Fatalf("kept %d bytes of 8 written", n)
	}
}
