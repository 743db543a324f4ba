// Package safefile reads files that someone else may have put in place: a
// config file in a cloned repository, in a home directory, named by a flag.
// It reads only regular files, never blocks on a FIFO or a device, and
// never holds more than a stated number of bytes.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

var (
	// ErrNotRegular is returned for a FIFO, a device, a socket or a
	// directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is returned for a file over the limit.
	ErrTooLarge = errors.New("file too large")
)

// Read returns the contents of the regular file at path, of at most max
// bytes. It opens the file without blocking (a FIFO would otherwise wait
// for a writer), checks what it opened rather than what the path named
// before (so a file swapped for a FIFO in between is refused too), and
// reads at most max+1 bytes. Errors wrap fs.ErrNotExist when the file is
// missing, ErrNotRegular, or ErrTooLarge.
func Read(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(fi.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w: over %d bytes", path, ErrTooLarge, max)
	}
	return data, nil
}

func kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0, m&os.ModeCharDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}
