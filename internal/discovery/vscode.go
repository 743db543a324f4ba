package discovery

import "github.com/mcp-code-mode/mcp-code-mode/internal/config"

// VS Code, and the editors built on it (Cursor, Windsurf, Kiro) or run in
// it (Cline): what their entries mean differs as below.
var (
	// VS Code: type stdio|http|sse, envFile, inputs (mcpConfiguration.ts).
	// With no type VS Code tries Streamable HTTP and falls back to SSE.
	dialectVSCode = &dialect{syntax: syntaxEditor, editorVars: true, inputs: true, typeKeys: []string{"type"}, envFile: true}
	// Cursor: url entries are remote (Streamable HTTP or SSE); ${env:NAME},
	// ${userHome}, ${workspaceFolder}; envFile (cursor.com/docs/mcp).
	dialectCursor = &dialect{syntax: syntaxEditor, editorVars: true, typeKeys: []string{"type"}, envFile: true}
	// Windsurf: serverUrl for remote servers, disabled, ${env:NAME}
	// (docs.windsurf.com/windsurf/cascade/mcp); disabledTools as its tool
	// toggles write it.
	dialectWindsurf = &dialect{syntax: syntaxEditor, urlKeys: []urlKey{{"serverUrl", ""}}, typeKeys: []string{"type"}, denyKey: "disabledTools"}
	// Kiro: disabled, autoApprove (ignored), disabledTools, ${VAR}
	// (https://kiro.dev/docs/mcp/configuration).
	dialectKiro = &dialect{syntax: syntaxBraces, typeKeys: []string{"type"}, denyKey: "disabledTools"}
	// Cline: disabled, autoApprove (ignored); a url with no type is SSE and
	// "streamableHttp" must be asked for (src/services/mcp/schemas.ts; the
	// older field is transportType).
	dialectCline = &dialect{remote: config.TransportSSE, typeKeys: []string{"type", "transportType"}}
)

// decodeVSCodeSettings reads the servers of a settings.json: "mcp":
// {"servers": ...}, or the flat key "mcp.servers".
func decodeVSCodeSettings(r *reader, f *file) {
	if m := f.root.get("mcp"); m != nil && m.kind == cfgObject {
		r.serverMap(f, m.get("servers"), "mcp.servers", dialectVSCode, nil)
	}
	r.serverMap(f, f.root.get("mcp.servers"), "mcp.servers", dialectVSCode, nil)
}
