package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone/internal/secret"
	"github.com/hone-dev/hone/loop"
)

var providers = []string{ProviderOpenAI, ProviderAnthropic}

func TestEvaluateSuccess(t *testing.T) {
	for _, prov := range providers {
		t.Run(prov, func(t *testing.T) {
			var f *fake
			f = newFake(t, prov, func(n int, s seen) response {
				return f.reply(judgeAll(s.Files, map[string]float64{"docs/readme.md": 0.1}))
			})
			e := newEval(t, f.config())
			in := input("auth/token.py", "docs/readme.md", "auth/session.py")
			evs, err := e.Evaluate(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			got := byPath(evs)
			if len(evs) != 3 {
				t.Fatalf("got %d evaluations, want 3", len(evs))
			}
			tok := got["auth/token.py"]
			if tok.Relevance != 0.9 || tok.Reason != "llm: handles auth/token.py" {
				t.Errorf("token.py = %v %q, want 0.9 llm reason", tok.Relevance, tok.Reason)
			}
			if diff := cmp.Diff([]string{"caller of auth/token.py"}, tok.MissingContext); diff != "" {
				t.Errorf("missing context (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"token_ttl", "refresh_token"}, tok.Terms); diff != "" {
				t.Errorf("the model's keywords as terms (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"localterm"}, tok.Learned); diff != "" {
				t.Errorf("learned (-want +got):\n%s", diff)
			}
			if r := got["docs/readme.md"]; r.Relevance != 0.1 || len(r.Learned) != 1 || len(r.Terms) != 0 {
				t.Errorf("readme = %v learned %v terms %v, want 0.1, only the local term, no keywords", r.Relevance, r.Learned, r.Terms)
			}

			reqs := f.seen()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Body["model"] != "test-model" {
				t.Errorf("model = %v", r.Body["model"])
			}
			switch prov {
			case ProviderOpenAI:
				if r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer test-key" {
					t.Errorf("openai request %s auth %q", r.Path, r.Header.Get("Authorization"))
				}
				rf, _ := r.Body["response_format"].(map[string]any)
				if rf["type"] != "json_schema" {
					t.Errorf("response_format = %v, want json_schema", rf)
				}
			case ProviderAnthropic:
				if r.Path != "/v1/messages" || r.Header.Get("x-api-key") != "test-key" ||
					r.Header.Get("anthropic-version") != AnthropicVersion {
					t.Errorf("anthropic request %s headers %v", r.Path, r.Header)
				}
				if r.Body["max_tokens"] == nil || r.Body["tool_choice"] == nil {
					t.Errorf("anthropic body lacks max_tokens or tool_choice: %s", r.Raw)
				}
			}
			for _, want := range []string{"Fix the authentication token expiry bug", "0.8-1.0", "refresh_token(token)"} {
				if !strings.Contains(promptText(r.Body), want) {
					t.Errorf("prompt lacks %q", want)
				}
			}
			u := e.Usage()
			if u.Requests != 1 || u.InputTokens != 100 || u.OutputTokens != 20 || u.Judged != 3 {
				t.Errorf("usage = %+v", u)
			}
		})
	}
}

func TestAnthropicTextReply(t *testing.T) {
	var f *fake
	f = newFake(t, ProviderAnthropic, func(n int, s seen) response {
		return f.textReply("Here you go:\n```json\n" + judgeAll(s.Files, nil) + "\n```")
	})
	e := newEval(t, f.config())
	evs, err := e.Evaluate(context.Background(), input("auth/token.py"))
	if err != nil {
		t.Fatal(err)
	}
	if evs[0].Relevance != 0.9 {
		t.Errorf("relevance = %v, want 0.9 from a fenced text reply", evs[0].Relevance)
	}
}

func TestRetries(t *testing.T) {
	date := time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		fail       response
		failures   int
		maxRetries int
		wantReqs   int
		wantJudged bool
		wantWait   time.Duration // the first wait, when a Retry-After fixes it
	}{
		{"429 with Retry-After seconds", response{Status: 429, Header: map[string]string{"Retry-After": "2"},
			Body: `{"error":{"message":"rate limited"}}`}, 1, 3, 2, true, 2 * time.Second},
		{"429 with Retry-After date", response{Status: 429, Header: map[string]string{"Retry-After": date}}, 1, 3, 2, true, 0},
		{"500 then success", response{Status: 500, Body: `{"error":{"message":"boom"}}`}, 1, 3, 2, true, 0},
		{"529 overloaded twice", response{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}, 2, 3, 3, true, 0},
		{"retries exhausted", response{Status: 503, Body: `{"error":{"message":"down"}}`}, 99, 2, 3, false, 0},
		{"Retry-After capped", response{Status: 429, Header: map[string]string{"Retry-After": "3600"}}, 1, 3, 2, true, maxRetryAfter},
	}
	for _, prov := range providers {
		for _, tt := range tests {
			t.Run(prov+"/"+tt.name, func(t *testing.T) {
				var f *fake
				f = newFake(t, prov, func(n int, s seen) response {
					if n < tt.failures {
						return tt.fail
					}
					return f.reply(judgeAll(s.Files, nil))
				})
				cfg := f.config()
				cfg.MaxRetries = tt.maxRetries
				e := newEval(t, cfg)
				var mu sync.Mutex
				var waits []time.Duration
				e.sleep = func(ctx context.Context, d time.Duration) error {
					mu.Lock()
					waits = append(waits, d)
					mu.Unlock()
					return nil
				}
				evs, err := e.Evaluate(context.Background(), input("auth/token.py"))
				if err != nil {
					t.Fatal(err)
				}
				if n := len(f.seen()); n != tt.wantReqs {
					t.Errorf("%d requests, want %d", n, tt.wantReqs)
				}
				judged := strings.HasPrefix(evs[0].Reason, "llm: handles")
				if judged != tt.wantJudged {
					t.Errorf("reason %q, judged = %v, want %v", evs[0].Reason, judged, tt.wantJudged)
				}
				if !tt.wantJudged {
					if evs[0].Relevance != 0.6 || !strings.Contains(evs[0].Reason, "request failed") ||
						!strings.Contains(evs[0].Reason, "local score kept: local signals") {
						t.Errorf("exhausted: %v %q, want local 0.6 with a request-failed note", evs[0].Relevance, evs[0].Reason)
					}
				}
				if tt.wantWait > 0 && (len(waits) == 0 || waits[0] != tt.wantWait) {
					t.Errorf("waits = %v, want first %v", waits, tt.wantWait)
				}
				if tt.name == "429 with Retry-After date" && (len(waits) == 0 || waits[0] < time.Second || waits[0] > 4*time.Second) {
					t.Errorf("waits = %v, want about 3s from the HTTP date", waits)
				}
				if u := e.Usage(); u.Retries != tt.wantReqs-1 {
					t.Errorf("retries = %d, want %d", u.Retries, tt.wantReqs-1)
				}
			})
		}
	}
}

func TestBackoffGrows(t *testing.T) {
	e := &Evaluator{backoffBase: 100 * time.Millisecond}
	for attempt, lo := range []time.Duration{50, 100, 200, 400} {
		d := e.backoff(attempt, 0)
		lo *= time.Millisecond
		if d < lo || d > 2*lo {
			t.Errorf("backoff(%d) = %v, want in [%v,%v]", attempt, d, lo, 2*lo)
		}
	}
	if d := e.backoff(40, 0); d > maxBackoff {
		t.Errorf("backoff(40) = %v, want <= %v", d, maxBackoff)
	}
}

func TestTimeout(t *testing.T) {
	for _, prov := range providers {
		t.Run(prov, func(t *testing.T) {
			var f *fake
			f = newFake(t, prov, func(n int, s seen) response {
				r := f.reply(judgeAll(s.Files, nil))
				r.Delay = 2 * time.Second
				return r
			})
			cfg := f.config()
			cfg.RequestTimeout = 50 * time.Millisecond
			cfg.MaxRetries = 1
			e := newEval(t, cfg)
			start := time.Now()
			evs, err := e.Evaluate(context.Background(), input("auth/token.py"))
			if err != nil {
				t.Fatal(err)
			}
			if el := time.Since(start); el > time.Second {
				t.Errorf("took %v, want the timeout to cut it short", el)
			}
			if evs[0].Relevance != 0.6 || !strings.Contains(evs[0].Reason, "timed out") {
				t.Errorf("got %v %q, want local score with a timeout note", evs[0].Relevance, evs[0].Reason)
			}
			if n := len(f.seen()); n != 2 {
				t.Errorf("%d requests, want 2 (one retry)", n)
			}
		})
	}
}

func TestGarbageReplies(t *testing.T) {
	tests := []struct {
		name    string
		replies []string // per request; the last repeats
		want    map[string]float64
		note    string // in the reason of files that kept the local score
		reasks  int
	}{
		{"not JSON twice", []string{"I think the token file matters."}, map[string]float64{"auth/token.py": 0.6, "auth/session.py": 0.55}, "unusable reply (no JSON object)", 1},
		{"not JSON then JSON", []string{"sorry", "OK"}, map[string]float64{"auth/token.py": 0.9, "auth/session.py": 0.9}, "", 1},
		{"wrong shape", []string{`{"files":[{"path":"auth/token.py","score":1}]}`}, map[string]float64{"auth/token.py": 0.6, "auth/session.py": 0.55}, "no \"evaluations\" array", 1},
		{"unknown paths dropped", []string{`{"evaluations":[{"path":"etc/passwd","relevance":1,"reason":"x"},{"path":"auth/token.py","relevance":0.8,"reason":"yes"}],"keywords":[]}`},
			map[string]float64{"auth/token.py": 0.8, "auth/session.py": 0.55}, "no judgment in the reply", 0},
		{"relevance 7 rejected", []string{`{"evaluations":[{"path":"auth/token.py","relevance":7,"reason":"ten scale"},{"path":"auth/session.py","relevance":1.02,"reason":"close"}]}`},
			map[string]float64{"auth/token.py": 0.6, "auth/session.py": 1}, "relevance 7 outside 0..1", 0},
		{"fenced with prose", []string{"Sure!\n```json\n" + `{"evaluations":[{"path":"./auth/token.py","relevance":"0.75","reason":"r"}]}` + "\n```\nHope this helps"},
			map[string]float64{"auth/token.py": 0.75, "auth/session.py": 0.55}, "no judgment", 0},
		{"provider body not its shape", []string{"<<raw>>"}, map[string]float64{"auth/token.py": 0.6, "auth/session.py": 0.55}, "unusable reply", 1},
	}
	for _, prov := range providers {
		for _, tt := range tests {
			t.Run(prov+"/"+tt.name, func(t *testing.T) {
				var f *fake
				f = newFake(t, prov, func(n int, s seen) response {
					r := tt.replies[min(n, len(tt.replies)-1)]
					switch {
					case r == "OK":
						return f.reply(judgeAll(s.Files, nil))
					case r == "<<raw>>":
						return response{Body: `[1,2,3]`}
					case strings.HasPrefix(r, "{") && prov == ProviderAnthropic:
						return f.reply(r)
					}
					return f.textReply(r)
				})
				e := newEval(t, f.config())
				evs, err := e.Evaluate(context.Background(), input("auth/token.py", "auth/session.py"))
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range evs {
					want := tt.want[ev.Path]
					if ev.Relevance != want {
						t.Errorf("%s relevance = %v, want %v (reason %q)", ev.Path, ev.Relevance, want, ev.Reason)
					}
					if ev.Relevance == 0.6 || ev.Relevance == 0.55 {
						if !strings.Contains(ev.Reason, tt.note) || !strings.Contains(ev.Reason, "local score kept") {
							t.Errorf("%s reason = %q, want it to contain %q", ev.Path, ev.Reason, tt.note)
						}
					} else if !strings.HasPrefix(ev.Reason, "llm: ") {
						t.Errorf("%s reason = %q, want llm: prefix", ev.Path, ev.Reason)
					}
				}
				if u := e.Usage(); u.Reasks != tt.reasks {
					t.Errorf("reasks = %d, want %d", u.Reasks, tt.reasks)
				}
			})
		}
	}
}

func TestCacheHitMakesNoRequest(t *testing.T) {
	for _, prov := range providers {
		t.Run(prov, func(t *testing.T) {
			var f *fake
			f = newFake(t, prov, func(n int, s seen) response { return f.reply(judgeAll(s.Files, nil)) })
			cfg := f.config()
			cfg.NoCache = false
			cfg.CacheDir = t.TempDir()
			in := input("auth/token.py", "auth/session.py")
			first, err := newEval(t, cfg).Evaluate(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			e := newEval(t, cfg) // a new process, the same cache directory
			second, err := e.Evaluate(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(f.seen()); n != 1 {
				t.Errorf("%d requests, want 1 (the second run from the cache)", n)
			}
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("cached evaluations differ (-first +second):\n%s", diff)
			}
			if u := e.Usage(); u.CacheHits != 2 || u.Requests != 0 {
				t.Errorf("usage = %+v, want 2 cache hits and no request", u)
			}
			// Another task is another key.
			in.Task = "Add rate limiting"
			if _, err := e.Evaluate(context.Background(), in); err != nil {
				t.Fatal(err)
			}
			if n := len(f.seen()); n != 2 {
				t.Errorf("%d requests after a new task, want 2", n)
			}
		})
	}
}

// TestSecretsNeverSent: no secret reaches the model, whatever the view
// function shows (viewOf shows files as they are). Secret material is not
// sent at all; other views go with the values of credentials masked,
// including the two lines the old filter let through (issue 7): an unquoted
// db.password= in application.properties and password: in database.yml.
func TestSecretsNeverSent(t *testing.T) {
	awsKey := "AKIA" + "IOSFODNN7EXAMPLE"
	key := "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
	secrets := map[string]string{
		".env":                       "DATABASE_URL=postgres://u:hunter2@db/app\n",
		"deploy/key.txt":             key,
		"settings/prod.py":           "AWS_ACCESS_KEY_ID = '" + awsKey + "'\n",
		"src/application.properties": "db.url=jdbc:postgresql://db/app\ndb.password=hunter2secret\n",
		"config/database.yml":        "production:\n  adapter: postgresql\n  password: s3cr3tPassw0rd\n",
	}
	for p, v := range secrets {
		files[p] = v
	}
	t.Cleanup(func() {
		for p := range secrets {
			delete(files, p)
		}
	})
	// A view function that refuses secret material, as hone.Repo.View does.
	refusing := func(p string, terms []string, budget int) (string, error) {
		if p == "deploy/id_rsa" {
			return "", &secret.Error{Path: p, Reason: secret.PrivateKey}
		}
		return viewOf(p, terms, budget)
	}
	notSent := map[string]string{
		".env":           "not sent: " + secret.EnvFile,
		"deploy/key.txt": "not sent: " + secret.PrivateKey,
		"deploy/id_rsa":  "not sent: " + secret.PrivateKey,
	}
	masked := map[string]string{
		"settings/prod.py":           "AWS_ACCESS_KEY_ID = 'AKIA********'",
		"src/application.properties": "db.password=********",
		"config/database.yml":        "password: ********",
	}
	for _, prov := range providers {
		t.Run(prov, func(t *testing.T) {
			var f *fake
			f = newFake(t, prov, func(n int, s seen) response { return f.reply(judgeAll(s.Files, nil)) })
			cfg := f.config()
			cfg.SetDefaults()
			e, err := New(cfg, fakeBase{}, refusing)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := e.Evaluate(context.Background(), input(".env", "deploy/key.txt", "deploy/id_rsa",
				"settings/prod.py", "src/application.properties", "config/database.yml", "auth/token.py"))
			if err != nil {
				t.Fatal(err)
			}
			var raw strings.Builder
			for _, r := range f.seen() {
				raw.WriteString(r.Raw)
			}
			for _, leak := range []string{awsKey, "hunter2", "s3cr3tPassw0rd", "b3BlbnNzaC1rZXkt", ".env", "deploy/"} {
				if strings.Contains(raw.String(), leak) {
					t.Errorf("the server saw %q", leak)
				}
			}
			for p, want := range masked {
				if !strings.Contains(raw.String(), want) {
					t.Errorf("the server did not see %s masked as %q", p, want)
				}
			}
			got := byPath(evs)
			for p, want := range notSent {
				if !strings.HasPrefix(got[p].Reason, want+"; local score kept") {
					t.Errorf("%s reason = %q, want %q…", p, got[p].Reason, want)
				}
			}
			for _, p := range []string{"settings/prod.py", "config/database.yml", "auth/token.py"} {
				if got[p].Relevance != 0.9 {
					t.Errorf("%s not judged: %+v", p, got[p])
				}
			}
			if u := e.Usage(); u.NotSent != len(notSent) {
				t.Errorf("not sent = %d, want %d", u.NotSent, len(notSent))
			}
		})
	}
}

func TestCancel(t *testing.T) {
	for _, prov := range providers {
		t.Run(prov, func(t *testing.T) {
			started := make(chan struct{}, 8)
			var f *fake
			f = newFake(t, prov, func(n int, s seen) response {
				started <- struct{}{}
				r := f.reply(judgeAll(s.Files, nil))
				r.Delay = 5 * time.Second
				return r
			})
			e := newEval(t, f.config())
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-started; cancel() }()
			start := time.Now()
			_, err := e.Evaluate(ctx, input("auth/token.py", "auth/session.py"))
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			if el := time.Since(start); el > 2*time.Second {
				t.Errorf("took %v after cancel", el)
			}
		})
	}
}

func TestFatalStatus(t *testing.T) {
	for _, prov := range providers {
		t.Run(prov, func(t *testing.T) {
			f := newFake(t, prov, func(n int, s seen) response {
				return response{Status: 401, Body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}
			})
			e := newEval(t, f.config())
			_, err := e.Evaluate(context.Background(), input("auth/token.py"))
			if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "invalid x-api-key") {
				t.Errorf("err = %v, want the 401 and its message", err)
			}
			if n := len(f.seen()); n != 1 {
				t.Errorf("%d requests, want 1 (no retry on 401)", n)
			}
		})
	}
}

func TestResponseFormatFallback(t *testing.T) {
	var f *fake
	f = newFake(t, ProviderOpenAI, func(n int, s seen) response {
		if rf, ok := s.Body["response_format"].(map[string]any); ok && rf["type"] == "json_schema" {
			return response{Status: 400, Body: `{"error":{"message":"response_format json_schema not supported"}}`}
		}
		return f.reply(judgeAll(s.Files, nil))
	})
	e := newEval(t, f.config())
	for range 2 {
		if evs, err := e.Evaluate(context.Background(), input("auth/token.py")); err != nil || evs[0].Relevance != 0.9 {
			t.Fatalf("evaluate = %v, %v", evs, err)
		}
	}
	reqs := f.seen()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (schema refused, object accepted, object reused)", len(reqs))
	}
	if rf := reqs[2].Body["response_format"].(map[string]any); rf["type"] != "json_object" {
		t.Errorf("third request response_format = %v", rf)
	}
}

func TestBatchingTopNConcurrency(t *testing.T) {
	var f *fake
	f = newFake(t, ProviderOpenAI, func(n int, s seen) response {
		r := f.reply(judgeAll(s.Files, nil))
		r.Delay = 50 * time.Millisecond
		return r
	})
	cfg := f.config()
	cfg.TopN, cfg.BatchSize, cfg.Concurrency = 4, 2, 1
	e := newEval(t, cfg)
	in := input("auth/token.py", "auth/session.py", "docs/readme.md", "util/strings.py", "auth/models.py")
	evs, err := e.Evaluate(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.seen()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 batches of 2", len(reqs))
	}
	var sent []string
	for _, r := range reqs {
		if len(r.Files) != 2 {
			t.Errorf("batch of %d files, want 2", len(r.Files))
		}
		sent = append(sent, r.Files...)
	}
	for _, p := range sent {
		if p == "auth/models.py" {
			t.Errorf("the 5th candidate was sent with TopN 4")
		}
	}
	if m := byPath(evs)["auth/models.py"]; m.Reason != "local signals" {
		t.Errorf("unjudged candidate reason = %q, want the local one", m.Reason)
	}
	f.mu.Lock()
	maxIn := f.maxIn
	f.mu.Unlock()
	if maxIn != 1 {
		t.Errorf("max in flight = %d, want 1", maxIn)
	}
}

func TestCost(t *testing.T) {
	var f *fake
	f = newFake(t, ProviderOpenAI, func(n int, s seen) response { return f.reply(judgeAll(s.Files, nil)) })
	cfg := f.config()
	cfg.Prices = &Price{Input: 3, Output: 15}
	e := newEval(t, cfg)
	if _, err := e.Evaluate(context.Background(), input("auth/token.py")); err != nil {
		t.Fatal(err)
	}
	want := (100*3.0 + 20*15.0) / 1e6
	if got := e.Usage().CostUSD; got != want {
		t.Errorf("cost = %v, want %v", got, want)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"2", 2 * time.Second}, {"0.5", 500 * time.Millisecond}, {"-1", 0}, {"soon", 0},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second},
		{now.Add(-10 * time.Second).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestConcurrentBatches(t *testing.T) {
	var f *fake
	f = newFake(t, ProviderAnthropic, func(n int, s seen) response {
		r := f.reply(judgeAll(s.Files, nil))
		r.Delay = 30 * time.Millisecond
		return r
	})
	cfg := f.config()
	cfg.BatchSize, cfg.Concurrency = 1, 2
	e := newEval(t, cfg)
	evs, err := e.Evaluate(context.Background(), input("auth/token.py", "auth/session.py", "docs/readme.md", "util/strings.py", "auth/models.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.Relevance != 0.9 {
			t.Errorf("%s = %v %q, want judged", ev.Path, ev.Relevance, ev.Reason)
		}
	}
	f.mu.Lock()
	maxIn := f.maxIn
	f.mu.Unlock()
	if maxIn > 2 || len(f.seen()) != 5 {
		t.Errorf("max in flight %d (want <= 2), %d requests (want 5)", maxIn, len(f.seen()))
	}
	if u := e.Usage(); u.InputTokens != 500 || u.Requests != 5 {
		t.Errorf("usage = %+v", u)
	}
}

// TestTimeBudget: one deadline bounds the model across requests, retries,
// batches and cycles; when it passes, the local scores stand and the
// reasons, the counts and the stop sentence say so.
func TestTimeBudget(t *testing.T) {
	const budget = 300 * time.Millisecond
	stall := func(f *fake) func(int, seen) response {
		return func(n int, s seen) response {
			r := f.reply(judgeAll(s.Files, nil))
			r.Delay = time.Minute
			return r
		}
	}
	paths := []string{"auth/token.py", "auth/session.py", "docs/readme.md", "util/strings.py", "auth/models.py"}
	tests := []struct {
		name string
		// handle answers request n; nil stalls every request.
		handle func(f *fake) func(int, seen) response
		config func(c *Config)
		// cycles Evaluates run in turn; pause is slept between them.
		cycles   int
		pause    time.Duration
		wantLate int // files that kept the local score for lack of time
		wantReqs int // requests made, -1 to not check
		wantCyc  int // the cycle the budget ran out in
		// wantNote is what the reasons say between "(--llm-timeout" and ")".
		wantNote string
	}{
		{name: "a stalled request", handle: stall, cycles: 1, wantLate: 5, wantReqs: 1, wantCyc: 1},
		{name: "retries of timed-out requests", handle: stall, cycles: 1,
			config:   func(c *Config) { c.RequestTimeout = 40 * time.Millisecond; c.MaxRetries = 50 },
			wantLate: 5, wantReqs: -1, wantCyc: 1, wantNote: "; last error: openai: timed out after 40ms"},
		{name: "batches waiting for a slot", handle: stall, cycles: 1,
			config:   func(c *Config) { c.BatchSize = 2; c.Concurrency = 1 },
			wantLate: 5, wantReqs: 1, wantCyc: 1},
		{name: "a 503 that keeps failing", cycles: 1,
			handle: func(f *fake) func(int, seen) response {
				return func(int, seen) response {
					return response{Status: 503, Body: `{"error":{"message":"down"}}`, Delay: 50 * time.Millisecond}
				}
			},
			config:   func(c *Config) { c.MaxRetries = 50 },
			wantLate: 5, wantReqs: -1, wantCyc: 1, wantNote: "; last error: openai: HTTP 503: down"},
		{name: "the budget spans cycles", cycles: 2, pause: budget + 50*time.Millisecond,
			handle: func(f *fake) func(int, seen) response {
				return func(n int, s seen) response { return f.reply(judgeAll(s.Files, nil)) }
			},
			wantLate: 5, wantReqs: 1, wantCyc: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f *fake
			f = newFake(t, ProviderOpenAI, func(n int, s seen) response { return tt.handle(f)(n, s) })
			cfg := f.config()
			cfg.Timeout = budget
			cfg.RequestTimeout = 0
			if tt.config != nil {
				tt.config(&cfg)
			}
			e := newEval(t, cfg)
			start := time.Now()
			var evs []loop.Evaluation
			for c := 1; c <= tt.cycles; c++ {
				if c > 1 {
					time.Sleep(tt.pause)
				}
				in := input(paths...)
				in.Cycle = c
				var err error
				if evs, err = e.Evaluate(context.Background(), in); err != nil {
					t.Fatalf("Evaluate(cycle %d) = %v, want the local scores", c, err)
				}
			}
			if el := time.Since(start) - time.Duration(tt.cycles-1)*tt.pause; el > budget+time.Second {
				t.Errorf("Evaluate took %v, want about the budget %v", el, budget)
			}
			if len(evs) != len(paths) {
				t.Fatalf("got %d evaluations, want %d", len(evs), len(paths))
			}
			for i, ev := range evs {
				if ev.Relevance != localRel[i] {
					t.Errorf("%s relevance = %v, want the local %v", ev.Path, ev.Relevance, localRel[i])
				}
				prefix, suffix := "llm: time budget of 300ms ran out (--llm-timeout", "); local score kept: local signals"
				if !strings.HasPrefix(ev.Reason, prefix) || !strings.HasSuffix(ev.Reason, suffix) ||
					!strings.Contains(ev.Reason, tt.wantNote) {
					t.Errorf("%s reason = %q, want %q…%q…%q", ev.Path, ev.Reason, prefix, tt.wantNote, suffix)
				}
			}
			u := e.Usage()
			if u.OutOfTime != tt.wantLate || u.OutOfTimeCycle != tt.wantCyc || u.TimeBudget != "300ms" {
				t.Errorf("usage out_of_time %d in cycle %d budget %q, want %d in cycle %d budget 300ms",
					u.OutOfTime, u.OutOfTimeCycle, u.TimeBudget, tt.wantLate, tt.wantCyc)
			}
			if tt.wantReqs >= 0 && u.Requests != tt.wantReqs {
				t.Errorf("requests = %d, want %d", u.Requests, tt.wantReqs)
			}
			want := fmt.Sprintf("the LLM time budget (300ms, --llm-timeout) ran out in cycle %d: 5 files kept the local score", tt.wantCyc)
			if got := u.Stopped(); got != want {
				t.Errorf("Usage.Stopped() = %q, want %q", got, want)
			}
			if want := fmt.Sprintf(", time budget 300ms ran out in cycle %d", tt.wantCyc); !strings.Contains(u.String(), want) {
				t.Errorf("Usage.String() = %q, want it to contain %q", u.String(), want)
			}
		})
	}
}

// TestTimeBudgetNotHit: a budget that is not used up leaves no trace.
func TestTimeBudgetNotHit(t *testing.T) {
	var f *fake
	f = newFake(t, ProviderOpenAI, func(n int, s seen) response { return f.reply(judgeAll(s.Files, nil)) })
	cfg := f.config()
	cfg.Timeout = 10 * time.Second
	e := newEval(t, cfg)
	for c := 1; c <= 2; c++ {
		in := input("auth/token.py")
		in.Cycle = c
		evs, err := e.Evaluate(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(evs[0].Reason, "llm: handles") {
			t.Errorf("cycle %d: reason %q, want the model's judgment", c, evs[0].Reason)
		}
	}
	if u := e.Usage(); u.OutOfTime != 0 || u.Stopped() != "" {
		t.Errorf("usage out_of_time %d, Stopped() %q; want 0 and empty", u.OutOfTime, u.Stopped())
	}
}

// TestNoRetryPastBudget: a Retry-After longer than the time left is not
// waited out.
func TestNoRetryPastBudget(t *testing.T) {
	f := newFake(t, ProviderOpenAI, func(n int, s seen) response {
		return response{Status: 429, Header: map[string]string{"Retry-After": "30"}}
	})
	cfg := f.config()
	cfg.Timeout = 2 * time.Second
	e := newEval(t, cfg)
	start := time.Now()
	evs, err := e.Evaluate(context.Background(), input("auth/token.py"))
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v, want no wait for a retry past the budget", el)
	}
	want := "llm: time budget of 2s ran out (--llm-timeout; no retry: waiting 30s would pass it; last error: openai: HTTP 429: Too Many Requests); local score kept: local signals"
	if evs[0].Reason != want || evs[0].Relevance != localRel[0] {
		t.Errorf("got %v %q, want %v %q", evs[0].Relevance, evs[0].Reason, localRel[0], want)
	}
}

// TestEvidenceAboveEachView: the model sees hone's evidence above each view,
// as a judge over MCP sees it beside each excerpt, and for a second look why
// the file is shown again; a file hone did not weigh gets no such line, and
// the note is part of the cache key (a second look is asked, not served
// from the first judgment).
func TestEvidenceAboveEachView(t *testing.T) {
	for _, prov := range providers {
		t.Run(prov, func(t *testing.T) {
			var f *fake
			f = newFake(t, prov, func(n int, s seen) response { return f.reply(judgeAll(s.Files, nil)) })
			cfg := f.config()
			cfg.NoCache = false
			cfg.CacheDir = t.TempDir()
			in := input("auth/token.py", "auth/session.py", "docs/readme.md")
			in.Candidates[0].Evidence, in.Candidates[0].EvidenceReason = 0.93, "defines refresh_token:+0.35, covers 3 of 3 task terms:+0.30, imported by auth/session.py:+0.10, changed by 4 commits:+0.02"
			in.Candidates[1].Evidence, in.Candidates[1].EvidenceReason = 0.41, "bm25 0.30 of best:+0.13"
			if _, err := newEval(t, cfg).Evaluate(context.Background(), in); err != nil {
				t.Fatal(err)
			}
			reqs := f.seen()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			prompt := promptText(reqs[0].Body)
			for _, want := range []string{
				"### FILE: auth/token.py\nhone 0.93: defines refresh_token:+0.35, covers 3 of 3 task terms:+0.30, imported by auth/session.py:+0.10, ...\n",
				"### FILE: auth/session.py\nhone 0.41: bm25 0.30 of best:+0.13\n",
				"A line \"hone 0.93: …\" above a view",
			} {
				if !strings.Contains(prompt, want) {
					t.Errorf("prompt lacks %q:\n%s", want, prompt)
				}
			}
			if strings.Contains(prompt, "### FILE: docs/readme.md\nhone ") {
				t.Errorf("a file hone did not weigh got an evidence line:\n%s", prompt)
			}

			// The second look of token.py: a new request, which says why.
			again := input("auth/token.py")
			again.Candidates[0] = in.Candidates[0]
			again.Candidates[0].Via = []string{loop.SecondLook + "judged 0.10, hone's evidence 0.93"}
			if _, err := newEval(t, cfg).Evaluate(context.Background(), again); err != nil {
				t.Fatal(err)
			}
			reqs = f.seen()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2: the second look was served from the cache", len(reqs))
			}
			if want := "### FILE: auth/token.py\nsecond look: judged 0.10, hone's evidence 0.93\nhone 0.93: "; !strings.Contains(promptText(reqs[1].Body), want) {
				t.Errorf("second look's prompt lacks %q:\n%s", want, promptText(reqs[1].Body))
			}
		})
	}
}
