// Package discovery finds the MCP servers a user has configured in the
// config files of their MCP clients, so that mcp-code-mode can wrap them
// without being told about them again:
//
//	servers, problems := discovery.Discover(discovery.Options{
//		Self: []string{"mcp-code-mode", exe}, // entries starting this program are skipped
//		Skip: map[string]bool{"zed": true},   // client IDs to leave out
//	})
//	for _, p := range problems {
//		log.Print(p) // path:line: client: key: what is wrong
//	}
//	// Each config.Server found names its Client and Source (file#key).
//
// # Where it looks
//
// Discover reads, in this order, the files of Claude Desktop
// (claude_desktop_config.json), Claude Code (~/.claude.json with its
// per-project local scope, and the project's .mcp.json), Cursor
// (.cursor/mcp.json), VS Code (.vscode/mcp.json, the user profile's
// mcp.json, and "mcp" in settings.json), Gemini CLI (.gemini/settings.json),
// Codex ($CODEX_HOME/config.toml), OpenCode (opencode.json and
// opencode.jsonc, and the older ~/.opencode.json), Zed (context_servers in
// its settings.json), Windsurf (~/.codeium/windsurf/mcp_config.json), Cline
// (cline_mcp_settings.json), Continue (~/.continue/config.yaml and the block
// files of .continue/mcpServers/), Kiro (.kiro/settings/mcp.json), LM Studio
// (~/.lmstudio/mcp.json) and MCP server directories (./mcp-servers/*.json,
// ~/.config/mcp/servers/*.json). Each client's files are read in its own
// order of precedence, the project's (in the working directory; for Claude
// Code also its local scope) before the user's, which are under the home
// directory, $XDG_CONFIG_HOME, ~/Library/Application Support on macOS and
// %APPDATA% on Windows.
//
// The client table in clients.go has each client's exact paths and the
// documentation they follow; each family of clients has its own file for
// what its entries mean (claude.go, vscode.go, gemini.go, codex.go,
// opencode.go, zed.go, continue.go, plain.go). Files are JSON, JSON with
// comments and trailing commas, TOML (Codex) or YAML (Continue).
//
// # Only reading
//
// Discover only reads: it writes or creates no file and starts no server.
// A missing file is not a problem. A file that cannot be read or parsed,
// or an entry that cannot be used completely, is a [Problem] and is left
// out; the rest is still used. A Problem says where (file, line, key) and
// what is wrong, never a value from the file, which may be a secret.
// Servers a client has turned off ("disabled": true, "enabled": false,
// Claude Code's disabledMcpServers, Gemini CLI's allowed and excluded
// lists, ...) are returned with Disabled set and Why saying where. Entries
// that would start mcp-code-mode itself, directly or through npx, uvx and
// the like, are left out without a Problem (a user who switched a client
// over to mcp-code-mode has one).
//
// # Project files
//
// The files in the working directory (.mcp.json, .vscode/, .cursor/,
// .gemini/, opencode.json(c), .zed/, .continue/, .kiro/, mcp-servers/)
// come with the project, and whoever wrote it may have written them. Their
// servers are returned with Project set and, until the user approves them
// (Options.Approved, or for .mcp.json Claude Code's record in
// ~/.claude.json), with Untrusted and Disabled set and their fields as
// written: no variable is expanded and no envFile read. An approval is of
// the entry as written (EntryHash), so an edited entry needs a new one.
// The user's own servers are named before the project's, which never take
// their names.
//
// FindUserFile and ReadUserFile give `mcp-code-mode install` the same view
// of one client's user-level file (userfile.go): the path Discover reads,
// and its servers read the same way, but with variable references
// reported instead of resolved. They only read too.
//
// # Variables
//
// Each client expands variable references in its own syntax when it starts
// a server, and Discover does the same (expand.go), so that the server
// returned is the one the client would run: ${VAR} and ${VAR:-default} for
// Claude Code and Kiro; $VAR and ${VAR} for Gemini CLI; ${env:NAME} for VS
// Code, Cursor and Windsurf, with editor variables such as
// ${workspaceFolder} and ${userHome} for VS Code and Cursor; {env:VAR} for
// OpenCode; none for the others. Values come from the process environment.
// A variable that is not set expands to "" and is listed in the server's
// UnsetVars. An entry that needs a VS Code ${input:ID} or ${command:ID},
// which only VS Code can supply, is returned disabled. The envFile of VS
// Code and Cursor entries is read and merged under their env.
//
// # Duplicates
//
// The same server is often configured in several clients (dedupe.go). Two
// entries are the same server when they start the same command with the
// same arguments in the same directory, after expansion, or reach the same
// URL, and set no variable or header to two different values (the tokens of
// two accounts, say). The first one found, in the order above, is kept; the
// others add their Source to its AlsoIn, fill in the variables and headers
// it does not set, and add their deny lists to its own, so that a tool
// turned off in any client stays off. A different server whose name is taken is renamed
// "name@client", then "name@client-2", "name@client-3", ...
package discovery
