package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO, a device, a directory and an oversized file are refused at once,
// without blocking and without reading past the limit.
func TestReadRefusesWhatIsNotARegularFileOfBoundedSize(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "mcp.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.json")
	if err := os.WriteFile(ok, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(ok, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want error
		text string
	}{
		{fifo, ErrNotRegular, "a FIFO"},
		{"/dev/zero", ErrNotRegular, "a device"},
		{dir, ErrNotRegular, "a directory"},
		{big, ErrTooLarge, "over 100 bytes"},
		{filepath.Join(dir, "missing.json"), fs.ErrNotExist, ""},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() { _, err := Read(tt.path, 100); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("Read(%s) = %v, want %v (%q)", tt.path, err, tt.want, tt.text)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Read(%s) blocked", tt.path)
		}
	}
	for _, p := range []string{ok, link} {
		if b, err := Read(p, 100); err != nil || string(b) != "{}" {
			t.Errorf("Read(%s) = %q, %v; want {}", p, b, err)
		}
	}
}

// A file about to be replaced is read only if it is the file at the path
// itself: a symbolic link is refused, saying where it points, and so is
// what Read refuses.
func TestReadNoFollowRefusesASymbolicLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.json")
	if err := os.WriteFile(target, []byte("{}"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadNoFollow(link, 100); !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), target) {
		t.Errorf("ReadNoFollow(link) = %v, want ErrSymlink naming %s", err, target)
	}
	if _, _, err := ReadNoFollow(fifo, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadNoFollow(fifo) = %v, want ErrNotRegular", err)
	}
	b, mode, err := ReadNoFollow(target, 100)
	if err != nil || string(b) != "{}" || mode != 0o640 {
		t.Errorf("ReadNoFollow(target) = %q, %v, %v; want {}, 0640", b, mode, err)
	}
}
