package stubs

import (
	"strconv"
	"strings"
)

// Identifier rewrites an MCP name (of a server, a tool or a parameter) into a
// Python identifier that is safe to use as a module attribute, a function
// name or a parameter name.
//
// The rules, applied in order:
//
//   - Every rune that is not an ASCII letter, ASCII digit or '_' becomes one
//     '_' (so "get-weather" -> "get_weather", "a.b c" -> "a_b_c",
//     "a--b" -> "a__b", "café" -> "caf_"). Runs are not merged: each rune
//     (and each byte of invalid UTF-8) gives exactly one '_', so names that
//     differ only in how many separators they use stay distinct.
//   - A name that starts with a digit gets a leading '_' ("2fa" -> "_2fa");
//     the empty name becomes "_".
//   - A Python hard keyword ("class"), the name of a Python 3.11+ builtin
//     ("print", "type", "ValueError") or a dunder name (one that starts and
//     ends with "__", such as "__init__") gets a trailing '_'
//     ("class" -> "class_", "__init__" -> "__init___").
//
// Names that are already valid and not reserved are returned unchanged.
// Identifier does not guarantee uniqueness; use a [Namer] for that.
func Identifier(name string) string {
	if name == "" {
		return "_"
	}
	var b strings.Builder
	b.Grow(len(name) + 2)
	if c := name[0]; '0' <= c && c <= '9' {
		b.WriteByte('_')
	}
	for _, r := range name {
		if r < 0x80 && isIdentByte(byte(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	id := b.String()
	if reserved(id) {
		id += "_"
	}
	return id
}

// isIdentByte reports whether c is an ASCII letter, digit or underscore.
func isIdentByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// reserved reports whether id must not be used as is: a hard keyword, a
// builtin or a dunder name.
func reserved(id string) bool {
	if strings.HasPrefix(id, "__") && strings.HasSuffix(id, "__") {
		return true
	}
	return pythonKeywords[id] || pythonBuiltins[id]
}

// Module returns the name of the Python module that holds the tools of the
// server with the given alias: "mcp_" + alias. The alias must already be an
// identifier (made by [Identifier] or a [Namer]).
func Module(alias string) string {
	return "mcp_" + alias
}

// A Namer hands out unique Python identifiers within one namespace: the tools
// of one module, the server aliases of one run or the parameters of one tool.
//
// The zero value is an empty namespace, ready to use. A Namer is not safe for
// concurrent use.
type Namer struct {
	taken map[string]bool
}

// Name returns [Identifier](mcpName) if that identifier is still free in n,
// and otherwise the identifier with the first of "_2", "_3", ... appended
// that is free. The result is marked as taken. The same sequence of calls
// always gives the same results.
//
// For example, "get-weather" then "get_weather" give "get_weather" then
// "get_weather_2".
func (n *Namer) Name(mcpName string) string {
	id := Identifier(mcpName)
	if n.taken[id] {
		for i := 2; ; i++ {
			c := id + "_" + strconv.Itoa(i)
			if !n.taken[c] {
				id = c
				break
			}
		}
	}
	n.mark(id)
	return id
}

// Reserve marks the given identifiers as taken, so that Name never returns
// them. They are taken literally, not passed through [Identifier]. A Namer
// for the tools of a module that is executed together with [Preamble]
// should reserve "Any" and "Literal".
func (n *Namer) Reserve(ids ...string) {
	for _, id := range ids {
		n.mark(id)
	}
}

// Taken reports whether id has been handed out by Name or reserved.
func (n *Namer) Taken(id string) bool {
	return n.taken[id]
}

func (n *Namer) mark(id string) {
	if n.taken == nil {
		n.taken = make(map[string]bool)
	}
	n.taken[id] = true
}

// pythonKeywords are Python's hard keywords (keyword.kwlist). Soft keywords
// (match, case, type, _) are valid identifiers and are not listed.
var pythonKeywords = setOf(
	"False", "None", "True", "and", "as", "assert", "async", "await",
	"break", "class", "continue", "def", "del", "elif", "else", "except",
	"finally", "for", "from", "global", "if", "import", "in", "is",
	"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
	"while", "with", "yield",
)

// pythonBuiltins are the public names of the builtins module of Python 3.11
// (dir(builtins) without the names starting with '_'), plus the ones added
// by later versions.
var pythonBuiltins = setOf(
	// Exceptions and warnings.
	"ArithmeticError", "AssertionError", "AttributeError", "BaseException",
	"BaseExceptionGroup", "BlockingIOError", "BrokenPipeError", "BufferError",
	"BytesWarning", "ChildProcessError", "ConnectionAbortedError",
	"ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
	"DeprecationWarning", "EOFError", "EncodingWarning", "EnvironmentError",
	"Exception", "ExceptionGroup", "FileExistsError", "FileNotFoundError",
	"FloatingPointError", "FutureWarning", "GeneratorExit", "IOError",
	"ImportError", "ImportWarning", "IndentationError", "IndexError",
	"InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt",
	"LookupError", "MemoryError", "ModuleNotFoundError", "NameError",
	"NotADirectoryError", "NotImplementedError", "OSError", "OverflowError",
	"PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
	"PythonFinalizationError", // 3.13
	"RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError",
	"RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError",
	"SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError",
	"TypeError", "UnboundLocalError", "UnicodeDecodeError",
	"UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError",
	"UnicodeWarning", "UserWarning", "ValueError", "Warning",
	"ZeroDivisionError",
	// Constants.
	"Ellipsis", "NotImplemented",
	// Functions and types.
	"abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool",
	"breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod",
	"compile", "complex", "copyright", "credits", "delattr", "dict", "dir",
	"divmod", "enumerate", "eval", "exec", "exit", "filter", "float",
	"format", "frozenset", "getattr", "globals", "hasattr", "hash", "help",
	"hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len",
	"license", "list", "locals", "map", "max", "memoryview", "min", "next",
	"object", "oct", "open", "ord", "pow", "print", "property", "quit",
	"range", "repr", "reversed", "round", "set", "setattr", "slice",
	"sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars",
	"zip",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
