package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"
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

// DefaultCatalogDir is $XDG_CACHE_HOME/mcp-code-mode/catalog (or the
// platform's cache directory).
func DefaultCatalogDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "mcp-code-mode", "catalog")
}

// Key identifies a server's config: everything that decides what the
// server is and so which tools it lists.
func (s Server) Key() string {
	h := sha256.New()
	write := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s;", len(p), p)
		}
	}
	write(s.Transport, s.Command, s.Cwd, s.URL)
	write(s.Args...)
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		write(k, s.Env[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		write(k, s.Headers[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func (c Catalog) path(s Server) string {
	return filepath.Join(c.Dir, s.Key()+".json")
}

// Load returns the cached tool list of s, or ok=false when there is none
// (or it is unreadable: a cache is never an error).
func (c Catalog) Load(s Server) (CachedTools, bool) {
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
func (c Catalog) Store(s Server, tools []json.RawMessage) error {
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

// Forget removes the cached tool list of s.
func (c Catalog) Forget(s Server) error {
	if c.Dir == "" {
		return nil
	}
	if err := os.Remove(c.path(s)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("catalog: %w", err)
	}
	return nil
}
