package hone_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

// A first answer (Options.FirstAnswer) on a tree larger than what it parses
// selects the files the complete index selects, says that its index was partial,
// and the next Open completes the index.
func TestFirstAnswer(t *testing.T) {
	for _, tc := range []struct{ fixture, task string }{
		{"testdata/auth-service", "Fix the authentication token expiry bug"},
		{"testdata/contoso-university", "Add pagination to the Students index page"},
	} {
		t.Run(filepath.Base(tc.fixture), func(t *testing.T) {
			// More files than a first answer parses, none about the task.
			dir := testrepo.Padded(t, tc.fixture, hone.FirstParse+50)
			ctx := context.Background()
			noHist := hone.History{Off: true}
			complete, err := hone.Open(ctx, dir, hone.Options{CacheDir: t.TempDir(), History: noHist})
			if err != nil {
				t.Fatal(err)
			}
			want, err := complete.Retrieve(ctx, tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if want.Stats.Unparsed != 0 || len(want.Files) == 0 {
				t.Fatalf("complete index: %d unparsed, %d files selected", want.Stats.Unparsed, len(want.Files))
			}

			cache := t.TempDir()
			opening := time.Now()
			first, err := hone.Open(ctx, dir, hone.Options{CacheDir: cache, History: noHist, FirstAnswer: true})
			if err != nil {
				t.Fatal(err)
			}
			openWall := time.Since(opening).Milliseconds()
			if st := first.IndexStats(); st.Unparsed != st.Files {
				t.Fatalf("first contact: %d of %d files unparsed, want all", st.Unparsed, st.Files)
			}
			called := time.Now()
			got, err := first.Retrieve(ctx, tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// The parse of the task's files counts once, as index time: the
			// index and retrieval times fit in the Open and the call.
			if wall := time.Since(called).Milliseconds(); got.Stats.IndexMs+got.Stats.RetrieveMs > openWall+wall+2 {
				t.Errorf("first answer: index %d ms and retrieve %d ms, in an Open of %d ms and a call of %d ms",
					got.Stats.IndexMs, got.Stats.RetrieveMs, openWall, wall)
			}
			if got.Stats.Unparsed < 50 || got.Stats.Unparsed >= got.Stats.FilesIndexed {
				t.Errorf("first answer: %d of %d files unparsed", got.Stats.Unparsed, got.Stats.FilesIndexed)
			}
			// The same files; their order may differ (the unparsed files'
			// empty symbols field shortens its average length in BM25F).
			if !slices.Equal(slices.Sorted(slices.Values(paths(got.Files))), slices.Sorted(slices.Values(paths(want.Files)))) {
				t.Errorf("first answer selects %v, the complete index %v", paths(got.Files), paths(want.Files))
			}

			next, err := hone.Open(ctx, dir, hone.Options{CacheDir: cache, History: noHist, FirstAnswer: true})
			if err != nil {
				t.Fatal(err)
			}
			if st := next.IndexStats(); st.Unparsed != 0 || st.Parsed != got.Stats.Unparsed {
				t.Errorf("next Open: %d unparsed, %d parsed; want 0 and %d", st.Unparsed, st.Parsed, got.Stats.Unparsed)
			}
			again, err := next.Retrieve(ctx, tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if again.Stats.Unparsed != 0 || !slices.Equal(paths(again.Ranked), paths(want.Ranked)) {
				t.Errorf("after completion: %d unparsed; ranking %v, want %v", again.Stats.Unparsed, paths(again.Ranked)[:5], paths(want.Ranked)[:5])
			}
		})
	}
}

// Runs of a CLI after a first contact (Opens that are not watched) each
// parse a bounded step of what the first answer left unparsed: the index
// completes over a bounded number of runs, each leaving fewer files
// unparsed, and then ranks as the complete index does.
func TestFirstAnswerCompletesInSteps(t *testing.T) {
	const step = 2000 // bytes a run parses (CompleteStep)
	hone.SetCompleteStep(t, step)
	dir := testrepo.Padded(t, "testdata/auth-service", hone.FirstParse+50)
	var total int64 // bytes in the tree: more than it indexes
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			total += fi.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	noHist := hone.History{Off: true}
	const task = "Fix the authentication token expiry bug"
	complete, err := hone.Open(ctx, dir, hone.Options{CacheDir: t.TempDir(), History: noHist})
	if err != nil {
		t.Fatal(err)
	}
	want, err := complete.Retrieve(ctx, task, hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}

	cache := t.TempDir()
	unparsed := -1
	maxRuns := int(total/step) + 2
	for run := 1; ; run++ {
		r, err := hone.Open(ctx, dir, hone.Options{CacheDir: cache, History: noHist, FirstAnswer: true})
		if err != nil {
			t.Fatal(err)
		}
		st := r.IndexStats()
		if run == 2 && st.Unparsed == 0 {
			t.Fatalf("the run after a first contact parsed all %d files, not a step of %d bytes", st.Parsed, step)
		}
		got, err := r.Retrieve(ctx, task, hone.RetrieveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if unparsed >= 0 && got.Stats.Unparsed >= unparsed {
			t.Fatalf("run %d: %d unparsed, %d after the run before", run, got.Stats.Unparsed, unparsed)
		}
		unparsed = got.Stats.Unparsed
		if unparsed == 0 {
			if !slices.Equal(paths(got.Ranked), paths(want.Ranked)) {
				t.Errorf("run %d, complete: ranking %v, want %v", run, paths(got.Ranked), paths(want.Ranked))
			}
			t.Logf("complete after %d runs", run)
			break
		}
		if run >= maxRuns {
			t.Fatalf("%d unparsed after %d runs", unparsed, run)
		}
	}
	// A run on the complete index reads nothing.
	r, err := hone.Open(ctx, dir, hone.Options{CacheDir: cache, History: noHist, FirstAnswer: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := r.IndexStats(); st.Parsed != 0 || st.Lexical != 0 || st.Unparsed != 0 || st.Reused != st.Files {
		t.Errorf("a run after completion: %+v", st)
	}
}

// A long-lived Repo (Watch) completes a first answer's index in the
// background.
func TestFirstAnswerCompletesInBackground(t *testing.T) {
	dir := testrepo.Padded(t, "testdata/auth-service", 30)
	ctx := context.Background()
	repo, err := hone.Open(ctx, dir, hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}, FirstAnswer: true, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	// A server refreshes before each call: that keeps the first answer's
	// index as it is, for the retrieval to parse what it needs.
	n := repo.IndexStats().Unparsed
	if err := repo.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if got := repo.IndexStats().Unparsed; got != n || n == 0 {
		t.Fatalf("Refresh before the first retrieval: %d unparsed, %d before", got, n)
	}
	res, err := repo.Retrieve(ctx, "Fix the authentication token expiry bug", hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Unparsed == 0 {
		t.Fatal("the first answer's index was complete: the test exercises nothing")
	}
	deadline := time.Now().Add(20 * time.Second)
	for repo.IndexStats().Unparsed > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("index still has %d unparsed files after 20 s", repo.IndexStats().Unparsed)
		}
		time.Sleep(20 * time.Millisecond)
	}
	again, err := repo.Retrieve(ctx, "Fix the authentication token expiry bug", hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Stats.Unparsed != 0 {
		t.Errorf("after the background completion: %d unparsed", again.Stats.Unparsed)
	}
}

// A cancelled retrieval on a first answer's index ends as one on a complete
// index does (the context's error, the loop's result so far), not as a
// failure of the index.
func TestFirstAnswerCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var results []*hone.Result
	for _, first := range []bool{false, true} {
		repo, err := hone.Open(context.Background(), "testdata/auth-service", hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}, FirstAnswer: first})
		if err != nil {
			t.Fatal(err)
		}
		res, err := repo.Retrieve(ctx, "Fix the authentication token expiry bug", hone.RetrieveOptions{})
		if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "index") {
			t.Fatalf("first answer %v: Retrieve on a cancelled context: %v, want the loop's context.Canceled", first, err)
		}
		results = append(results, res)
	}
	if (results[0] == nil) != (results[1] == nil) {
		t.Errorf("cancelled: complete index gives %v, first answer %v", results[0], results[1])
	}
}

// When the task's files cannot be parsed (here the tree is gone), a first
// answer still answers, from the files' words.
func TestFirstAnswerWithoutItsParse(t *testing.T) {
	dir := testrepo.Padded(t, "testdata/auth-service", 0)
	repo, err := hone.Open(context.Background(), dir, hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}, FirstAnswer: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	res, err := repo.Retrieve(context.Background(), "Fix the authentication token expiry bug", hone.RetrieveOptions{})
	if err != nil || len(res.Ranked) == 0 || res.Stats.Unparsed != res.Stats.FilesIndexed {
		t.Fatalf("Retrieve after the tree went: %v; want an answer from the unparsed index", err)
	}
}

// Close stops a background completion and waits for it: nothing writes to
// the cache after Close returns.
func TestFirstAnswerCloseStopsCompletion(t *testing.T) {
	cache := t.TempDir()
	repo, err := hone.Open(context.Background(), "testdata/auth-service", hone.Options{CacheDir: cache, History: hone.History{Off: true}, FirstAnswer: true, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Retrieve(context.Background(), "Fix the authentication token expiry bug", hone.RetrieveOptions{}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- repo.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return in 20 s")
	}
	before := fmt.Sprint(os.ReadDir(cache))
	time.Sleep(100 * time.Millisecond)
	if after := fmt.Sprint(os.ReadDir(cache)); after != before {
		t.Errorf("the cache changed after Close:\n%s\n%s", before, after)
	}
}

// A stepwise session started on a first answer's partial index goes on from
// the complete index, which the background completion builds: on a small
// tree its first judgments wait for it, its next refinement says so, and a
// session started on a complete index never does.
func TestFirstAnswerSessionMovesToCompleteIndex(t *testing.T) {
	dir := testrepo.Padded(t, "testdata/auth-service", 30)
	ctx := context.Background()
	const task = "Fix the authentication token expiry bug"
	moved := func(sess *loop.Session) bool {
		t.Helper()
		cands, err := sess.Dispatch(ctx)
		if err != nil || len(cands) == 0 {
			t.Fatalf("dispatch: %d candidates, %v", len(cands), err)
		}
		evals := make([]loop.Evaluation, len(cands))
		for i, c := range cands {
			evals[i] = loop.Evaluation{Path: c.Path, Relevance: 0.1, Reason: "not it"}
		}
		if _, err := sess.Judge(ctx, evals); err != nil {
			t.Fatal(err)
		}
		ref := sess.Result().Cycles[0].Refinement
		return ref != nil && slices.ContainsFunc(ref.Why, func(w string) bool { return strings.Contains(w, "the index is complete now") })
	}
	repo, err := hone.Open(ctx, dir, hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}, FirstAnswer: true, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	sess, err := repo.Start(ctx, task, hone.RetrieveOptions{Loop: loop.Options{Candidates: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if repo.IndexStats().Unparsed == 0 {
		t.Fatal("the session's index was complete: the test exercises nothing")
	}
	// The tree is small (under hone.AwaitBytes): the first judgments wait
	// for the completion, however fast they come.
	if !moved(sess) {
		t.Errorf("a session started on a partial index stayed on it after the index was completed: %+v", sess.Result().Cycles[0].Refinement)
	}
	// Started now, on the complete index: nothing to move to.
	again, err := repo.Start(ctx, task, hone.RetrieveOptions{Loop: loop.Options{Candidates: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if moved(again) {
		t.Error("a session started on a complete index says it moved")
	}
}

// lowJudge judges every candidate unrelated: the loop runs its cycles.
type lowJudge struct{}

func (lowJudge) Evaluate(_ context.Context, in loop.EvalInput) ([]loop.Evaluation, error) {
	out := make([]loop.Evaluation, len(in.Candidates))
	for i, c := range in.Candidates {
		out[i] = loop.Evaluation{Path: c.Path, Relevance: 0.1, Reason: "not it"}
	}
	return out, nil
}

// A retrieval judged by an Evaluator of the caller's (an LLM) on a first
// answer's index, in a Repo that is not watched (the CLI), completes the
// index while the judge reads its first cycle and goes on from it; Close
// ends the completion.
func TestFirstAnswerJudgedRetrievalMovesToCompleteIndex(t *testing.T) {
	dir := testrepo.Padded(t, "testdata/auth-service", 30)
	ctx := context.Background()
	repo, err := hone.Open(ctx, dir, hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}, FirstAnswer: true})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	if repo.IndexStats().Unparsed == 0 {
		t.Fatal("the index was complete: the test exercises nothing")
	}
	// As the CLI wires an LLM: hone's own evaluator first, which parses the
	// task's files, so that the retrieval finds nothing left to parse.
	if _, err := repo.LocalEvaluator("Fix the authentication token expiry bug", hone.RetrieveOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := repo.Retrieve(ctx, "Fix the authentication token expiry bug",
		hone.RetrieveOptions{Evaluator: lowJudge{}, Loop: loop.Options{Candidates: 5, MaxCycles: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cycles) < 2 || res.Cycles[0].Refinement == nil ||
		!slices.ContainsFunc(res.Cycles[0].Refinement.Why, func(w string) bool { return strings.Contains(w, "the index is complete now") }) {
		t.Fatalf("the judged retrieval did not move to the complete index: %d cycles, first refinement %+v", len(res.Cycles), res.Cycles[0].Refinement)
	}
	if got := repo.IndexStats().Unparsed; got != 0 {
		t.Errorf("after the retrieval, %d files unparsed", got)
	}
	// hone's own evaluator needs no time to read: it runs on the first
	// answer's index, as before.
	fresh, err := hone.Open(ctx, dir, hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}, FirstAnswer: true})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	local, err := fresh.Retrieve(ctx, "Fix the authentication token expiry bug", hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if local.Stats.Unparsed == 0 || fresh.IndexStats().Unparsed == 0 {
		t.Errorf("hone's own evaluator on a first answer: %d unparsed in the answer, %d after; want the partial index kept", local.Stats.Unparsed, fresh.IndexStats().Unparsed)
	}
}
