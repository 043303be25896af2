package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func kws(terms ...string) []loop.Keyword {
	out := make([]loop.Keyword, len(terms))
	for i, t := range terms {
		out[i] = loop.Keyword{Term: t, Weight: 1, Origin: "task"}
	}
	return out
}

// sample is a two-cycle retrieval, built by hand.
func sample() *hone.Result {
	auth := loop.Evaluation{Path: "src/auth/auth.ts", Relevance: 0.92,
		Reason:         "defines validateToken:+0.35, path matches \"auth\":+0.10, matches token, expiry:+0.30, imported by 3 relevant files:+0.12",
		MissingContext: []string{"definition of SessionManager"}, Critical: true}
	tokens := loop.Evaluation{Path: "src/auth/tokens.ts", Relevance: 0.85, Reason: "defines refreshToken:+0.35"}
	jwt := loop.Evaluation{Path: "src/auth/jwt-utils.ts", Relevance: 0.30000000000000004, Reason: "matches jwt"}
	session := loop.Evaluation{Path: "src/session/manager.ts", Relevance: 0.7777777, Reason: "defines SessionManager:+0.40"}
	var low []loop.Evaluation
	for _, p := range []string{"src/user.ts", "README.md", "src/db/pool.ts"} {
		low = append(low, loop.Evaluation{Path: p, Relevance: 0.05, Reason: "matches token"})
	}
	c1evals := append([]loop.Evaluation{auth, tokens, jwt}, low...)
	return &hone.Result{
		Result: loop.Result{
			Task:   "Fix the authentication token expiry bug\nTokens issued at login never expire.",
			Files:  []loop.Evaluation{auth, tokens, session},
			Ranked: append([]loop.Evaluation{auth, tokens, session, jwt}, low...),
			Cycles: []loop.Cycle{
				{N: 1, Query: loop.Query{Keywords: kws("authentication", "token", "expiry", "expire", "login", "issued",
					"auth", "tokens", "fix", "bug", "never", "at", "extra"), FocusAreas: []string{"file:src/auth.ts"}},
					Candidates: 40, Evaluations: c1evals,
					Refinement: &loop.Refinement{AddedKeywords: []string{"refresh", "jwt"}, AddedPatterns: []string{"src/auth/**"},
						Excluded: []string{"src/user.ts", "README.md", "src/db/pool.ts"}, AddedFocus: []string{"symbol:SessionManager"},
						Associations: []string{"expiry → ttl (co-occurs in 4 files)"},
						Why: []string{"learned 'refresh', 'jwt' from auth.ts, tokens.ts", "exclude 3 files scored below 0.2",
							"look up the definition of SessionManager (auth.ts)"}}},
				{N: 2, Query: loop.Query{Patterns: []string{"src/auth/**"}, Keywords: kws("token", "refresh", "jwt"),
					Excludes: []string{"src/user.ts", "README.md", "src/db/pool.ts"}, FocusAreas: []string{"symbol:SessionManager"}},
					Candidates: 1, Evaluations: []loop.Evaluation{session}},
			},
			Stopped: "cycle 2: 3 files at or above 0.70 and no critical gap",
		},
		Stats: hone.Stats{FilesIndexed: 24, IndexMs: 12, RetrieveMs: 3, Extra: map[string]any{"llm_tokens": 1234, "llm_cost_usd": 0.0021}},
	}
}

func TestText(t *testing.T) {
	empty := &hone.Result{Result: loop.Result{Task: "nothing", Stopped: "cycle 1: the query matched no file"}}
	weak := sample()
	weak.Files = nil
	first := sample()
	first.Stats.Unparsed = 3200 // a first answer's partial index
	for _, tc := range []struct {
		name string
		res  *hone.Result
		opts TextOptions
	}{
		{"sample", sample(), TextOptions{}},
		{"sample-color", sample(), TextOptions{Color: true}},
		{"sample-narrow", sample(), TextOptions{Width: 60, Top: 1, Keywords: 3, NoTrace: false}},
		{"sample-notrace", sample(), TextOptions{NoTrace: true}},
		{"empty", empty, TextOptions{}},
		{"weak", weak, TextOptions{NoTrace: true}},
		{"first-answer", first, TextOptions{NoTrace: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Text(&b, tc.res, tc.opts); err != nil {
				t.Fatalf("Text: %v", err)
			}
			if !tc.opts.Color && strings.Contains(b.String(), "\x1b") {
				t.Errorf("Text without Color writes ANSI codes")
			}
			if tc.opts.Width > 0 {
				for _, l := range strings.Split(b.String(), "\n") {
					// A single long word may overflow; these fixtures have none.
					if width(l) > tc.opts.Width {
						t.Errorf("line wider than %d: %q", tc.opts.Width, l)
					}
				}
			}
			golden(t, "text-"+tc.name+".golden", b.Bytes())
		})
	}
}

func TestTextDeterministic(t *testing.T) {
	var first string
	for i := 0; i < 20; i++ {
		var b bytes.Buffer
		if err := Text(&b, sample(), TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b.String()
		} else if b.String() != first {
			t.Fatal("Text output differs between runs")
		}
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	golden(t, "json-sample.golden", b.Bytes())
	if strings.Contains(b.String(), "0.30000000000000004") || !strings.Contains(b.String(), `"relevance": 0.778`) {
		t.Errorf("JSON does not round relevances to 3 decimals:\n%s", b.String())
	}
}

func TestJSONKeysAndEmptyLists(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  *hone.Result
	}{
		{"sample", sample()},
		{"zero", &hone.Result{}},
		{"nil-inside", &hone.Result{Result: loop.Result{Task: "t", Cycles: []loop.Cycle{{N: 1,
			Evaluations: []loop.Evaluation{{Path: "a.go", Relevance: 0.5}},
			Refinement:  &loop.Refinement{}}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := JSON(&b, tc.res); err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b.Bytes(), &m); err != nil {
				t.Fatalf("JSON is not one object: %v", err)
			}
			// The last cycle's refinement is null by the loop's contract; no
			// other value may be.
			if where := findNull(m, "", "refinement"); where != "" {
				t.Errorf("JSON holds null at %s:\n%s", where, b.String())
			}
			var keys []string
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			want := []string{"cycles", "files", "ranked", "stats", "stopped", "task"}
			if diff := cmp.Diff(want, keys); diff != "" {
				t.Errorf("JSON keys (-want +got):\n%s", diff)
			}
			for _, k := range []string{"files", "ranked", "cycles"} {
				if _, ok := m[k].([]any); !ok {
					t.Errorf("JSON %q = %v, want a list", k, m[k])
				}
			}
		})
	}
}

// findNull returns the path of a null in v, but for keys named allowed.
func findNull(v any, at, allowed string) string {
	switch v := v.(type) {
	case nil:
		return at
	case map[string]any:
		for k, x := range v {
			if x == nil && k == allowed {
				continue
			}
			if w := findNull(x, at+"."+k, allowed); w != "" {
				return w
			}
		}
	case []any:
		for i, x := range v {
			if w := findNull(x, fmt.Sprintf("%s[%d]", at, i), allowed); w != "" {
				return w
			}
		}
	}
	return ""
}

func TestJSONDoesNotChangeResult(t *testing.T) {
	res := sample()
	before := res.Files[2].Relevance
	if err := JSON(&bytes.Buffer{}, res); err != nil {
		t.Fatal(err)
	}
	if res.Files[2].Relevance != before || res.Files[1].MissingContext != nil {
		t.Errorf("JSON changed its input")
	}
}

func TestPaths(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  *hone.Result
		want string
	}{
		{"sample", sample(), "src/auth/auth.ts\nsrc/auth/tokens.ts\nsrc/session/manager.ts\n"},
		{"empty", &hone.Result{}, ""},
		{"odd names", &hone.Result{Result: loop.Result{Files: []loop.Evaluation{{Path: "new\nline.py"}, {Path: "app/[slug]/page.tsx"},
			{Path: "sp ace/ü.py"}, {Path: `"quoted".py`}, {Path: "tab\there.go"}}}},
			`"new\nline.py"` + "\napp/[slug]/page.tsx\nsp ace/ü.py\n" + `"\"quoted\".py"` + "\n" + `"tab\there.go"` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Paths(&b, tc.res); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("Paths = %q, want %q", b.String(), tc.want)
			}
		})
	}
}

func TestNilResult(t *testing.T) {
	var b bytes.Buffer
	for name, err := range map[string]error{
		"Text": Text(&b, nil, TextOptions{}), "JSON": JSON(&b, nil), "Paths": Paths(&b, nil),
	} {
		if !errors.Is(err, errNil) {
			t.Errorf("%s(nil) error = %v, want errNil", name, err)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	if err := Text(failWriter{}, sample(), TextOptions{}); err == nil {
		t.Error("Text to a failing writer: no error")
	}
	if err := JSON(failWriter{}, sample()); err == nil {
		t.Error("JSON to a failing writer: no error")
	}
	if err := Paths(failWriter{}, sample()); err == nil {
		t.Error("Paths to a failing writer: no error")
	}
}
