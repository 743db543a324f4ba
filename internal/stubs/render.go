package stubs

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
)

// Preamble is the Python source that must precede stubs for them to run as
// code rather than be read as text: it imports the names that type hints use.
// The tool namer of a module built this way should reserve "Any" and
// "Literal" (see [Namer.Reserve]).
const Preamble = "from typing import Any, Literal\n"

// Limits on the text that stubs carry, in runes.
const (
	maxToolDoc  = 1000 // a tool's description
	maxParamDoc = 300  // a parameter's description
	maxSummary  = 120  // a tool's summary
	maxDefault  = 200  // a non-scalar default shown in a docstring
	maxOneLine  = 100  // longest signature kept on one line
)

// Stub renders t as a Python async function with type hints and a docstring,
// for example:
//
//	async def create_issue(owner: str, repo: str, title: str, body: str | None = None) -> Any:
//	    """Create a new issue in a repository.
//
//	    Args:
//	        owner: Repository owner.
//	        body: Issue body.
//	    """
//
// Required parameters come first and have no default. An optional parameter
// gets its schema default when that is a JSON scalar (rendered as a Python
// literal: true -> True, null -> None, strings repr'd) and "= None"
// otherwise; with "= None", "| None" is added to its hint unless the hint
// already admits None or is Any. If t.AllowsExtra, the signature ends with
// "**kwargs: Any" (or "**kwargs_2: Any" and so on, if a parameter is called
// kwargs). A signature longer than about 100 characters is split into one
// parameter per line.
//
// The docstring holds the tool's description (cleaned like
// inspect.cleandoc and cut at a word boundary with "…" after about 1000
// characters) and an Args section with one line per parameter that has
// something to say: its description (whitespace collapsed, cut after about
// 300 characters), its format, its Shape and its default if the signature
// does not show it (a list or object, or the default of a required
// parameter, shown as JSON or as a Python literal). When a
// parameter's Python name differs from its JSON name, the line says so:
// `from_ (JSON name "from"): ...`. Quotes, backslashes and control
// characters in the text are escaped so that they cannot end or break the
// docstring.
//
// The result is syntactically valid Python for any Tool whose Param types
// are valid Python expressions, as those made by [FromSchema] are. Names
// that are not usable identifiers, and duplicate parameter names, are
// replaced as a [Namer] would.
func (t Tool) Stub() string {
	sig, doc := t.render()
	if doc == "" {
		return sig + "    ...\n"
	}
	return sig + `    """` + escapeDoc(doc) + `"""` + "\n"
}

// render returns the signature line(s) of t's stub, ending in ":\n", and the
// value of its docstring ("" for none).
func (t Tool) render() (sig, doc string) {
	fn := t.funcName()
	decls, args := t.decls()

	var b strings.Builder
	b.WriteString("async def ")
	b.WriteString(fn)
	b.WriteByte('(')
	if oneLine := strings.Join(decls, ", "); utf8.RuneCountInString(fn+oneLine) <= maxOneLine {
		b.WriteString(oneLine)
	} else {
		b.WriteByte('\n')
		for _, d := range decls {
			b.WriteString("    ")
			b.WriteString(d)
			b.WriteString(",\n")
		}
	}
	b.WriteString(") -> Any:\n")

	var lines []string
	if d := truncate(cleanDoc(t.Description), maxToolDoc); d != "" {
		lines = strings.Split(d, "\n")
	}
	if len(args) > 0 {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, "Args:")
		for _, a := range args {
			lines = append(lines, "    "+a)
		}
	}
	if len(lines) <= 1 {
		return b.String(), strings.Join(lines, "")
	}
	// A multi-line docstring: the lines after the first are indented like
	// the body, and the closing quotes get a line of their own.
	var text strings.Builder
	text.WriteString(lines[0])
	text.WriteByte('\n')
	for _, line := range lines[1:] {
		if line != "" {
			text.WriteString("    ")
			text.WriteString(line)
		}
		text.WriteByte('\n')
	}
	text.WriteString("    ")
	return b.String(), text.String()
}

// funcName is the Python name of t's function: t.Py when it is a usable
// identifier, else one made from it (or from t.Name).
func (t Tool) funcName() string {
	if validIdentifier(t.Py) {
		return t.Py
	}
	return Identifier(cmp.Or(t.Py, t.Name))
}

// decls returns the declarations of t's parameters, in signature order
// ("owner: str", "body: str | None = None", "**kwargs: Any"), and the Args
// lines of its docstring.
func (t Tool) decls() (decls, args []string) {
	var namer Namer
	decls = make([]string, 0, len(t.Params)+1)
	for _, p := range t.Params {
		id := p.Py
		if validIdentifier(id) && !namer.Taken(id) {
			namer.Reserve(id)
		} else {
			id = namer.Name(cmp.Or(p.Py, p.Name))
		}
		typ := cmp.Or(p.Type, "Any")
		decl := id + ": " + typ
		if !p.Required {
			def, ok := pyScalar(p.Default)
			if !ok {
				def = "None"
			}
			if def == "None" && !admitsNone(typ) {
				decl += " | None"
			}
			decl += " = " + def
		}
		decls = append(decls, decl)
		if a := argDoc(id, p); a != "" {
			args = append(args, a)
		}
	}
	if t.AllowsExtra {
		kw := namer.Name("kwargs")
		decls = append(decls, "**"+kw+": Any")
		args = append(args, "**"+kw+": Further arguments, passed on under their own names (the schema allows names it does not list).")
	}
	return decls, args
}

// argDoc returns the Args line of parameter p, named id in Python, or "" if
// there is nothing to say about it.
func argDoc(id string, p Param) string {
	var pieces []string
	if d := truncate(strings.Join(strings.Fields(p.Description), " "), maxParamDoc); d != "" {
		pieces = append(pieces, d)
	}
	if f := strings.Join(strings.Fields(p.Format), " "); f != "" {
		pieces = append(pieces, "Format: "+truncate(f, maxSummary)+".")
	}
	if p.Shape != "" {
		pieces = append(pieces, "Shape: "+p.Shape+".")
	}
	if p.Default != nil {
		// Scalar defaults of optional parameters are in the signature.
		def, scalar := pyScalar(p.Default)
		if !scalar {
			def = truncate(string(p.Default), maxDefault)
		}
		if !scalar || p.Required {
			pieces = append(pieces, "Default: "+def+".")
		}
	}
	label := id
	if id != p.Name {
		label += " (JSON name " + string(appendJSONString(nil, p.Name)) + ")"
	} else if len(pieces) == 0 {
		return ""
	}
	for i := range len(pieces) - 1 {
		if !endsSentence(pieces[i]) {
			pieces[i] += "."
		}
	}
	return strings.TrimRight(label+": "+strings.Join(pieces, " "), " ")
}

// endsSentence reports whether s ends with punctuation that closes a
// sentence or introduces what follows.
func endsSentence(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?:;…。！？", r)
}

// Summary returns the first sentence of t's description, or its first line
// when no sentence ends within its first paragraph, cut at a word boundary
// with "…" to at most 120 characters. It is "" if the description is empty.
func (t Tool) Summary() string {
	lines := strings.Split(cleanDoc(t.Description), "\n")
	n := 1
	for n < len(lines) && lines[n] != "" && !startsBlock(lines[n]) {
		n++
	}
	// A terminal shows it (the search command), so it holds no escape or
	// other control or format character.
	para := printable.Words(strings.Join(lines[:n], " "))
	if end := sentenceEnd(para); end > 0 {
		para = para[:end]
	} else {
		para = printable.Words(lines[0])
	}
	return truncate(para, maxSummary)
}

// startsBlock reports whether a description line starts something other
// than a continuation of the previous line: an indented line or a list item.
func startsBlock(line string) bool {
	if line[0] == ' ' || line[0] == '\t' {
		return true
	}
	switch line[0] {
	case '-', '*', '+', '#', '|', '>':
		return true
	}
	if strings.HasPrefix(line, "•") {
		return true
	}
	i := strings.IndexFunc(line, func(r rune) bool { return r < '0' || r > '9' })
	return i > 0 && (line[i] == '.' || line[i] == ')')
}

// sentenceEnd returns the byte offset just past the first sentence of s, or
// 0 if no sentence ends in s (the last one does not need a closing period).
func sentenceEnd(s string) int {
	for i, r := range s {
		switch r {
		case '。', '！', '？':
			return i + utf8.RuneLen(r)
		case '.', '!', '?':
			if i+1 < len(s) && s[i+1] != ' ' {
				continue // "3.5", "example.com", "?!"
			}
			if r == '.' && isAbbreviation(s[:i+1]) {
				continue
			}
			return i + 1
		}
	}
	return 0
}

// isAbbreviation reports whether s ends with an abbreviation that does not
// end a sentence.
func isAbbreviation(s string) bool {
	word := s[strings.LastIndexByte(s, ' ')+1:]
	switch strings.ToLower(strings.TrimLeft(word, "([\"'")) {
	case "e.g.", "i.e.", "vs.", "cf.":
		return true
	}
	return false
}

// cleanDoc normalizes a description the way inspect.cleandoc does: line
// breaks become "\n", trailing whitespace goes, the first line loses its
// leading whitespace and the others their common indentation, and leading
// and trailing blank lines are dropped. Runs of blank lines become one, and
// unusual spaces (such as U+00A0) become ' '.
func cleanDoc(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
			return '\n'
		case '\t', '\n':
			return r
		}
		if unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, strings.ReplaceAll(s, "\r\n", "\n"))
	lines := strings.Split(s, "\n")
	indent := -1
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		if i == 0 {
			l = strings.TrimLeft(l, " \t")
		} else if l != "" {
			n := len(l) - len(strings.TrimLeft(l, " \t"))
			if indent < 0 || n < indent {
				indent = n
			}
		}
		lines[i] = l
	}
	out := lines[:0]
	for i, l := range lines {
		if i > 0 && l != "" {
			l = l[indent:]
		}
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	if len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// truncate cuts s to at most limit runes, at a word boundary when there is
// one in the second half of the allowed text, and marks the cut with "…".
func truncate(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	all := []rune(s)
	r := all[:limit-1]
	if !unicode.IsSpace(all[limit-1]) { // Else the cut is at a boundary.
		for i := len(r) - 1; i >= len(r)/2; i-- {
			if unicode.IsSpace(r[i]) {
				r = r[:i]
				break
			}
		}
	}
	return strings.TrimRightFunc(string(r), unicode.IsSpace) + "…"
}

// escapeDoc escapes text for the inside of a """-quoted Python string, so
// that the string's value is text: backslashes are doubled, every third
// quote of a run (and a final quote) is escaped, and control and other
// non-printable characters other than '\n' and '\t' become escapes.
func escapeDoc(text string) string {
	var b []byte
	quotes := 0 // unescaped '"' just written
	for _, r := range strings.ToValidUTF8(text, "\uFFFD") {
		if r == '"' {
			if quotes == 2 {
				b = append(b, '\\', '"')
				quotes = 0
			} else {
				b = append(b, '"')
				quotes++
			}
			continue
		}
		quotes = 0
		switch {
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\n' || r == '\t' || r == ' ':
			b = append(b, byte(r))
		default:
			b = appendPyRune(b, r)
		}
	}
	if quotes > 0 {
		// The closing """ must not join a quote at the end of the text.
		b = append(b[:len(b)-1], '\\', '"')
	}
	return string(b)
}

// pyRepr returns s as a Python string literal, as Python's repr would
// write it: in single quotes unless s contains a single quote and no double
// one.
func pyRepr(s string) string {
	q := '\''
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	b := []byte{byte(q)}
	for _, r := range s {
		switch r {
		case q, '\\':
			b = append(b, '\\', byte(r))
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = appendPyRune(b, r)
		}
	}
	return string(append(b, byte(q)))
}

// appendPyRune appends r to b, as a \x, \u or \U escape if it is not
// printable (or is a space other than ' ').
func appendPyRune(b []byte, r rune) []byte {
	if r == ' ' || unicode.IsPrint(r) {
		return utf8.AppendRune(b, r)
	}
	const hex = "0123456789abcdef"
	switch {
	case r < 0x100:
		return append(b, '\\', 'x', hex[r>>4], hex[r&0xf])
	case r < 0x10000:
		return append(b, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	b = append(b, '\\', 'U')
	for shift := 28; shift >= 0; shift -= 4 {
		b = append(b, hex[r>>shift&0xf])
	}
	return b
}

// pyScalar returns the Python literal for a JSON scalar (null, a boolean, a
// number or a string), and false for anything else.
func pyScalar(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '{', '[':
		return "", false
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return "", false
	}
	switch v := v.(type) {
	case nil:
		return "None", true
	case bool:
		return pyBool(v), true
	case json.Number:
		return string(v), true // JSON numbers are Python literals too.
	case string:
		return pyRepr(v), true
	}
	return "", false
}

func pyBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

// admitsNone reports whether the type hint typ already allows None.
func admitsNone(typ string) bool {
	return typ == "Any" || typ == "None" || strings.HasSuffix(typ, "| None") ||
		strings.HasPrefix(typ, "None |") || strings.HasPrefix(typ, "Optional[")
}

// validIdentifier reports whether s is an ASCII Python identifier that is
// not a keyword.
func validIdentifier(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' || pythonKeywords[s] {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}
