// Package aggregator is the MCP server of mcp-code-mode and the bridge
// behind it. An Aggregator owns the configured servers (each through
// package upstream), runs each program in a fresh sandbox container
// (package sandbox), and checks every call the program makes before a
// wrapped server sees it.
//
// The files follow the path of a run:
//
//   - aggregator.go: the Aggregator, its servers and how a run's names
//     resolve to them.
//   - run.go: one run: servers started, a container taken, the program
//     sent, each line from the runner handled, the container removed.
//   - bridge.go: the checks of a call (allowed tool, arguments against the
//     schema and size, budget, timeout, result size) and the line between
//     text that may reach the program (Refusal) and text that may not.
//   - helpers.go: the runtime helpers the program calls for discovery and
//     search.
//   - output.go: printed output, kept as head and tail.
//   - server.go and http.go: run_python over MCP (stdio and streamable
//     HTTP, with its Host, Origin, token and CORS guard).
package aggregator
