package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcp-code-mode/mcp-code-mode/internal/catalog"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/oauth"
	"github.com/mcp-code-mode/mcp-code-mode/internal/redact"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

func loginCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "login [flags] SERVER",
		Short: "Sign in to a remote server that asks for OAuth, and keep its tokens",
		Long: `Sign in to a remote MCP server that asks for OAuth authorization (Notion, Linear, Sentry,
GitHub's remote server, ...): it prints the authorization URL, opens it with $BROWSER or the
desktop's opener, waits (at most --timeout) for the browser to come back to a loopback address,
and keeps the tokens in the state directory, readable by you alone. A server that needs no user
(the client credentials grant, or an authorization server that grants at once) signs in without a
browser. Runs use the sign-in and refresh its tokens; they never wait for a browser.`,
		Example: `  mcp-code-mode login notion
  mcp-code-mode login linear --no-browser --timeout 10m`,
		Args: usageArgs(cobra.ExactArgs(1)),
	}
	c := newCommon(cmd)
	var timeout time.Duration = 5 * time.Minute
	var noBrowser bool
	cmd.Flags().Var(secondsFlag{&timeout}, "timeout", "how long to wait for the browser to come back: seconds, or a duration such as 10m (default 5m)")
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "only print the URL; open no browser")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return login(cmd.Context(), c, s, args[0], timeout, noBrowser)
	}
	return cmd
}

func logoutCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "logout [flags] SERVER",
		Short: "Forget a remote server's sign-in (and revoke its tokens)",
		Long: `Forget the sign-in login kept for a remote server: its tokens are removed from the state
directory, and revoked with its authorization server when that offers revocation.`,
		Example: `  mcp-code-mode logout notion`,
		Args:    usageArgs(cobra.ExactArgs(1)),
	}
	c := newCommon(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return logout(cmd.Context(), c, s, args[0]) }
	return cmd
}

// remoteServer finds the configured server name for login and logout: a
// remote server that signs in with OAuth.
func remoteServer(c *common, name string) (config.Config, config.Server, error) {
	cfg, path, err := c.load()
	if err != nil {
		return cfg, config.Server{}, err
	}
	list, _, err := servers(cfg, path, nil)
	if err != nil {
		return cfg, config.Server{}, err
	}
	for _, srv := range list {
		if srv.Name != name {
			continue
		}
		switch {
		case srv.Untrusted:
			return cfg, srv, fmt.Errorf("server %q comes from a project file and needs approval first (mcp-code-mode trust %s)", name, name)
		case srv.Blocked != "":
			return cfg, srv, fmt.Errorf("server %q cannot be used: %s", name, srv.Blocked)
		case srv.Transport == config.TransportStdio:
			return cfg, srv, fmt.Errorf("server %q is a stdio server: it is given its credentials in its env, not by signing in", name)
		case !upstream.SignsIn(srv):
			return cfg, srv, fmt.Errorf("server %q sends the Authorization header its config gives (headers, env_http_headers or bearer_token_env_var): there is nothing to sign in to", name)
		}
		return cfg, srv, nil
	}
	return cfg, config.Server{}, fmt.Errorf("no server is named %q (mcp-code-mode servers lists them)", name)
}

// login signs in to the server name: it starts the server with a user who
// can sign in, so that its challenges (401, 403 insufficient_scope) are
// answered in the browser, or at once when no user is needed; and, when
// the server asked for nothing, signs in all the same if it publishes
// protected resource metadata.
func login(ctx context.Context, c *common, s streams, name string, timeout time.Duration, noBrowser bool) error {
	cfg, srv, err := remoteServer(c, name)
	if err != nil {
		return err
	}
	red := redact.New(srv.Secrets()...)
	log := slog.New(red.Handler(c.logger(s.stderr).Handler()))
	user := &oauth.User{Out: s.stdout, Timeout: timeout}
	if !noBrowser {
		user.Open = openBrowser
	}
	limits := cfg.Limits
	limits.ConnectTimeout += timeout // the handshake waits for the browser
	up := upstream.New(srv, cfg.Env, limits, catalog.Catalog{Dir: cfg.CatalogDir}, nil,
		oauth.Options{Dir: cfg.TokenDir, User: user, OnSecret: red.Add}, log)
	defer up.Close()
	up.ForgetFailures() // a run that failed for want of sign-in must not wait out a back-off now
	auth := up.SignIn()
	auth.Fresh()
	if _, _, err := up.Acquire(ctx); err != nil {
		return red.Error(err)
	}
	up.Release()
	if auth.SignIns() == 0 {
		signed, err := auth.SignInIfOffered(ctx)
		if err != nil {
			return red.Error(fmt.Errorf("sign in to server %q: %w", name, err))
		}
		if !signed {
			fmt.Fprintf(s.stdout, "Server %s did not ask for sign-in: it works without.\n", name)
			return nil
		}
	}
	rec := auth.Current()
	if rec == nil {
		return fmt.Errorf("sign in to server %q: no token was kept", name)
	}
	scopes := "no scope"
	if len(rec.Scopes) > 0 {
		scopes = "scope " + strings.Join(rec.Scopes, " ")
	}
	fmt.Fprintf(s.stdout, "Signed in to %s at %s (%s; token %s). Runs use this sign-in and renew it.\n", name, rec.Issuer, scopes, rec.Describe())
	return nil
}

func logout(ctx context.Context, c *common, s streams, name string) error {
	cfg, srv, err := remoteServer(c, name)
	if err != nil {
		return err
	}
	red := redact.New(append(srv.Secrets(), oauth.Store{Dir: cfg.TokenDir}.Secrets(srv.URL)...)...)
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	n, problems, err := oauth.New(srv, oauth.Options{Dir: cfg.TokenDir}).SignOut(ctx)
	if err != nil {
		return red.Error(err)
	}
	if n == 0 {
		fmt.Fprintf(s.stdout, "Server %s was not signed in.\n", name)
		return nil
	}
	fmt.Fprintf(s.stdout, "Signed out of %s: its tokens are forgotten.\n", name)
	for _, p := range problems {
		fmt.Fprintf(s.stderr, "mcp-code-mode: %s\n", red.String(p))
	}
	return nil
}

// openBrowser opens url with $BROWSER (a list of commands separated by
// colons, each given the URL, or with %s standing for it) when it is set,
// else with the desktop's opener when there is a desktop. It does not wait
// for the browser.
func openBrowser(url string) error {
	var cmds [][]string
	if b := os.Getenv("BROWSER"); b != "" {
		for _, one := range strings.Split(b, ":") {
			if f := strings.Fields(one); len(f) > 0 {
				if strings.Contains(one, "%s") {
					for i := range f {
						f[i] = strings.ReplaceAll(f[i], "%s", url)
					}
				} else {
					f = append(f, url)
				}
				cmds = append(cmds, f)
			}
		}
	} else {
		switch runtime.GOOS {
		case "darwin":
			cmds = [][]string{{"open", url}}
		case "windows":
			cmds = [][]string{{"rundll32", "url.dll,FileProtocolHandler", url}}
		default:
			if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
				return errors.New("no desktop (neither $DISPLAY nor $WAYLAND_DISPLAY is set) and $BROWSER is not set")
			}
			cmds = [][]string{{"xdg-open", url}}
		}
	}
	var last error
	for _, argv := range cmds {
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := cmd.Start(); err != nil {
			last = err
			continue
		}
		go func() { _ = cmd.Wait() }() // reaped, never waited on
		return nil
	}
	return last
}
