package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Memory is one key's memory, everything about it.
type Memory struct {
	Key string
	// Value is compact JSON with every character outside ASCII written as
	// a \u escape: the form a value has on the sandbox's protocol lines, so
	// that its size, which the limits count, is its size there.
	Value    json.RawMessage
	Metadata json.RawMessage // a JSON object in the same form, or nil when it has none
	// Version changes on every write of the key: it is 1 more than the
	// version before, and a key deleted and created again starts above
	// every version it had, so a version is never seen twice for a key.
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// MemoryInfo is what [Store.ListMemories] tells of a memory: all but the
// value.
type MemoryInfo struct {
	Key       string
	Size      int             // the value's size in bytes, in the form Memory.Value has
	Metadata  json.RawMessage // a compact JSON object, or nil
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// memoryRow is the stored state of a key that a write starts from.
type memoryRow struct {
	exists   bool
	version  int64
	size     int64 // key, value and metadata, in bytes
	metadata []byte
}

// SaveMemory sets the key's value, creating the memory when missing, and
// returns its new version. With metadata nil the memory keeps the metadata
// it had; otherwise metadata (a JSON object) replaces it, and {} clears it.
func (s *Store) SaveMemory(ctx context.Context, namespace, key string, value, metadata json.RawMessage) (int64, error) {
	v, err := s.put(ctx, namespace, key, value, metadata, nil)
	if err != nil {
		return 0, fmt.Errorf("save memory: %w", err)
	}
	return v, nil
}

// CompareAndSwapMemory sets the key's value, keeping its metadata, only if
// its version is still expected (0: only if the key does not exist), and
// returns the new version. Otherwise it writes nothing and returns a
// [*ConflictError] with the version found. Read with [Store.LoadMemory],
// compute, swap, and read again on a conflict: that is an update no other
// writer's update can be lost to.
func (s *Store) CompareAndSwapMemory(ctx context.Context, namespace, key string, expected int64, value json.RawMessage) (int64, error) {
	if expected < 0 {
		return 0, fmt.Errorf("compare and swap memory: %w", &InvalidError{What: "expected version", Reason: fmt.Sprintf("%d is negative", expected)})
	}
	v, err := s.put(ctx, namespace, key, value, nil, &expected)
	if err != nil {
		return 0, fmt.Errorf("compare and swap memory: %w", err)
	}
	return v, nil
}

// put writes key's value (and metadata, unless nil) if the key's version
// is *expected, or whatever it is when expected is nil.
func (s *Store) put(ctx context.Context, namespace, key string, value, metadata json.RawMessage, expected *int64) (int64, error) {
	if err := s.checkKey(namespace, key); err != nil {
		return 0, err
	}
	value, err := compactJSON("value", value, false)
	if err != nil {
		return 0, fmt.Errorf("memory %s: %w", quote(key), err)
	}
	if len(value) > s.limits.MaxValueBytes {
		return 0, &LimitError{Limit: "max_value_bytes", Max: int64(s.limits.MaxValueBytes), Got: int64(len(value)), Kind: "memory", Key: key}
	}
	if metadata != nil {
		if metadata, err = compactJSON("metadata", metadata, true); err != nil {
			return 0, fmt.Errorf("memory %s: %w", quote(key), err)
		}
		if len(metadata) > s.limits.MaxMetadataBytes {
			return 0, &LimitError{Limit: "max_metadata_bytes", Max: int64(s.limits.MaxMetadataBytes), Got: int64(len(metadata)), Kind: "memory", Key: key}
		}
		if string(metadata) == "{}" {
			metadata = []byte{} // not nil: replaces the metadata, with none
		}
	}
	var version int64
	err = s.write(ctx, func(c *sql.Conn) error {
		cur, err := loadRow(ctx, c, namespace, key)
		if err != nil {
			return err
		}
		if expected != nil && *expected != cur.version { // a missing key's version is 0
			return &ConflictError{Key: key, Expected: *expected, Actual: cur.version}
		}
		meta := cur.metadata
		if metadata != nil {
			meta = metadata
		}
		u, err := loadUsage(ctx, c, namespace)
		if err != nil {
			return err
		}
		size := int64(len(key) + len(value) + len(meta))
		if !cur.exists && u.memories >= int64(s.limits.MaxKeys) {
			return &LimitError{Limit: "max_keys", Max: int64(s.limits.MaxKeys), Got: u.memories + 1, Kind: "memory", Key: key}
		}
		if err := s.growBytes(u, size-cur.size, "memory", key); err != nil {
			return err
		}
		now := time.Now().UnixNano()
		if cur.exists {
			version = cur.version + 1
			_, err = c.ExecContext(ctx,
				`UPDATE memories SET value = ?, metadata = ?, version = ?, updated_at = ? WHERE namespace = ? AND key = ?`,
				value, nullable(meta), version, now, namespace, key)
		} else {
			version = u.retired + 1
			u.memories++
			_, err = c.ExecContext(ctx,
				`INSERT INTO memories (namespace, key, value, metadata, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				namespace, key, value, nullable(meta), version, now, now)
		}
		if err != nil {
			return err
		}
		u.bytes += size - cur.size
		return storeUsage(ctx, c, namespace, u)
	})
	return version, err
}

// nullable stores an empty metadata as NULL.
func nullable(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// loadRow reads what a write of the key needs to know of it.
func loadRow(ctx context.Context, c querier, namespace, key string) (memoryRow, error) {
	var r memoryRow
	err := c.QueryRowContext(ctx,
		`SELECT version, octet_length(key) + length(value) + coalesce(length(metadata), 0), metadata FROM memories WHERE namespace = ? AND key = ?`,
		namespace, key).Scan(&r.version, &r.size, &r.metadata)
	if errors.Is(err, sql.ErrNoRows) {
		return memoryRow{}, nil
	}
	if err != nil {
		return memoryRow{}, err
	}
	r.exists = true
	return r, nil
}

// LoadMemory returns the key's memory, or an error wrapping [ErrNotFound].
func (s *Store) LoadMemory(ctx context.Context, namespace, key string) (Memory, error) {
	if err := s.checkKey(namespace, key); err != nil {
		return Memory{}, fmt.Errorf("load memory: %w", err)
	}
	m := Memory{Key: key}
	var value, metadata []byte
	var created, updated int64
	err := s.read(ctx, func(c *sql.Conn) error {
		return c.QueryRowContext(ctx,
			`SELECT value, metadata, version, created_at, updated_at FROM memories WHERE namespace = ? AND key = ?`,
			namespace, key).Scan(&value, &metadata, &m.Version, &created, &updated)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Memory{}, fmt.Errorf("load memory %s: %w", quote(key), ErrNotFound)
	}
	if err != nil {
		return Memory{}, fmt.Errorf("load memory %s: %w", quote(key), err)
	}
	m.Value, m.Metadata = value, rawOrNil(metadata)
	m.CreatedAt, m.UpdatedAt = unixTime(created), unixTime(updated)
	return m, nil
}

// MemoryExists reports whether the key has a memory.
func (s *Store) MemoryExists(ctx context.Context, namespace, key string) (bool, error) {
	if err := s.checkKey(namespace, key); err != nil {
		return false, fmt.Errorf("memory exists: %w", err)
	}
	var n int
	err := s.read(ctx, func(c *sql.Conn) error {
		return c.QueryRowContext(ctx, `SELECT count(*) FROM memories WHERE namespace = ? AND key = ?`, namespace, key).Scan(&n)
	})
	if err != nil {
		return false, fmt.Errorf("memory exists %s: %w", quote(key), err)
	}
	return n > 0, nil
}

// DeleteMemory deletes the key's memory and reports whether it existed.
func (s *Store) DeleteMemory(ctx context.Context, namespace, key string) (bool, error) {
	if err := s.checkKey(namespace, key); err != nil {
		return false, fmt.Errorf("delete memory: %w", err)
	}
	var existed bool
	err := s.write(ctx, func(c *sql.Conn) error {
		existed = false
		cur, err := loadRow(ctx, c, namespace, key)
		if err != nil || !cur.exists {
			return err
		}
		u, err := loadUsage(ctx, c, namespace)
		if err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, `DELETE FROM memories WHERE namespace = ? AND key = ?`, namespace, key); err != nil {
			return err
		}
		u.memories--
		u.bytes -= cur.size
		u.retired = max(u.retired, cur.version)
		existed = true
		return storeUsage(ctx, c, namespace, u)
	})
	if err != nil {
		return false, fmt.Errorf("delete memory %s: %w", quote(key), err)
	}
	return existed, nil
}

// ListMemories returns every memory of the namespace but their values,
// sorted by key.
func (s *Store) ListMemories(ctx context.Context, namespace string) ([]MemoryInfo, error) {
	if err := checkNamespace(namespace); err != nil {
		return nil, fmt.Errorf("list memories: %w", err)
	}
	var list []MemoryInfo
	err := s.read(ctx, func(c *sql.Conn) error {
		list = nil
		rows, err := c.QueryContext(ctx,
			`SELECT key, length(value), metadata, version, created_at, updated_at FROM memories WHERE namespace = ? ORDER BY key`,
			namespace)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m MemoryInfo
			var metadata []byte
			var created, updated int64
			if err := rows.Scan(&m.Key, &m.Size, &metadata, &m.Version, &created, &updated); err != nil {
				return err
			}
			m.Metadata = rawOrNil(metadata)
			m.CreatedAt, m.UpdatedAt = unixTime(created), unixTime(updated)
			list = append(list, m)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list memories: %w", err)
	}
	return list, nil
}

func (s *Store) checkKey(namespace, key string) error {
	if err := checkNamespace(namespace); err != nil {
		return err
	}
	return checkName("memory", "key", key, s.limits.MaxNameBytes)
}

func rawOrNil(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return b
}
