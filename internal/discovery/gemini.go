package discovery

import (
	"fmt"
	"slices"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
)

// Gemini CLI: url is SSE, httpUrl Streamable HTTP; includeTools,
// excludeTools; $VAR and ${VAR} (docs/tools/mcp-server.md).
var dialectGemini = &dialect{syntax: syntaxDollar, remote: config.TransportSSE, urlKeys: []urlKey{{"httpUrl", config.TransportHTTP}}, typeKeys: []string{"type"}, allowKey: "includeTools", denyKey: "excludeTools"}

// decodeGemini reads mcpServers of a Gemini CLI settings.json, with the
// file's server allow and exclude lists: "mcp": {"allowed", "excluded"}
// (older: allowMCPServers, excludeMCPServers).
func decodeGemini(r *reader, f *file) {
	e := r.fields(f, f.root, "")
	var allowed, excluded []string
	var allowKey, excludeKey string
	if m := f.root.get("mcp"); m != nil && m.kind == cfgObject {
		e := r.fields(f, m, "mcp")
		allowed, excluded = e.list("allowed"), e.list("excluded")
		allowKey, excludeKey = "mcp.allowed", "mcp.excluded"
	}
	if allowed == nil {
		allowed, allowKey = e.list("allowMCPServers"), "allowMCPServers"
	}
	if excluded == nil {
		excluded, excludeKey = e.list("excludeMCPServers"), "excludeMCPServers"
	}
	off := func(name string) string {
		if slices.Contains(excluded, name) {
			return fmt.Sprintf("disabled in %s (%s)", f.path, excludeKey)
		}
		if allowed != nil && !slices.Contains(allowed, name) {
			return fmt.Sprintf("disabled in %s (not in %s)", f.path, allowKey)
		}
		return ""
	}
	r.serverMap(f, f.root.get("mcpServers"), "mcpServers", dialectGemini, off)
}
