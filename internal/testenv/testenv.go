// Package testenv gates tests on what their environment offers, as Go's own
// internal/testenv does for the standard library.
//
// A test whose prerequisite is missing (a container engine, node, the pinned
// npm servers, a gVisor runtime) calls [SkipOrFail]: it skips with a message
// on a developer's machine, and fails under CI=true, where every
// prerequisite is set up and a skip would hide a broken setup.
//
// The security tests are run again on other engines (make test-gvisor,
// .ci/podman.sh). A test declares the runs it belongs to with [Engines]; the
// package's TestMain runs its tests through [Run], which under
// MCM_TEST_SUITE runs the marked tests only.
//
// Its own tests also check that every test the README names exists where
// the README says.
//
// Nothing here imports the project's own packages, so the tests of every
// package, internal/sandbox's included, can use it.
package testenv

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// CI reports whether the tests run under CI (CI=true), where a missing
// prerequisite fails a test instead of skipping it.
func CI() bool { return os.Getenv("CI") == "true" }

// SkipOrFail skips the test with the message, or fails it under CI. It
// does not return.
func SkipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	if CI() {
		t.Fatalf("%s (CI=true: a missing prerequisite fails the test)", fmt.Sprintf(format, args...))
	}
	t.Skipf(format, args...)
}

// CopyTree copies the directory tree from (regular files and directories)
// to to, for a test that must work on a copy of a fixture.
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Buffer is a bytes.Buffer safe for a writer and readers at once: a log or
// a process's output that a test reads while it is being written.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what has been written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
