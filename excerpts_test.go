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
	const p = "src/auth/tokens.ts"
	// Without hone's evidence, and with it: the evidence takes its share
	// of the excerpt's budget.
	plain := loop.Candidate{Path: p}
	weighed := loop.Candidate{Path: p, Evidence: 0.93, EvidenceReason: "defines isTokenExpired:+0.35, covers 2 of 2 task terms:+0.30, past commits like the task touched it (3, best 0123456789):+0.20"}
	for _, c := range []loop.Candidate{plain, weighed} {
		excerptsSecondLook(t, repo, c, hone.ExcerptTokens-(len(c.EvidenceBrief())+3)/4)
	}
}

func excerptsSecondLook(t *testing.T, repo *hone.Repo, c loop.Candidate, budget int) {
	t.Helper()
	x := hone.NewExcerpts(repo, false)
	p := c.Path
	terms := []string{"token", "expiry"}
	first, err := x.Of(c, terms)
	if err != nil {
		t.Fatal(err)
	}
	view, err := repo.View(p, terms, hone.ViewOptions{Budget: budget})
	// The excerpt is the view after the path it starts with (the
	// candidate names it).
	if err != nil || !strings.HasPrefix(view, p+" (") || first != strings.TrimPrefix(view, p+" ") {
		t.Fatalf("budget %d: first excerpt is not the view after its path (%v):\n%s\n---\n%s", budget, err, first, view)
	}
	// The query's words changed since: the second look still continues
	// the first excerpt.
	c.Via = []string{loop.SecondLook + "disputed"}
	again, err := x.Of(c, []string{"session"})
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
	// A first excerpt cut short by the evidence beside it: the second look
	// continues from what it showed, not from what a whole budget would
	// have shown.
	if budget < hone.ExcerptTokens {
		whole, err := repo.View(p, terms, hone.ViewOptions{Budget: hone.ExcerptTokens})
		if err != nil {
			t.Fatal(err)
		}
		againLines, missed := lines(again), 0
		for l := range lines(whole) {
			if !shown[l] {
				missed++
				if againLines[l] {
					return
				}
			}
		}
		if missed > 0 {
			t.Errorf("budget %d: the second look shows none of the %d lines the first excerpt left out and a whole budget shows:\n%s", budget, missed, again)
		}
	}
}
