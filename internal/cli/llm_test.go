package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// stallingEndpoint is an LLM endpoint that accepts every request and never
// answers (until the client gives up or the test ends).
func stallingEndpoint(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // then the server sees the client hang up
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// llmEnv isolates the LLM settings from the machine's.
func llmEnv(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HONE_CONFIG", filepath.Join(dir, "absent.json"))
	t.Setenv("HONE_CACHE_DIR", dir)
	for _, k := range []string{"HONE_LLM_PROVIDER", "HONE_LLM_BASE_URL", "HONE_LLM_MODEL", "HONE_LLM_TIMEOUT",
		"HONE_LLM_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
		t.Setenv(k, "")
	}
}

type jsonResult struct {
	Ranked []struct {
		Path      string  `json:"path"`
		Relevance float64 `json:"relevance"`
		Reason    string  `json:"reason"`
	} `json:"ranked"`
	Stopped string `json:"stopped"`
	Cycles  []struct {
		Evaluations []struct {
			Path      string  `json:"path"`
			Relevance float64 `json:"relevance"`
		} `json:"evaluations"`
	} `json:"cycles"`
	Stats struct {
		Extra struct {
			LLM struct {
				OutOfTime  int    `json:"out_of_time"`
				TimeBudget string `json:"time_budget"`
			} `json:"llm"`
		} `json:"extra"`
	} `json:"stats"`
}

// TestLLMTimeout: a stalling endpoint costs the --llm-timeout budget, once
// for the whole retrieval; then the local scores stand and the trace says so.
func TestLLMTimeout(t *testing.T) {
	const task = "Fix the authentication token expiry bug"
	llmEnv(t)
	code, out, stderr := run(t, "", "--repo", fixture, "--json", task)
	if code != ExitOK {
		t.Fatalf("local run: exit %d: %s", code, stderr)
	}
	var local jsonResult
	if err := json.Unmarshal([]byte(out), &local); err != nil {
		t.Fatal(err)
	}
	srv := stallingEndpoint(t)
	tests := []struct {
		name string
		env  string // HONE_LLM_TIMEOUT
		flag []string
	}{
		{"flag", "", []string{"--llm-timeout", "300ms"}},
		{"seconds", "", []string{"--llm-timeout", "0.3"}},
		{"environment", "300ms", nil},
		{"flag over environment", "1h", []string{"--llm-timeout", "300ms"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HONE_LLM_TIMEOUT", tt.env)
			args := append([]string{"--repo", fixture, "--json", "--evaluator", "llm", "--llm-provider", "openai",
				"--llm-base-url", srv.URL + "/v1", "--llm-model", "m"}, tt.flag...)
			start := time.Now()
			code, out, stderr := run(t, "", append(args, task)...)
			el := time.Since(start)
			if code != ExitOK {
				t.Fatalf("exit %d, want 0: %s", code, stderr)
			}
			if el > 5*time.Second {
				t.Errorf("took %v with a 300ms budget", el)
			}
			var got jsonResult
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			// Cycle 1 ran out of time: its judgments are the local run's
			// cycle 1. (Later cycles differ: an LLM session offers files not
			// judged yet, where the local run re-scores the same ones.)
			if len(got.Cycles) == 0 || len(local.Cycles) == 0 {
				t.Fatalf("no cycle in the trace: %d and %d", len(got.Cycles), len(local.Cycles))
			}
			g1, l1 := got.Cycles[0].Evaluations, local.Cycles[0].Evaluations
			if len(g1) != len(l1) {
				t.Fatalf("cycle 1 judged %d files, want the local run's %d", len(g1), len(l1))
			}
			for i := range g1 {
				if g1[i] != l1[i] {
					t.Errorf("cycle 1 evaluations[%d] = %v, want the local %v", i, g1[i], l1[i])
				}
			}
			late := 0
			for _, f := range got.Ranked {
				if strings.HasPrefix(f.Reason, "llm: time budget of 300ms ran out (--llm-timeout); local score kept: ") {
					late++
				}
			}
			if late == 0 {
				t.Errorf("no ranked file's reason says the time budget ran out: %+v", got.Ranked)
			}
			if want := "; the LLM time budget (300ms, --llm-timeout) ran out in cycle 1: "; !strings.Contains(got.Stopped, want) {
				t.Errorf("stopped = %q, want it to contain %q", got.Stopped, want)
			}
			if u := got.Stats.Extra.LLM; u.OutOfTime < late || u.TimeBudget != "300ms" {
				t.Errorf("stats.extra.llm out_of_time %d budget %q, want >= %d and 300ms", u.OutOfTime, u.TimeBudget, late)
			}
			if !strings.Contains(stderr, "LLM time budget") {
				t.Errorf("stderr lacks the warning: %q", stderr)
			}
		})
	}
}

// judgingEndpoint is an LLM endpoint that rates every file it is shown
// 0.3 ("tangential"), and counts the files shown.
func judgingEndpoint(t *testing.T) (*httptest.Server, func() map[string]int) {
	t.Helper()
	var mu sync.Mutex
	shown := map[string]int{}
	fileRE := regexp.MustCompile(`(?m)^### FILE: (.+)$`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		json.Unmarshal(b, &req)
		var evs []map[string]any
		for _, m := range req.Messages {
			for _, f := range fileRE.FindAllStringSubmatch(m.Content, -1) {
				mu.Lock()
				shown[f[1]]++
				mu.Unlock()
				evs = append(evs, map[string]any{"path": f[1], "relevance": 0.3, "reason": "same area",
					"missing_context": []string{}, "critical": false})
			}
		}
		chatReply(w, evs, []string{})
	}))
	t.Cleanup(srv.Close)
	return srv, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(shown)
	}
}

// TestLLMJudgesEveryCandidate: with the LLM evaluator a cycle offers the
// model a page it judges whole (top_n files, whatever --candidates asks
// above it), taken from hone's own ranking first: no candidate keeps the
// local score unseen, and no file is shown more than once besides the
// second look hone's evidence asks for.
func TestLLMJudgesEveryCandidate(t *testing.T) {
	for _, tc := range []struct {
		repo, task string
	}{
		{fixture, "Fix the authentication token expiry bug"},
		{"../../testdata/campus-portal", "Fix the enrollment date validation bug"},
	} {
		t.Run(filepath.Base(tc.repo), func(t *testing.T) {
			llmEnv(t)
			const topN = 2
			cfg := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`{"llm": {"top_n": %d, "no_cache": true}}`, topN)), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("HONE_CONFIG", cfg)
			code, out, stderr := run(t, "", "--repo", tc.repo, "--json", "--no-history", tc.task)
			if code != ExitOK {
				t.Fatalf("local run: exit %d: %s", code, stderr)
			}
			var local jsonResult
			if err := json.Unmarshal([]byte(out), &local); err != nil {
				t.Fatal(err)
			}
			srv, shown := judgingEndpoint(t)
			code, out, stderr = run(t, "", "--repo", tc.repo, "--json", "--no-history", "--evaluator", "llm", "--llm-provider", "openai",
				"--llm-base-url", srv.URL+"/v1", "--llm-model", "m", "--candidates", "40", tc.task)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got jsonResult
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Cycles) < 2 {
				t.Fatalf("%d cycles: the test needs a second page", len(got.Cycles))
			}
			for i, c := range got.Cycles {
				if len(c.Evaluations) > topN {
					t.Errorf("cycle %d judged %d files, want at most top_n %d", i+1, len(c.Evaluations), topN)
				}
				for _, e := range c.Evaluations {
					if shown()[e.Path] == 0 {
						t.Errorf("cycle %d: %s was judged without the model seeing it", i+1, e.Path)
					}
				}
			}
			for p, n := range shown() {
				if n > 2 {
					t.Errorf("%s was shown to the model %d times, want once and at most one second look", p, n)
				}
			}
			// The first page is hone's own best files.
			for _, e := range got.Cycles[0].Evaluations {
				if !slices.ContainsFunc(local.Ranked[:topN], func(r struct {
					Path      string  `json:"path"`
					Relevance float64 `json:"relevance"`
					Reason    string  `json:"reason"`
				}) bool {
					return r.Path == e.Path
				}) {
					t.Errorf("cycle 1 showed %s, not one of hone's first %d", e.Path, topN)
				}
			}
		})
	}
}
