package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
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
