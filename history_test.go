package hone_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
)

// TestHistorySignal: a past commit about the task's subject points at the
// file it changed, the reason says so, and History.Off and the ablation
// switch turn it off.
func TestHistorySignal(t *testing.T) {
	testrepo.NeedGit(t)
	dir := t.TempDir()
	testrepo.Git(t, dir, "init", "-q", "-b", "main")
	body := "def total(items):\n    return sum(i.amount for i in items)\n"
	testrepo.Commit(t, dir, "Add billing", map[string]string{
		"billing/invoice.py": body, "billing/receipt.py": body, "billing/ledger.py": body})
	testrepo.Commit(t, dir, "Fix rounding of converted currency in invoice totals",
		map[string]string{"billing/invoice.py": body + "# rounded\n"})
	task := "Totals are off by a cent after currency conversion"
	reasonOf := func(res *hone.Result, p string) string {
		for _, e := range res.Ranked {
			if e.Path == p {
				return e.Reason
			}
		}
		t.Fatalf("%s not ranked: %+v", p, res.Ranked)
		return ""
	}
	const label = "past commits like the task touched it"
	ctx := context.Background()
	repo, err := hone.Open(ctx, dir, hone.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := repo.Retrieve(ctx, task, hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ranked[0].Path != "billing/invoice.py" || !strings.Contains(res.Ranked[0].Reason, label) {
		t.Errorf("first %s (%s); want billing/invoice.py, by its history", res.Ranked[0].Path, res.Ranked[0].Reason)
	}
	if r := reasonOf(res, "billing/receipt.py"); strings.Contains(r, label) {
		t.Errorf("receipt.py has a history reason, but no commit like the task touched it: %s", r)
	}
	res, err = repo.Retrieve(ctx, task, hone.RetrieveOptions{Off: hone.Features{History: true}})
	if err != nil {
		t.Fatal(err)
	}
	if r := reasonOf(res, "billing/invoice.py"); strings.Contains(r, label) {
		t.Errorf("Off.History: %s", r)
	}
	off, err := hone.Open(ctx, dir, hone.Options{NoCache: true, History: hone.History{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	res, err = off.Retrieve(ctx, task, hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := reasonOf(res, "billing/invoice.py"); strings.Contains(r, label) {
		t.Errorf("History.Off: %s", r)
	}
	// A revision that does not exist: no history, and no error.
	bad, err := hone.Open(ctx, dir, hone.Options{NoCache: true, History: hone.History{Rev: "no-such-branch"}})
	if err != nil {
		t.Fatalf("unknown revision: %v", err)
	}
	if res, err = bad.Retrieve(ctx, task, hone.RetrieveOptions{}); err != nil || strings.Contains(reasonOf(res, "billing/invoice.py"), label) {
		t.Errorf("unknown revision: %v", err)
	}
}
