// Package state keeps, on the host, what programs remember between runs:
// memories (a key's JSON value, with optional metadata, its times and a
// version) and saved tools (a name's Python source and description). The
// sandbox is read-only; a program reaches this store only through the
// bridge, which decides the namespace each call works in (one per OS user,
// one per HTTP client, ...). Namespaces are isolated completely: nothing in
// one is seen, counted or changed from another.
//
// Everything is kept in one SQLite database file (pure Go, no cgo), which
// several processes may use at once: two serve processes and a CLI run can
// share it. A write that returned without an error survives the process
// being killed and the machine losing power.
//
//	st, err := state.Open(ctx, path, state.DefaultLimits())
//	if err != nil { ... }
//	defer st.Close()
//	v, err := st.SaveMemory(ctx, "user:alice", "greeting", json.RawMessage(`"hello"`), nil)
//	m, err := st.LoadMemory(ctx, "user:alice", "greeting") // m.Value, m.Version == v
//	_, err = st.CompareAndSwapMemory(ctx, "user:alice", "greeting", m.Version, json.RawMessage(`"hi"`))
//	if errors.Is(err, state.ErrConflict) { ... } // written meanwhile: load again, retry
//
// Every write is checked against [Limits] first; one that would pass a
// limit returns a [*LimitError] and writes nothing.
package state

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Limits bound what one namespace may keep. [DefaultLimits] documents the
// defaults; every field must be positive. A write that does not make a
// namespace larger (an update to a smaller value, a delete) is allowed even
// when the namespace is over a limit that was lowered since.
type Limits struct {
	MaxValueBytes           int   // one memory's value, as compact JSON with non-ASCII characters escaped (see [Memory])
	MaxMetadataBytes        int   // one memory's metadata, in the same form
	MaxNamespaceBytes       int64 // all of a namespace: keys, values, metadata, tool names, sources and descriptions
	MaxKeys                 int   // memories in a namespace
	MaxTools                int   // saved tools in a namespace
	MaxToolSourceBytes      int   // one saved tool's source
	MaxToolDescriptionBytes int   // one saved tool's description
	MaxNameBytes            int   // a memory key or a tool name, in bytes of UTF-8
}

// DefaultLimits returns the default limits: values of 192 KiB, metadata of
// 16 KiB, 64 MiB, 10,000 memories and 1,000 saved tools per namespace, tool
// sources of 192 KiB, descriptions of 4 KiB, and keys and names of 256
// bytes.
func DefaultLimits() Limits {
	return Limits{
		MaxValueBytes:           192 << 10,
		MaxMetadataBytes:        16 << 10,
		MaxNamespaceBytes:       64 << 20,
		MaxKeys:                 10_000,
		MaxTools:                1_000,
		MaxToolSourceBytes:      192 << 10,
		MaxToolDescriptionBytes: 4 << 10,
		MaxNameBytes:            256,
	}
}

func (l Limits) check() error {
	if l.MaxValueBytes <= 0 || l.MaxMetadataBytes <= 0 || l.MaxNamespaceBytes <= 0 || l.MaxKeys <= 0 ||
		l.MaxTools <= 0 || l.MaxToolSourceBytes <= 0 || l.MaxToolDescriptionBytes <= 0 || l.MaxNameBytes <= 0 {
		return fmt.Errorf("state limits must all be positive: %+v", l)
	}
	return nil
}

// FileName is the name of the database file in its directory.
const FileName = "state.db"

// DefaultPath is where the database is kept unless the caller says
// otherwise: $XDG_DATA_HOME/mcp-code-mode/state.db, or
// ~/.local/share/mcp-code-mode/state.db when XDG_DATA_HOME is unset or not
// an absolute path (as the XDG base directory specification says). It is
// data, not state that may be lost: the programs' memories and tools.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "mcp-code-mode", FileName), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("state database path: %w", err)
	}
	return filepath.Join(home, ".local", "share", "mcp-code-mode", FileName), nil
}

const (
	// busyTimeout is how long SQLite waits for another connection's (or
	// process's) lock before a statement fails with SQLITE_BUSY; the wait
	// also ends when the call's context is done.
	busyTimeout = 5 * time.Second
	// busyAttempts bounds the tries of one operation that keeps failing
	// with SQLITE_BUSY (each after up to busyTimeout of waiting).
	busyAttempts = 5
	// maxConns bounds the connections one Store keeps open.
	maxConns = 4
	// maxNamespaceBytes bounds a namespace's name.
	maxNamespaceBytes = 512
)

// Store is one open state database. It is safe for concurrent use by
// several goroutines, and other processes may use the same file at once.
type Store struct {
	db     *sql.DB
	path   string
	limits Limits
	// writer holds this process's one write at a time: writers of one
	// process wait here, in order and with their contexts, rather than in
	// SQLite's sleeping busy handler.
	writer chan struct{}
}

// Open opens the database at path, creating it (mode 0600) and its
// directory (0700) when missing, and brings its schema up to date. The
// database stays usable by other processes while it is open. Close it when
// done.
func Open(ctx context.Context, path string, limits Limits) (*Store, error) {
	if err := limits.check(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("state database %q: %w", path, err)
	}
	if err := prepareFile(abs); err != nil {
		return nil, fmt.Errorf("state database %s: %w", abs, err)
	}
	db, err := sql.Open("sqlite", dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("state database %s: %w", abs, err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxIdleTime(time.Minute)
	s := &Store{db: db, path: abs, limits: limits, writer: make(chan struct{}, 1)}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("state database %s: %w", abs, err)
	}
	return s, nil
}

// Path is the database file's absolute path.
func (s *Store) Path() string { return s.path }

// Close closes the database. Calls in progress fail; none may start after.
func (s *Store) Close() error { return s.db.Close() }

// prepareFile creates the database's directory (0700) and file (0600), so
// that SQLite, which creates files 0644 and gives its -wal and -shm files
// the database file's mode, never makes one others can read. A file kept
// from before with a wider mode is narrowed to 0600, as are its -wal and
// -shm files.
func prepareFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	// O_NONBLOCK: a FIFO in its place must not hang the open.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return err
		}
	}
	for _, side := range []string{path + "-wal", path + "-shm"} {
		fi, err := os.Lstat(side)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode().IsRegular() && fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(side, 0o600); err != nil {
				return err
			}
		}
	}
	return nil
}

// dsn is the driver's name for the database at path, with the settings
// every connection gets:
//
//   - journal_mode=WAL: readers never wait for the writer, nor it for them,
//     and a process killed mid-write leaves the file consistent (its last,
//     uncommitted transaction is dropped on the next open).
//   - synchronous=FULL: a commit returns only once its WAL frames are
//     fsynced. NORMAL would already keep every committed value across a
//     kill -9 of the process (the frames are in the operating system's
//     cache, which outlives the process), but could lose the last commits
//     when the machine loses power or crashes. A save that a program was
//     told succeeded should stay saved, and writes here are few and small,
//     so the one fsync per commit is worth it (BenchmarkSaveMemory, on a
//     2-core machine: about 920 writes/s with FULL, 1,450 with NORMAL).
//   - busy_timeout: a connection waits for another process's lock instead
//     of failing at once (the driver ends the wait when the context does).
//
// The path goes in a file: URI, escaped, so that no character of it can be
// read as a parameter.
func dsn(path string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "trusted_schema(OFF)")
	u := url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}
	return u.String()
}

// init checks that the database is in WAL mode and brings its schema up to
// date.
func (s *Store) init(ctx context.Context) error {
	var mode string
	err := s.read(ctx, func(c *sql.Conn) error {
		return c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode)
	})
	if err != nil {
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("journal mode is %q, not wal (the file system may not support it)", mode)
	}
	return s.migrate(ctx)
}

// migrations[i] takes the schema from version i to version i+1; the
// database's PRAGMA user_version is its schema version. Add to the end,
// never change a step that was released.
func migrations() []string {
	return []string{
		// 1: memories, saved tools, and each namespace's totals.
		`
CREATE TABLE memories (
	namespace  TEXT    NOT NULL,
	key        TEXT    NOT NULL,
	value      BLOB    NOT NULL, -- compact JSON
	metadata   BLOB,             -- compact JSON object, or NULL
	version    INTEGER NOT NULL,
	created_at INTEGER NOT NULL, -- Unix nanoseconds
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (namespace, key)
);
CREATE TABLE tools (
	namespace   TEXT    NOT NULL,
	name        TEXT    NOT NULL,
	source      TEXT    NOT NULL,
	description TEXT    NOT NULL,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL,
	PRIMARY KEY (namespace, name)
);
-- Kept by every write in the same transaction, so that the limits are
-- checked without reading the whole namespace.
CREATE TABLE namespaces (
	namespace       TEXT PRIMARY KEY,
	bytes           INTEGER NOT NULL, -- sizes of all its memories and tools
	memories        INTEGER NOT NULL,
	tools           INTEGER NOT NULL,
	retired_version INTEGER NOT NULL  -- highest version of a deleted memory
);`,
	}
}

// migrate brings the schema up to the newest version, in one write
// transaction, so that processes opening a new file at once create it once.
func (s *Store) migrate(ctx context.Context) error {
	steps := migrations()
	version := func(c *sql.Conn) (int, error) {
		var v int
		err := c.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
		return v, err
	}
	var current int
	err := s.read(ctx, func(c *sql.Conn) (err error) {
		current, err = version(c)
		return err
	})
	if err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	if current == len(steps) {
		return nil
	}
	return s.write(ctx, func(c *sql.Conn) error {
		v, err := version(c)
		if err != nil {
			return fmt.Errorf("schema version: %w", err)
		}
		if v > len(steps) {
			return fmt.Errorf("schema version %d is newer than this program's (%d): use a newer mcp-code-mode", v, len(steps))
		}
		for ; v < len(steps); v++ {
			if _, err := c.ExecContext(ctx, steps[v]); err != nil {
				return fmt.Errorf("schema version %d to %d: %w", v, v+1, err)
			}
		}
		if _, err := c.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(steps))); err != nil {
			return fmt.Errorf("schema version: %w", err)
		}
		return nil
	})
}

// write runs fn in a write transaction (BEGIN IMMEDIATE: the database's
// write lock is taken first, so that what fn reads cannot change before it
// commits) and commits it. It runs again, up to busyAttempts times in all,
// while the database is busy with other processes' writes. fn must do
// nothing but database work, as it may run more than once.
func (s *Store) write(ctx context.Context, fn func(c *sql.Conn) error) error {
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writer }()
	return retry(ctx, func() error { return s.writeOnce(ctx, fn) })
}

func (s *Store) writeOnce(ctx context.Context, fn func(c *sql.Conn) error) error {
	c, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	err = fn(c)
	if err == nil {
		if _, err = c.ExecContext(ctx, "COMMIT"); err == nil {
			return nil
		}
	}
	// Not committed: roll back even when ctx is done, and drop the
	// connection if that fails, so that no connection goes back to the
	// pool inside a transaction.
	if _, rerr := c.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
		_ = c.Raw(func(any) error { return driver.ErrBadConn })
	}
	return err
}

// read runs fn on one connection outside a transaction (each statement
// reads one consistent snapshot), again while the database is busy.
func (s *Store) read(ctx context.Context, fn func(c *sql.Conn) error) error {
	return retry(ctx, func() error {
		c, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer c.Close()
		return fn(c)
	})
}

// retry calls try until it returns anything but SQLITE_BUSY, busyAttempts
// times at most, with a short random pause between tries.
func retry(ctx context.Context, try func() error) error {
	for attempt := 1; ; attempt++ {
		err := try()
		if err == nil || !isBusy(err) {
			return err
		}
		if attempt == busyAttempts {
			return fmt.Errorf("%w: gave up after %d tries: %w", ErrBusy, attempt, err)
		}
		pause := time.Duration(attempt)*10*time.Millisecond + rand.N(10*time.Millisecond)
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w: %w", ctx.Err(), err)
		}
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY or SQLITE_LOCKED (in
// any of their extended forms): another connection holds a lock.
func isBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff
	return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
}

// Usage is what one namespace holds.
type Usage struct {
	Bytes    int64 // sizes of its memories (key, value, metadata) and tools (name, source, description)
	Memories int   // number of memories
	Tools    int   // number of saved tools
}

// Usage returns what the namespace holds, to compare with the limits.
func (s *Store) Usage(ctx context.Context, namespace string) (Usage, error) {
	if err := checkNamespace(namespace); err != nil {
		return Usage{}, err
	}
	var u nsUsage
	err := s.read(ctx, func(c *sql.Conn) (err error) {
		u, err = loadUsage(ctx, c, namespace)
		return err
	})
	if err != nil {
		return Usage{}, fmt.Errorf("usage of namespace: %w", err)
	}
	return Usage{Bytes: u.bytes, Memories: int(u.memories), Tools: int(u.tools)}, nil
}

// nsUsage is a namespace's row of the namespaces table.
type nsUsage struct {
	bytes, memories, tools, retired int64
}

// querier is what reads need of a connection.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// loadUsage reads the namespace's totals (all zero for a namespace never
// written).
func loadUsage(ctx context.Context, c querier, namespace string) (nsUsage, error) {
	var u nsUsage
	err := c.QueryRowContext(ctx,
		`SELECT bytes, memories, tools, retired_version FROM namespaces WHERE namespace = ?`, namespace).
		Scan(&u.bytes, &u.memories, &u.tools, &u.retired)
	if errors.Is(err, sql.ErrNoRows) {
		return nsUsage{}, nil
	}
	return u, err
}

// storeUsage writes the namespace's totals.
func storeUsage(ctx context.Context, c *sql.Conn, namespace string, u nsUsage) error {
	_, err := c.ExecContext(ctx, `
INSERT INTO namespaces (namespace, bytes, memories, tools, retired_version) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (namespace) DO UPDATE SET
	bytes = excluded.bytes, memories = excluded.memories, tools = excluded.tools,
	retired_version = excluded.retired_version`,
		namespace, u.bytes, u.memories, u.tools, u.retired)
	return err
}

// growBytes checks that a namespace of used bytes may change by delta
// (only growth is ever refused).
func (s *Store) growBytes(u nsUsage, delta int64, kind, key string) error {
	if delta > 0 && u.bytes+delta > s.limits.MaxNamespaceBytes {
		return &LimitError{Limit: "max_namespace_bytes", Max: s.limits.MaxNamespaceBytes, Got: u.bytes + delta, Kind: kind, Key: key}
	}
	return nil
}

// unixTime turns a stored time back into a time.Time, in UTC.
func unixTime(ns int64) time.Time { return time.Unix(0, ns).UTC() }
