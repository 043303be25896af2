package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeSearcher proposes a scripted list of paths per call; the last list
// repeats once the script runs out.
type fakeSearcher struct {
	script  [][]string
	calls   int
	limits  []int
	queries []Query
	err     error
}

func (f *fakeSearcher) Search(ctx context.Context, q Query, limit int) ([]Candidate, error) {
	f.limits = append(f.limits, limit)
	f.queries = append(f.queries, q)
	if f.err != nil {
		return nil, f.err
	}
	if len(f.script) == 0 {
		return nil, nil
	}
	ps := f.script[min(f.calls, len(f.script)-1)]
	f.calls++
	out := make([]Candidate, len(ps))
	for i, p := range ps {
		out[i] = Candidate{Path: p, Score: float64(len(ps) - i)}
	}
	return out, nil
}

// fakeEvaluator judges each candidate by a per-cycle table (cycle from 1);
// the last table repeats. A path missing from the table is not judged.
type fakeEvaluator struct {
	rel      []map[string]float64
	critical map[int]map[string]bool // cycle -> paths with a critical gap
	onCycle  map[int]func()          // called when judging that cycle
	inputs   []EvalInput
	err      error
}

func (f *fakeEvaluator) Evaluate(ctx context.Context, in EvalInput) ([]Evaluation, error) {
	f.inputs = append(f.inputs, in)
	if fn := f.onCycle[in.Cycle]; fn != nil {
		fn()
	}
	if f.err != nil {
		return nil, f.err
	}
	table := f.rel[min(in.Cycle, len(f.rel))-1]
	var out []Evaluation
	for _, c := range in.Candidates {
		r, ok := table[c.Path]
		if !ok {
			continue
		}
		e := Evaluation{Path: c.Path, Relevance: r, Reason: fmt.Sprintf("cycle %d", in.Cycle)}
		if f.critical[in.Cycle][c.Path] {
			e.Critical = true
			e.MissingContext = []string{"definition of X"}
		}
		out = append(out, e)
	}
	return out, nil
}

// fakeRefiner adds one keyword per cycle, or nothing from cycle emptyFrom on.
type fakeRefiner struct {
	initial   Query
	initErr   error
	emptyFrom int // 0: never empty
	onRefine  func(in RefineInput)
	ignoreCtx bool // report no error even when ctx is done
	inputs    []RefineInput
}

func (f *fakeRefiner) Initial(ctx context.Context, task string) (Query, error) {
	return f.initial.Clone(), f.initErr
}

func (f *fakeRefiner) Refine(ctx context.Context, in RefineInput) (Query, Refinement, error) {
	f.inputs = append(f.inputs, in)
	if f.onRefine != nil {
		f.onRefine(in)
	}
	q := in.Query.Clone()
	if f.ignoreCtx {
		ctx = context.Background()
	}
	if f.emptyFrom > 0 && in.Cycle >= f.emptyFrom {
		return q, Refinement{}, ctx.Err()
	}
	t := fmt.Sprintf("k%d", in.Cycle)
	q.Keywords = append(q.Keywords, Keyword{Term: t, Weight: 1, Origin: "learned"})
	return q, Refinement{AddedKeywords: []string{t}, Why: []string{"learned " + t}}, ctx.Err()
}

type pathRel struct {
	Path      string
	Relevance float64
}

func summary(es []Evaluation) []pathRel {
	out := make([]pathRel, len(es))
	for i, e := range es {
		out[i] = pathRel{e.Path, e.Relevance}
	}
	return out
}

func TestRunStopRule(t *testing.T) {
	tests := []struct {
		name        string
		script      [][]string
		rel         []map[string]float64
		critical    map[int]map[string]bool
		opts        Options
		emptyFrom   int
		wantCycles  int
		wantStopped string
		wantFiles   []string
	}{
		{
			name:        "enough files and no critical gap stop after one cycle",
			script:      [][]string{{"a", "b", "c", "d"}},
			rel:         []map[string]float64{{"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.1}},
			wantCycles:  1,
			wantStopped: "cycle 1: 3 files at or above 0.70 and no critical gap",
			wantFiles:   []string{"a", "b", "c"},
		},
		{
			name:   "a critical gap at the threshold prevents the early stop",
			script: [][]string{{"a", "b", "c"}, {"a", "b", "c", "d"}, {"a", "b", "c", "d", "e"}},
			rel:    []map[string]float64{{"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.3, "e": 0.3}},
			critical: map[int]map[string]bool{
				1: {"c": true}, 2: {"c": true}, 3: {"c": true},
			},
			wantCycles:  3,
			wantStopped: "cycle 3: reached --cycles 3; 3 files at or above 0.70, 1 with a critical gap",
			wantFiles:   []string{"a", "b", "c"},
		},
		{
			name:        "a critical gap resolved in a later cycle lets the loop stop",
			script:      [][]string{{"a", "b", "c"}, {"a", "b", "c", "d"}},
			rel:         []map[string]float64{{"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.3}},
			critical:    map[int]map[string]bool{1: {"c": true}},
			wantCycles:  2,
			wantStopped: "cycle 2: 3 files at or above 0.70 and no critical gap",
			wantFiles:   []string{"a", "b", "c"},
		},
		{
			name:        "a critical gap below the threshold does not prevent the stop",
			script:      [][]string{{"a", "b", "c", "d"}},
			rel:         []map[string]float64{{"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.69}},
			critical:    map[int]map[string]bool{1: {"d": true}},
			wantCycles:  1,
			wantStopped: "cycle 1: 3 files at or above 0.70 and no critical gap",
			wantFiles:   []string{"a", "b", "c"},
		},
		{
			name:        "a cycle with no new file stops",
			script:      [][]string{{"a", "b"}, {"b", "a"}},
			rel:         []map[string]float64{{"a": 0.9, "b": 0.4}},
			wantCycles:  2,
			wantStopped: "cycle 2 brought no new file",
			wantFiles:   []string{"a"},
		},
		{
			name:        "MaxCycles bounds the loop",
			script:      [][]string{{"a"}, {"a", "b"}, {"a", "b", "c"}, {"a", "b", "c", "d"}},
			rel:         []map[string]float64{{"a": 0.9, "b": 0.5, "c": 0.5, "d": 0.5}},
			wantCycles:  3,
			wantStopped: "cycle 3: reached --cycles 3 with 1 of 3 files at or above 0.70",
			wantFiles:   []string{"a"},
		},
		{
			name:        "MaxCycles from options",
			script:      [][]string{{"a"}, {"a", "b"}, {"a", "b", "c"}},
			rel:         []map[string]float64{{"a": 0.9, "b": 0.5, "c": 0.5}},
			opts:        Options{MaxCycles: 2},
			wantCycles:  2,
			wantStopped: "cycle 2: reached --cycles 2 with 1 of 3 files at or above 0.70",
			wantFiles:   []string{"a"},
		},
		{
			name:        "Threshold and MinFiles from options",
			script:      [][]string{{"a", "b"}},
			rel:         []map[string]float64{{"a": 0.6, "b": 0.5}},
			opts:        Options{Threshold: 0.5, MinFiles: 2},
			wantCycles:  1,
			wantStopped: "cycle 1: 2 files at or above 0.50 and no critical gap",
			wantFiles:   []string{"a", "b"},
		},
		{
			name:        "an empty refinement stops",
			script:      [][]string{{"a", "b"}},
			rel:         []map[string]float64{{"a": 0.9, "b": 0.4}},
			emptyFrom:   1,
			wantCycles:  1,
			wantStopped: "cycle 1: refinement found nothing to add",
			wantFiles:   []string{"a"},
		},
		{
			name:        "zero candidates stop before any cycle",
			script:      [][]string{{}},
			rel:         []map[string]float64{{}},
			wantCycles:  0,
			wantStopped: "cycle 1: the query matched no file (the task gave no word to search for)",
			wantFiles:   []string{},
		},
		{
			name:        "zero candidates in a later cycle",
			script:      [][]string{{"a"}, {}},
			rel:         []map[string]float64{{"a": 0.9}},
			wantCycles:  1,
			wantStopped: "cycle 2: the query matched no file (words searched: k1)",
			wantFiles:   []string{"a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &fakeSearcher{script: tt.script}
			e := &fakeEvaluator{rel: tt.rel, critical: tt.critical}
			r := &fakeRefiner{initial: Query{Patterns: []string{"**"}}, emptyFrom: tt.emptyFrom}
			tt.opts.Rejudge = true // the stop rules of a judge that re-scores (see TestSessionKeepsJudgments)
			res, err := Run(context.Background(), "fix the bug", s, e, r, tt.opts)
			if err != nil {
				t.Fatalf("Run() error = %v", err)
			}
			if len(res.Cycles) != tt.wantCycles {
				t.Errorf("Run() ran %d cycles, want %d (stopped: %s)", len(res.Cycles), tt.wantCycles, res.Stopped)
			}
			if res.Stopped != tt.wantStopped {
				t.Errorf("Run().Stopped = %q, want %q", res.Stopped, tt.wantStopped)
			}
			var files []string
			for _, f := range res.Files {
				files = append(files, f.Path)
			}
			if diff := cmp.Diff(tt.wantFiles, files, cmpNilEmpty); diff != "" {
				t.Errorf("Run().Files paths (-want +got):\n%s", diff)
			}
			// The last cycle has no refinement unless an empty one stopped it;
			// every other cycle has one.
			for i, c := range res.Cycles {
				if c.N != i+1 {
					t.Errorf("Cycles[%d].N = %d, want %d", i, c.N, i+1)
				}
				last := i == len(res.Cycles)-1
				wantRef := !last || tt.emptyFrom == c.N || strings.Contains(tt.wantStopped, "matched no file")
				if (c.Refinement != nil) != wantRef {
					t.Errorf("Cycles[%d].Refinement = %v, want present=%v", i, c.Refinement, wantRef)
				}
			}
		})
	}
}

var cmpNilEmpty = cmp.Transformer("nilEmpty", func(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
})

func TestRunRankedLatestJudgmentWins(t *testing.T) {
	s := &fakeSearcher{script: [][]string{{"a", "b", "c"}, {"a", "d"}, {"e"}}}
	e := &fakeEvaluator{rel: []map[string]float64{
		{"a": 0.9, "b": 0.3, "c": 0.75},
		{"a": 0.4, "d": 0.8},
		{"e": 0.75},
	}}
	r := &fakeRefiner{initial: Query{Patterns: []string{"**"}}}
	res, err := Run(context.Background(), "task", s, e, r, Options{Rejudge: true})
	if err != nil {
		t.Fatal(err)
	}
	// c and e tie at 0.75: c was seen first.
	wantRanked := []pathRel{{"d", 0.8}, {"c", 0.75}, {"e", 0.75}, {"a", 0.4}, {"b", 0.3}}
	if diff := cmp.Diff(wantRanked, summary(res.Ranked)); diff != "" {
		t.Errorf("Ranked (-want +got):\n%s", diff)
	}
	wantFiles := []pathRel{{"d", 0.8}, {"c", 0.75}, {"e", 0.75}}
	if diff := cmp.Diff(wantFiles, summary(res.Files)); diff != "" {
		t.Errorf("Files (-want +got):\n%s", diff)
	}
	for i, f := range res.Files {
		if f.Relevance < DefaultThreshold {
			t.Errorf("Files[%d] = %v, below the threshold %v", i, f, DefaultThreshold)
		}
		if i > 0 && f.Relevance > res.Files[i-1].Relevance {
			t.Errorf("Files not best first: %v before %v", res.Files[i-1], f)
		}
	}
	if got := res.Ranked[3].Reason; got != "cycle 2" {
		t.Errorf("Ranked a.Reason = %q, want the latest judgment's %q", got, "cycle 2")
	}
	// Each cycle's own evaluations keep what was said then, best first.
	if diff := cmp.Diff([]pathRel{{"a", 0.9}, {"c", 0.75}, {"b", 0.3}}, summary(res.Cycles[0].Evaluations)); diff != "" {
		t.Errorf("Cycles[0].Evaluations (-want +got):\n%s", diff)
	}
	// The evaluator saw earlier judgments; the refiner the merged ones.
	if got := e.inputs[1].Judged["a"].Relevance; got != 0.9 {
		t.Errorf("cycle 2 EvalInput.Judged[a] = %v, want 0.9", got)
	}
	if got := r.inputs[1].Judged["a"].Relevance; got != 0.4 {
		t.Errorf("cycle 2 RefineInput.Judged[a] = %v, want 0.4", got)
	}
	if diff := cmp.Diff([]pathRel{{"d", 0.8}, {"a", 0.4}}, summary(r.inputs[1].Evaluations)); diff != "" {
		t.Errorf("cycle 2 RefineInput.Evaluations (-want +got):\n%s", diff)
	}
	// The refined query reaches the next dispatch, with the configured limit.
	if diff := cmp.Diff([]string{"k1"}, s.queries[1].Terms()); diff != "" {
		t.Errorf("cycle 2 query terms (-want +got):\n%s", diff)
	}
	for i, l := range s.limits {
		if l != DefaultCandidates {
			t.Errorf("Search call %d limit = %d, want %d", i, l, DefaultCandidates)
		}
	}
}

func TestRunTiesInFirstSeenOrder(t *testing.T) {
	s := &fakeSearcher{script: [][]string{{"z", "m", "a"}}}
	e := &fakeEvaluator{rel: []map[string]float64{{"z": 0.5, "m": 0.5, "a": 0.5}}}
	r := &fakeRefiner{emptyFrom: 1}
	res, err := Run(context.Background(), "task", s, e, r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]pathRel{{"z", 0.5}, {"m", 0.5}, {"a", 0.5}}, summary(res.Ranked)); diff != "" {
		t.Errorf("Ranked (-want +got):\n%s", diff)
	}
}

func TestJudgeRefusesNonCandidate(t *testing.T) {
	ctx := context.Background()
	s := &fakeSearcher{script: [][]string{{"a", "b"}}}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Dispatch(ctx); err != nil {
		t.Fatal(err)
	}
	done, err := sess.Judge(ctx, []Evaluation{{Path: "a", Relevance: 0.5}, {Path: "elsewhere.py", Relevance: 0.9}})
	if err == nil || !strings.Contains(err.Error(), `judged "elsewhere.py", which is not a candidate of cycle 1`) {
		t.Fatalf("Judge(non-candidate) = %v, %v; want a not-a-candidate error", done, err)
	}
	if got := sess.Judged(); len(got) != 0 {
		t.Errorf("Judged() after a refused Judge = %v, want nothing recorded", got)
	}
	if d, _ := sess.Done(); d {
		t.Errorf("Done() after a refused Judge = true, want the session still open")
	}
	// The same cycle can be judged again, correctly.
	if _, err := sess.Judge(ctx, []Evaluation{{Path: "b", Relevance: 0.5}, {Path: "a", Relevance: 0.5}}); err != nil {
		t.Fatalf("Judge(candidates) = %v", err)
	}
	if diff := cmp.Diff([]pathRel{{"b", 0.5}, {"a", 0.5}}, summary(sess.Result().Ranked)); diff != "" {
		t.Errorf("Ranked (-want +got):\n%s", diff)
	}
}

func TestJudgeClampsRelevance(t *testing.T) {
	tests := []struct {
		in, want float64
	}{
		{0.5, 0.5},
		{0, 0},
		{1, 1},
		{1.5, 1},
		{-0.2, 0},
		{math.Inf(1), 1},
		{math.Inf(-1), 0},
		{math.NaN(), 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.in), func(t *testing.T) {
			ctx := context.Background()
			sess, err := NewSession(ctx, "task", &fakeSearcher{script: [][]string{{"a"}}}, &fakeRefiner{emptyFrom: 1}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sess.Dispatch(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := sess.Judge(ctx, []Evaluation{{Path: "a", Relevance: tt.in}}); err != nil {
				t.Fatal(err)
			}
			if got := sess.Judged()["a"].Relevance; got != tt.want {
				t.Errorf("Judge(relevance %v) recorded %v, want %v", tt.in, got, tt.want)
			}
			if got := sess.Judged()["a"].MissingContext; got == nil {
				t.Errorf("Judge() left MissingContext nil, want []")
			}
		})
	}
}

func TestSessionErrDoneAfterStop(t *testing.T) {
	ctx := context.Background()
	s := &fakeSearcher{script: [][]string{{"a", "b", "c"}}}
	sess, err := NewSession(ctx, "task", s, &fakeRefiner{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := sess.Cycle(); got != 1 {
		t.Errorf("Cycle() = %d, want 1", got)
	}
	if got := sess.Result().Stopped; got != "not finished" {
		t.Errorf("Result().Stopped before the end = %q, want %q", got, "not finished")
	}
	cands, err := sess.Dispatch(ctx)
	if err != nil || len(cands) != 3 {
		t.Fatalf("Dispatch() = %v, %v", cands, err)
	}
	in := sess.Input()
	if in.Cycle != 1 || in.Task != "task" || len(in.Candidates) != 3 || len(in.Judged) != 0 {
		t.Errorf("Input() = %+v", in)
	}
	done, err := sess.Judge(ctx, []Evaluation{{Path: "a", Relevance: 1}, {Path: "b", Relevance: 1}, {Path: "c", Relevance: 1}})
	if !done || err != nil {
		t.Fatalf("Judge() = %v, %v; want done", done, err)
	}
	if _, err := sess.Dispatch(ctx); !errors.Is(err, ErrDone) {
		t.Errorf("Dispatch() after stop = %v, want ErrDone", err)
	}
	if done, err := sess.Judge(ctx, nil); !done || !errors.Is(err, ErrDone) {
		t.Errorf("Judge() after stop = %v, %v; want true, ErrDone", done, err)
	}
	if d, why := sess.Done(); !d || !strings.Contains(why, "no critical gap") {
		t.Errorf("Done() = %v, %q", d, why)
	}
	sess.Stop("later reason")
	if _, why := sess.Done(); strings.Contains(why, "later") {
		t.Errorf("Stop() after the loop stopped replaced the reason: %q", why)
	}
}

func TestSessionStop(t *testing.T) {
	ctx := context.Background()
	sess, err := NewSession(ctx, "task", &fakeSearcher{script: [][]string{{"a"}}}, &fakeRefiner{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess.Stop("caller has enough")
	if _, err := sess.Dispatch(ctx); !errors.Is(err, ErrDone) {
		t.Errorf("Dispatch() after Stop = %v, want ErrDone", err)
	}
	if got := sess.Result().Stopped; got != "caller has enough" {
		t.Errorf("Result().Stopped = %q", got)
	}
}

func TestRunCancelled(t *testing.T) {
	tests := []struct {
		name        string
		cancelAt    string // "evaluate2" or "refine1"
		wantCycles  int
		wantStopped string
	}{
		// The context is cancelled while cycle 2 is judged: the judgments are
		// kept, no refinement runs.
		{"during evaluation", "evaluate2", 2, "cancelled: context canceled"},
		// Cancelled while refining cycle 1: the refiner reports it.
		{"during refinement", "refine1", 1, "refine failed: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := &fakeSearcher{script: [][]string{{"a", "b"}, {"a", "c"}, {"d"}}}
			e := &fakeEvaluator{rel: []map[string]float64{{"a": 0.9, "b": 0.2, "c": 0.8, "d": 0.8}}}
			r := &fakeRefiner{}
			switch tt.cancelAt {
			case "evaluate2":
				e.onCycle = map[int]func(){2: cancel}
			case "refine1":
				r.onRefine = func(in RefineInput) {
					if in.Cycle == 1 {
						cancel()
					}
				}
			}
			res, err := Run(ctx, "task", s, e, r, Options{})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run() error = %v, want context.Canceled", err)
			}
			if res == nil {
				t.Fatal("Run() returned no partial result")
			}
			if len(res.Cycles) != tt.wantCycles {
				t.Errorf("Run() kept %d cycles, want %d", len(res.Cycles), tt.wantCycles)
			}
			if res.Stopped != tt.wantStopped {
				t.Errorf("Stopped = %q, want %q", res.Stopped, tt.wantStopped)
			}
			if len(res.Files) == 0 || res.Files[0].Path != "a" {
				t.Errorf("partial Files = %v, want a first", summary(res.Files))
			}
		})
	}
}

func TestRunCancelledBeforeDispatch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &fakeSearcher{script: [][]string{{"a", "b"}, {"c"}}}
	e := &fakeEvaluator{rel: []map[string]float64{{"a": 0.9, "b": 0.2, "c": 0.8}}}
	// The refiner succeeds, but the context is gone before the next dispatch.
	r := &fakeRefiner{onRefine: func(RefineInput) { cancel() }, ignoreCtx: true}
	res, err := Run(ctx, "task", s, e, r, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run() error = %v, want context.Canceled", err)
	}
	if s.calls != 1 {
		t.Errorf("Search ran %d times, want 1 (not after cancellation)", s.calls)
	}
	if len(res.Cycles) != 1 || res.Stopped != "dispatch failed: context canceled" {
		t.Errorf("Run() = %d cycles, stopped %q; want 1, dispatch failed", len(res.Cycles), res.Stopped)
	}
	if diff := cmp.Diff([]pathRel{{"a", 0.9}, {"b", 0.2}}, summary(res.Ranked)); diff != "" {
		t.Errorf("partial Ranked (-want +got):\n%s", diff)
	}
}

func TestRunErrors(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name        string
		task        string
		s           *fakeSearcher
		e           *fakeEvaluator
		r           *fakeRefiner
		wantErr     string
		wantResult  bool
		wantStopped string
	}{
		{"empty task", "  \n", &fakeSearcher{}, &fakeEvaluator{}, &fakeRefiner{}, "loop: empty task", false, ""},
		{"initial query fails", "task", &fakeSearcher{}, &fakeEvaluator{}, &fakeRefiner{initErr: boom}, "loop: initial query: boom", false, ""},
		{"search fails", "task", &fakeSearcher{err: boom}, &fakeEvaluator{}, &fakeRefiner{}, "loop: dispatch: boom", true, "dispatch failed: loop: dispatch: boom"},
		{"evaluate fails", "task", &fakeSearcher{script: [][]string{{"a"}}}, &fakeEvaluator{err: boom}, &fakeRefiner{}, "loop: evaluate: boom", true, "evaluate failed: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Run(context.Background(), tt.task, tt.s, tt.e, tt.r, Options{})
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("Run() error = %v, want %q", err, tt.wantErr)
			}
			if tt.wantErr != "loop: empty task" && !errors.Is(err, boom) {
				t.Errorf("Run() error %v does not wrap the cause", err)
			}
			if (res != nil) != tt.wantResult {
				t.Fatalf("Run() result = %v, want present=%v", res, tt.wantResult)
			}
			if res != nil && res.Stopped != tt.wantStopped {
				t.Errorf("Stopped = %q, want %q", res.Stopped, tt.wantStopped)
			}
		})
	}
}

func TestQueryMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"zero query lists are empty, not null", Query{},
			`{"patterns":[],"keywords":[],"excludes":[],"focus_areas":[]}`},
		{"keys in trace order, keywords as terms", Query{
			FocusAreas: []string{"file:a.py"},
			Excludes:   []string{"b.py"},
			Keywords:   []Keyword{{Term: "token", Weight: 2, Origin: "task"}, {Term: "expiry", Weight: 1, For: "x"}},
			Patterns:   []string{"**", "src/**"},
		}, `{"patterns":["**","src/**"],"keywords":["token","expiry"],"excludes":["b.py"],"focus_areas":["file:a.py"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("json.Marshal(%+v) = %s, want %s", tt.q, b, tt.want)
			}
			// Inside a Cycle the query marshals the same way.
			b, err = json.Marshal(Cycle{N: 1, Query: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"query":`+tt.want) {
				t.Errorf("json.Marshal(Cycle) = %s, want it to hold %s", b, tt.want)
			}
		})
	}
}

func TestQueryCloneIsDeep(t *testing.T) {
	q := Query{Patterns: []string{"**"}, Keywords: []Keyword{{Term: "a"}}, Excludes: []string{"x"}, FocusAreas: []string{"dir:a/"}}
	c := q.Clone()
	c.Patterns[0], c.Keywords[0].Term, c.Excludes[0], c.FocusAreas[0] = "p", "b", "y", "dir:b/"
	if q.Patterns[0] != "**" || q.Keywords[0].Term != "a" || q.Excludes[0] != "x" || q.FocusAreas[0] != "dir:a/" {
		t.Errorf("Clone() shares storage with the original: %+v", q)
	}
}

func TestOptionsSetDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   Options
		want Options
	}{
		{"zero", Options{}, Options{MaxCycles: DefaultMaxCycles, Threshold: DefaultThreshold, MinFiles: DefaultMinFiles, Candidates: DefaultCandidates}},
		{"negative", Options{MaxCycles: -1, Threshold: -0.5, MinFiles: -2, Candidates: -3}, Options{MaxCycles: DefaultMaxCycles, Threshold: DefaultThreshold, MinFiles: DefaultMinFiles, Candidates: DefaultCandidates}},
		{"set values kept", Options{MaxCycles: 5, Threshold: 0.5, MinFiles: 1, Candidates: 10}, Options{MaxCycles: 5, Threshold: 0.5, MinFiles: 1, Candidates: 10}},
		{"partly set", Options{MaxCycles: 1}, Options{MaxCycles: 1, Threshold: DefaultThreshold, MinFiles: DefaultMinFiles, Candidates: DefaultCandidates}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in
			got.SetDefaults()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%+v.SetDefaults() (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestRefinementEmpty(t *testing.T) {
	tests := []struct {
		r    Refinement
		want bool
	}{
		{Refinement{}, true},
		{Refinement{Why: []string{"x"}, Associations: []string{"a → b"}}, true},
		{Refinement{AddedKeywords: []string{"x"}}, false},
		{Refinement{AddedPatterns: []string{"x/**"}}, false},
		{Refinement{Excluded: []string{"x"}}, false},
		{Refinement{AddedFocus: []string{"symbol:X"}}, false},
	}
	for _, tt := range tests {
		if got := tt.r.Empty(); got != tt.want {
			t.Errorf("%+v.Empty() = %v, want %v", tt.r, got, tt.want)
		}
	}
}
