// Package tail keeps the end of a stream: the last bytes written, for
// output kept as head and tail, and for what a process said last.
package tail

import (
	"bytes"
	"sync"
)

// Buffer keeps the last Max bytes written to it. It is safe for concurrent
// use; the zero value keeps nothing.
type Buffer struct {
	Max int

	mu  sync.Mutex
	buf bytes.Buffer
}

// Write keeps the end of p, dropping what falls out of the last Max bytes.
func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.Max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

// Len is the number of bytes kept.
func (t *Buffer) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.Len()
}

// String returns the bytes kept.
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
