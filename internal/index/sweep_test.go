package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSweepOldGeneration: save keeps the segments of the manifest it
// replaces for readers; an Open that finds the index up to date removes
// them once they are older than staleAfter, and leaves alone the current
// segments, a fresh unnamed file (a writer between its segment and its
// manifest), other roots' files, and everything while another process
// holds the manifest's lock.
func TestSweepOldGeneration(t *testing.T) {
	root, cache := copyRepo(t), t.TempDir()
	openT(t, root, cache)
	p := mustCachePath(t, cache, root)
	prefix := strings.TrimSuffix(filepath.Base(p), ".bin")
	old := time.Now().Add(-2 * staleAfter)
	write := func(name string, at time.Time) string {
		t.Helper()
		f := filepath.Join(cache, name)
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, at, at); err != nil {
			t.Fatal(err)
		}
		return f
	}
	stale := write(prefix+"-00000000deadbeef.seg", old)
	fresh := write(prefix+"-00000000cafef00d.seg", time.Now())
	other := write("index-0000000000000000-00000000deadbeef.seg", old)
	exists := func(f string) bool { _, err := os.Stat(f); return err == nil }

	// Someone writes the cache: nothing is removed.
	unlock, held, err := TryLockManifest(p)
	if err != nil || !held {
		t.Fatalf("TryLockManifest = %v, %v", held, err)
	}
	openT(t, root, cache)
	unlock()
	if !exists(stale) {
		t.Fatal("a file was removed while another process held the lock")
	}

	ix, _ := openT(t, root, cache)
	if exists(stale) {
		t.Error("the unnamed segment older than staleAfter is still there")
	}
	for name, f := range map[string]string{"fresh unnamed segment": fresh, "other root's segment": other, "manifest": p} {
		if !exists(f) {
			t.Errorf("the %s was removed", name)
		}
	}
	for _, sg := range ix.segs {
		if !exists(filepath.Join(cache, sg.name)) {
			t.Errorf("the current segment %s was removed", sg.name)
		}
	}
	openT(t, root, cache) // and the index still opens warm
}
