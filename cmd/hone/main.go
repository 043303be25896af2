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
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
