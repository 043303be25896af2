package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/walk"
)

func newIndexCmd(stdout, stderr io.Writer) *cobra.Command {
	var c common
	var explain bool
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build or update the repository's index and report what it holds",
		Long: `index brings the cached index of the repository up to date (reading only changed
files) and prints a summary. --explain lists every file left out and why, also
when no file is left to index (the exit code is then 5).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := c.check(); err != nil {
				return err
			}
			c.firstAnswer = false // the whole index: a first answer is for commands that answer
			repo, err := c.open(cmd.Context(), stderr)
			var empty *hone.EmptyRepoError
			switch {
			case errors.As(err, &empty):
				printIndex(stdout, empty.Root, empty.Stats, "", explain)
				return err
			case err != nil:
				return err
			}
			printIndex(stdout, repo.Root(), repo.IndexStats(), repo.History(), explain)
			return nil
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	c.register(cmd)
	_ = cmd.PersistentFlags().MarkHidden("first-answer") // index builds the whole index
	cmd.Flags().BoolVar(&explain, "explain", false, "list every skipped file with its reason")
	return cmd
}

// printIndex writes the summary of an index: counts, skips by reason, the
// history ("" when none was read), and with explain every skipped file as
// "reason<TAB>path<TAB>detail". Warnings are not repeated: they went to
// stderr as they were met.
func printIndex(w io.Writer, root string, st index.Stats, history string, explain bool) {
	fmt.Fprintf(w, "%s: %d files indexed (%d parsed, %d recalled by content, %d from cache, %d removed), %d skipped, %d ms\n",
		root, st.Files, st.Parsed, st.Recalled, st.Reused, st.Removed, len(st.Skipped), st.Millis)
	if st.Unparsed > 0 {
		fmt.Fprintf(w, "  not parsed yet: %d (a first answer's index; the next runs parse them)\n", st.Unparsed)
	}
	byReason := map[walk.SkipReason]int{}
	for _, s := range st.Skipped {
		byReason[s.Reason]++
	}
	reasons := make([]walk.SkipReason, 0, len(byReason))
	for r := range byReason {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool { return reasons[i] < reasons[j] })
	for _, r := range reasons {
		fmt.Fprintf(w, "  skipped %-10s %d\n", r.String()+":", byReason[r])
	}
	if history != "" {
		fmt.Fprintf(w, "  history: %s\n", history)
	}
	if explain {
		for _, s := range st.Skipped {
			fmt.Fprintf(w, "%s\t%s\t%s\n", s.Reason, s.Path, s.Detail)
		}
	}
}
