// Package safefile reads files that someone else may have put in place: a
// config file in a cloned repository, in a home directory, named by a flag.
// It reads only regular files, never blocks on a FIFO or a device, and
// never holds more than a stated number of bytes.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

var (
	// ErrNotRegular is returned for a FIFO, a device, a socket or a
	// directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is returned for a file over the limit.
	ErrTooLarge = errors.New("file too large")
	// ErrSymlink is returned by ReadNoFollow for a symbolic link.
	ErrSymlink = errors.New("a symbolic link")
)

// Read returns the contents of the regular file at path, of at most max
// bytes. It opens the file without blocking (a FIFO would otherwise wait
// for a writer), checks what it opened rather than what the path named
// before (so a file swapped for a FIFO in between is refused too), and
// reads at most max+1 bytes. Errors wrap fs.ErrNotExist when the file is
// missing, ErrNotRegular, or ErrTooLarge.
func Read(path string, max int64) ([]byte, error) {
	data, _, err := read(path, max, 0)
	return data, err
}

// ReadNoFollow is Read for a file that is about to be replaced: it also
// refuses a symbolic link at path (ErrSymlink, with where it points), so
// that what is read, backed up and replaced is the file at path itself,
// and it returns the file's permission bits with its contents.
func ReadNoFollow(path string, max int64) ([]byte, fs.FileMode, error) {
	data, mode, err := read(path, max, syscall.O_NOFOLLOW)
	if errors.Is(err, syscall.ELOOP) {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			return nil, 0, fmt.Errorf("%s: %w (to %s)", path, ErrSymlink, target)
		}
	}
	return data, mode, err
}

func read(path string, max int64, flags int) ([]byte, fs.FileMode, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|flags, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(fi.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, 0, err
	}
	if int64(len(data)) > max {
		return nil, 0, fmt.Errorf("%s: %w: over %d bytes", path, ErrTooLarge, max)
	}
	return data, fi.Mode().Perm(), nil
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
