package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// A program file is UTF-8: invalid bytes are reported with their line and
// column before anything starts (no engine is needed to see it), and so
// are UTF-16 files and files over the size a program may have.
func TestRunRefusesAProgramThatIsNotUTF8(t *testing.T) {
	f := clitest.NewFixture(t, "")
	latin1 := filepath.Join(f.Dir, "latin1.py")
	// "café" in Latin-1 on line 3, after two ASCII lines.
	f.Write(t, latin1, "print(1)\nprint(2)\nprint('caf\xe9')\n")
	utf16 := filepath.Join(f.Dir, "utf16.py")
	f.Write(t, utf16, "\xff\xfep\x00r\x00")
	huge := filepath.Join(f.Dir, "huge.py")
	f.Write(t, huge, "#"+strings.Repeat("x", maxProgramBytes)+"\n")
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"latin-1 file", "", []string{latin1}, latin1 + ":3:11: byte 0xe9 is not UTF-8; the program must be UTF-8 text"},
		{"latin-1 on stdin", "x = 1\n# \xe0 la carte\n", []string{"-"}, "stdin:2:3: byte 0xe0 is not UTF-8"},
		{"latin-1 in -c", "", []string{"-c", "print('\xe9t\xe9')"}, "-c:1:8: byte 0xe9 is not UTF-8"},
		{"utf-16 file", "", []string{utf16}, utf16 + ": the program is UTF-16 text; save it as UTF-8"},
		{"oversized file", "", []string{huge}, huge + ": the program is over 1 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.Run(t, tt.stdin, nil, append([]string{"run", "--config", f.Config, "--servers", "test"}, tt.args...)...)
			if r.Code != 1 || !strings.Contains(r.Stderr, tt.want) {
				t.Errorf("exit %d stderr %q, want 1 and %q", r.Code, r.Stderr, tt.want)
			}
			if r.Stdout != "" {
				t.Errorf("stdout %q: nothing may run", r.Stdout)
			}
			// Refused before anything started: the server was not started.
			if calls := clitest.ServerCalls(t, f.Log); len(calls) != 0 {
				t.Errorf("the server saw %d calls", len(calls))
			}
		})
	}
}

// A UTF-8 file that starts with a byte order mark runs (it was a
// SyntaxError), and its non-ASCII text arrives intact.
func TestRunAcceptsAUTF8FileWithAByteOrderMark(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	file := filepath.Join(f.Dir, "bom.py")
	f.Write(t, file, "\ufeffprint('café', len('café'))\n")
	r := f.CLI(t, "run", file)
	if r.Code != 0 || r.Stdout != "café 4\n" {
		t.Errorf("exit %d stdout %q stderr %q, want 0 and %q", r.Code, r.Stdout, r.Stderr, "café 4\n")
	}
}
