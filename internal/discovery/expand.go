package discovery

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// expandSyntax is how a client writes references to variables in its config
// files. Each client expands them itself when it starts a server; Discover
// does the same so that the server it returns is the one the client runs.
type expandSyntax int

const (
	// syntaxNone: values are used as written (Claude Desktop, Codex, Zed,
	// Cline, LM Studio, Continue, mcp-dir).
	syntaxNone expandSyntax = iota
	// syntaxBraces: ${VAR} and ${VAR:-default}. Claude Code documents both
	// for command, args, env, url and headers ("Environment variable
	// expansion in .mcp.json", https://code.claude.com/docs/en/mcp); a bare
	// $VAR is left alone. Kiro documents ${VAR}
	// (https://kiro.dev/docs/mcp/configuration).
	syntaxBraces
	// syntaxDollar: $VAR and ${VAR}, Gemini CLI's resolveEnvVarsInString
	// (google-gemini/gemini-cli packages/cli/src/utils/envVarResolver.ts,
	// regex /\$(?:(\w+)|{([^}]+)})/).
	syntaxDollar
	// syntaxEditor: ${env:NAME} and the editor's predefined variables
	// (${workspaceFolder}, ${userHome}, ...): VS Code
	// (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration),
	// Cursor (${env:NAME}, ${userHome}, ${workspaceFolder}), Windsurf
	// (${env:NAME}).
	syntaxEditor
	// syntaxOpenCode: {env:VAR} (https://opencode.ai/docs/config, "Variables").
	syntaxOpenCode
)

// expander expands the variable references of one entry and remembers what
// it could not resolve.
type expander struct {
	syntax expandSyntax
	lookup func(string) (string, bool)
	// vars are the predefined variables of syntaxEditor, without "${}".
	vars map[string]string
	// inputs: ${input:ID} and ${command:ID} cannot be resolved outside the
	// editor (VS Code prompts for inputs and keeps them in its secret
	// storage), so an entry using them is blocked.
	inputs bool

	unset   []string // variables that were not set
	blocked string   // why the entry cannot be used as found ("" = it can)
}

var (
	bracesRef = regexp.MustCompile(`\$\{([^}:]+)(?::-([^}]*))?\}`)
	dollarRef = regexp.MustCompile(`\$(?:(\w+)|\{([^}]+)\})`)
	editorRef = regexp.MustCompile(`\$\{([^}]+)\}`)
	openRef   = regexp.MustCompile(`\{env:([^}]+)\}`)
)

// expand returns s with its references replaced. An unset variable becomes
// "" (as in a shell) and is noted in x.unset.
func (x *expander) expand(s string) string {
	switch x.syntax {
	case syntaxBraces:
		return bracesRef.ReplaceAllStringFunc(s, func(m string) string {
			g := bracesRef.FindStringSubmatch(m)
			if v, ok := x.lookup(g[1]); ok {
				return v
			}
			if strings.Contains(m, ":-") {
				return g[2]
			}
			return x.miss(g[1])
		})
	case syntaxDollar:
		return dollarRef.ReplaceAllStringFunc(s, func(m string) string {
			g := dollarRef.FindStringSubmatch(m)
			name := g[1] + g[2]
			if v, ok := x.lookup(name); ok {
				return v
			}
			return x.miss(name)
		})
	case syntaxEditor:
		return editorRef.ReplaceAllStringFunc(s, func(m string) string {
			inner := m[2 : len(m)-1]
			if name, ok := strings.CutPrefix(inner, "env:"); ok {
				if v, ok := x.lookup(name); ok {
					return v
				}
				return x.miss(name)
			}
			if v, ok := x.vars[inner]; ok {
				return v
			}
			if x.inputs {
				for _, p := range []string{"input:", "command:"} {
					if id, ok := strings.CutPrefix(inner, p); ok {
						if x.blocked == "" {
							x.blocked = fmt.Sprintf("needs the VS Code %s %q (%s), which only VS Code can supply", strings.TrimSuffix(p, ":"), id, m)
						}
						return m
					}
				}
			}
			return m // unknown to us: left as written
		})
	case syntaxOpenCode:
		return openRef.ReplaceAllStringFunc(s, func(m string) string {
			name := m[len("{env:") : len(m)-1]
			if v, ok := x.lookup(name); ok {
				return v
			}
			return x.miss(name)
		})
	}
	return s
}

func (x *expander) miss(name string) string {
	if !slices.Contains(x.unset, name) {
		x.unset = append(x.unset, name)
	}
	return ""
}

func (x *expander) list(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = x.expand(s)
	}
	return out
}

func (x *expander) dict(in map[string]string) map[string]string {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = x.expand(v)
	}
	return out
}

// envFileLine is one problem in an env file: its line, and what is wrong
// (never the line's text, which may hold a secret).
type envFileLine struct {
	line int
	err  string
}

// parseEnvFile reads KEY=VALUE lines as VS Code's and Cursor's envFile
// ("Path to an environment file to load more variables", dotenv style):
// blank lines and # comments are skipped, "export " is allowed, a value in
// matching single or double quotes is unquoted (\n, \t, \" and \\ are
// unescaped in double quotes), and an unquoted value ends at " #".
func parseEnvFile(b []byte) (map[string]string, []envFileLine) {
	env := map[string]string{}
	var bad []envFileLine
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff"))))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || !envName.MatchString(k) {
			bad = append(bad, envFileLine{n, "not KEY=VALUE"})
			continue
		}
		v = strings.TrimSpace(v)
		switch {
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			v = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1])
		case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
			v = v[1 : len(v)-1]
		default:
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
		}
		env[k] = v
	}
	if sc.Err() != nil {
		bad = append(bad, envFileLine{n + 1, "line too long"})
	}
	return env, bad
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)
