// Command testserver is a small MCP server used by the integration tests of
// the code-mode bridge. It is deliberately dumb: it does no input validation
// of its own (mcp-go's WithInputSchemaValidation is left off), so tests can
// prove that the bridge refuses bad arguments before they reach a server.
//
// Transports:
//
//	testserver                     stdio (default)
//	testserver -http 127.0.0.1:0   streamable HTTP at /mcp
//	testserver -sse  127.0.0.1:0   legacy SSE at /sse (+ /message)
//
// Other flags:
//
//	-name NAME     server name reported in initialize (default "testserver")
//	-log FILE      append one JSON line per tools/call received:
//	               {"tool":...,"args":...,"start_unix_nano":...,"end_unix_nano":...}
//	               and the W3C trace context it came with (package calllog)
//	-list-log FILE the same for each tools/list received (tool "tools/list")
//	-workers N     stdio only: how many tool calls run concurrently (default 32)
//
// Everything except JSON-RPC goes to stderr; stdout is the stdio transport.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testserver/calllog"
)

const version = "0.1.0"

// logCall appends rec to the call log, if there is one.
func logCall(clog *calllog.Writer, rec calllog.Record) {
	if clog == nil {
		return
	}
	if err := clog.Write(rec); err != nil {
		log.Printf("testserver: %v", err)
	}
}

// rawArgs returns the arguments exactly as the client sent them.
func rawArgs(req mcp.CallToolRequest) json.RawMessage {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments
	}
	if req.Params.Arguments == nil {
		return nil
	}
	b, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return nil
	}
	return b
}

// record is the call log's record of req, which ran from start to end
// (Unix nanoseconds).
func record(req mcp.CallToolRequest, start, end int64) calllog.Record {
	rec := calllog.Record{Tool: req.Params.Name, Args: rawArgs(req), StartUnixNano: start, EndUnixNano: end,
		Traceparent: strings.Join(req.Header.Values("traceparent"), " | "), Tracestate: strings.Join(req.Header.Values("tracestate"), " | ")}
	if m := req.Params.Meta; m != nil {
		if v, ok := m.AdditionalFields["traceparent"]; ok {
			rec.MetaTraceparent = fmt.Sprint(v)
		}
		if v, ok := m.AdditionalFields["tracestate"]; ok {
			rec.MetaTracestate = fmt.Sprint(v)
		}
	}
	return rec
}

// args decodes the arguments with UseNumber so integers stay exact. A
// missing or non-object payload yields an empty map: the handlers are
// lenient on purpose.
func args(req mcp.CallToolRequest) map[string]any {
	raw := rawArgs(req)
	out := map[string]any{}
	if len(raw) == 0 {
		return out
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err == nil && m != nil {
		out = m
	}
	return out
}

func argString(m map[string]any, key, def string) string {
	switch v := m[key].(type) {
	case string:
		return v
	case nil:
		return def
	default:
		return fmt.Sprint(v)
	}
}

func argBool(m map[string]any, key string) bool {
	switch v := m[key].(type) {
	case bool:
		return v
	case string:
		b, _ := strconv.ParseBool(v)
		return b
	default:
		return false
	}
}

// argNumber returns m[key] as a json.Number (accepting numeric strings too).
func argNumber(m map[string]any, key string) (json.Number, bool) {
	switch v := m[key].(type) {
	case json.Number:
		return v, true
	case string:
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return json.Number(v), true
		}
	}
	return "", false
}

// argInt returns m[key] as an integer (a fraction truncated), or 0 when it
// is missing or not a number.
func argInt(m map[string]any, key string) int64 {
	n, ok := argNumber(m, key)
	if !ok {
		return 0
	}
	if i, err := n.Int64(); err == nil {
		return i
	}
	f, err := n.Float64()
	if err != nil {
		return 0
	}
	return int64(f)
}

func schema(s string) json.RawMessage {
	if !json.Valid([]byte(s)) {
		panic("invalid schema: " + s)
	}
	return json.RawMessage(s)
}

func tool(name, title, description, input string, output string, ann mcp.ToolAnnotation) mcp.Tool {
	t := mcp.Tool{
		Name:           name,
		Title:          title,
		Description:    description,
		RawInputSchema: schema(input),
		Annotations:    ann,
	}
	if output != "" {
		t.RawOutputSchema = schema(output)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

var (
	readOnly = mcp.ToolAnnotation{ReadOnlyHint: ptr(true), DestructiveHint: ptr(false), IdempotentHint: ptr(true), OpenWorldHint: ptr(false)}
	sideFx   = mcp.ToolAnnotation{ReadOnlyHint: ptr(false), DestructiveHint: ptr(false), IdempotentHint: ptr(false), OpenWorldHint: ptr(false)}
)

type structuredItem struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type structuredResult struct {
	Items []structuredItem `json:"items"`
	Total int              `json:"total"`
}

var calls atomic.Int64 // calls of the "counter" tool in this process

// newServer returns the test server with these instructions. A leak, when
// not empty, is quoted as the server's token in every tool's description,
// in the instructions and in the errors of fail and protocol_error, as a
// careless server might.
func newServer(name string, clog, llog *calllog.Writer, leak string, waitTool bool, gate, instructions string) *server.MCPServer {
	hooks := &server.Hooks{}
	// tools/list requests go to a log of their own (-list-log), so that
	// the call log holds calls only.
	hooks.AddBeforeListTools(func(ctx context.Context, id any, req *mcp.ListToolsRequest) {
		if llog == nil || req == nil {
			return
		}
		now := time.Now().UnixNano()
		rec := calllog.Record{Tool: string(mcp.MethodToolsList), StartUnixNano: now, EndUnixNano: now,
			Traceparent: strings.Join(req.Header.Values("traceparent"), " | ")}
		if m := req.Params.Meta; m != nil {
			if v, ok := m.AdditionalFields["traceparent"]; ok {
				rec.MetaTraceparent = fmt.Sprint(v)
			}
		}
		logCall(llog, rec)
	})
	// Calls to unknown tools never reach a handler (mcp-go answers them with
	// a JSON-RPC "tool not found" error); still log that they arrived.
	hooks.AddOnError(func(ctx context.Context, id any, method mcp.MCPMethod, message any, err error) {
		if method != mcp.MethodToolsCall || !errors.Is(err, server.ErrToolNotFound) {
			return
		}
		req, ok := message.(*mcp.CallToolRequest)
		if !ok || req == nil {
			return
		}
		now := time.Now().UnixNano()
		rec := record(*req, now, now)
		rec.Unknown = true
		logCall(clog, rec)
	})

	s := server.NewMCPServer(name, version,
		server.WithToolCapabilities(true), // grow sends notifications/tools/list_changed
		server.WithInstructions(instructions),
		server.WithHooks(hooks),
		// Outermost: log every call that reaches a handler, with its timing.
		server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
			return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				start := time.Now().UnixNano()
				if req.Params.Name == "crash" {
					// The handler never returns; log before it exits.
					logCall(clog, record(req, start, start))
					return next(ctx, req)
				}
				defer func() {
					logCall(clog, record(req, start, time.Now().UnixNano()))
				}()
				return next(ctx, req)
			}
		}),
		server.WithRecovery(),
	)
	addTool := func(t mcp.Tool, h server.ToolHandlerFunc) {
		if leak != "" {
			t.Description += " Connected with token " + leak + "."
		}
		s.AddTool(t, h)
	}
	leaked := func(msg string) string {
		if leak != "" {
			msg += " (token " + leak + ")"
		}
		return msg
	}

	addTool(tool("add", "Add two integers",
		"Add two integers a and b. Returns structured content {\"sum\": a+b}; the text content is the same JSON.",
		`{"type":"object","properties":{
			"a":{"type":"integer","description":"First addend"},
			"b":{"type":"integer","description":"Second addend"}},
		  "required":["a","b"],"additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			m := args(req)
			a, okA := argNumber(m, "a")
			b, okB := argNumber(m, "b")
			if !okA || !okB {
				return mcp.NewToolResultError("add: a and b must be numbers"), nil
			}
			var sum any
			ai, errA := a.Int64()
			bi, errB := b.Int64()
			if errA == nil && errB == nil {
				sum = ai + bi
			} else {
				af, _ := a.Float64()
				bf, _ := b.Float64()
				sum = af + bf
			}
			res := map[string]any{"sum": sum}
			text, _ := json.Marshal(res)
			return mcp.NewToolResultStructured(res, string(text)), nil
		})

	addTool(tool("echo", "Echo a message",
		"Return the message as text. With upper=true the message is upper-cased first.",
		`{"type":"object","properties":{
			"message":{"type":"string","description":"Text to echo back"},
			"upper":{"type":"boolean","description":"Upper-case the message","default":false}},
		  "required":["message"],"additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			m := args(req)
			msg := argString(m, "message", "")
			if argBool(m, "upper") {
				msg = strings.ToUpper(msg)
			}
			return mcp.NewToolResultText(msg), nil
		})

	addTool(tool("sleep", "Sleep",
		"Sleep for ms milliseconds (returning early with an error if the request is cancelled), then return the text \"slept N\".",
		`{"type":"object","properties":{
			"ms":{"type":"integer","minimum":0,"maximum":600000,"description":"Milliseconds to sleep"}},
		  "required":["ms"],"additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ms := argInt(args(req), "ms")
			if ms < 0 {
				ms = 0
			}
			t := time.NewTimer(time.Duration(ms) * time.Millisecond)
			defer t.Stop()
			select {
			case <-t.C:
				return mcp.NewToolResultText(fmt.Sprintf("slept %d", ms)), nil
			case <-ctx.Done():
				return nil, fmt.Errorf("sleep cancelled: %w", ctx.Err())
			}
		})

	if waitTool {
		addTool(tool("wait", "Wait",
			"Wait ms milliseconds, then return the text \"waited N (timeout T)\" with the timeout it was given.",
			`{"type":"object","properties":{
				"ms":{"type":"integer","minimum":0,"maximum":600000},
				"timeout":{"type":"number","description":"A parameter of the tool's own, returned as given"}},
			  "required":["ms"],"additionalProperties":false}`, "", readOnly),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				ms := max(0, argInt(args(req), "ms"))
				t := time.NewTimer(time.Duration(ms) * time.Millisecond)
				defer t.Stop()
				select {
				case <-t.C:
					return mcp.NewToolResultText(fmt.Sprintf("waited %d (timeout %v)", ms, args(req)["timeout"])), nil
				case <-ctx.Done():
					return nil, fmt.Errorf("wait cancelled: %w", ctx.Err())
				}
			})
	}

	if gate != "" {
		addTool(tool("gate", "Wait for the gate",
			"Return \"open\" once the test opens the gate (creates its file).",
			`{"type":"object","properties":{},"additionalProperties":false}`, "", readOnly),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				t := time.NewTicker(10 * time.Millisecond)
				defer t.Stop()
				for {
					if _, err := os.Stat(gate); err == nil {
						return mcp.NewToolResultText("open"), nil
					}
					select {
					case <-t.C:
					case <-ctx.Done():
						return nil, fmt.Errorf("gate cancelled: %w", ctx.Err())
					}
				}
			})
	}

	addTool(tool("fail", "Fail with a tool error",
		"Always fails: returns a tool error result (isError: true) whose text is the given message.",
		`{"type":"object","properties":{
			"message":{"type":"string","description":"Error message to return"}},
		  "additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError(leaked(argString(args(req), "message", "tool failed"))), nil
		})

	addTool(tool("protocol_error", "Fail with a JSON-RPC error",
		"Always fails at the protocol level: the client gets a JSON-RPC error response (not a tool result) whose message contains the given message.",
		`{"type":"object","properties":{
			"message":{"type":"string","description":"Text to put in the JSON-RPC error message"}},
		  "additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New(leaked(argString(args(req), "message", "protocol error")))
		})

	addTool(tool("huge", "Return a large text",
		"Return a text content of exactly `bytes` 'x' characters.",
		`{"type":"object","properties":{
			"bytes":{"type":"integer","minimum":0,"description":"Number of 'x' characters to return"}},
		  "required":["bytes"],"additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := argInt(args(req), "bytes")
			if n < 0 {
				n = 0
			}
			return mcp.NewToolResultText(strings.Repeat("x", int(n))), nil
		})

	addTool(tool("deep", "Return deeply nested data",
		"A hostile result: structured content of arrays nested `depth` levels deep.",
		`{"type":"object","properties":{
			"depth":{"type":"integer","minimum":0,"maximum":100000,"description":"How many levels to nest"}},
		  "required":["depth"],"additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := int(argInt(args(req), "depth"))
			raw := json.RawMessage(`{"v":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("deep")}, RawStructuredContent: raw}, nil
		})

	addTool(tool("structured", "Structured result",
		`Return the fixed structured content {"items":[{"id":1,"name":"one"},{"id":2,"name":"two"}],"total":2}, described by an outputSchema.`,
		`{"type":"object","properties":{},"additionalProperties":false}`,
		`{"type":"object","properties":{
			"items":{"type":"array","items":{"type":"object","properties":{
				"id":{"type":"integer"},"name":{"type":"string"}},
				"required":["id","name"],"additionalProperties":false}},
			"total":{"type":"integer"}},
		  "required":["items","total"],"additionalProperties":false}`, readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := structuredResult{Items: []structuredItem{{1, "one"}, {2, "two"}}, Total: 2}
			return mcp.NewToolResultStructuredOnly(res), nil
		})

	addTool(tool("crash", "Crash the server",
		"Exit the server process immediately with status 3, without answering.",
		`{"type":"object","properties":{},"additionalProperties":false}`, "",
		mcp.ToolAnnotation{ReadOnlyHint: ptr(false), DestructiveHint: ptr(true), IdempotentHint: ptr(false), OpenWorldHint: ptr(false)}),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "testserver: crash tool called, exiting with status 3")
			os.Exit(3)
			return nil, nil
		})

	addTool(tool("noop", "Do nothing",
		`Do nothing and return the text "ok".`,
		`{"type":"object","properties":{},"additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})

	addTool(tool("get-weather", "Get the weather",
		`Return the text "sunny in <city>". The tool name and the "from" parameter are deliberately not valid Python identifiers.`,
		`{"type":"object","properties":{
			"city":{"type":"string","description":"City name"},
			"from":{"type":"string","description":"Optional start date (ignored)"}},
		  "required":["city"],"additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("sunny in " + argString(args(req), "city", "")), nil
		})

	addTool(tool("env", "Read an environment variable",
		"Return the value of the named environment variable of the server process (empty text if unset).",
		`{"type":"object","properties":{
			"name":{"type":"string","description":"Environment variable name"}},
		  "required":["name"],"additionalProperties":false}`, "", readOnly),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(os.Getenv(argString(args(req), "name", ""))), nil
		})

	addTool(tool("counter", "Per-process call counter",
		"Increment and return (as text) the number of times this tool has been called in this server process: 1 on the first call after a (re)start.",
		`{"type":"object","properties":{},"additionalProperties":false}`, "", sideFx),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strconv.FormatInt(calls.Add(1), 10)), nil
		})

	addTool(tool("grow", "Add a tool",
		"Register a new no-op tool with the given name; the server then sends notifications/tools/list_changed.",
		`{"type":"object","properties":{
			"name":{"type":"string","description":"Name of the new tool"}},
		  "required":["name"],"additionalProperties":false}`, "", sideFx),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			name := argString(args(req), "name", "")
			s.AddTool(tool(name, "Grown tool", "A tool added at run time by grow.",
				`{"type":"object","properties":{},"additionalProperties":false}`, "", readOnly),
				func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return mcp.NewToolResultText("grown"), nil
				})
			return mcp.NewToolResultText("added " + name), nil
		})

	return s
}

func main() {
	name := flag.String("name", "testserver", "server name reported in initialize")
	httpAddr := flag.String("http", "", "serve streamable HTTP on `ADDR` (endpoint /mcp)")
	sseAddr := flag.String("sse", "", "serve legacy SSE on `ADDR` (/sse and /message)")
	logPath := flag.String("log", "", "append one JSON line per tools/call to `FILE`")
	listLogPath := flag.String("list-log", "", "append one JSON line per tools/list to `FILE` (tool \"tools/list\", with its trace context)")
	workers := flag.Int("workers", 32, "stdio: number of tool calls served concurrently (max 100)")
	failStart := flag.String("fail-start", "", "a hostile server: write `TEXT` (say, its own token) on stderr and exit 1 at once")
	waitTool := flag.Bool("wait-tool", false, "add the tool wait, which takes a parameter named timeout of its own")
	gate := flag.String("gate", "", "add the tool gate, which returns once `FILE` exists (a test holds calls in flight with it)")
	leakVar := flag.String("leak", "", "a careless server: quote the value of the environment variable `NAME` (its token) in every tool's description and in the errors of fail and protocol_error")
	instructions := flag.String("instructions", "Test server for mcp-code-mode integration tests. Tools do no input validation.", "the server's instructions in its answer to initialize (`TEXT`; \\n, \\t, \\x1b and \\u202e are unescaped, for a hostile server's)")
	repeat := flag.Int("instructions-repeat", 1, "the instructions `N` times over (a hostile server's flood)")
	flag.Parse()
	if *failStart != "" {
		fmt.Fprintln(os.Stderr, *failStart)
		os.Exit(1)
	}

	log.SetOutput(os.Stderr)
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))

	if *httpAddr != "" && *sseAddr != "" {
		log.Fatal("testserver: -http and -sse are mutually exclusive")
	}

	var clog *calllog.Writer
	if *logPath != "" {
		var err error
		if clog, err = calllog.Open(*logPath); err != nil {
			log.Fatalf("testserver: %v", err)
		}
	}
	var llog *calllog.Writer
	if *listLogPath != "" {
		var err error
		if llog, err = calllog.Open(*listLogPath); err != nil {
			log.Fatalf("testserver: %v", err)
		}
	}
	leak := ""
	if *leakVar != "" {
		leak = os.Getenv(*leakVar)
	}
	instr := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\x1b`, "\x1b", `\u202e`, "\u202e").Replace(*instructions)
	instr = strings.Repeat(instr, max(1, *repeat))
	if leak != "" {
		instr += " Token: " + leak
	}
	s := newServer(*name, clog, llog, leak, *waitTool, *gate, instr)

	switch {
	case *httpAddr != "":
		ln := listen(*httpAddr)
		h := server.NewStreamableHTTPServer(s)
		mux := http.NewServeMux()
		mux.Handle("/mcp", h)
		serveHTTP(ln, mux, "streamable HTTP", "/mcp")
	case *sseAddr != "":
		ln := listen(*sseAddr)
		base := "http://" + ln.Addr().String()
		// A relative message endpoint, so the server also works behind the
		// tests' proxies (a client refuses an endpoint on another host).
		sse := server.NewSSEServer(s, server.WithBaseURL(base), server.WithUseFullURLForMessageEndpoint(false))
		mux := http.NewServeMux()
		mux.Handle("/sse", sse.SSEHandler())
		mux.Handle("/message", sse.MessageHandler())
		serveHTTP(ln, mux, "SSE", "/sse")
	default:
		errLog := log.New(os.Stderr, "testserver: ", log.LstdFlags|log.Lmicroseconds)
		err := server.ServeStdio(s, server.WithWorkerPoolSize(*workers), server.WithErrorLogger(errLog))
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			log.Printf("testserver: %v", err)
			os.Exit(1)
		}
	}
}

// listen binds addr up front so that "-http 127.0.0.1:0" works: the bound
// address is printed to stderr as "testserver: listening on http://HOST:PORT/PATH".
func listen(addr string) net.Listener {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Fatalf("testserver: %v", err)
	}
	return ln
}

func serveHTTP(ln net.Listener, h http.Handler, kind, path string) {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(os.Stderr, "testserver: %s listening on http://%s%s\n", kind, ln.Addr(), path)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			log.Fatalf("testserver: %v", err)
		}
	case <-sig:
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
}
