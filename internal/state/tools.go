package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Tool is a saved tool: Python source that a program saved under a name,
// for later programs to use.
type Tool struct {
	Name        string
	Source      string // Python source, as the caller checked it
	Description string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// ToolInfo is what [Store.ListTools] tells of a saved tool: all but the
// source.
type ToolInfo struct {
	Name        string
	Description string
	SourceBytes int
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// SaveTool saves Python source under a name, replacing a tool of that name
// (which keeps its creation time). The store does not read the source: the
// caller has checked it. Source and description must be UTF-8 without NUL
// bytes; the source must not be empty.
func (s *Store) SaveTool(ctx context.Context, namespace, name, source, description string) error {
	if err := s.checkTool(namespace, name); err != nil {
		return fmt.Errorf("save tool: %w", err)
	}
	switch {
	case source == "":
		return fmt.Errorf("save tool %s: %w", quote(name), &InvalidError{What: "source", Reason: "empty"})
	case !utf8.ValidString(source):
		return fmt.Errorf("save tool %s: %w", quote(name), &InvalidError{What: "source", Reason: "not valid UTF-8"})
	case strings.ContainsRune(source, 0):
		return fmt.Errorf("save tool %s: %w", quote(name), &InvalidError{What: "source", Reason: "has a NUL byte"})
	case !utf8.ValidString(description):
		return fmt.Errorf("save tool %s: %w", quote(name), &InvalidError{What: "description", Reason: "not valid UTF-8"})
	case strings.ContainsRune(description, 0):
		return fmt.Errorf("save tool %s: %w", quote(name), &InvalidError{What: "description", Reason: "has a NUL byte"})
	case len(source) > s.limits.MaxToolSourceBytes:
		return fmt.Errorf("save tool: %w", &LimitError{Limit: "max_tool_source_bytes", Max: int64(s.limits.MaxToolSourceBytes), Got: int64(len(source)), Kind: "tool", Key: name})
	case len(description) > s.limits.MaxToolDescriptionBytes:
		return fmt.Errorf("save tool: %w", &LimitError{Limit: "max_tool_description_bytes", Max: int64(s.limits.MaxToolDescriptionBytes), Got: int64(len(description)), Kind: "tool", Key: name})
	}
	err := s.write(ctx, func(c *sql.Conn) error {
		var old int64
		err := c.QueryRowContext(ctx,
			`SELECT octet_length(name) + octet_length(source) + octet_length(description) FROM tools WHERE namespace = ? AND name = ?`,
			namespace, name).Scan(&old)
		exists := err == nil
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		u, err := loadUsage(ctx, c, namespace)
		if err != nil {
			return err
		}
		if !exists && u.tools >= int64(s.limits.MaxTools) {
			return &LimitError{Limit: "max_tools", Max: int64(s.limits.MaxTools), Got: u.tools + 1, Kind: "tool", Key: name}
		}
		size := int64(len(name) + len(source) + len(description))
		if err := s.growBytes(u, size-old, "tool", name); err != nil {
			return err
		}
		now := time.Now().UnixNano()
		if exists {
			_, err = c.ExecContext(ctx,
				`UPDATE tools SET source = ?, description = ?, updated_at = ? WHERE namespace = ? AND name = ?`,
				source, description, now, namespace, name)
		} else {
			u.tools++
			_, err = c.ExecContext(ctx,
				`INSERT INTO tools (namespace, name, source, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
				namespace, name, source, description, now, now)
		}
		if err != nil {
			return err
		}
		u.bytes += size - old
		return storeUsage(ctx, c, namespace, u)
	})
	if err != nil {
		return fmt.Errorf("save tool: %w", err)
	}
	return nil
}

// GetTool returns the saved tool, or an error wrapping [ErrNotFound].
func (s *Store) GetTool(ctx context.Context, namespace, name string) (Tool, error) {
	if err := s.checkTool(namespace, name); err != nil {
		return Tool{}, fmt.Errorf("get tool: %w", err)
	}
	t := Tool{Name: name}
	var created, updated int64
	err := s.read(ctx, func(c *sql.Conn) error {
		return c.QueryRowContext(ctx,
			`SELECT source, description, created_at, updated_at FROM tools WHERE namespace = ? AND name = ?`,
			namespace, name).Scan(&t.Source, &t.Description, &created, &updated)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Tool{}, fmt.Errorf("get tool %s: %w", quote(name), ErrNotFound)
	}
	if err != nil {
		return Tool{}, fmt.Errorf("get tool %s: %w", quote(name), err)
	}
	t.CreatedAt, t.UpdatedAt = unixTime(created), unixTime(updated)
	return t, nil
}

// DeleteTool deletes the saved tool and reports whether it existed.
func (s *Store) DeleteTool(ctx context.Context, namespace, name string) (bool, error) {
	if err := s.checkTool(namespace, name); err != nil {
		return false, fmt.Errorf("delete tool: %w", err)
	}
	var existed bool
	err := s.write(ctx, func(c *sql.Conn) error {
		existed = false
		var size int64
		err := c.QueryRowContext(ctx,
			`SELECT octet_length(name) + octet_length(source) + octet_length(description) FROM tools WHERE namespace = ? AND name = ?`,
			namespace, name).Scan(&size)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		u, err := loadUsage(ctx, c, namespace)
		if err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, `DELETE FROM tools WHERE namespace = ? AND name = ?`, namespace, name); err != nil {
			return err
		}
		u.tools--
		u.bytes -= size
		existed = true
		return storeUsage(ctx, c, namespace, u)
	})
	if err != nil {
		return false, fmt.Errorf("delete tool %s: %w", quote(name), err)
	}
	return existed, nil
}

// ListTools returns every saved tool of the namespace but their sources,
// sorted by name.
func (s *Store) ListTools(ctx context.Context, namespace string) ([]ToolInfo, error) {
	if err := checkNamespace(namespace); err != nil {
		return nil, fmt.Errorf("list tools: %w", err)
	}
	var list []ToolInfo
	err := s.read(ctx, func(c *sql.Conn) error {
		list = nil
		rows, err := c.QueryContext(ctx,
			`SELECT name, description, octet_length(source), created_at, updated_at FROM tools WHERE namespace = ? ORDER BY name`,
			namespace)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t ToolInfo
			var created, updated int64
			if err := rows.Scan(&t.Name, &t.Description, &t.SourceBytes, &created, &updated); err != nil {
				return err
			}
			t.CreatedAt, t.UpdatedAt = unixTime(created), unixTime(updated)
			list = append(list, t)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list tools: %w", err)
	}
	return list, nil
}

func (s *Store) checkTool(namespace, name string) error {
	if err := checkNamespace(namespace); err != nil {
		return err
	}
	return checkName("tool", "tool name", name, s.limits.MaxNameBytes)
}
