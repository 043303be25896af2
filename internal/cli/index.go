package cli

import (
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/hone-dev/hone/internal/walk"
)

func newIndexCmd(stdout, stderr io.Writer) *cobra.Command {
	var c common
	var explain bool
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build or update the repository's index and report what it holds",
		Long: `index brings the cached index of the repository up to date (reading only changed
files) and prints a summary. --explain lists every file left out and why.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			repo, err := c.open(cmd.Context(), stderr)
			if err != nil {
				return err
			}
			st := repo.IndexStats()
			fmt.Fprintf(stdout, "%s: %d files indexed (%d read, %d from cache, %d removed), %d skipped, %d ms\n",
				repo.Root(), st.Files, st.Parsed, st.Reused, st.Removed, len(st.Skipped), st.Millis)
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
				fmt.Fprintf(stdout, "  skipped %-10s %d\n", r.String()+":", byReason[r])
			}
			fmt.Fprintf(stdout, "  history: %s\n", repo.History())
			for _, w := range st.Warnings {
				fmt.Fprintf(stdout, "  warning: %s\n", w)
			}
			if explain {
				for _, s := range st.Skipped {
					fmt.Fprintf(stdout, "%s\t%s\t%s\n", s.Reason, s.Path, s.Detail)
				}
			}
			return nil
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	c.register(cmd)
	cmd.Flags().BoolVar(&explain, "explain", false, "list every skipped file with its reason")
	return cmd
}
