package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/report"
	"github.com/hone-dev/hone/loop"
)

// retrieveFlags are the flags of the main command.
type retrieveFlags struct {
	common
	jsonOut      bool
	paths        bool
	pack         bool
	budget       int
	cycles       int
	threshold    float64
	minFiles     int
	candidates   int
	includeTests bool
	showSecrets  bool
	taskFile     string
	llm          llmFlags
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f retrieveFlags
	cmd := &cobra.Command{
		Use:   "hone [flags] [--] TASK...",
		Short: "Find the files a coding agent needs for a task",
		Long: `hone finds the files a coding subagent needs for a task, by iterative retrieval:
DISPATCH a query, EVALUATE each candidate (relevance 0-1, reason, missing context),
REFINE the query with the codebase's own terms, and LOOP (at most --cycles times).

The task is the arguments, or standard input when the only argument is "-",
or the contents of --task-file. A task whose first word names a command
(index, cache, bench, mcp, help, completion) runs that command: put -- before the
task (hone -- index the files), or pass the text on standard input or with
--task-file, which take any text as it is.`,
		Example: `  hone "Fix the authentication token expiry bug"
  hone --json --repo ~/src/app "Add rate limiting to API endpoints"
  hone --pack --budget 8000 "Why does QuerySet.filter ignore Q objects?" > context.md
  gh issue view 123 | hone --paths -
  hone --task-file issue.md
  hone -- index files by their modification time`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRetrieve(cmd.Context(), &f, args, stdin, stdout, stderr)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	f.common.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&f.jsonOut, "json", false, "print the result and trace as one JSON object")
	fl.BoolVar(&f.paths, "paths", false, "print the selected paths, one a line")
	fl.BoolVar(&f.pack, "pack", false, "print a Markdown context pack of the selected files (see --budget)")
	fl.IntVar(&f.budget, "budget", 8000, "token budget of --pack (tokens estimated as bytes/4)")
	fl.IntVar(&f.cycles, "cycles", loop.DefaultMaxCycles, "at most this many DISPATCH-EVALUATE-REFINE cycles")
	fl.Float64Var(&f.threshold, "threshold", loop.DefaultThreshold, "relevance a file needs to be selected")
	fl.IntVar(&f.minFiles, "min-files", loop.DefaultMinFiles, "stop early once this many files reach --threshold")
	fl.IntVar(&f.candidates, "candidates", loop.DefaultCandidates, "candidates per DISPATCH")
	fl.BoolVar(&f.includeTests, "include-tests", false, "do not down-weight test files")
	fl.BoolVar(&f.showSecrets, "show-secrets", false, "show in --pack the files that look like secrets (private keys, .env, credentials) and credential values, which are otherwise listed but not shown, and masked")
	fl.StringVar(&f.taskFile, "task-file", "", "read the task from this file")
	f.llm.register(fl)
	cmd.AddCommand(newIndexCmd(stdout, stderr))
	for _, extra := range extraCommands {
		cmd.AddCommand(extra(stdin, stdout, stderr))
	}
	for _, sub := range cmd.Commands() {
		sub.Args = taskHint(sub.Name(), sub.Args)
	}
	return cmd
}

// taskHint wraps a command's argument check: a wrong argument is a usage
// error, and since it may be a task that starts with the command's name, the
// error says how to give such a task.
func taskHint(name string, check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if check == nil {
			return nil
		}
		if err := check(cmd, args); err != nil {
			if len(args) == 0 {
				return usageError{err}
			}
			return usageError{fmt.Errorf("%w; for a task that starts with %q, put -- before it (hone -- %s %s) or use --task-file or -",
				err, name, name, strings.Join(args, " "))}
		}
		return nil
	}
}

// extraCommands are subcommands registered by other files of this package
// (mcp, bench), each built with the same streams.
var extraCommands []func(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command

func readTask(f *retrieveFlags, args []string, stdin io.Reader) (string, error) {
	switch {
	case f.taskFile != "" && len(args) > 0:
		return "", usageError{fmt.Errorf("give the task as arguments or --task-file, not both")}
	case f.taskFile != "":
		b, err := readFile(f.taskFile, hone.MaxTaskBytes+1)
		var nr notRegularError
		if errors.As(err, &nr) {
			return "", usageError{fmt.Errorf("task file: %w", err)}
		}
		if err != nil {
			return "", unreadableError{fmt.Errorf("task file: %w", err)}
		}
		return string(b), nil
	case len(args) == 1 && args[0] == "-":
		b, err := io.ReadAll(io.LimitReader(bufio.NewReader(stdin), hone.MaxTaskBytes+1))
		if err != nil {
			return "", unreadableError{fmt.Errorf("reading the task from standard input: %w", err)}
		}
		return string(b), nil
	case len(args) == 0:
		return "", usageError{fmt.Errorf(`no task given; give it as arguments (hone "Fix the token expiry bug"), ` +
			`on standard input with - (gh issue view 123 | hone --paths -), or in a file (--task-file issue.md)`)}
	}
	return strings.Join(args, " "), nil
}

// notRegularError: a task file that is a named pipe, a device or a socket.
type notRegularError struct {
	path string
	mode fs.FileMode
}

func (e notRegularError) Error() string {
	kind := "not a regular file"
	switch t := e.mode.Type(); {
	case t&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case t&fs.ModeSocket != 0:
		kind = "a socket"
	case t&fs.ModeDevice != 0:
		kind = "a device"
	}
	return fmt.Sprintf("%s is %s, not a regular file; pipe the task to standard input with - instead", e.path, kind)
}

// readFile reads at most limit bytes of the file at p (enough to tell that a
// task is too large). A named pipe, a device or a socket is refused
// (notRegularError) before it is opened: opening a pipe nobody writes to
// waits for good. A directory is opened, and fails as unreadable.
func readFile(p string, limit int64) ([]byte, error) {
	// (A path that cannot be stat'ed fails at the open, which names it.)
	if fi, err := os.Stat(p); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, notRegularError{p, fi.Mode()}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// What was opened is checked again: the path may have changed since.
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, notRegularError{p, fi.Mode()}
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

func runRetrieve(ctx context.Context, f *retrieveFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	modes := 0
	for _, m := range []bool{f.jsonOut, f.paths, f.pack} {
		if m {
			modes++
		}
	}
	if modes > 1 {
		return usageError{fmt.Errorf("--json, --paths and --pack exclude each other")}
	}
	if !(f.threshold >= 0 && f.threshold <= 1) { // NaN too
		return usageError{fmt.Errorf("--threshold must be in [0,1], got %v", f.threshold)}
	}
	if err := f.common.check(); err != nil {
		return err
	}
	if f.cycles < 1 || f.minFiles < 1 || f.candidates < 1 || f.budget < 1 {
		return usageError{fmt.Errorf("--cycles, --min-files, --candidates and --budget must be positive")}
	}
	text, err := readTask(f, args, stdin)
	if err != nil {
		return err
	}
	if err := hone.CheckTask(text); err != nil {
		return err
	}
	repo, err := f.open(ctx, stderr)
	if err != nil {
		return err
	}
	// A first answer judged by a model completes the index meanwhile:
	// whatever is left of that stops, unwritten, when the answer is out.
	defer repo.Close()
	opts := hone.RetrieveOptions{
		Loop: loop.Options{MaxCycles: f.cycles, Threshold: f.threshold, MinFiles: f.minFiles,
			Candidates: f.candidates},
		IncludeTests: f.includeTests,
	}
	run, err := f.llm.wire(repo, text, &opts, f.logger(stderr))
	if err != nil {
		return err
	}
	res, err := repo.Retrieve(ctx, text, opts)
	if err != nil {
		if run != nil && ctx.Err() == nil {
			return llmError{err} // the local evaluator does not fail on its own
		}
		return err
	}
	if run != nil {
		run.report(res)
	}
	switch {
	case f.jsonOut:
		return report.JSON(stdout, res)
	case f.paths:
		if err := report.Paths(stdout, res); err != nil {
			return err
		}
		if len(res.Files) == 0 && !f.quiet {
			// Nothing on stdout: say why where a person or a log sees it.
			fmt.Fprintln(stderr, report.NoPaths(res, f.threshold))
		}
		return nil
	case f.pack:
		md, err := repo.Pack(res, hone.PackOptions{Budget: f.budget, ShowSecrets: f.showSecrets})
		if err != nil {
			return err
		}
		_, err = io.WriteString(stdout, md)
		return err
	}
	return report.Text(stdout, res, report.TextOptions{Color: isTerminal(stdout)})
}
