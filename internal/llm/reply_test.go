package llm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseReply(t *testing.T) {
	tests := []struct {
		name, in string
		want     reply
		err      string
	}{
		{"plain", `{"evaluations":[{"path":"a.py","relevance":0.8,"reason":"r","missing_context":["x"],"critical":true}],"keywords":["k"]}`,
			reply{Evaluations: []replyEval{{Path: "a.py", Relevance: 0.8, HasRelevance: true, Reason: "r", MissingContext: []string{"x"}, Critical: true}}, Keywords: []string{"k"}}, ""},
		{"fenced", "```json\n{\"evaluations\":[{\"path\":\"./a.py\",\"score\":\"0.5\"}]}\n```",
			reply{Evaluations: []replyEval{{Path: "a.py", Relevance: 0.5, HasRelevance: true}}}, ""},
		{"prose around, braces in strings", `Result: {"evaluations":[{"path":"a.py","relevance":1,"reason":"uses {x}"}]} done {`,
			reply{Evaluations: []replyEval{{Path: "a.py", Relevance: 1, HasRelevance: true, Reason: "uses {x}"}}}, ""},
		{"string for list", `{"evaluations":[{"path":"a.py","relevance":0.1,"missing_context":"the caller"}],"keywords":"k"}`,
			reply{Evaluations: []replyEval{{Path: "a.py", Relevance: 0.1, HasRelevance: true, MissingContext: []string{"the caller"}}}, Keywords: []string{"k"}}, ""},
		{"no relevance", `{"evaluations":[{"path":"a.py","relevance":"high"}]}`,
			reply{Evaluations: []replyEval{{Path: "a.py"}}}, ""},
		{"no JSON", "I cannot help", reply{}, "no JSON object"},
		{"wrong shape", `{"files":[]}`, reply{}, "evaluations"},
		{"evaluations not a list", `{"evaluations":{"a.py":1}}`, reply{}, "evaluations"},
		{"broken", `{"evaluations":[{"path":"a.py",}]}`, reply{}, "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseReply(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseReply(%q) error = %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseReply(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseReply(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		`{"evaluations":[{"path":"a.py","relevance":0.8,"reason":"r","missing_context":["x"]}],"keywords":["k"]}`,
		"```json\n{\"evaluations\":[]}\n```",
		`{"evaluations":[{"path":1,"relevance":"NaN"}]}`,
		`{{{"`, `}{`, `"\"{"`, "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseReply(s)
		if err != nil {
			return
		}
		for _, e := range r.Evaluations {
			if e.Path == "" {
				t.Errorf("empty path kept from %q", s)
			}
			if e.HasRelevance && e.Relevance != e.Relevance {
				t.Errorf("NaN relevance from %q", s)
			}
		}
	})
}
