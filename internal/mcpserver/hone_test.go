package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hone-dev/hone"
)

// newHoneServer serves the fixture with the real hone.Open and a temporary
// cache directory.
func newHoneServer(t *testing.T) (string, *mcp.ClientSession) {
	t.Helper()
	dir := writeFixture(t)
	if _, err := hone.Open(context.Background(), dir, hone.Options{NoCache: true}); err != nil && strings.Contains(err.Error(), "not implemented") {
		t.Skip("hone.Open is still a stub:", err)
	}
	s, err := New(Options{Repo: dir, Open: hone.Options{CacheDir: t.TempDir()}, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() }) // its watchers
	return dir, connect(t, s)
}

func TestHoneRetrieveContext(t *testing.T) {
	_, cs := newHoneServer(t)
	var out Result
	res := call(t, cs, "retrieve_context", map[string]any{"task": "Fix the authentication token expiry bug: TokenManager.is_expired", "budget_tokens": 1500}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	if len(out.Ranked) == 0 || out.Ranked[0].Path != "auth/tokens.py" {
		t.Errorf("ranked = %+v, want auth/tokens.py first", out.Ranked)
	}
	if out.Stats == nil || out.Stats.FilesIndexed < 5 {
		t.Errorf("stats = %+v", out.Stats)
	}
	if !strings.Contains(out.Pack, "auth/tokens.py") {
		t.Errorf("pack does not show auth/tokens.py:\n%s", out.Pack)
	}
}

func TestHoneSearch(t *testing.T) {
	_, cs := newHoneServer(t)
	var out SearchOutput
	res := call(t, cs, "search", map[string]any{"keywords": []string{"refreshToken"}, "patterns": []string{"web/**"}}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	var paths []string
	for _, c := range out.Candidates {
		paths = append(paths, c.Path)
		if !strings.HasPrefix(c.Path, "web/") {
			t.Errorf("%s does not match web/**", c.Path)
		}
	}
	if !slices.Contains(paths, "web/src/api/auth.ts") {
		t.Errorf("candidates %v lack web/src/api/auth.ts", paths)
	}
}

// TestHoneStartJudge drives a stepwise session to its end, judging like an
// agent would, and checks that a file written between calls is seen.
func TestHoneStartJudge(t *testing.T) {
	dir, cs := newHoneServer(t)
	// A first call indexes the fixture; then an edit between calls: a new file
	// about tokens appears. A session searches the index as of its start.
	call(t, cs, "search", map[string]any{"keywords": []string{"token"}}, nil)
	// An edit between calls: a new file about tokens appears.
	os.WriteFile(filepath.Join(dir, "auth", "expiry.py"), []byte("from auth.tokens import TOKEN_TTL\n\ndef token_expiry_seconds():\n    return TOKEN_TTL\n"), 0o644)

	var step Step
	res := call(t, cs, "start", map[string]any{"task": "token expiry is wrong after login", "max_cycles": 3}, &step)
	if res.IsError {
		t.Fatal(text(res))
	}
	if len(step.Candidates) == 0 || len(step.Candidates) > stepCandidates {
		t.Fatalf("start gave %d candidates, want 1..%d", len(step.Candidates), stepCandidates)
	}
	for _, c := range step.Candidates {
		if strings.TrimSpace(c.Excerpt) == "" {
			t.Errorf("%s: empty excerpt", c.Path)
		}
	}

	id := step.Session
	sawEdit := false
	for cycle := 1; !step.Done; cycle++ {
		if cycle > 4 {
			t.Fatal("the session did not stop")
		}
		var evals []any
		for _, c := range step.Candidates {
			r := 0.3
			switch c.Path {
			case "auth/tokens.py":
				r = 0.9
			case "auth/expiry.py":
				r, sawEdit = 0.8, true
			case "billing/invoice.py":
				r = 0.1
			}
			evals = append(evals, map[string]any{"path": c.Path, "relevance": r, "reason": "test judge"})
		}
		step = Step{}
		if res := call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals}, &step); res.IsError {
			t.Fatalf("cycle %d: %s", cycle, text(res))
		}
	}
	if step.Result == nil || len(step.Result.Files) == 0 || step.Result.Stopped == "" {
		t.Fatalf("result = %+v", step.Result)
	}
	if !sawEdit {
		t.Errorf("auth/expiry.py, written after start, was never a candidate; stopped: %s", step.Result.Stopped)
	}
	t.Logf("stopped: %s; files: %d", step.Result.Stopped, len(step.Result.Files))
}

func TestHoneErrors(t *testing.T) {
	dir, cs := newHoneServer(t)
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"empty task", "retrieve_context", map[string]any{"task": ""}, "empty task"},
		{"missing repo", "retrieve_context", map[string]any{"task": "x", "repo": filepath.Join(dir, "missing")}, "repository not found"},
		{"empty repo", "retrieve_context", map[string]any{"task": "token", "repo": empty}, "no indexable file"},
		{"unknown session", "judge", map[string]any{"session": "hs_0", "evaluations": []any{}}, "call start again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantToolError(t, call(t, cs, tt.tool, tt.args, nil), tt.want)
		})
	}
}

// A file of the repository that becomes a symbolic link to a file outside
// after it was indexed is not shown: not in the pack, not in an excerpt.
func TestHoneViewAndPackStayInside(t *testing.T) {
	dir, cs := newHoneServer(t)
	secret := filepath.Join(t.TempDir(), "secret.py")
	if err := os.WriteFile(secret, []byte("class TokenManager:\n    SECRET = 'marker-7f3a'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	step := startSession(t, cs, map[string]any{"task": "TokenManager token expiry"})
	tokens := filepath.Join(dir, "auth", "tokens.py")
	if err := os.Remove(tokens); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, tokens); err != nil {
		t.Skip("no symbolic links:", err)
	}
	var out Result
	res := call(t, cs, "retrieve_context", map[string]any{"task": "TokenManager token expiry", "budget_tokens": 4000}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	if strings.Contains(text(res), "marker-7f3a") {
		t.Errorf("retrieve_context shows the file outside:\n%s", out.Pack)
	}
	// Judging the link itself is refused; the next cycle's excerpts must not
	// follow it either.
	wantToolError(t, call(t, cs, "judge", map[string]any{"session": step.Session, "evaluations": []any{
		map[string]any{"path": "auth/tokens.py", "relevance": 0.9}}}, nil), "a symbolic link leads out")
	var evals []any
	for _, c := range step.Candidates {
		if c.Path != "auth/tokens.py" {
			evals = append(evals, map[string]any{"path": c.Path, "relevance": 0.5, "reason": "r", "terms": []string{"tokenmanager"}})
		}
	}
	res = call(t, cs, "judge", map[string]any{"session": step.Session, "evaluations": evals}, nil)
	if res.IsError {
		t.Fatal(text(res))
	}
	if strings.Contains(text(res), "marker-7f3a") {
		t.Errorf("judge shows the file outside: %s", text(res))
	}
}
