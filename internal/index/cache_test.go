package index

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hone-dev/hone/internal/walk"
)

// heavyRepo is the test repository plus a file whose counts overflow a byte.
func heavyRepo(t *testing.T) string {
	t.Helper()
	root := copyRepo(t)
	var b strings.Builder
	b.WriteString("class Burst:\n")
	for i := range 300 {
		b.WriteString("    def burst_limit_" + strings.Repeat("x", i%3) + "(self): return burst * burst\n")
	}
	if err := os.WriteFile(filepath.Join(root, "app/burst.py"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestCacheRoundTrip checks that an index loaded from its cache equals the
// index built from the tree, counts above a byte included.
func TestCacheRoundTrip(t *testing.T) {
	root, cache := heavyRepo(t), t.TempDir()
	cold, _, err := Open(context.Background(), root, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	openT(t, root, cache)
	warm, st := openT(t, root, cache)
	if st.Parsed != 0 || st.Reused != cold.Len() {
		t.Fatalf("warm Open: %+v", st)
	}
	sameIndex(t, cold, warm)
	if len(warm.segs[0].overflow) == 0 {
		t.Fatal("no overflow pairs: the test file does not exercise them")
	}
	id, _ := warm.Lookup("app/burst.py")
	for _, tc := range []struct {
		f    Field
		term string
		want int
	}{
		{FieldContent, "burst", 901}, // the class name and two per method
		{FieldSymbols, "burst", 301}, // the class and the parts of 300 methods
		{FieldSymbols, "limit", 300},
		{FieldContent, "self", 300},
	} {
		for name, ix := range map[string]*Index{"cold": cold, "warm": warm} {
			if got := ix.TermFreq(id, tc.f, tc.term); got != tc.want {
				t.Errorf("%s TermFreq(%v, %q) = %d, want %d", name, tc.f, tc.term, got, tc.want)
			}
		}
	}
	q := []Term{{"burst", 1}, {"limit", 1}, {"token", 1}}
	if a, b := cold.Search(q, nil, 10), warm.Search(q, nil, 10); !cmp.Equal(a, b) {
		t.Errorf("Search differs: cold %v, warm %v", a, b)
	}
	if a, b := cold.Distinctive(id, 5), warm.Distinctive(id, 5); !slices.Equal(a, b) {
		t.Errorf("Distinctive differs: cold %v, warm %v", a, b)
	}
}

// foreignCache opens a copy of the test repository cold and returns the
// cache's bytes with the stamp of another executable (not yet written back).
func foreignCache(t *testing.T) (root, cache string, want *Index, st Stats, b []byte) {
	t.Helper()
	root, cache = copyRepo(t), t.TempDir()
	want, st = openT(t, root, cache)
	b, err := os.ReadFile(st.CachePath)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint64(b[24:], exeStamp()+2)
	return root, cache, want, st, b
}

// TestCacheOtherExecutable checks that a cache written by another executable
// is accepted once the extractor fingerprint is recomputed and matches.
func TestCacheOtherExecutable(t *testing.T) {
	_, _, want, _, b := foreignCache(t)
	m, err := decodeManifest(b, want.root)
	if err != nil {
		t.Fatalf("decode with another executable's stamp: %v", err)
	}
	if len(m.segs) != 1 || m.files != want.Len() {
		t.Errorf("manifest = %+v", m)
	}
}

func TestNameTable(t *testing.T) {
	var b nameTableBuilder
	for _, p := range []struct {
		name string
		id   ID
	}{{"b", 1}, {"a", 1}, {"b", 1}, {"b", 3}, {"c", 2}, {"a", 4}} {
		b.add(p.name, p.id)
	}
	nt := b.table()
	for name, want := range map[string][]ID{"a": {1, 4}, "b": {1, 3}, "c": {2}, "d": nil, "": nil} {
		if got := nt.get(name); !slices.Equal(got, want) {
			t.Errorf("get(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestLazyTagsConcurrent reads the tags of a loaded index from several
// goroutines at once (run with -race) and checks them against a cold build.
func TestLazyTagsConcurrent(t *testing.T) {
	root, cache := copyRepo(t), t.TempDir()
	cold, _ := openT(t, root, cache)
	warm, _ := openT(t, root, cache)
	if warm.segs[0].lazy == nil {
		t.Fatal("a warm Open decoded its tags eagerly")
	}
	done := make(chan []File)
	for range 4 {
		go func() {
			files := make([]File, warm.Len())
			for i := range files {
				files[i] = *warm.File(ID(i))
				warm.Defining("issue")
			}
			done <- files
		}()
	}
	for range 4 {
		if diff := cmp.Diff(cold.segs[0].files, <-done); diff != "" {
			t.Errorf("lazily decoded files (-want +got):\n%s", diff)
		}
	}
}

// TestCacheRestamp checks that a warm Open of a cache written by another
// executable stamps it with this one, so that the next Open trusts it
// without running the extractor, and that the content is unchanged.
func TestCacheRestamp(t *testing.T) {
	root, cache, want, st, b := foreignCache(t)
	if err := os.WriteFile(st.CachePath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, st := openT(t, root, cache)
	if len(st.Warnings) != 0 || st.Parsed != 0 {
		t.Fatalf("warm Open of another executable's cache: %+v", st)
	}
	sameIndex(t, want, got)
	b2, err := os.ReadFile(st.CachePath)
	if err != nil {
		t.Fatal(err)
	}
	if s := binary.LittleEndian.Uint64(b2[24:]); s != exeStamp() {
		t.Errorf("stamp after a warm Open = %x, want %x", s, exeStamp())
	}
	if !slices.Equal(b[manifestHead:], b2[manifestHead:]) || !slices.Equal(b[:24], b2[:24]) {
		t.Error("restamping changed more than the stamp")
	}
}

// TestPathKeepsTagsLazy checks that Path names every file of a loaded index
// without decoding its tags, and is "" out of range.
func TestPathKeepsTagsLazy(t *testing.T) {
	root, cache := copyRepo(t), t.TempDir()
	cold, _ := openT(t, root, cache)
	warm, _ := openT(t, root, cache)
	for i := range warm.Len() {
		if got, want := warm.Path(ID(i)), cold.File(ID(i)).Path; got != want {
			t.Errorf("Path(%d) = %q, want %q", i, got, want)
		}
		if f := warm.meta(ID(i)); f.Defs != nil || f.Refs != nil {
			t.Fatalf("Path(%d) decoded the tags of %s", i, f.Path)
		}
	}
	for _, id := range []ID{-1, ID(warm.Len())} {
		if got := warm.Path(id); got != "" {
			t.Errorf("Path(%d) = %q, want \"\"", id, got)
		}
	}
}

// segFiles returns the segment files of the cache whose manifest is p.
func segFiles(t *testing.T, p string) []string {
	t.Helper()
	out, err := filepath.Glob(strings.TrimSuffix(p, ".bin") + "-*.seg")
	if err != nil || len(out) == 0 {
		t.Fatalf("no segment beside %s (%v)", p, err)
	}
	return out
}

// TestCacheCutUnderIndex cuts the cache files an index was loaded from (as
// a cache cleaner, a full disk or another hone version may) and then reads
// every part of the index: its arrays, its strings and its tags not yet
// decoded. An index that mapped its file died of SIGBUS here. The next Open
// meets the damage: a cut manifest is rebuilt, a cut segment costs its own
// files, each with one warning.
func TestCacheCutUnderIndex(t *testing.T) {
	root := heavyRepo(t)
	for _, tc := range []struct {
		name string
		size func(n int64) int64
	}{
		{"emptied", func(int64) int64 { return 0 }},
		{"halved", func(n int64) int64 { return n / 2 }},
		{"header left", func(int64) int64 { return headerSize }},
	} {
		for _, what := range []string{"manifest", "segment"} {
			t.Run(tc.name+" "+what, func(t *testing.T) {
				cache := t.TempDir()
				cold, _ := openT(t, root, cache)
				warm, st := openT(t, root, cache)
				if st.Parsed != 0 || warm.segs[0].lazy == nil {
					t.Fatalf("second Open did not load the cache: %+v", st)
				}
				files := []string{st.CachePath}
				if what == "segment" {
					files = segFiles(t, st.CachePath)
				}
				for _, p := range files {
					fi, err := os.Stat(p)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.Truncate(p, min(tc.size(fi.Size()), fi.Size())); err != nil {
						t.Fatal(err)
					}
				}
				sameIndex(t, cold, warm)
				again, st := openT(t, root, cache)
				if len(st.Warnings) != 1 || st.Parsed+st.Recalled != cold.Len() {
					t.Errorf("Open of the cut cache: %d parsed, %d recalled, warnings %q; want all read again and one warning", st.Parsed, st.Recalled, st.Warnings)
				}
				sameIndex(t, cold, again)
				if _, st := openT(t, root, cache); len(st.Warnings) != 0 || st.Parsed != 0 {
					t.Errorf("Open after the rebuild: %+v", st)
				}
			})
		}
	}
}

// TestOpenPrev checks that an Open given the index it returned before
// reuses it while the cache file holds it, reads the file when someone
// else replaced it, and writes the file again from it when the file was
// cut or removed.
func TestOpenPrev(t *testing.T) {
	root, cache := copyRepo(t), t.TempDir()
	ctx := context.Background()
	open := func(what string, prev *Index) (*Index, Stats) {
		t.Helper()
		ix, st, err := Open(ctx, root, Options{CacheDir: cache, Prev: prev})
		if err != nil {
			t.Fatalf("%s: Open = %v", what, err)
		}
		return ix, st
	}
	cold, _ := open("cold", nil)
	if ix, st := open("unchanged", cold); ix != cold || st.Parsed != 0 || len(st.Warnings) != 0 {
		t.Errorf("unchanged: got the same index %v, %+v; want Prev itself, nothing read", ix == cold, st)
	}

	// Cut in place: the index in memory is written again, nothing parsed.
	p := mustCachePath(t, cache, root)
	st0, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	ix, st := open("cut", cold)
	if st.Parsed != 0 || len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "written again") {
		t.Errorf("cut: %+v; want nothing parsed and one warning that the file is written again", st)
	}
	if st1, err := os.Stat(st.CachePath); err != nil || st1.Size() != st0.Size() {
		t.Errorf("cut: the cache was not written again: %v", err)
	}
	if loaded, err := load(st.CachePath, cold.root, nil, false, t.Logf, nil); err != nil {
		t.Errorf("cut: the file written again does not load: %v", err)
	} else {
		sameIndex(t, cold, loaded)
	}
	if again, _ := open("after the cut", ix); again != ix {
		t.Error("after the cut: the index whose file was written again is not reused")
	}

	// Removed: written again without a warning.
	if err := os.Remove(st.CachePath); err != nil {
		t.Fatal(err)
	}
	ix, st = open("removed", ix)
	if st.Parsed != 0 || len(st.Warnings) != 0 {
		t.Errorf("removed: %+v; want nothing parsed, no warning", st)
	}
	if _, err := os.Stat(st.CachePath); err != nil {
		t.Errorf("removed: the cache was not written again: %v", err)
	}

	// Replaced by another process after an edit: the file is read, and it
	// already holds the edit.
	if err := os.WriteFile(filepath.Join(root, "app/fresh.py"), []byte("def refreshed_elsewhere():\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, st := open("other process", nil); st.Parsed != 1 {
		t.Fatalf("other process: %+v; want the edited file parsed", st)
	}
	got, st := open("replaced", ix)
	if st.Parsed != 0 || got == ix || len(got.Defining("refreshed_elsewhere")) != 1 {
		t.Errorf("replaced: %+v, Prev returned %v; want the replacing file's index, nothing parsed", st, got == ix)
	}

	// Another root's index is no Prev.
	other := copyRepo(t)
	if ix, st, err := Open(ctx, other, Options{CacheDir: cache, Prev: got}); err != nil || ix == got || st.Parsed+st.Recalled != ix.Len() {
		t.Errorf("another root's Prev: %+v, %v", st, err)
	}
}

func mustCachePath(t *testing.T, cache, root string) string {
	t.Helper()
	p, err := cachePath(cache, root)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProbesPrint: ProbesPrint is the extractor's output on its probes.
// When this fails, the extractor changed what it gives a file: set
// ProbesPrint to the value below, so that caches written before are rebuilt.
func TestProbesPrint(t *testing.T) {
	if got := probesPrint(); got != ProbesPrint {
		t.Errorf("the syntax extractor changed: set index.ProbesPrint = %#x (it is %#x)", got, uint64(ProbesPrint))
	}
}

// TestQuietRoundTrip: the manifest's record of the walk's directories
// (encodeQuiet, decodeQuiet) gives back what was written, quiet and listed
// directories with every kind of item, read after other fields as in a
// manifest; and the record ends where it says (the next field reads
// right).
func TestQuietRoundTrip(t *testing.T) {
	memo := walk.Memo{
		"docs/img": {Ino: 7, MTime: 1_700_000_000_000_000_001, CTime: -3, Chain: 0xfeedface,
			Items: []walk.QuietItem{{Skip: walk.Skip{Path: "docs/img/a.png", Reason: walk.SkipBinary, Detail: "binary extension .png"}}, {Sub: "old"}}},
		"": {Ino: 2, MTime: 5, CTime: 6, Chain: 1, Listed: true, Ignores: []string{".gitignore", ".honeignore"},
			Items: []walk.QuietItem{{File: "main.go"}, {Link: "link.go"}, {Sub: "docs"}, {Skip: walk.Skip{Path: "build.log", Reason: walk.SkipIgnored, Detail: ".gitignore:1: *.log"}}}},
		"src": {Ino: 9, Listed: true, Items: []walk.QuietItem{}},
	}
	var e encoder
	e.str("before")
	encodeQuiet(&e, memo)
	e.str("after")
	d := &decoder{b: e.b}
	if got := d.str(); got != "before" {
		t.Fatalf("first field %q", got)
	}
	got := decodeQuiet(d)
	if d.err != nil {
		t.Fatal(d.err)
	}
	memo["src"].Items = nil // an empty list decodes as empty
	for _, q := range got {
		if len(q.Items) == 0 {
			q.Items = nil
		}
	}
	if diff := cmp.Diff(memo, got); diff != "" {
		t.Errorf("decoded record (-written +read):\n%s", diff)
	}
	if after := d.str(); after != "after" {
		t.Errorf("the field after the record reads %q", after)
	}
}

// TestQuietNames: a record naming an entry that is not one path element
// ("..", "a/b", "", a NUL) is corrupt, and nothing of it is used: a walk
// from it would stat, open or read outside the directory.
func TestQuietNames(t *testing.T) {
	for _, bad := range []walk.QuietItem{{File: ".."}, {Sub: "a/b"}, {Link: "x\x00y"}, {File: "."}} {
		var e encoder
		encodeQuiet(&e, walk.Memo{"src": {Ino: 1, Listed: true, Items: []walk.QuietItem{{File: "ok.go"}, bad}}})
		d := &decoder{b: e.b}
		if got := decodeQuiet(d); got != nil || d.err == nil {
			t.Errorf("%+v: decoded %v, err %v; want a corrupt record", bad, got, d.err)
		}
	}
	var e encoder
	encodeQuiet(&e, walk.Memo{"src": {Ino: 1, Listed: true, Ignores: []string{"../.gitignore"}}})
	if got := decodeQuiet(&decoder{b: e.b}); got != nil {
		t.Errorf("an ignore file outside the directory was read back: %v", got)
	}
	var ok encoder
	encodeQuiet(&ok, walk.Memo{"src": {Ino: 1, Listed: true, Items: []walk.QuietItem{{File: `back\slash.go`}, {File: "..hidden"}}}})
	if got := decodeQuiet(&decoder{b: ok.b}); len(got) != 1 {
		t.Errorf("names a file system allows were refused: %v", got)
	}
}
