package main

// Tests of the mcp-code-mode binary, run through package clitest: TestMain
// builds the binary and the test server, and every test runs the binary as
// a subprocess against its own fixture. The suites that drive third-party
// clients and servers with it are in package e2e.

import (
	"os"
	"strings"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
