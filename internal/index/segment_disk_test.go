package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func openInPlace(t *testing.T, root, cache string) (*Index, Stats) {
	t.Helper()
	ix, st, err := Open(context.Background(), root, Options{CacheDir: cache, InPlace: true})
	if err != nil {
		t.Fatalf("Open(%s) in place = %v", root, err)
	}
	return ix, st
}

// TestInPlaceChunkedBuild builds a tree in chunks searched in place (each
// spilled chunk read back with its tail left on disk), reloads it in place,
// edits it, and checks each index against one built at once; then it
// removes the spilled files as a concurrent save may: save must write them
// again from the files it still holds open.
func TestInPlaceChunkedBuild(t *testing.T) {
	smallChunks(t, 2<<10)
	root, cache := heavyRepo(t), t.TempDir()
	ix, st := openInPlace(t, root, cache)
	if ix.Segments() < 2 || st.Parsed != ix.Len() {
		t.Fatalf("segments = %d, %+v; want chunks, every file parsed", ix.Segments(), st)
	}
	want := fresh(t, root)
	sameIndex(t, want, ix)
	loaded, st := openInPlace(t, root, cache)
	if st.Parsed != 0 || len(st.Warnings) > 0 {
		t.Fatalf("reopen: %+v", st)
	}
	inPlaceT(t, loaded)
	sameIndex(t, want, loaded)

	// The files gone, an edit: the Open that merges the segments reads their
	// tails from the files it holds, and save writes what it keeps again.
	for _, p := range segFiles(t, st.CachePath) {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	edit(t, root, "app/burst.py", "class Burst:\n    def quota(self): return 1\n")
	edited, _, err := Open(context.Background(), root, Options{CacheDir: cache, Prev: loaded, InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(edited.Err(), loaded.Err()); err != nil {
		t.Fatalf("reading the tails of removed files: %v", err)
	}
	want = fresh(t, root)
	sameIndex(t, want, edited)
	again, st := openT(t, root, cache)
	if st.Parsed != 0 || len(st.Warnings) > 0 {
		t.Errorf("Open after the files were written again: %+v", st)
	}
	sameIndex(t, want, again)
}

// TestInPlaceCut cuts the segment files an index searched in place reads
// (as a cache cleaner or another hone version may) and then asks it
// everything: no read may crash the process, Err must report the damage,
// and the next Open parses the cut segment's files again with one warning.
func TestInPlaceCut(t *testing.T) {
	root := heavyRepo(t)
	for _, tc := range []struct {
		name string
		size func(n int64) int64
	}{
		{"emptied", func(int64) int64 { return 0 }},
		{"tail cut", func(n int64) int64 { return n - 16 }},
		{"header left", func(int64) int64 { return headerSize }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			cold, _ := openT(t, root, cache)
			warm, st := openInPlace(t, root, cache)
			if st.Parsed != 0 {
				t.Fatalf("second Open did not load the cache: %+v", st)
			}
			inPlaceT(t, warm)
			for _, p := range segFiles(t, st.CachePath) {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(p, tc.size(fi.Size())); err != nil {
					t.Fatal(err)
				}
			}
			// Everything a caller may ask, as sameIndex asks it: the answers
			// may lack the cut entries (a test of Err, not of them), but no
			// read may panic.
			differ := 0
			compareIndex(cold, warm, func(string, ...any) { differ++ })
			t.Logf("%d answers differ", differ)
			if warm.Err() == nil {
				t.Fatal("Err = nil after reading a cut segment")
			}
			again, st := openT(t, root, cache)
			if len(st.Warnings) != 1 || st.Parsed+st.Recalled != cold.Len() {
				t.Errorf("Open of the cut cache: %d parsed, %d recalled, warnings %q; want all read again and one warning", st.Parsed, st.Recalled, st.Warnings)
			}
			sameIndex(t, cold, again)
		})
	}
}

// TestInPlaceEncode checks that a segment searched in place is written
// again byte for byte from its file (save does when the file went away),
// and that a tail changed under it is refused by its checksum.
func TestInPlaceEncode(t *testing.T) {
	root, cache := heavyRepo(t), t.TempDir()
	ix, st := openT(t, root, cache)
	p := segFiles(t, st.CachePath)[0]
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sg, err := loadSegment(p, len(ix.segs[0].files), ix.printOf(), true)
	if err != nil {
		t.Fatal(err)
	}
	if sg.disk == nil || sg.disk.f == nil {
		t.Fatal("loadSegment in place read the tail")
	}
	b, err := sg.encode(ix.printOf())
	if err != nil || !bytes.Equal(b, orig) {
		t.Fatalf("encode in place = %d bytes, %v; want the file's %d bytes", len(b), err, len(orig))
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{orig[len(orig)-1] ^ 0x55}, int64(len(orig)-1)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := sg.encode(ix.printOf()); !errors.Is(err, errCorrupt) {
		t.Errorf("encode of a changed tail = %v, want %v", err, errCorrupt)
	}
	if sg.diskErr() == nil {
		t.Error("diskErr = nil after a changed tail")
	}
}

// TestQuietDirectoriesAcrossOpens checks the walk's record of quiet
// directories through Open: the manifest keeps what a walk found, the next
// Open's walk starts from it and reports the same skips and files, and a
// file added to a directory recorded quiet is indexed.
func TestQuietDirectoriesAcrossOpens(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the tree's times to settle")
	}
	root, cache := heavyRepo(t), t.TempDir()
	for _, lang := range []string{"fr", "de", "it"} {
		dir := filepath.Join(root, "locale", lang, "LC_MESSAGES")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "app.po"), []byte("msgid \"a\"\nmsgstr \"b\"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "app.mo"), []byte("\x00\x01"), 0o644)
	}
	time.Sleep(2100 * time.Millisecond) // a directory changed within 2 s of a walk is not recorded
	openT(t, root, cache)
	ix, st := openT(t, root, cache)
	if len(ix.quiet) == 0 {
		t.Fatal("no quiet directory recorded")
	}
	plain, pst, err := Open(context.Background(), root, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(pst.Skipped, st.Skipped); diff != "" {
		t.Errorf("skips of the Open from the record (-plain +record):\n%s", diff)
	}
	sameIndex(t, plain, ix)
	edit := filepath.Join(root, "locale", "fr", "LC_MESSAGES", "strings.py")
	if err := os.WriteFile(edit, []byte("GREETING = 'bonjour'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, ast := openT(t, root, cache)
	if _, ok := again.Lookup("locale/fr/LC_MESSAGES/strings.py"); !ok {
		t.Error("a file added to a quiet directory was not indexed")
	}
	sameIndex(t, fresh(t, root), again)

	// A manifest another build of hone wrote: a walk does not start from
	// its record (that build's rules may have left other names out), and
	// the next Open records the tree anew.
	abs, _ := filepath.Abs(root)
	if q := readManifest(ast.CachePath, abs).quiet(); len(q) == 0 {
		t.Fatal("no record in the manifest")
	}
	buf, err := os.ReadFile(ast.CachePath)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint64(buf[24:], exeStamp()+1)
	if err := os.WriteFile(ast.CachePath, buf, 0o600); err != nil {
		t.Fatal(err)
	}
	if q := readManifest(ast.CachePath, abs).quiet(); q != nil {
		t.Errorf("the record of another executable's manifest is walked from (%d directories)", len(q))
	}
	other, _ := openT(t, root, cache)
	sameIndex(t, fresh(t, root), other)
	if q := readManifest(ast.CachePath, abs).quiet(); len(q) == 0 {
		t.Error("the tree was not recorded anew")
	}
}
