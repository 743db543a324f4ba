package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// The program's exit status is run's: sys.exit(N) exits N (and is the
// exit_code of --json), sys.exit() and sys.exit(0) succeed, and
// sys.exit("message") prints the message on stderr and exits 1, as Python
// does. Every other failure exits 1.
func TestRunExitsWithTheProgramsExitStatus(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "")
	tests := []struct {
		name   string
		code   string
		status int
		stdout string
		stderr string // the error run prints ("" for none)
	}{
		{"sys.exit(3)", "import sys\nprint('before')\nsys.exit(3)\nprint('after')", 3, "before\n", "SystemExit: 3\n"},
		{"sys.exit(255)", "import sys\nsys.exit(255)", 255, "", "SystemExit: 255\n"},
		{"sys.exit(0)", "import sys\nprint('ok')\nsys.exit(0)", 0, "ok\n", ""},
		{"sys.exit()", "import sys\nsys.exit()", 0, "", ""},
		{"raise SystemExit in a function", "import asyncio\nasync def main():\n    raise SystemExit(7)\nawait main()", 7, "", "SystemExit: 7\n"},
		{"sys.exit(message)", "import sys\nprint('out')\nsys.exit('bad input: x')", 1, "out\n", "bad input: x\n"},
		{"sys.exit(256) is out of range", "import sys\nsys.exit(256)", 1, "", "SystemExit: 256\n"},
		{"os._exit(4)", "import os\nos._exit(4)", 4, "", "the program exited with status 4\n"},
		{"an exception", "raise ValueError('v')", 1, "", "ValueError: v\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.CLI(t, "run", "-c", tt.code)
			if r.Code != tt.status || r.Stdout != tt.stdout {
				t.Errorf("exit %d stdout %q, want %d and %q", r.Code, r.Stdout, tt.status, tt.stdout)
			}
			if tt.stderr == "" && r.Stderr != "" || !strings.HasSuffix(r.Stderr, tt.stderr) {
				t.Errorf("stderr %q, want it to end with %q", r.Stderr, tt.stderr)
			}

			r = f.CLI(t, "run", "--json", "-c", tt.code)
			var res struct {
				ExitCode *int    `json:"exit_code"`
				Error    *string `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
				t.Fatalf("--json: not JSON: %v\n%s", err, r.Stdout)
			}
			if r.Code != tt.status || res.ExitCode == nil || *res.ExitCode != tt.status {
				t.Errorf("--json: exit %d, exit_code %v; want %d for both", r.Code, res.ExitCode, tt.status)
			}
			if (res.Error == nil) != (tt.status == 0) {
				t.Errorf("--json: error %v with exit status %d", res.Error, tt.status)
			}
		})
	}
}
