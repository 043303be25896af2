// Command hone finds the files a coding agent needs for a task.
//
//	hone "Fix the authentication token expiry bug"
//	hone --json --repo ~/src/app "Add rate limiting to API endpoints"
//
// See README.md, or run hone --help.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/hone-dev/hone/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	disarm := cli.Watchdog(ctx, cli.Grace, os.Stderr, os.Exit)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	disarm()
	stop()
	os.Exit(code)
}
