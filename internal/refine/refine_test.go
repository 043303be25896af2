package refine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hone-dev/hone/internal/search"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/loop"
)

func termsOf(ks []loop.Keyword, origin string) []string {
	var out []string
	for _, k := range ks {
		if origin == "" || k.Origin == origin {
			out = append(out, k.Term)
		}
	}
	return out
}

func keyword(ks []loop.Keyword, term string) (loop.Keyword, bool) {
	for _, k := range ks {
		if k.Term == term {
			return k, true
		}
	}
	return loop.Keyword{}, false
}

func TestInitial(t *testing.T) {
	ix := openFixture(t)
	tests := []struct {
		name      string
		text      string
		wantFocus []string
	}{
		{"plain words", "The token expiry check is wrong", nil},
		{"a path and two symbols", "Fix app/api/views.py: `TokenManager` and `Throttle` misbehave",
			[]string{"file:app/api/views.py", "symbol:Throttle", "symbol:TokenManager"}},
		{"a module", "Importing app.api.throttle fails on start", []string{"file:app/api/throttle.py"}},
		{"a trace frame", "Login fails\nTraceback (most recent call last):\n  File \"/srv/site-packages/app/api/views.py\", line 6, in login\n    x()\nRuntimeError: refused",
			[]string{"file:app/api/views.py", "symbol:login"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, tk, _ := newRefiner(t, ix, tt.text, Options{NoAssociations: true})
			q, err := r.Initial(context.Background(), tt.text)
			if err != nil {
				t.Fatal(err)
			}
			// The task's keywords first, as parsed, then the variants of plain
			// words that the repository uses.
			var want []loop.Keyword
			have := map[string]bool{}
			for _, k := range tk.Keywords {
				if !have[k.Text] {
					have[k.Text] = true
					want = append(want, loop.Keyword{Term: k.Text, Weight: k.Weight, Origin: k.Origin})
				}
			}
			for _, k := range tk.Keywords {
				if k.Origin != task.OriginWord {
					continue
				}
				for _, v := range ix.Variants(k.Text) {
					if !have[v] {
						have[v] = true
						want = append(want, loop.Keyword{Term: v, Weight: k.Weight * StemWeight, Origin: "stem", For: k.Text})
					}
				}
			}
			if diff := cmp.Diff(want, q.Keywords); diff != "" {
				t.Errorf("Initial(%q).Keywords (-want +got):\n%s", tt.text, diff)
			}
			if diff := cmp.Diff([]string{search.CatchAll}, q.Patterns); diff != "" {
				t.Errorf("Initial(%q).Patterns (-want +got):\n%s", tt.text, diff)
			}
			if q.Excludes == nil || len(q.Excludes) != 0 {
				t.Errorf("Initial(%q).Excludes = %#v, want empty, not nil", tt.text, q.Excludes)
			}
			if diff := cmp.Diff(tt.wantFocus, q.FocusAreas); diff != "" {
				t.Errorf("Initial(%q).FocusAreas (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestInitialVariants(t *testing.T) {
	ix := openFixture(t)
	const text = "The token expiry check is wrong"
	r, _, _ := newRefiner(t, ix, text, Options{NoAssociations: true})
	q, err := r.Initial(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	// The repository says "expired" and "expires" where the task says "expiry".
	for _, v := range []string{"expired", "expires"} {
		k, ok := keyword(q.Keywords, v)
		want := loop.Keyword{Term: v, Weight: 2 * StemWeight, Origin: "stem", For: "expiry"}
		if !ok || k != want {
			t.Errorf("Initial(%q) keyword %q = %+v (found %v), want %+v", text, v, k, ok, want)
		}
	}
}

func TestInitialSynonyms(t *testing.T) {
	ix := openFixture(t)
	const text = "The rate limit is too strict"
	r, _, _ := newRefiner(t, ix, text, Options{})
	q, err := r.Initial(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	k, ok := keyword(q.Keywords, "throttle")
	if want := (loop.Keyword{Term: "throttle", Weight: 2 * SynonymWeight, Origin: "synonym", For: "rate limit"}); !ok || k != want {
		t.Errorf("Initial(%q) keyword throttle = %+v (found %v), want %+v", text, k, ok, want)
	}
	for _, s := range termsOf(q.Keywords, "synonym") {
		if ix.DocFreq(s) == 0 {
			t.Errorf("Initial(%q) added synonym %q, which the repository never uses", text, s)
		}
	}
	r, _, _ = newRefiner(t, ix, text, Options{NoAssociations: true})
	q, err = r.Initial(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	if got := termsOf(q.Keywords, "synonym"); got != nil {
		t.Errorf("Initial(%q) with NoAssociations added synonyms %v", text, got)
	}
}

func TestInitialCancelled(t *testing.T) {
	ix := openFixture(t)
	r, _, _ := newRefiner(t, ix, "The token expiry check is wrong", Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Initial(ctx, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("Initial(cancelled) error = %v, want context.Canceled", err)
	}
}

// baseQuery is a first query for text with no synonyms, as REFINE receives it.
func baseQuery(t *testing.T, r *Refiner, text string) loop.Query {
	t.Helper()
	q, err := r.Initial(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestRefine(t *testing.T) {
	ix := openFixture(t)
	const text = "The bucket refill is slow"
	const throttle, views, tokens, guide = "app/api/throttle.py", "app/api/views.py", "app/auth/tokens.py", "docs/guide.md"
	learned := func(id string) []string {
		i, _ := ix.Lookup(id)
		return ix.Distinctive(i, 8)
	}
	tests := []struct {
		name  string
		evals []loop.Evaluation
		check func(t *testing.T, q loop.Query, ref loop.Refinement)
	}{
		{
			name: "terms learned from a relevant file",
			evals: []loop.Evaluation{
				{Path: throttle, Relevance: 0.9, Learned: learned(throttle)},
				{Path: views, Relevance: 0.4, Learned: []string{"login"}},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				// bucket and refill are the task's; rate, client, limit, token
				// are rare enough; the file's own name counts too.
				got := termsOf(q.Keywords, "learned")
				if len(got) == 0 || len(got) > MaxLearned {
					t.Fatalf("learned %v, want 1 to MaxLearned terms", got)
				}
				common := int(maxCommonShare*float64(ix.Len())) + 1
				for _, term := range got {
					k, _ := keyword(q.Keywords, term)
					if k.Weight != LearnedWeight {
						t.Errorf("learned %+v, want weight LearnedWeight", k)
					}
					if !slices.Contains(learned(throttle), term) {
						t.Errorf("learned %q, which is not a term of %s", term, throttle)
					}
					if df := ix.DocFreq(term); df == 0 || df > common {
						t.Errorf("learned %q in %d files, want 1 to %d", term, df, common)
					}
					if term == "bucket" || term == "refill" || term == "login" {
						t.Errorf("learned %q, which the query had or a file below the threshold offered", term)
					}
				}
				if !slices.Equal(ref.AddedKeywords[:len(got)], got) {
					t.Errorf("Refinement.AddedKeywords = %v, want the learned %v first", ref.AddedKeywords, got)
				}
				if !slices.ContainsFunc(ref.Why, func(s string) bool {
					return strings.HasPrefix(s, "learned '") && strings.HasSuffix(s, "from throttle.py")
				}) {
					t.Errorf("Refinement.Why = %q, want a line on what was learned from throttle.py", ref.Why)
				}
			},
		},
		{
			name: "with nothing at the threshold the best two at 0.5 teach",
			evals: []loop.Evaluation{
				{Path: throttle, Relevance: 0.6, Learned: []string{"client"}},
				{Path: views, Relevance: 0.55, Learned: []string{"login"}},
				{Path: tokens, Relevance: 0.5, Learned: []string{"datetime"}},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if got := termsOf(q.Keywords, "learned"); !slices.Equal(got, []string{"client", "login"}) {
					t.Errorf("learned %v, want [client login]", got)
				}
				if diff := cmp.Diff([]string{"app/api/**"}, ref.AddedPatterns); diff != "" {
					t.Errorf("AddedPatterns (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "short, stop-word, unknown and common terms are not learned",
			evals: []loop.Evaluation{
				{Path: throttle, Relevance: 0.9, Learned: []string{"ab", "the", "zebra", "request", "Client"}},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if got := termsOf(q.Keywords, "learned"); !slices.Equal(got, []string{"client"}) {
					t.Errorf("learned %v, want [client] (request is in %d files)", got, ix.DocFreq("request"))
				}
			},
		},
		{
			name: "terms several relevant files offer come first",
			evals: []loop.Evaluation{
				{Path: throttle, Relevance: 0.9, Learned: []string{"client", "limit"}},
				{Path: views, Relevance: 0.8, Learned: []string{"login", "limit"}},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if got := termsOf(q.Keywords, "learned"); !slices.Equal(got, []string{"limit", "client", "login"}) {
					t.Errorf("learned %v, want [limit client login]", got)
				}
			},
		},
		{
			name: "directories of relevant files become preferred patterns",
			evals: []loop.Evaluation{
				{Path: throttle, Relevance: 0.9},
				{Path: views, Relevance: 0.9},
				{Path: tokens, Relevance: 0.8},
				{Path: "setup.py", Relevance: 0.8},
				{Path: guide, Relevance: 0.7},
				{Path: "tests/test_throttle.py", Relevance: 0.7},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				want := []string{"app/api/**", "app/auth/**", "docs/**"}
				if diff := cmp.Diff(want, ref.AddedPatterns); diff != "" {
					t.Errorf("AddedPatterns (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(append([]string{search.CatchAll}, want...), q.Patterns); diff != "" {
					t.Errorf("Patterns (-want +got):\n%s", diff)
				}
				if len(ref.AddedPatterns) > MaxPatterns {
					t.Errorf("AddedPatterns = %v, more than MaxPatterns", ref.AddedPatterns)
				}
			},
		},
		{
			name: "files below ExcludeBelow are excluded once one file is relevant",
			evals: []loop.Evaluation{
				{Path: throttle, Relevance: 0.9},
				{Path: views, Relevance: ExcludeBelow},
				{Path: tokens, Relevance: ExcludeBelow - 0.01},
				{Path: guide, Relevance: 0},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if diff := cmp.Diff([]string{tokens, guide}, ref.Excluded); diff != "" {
					t.Errorf("Excluded (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff([]string{tokens, guide}, q.Excludes); diff != "" {
					t.Errorf("Excludes (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "paths with glob metacharacters are excluded and preferred literally",
			evals: []loop.Evaluation{
				{Path: "web/app/[slug]/page.tsx", Relevance: 0.9},
				{Path: "docs/api/operator[].md", Relevance: 0.1},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if diff := cmp.Diff([]string{"docs/api/operator[].md"}, ref.Excluded); diff != "" {
					t.Errorf("Excluded (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff([]string{`docs/api/operator\[\].md`}, q.Excludes); diff != "" {
					t.Errorf("Excludes (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff([]string{`web/app/\[slug\]/**`}, ref.AddedPatterns); diff != "" {
					t.Errorf("AddedPatterns (-want +got):\n%s", diff)
				}
				// The query stays valid for the searcher.
				if _, err := search.New(ix, search.Options{}).Search(context.Background(), q, 10); err != nil {
					t.Errorf("Search(refined query) = %v", err)
				}
			},
		},
		{
			name: "nothing is excluded while no file is relevant",
			evals: []loop.Evaluation{
				{Path: throttle, Relevance: 0.6},
				{Path: tokens, Relevance: 0.1},
				{Path: guide, Relevance: 0},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if len(ref.Excluded) != 0 || len(q.Excludes) != 0 {
					t.Errorf("Excluded = %v, Excludes = %v; want none", ref.Excluded, q.Excludes)
				}
			},
		},
		{
			name: "a missing definition becomes a symbol focus",
			evals: []loop.Evaluation{
				{Path: views, Relevance: 0.6, MissingContext: []string{"definition of TokenManager"}},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if diff := cmp.Diff([]string{"symbol:TokenManager"}, ref.AddedFocus); diff != "" {
					t.Errorf("AddedFocus (-want +got):\n%s", diff)
				}
				if !slices.Contains(q.FocusAreas, "symbol:TokenManager") {
					t.Errorf("FocusAreas = %v, want symbol:TokenManager", q.FocusAreas)
				}
				if !slices.Contains(ref.Why, "look up the definition of TokenManager (views.py)") {
					t.Errorf("Why = %q, want the look-up explained", ref.Why)
				}
			},
		},
		{
			name: "a missing caller becomes a keyword",
			evals: []loop.Evaluation{
				{Path: throttle, Relevance: 0.6, MissingContext: []string{"caller of allow"}},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				k, ok := keyword(q.Keywords, "allow")
				if want := (loop.Keyword{Term: "allow", Weight: GapWeight, Origin: "gap"}); !ok || k != want {
					t.Errorf("keyword allow = %+v (found %v), want %+v", k, ok, want)
				}
				if len(ref.AddedFocus) != 0 {
					t.Errorf("AddedFocus = %v, want none for a caller", ref.AddedFocus)
				}
				if !slices.Contains(ref.Why, "search for the caller of allow (throttle.py)") {
					t.Errorf("Why = %q, want the search explained", ref.Why)
				}
			},
		},
		{
			name: "an undefined name in a gap becomes a keyword when the repository uses it",
			evals: []loop.Evaluation{
				{Path: views, Relevance: 0.6, MissingContext: []string{"definition of Token", "definition of NowhereAtAll"}},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if got := termsOf(q.Keywords, "gap"); !slices.Equal(got, []string{"token"}) {
					t.Errorf("gap keywords %v, want [token]", got)
				}
				if k, _ := keyword(q.Keywords, "token"); k.Weight != GapWeight {
					t.Errorf("gap keyword %+v, want weight GapWeight", k)
				}
				if _, ok := keyword(q.Keywords, "nowhereatall"); ok {
					t.Errorf("a name nobody uses became a keyword")
				}
				if len(ref.AddedFocus) != 0 {
					t.Errorf("AddedFocus = %v, want none for undefined names", ref.AddedFocus)
				}
			},
		},
		{
			name: "gaps of files below 0.5 are ignored",
			evals: []loop.Evaluation{
				{Path: views, Relevance: 0.49, MissingContext: []string{"definition of TokenManager", "caller of allow"}},
			},
			check: func(t *testing.T, q loop.Query, ref loop.Refinement) {
				if len(ref.AddedFocus) != 0 || slices.Contains(termsOf(q.Keywords, ""), "allow") {
					t.Errorf("AddedFocus = %v, keywords %v; want no look-ups", ref.AddedFocus, termsOf(q.Keywords, ""))
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _, _ := newRefiner(t, ix, text, Options{NoAssociations: true})
			in := loop.RefineInput{Task: text, Cycle: 1, Query: baseQuery(t, r, text), Evaluations: tt.evals}
			orig := in.Query.Clone()
			q, ref, err := r.Refine(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, q, ref)
			if diff := cmp.Diff(orig, in.Query, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Refine() changed its input query (-before +after):\n%s", diff)
			}
			// The next query keeps everything the last one had.
			for _, k := range orig.Keywords {
				if got, ok := keyword(q.Keywords, k.Term); !ok || got != k {
					t.Errorf("Refine() dropped or changed keyword %+v", k)
				}
			}
			// Every change is explained.
			if !ref.Empty() && len(ref.Why) == 0 {
				t.Errorf("Refine() changed the query (%+v) with no Why", ref)
			}
			if ref.Empty() && len(ref.Associations) == 0 && len(ref.Why) != 0 {
				t.Errorf("Refine() changed nothing but says why: %q", ref.Why)
			}
			for _, l := range [][]string{ref.AddedKeywords, ref.AddedPatterns, ref.Excluded, ref.AddedFocus, ref.Associations, ref.Why} {
				if l == nil {
					t.Errorf("Refinement %+v has a nil list, want []", ref)
				}
			}
		})
	}
}

func TestRefineNothingToAdd(t *testing.T) {
	ix := openFixture(t)
	const text = "The bucket refill is slow"
	r, _, _ := newRefiner(t, ix, text, Options{NoAssociations: true})
	q, ref, err := r.Refine(context.Background(), loop.RefineInput{Task: text, Cycle: 1, Query: baseQuery(t, r, text),
		Evaluations: []loop.Evaluation{{Path: "setup.py", Relevance: 0.3}}})
	if err != nil {
		t.Fatal(err)
	}
	if !ref.Empty() || len(ref.Why) != 0 {
		t.Errorf("Refine() = %+v, want an empty refinement", ref)
	}
	if diff := cmp.Diff(baseQuery(t, r, text), q, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Refine() changed the query (-want +got):\n%s", diff)
	}
}

func TestRefineAssociations(t *testing.T) {
	ix := openFixture(t)
	const text = "The rate limit is too strict"
	tests := []struct {
		name      string
		opts      Options
		relevant  int
		wantAssoc bool
	}{
		{"fewer than MinFiles relevant files", Options{}, 1, true},
		{"MinFiles relevant files", Options{}, 3, false},
		{"MinFiles from options", Options{MinFiles: 5}, 3, true},
		{"switched off", Options{NoAssociations: true}, 0, false},
	}
	paths := []string{"app/api/throttle.py", "app/api/views.py", "app/auth/tokens.py", "docs/guide.md"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, tk, _ := newRefiner(t, ix, text, tt.opts)
			var evals []loop.Evaluation
			for i, p := range paths {
				rel := 0.3
				if i < tt.relevant {
					rel = 0.9
				}
				evals = append(evals, loop.Evaluation{Path: p, Relevance: rel})
			}
			// The task's own words, without the synonyms Initial adds, so that
			// the repository's associations have room.
			var q loop.Query
			q.Patterns = []string{search.CatchAll}
			for _, k := range tk.Keywords {
				q.Keywords = append(q.Keywords, loop.Keyword{Term: k.Text, Weight: k.Weight, Origin: k.Origin})
			}
			got, ref, err := r.Refine(context.Background(), loop.RefineInput{Task: text, Cycle: 1, Query: q, Evaluations: evals})
			if err != nil {
				t.Fatal(err)
			}
			assoc := termsOf(got.Keywords, "association")
			if (len(assoc) > 0) != tt.wantAssoc {
				t.Fatalf("Refine() associations %v (%q), want some = %v", assoc, ref.Associations, tt.wantAssoc)
			}
			if len(ref.Associations) != len(assoc) {
				t.Errorf("Refinement.Associations = %q for keywords %v, want one note each", ref.Associations, assoc)
			}
			words := map[string]bool{}
			for _, k := range tk.Keywords {
				words[k.Text] = true
			}
			for _, a := range assoc {
				k, _ := keyword(got.Keywords, a)
				if k.Weight < AssocWeight*MinAssoc || k.Weight > AssocWeight {
					t.Errorf("association %+v, want weight AssocWeight × a score in [MinAssoc, 1]", k)
				}
				if !words[k.For] {
					t.Errorf("association %+v stands for %q, not a task word", k, k.For)
				}
				if !slices.Contains(ref.AddedKeywords, a) {
					t.Errorf("association %q missing from AddedKeywords %v", a, ref.AddedKeywords)
				}
			}
			if tt.wantAssoc && !slices.ContainsFunc(ref.Why, func(s string) bool { return strings.Contains(s, "add terms the repository uses") }) {
				t.Errorf("Why = %q, want the associations explained", ref.Why)
			}
			// The rate limiter is named Throttle: its name is what the
			// repository calls the task's concept.
			if tt.wantAssoc && !slices.Contains(assoc, "throttle") {
				t.Errorf("associations %v (%q), want throttle", assoc, ref.Associations)
			}
		})
	}
}

func TestRefineCancelled(t *testing.T) {
	ix := openFixture(t)
	const text = "The bucket refill is slow"
	r, _, _ := newRefiner(t, ix, text, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := r.Refine(ctx, loop.RefineInput{Task: text, Cycle: 1, Query: baseQuery(t, r, text)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Refine(cancelled) error = %v, want context.Canceled", err)
	}
}
