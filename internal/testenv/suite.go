package testenv

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Suite is an extra run of the security tests on another engine.
type Suite string

// The extra runs. A test marks itself with these constants, spelled out in
// the call to [Engines]: [Run] finds the marks by reading the source.
const (
	// GVisor is make test-gvisor: the sandbox on gVisor's kernel
	// (MCM_TEST_RUNTIME=runsc, on the engine .ci/engine.sh sets up).
	GVisor Suite = "gvisor"
	// Podman is .ci/podman.sh: Podman's Docker-compatible API as the engine.
	Podman Suite = "podman"
)

// SuiteVar is the environment variable that names the run in progress.
const SuiteVar = "MCM_TEST_SUITE"

// suites maps the names of the constants above to their values.
var suites = map[string]Suite{"GVisor": GVisor, "Podman": Podman}

// current is the run named by MCM_TEST_SUITE, "" when none is.
func current() Suite { return Suite(os.Getenv(SuiteVar)) }

// Engines marks the test as one of the security tests that the extra runs
// named repeat; call it first thing in a TestXxx function, with the
// constants themselves (not variables). Outside such a run (MCM_TEST_SUITE
// unset) it does nothing. In one, a test not marked for it is skipped;
// [Run] has left out such tests already, unless Engines is called
// elsewhere than at the top of a test.
func Engines(t testing.TB, suites ...Suite) {
	t.Helper()
	if len(suites) == 0 {
		t.Fatalf("testenv.Engines: name at least one suite")
	}
	s := current()
	if s == "" {
		return
	}
	if !slices.Contains(suites, s) {
		t.Skipf("not marked for %s=%s (only for %v)", SuiteVar, s, suites)
	}
	name := t.Name()
	reached.add(name)
	t.Cleanup(func() {
		if t.Skipped() {
			skipped.add(name)
		}
	})
}

// The marked tests that reached their mark in this run, and those of them
// that skipped.
var reached, skipped names

type names struct {
	mu sync.Mutex
	m  map[string]bool
}

func (n *names) add(name string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.m == nil {
		n.m = map[string]bool{}
	}
	n.m[name] = true
}

func (n *names) has(name string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.m[name]
}

// Run runs the tests of m as m.Run does; call it from TestMain. Under
// MCM_TEST_SUITE it runs only the tests of the package marked with
// [Engines] for that suite (the others do not start), prints how many ran,
// and fails when none ran, or when one of them did not reach its mark.
func Run(m *testing.M) int {
	s := current()
	if s == "" {
		return m.Run()
	}
	if !slices.Contains(slices.Collect(maps.Values(suites)), s) {
		fmt.Fprintf(os.Stderr, "testenv: %s=%q names no suite (want one of gvisor, podman)\n", SuiteVar, s)
		return 2
	}
	if !flag.Parsed() {
		flag.Parse()
	}
	if f := flag.Lookup("test.list"); f != nil && f.Value.String() != "" {
		return m.Run()
	}
	marks, err := Marks(".")
	if err != nil {
		fmt.Fprintf(os.Stderr, "testenv: %v\n", err)
		return 1
	}
	var marked []string
	for name, ss := range marks {
		if slices.Contains(ss, s) {
			marked = append(marked, name)
		}
	}
	sort.Strings(marked)
	run := flag.Lookup("test.run")
	pattern, selected, err := selectPattern(marked, run.Value.String())
	if err != nil {
		fmt.Fprintf(os.Stderr, "testenv: -run: %v\n", err)
		return 2
	}
	if len(selected) == 0 {
		fmt.Fprintf(os.Stderr, "testenv: %s=%s: no test of this package is marked for it (testenv.Engines) and matches -run %q\n", SuiteVar, s, run.Value.String())
		return 1
	}
	if err := run.Value.Set(pattern); err != nil {
		fmt.Fprintf(os.Stderr, "testenv: %v\n", err)
		return 2
	}
	code := m.Run()
	var ran, skips, missing []string
	for _, name := range selected {
		switch {
		case !reached.has(name):
			missing = append(missing, name)
		case skipped.has(name):
			skips = append(skips, name)
		default:
			ran = append(ran, name)
		}
	}
	fmt.Printf("testenv: %s=%s: %d of the %d tests marked for it ran\n", SuiteVar, s, len(ran), len(selected))
	if len(skips) > 0 {
		fmt.Printf("testenv: skipped: %s\n", strings.Join(skips, " "))
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "testenv: these tests never reached their testenv.Engines mark: %s\n", strings.Join(missing, " "))
	}
	if code == 0 && (len(ran) == 0 || len(missing) > 0) {
		fmt.Fprintf(os.Stderr, "testenv: FAIL: %s=%s ran %d marked tests\n", SuiteVar, s, len(ran))
		code = 1
	}
	return code
}

// selectPattern returns the -test.run pattern that runs exactly the marked
// tests among those the user's -run pattern selects, and their names. Of
// the user's pattern the part before the first unbracketed "/" picks the
// top-level tests; the rest is kept for the subtests.
func selectPattern(marked []string, user string) (string, []string, error) {
	top, sub := splitRun(user)
	var selected []string
	if top == "" {
		selected = marked
	} else {
		re, err := regexp.Compile(top)
		if err != nil {
			return "", nil, err
		}
		for _, name := range marked {
			if re.MatchString(name) {
				selected = append(selected, name)
			}
		}
	}
	quoted := make([]string, len(selected))
	for i, name := range selected {
		quoted[i] = regexp.QuoteMeta(name)
	}
	return "^(" + strings.Join(quoted, "|") + ")$" + sub, selected, nil
}

// splitRun cuts a -run pattern at its first "/" outside brackets and
// parentheses, as the testing package does: "A/B" is "A" and "/B".
func splitRun(p string) (top, sub string) {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '/':
			if depth == 0 {
				return p[:i], p[i:]
			}
		}
	}
	return p, ""
}

// Marks reads the _test.go files in dir and returns, for each TestXxx
// function that calls [Engines] among its top-level statements, the suites
// it names. A call whose arguments are not this package's Suite constants
// is an error: the mark could not be read.
func Marks(dir string) (map[string][]Suite, error) {
	self := reflect.TypeFor[Suite]().PkgPath()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	marks := map[string][]Suite{}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pkg := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == self {
				pkg = "testenv"
				if imp.Name != nil {
					pkg = imp.Name.Name
				}
			}
		}
		if pkg == "" {
			continue
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !isTest(fn.Name.Name) {
				continue
			}
			for _, stmt := range fn.Body.List {
				call, ok := isCall(stmt, pkg, "Engines")
				if !ok {
					continue
				}
				for _, arg := range call.Args[1:] {
					sel, ok := arg.(*ast.SelectorExpr)
					var s Suite
					if ok && isIdent(sel.X, pkg) {
						s, ok = suites[sel.Sel.Name]
					}
					if !ok {
						return nil, fmt.Errorf("%s: %s marks itself with %s, not a testenv suite constant", fset.Position(arg.Pos()), fn.Name.Name, exprString(arg))
					}
					marks[fn.Name.Name] = append(marks[fn.Name.Name], s)
				}
			}
		}
	}
	return marks, nil
}

// isCall returns stmt's call when it is a call of pkg.name.
func isCall(stmt ast.Stmt, pkg, name string) (*ast.CallExpr, bool) {
	es, ok := stmt.(*ast.ExprStmt)
	if !ok {
		return nil, false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil, false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || !isIdent(sel.X, pkg) {
		return nil, false
	}
	return call, true
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}

// isTest says whether name is a test function's name, as go test decides:
// Test, then nothing or a character that is not a lower-case letter.
func isTest(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}
