package bench

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRankMetrics(t *testing.T) {
	ranked := []string{"a", "b", "c", "d", "e"}
	tests := []struct {
		name   string
		ranked []string
		gold   []string
		k      int
		acc    float64
		hit    float64
		recall float64
	}{
		{"one gold at 1, k=1", ranked, []string{"a"}, 1, 1, 1, 1},
		{"one gold at 2, k=1", ranked, []string{"b"}, 1, 0, 0, 0},
		{"one gold at 2, k=3", ranked, []string{"b"}, 3, 1, 1, 1},
		{"two gold, one in top 3", ranked, []string{"b", "z"}, 3, 0, 1, 0.5},
		{"two gold, both in top 3", ranked, []string{"c", "a"}, 3, 1, 1, 1},
		{"two gold, k=1, first is gold", ranked, []string{"a", "d"}, 1, 1, 1, 0.5},
		{"two gold, k=1, first not gold", ranked, []string{"b", "d"}, 1, 0, 0, 0},
		{"four gold, k=3, top 3 all gold", ranked, []string{"a", "b", "c", "z"}, 3, 1, 1, 0.75},
		{"four gold, k=3, top 3 two gold", ranked, []string{"a", "c", "y", "z"}, 3, 0, 1, 0.5},
		{"gold beyond k", ranked, []string{"e"}, 3, 0, 0, 0},
		{"short ranking, gold in it", []string{"a"}, []string{"a"}, 5, 1, 1, 1},
		{"short ranking, more gold than k", []string{"a"}, []string{"a", "b"}, 1, 1, 1, 0.5},
		{"empty ranking", nil, []string{"a"}, 5, 0, 0, 0},
		{"k=0, nothing read", ranked, []string{"a"}, 0, 0, 0, 0},
		{"ranking shorter than k with more gold than k", []string{"a"}, []string{"a", "b", "c"}, 2, 0, 1, 1.0 / 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AccAt(tt.ranked, tt.gold, tt.k); got != tt.acc {
				t.Errorf("AccAt(%v, %v, %d) = %v, want %v", tt.ranked, tt.gold, tt.k, got, tt.acc)
			}
			if got := HitAt(tt.ranked, tt.gold, tt.k); got != tt.hit {
				t.Errorf("HitAt(%v, %v, %d) = %v, want %v", tt.ranked, tt.gold, tt.k, got, tt.hit)
			}
			if got := RecallAt(tt.ranked, tt.gold, tt.k); got != tt.recall {
				t.Errorf("RecallAt(%v, %v, %d) = %v, want %v", tt.ranked, tt.gold, tt.k, got, tt.recall)
			}
		})
	}
}

func TestReciprocalRank(t *testing.T) {
	tests := []struct {
		ranked, gold []string
		want         float64
	}{
		{[]string{"a", "b"}, []string{"a"}, 1},
		{[]string{"a", "b", "c", "d"}, []string{"d", "c"}, 1.0 / 3},
		{[]string{"a", "b"}, []string{"z"}, 0},
		{nil, []string{"z"}, 0},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.gold, ","), func(t *testing.T) {
			if got := ReciprocalRank(tt.ranked, tt.gold); got != tt.want {
				t.Errorf("ReciprocalRank(%v, %v) = %v, want %v", tt.ranked, tt.gold, got, tt.want)
			}
		})
	}
}

func TestSetMetrics(t *testing.T) {
	tests := []struct {
		name            string
		files, gold     []string
		precision, reca float64
	}{
		{"exact", []string{"a"}, []string{"a"}, 1, 1},
		{"one of four selected is gold", []string{"a", "b", "c", "d"}, []string{"b"}, 0.25, 1},
		{"half of the gold", []string{"a", "x"}, []string{"a", "b"}, 0.5, 0.5},
		{"empty selection has precision 0", nil, []string{"a"}, 0, 0},
		{"nothing right", []string{"x"}, []string{"a"}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SetPrecision(tt.files, tt.gold); got != tt.precision {
				t.Errorf("SetPrecision(%v, %v) = %v, want %v", tt.files, tt.gold, got, tt.precision)
			}
			if got := SetRecall(tt.files, tt.gold); got != tt.reca {
				t.Errorf("SetRecall(%v, %v) = %v, want %v", tt.files, tt.gold, got, tt.reca)
			}
		})
	}
}

func TestMedianPercentile(t *testing.T) {
	tests := []struct {
		name      string
		xs        []int64
		median    float64
		p95       float64
		p50nearst float64
	}{
		{"none", nil, 0, 0, 0},
		{"one", []int64{7}, 7, 7, 7},
		{"odd", []int64{5, 1, 3}, 3, 5, 3},
		{"even", []int64{4, 1, 3, 2}, 2.5, 4, 2},
		// 20 values 1..20: rank ceil(0.95*20)=19 -> 19.
		{"twenty", []int64{20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 10.5, 19, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Median(tt.xs); got != tt.median {
				t.Errorf("Median(%v) = %v, want %v", tt.xs, got, tt.median)
			}
			if got := Percentile(tt.xs, 95); got != tt.p95 {
				t.Errorf("Percentile(%v, 95) = %v, want %v", tt.xs, got, tt.p95)
			}
			if got := Percentile(tt.xs, 50); got != tt.p50nearst {
				t.Errorf("Percentile(%v, 50) = %v, want %v", tt.xs, got, tt.p50nearst)
			}
		})
	}
}

func TestStopKind(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cycle 2: 4 files at or above 0.70 and no critical gap", "cycle N: N files at or above N and no critical gap"},
		{"cycle 3 brought no new file", "cycle N brought no new file"},
		{"cycle 3: reached --cycles 3 with 1 of 3 files at or above 0.70", "cycle N: reached --cycles N with N of N files at or above N"},
		{"after cycle 1: the judge found a relevant file and hone rates no file left at 0.50 or more (found a/b2.go; best left c.go at 0.42)",
			"after cycle N: the judge found a relevant file and hone rates no file left at N or more"},
	}
	for _, tt := range tests {
		if got := StopKind(tt.in); got != tt.want {
			t.Errorf("StopKind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestScore(t *testing.T) {
	insts := []Instance{
		{ID: "one", Gold: []string{"a"}},
		{ID: "two", Gold: []string{"b", "c"}},
		{ID: "failed", Gold: []string{"x"}},
	}
	runs := map[string]*Run{
		// gold first: every cut-off 1; selection {a, q}: precision 1/2, recall 1.
		// Scored 0.95 (gold), 0.75 and 0.3: one file in each of three bands.
		"one": {Ranked: []string{"a", "q", "r"}, Scores: []float64{0.95, 0.75, 0.3}, GoldUses: []string{"q"}, Files: []string{"a", "q"}, Cycles: 1,
			Stopped: "cycle 1: 3 files at or above 0.70 and no critical gap", IndexMs: 10, RetrieveMs: 100},
		// gold at ranks 2 and 4: Acc@1 0, Acc@3 0, Acc@5 1, Hit@1 0, Hit@3 1,
		// Recall@3 1/2, RR 1/2; empty selection: precision 0, recall 0.
		"two": {Ranked: []string{"q", "b", "r", "c"}, Files: []string{}, Cycles: 3,
			Stopped: "cycle 3 brought no new file", IndexMs: 30, RetrieveMs: 300},
	}
	got := Score(insts, runs)
	want := Figures{
		N: 3, Failed: 1,
		Acc:          map[int]float64{1: 1.0 / 3, 3: 1.0 / 3, 5: 2.0 / 3, 10: 2.0 / 3},
		Hit:          map[int]float64{1: 1.0 / 3, 3: 2.0 / 3, 5: 2.0 / 3, 10: 2.0 / 3},
		Recall:       map[int]float64{1: 1.0 / 3, 3: 1.5 / 3, 5: 2.0 / 3, 10: 2.0 / 3},
		MRR:          1.5 / 3,
		SetPrecision: 0.5 / 3, SetRecall: 1.0 / 3,
		SingleGoldN: 2, SingleGoldPrecision: 0.5 / 2,
		EmptySelections: 1, MeanFiles: 1, MeanCycles: 2,
		Cycles: map[int]int{1: 1, 3: 1},
		Stops: map[string]int{"cycle N: N files at or above N and no critical gap": 1,
			"cycle N brought no new file": 1},
		IndexMsMedian: 20, IndexMsP95: 30, RetrieveMsMedian: 200, RetrieveMsP95: 300,
		// a is selected, of the four gold files a, b, c and x.
		SelectedGoldShare: 1.0 / 4,
		// q is a file a's fix uses: it counts in the second share.
		Calibration: []Band{{0.9, 1, 1, 1, 1}, {0.8, 0.9, 0, 0, 0}, {0.7, 0.8, 1, 0, 1}, {0.6, 0.7, 0, 0, 0}, {0.5, 0.6, 0, 0, 0},
			{0.4, 0.5, 0, 0, 0}, {0.2, 0.4, 1, 0, 0}, {0, 0.2, 0, 0, 0}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Score mismatch (-want +got):\n%s", d)
	}
	var sb strings.Builder
	if err := WriteTable(&sb, &Summary{Instances: 3, Hone: got, Baseline: &got,
		Ablation: []Row{{Name: "baseline", Figures: got}}}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Acc@1 %", "33.3", "MRR x100", "50.0", "ablation ladder", "cycle N brought no new file"} {
		if !strings.Contains(sb.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, sb.String())
		}
	}
	if strings.Contains(sb.String(), "first answers") {
		t.Errorf("a run of complete indexes is labelled with first answers:\n%s", sb.String())
	}

	// First answers (--first-answer) are counted and labelled.
	runs["one"].Unparsed, runs["two"].Unparsed = 900, 700
	fa := Score(insts, runs)
	if fa.FirstAnswers != 2 || fa.UnparsedMedian != 800 {
		t.Errorf("first answers %d, unparsed median %v; want 2 and 800", fa.FirstAnswers, fa.UnparsedMedian)
	}
	sb.Reset()
	if err := WriteTable(&sb, &Summary{Instances: 3, Hone: fa}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "first answers (partial index)") || !strings.Contains(sb.String(), "unparsed files median") {
		t.Errorf("table of first answers does not say so:\n%s", sb.String())
	}
}

func TestReadInstances(t *testing.T) {
	good := `{"instance_id":"a__b-1","repo":"a/b","mirror_repo":"c/b","base_commit":"abc","problem_statement":"x","gold_files":["f.py"],"extra":1}`
	tests := []struct {
		name, in, err string
		n             int
	}{
		{"good", good + "\n\n" + strings.Replace(good, "-1", "-2", 1) + "\n", "", 2},
		{"malformed", good + "\n{not json\n", "line 2", 0},
		{"missing gold", `{"instance_id":"x","repo":"a/b","base_commit":"c","problem_statement":"p"}`, "line 1: missing gold_files", 0},
		{"duplicate", good + "\n" + good + "\n", "already on line 1", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadInstances(strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ReadInstances error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || len(got) != tt.n {
				t.Fatalf("ReadInstances = %d instances, %v; want %d", len(got), err, tt.n)
			}
			if got[0].Mirror() != "c/b" || got[0].Gold[0] != "f.py" {
				t.Errorf("ReadInstances()[0] = %+v", got[0])
			}
		})
	}
}

func TestSelect(t *testing.T) {
	insts := []Instance{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	ids := func(in []Instance) string {
		var s []string
		for _, i := range in {
			s = append(s, i.ID)
		}
		return strings.Join(s, ",")
	}
	tests := []struct {
		only  []string
		limit int
		want  string
		err   bool
	}{
		{nil, 0, "a,b,c", false},
		{nil, 2, "a,b", false},
		{[]string{"c", "a"}, 0, "a,c", false},
		{[]string{"c", "a"}, 1, "a", false},
		{[]string{"z"}, 0, "", true},
	}
	for _, tt := range tests {
		got, err := Select(insts, tt.only, tt.limit)
		if (err != nil) != tt.err || ids(got) != tt.want {
			t.Errorf("Select(%v, %d) = %q, %v; want %q", tt.only, tt.limit, ids(got), err, tt.want)
		}
	}
	if got := SummaryPath("/tmp/x/full.jsonl"); got != "/tmp/x/full.summary.json" {
		t.Errorf("SummaryPath = %q", got)
	}
}

func TestGroupScores(t *testing.T) {
	insts := []Instance{
		{ID: "a1", Repo: "o/a", Language: "go", Gold: []string{"x"}},
		{ID: "a2", Repo: "o/a", Language: "go", Gold: []string{"y"}},
		{ID: "b1", Repo: "o/b", Language: "c", Gold: []string{"z"}},
		{ID: "n1", Repo: "o/b", Gold: []string{"z"}}, // no language: left out of by-language
	}
	runs := map[string]*Run{
		"a1": {Ranked: []string{"x"}},      // rank 1
		"a2": {Ranked: []string{"q", "y"}}, // rank 2
		"b1": {Ranked: []string{"q", "r", "s", "t", "u", "z"}},
		"n1": {Ranked: []string{"z"}},
	}
	byRepo := groupScores(insts, runs, func(in Instance) string { return in.Repo })
	if len(byRepo) != 2 || byRepo[0].Name != "o/a" || byRepo[1].Name != "o/b" {
		t.Fatalf("groups by repo = %+v, want o/a then o/b", byRepo)
	}
	a, b := byRepo[0].Figures, byRepo[1].Figures
	if a.N != 2 || a.Acc[1] != 0.5 || a.Acc[3] != 1 || a.MRR != 0.75 {
		t.Errorf("o/a: n %d, Acc@1 %v, Acc@3 %v, MRR %v; want 2, 0.5, 1, 0.75", a.N, a.Acc[1], a.Acc[3], a.MRR)
	}
	if b.N != 2 || b.Acc[5] != 0.5 || b.Acc[10] != 1 {
		t.Errorf("o/b: n %d, Acc@5 %v, Acc@10 %v; want 2, 0.5, 1", b.N, b.Acc[5], b.Acc[10])
	}
	byLang := groupScores(insts, runs, func(in Instance) string { return in.Language })
	if len(byLang) != 2 || byLang[0].Name != "c" || byLang[0].Figures.N != 1 || byLang[1].Figures.N != 2 {
		t.Errorf("groups by language = %+v, want c (1) then go (2)", byLang)
	}
	if g := groupScores(insts[:2], runs, func(in Instance) string { return in.Repo }); g != nil {
		t.Errorf("one repository gave groups %+v, want none", g)
	}
	var sb strings.Builder
	if err := WriteTable(&sb, &Summary{Instances: 4, Hone: Score(insts, runs), ByRepo: byRepo, ByLanguage: byLang}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"by language (hone):", "by repository (hone):", "o/b", "50.0"} {
		if !strings.Contains(sb.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, sb.String())
		}
	}
}

func TestGroupByLength(t *testing.T) {
	long := strings.Repeat("word ", 40)
	insts := []Instance{
		{ID: "s1", Problem: "Fix the token expiry bug", Gold: []string{"x"}},                              // 5 words
		{ID: "m1", Problem: "Add rate limiting to the API endpoints of the gateway", Gold: []string{"y"}}, // 10
		{ID: "l1", Problem: long, Gold: []string{"z"}},                                                    // 40
		{ID: "s2", Problem: "Exempt OPTIONS from CSRF", Gold: []string{"w"}},                              // 4
	}
	runs := map[string]*Run{
		"s1": {Ranked: []string{"x"}},
		"s2": {Ranked: []string{"q", "w"}},
		"m1": {Ranked: []string{"y"}},
		"l1": {Ranked: []string{"q", "r", "s", "t", "u", "z"}},
	}
	gs := groupByLength(insts, runs)
	var names []string
	for _, g := range gs {
		names = append(names, fmt.Sprintf("%s:%d", g.Name, g.Figures.N))
	}
	// Shortest first, not in name order ("31-100" sorts before "6-10").
	if want := []string{"1-5 words:2", "6-10 words:1", "31-100 words:1"}; !slices.Equal(names, want) {
		t.Fatalf("groups by length = %v, want %v", names, want)
	}
	if a := gs[0].Figures; a.Acc[1] != 0.5 || a.Acc[3] != 1 {
		t.Errorf("1-5 words: Acc@1 %v, Acc@3 %v; want 0.5, 1", a.Acc[1], a.Acc[3])
	}
	var sb strings.Builder
	if err := WriteTable(&sb, &Summary{Instances: 4, Hone: Score(insts, runs), ByLength: gs}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "by task length (hone):") || !strings.Contains(sb.String(), "6-10 words") {
		t.Errorf("table lacks the task-length groups:\n%s", sb.String())
	}
}
