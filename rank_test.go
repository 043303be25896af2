package hone_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/bench"
)

// TestRankStats guards ranking quality on the fixture repositories the way
// zoekt's rank_stats.txt does: it runs every case of a set of cases
// (testdata/rank/cases.jsonl, the TypeScript fixtures; contoso.jsonl, the
// C# ones) and compares the summary (Acc@k, MRR, selection) with the
// committed golden file beside it. A change to ranking shows up as a diff to
// review; refresh with -update.
func TestRankStats(t *testing.T) {
	for _, set := range []struct{ cases, summary string }{
		{"cases.jsonl", "summary.txt"},
		{"contoso.jsonl", "contoso-summary.txt"},
	} {
		t.Run(set.cases, func(t *testing.T) { rankStats(t, set.cases, set.summary) })
	}
}

func rankStats(t *testing.T, casesFile, summaryFile string) {
	f, err := os.Open(filepath.Join("testdata", "rank", casesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type rankCase struct {
		Repo, Task string
		Gold       []string
	}
	var cases []rankCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c rankCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", casesFile, err)
		}
		cases = append(cases, c)
	}
	repos := map[string]*hone.Repo{}
	var acc [4]float64
	var mrr, prec, recall, files float64
	var lines []string
	for _, c := range cases {
		repo := repos[c.Repo]
		if repo == nil {
			repo = open(t, filepath.Join("testdata", c.Repo))
			repos[c.Repo] = repo
		}
		res, err := repo.Retrieve(context.Background(), c.Task, hone.RetrieveOptions{})
		if err != nil {
			t.Fatalf("Retrieve(%q): %v", c.Task, err)
		}
		ranked := paths(res.Ranked)
		sel := paths(res.Files)
		for i, k := range []int{1, 3, 5, 10} {
			acc[i] += bench.AccAt(ranked, c.Gold, k)
		}
		rr := bench.ReciprocalRank(ranked, c.Gold)
		mrr += rr
		prec += bench.SetPrecision(sel, c.Gold)
		recall += bench.SetRecall(sel, c.Gold)
		files += float64(len(sel))
		first := strings.SplitN(c.Task, "\n", 2)[0]
		lines = append(lines, fmt.Sprintf("%-18s rr=%.2f files=%d gold=%d/%d  %.60s", c.Repo, rr, len(sel),
			int(bench.SetRecall(sel, c.Gold)*float64(len(c.Gold))+0.5), len(c.Gold), first))
	}
	n := float64(len(cases))
	var b strings.Builder
	fmt.Fprintf(&b, "cases %d\nAcc@1 %.3f\nAcc@3 %.3f\nAcc@5 %.3f\nAcc@10 %.3f\nMRR %.3f\nselected precision %.3f\nselected recall %.3f\nmean files selected %.2f\n\n",
		len(cases), acc[0]/n, acc[1]/n, acc[2]/n, acc[3]/n, mrr/n, prec/n, recall/n, files/n)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	golden(t, filepath.Join("testdata", "rank", summaryFile), []byte(b.String()))
}
