package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/hone-dev/hone/loop"
)

// TestEnough: the model is shown the task and the files judged relevant,
// each with its reason and missing context, asks for the enough tool (or
// schema), and its answer is read; an unusable reply is asked again once,
// and one unusable twice is "not enough" with an error, counted.
func TestEnough(t *testing.T) {
	relevant := []loop.Evaluation{
		{Path: "auth/token.py", Relevance: 0.95, Reason: "llm: refresh_token sets the expiry", MissingContext: []string{"caller of refresh_token"}},
		{Path: "auth/models.py", Relevance: 0.8, Reason: "llm: Token.expiry is the field"},
	}
	in := loop.EnoughInput{Task: "Fix the authentication token expiry bug", Cycle: 1, Relevant: relevant}
	for _, prov := range providers {
		t.Run(prov, func(t *testing.T) {
			answers := []string{`{"enough": true, "missing": ""}`, `not json`, `{"enough": false, "missing": "the session's expiry"}`, `nope`, `{"missing": "x"}`}
			var f *fake
			f = newFake(t, prov, func(n int, s seen) response { return f.textReply(answers[n]) })
			e := newEval(t, f.config())

			ok, why, err := e.Enough(context.Background(), in)
			if err != nil || !ok || why != "" {
				t.Fatalf("Enough = %v %q %v, want true", ok, why, err)
			}
			r := f.seen()[0]
			p := promptText(r.Body)
			for _, want := range []string{"Fix the authentication token expiry bug", "Relevant files (2):", "### FILE: auth/token.py",
				"relevance 0.95: llm: refresh_token sets the expiry", "missing: caller of refresh_token", "### FILE: auth/models.py"} {
				if !strings.Contains(p, want) {
					t.Errorf("prompt lacks %q:\n%s", want, p)
				}
			}
			if !strings.Contains(r.Raw, enoughTool) || strings.Contains(r.Raw, toolName) {
				t.Errorf("request does not ask for %s alone: %s", enoughTool, r.Raw)
			}

			// An unusable reply, then a usable one.
			ok, why, err = e.Enough(context.Background(), in)
			if err != nil || ok || why != "the session's expiry" {
				t.Errorf("Enough after a reask = %v %q %v, want false with what is missing", ok, why, err)
			}
			// Unusable twice: not enough, an error.
			if ok, _, err = e.Enough(context.Background(), in); ok || err == nil {
				t.Errorf("Enough on garbage = %v %v, want false and an error", ok, err)
			}
			u := e.Usage()
			if u.EnoughAsked != 3 || u.EnoughSaid != 1 || u.Reasks != 2 || u.Errors != 1 || u.Requests != 5 {
				t.Errorf("usage = asked %d said %d reasks %d errors %d requests %d; want 3 1 2 1 5", u.EnoughAsked, u.EnoughSaid, u.Reasks, u.Errors, u.Requests)
			}
			// Turned off: not asked.
			off := newEval(t, func() Config { c := f.config(); c.NoEnough = true; return c }())
			if ok, _, err := off.Enough(context.Background(), in); ok || err != nil || len(f.seen()) != 5 {
				t.Errorf("Enough with no_enough = %v %v after %d requests, want false without a request", ok, err, len(f.seen()))
			}
			// Nothing relevant: not asked.
			if ok, _, err := e.Enough(context.Background(), loop.EnoughInput{Task: in.Task, Cycle: 2}); ok || err != nil || len(f.seen()) != 5 {
				t.Errorf("Enough with no relevant file = %v %v after %d requests, want false without a request", ok, err, len(f.seen()))
			}
		})
	}
}
