package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// FileName is the log's current file in its directory; rotated files are
// FileName.1 (the newest) to FileName.N.
const FileName = "audit.log"

// lockName is the lock file that orders writers and rotation (see Log).
const lockName = "audit.lock"

// Options say where the log is kept and how much of it.
type Options struct {
	Dir string // made (0700) if missing; one that others may read is narrowed to 0700
	// MaxBytes is the size past which the current file is not written: it
	// is rotated first. At least MaxRecordBytes.
	MaxBytes int64
	Keep     int // rotated files kept; 0 keeps none
}

// Log appends records to the audit log. It is safe for concurrent use, and
// several processes may append to one log at once.
//
// How records stay whole: each is one line of at most MaxRecordBytes,
// written with one write(2) on a file opened O_APPEND. The kernel moves to
// the end of the file and writes under the file's lock, so two appends
// never overlap or interleave, within a process or across processes; and
// what write(2) has put in the page cache stays there when the process is
// killed (kill -9 included; a power cut is another matter: nothing is
// fsync'ed). A process killed in the middle of a write that crosses a page
// can leave the start of its record without a newline: the reader finds the
// next record on that line by its opening and reports the cut one.
//
// How rotation stays safe with several writers: every append holds a
// shared flock(2) of the lock file, and checks, under it, that its open
// file is still the one named FileName (same device and inode), reopening
// it if not. The writer that finds the file full takes the lock exclusively
// instead (so no append is in progress anywhere), checks again that it is
// still full (another process may have rotated it meanwhile), and renames
// FileName.N-1 to FileName.N, ..., FileName to FileName.1; the next append
// creates FileName anew. So no record goes into a file after it was
// rotated, and none into a file being removed. A process killed holding the
// lock releases it (the kernel drops the flock with the descriptor); one
// killed between two renames leaves a gap in the numbers, which readers
// ignore.
type Log struct {
	opts Options
	mu   sync.Mutex
	lock *os.File // nil once closed
	f    *os.File // the file appended to; nil until the first record, or after rotation
}

// Open opens the log in opts.Dir, making the directory and lock file.
func Open(opts Options) (*Log, error) {
	if !filepath.IsAbs(opts.Dir) {
		return nil, fmt.Errorf("audit log: the directory must be an absolute path, got %q", opts.Dir)
	}
	if opts.MaxBytes < MaxRecordBytes {
		return nil, fmt.Errorf("audit log: max_bytes must be at least %d, got %d", MaxRecordBytes, opts.MaxBytes)
	}
	if opts.Keep < 0 {
		return nil, fmt.Errorf("audit log: keep must not be negative, got %d", opts.Keep)
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	fi, err := os.Stat(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("audit log: %s is not a directory", opts.Dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(opts.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("audit log: %w", err)
		}
	}
	lock, err := openPrivate(filepath.Join(opts.Dir, lockName), os.O_RDWR)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	return &Log{opts: opts, lock: lock}, nil
}

// openPrivate opens (creating) a regular file of the owner's alone: never
// through a symbolic link, never blocking on a FIFO. A file others may
// read is narrowed to 0600.
func openPrivate(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", path)
	}
	if err == nil && fi.Mode().Perm()&0o077 != 0 {
		err = f.Chmod(0o600)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Call appends the record of a call, cut to the bounds of a record.
// A nil Log records nothing.
func (l *Log) Call(c Call) error {
	if l == nil {
		return nil
	}
	c.Kind = KindCall
	if c.Time.IsZero() {
		c.Time = time.Now()
	}
	c.Time = c.Time.UTC().Truncate(time.Microsecond)
	c.Run, c.Session, c.Remote = cut(c.Run, maxNameBytes), cut(c.Session, maxNameBytes), cut(c.Remote, maxNameBytes)
	c.Server, c.Tool = cut(c.Server, maxNameBytes), cut(c.Tool, maxNameBytes)
	c.Reason = cut(c.Reason, maxReasonBytes)
	if len(c.Arguments) > MaxArgumentBytes || len(c.Arguments) > 0 && !json.Valid(c.Arguments) {
		c.ArgumentsHead, c.Arguments = string(c.Arguments), nil
	}
	c.ArgumentsHead = cut(c.ArgumentsHead, MaxArgumentBytes)
	line, err := encode(&c)
	// Escapes can make a record longer than its fields: it is shrunk,
	// arguments first, until it fits.
	for err == nil && len(line) > MaxRecordBytes {
		switch {
		case c.Arguments != nil:
			c.ArgumentsHead, c.Arguments = string(c.Arguments), nil
		case len(c.ArgumentsHead) > 16:
			c.ArgumentsHead = cut(c.ArgumentsHead, len(c.ArgumentsHead)/2)
		default:
			c.ArgumentsHead = ""
			c.Reason = cut(c.Reason, 100)
			c.Run, c.Session, c.Remote = cut(c.Run, 32), cut(c.Session, 32), cut(c.Remote, 32)
			c.Server, c.Tool = cut(c.Server, 32), cut(c.Tool, 32)
		}
		line, err = encode(&c)
	}
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	return l.append(line)
}

// Run appends the record of a run, cut to the bounds of a record. A nil
// Log records nothing.
func (l *Log) Run(r Run) error {
	if l == nil {
		return nil
	}
	r.Kind = KindRun
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	r.Time = r.Time.UTC().Truncate(time.Microsecond)
	r.Run, r.Session, r.Remote = cut(r.Run, maxNameBytes), cut(r.Session, maxNameBytes), cut(r.Remote, maxNameBytes)
	r.Reason = cut(r.Reason, maxReasonBytes)
	all := r.Servers
	r.Servers = nameServers(all, maxServers, maxNameBytes)
	line, err := encode(&r)
	for n := maxServers / 2; err == nil && len(line) > MaxRecordBytes; n /= 2 {
		r.Reason = cut(r.Reason, 100)
		r.Run, r.Session, r.Remote = cut(r.Run, 32), cut(r.Session, 32), cut(r.Remote, 32)
		r.Servers = nameServers(all, n, 32)
		line, err = encode(&r)
	}
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	return l.append(line)
}

// nameServers keeps the first n names, each cut to size, and counts the
// others in a last entry.
func nameServers(names []string, n, size int) []string {
	more := 0
	if len(names) > n {
		more = len(names) - n
		names = names[:n]
	}
	out := make([]string, 0, len(names)+1)
	for _, s := range names {
		out = append(out, cut(s, size))
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("… and %d more", more))
	}
	return out
}

// encode is v as one line of JSON, without HTML escapes (which would only
// make it longer).
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ErrClosed is returned for records given to a closed Log.
var ErrClosed = errors.New("audit log: closed")

// append writes one line: see Log for why it is safe.
func (l *Log) append(line []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lock == nil {
		return ErrClosed
	}
	if err := flock(l.lock, syscall.LOCK_SH); err != nil {
		return err
	}
	defer func() { _ = flock(l.lock, syscall.LOCK_UN) }()
	size, err := l.current()
	if err != nil {
		return err
	}
	if size > 0 && size+int64(len(line)) > l.opts.MaxBytes {
		// flock turns the shared lock into an exclusive one by letting go
		// of it first: the file is looked at again under the new one.
		if err := flock(l.lock, syscall.LOCK_EX); err != nil {
			return err
		}
		if size, err = l.current(); err != nil {
			return err
		}
		if size > 0 && size+int64(len(line)) > l.opts.MaxBytes {
			if err := l.rotate(); err != nil {
				return err
			}
			if _, err := l.current(); err != nil {
				return err
			}
		}
	}
	return writeOnce(l.f, line)
}

// current makes l.f the file now named FileName (opening or creating it
// when l.f is another, or none) and returns its size.
func (l *Log) current() (int64, error) {
	path := filepath.Join(l.opts.Dir, FileName)
	if l.f != nil {
		fi, err := l.f.Stat()
		named, nerr := os.Lstat(path)
		if err == nil && nerr == nil && os.SameFile(fi, named) {
			return fi.Size(), nil
		}
		l.f.Close()
		l.f = nil
	}
	f, err := openPrivate(path, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return 0, fmt.Errorf("audit log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, fmt.Errorf("audit log: %w", err)
	}
	l.f = f
	return fi.Size(), nil
}

// rotate renames the files one number up, FileName to FileName.1, and
// removes those past Keep. It runs under the exclusive lock.
func (l *Log) rotate() error {
	dir := l.opts.Dir
	name := func(i int) string {
		if i == 0 {
			return filepath.Join(dir, FileName)
		}
		return filepath.Join(dir, FileName+"."+strconv.Itoa(i))
	}
	files, err := rotated(dir)
	if err != nil {
		return err
	}
	for _, n := range files {
		if n >= l.opts.Keep {
			if err := os.Remove(name(n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("audit log: rotate: %w", err)
			}
		}
	}
	for i := l.opts.Keep - 1; i >= 0; i-- {
		if err := os.Rename(name(i), name(i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("audit log: rotate: %w", err)
		}
	}
	if l.opts.Keep == 0 {
		if err := os.Remove(name(0)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("audit log: rotate: %w", err)
		}
	}
	l.f.Close()
	l.f = nil
	return nil
}

// rotated lists the numbers of the rotated files in dir, in no order.
func rotated(dir string) ([]int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	var out []int
	for _, e := range ents {
		if rest, ok := strings.CutPrefix(e.Name(), FileName+"."); ok {
			if n, err := strconv.Atoi(rest); err == nil && n > 0 && strconv.Itoa(n) == rest {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// writeOnce writes b with a single write(2): os.File.Write would write
// again after a short write, and the rest of a record written apart from
// its start could land after another process's record.
func writeOnce(f *os.File, b []byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	var n int
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for {
			n, werr = syscall.Write(int(fd), b)
			if !errors.Is(werr, syscall.EINTR) {
				return true
			}
		}
	})
	switch {
	case err != nil:
		return fmt.Errorf("audit log: %w", err)
	case werr != nil:
		return fmt.Errorf("audit log: write: %w", werr)
	case n != len(b):
		return fmt.Errorf("audit log: write: %d of %d bytes written", n, len(b))
	}
	return nil
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			if err != nil {
				return fmt.Errorf("audit log: lock: %w", err)
			}
			return nil
		}
	}
}

// Close closes the log; records given after are refused with ErrClosed.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	if l.f != nil {
		errs = append(errs, l.f.Close())
		l.f = nil
	}
	if l.lock != nil {
		errs = append(errs, l.lock.Close())
		l.lock = nil
	}
	return errors.Join(errs...)
}
