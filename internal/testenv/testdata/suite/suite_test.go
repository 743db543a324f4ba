// Package suite is a package whose TestMain runs its tests through
// testenv.Run; testenv's tests run it under each MCM_TEST_SUITE.
package suite

import (
	"os"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }

func TestBoth(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
}

func TestGVisorOnly(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
}

func TestPodmanSkips(t *testing.T) {
	testenv.Engines(t, testenv.Podman)
	t.Skip("a prerequisite is missing")
}

func TestUnmarked(t *testing.T) {}

func TestWithSubtests(t *testing.T) {
	testenv.Engines(t, testenv.GVisor)
	t.Run("one", func(t *testing.T) {})
	t.Run("two", func(t *testing.T) {})
}
