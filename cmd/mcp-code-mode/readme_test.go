package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every mcp-code-mode command line in the README (its shell blocks and its
// code spans) parses as
// pasted: the command exists, its flags exist and take the values given,
// and its arguments are of the number it takes. (What the commands do is
// tested where they are: this catches a README that drifts from the CLI.)
func TestEveryREADMECommandLineParses(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := readmeCommandLines(string(b))
	for _, m := range inlineCommand.FindAllStringSubmatch(string(b), -1) {
		lines = append(lines, m[1])
	}
	if len(lines) < 12 {
		t.Fatalf("found only %d command lines in the README's sh blocks: the reader is broken", len(lines))
	}
	for _, line := range lines {
		args, err := shellWords(line)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		root := newRoot(streams{})
		root.InitDefaultHelpCmd() // cobra adds them when it executes
		root.InitDefaultCompletionCmd()
		cmd, rest, err := root.Find(args[1:])
		if err != nil || cmd == root {
			t.Errorf("%s: no such command (%v)", line, err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// inlineCommand is a command in a code span: `mcp-code-mode servers`.
var inlineCommand = regexp.MustCompile("`((?:bin/)?mcp-code-mode [a-z][^`]*)`")

// readmeCommandLines returns the lines of ```sh blocks that run this
// program (bin/mcp-code-mode or mcp-code-mode), continuation lines joined
// and comments cut.
func readmeCommandLines(readme string) []string {
	var out []string
	in := false
	var cur strings.Builder
	for line := range strings.SplitSeq(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in = false
			continue
		case !in:
			continue
		}
		cur.WriteString(line)
		if strings.HasSuffix(line, "\\") || openQuote(cur.String()) {
			cur.WriteString("\n")
			continue
		}
		full := strings.TrimSpace(cur.String())
		cur.Reset()
		if strings.HasPrefix(full, "bin/mcp-code-mode ") || strings.HasPrefix(full, "mcp-code-mode ") {
			out = append(out, full)
		}
	}
	return out
}

// openQuote reports whether s ends inside a quoted string (a # outside
// quotes starts a comment, whose apostrophes do not count).
func openQuote(s string) bool {
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q != 0 && c == q:
			q = 0
		case q != 0:
		case c == '\'' || c == '"':
			q = c
		case c == '#' && (i == 0 || s[i-1] == ' '):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		}
	}
	return q != 0
}

// shellWords splits a command line as sh does for the README's simple
// lines: single and double quotes, backslash-newline, and a # comment.
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && line[i+1] == '\n':
			i++
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, os.ErrInvalid
			}
			w.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '#' && !inWord:
			return words, nil
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
