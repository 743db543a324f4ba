package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// MaxLineBytes bounds a line the reader takes: a record is at most
// MaxRecordBytes, so a longer line is none of them. It is skipped, with a
// note, without being held whole.
const MaxLineBytes = 64 << 10

// Entry is one record as read back: the fields of both kinds (zero where
// its kind has none), and the line it was read from.
type Entry struct {
	Line        []byte    `json:"-"`
	Time        time.Time `json:"time"`
	Kind        string    `json:"kind"`
	Run         string    `json:"run"`
	Session     string    `json:"session"`
	Remote      string    `json:"remote"`
	Server      string    `json:"server"` // calls
	Tool        string    `json:"tool"`
	ArgBytes    int       `json:"arg_bytes"`
	ArgSHA256   string    `json:"arg_sha256"`
	ResultBytes int       `json:"result_bytes"`
	Servers     []string  `json:"servers"` // runs
	CodeBytes   int       `json:"code_bytes"`
	Calls       int       `json:"calls"`
	ExitCode    int       `json:"exit_code"`
	Outcome     string    `json:"outcome"` // both
	Reason      string    `json:"reason"`
	DurationMS  float64   `json:"duration_ms"`
}

// Files returns the paths of the log's files in dir, oldest first:
// FileName.N, ..., FileName.1, FileName. Files that are missing are left
// out; a missing dir has none.
func Files(dir string) ([]string, error) {
	nums, err := rotated(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	slices.Sort(nums)
	var out []string
	for _, n := range slices.Backward(nums) {
		out = append(out, filepath.Join(dir, FileName+"."+strconv.Itoa(n)))
	}
	cur := filepath.Join(dir, FileName)
	if _, err := os.Lstat(cur); err == nil {
		out = append(out, cur)
	}
	return out, nil
}

// ReadOptions say which records Read gives and for how long.
type ReadOptions struct {
	// Since leaves out the records made before it (and does not read the
	// rotated files last written before it).
	Since time.Time
	// Follow keeps reading as the log grows, across rotations, until ctx
	// ends (then Read returns nil).
	Follow bool
	// Poll is how often a followed log is looked at (default 200ms).
	Poll time.Duration
	// Note, if set, is told of what was skipped: a line over MaxLineBytes,
	// one that is not a record, a record cut short.
	Note func(string)
}

// Read gives fn each record of the log in dir, oldest first, the rotated
// files' included. It stops at fn's first error and returns it.
func Read(ctx context.Context, dir string, opts ReadOptions, fn func(Entry) error) error {
	if opts.Poll <= 0 {
		opts.Poll = 200 * time.Millisecond
	}
	rd := &reader{opts: opts, fn: fn}
	path := filepath.Join(dir, FileName)
	var cur *tail // the file named FileName when last looked at, followed
	defer func() {
		if cur != nil {
			cur.f.Close()
		}
	}()
	// after is the file read last, once it has been rotated: the files to
	// read next are those newer than it (more than one when the log
	// rotated more than once since it was last looked at).
	var after os.FileInfo
	first := true
	for {
		if !first {
			if cur != nil {
				if err := rd.drain(cur); err != nil {
					return err
				}
			}
			fi, err := os.Lstat(path)
			switch {
			case cur != nil && err == nil && os.SameFile(fi, cur.info):
				if fi.Size() < cur.offset() {
					rd.note(fmt.Sprintf("%s was truncated; reading it again from the start", cur.name()))
					if err := cur.rewind(); err != nil {
						return err
					}
					continue
				}
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(opts.Poll):
				}
				continue
			case cur == nil && err != nil:
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(opts.Poll):
				}
				continue
			case cur != nil:
				// Rotated (or removed): what was written to it is in it
				// now, as no record goes to a file after its rotation.
				if err := rd.drain(cur); err != nil {
					return err
				}
				if err := rd.flush(cur); err != nil {
					return err
				}
				cur.f.Close()
				after, cur = cur.info, nil
			}
		}
		since := time.Time{}
		if first {
			since = opts.Since
		}
		files, err := openAll(dir, since, after)
		if err != nil {
			return err
		}
		for i, t := range files {
			if ctx.Err() != nil {
				for _, t := range files[i:] {
					t.f.Close()
				}
				return nil
			}
			err := rd.drain(t)
			if err == nil && opts.Follow && t.path == path {
				cur = t
				continue
			}
			if err == nil {
				err = rd.flush(t)
			}
			t.f.Close()
			after = t.info
			if err != nil {
				for _, t := range files[i+1:] {
					t.f.Close()
				}
				return err
			}
		}
		if !opts.Follow {
			return nil
		}
		first = false
	}
}

// openAll opens the log's files, oldest first, under the shared lock (so
// that no rotation renames them between the listing and the opening):
// those newer than after when it is one of them, else all; and of the
// rotated ones, those last written at since or later.
func openAll(dir string, since time.Time, after os.FileInfo) ([]*tail, error) {
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	switch {
	case err == nil:
		defer lock.Close()
		if err := flock(lock, syscall.LOCK_SH); err != nil {
			return nil, err
		}
		defer func() { _ = flock(lock, syscall.LOCK_UN) }()
	case errors.Is(err, fs.ErrNotExist):
	default:
		return nil, fmt.Errorf("audit log: %w", err)
	}
	paths, err := Files(dir)
	if err != nil {
		return nil, err
	}
	var out []*tail
	for _, p := range paths {
		t, err := openTail(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			for _, t := range out {
				t.f.Close()
			}
			return nil, err
		}
		if after != nil && os.SameFile(t.info, after) {
			// Only what is newer than it.
			for _, t := range out {
				t.f.Close()
			}
			t.f.Close()
			out = nil
			continue
		}
		if filepath.Base(p) != FileName && t.info.ModTime().Before(since) {
			t.f.Close()
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// tail reads one file's lines, bounded, and can go on reading as it grows.
type tail struct {
	path     string
	f        *os.File
	info     os.FileInfo // at opening, to tell when the name is another file's
	r        *bufio.Reader
	pending  []byte // a line not ended yet
	skipping bool   // inside a line over MaxLineBytes
	lineNo   int
}

func openTail(path string) (*tail, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("audit log: %s is not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &tail{path: path, f: f, info: fi, r: bufio.NewReaderSize(f, 16<<10)}, nil
}

func (t *tail) name() string { return filepath.Base(t.path) }

// offset is how far the file has been read.
func (t *tail) offset() int64 {
	off, err := t.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	return off
}

func (t *tail) rewind() error {
	if _, err := t.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	t.r.Reset(t.f)
	t.pending, t.skipping, t.lineNo = nil, false, 0
	return nil
}

// next returns the next whole line (without its newline), or io.EOF when
// none is complete yet: the start of one is kept for the next call. A line
// over MaxLineBytes is skipped (reported through tooLong once).
func (t *tail) next(tooLong func(line int)) ([]byte, error) {
	for {
		chunk, err := t.r.ReadSlice('\n')
		if t.skipping {
			if err == nil {
				t.skipping = false
			}
		} else if len(t.pending)+len(chunk) > MaxLineBytes+1 {
			t.lineNo++
			tooLong(t.lineNo)
			t.pending = t.pending[:0]
			t.skipping = err != nil
		} else {
			t.pending = append(t.pending, chunk...)
			if err == nil {
				t.lineNo++
				line := bytes.TrimSuffix(t.pending, []byte("\n"))
				t.pending = nil
				return line, nil
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("audit log: read %s: %w", t.name(), err)
		}
	}
}

// reader turns lines into entries for fn.
type reader struct {
	opts ReadOptions
	fn   func(Entry) error
}

func (rd *reader) note(s string) {
	if rd.opts.Note != nil {
		rd.opts.Note(s)
	}
}

// drain gives every whole line t has now.
func (rd *reader) drain(t *tail) error {
	for {
		line, err := t.next(func(n int) {
			rd.note(fmt.Sprintf("%s: line %d is over %d bytes, so not an audit record; skipped", t.name(), n, MaxLineBytes))
		})
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := rd.line(t, t.lineNo, line); err != nil {
			return err
		}
	}
}

// flush gives the line t ends with when it ends without a newline (a
// record cut short), once t will not grow any more.
func (rd *reader) flush(t *tail) error {
	if len(t.pending) == 0 {
		return nil
	}
	line := t.pending
	t.pending = nil
	t.lineNo++
	return rd.line(t, t.lineNo, line)
}

// recordStart is how every record begins: a record cut short by a writer
// killed in mid-write has the next record after it on its line.
var recordStart = []byte(`{"time":"`)

func (rd *reader) line(t *tail, n int, line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	e, ok := parse(line)
	if !ok {
		i := bytes.LastIndex(line, recordStart)
		if i > 0 {
			e, ok = parse(line[i:])
		}
		if !ok {
			rd.note(fmt.Sprintf("%s: line %d is not an audit record; skipped", t.name(), n))
			return nil
		}
		rd.note(fmt.Sprintf("%s: line %d starts with a record cut short (its writer was killed mid-write); that part skipped", t.name(), n))
	}
	if e.Time.Before(rd.opts.Since) {
		return nil
	}
	return rd.fn(e)
}

// parse reads one record; ok is false when line is not one.
func parse(line []byte) (Entry, bool) {
	var e Entry
	if json.Unmarshal(line, &e) != nil || e.Time.IsZero() || (e.Kind != KindCall && e.Kind != KindRun) {
		return Entry{}, false
	}
	e.Line = bytes.Clone(line)
	return e, true
}
