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
	log, ix := logAndIndex(t, dir)
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

// TestSupportCoChange: a file the target changed with in most of its past
// commits is one hop from it, as an import would be: Support lifts it into
// the selection when the task speaks for it too, and says why. Without the
// log, nothing links the two sides of the protocol.
func TestSupportCoChange(t *testing.T) {
	testrepo.NeedGit(t)
	dir := t.TempDir()
	testrepo.Git(t, dir, "init", "-q", "-b", "main")
	client := "def send_request(session, payload):\n    \"\"\"Send the payload; the quota header says what is left.\"\"\"\n    headers = {'X-Quota': str(session.quota)}\n    return session.post('/ingest', payload, headers=headers)\n"
	server := "def ingest(request):\n    \"\"\"Every request carries the quota header the client sends.\"\"\"\n    left = int(request.headers.get('X-Quota', '0'))\n    if left <= 0:\n        return reject(request)\n    return accept(request)\n"
	other := "def render(page):\n    return page.title\n"
	testrepo.Commit(t, dir, "Start", map[string]string{"sdk/client.py": client, "service/ingest.py": server, "web/pages.py": other})
	for i, msg := range []string{"Rename the header", "Count down on both sides", "Reject at zero"} {
		testrepo.Commit(t, dir, msg, map[string]string{"sdk/client.py": client + strings.Repeat("#\n", i+1), "service/ingest.py": server + strings.Repeat("#\n", i+1)})
	}
	testrepo.Commit(t, dir, "Page titles", map[string]string{"web/pages.py": other + "#\n"})
	ctx := context.Background()
	log, ix := logAndIndex(t, dir)
	const text = "send_request should send the quota header"
	in := loop.EvalInput{Task: text, Candidates: candidates("sdk/client.py", "service/ingest.py", "web/pages.py")}
	for _, c := range []struct {
		name   string
		log    *history.Log
		lifted bool
	}{{"with the log", log, true}, {"without", nil, false}} {
		e, _ := newEval(t, ix, text, Options{History: c.log})
		evs, err := e.Evaluate(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		by := map[string]loop.Evaluation{}
		for _, ev := range evs {
			by[ev.Path] = ev
		}
		if by["sdk/client.py"].Relevance < loop.DefaultThreshold {
			t.Fatalf("%s: the target client.py scored %v: %s", c.name, by["sdk/client.py"].Relevance, by["sdk/client.py"].Reason)
		}
		ing := by["service/ingest.py"]
		lifted := ing.Relevance >= loop.DefaultThreshold && strings.Contains(ing.Reason, "changed with client.py in 4 of its 4 past commits")
		if lifted != c.lifted {
			t.Errorf("%s: ingest.py %v: %s; want lifted %v", c.name, ing.Relevance, ing.Reason, c.lifted)
		}
		if p := by["web/pages.py"]; p.Relevance >= loop.DefaultThreshold {
			t.Errorf("%s: pages.py selected: %s", c.name, p.Reason)
		}
	}
}

// TestActivity: of two copies of a module, the one the project still
// changes ranks first; the log says which.
func TestActivity(t *testing.T) {
	testrepo.NeedGit(t)
	dir := t.TempDir()
	testrepo.Git(t, dir, "init", "-q", "-b", "main")
	code := "def parse_retry_after(header):\n    \"\"\"Seconds to wait, from a Retry-After header.\"\"\"\n    return int(header)\n"
	testrepo.Commit(t, dir, "Start", map[string]string{"legacy/client.py": code, "client/client.py": code, "web/page.py": "x = 1\n"})
	for i, msg := range []string{"Tidy", "Docs", "Types"} {
		testrepo.Commit(t, dir, msg, map[string]string{"client/client.py": code + strings.Repeat("#\n", i+1)})
	}
	log, ix := logAndIndex(t, dir)
	const text = "parse_retry_after fails on an HTTP date"
	in := loop.EvalInput{Task: text, Candidates: candidates("legacy/client.py", "client/client.py")}
	e, _ := newEval(t, ix, text, Options{History: log})
	cur, old := evalOne(t, e, in, "client/client.py"), evalOne(t, e, in, "legacy/client.py")
	if cur.Relevance <= old.Relevance || !strings.Contains(cur.Reason, "changed by 4 commits") || !strings.Contains(old.Reason, "changed by 1 commit:") {
		t.Errorf("client/client.py %v (%s)\nlegacy/client.py %v (%s)\nwant the maintained copy first, each with its commits",
			cur.Relevance, cur.Reason, old.Relevance, old.Reason)
	}
	off, _ := newEval(t, ix, text, Options{})
	if a, b := evalOne(t, off, in, "client/client.py"), evalOne(t, off, in, "legacy/client.py"); a.Relevance != b.Relevance {
		t.Errorf("without the log the copies differ: %v vs %v", a.Relevance, b.Relevance)
	}
}

// logAndIndex reads dir's commit log and indexes its tree, both uncached.
func logAndIndex(t *testing.T, dir string) (*history.Log, *index.Index) {
	t.Helper()
	log, _, err := history.Load(context.Background(), history.Source{Dir: dir}, history.Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.Open(context.Background(), dir, index.Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	return log, ix
}
