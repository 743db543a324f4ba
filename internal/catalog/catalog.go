// Package catalog is the on-disk cache of wrapped servers' tool lists, and
// of their failed starts.
package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// CachedTools is what the catalog keeps of one server: its tool list as the
// server sent it, and when.
type CachedTools struct {
	Server  string            `json:"server"`
	Fetched time.Time         `json:"fetched"`
	Tools   []json.RawMessage `json:"tools"`
	// Instructions are the server's notes on using it, from its answer to
	// initialize (with the server's secrets taken out).
	Instructions string `json:"instructions,omitempty"`
}

// Catalog is the on-disk cache of tool lists, one file per server config,
// so that search and docs work without starting every server. It stores no
// secret: the file name is a hash of the config, the content only the tool
// list and the server's instructions. The zero value (no directory) caches
// nothing.
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
	b, err := safefile.Read(c.path(s), maxFileBytes)
	if err != nil {
		return CachedTools{}, false
	}
	var ct CachedTools
	if err := json.Unmarshal(b, &ct); err != nil {
		return CachedTools{}, false
	}
	return ct, true
}

// Store writes the tool list of s and its instructions, atomically.
func (c Catalog) Store(s config.Server, tools []json.RawMessage, instructions string) error {
	if c.Dir == "" {
		return nil
	}
	b, err := json.Marshal(CachedTools{Server: s.Name, Fetched: time.Now().UTC(), Tools: tools, Instructions: instructions})
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	return c.write(c.path(s), b)
}

// write replaces the file at path with b, atomically.
func (c Catalog) write(path string, b []byte) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
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
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("catalog: %w", err)
	}
	return nil
}

// Failure is a server's failed starts, kept so that the next command does
// not wait for a server that just failed: the back-off of the wrapped
// server's owner outlives the process. Error is the message the user and
// the model may see (secrets already taken out).
type Failure struct {
	Server   string    `json:"server"`
	Failures int       `json:"failures"` // failed starts in a row
	At       time.Time `json:"at"`       // when the last one failed
	Error    string    `json:"error"`
}

func (c Catalog) failurePath(s config.Server) string {
	return filepath.Join(c.Dir, s.Key()+".failed.json")
}

// maxFileBytes bounds what the catalog reads back.
const maxFileBytes = 64 << 20

// LoadFailure returns the failed starts recorded for s, if any.
func (c Catalog) LoadFailure(s config.Server) (Failure, bool) {
	var f Failure
	if c.Dir == "" {
		return f, false
	}
	b, err := safefile.Read(c.failurePath(s), 1<<20)
	if err != nil || json.Unmarshal(b, &f) != nil || f.Failures <= 0 {
		return Failure{}, false
	}
	return f, true
}

// StoreFailure records the failed starts of s.
func (c Catalog) StoreFailure(s config.Server, f Failure) error {
	if c.Dir == "" {
		return nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	return c.write(c.failurePath(s), b)
}

// ClearFailure forgets the failed starts of s.
func (c Catalog) ClearFailure(s config.Server) {
	if c.Dir != "" {
		os.Remove(c.failurePath(s))
	}
}
