package loop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
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
	judge := map[string]float64{"a": 0.9, "b": 0.1, "c": 0.5, "d": 0.05, "e": 0.75, "f": 0.3, "g": 0.5}
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

// tableEvaluator gives fixed relevances by path: hone's evidence in tests.
type tableEvaluator map[string]float64

func (t tableEvaluator) Evaluate(_ context.Context, in EvalInput) ([]Evaluation, error) {
	var out []Evaluation
	for _, c := range in.Candidates {
		if r, ok := t[c.Path]; ok {
			out = append(out, Evaluation{Path: c.Path, Relevance: r, Reason: tableReason(c.Path, r)})
		}
	}
	return out, nil
}

// tableReason is a tableEvaluator's reason for path at r.
func tableReason(path string, r float64) string {
	return fmt.Sprintf("the table says %s:+%.2f", path, r)
}

// judgeTable judges each candidate at its relevance in rel (0 when absent).
func judgeTable(t *testing.T, sess *Session, cands []Candidate, rel map[string]float64) {
	t.Helper()
	var evals []Evaluation
	for _, c := range cands {
		evals = append(evals, Evaluation{Path: c.Path, Relevance: rel[c.Path]})
	}
	if _, err := sess.Judge(context.Background(), evals); err != nil {
		t.Fatal(err)
	}
}

// TestSessionEvidence: judgments hone's evidence disputes strongly do not
// trip the stop rule; their files are offered once more for a second look
// (first, within the limit), whose judgment stands; at the cycle limit one
// more cycle gives the open second looks and nothing else.
func TestSessionEvidence(t *testing.T) {
	ctx := context.Background()
	s := &viaSearcher{ranked: []string{"gold", "fp1", "fp2", "fp3", "x1", "x2", "x3", "x4", "x5", "x6"}}
	evidence := tableEvaluator{"gold": 0.95, "fp1": 0.3, "fp2": 0.55, "fp3": 0.85, "x1": 0.5, "x2": 0.5, "x3": 0.92, "x4": 0.4, "x5": 0.4, "x6": 0.4}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{}, Options{Candidates: 4, MaxCycles: 2, Evidence: evidence})
	if err != nil {
		t.Fatal(err)
	}
	// Cycle 1: a noisy judge calls three wrong files relevant; the gold one too.
	c1, _ := sess.Dispatch(ctx)
	judgeTable(t, sess, c1, map[string]float64{"gold": 0.95, "fp1": 0.95, "fp2": 0.95, "fp3": 0.95})
	if done, why := sess.Done(); done {
		t.Fatalf("stopped after cycle 1 on false positives the evidence disputes: %s", why)
	}
	c2, _ := sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"fp1", "fp2", "x1", "x2"}, paths(c2)); diff != "" {
		t.Fatalf("cycle 2 (-want +got): the disputed first, then new files\n%s", diff)
	}
	if !strings.HasPrefix(c2[0].Via[0], "second look: judged 0.95, hone's evidence 0.30") {
		t.Errorf("a second look does not say why: %v", c2[0].Via)
	}
	// The second look: fp1 now judged low, fp2 judged high again (it stands).
	judgeTable(t, sess, c2, map[string]float64{"fp1": 0.1, "fp2": 0.9, "x1": 0.1, "x2": 0.1})
	// Three files stand at 0.7 or more, none disputed: done.
	done, why := sess.Done()
	if !done || !strings.Contains(why, "3 files at or above 0.70 and no critical gap") {
		t.Fatalf("Done() = %v %q", done, why)
	}
	got := map[string]float64{}
	for _, f := range sess.Result().Files {
		got[f.Path] = f.Relevance
	}
	if diff := cmp.Diff(map[string]float64{"gold": 0.95, "fp2": 0.9, "fp3": 0.95}, got); diff != "" {
		t.Errorf("Files (-want +got): fp1 revised by its second look, fp2's stands, fp3 undisputed\n%s", diff)
	}

	// At the cycle limit with a dispute open, one more cycle gives only the
	// second look.
	sess, _ = NewSession(ctx, "task", s, &fakeRefiner{}, Options{Candidates: 4, MaxCycles: 1, Evidence: evidence})
	c1, _ = sess.Dispatch(ctx)
	judgeTable(t, sess, c1, map[string]float64{"gold": 0.1, "fp1": 0.1, "fp2": 0.1, "fp3": 0.1})
	c2, _ = sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"gold", "fp3"}, paths(c2)); diff != "" {
		t.Fatalf("the extra cycle (-want +got): the files judged low against evidence of 0.8 or more\n%s", diff)
	}
	judgeTable(t, sess, c2, map[string]float64{"gold": 0.95, "fp3": 0.1})
	if done, why := sess.Done(); !done || !strings.Contains(why, "cycle 2") {
		t.Errorf("after the extra cycle: Done() = %v %q", done, why)
	}
	if f := sess.Result().Files; len(f) != 1 || f[0].Path != "gold" {
		t.Errorf("Files = %v, want the gold file its second look found", f)
	}
}

// TestSessionDisputeBoundary: a file judged relevant is disputed only when
// hone's evidence puts it below DisputeHigh (the default threshold): at 0.75
// both sides call it relevant and it gets no second look; at 0.65 it does. A
// file judged unrelated is disputed from DisputeLow (0.8) up.
func TestSessionDisputeBoundary(t *testing.T) {
	ctx := context.Background()
	s := &viaSearcher{ranked: []string{"agree", "below", "low75", "low85", "x1", "x2", "x3", "x4"}}
	evidence := tableEvaluator{"agree": 0.75, "below": 0.65, "low75": 0.75, "low85": 0.85, "x1": 0.3, "x2": 0.3, "x3": 0.3, "x4": 0.3}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{}, Options{Candidates: 4, MaxCycles: 3, Evidence: evidence})
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"agree", "below", "low75", "low85"}, paths(c1)); diff != "" {
		t.Fatalf("cycle 1 (-want +got)\n%s", diff)
	}
	judgeTable(t, sess, c1, map[string]float64{"agree": 0.9, "below": 0.9, "low75": 0.1, "low85": 0.1})
	c2, _ := sess.Dispatch(ctx)
	var second []string
	for _, c := range c2 {
		if c.SecondLook() {
			second = append(second, c.Path)
		}
	}
	if diff := cmp.Diff([]string{"below", "low85"}, second); diff != "" {
		t.Errorf("second looks (-want +got)\n%s", diff)
	}
}

// TestSessionDoubt: a judge that rates relevant a file hone's evidence puts
// below DoubtBelow, or that turns a judgment over on its second look, is in
// doubt, and from then on a file it rated unrelated gets a second look from
// DisputeLowDoubted on: in the cycle that raised the doubt and in the
// earlier ones alike. A judge that agrees with the evidence wherever it is
// clear gets second looks only from DisputeLow on.
func TestSessionDoubt(t *testing.T) {
	ctx := context.Background()
	evidence := tableEvaluator{"top": 0.9, "mid": 0.75, "a": 0.6, "weak": 0.3, "b": 0.6, "mid2": 0.72, "c": 0.6, "d": 0.6}
	low := func(hi ...string) map[string]float64 { // every file 0.1 but hi, 0.9
		m := map[string]float64{}
		for p := range evidence {
			m[p] = 0.1
		}
		for _, p := range hi {
			m[p] = 0.9
		}
		return m
	}
	tests := []struct {
		name  string
		pages [][]string           // the files of each cycle, in the order offered
		rels  []map[string]float64 // the judge, per cycle
		want  []string             // the second looks of the next cycle, sorted
		doubt string               // in the reason of mid's second look ("": none)
	}{
		{"agreeing judge", [][]string{{"top", "mid", "a", "weak"}}, []map[string]float64{low("top")}, nil, ""},
		{"relevant where the evidence is weak", [][]string{{"top", "mid", "a", "weak"}}, []map[string]float64{low("top", "weak")},
			[]string{"mid", "weak"}, "it judged weak 0.90 where hone's evidence is 0.30"},
		{"a doubt raised later re-checks earlier judgments", [][]string{{"top", "mid", "a", "b"}, {"mid2", "weak", "c", "d"}},
			[]map[string]float64{low("top"), low("weak")},
			[]string{"mid", "mid2", "weak"}, "it judged weak 0.90 where hone's evidence is 0.30"},
		{"a judgment turned over on its second look", [][]string{{"top", "mid", "a", "b"}, {"a", "c", "d", "mid2"}},
			[]map[string]float64{low("top", "a"), low()},
			[]string{"mid", "mid2"}, "it judged a 0.90, then 0.10 on a second look"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ranked []string // the searcher's ranking: the pages' new files, in order
			for _, page := range tt.pages {
				for _, p := range page {
					if !slices.Contains(ranked, p) {
						ranked = append(ranked, p)
					}
				}
			}
			for p := range evidence {
				if !slices.Contains(ranked, p) {
					ranked = append(ranked, p)
				}
			}
			sess, err := NewSession(ctx, "task", &viaSearcher{ranked: ranked}, &fakeRefiner{}, Options{Candidates: 4, MaxCycles: 5, MinFiles: 9, Evidence: evidence})
			if err != nil {
				t.Fatal(err)
			}
			for i, page := range tt.pages {
				cands, _ := sess.Dispatch(ctx)
				if diff := cmp.Diff(page, paths(cands)); diff != "" {
					t.Fatalf("cycle %d (-want +got)\n%s", i+1, diff)
				}
				judgeTable(t, sess, cands, tt.rels[i])
			}
			next, _ := sess.Dispatch(ctx)
			var second []string
			why := ""
			for _, c := range next {
				if c.SecondLook() {
					second = append(second, c.Path)
					if c.Path == "mid" {
						why = c.Via[0]
					}
				}
			}
			sort.Strings(second)
			if diff := cmp.Diff(tt.want, second); diff != "" {
				t.Errorf("second looks (-want +got)\n%s", diff)
			}
			if tt.doubt != "" && !strings.Contains(why, "the judge is in doubt: "+tt.doubt) {
				t.Errorf("mid's second look says %q, want the doubt %q", why, tt.doubt)
			}
		})
	}
}

// TestSessionNothingRelated: once a file reached the threshold, a cycle that
// brings nothing related ends the session (it would only read on).
func TestSessionNothingRelated(t *testing.T) {
	ctx := context.Background()
	sess, _ := NewSession(ctx, "task", &viaSearcher{ranked: []string{"a", "b", "c", "d", "e", "f"}}, &fakeRefiner{}, Options{Candidates: 2, MaxCycles: 3})
	for i, rel := range []map[string]float64{{"a": 0.9, "b": 0.1}, {"c": 0.3, "d": 0.1}} {
		cands, _ := sess.Dispatch(ctx)
		var evals []Evaluation
		for _, c := range cands {
			evals = append(evals, Evaluation{Path: c.Path, Relevance: rel[c.Path]})
		}
		done, err := sess.Judge(ctx, evals)
		if err != nil || done != (i == 1) {
			t.Fatalf("cycle %d: done %v, err %v", i+1, done, err)
		}
	}
	if _, why := sess.Done(); why != "cycle 2 brought nothing related; 1 files at or above 0.70 stand" {
		t.Errorf("Done() = %q", why)
	}
}

// TestSessionPool: with a Pool larger than Candidates, the evidence judges
// the searcher's first Pool files and the best it ranks are offered, a file
// a focus area brought in kept whatever its rank; the next cycle offers the next page of that
// ranking, not the searcher's.
func TestSessionPool(t *testing.T) {
	ctx := context.Background()
	s := &viaSearcher{ranked: []string{"s1", "s2", "s3", "s4", "s5", "s6", "s7"}, focus: []string{"named"}}
	evidence := tableEvaluator{"s1": 0.2, "s2": 0.3, "s3": 0.9, "s4": 0.1, "s5": 0.7, "s6": 0.8, "s7": 0.95, "named": 0.4}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{emptyFrom: 1}, Options{Candidates: 3, Pool: 6, MaxCycles: 3, Evidence: evidence})
	if err != nil {
		t.Fatal(err)
	}
	c1, err := sess.Dispatch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// s7 is beyond the pool of 6: the evidence never sees it in cycle 1.
	if diff := cmp.Diff([]string{"s3", "s6", "named"}, paths(c1)); diff != "" {
		t.Fatalf("cycle 1 (-want +got): the named file kept, the evidence's best of the pool, in its order\n%s", diff)
	}
	for _, c := range c1 {
		if c.Evidence != evidence[c.Path] || c.EvidenceReason != tableReason(c.Path, evidence[c.Path]) {
			t.Errorf("cycle 1 offers %s with evidence %.2f (%q), want the evidence's %.2f and its reason", c.Path, c.Evidence, c.EvidenceReason, evidence[c.Path])
		}
	}
	if s.limits[0] != 6 {
		t.Errorf("cycle 1 asked the searcher for %d files, want the pool of 6", s.limits[0])
	}
	evals := []Evaluation{{Path: "s3", Relevance: 0.9}, {Path: "s6", Relevance: 0.9}, {Path: "named", Relevance: 0.1}}
	if _, err := sess.Judge(ctx, evals); err != nil {
		t.Fatal(err)
	}
	c2, _ := sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"s7", "s5", "s2"}, paths(c2)); diff != "" {
		t.Fatalf("cycle 2 (-want +got): the next page of the evidence's ranking\n%s", diff)
	}

	// Without a pool, the searcher's order stands.
	s = &viaSearcher{ranked: []string{"s1", "s2", "s3", "s4"}}
	sess, _ = NewSession(ctx, "task", s, &fakeRefiner{}, Options{Candidates: 2, Evidence: evidence})
	if c, _ := sess.Dispatch(ctx); !cmp.Equal([]string{"s1", "s2"}, paths(c)) {
		t.Errorf("without Pool: %v, want the searcher's first two", paths(c))
	}
}

// TestSessionPrior: hone's own ranking (Prior) competes with the pool at
// its relevance, which the evidence does not weigh again; a prior file the
// searcher no longer proposes is still offered, and a session whose
// searcher finds nothing goes on with the prior.
func TestSessionPrior(t *testing.T) {
	ctx := context.Background()
	s := &viaSearcher{ranked: []string{"s1", "s2", "s3"}}
	// The evaluator would put p1 low: the prior's 0.9 stands.
	evidence := tableEvaluator{"s1": 0.5, "s2": 0.95, "s3": 0.3, "p1": 0.1}
	prior := []Evaluation{{Path: "p1", Relevance: 0.9, Reason: "defines p1:+0.35"}, {Path: "s3", Relevance: 0.6}, {Path: "p2", Relevance: 0.2}}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{emptyFrom: 1}, Options{Candidates: 2, Pool: 5, MaxCycles: 3, Evidence: evidence, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"s2", "p1"}, paths(c1)); diff != "" {
		t.Fatalf("cycle 1 (-want +got): the pool and the prior ranked together\n%s", diff)
	}
	if c1[1].Evidence != 0.9 || c1[1].EvidenceReason != "defines p1:+0.35" {
		t.Errorf("p1 offered with evidence %.2f (%q), want the prior's 0.90 and its reason", c1[1].Evidence, c1[1].EvidenceReason)
	}
	if _, err := sess.Judge(ctx, []Evaluation{{Path: "s2", Relevance: 0.9}, {Path: "p1", Relevance: 0.9}}); err != nil {
		t.Fatal(err)
	}
	s.ranked = nil // the refined query matches nothing: the prior goes on
	c2, _ := sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"s3", "p2"}, paths(c2)); diff != "" {
		t.Fatalf("cycle 2 (-want +got): the prior's next files\n%s", diff)
	}
}

// TestSessionPriorFocus: with hone's ranking as the prior, a file the task's
// own focus areas bring in competes on its evidence (the evidence read the
// task already); a file a refinement brought in (the judge's terms,
// requests, neighbours) goes first.
func TestSessionPriorFocus(t *testing.T) {
	ctx := context.Background()
	s := &viaSearcher{ranked: []string{"s1", "s2", "s3"}, focus: []string{"named"}}
	evidence := tableEvaluator{"s1": 0.9, "s2": 0.8, "s3": 0.3, "named": 0.2, "nb": 0.1}
	prior := []Evaluation{{Path: "s1", Relevance: 0.9}, {Path: "s2", Relevance: 0.8}, {Path: "named", Relevance: 0.2}}
	r := &fakeRefiner{initial: Query{FocusAreas: []string{FocusFile + "named"}}, emptyFrom: 9}
	sess, err := NewSession(ctx, "task", s, r, Options{Candidates: 2, Pool: 5, MaxCycles: 3, Evidence: evidence, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"s1", "s2"}, paths(c1)); diff != "" {
		t.Fatalf("cycle 1 (-want +got): the task's named file competes on its evidence\n%s", diff)
	}
	// The judge names what it still misses: the session goes on.
	if _, err := sess.Judge(ctx, []Evaluation{{Path: "s1", Relevance: 0.9, MissingContext: []string{"caller of s1"}}, {Path: "s2", Relevance: 0.9}}); err != nil {
		t.Fatal(err)
	}
	s.focus = []string{"named", "nb"} // a refinement's focus area brings nb
	c2, _ := sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"s3", "nb"}, paths(c2)); diff != "" {
		t.Fatalf("cycle 2 (-want +got): the refinement's file first, then the evidence's best\n%s", diff)
	}
}

// TestSessionEnough: once the judge found a file hone's evidence does not
// dispute, a page of files the evidence rates below EvidenceFloor is not
// offered and the session says why, whatever a refinement brought in on its
// own; a critical gap, a file the evidence rates at the floor, or a judge
// that named what it still wants keeps it going.
func TestSessionEnough(t *testing.T) {
	ctx := context.Background()
	below, c := EvidenceFloor-0.1, EvidenceFloor-0.2
	tests := []struct {
		name     string
		evidence tableEvaluator
		focus    []string
		critical bool
		terms    []string
		want     []string // cycle 2's page; nil: the session ends
	}{
		{"nothing left worth a page", tableEvaluator{"a": 0.9, "b": below, "c": c}, nil, false, nil, nil},
		{"a refinement's neighbour does not keep it going", tableEvaluator{"a": 0.9, "b": below, "c": c, "n": 0.05}, []string{"n"}, false, nil, nil},
		{"a file at the floor", tableEvaluator{"a": 0.9, "b": EvidenceFloor, "c": c}, nil, false, nil, []string{"b", "c"}},
		{"a critical gap", tableEvaluator{"a": 0.9, "b": below, "c": c}, nil, true, nil, []string{"b", "c"}},
		{"the judge named terms", tableEvaluator{"a": 0.9, "b": below, "c": c, "n": 0.05}, []string{"n"}, false, []string{"Throttle"}, []string{"b", "n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &viaSearcher{ranked: []string{"a", "b", "c"}}
			sess, err := NewSession(ctx, "task", s, &fakeRefiner{emptyFrom: 9}, Options{Candidates: 1, Pool: 3, MaxCycles: 3, Evidence: tt.evidence})
			if err != nil {
				t.Fatal(err)
			}
			if c1, _ := sess.Dispatch(ctx); !cmp.Equal([]string{"a"}, paths(c1)) {
				t.Fatalf("cycle 1 = %v, want [a]", paths(c1))
			}
			if _, err := sess.Judge(ctx, []Evaluation{{Path: "a", Relevance: 0.9, Critical: tt.critical, Terms: tt.terms}}); err != nil {
				t.Fatal(err)
			}
			s.focus = tt.focus
			sess.opts.Candidates = 2
			c2, err := sess.Dispatch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(c2); len(got) != len(tt.want) || (len(got) > 0 && !cmp.Equal(tt.want, got)) {
				t.Errorf("cycle 2 = %v, want %v", got, tt.want)
			}
			done, why := sess.Done()
			if done != (tt.want == nil) || (done && !strings.Contains(why, fmt.Sprintf("hone rates no file left at %.2f or more (found a; best left b at %.2f)", EvidenceFloor, below))) {
				t.Errorf("Done() = %v, %q", done, why)
			}
		})
	}
}

// TestEvidenceBrief: what a judge reads of hone's evidence is its relevance
// and the first parts of its reason, whole, commas inside a part included.
func TestEvidenceBrief(t *testing.T) {
	for _, tt := range []struct {
		c    Candidate
		want string
	}{
		{Candidate{}, ""},
		{Candidate{Evidence: 0.5}, "hone 0.50"},
		{Candidate{Evidence: 0.93, EvidenceReason: "defines isTokenExpired:+0.35"}, "hone 0.93: defines isTokenExpired:+0.35"},
		{Candidate{Evidence: 0.8, EvidenceReason: "bm25 1.00 of best:+0.45, past commits like the task touched it (2, best 74a0322853):+0.20, covers 2 of 3 task terms:+0.20"},
			"hone 0.80: bm25 1.00 of best:+0.45, past commits like the task touched it (2, best 74a0322853):+0.20, covers 2 of 3 task terms:+0.20"},
		{Candidate{Evidence: 0.6, EvidenceReason: "a:+0.3, b:+0.2, c:+0.1, d (e, f):+0.05, evidence 0.6 short of x's 0.9:-0.10"},
			"hone 0.60: a:+0.3, b:+0.2, c:+0.1, ..."},
		{Candidate{Evidence: 0.2, EvidenceReason: "hone's evidence 0.20"}, "hone 0.20: hone's evidence 0.20"},
	} {
		if got := tt.c.EvidenceBrief(); got != tt.want {
			t.Errorf("EvidenceBrief(%.2f, %q) = %q, want %q", tt.c.Evidence, tt.c.EvidenceReason, got, tt.want)
		}
	}
}

// TestBriefReason: the first parts of a reason, whole, and a mark when cut.
func TestBriefReason(t *testing.T) {
	for _, tt := range []struct {
		reason string
		n      int
		want   string
	}{
		{"", 3, ""},
		{"a judge's sentence, with a comma", 3, "a judge's sentence, with a comma"},
		{"a:+0.3, b (1, 2):+0.2", 3, "a:+0.3, b (1, 2):+0.2"},
		{"a:+0.3, b:+0.2, c:+0.1, d:-0.05", 3, "a:+0.3, b:+0.2, c:+0.1, ..."},
		{"a:+0.3, b:+0.2, c:+0.1", 3, "a:+0.3, b:+0.2, c:+0.1"},
		{"a:+0.3, b:+0.2", 1, "a:+0.3, ..."},
	} {
		if got := BriefReason(tt.reason, tt.n); got != tt.want {
			t.Errorf("BriefReason(%q, %d) = %q, want %q", tt.reason, tt.n, got, tt.want)
		}
	}
}

// TestSessionTiesByEvidence: of files a judge rated alike, the result puts
// first the one hone's evidence rates higher, whatever the order they were
// offered in; without evidence, the order they were offered in.
func TestSessionTiesByEvidence(t *testing.T) {
	ctx := context.Background()
	s := &viaSearcher{ranked: []string{"a", "b", "c", "d"}}
	for _, tt := range []struct {
		name     string
		evidence Evaluator
		want     []string
	}{
		{"evidence", tableEvaluator{"a": 0.5, "b": 0.6, "c": 0.9, "d": 0.7}, []string{"c", "b", "a", "d"}},
		{"none", nil, []string{"a", "b", "c", "d"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sess, err := NewSession(ctx, "task", s, &fakeRefiner{}, Options{Candidates: 4, MaxCycles: 1, Evidence: tt.evidence})
			if err != nil {
				t.Fatal(err)
			}
			cands, _ := sess.Dispatch(ctx)
			// Three files alike, the fourth lower; none disputed (0.6 is
			// below the threshold, and d's evidence below DisputeLow).
			rel := map[string]float64{"a": 0.6, "b": 0.6, "c": 0.6, "d": 0.3}
			var evals []Evaluation
			for _, c := range cands {
				evals = append(evals, Evaluation{Path: c.Path, Relevance: rel[c.Path]})
			}
			if _, err := sess.Judge(ctx, evals); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range sess.Result().Ranked {
				got = append(got, e.Path)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Ranked (-want +got)\n%s", diff)
			}
		})
	}
}

// TestSessionReground: a session asked for newer ground before REFINE moves
// onto it: the new refiner refines, the new searcher and prior rank the next
// cycle, the files not judged yet are weighed on the new evidence, the judged
// ones keep theirs, and the trace says why. Asked again with nothing newer,
// it stays.
func TestSessionReground(t *testing.T) {
	ctx := context.Background()
	old := &viaSearcher{ranked: []string{"a", "b", "c", "d"}}
	oldEvidence := tableEvaluator{"a": 0.9, "b": 0.5, "c": 0.45, "d": 0.4}
	oldRefiner := &fakeRefiner{}
	newer := &viaSearcher{ranked: []string{"a", "x", "d", "y"}}
	newEvidence := tableEvaluator{"a": 0.1, "x": 0.3, "d": 0.2, "y": 0.35}
	newRefiner := &fakeRefiner{}
	asked := 0
	reground := func(context.Context) *Ground {
		asked++
		if asked > 1 {
			return nil // nothing newer
		}
		return &Ground{Searcher: newer, Refiner: newRefiner, Evidence: newEvidence,
			Prior: []Evaluation{{Path: "z", Relevance: 0.8, Reason: "prior z"}}, Why: "the index is complete now"}
	}
	sess, err := NewSession(ctx, "task", old, oldRefiner, Options{Candidates: 2, Pool: 4, MaxCycles: 3, Evidence: oldEvidence, Reground: reground})
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := sess.Dispatch(ctx)
	if diff := cmp.Diff([]string{"a", "b"}, paths(c1)); diff != "" {
		t.Fatalf("cycle 1 (-want +got)\n%s", diff)
	}
	judgeTable(t, sess, c1, map[string]float64{"a": 0.9, "b": 0.1})
	if len(oldRefiner.inputs) != 0 || len(newRefiner.inputs) != 1 {
		t.Fatalf("refinements: old %d, new %d; want the new refiner's only", len(oldRefiner.inputs), len(newRefiner.inputs))
	}
	c2, _ := sess.Dispatch(ctx)
	// c (0.45 on the old evidence) is no longer a candidate of the new
	// searcher; z comes from the new prior; x and y are weighed anew.
	if diff := cmp.Diff([]string{"z", "y"}, paths(c2)); diff != "" {
		t.Fatalf("cycle 2 (-want +got): the new ground's ranking\n%s", diff)
	}
	if c2[0].Evidence != 0.8 || c2[1].Evidence != 0.35 {
		t.Errorf("cycle 2 evidence %.2f, %.2f; want the new prior's 0.80 and the new evidence's 0.35", c2[0].Evidence, c2[1].Evidence)
	}
	trace := sess.Result().Cycles[0].Refinement
	if trace == nil || !slices.Contains(trace.Why, "the index is complete now") {
		t.Errorf("cycle 1's refinement %+v does not say the session moved", trace)
	}
	judgeTable(t, sess, c2, map[string]float64{"z": 0.1, "y": 0.1})
	if asked != 2 || len(newRefiner.inputs) != 2 {
		t.Errorf("reground asked %d times, new refiner %d; want 2 and 2 (it stays on the new ground)", asked, len(newRefiner.inputs))
	}
	// a's judgment stands, weighed against the evidence it met (0.9), not
	// the new ground's 0.1: it is not disputed, and it is selected.
	if res := sess.Result(); len(res.Files) != 1 || res.Files[0].Path != "a" {
		t.Errorf("selection %v, want a", summary(res.Files))
	}
}

// TestSessionFinish: a judge that asks to end (Finish) ends the session at
// once when hone's evidence disputes none of its judgments; otherwise the
// disputed files get their second look first, and the session ends after
// them, unless a second look turns a relevant judgment unrelated: then the
// judge's "enough" rested on it and the session goes on.
func TestSessionFinish(t *testing.T) {
	ctx := context.Background()
	ranked := []string{"top", "weak", "a", "b", "c", "d", "e", "f"}
	evidence := tableEvaluator{"top": 0.9, "weak": 0.3, "a": 0.3, "b": 0.3, "c": 0.3, "d": 0.3, "e": 0.3, "f": 0.3}
	tests := []struct {
		name   string
		first  map[string]float64 // the judge's cycle 1
		second map[string]float64 // its judgments of cycle 2 (nil: Finish must end the session at once)
		// wantSecond are cycle 2's files when a second look is due; wantEnd
		// whether the session ends after cycle 2, and the stop reason's start.
		wantSecond []string
		wantEnd    bool
		wantStop   string
	}{
		{name: "no dispute", first: map[string]float64{"top": 0.9}, wantStop: "the judge has enough"},
		{name: "the second look stands", first: map[string]float64{"top": 0.9, "weak": 0.9},
			second: map[string]float64{"weak": 0.9}, wantSecond: []string{"weak"}, wantEnd: true,
			wantStop: "the judge has enough; cycle 2 gave the judgments hone's evidence disputed their second look first"},
		{name: "a relevant judgment turned over", first: map[string]float64{"top": 0.1, "weak": 0.9},
			second: map[string]float64{"top": 0.1, "weak": 0.1}, wantSecond: []string{"top", "weak"}},
		{name: "an unrelated judgment turned over", first: map[string]float64{"top": 0.1, "weak": 0.9},
			second: map[string]float64{"top": 0.9, "weak": 0.9}, wantSecond: []string{"top", "weak"}, wantEnd: true,
			wantStop: "the judge has enough; cycle 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Two cycles at most: the second looks before the end are not
			// one of them, so a session that goes on has a fresh cycle left.
			sess, err := NewSession(ctx, "task", &viaSearcher{ranked: ranked}, &fakeRefiner{},
				Options{Candidates: 2, MaxCycles: 2, Evidence: evidence})
			if err != nil {
				t.Fatal(err)
			}
			c1, _ := sess.Dispatch(ctx)
			judgeTable(t, sess, c1, tt.first)
			ended := sess.Finish("the judge has enough")
			if tt.second == nil {
				if _, why := sess.Done(); !ended || why != tt.wantStop {
					t.Fatalf("Finish = %v, stopped %q; want the end, %q", ended, why, tt.wantStop)
				}
				return
			}
			if ended {
				t.Fatalf("Finish ended the session with disputed judgments open")
			}
			c2, err := sess.Dispatch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := paths(c2)
			sort.Strings(got)
			if diff := cmp.Diff(tt.wantSecond, got); diff != "" || !slices.ContainsFunc(c2, Candidate.SecondLook) {
				t.Fatalf("cycle 2 (-want +got), second looks only:\n%s", diff)
			}
			judgeTable(t, sess, c2, tt.second)
			done, why := sess.Done()
			if done != tt.wantEnd || !strings.HasPrefix(why, tt.wantStop) {
				t.Fatalf("after the second looks: done %v, stopped %q; want %v, %q", done, why, tt.wantEnd, tt.wantStop)
			}
			if done {
				return
			}
			res := sess.Result()
			if ref := res.Cycles[1].Refinement; ref == nil || !slices.ContainsFunc(ref.Why, func(w string) bool { return strings.Contains(w, "the session goes on") }) {
				t.Errorf("refinement of cycle 2 %+v, want it to say the session goes on", ref)
			}
			c3, err := sess.Dispatch(ctx)
			if err != nil || len(c3) == 0 || slices.ContainsFunc(c3, Candidate.SecondLook) {
				t.Fatalf("cycle 3: %v, %v; want fresh candidates", paths(c3), err)
			}
			judgeTable(t, sess, c3, nil)
			if done, why := sess.Done(); !done || !strings.Contains(why, "reached --cycles 2") {
				t.Errorf("after cycle 3 (the second fresh one): done %v, stopped %q; want the cycle limit", done, why)
			}
		})
	}

	// A session that re-judges (hone's own evaluator) finishes at once.
	sess, err := NewSession(ctx, "task", &viaSearcher{ranked: ranked}, &fakeRefiner{}, Options{Candidates: 2, Evidence: evidence, Rejudge: true})
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := sess.Dispatch(ctx)
	judgeTable(t, sess, c1, map[string]float64{"top": 0.1, "weak": 0.9})
	if !sess.Finish("enough") {
		t.Errorf("a Rejudge session did not finish at once")
	}
}

// TestSessionDistrust: a judge that rates relevant DistrustAfter files hone's
// evidence rates below HopelessBelow is distrusted: its relevant judgments of
// files the evidence puts below OverruleBelow are overruled, the earlier
// ones too (not selected, no second look, ranked at their evidence with a
// reason that says so); its judgments of the other files stand, a second
// look for those the evidence disputes. One
// such judgment only puts a judge in doubt: a judge right where hone is
// blind keeps its find once its second look confirms it.
func TestSessionDistrust(t *testing.T) {
	ctx := context.Background()
	evidence := tableEvaluator{"gold": 0.9, "fair": 0.75, "near": 0.45, "mid": 0.35, "h1": 0.2, "h2": 0.1, "x1": 0.6, "x2": 0.6, "x3": 0.6}
	tests := []struct {
		name     string
		ranked   []string
		rels     []map[string]float64 // the judge, per cycle (files absent: 0.1)
		files    []string             // Result.Files
		overrule []string             // ranked with an "overruled" reason
		second   []string             // second looks offered after the last cycle
	}{
		{"two hopeless files in one cycle", []string{"gold", "mid", "h1", "h2", "x1", "fair", "near", "x3"},
			[]map[string]float64{{"gold": 0.95, "mid": 0.95, "h1": 0.95, "h2": 0.95}, {"fair": 0.9, "near": 0.95}},
			[]string{"gold", "near", "fair"}, []string{"h1", "h2", "mid"}, []string{"near"}},
		{"the second hopeless file a cycle later", []string{"gold", "mid", "h1", "x1", "h2", "fair", "x2", "x3"},
			[]map[string]float64{{"gold": 0.95, "mid": 0.95, "h1": 0.95}, {"mid": 0.95, "h1": 0.95, "h2": 0.95, "fair": 0.9}},
			[]string{"gold", "fair"}, []string{"h1", "h2", "mid"}, nil},
		{"one hopeless file: in doubt, not distrusted", []string{"gold", "h1", "x1", "x2", "fair", "x3", "mid", "h2"},
			[]map[string]float64{{"gold": 0.95, "h1": 0.95}, {"h1": 0.95, "fair": 0.9}},
			[]string{"gold", "h1", "fair"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sess, err := NewSession(ctx, "task", &viaSearcher{ranked: tt.ranked}, &fakeRefiner{}, Options{Candidates: 4, MaxCycles: 5, MinFiles: 9, Evidence: evidence})
			if err != nil {
				t.Fatal(err)
			}
			for i, rel := range tt.rels {
				cands, _ := sess.Dispatch(ctx)
				full := map[string]float64{}
				for _, c := range cands {
					full[c.Path] = 0.1
					if r, ok := rel[c.Path]; ok {
						full[c.Path] = r
					}
				}
				judgeTable(t, sess, cands, full)
				if done, why := sess.Done(); done {
					t.Fatalf("stopped after cycle %d: %s", i+1, why)
				}
			}
			res := sess.Result()
			var files, overruled []string
			for _, f := range res.Files {
				files = append(files, f.Path)
			}
			for _, e := range res.Ranked {
				if strings.HasPrefix(e.Reason, "overruled, hone's evidence") {
					overruled = append(overruled, e.Path)
					if e.Relevance != evidence[e.Path] {
						t.Errorf("overruled %s ranked at %.2f, want its evidence %.2f", e.Path, e.Relevance, evidence[e.Path])
					}
				}
			}
			sort.Strings(overruled)
			if diff := cmp.Diff(tt.files, files); diff != "" {
				t.Errorf("Files (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tt.overrule, overruled); diff != "" {
				t.Errorf("overruled (-want +got)\n%s", diff)
			}
			next, _ := sess.Dispatch(ctx)
			var second []string
			for _, c := range next {
				if c.SecondLook() {
					second = append(second, c.Path)
				}
			}
			if diff := cmp.Diff(tt.second, second); diff != "" {
				t.Errorf("second looks after the last cycle (-want +got)\n%s", diff)
			}
			var why []string
			for _, c := range res.Cycles {
				why = append(why, c.Refinement.Why...)
			}
			said := strings.Contains(strings.Join(why, "; "), "the judge is distrusted: it judged relevant 2 files")
			if said != (len(tt.overrule) > 0) {
				t.Errorf("the trace says the judge is distrusted: %v, want %v (%q)", said, len(tt.overrule) > 0, why)
			}
		})
	}
}

// TestSessionDistrustRevise: a distrusted judge that revises an overruled
// judgment explicitly is taken at its word; Distrust says why it is
// distrusted.
func TestSessionDistrustRevise(t *testing.T) {
	ctx := context.Background()
	evidence := tableEvaluator{"gold": 0.9, "mid": 0.35, "h1": 0.2, "h2": 0.1, "x1": 0.6, "x2": 0.6, "x3": 0.6, "x4": 0.6}
	s := &viaSearcher{ranked: []string{"gold", "mid", "h1", "h2", "x1", "x2", "x3", "x4"}}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{}, Options{Candidates: 4, MaxCycles: 5, MinFiles: 9, Evidence: evidence})
	if err != nil {
		t.Fatal(err)
	}
	if why := sess.Distrust(); why != "" {
		t.Fatalf("Distrust() = %q before any judgment", why)
	}
	c1, _ := sess.Dispatch(ctx)
	judgeTable(t, sess, c1, map[string]float64{"gold": 0.95, "mid": 0.9, "h1": 0.9, "h2": 0.9})
	if why := sess.Distrust(); !strings.Contains(why, "h1 0.90, hone's evidence 0.20; h2 0.90, hone's evidence 0.10") {
		t.Errorf("Distrust() = %q, want the two files that made it", why)
	}
	c2, _ := sess.Dispatch(ctx)
	evals := []Evaluation{{Path: "mid", Relevance: 0.85, Revise: true}}
	for _, c := range c2 {
		evals = append(evals, Evaluation{Path: c.Path, Relevance: 0.1})
	}
	if _, err := sess.Judge(ctx, evals); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range sess.Result().Files {
		files = append(files, f.Path)
	}
	if diff := cmp.Diff([]string{"gold", "mid"}, files); diff != "" {
		t.Errorf("Files (-want +got): the revised judgment stands, h1 and h2 stay overruled\n%s", diff)
	}
}
