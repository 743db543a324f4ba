package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
	"github.com/mcp-code-mode/mcp-code-mode/internal/toon"
)

// With output_mode = "toon", run_python's text block is its structured
// content as TOON without the empty fields: decoded back by the reference
// implementation (@toon-format/toon, pinned in testdata/npm), it equals
// the structured content with its empty fields dropped. With "json" it is
// the structured content as indented JSON.
func TestOutputModes(t *testing.T) {
	clitest.NeedEngine(t)
	npm := filepath.Join("..", "..", "testdata", "npm")
	if _, err := os.Stat(filepath.Join(npm, "node_modules", "@toon-format", "toon")); err != nil {
		testenv.SkipOrFail(t, "@toon-format/toon is not installed in testdata/npm (run `make testdata`): %v", err)
	}
	code := "r = await mcp_test.structured()\nprint('items:', len(r['items']))"
	for _, mode := range []string{"toon", "json"} {
		t.Run(mode, func(t *testing.T) {
			f := clitest.NewFixture(t, "")
			f.Env = append(f.Env, "MCP_CODE_MODE_OUTPUT_MODE="+mode)
			c, cmd, stderr := f.StdioServe(t, "serve", "--config", f.Config)
			req := mcp.CallToolRequest{}
			req.Params.Name = "run_python"
			req.Params.Arguments = map[string]any{"code": code, "servers": []string{"test"}}
			res, err := c.CallTool(t.Context(), req)
			if err != nil || res.IsError {
				t.Fatalf("run_python: %v %+v", err, res)
			}
			text := res.Content[0].(mcp.TextContent).Text
			structured, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			var got any
			switch mode {
			case "toon":
				got = decodeTOON(t, npm, text)
			case "json":
				if !strings.HasPrefix(text, "{\n  \"") {
					t.Errorf("json mode: want indented JSON, got %q", text)
				}
				if err := json.Unmarshal([]byte(text), &got); err != nil {
					t.Fatalf("json mode: %v in %q", err, text)
				}
			}
			want := any(nil)
			if err := json.Unmarshal(structured, &want); err != nil {
				t.Fatal(err)
			}
			if mode == "toon" {
				v, err := toon.DecodeJSON(structured)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(toon.DropEmpty(v))
				want = nil
				_ = json.Unmarshal(b, &want)
				if !strings.Contains(text, `stdout: "items: 2\n"`) || !strings.Contains(text, "servers[1]: test") {
					t.Errorf("toon text: want the output and the servers as TOON, got %q", text)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s text decodes to %v, want %v\ntext:\n%s", mode, got, want, text)
			}
			clitest.CloseServe(t, c, cmd, stderr)
		})
	}
}

// decodeTOON decodes a TOON document with the pinned reference decoder.
func decodeTOON(t *testing.T, npm, doc string) any {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "node", "--input-type=module", "-e",
		`import { decode } from "@toon-format/toon"; let s = ""; for await (const c of process.stdin) s += c; process.stdout.write(JSON.stringify(decode(s)));`)
	cmd.Dir = npm
	cmd.Stdin = strings.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("decode with @toon-format/toon: %v\n%s\ndocument:\n%s", err, stderr.Bytes(), doc)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
