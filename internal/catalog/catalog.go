// Package catalog is the on-disk cache of wrapped servers' tool lists.
package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// CachedTools is what the catalog keeps of one server: its tool list as the
// server sent it, and when.
type CachedTools struct {
	Server  string            `json:"server"`
	Fetched time.Time         `json:"fetched"`
	Tools   []json.RawMessage `json:"tools"`
}

// Catalog is the on-disk cache of tool lists, one file per server config,
// so that search and docs work without starting every server. It stores no
// secret: the file name is a hash of the config, the content only the tool
// list. The zero value (no directory) caches nothing.
type Catalog struct {
	Dir string
}

func (c Catalog) path(s config.Server) string {
	return filepath.Join(c.Dir, s.Key()+".json")
}

// Load returns the cached tool list of s, or ok=false when there is none
// (or it is unreadable: a cache is never an error).
func (c Catalog) Load(s config.Server) (CachedTools, bool) {
	if c.Dir == "" {
		return CachedTools{}, false
	}
	b, err := os.ReadFile(c.path(s))
	if err != nil {
		return CachedTools{}, false
	}
	var ct CachedTools
	if err := json.Unmarshal(b, &ct); err != nil {
		return CachedTools{}, false
	}
	return ct, true
}

// Store writes the tool list of s, atomically.
func (c Catalog) Store(s config.Server, tools []json.RawMessage) error {
	if c.Dir == "" {
		return nil
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	b, err := json.Marshal(CachedTools{Server: s.Name, Fetched: time.Now().UTC(), Tools: tools})
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	tmp, err := os.CreateTemp(c.Dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("catalog: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.path(s)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("catalog: %w", err)
	}
	return nil
}
