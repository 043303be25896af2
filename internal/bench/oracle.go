package bench

// The simulated judge (hone bench --judge oracle[:P]).
//
// It drives the stepwise loop the MCP server's start and judge tools drive
// (hone.Repo.Start, then Dispatch, judge, Judge until done), with the MCP
// server's defaults: OracleCandidates candidates a cycle, an excerpt of
// OracleExcerptTokens for each. The judge knows the answer: it gives
// OracleGold to a gold file and OracleOther to every other file. With a
// flip probability P, each judgment is turned over (gold judged OracleOther,
// another file OracleGold) when a coin seeded from the instance id says so,
// so a run is deterministic. It is a simulation: it measures what the loop
// does with a judge of known quality, not what any real judge does.
//
// The plain oracle never uses the protocol's two other signals: it never
// says done and never names a critical gap, so a session runs until the
// loop's own rules stop it. "oracle+done" follows the protocol as hone's
// shipped skill asks a judge to: it knows how many files the change touches
// (the number of gold files, not which) and believes its own judgments, so
// while fewer files than that stand at the threshold in its latest
// judgments, its relevant judgments flag a critical gap (the loop does not
// stop early on them), and once that many do it says done (Session.Finish,
// which first gives the judgments hone's evidence disputes a second look).
// A perfect judge says done exactly when every gold file was offered; a
// judge that errs can say done early, on a false positive, as a real one
// can.
//
// The figures it records per cycle, cumulative, are the gold files offered so
// far, the candidates offered and the excerpt tokens a judge would have read
// (as their length in bytes / 4, with hone's reasons shown beside each; a
// second look's excerpt, which shows what the file's first excerpt did not,
// counted too);
// beside them, the offline ranking read in pages: the Acc@k of hone's default
// ranking of the instance, k the number of candidates the session offered.

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// The simulated judge's constants.
const (
	// OracleGold is the relevance the oracle gives a gold file: well above
	// the loop's threshold, as a confident judge would.
	OracleGold = 0.95
	// OracleOther is the relevance it gives every other file: below 0.2,
	// "not relevant" on the pattern's scale.
	OracleOther = 0.1
	// OracleRelated is the relevance a graded judge (Judge.Related) gives a
	// file the fix's code uses (Run.GoldUses): "related patterns or types"
	// on the pattern's scale, 0.5-0.7.
	OracleRelated = 0.6
	// OracleCandidates is the number of candidates a cycle offers: the MCP
	// server's default max_candidates.
	OracleCandidates = hone.StepCandidates
	// OracleExcerptTokens is the budget of one candidate's excerpt: the MCP
	// server's excerptTokens.
	OracleExcerptTokens = hone.ExcerptTokens
	// MaxFlip bounds the flip probability: beyond one half the judge is
	// better read upside down.
	MaxFlip = 0.5
)

// Judge is the simulated judge of a bench run.
type Judge struct {
	// Flip is the probability that a judgment is turned over, in [0, MaxFlip].
	Flip float64
	// Done makes the judge follow the protocol: a critical gap while it
	// believes files of the change are missing, done once it believes it
	// has them all ("oracle+done").
	Done bool
	// Related makes the judge use the middle of the scale: OracleRelated
	// for a file the fix's code uses ("oracle+related").
	Related bool
}

// Label names the judge in tables: "simulated judge (oracle, flip 0.20)".
func (j Judge) Label() string {
	var also []string
	if j.Done {
		also = append(also, "says done and names critical gaps")
	}
	if j.Related {
		also = append(also, fmt.Sprintf("%.2f for the files the fix's code uses", OracleRelated))
	}
	if len(also) == 0 {
		return fmt.Sprintf("simulated judge (oracle, flip %.2f)", j.Flip)
	}
	return fmt.Sprintf("simulated judge (oracle, flip %.2f, %s)", j.Flip, strings.Join(also, ", "))
}

// ParseJudge reads a --judge value: "none" or "" (no simulated judge: nil),
// "oracle" (flip 0) or "oracle:P" with P in [0, MaxFlip]; "oracle+done" and
// "oracle+done:P" are the judge that follows the protocol (Judge.Done).
func ParseJudge(s string) (*Judge, error) {
	name, p, hasP := strings.Cut(strings.TrimSpace(s), ":")
	if (name == "" || name == "none") && !hasP {
		return nil, nil
	}
	parts := strings.Split(name, "+")
	j := &Judge{}
	bad := parts[0] != "oracle"
	for _, opt := range parts[1:] {
		switch {
		case opt == "done" && !j.Done:
			j.Done = true
		case opt == "related" && !j.Related:
			j.Related = true
		default:
			bad = true
		}
	}
	if bad {
		return nil, fmt.Errorf("bench: unknown judge %q (none, or oracle with +done, +related, and :P)", s)
	}
	if !hasP {
		return j, nil
	}
	f, err := strconv.ParseFloat(p, 64)
	if err != nil || f != f || f < 0 || f > MaxFlip {
		return nil, fmt.Errorf("bench: judge %q: the flip probability must be a number in [0, %g]", s, MaxFlip)
	}
	j.Flip = f
	return j, nil
}

// OracleRun is the record of one simulated-judge session.
type OracleRun struct {
	// Flip is the judge's flip probability, Seed the seed of its coin.
	Flip float64 `json:"flip"`
	Seed uint64  `json:"seed"`
	// Done says that the judge followed the protocol (Judge.Done), Related
	// that it graded the files the fix's code uses (Judge.Related).
	Done    bool `json:"done,omitempty"`
	Related bool `json:"related,omitempty"`
	// Cycles are the figures after each cycle, cumulative.
	Cycles []OracleCycle `json:"cycles"`
	// Files are the selection (relevance at or above the threshold).
	Files   []string `json:"files"`
	Stopped string   `json:"stopped"`
	// Completed says that the session began on a first answer's partial
	// index and that the index was complete before cycle 1's judgments.
	Completed bool `json:"completed,omitempty"`
	// PagesAcc is the offline ranking's Acc@k, k the candidates offered in
	// all (the last cycle's Offered).
	PagesAcc float64 `json:"pages_acc"`
	// Pages are what each cycle offered, in the order offered.
	Pages [][]OracleOffer `json:"pages"`
	// GoldExcerpts counts the gold files with hunks (Instance.GoldHunks)
	// whose first excerpt the session showed; AimedExcerpts those whose
	// first excerpt showed a line of one of the file's hunks: where the fix
	// edits, as a judge reads it.
	GoldExcerpts  int `json:"gold_excerpts,omitempty"`
	AimedExcerpts int `json:"aimed_excerpts,omitempty"`
	// Packs are the coverage of the context pack built from the session's
	// result (its judged files: the selection, then the rest), at each
	// budget of Options.PackBudgets: what a subagent receives after the
	// judge's session.
	Packs []PackCoverage `json:"packs,omitempty"`
}

// OracleOffer is one candidate a session offered.
type OracleOffer struct {
	Path string `json:"path"`
	// Evidence is hone's own relevance of the file when it was offered.
	Evidence float64 `json:"evidence"`
	// Second marks a second look.
	Second bool `json:"second,omitempty"`
}

// OracleCycle are a session's figures up to the end of one cycle.
type OracleCycle struct {
	// Offered counts the candidates offered (a file offered twice counts
	// twice); Distinct counts the files.
	Offered  int `json:"offered"`
	Distinct int `json:"distinct"`
	// Gold is the number of gold files offered.
	Gold int `json:"gold"`
	// Tokens are the excerpt tokens a judge read, a second look's longer
	// excerpt included.
	Tokens int `json:"tokens"`
	// Flipped counts the judgments turned over.
	Flipped int `json:"flipped"`
}

// By reports whether the session was driven by judge j.
func (r *OracleRun) By(j Judge) bool {
	return r.Flip == j.Flip && r.Done == j.Done && r.Related == j.Related
}

// Offered returns the total number of candidates the session offered.
func (r *OracleRun) Offered() int {
	if len(r.Cycles) == 0 {
		return 0
	}
	return r.Cycles[len(r.Cycles)-1].Offered
}

// Seed returns the seed of the instance's coin: FNV-64a of its id.
func Seed(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// oracle judges candidates from the gold files. Not safe for concurrent use.
type oracle struct {
	gold    map[string]bool
	related map[string]bool // judged OracleRelated unless turned over
	flip    float64
	rng     *rand.Rand
}

func newOracle(gold []string, flip float64, seed uint64) *oracle {
	return &oracle{gold: goldSet(gold), flip: flip, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// missing returns how many files of the change the judge believes it has
// not found yet: the number of gold files less the files its latest
// judgments (those of judged, then evals) put at OracleGold.
func (o *oracle) missing(judged map[string]loop.Evaluation, evals []loop.Evaluation) int {
	for _, e := range evals {
		judged[e.Path] = e
	}
	found := 0
	for _, e := range judged {
		if e.Relevance >= OracleGold {
			found++
		}
	}
	return max(0, len(o.gold)-found)
}

// judge returns one evaluation per candidate, in order, and the number of
// judgments turned over. A coin is drawn for every judgment, whatever the
// flip probability, so that the same seed draws the same coins.
func (o *oracle) judge(cands []loop.Candidate) ([]loop.Evaluation, int) {
	evals := make([]loop.Evaluation, 0, len(cands))
	flipped := 0
	for _, c := range cands {
		gold := o.gold[c.Path]
		if o.rng.Float64() < o.flip {
			gold = !gold
			flipped++
		}
		e := loop.Evaluation{Path: c.Path, Relevance: OracleOther, Reason: "oracle: not gold"}
		switch {
		case gold:
			e.Relevance, e.Reason = OracleGold, "oracle: gold"
		case o.related[c.Path] && !o.gold[c.Path]:
			e.Relevance, e.Reason = OracleRelated, "oracle: the fix's code uses it"
		}
		evals = append(evals, e)
	}
	return evals, flipped
}

// runOracle drives a stepwise session for the instance with the simulated
// judge and returns its record; ranked is hone's default ranking of the
// instance, for the pages baseline.
func runOracle(ctx context.Context, repo *hone.Repo, in Instance, j Judge, ranked []string, budgets []int) (*OracleRun, error) {
	seed := Seed(in.ID)
	o := newOracle(in.Gold, j.Flip, seed)
	if j.Related {
		o.related = goldSet(goldUses(repo, in))
	}
	sess, err := repo.Start(ctx, in.Problem, hone.RetrieveOptions{Loop: loop.Options{Candidates: OracleCandidates}})
	excerpts := hone.NewExcerpts(repo, false).ForTask(in.Problem)
	if err != nil {
		return nil, fmt.Errorf("oracle: start: %w", err)
	}
	run := &OracleRun{Flip: j.Flip, Done: j.Done, Related: j.Related, Seed: seed, Cycles: []OracleCycle{}, Files: []string{}}
	read := map[string]bool{}
	gold := goldSet(in.Gold)
	hunks := map[string][]Hunk{}
	for _, h := range in.GoldHunks {
		hunks[h.Path] = append(hunks[h.Path], h)
	}
	// A first answer's index (--first-answer) is completed while the judge
	// reads cycle 1, as hone mcp completes it in the background: a Refresh
	// parses a bounded step of it (hone.CompleteStep), and the session goes
	// on from there (loop.Options.Reground).
	partial := repo.IndexStats().Unparsed > 0
	var cum OracleCycle
	for {
		if done, _ := sess.Done(); done {
			break
		}
		cands, err := sess.Dispatch(ctx)
		if err != nil {
			return nil, fmt.Errorf("oracle: dispatch: %w", err)
		}
		if len(cands) == 0 {
			sess.Stop(loop.NoMatch(sess.Cycle(), sess.Query()))
			break
		}
		terms := sess.Query().Terms()
		page := make([]OracleOffer, 0, len(cands))
		for _, c := range cands {
			page = append(page, OracleOffer{Path: c.Path, Evidence: c.Evidence, Second: c.SecondLook()})
			cum.Offered++
			if !read[c.Path] {
				read[c.Path] = true
				cum.Distinct++
				if gold[c.Path] {
					cum.Gold++
				}
			}
			// A second look shows what the first excerpt did not.
			view, err := excerpts.Of(c, terms)
			if err != nil {
				view = "(no excerpt: " + err.Error() + ")" // what the MCP server shows
			}
			if hs := hunks[c.Path]; len(hs) > 0 && !c.SecondLook() {
				run.GoldExcerpts++
				if shows := ExcerptLines(view); slices.ContainsFunc(hs, func(h Hunk) bool {
					return slices.ContainsFunc(h.Lines, func(l int) bool { return shows[l] })
				}) {
					run.AimedExcerpts++
				}
			}
			cum.Tokens += (len(view) + len(c.EvidenceBrief())) / 4 // as the MCP server shows them
		}
		run.Pages = append(run.Pages, page)
		if partial {
			partial = false
			if err := repo.Refresh(ctx); err != nil {
				return nil, fmt.Errorf("oracle: completing the first answer's index: %w", err)
			}
			run.Completed = repo.IndexStats().Unparsed == 0
		}
		evals, flipped := o.judge(cands)
		cum.Flipped += flipped
		run.Cycles = append(run.Cycles, cum)
		missing := j.Done && o.missing(sess.Judged(), evals) > 0
		if missing {
			for i := range evals {
				evals[i].Critical = evals[i].Relevance >= OracleGold
			}
		}
		done, err := sess.Judge(ctx, evals)
		if err != nil && (!done || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			return nil, fmt.Errorf("oracle: judge: %w", err)
		}
		if done {
			break
		}
		if j.Done && !missing && sess.Finish(fmt.Sprintf("cycle %d: the judge says done", sess.Cycle()-1)) {
			break
		}
	}
	res := sess.Result()
	for _, e := range res.Files {
		run.Files = append(run.Files, e.Path)
	}
	run.Stopped = res.Stopped
	run.PagesAcc = AccAt(ranked, in.Gold, run.Offered())
	for _, b := range budgets {
		c, _, err := measurePack(repo, &hone.Result{Result: *res}, b, in)
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		run.Packs = append(run.Packs, c)
	}
	return run, nil
}

// OracleFigures are the simulated judge's figures over a set of instances.
// An instance without a session (it failed) counts as a miss in the shares
// and is left out of the means.
type OracleFigures struct {
	// Label says what this is: a simulation (see Judge.Label).
	Label string  `json:"label"`
	Flip  float64 `json:"flip"`
	N     int     `json:"n"`
	// Failed instances have no session; Empty ones a session that offered
	// nothing (the task's query matched no file). Both count as misses and
	// are left out of the means.
	Failed int `json:"failed"`
	Empty  int `json:"empty"`
	// Cycles are the cumulative figures after each cycle, a session that
	// stopped earlier counted with its last figures.
	Cycles []OracleCycleFigures `json:"cycles"`
	// Packs are the packs built from the sessions' results (OracleRun.Packs),
	// scored as the default run's are.
	Packs []PackFigures `json:"packs,omitempty"`
	// Recovered is the share, among the sessions whose cycle 1 did not offer
	// every gold file, of those that offered them all by the end; -1 when
	// there is no such session. CycleOneMissed counts them.
	CycleOneMissed int     `json:"cycle_one_missed"`
	Recovered      float64 `json:"recovered"`
	// Aimed is the share of gold files' first excerpts that showed a line
	// of the fix's hunks in that file (OracleRun.AimedExcerpts), over
	// GoldExcerpts of them; -1 when there is none.
	GoldExcerpts int     `json:"gold_excerpts"`
	Aimed        float64 `json:"aimed"`
	// SetRecall and SetPrecision judge the selection (an empty selection
	// has precision 0); EmptySelections counts those.
	SetRecall       float64 `json:"set_recall"`
	SetPrecision    float64 `json:"set_precision"`
	EmptySelections int     `json:"empty_selections"`
	MeanFiles       float64 `json:"mean_files"`
	MeanCycles      float64 `json:"mean_cycles"`
	// CyclesUsed counts sessions by cycles used; Stops by stop reason,
	// numbers replaced by N (StopKind).
	CyclesUsed map[int]int    `json:"cycles_used"`
	Stops      map[string]int `json:"stops"`
}

// OracleCycleFigures are the figures after one cycle, cumulative.
type OracleCycleFigures struct {
	Cycle int `json:"cycle"`
	// Running counts the sessions that ran this cycle.
	Running int `json:"running"`
	// AllGold and AnyGold are the shares of instances with every gold file,
	// and with at least one, offered so far.
	AllGold float64 `json:"all_gold"`
	AnyGold float64 `json:"any_gold"`
	// MeanOffered, MeanDistinct: candidates offered, files among them.
	MeanOffered  float64 `json:"mean_offered"`
	MeanDistinct float64 `json:"mean_distinct"`
	// Excerpt tokens read so far.
	MeanTokens   float64 `json:"mean_tokens"`
	MedianTokens float64 `json:"median_tokens"`
	// PagesAcc is the share of instances whose offline ranking holds every
	// gold file within as many files as the session offered so far: the
	// ranking read in pages, at the same number of candidates.
	PagesAcc float64 `json:"pages_acc"`
}

// ScoreOracle computes the simulated judge's figures over insts; runs are
// the default runs (their ranking is the pages baseline) and sessions the
// simulated judge's, by instance id.
func ScoreOracle(j Judge, insts []Instance, runs map[string]*Run, sessions map[string]*OracleRun) OracleFigures {
	f := OracleFigures{Label: j.Label(), Flip: j.Flip, CyclesUsed: map[int]int{}, Stops: map[string]int{}, Recovered: -1, Aimed: -1}
	aimed := 0
	maxCycles := 0
	for _, s := range sessions {
		maxCycles = max(maxCycles, len(s.Cycles))
	}
	f.Cycles = make([]OracleCycleFigures, maxCycles)
	tokens := make([][]int64, maxCycles)
	recovered := 0
	for _, in := range insts {
		f.N++
		s, r := sessions[in.ID], runs[in.ID]
		if s == nil || r == nil {
			f.Failed++
			continue
		}
		if len(s.Cycles) == 0 {
			f.Empty++
			continue
		}
		all := func(c OracleCycle) bool { return c.Gold == len(goldSet(in.Gold)) && c.Gold > 0 }
		for i := range f.Cycles {
			c := s.Cycles[min(i, len(s.Cycles)-1)]
			cf := &f.Cycles[i]
			if i < len(s.Cycles) {
				cf.Running++
			}
			cf.AllGold += b2f(all(c))
			cf.AnyGold += b2f(c.Gold > 0)
			cf.MeanOffered += float64(c.Offered)
			cf.MeanDistinct += float64(c.Distinct)
			cf.MeanTokens += float64(c.Tokens)
			tokens[i] = append(tokens[i], int64(c.Tokens))
			cf.PagesAcc += AccAt(r.Ranked, in.Gold, c.Offered)
		}
		if !all(s.Cycles[0]) {
			f.CycleOneMissed++
			if all(s.Cycles[len(s.Cycles)-1]) {
				recovered++
			}
		}
		f.GoldExcerpts += s.GoldExcerpts
		aimed += s.AimedExcerpts
		f.SetRecall += SetRecall(s.Files, in.Gold)
		f.SetPrecision += SetPrecision(s.Files, in.Gold)
		if len(s.Files) == 0 {
			f.EmptySelections++
		}
		f.MeanFiles += float64(len(s.Files))
		f.MeanCycles += float64(len(s.Cycles))
		f.CyclesUsed[len(s.Cycles)]++
		f.Stops[StopKind(s.Stopped)]++
	}
	packRuns := map[string]*Run{}
	for id, s := range sessions {
		packRuns[id] = &Run{Packs: s.Packs}
	}
	f.Packs = scorePacks(insts, packRuns)
	ran := f.N - f.Failed - f.Empty
	for i := range f.Cycles {
		cf := &f.Cycles[i]
		cf.Cycle = i + 1
		if f.N > 0 {
			cf.AllGold /= float64(f.N)
			cf.AnyGold /= float64(f.N)
			cf.PagesAcc /= float64(f.N)
		}
		if ran > 0 {
			cf.MeanOffered /= float64(ran)
			cf.MeanDistinct /= float64(ran)
			cf.MeanTokens /= float64(ran)
		}
		cf.MedianTokens = Median(tokens[i])
	}
	if f.N > 0 {
		f.SetRecall /= float64(f.N)
		f.SetPrecision /= float64(f.N)
	}
	if ran > 0 {
		f.MeanFiles /= float64(ran)
		f.MeanCycles /= float64(ran)
	}
	if f.GoldExcerpts > 0 {
		f.Aimed = float64(aimed) / float64(f.GoldExcerpts)
	}
	if f.CycleOneMissed > 0 {
		f.Recovered = float64(recovered) / float64(f.CycleOneMissed)
	}
	return f
}

// writeOracle prints the simulated judge's figures: a row per cycle,
// cumulative, beside the ranking read in pages; then the selection, the
// cycles used and the stop reasons.
func writeOracle(w io.Writer, f *OracleFigures) error {
	if f == nil {
		return nil
	}
	fmt.Fprintf(w, "\n%s: a SIMULATION from the gold files, not a real judge (n=%d, failed %d, offered nothing %d):\n", f.Label, f.N, f.Failed, f.Empty)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "cycle\trunning\tall gold offered %\tany gold %\tcandidates\tfiles\texcerpt tokens mean\tmedian\tranking in pages Acc@k %\t")
	for _, c := range f.Cycles {
		fmt.Fprintf(tw, "%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.0f\t%.1f\t\n", c.Cycle, c.Running, 100*c.AllGold, 100*c.AnyGold,
			c.MeanOffered, c.MeanDistinct, c.MeanTokens, c.MedianTokens, 100*c.PagesAcc)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "(cumulative; k of the pages baseline = the candidates each session offered so far)")
	if f.Recovered >= 0 {
		fmt.Fprintf(w, "missed by cycle 1: %d, every gold file offered by the end: %.1f %%\n", f.CycleOneMissed, 100*f.Recovered)
	}
	if f.Aimed >= 0 {
		fmt.Fprintf(w, "gold files' first excerpts that show a line the fix edits: %.1f %% of %d\n", 100*f.Aimed, f.GoldExcerpts)
	}
	fmt.Fprintf(w, "selection: recall %.1f %%, precision %.1f %%, mean files %.2f, empty %d\n",
		100*f.SetRecall, 100*f.SetPrecision, f.MeanFiles, f.EmptySelections)
	fmt.Fprintf(w, "cycles used: %s (mean %.2f)\n", countsLine(f.CyclesUsed), f.MeanCycles)
	fmt.Fprintln(w, "stop reasons:")
	for _, k := range byCount(f.Stops) {
		fmt.Fprintf(w, "  %5d  %s\n", f.Stops[k], k)
	}
	return writePacks(w, "pack coverage (built from the session's judgments)", f.Packs)
}
