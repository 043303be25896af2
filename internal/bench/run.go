// Package bench measures hone's retrieval on a set of issues with known
// answers: for each instance (a repository at a commit, an issue's text, the
// files its real fix changed) it checks the repository out from a bare git
// mirror, runs hone's default retrieval with the issue as the task, exactly
// as a user would, and scores the ranking against the gold files.
//
// # Work trees
//
// Each mirror repository gets one work tree under the work directory
// (<work>/<owner>+<name>/tree, with its own git index beside it). Instances
// are sorted by repository and commit date, and the tree is switched from one
// commit to the next with a two-tree merge (git read-tree -m -u OLD NEW): only
// the files that differ are rewritten, so hone's incremental index re-reads
// only those, and the index is of exactly that commit. After every switch the
// tree is verified against the commit (git diff-index, no untracked file);
// when that fails it is checked out afresh. Blobs of 4 MiB or more may be
// absent from mirrors: such files are skipped with a warning.
//
// # Predictions file
//
// One JSON object a line per instance, in the order of completion:
//
//	{"instance_id": "...", "ranked_files": [every ranked path, best first],
//	 "files": [the selection at or above the threshold], "cycles": 2,
//	 "stopped": "...", "retrieve_ms": 41, "index_ms": 380,
//	 "files_parsed": 12, "checkout": "switch",
//	 "baseline": {the same keys, with --baseline or --ablate},
//	 "ablation": {"task_parsing": {...}, "symbols": {...}, ...},
//	 "oracle": {"flip": 0.2, "seed": ..., "cycles": [{"offered": 15,
//	   "distinct": 15, "gold": 1, "tokens": 2900, "flipped": 3}, ...],
//	   "files": [...], "stopped": "...", "pages_acc": 1} (with --judge),
//	 "error": "..." (then the instance is retried by the next run)}
//
// A run continues an existing predictions file: instances already there
// (without error, and with every variant this run asks for) are not redone;
// the last line of an instance wins. The summary is computed over the
// selected instances, reading earlier lines back.
//
// # Metrics
//
// See metrics.go: strict Acc@k, Hit@k, Recall@k, MRR over the ranking; the
// precision and recall of the selection; cycles, stop reasons and timing.
package bench

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/loop"
)

// ScoredFiles is how many of the best ranked files have their relevance
// written beside them.
const ScoredFiles = 20

// Run is one retrieval's outcome for an instance.
type Run struct {
	Ranked []string `json:"ranked_files"`
	// Scores are the relevance of the first ScoredFiles ranked files, in
	// the same order, so that a selection rule can be studied offline.
	Scores []float64 `json:"scores,omitempty"`
	// Reasons are the evaluator's reasons for the first Options.Explain
	// ranked files, in the same order, so that the signals behind a ranking
	// can be studied offline.
	Reasons    []string `json:"reasons,omitempty"`
	Files      []string `json:"files"`
	Cycles     int      `json:"cycles"`
	Stopped    string   `json:"stopped"`
	RetrieveMs int64    `json:"retrieve_ms"`
	IndexMs    int64    `json:"index_ms"`
	// Unparsed counts the files the answer's index had not parsed: a
	// first answer (--first-answer); 0 from a complete index.
	Unparsed int            `json:"unparsed,omitempty"`
	Extra    map[string]any `json:"extra,omitempty"`
	// Packs are the coverage of the run's context pack at each of
	// Options.PackBudgets, in that order.
	Packs []PackCoverage `json:"packs,omitempty"`
	// GoldUses are the files, other than the gold files, that the code at
	// the gold hunks uses directly (hone.Repo.Uses), for the calibration
	// table; set on the default run of instances with gold hunks.
	GoldUses []string `json:"gold_uses,omitempty"`
}

// Prediction is one line of the predictions file: hone's default retrieval,
// and the other variants the run asked for.
type Prediction struct {
	ID string `json:"instance_id"`
	Run
	// FilesParsed is the number of files the index parsed (not in its
	// cache); FilesRecalled the files it read again whose parse the records
	// store held (a version of the file seen before).
	FilesParsed   int `json:"files_parsed"`
	FilesRecalled int `json:"files_recalled,omitempty"`
	// Checkout says how the tree got to the commit: "fresh", "switch" or "same".
	Checkout   string          `json:"checkout,omitempty"`
	CheckoutMs int64           `json:"checkout_ms"`
	Baseline   *Run            `json:"baseline,omitempty"`
	Ablation   map[string]*Run `json:"ablation,omitempty"`
	// ByCycles holds, with Options.Ablate, hone's default retrieval cut
	// to fewer cycles: "1" and "2" (CycleRungs).
	ByCycles map[string]*Run `json:"by_cycles,omitempty"`
	// Oracle is, with Options.Judge, the session the simulated judge drove
	// (see oracle.go).
	Oracle *OracleRun `json:"oracle,omitempty"`
	Error  string     `json:"error,omitempty"`
}

// Rung is one row of the ablation ladder: the features it turns off. Each
// rung adds one feature to the one above it; the first is the baseline, the
// last the full pipeline (hone's default).
type Rung struct {
	Key, Name string
	Baseline  bool
	Off       hone.Features
}

// Ladder is the ablation ladder, cumulative from the baseline to the full
// pipeline.
var Ladder = []Rung{
	{Key: "baseline", Name: "baseline (BM25F, plain words)", Baseline: true},
	{Key: "task_parsing", Name: "+ task parsing", Off: hone.Features{Symbols: true, Links: true, Refinement: true, Associations: true, History: true}},
	{Key: "symbols", Name: "+ symbols", Off: hone.Features{Links: true, Refinement: true, Associations: true, History: true}},
	{Key: "links", Name: "+ structure links", Off: hone.Features{Refinement: true, Associations: true, History: true}},
	{Key: "refinement", Name: "+ refinement", Off: hone.Features{Associations: true, History: true}},
	{Key: "associations", Name: "+ term associations", Off: hone.Features{History: true}},
	{Key: "full", Name: "+ commit history (full)"},
}

// CycleRungs are the cycle budgets the ablation compares with the
// default's: what cycles 2 and 3 add.
var CycleRungs = []int{1, 2}

// Options control a bench run.
type Options struct {
	// MirrorRoot holds the bare mirrors, as owner+name/repo or owner+name.
	MirrorRoot string
	// WorkDir holds the work trees and the index cache; "" means bench/ in
	// hone's cache directory ($HONE_CACHE_DIR, else the user cache
	// directory's hone/). One run at a time uses it.
	WorkDir string
	// Out is the predictions file (JSON lines), continued when it exists.
	Out string
	// Workers run instances of different repositories in parallel (default 1:
	// timing figures are cleaner).
	Workers int
	// Baseline also runs the baseline for every instance.
	Baseline bool
	// Ablate runs the ablation ladder (see Ladder) for every instance.
	Ablate bool
	// Explain writes the reasons of the first Explain ranked files of
	// hone's default retrieval.
	Explain int
	// PackBudgets, when set, build each run's context pack at these token
	// budgets and measure what it shows of the real fix (see Cover).
	PackBudgets []int
	// PackDir, when set, keeps each pack the default run built, as
	// PackDir/ID.BUDGET.md, for reading what a subagent would receive.
	PackDir string
	// Open are the options of hone.Open; CacheDir "" means WorkDir/index.
	Open hone.Options
	// Configure, when set, adjusts the options of hone's default retrieval
	// for an instance (an LLM evaluator, say); the extra function it returns,
	// if any, is called after the retrieval and its figures stored with the
	// run. Baseline and ablation rungs use fixed options.
	Configure func(ctx context.Context, repo *hone.Repo, in Instance, opts *hone.RetrieveOptions) (extra func() map[string]any, err error)
	// Judge, when set, also drives a stepwise session (as the MCP server's
	// start and judge tools do) with a simulated judge that knows the gold
	// files; see oracle.go.
	Judge *Judge
	// Progress is called after each instance (from one goroutine at a time).
	Progress func(Event)
	// Logger receives warnings; nil discards them.
	Logger *slog.Logger
}

// Event reports one finished instance.
type Event struct {
	Done, Total int
	Instance    Instance
	Prediction  *Prediction
	// Resumed is the number of instances read back from an earlier run.
	Resumed int
	Elapsed time.Duration
	// ETA is the estimated time left, from this run's pace.
	ETA time.Duration
}

// SummaryPath is where the summary of the predictions file out is written:
// beside it, PRED.summary.json for PRED.jsonl.
func SummaryPath(out string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + ".summary.json"
}

// Select filters insts to the ids of only (when not empty) and then keeps the
// first limit (when positive). An unknown id is an error.
func Select(insts []Instance, only []string, limit int) ([]Instance, error) {
	if len(only) > 0 {
		want := map[string]bool{}
		for _, id := range only {
			want[id] = true
		}
		var out []Instance
		for _, in := range insts {
			if want[in.ID] {
				out = append(out, in)
				delete(want, in.ID)
			}
		}
		if len(want) > 0 {
			missing := slices.Sorted(func(yield func(string) bool) {
				for id := range want {
					if !yield(id) {
						return
					}
				}
			})
			return nil, fmt.Errorf("bench: unknown instance(s): %s", strings.Join(missing, ", "))
		}
		insts = out
	}
	if limit > 0 && limit < len(insts) {
		insts = insts[:limit]
	}
	return insts, nil
}

// Bench runs the instances, appending predictions to opts.Out, and returns
// the summary over all of them (earlier predictions included). It writes the
// summary beside opts.Out. On cancellation it returns the context's error;
// the predictions written so far stay for the next run.
func Bench(ctx context.Context, insts []Instance, opts Options) (*Summary, error) {
	start := time.Now()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Out == "" {
		return nil, errors.New("bench: no predictions file")
	}
	if opts.WorkDir == "" {
		d, err := index.CacheDir("")
		if err != nil {
			return nil, fmt.Errorf("bench: no work directory: %w", err)
		}
		opts.WorkDir = filepath.Join(d, "bench")
	}
	// git runs in the work trees, so relative folders would be read from
	// there.
	for _, d := range []*string{&opts.WorkDir, &opts.MirrorRoot} {
		if *d == "" {
			continue
		}
		abs, err := filepath.Abs(*d)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		*d = abs
	}
	if err := os.MkdirAll(opts.WorkDir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	unlock, err := lockWorkDir(opts.WorkDir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if opts.Open.CacheDir == "" {
		opts.Open.CacheDir = filepath.Join(opts.WorkDir, "index")
	}
	if opts.Open.Logger == nil {
		opts.Open.Logger = opts.Logger
	}
	opts.Workers = max(1, opts.Workers)
	if err := os.MkdirAll(filepath.Dir(opts.Out), 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if opts.PackDir != "" && len(opts.PackBudgets) > 0 {
		if err := os.MkdirAll(opts.PackDir, 0o755); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
	}

	prev, err := readPredictions(opts.Out, opts.Logger)
	if err != nil {
		return nil, err
	}
	out, err := os.OpenFile(opts.Out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer out.Close()

	preds := map[string]*Prediction{}
	var todo []Instance
	for _, in := range insts {
		if p := prev[in.ID]; p != nil && complete(p, opts) {
			preds[in.ID] = p
			continue
		}
		todo = append(todo, in)
	}

	p := &runner{opts: opts, out: out, preds: preds, total: len(insts), start: start,
		todo: len(todo), done: len(insts) - len(todo)}
	runErr := p.runAll(ctx, todo)

	s := summarize(insts, preds, opts)
	s.Resumed, s.Ran = len(insts)-len(todo), p.ran
	s.WallMs = time.Since(start).Milliseconds()
	if runErr != nil {
		return s, runErr
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if err := os.WriteFile(SummaryPath(opts.Out), append(b, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return s, nil
}

// samePacks reports whether packs were measured at exactly budgets.
func samePacks(packs []PackCoverage, budgets []int) bool {
	if len(packs) != len(budgets) {
		return false
	}
	for i, b := range budgets {
		if packs[i].Budget != b {
			return false
		}
	}
	return true
}

// complete reports whether p answers everything this run asks for.
func complete(p *Prediction, opts Options) bool {
	if p.Error != "" {
		return false
	}
	if !samePacks(p.Packs, opts.PackBudgets) {
		return false
	}
	if (opts.Baseline || opts.Ablate) && p.Baseline == nil {
		return false
	}
	if opts.Judge != nil && (p.Oracle == nil || !p.Oracle.By(*opts.Judge)) {
		return false
	}
	if opts.Ablate {
		for _, r := range Ladder[1 : len(Ladder)-1] {
			if p.Ablation[r.Key] == nil {
				return false
			}
		}
		for _, k := range CycleRungs {
			if r := p.ByCycles[strconv.Itoa(k)]; r == nil || !samePacks(r.Packs, opts.PackBudgets) {
				return false
			}
		}
	}
	return true
}

func summarize(insts []Instance, preds map[string]*Prediction, opts Options) *Summary {
	pick := func(f func(*Prediction) *Run) map[string]*Run {
		m := map[string]*Run{}
		for id, p := range preds {
			if p.Error == "" {
				if r := f(p); r != nil {
					m[id] = r
				}
			}
		}
		return m
	}
	s := &Summary{Instances: len(insts)}
	hone := pick(func(p *Prediction) *Run { return &p.Run })
	s.Hone = Score(insts, hone)
	s.ByRepo = groupScores(insts, hone, func(in Instance) string { return in.Repo })
	s.ByLanguage = groupScores(insts, hone, func(in Instance) string { return in.Language })
	s.ByLength = groupByLength(insts, hone)
	if opts.Judge != nil {
		sessions := map[string]*OracleRun{}
		for id, p := range preds {
			if p.Error == "" && p.Oracle != nil && p.Oracle.By(*opts.Judge) {
				sessions[id] = p.Oracle
			}
		}
		o := ScoreOracle(*opts.Judge, insts, hone, sessions)
		s.Oracle = &o
	}
	if opts.Baseline || opts.Ablate {
		b := Score(insts, pick(func(p *Prediction) *Run { return p.Baseline }))
		s.Baseline = &b
	}
	if opts.Ablate {
		for i, r := range Ladder {
			var f Figures
			switch i {
			case 0:
				f = *s.Baseline
			case len(Ladder) - 1:
				if opts.Configure == nil {
					f = s.Hone
				} else {
					f = Score(insts, pick(func(p *Prediction) *Run { return p.Ablation[r.Key] }))
				}
			default:
				f = Score(insts, pick(func(p *Prediction) *Run { return p.Ablation[r.Key] }))
			}
			s.Ablation = append(s.Ablation, Row{Name: r.Name, Figures: f})
		}
		for _, k := range CycleRungs {
			key := strconv.Itoa(k)
			s.ByCycles = append(s.ByCycles, Row{Name: key, Figures: Score(insts, pick(func(p *Prediction) *Run { return p.ByCycles[key] }))})
		}
		if opts.Configure == nil {
			s.ByCycles = append(s.ByCycles, Row{Name: strconv.Itoa(loop.DefaultMaxCycles), Figures: s.Hone})
		}
	}
	return s
}

// readPredictions reads an earlier predictions file; the last line of an
// instance wins. A torn last line (a run killed mid-write) is cut off.
func readPredictions(path string, log *slog.Logger) (map[string]*Prediction, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]*Prediction{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	preds := map[string]*Prediction{}
	r := bufio.NewReader(bytes.NewReader(b))
	good := 0 // bytes up to the end of the last good line
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var p Prediction
			if jerr := json.Unmarshal(line, &p); jerr != nil || p.ID == "" {
				if err == io.EOF { // the last line: torn
					log.Warn("bench: cutting off a torn last line", "file", path, "line", n)
					if terr := os.Truncate(path, int64(good)); terr != nil {
						return nil, fmt.Errorf("bench: %w", terr)
					}
					break
				}
				return nil, fmt.Errorf("bench: %s line %d: not a prediction: %v", path, n, jerr)
			}
			preds[p.ID] = &p
		}
		if err == io.EOF {
			if len(line) > 0 && line[len(line)-1] != '\n' { // complete JSON without newline
				f, ferr := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				if ferr == nil {
					_, ferr = f.Write([]byte("\n"))
					f.Close()
				}
				if ferr != nil {
					return nil, fmt.Errorf("bench: %w", ferr)
				}
			}
			break
		}
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		good += len(line)
	}
	return preds, nil
}

// runner runs instances and records their predictions.
type runner struct {
	opts Options
	out  *os.File

	mu    sync.Mutex
	preds map[string]*Prediction
	total int
	done  int // finished, resumed ones included
	todo  int // to run in this process
	ran   int // run in this process so far
	start time.Time
}

// runAll groups the instances by mirror, orders each group by commit date,
// and hands whole groups to the workers, largest first.
func (p *runner) runAll(ctx context.Context, todo []Instance) error {
	groups := map[string][]Instance{}
	for _, in := range todo {
		groups[in.Mirror()] = append(groups[in.Mirror()], in)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range groups {
			if !yield(k) {
				return
			}
		}
	})
	slices.SortStableFunc(names, func(a, b string) int { return len(groups[b]) - len(groups[a]) })

	work := make(chan string)
	errs := make(chan error, p.opts.Workers)
	var wg sync.WaitGroup
	for range p.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range work {
				if err := p.runGroup(ctx, name, groups[name]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for _, name := range names {
		select {
		case work <- name:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	close(errs)
	if err == nil {
		err = <-errs
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// runGroup runs the instances of one mirror in commit order. Only errors that
// stop the run (cancellation, an unwritable predictions file) are returned;
// an instance's failure is recorded in its prediction.
func (p *runner) runGroup(ctx context.Context, mirror string, insts []Instance) error {
	gitDir, gerr := mirrorDir(p.opts.MirrorRoot, mirror)
	var tr *tree
	if gerr == nil {
		commits := make([]string, len(insts))
		for i, in := range insts {
			commits[i] = in.BaseCommit
		}
		times := commitTimes(ctx, gitDir, commits)
		slices.SortStableFunc(insts, func(a, b Instance) int {
			ta, tb := times[a.BaseCommit], times[b.BaseCommit]
			switch {
			case ta != tb:
				return cmp.Compare(ta, tb)
			case a.BaseCommit != b.BaseCommit:
				return strings.Compare(a.BaseCommit, b.BaseCommit)
			}
			return strings.Compare(a.ID, b.ID)
		})
		tr = newTree(gitDir, filepath.Join(p.opts.WorkDir, strings.ReplaceAll(mirror, "/", "+")))
	}
	for _, in := range insts {
		if err := ctx.Err(); err != nil {
			return err
		}
		var pr *Prediction
		if gerr != nil {
			pr = &Prediction{ID: in.ID, Error: gerr.Error()}
		} else {
			pr = p.runOne(ctx, tr, in)
			if ctx.Err() != nil {
				return ctx.Err() // an interrupted instance is not recorded
			}
		}
		if err := p.record(in, pr); err != nil {
			return err
		}
	}
	return nil
}

// runOne checks the instance's commit out and retrieves for it.
func (p *runner) runOne(ctx context.Context, tr *tree, in Instance) *Prediction {
	pr := &Prediction{ID: in.ID}
	fail := func(err error) *Prediction {
		pr.Error = err.Error()
		return pr
	}
	t0 := time.Now()
	how, skipped, err := tr.Checkout(ctx, in.BaseCommit)
	if err != nil {
		return fail(err)
	}
	pr.Checkout, pr.CheckoutMs = how, time.Since(t0).Milliseconds()
	if len(skipped) > 0 {
		p.opts.Logger.Warn("bench: files absent from the mirror (blobs of 4 MiB or more) were skipped",
			"instance", in.ID, "files", len(skipped), "first", skipped[0])
	}
	// The history is the mirror's, read at the instance's commit: only
	// commits before the fix.
	oo := p.opts.Open
	oo.History.GitDir, oo.History.Rev = tr.gitDir, in.BaseCommit
	if oo.FirstAnswer {
		// Every instance a first contact: no index, no history cached.
		oo.NoCache = true
	}
	repo, err := hone.Open(ctx, tr.Root(), oo)
	if err != nil {
		return fail(err)
	}
	defer repo.Close() // a first answer's background completion ends with the instance
	ist := repo.IndexStats()
	pr.FilesParsed, pr.FilesRecalled = ist.Parsed, ist.Recalled

	ro := hone.RetrieveOptions{}
	var extra func() map[string]any
	if p.opts.Configure != nil {
		if extra, err = p.opts.Configure(ctx, repo, in, &ro); err != nil {
			return fail(err)
		}
	}
	r, err := p.retrieve(ctx, repo, in, ro, true)
	if err != nil {
		return fail(err)
	}
	if extra != nil {
		r.Extra = extra()
	}
	r.GoldUses = goldUses(repo, in)
	pr.Run = *r
	if j := p.opts.Judge; j != nil {
		if pr.Oracle, err = runOracle(ctx, repo, in, *j, r.Ranked, p.opts.PackBudgets); err != nil {
			return fail(err)
		}
	}
	if p.opts.Baseline || p.opts.Ablate {
		if pr.Baseline, err = p.retrieve(ctx, repo, in, hone.RetrieveOptions{Baseline: true}, false); err != nil {
			return fail(fmt.Errorf("baseline: %w", err))
		}
	}
	if p.opts.Ablate {
		pr.Ablation = map[string]*Run{}
		last := len(Ladder) - 1
		if p.opts.Configure == nil {
			last-- // the full rung is the default run
		}
		for _, rung := range Ladder[1 : last+1] {
			r, err := p.retrieve(ctx, repo, in, hone.RetrieveOptions{Baseline: rung.Baseline, Off: rung.Off}, false)
			if err != nil {
				return fail(fmt.Errorf("ablation %s: %w", rung.Key, err))
			}
			pr.Ablation[rung.Key] = r
		}
		pr.ByCycles = map[string]*Run{}
		for _, k := range CycleRungs {
			r, err := p.retrieve(ctx, repo, in, hone.RetrieveOptions{Loop: loop.Options{MaxCycles: k}}, false)
			if err != nil {
				return fail(fmt.Errorf("%d cycles: %w", k, err))
			}
			pr.ByCycles[strconv.Itoa(k)] = r
		}
	}
	return pr
}

// goldUses returns the files the code at the instance's gold hunks uses,
// the gold files left out.
func goldUses(repo *hone.Repo, in Instance) []string {
	gold := goldSet(in.Gold)
	seen := map[string]bool{}
	var out []string
	for _, h := range in.GoldHunks {
		for _, p := range repo.Uses(h.Path, h.Lines) {
			if !gold[p] && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// retrieve runs one retrieval and measures its packs; the default run
// (main) has the reasons of its first Options.Explain ranked files written
// and its packs kept in Options.PackDir.
func (p *runner) retrieve(ctx context.Context, repo *hone.Repo, in Instance, ro hone.RetrieveOptions, main bool) (*Run, error) {
	explain := 0
	if main {
		explain = p.opts.Explain
	}
	res, err := repo.Retrieve(ctx, in.Problem, ro)
	if err != nil {
		return nil, err
	}
	r := &Run{Ranked: []string{}, Files: []string{}, Cycles: len(res.Cycles), Stopped: res.Stopped,
		RetrieveMs: res.Stats.RetrieveMs, IndexMs: res.Stats.IndexMs, Unparsed: res.Stats.Unparsed, Extra: res.Stats.Extra}
	for i, e := range res.Ranked {
		r.Ranked = append(r.Ranked, e.Path)
		if i < ScoredFiles {
			r.Scores = append(r.Scores, math.Round(e.Relevance*1000)/1000)
		}
		if i < explain {
			r.Reasons = append(r.Reasons, e.Reason)
		}
	}
	for _, e := range res.Files {
		r.Files = append(r.Files, e.Path)
	}
	for _, b := range p.opts.PackBudgets {
		c, text, err := measurePack(repo, res, b, in)
		if err != nil {
			return nil, err
		}
		if main && p.opts.PackDir != "" {
			name := filepath.Join(p.opts.PackDir, fmt.Sprintf("%s.%d.md", url.PathEscape(in.ID), b))
			if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
				return nil, fmt.Errorf("bench: keeping the pack: %w", err)
			}
		}
		r.Packs = append(r.Packs, c)
	}
	return r, nil
}

// measurePack builds res's pack at budget tokens and measures what it shows
// of the instance's fix, and how long the build took; it returns the pack.
func measurePack(repo *hone.Repo, res *hone.Result, budget int, in Instance) (PackCoverage, string, error) {
	t0 := time.Now()
	text, err := repo.Pack(res, hone.PackOptions{Budget: budget})
	if err != nil {
		return PackCoverage{}, "", fmt.Errorf("pack at %d tokens: %w", budget, err)
	}
	c := Cover(text, budget, in.Gold, in.GoldHunks)
	c.BuildMs = math.Round(float64(time.Since(t0).Microseconds())/10) / 100
	return c, text, nil
}

// record appends pr to the predictions file and reports progress.
func (p *runner) record(in Instance, pr *Prediction) error {
	b, err := json.Marshal(pr)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.out.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("bench: writing %s: %w", p.opts.Out, err)
	}
	p.preds[in.ID] = pr
	p.done++
	p.ran++
	if p.opts.Progress != nil {
		el := time.Since(p.start)
		eta := time.Duration(float64(el) / float64(p.ran) * float64(p.todo-p.ran))
		p.opts.Progress(Event{Done: p.done, Total: p.total, Instance: in, Prediction: pr,
			Resumed: p.total - p.todo, Elapsed: el, ETA: eta})
	}
	return nil
}
