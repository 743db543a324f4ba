// Package printable makes text from outside the host safe to show on one
// line: on a terminal, in a log line or a table. A server's error output or
// description may hold terminal escapes (which can retitle a window, clear
// the screen or forge a link), bells, newlines that forge lines, and
// bidirectional overrides or zero-width characters that show text other
// than what is there.
package printable

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unprintable reports whether r is not shown as itself: a control
// character (escape, bell, newline, ...), a format character
// (bidirectional overrides, zero-width characters) or a line or paragraph
// separator.
func Unprintable(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Is reports whether s is valid UTF-8 and has no rune that is
// Unprintable: whether it shows as itself.
func Is(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, Unprintable)
}

// Line returns s with every rune that is Unprintable, and every byte that
// is not valid UTF-8, as a space.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		if r == unicode.ReplacementChar || Unprintable(r) {
			return ' '
		}
		return r
	}, s)
}

// Words returns s as Line does, with each run of spaces made one and none
// at either end.
func Words(s string) string {
	return strings.Join(strings.Fields(Line(s)), " ")
}

// Quote returns s as it is when every rune of it is printable and it is
// valid UTF-8, and otherwise s quoted as a Go string literal
// (strconv.Quote), whose escapes show what is there. Unlike Line it keeps
// two different strings apart, so that what it returns can name a thing.
func Quote(s string) string {
	if Is(s) {
		return s
	}
	return strconv.Quote(s)
}

// Text returns s for showing as lines of text that a reader must be able to
// trust, such as code under review: newlines and tabs stay, and every other
// rune that is Unprintable, and every byte that is not valid UTF-8, is
// written as its Go escape ("\x1b", "\r", "\u202e", "\xff"), so that what
// would conceal, overwrite or reorder the text shows instead.
func Text(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[0])
		case r != '\n' && r != '\t' && Unprintable(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}
