package discovery

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// reader collects what Discover finds.
type reader struct {
	env
	servers  []config.Server
	problems []Problem
	parsed   map[string]*file // by path: ~/.claude.json is read by two steps

	// From ~/.claude.json projects[<cwd>]: servers turned off there, and
	// the .mcp.json servers the user approved in Claude Code.
	claudeDisabled, claudeDisabledMcpjson []string
	claudeEnabledMcpjson                  []string
	claudeEnableAllMcpjson                bool
	claudeProjectKey                      string

	approved func(dir, source, hash string) bool // Options.Approved
}

// file is one parsed config file.
type file struct {
	client, path string
	root         *cfgValue
	project      bool // a file of the project: its servers need approval
}

func (r *reader) problem(f *file, v *cfgValue, key, format string, args ...any) {
	p := Problem{Client: f.client, Path: f.path, Key: key, Err: fmt.Sprintf(format, args...)}
	if v != nil {
		p.Line = v.line
	}
	r.problems = append(r.problems, p)
}

// load reads and parses a file once; nil if it is missing or unusable (the
// latter is a Problem).
func (r *reader) load(client, path string, format fileFormat) *file {
	if f, ok := r.parsed[path]; ok {
		return f
	}
	r.parsed[path] = nil
	fail := func(line int, msg string) *file {
		r.problems = append(r.problems, Problem{Client: client, Path: path, Line: line, Err: msg})
		return nil
	}
	data, err := safefile.Read(path, maxConfigSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, safefile.ErrTooLarge):
		return fail(0, fmt.Sprintf("larger than %d MiB", maxConfigSize>>20))
	case errors.Is(err, safefile.ErrNotRegular):
		return fail(0, "skipped: "+strings.TrimPrefix(err.Error(), path+": "))
	case err != nil:
		return fail(0, "cannot read: "+osErr(err))
	}
	if format == formatByExt {
		format = formatJSONC
		if ext := strings.ToLower(filepath.Ext(path)); ext == ".yaml" || ext == ".yml" {
			format = formatYAML
		}
	}
	root, err := parseConfig(data, format)
	if err != nil {
		var pe *parseError
		if errors.As(err, &pe) {
			return fail(pe.line, pe.msg)
		}
		return fail(0, err.Error())
	}
	if root.kind != cfgObject {
		return fail(root.line, "the top level must be an object, not "+root.kindName())
	}
	f := &file{client: client, path: path, root: root}
	r.parsed[path] = f
	return f
}

func parseConfig(data []byte, format fileFormat) (*cfgValue, error) {
	switch format {
	case formatJSON:
		return parseJSON(data)
	case formatTOML:
		return parseTOML(data)
	case formatYAML:
		return parseYAML(data)
	}
	return parseJSONC(data)
}

// osErr is an OS error without the path (Problem.Path has it).
func osErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
