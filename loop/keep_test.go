package loop

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func paths(cs []Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Path
	}
	return out
}

// viaSearcher returns a fixed ranking; focus lists paths a focus area brings.
type viaSearcher struct {
	ranked []string
	focus  []string
	limits []int
}

func (v *viaSearcher) Search(_ context.Context, _ Query, limit int) ([]Candidate, error) {
	v.limits = append(v.limits, limit)
	var out []Candidate
	for i, p := range v.ranked {
		if i < limit {
			out = append(out, Candidate{Path: p, Score: float64(100 - i)})
		}
	}
	for _, p := range v.focus {
		out = append(out, Candidate{Path: p, Via: []string{FocusFile + p}})
	}
	return out, nil
}

// TestSessionKeepsJudgments: without Rejudge a judged file is never offered
// again, each cycle goes down the ranking even when the refinement adds
// nothing, a judgment stands until revised, and a session whose query has
// nothing left to offer stops and says why.
func TestSessionKeepsJudgments(t *testing.T) {
	ctx := context.Background()
	s := &viaSearcher{ranked: []string{"a", "b", "c", "d", "e", "f", "g"}}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{emptyFrom: 1}, Options{Candidates: 3, MaxCycles: 5})
	if err != nil {
		t.Fatal(err)
	}
	var offered [][]string
	judge := map[string]float64{"a": 0.9, "b": 0.1, "c": 0.5, "d": 0.05, "e": 0.75, "f": 0.3, "g": 0.2}
	for {
		cands, err := sess.Dispatch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) == 0 {
			break
		}
		offered = append(offered, paths(cands))
		var evals []Evaluation
		for _, c := range cands {
			evals = append(evals, Evaluation{Path: c.Path, Relevance: judge[c.Path]})
		}
		if len(offered) == 2 { // a second opinion of a would be a re-offer: refused without Revise
			if _, err := sess.Judge(ctx, append(evals, Evaluation{Path: "a", Relevance: 0.1})); err == nil {
				t.Fatal("a judgment of a file of an earlier cycle, not marked Revise, was accepted")
			}
		}
		done, err := sess.Judge(ctx, evals)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
	}
	want := [][]string{{"a", "b", "c"}, {"d", "e", "f"}, {"g"}}
	if diff := cmp.Diff(want, offered); diff != "" {
		t.Errorf("offered per cycle (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{3, 6, 9, 10}, s.limits); diff != "" {
		t.Errorf("searcher limits (-want +got): the judged are asked for on top\n%s", diff)
	}
	done, why := sess.Done()
	if !done || why != "cycle 4: every file the query matches was judged in an earlier cycle" {
		t.Errorf("Done() = %v %q", done, why)
	}
	res := sess.Result()
	if diff := cmp.Diff([]pathRel{{"a", 0.9}, {"e", 0.75}}, summary(res.Files)); diff != "" {
		t.Errorf("Files (-want +got):\n%s", diff)
	}
	for _, c := range res.Cycles {
		if c.Refinement != nil && !strings.Contains(strings.Join(c.Refinement.Why, " "), "further down the same ranking") {
			t.Errorf("cycle %d: an empty refinement does not say the next cycle goes down the ranking: %v", c.N, c.Refinement.Why)
		}
	}
}

// TestSessionRevise: a judge may revise a file of an earlier cycle, and only
// such a file; the revision replaces the judgment.
func TestSessionRevise(t *testing.T) {
	ctx := context.Background()
	sess, err := NewSession(ctx, "task", &viaSearcher{ranked: []string{"a", "b", "c", "d"}}, &fakeRefiner{}, Options{Candidates: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Dispatch(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Judge(ctx, []Evaluation{{Path: "a", Relevance: 0.95}, {Path: "b", Relevance: 0.1}}); err != nil {
		t.Fatal(err)
	}
	cands, err := sess.Dispatch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"c", "d"}, paths(cands)); diff != "" {
		t.Fatalf("cycle 2 offered (-want +got):\n%s", diff)
	}
	if _, err := sess.Judge(ctx, []Evaluation{{Path: "zz", Relevance: 0.9, Revise: true}}); err == nil {
		t.Error("a revision of a file never judged was accepted")
	}
	if _, err := sess.Judge(ctx, []Evaluation{{Path: "c", Relevance: 0.3}, {Path: "b", Relevance: 0.8, Reason: "second look", Revise: true}}); err != nil {
		t.Fatal(err)
	}
	if got := sess.Judged()["b"]; got.Relevance != 0.8 || got.Reason != "second look" {
		t.Errorf("b after its revision = %v %q, want 0.8 %q", got.Relevance, got.Reason, "second look")
	}
	if got := sess.Judged()["a"]; got.Relevance != 0.95 {
		t.Errorf("a = %v: a judgment not revised must stand", got.Relevance)
	}
}

// TestSessionCapsCandidates: the files a focus area brings in count toward
// the limit, and come first; the rest are the best ranked.
func TestSessionCapsCandidates(t *testing.T) {
	ctx := context.Background()
	s := &viaSearcher{ranked: []string{"r1", "r2", "r3", "r4", "r5"}, focus: []string{"named1", "named2"}}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{}, Options{Candidates: 4})
	if err != nil {
		t.Fatal(err)
	}
	cands, err := sess.Dispatch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"r1", "r2", "named1", "named2"}, paths(cands)); diff != "" {
		t.Errorf("candidates (-want +got):\n%s", diff)
	}
	// With Rejudge the searcher's list is offered as it is (hone's local
	// evaluator reads 40 and more cheaply).
	sess, _ = NewSession(ctx, "task", s, &fakeRefiner{}, Options{Candidates: 4, Rejudge: true})
	if cands, _ = sess.Dispatch(ctx); len(cands) != 6 {
		t.Errorf("Rejudge: %d candidates, want the searcher's 6", len(cands))
	}
}

// TestSessionRequest: what the judge asks for reaches the next refinement,
// once.
func TestSessionRequest(t *testing.T) {
	ctx := context.Background()
	r := &fakeRefiner{}
	sess, err := NewSession(ctx, "task", &viaSearcher{ranked: []string{"a", "b", "c"}}, r, Options{Candidates: 1, MaxCycles: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, asks := range [][]string{{"definition of SessionManager", " ", "path:src/auth/**"}, nil} {
		cands, err := sess.Dispatch(ctx)
		if err != nil || len(cands) == 0 {
			t.Fatal(err, cands)
		}
		sess.Request(asks...)
		if _, err := sess.Judge(ctx, []Evaluation{{Path: cands[0].Path, Relevance: 0.5}}); err != nil {
			t.Fatal(err)
		}
		want := []string(nil)
		if i == 0 {
			want = []string{"definition of SessionManager", "path:src/auth/**"}
		}
		if diff := cmp.Diff(want, r.inputs[i].Requests); diff != "" {
			t.Errorf("cycle %d requests (-want +got):\n%s", i+1, diff)
		}
	}
	sess.Stop("the judge has enough context")
	if _, err := sess.Dispatch(ctx); !errors.Is(err, ErrDone) {
		t.Errorf("Dispatch after Stop = %v, want ErrDone", err)
	}
}
