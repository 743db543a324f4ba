// Package stubs turns MCP tool names and JSON Schemas into Python names and
// readable Python stubs.
//
// In the sandbox, every wrapped MCP server is a module named by [Module]
// and each of its tools an async function in it. [Identifier] and [Namer]
// make the Python names of servers, tools and parameters; [FromSchema]
// reads a tool's inputSchema into a [Tool], whose [Tool.Stub] is the
// signature and docstring a model reads before calling it:
//
//	var tools stubs.Namer
//	t, err := stubs.FromSchema("create-issue", tools.Name("create-issue"), desc, schema)
//	if err != nil {
//		return err
//	}
//	fmt.Print(t.Stub())
//
// The stubs are valid Python, whatever text the server sent: descriptions
// cannot break out of their docstrings. Run as code (after [Preamble]),
// their X | Y type hints need Python 3.10 or later.
package stubs
