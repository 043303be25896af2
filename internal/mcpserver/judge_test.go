package mcpserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/pack"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func newAuthServer(t *testing.T) *Server {
	t.Helper()
	s, err := New(Options{Repo: "../../testdata/auth-service", Open: hone.Options{CacheDir: t.TempDir()}, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestStartJudgeKeepsJudgments drives the real loop over MCP: max_candidates
// holds with files the task names, every answer states its tokens, a judged
// file is never offered again, a judgment of an earlier cycle can be revised
// (and only such a file), a judgment hone's evidence disputes strongly comes
// back once as a second look, and done ends the session.
func TestStartJudgeKeepsJudgments(t *testing.T) {
	cs := connect(t, newAuthServer(t))
	task := "Fix the token expiry check in src/auth/tokens.ts, src/auth/jwt-utils.ts, src/auth/session-manager.ts and src/config.ts"
	var step Step
	res := call(t, cs, "start", map[string]any{"task": task, "max_candidates": 3, "max_cycles": 3}, &step)
	if res.IsError {
		t.Fatal(text(res))
	}
	checkTokens(t, "start", step, text(res))
	if strings.Contains(step.Next, "second look") {
		t.Errorf("cycle 1 has no second look and its next explains them: %q", step.Next)
	}
	if len(step.Candidates) != 3 {
		t.Fatalf("start offered %d candidates, want max_candidates 3 (the task names 4 files)", len(step.Candidates))
	}
	seen := map[string]bool{}
	excerpt := map[string]string{}
	for _, c := range step.Candidates {
		seen[c.Path] = true
		excerpt[c.Path] = c.Excerpt
		// hone's own evidence, explained: its relevance and reasons.
		if !strings.HasPrefix(c.Hone, "hone 0.") && !strings.HasPrefix(c.Hone, "hone 1.") || !strings.Contains(c.Hone, ":+") {
			t.Errorf("candidate %s: hone = %q, want hone's relevance and its reasons", c.Path, c.Hone)
		}
	}
	if c := step.Candidates[0]; c.Matched != nil || c.Excerpt == "" || !strings.Contains(c.Excerpt, "matches: ") {
		t.Errorf("a step's candidate carries matched (%v) or no matches line in its excerpt:\n%s", c.Matched, c.Excerpt)
	}
	first := step.Candidates[0].Path
	var evals []any
	for _, c := range step.Candidates {
		evals = append(evals, map[string]any{"path": c.Path, "relevance": 0.1, "reason": "not it"})
	}
	id := step.Session
	step = Step{}
	if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals}, &step); res.IsError {
		t.Fatal(text(res))
	}
	if step.Done || len(step.Candidates) == 0 {
		t.Fatalf("after a cycle judged all low, want a next cycle with new files: %+v", step)
	}
	fresh, seconds := 0, 0
	for _, c := range step.Candidates {
		second := len(c.Via) > 0 && strings.HasPrefix(c.Via[0], "second look: judged 0.10, hone's evidence")
		if second {
			seconds++
		}
		if seen[c.Path] && !second {
			t.Errorf("cycle 2 offers %s again, judged in cycle 1, not as a second look: %v", c.Path, c.Via)
		}
		if second {
			// A second look shows what the first excerpt did not.
			shown := map[string]bool{}
			for _, l := range strings.Split(excerpt[c.Path], "\n") {
				if f := strings.Fields(l); len(f) >= 2 && f[1] == "|" {
					shown[l] = true
				}
			}
			for _, l := range strings.Split(c.Excerpt, "\n") {
				if shown[l] {
					t.Errorf("the second look at %s repeats %q", c.Path, l)
				}
			}
		}
		if !seen[c.Path] {
			fresh++
		}
	}
	if fresh == 0 {
		t.Error("cycle 2 brings no file not judged yet")
	}
	if seconds == 0 {
		t.Error("cycle 2 gives no second look to the files hone rates high and the judge judged 0.1")
	}
	if !strings.Contains(step.Next, `via says "second look"`) {
		t.Errorf("cycle 2 gives second looks and its next does not say what they are: %q", step.Next)
	}
	wantToolError(t, call(t, cs, "judge", map[string]any{"session": id, "evaluations": []any{
		map[string]any{"path": "src/logger.ts", "relevance": 0.9, "revise": true}}}, nil), "never judged")
	evals = []any{map[string]any{"path": first, "relevance": 0.9, "reason": "on a second look, it is", "revise": true}}
	for _, c := range step.Candidates {
		evals = append(evals, map[string]any{"path": c.Path, "relevance": 0.2})
	}
	step = Step{}
	if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals, "done": true}, &step); res.IsError {
		t.Fatal(text(res))
	}
	// Revising a file judged unrelated to relevant put the judge in doubt:
	// files hone rates 0.7 or more that it judged unrelated get a second
	// look before the session ends (loop.Session.Finish), and nothing else.
	{
		if step.Done || !strings.HasPrefix(step.Next, "Before the session ends") || len(step.Candidates) == 0 {
			t.Fatalf("done true with judgments hone disputes did not give their second looks first: %+v", step)
		}
		evals = nil
		for _, c := range step.Candidates {
			if len(c.Via) == 0 || !strings.HasPrefix(c.Via[0], "second look: ") {
				t.Errorf("before the end, %s is offered but not for a second look: %v", c.Path, c.Via)
			}
			evals = append(evals, map[string]any{"path": c.Path, "relevance": 0.2})
		}
		step = Step{}
		if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals}, &step); res.IsError {
			t.Fatal(text(res))
		}
	}
	if !step.Done || step.Result == nil || !strings.Contains(step.Result.Stopped, "the judge has enough context") {
		t.Fatalf("done true did not end the session: %+v (stopped %q)", step, step.Result.Stopped)
	}
	if len(step.Result.Files) != 1 || step.Result.Files[0].Path != first || step.Result.Files[0].Relevance != 0.9 {
		t.Errorf("result files = %+v, want the revised %s at 0.9", step.Result.Files, first)
	}
}

// TestJudgeDoneStatesPackTokens: the answer that ends a session with a pack
// states the tokens it carries, as every step does.
func TestJudgeDoneStatesPackTokens(t *testing.T) {
	cs := connect(t, newAuthServer(t))
	step := startSession(t, cs, map[string]any{"task": "Fix the token expiry check", "budget_tokens": 2000})
	if len(step.Candidates) == 0 {
		t.Fatal("start offered nothing")
	}
	evals := []any{map[string]any{"path": step.Candidates[0].Path, "relevance": 0.9, "reason": "it"}}
	id := step.Session
	step = Step{}
	res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals, "done": true}, &step)
	if res.IsError {
		t.Fatal(text(res))
	}
	if !step.Done || step.Result == nil || step.Result.Pack == "" {
		t.Fatalf("want a finished session with a pack: %+v", step)
	}
	checkTokens(t, "the last answer", step, text(res))
	if p := pack.Tokens(step.Result.Pack); step.Tokens <= p {
		t.Errorf("the last answer states %d tokens, less than its pack's %d", step.Tokens, p)
	}
	if len(step.Result.Cycles) != 0 {
		t.Errorf("the last answer repeats the trace of %d cycles", len(step.Result.Cycles))
	}
}

// TestJudgeDoneWithoutEvaluations: an agent that has what it needs ends the
// session with done alone; evaluations may be left out, and without done
// an empty judge call still moves the session on (nothing judged).
func TestJudgeDoneWithoutEvaluations(t *testing.T) {
	cs := connect(t, newAuthServer(t))
	step := startSession(t, cs, map[string]any{"task": "Fix the token expiry check"})
	id := step.Session
	step = Step{}
	if res := call(t, cs, "judge", map[string]any{"session": id}, &step); res.IsError {
		t.Fatalf("judge without evaluations: %s", text(res))
	}
	if step.Done {
		t.Fatalf("judge without evaluations or done ended the session: %+v", step)
	}
	doneAlone(t, cs, id, "done alone")

	// Done alone ends the session as it stands, second looks pending or not.
	step = Step{}
	if res := call(t, cs, "start", map[string]any{"task": "Fix the token expiry check"}, &step); res.IsError {
		t.Fatal(text(res))
	}
	id = step.Session
	var evals []any
	for _, c := range step.Candidates {
		evals = append(evals, map[string]any{"path": c.Path, "relevance": 0.1})
	}
	step = Step{}
	if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals}, &step); res.IsError {
		t.Fatal(text(res))
	}
	if step.Done || !slices.ContainsFunc(step.Candidates, func(c Candidate) bool { return len(c.Via) > 0 && strings.HasPrefix(c.Via[0], "second look") }) {
		t.Fatalf("every file judged 0.1: want a next cycle with second looks: %+v", step)
	}
	doneAlone(t, cs, id, "done alone with second looks pending")
}

// doneAlone sends judge with done and no judgments, and checks that it
// ended the session as it stood.
func doneAlone(t *testing.T, cs *mcp.ClientSession, id, what string) {
	t.Helper()
	var step Step
	if res := call(t, cs, "judge", map[string]any{"session": id, "done": true}, &step); res.IsError {
		t.Fatalf("%s: judge: %s", what, text(res))
	}
	if !step.Done || step.Result == nil || !strings.Contains(step.Result.Stopped, "the judge has enough context") {
		t.Fatalf("%s did not end the session: %+v", what, step)
	}
}

// checkTokens: an answer states about what it carries, all of it.
func checkTokens(t *testing.T, what string, step Step, body string) {
	t.Helper()
	// About: the server counts its JSON before the SDK encodes it again.
	if want, slack := len(body)/4, len(body)/200+3; step.Tokens < want-slack || step.Tokens > want+slack {
		t.Errorf("%s states %d tokens; its %d bytes are about %d", what, step.Tokens, len(body), want)
	}
}

// TestRetrieveContextEconomy: retrieve_context's answer leaves each cycle's
// judgments to ranked, and a ranked file outside the selection keeps the
// three largest parts of its reason; the selection keeps whole reasons.
func TestRetrieveContextEconomy(t *testing.T) {
	cs := connect(t, newAuthServer(t))
	var out Result
	res := call(t, cs, "retrieve_context", map[string]any{"task": "Fix the token expiry check", "budget_tokens": 1000}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	checkTokens(t, "retrieve_context", Step{Tokens: out.Tokens}, text(res))
	selected := map[string]bool{}
	whole := 0
	for _, f := range out.Files {
		selected[f.Path] = true
		if strings.Count(f.Reason, ":+") > 3 {
			whole++
		}
	}
	cut := 0
	for _, f := range out.Ranked {
		if selected[f.Path] {
			continue
		}
		if n := strings.Count(f.Reason, ":+") + strings.Count(f.Reason, ":-"); n > 3 {
			t.Errorf("ranked %s keeps %d parts of its reason: %q", f.Path, n, f.Reason)
		}
		if strings.HasSuffix(f.Reason, ", ...") {
			cut++
		}
	}
	if whole == 0 || cut == 0 {
		t.Errorf("want whole reasons in files (%d) and cut ones in ranked (%d): %+v", whole, cut, out)
	}
	for _, c := range out.Cycles {
		if len(c.Evaluations) != 0 {
			t.Errorf("cycle %d repeats %d judgments", c.N, len(c.Evaluations))
		}
	}
}

// TestJudgeDoneGoesOn: done with a judgment hone disputes gives its second
// look first; calling that file unrelated on its second look turns the
// done over: the session goes on with new files, and its answer says why.
func TestJudgeDoneGoesOn(t *testing.T) {
	cs := connect(t, newAuthServer(t))
	step := startSession(t, cs, map[string]any{"task": "Fix the authentication token expiry bug"})
	id := step.Session
	judged := map[string]bool{}
	weak := ""
	for _, c := range step.Candidates {
		judged[c.Path] = true
		var ev float64
		if _, err := fmt.Sscanf(c.Hone, "hone %f", &ev); err == nil && weak == "" && ev < 0.5 {
			weak = c.Path // a file hone rates low: judged relevant, it is disputed
		}
	}
	if weak == "" {
		t.Fatal("no candidate hone rates below 0.5")
	}
	all := func(cands []Candidate, rel func(string) float64) []any {
		var evals []any
		for _, c := range cands {
			evals = append(evals, map[string]any{"path": c.Path, "relevance": rel(c.Path), "reason": "r"})
		}
		return evals
	}
	first := all(step.Candidates, func(p string) float64 {
		if p == weak {
			return 0.9
		}
		return 0.1
	})
	step = Step{}
	if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": first, "done": true}, &step); res.IsError {
		t.Fatal(text(res))
	}
	if step.Done || !strings.HasPrefix(step.Next, "Before the session ends") ||
		!slices.ContainsFunc(step.Candidates, func(c Candidate) bool { return c.Path == weak }) {
		t.Fatalf("done with %s disputed: want its second look first, got %+v", weak, step)
	}
	second := all(step.Candidates, func(string) float64 { return 0.1 })
	step = Step{}
	if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": second}, &step); res.IsError {
		t.Fatal(text(res))
	}
	if step.Done || !strings.HasPrefix(step.Next, "The session goes on") || len(step.Candidates) == 0 {
		t.Fatalf("%s turned unrelated on its second look: want the session to go on and say so, got %+v", weak, step)
	}
	for _, c := range step.Candidates {
		if judged[c.Path] {
			t.Errorf("the session went on with %s, judged before", c.Path)
		}
	}
}

// TestJudgeToldOfDistrust: a judge that calls relevant two files hone's
// evidence rates hopeless is told, once, that hone overrules such
// judgments and how to insist (loop.Session.Distrust); the final result
// ranks those files at hone's evidence, saying why.
func TestJudgeToldOfDistrust(t *testing.T) {
	cs := connect(t, newAuthServer(t))
	step := startSession(t, cs, map[string]any{"task": "Fix the token expiry check", "max_candidates": 15, "max_cycles": 3})
	// Judge every candidate relevant: the files hone rates below 0.3 are
	// the judge's errors by hone's evidence.
	var evals []any
	var hopeless []string
	for _, c := range step.Candidates {
		var ev float64
		if _, err := fmt.Sscanf(c.Hone, "hone %f", &ev); err != nil {
			t.Fatalf("candidate %s: hone = %q", c.Path, c.Hone)
		}
		if ev < 0.3 {
			hopeless = append(hopeless, c.Path)
		}
		evals = append(evals, map[string]any{"path": c.Path, "relevance": 0.9, "reason": "looks relevant"})
	}
	if len(hopeless) < 2 {
		t.Fatalf("the fixture offers %d candidates hone rates below 0.3, the test needs 2: %+v", len(hopeless), step.Candidates)
	}
	id := step.Session
	step = Step{}
	if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals}, &step); res.IsError {
		t.Fatal(text(res))
	}
	if step.Done {
		t.Fatalf("the session ended after cycle 1: %+v", step.Result)
	}
	if !strings.Contains(step.Next, "hone now overrules your relevant judgments of files its evidence rates below 0.40") ||
		!strings.Contains(step.Next, hopeless[0]) || !strings.Contains(step.Next, "revise: true") {
		t.Errorf("next does not tell the judge it is overruled, why, and how to insist: %q", step.Next)
	}
	// judgeAll judges every candidate of st at rel and says done.
	judgeAll := func(st Step, rel float64) Step {
		t.Helper()
		var evals []any
		for _, c := range st.Candidates {
			evals = append(evals, map[string]any{"path": c.Path, "relevance": rel, "reason": "as before"})
		}
		var next Step
		if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals, "done": true}, &next); res.IsError {
			t.Fatal(text(res))
		}
		return next
	}
	step2 := judgeAll(step, 0.1)
	if strings.Contains(step2.Next, "overrules") {
		t.Errorf("the judge is told twice: %q", step2.Next)
	}
	for i := 0; step2.Result == nil && !step2.Done; i++ {
		if i == 5 {
			t.Fatalf("the session did not end: %+v", step2)
		}
		step2 = judgeAll(step2, 0.9) // second looks before the end: judged as before
	}
	for _, e := range step2.Result.Ranked {
		if e.Path == hopeless[0] && !strings.HasPrefix(e.Reason, "overruled, hone's evidence") {
			t.Errorf("%s ranked at %.2f with reason %q, want it overruled", e.Path, e.Relevance, e.Reason)
		}
	}
	for _, f := range step2.Result.Files {
		if slices.Contains(hopeless, f.Path) {
			t.Errorf("an overruled file is selected: %s", f.Path)
		}
	}
}
