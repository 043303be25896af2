// Package cli is hone's command line: flags in, one library call, output and
// an exit code out. Run is what cmd/hone calls; tests call it too.
//
// Exit codes (documented in README.md):
//
//	0  success
//	1  unexpected failure
//	2  usage: bad flags or arguments (a number out of range, a task
//	   file that is a pipe or a device, --http not on loopback)
//	3  the repository does not exist or is not a directory (a
//	   symbolic-link loop, a path through a file)
//	4  the repository cannot be read (permission denied), or the task file
//	   or standard input cannot be read (missing, a directory, permission)
//	5  the repository has no indexable file (hone index --explain still
//	   lists the skipped files)
//	6  the task is empty or too large
//	7  the LLM evaluator is misconfigured or refused (401, 403, 404); a
//	   slow, failing or stalled endpoint leaves the local scores, exit 0
//	130 interrupted
//
// A task whose first word names a command (index, cache, bench, mcp) runs the
// command; "hone -- WORD…", standard input ("-") and --task-file take any
// text as the task. A wrong argument to a command is a usage error that
// says so.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hone-dev/hone"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitNoRepo      = 3
	ExitUnreadable  = 4
	ExitEmptyRepo   = 5
	ExitBadTask     = 6
	ExitLLM         = 7
	ExitInterrupted = 130
)

// usageError marks errors that deserve ExitUsage.
type usageError struct{ error }

// llmError marks errors of the LLM evaluator.
type llmError struct{ error }

// unreadableError marks input that cannot be read (the task file, standard
// input): ExitUnreadable.
type unreadableError struct{ error }

// ExitCode maps an error to the documented exit code.
func ExitCode(err error) int {
	var ue usageError
	var le llmError
	var re unreadableError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue):
		return ExitUsage
	case errors.As(err, &le):
		return ExitLLM
	case errors.As(err, &re):
		return ExitUnreadable
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, hone.ErrNoRepo), errors.Is(err, hone.ErrNotDir):
		return ExitNoRepo
	case errors.Is(err, hone.ErrUnreadable), errors.Is(err, fs.ErrPermission):
		return ExitUnreadable
	case errors.Is(err, hone.ErrEmptyRepo):
		return ExitEmptyRepo
	case errors.Is(err, hone.ErrEmptyTask), errors.Is(err, hone.ErrTaskTooLarge):
		return ExitBadTask
	}
	return ExitFailure
}

// Run executes hone with args and returns the exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %v", context.Canceled, err)
		}
		fmt.Fprintf(stderr, "hone: %s\n", strings.TrimPrefix(err.Error(), "hone: "))
	}
	return ExitCode(err)
}

// common holds the flags every command shares.
type common struct {
	repo            string
	cacheDir        string
	noCache         bool
	maxFileSize     int64
	includeVendored bool
	includeData     bool
	noHistory       bool
	firstAnswer     bool
	verbose         bool
	quiet           bool
}

func (c *common) register(cmd *cobra.Command) {
	f := cmd.PersistentFlags()
	f.StringVarP(&c.repo, "repo", "r", ".", "repository directory")
	f.StringVar(&c.cacheDir, "cache-dir", "", "index cache directory (default $HONE_CACHE_DIR, else the user cache dir)")
	f.BoolVar(&c.noCache, "no-cache", false, "index in memory only; read and write no cache")
	f.Int64Var(&c.maxFileSize, "max-file-size", 1<<20, "skip files larger than this many bytes")
	f.BoolVar(&c.includeVendored, "include-vendored", false, "index bundled third-party code (Linguist's vendor rules: node_modules/, wwwroot/lib/, jquery.js ...)")
	f.BoolVar(&c.includeData, "include-data", false, "index non-source data such as translation catalogs (*.po)")
	f.BoolVar(&c.noHistory, "no-history", false, "read no commit history (files that past commits like the task touched)")
	f.BoolVar(&c.firstAnswer, "first-answer", true, "on a tree with no index in the cache, answer from a read of its files, parsing only the files the task points at; the next runs complete the index, each parsing a bounded step (=false: wait for the whole index)")
	f.BoolVarP(&c.verbose, "verbose", "v", false, "log details to stderr")
	f.BoolVarP(&c.quiet, "quiet", "q", false, "no warnings or progress on stderr")
}

// check refuses flag values out of range: a usage error.
func (c *common) check() error {
	if c.maxFileSize <= 0 {
		return usageError{fmt.Errorf("--max-file-size must be a positive number of bytes, not %d", c.maxFileSize)}
	}
	return nil
}

func (c *common) logger(stderr io.Writer) *slog.Logger {
	level := slog.LevelWarn
	switch {
	case c.quiet:
		return slog.New(slog.DiscardHandler)
	case c.verbose:
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
}

// openOptions are the options of hone.Open the flags set.
func (c *common) openOptions(log *slog.Logger) hone.Options {
	return hone.Options{CacheDir: c.cacheDir, NoCache: c.noCache, MaxFileSize: c.maxFileSize,
		IncludeVendored: c.includeVendored, IncludeData: c.includeData, Logger: log,
		History: hone.History{Off: c.noHistory}, FirstAnswer: c.firstAnswer}
}

// open opens the repository with progress on a terminal, for a command
// that answers and exits: the index is searched in place (a large tree's
// warm run reads half of its cache; see hone.Options.InPlace).
func (c *common) open(ctx context.Context, stderr io.Writer) (*hone.Repo, error) {
	opts := c.openOptions(c.logger(stderr))
	opts.InPlace = true
	var bar *progress
	if !c.quiet && isTerminal(stderr) {
		bar = newProgress(ctx, stderr)
		opts.Progress = bar.set
	}
	repo, err := hone.Open(ctx, c.repo, opts)
	if bar != nil {
		bar.done()
	}
	return repo, err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
