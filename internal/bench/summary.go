package bench

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
)

// Figures are the metrics of one retrieval variant over a set of instances.
// An instance without a run (it failed) counts as a miss in every quality
// figure and is left out of the timing figures.
type Figures struct {
	// N is the number of instances scored, Failed of them without a run.
	N      int `json:"n"`
	Failed int `json:"failed"`
	// Acc, Hit and Recall are means over instances, by cut-off k (see Ks).
	Acc    map[int]float64 `json:"acc_at"`
	Hit    map[int]float64 `json:"hit_at"`
	Recall map[int]float64 `json:"recall_at"`
	MRR    float64         `json:"mrr"`
	// SetPrecision and SetRecall judge the selected files (relevance at or
	// above the threshold); an empty selection has precision 0.
	SetPrecision float64 `json:"set_precision"`
	SetRecall    float64 `json:"set_recall"`
	// SingleGoldPrecision is SetPrecision over the SingleGoldN instances with
	// exactly one gold file.
	SingleGoldN         int     `json:"single_gold_n"`
	SingleGoldPrecision float64 `json:"single_gold_precision"`
	// EmptySelections counts runs that selected no file.
	EmptySelections int     `json:"empty_selections"`
	MeanFiles       float64 `json:"mean_files"`
	MeanCycles      float64 `json:"mean_cycles"`
	// Cycles counts runs by the number of cycles used.
	Cycles map[int]int `json:"cycles"`
	// Stops counts runs by stop reason, numbers replaced by N (see StopKind).
	Stops map[string]int `json:"stops"`
	// SelectedGoldShare is the share of all gold files (over every
	// instance) that were selected.
	SelectedGoldShare float64 `json:"selected_gold_share"`
	// Packs are the pack coverage figures by budget (Options.PackBudgets).
	Packs []PackFigures `json:"packs,omitempty"`
	// Calibration is, for each relevance band, how many of the files
	// scored in it (among the first ScoredFiles ranked) the fix changed.
	Calibration []Band `json:"calibration,omitempty"`
	// FirstAnswers counts the instances answered from a first answer's
	// partial index (--first-answer), UnparsedMedian the median of the
	// files their index had not parsed.
	FirstAnswers     int     `json:"first_answers,omitempty"`
	UnparsedMedian   float64 `json:"unparsed_median,omitempty"`
	IndexMsMedian    float64 `json:"index_ms_median"`
	IndexMsP95       float64 `json:"index_ms_p95"`
	RetrieveMsMedian float64 `json:"retrieve_ms_median"`
	RetrieveMsP95    float64 `json:"retrieve_ms_p95"`
}

// PackFigures are the pack coverage figures at one budget. Instances that
// failed count as packs that show nothing; the hunk figures are over the
// instances that have gold hunks.
type PackFigures struct {
	Budget int `json:"budget"`
	// N instances, HunkN of them with gold hunks.
	N     int `json:"n"`
	HunkN int `json:"hunk_n"`
	// FilesCovered: share of instances whose pack has every gold file;
	// HunksCovered: whose pack shows every gold hunk.
	FilesCovered float64 `json:"files_covered"`
	HunksCovered float64 `json:"hunks_covered"`
	// HunkShare and LineShare are means over instances.
	HunkShare     float64 `json:"hunk_share"`
	LineShare     float64 `json:"line_share"`
	MeanTokens    float64 `json:"mean_tokens"`
	MeanFiles     float64 `json:"mean_files"`
	BuildMsMedian float64 `json:"build_ms_median"`
	BuildMsP95    float64 `json:"build_ms_p95"`
}

// Band is one relevance band of the calibration table: the files scored
// in [From, To), how many of them the fix changed, and how many the fix
// changed or its code uses directly (Run.GoldUses).
type Band struct {
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Files int     `json:"files"`
	Gold  int     `json:"gold"`
	Used  int     `json:"gold_or_used"`
}

// Bands are the calibration table's relevance bands, highest first: the
// pattern's scale (0.8-1.0 implements the target, 0.5-0.7 related, 0.2-0.4
// tangential) split at the selection threshold.
var Bands = [][2]float64{{0.9, 1.0001}, {0.8, 0.9}, {0.7, 0.8}, {0.6, 0.7}, {0.5, 0.6}, {0.4, 0.5}, {0.2, 0.4}, {0, 0.2}}

// Score computes the figures of runs (by instance id) over insts.
func Score(insts []Instance, runs map[string]*Run) Figures {
	f := Figures{Acc: map[int]float64{}, Hit: map[int]float64{}, Recall: map[int]float64{},
		Cycles: map[int]int{}, Stops: map[string]int{}}
	var indexMs, retrieveMs, unparsed []int64
	single := 0.0
	goldFiles, goldSelected := 0, 0
	bands := make([]Band, len(Bands))
	for i, b := range Bands {
		bands[i] = Band{From: b[0], To: min(1, b[1])}
	}
	for _, in := range insts {
		f.N++
		if len(in.Gold) == 1 {
			f.SingleGoldN++
		}
		goldFiles += len(goldSet(in.Gold))
		r := runs[in.ID]
		if r == nil {
			f.Failed++
			continue
		}
		goldSelected += int(math.Round(SetRecall(r.Files, in.Gold) * float64(len(goldSet(in.Gold)))))
		g := goldSet(in.Gold)
		uses := goldSet(r.GoldUses)
		for i, p := range r.Ranked[:min(len(r.Ranked), len(r.Scores))] {
			for j, b := range Bands {
				if r.Scores[i] >= b[0] && r.Scores[i] < b[1] {
					bands[j].Files++
					if g[p] {
						bands[j].Gold++
					}
					if g[p] || uses[p] {
						bands[j].Used++
					}
					break
				}
			}
		}
		for _, k := range Ks {
			f.Acc[k] += AccAt(r.Ranked, in.Gold, k)
			f.Hit[k] += HitAt(r.Ranked, in.Gold, k)
			f.Recall[k] += RecallAt(r.Ranked, in.Gold, k)
		}
		f.MRR += ReciprocalRank(r.Ranked, in.Gold)
		p := SetPrecision(r.Files, in.Gold)
		f.SetPrecision += p
		f.SetRecall += SetRecall(r.Files, in.Gold)
		if len(in.Gold) == 1 {
			single += p
		}
		if len(r.Files) == 0 {
			f.EmptySelections++
		}
		f.MeanFiles += float64(len(r.Files))
		f.MeanCycles += float64(r.Cycles)
		f.Cycles[r.Cycles]++
		f.Stops[StopKind(r.Stopped)]++
		indexMs = append(indexMs, r.IndexMs)
		retrieveMs = append(retrieveMs, r.RetrieveMs)
		if r.Unparsed > 0 {
			f.FirstAnswers++
			unparsed = append(unparsed, int64(r.Unparsed))
		}
	}
	f.UnparsedMedian = Median(unparsed)
	if f.N > 0 {
		n := float64(f.N)
		for _, k := range Ks {
			f.Acc[k] /= n
			f.Hit[k] /= n
			f.Recall[k] /= n
		}
		f.MRR /= n
		f.SetPrecision /= n
		f.SetRecall /= n
	}
	if ran := f.N - f.Failed; ran > 0 {
		f.MeanFiles /= float64(ran)
		f.MeanCycles /= float64(ran)
	}
	if f.SingleGoldN > 0 {
		f.SingleGoldPrecision = single / float64(f.SingleGoldN)
	}
	if goldFiles > 0 {
		f.SelectedGoldShare = float64(goldSelected) / float64(goldFiles)
	}
	f.Packs = scorePacks(insts, runs)
	for _, b := range bands {
		if b.Files > 0 {
			f.Calibration = bands
			break
		}
	}
	f.IndexMsMedian, f.IndexMsP95 = Median(indexMs), Percentile(indexMs, 95)
	f.RetrieveMsMedian, f.RetrieveMsP95 = Median(retrieveMs), Percentile(retrieveMs, 95)
	return f
}

// scorePacks scores the packs of runs over insts, one PackFigures per
// budget the runs measured (nil when none did); an instance without a run
// counts as a miss.
func scorePacks(insts []Instance, runs map[string]*Run) []PackFigures {
	budgets := packBudgets(runs)
	if len(budgets) == 0 {
		return nil
	}
	packs := make([]PackFigures, len(budgets))
	buildMs := make([][]int64, len(budgets))
	for i, b := range budgets {
		packs[i].Budget = b
	}
	for _, in := range insts {
		for i := range packs {
			packs[i].N++
			if len(in.GoldHunks) > 0 {
				packs[i].HunkN++
			}
		}
		r := runs[in.ID]
		if r == nil {
			continue
		}
		for i, b := range budgets {
			for _, c := range r.Packs {
				if c.Budget != b {
					continue
				}
				pf := &packs[i]
				pf.FilesCovered += b2f(c.FilesCovered)
				if len(in.GoldHunks) > 0 {
					pf.HunksCovered += b2f(c.HunksCovered)
					pf.HunkShare += c.HunkShare
					pf.LineShare += c.LineShare
				}
				pf.MeanTokens += float64(c.Tokens)
				pf.MeanFiles += float64(c.Files)
				buildMs[i] = append(buildMs[i], int64(math.Round(c.BuildMs*1000)))
			}
		}
	}
	for i := range packs {
		pf := &packs[i]
		if pf.N > 0 {
			n := float64(pf.N)
			pf.FilesCovered /= n
			pf.MeanTokens /= n
			pf.MeanFiles /= n
		}
		if pf.HunkN > 0 {
			n := float64(pf.HunkN)
			pf.HunksCovered /= n
			pf.HunkShare /= n
			pf.LineShare /= n
		}
		pf.BuildMsMedian, pf.BuildMsP95 = Median(buildMs[i])/1000, Percentile(buildMs[i], 95)/1000
	}
	return packs
}

// packBudgets lists the budgets the runs measured packs at, in order of
// first appearance.
func packBudgets(runs map[string]*Run) []int {
	var out []int
	for _, r := range runs {
		for _, c := range r.Packs {
			if !slices.Contains(out, c.Budget) {
				out = append(out, c.Budget)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Group is the figures of hone's default retrieval over the instances that
// share a repository or a language.
type Group struct {
	Name    string  `json:"name"`
	Figures Figures `json:"figures"`
}

// groupScores scores runs over insts split by key, groups in name order
// (case aside); instances whose key is "" are left out. It returns nil when
// fewer than two groups result: one group would repeat the overall figures.
func groupScores(insts []Instance, runs map[string]*Run, key func(Instance) string) []Group {
	by := map[string][]Instance{}
	for _, in := range insts {
		if k := key(in); k != "" {
			by[k] = append(by[k], in)
		}
	}
	if len(by) < 2 {
		return nil
	}
	keys := slices.Collect(maps.Keys(by))
	slices.SortFunc(keys, func(a, b string) int {
		if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	out := make([]Group, 0, len(by))
	for _, k := range keys {
		out = append(out, Group{Name: k, Figures: Score(by[k], runs)})
	}
	return out
}

// lengthBuckets are the task lengths ByLength splits by, in words: the
// one-line task an agent delegates, a short paragraph, an issue report, and a
// long report with logs or code.
var lengthBuckets = []struct {
	max  int
	name string
}{{5, "1-5 words"}, {10, "6-10 words"}, {30, "11-30 words"}, {100, "31-100 words"}, {math.MaxInt, "over 100 words"}}

// lengthOf names the bucket of a task's length in words (whitespace
// separated, code and logs included).
func lengthOf(task string) string {
	n := len(strings.Fields(task))
	for _, b := range lengthBuckets {
		if n <= b.max {
			return b.name
		}
	}
	return ""
}

// groupByLength is groupScores by lengthOf, shortest first.
func groupByLength(insts []Instance, runs map[string]*Run) []Group {
	gs := groupScores(insts, runs, func(in Instance) string { return lengthOf(in.Problem) })
	rank := map[string]int{}
	for i, b := range lengthBuckets {
		rank[b.name] = i
	}
	slices.SortFunc(gs, func(a, b Group) int { return rank[a.Name] - rank[b.Name] })
	return gs
}

// Row is one rung of the ablation ladder.
type Row struct {
	Name    string  `json:"name"`
	Figures Figures `json:"figures"`
}

// Summary is what a bench run reports.
type Summary struct {
	Instances int `json:"instances"`
	// Hone is hone's default retrieval.
	Hone Figures `json:"hone"`
	// Baseline is set with Options.Baseline.
	Baseline *Figures `json:"baseline,omitempty"`
	// Ablation is set with Options.Ablate: the ladder from the baseline to
	// the full pipeline, one feature added per row.
	Ablation []Row `json:"ablation,omitempty"`
	// ByCycles is set with Options.Ablate: hone's default retrieval cut to
	// 1 and 2 cycles, and the default (3), named by the cycle budget.
	ByCycles []Row `json:"by_cycles,omitempty"`
	// ByRepo and ByLanguage split Hone's figures by the instances'
	// repository and language (when there are two or more of them).
	ByRepo     []Group `json:"by_repo,omitempty"`
	ByLanguage []Group `json:"by_language,omitempty"`
	// ByLength splits them by the task's length in words (lengthBuckets):
	// one-line tasks and issue reports are two regimes.
	ByLength []Group `json:"by_length,omitempty"`
	// Oracle is set with Options.Judge: the simulated judge's figures,
	// per cycle, beside the ranking read in pages.
	Oracle *OracleFigures `json:"oracle,omitempty"`
	// Resumed instances were read back from an earlier run; Ran were run by
	// this one.
	Resumed int `json:"resumed"`
	Ran     int `json:"ran"`
	// WallMs is this run's wall time.
	WallMs int64 `json:"wall_ms"`
}

// WriteTable prints s as aligned tables: every figure of hone (beside the
// baseline's when there is one), then the ablation ladder.
func WriteTable(w io.Writer, s *Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	h, b := &s.Hone, s.Baseline
	header := "metric\thone\t"
	if b != nil {
		header = "metric\thone\tbaseline\tdelta\t"
	}
	fmt.Fprintln(tw, header)
	pct := func(name string, hv float64, bv func(*Figures) float64) {
		if b == nil {
			fmt.Fprintf(tw, "%s\t%.1f\t\n", name, 100*hv)
			return
		}
		d := 100 * (hv - bv(b))
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%+.1f\t\n", name, 100*hv, 100*bv(b), d)
	}
	num := func(name, format string, hv float64, bv func(*Figures) float64) {
		if b == nil {
			fmt.Fprintf(tw, "%s\t"+format+"\t\n", name, hv)
			return
		}
		fmt.Fprintf(tw, "%s\t"+format+"\t"+format+"\t\t\n", name, hv, bv(b))
	}
	for _, k := range Ks {
		pct(fmt.Sprintf("Acc@%d %%", k), h.Acc[k], func(f *Figures) float64 { return f.Acc[k] })
	}
	for _, k := range Ks {
		pct(fmt.Sprintf("Hit@%d %%", k), h.Hit[k], func(f *Figures) float64 { return f.Hit[k] })
	}
	for _, k := range Ks {
		pct(fmt.Sprintf("Recall@%d %%", k), h.Recall[k], func(f *Figures) float64 { return f.Recall[k] })
	}
	pct("MRR x100", h.MRR, func(f *Figures) float64 { return f.MRR })
	pct("selected precision %", h.SetPrecision, func(f *Figures) float64 { return f.SetPrecision })
	pct("selected recall %", h.SetRecall, func(f *Figures) float64 { return f.SetRecall })
	pct("gold files selected %", h.SelectedGoldShare, func(f *Figures) float64 { return f.SelectedGoldShare })
	pct(fmt.Sprintf("precision, 1 gold (n=%d) %%", h.SingleGoldN), h.SingleGoldPrecision, func(f *Figures) float64 { return f.SingleGoldPrecision })
	num("mean files selected", "%.2f", h.MeanFiles, func(f *Figures) float64 { return f.MeanFiles })
	num("empty selections", "%.0f", float64(h.EmptySelections), func(f *Figures) float64 { return float64(f.EmptySelections) })
	num("mean cycles", "%.2f", h.MeanCycles, func(f *Figures) float64 { return f.MeanCycles })
	if h.FirstAnswers > 0 {
		num("first answers (partial index)", "%.0f", float64(h.FirstAnswers), func(f *Figures) float64 { return float64(f.FirstAnswers) })
		num("unparsed files median", "%.0f", h.UnparsedMedian, func(f *Figures) float64 { return f.UnparsedMedian })
	}
	num("index ms median", "%.0f", h.IndexMsMedian, func(f *Figures) float64 { return f.IndexMsMedian })
	num("index ms p95", "%.0f", h.IndexMsP95, func(f *Figures) float64 { return f.IndexMsP95 })
	num("retrieve ms median", "%.0f", h.RetrieveMsMedian, func(f *Figures) float64 { return f.RetrieveMsMedian })
	num("retrieve ms p95", "%.0f", h.RetrieveMsP95, func(f *Figures) float64 { return f.RetrieveMsP95 })
	num("instances", "%.0f", float64(h.N), func(f *Figures) float64 { return float64(f.N) })
	num("failed", "%.0f", float64(h.Failed), func(f *Figures) float64 { return float64(f.Failed) })
	if err := tw.Flush(); err != nil {
		return err
	}

	if err := writePacks(w, "pack coverage (hone)", h.Packs); err != nil {
		return err
	}
	if err := writeCalibration(w, h.Calibration); err != nil {
		return err
	}

	fmt.Fprintf(w, "\ncycles used: %s\n", countsLine(h.Cycles))
	fmt.Fprintln(w, "stop reasons:")
	for _, k := range byCount(h.Stops) {
		fmt.Fprintf(w, "  %5d  %s\n", h.Stops[k], k)
	}

	if err := writeOracle(w, s.Oracle); err != nil {
		return err
	}

	for _, g := range []struct {
		title  string
		groups []Group
	}{{"by language", s.ByLanguage}, {"by task length", s.ByLength}, {"by repository", s.ByRepo}} {
		if len(g.groups) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (hone):\n", g.title)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := "group\tn\tAcc@1\tAcc@3\tAcc@5\tAcc@10\tMRR\t"
		// The pack at the first budget, when measured: what the subagent
		// is handed, beside where the files rank.
		if p := g.groups[0].Figures.Packs; len(p) > 0 {
			head += fmt.Sprintf("pack %d: gold files %%\tgold hunks %%\t", p[0].Budget)
		}
		fmt.Fprintln(tw, head)
		for _, r := range g.groups {
			f := r.Figures
			line := fmt.Sprintf("%s\t%d\t%s", r.Name, f.N, accCells(f))
			if len(f.Packs) > 0 {
				line += fmt.Sprintf("%.1f\t%.1f\t", 100*f.Packs[0].FilesCovered, 100*f.Packs[0].HunksCovered)
			}
			fmt.Fprintln(tw, line)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}

	if len(s.Ablation) > 0 {
		fmt.Fprintln(w, "\nablation ladder (each row adds one feature to the row above):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "row\tAcc@1\tAcc@3\tAcc@5\tAcc@10\tMRR\t")
		for _, r := range s.Ablation {
			f := r.Figures
			fmt.Fprintf(tw, "%s\t%s\n", r.Name, accCells(f))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(s.ByCycles) > 0 {
		fmt.Fprintln(w, "\nby cycle budget (what cycles 2 and 3 add; pack at each budget measured):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := "cycles\tAcc@1\tAcc@5\tgold selected %\tfiles\t"
		for _, p := range s.ByCycles[0].Figures.Packs {
			head += fmt.Sprintf("pack %d: files %%\thunks %%\t", p.Budget)
		}
		fmt.Fprintln(tw, head)
		for _, r := range s.ByCycles {
			f := r.Figures
			fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.1f\t%.2f\t", r.Name, 100*f.Acc[1], 100*f.Acc[5], 100*f.SelectedGoldShare, f.MeanFiles)
			for _, p := range f.Packs {
				fmt.Fprintf(tw, "%.1f\t%.1f\t", 100*p.FilesCovered, 100*p.HunksCovered)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writePacks prints the pack coverage figures, a row per budget.
func writePacks(w io.Writer, title string, packs []PackFigures) error {
	if len(packs) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "budget\tn\tgold files %\tgold hunks %\thunk share %\tline share %\ttokens\tfiles\tbuild ms med\tp95\t")
	for _, p := range packs {
		fmt.Fprintf(tw, "%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.2f\t%.1f\t%.1f\t\n", p.Budget, p.N,
			100*p.FilesCovered, 100*p.HunksCovered, 100*p.HunkShare, 100*p.LineShare, p.MeanTokens, p.MeanFiles,
			p.BuildMsMedian, p.BuildMsP95)
	}
	return tw.Flush()
}

// writeCalibration prints, per relevance band, the share of its files that
// the fix changed.
func writeCalibration(w io.Writer, bands []Band) error {
	if len(bands) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\ncalibration (the first %d ranked files of each instance):\n", ScoredFiles)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "relevance\tfiles\tchanged by the fix %\tchanged or used by the fixed code %\t")
	for _, b := range bands {
		share, used := 0.0, 0.0
		if b.Files > 0 {
			share = 100 * float64(b.Gold) / float64(b.Files)
			used = 100 * float64(b.Used) / float64(b.Files)
		}
		fmt.Fprintf(tw, "%.1f-%.1f\t%d\t%.1f\t%.1f\t\n", b.From, b.To, b.Files, share, used)
	}
	return tw.Flush()
}

// accCells formats Acc@1/3/5/10 and MRR as percentages, tab-terminated
// cells of a short table row.
func accCells(f Figures) string {
	return fmt.Sprintf("%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t", 100*f.Acc[1], 100*f.Acc[3], 100*f.Acc[5], 100*f.Acc[10], 100*f.MRR)
}

func countsLine(m map[int]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d: %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// byCount orders m's keys by count, most first, then by key.
func byCount(m map[string]int) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	return keys
}
