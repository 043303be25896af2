package local

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/pathclass"
	"github.com/hone-dev/hone/internal/search"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/loop"
)

// signal formats one entry of a Reason, as the evaluator prints it.
func signal(label string, v float64) string { return fmt.Sprintf("%s:+%.2f", label, v) }

// signals splits a Reason into its entries (a label may hold ", ").
func signals(reason string) []string {
	var out []string
	for _, part := range strings.Split(reason, ", ") {
		if len(out) > 0 && !strings.Contains(part, ":+") && !strings.Contains(part, ":-") && !strings.Contains(part, ":×") {
			out[len(out)-1] += ", " + part
			continue
		}
		out = append(out, part)
	}
	return out
}

// reasonSum adds the contributions a Reason lists.
func reasonSum(t *testing.T, reason string) float64 {
	t.Helper()
	sum := 0.0
	for _, s := range signals(reason) {
		i := strings.LastIndex(s, ":+")
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(s[i+2:], 64)
		if err != nil {
			t.Fatalf("reason entry %q: %v", s, err)
		}
		sum += v
	}
	return sum
}

func candidates(paths ...string) []loop.Candidate {
	out := make([]loop.Candidate, len(paths))
	for i, p := range paths {
		out[i] = loop.Candidate{Path: p}
	}
	return out
}

// evalOne judges the candidates and returns the evaluation of path.
func evalOne(t *testing.T, e *Evaluator, in loop.EvalInput, path string) loop.Evaluation {
	t.Helper()
	if in.Cycle == 0 {
		in.Cycle = 1
	}
	evs, err := e.Evaluate(context.Background(), in)
	if err != nil {
		t.Fatalf("Evaluate() error = %v", err)
	}
	for _, ev := range evs {
		if ev.Path == path {
			return ev
		}
	}
	t.Fatalf("Evaluate() judged no %s: %v", path, evs)
	return loop.Evaluation{}
}

const pyTrace = `Login fails
Traceback (most recent call last):
  File "/srv/site-packages/app/api/views.py", line 6, in login
    if not Throttle().allow(request.client):
  File "/srv/site-packages/app/api/throttle.py", line 5, in allow
    return True
RuntimeError: refused`

func TestEvaluateSignals(t *testing.T) {
	ix := openFixture(t)
	tests := []struct {
		name    string
		task    string
		path    string
		want    []string // entries the Reason must hold
		notWant []string // labels (prefixes) it must not hold
	}{
		{
			name: "the task names the path",
			task: "Fix login in app/api/views.py",
			path: "app/api/views.py",
			want: []string{signal("task names path app/api/views.py", WeightPath*1)},
		},
		{
			name:    "a trace frame",
			task:    pyTrace,
			path:    "app/api/views.py",
			want:    []string{signal("trace frame login (views.py)", WeightFrame*1)},
			notWant: []string{"trace frame nearest"},
		},
		{
			name: "the Python frame nearest the error is the last",
			task: pyTrace,
			path: "app/api/throttle.py",
			want: []string{signal("trace frame nearest the error allow (throttle.py)", (WeightFrame+WeightLastFrame)*1)},
		},
		{
			name: "a module path",
			task: "Importing app.api.throttle fails on start",
			path: "app/api/throttle.py",
			want: []string{signal("task names module app.api.throttle", WeightModule*1)},
		},
		{
			name: "defines a task symbol found in one file",
			task: "`TokenManager` issues stale tokens",
			path: "app/auth/tokens.py",
			want: []string{signal("defines TokenManager", WeightDefines*1)},
		},
		{
			name: "defines a task symbol found in two files",
			task: "`helper` returns the wrong value",
			path: "app/util/two.py",
			want: []string{signal("defines helper", WeightDefines*0.5)},
		},
		{
			name: "anchors together are capped",
			task: "app/auth/tokens.py: `TokenManager` issues stale tokens",
			path: "app/auth/tokens.py",
			want: []string{
				signal("task names path app/auth/tokens.py", WeightPath),
				signal("defines TokenManager", AnchorCap-WeightPath),
			},
		},
		{
			name: "the best lexical match, covering every task term",
			task: "`helper` is wrong",
			path: "app/util/one.py",
			want: []string{signal("bm25 1.00 of best", WeightBM25), signal("covers 1 of 1 task terms", WeightCoverage)},
		},
		{
			name: "a symbol and a file named after a task word",
			task: "The throttle is too strict",
			path: "app/api/throttle.py",
			want: []string{
				signal(`defines Throttle ("throttle")`, WeightSymbolTerm),
				signal(`file name says "throttle"`, WeightPathName),
			},
			notWant: []string{"task names", "trace frame", "test file", "doc file"},
		},
		{
			name: "a plural file name answers the singular word",
			task: "The token has expired",
			path: "app/auth/tokens.py",
			want: []string{signal(`file name says "tokens"`, WeightPathName)},
		},
		{
			name: "the path says two of the title's words",
			task: "The API throttle is too strict\n\nClients get 429.",
			path: "app/api/throttle.py",
			want: []string{signal("path says api and throttle (title)", WeightPathName)},
		},
		{
			name:    "one title word in the path is not enough",
			task:    "The API throttle is too strict\n\nClients get 429.",
			path:    "app/api/views.py",
			notWant: []string{"path says"},
		},
		{
			name:    "a package initialiser's name says nothing",
			task:    "Allow app directories without __init__.py files: init fails",
			path:    "app/api/__init__.py",
			notWant: []string{"file name says"},
		},
		{
			name:    "no signal",
			task:    "The throttle is too strict",
			path:    "app/util/one.py",
			want:    []string{"no signal"},
			notWant: []string{"bm25", "covers"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEval(t, ix, tt.task, Options{})
			ev := evalOne(t, e, loop.EvalInput{Task: tt.task, Candidates: candidates(tt.path)}, tt.path)
			got := signals(ev.Reason)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("Evaluate(%q).Reason = %q, want it to list %q", tt.path, ev.Reason, w)
				}
			}
			for _, nw := range tt.notWant {
				for _, g := range got {
					if strings.HasPrefix(g, nw) {
						t.Errorf("Evaluate(%q).Reason = %q, want no %q", tt.path, ev.Reason, nw)
					}
				}
			}
			// The relevance is the sum of the listed contributions, squashed
			// into [0,1] (each printed to two decimals).
			if want := squash(reasonSum(t, ev.Reason)); math.Abs(ev.Relevance-want) > 0.005*float64(len(got)) {
				t.Errorf("Evaluate(%q).Relevance = %v, want about squash(%v) = %v, the sum of %q", tt.path, ev.Relevance, reasonSum(t, ev.Reason), want, ev.Reason)
			}
			if ev.Relevance < 0 || ev.Relevance > 1 {
				t.Errorf("Evaluate(%q).Relevance = %v, out of [0,1]", tt.path, ev.Relevance)
			}
			// Reasons list the strongest signal first.
			for i := 1; i < len(got); i++ {
				if strings.Contains(got[i], ":+") && reasonSum(t, got[i]) > reasonSum(t, got[i-1]) {
					t.Errorf("Reason %q is not strongest first", ev.Reason)
				}
			}
		})
	}
}

func TestEvaluateDemotion(t *testing.T) {
	ix := openFixture(t)
	const text = "The throttle is too strict"
	tests := []struct {
		name   string
		path   string
		demote search.Options
		factor float64
	}{
		{"a test file when tests are demoted", "tests/test_throttle.py", search.Options{DemoteTests: true}, search.TestFactor},
		{"a test file when only docs are demoted", "tests/test_throttle.py", search.Options{DemoteDocs: true}, 1},
		{"a doc file when docs are demoted", "docs/guide.md", search.Options{DemoteDocs: true}, search.DocFactor},
		{"code is never demoted", "app/api/throttle.py", search.Options{DemoteTests: true, DemoteDocs: true}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loop.EvalInput{Task: text, Candidates: candidates(tt.path)}
			plainEval, _ := newEval(t, ix, text, Options{})
			plain := evalOne(t, plainEval, in, tt.path)
			demotedEval, _ := newEval(t, ix, text, Options{Demote: tt.demote})
			demoted := evalOne(t, demotedEval, in, tt.path)
			if want := plain.Relevance * tt.factor; math.Abs(demoted.Relevance-want) > 0.001 {
				t.Errorf("Evaluate(%s) demoted = %v, want %v × %v = %v", tt.path, demoted.Relevance, plain.Relevance, tt.factor, want)
			}
			mark := fmt.Sprintf("%s file:×%.2f", pathclass.Of(tt.path), tt.factor)
			if has := strings.HasSuffix(demoted.Reason, mark); has != (tt.factor != 1) {
				t.Errorf("Evaluate(%s).Reason = %q; ends with %q = %v, want %v", tt.path, demoted.Reason, mark, has, tt.factor != 1)
			}
		})
	}
}

func TestEvaluateLinks(t *testing.T) {
	ix := openFixture(t)
	const text = "`TokenManager` issues stale tokens"
	features := map[string]loop.Evaluation{}
	for i := 1; i <= 5; i++ {
		p := fmt.Sprintf("app/feat/f%d.py", i)
		features[p] = loop.Evaluation{Path: p, Relevance: 1}
	}
	tests := []struct {
		name     string
		path     string
		judged   map[string]loop.Evaluation
		wantGain float64
		want     []string
	}{
		{
			name:     "imported by a relevant file that uses its name",
			path:     "app/api/throttle.py",
			judged:   map[string]loop.Evaluation{"app/api/views.py": {Path: "app/api/views.py", Relevance: 0.8}},
			wantGain: WeightImport*0.8 + WeightDefUse*0.8,
			want: []string{
				signal("imported by views.py", WeightImport*0.8),
				signal("defines Throttle used by views.py", WeightDefUse*0.8),
			},
		},
		{
			name:     "imports a relevant file",
			path:     "app/feat/f1.py",
			judged:   map[string]loop.Evaluation{"app/core/base.py": {Path: "app/core/base.py", Relevance: 0.9}},
			wantGain: WeightImport * 0.9,
			want:     []string{signal("imports base.py", WeightImport*0.9)},
		},
		{
			name:     "a file below LinkFloor lends nothing",
			path:     "app/api/throttle.py",
			judged:   map[string]loop.Evaluation{"app/api/views.py": {Path: "app/api/views.py", Relevance: LinkFloor - 0.01}},
			wantGain: 0,
		},
		{
			name:     "a hub's links are capped",
			path:     "app/core/base.py",
			judged:   features,
			wantGain: LinkCap,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loop.EvalInput{Task: text, Cycle: 2, Candidates: candidates(tt.path), Judged: tt.judged}
			noLinks, _ := newEval(t, ix, text, Options{NoLinks: true})
			before := evalOne(t, noLinks, in, tt.path)
			links, _ := newEval(t, ix, text, Options{})
			after := evalOne(t, links, in, tt.path)
			if before.Relevance >= SquashKnee {
				t.Fatalf("fixture: %s scores %v without links, want it below SquashKnee", tt.path, before.Relevance)
			}
			if want := squash(before.Relevance + tt.wantGain); math.Abs(after.Relevance-want) > 0.002 {
				t.Errorf("with links %s scores %v (%q), want squash(%v + %v) = %v", tt.path, after.Relevance, after.Reason, before.Relevance, tt.wantGain, want)
			}
			got := signals(after.Reason)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("Evaluate(%q).Reason = %q, want it to list %q", tt.path, after.Reason, w)
				}
			}
		})
	}
}

// Within one cycle, a file that reaches LinkFloor on its own lends links to
// the other candidates in proportion to its first-pass relevance.
func TestEvaluateLinksWithinCycle(t *testing.T) {
	ix := openFixture(t)
	const text = "Fix login in app/api/views.py"
	const views, throttle = "app/api/views.py", "app/api/throttle.py"
	// Competition and support off: this test checks the links' arithmetic.
	noLinks, _ := newEval(t, ix, text, Options{NoLinks: true, NoCompetition: true, NoSupport: true})
	in := loop.EvalInput{Task: text, Candidates: candidates(views, throttle)}
	// The first pass lends its relevance: the squashed sum of its signals.
	r := squash(reasonSum(t, evalOne(t, noLinks, in, views).Reason))
	if r < LinkFloor {
		t.Fatalf("fixture: %s scores %v on its own, want at least LinkFloor", views, r)
	}
	before := evalOne(t, noLinks, in, throttle).Relevance
	if before >= SquashKnee {
		t.Fatalf("fixture: %s scores %v without links, want it below SquashKnee", throttle, before)
	}
	links, _ := newEval(t, ix, text, Options{NoCompetition: true, NoSupport: true})
	after := evalOne(t, links, in, throttle)
	gain := math.Min(LinkCap, (WeightImport+WeightDefUse)*r)
	if want := squash(before + gain); math.Abs(after.Relevance-want) > 0.005 {
		t.Errorf("with links within the cycle %s scores %v (%q), want squash(%v + (WeightImport+WeightDefUse)×%v) = %v", throttle, after.Relevance, after.Reason, before, r, want)
	}
}

// Competition lowers a file by Competition × how far its evidence falls short
// of the strongest file's (not below CompetitionFloor), says so in its
// reason, keeps the cycle's order, and remembers the leader across cycles.
func TestEvaluateCompetition(t *testing.T) {
	ix := openFixture(t)
	const text = "Fix login in app/api/views.py"
	const views, throttle = "app/api/views.py", "app/api/throttle.py"
	in := loop.EvalInput{Task: text, Cycle: 1, Candidates: candidates(views, throttle)}
	// Focus off: the fixture's throttle.py must stay below CompetitionFloor.
	alone, _ := newEval(t, ix, text, Options{NoCompetition: true, NoFocus: true, NoSupport: true})
	plainViews, plainThrottle := evalOne(t, alone, in, views), evalOne(t, alone, in, throttle)
	if plainViews.Relevance <= plainThrottle.Relevance {
		t.Fatalf("fixture: %s (%v) should lead %s (%v)", views, plainViews.Relevance, throttle, plainThrottle.Relevance)
	}
	e, _ := newEval(t, ix, text, Options{NoFocus: true, NoSupport: true})
	evs, err := e.Evaluate(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Path != views || evs[1].Path != throttle {
		t.Fatalf("Evaluate() = %v, want %s then %s as without competition", evs, views, throttle)
	}
	if evs[0].Relevance != plainViews.Relevance {
		t.Errorf("leader %s = %v, want its plain relevance %v", views, evs[0].Relevance, plainViews.Relevance)
	}
	// Below CompetitionFloor a file keeps its own relevance: it is related
	// or tangential whatever the leader is.
	if plainThrottle.Relevance >= CompetitionFloor {
		t.Fatalf("fixture: %s scores %v on its own, want it below CompetitionFloor", throttle, plainThrottle.Relevance)
	}
	if evs[1].Relevance != plainThrottle.Relevance || strings.Contains(evs[1].Reason, "short of") {
		t.Errorf("%s = %v (%q), want its plain %v and no penalty", throttle, evs[1].Relevance, evs[1].Reason, plainThrottle.Relevance)
	}
	// A later cycle judging the weaker file alone still measures it against
	// the leader found before.
	judged := map[string]loop.Evaluation{views: evs[0], throttle: evs[1]}
	later := evalOne(t, e, loop.EvalInput{Task: text, Cycle: 2, Candidates: candidates(throttle), Judged: judged}, throttle)
	if math.Abs(later.Relevance-evs[1].Relevance) > 0.0005 {
		t.Errorf("cycle 2: %s = %v, want %v as in cycle 1 (the leader is remembered)", throttle, later.Relevance, evs[1].Relevance)
	}
}

func TestEvaluateMissingContext(t *testing.T) {
	ix := openFixture(t)
	const views, tokens = "app/api/views.py", "app/auth/tokens.py"
	tests := []struct {
		name         string
		task         string
		path         string
		candidates   []string
		judged       map[string]loop.Evaluation
		wantMissing  []string
		wantCritical bool
	}{
		{
			name:         "a task-named symbol defined in an unseen file",
			task:         "Fix login in app/api/views.py: `TokenManager` issues stale tokens",
			path:         views,
			candidates:   []string{views},
			wantMissing:  []string{"definition of TokenManager"},
			wantCritical: true,
		},
		{
			name:        "the definer is a candidate of this cycle",
			task:        "Fix login in app/api/views.py: `TokenManager` issues stale tokens",
			path:        views,
			candidates:  []string{views, tokens},
			wantMissing: []string{},
		},
		{
			name:        "the definer was judged in an earlier cycle",
			task:        "Fix login in app/api/views.py: `TokenManager` issues stale tokens",
			path:        views,
			candidates:  []string{views},
			judged:      map[string]loop.Evaluation{tokens: {Path: tokens, Relevance: 0.1}},
			wantMissing: []string{},
		},
		{
			// The task does not name it, but views.py is relevant (the
			// task names its path): the change will read what it calls.
			name:         "a relevant file's missing definition is critical",
			task:         "The token manager breaks login in app/api/views.py",
			path:         views,
			candidates:   []string{views},
			wantMissing:  []string{"definition of TokenManager"},
			wantCritical: true,
		},
		{
			name:         "callers of a task-named function",
			task:         "`allow` is wrong in Throttle",
			path:         "app/api/throttle.py",
			candidates:   []string{"app/api/throttle.py"},
			wantMissing:  []string{"caller of allow"},
			wantCritical: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEval(t, ix, tt.task, Options{})
			ev := evalOne(t, e, loop.EvalInput{Task: tt.task, Cycle: 1, Candidates: candidates(tt.candidates...), Judged: tt.judged}, tt.path)
			if ev.Relevance < gapFloor {
				t.Fatalf("fixture: %s scores %v (%s), below gapFloor", tt.path, ev.Relevance, ev.Reason)
			}
			if diff := cmp.Diff(tt.wantMissing, ev.MissingContext); diff != "" {
				t.Errorf("Evaluate(%s).MissingContext (-want +got):\n%s", tt.path, diff)
			}
			if ev.Critical != tt.wantCritical {
				t.Errorf("Evaluate(%s).Critical = %v, want %v", tt.path, ev.Critical, tt.wantCritical)
			}
		})
	}
}

func TestEvaluateInvariants(t *testing.T) {
	ix := openFixture(t)
	var all []string
	for i := 0; i < ix.Len(); i++ {
		all = append(all, ix.File(indexID(i)).Path)
	}
	for _, text := range []string{pyTrace, "The throttle is too strict", "Fix login in app/api/views.py: `TokenManager` issues stale tokens", "`helper` returns the wrong value"} {
		t.Run(strings.SplitN(text, "\n", 2)[0], func(t *testing.T) {
			e, _ := newEval(t, ix, text, Options{Demote: search.Options{DemoteTests: true, DemoteDocs: true}})
			cands := candidates(append(slices.Clone(all), "not/indexed.py")...)
			evs, err := e.Evaluate(context.Background(), loop.EvalInput{Task: text, Cycle: 1, Candidates: cands})
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != len(all) {
				t.Errorf("Evaluate() judged %d files, want %d (every indexed candidate, not the unknown one)", len(evs), len(all))
			}
			for i, ev := range evs {
				if i > 0 && ev.Relevance > evs[i-1].Relevance {
					t.Errorf("Evaluate() not best first: %s %v after %v", ev.Path, ev.Relevance, evs[i-1].Relevance)
				}
				if ev.Path == "not/indexed.py" {
					t.Errorf("Evaluate() judged a path the index does not hold")
				}
				if ev.MissingContext == nil {
					t.Errorf("Evaluate(%s).MissingContext = nil, want []", ev.Path)
				}
				if len(ev.MissingContext) > MaxGaps {
					t.Errorf("Evaluate(%s).MissingContext = %v, more than MaxGaps", ev.Path, ev.MissingContext)
				}
				if ev.Relevance < gapFloor && (len(ev.MissingContext) > 0 || ev.Critical || ev.Learned != nil) {
					t.Errorf("Evaluate(%s) at %v reports gaps %v (critical %v) or learned %v, want none below gapFloor", ev.Path, ev.Relevance, ev.MissingContext, ev.Critical, ev.Learned)
				}
				if id, _ := ix.Lookup(ev.Path); ev.Relevance >= gapFloor && !cmp.Equal(ev.Learned, ix.Distinctive(id, learnedPerFile)) {
					t.Errorf("Evaluate(%s).Learned = %v, want its distinctive terms %v", ev.Path, ev.Learned, ix.Distinctive(id, learnedPerFile))
				}
				if ev.Reason == "" {
					t.Errorf("Evaluate(%s).Reason is empty", ev.Path)
				}
			}
		})
	}
}

// Files are judged against the task's own terms, whatever the cycle's query
// learned, so that scores compare across cycles.
func TestEvaluateIgnoresLearnedTerms(t *testing.T) {
	ix := openFixture(t)
	const text = "The throttle is too strict"
	e, _ := newEval(t, ix, text, Options{})
	cands := candidates("app/api/throttle.py", "app/api/views.py", "docs/guide.md", "app/auth/tokens.py")
	first, err := e.Evaluate(context.Background(), loop.EvalInput{Task: text, Cycle: 1, Candidates: cands})
	if err != nil {
		t.Fatal(err)
	}
	q := loop.Query{Keywords: []loop.Keyword{{Term: "throttle", Weight: 2, Origin: task.OriginWord},
		{Term: "tokenmanager", Weight: 0.35, Origin: "learned"}, {Term: "login", Weight: 0.8, Origin: "gap"}}}
	again, err := e.Evaluate(context.Background(), loop.EvalInput{Task: text, Cycle: 1, Query: q, Candidates: cands})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("learned and gap keywords changed the judgments (-without +with):\n%s", diff)
	}
}

func TestEvaluateCancelled(t *testing.T) {
	ix := openFixture(t)
	e, _ := newEval(t, ix, "The throttle is too strict", Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Evaluate(ctx, loop.EvalInput{Cycle: 1, Candidates: candidates("app/api/throttle.py")})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Evaluate(cancelled) error = %v, want context.Canceled", err)
	}
}

func TestEvaluateConcurrent(t *testing.T) {
	ix := openFixture(t)
	const text = "The throttle is too strict"
	e, _ := newEval(t, ix, text, Options{})
	cands := candidates("app/api/throttle.py", "app/api/views.py", "docs/guide.md")
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			// Association keywords make the evaluator cache a best score.
			q := loop.Query{Keywords: []loop.Keyword{{Term: "limit", Weight: 0.3 + 0.1*float64(i%2), Origin: "association", For: "throttle"}}}
			_, err := e.Evaluate(context.Background(), loop.EvalInput{Task: text, Cycle: 2, Query: q, Candidates: cands})
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestNearestFrame(t *testing.T) {
	py := []task.Frame{{File: "a.py"}, {File: "b.py"}, {File: "numpy/core/c.py"}}
	goFrames := []task.Frame{{File: "/usr/local/go/src/reflect/value.go"}, {File: "binding/form.go"}, {File: "context.go"}}
	tests := []struct {
		name     string
		frames   []task.Frame
		resolved []int // the Orders of the frames that resolved to repository files
		want     int
	}{
		{"no trace", nil, nil, -1},
		{"python: the last frame", py, []int{0, 1, 2}, 2},
		{"python: the last frame is numpy's", py, []int{0, 1}, 1},
		{"python: nothing resolved", py, nil, -1},
		{"python: the first frame is <stdin>", append([]task.Frame{{File: "<stdin>"}}, py...), []int{1, 2}, 2},
		{"rust: the last frame", []task.Frame{{File: "src/a.rs"}, {File: "src/b.rs"}}, []int{0, 1}, 1},
		{"ruby: the last frame", []task.Frame{{File: "a.rb"}, {File: "b.rb"}}, []int{0, 1}, 1},
		{"go: the first frame", []task.Frame{{File: "a.go"}, {File: "b.go"}}, []int{0, 1}, 0},
		{"go: the first frame is the standard library's", goFrames, []int{1, 2}, 1},
		{"java: the first frame", []task.Frame{{File: "com/x/A.java"}, {File: "com/x/B.java"}}, []int{0, 1}, 0},
		{"javascript: only the second resolved", []task.Frame{{File: "node:internal/x.js"}, {File: "src/b.js"}}, []int{1}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := anchor.Set{ByFile: map[index.ID][]anchor.Anchor{}}
			for i, o := range tt.resolved {
				id := index.ID(i)
				set.ByFile[id] = append(set.ByFile[id],
					anchor.Anchor{ID: id, Kind: anchor.KindFrame, Name: tt.frames[o].File, Strength: 1, Order: o},
					anchor.Anchor{ID: id, Kind: anchor.KindDefines, Name: "f", Strength: 1, Order: 99}) // not a frame: ignored
			}
			if got := anchor.NearestFrame(&task.Task{Frames: tt.frames}, set); got != tt.want {
				t.Errorf("NearestFrame = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestNameTerms(t *testing.T) {
	tests := []struct {
		stem string
		want []string
	}{
		{"tokens", []string{"tokens", "token"}},
		{"session_store", []string{"session_store", "session", "store"}},
		{"ids", []string{"ids"}},
		{"RateLimits", []string{"ratelimits", "ratelimit", "rate", "limits", "limit"}},
	}
	for _, tt := range tests {
		if got := nameTerms(tt.stem); !cmp.Equal(got, tt.want) {
			t.Errorf("nameTerms(%q) = %q, want %q", tt.stem, got, tt.want)
		}
	}
}

// Relevance after competition keeps the order of plain relevance across
// cycles, even when a later cycle finds a stronger file than the first
// cycle's lead: every cycle is measured against the same yardstick.
func TestCompeteKeepsOrder(t *testing.T) {
	e := &Evaluator{scores: map[string]plainScore{}}
	var all []*judged
	cycle := func(plains ...float64) {
		var js []*judged
		for _, p := range plains {
			j := &judged{cand: loop.Candidate{Path: fmt.Sprintf("f%d", len(all))}, plain: p, evidence: unsquash(p)}
			js = append(js, j)
			all = append(all, j)
		}
		e.compete(js)
	}
	cycle(0.9, 0.72, 0.5, 0.1)
	cycle(0.99, 0.95, 0.8, 0.3, 0.0)
	cycle(0.85, 0.65)
	for _, a := range all {
		if a.score > a.plain || a.score < math.Min(a.plain, CompetitionFloor) {
			t.Errorf("%s: score %v outside [min(plain, CompetitionFloor), plain %v]", a.cand.Path, a.score, a.plain)
		}
		for _, b := range all {
			if a.plain > b.plain && a.score <= b.score {
				t.Errorf("%s (plain %v) scores %v, below %s (plain %v) at %v", a.cand.Path, a.plain, a.score, b.cand.Path, b.plain, b.score)
			}
		}
	}
	if all[0].score != 0.9 || e.leader != "f0" {
		t.Errorf("first cycle's leader f0 = %v (leader %q), want its plain 0.9 and to lead", all[0].score, e.leader)
	}
	short := unsquash(0.9) - 0.72
	if want := round3(math.Max(CompetitionFloor+FloorSlope*(0.72-CompetitionFloor), 0.72-Competition*short)); all[1].score != want || want >= 0.7 {
		t.Errorf("f1 at plain 0.72, %.3f of evidence short of the lead, scores %v, want %v (below the threshold)", short, all[1].score, want)
	}
	if r := e.reason(all[1]); !strings.Contains(r, "short of f0's") {
		t.Errorf("f1 reason %q does not name the leader", r)
	}
	if all[2].score != 0.5 || all[3].score != 0.1 {
		t.Errorf("f2 (plain 0.5), f3 (plain 0.1) score %v, %v: want them kept (at or below CompetitionFloor)", all[2].score, all[3].score)
	}
}

func TestUnsquash(t *testing.T) {
	for _, x := range []float64{0, 0.3, SquashKnee, 0.9, 1.2, 2} {
		if got := unsquash(squash(x)); math.Abs(got-x) > 1e-9 {
			t.Errorf("unsquash(squash(%v)) = %v", x, got)
		}
	}
}

// A module path pasted in a configuration block weighs less than one the
// task's prose names: module anchors are scaled by importance, as symbols.
func TestEvaluateModuleImportance(t *testing.T) {
	ix := openFixture(t)
	moduleWeight := func(text string) float64 {
		t.Helper()
		e, _ := newEval(t, ix, text, Options{NoCompetition: true})
		ev := evalOne(t, e, loop.EvalInput{Task: text, Candidates: candidates("app/api/throttle.py")}, "app/api/throttle.py")
		for _, s := range signals(ev.Reason) {
			if strings.HasPrefix(s, "task names module app.api.throttle:+") {
				return reasonSum(t, s)
			}
		}
		t.Fatalf("%q: no module signal in %q", text, ev.Reason)
		return 0
	}
	prose := moduleWeight("Importing app.api.throttle fails on start")
	pasted := moduleWeight("Login fails after the upgrade\n\nThe login view rejects valid users since the upgrade.\n\n```python\nINSTALLED = ['app.api.throttle', 'app.auth.tokens', 'app.api.views']\n```\n")
	if prose != round2(WeightModule) || pasted >= prose || pasted < round2(WeightModule*MinImportance) {
		t.Errorf("module signal: named in prose %v (want %v), pasted in a block %v (want less, at least WeightModule×MinImportance)", prose, WeightModule, pasted)
	}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// A name the title gives counts fully, however often the body repeats other
// names; elsewhere importance follows keyword weight.
func TestImportanceTitle(t *testing.T) {
	ix := openFixture(t)
	body := strings.Repeat("TokenManager.issue returns TokenManager state; ", 6)
	text := "throttle rejects valid clients\n\n" + body + "\n\nhelper is fine."
	e, _ := newEval(t, ix, text, Options{})
	if got := e.importance("Throttle"); got != 1 {
		t.Errorf("importance(Throttle), named in the title in another case, = %v, want 1", got)
	}
	// The same words in the body, under another title.
	e2, _ := newEval(t, ix, "Clients are rejected\n\n"+body+"\n\nthrottle rejects valid clients", Options{})
	if got := e2.importance("Throttle"); got >= 1 {
		t.Errorf("importance(Throttle), named once in the body, = %v, want below 1", got)
	}
	if got := e.importance("helper"); got >= 1 {
		t.Errorf("importance(helper), named once in the body, = %v, want below 1", got)
	}
	if !e.inTitle("throttle") || e.inTitle("thrott") || e.inTitle("TokenManager") {
		t.Errorf("inTitle: want whole title words only, in any case")
	}
}

// A file lends links by its plain relevance while the loop holds our own
// judgment of it; when another evaluator (an LLM) judged it, by that
// judgment.
func TestLinkSourceJudgedByOthers(t *testing.T) {
	ix := openFixture(t)
	const text = "Fix login in app/api/views.py"
	const views, throttle = "app/api/views.py", "app/api/throttle.py"
	first := func() (*Evaluator, loop.Evaluation) {
		e, _ := newEval(t, ix, text, Options{})
		return e, evalOne(t, e, loop.EvalInput{Task: text, Cycle: 1, Candidates: candidates(views)}, views)
	}
	link := func(e *Evaluator, judged loop.Evaluation) bool {
		ev := evalOne(t, e, loop.EvalInput{Task: text, Cycle: 2, Candidates: candidates(throttle),
			Judged: map[string]loop.Evaluation{views: judged}}, throttle)
		return strings.Contains(ev.Reason, "imported by views.py")
	}
	e, ours := first()
	if !link(e, ours) {
		t.Fatalf("fixture: %s (%v) lends no link to %s", views, ours.Relevance, throttle)
	}
	// The same file judged irrelevant by someone else lends nothing.
	e, ours = first()
	other := ours
	other.Relevance = 0.1
	if link(e, other) {
		t.Errorf("%s judged 0.1 by another evaluator still lends links", views)
	}
}

// Support lifts a file one hop from the target that the task supports
// into the selection, below the target, and says how they are linked; at
// most MaxSupport files are lifted, and NoSupport turns it off.
func TestSupport(t *testing.T) {
	ix := openFixture(t)
	const text = "Fix login in app/api/views.py"
	const views, throttle = "app/api/views.py", "app/api/throttle.py"
	var all []string
	for i := 0; i < ix.Len(); i++ {
		all = append(all, ix.Path(index.ID(i)))
	}
	in := loop.EvalInput{Task: text, Cycle: 1, Candidates: candidates(all...)}
	judge := func(opts Options) map[string]loop.Evaluation {
		e, _ := newEval(t, ix, text, opts)
		evs, err := e.Evaluate(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]loop.Evaluation{}
		for _, ev := range evs {
			m[ev.Path] = ev
		}
		return m
	}
	off, on := judge(Options{NoSupport: true}), judge(Options{})
	if off[throttle].Relevance >= loop.DefaultThreshold {
		t.Fatalf("fixture: %s reaches the threshold without support (%v)", throttle, off[throttle].Relevance)
	}
	got := on[throttle]
	if got.Relevance < SupportBase || got.Relevance > SupportBase+SupportSpan || got.Relevance >= on[views].Relevance {
		t.Errorf("%s with support: %v, want in [%v, %v] and below %s's %v", throttle, got.Relevance, SupportBase, SupportBase+SupportSpan, views, on[views].Relevance)
	}
	if !strings.Contains(got.Reason, "context for views.py: defines Throttle, which views.py uses") {
		t.Errorf("%s's reason %q does not say how it is linked to views.py", throttle, got.Reason)
	}
	lifted := 0
	for p, ev := range on {
		if strings.Contains(ev.Reason, "context for") {
			lifted++
			if off[p].Relevance >= loop.DefaultThreshold {
				t.Errorf("%s was lifted although it reached the threshold on its own", p)
			}
		}
	}
	if lifted == 0 || lifted > MaxSupport {
		t.Errorf("%d files lifted, want 1 to %d", lifted, MaxSupport)
	}
}
