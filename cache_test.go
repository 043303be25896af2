package hone_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// TestCacheCutUnderRepo cuts the index cache to nothing while a repository
// opened from it is in use, as the reproducer did between an MCP
// start and judge (a cache cleaner, a full disk or another hone version
// can): a session started before goes on, and Retrieve, Search, View, Pack
// and Refresh answer as they did. With the cache mapped, the judge died of
// SIGBUS.
func TestCacheCutUnderRepo(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	opts := hone.Options{CacheDir: cache, History: hone.History{Off: true}}
	if _, err := hone.Open(ctx, "testdata/auth-service", opts); err != nil {
		t.Fatal(err)
	}
	repo, err := hone.Open(ctx, "testdata/auth-service", opts) // from the cache
	if err != nil {
		t.Fatal(err)
	}
	if st := repo.IndexStats(); st.Parsed != 0 {
		t.Fatalf("second Open parsed %d files; want all from the cache", st.Parsed)
	}
	const task = "Fix the token expiry bug in TokenManager"
	want, err := repo.Retrieve(ctx, task, hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cut := func() {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(cache, "index-*.bin"))
		if len(files) != 1 {
			t.Fatalf("cache files %v, want one", files)
		}
		if err := os.Truncate(files[0], 0); err != nil {
			t.Fatal(err)
		}
	}
	// session judges like an agent that wants the token files; between its
	// first dispatch and judgment, between(): the MCP judge refreshes the
	// repository first.
	session := func(between func()) []string {
		t.Helper()
		s, err := repo.Start(ctx, task, hone.RetrieveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for cycle := 0; ; cycle++ {
			cands, err := s.Dispatch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(cands) == 0 {
				break
			}
			if cycle == 0 {
				between()
				if err := repo.Refresh(ctx); err != nil {
					t.Fatalf("Refresh after the cut: %v", err)
				}
			}
			evals := make([]loop.Evaluation, len(cands))
			for i, c := range cands {
				evals[i] = loop.Evaluation{Path: c.Path, Relevance: 0.1, Reason: "no"}
				if strings.Contains(c.Path, "token") {
					evals[i].Relevance, evals[i].Reason = 0.9, "token"
				}
				if _, err := repo.View(c.Path, []string{"token"}, hone.ViewOptions{Budget: 200}); err != nil {
					t.Errorf("View(%s): %v", c.Path, err)
				}
			}
			if done, err := s.Judge(ctx, evals); err != nil {
				t.Fatal(err)
			} else if done {
				break
			}
		}
		return paths(s.Result().Files)
	}
	control := session(func() {})
	if got := session(cut); !slices.Equal(got, control) || len(got) == 0 {
		t.Errorf("session across the cut found %v, without the cut %v", got, control)
	}
	if st := repo.IndexStats(); len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "written again") {
		t.Errorf("Refresh after the cut: warnings %q, want one saying the cache is written again", st.Warnings)
	}

	cut()
	got, err := repo.Retrieve(ctx, task, hone.RetrieveOptions{})
	if err != nil || !slices.Equal(paths(got.Files), paths(want.Files)) {
		t.Errorf("Retrieve after the cut: %v, %v; want %v", paths(got.Files), err, paths(want.Files))
	}
	if cands, err := repo.Search(ctx, loop.Query{Keywords: []loop.Keyword{{Term: "token", Weight: 1}}}, 3); err != nil || len(cands) == 0 {
		t.Errorf("Search after the cut: %v, %v", cands, err)
	}
	if pack, err := repo.Pack(got, hone.PackOptions{Budget: 800}); err != nil || !strings.Contains(pack, want.Files[0].Path) {
		t.Errorf("Pack after the cut lacks %s: %v", want.Files[0].Path, err)
	}
}

// TestCacheCutUnderInPlaceRepo cuts the segment files a Repo that searches
// its index in place (the CLI's) reads: Retrieve must fail with an error
// that says to run again, not panic or answer from the damaged index, and
// the next Open rebuilds what was cut and answers as before.
func TestCacheCutUnderInPlaceRepo(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	opts := hone.Options{CacheDir: cache, History: hone.History{Off: true}}
	const task = "Fix the token expiry bug in TokenManager"
	cold, err := hone.Open(ctx, "testdata/auth-service", opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := cold.Retrieve(ctx, task, hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inPlace := opts
	inPlace.InPlace = true
	repo, err := hone.Open(ctx, "testdata/auth-service", inPlace)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := repo.Retrieve(ctx, task, hone.RetrieveOptions{}); err != nil || !slices.Equal(paths(got.Files), paths(want.Files)) {
		t.Fatalf("Retrieve in place: %v, %v; want %v", paths(got.Files), err, paths(want.Files))
	}
	// A fresh Repo, so that nothing is read from the files before the cut.
	repo, err = hone.Open(ctx, "testdata/auth-service", inPlace)
	if err != nil {
		t.Fatal(err)
	}
	segs, _ := filepath.Glob(filepath.Join(cache, "index-*.seg"))
	if len(segs) == 0 {
		t.Fatal("no segment file in the cache")
	}
	for _, p := range segs {
		if err := os.Truncate(p, 0); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := repo.Retrieve(ctx, task, hone.RetrieveOptions{}); err == nil || !strings.Contains(err.Error(), "run again") {
		t.Errorf("Retrieve in place after the cut = %v, %v; want an error that says to run again", got, err)
	}
	again, err := hone.Open(ctx, "testdata/auth-service", inPlace)
	if err != nil {
		t.Fatal(err)
	}
	got, err := again.Retrieve(ctx, task, hone.RetrieveOptions{})
	if err != nil || !slices.Equal(paths(got.Files), paths(want.Files)) {
		t.Errorf("Retrieve after the rebuild: %v, %v; want %v", paths(got.Files), err, paths(want.Files))
	}
}
