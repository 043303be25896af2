package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

// fakeRepo is a backend over a directory's files that ranks by keyword counts.
// It lets the server's own logic be tested apart from hone's ranking.
type fakeRepo struct {
	root      string
	refreshes atomic.Int32
}

func openFake(_ context.Context, dir string, _ hone.Options) (backend, error) {
	return &fakeRepo{root: dir}, nil
}

func (f *fakeRepo) Root() string                      { return f.root }
func (f *fakeRepo) Refresh(ctx context.Context) error { f.refreshes.Add(1); return nil }

func (f *fakeRepo) files() map[string]string {
	out := map[string]string{}
	filepath.WalkDir(f.root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&os.ModeSymlink != 0 {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(f.root, p)
		out[filepath.ToSlash(rel)] = strings.ToLower(string(b))
		return nil
	})
	return out
}

func (f *fakeRepo) Search(ctx context.Context, q loop.Query, limit int) ([]loop.Candidate, error) {
	var out []loop.Candidate
	for p, text := range f.files() {
		if excluded(p, q.Excludes) || !matchesAny(p, q.Patterns) {
			continue
		}
		c := loop.Candidate{Path: p}
		for _, k := range q.Keywords {
			if strings.Contains(text, k.Term) || strings.Contains(p, k.Term) {
				c.Score += k.Weight
				c.Matched = append(c.Matched, k.Term)
			}
		}
		if c.Score > 0 || (len(q.Keywords) == 0 && len(q.Patterns) > 0) {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Path < out[j].Path
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func excluded(p string, ex []string) bool {
	for _, e := range ex {
		if e == p {
			return true
		}
	}
	return false
}

func matchesAny(p string, pats []string) bool {
	if len(pats) == 0 {
		return true
	}
	for _, pat := range pats {
		if ok, _ := path.Match(pat, p); ok || strings.HasPrefix(p, strings.TrimSuffix(pat, "**")) {
			return true
		}
	}
	return false
}

// fakeRefiner takes the task's words, then adds learned terms and excludes
// files below 0.2.
type fakeRefiner struct{}

func (fakeRefiner) Initial(_ context.Context, task string) (loop.Query, error) {
	var q loop.Query
	for _, w := range strings.Fields(strings.ToLower(task)) {
		if len(w) > 3 {
			q.Keywords = append(q.Keywords, loop.Keyword{Term: w, Weight: 1, Origin: "task"})
		}
	}
	return q, nil
}

func (fakeRefiner) Refine(_ context.Context, in loop.RefineInput) (loop.Query, loop.Refinement, error) {
	q := in.Query.Clone()
	var ref loop.Refinement
	for _, e := range in.Evaluations {
		if e.Relevance < 0.2 {
			q.Excludes = append(q.Excludes, e.Path)
			ref.Excluded = append(ref.Excluded, e.Path)
		}
		for _, t := range e.Terms {
			q.Keywords = append(q.Keywords, loop.Keyword{Term: t, Weight: 1, Origin: "learned"})
			ref.AddedKeywords = append(ref.AddedKeywords, t)
		}
	}
	return q, ref, nil
}

// fakeEvaluator: files that mention "token" are relevant.
type fakeEvaluator struct{ f *fakeRepo }

func (e fakeEvaluator) Evaluate(_ context.Context, in loop.EvalInput) ([]loop.Evaluation, error) {
	files := e.f.files()
	var out []loop.Evaluation
	for _, c := range in.Candidates {
		r := 0.1
		if strings.Contains(files[c.Path], "token") {
			r = 0.9
		}
		out = append(out, loop.Evaluation{Path: c.Path, Relevance: r, Reason: "fake"})
	}
	return out, nil
}

func (f *fakeRepo) Retrieve(ctx context.Context, task string, opts hone.RetrieveOptions) (*hone.Result, error) {
	if strings.TrimSpace(task) == "" {
		return nil, hone.ErrEmptyTask
	}
	r, err := loop.Run(ctx, task, f, fakeEvaluator{f}, fakeRefiner{}, opts.Loop)
	if err != nil {
		return nil, err
	}
	return &hone.Result{Result: *r, Stats: hone.Stats{FilesIndexed: len(f.files())}}, nil
}

func (f *fakeRepo) Start(ctx context.Context, task string, opts hone.RetrieveOptions) (*loop.Session, error) {
	return loop.NewSession(ctx, task, f, fakeRefiner{}, opts.Loop)
}

func (f *fakeRepo) View(p string, terms []string, opts hone.ViewOptions) (string, error) {
	return fmt.Sprintf("%s (terms %s)", p, strings.Join(terms, ",")), nil
}

func (f *fakeRepo) ViewAgain(p string, terms []string, opts hone.ViewOptions) (string, error) {
	return fmt.Sprintf("%s again (terms %s)", p, strings.Join(terms, ",")), nil
}

func (f *fakeRepo) Pack(res *hone.Result, opts hone.PackOptions) (string, error) {
	var b strings.Builder
	b.WriteString("# Context pack\n")
	for _, e := range res.Files {
		b.WriteString("## " + e.Path + "\n")
	}
	return b.String(), nil
}

// writeFixture writes a small Python and TypeScript repository into a
// temporary directory and returns its canonical path.
func writeFixture(t *testing.T) string {
	t.Helper()
	files := map[string]string{
		"auth/tokens.py": `"""Authentication tokens."""
import time

TOKEN_TTL = 3600


class TokenManager:
    """Issues and validates session tokens."""

    def issue(self, user):
        return {"user": user, "expires_at": time.time() + TOKEN_TTL}

    def is_expired(self, token):
        return token["expires_at"] < time.time()
`,
		"auth/session.py": `from auth.tokens import TokenManager


class SessionStore:
    def __init__(self):
        self.tokens = TokenManager()

    def login(self, user):
        return self.tokens.issue(user)
`,
		"billing/invoice.py": `class Invoice:
    def total(self, lines):
        return sum(l.amount for l in lines)
`,
		"web/src/api/client.ts": `import { refreshToken } from "./auth";

export async function fetchJson(url: string, token: string): Promise<unknown> {
  const res = await fetch(url, { headers: { Authorization: "Bearer " + token } });
  if (res.status === 401) {
    return refreshToken(token);
  }
  return res.json();
}
`,
		"web/src/api/auth.ts": `export function refreshToken(token: string): string {
  // token expiry: ask the server for a new one
  return token;
}
`,
		"README.md": "# Fixture\n\nA tiny app with auth tokens and invoices.\n",
	}
	dir := testrepo.Write(t, files)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// fakeClock is a settable clock.
type fakeClock struct{ now atomic.Int64 }

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	c.now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *fakeClock) Now() time.Time          { return time.Unix(0, c.now.Load()) }
func (c *fakeClock) Advance(d time.Duration) { c.now.Add(int64(d)) }

// connect starts s on an in-memory transport and returns a client session.
func connect(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// startSession calls start with args and fails the test on a tool error.
func startSession(t *testing.T, cs *mcp.ClientSession, args map[string]any) Step {
	t.Helper()
	var step Step
	if res := call(t, cs, "start", args, &step); res.IsError {
		t.Fatalf("start(%v): %s", args, text(res))
	}
	return step
}

// call calls a tool and decodes its structured content into out (when non-nil
// and the call succeeded). It returns the result.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", tool, args, err)
	}
	if out != nil && !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: decode %s: %v", tool, b, err)
		}
	}
	return res
}

// text returns the concatenated text content of res.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// wantToolError checks that res is a tool error whose text mentions want.
func wantToolError(t *testing.T, res *mcp.CallToolResult, want string) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("got success %s, want a tool error mentioning %q", text(res), want)
	}
	if !strings.Contains(text(res), want) {
		t.Errorf("error %q does not mention %q", text(res), want)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func listenLoopback() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

// JSON-RPC lines of the tests.
const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	toolsListLine   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

// callLine is a tools/call of tool with args.
func callLine(id int, tool string, args map[string]any) string {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		panic(err)
	}
	return string(b)
}
