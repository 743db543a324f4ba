package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

// recorder is a testing.TB that records what a helper did to the test.
// Like *testing.T, it ends the test's goroutine on Skip and Fatal.
type recorder struct {
	testing.TB // nil: a method not overridden here panics
	name       string
	skipped    bool
	failed     bool
	msg        string
	cleanups   []func()
}

func (r *recorder) Helper()          {}
func (r *recorder) Name() string     { return r.name }
func (r *recorder) Skipped() bool    { return r.skipped }
func (r *recorder) Failed() bool     { return r.failed }
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// runFake runs test as the test named name, then its cleanups; it reports
// whether test ran to its end.
func runFake(name string, test func(testing.TB)) (r *recorder, finished bool) {
	r = &recorder{name: name}
	done := make(chan struct{})
	go func() {
		defer close(done)
		test(r)
		finished = true
	}()
	<-done
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
	return r, finished
}

func TestSkipOrFail(t *testing.T) {
	for _, tc := range []struct {
		ci       string
		wantFail bool
	}{
		{"", false},
		{"false", false},
		{"1", false}, // only CI=true counts, as in .ci/vscode.sh
		{"true", true},
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			r, finished := runFake("T", func(tb testing.TB) { SkipOrFail(tb, "no %s here", "engine") })
			if finished {
				t.Errorf("SkipOrFail returned; it must end the test")
			}
			if r.failed != tc.wantFail || r.skipped == tc.wantFail {
				t.Errorf("failed=%v skipped=%v, want failed=%v", r.failed, r.skipped, tc.wantFail)
			}
			if !strings.Contains(r.msg, "no engine here") {
				t.Errorf("message %q lacks the caller's", r.msg)
			}
		})
	}
}

func TestEngines(t *testing.T) {
	for _, tc := range []struct {
		suite    string
		marks    []Suite
		wantSkip bool
	}{
		{"", []Suite{GVisor}, false},
		{"gvisor", []Suite{GVisor}, false},
		{"gvisor", []Suite{GVisor, Podman}, false},
		{"podman", []Suite{GVisor, Podman}, false},
		{"podman", []Suite{GVisor}, true},
	} {
		name := fmt.Sprintf("%s=%s marks=%v", SuiteVar, tc.suite, tc.marks)
		t.Run(name, func(t *testing.T) {
			t.Setenv(SuiteVar, tc.suite)
			test := "TestEngines" + strings.ReplaceAll(name, " ", "_")
			r, finished := runFake(test, func(tb testing.TB) { Engines(tb, tc.marks...) })
			if r.failed || r.skipped != tc.wantSkip || finished == tc.wantSkip {
				t.Fatalf("failed=%v skipped=%v finished=%v, want skipped=%v", r.failed, r.skipped, finished, tc.wantSkip)
			}
			if tc.wantSkip && !strings.Contains(r.msg, "not marked for "+SuiteVar+"="+tc.suite) {
				t.Errorf("skip message %q does not say why", r.msg)
			}
			// Only a test that runs in a suite is counted as having reached
			// its mark.
			if want := tc.suite != "" && !tc.wantSkip; reached.has(test) != want {
				t.Errorf("reached: %v, want %v", reached.has(test), want)
			}
		})
	}
	t.Run("no suite named", func(t *testing.T) {
		r, _ := runFake("T", func(tb testing.TB) { Engines(tb) })
		if !r.failed {
			t.Errorf("Engines(t) with no suite did not fail the test")
		}
	})
	t.Run("a marked test that skips itself", func(t *testing.T) {
		t.Setenv(SuiteVar, "podman")
		r, _ := runFake("TestSkipsAfterItsMark", func(tb testing.TB) {
			Engines(tb, Podman)
			tb.Skipf("no podman")
		})
		if !r.skipped || !reached.has("TestSkipsAfterItsMark") || !skipped.has("TestSkipsAfterItsMark") {
			t.Errorf("skipped=%v reached=%v, want the skip recorded", r.skipped, reached.has("TestSkipsAfterItsMark"))
		}
	})
}

const marksSource = `package x

import (
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

func TestBoth(t *testing.T) {
	testenv.Engines(t, testenv.GVisor, testenv.Podman)
	t.Log("body")
}

func TestGVisorAfterSetup(t *testing.T) {
	t.Parallel()
	testenv.Engines(t, testenv.GVisor)
}

func TestUnmarked(t *testing.T) { testenv.SkipOrFail(t, "x") }

func Testlowercase(t *testing.T) { testenv.Engines(t, testenv.GVisor) }

func helper(t *testing.T) { testenv.Engines(t, testenv.GVisor) }

func TestMarkInASubtest(t *testing.T) {
	t.Run("sub", func(t *testing.T) { testenv.Engines(t, testenv.GVisor) })
}

func (x) TestMethod(t *testing.T) { testenv.Engines(t, testenv.GVisor) }
`

const aliasedSource = `package x

import (
	"testing"

	te "github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

func TestAliased(t *testing.T) { te.Engines(t, te.Podman) }
`

const otherEnginesSource = `package x

import "testing"

type fake struct{}

func (fake) Engines(testing.TB, ...string) {}

var testenv fake

func TestNotOurs(t *testing.T) { testenv.Engines(t, "gvisor") }
`

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestMarks(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a_test.go": marksSource,
		"b_test.go": aliasedSource,
		"c_test.go": otherEnginesSource,
		"d.go":      "package x\n\nimport \"github.com/mcp-code-mode/mcp-code-mode/internal/testenv\"\n\nfunc TestNotATestFile() { testenv.Engines(nil, testenv.GVisor) }\n",
	})
	got, err := Marks(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]Suite{
		"TestBoth":             {GVisor, Podman},
		"TestGVisorAfterSetup": {GVisor},
		"TestAliased":          {Podman},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Marks = %v, want %v", got, want)
	}
}

func TestMarksRefusesWhatItCannotRead(t *testing.T) {
	for name, body := range map[string]string{
		"a variable":      "s := testenv.GVisor\n\ttestenv.Engines(t, s)",
		"a string":        `testenv.Engines(t, "gvisor")`,
		"an unknown name": "testenv.Engines(t, testenv.Docker)",
	} {
		t.Run(name, func(t *testing.T) {
			src := "package x\n\nimport (\n\t\"testing\"\n\n\t\"github.com/mcp-code-mode/mcp-code-mode/internal/testenv\"\n)\n\nfunc TestX(t *testing.T) {\n\t" + body + "\n}\n"
			_, err := Marks(writeFiles(t, map[string]string{"x_test.go": src}))
			if err == nil || !strings.Contains(err.Error(), "TestX") || !strings.Contains(err.Error(), "x_test.go:") {
				t.Errorf("err = %v, want one naming the test and the place", err)
			}
		})
	}
}

func TestSelectPattern(t *testing.T) {
	marked := []string{"TestA", "TestAB", "TestC.d"}
	for _, tc := range []struct {
		user, want string
		selected   []string
	}{
		{"", `^(TestA|TestAB|TestC\.d)$`, marked},
		{"TestA", `^(TestA|TestAB)$`, []string{"TestA", "TestAB"}},
		{"^TestA$", `^(TestA)$`, []string{"TestA"}},
		{"B|C/sub", `^(TestAB|TestC\.d)$/sub`, []string{"TestAB", "TestC.d"}},
		{"Test[/]C", `^()$`, nil},
		{"Nothing", `^()$`, nil},
	} {
		got, selected, err := selectPattern(marked, tc.user)
		if err != nil || got != tc.want || !slices.Equal(selected, tc.selected) {
			t.Errorf("selectPattern(%q) = %q, %v, %v; want %q, %v", tc.user, got, selected, err, tc.want, tc.selected)
		}
	}
	if _, _, err := selectPattern(marked, "("); err == nil {
		t.Errorf("a malformed -run pattern was accepted")
	}
}

// TestRun runs the tests of testdata/suite, whose TestMain calls Run, as
// each suite would.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	bin := filepath.Join(t.TempDir(), "suite.test")
	if out, err := exec.Command("go", "test", "-c", "-o", bin, "./testdata/suite").CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	every := []string{"TestBoth", "TestGVisorOnly", "TestUnmarked", "TestWithSubtests", "TestWithSubtests/one", "TestWithSubtests/two"}
	for _, tc := range []struct {
		suite, run string
		passed     []string
		skipped    []string
		fail       bool
		say        string
	}{
		{suite: "", passed: every, skipped: []string{"TestPodmanSkips"}},
		{suite: "gvisor", passed: []string{"TestBoth", "TestGVisorOnly", "TestWithSubtests", "TestWithSubtests/one", "TestWithSubtests/two"}, say: "3 of the 3 tests marked for it ran"},
		{suite: "gvisor", run: "Subtests/two", passed: []string{"TestWithSubtests", "TestWithSubtests/two"}, say: "1 of the 1 tests marked for it ran"},
		{suite: "podman", passed: []string{"TestBoth"}, skipped: []string{"TestPodmanSkips"}, say: "1 of the 2 tests marked for it ran"},
		// A run in which every selected test skipped, or none is selected,
		// fails: a suite cannot pass by running nothing.
		{suite: "podman", run: "TestPodmanSkips", skipped: []string{"TestPodmanSkips"}, fail: true, say: "0 of the 1 tests marked for it ran"},
		{suite: "podman", run: "TestGVisorOnly", fail: true, say: "no test of this package is marked for it"},
		{suite: "docker", fail: true, say: `MCM_TEST_SUITE="docker" names no suite`},
	} {
		t.Run(tc.suite+"/"+tc.run, func(t *testing.T) {
			cmd := exec.Command(bin, "-test.v", "-test.run", tc.run)
			cmd.Dir = "testdata/suite"
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, SuiteVar+"=") && !strings.HasPrefix(kv, "CI=") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, SuiteVar+"="+tc.suite)
			out, err := cmd.CombinedOutput()
			t.Logf("%s\n%s", cmd, out)
			if failed := err != nil; failed != tc.fail {
				t.Errorf("err = %v, want failure %v", err, tc.fail)
			}
			passed, skipped := results(string(out))
			if !slices.Equal(passed, tc.passed) || !slices.Equal(skipped, tc.skipped) {
				t.Errorf("passed %v skipped %v; want %v and %v", passed, skipped, tc.passed, tc.skipped)
			}
			if !strings.Contains(string(out), tc.say) {
				t.Errorf("output lacks %q", tc.say)
			}
		})
	}
}

var resultLine = regexp.MustCompile(`(?m)^\s*--- (PASS|SKIP|FAIL): (\S+)`)

// results are the tests that passed and skipped in go test -v's output.
func results(out string) (passed, skipped []string) {
	for _, m := range resultLine.FindAllStringSubmatch(out, -1) {
		switch m[1] {
		case "PASS":
			passed = append(passed, m[2])
		case "SKIP":
			skipped = append(skipped, m[2])
		}
	}
	sort.Strings(passed)
	sort.Strings(skipped)
	return passed, skipped
}
