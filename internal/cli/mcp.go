package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/hone-dev/hone/internal/mcpserver"
)

func init() { extraCommands = append(extraCommands, newMCPCmd) }

// mcpFlags are the flags of hone mcp.
type mcpFlags struct {
	common
	http        string
	allowRemote bool
	sessionTTL  time.Duration
	roots       []string
}

func newMCPCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f mcpFlags
	cmd := &cobra.Command{
		Use:   "mcp [--repo DIR] [--root DIR]... [--http ADDR]",
		Short: "Serve hone to coding agents over MCP (stdio, or streamable HTTP)",
		Long: `mcp serves hone as a Model Context Protocol server, on standard input and
output by default (stdout carries only JSON-RPC; logs go to stderr), or on
streamable HTTP with --http ADDR (endpoint http://ADDR/mcp).

Tools: retrieve_context (the whole loop: the files a task needs, ranked, and a
Markdown context pack), search (one keyword look-up), start and judge (a
stepwise loop in which the agent judges the candidates).

--repo is the default repository; each call may name another with "repo"
(absolute, or relative to --repo). Opened repositories stay warm in memory and
are refreshed before each call.

The server reads only inside its roots: --repo, each --root DIR, and on stdio
the roots the client declares (its workspace folders, through the MCP roots
capability). A repo outside them, or one whose symbolic links lead outside,
is refused. Over --http the client's roots are not honoured (any local
process can connect): give every directory with --repo or --root.

--http listens on a loopback address only (127.0.0.1, ::1, localhost): the
server has no authentication, and anyone who reaches it can read the code.
--allow-remote lifts that restriction; put the server behind something that
authenticates if you use it.`,
		Example: `  hone mcp                       # stdio, the working directory
  hone mcp --repo ~/src/app
  hone mcp --repo ~/src/app --root ~/src/lib  # also serve ~/src/lib
  hone mcp --http 127.0.0.1:7777 # http://127.0.0.1:7777/mcp`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.common.check(); err != nil {
				return err
			}
			if f.sessionTTL <= 0 {
				return usageError{fmt.Errorf("--session-ttl must be a positive duration, not %v", f.sessionTTL)}
			}
			opts := mcpserver.Options{
				Repo:        f.repo,
				Roots:       f.roots,
				ClientRoots: true, // stdio: the client started the server; ServeHTTP ignores it
				Open:        f.openOptions(nil),
				SessionTTL:  f.sessionTTL,
				AllowRemote: f.allowRemote,
				Logger:      f.common.logger(stderr),
				Stdin:       stdin,
				Stdout:      stdout,
			}
			if cmd.Flags().Changed("http") {
				if _, _, err := net.SplitHostPort(f.http); err != nil {
					return usageError{fmt.Errorf("--http %q: %w (want host:port, e.g. %s)", f.http, err, mcpserver.DefaultHTTPAddr)}
				}
				err := mcpserver.ServeHTTP(cmd.Context(), f.http, opts)
				if errors.Is(err, mcpserver.ErrRemoteBind) {
					return usageError{err}
				}
				return err
			}
			return mcpserver.Serve(cmd.Context(), opts)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	f.common.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.http, "http", "", "serve streamable HTTP on this host:port instead of stdio (\"\": "+mcpserver.DefaultHTTPAddr+")")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "let --http listen on a non-loopback address (no authentication!)")
	fl.StringArrayVar(&f.roots, "root", nil, "also serve this directory (repeatable); a call's repo must lie inside --repo, a --root or a client root")
	fl.DurationVar(&f.sessionTTL, "session-ttl", mcpserver.DefaultSessionTTL, "idle time after which a start/judge session expires")
	return cmd
}
