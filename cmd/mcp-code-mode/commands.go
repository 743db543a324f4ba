package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/mcp-code-mode/mcp-code-mode/internal/aggregator"
	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/discovery"
	"github.com/mcp-code-mode/mcp-code-mode/internal/printable"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
	"github.com/spf13/cobra"
)

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func serveCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve [flags] [-- CMD ARGS...]",
		Short: "Serve run_python to an MCP client, over stdio or streamable HTTP",
		Long: `Serve run_python to an MCP client: over stdio (the default), or over streamable HTTP at
--http ADDR, path /mcp, where a bearer token is required (kept in the state directory, or from
--token-env NAME; --no-auth only on loopback). With -- CMD ARGS, that one command is the only
wrapped server.`,
		Example: `  mcp-code-mode serve
  mcp-code-mode serve --http 127.0.0.1:8080
  mcp-code-mode serve --name fs -- npx -y @modelcontextprotocol/server-filesystem /data`,
		Args: usageArgs(func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && cmd.ArgsLenAtDash() != 0 {
				return fmt.Errorf("the command to wrap goes after --: serve [flags] -- %s", strings.Join(args, " "))
			}
			return nil
		}),
	}
	c := newCommon(cmd)
	var httpAddr, name, tokenEnv, tokensFile, debugAddr string
	var noAuth bool
	var allowHosts, allowOrigins listFlag
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP at `ADDR` (path /mcp) instead of stdio")
	cmd.Flags().StringVar(&name, "name", "", "with -- CMD: the wrapped server's name (default: the command's base name)")
	cmd.Flags().StringVar(&tokenEnv, "token-env", "", "with --http: require the bearer token held in this environment `VARIABLE` (default: a token kept in the state directory)")
	cmd.Flags().StringVar(&tokensFile, "tokens-file", "", "with --http: accept each bearer token of `FILE` (one a line; readable by you alone), one per client: each token's runs keep their own memories and saved tools")
	cmd.Flags().BoolVar(&noAuth, "no-auth", false, "with --http on a loopback address: require no bearer token")
	cmd.Flags().Var(&allowHosts, "allow-host", "with --http: a Host (and Origin) name to accept besides loopback ones (repeatable)")
	cmd.Flags().Var(&allowOrigins, "allow-origin", "with --http: a browser origin (http://host:port) whose pages may call the server: CORS (repeatable)")
	cmd.Flags().StringVar(&debugAddr, "debug-addr", "", "serve Go's profiler (/debug/pprof/) and the warm pool's state (/debug/pool) at `ADDR`, a loopback address, without authentication")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return serve(cmd.Context(), c, s, args, serveFlags{httpAddr, name, tokenEnv, tokensFile, debugAddr, noAuth, allowHosts, allowOrigins})
	}
	return cmd
}

// serveFlags are serve's own flags.
type serveFlags struct {
	httpAddr, name, tokenEnv, tokensFile string
	debugAddr                            string // --debug-addr: profiler and pool state
	noAuth                               bool
	allowHosts, allowOrigins             listFlag
}

func serve(ctx context.Context, c *common, s streams, rest []string, f serveFlags) error {
	stdin, stdout, stderr := s.stdin, s.stdout, s.stderr
	allowHosts, allowOrigins := f.allowHosts, f.allowOrigins
	var wrapped *config.Server
	if len(rest) > 0 {
		s := config.Server{Name: f.name, Transport: config.TransportStdio, Command: rest[0], Args: rest[1:], Source: "command line"}
		if s.Name == "" {
			s.Name = filepath.Base(rest[0])
		}
		// In this mode --allow and --deny name tools of the one server.
		s.Allow, s.Deny, s.PolicyFrom = c.allow, c.deny, config.CommandLine
		c.allow, c.deny = nil, nil
		wrapped = &s
	}
	agg, eng, _, err := setup(c, stderr, wrapped, serving)
	if err != nil {
		return err
	}
	defer eng.Close()
	defer agg.Close()
	if f.debugAddr != "" {
		stop, err := serveDebug(f.debugAddr, eng, stderr)
		if err != nil {
			return err
		}
		defer stop()
	}
	// Warm the sandbox pool now, so the first run does not wait for it.
	go func() {
		if err := eng.Connect(ctx); err != nil {
			c.logger(stderr).Warn("container engine", "err", err)
		}
	}()
	if f.httpAddr == "" {
		return agg.ServeStdio(ctx, stdin, stdout)
	}
	for i, o := range allowOrigins {
		n, err := aggregator.NormalizeOrigin(o)
		if err != nil {
			return fmt.Errorf("--allow-origin: %w", err)
		}
		allowOrigins[i] = n
	}
	host, _, err := net.SplitHostPort(f.httpAddr)
	if err != nil {
		return fmt.Errorf("--http %q: %w", f.httpAddr, err)
	}
	loopback := host == "localhost"
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		loopback = true
	}
	token, tokenFrom := "", ""
	var tokens []string
	switch {
	case f.noAuth && f.tokenEnv != "":
		return fmt.Errorf("--no-auth and --token-env %s contradict each other", f.tokenEnv)
	case f.tokensFile != "" && (f.noAuth || f.tokenEnv != ""):
		return fmt.Errorf("--tokens-file takes the place of --token-env and --no-auth: give one of them")
	case f.tokensFile != "":
		if tokens, err = aggregator.LoadTokens(f.tokensFile); err != nil {
			return err
		}
		tokenFrom = fmt.Sprintf("%s (%d tokens)", f.tokensFile, len(tokens))
	case f.noAuth && !loopback:
		return fmt.Errorf("--no-auth is only allowed on a loopback address, not --http %s: anyone who can reach it could use your servers", f.httpAddr)
	case f.noAuth:
	case f.tokenEnv != "":
		token = os.Getenv(f.tokenEnv)
		if token == "" {
			return fmt.Errorf("--token-env %s: the variable is empty or unset", f.tokenEnv)
		}
		tokenFrom = "the variable " + f.tokenEnv
	default:
		dir, err := config.StateDir()
		if err != nil {
			return err
		}
		path := filepath.Join(dir, aggregator.TokenFile)
		if token, err = aggregator.LoadOrCreateToken(path); err != nil {
			return err
		}
		tokenFrom = path
	}
	if ip := net.ParseIP(host); ip != nil && !ip.IsLoopback() && !ip.IsUnspecified() {
		allowHosts = append(allowHosts, host)
	}
	hs := &http.Server{
		Addr:              f.httpAddr,
		Handler:           agg.HTTPHandler(aggregator.HTTPOptions{Token: token, Tokens: tokens, AllowedHosts: allowHosts, AllowedOrigins: allowOrigins}),
		ReadHeaderTimeout: 10 * time.Second,
		// Requests end with the server: a signal cancels the runs in flight,
		// which kills their containers.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	ln, err := net.Listen("tcp", f.httpAddr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if token != "" || len(tokens) > 0 {
		fmt.Fprintf(stderr, "mcp-code-mode: serving streamable HTTP at http://%s/mcp; clients send \"Authorization: Bearer TOKEN\", with the token in %s\n", ln.Addr(), tokenFrom)
	} else {
		fmt.Fprintf(stderr, "mcp-code-mode: serving streamable HTTP at http://%s/mcp, without authentication (--no-auth): any local user can use it\n", ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			// Streams that stay open (SSE) do not end by themselves.
			_ = hs.Close()
		}
		return nil
	}
}

func runCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run [flags] (-c CODE | FILE | -)",
		Short: "Run one program as run_python would, and print its output",
		Long: `Run one program as run_python would run it: the source from -c, a FILE (UTF-8, up to 1 MiB),
or - for stdin. Its printed output goes to stdout, its error to stderr.

Exit status: 0 on success; N when the program calls sys.exit(N); 1 for any other failure;
2 for a usage error; 130 on Ctrl-C and 143 on SIGTERM (the container is removed first).`,
		Example: `  mcp-code-mode run -c 'print(1 + 1)'
  mcp-code-mode run --servers memory -c 'print(await mcp_memory.read_graph())'
  mcp-code-mode run prog.py --servers github,memory --json`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
	}
	c := newCommon(cmd)
	var names listFlag
	var timeout float64
	var code string
	var asJSON bool
	cmd.Flags().Var(&names, "servers", "servers the program uses (comma-separated or repeated)")
	cmd.Flags().Float64Var(&timeout, "timeout", 0, "`seconds` before the run is stopped (capped by the deadline; 0: the deadline)")
	cmd.Flags().StringVarP(&code, "code", "c", "", "the program's source")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the structured result as JSON")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return runProgram(cmd, c, s, args, names, timeout, code, asJSON)
	}
	return cmd
}

func runProgram(cmd *cobra.Command, c *common, s streams, rest []string, names listFlag, timeout float64, code string, asJSON bool) error {
	ctx, stdin, stdout, stderr := cmd.Context(), s.stdin, s.stdout, s.stderr
	var (
		raw  []byte
		what string // the program's source, for errors
		err  error
	)
	switch {
	case code != "" && len(rest) > 0:
		return usageError{cmd, errors.New("give the program with -c or as a file, not both")}
	case code != "":
		raw, what = []byte(code), "-c"
	case len(rest) == 1 && rest[0] == "-":
		what = "stdin"
		if raw, err = readProgram(stdin, what); err != nil {
			return err
		}
	case len(rest) == 1:
		what = rest[0]
		f, err := os.Open(what)
		if err != nil {
			return err
		}
		raw, err = readProgram(f, what)
		f.Close()
		if err != nil {
			return err
		}
	default:
		return usageError{cmd, errors.New("no program: give it with -c CODE, as a FILE, or - for stdin")}
	}
	src, err := programText(raw, what)
	if err != nil {
		return err
	}
	agg, eng, _, err := setup(c, stderr, nil, runOnce)
	if err != nil {
		return err
	}
	defer eng.Close()
	defer agg.Close()
	announceStarts(agg, stderr, false)
	res := agg.Run(ctx, aggregator.Request{Code: src, Servers: names, Timeout: time.Duration(timeout * float64(time.Second)), Session: aggregator.CLISession})
	if asJSON {
		if err := writeJSON(stdout, res); err != nil {
			return err
		}
	} else {
		fmt.Fprint(stdout, forTerminal(stdout, res.Stdout))
		if res.Error != nil {
			fmt.Fprintln(stderr, forTerminal(stderr, *res.Error))
		}
	}
	if res.Failed() {
		return exitError{max(1, res.ExitCode)}
	}
	return nil
}

// forTerminal returns a program's output (or error) for w: as it is,
// unless w is a terminal. There each escape, carriage return and
// bidirectional override is written as its escape ("\x1b"), newlines and
// tabs staying, since the output can quote what a server returned: text
// that could retitle the window, set the clipboard, forge a link or hide
// the lines after it. Piped or redirected output is left byte for byte.
func forTerminal(w io.Writer, s string) string {
	if isTerminal(w) {
		return printable.Text(s)
	}
	return s
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// maxProgramBytes bounds a program read from a file or stdin: it travels to
// the sandbox in one line of at most runner.MaxHostLine, with the modules'
// descriptions, and JSON escaping can grow it.
const maxProgramBytes = 1 << 20

// readProgram reads a program of at most maxProgramBytes from r; what
// names it in errors.
func readProgram(r io.Reader, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxProgramBytes+1))
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, err // it names the file
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if len(b) > maxProgramBytes {
		return nil, fmt.Errorf("%s: the program is over %d MiB", what, maxProgramBytes>>20)
	}
	return b, nil
}

// programText checks that a program is UTF-8 text and returns it without
// the byte order mark an editor may put first. An invalid byte is reported
// with its line and column (what names the source), before anything runs.
func programText(b []byte, what string) (string, error) {
	if bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff}) {
		return "", fmt.Errorf("%s: the program is UTF-16 text; save it as UTF-8", what)
	}
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			start := bytes.LastIndexByte(b[:i], '\n') + 1
			line := 1 + bytes.Count(b[:start], []byte("\n"))
			col := 1 + utf8.RuneCount(b[start:i])
			return "", fmt.Errorf("%s:%d:%d: byte 0x%02x is not UTF-8; the program must be UTF-8 text (a Latin-1 or Windows-1252 file must be saved as UTF-8)", what, line, col, b[i])
		}
		i += size
	}
	return string(b), nil
}

func serversCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "servers [flags]",
		Short: "List the configured servers, and where each was found",
		Long: `List the configured servers: those of your MCP clients' config files and of this program's
config, with their aliases, transports, policies and sources, and the problems met in client
config files. Servers of the working directory's project files are marked as needing approval.`,
		Args: usageArgs(cobra.NoArgs),
	}
	c := newCommon(cmd)
	var asJSON bool
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return showServers(c, s, asJSON) }
	return cmd
}

func showServers(c *common, s streams, asJSON bool) error {
	stdout, stderr := s.stdout, s.stderr
	agg, eng, problems, err := setup(c, stderr, nil, inspect)
	if err != nil {
		return err
	}
	defer eng.Close()
	defer agg.Close()
	list := agg.Servers()
	if asJSON {
		if problems == nil {
			problems = []discovery.Problem{}
		}
		return writeJSON(stdout, struct {
			Servers  []aggregator.ServerInfo `json:"servers"`
			Problems []discovery.Problem     `json:"problems"`
		}{list, problems})
	}
	defer func() {
		for _, p := range problems {
			fmt.Fprintf(stdout, "problem: %s\n", p)
		}
	}()
	if len(list) == 0 {
		return noServers(c, stdout)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tALIAS\tTRANSPORT\tENABLED\tPOLICY\tSIGN-IN\tSOURCE")
	pending := 0
	for _, s := range list {
		enabled := "yes"
		switch {
		case s.NeedsApproval:
			pending++
			enabled = "no: needs approval (a project file's server)"
		case !s.Enabled:
			enabled = "no: " + s.Why
		}
		policy := "all tools"
		if len(s.Allow) > 0 {
			policy = "allow " + strings.Join(s.Allow, ",")
		}
		if len(s.Deny) > 0 {
			policy += "; deny " + strings.Join(s.Deny, ",")
		}
		if s.ReadOnly {
			policy += "; read-only tools"
		}
		source := s.Source
		if len(s.AlsoIn) > 0 {
			source += fmt.Sprintf(" (+%d more)", len(s.AlsoIn))
		}
		signIn := s.SignIn
		if signIn == "" {
			signIn = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.Alias, s.Transport, enabled, policy, signIn, source)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if pending > 0 {
		fmt.Fprintf(stdout, "\n%d server(s) from this directory's project files need approval before they run: \"mcp-code-mode trust\" shows what they run, \"mcp-code-mode trust NAME\" approves one.\n", pending)
	}
	return nil
}

// noServers says that no server is configured, and where servers were
// looked for: the MCP clients' config files and this program's own.
func noServers(c *common, w io.Writer) error {
	cfg, path, err := c.load()
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "No MCP server is configured.")
	if cfg.NoDiscovery {
		fmt.Fprintln(w, "MCP clients' config files were not read (--no-discovery, or no_discovery in the config).")
	} else {
		opts, err := discoveryOptions(cfg)
		if err != nil {
			return err
		}
		locs := discovery.Locations(opts)
		fmt.Fprintf(w, "Looked in %d MCP client config files (those marked \"exists\" are there but configure no server it could use):\n", len(locs))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, l := range locs {
			fmt.Fprintf(tw, "  %s\t%s", l.Client, l.Path)
			if exists(l.Path) {
				fmt.Fprint(tw, "\texists")
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(cfg.Discovery.Skip) > 0 {
			fmt.Fprintf(w, "Not read ([discovery] skip): %s.\n", strings.Join(cfg.Discovery.Skip, ", "))
		}
		if len(cfg.Discovery.Exclude) > 0 {
			fmt.Fprintf(w, "Left out ([discovery] exclude): %s.\n", strings.Join(cfg.Discovery.Exclude, ", "))
		}
	}
	switch {
	case path != "":
		fmt.Fprintf(w, "This program's config file, %s, has no [servers.NAME] entry.\n", path)
	case configDir() != "":
		fmt.Fprintf(w, "This program's config file, %s, does not exist.\n", filepath.Join(configDir(), "config.toml"))
	}
	fmt.Fprintln(w, "Add a server to it as [servers.NAME] with a command or a url (see \"Use it\" in the README), or configure one in an MCP client.")
	return nil
}

// exists reports whether a file, or a file matching a pattern, exists.
func exists(pattern string) bool {
	if strings.Contains(pattern, "*") {
		m, _ := filepath.Glob(pattern)
		return len(m) > 0
	}
	_, err := os.Stat(pattern)
	return err == nil
}

func toolsCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools [flags] [SERVER...]",
		Short: "List the allowed tools of servers, with their Python stubs",
		Long: `List the tools programs may call on the named servers (every enabled server when none is
named), with the Python stub of each: its signature and docstring, after the server's own
instructions on using it when it sent any (describe_server shows them to a program). Servers
with no known tool list are started.`,
	}
	c := newCommon(cmd)
	var asJSON bool
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return listTools(cmd.Context(), c, s, args, asJSON) }
	return cmd
}

func listTools(ctx context.Context, c *common, s streams, names []string, asJSON bool) error {
	stdout, stderr := s.stdout, s.stderr
	agg, eng, _, err := setup(c, stderr, nil, inspect)
	if err != nil {
		return err
	}
	defer eng.Close()
	defer agg.Close()
	announceStarts(agg, stderr, false)
	if len(names) == 0 {
		for _, s := range agg.Servers() {
			if s.Enabled {
				names = append(names, s.Name)
			}
		}
	}
	// Every server that starts is listed; the ones that do not are reported.
	var docs []aggregator.ToolDoc
	failed := 0
	for _, name := range names {
		d, err := agg.Tools(ctx, []string{name})
		if err != nil {
			fmt.Fprintf(stderr, "mcp-code-mode tools: %s\n", agg.Redact(startDetail(err)))
			failed++
			continue
		}
		docs = append(docs, d...)
	}
	if asJSON {
		if docs == nil {
			docs = []aggregator.ToolDoc{}
		}
		if err := writeJSON(stdout, docs); err != nil {
			return err
		}
	} else {
		for i, d := range docs {
			// Before a server's first tool, its instructions, as
			// describe_server shows them to a program.
			if i == 0 || docs[i-1].Server != d.Server {
				if in := agg.Instructions(d.Server); in != "" {
					fmt.Fprintf(stdout, "# %s: the server's instructions\n%s\n\n", d.Server, commentLines(in))
				}
			}
			fmt.Fprintf(stdout, "# %s.%s\n%s\n\n", d.Server, d.Tool, d.Stub)
		}
		switch {
		case len(names) == 0:
			fmt.Fprintln(stdout, `No server is enabled: "mcp-code-mode servers" says where it looked and why each server found is off.`)
		case len(docs) == 0 && failed == 0:
			fmt.Fprintf(stdout, "No tool is allowed on %s: the server lists none, or its allow and deny lists leave none (\"mcp-code-mode servers\" shows them).\n", strings.Join(names, ", "))
		}
	}
	if failed > 0 {
		return exitError{1}
	}
	return nil
}

// commentLines writes text (without control characters other than
// newlines and tabs, as a server's instructions are kept) as Python comment
// lines: "#   " before each.
func commentLines(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("#   "+l, " \t")
	}
	return strings.Join(lines, "\n")
}

func searchCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "search [flags] QUERY",
		Short: "Search the tools of every server, as search_tool_docs does",
		Long: `Rank the allowed tools of every enabled server for QUERY (several words are one query), as
runtime.search_tool_docs does in a program: BM25 over names, descriptions and parameters, with
stemming, related words, typo and identifier matching, fused with the ranking by embeddings when
[search.embeddings] names an embedding server. --also adds another phrasing of the same query:
each is ranked and the rankings fused, as a list of phrasings in search_tool_docs is. Each hit
shows the line that calls it. Servers with no known tool list are started first; those that
cannot start are named, with the cause, on stderr.`,
		Example: `  mcp-code-mode search create an issue
  mcp-code-mode search "read a file" --limit 3 --json
  mcp-code-mode search "file a bug" --also "open an issue" --also "report a problem"`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
	}
	c := newCommon(cmd)
	var asJSON bool
	var limit int
	var also []string
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVar(&limit, "limit", 5, "how many results")
	cmd.Flags().StringArrayVar(&also, "also", nil, "another phrasing of the query (repeatable); the rankings are fused")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		queries := append([]string{strings.Join(args, " ")}, also...)
		if len(queries) > aggregator.MaxPhrasings {
			return usageError{cmd, fmt.Errorf("%d phrasings: a search takes at most %d (the query and %d --also)", len(queries), aggregator.MaxPhrasings, aggregator.MaxPhrasings-1)}
		}
		return search(cmd.Context(), c, s, queries, limit, asJSON)
	}
	return cmd
}

func search(ctx context.Context, c *common, s streams, queries []string, limit int, asJSON bool) error {
	stdout, stderr := s.stdout, s.stderr
	agg, eng, _, err := setup(c, stderr, nil, inspect)
	if err != nil {
		return err
	}
	defer eng.Close()
	defer agg.Close()
	announceStarts(agg, stderr, true)
	docs, err := agg.Search(ctx, queries[0], limit, "summary", queries[1:]...)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, docs)
	}
	for _, d := range docs {
		fmt.Fprintf(stdout, "%s.%s\t%s\n    %s\n", d.Server, d.Tool, d.Summary, d.Signature)
	}
	if len(docs) == 0 {
		scope, err := agg.SearchScope(ctx)
		if err != nil {
			return err
		}
		quoted := make([]string, len(queries))
		for i, q := range queries {
			quoted[i] = strconv.Quote(q)
		}
		fmt.Fprintf(stdout, "No tool matches %s: searched %s of %s.\n", strings.Join(quoted, " or "), plural(scope.Tools, "tool"), plural(scope.Servers, "server"))
		if len(scope.Failed) > 0 {
			fmt.Fprintf(stdout, "Left out, as they did not start: %s (\"mcp-code-mode doctor\" says why).\n", strings.Join(scope.Failed, ", "))
		}
		if scope.Servers == 0 && len(scope.Failed) == 0 {
			fmt.Fprintln(stdout, "No server is configured: \"mcp-code-mode servers\" says where it looked.")
		}
	}
	return nil
}

// plural is "1 tool", "2 tools".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func buildImageCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "build-image [flags]",
		Short: "Build the sandbox image on every configured engine (offline from Debian packages when no registry answers)",
		Long: `Build the sandbox image through the container engines' API: Python and the runner, nothing
else. The base is ` + sandbox.DefaultBase + ` when a registry answers; otherwise (or with --base debian)
a Python root filesystem is assembled from the host's Debian packages.

It builds on every engine of the configuration's engines list (or the one DOCKER_HOST names, or
the default socket), several at once, and prints a line for each: built, up to date (with
--if-stale), the same engine as one before it, or failed and why. One engine failing does not
stop the others; the exit status is 1 when any failed.`,
		Args: usageArgs(cobra.NoArgs),
	}
	var base, tag, cfgPath string
	var ifStale bool
	cmd.Flags().StringVar(&base, "base", "", `base image; "" tries `+sandbox.DefaultBase+` then assembles one from Debian packages; "debian" always does`)
	cmd.Flags().StringVar(&tag, "tag", sandbox.DefaultImage(), "tag of the image to build")
	cmd.Flags().BoolVar(&ifStale, "if-stale", false, "build only on the engines where the image is missing or holds another runner")
	cmd.Flags().StringVar(&cfgPath, "config", "", "this program's config file, for its engines; default $XDG_CONFIG_HOME/mcp-code-mode/config.toml if present")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return buildImage(cmd.Context(), s, cfgPath, sandbox.BuildOptions{Tag: tag, Base: base}, ifStale)
	}
	return cmd
}

// buildImage builds the sandbox image on each configured engine and prints
// a line for each on stdout; the builds' progress goes to stderr, each line
// led by its engine when there are several.
func buildImage(ctx context.Context, s streams, cfgPath string, opts sandbox.BuildOptions, ifStale bool) error {
	if cfgPath == "" {
		cfgPath = defaultConfigPath()
	}
	cfg, err := config.Load(cfgPath, os.Environ())
	if err != nil {
		return err
	}
	var mu sync.Mutex
	var logs []*linePrefixer
	logFor := func(name string) io.Writer {
		if len(cfg.Engines) < 2 {
			return s.stderr
		}
		mu.Lock()
		defer mu.Unlock()
		l := &linePrefixer{mu: &mu, w: s.stderr, prefix: "[" + name + "] "}
		logs = append(logs, l)
		return l
	}
	results := sandbox.BuildOnEach(ctx, cfg.Engines, opts, ifStale, logFor)
	for _, l := range logs {
		l.Flush()
	}
	failed := 0
	for _, r := range results {
		switch {
		case r.Err != nil:
			failed++
			fmt.Fprintf(s.stdout, "%s: failed: %s\n", r.Name, strings.ReplaceAll(strings.TrimSpace(r.Err.Error()), "\n", " "))
		case r.SameAs != "":
			fmt.Fprintf(s.stdout, "%s: the same engine as %s, not built twice\n", r.Name, r.SameAs)
		case r.Current:
			fmt.Fprintf(s.stdout, "%s: %s is up to date\n", r.Name, opts.Tag)
		default:
			fmt.Fprintf(s.stdout, "%s: built %s (%s) in %.1fs\n", r.Name, opts.Tag, shortID(r.ID), r.Took.Seconds())
		}
	}
	if failed > 0 {
		fmt.Fprintf(s.stderr, "build-image: failed on %d of %s\n", failed, plural(len(results), "engine"))
		return exitError{1}
	}
	return nil
}

// linePrefixer writes what it is given to w line by line, each line led by
// prefix and written whole under mu, so that several builds can share one
// stream. A line longer than maxLogLine is cut there.
type linePrefixer struct {
	mu     *sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
}

// maxLogLine is the longest line a linePrefixer holds before writing it.
const maxLogLine = 64 << 10

func (l *linePrefixer) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 && len(l.buf) < maxLogLine {
			return len(p), nil
		}
		if i < 0 {
			i = len(l.buf) - 1
		}
		l.writeLine(l.buf[:i+1])
		l.buf = l.buf[i+1:]
	}
}

// Flush writes what is left of a last line without a newline.
func (l *linePrefixer) Flush() {
	if len(l.buf) > 0 {
		l.writeLine(append(l.buf, '\n'))
		l.buf = nil
	}
}

func (l *linePrefixer) writeLine(line []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, l.prefix)
	l.w.Write(line)
}

// doctorEngine checks one container engine: that it answers, holds the
// current sandbox image (or will have it built by the first run) and knows
// the configured runtime. With several engines, each check names its engine,
// and an engine seen before under another address (seen maps identities to
// the first address) is said to be that one and not checked again.
func doctorEngine(ctx context.Context, cfg config.Config, host string, seen map[sandbox.Identity]string, report func(ok bool, what, detail, fix string)) {
	name := seen != nil
	what := func(s string) string {
		if name {
			return s + " " + host
		}
		return s
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	e, err := sandbox.Dial(cctx, host)
	cancel()
	if err != nil {
		fix := "start Docker (or Podman's API service) and set DOCKER_HOST if it is not at the default socket"
		if host != "" {
			fix = "start that engine, or take it out of engines in the config file; runs go to the others meanwhile"
		}
		report(false, what("container engine"), err.Error(), fix)
		return
	}
	defer e.Close()
	// One call of the engine's info says both which engine it is and which
	// runtimes it has.
	var (
		id          sandbox.Identity
		runtimes    []string
		describeErr error
	)
	if name || cfg.Runtime != "" {
		id, runtimes, describeErr = e.Describe(ctx)
	}
	if name {
		if describeErr != nil {
			report(false, what("container engine"), describeErr.Error(), "")
			return
		}
		if first, ok := seen[id]; ok && id.Known() {
			report(true, what("container engine"), "the same engine as "+first+": serve uses that address only", "")
			return
		}
		seen[id] = host
		report(true, what("container engine"), "reachable", "")
	} else {
		report(true, what("container engine"), e.Host()+" reachable", "")
	}
	digest, err := e.ImageRunnerDigest(ctx, cfg.Image)
	switch {
	case err != nil && cfg.Image == sandbox.DefaultImage():
		report(true, what("sandbox image"), cfg.Image+" is not built yet: the first run on this engine builds it (or run `mcp-code-mode build-image`)", "")
	case err != nil:
		report(false, what("sandbox image"), err.Error(), "build or pull "+cfg.Image+" on this engine")
	case digest != runner.Digest():
		report(false, what("sandbox image"), cfg.Image+" holds an older runner", "run `mcp-code-mode build-image`")
	default:
		report(true, what("sandbox image"), cfg.Image+" is current", "")
	}
	if cfg.Runtime != "" {
		switch {
		case describeErr != nil:
			report(false, what("sandbox runtime"), describeErr.Error(), "")
		case !slices.Contains(runtimes, cfg.Runtime):
			report(false, what("sandbox runtime"), fmt.Sprintf("the engine has no runtime %q (it has %s)", cfg.Runtime, strings.Join(runtimes, ", ")),
				`register it in /etc/docker/daemon.json: {"runtimes": {"runsc": {"path": "/usr/bin/runsc", "runtimeArgs": ["--network=none"]}}}, then restart dockerd`)
		default:
			report(true, what("sandbox runtime"), cfg.Runtime, "")
		}
	}
}

func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	return id[:min(12, len(id))]
}

func doctorCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "doctor [flags]",
		Short: "Check the engine, the image, the configuration and each server",
		Long: `Check everything a run needs, and say how to fix what fails: the configuration, the container
engine, the sandbox image (and whether it holds this program's runner), the runtime, a real
run, the client config files, and each enabled server's start (tried now, whatever the
back-off after earlier failures). Exit status 1 when a check fails.`,
		Args: usageArgs(cobra.NoArgs),
	}
	c := newCommon(cmd)
	var asJSON bool
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return doctor(cmd.Context(), c, s, asJSON) }
	return cmd
}

// check is one of doctor's findings.
type check struct {
	Check  string `json:"check"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

func doctor(ctx context.Context, c *common, s streams, asJSON bool) (err error) {
	stdout, stderr := s.stdout, s.stderr
	var checks []check
	failed := 0
	report := func(ok bool, what, detail, fix string) {
		if !ok {
			failed++
		}
		checks = append(checks, check{what, ok, detail, fix})
		if asJSON {
			return
		}
		mark := "ok  "
		if !ok {
			mark = "FAIL"
		}
		fmt.Fprintf(stdout, "[%s] %s: %s\n", mark, what, detail)
		if !ok && fix != "" {
			fmt.Fprintf(stdout, "       fix: %s\n", fix)
		}
	}
	defer func() {
		if asJSON {
			if checks == nil {
				checks = []check{}
			}
			if werr := writeJSON(stdout, checks); werr != nil && err == nil {
				err = werr
			}
		}
	}()
	cfg, path, err := c.load()
	if err != nil {
		report(false, "configuration", err.Error(), "correct the file or variable named above")
		return exitError{1}
	}
	where := path
	if where == "" {
		where = "defaults (no config file)"
	}
	report(true, "configuration", where, "")
	switch st, err := aggregator.OpenState(ctx, cfg.State, false); {
	case err != nil:
		report(false, "state database", err.Error(), "set path in the [state] table of the config file to a file you can write")
	case st == nil:
		report(true, "state database", cfg.State.Path+" (not created yet: the first save_memory or save_tool creates it)", "")
	default:
		report(true, "state database", st.Path(), "")
		st.Close()
	}
	if dir, err := cfg.Audit.AuditDir(); err != nil {
		report(false, "audit log", err.Error(), "set dir in the [audit] table of the config file to an absolute path")
	} else if l, err := audit.Open(audit.Options{Dir: dir, MaxBytes: cfg.Audit.MaxBytes, Keep: cfg.Audit.Keep}); err != nil {
		report(false, "audit log", err.Error(), "set dir in the [audit] table of the config file to a directory you can write")
	} else {
		report(true, "audit log", dir, "")
		_ = l.Close()
	}

	hosts := cfg.Engines
	if len(hosts) == 0 {
		hosts = []string{""}
	}
	var seen map[sandbox.Identity]string
	if len(hosts) > 1 {
		seen = map[sandbox.Identity]string{}
	}
	for _, host := range hosts {
		doctorEngine(ctx, cfg, host, seen, report)
	}
	agg, eng, problems, err := setup(c, stderr, nil, inspect)
	if err != nil {
		report(false, "servers", err.Error(), "correct the server entry named above")
		return exitError{1}
	}
	for _, p := range problems {
		report(false, "client config", p.String(), "fix the file, or turn that client off with [discovery] skip")
	}
	// A real run: an engine can answer and still be unable to run the sandbox.
	if res := agg.Run(ctx, aggregator.Request{Code: "print('ok')", Timeout: 30 * time.Second}); res.Error != nil || res.Stdout != "ok\n" {
		detail := res.Stdout
		if res.Error != nil {
			detail = *res.Error
		}
		report(false, "sandbox run", firstLineOf(detail), "see the message; `mcp-code-mode build-image` rebuilds the image")
	} else {
		report(true, "sandbox run", fmt.Sprintf("print('ok') took %d ms", res.DurationMS), "")
	}
	defer eng.Close()
	defer agg.Close()
	ectx, cancel := context.WithTimeout(ctx, cfg.Search.Embeddings.Timeout+time.Second)
	switch on, dims, err := agg.CheckEmbeddings(ectx); {
	case !on:
	case err != nil:
		report(false, "embedding server", err.Error(), "check url, model and api_key_env in [search.embeddings]; search works without it, on words alone")
	default:
		report(true, "embedding server", fmt.Sprintf("%s answered a %d-dimension vector", cfg.Search.Embeddings.URL, dims), "")
	}
	cancel()
	list := agg.Servers()
	if len(list) == 0 {
		report(true, "servers", "none configured; add [servers.NAME] to the config file", "")
	}
	for _, s := range list {
		if !s.Enabled {
			report(true, "server "+s.Name, "disabled: "+s.Why, "")
			continue
		}
		n, err := agg.Probe(ctx, s.Name)
		if err != nil {
			report(false, "server "+s.Name, agg.Redact(startDetail(err)), "check its command, arguments and environment in "+s.Source)
			continue
		}
		report(true, "server "+s.Name, fmt.Sprintf("started, %d tools", n), "")
	}
	if failed > 0 {
		return exitError{1}
	}
	return nil
}

// announceStarts tells the user, on stderr, which servers a command must
// start (which may take long) and, with failures, each that could not be,
// with the cause in full: exit status, what it wrote, or which timeout ran
// out.
func announceStarts(agg *aggregator.Aggregator, stderr io.Writer, failures bool) {
	var mu sync.Mutex
	n := aggregator.StartNotices{Starting: func(names []string) {
		mu.Lock()
		defer mu.Unlock()
		word := "servers"
		if len(names) == 1 {
			word = "server"
		}
		fmt.Fprintf(stderr, "mcp-code-mode: starting %d %s (%s)...\n", len(names), word, strings.Join(names, ", "))
	}}
	if failures {
		n.Failed = func(name string, err error) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stderr, "mcp-code-mode: server %s left out: %s\n", name, agg.Redact(startDetail(err)))
		}
	}
	agg.NotifyStarts(n)
}

// startDetail is an error for the user's eyes: a failed start with what the
// server wrote (which may hold a token of its own, so it never reaches the
// model).
func startDetail(err error) string {
	if se := (*upstream.StartError)(nil); errors.As(err, &se) {
		return strings.Replace(err.Error(), se.Error(), se.Detail(), 1)
	}
	return err.Error()
}

func firstLineOf(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return first
}

func versionCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version [flags]",
		Short: "Print the version",
		Args:  usageArgs(cobra.NoArgs),
	}
	var asJSON bool
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: version, runner, commit, Go version, OS and architecture")
	cmd.RunE = func(*cobra.Command, []string) error {
		if asJSON {
			return writeJSON(s.stdout, buildInfo())
		}
		fmt.Fprintln(s.stdout, versionLine())
		return nil
	}
	return cmd
}

// versionInfo is what version --json prints.
type versionInfo struct {
	Version string `json:"version"`
	Runner  string `json:"runner"`           // digest of the runner the sandbox image must hold
	Commit  string `json:"commit,omitempty"` // the VCS revision built, when the build recorded it
	Dirty   bool   `json:"dirty,omitempty"`  // built from a tree with changes
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}

func buildInfo() versionInfo {
	v := versionInfo{Version: config.Version, Runner: runner.Digest()[:12], Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				v.Commit = kv.Value[:min(12, len(kv.Value))]
			case "vcs.modified":
				v.Dirty = kv.Value == "true"
			}
		}
	}
	return v
}

// versionLine is the version in one line, as version and --version print it.
func versionLine() string {
	v := buildInfo()
	commit := ""
	if v.Commit != "" {
		commit = ", commit " + v.Commit
		if v.Dirty {
			commit += "+changes"
		}
	}
	return fmt.Sprintf("mcp-code-mode %s (runner %s%s, %s %s/%s)", v.Version, v.Runner, commit, v.Go, v.OS, v.Arch)
}
