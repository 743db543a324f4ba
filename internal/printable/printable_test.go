package printable

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, ünïcode and emoji 🙂": "plain text, ünïcode and emoji 🙂",
		"fatal \x1b]0;pwned\a\x1b[2J":     "fatal  ]0;pwned  [2J",
		"two\nlines\r\n":                  "two lines  ",
		"abc\u202edcba \u200bzero":        "abc dcba  zero",
		"bad \xff byte":                   "bad   byte",
		"\u2028\u2029\u0085":              "   ",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

// No rune Line lets through is one a terminal acts on.
func TestLineLeavesNothingUnprintable(t *testing.T) {
	var b strings.Builder
	for r := rune(0); r < 0x30000; r++ {
		b.WriteRune(r)
	}
	for _, r := range Line(b.String()) {
		if Unprintable(r) {
			t.Fatalf("Line let %U through", r)
		}
	}
}

func TestWords(t *testing.T) {
	if got, want := Words("  fatal\x1b[2J\n\tline \u202e two  "), "fatal [2J line two"; got != want {
		t.Errorf("Words = %q, want %q", got, want)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/home/me/.mcp.json#mcpServers.github": "/home/me/.mcp.json#mcpServers.github",
		"café \"naïve\"":                       "café \"naïve\"",
		"evil\x1b]0;pwned\a":                   `"evil\x1b]0;pwned\a"`,
		"rtl\u202egnp.exe":                     `"rtl\u202egnp.exe"`,
		"bad\xffbyte":                          `"bad\xffbyte"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
		if strings.ContainsFunc(Quote(in), Unprintable) {
			t.Errorf("Quote(%q) holds an unprintable rune", in)
		}
	}
	// Two strings that Line makes one stay two.
	if a, b := Quote("x\x1b"), Quote("x\a"); a == b {
		t.Errorf("Quote made %q and %q the same: %s", "x\x1b", "x\a", a)
	}
}
