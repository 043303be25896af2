package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/walk"
)

func TestChunkPlan(t *testing.T) {
	old := chunkBytes
	chunkBytes = 100
	t.Cleanup(func() { chunkBytes = old })
	sizes := func(n ...int64) []walk.File {
		fs := make([]walk.File, len(n))
		for i, s := range n {
			fs[i].Size = s
		}
		return fs
	}
	tests := []struct {
		name  string
		files []walk.File
		want  []int
	}{
		{"nothing", nil, []int{0}},
		{"less than a chunk", sizes(40, 50), []int{2}},
		{"two chunks, the last smaller", sizes(60, 50, 30), []int{2, 3}},
		{"a file larger than a chunk", sizes(500, 1, 1), []int{1, 3}},
		// 1,000 bytes in at most maxChunks chunks of 250 or more.
		{"capped", sizes(100, 100, 100, 100, 100, 100, 100, 100, 100, 100), []int{3, 6, 9, 10}},
		{"the last file ends a chunk", sizes(100, 100), []int{1, 2}},
	}
	for _, tt := range tests {
		if got := chunkPlan(tt.files); !slices.Equal(got, tt.want) {
			t.Errorf("%s: chunkPlan = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// smallChunks makes a read of a few kilobytes a chunked one.
func smallChunks(t *testing.T, n int64) {
	old := chunkBytes
	chunkBytes = n
	t.Cleanup(func() { chunkBytes = old })
}

// TestChunkedBuild indexes a tree in chunks and checks that the index
// answers as one built at once, before and after a reload and an edit, and
// that the chunks were spilled to the cache directory as segments.
func TestChunkedBuild(t *testing.T) {
	smallChunks(t, 2<<10)
	root, cache := heavyRepo(t), t.TempDir()
	ix, st := openT(t, root, cache)
	if ix.Segments() < 2 || ix.Segments() > maxChunks {
		t.Fatalf("segments = %d, want 2 to %d", ix.Segments(), maxChunks)
	}
	if st.Parsed != ix.Len() {
		t.Errorf("parsed %d of %d files", st.Parsed, ix.Len())
	}
	if got := len(segFiles(t, mustCachePath(t, cache, root))); got != ix.Segments() {
		t.Errorf("%d segment files for %d segments", got, ix.Segments())
	}
	sameIndex(t, fresh(t, root), ix)

	loaded, st := openT(t, root, cache)
	if st.Parsed != 0 || loaded.Segments() != ix.Segments() {
		t.Errorf("reopen: %+v, %d segments", st, loaded.Segments())
	}
	sameIndex(t, fresh(t, root), loaded)

	edit(t, root, "app/burst.py", "class Burst:\n    def quota(self): return 1\n")
	edited, st := openT(t, root, cache)
	if st.Parsed != 1 {
		t.Errorf("one edit parsed %d files", st.Parsed)
	}
	if edited.Segments() > maxSegments {
		t.Errorf("segments = %d after an edit", edited.Segments())
	}
	sameIndex(t, fresh(t, root), edited)
}

// TestChunkedBuildSkips checks that what a chunk refuses is reported and
// kept as a skip like what the last chunk refuses.
func TestChunkedBuildSkips(t *testing.T) {
	smallChunks(t, 1<<10)
	root, cache := heavyRepo(t), t.TempDir()
	// Named to sort first, so that it falls in the first chunk.
	if err := os.WriteFile(filepath.Join(root, "aaa.py"), []byte("x = 1\n\x00\x01\x02binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, st := openT(t, root, cache)
	if ix.Segments() < 2 {
		t.Fatalf("segments = %d, want chunks", ix.Segments())
	}
	if _, ok := ix.Lookup("aaa.py"); ok {
		t.Error("a binary file is indexed")
	}
	if !slices.ContainsFunc(st.Skipped, func(s walk.Skip) bool { return s.Path == "aaa.py" }) {
		t.Errorf("skips %v lack aaa.py", st.Skipped)
	}
	_, st = openT(t, root, cache)
	if st.Parsed != 0 || !slices.ContainsFunc(st.Skipped, func(s walk.Skip) bool { return s.Path == "aaa.py" }) {
		t.Errorf("reopen: %+v", st)
	}
}

// TestChunkedBuildUnwritable checks that a cache directory that cannot be
// written still gives a whole index, built in chunks held in memory.
func TestChunkedBuildUnwritable(t *testing.T) {
	smallChunks(t, 2<<10)
	root := heavyRepo(t)
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	ix, st, err := Open(context.Background(), root, Options{CacheDir: filepath.Join(blocker, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "not saved") {
		t.Errorf("warnings = %q", st.Warnings)
	}
	sameIndex(t, fresh(t, root), ix)
}

// TestChunkedBuildCancelled checks that a cancelled chunked build returns
// the context's error and leaves a cache the next Open uses.
func TestChunkedBuildCancelled(t *testing.T) {
	smallChunks(t, 2<<10)
	root, cache := heavyRepo(t), t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	_, _, err := Open(ctx, root, Options{CacheDir: cache, Progress: func(done, total int) {
		if done > total*3/4 {
			cancel()
		}
	}})
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Fatalf("Open = %v, want cancelled", err)
	}
	if len(segFiles(t, mustCachePath(t, cache, root))) == 0 {
		t.Fatal("no chunk was spilled before the cancel")
	}
	ix, st := openT(t, root, cache)
	if len(st.Warnings) != 0 {
		t.Errorf("warnings = %q", st.Warnings)
	}
	sameIndex(t, fresh(t, root), ix)
	// The cancelled Open's spilled segments are collected by the save.
	if got := len(segFiles(t, mustCachePath(t, cache, root))); got != ix.Segments() {
		t.Errorf("%d segment files for %d segments", got, ix.Segments())
	}
}

// TestChunkedBuildOverAnIndex changes most of an indexed tree at once (a
// checkout far away), so that the read is built in chunks beside the old
// index's segments: the index must answer as one built from scratch, keep
// within maxSegments, and reload whole.
func TestChunkedBuildOverAnIndex(t *testing.T) {
	root, cache := heavyRepo(t), t.TempDir()
	prev, _ := openT(t, root, cache)
	smallChunks(t, 2<<10)
	n := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			n++
			rel, _ := filepath.Rel(root, p)
			edit(t, root, filepath.ToSlash(rel), strings.Repeat("def moved_"+d.Name()[:1]+"(quota): return quota\n", 40+n))
		}
		return nil
	})
	ix, st, err := Open(context.Background(), root, Options{CacheDir: cache, Prev: prev})
	if err != nil || len(st.Warnings) > 0 {
		t.Fatalf("Open = %v, %q", err, st.Warnings)
	}
	if st.Parsed != n {
		t.Errorf("parsed %d files, want the %d changed", st.Parsed, n)
	}
	// The old segment, all of it dead, is folded away: what is left is
	// the chunks.
	if ix.Segments() != maxChunks {
		t.Errorf("segments = %d, want %d chunks", ix.Segments(), maxChunks)
	}
	sameIndex(t, fresh(t, root), ix)
	loaded, st := openT(t, root, cache)
	if st.Parsed != 0 {
		t.Errorf("reopen parsed %d", st.Parsed)
	}
	sameIndex(t, fresh(t, root), loaded)
}

// TestChunkedBuildSpillCollected removes each spilled segment's file as
// soon as it is written, as another process's save of the same root may
// (it names only its own manifest's segments): the save must write them
// again from memory, and the cache must reload whole.
func TestChunkedBuildSpillCollected(t *testing.T) {
	smallChunks(t, 2<<10)
	removed := 0
	afterSpill = func(p string) {
		if os.Remove(p) == nil {
			removed++
		}
	}
	t.Cleanup(func() { afterSpill = nil })
	root, cache := heavyRepo(t), t.TempDir()
	ix, st := openT(t, root, cache)
	if removed == 0 || len(st.Warnings) > 0 {
		t.Fatalf("removed %d spilled segments; warnings %q", removed, st.Warnings)
	}
	afterSpill = nil
	loaded, st := openT(t, root, cache)
	if st.Parsed != 0 || len(st.Warnings) > 0 || loaded.Segments() != ix.Segments() {
		t.Errorf("reopen: %+v, %d segments of %d", st, loaded.Segments(), ix.Segments())
	}
	sameIndex(t, fresh(t, root), loaded)
}

// TestChunkedBuildSpillCut cuts each spilled segment's file short as soon
// as it is written, as another program might: the chunks are read back only
// once the last is built, so the Open that wrote them fails with an error
// naming the chunk (it neither panics nor answers from a damaged index),
// and the next Open builds the index whole again.
func TestChunkedBuildSpillCut(t *testing.T) {
	smallChunks(t, 2<<10)
	cut := 0
	afterSpill = func(p string) {
		if os.Truncate(p, 64) == nil {
			cut++
		}
	}
	t.Cleanup(func() { afterSpill = nil })
	root, cache := heavyRepo(t), t.TempDir()
	_, _, err := Open(context.Background(), root, Options{CacheDir: cache, InPlace: true})
	if cut == 0 || err == nil || !strings.Contains(err.Error(), "read back chunk") {
		t.Fatalf("cut %d spilled segments; Open = %v, want an error reading a chunk back", cut, err)
	}
	afterSpill = nil
	ix, st := openT(t, root, cache)
	if len(st.Warnings) > 1 {
		t.Errorf("warnings = %q", st.Warnings)
	}
	sameIndex(t, fresh(t, root), ix)
}

// TestChunkedBuildFromRecords builds a second root of the same tree in
// chunks from the records store: every file recalled, none parsed, and the
// index as one built at once.
func TestChunkedBuildFromRecords(t *testing.T) {
	storeEveryOpen(t)
	smallChunks(t, 2<<10)
	cache := t.TempDir()
	a := heavyRepo(t)
	if ix, st := openT(t, a, cache); ix.Segments() < 2 || st.Parsed != ix.Len() {
		t.Fatalf("first root: %d segments, %+v", ix.Segments(), st)
	}
	b := heavyRepo(t)
	ix, st := openT(t, b, cache)
	if ix.Segments() < 2 || st.Parsed != 0 || st.Recalled != ix.Len() {
		t.Fatalf("second root: %d segments, %+v; want chunks, every file recalled", ix.Segments(), st)
	}
	sameIndex(t, fresh(t, b), ix)
}
