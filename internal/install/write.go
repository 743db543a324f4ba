package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// record is what Install moved out of one client's file.
type record struct {
	Client string `json:"client"`
	File   string `json:"file"`
	Moves  []Move `json:"moves"`
	path   string // where it is kept
}

// maxRecordBytes bounds a record.
const maxRecordBytes = 16 << 20

func recordPath(stateDir, client string) string {
	return filepath.Join(stateDir, "install", client+".json")
}

// readRecord reads the record of client; an empty one when there is none.
func readRecord(stateDir, client string) (*record, error) {
	if stateDir == "" {
		return nil, errors.New("no state directory to keep the record of moved servers in")
	}
	path := recordPath(stateDir, client)
	rec := &record{path: path}
	data, _, err := safefile.ReadNoFollow(path, maxRecordBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return rec, nil
	case err != nil:
		return nil, fmt.Errorf("the record of moved servers: %w", err)
	}
	if err := json.Unmarshal(data, rec); err != nil {
		return nil, fmt.Errorf("the record of moved servers, %s: %w", path, err)
	}
	return rec, nil
}

// belongsTo refuses a record of servers moved out of another file than
// f (the client's file moved: $CODEX_HOME changed, say), so that they are
// not put back into the wrong one.
func (rec *record) belongsTo(f discovery.UserFile) error {
	if len(rec.Moves) > 0 && rec.File != f.Path {
		return fmt.Errorf("the servers recorded in %s were moved out of %s, not %s: put that file back in place, or move them back by hand",
			rec.path, rec.File, f.Path)
	}
	return nil
}

// writer writes files for a Report, or in a dry run only says it would.
type writer struct {
	rep *Report
	dry bool
	now time.Time
}

// record writes rec (or removes it when it holds no move). It holds the
// moved entries as written, secrets included: only its owner may read it.
func (w *writer) record(stateDir string, rec *record) error {
	path := recordPath(stateDir, rec.Client)
	if len(rec.Moves) > 0 {
		w.rep.Record = path
	}
	if w.dry {
		return nil
	}
	if len(rec.Moves) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return replace(path, append(data, '\n'), 0o600)
}

// file replaces path, whose contents were old (when it existed), with
// data: a backup of old is kept next to it first, and the file is
// replaced at once. verify, if set, must accept data first. Nothing is
// written when data is old.
func (w *writer) file(path string, old []byte, existed bool, mode fs.FileMode, data []byte, verify func([]byte) error) error {
	if existed && bytes.Equal(old, data) {
		return nil
	}
	if verify != nil {
		if err := verify(data); err != nil {
			return err
		}
	}
	w.rep.Written = append(w.rep.Written, path)
	if w.dry {
		if existed {
			w.rep.Backups = append(w.rep.Backups, backupName(path, w.now, 0))
		}
		return nil
	}
	if !existed {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return err
		}
	} else {
		// Another program (the client itself) may have written the file
		// since it was read: its change must not be lost.
		now, _, err := safefile.ReadNoFollow(path, maxFileBytes)
		if err != nil || !bytes.Equal(now, old) {
			return fmt.Errorf("%s changed while it was being edited; nothing was written to it: run the command again", path)
		}
		b, err := backup(path, old, mode, w.now)
		if err != nil {
			return err
		}
		w.rep.Backups = append(w.rep.Backups, b)
	}
	return replace(path, data, mode)
}

func backupName(path string, now time.Time, n int) string {
	name := path + ".bak-" + now.UTC().Format("20060102T150405Z")
	if n > 0 {
		name += "-" + strconv.Itoa(n+1)
	}
	return name
}

// backup writes data to a new file next to path, with its mode. It never
// writes through an existing file or link of that name: another name is
// taken instead.
func backup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	for n := 0; n < 100; n++ {
		name := backupName(path, now, n)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("backup: %w", err)
		}
		if err := f.Chmod(mode); err == nil { // the umask may have narrowed it
			_, err = f.Write(data)
			if err == nil {
				err = f.Sync()
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				return name, nil
			}
		} else {
			f.Close()
		}
		os.Remove(name)
		return "", fmt.Errorf("backup %s: %w", name, err)
	}
	return "", fmt.Errorf("backup of %s: too many backups of this second", path)
}

// replace writes data to a temporary file in path's directory and renames
// it over path, so that path holds either the old or the new contents,
// never a part.
func replace(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
