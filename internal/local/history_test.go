package local

import (
	"context"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/history"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/search"
	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

// TestEvaluateHistory: files that past commits like the task touched get
// the history signal, scaled so that the best source file (not the tests
// that every fix touches) gets the full weight.
func TestEvaluateHistory(t *testing.T) {
	testrepo.NeedGit(t)
	dir := t.TempDir()
	testrepo.Git(t, dir, "init", "-q", "-b", "main")
	code := "def allow(client):\n    return True\n"
	testrepo.Commit(t, dir, "Add the API", map[string]string{"app/throttle.py": code, "app/views.py": code,
		"tests/test_throttle.py": "def test_allow():\n    pass\n"})
	testrepo.Commit(t, dir, "Throttle burst window: fix the refill", map[string]string{
		"app/throttle.py": code + "# refill\n", "tests/test_throttle.py": "def test_refill():\n    pass\n"})
	testrepo.Commit(t, dir, "Throttle burst window: more tests", map[string]string{
		"tests/test_throttle.py": "def test_refill():\n    pass\ndef test_burst():\n    pass\n"})
	ctx := context.Background()
	log, _, err := history.Load(ctx, history.Source{Dir: dir}, history.Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.Open(ctx, dir, index.Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	const text = "The burst window never refills"
	in := loop.EvalInput{Task: text, Candidates: candidates("app/throttle.py", "app/views.py", "tests/test_throttle.py")}
	e, _ := newEval(t, ix, text, Options{History: log, Demote: search.Options{DemoteTests: true}})
	got := evalOne(t, e, in, "app/throttle.py").Reason
	if !strings.Contains(got, "past commits like the task touched it (1, best ") || !strings.Contains(got, "):+0.20") {
		t.Errorf("throttle.py: %s\nwant the full history weight %.2f", got, WeightHistory)
	}
	// The test file had more such commits, but the scale is the source file's.
	if got := evalOne(t, e, in, "tests/test_throttle.py").Reason; !strings.Contains(got, "past commits like the task touched it (2, best") {
		t.Errorf("test_throttle.py: %s", got)
	}
	if got := evalOne(t, e, in, "app/views.py").Reason; strings.Contains(got, "past commits") {
		t.Errorf("views.py has a history reason, but no commit like the task touched it: %s", got)
	}
	off, _ := newEval(t, ix, text, Options{Demote: search.Options{DemoteTests: true}})
	if got := evalOne(t, off, in, "app/throttle.py").Reason; strings.Contains(got, "past commits") {
		t.Errorf("without a log: %s", got)
	}
}
