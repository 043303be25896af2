package bench

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

func TestParseJudge(t *testing.T) {
	tests := []struct {
		in      string
		want    *Judge
		wantErr bool
	}{
		{"", nil, false},
		{"none", nil, false},
		{"oracle", &Judge{}, false},
		{"oracle:0", &Judge{}, false},
		{"oracle:0.2", &Judge{Flip: 0.2}, false},
		{"oracle:0.5", &Judge{Flip: 0.5}, false},
		{"oracle:0.51", nil, true},
		{"oracle:-0.1", nil, true},
		{"oracle:NaN", nil, true},
		{"oracle:", nil, true},
		{"none:0.2", nil, true},
		{"llm", nil, true},
		{"oracle+done", &Judge{Done: true}, false},
		{"oracle+done:0.2", &Judge{Flip: 0.2, Done: true}, false},
		{"oracle+done:0.6", nil, true},
		{"oracle+", nil, true},
		{"oracle+related", &Judge{Related: true}, false},
		{"oracle+related+done:0.2", &Judge{Flip: 0.2, Done: true, Related: true}, false},
		{"oracle+done+related", &Judge{Done: true, Related: true}, false},
		{"oracle+done+done", nil, true},
		{"oracle+wise", nil, true},
		{"related+oracle", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseJudge(tt.in)
		if (err != nil) != tt.wantErr || !cmp.Equal(got, tt.want) {
			t.Errorf("ParseJudge(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestOracleJudge(t *testing.T) {
	var cands []loop.Candidate
	for i := range 40 {
		cands = append(cands, loop.Candidate{Path: fmt.Sprintf("f%02d.py", i)})
	}
	gold := []string{"f03.py", "f17.py"}
	seed := Seed("acme__shop-7")

	perfect, flipped := newOracle(gold, 0, seed).judge(cands)
	if flipped != 0 || len(perfect) != len(cands) {
		t.Fatalf("perfect oracle: %d evaluations, %d flipped; want %d, 0", len(perfect), flipped, len(cands))
	}
	for _, e := range perfect {
		want, reason := OracleOther, "oracle: not gold"
		if slices.Contains(gold, e.Path) {
			want, reason = OracleGold, "oracle: gold"
		}
		if e.Relevance != want || e.Reason != reason {
			t.Errorf("perfect oracle judged %s %v %q, want %v %q", e.Path, e.Relevance, e.Reason, want, reason)
		}
	}

	half1, n1 := newOracle(gold, 0.5, seed).judge(cands)
	half2, n2 := newOracle(gold, 0.5, seed).judge(cands)
	if diff := cmp.Diff(half1, half2); diff != "" || n1 != n2 {
		t.Errorf("oracle:0.5 with one seed judged differently twice (%d, %d flipped):\n%s", n1, n2, diff)
	}
	changed := 0
	for i := range half1 {
		if half1[i].Relevance != perfect[i].Relevance {
			changed++
		}
	}
	// 40 fair coins: 20 expected; the seed is fixed, so the count is too.
	if changed != n1 || n1 < 10 || n1 > 30 {
		t.Errorf("oracle:0.5 turned over %d judgments (reported %d) of 40, want about 20", changed, n1)
	}
	graded := newOracle(gold, 0, seed)
	graded.related = goldSet([]string{"f05.py", "f17.py"}) // f17 is gold: gold wins
	for _, e := range must(graded.judge(cands)) {
		want := OracleOther
		switch e.Path {
		case "f03.py", "f17.py":
			want = OracleGold
		case "f05.py":
			want = OracleRelated
		}
		if e.Relevance != want {
			t.Errorf("graded oracle judged %s %v, want %v", e.Path, e.Relevance, want)
		}
	}

	other, _ := newOracle(gold, 0.5, Seed("acme__shop-8")).judge(cands)
	if cmp.Equal(other, half1) {
		t.Errorf("two instance ids drew the same 40 coins")
	}
}

// TestScoreOracle checks the per-cycle figures and the pages baseline on
// hand-made sessions and rankings.
func TestScoreOracle(t *testing.T) {
	insts := []Instance{
		{ID: "a", Gold: []string{"g.py"}},
		{ID: "b", Gold: []string{"g1.py", "g2.py"}},
		{ID: "c", Gold: []string{"g.py"}}, // failed
	}
	runs := map[string]*Run{
		// a: gold at rank 3; b: g1 at 2, g2 at 20.
		"a": {Ranked: []string{"x", "y", "g.py", "z"}},
		"b": {Ranked: append([]string{"x", "g1.py"}, append(slices.Repeat([]string{"y"}, 17), "g2.py")...)},
	}
	sessions := map[string]*OracleRun{
		"a": {Cycles: []OracleCycle{{Offered: 2, Distinct: 2, Gold: 0, Tokens: 100}, {Offered: 4, Distinct: 3, Gold: 1, Tokens: 150}},
			Files: []string{"g.py"}, Stopped: "cycle 2: reached --cycles 2 with 1 of 3 files at or above 0.70"},
		"b": {Cycles: []OracleCycle{{Offered: 15, Distinct: 15, Gold: 1, Tokens: 1000}},
			Files: []string{"g1.py", "x"}, Stopped: "cycle 1: 3 files at or above 0.70 and no critical gap",
			Packs: []PackCoverage{{Budget: 8000, FilesCovered: false, Tokens: 7000}}},
	}
	sessions["a"].Packs = []PackCoverage{{Budget: 8000, FilesCovered: true, Tokens: 5000}}
	f := ScoreOracle(Judge{Flip: 0.2}, insts, runs, sessions)
	if f.N != 3 || f.Failed != 1 || f.Label != "simulated judge (oracle, flip 0.20)" {
		t.Fatalf("N %d, failed %d, label %q", f.N, f.Failed, f.Label)
	}
	want := []OracleCycleFigures{
		// a: nothing by cycle 1, ranking at k=2 misses; b: one of two gold,
		// ranking at k=15 misses g2.
		{Cycle: 1, Running: 2, AllGold: 0, AnyGold: 1.0 / 3, MeanOffered: 8.5, MeanDistinct: 8.5, MeanTokens: 550, MedianTokens: 550, PagesAcc: 0},
		// a: its gold by cycle 2, ranking at k=4 holds it; b carried over.
		{Cycle: 2, Running: 1, AllGold: 1.0 / 3, AnyGold: 2.0 / 3, MeanOffered: 9.5, MeanDistinct: 9, MeanTokens: 575, MedianTokens: 575, PagesAcc: 1.0 / 3},
	}
	if diff := cmp.Diff(want, f.Cycles); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
	// Packs: a holds its gold file, b does not, c failed: 1 of 3.
	if len(f.Packs) != 1 || f.Packs[0].Budget != 8000 || f.Packs[0].FilesCovered != 1.0/3 || f.Packs[0].MeanTokens != 4000 {
		t.Errorf("packs %+v, want one at 8000 covering 1 of 3, mean tokens 4000", f.Packs)
	}
	if f.CycleOneMissed != 2 || f.Recovered != 0.5 {
		t.Errorf("cycle 1 missed %d, recovered %v; want 2, 0.5", f.CycleOneMissed, f.Recovered)
	}
	// Recall: a 1, b 1/2, c 0; precision: a 1, b 1/2, c 0.
	if f.SetRecall != 0.5 || f.SetPrecision != 0.5 || f.MeanCycles != 1.5 {
		t.Errorf("recall %v, precision %v, mean cycles %v; want 0.5, 0.5, 1.5", f.SetRecall, f.SetPrecision, f.MeanCycles)
	}
	wantStops := map[string]int{"cycle N: reached --cycles N with N of N files at or above N": 1, "cycle N: N files at or above N and no critical gap": 1}
	if diff := cmp.Diff(wantStops, f.Stops); diff != "" {
		t.Errorf("stops (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[int]int{1: 1, 2: 1}, f.CyclesUsed); diff != "" {
		t.Errorf("cycles used (-want +got):\n%s", diff)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, &Summary{Oracle: &f}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "simulated judge (oracle, flip 0.20): a SIMULATION") {
		t.Errorf("the table does not label the simulation:\n%s", b.String())
	}
}

// oracleRepo writes a small Python repository: a shop and a few unrelated
// modules, more files than a cycle offers.
func oracleRepo(t *testing.T) *hone.Repo {
	t.Helper()
	files := map[string]string{
		"shop/__init__.py": "",
		"shop/discount.py": `def apply_discount(price, coupon_code):
    """Apply a coupon discount code to a price."""
    if coupon_code == "HALF":
        return price / 2
    return price
`,
		"shop/cart.py": `from shop.discount import apply_discount

class Cart:
    def total_price(self, coupon_code=None):
        total = sum(i.price for i in self.items)
        return apply_discount(total, coupon_code)
`,
		"shop/shipping.py": `def shipping_cost(weight_kg, country):
    """Shipping cost of a parcel by weight and destination country."""
    return 5.0 + weight_kg * 1.5
`,
	}
	for i := range 24 {
		files[fmt.Sprintf("misc/module%02d.py", i)] = fmt.Sprintf(`def helper_%d(price, value):
    """Helper %d: adds the price to a value."""
    return price + value + %d
`, i, i, i)
	}
	root := testrepo.Write(t, files)
	repo, err := hone.Open(context.Background(), root, hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func TestRunOracle(t *testing.T) {
	ctx := context.Background()
	repo := oracleRepo(t)
	in := Instance{ID: "acme__shop-3", Problem: "The coupon discount code HALF in apply_discount gives the wrong price",
		Gold: []string{"shop/discount.py"}}
	res, err := repo.Retrieve(ctx, in.Problem, hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ranked []string
	for _, e := range res.Ranked {
		ranked = append(ranked, e.Path)
	}

	perfect, err := runOracle(ctx, repo, in, Judge{}, ranked, []int{2000})
	if err != nil {
		t.Fatal(err)
	}
	if len(perfect.Cycles) == 0 || perfect.Cycles[0].Gold != 1 {
		t.Fatalf("perfect oracle: cycles %+v, want the gold file offered in cycle 1", perfect.Cycles)
	}
	if !slices.Contains(perfect.Files, "shop/discount.py") {
		t.Errorf("perfect oracle selected %v, want shop/discount.py among them", perfect.Files)
	}
	for _, p := range perfect.Files {
		if p != "shop/discount.py" {
			t.Errorf("perfect oracle selected %s, which is not gold", p)
		}
	}
	last := perfect.Cycles[len(perfect.Cycles)-1]
	if c := perfect.Cycles[0]; c.Offered == 0 || c.Offered > OracleCandidates+2 || c.Tokens == 0 || c.Flipped != 0 {
		t.Errorf("perfect oracle cycle 1: %+v, want up to %d candidates, tokens read and nothing flipped", c, OracleCandidates)
	}
	if last.Distinct > last.Offered || perfect.Stopped == "" || perfect.Seed != Seed(in.ID) {
		t.Errorf("perfect oracle: %+v", perfect)
	}
	if len(perfect.Packs) != 1 || perfect.Packs[0].Budget != 2000 || !perfect.Packs[0].FilesCovered {
		t.Errorf("perfect oracle packs %+v, want one at 2000 tokens holding the gold file", perfect.Packs)
	}
	if want := AccAt(ranked, in.Gold, last.Offered); perfect.PagesAcc != want {
		t.Errorf("pages Acc@%d = %v, want %v", last.Offered, perfect.PagesAcc, want)
	}

	half, err := runOracle(ctx, repo, in, Judge{Flip: 0.5}, ranked, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, err := runOracle(ctx, repo, in, Judge{Flip: 0.5}, ranked, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(half, again); diff != "" {
		t.Errorf("oracle:0.5 ran differently twice (-first +second):\n%s", diff)
	}
	if half.Cycles[0].Flipped == 0 || slices.Equal(half.Files, perfect.Files) {
		t.Errorf("oracle:0.5 flipped %d judgments of cycle 1 and selected %v, like the perfect oracle %v",
			half.Cycles[0].Flipped, half.Files, perfect.Files)
	}
}

// TestBenchOracle runs --judge oracle end to end: the session is recorded in
// the predictions and summarized.
func TestBenchOracle(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	_, c2 := synthMirror(t, root)
	insts := []Instance{{ID: "acme__shop-2", Repo: "acme/shop", BaseCommit: c2,
		Problem: "The coupon discount code HALF in apply_discount should not apply to shipping cost", Gold: []string{"shop/discount.py"}}}
	out := filepath.Join(t.TempDir(), "pred.jsonl")
	opts := Options{MirrorRoot: root, WorkDir: t.TempDir(), Out: out, Judge: &Judge{}}
	s, err := Bench(context.Background(), insts, opts)
	if err != nil {
		t.Fatal(err)
	}
	preds := readLines(t, out)
	if len(preds) != 1 || preds[0].Error != "" || preds[0].Oracle == nil {
		t.Fatalf("predictions %+v, want one with an oracle session", preds)
	}
	o := preds[0].Oracle
	if o.Cycles[0].Gold != 1 || !slices.Contains(o.Files, "shop/discount.py") {
		t.Errorf("oracle session %+v, want the gold offered and selected", o)
	}
	if s.Oracle == nil || s.Oracle.N != 1 || s.Oracle.Cycles[0].AllGold != 1 || s.Oracle.SetRecall != 1 {
		t.Errorf("summary oracle figures %+v", s.Oracle)
	}
	// Another flip probability redoes the instance.
	opts.Judge = &Judge{Flip: 0.2}
	s, err = Bench(context.Background(), insts, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.Ran != 1 || s.Oracle.Flip != 0.2 {
		t.Errorf("oracle:0.2 after oracle: ran %d, flip %v; want 1, 0.2", s.Ran, s.Oracle.Flip)
	}
}

// TestScoreOracleEmpty: a session that offered nothing (the task's query
// matched no file) is not a failure; both count as misses.
func TestScoreOracleEmpty(t *testing.T) {
	insts := []Instance{{ID: "empty", Gold: []string{"g.py"}}, {ID: "failed", Gold: []string{"g.py"}}}
	runs := map[string]*Run{"empty": {Ranked: []string{}}}
	sessions := map[string]*OracleRun{"empty": {Cycles: []OracleCycle{}, Files: []string{}, Stopped: "cycle 1: the query matched no file"}}
	f := ScoreOracle(Judge{}, insts, runs, sessions)
	if f.N != 2 || f.Failed != 1 || f.Empty != 1 || f.SetRecall != 0 {
		t.Errorf("N %d, failed %d, empty %d, recall %v; want 2, 1, 1, 0", f.N, f.Failed, f.Empty, f.SetRecall)
	}
}

// TestRunOracleDone: the judge that follows the protocol says done once it
// has judged relevant as many files as the change touches, and flags a
// critical gap until then, so that the loop's early stops do not end the
// session while it believes files are missing.
func TestRunOracleDone(t *testing.T) {
	ctx := context.Background()
	repo := oracleRepo(t)
	task := "The coupon discount code HALF in apply_discount gives the wrong price"

	one := Instance{ID: "acme__shop-3", Problem: task, Gold: []string{"shop/discount.py"}}
	run, err := runOracle(ctx, repo, one, Judge{Done: true}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Cycles) != 1 || run.Stopped != "cycle 1: the judge says done" || !run.Done || !slices.Equal(run.Files, one.Gold) {
		t.Errorf("one gold file: %d cycles, stopped %q, done %v, files %v; want the judge's done after cycle 1",
			len(run.Cycles), run.Stopped, run.Done, run.Files)
	}

	// A change of two files, one of which no cycle can offer: the judge
	// never has both, so it never says done, and the file it found carries
	// a critical gap the early stops respect.
	two := Instance{ID: "acme__shop-4", Problem: task, Gold: []string{"shop/discount.py", "shop/gone.py"}}
	run, err = runOracle(ctx, repo, two, Judge{Done: true}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, early := range []string{"says done", "nothing related", "hone rates no file left", "files at or above"} {
		if strings.Contains(run.Stopped, early) {
			t.Errorf("a file missing: stopped %q after %d cycles, an early stop", run.Stopped, len(run.Cycles))
		}
	}
	if len(run.Cycles) < 2 || !slices.Equal(run.Files, []string{"shop/discount.py"}) {
		t.Errorf("a file missing: %d cycles, files %v; want every cycle the repository allows and discount.py", len(run.Cycles), run.Files)
	}
}

// TestOracleMissing: the judge believes its own judgments, a false positive
// included.
func TestOracleMissing(t *testing.T) {
	o := newOracle([]string{"a.py", "b.py"}, 0, 1)
	rel := func(p string, r float64) loop.Evaluation { return loop.Evaluation{Path: p, Relevance: r} }
	tests := []struct {
		judged map[string]loop.Evaluation
		evals  []loop.Evaluation
		want   int
	}{
		{map[string]loop.Evaluation{}, nil, 2},
		{map[string]loop.Evaluation{"a.py": rel("a.py", OracleGold)}, []loop.Evaluation{rel("c.py", OracleOther)}, 1},
		// The latest judgment counts: a.py revised down.
		{map[string]loop.Evaluation{"a.py": rel("a.py", OracleGold)}, []loop.Evaluation{rel("a.py", OracleOther)}, 2},
		// A false positive counts as found.
		{map[string]loop.Evaluation{"a.py": rel("a.py", OracleGold)}, []loop.Evaluation{rel("x.py", OracleGold)}, 0},
		{map[string]loop.Evaluation{}, []loop.Evaluation{rel("a.py", OracleGold), rel("b.py", OracleGold), rel("x.py", OracleGold)}, 0},
	}
	for i, tt := range tests {
		if got := o.missing(tt.judged, tt.evals); got != tt.want {
			t.Errorf("case %d: missing %d, want %d", i, got, tt.want)
		}
	}
}

// must drops the count of turned-over judgments.
func must(evals []loop.Evaluation, _ int) []loop.Evaluation { return evals }
