package codemode_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/mcp-code-mode/mcp-code-mode/codemode"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// A program calls a tool of a server it names, and prints what it needs.
func Example() {
	cm, err := codemode.New(codemode.Options{
		Servers: map[string]codemode.Server{
			"calc": {Command: clitest.TestServer(), Description: "integer arithmetic"},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer cm.Close()

	res, err := cm.Run(context.Background(), `
r = await mcp_calc.add(a=2, b=3)
print("2 + 3 =", r["sum"])
`, "calc")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Output)
	fmt.Println("tool calls:", res.Calls)
	// Output:
	// 2 + 3 = 5
	// tool calls: 1
}

// A call the server's schema does not allow is refused by the bridge before
// the server sees it; the program can catch it as ToolError, and an
// uncaught one fails the run with a *RunError.
func ExampleCodeMode_Run_refused() {
	cm, err := codemode.New(codemode.Options{
		Servers: map[string]codemode.Server{"calc": {Command: clitest.TestServer()}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer cm.Close()

	res, err := cm.Run(context.Background(), `
try:
    await mcp_calc.add(a="two", b=3)
except ToolError:
    print("refused")
await mcp_calc.add(a=1)
`, "calc")
	fmt.Print(res.Output)
	var runErr *codemode.RunError
	fmt.Println("run failed:", errors.As(err, &runErr))
	// Output:
	// refused
	// run failed: true
}

// Search finds a tool from plain words, across every server, without the
// program seeing any schema.
func ExampleCodeMode_Search() {
	cm, err := codemode.New(codemode.Options{
		Servers: map[string]codemode.Server{"calc": {Command: clitest.TestServer()}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer cm.Close()

	tools, err := cm.Search(context.Background(), "sum of two numbers", 1)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println(t.Server, t.Name)
		fmt.Println(t.Signature)
	}
	// Output:
	// calc add
	// await mcp_calc.add(a: int, b: int) -> Any
}
