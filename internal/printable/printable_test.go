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

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"def f():\n\treturn 1\n":            "def f():\n\treturn 1\n",
		"ok = 1  # café\n":                  "ok = 1  # café\n",
		"x = 1\x1b[8m\nhidden()\x1b[0m\n":   `x = 1\x1b[8m` + "\n" + `hidden()\x1b[0m` + "\n",
		"looks_fine()\rrm_everything()\r\n": `looks_fine()\rrm_everything()\r` + "\n",
		"a\u202eb\x07c\xffd":                `a\u202eb\ac\xffd`,
	} {
		got := Text(in)
		if got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsFunc(strings.NewReplacer("\n", "", "\t", "").Replace(got), Unprintable) {
			t.Errorf("Text(%q) holds an unprintable rune other than a newline or a tab", in)
		}
	}
}

func TestIs(t *testing.T) {
	for s, want := range map[string]bool{"create_issue": true, "café 🙂": true, "": true, "a\x1bb": false, "a\u202eb": false, "a\nb": false, "a\xffb": false} {
		if got := Is(s); got != want {
			t.Errorf("Is(%q) = %v, want %v", s, got, want)
		}
	}
}
