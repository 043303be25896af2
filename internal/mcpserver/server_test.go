package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hone-dev/hone"
)

func newFakeServer(t *testing.T, dir string, mod func(*Options)) (*Server, *mcp.ClientSession) {
	t.Helper()
	opts := Options{Repo: dir, open: openFake}
	if mod != nil {
		mod(&opts)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, connect(t, s)
}

func TestListTools(t *testing.T) {
	_, cs := newFakeServer(t, writeFixture(t), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 100 {
			t.Errorf("%s: description too short for a model: %q", tool.Name, tool.Description)
		}
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		for name, p := range schema.Properties {
			if p.Description == "" {
				t.Errorf("%s: property %q has no description", tool.Name, name)
			}
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"judge", "retrieve_context", "search", "start"}; !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
}

func TestRetrieveContext(t *testing.T) {
	dir := writeFixture(t)
	_, cs := newFakeServer(t, dir, nil)
	var out Result
	res := call(t, cs, "retrieve_context", map[string]any{"task": "fix the token expiry bug", "budget_tokens": 2000}, &out)
	if res.IsError {
		t.Fatalf("error: %s", text(res))
	}
	if len(out.Files) == 0 || out.Stopped == "" || len(out.Cycles) == 0 || out.Stats == nil {
		t.Fatalf("incomplete result: %+v", out)
	}
	// The trace leaves the judgments to ranked, which holds them all.
	for _, c := range out.Cycles {
		if len(c.Evaluations) != 0 || len(c.Query.Keywords) == 0 {
			t.Errorf("cycle %d: %d judgments, keywords %v; want none, and its query", c.N, len(c.Evaluations), c.Query.Keywords)
		}
	}
	if len(out.Ranked) < len(out.Files) {
		t.Errorf("ranked holds %d files, fewer than files' %d", len(out.Ranked), len(out.Files))
	}
	if !strings.HasPrefix(out.Pack, "# Context pack") {
		t.Errorf("pack = %q, want a Markdown pack", out.Pack)
	}
	// The text content is the same JSON, with the keys of `hone --json` plus
	// pack, in that order.
	if !strings.HasPrefix(text(res), `{"task":"fix the token expiry bug","files":[`) {
		t.Errorf("text content starts %.60q, want the task then the files", text(res))
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text(res)), &keys); err != nil {
		t.Fatalf("text content is not JSON: %v", err)
	}
	for _, k := range []string{"task", "files", "ranked", "cycles", "stopped", "stats", "pack"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("text content lacks %q", k)
		}
	}

	// Without budget_tokens there is no pack.
	out = Result{}
	call(t, cs, "retrieve_context", map[string]any{"task": "fix the token expiry bug"}, &out)
	if out.Pack != "" {
		t.Errorf("pack without budget_tokens: %q", out.Pack)
	}
}

func TestRetrieveContextMatchesHoneJSON(t *testing.T) {
	// The tool's answer must be the JSON of hone.Result, key for key.
	f := &fakeRepo{root: writeFixture(t)}
	res, err := f.Retrieve(context.Background(), "token expiry", hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(res)
	conv, err := convertResult(res)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(conv)
	var a, b any
	json.Unmarshal(want, &a)
	json.Unmarshal(got, &b)
	if !jsonEqual(a, b) {
		t.Errorf("convertResult changed the JSON:\n got %s\nwant %s", got, want)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestToolErrors(t *testing.T) {
	dir := writeFixture(t)
	file := filepath.Join(dir, "README.md")
	_, cs := newFakeServer(t, dir, nil)
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"empty task", "retrieve_context", map[string]any{"task": "  "}, "empty task"},
		{"missing task", "retrieve_context", map[string]any{}, "task"},
		{"huge task", "retrieve_context", map[string]any{"task": strings.Repeat("x", hone.MaxTaskBytes+1)}, "task too large"},
		{"missing repo", "retrieve_context", map[string]any{"task": "t", "repo": filepath.Join(dir, "nope")}, "repository not found"},
		{"repo is a file", "retrieve_context", map[string]any{"task": "t", "repo": file}, "not a directory"},
		{"threshold", "retrieve_context", map[string]any{"task": "t", "threshold": 1.5}, "threshold"},
		{"cycles", "retrieve_context", map[string]any{"task": "t", "max_cycles": 99}, "max_cycles"},
		{"budget", "retrieve_context", map[string]any{"task": "t", "budget_tokens": -1}, "budget_tokens"},
		{"wrong type", "retrieve_context", map[string]any{"task": 3}, "task"},
		{"search nothing", "search", map[string]any{}, "give keywords or patterns"},
		{"search limit", "search", map[string]any{"keywords": []string{"token"}, "limit": -2}, "limit"},
		{"search missing repo", "search", map[string]any{"keywords": []string{"token"}, "repo": "nope"}, "repository not found"},
		{"start empty task", "start", map[string]any{"task": ""}, "empty task"},
		{"start missing repo", "start", map[string]any{"task": "t", "repo": filepath.Join(dir, "no", "such")}, "repository not found"},
		{"start outside the roots", "start", map[string]any{"task": "t", "repo": "/no/such/dir"}, "outside the directories this server may read"},
		{"start candidates", "start", map[string]any{"task": "t", "max_candidates": -1}, "max_candidates"},
		{"judge no session", "judge", map[string]any{"session": "", "evaluations": []any{}}, "session is empty"},
		{"judge unknown session", "judge", map[string]any{"session": "hs_nope", "evaluations": []any{}}, "unknown or expired session"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantToolError(t, call(t, cs, tt.tool, tt.args, nil), tt.want)
		})
	}
}

func TestSearch(t *testing.T) {
	_, cs := newFakeServer(t, writeFixture(t), nil)
	var out SearchOutput
	res := call(t, cs, "search", map[string]any{"keywords": []string{"Token", "expiry"}, "excludes": []string{"README.md"}, "limit": 2}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	if len(out.Candidates) != 2 {
		t.Fatalf("got %d candidates, want 2: %+v", len(out.Candidates), out)
	}
	if got := out.Candidates[0]; got.Path != "web/src/api/auth.ts" || !slices.Equal(got.Matched, []string{"token", "expiry"}) {
		t.Errorf("top candidate = %+v, want web/src/api/auth.ts matching token, expiry", got)
	}
	if !slices.Equal(out.Query.Keywords, []string{"token", "expiry"}) {
		t.Errorf("query keywords = %v", out.Query.Keywords)
	}
	for _, c := range out.Candidates {
		if c.Path == "README.md" {
			t.Errorf("excluded path returned")
		}
	}
}

func TestStartJudge(t *testing.T) {
	dir := writeFixture(t)
	s, cs := newFakeServer(t, dir, nil)
	var step Step
	res := call(t, cs, "start", map[string]any{"task": "token expiry bug", "max_cycles": 3, "budget_tokens": 1000}, &step)
	if res.IsError {
		t.Fatal(text(res))
	}
	if step.Session == "" || step.Done || step.Cycle != 1 || len(step.Candidates) == 0 || step.Query == nil {
		t.Fatalf("start = %+v", step)
	}
	for _, c := range step.Candidates {
		if c.Excerpt == "" {
			t.Errorf("%s: no excerpt", c.Path)
		}
	}
	id := step.Session

	// A path that is not a candidate is refused, and the session survives.
	wantToolError(t, call(t, cs, "judge", map[string]any{"session": id,
		"evaluations": []any{map[string]any{"path": "billing/invoice.py", "relevance": 0.5}}}, nil), "not a candidate of cycle 1")
	wantToolError(t, call(t, cs, "judge", map[string]any{"session": id,
		"evaluations": []any{map[string]any{"path": step.Candidates[0].Path, "relevance": 1.5}}}, nil), "relevance must be within")

	// Cycle 1: judge the candidates but client.ts; the agent teaches the term
	// "refreshtoken".
	var evals []any
	for _, c := range step.Candidates {
		r := 0.1
		switch {
		case c.Path == "web/src/api/client.ts":
			continue
		case strings.Contains(c.Path, "tokens") || strings.Contains(c.Path, "auth.ts"):
			r = 0.9
		}
		evals = append(evals, map[string]any{"path": "./" + c.Path, "relevance": r, "reason": "read it",
			"missing_context": []string{"caller of refreshToken"}, "terms": []string{"refreshtoken"}})
	}
	step = Step{}
	res = call(t, cs, "judge", map[string]any{"session": id, "evaluations": evals}, &step)
	if res.IsError {
		t.Fatal(text(res))
	}
	if step.Done {
		t.Fatalf("done after cycle 1: %+v", step.Result)
	}
	if step.Cycle != 2 || !slices.Contains(step.Query.Keywords, "refreshtoken") {
		t.Fatalf("cycle 2 query = %+v, want the learned term", step.Query)
	}

	// Cycle 2: client.ts comes back and is relevant; the loop stops with 3
	// files at or above 0.7.
	var c2 []any
	for _, c := range step.Candidates {
		c2 = append(c2, map[string]any{"path": c.Path, "relevance": 0.8, "reason": "calls refreshToken"})
	}
	step = Step{}
	res = call(t, cs, "judge", map[string]any{"session": id, "evaluations": c2}, &step)
	if res.IsError {
		t.Fatal(text(res))
	}
	if !step.Done || step.Result == nil || len(step.Result.Files) < 3 {
		t.Fatalf("want done with >= 3 files, got %+v", step)
	}
	if !strings.HasPrefix(step.Result.Pack, "# Context pack") {
		t.Errorf("result pack = %q", step.Result.Pack)
	}
	// A finished session is gone.
	wantToolError(t, call(t, cs, "judge", map[string]any{"session": id, "evaluations": []any{}}, nil), "call start again")
	if n := s.sessions.len(); n != 0 {
		t.Errorf("%d sessions left", n)
	}
}

func TestJudgeRefusesOutsidePaths(t *testing.T) {
	dir := writeFixture(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.py"), []byte("token = 1\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	_, cs := newFakeServer(t, dir, nil)
	step := startSession(t, cs, map[string]any{"task": "token expiry"})
	for _, p := range []string{"../x.py", "/etc/passwd", "auth/../../x.py", "link/secret.py", `..\x.py`} {
		t.Run(p, func(t *testing.T) {
			res := call(t, cs, "judge", map[string]any{"session": step.Session,
				"evaluations": []any{map[string]any{"path": p, "relevance": 1}}}, nil)
			wantToolError(t, res, "outside the repository")
		})
	}
}

func TestSessionExpiry(t *testing.T) {
	clock := newFakeClock()
	_, cs := newFakeServer(t, writeFixture(t), func(o *Options) {
		o.Clock = clock.Now
		o.SessionTTL = 10 * time.Minute
	})
	step := startSession(t, cs, map[string]any{"task": "token expiry"})
	judge := map[string]any{"session": step.Session, "evaluations": []any{
		map[string]any{"path": step.Candidates[0].Path, "relevance": 0.1}}}

	clock.Advance(9 * time.Minute) // still alive; this use resets the idle timer
	var s2 Step
	if res := call(t, cs, "judge", judge, &s2); res.IsError {
		t.Fatalf("judge within the TTL: %s", text(res))
	}
	if s2.Done {
		t.Skip("session finished before the expiry check")
	}
	clock.Advance(11 * time.Minute)
	wantToolError(t, call(t, cs, "judge", map[string]any{"session": step.Session, "evaluations": []any{}}, nil),
		"unknown or expired session")
}

func TestSessionCap(t *testing.T) {
	clock := newFakeClock()
	s, cs := newFakeServer(t, writeFixture(t), func(o *Options) {
		o.Clock = clock.Now
		o.MaxSessions = 2
	})
	var ids []string
	for range 3 {
		step := startSession(t, cs, map[string]any{"task": "token expiry"})
		ids = append(ids, step.Session)
		clock.Advance(time.Second)
	}
	if n := s.sessions.len(); n != 2 {
		t.Errorf("%d live sessions, want 2", n)
	}
	wantToolError(t, call(t, cs, "judge", map[string]any{"session": ids[0], "evaluations": []any{}}, nil), "unknown or expired")
}

func TestRepoCacheAndRefresh(t *testing.T) {
	dir := writeFixture(t)
	sub := filepath.Join(dir, "web")
	var opened []string
	s, cs := newFakeServer(t, dir, func(o *Options) {
		o.open = func(ctx context.Context, d string, opts hone.Options) (backend, error) {
			opened = append(opened, d)
			return openFake(ctx, d, opts)
		}
	})
	for range 3 {
		call(t, cs, "search", map[string]any{"keywords": []string{"token"}}, nil)
	}
	var out SearchOutput
	call(t, cs, "search", map[string]any{"keywords": []string{"token"}, "repo": "web"}, &out)
	call(t, cs, "search", map[string]any{"keywords": []string{"token"}, "repo": sub}, nil)
	if want := []string{dir, sub}; !slices.Equal(opened, want) {
		t.Errorf("opened %v, want %v (each once)", opened, want)
	}
	if len(out.Candidates) == 0 || !strings.HasPrefix(out.Candidates[0].Path, "src/") {
		t.Errorf("repo=web answered %+v, want paths relative to web/", out.Candidates)
	}
	r, err := s.repos.get(context.Background(), dir, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The first call opens (fresh, no refresh); the next two refresh.
	if got := r.(*fakeRepo).refreshes.Load(); got != 2 {
		t.Errorf("refreshes = %d, want 2", got)
	}
}

func TestRepoCacheEvicts(t *testing.T) {
	c := newRepoCache(context.Background(), 2, hone.Options{}, openFake, discardLogger())
	ctx := context.Background()
	for _, d := range []string{"/a", "/b", "/a", "/c"} {
		if _, err := c.get(ctx, d, false, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.repos["/b"]; ok || len(c.repos) != 2 {
		t.Errorf("cache holds %v, want /a and /c", c.repos)
	}
}

func TestRepoOpenErrorIsRetried(t *testing.T) {
	fail := true
	c := newRepoCache(context.Background(), 2, hone.Options{}, func(ctx context.Context, d string, o hone.Options) (backend, error) {
		if fail {
			return nil, hone.ErrEmptyRepo
		}
		return openFake(ctx, d, o)
	}, discardLogger())
	if _, err := c.get(context.Background(), "/a", true, nil); !errors.Is(err, hone.ErrEmptyRepo) {
		t.Fatalf("err = %v", err)
	}
	fail = false
	if _, err := c.get(context.Background(), "/a", true, nil); err != nil {
		t.Fatalf("retry: %v", err)
	}
}

func TestRepoPath(t *testing.T) {
	root := writeFixture(t)
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"auth/tokens.py", "auth/tokens.py", true},
		{"./auth/tokens.py", "auth/tokens.py", true},
		{"auth//x/../tokens.py", "auth/tokens.py", true},
		{"deleted/file.py", "deleted/file.py", true},
		{"../x", "", false},
		{"/etc/passwd", "", false},
		{"a/../../x", "", false},
		{"", "", false},
		{`..\x`, "", false},
		{" auth/tokens.py ", "auth/tokens.py", true},
		{filepath.Join(root, "auth", "tokens.py"), "auth/tokens.py", true}, // absolute, inside
		{filepath.Join(root, "..", "x.py"), "", false},                     // absolute, outside
		{root, "", false},                                                  // the root itself
	}
	for _, tt := range tests {
		got, err := repoPath(root, tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("repoPath(%q) = %q, %v; want %q, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && tt.in != "" && !errors.Is(err, hone.ErrOutsideRepo) {
			t.Errorf("repoPath(%q): %v does not wrap ErrOutsideRepo", tt.in, err)
		}
	}
}

func TestCheckBind(t *testing.T) {
	tests := []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:7777", false, true},
		{"localhost:0", false, true},
		{"[::1]:8080", false, true},
		{"127.1.2.3:80", false, true},
		{"0.0.0.0:7777", false, false},
		{":7777", false, false},
		{"192.168.1.5:7777", false, false},
		{"0.0.0.0:7777", true, true},
		{"nonsense", false, false},
	}
	for _, tt := range tests {
		err := checkBind(tt.addr, tt.remote)
		if (err == nil) != tt.ok {
			t.Errorf("checkBind(%q, %v) = %v, want ok=%v", tt.addr, tt.remote, err, tt.ok)
		}
	}
	if err := ServeHTTP(context.Background(), "0.0.0.0:0", Options{Logger: discardLogger()}); !errors.Is(err, ErrRemoteBind) {
		t.Errorf("ServeHTTP on 0.0.0.0 = %v, want ErrRemoteBind", err)
	}
}

func TestServeHTTP(t *testing.T) {
	dir := writeFixture(t)
	s, err := New(Options{Repo: dir, open: openFake, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.serveHTTP(ctx, ln) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + HTTPPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out SearchOutput
	if res := call(t, cs, "search", map[string]any{"keywords": []string{"token"}}, &out); res.IsError || len(out.Candidates) == 0 {
		t.Fatalf("search over HTTP: %s", text(res))
	}
	cs.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serveHTTP: %v", err)
	}
}

func TestServeStdio(t *testing.T) {
	dir := writeFixture(t)
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, Options{Repo: dir, open: openFake, Logger: discardLogger(), Stdin: inR, Stdout: outW})
		outW.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out SearchOutput
	if res := call(t, cs, "search", map[string]any{"keywords": []string{"token"}}, &out); res.IsError || len(out.Candidates) == 0 {
		t.Fatalf("search over stdio: %s", text(res))
	}
	cs.Close() // closes the server's stdin: EOF
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("Serve did not return after the client left")
	}
}

// A handler that ignores its cancelled context cannot hold the server past
// the grace period: its connection is closed and serving ends cleanly.
func TestServeUntilClosesAfterGrace(t *testing.T) {
	ln, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	stubborn := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release // ignores r.Context()
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveUntil(ctx, ln, stubborn, 50*time.Millisecond, nil, discardLogger()) }()
	reqErr := make(chan error, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err == nil {
			resp.Body.Close()
		}
		reqErr <- err
	}()
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serveUntil: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serveUntil still running 5 s after a 50 ms grace")
	}
	select {
	case err := <-reqErr:
		if err == nil {
			t.Error("the stubborn request got a response; want its connection closed")
		}
	case <-time.After(5 * time.Second):
		t.Error("the stubborn request is still open after the server closed")
	}
}

// Stopping the HTTP server with a call in flight cancels the call, delivers
// its answer, and returns promptly; repeated, since the answer races with the
// end of the requests' contexts.
func TestServeHTTPStopAnswersCallInFlight(t *testing.T) {
	for i := range 10 {
		b := newBlockingOpen()
		s, err := New(Options{Repo: writeFixture(t), open: b.open, Logger: discardLogger()})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ln, err := listenLoopback()
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- s.serveHTTP(ctx, ln) }()
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + HTTPPath}, nil)
		if err != nil {
			t.Fatal(err)
		}
		answer := make(chan string, 1)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search",
				Arguments: map[string]any{"keywords": []string{"token"}, "repo": "web"}})
			if err != nil {
				answer <- "no answer: " + err.Error()
				return
			}
			answer <- text(res)
		}()
		<-b.started // the call is stuck in the open
		start := time.Now()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("run %d: serveHTTP = %v", i, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("run %d: serveHTTP still running 5 s after the stop", i)
		}
		if took := time.Since(start); took > 1500*time.Millisecond {
			t.Errorf("run %d: serveHTTP returned %s after the stop, want under 1.5 s", i, took)
		}
		if a := <-answer; !strings.Contains(a, "stopping") {
			t.Errorf("run %d: the call in flight got %q, want a tool error saying the server stops", i, a)
		}
		cs.Close()
	}
}

// TestFirstCallReportsProgress: a call that waits for a repository's first
// index tells a client that asked for progress (a progress token) how far it
// is, in files, so that a request timeout that progress resets does not end
// it; progress only grows, and a call without a token is sent none.
func TestFirstCallReportsProgress(t *testing.T) {
	dir := writeFixture(t)
	release := make(chan struct{})
	s, err := New(Options{Repo: dir, Logger: discardLogger(), open: func(ctx context.Context, d string, o hone.Options) (backend, error) {
		o.Progress(1, 4)
		<-release
		o.Progress(4, 4)
		return openFake(ctx, d, o)
	}})
	if err != nil {
		t.Fatal(err)
	}
	s.repos.every = 5 * time.Millisecond
	got := make(chan *mcp.ProgressNotificationParams, 100)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { got <- req.Params }})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	// Cleanups run last first: a failed test lets the open end before the
	// session waits for its calls.
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	t.Cleanup(open)

	args := map[string]any{"keywords": []string{"token"}}
	withToken := &mcp.CallToolParams{Name: "search", Arguments: args}
	withToken.SetProgressToken("first")
	errs := make(chan error, 2)
	for _, p := range []*mcp.CallToolParams{withToken, {Name: "search", Arguments: args}} {
		go func() {
			res, err := cs.CallTool(ctx, p)
			if err == nil && res.IsError {
				err = fmt.Errorf("tool error: %s", text(res))
			}
			errs <- err
		}()
	}
	select {
	case p := <-got:
		if p.ProgressToken != "first" || p.Progress != 1 || p.Total != 4 || !strings.Contains(p.Message, "1 of 4 files") {
			t.Errorf("progress = %+v, want token first, 1 of 4 files", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no progress notification while the first index runs")
	}
	// Unchanged progress is not sent again.
	time.Sleep(50 * time.Millisecond)
	if n := len(got); n != 0 {
		t.Errorf("%d more notifications while progress stood at 1 of 4", n)
	}
	open()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// The open finished in between ticks or not: either way, no notification
	// with another token or a progress that does not grow.
	for len(got) > 0 {
		if p := <-got; p.ProgressToken != "first" || p.Progress <= 1 {
			t.Errorf("later notification %+v", p)
		}
	}
}
