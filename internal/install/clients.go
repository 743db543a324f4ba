package install

import "slices"

// EntryName is the name of this program's entry in a client's file.
const EntryName = "code-mode"

// entryFor is the entry `install` writes for client: this program's path
// and "serve", in the form that client's own tools write.
func entryFor(client, exe string) orderedJSON {
	cmd := keyVal{"command", exe}
	args := keyVal{"args", []string{"serve"}}
	switch client {
	case "claude-code":
		// What `claude mcp add --scope user code-mode -- EXE serve` writes.
		return orderedJSON{{"type", "stdio"}, cmd, args, {"env", map[string]string{}}}
	case "vscode":
		return orderedJSON{{"type", "stdio"}, cmd, args}
	case "zed":
		// The custom-server form of Zed's documentation (docs/src/ai/mcp.md).
		return orderedJSON{cmd, args, {"env", map[string]string{}}}
	}
	return orderedJSON{cmd, args}
}

// keyRule is what moving a server does with one key of its entry.
type keyRule int

const (
	// carried: discovery reads it, and this program's config says the same.
	carried keyRule = iota + 1
	// dropped: only the client acts on it (its approval prompts, its own
	// timeouts), and this program does not read it when it finds the entry
	// either; it is left behind and named in the report. The record keeps
	// it for uninstall.
	dropped
)

// common are the keys of an "mcpServers"-style entry that discovery reads
// for every client (entry.go).
var common = []string{"type", "command", "args", "env", "cwd", "url", "headers", "description", "disabled", "enabled"}

// keyRules are, per client, the keys an entry may have to be moved. Any
// other key (envFile, Codex's env_vars and bearer_token_env_var, ...) means
// something this program's config cannot say, so such an entry stays.
var keyRules = map[string]map[string]keyRule{
	"claude-desktop": rules(common, nil),
	"claude-code":    rules(common, nil),
	"cursor":         rules(common, []string{"autoApprove"}),
	"vscode":         rules(common, nil),
	"windsurf":       rules(append(slices.Clone(common), "serverUrl", "disabledTools"), []string{"autoApprove"}),
	"gemini":         rules(append(slices.Clone(common), "httpUrl", "includeTools", "excludeTools"), []string{"timeout", "trust"}),
	"codex": rules([]string{"command", "args", "env", "cwd", "url", "http_headers", "enabled", "enabled_tools", "disabled_tools"},
		[]string{"startup_timeout_sec", "startup_timeout_ms", "tool_timeout_sec"}),
	"zed": rules([]string{"command", "args", "env", "url", "headers", "enabled", "source"}, []string{"timeout"}),
}

// whyNot says why a key that keyRules does not allow keeps an entry where
// it is, when there is more to say than that this program has no such key.
var whyNot = map[string]string{
	"envFile":              "its envFile is read by the client each time it starts the server",
	"env_vars":             "its env_vars pass variables of the client's environment, which this program's config cannot name per server",
	"bearer_token_env_var": "its bearer_token_env_var names a variable the token is read from each time, which this program's config cannot name",
	"env_http_headers":     "its env_http_headers name variables read each time, which this program's config cannot name",
}

func rules(carry, drop []string) map[string]keyRule {
	m := map[string]keyRule{}
	for _, k := range carry {
		m[k] = carried
	}
	for _, k := range drop {
		m[k] = dropped
	}
	return m
}
