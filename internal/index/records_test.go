package index

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/hone-dev/hone/internal/walk"
)

// fresh builds root's index in memory only: what every Open must equal.
func fresh(t *testing.T, root string) *Index {
	t.Helper()
	ix, _, err := Open(context.Background(), root, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// edit writes text to root's file p and moves its modification time on, so
// that a stat sees the change however fast the test runs.
func edit(t *testing.T, root, p, text string) {
	t.Helper()
	abs := filepath.Join(root, p)
	fi, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	next := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(abs, next, next); err != nil {
		t.Fatal(err)
	}
}

func TestRecordsAcrossRoots(t *testing.T) {
	storeEveryOpen(t)
	cache := t.TempDir()
	a := copyRepo(t)
	ixA, st := openT(t, a, cache)
	if st.Parsed != ixA.Len() || st.Recalled != 0 {
		t.Fatalf("first root: %+v; want every file parsed", st)
	}
	// A second checkout of the same tree (a worktree, a clone) under
	// another root: its index is built from the records, not parsed.
	recalledAll(t, copyRepo(t), cache, "second root")
}

// recalledAll opens root with cache and checks that every file came from
// the records store, as a fresh parse would give it.
func recalledAll(t *testing.T, root, cache, what string) {
	t.Helper()
	ix, st := openT(t, root, cache)
	if st.Parsed != 0 || st.Recalled != ix.Len() {
		t.Fatalf("%s: %+v; want every file recalled", what, st)
	}
	sameIndex(t, fresh(t, root), ix)
}

// TestRecordsPointerToAGoneSegment: a parse leaves in the store a pointer
// into the segment its file goes into, which a second root reads; when that
// segment is gone (folded, swept, pruned, its root's cache removed), the
// second root parses, and its own pointers replace the stale ones, so that
// a third root recalls every file again.
func TestRecordsPointerToAGoneSegment(t *testing.T) {
	storeEveryOpen(t)
	cache := t.TempDir()
	openT(t, copyRepo(t), cache)
	segs, _ := filepath.Glob(filepath.Join(cache, "*.seg"))
	if len(segs) == 0 {
		t.Fatal("no segment written")
	}
	for _, p := range segs {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	b := copyRepo(t)
	ixB, st := openT(t, b, cache)
	if st.Recalled != 0 || st.Parsed != ixB.Len() || len(st.Warnings) != 0 {
		t.Fatalf("second root, the first root's segments gone: %+v; want every file parsed, no warning", st)
	}
	sameIndex(t, fresh(t, b), ixB)
	recalledAll(t, copyRepo(t), cache, "third root")
}

// TestRecordsPointersFollowFolds: when an Open folds old segments into its
// new one (the edited files made them more dead than live), the store's
// pointers for the files they still held move with them, so that a second
// root of the edited tree recalls every file after the old segments are
// gone.
func TestRecordsPointersFollowFolds(t *testing.T) {
	storeEveryOpen(t)
	cache := t.TempDir()
	a := copyRepo(t)
	ix, _ := openT(t, a, cache)
	before, _ := filepath.Glob(filepath.Join(cache, "*.seg"))
	var n int
	for id := range ix.Len() {
		if p := ix.File(ID(id)).Path; strings.HasSuffix(p, ".py") {
			edit(t, a, p, fmt.Sprintf("def edited_%d():\n    return %d\n", n, n))
			n++
		}
	}
	ix2, _ := openT(t, a, cache)
	named := map[string]bool{}
	for _, sg := range ix2.segs {
		named[sg.name] = true
	}
	for _, p := range before {
		if named[filepath.Base(p)] {
			t.Fatalf("the first segment %s was not folded: the fixture no longer tests the fold", filepath.Base(p))
		}
		// As the sweep removes it once no process can be reading it.
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	b := t.TempDir()
	if err := os.CopyFS(b, os.DirFS(a)); err != nil {
		t.Fatal(err)
	}
	recalledAll(t, b, cache, "a second root of the edited tree")
}

// storeEveryOpen makes every Open use the store, however few files it
// reads.
func storeEveryOpen(t *testing.T) {
	old := recordsMinFiles
	recordsMinFiles = 1
	t.Cleanup(func() { recordsMinFiles = old })
}

func TestRecordsBringBackARetiredVersion(t *testing.T) {
	storeEveryOpen(t)
	cache := t.TempDir()
	root := copyRepo(t)
	const p = "app/auth/tokens.py"
	orig, err := os.ReadFile(filepath.Join(root, p))
	if err != nil {
		t.Fatal(err)
	}
	// A budget so small that every write starts a generation: the first
	// build's records are dropped two writes later, so that only the
	// retired record can bring p's first version back.
	open := func() Stats {
		t.Helper()
		_, st, err := Open(context.Background(), root, Options{CacheDir: cache, RecordsMax: 1})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	open()
	edit(t, root, p, "def changed():\n    return 1\n")
	if st := open(); st.Parsed != 1 {
		t.Fatalf("after an edit: %+v; want 1 parsed", st)
	}
	edit(t, root, "app/settings.py", "class Other:\n    pass\n")
	if st := open(); st.Parsed != 1 {
		t.Fatalf("after a second edit: %+v; want 1 parsed", st)
	}
	edit(t, root, p, string(orig))
	st := open()
	if st.Parsed != 0 || st.Recalled != 1 {
		t.Fatalf("back to the first version: %+v; want it recalled", st)
	}
	ix, _ := openT(t, root, cache)
	sameIndex(t, fresh(t, root), ix)
}

// TestRecordsRetiredOnce checks that the versions an Open replaces are put
// in the store in full, and only when its newest generation lacks them:
// a parse leaves a pointer into its segment, which does not keep a version
// once its segment goes, so the first retirement of a version encodes it,
// and a second retirement of the same version (the tree went back to it,
// then left it again) encodes nothing; with a budget so small that every
// write starts a generation, each retirement encodes. Every going back
// recalls every file.
func TestRecordsRetiredOnce(t *testing.T) {
	storeEveryOpen(t)
	for _, tc := range []struct {
		name   string
		budget int64
		every  bool
	}{{"room", 0, false}, {"every write a generation", 1, true}} {
		t.Run(tc.name, func(t *testing.T) {
			cache, root := t.TempDir(), copyRepo(t)
			encoded := 0
			retiredHook = func(recordKey) { encoded++ }
			t.Cleanup(func() { retiredHook = nil })
			open := func() Stats {
				t.Helper()
				_, st, err := Open(context.Background(), root, Options{CacheDir: cache, RecordsMax: tc.budget})
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
			open()
			var paths []string
			orig := map[string]string{}
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".py") {
					rel, _ := filepath.Rel(root, p)
					b, _ := os.ReadFile(p)
					paths, orig[rel] = append(paths, rel), string(b)
				}
				return nil
			})
			editAll := func() {
				for i, p := range paths {
					edit(t, root, p, fmt.Sprintf("def edited_%d():\n    return %d\n", i, i))
				}
			}
			editAll()
			if st := open(); st.Parsed != len(paths) || encoded != len(paths) {
				t.Fatalf("after editing %d files: %+v, %d retired versions encoded; want every file parsed, every old version encoded", len(paths), st, encoded)
			}
			encoded = 0
			for _, p := range paths {
				edit(t, root, p, orig[p])
			}
			if st := open(); st.Parsed != 0 || st.Recalled != len(paths) || encoded != len(paths) {
				t.Errorf("back to the first versions: %+v, %d encoded; want all %d recalled, the edited versions encoded", st, encoded, len(paths))
			}
			encoded = 0
			editAll()
			st := open()
			if st.Parsed != 0 || st.Recalled != len(paths) {
				t.Errorf("the edits again: %+v; want all %d recalled", st, len(paths))
			}
			if want := map[bool]int{true: len(paths), false: 0}[tc.every]; encoded != want {
				t.Errorf("the first versions retired again: %d encoded, want %d", encoded, want)
			}
		})
	}
}

// damageValues rewrites every record in the store at dir with fn.
func damageValues(t *testing.T, dir string, fn func([]byte) []byte) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, recordsFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if name[0] != 'g' {
				return nil
			}
			var keys, vals [][]byte
			b.ForEach(func(k, v []byte) error {
				keys, vals = append(keys, append([]byte(nil), k...)), append(vals, fn(append([]byte(nil), v...)))
				return nil
			})
			for i := range keys {
				if err := b.Put(keys[i], vals[i]); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRecordsDamaged(t *testing.T) {
	cases := []struct {
		name string
		// damage spoils the store at dir; warn: Open says so.
		damage func(t *testing.T, dir string)
		warn   bool
	}{
		{"flipped byte in every record", func(t *testing.T, dir string) {
			damageValues(t, dir, func(v []byte) []byte { v[len(v)/2] ^= 0x20; return v })
		}, false},
		{"every record cut short", func(t *testing.T, dir string) {
			damageValues(t, dir, func(v []byte) []byte { return v[:len(v)/2] })
		}, false},
		{"not a store", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, recordsFile), make([]byte, 64<<10), 0o600); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"store cut after its meta pages", func(t *testing.T, dir string) {
			// (Cut in half, a store of ten pointers keeps every page it
			// uses: bbolt grows the file in steps of recordsAlloc.)
			if err := os.Truncate(filepath.Join(dir, recordsFile), 2*4096); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"store cut to its first page", func(t *testing.T, dir string) {
			if err := os.Truncate(filepath.Join(dir, recordsFile), 4096); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"store of another extractor", func(t *testing.T, dir string) {
			db, err := bolt.Open(filepath.Join(dir, recordsFile), 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = db.Update(func(tx *bolt.Tx) error {
				b := tx.Bucket(metaBucket)
				st, _ := decodeState(b.Get(metaKey))
				st.print, st.stamp = st.print+1, 0
				return b.Put(metaKey, st.encode())
			})
			db.Close()
			if err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	cases = append(cases, struct {
		name   string
		damage func(t *testing.T, dir string)
		warn   bool
	}{"store of another version", func(t *testing.T, dir string) { staleStore(t, dir, 0) }, false})
	storeEveryOpen(t) // the fixture has 10 files
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			openT(t, copyRepo(t), cache)
			tc.damage(t, cache)
			root := copyRepo(t)
			ix, st := openT(t, root, cache)
			if st.Recalled != 0 || st.Parsed != ix.Len() {
				t.Errorf("Open on a damaged store: %+v; want every file parsed", st)
			}
			if got := len(st.Warnings); got != map[bool]int{false: 0, true: 1}[tc.warn] {
				t.Errorf("warnings %q", st.Warnings)
			}
			sameIndex(t, fresh(t, root), ix)
			// The store is whole again: a third root recalls every file.
			if _, st := openT(t, copyRepo(t), cache); st.Recalled != ix.Len() || len(st.Warnings) != 0 {
				t.Errorf("Open after the damaged one: %+v; want every file recalled", st)
			}
		})
	}
}

// staleStore marks the store at dir as one of the records version before
// this one, after writing pad bytes of other data into it.
func staleStore(t *testing.T, dir string, pad int) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, recordsFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if pad > 0 {
			junk, err := tx.CreateBucketIfNotExists([]byte("junk"))
			if err != nil {
				return err
			}
			for i := 0; i < pad; i += 64 << 10 {
				if err := junk.Put([]byte(fmt.Sprint(i)), make([]byte, 64<<10)); err != nil {
					return err
				}
			}
		}
		b := tx.Bucket(metaBucket)
		st, _ := decodeState(b.Get(metaKey))
		st.version, st.stamp = recordsVersion-1, 0
		return b.Put(metaKey, st.encode())
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRecordsStaleReplaced checks that a store of another records version
// is replaced by a new file, not emptied in place: bbolt never gives back
// the pages of an emptied file, so an upgrade would keep the old store's
// size for good.
func TestRecordsStaleReplaced(t *testing.T) {
	storeEveryOpen(t)
	cache := t.TempDir()
	openT(t, copyRepo(t), cache)
	staleStore(t, cache, 8<<20)
	p := filepath.Join(cache, recordsFile)
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	root := copyRepo(t)
	ix, st := openT(t, root, cache)
	if st.Recalled != 0 || st.Parsed != ix.Len() || len(st.Warnings) != 0 {
		t.Errorf("Open on a store of another version: %+v; want every file parsed, no warning", st)
	}
	after, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if after.Size() >= before.Size()/4 {
		t.Errorf("store of %d bytes kept in place (now %d bytes); want a new, small file", before.Size(), after.Size())
	}
	if _, st := openT(t, copyRepo(t), cache); st.Recalled != ix.Len() {
		t.Errorf("Open after: %+v; want every file recalled", st)
	}
}

func TestRecordsOff(t *testing.T) {
	storeEveryOpen(t)
	cache := t.TempDir()
	openT(t, copyRepo(t), cache)
	_, st, err := Open(context.Background(), copyRepo(t), Options{CacheDir: cache, RecordsMax: -1})
	if err != nil || st.Recalled != 0 || st.Parsed == 0 {
		t.Fatalf("RecordsMax -1: %+v, %v; want every file parsed", st, err)
	}
}

// TestDecodeRecordRefusesDamage: every cut and every flipped byte of a
// record is refused (the checksum or the bounds), never a panic or a
// wrong parse.
func TestDecodeRecordRefusesDamage(t *testing.T) {
	root := copyRepo(t)
	d := &dict{ids: map[string]int32{}}
	var v []byte
	for _, p := range []string{"app/auth/tokens.py", "app/api/views.py"} {
		abs := filepath.Join(root, p)
		fi, _ := os.Stat(abs)
		got := parseFile(walk.File{Path: p, Abs: abs, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}, d, nil, false)
		if got.skip != nil {
			t.Fatalf("%s skipped: %v", p, got.skip)
		}
		v = encodeParsed(&got)
		back := parsed{file: File{Path: p}, dict: &dict{ids: map[string]int32{}}}
		if !decodeRecord(v, &back) || back.file.Lang != got.file.Lang || len(back.terms) != len(got.terms) ||
			len(back.file.Defs) != len(got.file.Defs) || len(back.file.Refs) != len(got.file.Refs) {
			t.Fatalf("%s: a whole record does not decode to its parse", p)
		}
	}
	for n := range len(v) {
		if decodeRecord(v[:n], &parsed{dict: &dict{ids: map[string]int32{}}}) {
			t.Fatalf("a record cut to %d of %d bytes was accepted", n, len(v))
		}
	}
	for i := range v {
		w := append([]byte(nil), v...)
		w[i] ^= 1
		if decodeRecord(w, &parsed{dict: &dict{ids: map[string]int32{}}}) {
			t.Fatalf("a record with byte %d flipped was accepted", i)
		}
	}
}

// TestDecodeRecordRefusesBomb checks that a record value whose checksum is
// right but which inflates past maxRecordBytes is refused, not inflated.
func TestDecodeRecordRefusesBomb(t *testing.T) {
	old := maxRecordBytes
	maxRecordBytes = 1 << 20
	t.Cleanup(func() { maxRecordBytes = old })
	v := compressRecord(make([]byte, maxRecordBytes+1))
	if len(v) > maxRecordBytes/100 {
		t.Fatalf("%d zero bytes compressed to %d", maxRecordBytes+1, len(v))
	}
	if _, ok := inflateRecord(v); ok {
		t.Error("a record inflating past maxRecordBytes was accepted")
	}
	if _, ok := inflateRecord(compressRecord([]byte("a small record"))); !ok {
		t.Error("a small record does not inflate")
	}
}

func TestRecordsNotForAFewFiles(t *testing.T) {
	cache := t.TempDir()
	root := copyRepo(t)
	openT(t, root, cache) // 10 files: fewer than recordsMinFiles
	if _, err := os.Stat(filepath.Join(cache, recordsFile)); !os.IsNotExist(err) {
		t.Fatalf("an Open of %d files made the store (%v)", 10, err)
	}
}

func TestRecordsBudgetFromTheEnvironment(t *testing.T) {
	storeEveryOpen(t)
	for _, tc := range []struct {
		env   string
		store bool // a store is made
		warns int
	}{
		{"0", false, 0},
		{"64", true, 0},
		{"lots", true, 1},
		{"-3", true, 1},
	} {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv("HONE_RECORDS_MB", tc.env)
			cache := t.TempDir()
			_, st := openT(t, copyRepo(t), cache)
			_, err := os.Stat(filepath.Join(cache, recordsFile))
			if made := err == nil; made != tc.store || len(st.Warnings) != tc.warns {
				t.Errorf("store made %v, warnings %q; want %v and %d", made, st.Warnings, tc.store, tc.warns)
			}
		})
	}
}

// TestRecordsCutUnderUse: a store another program cuts while this process
// has it open and mapped (records.db truncated one second into a run) costs
// a warning and parsing, never a hang: a read that faults in bbolt's mapping
// leaves bbolt's locks held, so the handle is abandoned, not closed.
func TestRecordsCutUnderUse(t *testing.T) {
	storeEveryOpen(t)
	for _, size := range []int64{0, 4096} {
		t.Run(fmt.Sprint("cut to ", size), func(t *testing.T) {
			cache := t.TempDir()
			openT(t, copyRepo(t), cache)
			// The handle a run in progress holds: Open below shares it,
			// as an Open of the same process does.
			held, err := openRecords(cache, DefaultRecordsMax)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(cache, recordsFile)
			if err := os.Truncate(p, size); err != nil {
				t.Fatal(err)
			}
			root := copyRepo(t)
			type result struct {
				ix  *Index
				st  Stats
				err error
			}
			done := make(chan result, 1)
			go func() {
				ix, st, err := Open(context.Background(), root, Options{CacheDir: cache, Workers: 4})
				held.close()
				done <- result{ix, st, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Open on a store cut under it did not return in 10 s")
			}
			if r.err != nil {
				t.Fatalf("Open = %v", r.err)
			}
			if r.st.Recalled != 0 || r.st.Parsed != r.ix.Len() {
				t.Errorf("Open on a cut store: %+v; want every file parsed", r.st)
			}
			if len(r.st.Warnings) != 1 {
				t.Errorf("warnings %q; want one", r.st.Warnings)
			}
			sameIndex(t, fresh(t, root), r.ix)
			// The store is made anew: the next Open stores, the one after
			// recalls every file.
			openT(t, copyRepo(t), cache)
			if ix, st := openT(t, copyRepo(t), cache); st.Recalled != ix.Len() || len(st.Warnings) != 0 {
				t.Errorf("Opens after the cut one: %+v; want every file recalled", st)
			}
		})
	}
}

// TestRecordsPagesFilled: the records of one flush (all of a repository up
// to django's size, flushEvery) go in in key order into pages filled to
// recordsFill, not bbolt's half, and the file grows by small steps. (Later
// flushes land all over the key space, keys being hashes, and split pages
// as before: a store written over many flushes stays about 70 % full.)
func TestRecordsPagesFilled(t *testing.T) {
	cache := t.TempDir()
	rs, err := openRecords(cache, DefaultRecordsMax)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var data int
	for batch := 0; batch < 1; batch++ {
		for i := 0; i < 4000; i++ {
			var k recordKey
			for j := range k {
				k[j] = byte(rng.IntN(256))
			}
			v := make([]byte, 40+rng.IntN(400)) // small records: inline in leaf pages
			for j := range v {
				v[j] = byte(rng.IntN(256))
			}
			rs.put(k, v)
			data += len(k) + len(v)
		}
		if err := rs.flush(); err != nil {
			t.Fatal(err)
		}
	}
	var st bolt.BucketStats
	err = rs.sh.call(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
				if bytes.HasPrefix(name, []byte("g")) {
					s := b.Stats()
					st.LeafAlloc += s.LeafAlloc
					st.LeafInuse += s.LeafInuse
				}
				return nil
			})
		})
	})
	rs.close()
	if err != nil {
		t.Fatal(err)
	}
	if st.LeafInuse < data {
		t.Fatalf("leaf bytes in use %d < the %d bytes written: the test counts wrong", st.LeafInuse, data)
	}
	if fill := float64(st.LeafInuse) / float64(st.LeafAlloc); fill < 0.85 {
		t.Errorf("leaf pages %.0f %% full (%d of %d bytes), want at least 85 %%", 100*fill, st.LeafInuse, st.LeafAlloc)
	}
	fi, err := os.Stat(filepath.Join(cache, recordsFile))
	if err != nil {
		t.Fatal(err)
	}
	if max := int64(st.LeafAlloc) + 2*recordsAlloc + 1<<20; fi.Size() > max {
		t.Errorf("records.db is %d bytes for %d of leaf pages, want at most %d", fi.Size(), st.LeafAlloc, max)
	}
}

// encodeParsed writes a parse as a record value (a parse puts a pointer in
// the store; a record in full comes from a segment, encodeRetired).
func encodeParsed(p *parsed) []byte {
	terms := make([]string, len(p.terms))
	for i, t := range p.terms {
		terms[i] = p.dict.terms[t]
	}
	return encodeRecord(&p.file, terms, p.tfs)
}
