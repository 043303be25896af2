package hone_test

import (
	"context"
	"slices"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// pageRecorder is a judge that rates every file 0.1 and records what each
// cycle offered it.
type pageRecorder struct{ pages [][]loop.Candidate }

func (p *pageRecorder) Evaluate(_ context.Context, in loop.EvalInput) ([]loop.Evaluation, error) {
	p.pages = append(p.pages, in.Candidates)
	out := make([]loop.Evaluation, len(in.Candidates))
	for i, c := range in.Candidates {
		out[i] = loop.Evaluation{Path: c.Path, Relevance: 0.1, Reason: "recorded"}
	}
	return out, nil
}

// A judge plugged into Retrieve (an LLM evaluator, a library caller's own)
// reads hone's own final ranking first, as a judge over MCP does, and each
// candidate carries hone's evidence: not the first query's raw search
// order, where a file hone's refined cycles find never shows.
func TestRetrieveJudgeReadsHonesRanking(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ dir, task string }{
		{"testdata/campus-portal", "Fix the enrollment date validation bug"},
		{"testdata/api-gateway", "Add rate limiting to API endpoints"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			repo := open(t, tc.dir)
			const page = 3
			own, err := repo.Retrieve(ctx, tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(own.Ranked) < 2*page {
				t.Fatalf("hone ranked %d files: too few to page", len(own.Ranked))
			}
			// The search's own order, which a judge read before.
			raw, err := repo.Search(ctx, own.Cycles[0].Query, page)
			if err != nil {
				t.Fatal(err)
			}
			rec := &pageRecorder{}
			if _, err := repo.Retrieve(ctx, tc.task, hone.RetrieveOptions{Evaluator: rec, Loop: loop.Options{Candidates: page, MaxCycles: 2}}); err != nil {
				t.Fatal(err)
			}
			if len(rec.pages) != 2 {
				t.Fatalf("the judge was asked %d times, want 2", len(rec.pages))
			}
			want := paths(own.Ranked[:page])
			var got []string
			for _, cand := range rec.pages[0] {
				got = append(got, cand.Path)
				if cand.EvidenceBrief() == "" {
					t.Errorf("%s carries no evidence of hone's", cand.Path)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("cycle 1 offered %v, want hone's first %d ranked files %v", got, page, want)
			}
			// The next page brings files not judged yet, besides the second
			// looks hone's evidence asks for.
			for _, cand := range rec.pages[1] {
				if slices.Contains(got, cand.Path) && !cand.SecondLook() {
					t.Errorf("cycle 2 offered %s again, not as a second look", cand.Path)
				}
			}
			var first []string
			for _, c := range raw {
				first = append(first, c.Path)
			}
			slices.Sort(first)
			top := paths(own.Ranked[:page])
			slices.Sort(top)
			if slices.Equal(first, top) {
				t.Logf("note: the search's first page is hone's here too (%v)", top)
			}
		})
	}
}
