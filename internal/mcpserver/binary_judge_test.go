package mcpserver

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBinaryScriptedJudge drives the real server over stdio with a scripted
// judge, as an agent would: start, then judge each cycle's candidates
// (the target file 0.95, everything else 0.1, naming a term of the code)
// until done. The target is found, no step offers more than max_candidates,
// every step states its tokens, a file comes back only as a second look, and
// the session ends by itself within the cycle limit (plus one extra cycle
// of second looks at most).
func TestBinaryScriptedJudge(t *testing.T) {
	repo, err := filepath.Abs("../../testdata/auth-service")
	if err != nil {
		t.Fatal(err)
	}
	p := startMCP(t, nil, "mcp", "--repo", repo, "--cache-dir", t.TempDir())
	p.initialize(`{}`)
	const target = "src/auth/tokens.ts"
	text, isErr := p.callTool(10, "start", map[string]any{"task": "Tokens are accepted after they expire", "max_candidates": 5, "max_cycles": 3})
	if isErr {
		t.Fatal(text)
	}
	judged := map[string]int{}
	for step, id := 0, 11; ; step, id = step+1, id+1 {
		var st Step
		if err := json.Unmarshal([]byte(text), &st); err != nil {
			t.Fatalf("step %d: %v: %.300s", step, err, text)
		}
		if st.Done {
			if st.Result == nil {
				t.Fatal("done without a result")
			}
			found := false
			for _, f := range st.Result.Files {
				found = found || f.Path == target
			}
			if !found {
				t.Errorf("the scripted judge's target %s is not in the result: %+v (stopped: %s)", target, st.Result.Files, st.Result.Stopped)
			}
			break
		}
		if step > 4 {
			t.Fatalf("no end after %d steps", step)
		}
		if len(st.Candidates) == 0 || len(st.Candidates) > 5 {
			t.Fatalf("step %d offers %d candidates, want 1 to max_candidates 5", step, len(st.Candidates))
		}
		if st.Tokens <= 0 {
			t.Errorf("step %d states no tokens", step)
		}
		var evals []any
		for _, c := range st.Candidates {
			second := len(c.Via) > 0 && strings.HasPrefix(c.Via[0], "second look")
			if judged[c.Path] > 0 && !second {
				t.Errorf("step %d offers %s again, not as a second look", step, c.Path)
			}
			judged[c.Path]++
			rel, terms := 0.1, []string{}
			if c.Path == target {
				rel, terms = 0.95, []string{"isTokenExpired"}
			}
			evals = append(evals, map[string]any{"path": c.Path, "relevance": rel, "reason": "scripted", "terms": terms})
		}
		text, isErr = p.callTool(id, "judge", map[string]any{"session": st.Session, "evaluations": evals})
		if isErr {
			t.Fatalf("step %d: judge: %s", step, text)
		}
	}
	if err, _ := p.exit(nil, 10*time.Second); err != nil {
		t.Errorf("hone mcp exited with %v; stderr:\n%s", err, p.stderr.String())
	}
}
