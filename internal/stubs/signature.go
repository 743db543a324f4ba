package stubs

import (
	"strings"
	"unicode/utf8"
)

// maxSignature bounds a one-line signature, in runes (before "...").
const maxSignature = 240

// Signature returns t's call on one line, as a program writes it after
// "await mcp_{alias}.": the function's name, its parameters as its stub
// declares them, and the return hint:
//
//	create_issue(owner: str, repo: str, title: str, body: str | None = None) -> Any
//
// Parameters that would take it past about 240 characters are left out, and
// "..." stands for them ([Tool.Stub] has them all); the name is always
// whole. Required parameters come first, so they are the last to be left
// out.
func (t Tool) Signature() string {
	fn := t.funcName()
	decls, _ := t.decls()
	const tail = ") -> Any"
	var b strings.Builder
	b.WriteString(fn)
	b.WriteByte('(')
	used := utf8.RuneCountInString(fn) + 1 + len(tail)
	for i, d := range decls {
		sep := ""
		if i > 0 {
			sep = ", "
		}
		n := utf8.RuneCountInString(sep + d)
		if used+n > maxSignature {
			b.WriteString(sep + "...")
			break
		}
		b.WriteString(sep + d)
		used += n
	}
	b.WriteString(tail)
	return b.String()
}
