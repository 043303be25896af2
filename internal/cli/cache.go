package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hone-dev/hone/internal/cachedir"
	"github.com/hone-dev/hone/internal/index"
)

func init() { extraCommands = append(extraCommands, newCacheCmd) }

// cacheFlags are the flags of hone cache and its subcommands.
type cacheFlags struct {
	common
	jsonOut   bool
	olderThan time.Duration
	all       bool
	dryRun    bool
}

func newCacheCmd(_ io.Reader, stdout, _ io.Writer) *cobra.Command {
	var f cacheFlags
	list := func(cmd *cobra.Command, _ []string) error {
		dir, err := index.CacheDir(f.cacheDir)
		if err != nil {
			return err
		}
		u, err := cachedir.List(dir)
		if err != nil {
			return err
		}
		if f.jsonOut {
			return writeJSON(stdout, u)
		}
		printUsage(stdout, u)
		return nil
	}
	cmd := &cobra.Command{
		Use:   "cache [list]",
		Short: "List what hone keeps in its cache directory, per repository, and how big it is",
		Long: `cache lists the cache directory (--cache-dir, else $HONE_CACHE_DIR, else the
user cache directory's hone/): per repository its root, whether the root still
exists, the size of its index (manifest and segments), the number of segments,
when the index was last written, and the size of its commit-history cache; then
the history caches of other sources, orphan files, records.db (the store of
parsed files every repository shares) with its budget, llm/, bench/ and the
total. "hone cache prune" removes what is no longer needed.`,
		Example: `  hone cache
  hone cache --json
  hone cache prune --dry-run
  hone cache prune --older-than 720h`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE:          list,
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	f.common.register(cmd)
	cmd.Flags().BoolVar(&f.jsonOut, "json", false, "print the listing as one JSON object")

	listCmd := &cobra.Command{
		Use:           "list",
		Short:         "The same as hone cache",
		Args:          noArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE:          list,
	}
	listCmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	listCmd.Flags().BoolVar(&f.jsonOut, "json", false, "print the listing as one JSON object")

	prune := &cobra.Command{
		Use:   "prune [--older-than DURATION] [--all] [--dry-run]",
		Short: "Remove the caches of repositories that are gone, and orphan files",
		Long: `prune removes the caches of repositories whose root no longer exists (index and
commit history), history caches of sources that are gone, and orphan files (a
segment no manifest names, a temporary file of a killed run) older than an
hour. --older-than DURATION removes also the caches not written for that long;
--all removes everything hone keeps in the directory (records.db, llm/ and
bench/ too). Only hone's own files go, never anything else in the directory,
and a repository's files are removed under the lock its index takes: what
another hone process holds is left, with a note on stderr.`,
		Args:          noArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.olderThan < 0 {
				return usageError{fmt.Errorf("--older-than must not be negative, not %v", f.olderThan)}
			}
			if f.all && f.olderThan > 0 {
				return usageError{fmt.Errorf("--all and --older-than exclude each other")}
			}
			dir, err := index.CacheDir(f.cacheDir)
			if err != nil {
				return err
			}
			res, err := cachedir.Prune(dir, cachedir.PruneOptions{OlderThan: f.olderThan, All: f.all, DryRun: f.dryRun})
			if err != nil {
				return err
			}
			if !f.quiet {
				for _, s := range res.Skipped {
					fmt.Fprintf(cmd.ErrOrStderr(), "hone: cache prune: left %s\n", s)
				}
			}
			if f.jsonOut {
				return writeJSON(stdout, res)
			}
			printPrune(stdout, res)
			return nil
		},
	}
	prune.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	pf := prune.Flags()
	pf.DurationVar(&f.olderThan, "older-than", 0, "remove also the caches not written for this long (e.g. 720h)")
	pf.BoolVar(&f.all, "all", false, "remove everything hone keeps in the cache directory")
	pf.BoolVar(&f.dryRun, "dry-run", false, "print what would be removed and remove nothing")
	pf.BoolVar(&f.jsonOut, "json", false, "print what was removed as one JSON object")
	cmd.AddCommand(listCmd, prune)
	return cmd
}

// noArgs refuses arguments with a usage error (the subcommands of cache are
// not wrapped by taskHint, which sees only hone's own).
func noArgs(cmd *cobra.Command, args []string) error {
	if err := cobra.NoArgs(cmd, args); err != nil {
		return usageError{err}
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printUsage writes the listing: one line a repository, then the rest.
func printUsage(w io.Writer, u *cachedir.Usage) {
	fmt.Fprintf(w, "%s\n", u.Dir)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range u.Repos {
		state := "present"
		if !r.Exists {
			state = "gone"
		}
		if r.OtherVersion {
			state += ", other version"
		}
		hist := ""
		if r.HistoryBytes > 0 {
			hist = "history " + humanBytes(r.HistoryBytes)
		}
		segs := fmt.Sprintf("%d segments", r.Segments)
		if r.Segments == 1 {
			segs = "1 segment"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\twritten %s\t%s\n", r.Root, state, humanBytes(r.IndexBytes),
			segs, r.LastUsed.Local().Format("2006-01-02 15:04"), hist)
	}
	for _, h := range u.Histories {
		state := "present"
		if !h.Exists {
			state = "gone"
		}
		fmt.Fprintf(tw, "history of %s\t%s\t%s\t\twritten %s\t\n", h.Source, state, humanBytes(h.Bytes),
			h.LastUsed.Local().Format("2006-01-02 15:04"))
	}
	tw.Flush()
	if len(u.Orphans) > 0 {
		fmt.Fprintf(w, "orphan files: %d, %s\n", len(u.Orphans), humanBytes(u.OrphanBytes))
	}
	fmt.Fprintf(w, "records.db: %s (budget %s)\n", humanBytes(u.RecordsBytes), humanBytes(u.RecordsBudget))
	fmt.Fprintf(w, "llm/: %s\nbench/: %s\ntotal: %s\n", humanBytes(u.LLMBytes), humanBytes(u.BenchBytes), humanBytes(u.Total))
}

// printPrune writes what prune removed (or would remove) and the bytes freed.
func printPrune(w io.Writer, res *cachedir.PruneResult) {
	verb, freed := "removed", "freed"
	if res.DryRun {
		verb, freed = "would remove", "freeing"
	}
	for _, r := range res.Removed {
		line := fmt.Sprintf("%s %s (%s, %s", verb, r.Name, humanBytes(r.Bytes), r.Reason)
		if r.Root != "" {
			line += ": " + r.Root
		}
		fmt.Fprintln(w, line+")")
	}
	files := "files"
	if len(res.Removed) == 1 {
		files = "file"
	}
	fmt.Fprintf(w, "%s %d %s, %s %s\n", verb, len(res.Removed), files, freed, humanBytes(res.Freed))
}

// humanBytes writes n in B, KiB, MiB or GiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB", "TiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
