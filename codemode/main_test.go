package codemode_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// TestMain runs the examples against the real engine (clitest builds the
// test server, internal/testserver, whose tools include add(a, b) ->
// {"sum": a+b}); without an engine the package is skipped (failed under
// CI=true), since examples cannot skip. The catalog of tool lists goes to a
// directory of the tests' own. Nothing may outlive the tests.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "mcm-codemode-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := clitest.MainWithEngine(m)
	os.RemoveAll(cache)
	os.Exit(code)
}
