// Command capture starts one MCP server over stdio, sends initialize and
// tools/list, and writes the tool catalog as JSON for the search benchmark
// (testdata/catalogs/<server>.json).
//
//	go run ./testdata/capture -server github -package @modelcontextprotocol/server-github@2025.4.8 \
//	    -env GITHUB_PERSONAL_ACCESS_TOKEN=dummy -out testdata/catalogs/github.json -- node /path/to/dist/index.js
//
// tools/list is read raw (not through mcp-go's typed decoding) so every field
// of every schema is kept as the server sent it. The output is
//
//	{"server": "...", "package": "name@version", "captured": "YYYY-MM-DD", "tools": [raw tools]}
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

type envFlag []string

func (e *envFlag) String() string     { return strings.Join(*e, ",") }
func (e *envFlag) Set(v string) error { *e = append(*e, v); return nil }

// Catalog is the file format of testdata/catalogs/*.json.
type Catalog struct {
	Server   string            `json:"server"`
	Package  string            `json:"package"`
	Captured string            `json:"captured"`
	Tools    []json.RawMessage `json:"tools"`
}

func main() {
	var env envFlag
	server := flag.String("server", "", "server name stored in the catalog (required)")
	pkg := flag.String("package", "", "npm package name@version the server came from")
	out := flag.String("out", "", "output file (default stdout)")
	dir := flag.String("dir", "", "working directory of the server")
	date := flag.String("date", time.Now().UTC().Format("2006-01-02"), "capture date stored in the catalog")
	timeout := flag.Duration("timeout", 60*time.Second, "time allowed for initialize + tools/list")
	showStderr := flag.Bool("stderr", false, "copy the server's stderr to ours")
	flag.Var(&env, "env", "NAME=VALUE for the server's environment (repeatable)")
	flag.Parse()
	if *server == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: capture -server NAME [-package P] [-env K=V]... [-out FILE] -- COMMAND ARGS...")
		os.Exit(2)
	}
	var stderr io.Writer = io.Discard
	if *showStderr {
		stderr = os.Stderr
	}
	tools, err := capture(*timeout, *dir, env, stderr, flag.Arg(0), flag.Args()[1:])
	if err != nil {
		log.Fatalf("capture %s: %v", *server, err)
	}
	cat := Catalog{Server: *server, Package: *pkg, Captured: *date, Tools: tools}
	data, err := marshal(cat)
	if err != nil {
		log.Fatal(err)
	}
	if *out == "" {
		_, _ = os.Stdout.Write(data)
		return
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d tools -> %s", *server, len(tools), *out)
}

// marshal writes the catalog with two-space indentation, keeping each raw
// tool's key order.
func marshal(cat Catalog) ([]byte, error) {
	raw, err := json.Marshal(cat)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

func capture(timeout time.Duration, dir string, env []string, stderr io.Writer, command string, args []string) ([]json.RawMessage, error) {
	ctx, stop := context.WithCancel(context.Background()) // the child's lifetime
	defer stop()
	var cmdRef *exec.Cmd
	tr := transport.NewStdioWithOptions(command, env, args,
		transport.WithCommandFunc(func(ctx context.Context, command string, env, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), env...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			cmdRef = cmd
			return cmd, nil
		}),
		transport.WithCommandStderrWriter(stderr),
	)
	c := client.NewClient(tr)
	defer func() {
		_ = c.Close()
		if cmdRef != nil && cmdRef.Process != nil {
			_ = syscall.Kill(-cmdRef.Process.Pid, syscall.SIGKILL)
		}
	}()
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "mcp-code-mode-capture", Version: "0.1.0"}
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(rctx, req); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return upstream.ListTools(rctx, c)
}
