package hone_test

import (
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// TestExcerptsSecondLook: in a stepwise session a second look at a file
// shows what its first excerpt did not, and no line of it again; the first
// excerpt of a file is its view.
func TestExcerptsSecondLook(t *testing.T) {
	repo := open(t, "testdata/auth-service")
	x := hone.NewExcerpts(repo, false)
	const p = "src/auth/tokens.ts"
	terms := []string{"token", "expiry"}
	first, err := x.Of(loop.Candidate{Path: p}, terms)
	if err != nil {
		t.Fatal(err)
	}
	view, err := repo.View(p, terms, hone.ViewOptions{Budget: hone.ExcerptTokens})
	if err != nil || first != view {
		t.Fatalf("first excerpt differs from the view (%v):\n%s\n---\n%s", err, first, view)
	}
	// The query's words changed since: the second look still continues
	// the first excerpt.
	again, err := x.Of(loop.Candidate{Path: p, Via: []string{loop.SecondLook + "disputed"}}, []string{"session"})
	if err != nil {
		t.Fatal(err)
	}
	lines := func(s string) map[string]bool {
		out := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[1] == "|" {
				out[l] = true
			}
		}
		return out
	}
	shown, fresh := lines(first), 0
	for l := range lines(again) {
		if shown[l] {
			t.Errorf("the second look shows %q again", l)
		}
		fresh++
	}
	if fresh == 0 {
		t.Errorf("the second look shows no new line:\n%s\n---\n%s", first, again)
	}
}
