package hone_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// TestWatchRefresh checks that a Repo opened with Watch refreshes from the
// watcher's events, without a walk, once the walk after its start is done,
// and that what it then answers is the tree's.
func TestWatchRefresh(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("internal/index/testdata/repo")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	repo, err := hone.Open(ctx, root, hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	refresh := func(what string) {
		t.Helper()
		if err := repo.Refresh(ctx); err != nil {
			t.Fatalf("%s: Refresh = %v", what, err)
		}
	}
	refresh("first")
	if !repo.IndexStats().Walked {
		t.Fatal("the Refresh after the watcher started did not walk")
	}
	refresh("nothing changed")
	if st := repo.IndexStats(); st.Walked || st.Parsed != 0 {
		t.Skipf("no watching here (%+v)", st)
	}
	if err := os.WriteFile(filepath.Join(root, "app/settings.py"), []byte("QUOTA_WATCHED = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refresh("one file edited")
	if st := repo.IndexStats(); st.Walked || st.Parsed != 1 {
		t.Errorf("one file edited: %+v; want it parsed without a walk", st)
	}
	res, err := repo.Search(ctx, loopQuery("quota_watched"), 5)
	if err != nil || len(res) == 0 || res[0].Path != "app/settings.py" {
		t.Errorf("Search after the edit = %v, %v", res, err)
	}
	if err := os.WriteFile(filepath.Join(root, "app/added.py"), []byte("def added_watched(): pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refresh("one file added")
	if st := repo.IndexStats(); !st.Walked || st.Parsed != 1 {
		t.Errorf("one file added: %+v; want a walk that parses it", st)
	}
}

func loopQuery(term string) loop.Query {
	return loop.Query{Keywords: []loop.Keyword{{Term: term, Weight: 1}}}
}
