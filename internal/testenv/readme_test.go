package testenv

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README names the test of each control in its threat model. A test
// renamed or moved must not leave the README pointing at nothing: every
// Test, Fuzz and Benchmark name in it must be declared in the package it
// names (pkg.TestX or path/pkg.TestX), or, unqualified, in some package
// of the repository (in the threat model's rows: internal/aggregator, as
// its header says).
func TestEveryTestTheREADMENamesExists(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)\w+)\(`)
	where := map[string][]string{} // test name -> directories (slash paths from the root)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			where[m[1]] = append(where[m[1]], filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(where) < 100 {
		t.Fatalf("found only %d test functions: the walk is broken", len(where))
	}
	named := regexp.MustCompile("`(?:([\\w/.-]+)\\.)?((?:Test|Fuzz|Benchmark)[A-Z]\\w*)`")
	threat := false
	checked := 0
	for line := range strings.SplitSeq(string(readme), "\n") {
		if strings.HasPrefix(line, "## ") {
			threat = line == "## Threat model"
		}
		for _, m := range named.FindAllStringSubmatch(line, -1) {
			pkg, name := m[1], m[2]
			dirs := where[name]
			checked++
			switch {
			case len(dirs) == 0:
				t.Errorf("README names %s, which no test file declares", m[0])
			case pkg != "":
				if !anySuffix(dirs, pkg) {
					t.Errorf("README names %s, but %s is declared in %v", m[0], name, dirs)
				}
			case threat && strings.HasPrefix(line, "|"):
				if !anySuffix(dirs, "internal/aggregator") {
					t.Errorf("README's threat model names %s (package internal/aggregator, as its header says), but it is declared in %v", m[0], dirs)
				}
			}
		}
	}
	if checked < 30 {
		t.Fatalf("README names only %d tests: the pattern is broken", checked)
	}
}

func anySuffix(dirs []string, pkg string) bool {
	for _, d := range dirs {
		if d == pkg || strings.HasSuffix(d, "/"+pkg) {
			return true
		}
	}
	return false
}
