// Package trust keeps the user's approvals of project servers: the servers
// that a project's own MCP client config files (a cloned repository's
// .mcp.json, .vscode/mcp.json, ...) configure, which mcp-code-mode does not
// start until the user has read and approved them.
//
// An approval names the project directory, the entry (its file and key)
// and a hash of the entry as written, before any variable is expanded, and
// of the env file it names, so that an entry or env file edited after it
// was approved needs approving again:
//
//	store, err := trust.Load(trust.Path(stateDir))
//	if store.Approved(dir, "/repo/.mcp.json#mcpServers.github", hash) { ... }
//	store.Add(trust.Approval{Dir: dir, Source: source, Hash: hash})
//	err = store.Save()
package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// File is the name of the approvals file in the state directory.
const File = "trusted-project-servers.json"

// maxBytes bounds the approvals file.
const maxBytes = 4 << 20

// Path is the approvals file in the state directory stateDir.
func Path(stateDir string) string { return filepath.Join(stateDir, File) }

// Approval is the user's approval of one project server's entry.
type Approval struct {
	Dir    string    `json:"dir"`    // the project directory
	Source string    `json:"source"` // the entry: "file#key"
	Hash   string    `json:"hash"`   // the entry as written (config.Server.EntryHash)
	At     time.Time `json:"at"`     // when it was approved
}

// Store is the approvals kept in one file. Its zero value approves nothing
// and cannot be saved.
type Store struct {
	path      string
	approvals []Approval
}

type document struct {
	Version   int        `json:"version"`
	Approvals []Approval `json:"approvals"`
}

// Load reads the approvals file at path; a missing file is an empty store.
func Load(path string) (*Store, error) {
	s := &Store{path: path}
	b, err := safefile.Read(path, maxBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("approvals of project servers: %w", err)
	}
	var doc document
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("approvals of project servers: %s: %w (remove the file to approve again)", path, err)
	}
	if doc.Version != 1 {
		return nil, fmt.Errorf("approvals of project servers: %s: unknown version %d", path, doc.Version)
	}
	s.approvals = doc.Approvals
	return s, nil
}

// Approved reports whether the entry at source in the project dir was
// approved as it is now written (hash).
func (s *Store) Approved(dir, source, hash string) bool {
	return hash != "" && slices.ContainsFunc(s.approvals, func(a Approval) bool {
		return a.Dir == dir && a.Source == source && a.Hash == hash
	})
}

// Add records an approval, in place of any earlier one of the same entry.
func (s *Store) Add(a Approval) {
	s.Remove(a.Dir, a.Source)
	if a.At.IsZero() {
		a.At = time.Now().UTC().Truncate(time.Second)
	}
	s.approvals = append(s.approvals, a)
}

// Remove forgets the approval of the entry at source in dir, and reports
// whether there was one.
func (s *Store) Remove(dir, source string) bool {
	n := len(s.approvals)
	s.approvals = slices.DeleteFunc(s.approvals, func(a Approval) bool { return a.Dir == dir && a.Source == source })
	return len(s.approvals) != n
}

// Save writes the store to its file, readable by its owner alone, whole or
// not at all (a new file renamed over the old one).
func (s *Store) Save() error {
	if s.path == "" {
		return errors.New("approvals of project servers: the store has no file")
	}
	b, err := json.MarshalIndent(document{Version: 1, Approvals: s.approvals}, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("approvals of project servers: %w", err)
	}
	f, err := os.CreateTemp(dir, File+".*")
	if err != nil {
		return fmt.Errorf("approvals of project servers: %w", err)
	}
	_, werr := f.Write(append(b, '\n'))
	if err := errors.Join(werr, f.Chmod(0o600), f.Close()); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("approvals of project servers: %w", err)
	}
	if err := os.Rename(f.Name(), s.path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("approvals of project servers: %w", err)
	}
	return nil
}
