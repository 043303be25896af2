package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/bench"
)

func init() { extraCommands = append(extraCommands, newBenchCmd) }

// benchFlags are the flags of hone bench.
type benchFlags struct {
	common
	mirrorRoot string
	out        string
	workDir    string
	workers    int
	limit      int
	only       []string
	baseline   bool
	ablate     bool
	explain    int
	// packBudgets are the --pack-budget values, sorted, without repeats.
	packBudgets []int
	packDir     string
	judge       string
	llm         llmFlags
}

func newBenchCmd(_ io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench INSTANCES.jsonl --mirror-root DIR [flags]",
		Short: "Measure retrieval on issues with known answers",
		Long: `bench runs hone's default retrieval on every instance of a JSON-lines file
(instance_id, repo, mirror_repo, base_commit, problem_statement, gold_files), with
the repository checked out at base_commit from a git mirror under
--mirror-root: a bare mirror or a clone with a work tree, at <owner>+<name>/repo
or <owner>+<name> (the clone's work tree is left alone), and scores the ranking
against the gold files: strict Acc@1/3/5/10, Hit@k, Recall@k, MRR, the precision
and recall of the selected files, cycles, stop reasons and timing; then Acc@k and
MRR per repository, and per language when the instances carry a "language" field.

Predictions go to --out, one JSON line per instance; an existing --out is
continued (instances already in it are not redone). The summary is printed and
written beside --out as PRED.summary.json. Progress goes to stderr.

With --judge oracle or oracle:P, each instance is also run through the stepwise
loop the MCP server's start and judge tools use (15 candidates a cycle, a
300-token excerpt each), judged by a simulation that knows the gold files:
relevance 0.95 for a gold file, 0.1 for any other, each judgment turned over
with probability P by a coin seeded from the instance id. The summary reports,
per cycle, the gold files offered, the candidates and excerpt tokens read, and
beside them the offline ranking's Acc@k at the same number of candidates. That
judge never says done nor names a critical gap; oracle+done and oracle+done:P
follow the protocol as hone's skill asks a judge to: knowing how many files the
change touches (not which), it flags a critical gap while fewer stand relevant
in its judgments and says done once that many do, a false positive included.
+related (oracle+related, oracle+done+related:P) grades the files the fix's code
uses 0.6, "related" on the pattern's scale.`,
		Example: `  hone bench dev.jsonl --mirror-root ~/mirrors --out /tmp/bench/run.jsonl --baseline
  hone bench dev.jsonl --mirror-root ~/mirrors --out /tmp/bench/abl.jsonl --ablate --limit 40
  hone bench dev.jsonl --mirror-root ~/mirrors --out /tmp/bench/oracle20.jsonl --judge oracle:0.2`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBench(cmd.Context(), &f, args[0], stdout, stderr)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	f.common.register(cmd)                       // --cache-dir, --no-cache, --max-file-size, --verbose, --quiet ...
	_ = cmd.PersistentFlags().MarkHidden("repo") // each instance names its repository
	// bench measures the complete index unless asked: with --first-answer
	// every instance is a first contact (no cache).
	f.common.firstAnswer = false
	fa := cmd.PersistentFlags().Lookup("first-answer")
	fa.DefValue = "false"
	fa.Usage = "open every instance as a first contact (no index or history cached) and measure its first answer"
	fl := cmd.Flags()
	fl.StringVar(&f.mirrorRoot, "mirror-root", "", "folder of git mirrors (bare, or clones), <owner>+<name>/repo or <owner>+<name> (required)")
	fl.StringVar(&f.out, "out", "bench.jsonl", "predictions file (JSON lines), continued when it exists")
	fl.StringVar(&f.workDir, "work-dir", "", "work trees and index cache, one run at a time (default $HONE_CACHE_DIR/bench, else <user cache dir>/hone/bench)")
	fl.IntVar(&f.workers, "workers", 1, "repositories run in parallel (1 gives the cleanest timing)")
	fl.IntVar(&f.limit, "limit", 0, "run only the first N instances (after --only)")
	fl.StringSliceVar(&f.only, "only", nil, "run only these instance ids (comma-separated)")
	fl.BoolVar(&f.baseline, "baseline", false, "also run the baseline (BM25F over the task's plain words) and print it beside")
	fl.BoolVar(&f.ablate, "ablate", false, "run the ablation ladder: baseline, then one feature added per row")
	fl.IntVar(&f.explain, "explain", 0, "write the evaluator's reasons for the first N ranked files of each instance")
	fl.IntSliceVar(&f.packBudgets, "pack-budget", nil, "build each instance's context pack at this many tokens and measure what it shows of the real fix (repeatable: --pack-budget 4000 --pack-budget 8000)")
	fl.StringVar(&f.packDir, "pack-dir", "", "keep each instance's packs in this folder, as ID.BUDGET.md (with --pack-budget)")
	fl.StringVar(&f.judge, "judge", "none", "also drive the stepwise loop (as MCP start/judge do) with a SIMULATED judge built from the gold files: none, oracle (perfect) or oracle:P (each judgment turned over with probability P in [0,0.5], seeded by the instance id); oracle+done[:P] also says done and names critical gaps; +related grades the files the fix's code uses 0.6")
	f.llm.register(fl) // --evaluator llm judges the default run as it would a user's
	return cmd
}

func runBench(ctx context.Context, f *benchFlags, file string, stdout, stderr io.Writer) error {
	if f.mirrorRoot == "" {
		return usageError{fmt.Errorf("--mirror-root is required")}
	}
	if err := f.common.check(); err != nil {
		return err
	}
	if f.workers < 1 || f.limit < 0 || f.explain < 0 {
		return usageError{fmt.Errorf("--workers must be positive, --limit and --explain not negative")}
	}
	f.packBudgets = slices.Compact(slices.Sorted(slices.Values(f.packBudgets)))
	for _, b := range f.packBudgets {
		if b <= 0 {
			return usageError{fmt.Errorf("--pack-budget must be a positive number of tokens, not %d", b)}
		}
	}
	if f.out == "" {
		return usageError{fmt.Errorf("--out must name a file")}
	}
	judge, err := bench.ParseJudge(f.judge)
	if err != nil {
		return usageError{fmt.Errorf("--judge: %w", err)}
	}
	r, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	insts, err := bench.ReadInstances(r)
	r.Close()
	if err != nil {
		return err
	}
	insts, err = bench.Select(insts, f.only, f.limit)
	if err != nil {
		return usageError{err}
	}
	log := f.logger(stderr)
	opts := bench.Options{
		MirrorRoot: f.mirrorRoot, WorkDir: f.workDir, Out: f.out, Workers: f.workers,
		Baseline: f.baseline, Ablate: f.ablate, Explain: f.explain, PackBudgets: f.packBudgets, PackDir: f.packDir, Logger: log,
		Open: f.openOptions(log), Judge: judge,
	}
	if !f.quiet {
		opts.Progress = func(e bench.Event) { printBenchEvent(stderr, e) }
	}
	switch f.llm.evaluator {
	case "", "local":
	case "llm":
		if err := checkLLM(&f.llm); err != nil {
			return err
		}
	default:
		return usageError{fmt.Errorf("--evaluator must be local or llm, not %s", f.llm.evaluator)}
	}
	if f.llm.evaluator == "llm" {
		opts.Configure = func(_ context.Context, repo *hone.Repo, in bench.Instance, ro *hone.RetrieveOptions) (func() map[string]any, error) {
			run, err := f.llm.wire(repo, in.Problem, ro, log)
			if run == nil {
				return nil, err
			}
			return run.extra, nil
		}
	}
	s, err := bench.Bench(ctx, insts, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d instances (%d run now, %d from %s) in %s; summary in %s\n\n",
		s.Instances, s.Ran, s.Resumed, f.out, time.Duration(s.WallMs)*time.Millisecond, bench.SummaryPath(f.out))
	return bench.WriteTable(stdout, s)
}

// printBenchEvent writes one progress line: the instance, where the first gold
// file ranked, cycles, timing and the ETA.
func printBenchEvent(w io.Writer, e bench.Event) {
	p := e.Prediction
	var b strings.Builder
	fmt.Fprintf(&b, "[%d/%d] %s ", e.Done, e.Total, e.Instance.ID)
	if p.Error != "" {
		fmt.Fprintf(&b, "FAILED: %s", p.Error)
	} else {
		rank := "-"
		if rr := bench.ReciprocalRank(p.Ranked, e.Instance.Gold); rr > 0 {
			rank = fmt.Sprint(int(1/rr + 0.5))
		}
		fmt.Fprintf(&b, "gold@%s acc@5=%.0f cycles=%d files=%d index=%dms retrieve=%dms",
			rank, bench.AccAt(p.Ranked, e.Instance.Gold, 5), p.Cycles, len(p.Files), p.IndexMs, p.RetrieveMs)
		if p.Baseline != nil {
			brank := "-"
			if rr := bench.ReciprocalRank(p.Baseline.Ranked, e.Instance.Gold); rr > 0 {
				brank = fmt.Sprint(int(1/rr + 0.5))
			}
			fmt.Fprintf(&b, " baseline gold@%s", brank)
		}
		if o := p.Oracle; o != nil && len(o.Cycles) > 0 {
			c := o.Cycles[len(o.Cycles)-1]
			fmt.Fprintf(&b, " simulated judge: gold offered %d/%d in %d cycles, %d candidates, %d tokens, %d selected",
				c.Gold, len(e.Instance.Gold), len(o.Cycles), c.Offered, c.Tokens, len(o.Files))
		}
	}
	fmt.Fprintf(&b, " | %s elapsed, ETA %s\n", e.Elapsed.Round(time.Second), e.ETA.Round(time.Second))
	io.WriteString(w, b.String())
}
