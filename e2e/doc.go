// Package e2e holds the end-to-end suites that drive mcp-code-mode with
// real third-party clients and servers: VS Code (code-server in Chromium),
// Claude Code, the MCP Inspector CLI, the MCP conformance suite, and the
// reference npm servers (everything, filesystem, memory).
//
// The package has tests only. TestMain builds the binary and the test
// server (internal/clitest does the work, as for cmd/mcp-code-mode's own
// tests); the clients and servers are pinned in testdata/npm
// (`make testdata`) and testdata/vscode (`make testdata-vscode`). A test
// whose client, node or container engine is missing skips, and fails
// instead under CI=true (internal/testenv). In -short mode nothing here runs.
package e2e
