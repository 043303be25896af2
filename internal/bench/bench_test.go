package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
)

// synthMirror builds a small Python repository over two commits and a bare
// mirror of it at root/acme+shop/repo; it returns the two commits.
func synthMirror(t *testing.T, root string) (string, string) {
	src := t.TempDir()
	testrepo.Git(t, src, "init", "-q", "-b", "main")
	testrepo.WriteFiles(t, src, map[string]string{
		"shop/__init__.py": "",
		"shop/cart.py": `class Cart:
    def __init__(self):
        self.items = []

    def add_item(self, item, quantity=1):
        self.items.append((item, quantity))

    def total_price(self):
        return sum(i.price * q for i, q in self.items)
`,
		"shop/payment.py": `from shop.cart import Cart

def charge_card(card_number, amount):
    """Charge a credit card with the amount."""
    if amount <= 0:
        raise ValueError("amount must be positive")
    return {"card": card_number, "amount": amount}
`,
		"shop/shipping.py": `def shipping_cost(weight_kg, country):
    """Shipping cost of a parcel by weight and destination country."""
    base = 5.0
    return base + weight_kg * 1.5
`,
		"tests/test_cart.py": `from shop.cart import Cart

def test_total_price():
    assert Cart().total_price() == 0
`,
		"README.md": "# shop\nA tiny shop.\n",
	})
	testrepo.Git(t, src, "add", "-A")
	t.Setenv("GIT_COMMITTER_DATE", "2020-01-01T00:00:00Z")
	testrepo.Git(t, src, "commit", "-q", "-m", "one")
	c1 := testrepo.Git(t, src, "rev-parse", "HEAD")
	testrepo.WriteFiles(t, src, map[string]string{
		"shop/discount.py": `def apply_discount(price, coupon_code):
    """Apply a coupon discount code to a price."""
    if coupon_code == "HALF":
        return price / 2
    return price
`,
		"shop/shipping.py": `def shipping_cost(weight_kg, country):
    """Shipping cost of a parcel by weight and destination country."""
    base = 5.0 if country == "US" else 12.0
    return base + weight_kg * 1.5
`,
	})
	if err := os.Remove(filepath.Join(src, "README.md")); err != nil {
		t.Fatal(err)
	}
	testrepo.Git(t, src, "add", "-A")
	t.Setenv("GIT_COMMITTER_DATE", "2021-01-01T00:00:00Z")
	testrepo.Git(t, src, "commit", "-q", "-m", "two")
	c2 := testrepo.Git(t, src, "rev-parse", "HEAD")
	if err := os.MkdirAll(filepath.Join(root, "acme+shop"), 0o755); err != nil {
		t.Fatal(err)
	}
	testrepo.Git(t, root, "clone", "-q", "--bare", src, filepath.Join(root, "acme+shop", "repo"))
	return c1, c2
}

// withBuild returns c with its build time set to ms (to compare coverages).
func (c PackCoverage) withBuild(ms float64) PackCoverage {
	c.BuildMs = ms
	return c
}

func TestBenchEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	c1, c2 := synthMirror(t, root)
	line := func(id, commit, task string, gold ...string) string {
		b, _ := json.Marshal(map[string]any{"instance_id": id, "repo": "acme/shop", "mirror_repo": "acme/shop",
			"base_commit": commit, "problem_statement": task, "gold_files": gold, "version": "1.0",
			"gold_hunks": []Hunk{{Path: gold[0], Lines: []int{3}}}})
		return string(b)
	}
	// Listed newest first: the runner orders by commit date itself.
	data := line("acme__shop-2", c2, "The coupon discount code HALF in apply_discount should not apply to shipping cost", "shop/discount.py") + "\n" +
		line("acme__shop-1", c1, "charge_card accepts a negative amount for the credit card payment", "shop/payment.py") + "\n"
	insts, err := ReadInstances(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	out := filepath.Join(t.TempDir(), "pred.jsonl")
	var events []Event
	opts := Options{MirrorRoot: root, WorkDir: work, Out: out, Baseline: true, Explain: 2, PackBudgets: []int{50, 2000},
		Open:     hone.Options{CacheDir: filepath.Join(work, "cache")},
		Progress: func(e Event) { events = append(events, e) }}
	ctx := context.Background()
	s, err := Bench(ctx, insts, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || events[0].Instance.ID != "acme__shop-1" || events[1].Done != 2 {
		t.Errorf("events = %+v, want acme__shop-1 then acme__shop-2", events)
	}
	preds := readLines(t, out)
	if len(preds) != 2 {
		t.Fatalf("%d prediction lines, want 2", len(preds))
	}
	for _, p := range preds {
		if p.Error != "" {
			t.Fatalf("%s: %s", p.ID, p.Error)
		}
		if len(p.Ranked) == 0 || p.Cycles < 1 || p.Stopped == "" || p.Baseline == nil || len(p.Baseline.Ranked) == 0 {
			t.Errorf("prediction %+v is incomplete", p)
		}
		// --explain 2: the reasons of the first two ranked files, of the default run only.
		if want := min(2, len(p.Ranked)); len(p.Reasons) != want || p.Reasons[0] == "" || len(p.Baseline.Reasons) != 0 {
			t.Errorf("%s: reasons %q (baseline %q), want %d of the default run", p.ID, p.Reasons, p.Baseline.Reasons, want)
		}
	}
	// Packs at both budgets: at 2000 tokens the small gold file is shown
	// whole, its edit line with it; 50 tokens hold no file.
	for _, p := range preds {
		if len(p.Packs) != 2 || p.Packs[0].Budget != 50 || p.Packs[1].Budget != 2000 {
			t.Fatalf("%s: packs %+v, want budgets 50 and 2000", p.ID, p.Packs)
		}
		if c := p.Packs[1]; !c.FilesCovered || !c.HunksCovered || c.LineShare != 1 || c.Tokens > 2000 || c.Tokens == 0 {
			t.Errorf("%s: pack at 2000 tokens %+v, want the gold hunk shown", p.ID, c)
		}
		if c := p.Packs[0]; c.Tokens > 50 || c.HunksCovered {
			t.Errorf("%s: pack at 50 tokens %+v, want at most 50 tokens and no hunk", p.ID, c)
		}
	}
	if len(s.Hone.Packs) != 2 || s.Hone.Packs[1].HunksCovered != 1 || s.Hone.Packs[1].HunkN != 2 {
		t.Errorf("pack figures %+v", s.Hone.Packs)
	}
	if preds[0].Checkout != "fresh" || preds[1].Checkout != "switch" {
		t.Errorf("checkouts = %q, %q; want fresh, switch", preds[0].Checkout, preds[1].Checkout)
	}
	// The tree holds the second commit exactly: discount.py is there, README.md gone.
	tree := filepath.Join(work, "acme+shop", "tree")
	if _, err := os.Stat(filepath.Join(tree, "shop", "discount.py")); err != nil {
		t.Errorf("after the switch: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tree, "README.md")); !os.IsNotExist(err) {
		t.Errorf("README.md survived the switch: %v", err)
	}
	if s.Hone.N != 2 || s.Baseline == nil || s.Baseline.N != 2 || s.Ran != 2 {
		t.Errorf("summary = %+v", s)
	}
	for _, p := range preds {
		gold := map[string]string{"acme__shop-1": "shop/payment.py", "acme__shop-2": "shop/discount.py"}[p.ID]
		if p.Ranked[0] != gold {
			t.Logf("%s: ranked %v, gold %s", p.ID, p.Ranked, gold)
		}
	}
	if _, err := os.Stat(SummaryPath(out)); err != nil {
		t.Errorf("no summary: %v", err)
	}

	// Resume: nothing is redone, the summary is the same.
	events = nil
	s2, err := Bench(ctx, insts, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 0 || s2.Ran != 0 || s2.Resumed != 2 {
		t.Errorf("resumed run ran %d instances (events %d), resumed %d; want 0, 0, 2", s2.Ran, len(events), s2.Resumed)
	}
	if len(readLines(t, out)) != 2 {
		t.Errorf("resumed run appended lines")
	}
	if s2.Hone.MRR != s.Hone.MRR || s2.Hone.Acc[1] != s.Hone.Acc[1] {
		t.Errorf("resumed summary %+v differs from %+v", s2.Hone, s.Hone)
	}

	// Asking for the ablation redoes both; the tree is switched back to c1.
	opts.Ablate = true
	s3, err := Bench(ctx, insts, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s3.Ran != 2 || len(s3.Ablation) != len(Ladder) {
		t.Errorf("ablation run: ran %d, %d rows", s3.Ran, len(s3.Ablation))
	}
	if len(s3.ByCycles) != 3 || s3.ByCycles[0].Name != "1" || s3.ByCycles[0].Figures.MeanCycles != 1 || len(s3.ByCycles[0].Figures.Packs) != 2 {
		t.Errorf("by cycles: %+v, want 1, 2 and 3 cycles with packs", s3.ByCycles)
	}
	preds = readLines(t, out)
	if len(preds) != 4 || preds[2].Ablation["symbols"] == nil {
		t.Errorf("after ablation: %d lines, last ablation %v", len(preds), preds[len(preds)-1].Ablation)
	}
}

// TestBenchRelativeDirs runs with the mirror root and work directory given
// relative to the working directory (git runs inside the work trees, so they
// must be made absolute) and keeps the packs in a folder.
func TestBenchRelativeDirs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base := t.TempDir()
	_, c2 := synthMirror(t, filepath.Join(base, "mirrors"))
	t.Chdir(base)
	b, _ := json.Marshal(map[string]any{"instance_id": "acme__shop-2", "repo": "acme/shop", "mirror_repo": "acme/shop",
		"base_commit": c2, "problem_statement": "The coupon discount code HALF in apply_discount should not apply to shipping cost",
		"gold_files": []string{"shop/discount.py"}, "gold_hunks": []Hunk{{Path: "shop/discount.py", Lines: []int{3}}}})
	insts, err := ReadInstances(strings.NewReader(string(b) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{MirrorRoot: "mirrors", WorkDir: "work", Out: "pred.jsonl", PackBudgets: []int{2000}, PackDir: "packs"}
	if _, err := Bench(context.Background(), insts, opts); err != nil {
		t.Fatal(err)
	}
	preds := readLines(t, filepath.Join(base, "pred.jsonl"))
	if len(preds) != 1 || preds[0].Error != "" || len(preds[0].Ranked) == 0 {
		t.Fatalf("predictions %+v, want one without error", preds)
	}
	pack, err := os.ReadFile(filepath.Join(base, "packs", "acme__shop-2.2000.md"))
	if err != nil {
		t.Fatal(err)
	}
	if c := Cover(string(pack), 2000, insts[0].Gold, insts[0].GoldHunks); c != preds[0].Packs[0].withBuild(c.BuildMs) {
		t.Errorf("the kept pack covers %+v, the run measured %+v", c, preds[0].Packs[0])
	}
}

func TestBenchMissingMirror(t *testing.T) {
	insts := []Instance{{ID: "x-1", Repo: "no/such", BaseCommit: "abc", Problem: "p", Gold: []string{"a.py"}}}
	out := filepath.Join(t.TempDir(), "p.jsonl")
	s, err := Bench(context.Background(), insts, Options{MirrorRoot: t.TempDir(), WorkDir: t.TempDir(), Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if s.Hone.Failed != 1 || s.Hone.Acc[1] != 0 {
		t.Errorf("summary %+v, want one failure", s.Hone)
	}
	if p := readLines(t, out); len(p) != 1 || !strings.Contains(p[0].Error, "no mirror of no/such") {
		t.Errorf("lines %+v, want an error line", p)
	}
}

// A second bench on a work directory in use fails at once and writes
// nothing: it would clear the first run's work trees under it.
func TestBenchWorkDirInUse(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no advisory lock on this platform")
	}
	work := t.TempDir()
	unlock, err := lockWorkDir(work)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	insts := []Instance{{ID: "x-1", Repo: "no/such", BaseCommit: "abc", Problem: "p", Gold: []string{"a.py"}}}
	out := filepath.Join(t.TempDir(), "p.jsonl")
	_, err = Bench(context.Background(), insts, Options{MirrorRoot: t.TempDir(), WorkDir: work, Out: out})
	if err == nil || !strings.Contains(err.Error(), "in use by another hone bench") {
		t.Fatalf("err %v, want the work directory in use", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a run that did not start wrote %s", out)
	}
	unlock()
	if _, err := Bench(context.Background(), insts, Options{MirrorRoot: t.TempDir(), WorkDir: work, Out: out}); err != nil {
		t.Errorf("after the first run let go: %v", err)
	}
}

// The default work directory follows $HONE_CACHE_DIR, as the index cache
// does.
func TestBenchWorkDirFollowsCacheDir(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("HONE_CACHE_DIR", cache)
	insts := []Instance{{ID: "x-1", Repo: "no/such", BaseCommit: "abc", Problem: "p", Gold: []string{"a.py"}}}
	out := filepath.Join(t.TempDir(), "p.jsonl")
	if _, err := Bench(context.Background(), insts, Options{MirrorRoot: t.TempDir(), Out: out}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cache, "bench", "bench.lock")); err != nil {
		t.Errorf("work directory not under $HONE_CACHE_DIR: %v", err)
	}
}

func TestReadPredictionsTornLine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(out, []byte(`{"instance_id":"a","ranked_files":["x"]}`+"\n"+`{"instance_id":"b","rank`), 0o644); err != nil {
		t.Fatal(err)
	}
	preds, err := readPredictions(out, nil2())
	if err != nil || len(preds) != 1 || preds["a"] == nil {
		t.Fatalf("readPredictions = %v, %v", preds, err)
	}
	b, _ := os.ReadFile(out)
	if !strings.HasSuffix(string(b), "]}\n") {
		t.Errorf("file not cut after the last good line: %q", b)
	}
}

func readLines(t *testing.T, path string) []Prediction {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Prediction
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var p Prediction
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		out = append(out, p)
	}
	return out
}

func nil2() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestMirrorLayouts: a mirror is a bare repository or a clone with a work
// tree, at owner+name/repo or at owner+name; each can be checked out.
func TestMirrorLayouts(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	src := t.TempDir()
	testrepo.Git(t, src, "init", "-q", "-b", "main")
	testrepo.WriteFiles(t, src, map[string]string{"shop/cart.py": "class Cart:\n    pass\n"})
	testrepo.Git(t, src, "add", "-A")
	testrepo.Git(t, src, "commit", "-q", "-m", "one")
	commit := testrepo.Git(t, src, "rev-parse", "HEAD")
	tests := []struct {
		name    string
		clone   []string // git clone flags
		at      string   // where under owner+name ("" for itself)
		wantDir string   // the git directory found, under owner+name
	}{
		{"bare at repo", []string{"--bare"}, "repo", "repo"},
		{"bare at the top", []string{"--bare"}, "", ""},
		{"clone at repo", nil, "repo", "repo/.git"},
		{"clone at the top", nil, "", ".git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			base := filepath.Join(root, "acme+shop")
			testrepo.Git(t, root, append(append([]string{"clone", "-q"}, tt.clone...), src, filepath.Join(base, tt.at))...)
			got, err := mirrorDir(root, "acme/shop")
			if want := filepath.Join(base, filepath.FromSlash(tt.wantDir)); err != nil || got != want {
				t.Fatalf("mirrorDir = %q, %v; want %q", got, err, want)
			}
			tr := newTree(got, filepath.Join(t.TempDir(), "work"))
			if how, _, err := tr.Checkout(context.Background(), commit); err != nil || how != "fresh" {
				t.Fatalf("Checkout(%s) = %q, %v; want a fresh checkout", commit, how, err)
			}
			if _, err := os.Stat(filepath.Join(tr.Root(), "shop", "cart.py")); err != nil {
				t.Errorf("after the checkout: %v", err)
			}
		})
	}
	if _, err := mirrorDir(t.TempDir(), "acme/shop"); err == nil || !strings.Contains(err.Error(), "repo/.git") {
		t.Errorf("mirrorDir of nothing = %v, want an error naming the places looked at", err)
	}
}
