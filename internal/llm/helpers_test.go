package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hone-dev/hone/loop"
)

// fakeBase is a local evaluator: candidate i gets localRel[i].
type fakeBase struct{}

var localRel = []float64{0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3}

func (fakeBase) Evaluate(ctx context.Context, in loop.EvalInput) ([]loop.Evaluation, error) {
	out := make([]loop.Evaluation, len(in.Candidates))
	for i, c := range in.Candidates {
		out[i] = loop.Evaluation{Path: c.Path, Relevance: localRel[i%len(localRel)], Reason: "local signals",
			MissingContext: []string{}, Learned: []string{"localterm"}}
	}
	return out, nil
}

// files are the views the fake view function serves.
var files = map[string]string{
	"auth/token.py":   "def refresh_token(token):\n    token.expiry = now() + TTL\n",
	"auth/session.py": "class SessionManager:\n    def expire(self): ...\n",
	"docs/readme.md":  "# Project\nSome words about tokens.\n",
	"util/strings.py": "def slugify(s): ...\n",
	"auth/models.py":  "class Token(Model):\n    expiry = DateTimeField()\n",
}

func viewOf(path string, terms []string, budget int) (string, error) {
	v, ok := files[path]
	if !ok {
		return "", fmt.Errorf("no file %s", path)
	}
	return path + "\n" + v, nil
}

func input(paths ...string) loop.EvalInput {
	in := loop.EvalInput{Task: "Fix the authentication token expiry bug", Cycle: 1,
		Query: loop.Query{Keywords: []loop.Keyword{{Term: "token", Weight: 1}, {Term: "expiry", Weight: 1}}}}
	for i, p := range paths {
		in.Candidates = append(in.Candidates, loop.Candidate{Path: p, Score: float64(10 - i)})
	}
	return in
}

var filePaths = regexp.MustCompile(`(?m)^### FILE: (.+)$`)

// seen is one request as the fake server received it.
type seen struct {
	Path   string
	Header http.Header
	Body   map[string]any
	Raw    string
	Files  []string // paths listed in the prompt
}

// response is what a handler answers.
type response struct {
	Status int
	Header map[string]string
	Body   string
	Delay  time.Duration
}

// fake is an httptest server speaking one provider's wire format.
type fake struct {
	t        *testing.T
	provider string
	srv      *httptest.Server
	handle   func(n int, s seen) response

	mu       sync.Mutex
	requests []seen
	inFlight int
	maxIn    int
}

func newFake(t *testing.T, provider string, handle func(n int, s seen) response) *fake {
	f := &fake{t: t, provider: provider, handle: handle}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	s := seen{Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Raw: string(raw)}
	for _, m := range filePaths.FindAllStringSubmatch(promptText(body), -1) {
		s.Files = append(s.Files, m[1])
	}
	f.mu.Lock()
	n := len(f.requests)
	f.requests = append(f.requests, s)
	f.inFlight++
	f.maxIn = max(f.maxIn, f.inFlight)
	f.mu.Unlock()
	defer func() { f.mu.Lock(); f.inFlight--; f.mu.Unlock() }()

	resp := f.handle(n, s)
	if resp.Delay > 0 {
		select {
		case <-time.After(resp.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range resp.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if resp.Status == 0 {
		resp.Status = http.StatusOK
	}
	w.WriteHeader(resp.Status)
	io.WriteString(w, resp.Body)
}

func (f *fake) seen() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.requests...)
}

// promptText joins the request's system and message texts.
func promptText(body map[string]any) string {
	var b strings.Builder
	if s, ok := body["system"].(string); ok {
		b.WriteString(s + "\n")
	}
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if s, ok := mm["content"].(string); ok {
			b.WriteString(s + "\n")
		}
	}
	return b.String()
}

func (f *fake) config() Config {
	c := Config{Provider: f.provider, Model: "test-model", APIKey: "test-key", NoCache: true,
		Timeout: 5 * time.Minute, RequestTimeout: 5 * time.Second}
	if f.provider == ProviderAnthropic {
		c.BaseURL = f.srv.URL
	} else {
		c.BaseURL = f.srv.URL + "/v1"
	}
	return c
}

// reply renders a provider's success body around the judgment JSON.
func (f *fake) reply(content string) response {
	if f.provider == ProviderAnthropic {
		return response{Body: fmt.Sprintf(`{"id":"msg_01","type":"message","role":"assistant","model":"test-model",`+
			`"content":[{"type":"tool_use","id":"toolu_01","name":"report_relevance","input":%s}],`+
			`"stop_reason":"tool_use","usage":{"input_tokens":100,"output_tokens":20}}`, content)}
	}
	c, _ := json.Marshal(content)
	return response{Body: fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"test-model",`+
		`"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
		`"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`, c)}
}

// textReply is a reply whose text is given verbatim (anthropic as a text block).
func (f *fake) textReply(text string) response {
	if f.provider == ProviderAnthropic {
		t, _ := json.Marshal(text)
		return response{Body: fmt.Sprintf(`{"id":"msg_01","type":"message","role":"assistant","model":"test-model",`+
			`"content":[{"type":"text","text":%s}],"stop_reason":"end_turn","usage":{"input_tokens":100,"output_tokens":20}}`, t)}
	}
	return f.reply(text)
}

// judgeAll answers with relevance rel[path] (default 0.9) for every file
// listed in the prompt.
func judgeAll(files []string, rel map[string]float64) string {
	var evs []string
	for _, p := range files {
		r, ok := rel[p]
		if !ok {
			r = 0.9
		}
		evs = append(evs, fmt.Sprintf(`{"path":%q,"relevance":%g,"reason":"handles %s","missing_context":["caller of %s"],"critical":false}`, p, r, p, p))
	}
	return `{"evaluations":[` + strings.Join(evs, ",") + `],"keywords":["token_ttl","refresh_token"]}`
}

func newEval(t *testing.T, cfg Config) *Evaluator {
	t.Helper()
	e, err := New(cfg, fakeBase{}, viewOf)
	if err != nil {
		t.Fatal(err)
	}
	e.backoffBase = time.Millisecond
	return e
}

func byPath(evs []loop.Evaluation) map[string]loop.Evaluation {
	m := map[string]loop.Evaluation{}
	for _, e := range evs {
		m[e.Path] = e
	}
	return m
}
