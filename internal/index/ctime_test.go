//go:build linux

package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestEditKeepingStat: an edit in place that keeps the size, the inode and
// the modification time (a tool that restores mtime, or two writes within
// the clock's resolution) is seen through the change time, as git's index
// sees it: the old text no longer matches, the new text does, whether the
// index is refreshed from memory (Prev) or reloaded from the cache.
func TestEditKeepingStat(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	p := filepath.Join(root, "pkg", "limit.go")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("package pkg\n\nfunc alphaguard() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, _, err := Open(ctx, root, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if first.DocFreq("alphaguard") != 1 {
		t.Fatalf("the first index lacks alphaguard")
	}
	before, _ := os.Stat(p)
	time.Sleep(10 * time.Millisecond)        // a change time the filesystem can tell apart
	f, err := os.OpenFile(p, os.O_WRONLY, 0) // in place: same inode
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("package pkg\n\nfunc omegaguard() {}\n"), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(p)
	if after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) || !os.SameFile(before, after) {
		t.Fatalf("the edit changed size, mtime or inode: the test checks nothing")
	}
	for _, tc := range []struct {
		name string
		prev *Index
	}{{"refreshed from memory", first}, {"reloaded from the cache", nil}} {
		ix, _, err := Open(ctx, root, Options{CacheDir: cache, Prev: tc.prev})
		if err != nil {
			t.Fatal(err)
		}
		if ix.DocFreq("omegaguard") != 1 || ix.DocFreq("alphaguard") != 0 {
			t.Errorf("%s: omegaguard in %d files, alphaguard in %d; want 1 and 0", tc.name, ix.DocFreq("omegaguard"), ix.DocFreq("alphaguard"))
		}
	}
}
