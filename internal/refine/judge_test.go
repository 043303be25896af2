package refine

import (
	"context"
	"slices"
	"testing"

	"github.com/hone-dev/hone/loop"
)

// TestJudgeSays: what a judge that reads code says reaches the next query:
// its terms as task-weight keywords with their definitions as focus areas,
// its requests (a definition, callers, a path pattern), and, with
// Neighbours, what the files it found relevant import or are imported by
// (not those of files it found only related: BENCHMARKS.md, a judge that
// uses the middle of the scale).
func TestJudgeSays(t *testing.T) {
	ix := openFixture(t)
	text := "Login answers too many requests"
	r, _, _ := newRefiner(t, ix, text, Options{NoAssociations: true, Neighbours: true})
	q0, err := r.Initial(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	in := loop.RefineInput{Task: text, Cycle: 1, Query: q0,
		Evaluations: []loop.Evaluation{
			{Path: "app/api/views.py", Relevance: 0.8, Terms: []string{"Throttle", "Throttle", "x"}},
			{Path: "app/misc/m1.py", Relevance: 0.1, Terms: []string{"refill"}},
		},
		Judged:   map[string]loop.Evaluation{"app/api/views.py": {}, "app/misc/m1.py": {}},
		Requests: []string{"definition of SessionStore", "callers of is_expired", "path:app/auth/**"},
	}
	q, ref, err := r.Refine(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		term   string
		weight float64
	}{{"throttle", JudgeTermWeight}, {"refill", JudgeTermWeight}, {"sessionstore", RequestWeight}, {"is_expired", RequestWeight}} {
		k, ok := keyword(q.Keywords, want.term)
		if !ok || k.Weight != want.weight {
			t.Errorf("keyword %q = %+v (present %v), want weight %v", want.term, k, ok, want.weight)
		}
	}
	if _, ok := keyword(q.Keywords, "x"); ok {
		t.Error("a one-letter term became a keyword")
	}
	for _, f := range []string{"symbol:Throttle", "symbol:SessionStore", "file:app/api/throttle.py", "file:app/auth/tokens.py"} {
		if !slices.Contains(q.FocusAreas, f) {
			t.Errorf("focus %q missing: %v", f, q.FocusAreas)
		}
	}
	if slices.Contains(q.FocusAreas, "symbol:is_expired") {
		t.Error("callers of is_expired asked for its definition")
	}
	if !slices.Contains(q.Patterns, "app/auth/**") {
		t.Errorf("the requested pattern is missing: %v", q.Patterns)
	}
	if len(ref.Why) < 3 {
		t.Errorf("the refinement does not say why: %v", ref.Why)
	}
	// A file judged only related (0.5-0.7) brings no neighbours.
	related := in
	related.Evaluations = append([]loop.Evaluation(nil), in.Evaluations...)
	related.Evaluations[0].Relevance = 0.6
	q3, _, err := r.Refine(context.Background(), related)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"file:app/api/throttle.py", "file:app/auth/tokens.py"} {
		if slices.Contains(q3.FocusAreas, f) {
			t.Errorf("a file judged related brought its neighbour %s", f)
		}
	}
	// Without Neighbours (hone's own evaluator re-scores): no neighbour focus.
	r2, _, _ := newRefiner(t, ix, text, Options{NoAssociations: true})
	q2, _, _ := r2.Refine(context.Background(), in)
	if slices.Contains(q2.FocusAreas, "file:app/auth/tokens.py") {
		t.Error("neighbours offered without Options.Neighbours")
	}
}
