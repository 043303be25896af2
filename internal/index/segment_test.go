package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sameIndex reports the first differences between what two indexes answer:
// every file, its links and distinctive terms, every term's statistics and
// variants, searches, associations and name lookups. An index of several
// segments with tombstones must answer as one built from scratch.
func sameIndex(t *testing.T, want, got *Index) {
	t.Helper()
	if want.Len() != got.Len() {
		t.Fatalf("Len = %d, want %d", got.Len(), want.Len())
	}
	checkTerms(t, got)
	errs := 0
	compareIndex(want, got, func(format string, args ...any) {
		t.Helper()
		if errs++; errs <= 10 {
			t.Errorf(format, args...)
		}
	})
}

// compareIndex asks want and got every question sameIndex checks and calls
// fail for each different answer.
func compareIndex(want, got *Index, fail func(format string, args ...any)) {
	if want.Len() != got.Len() {
		fail("Len = %d, want %d", got.Len(), want.Len())
		return
	}
	if a, b := want.NumTerms(), got.NumTerms(); a != b {
		fail("NumTerms = %d, want %d", b, a)
	}
	var names []string
	for i := range want.Len() {
		id := ID(i)
		wf, gf := want.File(id), got.File(id)
		if diff := cmp.Diff(wf, gf); diff != "" {
			fail("File(%d) (-want +got):\n%s", id, diff)
		}
		if a, b := want.Imports(id), got.Imports(id); !slices.Equal(a, b) {
			fail("Imports(%s) = %v, want %v", wf.Path, b, a)
		}
		if a, b := want.ImportedBy(id), got.ImportedBy(id); !slices.Equal(a, b) {
			fail("ImportedBy(%s) = %v, want %v", wf.Path, b, a)
		}
		if a, b := want.Distinctive(id, 12), got.Distinctive(id, 12); !slices.Equal(a, b) {
			fail("Distinctive(%s) = %v, want %v", wf.Path, b, a)
		}
		for _, d := range wf.Defs {
			names = append(names, d.Name, d.Parent+"."+d.Name)
		}
		for _, r := range wf.Refs {
			names = append(names, r.Name)
		}
		names = append(names, strings.ReplaceAll(stripExt(wf.Path), "/", "."), filepath.Dir(wf.Path))
	}
	var terms []string
	for _, sg := range want.segs {
		terms = append(terms, sg.terms.strings()...)
	}
	for _, sg := range got.segs {
		terms = append(terms, sg.terms.strings()...)
	}
	slices.Sort(terms)
	terms = slices.Compact(terms)
	for _, term := range terms {
		if a, b := want.DocFreq(term), got.DocFreq(term); a != b {
			fail("DocFreq(%q) = %d, want %d", term, b, a)
		}
		if a, b := want.IDF(term), got.IDF(term); a != b {
			fail("IDF(%q) = %v, want %v", term, b, a)
		}
		if a, b := want.Variants(term), got.Variants(term); !slices.Equal(a, b) {
			fail("Variants(%q) = %v, want %v", term, b, a)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for q := range 200 {
		var query []Term
		for range 1 + q%12 {
			query = append(query, Term{Text: terms[r.IntN(len(terms))], Weight: 0.5 + r.Float64()})
		}
		if a, b := want.Search(query, nil, 1+q%40), got.Search(query, nil, 1+q%40); !cmp.Equal(a, b) {
			fail("Search(%v) = %v, want %v", query, b, a)
		}
		term := terms[r.IntN(len(terms))]
		if a, b := want.Associations(term, 8), got.Associations(term, 8); !cmp.Equal(a, b) {
			fail("Associations(%q) = %v, want %v", term, b, a)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, name := range names {
		if a, b := want.Defining(name), got.Defining(name); !slices.Equal(a, b) {
			fail("Defining(%q) = %v, want %v", name, b, a)
		}
		if a, b := want.Referencing(name), got.Referencing(name); !slices.Equal(a, b) {
			fail("Referencing(%q) = %v, want %v", name, b, a)
		}
		if a, b := want.ResolveModule(name), got.ResolveModule(name); !slices.Equal(a, b) {
			fail("ResolveModule(%q) = %v, want %v", name, b, a)
		}
	}
}

// inPlaceT fails t unless every segment of ix is searched in place.
func inPlaceT(t *testing.T, ix *Index) {
	t.Helper()
	for i, sg := range ix.segs {
		if sg.disk == nil || sg.disk.f == nil || sg.fwdTerm != nil || sg.postDoc != nil {
			t.Fatalf("segment %d of %d is not searched in place", i, len(ix.segs))
		}
	}
}

// checkTerms checks ix's unified term space: each segment's every term
// maps to an id of the same text, no two ids have one text, and each id's
// document frequency is the term's over the live files.
func checkTerms(t *testing.T, ix *Index) {
	t.Helper()
	if len(ix.segs) == 0 {
		return
	}
	u := ix.terms()
	seen := map[string]int32{}
	for s, sg := range ix.segs {
		for lt := range sg.terms.len() {
			text := sg.terms.at(lt)
			id := u.uid(s, int32(lt))
			if got := ix.termAt(u, id); got != text {
				t.Fatalf("segment %d term %q: unified id %d is %q", s, text, id, got)
			}
			if other, ok := seen[text]; ok && other != id {
				t.Fatalf("term %q has ids %d and %d", text, other, id)
			}
			seen[text] = id
			if df := ix.DocFreq(text); int(u.df[id]) != df {
				t.Fatalf("term %q: unified df %d, DocFreq %d", text, u.df[id], df)
			}
		}
	}
}

// TestSegmentsAnswerAsOne edits, adds and removes files over many Opens, so
// that the index grows segments, tombstones and merges, and checks after
// each that it answers exactly as an index built from scratch, and that a
// fresh process (reading the manifest and segments) does too.
func TestSegmentsAnswerAsOne(t *testing.T) {
	root, cache := heavyRepo(t), t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	openT(t, root, cache)
	var live []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			live = append(live, filepath.ToSlash(rel))
		}
		return nil
	})
	words := []string{"token", "expiry", "rate", "throttle", "session", "refresh", "burst", "quota", "limit", "cache"}
	var prev *Index
	maxSegs := 0
	for step := range 24 {
		for range 1 + r.IntN(3) {
			switch k := r.IntN(4); {
			case k == 0 && len(live) > 8: // remove
				i := r.IntN(len(live))
				os.Remove(filepath.Join(root, live[i]))
				live = slices.Delete(live, i, i+1)
			case k == 1: // add
				p := fmt.Sprintf("app/gen/m%d_%d.py", step, r.IntN(100))
				os.MkdirAll(filepath.Join(root, "app/gen"), 0o755)
				live = append(live, p)
				fallthrough
			default: // edit
				p := live[r.IntN(len(live))]
				var b strings.Builder
				fmt.Fprintf(&b, "from app.auth import tokens\n\nclass %sKeeper%d:\n", strings.ToUpper(words[r.IntN(len(words))][:1]), step)
				for range 1 + r.IntN(6) {
					fmt.Fprintf(&b, "    def %s_%s(self): return %s_v%d\n", words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(5))
				}
				if err := os.WriteFile(filepath.Join(root, p), []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Every other step refreshes an index searched in place: its
		// segments are merged and written again from their files.
		ix, st, err := Open(context.Background(), root, Options{CacheDir: cache, Prev: prev, InPlace: step%2 == 1})
		if err != nil || len(st.Warnings) > 0 {
			t.Fatalf("step %d: Open = %v, %q", step, err, st.Warnings)
		}
		maxSegs = max(maxSegs, ix.Segments())
		cold, _, err := Open(context.Background(), root, Options{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		sameIndex(t, cold, ix)
		loaded, st, err := Open(context.Background(), root, Options{CacheDir: cache})
		if err != nil || st.Parsed != 0 || len(st.Warnings) > 0 {
			t.Fatalf("step %d: reopen = %v, %+v", step, err, st)
		}
		sameIndex(t, cold, loaded)
		inPlace, st, err := Open(context.Background(), root, Options{CacheDir: cache, InPlace: true})
		if err != nil || st.Parsed != 0 || len(st.Warnings) > 0 {
			t.Fatalf("step %d: reopen in place = %v, %+v", step, err, st)
		}
		inPlaceT(t, inPlace)
		sameIndex(t, cold, inPlace)
		if err := inPlace.Err(); err != nil {
			t.Errorf("step %d: in place: %v", step, err)
		}
		if t.Failed() {
			t.Fatalf("step %d: segments %d", step, ix.Segments())
		}
		prev = ix
	}
	if maxSegs < 2 {
		t.Errorf("the index never had more than %d segment", maxSegs)
	}
}

func TestFoldPlan(t *testing.T) {
	const M = 1 << 20
	tests := []struct {
		live, dead []int64
		fresh      int64
		others     int
		want       []bool
	}{
		{[]int64{1000}, []int64{0}, 1, 0, []bool{false}},
		{[]int64{1000, 3}, []int64{0, 0}, 1, 0, []bool{false, true}},
		{[]int64{1000, 3, 40}, []int64{1, 0, 0}, 2, 0, []bool{false, true, false}},
		{[]int64{1000, 3, 10}, []int64{1, 0, 0}, 2, 0, []bool{false, true, true}},
		{[]int64{1000, 250}, []int64{0, 0}, 1, 0, []bool{false, false}},
		{[]int64{100, 900}, []int64{200, 0}, 1, 0, []bool{true, false}},
		{[]int64{1000}, []int64{0}, 300, 0, []bool{true}},
		{[]int64{0}, []int64{5}, 0, 0, []bool{true}},
		{[]int64{9e6, 8e5, 7e4, 6e3, 500, 40, 3000, 20000, 300000}, make([]int64, 9), 1, 0, []bool{false, false, false, false, true, true, false, false, false}},
		// A step after a first contact of four chunks: the chunk the step
		// read from fits the cap (a chunk, 85 MB) with the step; the others
		// are not gathered, though within mergeFactor.
		{[]int64{53 * M, 85 * M, 85 * M, 85 * M}, []int64{32 * M, 0, 0, 0}, 32 * M, 0, []bool{true, false, false, false}},
		{[]int64{70 * M, 300 * M}, []int64{0, 0}, 40 * M, 0, []bool{false, false}},
		// More dead than live, but too large to gather with this read; a
		// smaller read takes it.
		{[]int64{60 * M, 300 * M}, []int64{70 * M, 0}, 50 * M, 0, []bool{false, false}},
		{[]int64{60 * M, 300 * M}, []int64{70 * M, 0}, 1000, 0, []bool{true, false}},
		// Several more dead than live: the smallest first, while they fit.
		{[]int64{40 * M, 30 * M, 20 * M, 100 * M}, []int64{50 * M, 40 * M, 30 * M, 0}, 10 * M, 0, []bool{false, true, true, false}},
		// Under the cap, an edit still gathers the small segments.
		{[]int64{300 * M, 8000, 900}, []int64{0, 0, 0}, 2000, 0, []bool{false, true, true}},
		// maxSegments folds the smallest, whatever the cap.
		{[]int64{100 * M, 100 * M, 100 * M, 100 * M, 100 * M, 100 * M, 100 * M, 90 * M, 95 * M}, make([]int64, 9), 10 * M, 0, []bool{false, false, false, false, false, false, false, true, true}},
		{[]int64{100 * M, 101 * M, 102 * M, 103 * M, 95 * M, 90 * M}, make([]int64, 6), 10 * M, 3, []bool{false, false, false, false, true, true}},
	}
	for _, tt := range tests {
		if got := foldPlan(tt.live, tt.dead, tt.fresh, tt.others); !slices.Equal(got, tt.want) {
			t.Errorf("foldPlan(%v, %v, %d, %d) = %v, want %v", tt.live, tt.dead, tt.fresh, tt.others, got, tt.want)
		}
	}
}

// TestTouched checks that an Open told which paths changed stats only those
// and answers as a walk would, and that it walks when a touched path is new
// to the index or an ignore file.
func TestTouched(t *testing.T) {
	root, cache := copyRepo(t), t.TempDir()
	ctx := context.Background()
	prev, _ := openT(t, root, cache)
	open := func(touched ...string) (*Index, Stats) {
		t.Helper()
		ix, st, err := Open(ctx, root, Options{CacheDir: cache, Prev: prev, Touched: append([]string{}, touched...)})
		if err != nil {
			t.Fatal(err)
		}
		cold, _, err := Open(ctx, root, Options{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		sameIndex(t, cold, ix)
		prev = ix
		return ix, st
	}
	if ix, st := open(); st.Walked || st.Parsed != 0 || ix != prev {
		t.Errorf("nothing touched: %+v", st)
	}
	os.WriteFile(filepath.Join(root, "app/settings.py"), []byte("BURST_QUOTA = 7\n"), 0o644)
	if _, st := open("app/settings.py", "app/settings.py"); st.Walked || st.Parsed != 1 || st.Reused != prev.Len()-1 {
		t.Errorf("one file edited: %+v", st)
	}
	os.Remove(filepath.Join(root, "docs/guide.md"))
	if _, st := open("docs/guide.md"); st.Walked || st.Removed != 1 {
		t.Errorf("one file removed: %+v", st)
	}
	os.WriteFile(filepath.Join(root, "app/new.py"), []byte("def fresh(): pass\n"), 0o644)
	if _, st := open("app/new.py"); !st.Walked || st.Parsed != 1 {
		t.Errorf("one file added: %+v", st)
	}
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("app/new.py\n"), 0o644)
	if ix, st := open(".gitignore"); !st.Walked {
		t.Errorf("an ignore file touched: %+v", st)
	} else if _, ok := ix.Lookup("app/new.py"); ok {
		t.Error("the file the new ignore file names is still indexed")
	}
}

// TestGallop checks gallop against a plain binary search from every start
// and for every probe, present or not.
func TestGallop(t *testing.T) {
	words := []string{"a", "ab", "b", "ba", "c", "d", "da", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"}
	tab := newStrTable(words)
	probes := append([]string{"", "0", "aa", "bz", "z"}, words...)
	for from := 0; from <= len(words); from++ {
		for _, s := range probes {
			want := from
			for want < len(words) && words[want] < s {
				want++
			}
			if got := gallop(tab, from, s); got != want {
				t.Errorf("gallop(from %d, %q) = %d, want %d", from, s, got, want)
			}
		}
	}
}

// TestTermsCarriedOver follows the unified term space through edits that
// each add a file: a term the first segment holds, a term an earlier merge
// placed, and a term an earlier edit brought in must each keep one id, and
// the space must be carried over (not merged again) where it can be.
func TestTermsCarriedOver(t *testing.T) {
	root, cache := copyRepo(t), t.TempDir()
	// Enough files that the first segment is never folded into an edit's.
	os.MkdirAll(filepath.Join(root, "app/gen"), 0o755)
	for i := range 200 {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("app/gen/m%d.py", i)), []byte(fmt.Sprintf("def handler_%d(session): return session.refresh()\n", i)), 0o644)
	}
	ctx := context.Background()
	open := func(prev *Index) *Index {
		t.Helper()
		ix, _, err := Open(ctx, root, Options{CacheDir: cache, Prev: prev})
		if err != nil {
			t.Fatal(err)
		}
		checkTerms(t, ix)
		sameIndex(t, fresh(t, root), ix)
		return ix
	}
	open(nil)
	// Each step adds more than four times the bytes of the next, so that
	// its segment is not folded into the next one's (see foldPlan).
	add := func(name, text string, n int) {
		t.Helper()
		for i := range n {
			if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("app/%s%d.py", name, i)), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	add("b", "def zebraword(): return tokens\n", 25)
	ix := open(nil) // merged: zebraword is a sorted extra
	if u := ix.terms(); u.sorted == 0 {
		t.Fatalf("no sorted extra after a merge of %d segments", ix.Segments())
	}
	add("c", "def zebraword(): return yakword\n", 5)
	ix = open(ix) // zebraword found among the sorted extras, yakword new
	if u := ix.terms(); len(u.tail) == 0 || ix.Segments() != 3 {
		t.Errorf("the space was merged again, not carried over (%d segments)", ix.Segments())
	}
	add("d", "yakword = zebraword\n", 1)
	ix = open(ix) // yakword found in the tail
	if u := ix.terms(); len(u.tail) == 0 || ix.Segments() != 4 {
		t.Errorf("the space was merged again, not carried over (%d segments)", ix.Segments())
	}
}
