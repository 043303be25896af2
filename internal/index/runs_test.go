package index

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"testing"
)

// TestRunRoundTrip encodes runs and decodes them back, and checks the byte
// length of each tf3 form.
func TestRunRoundTrip(t *testing.T) {
	const esc = tfEscape
	cases := []struct {
		name  string
		ids   []int32
		tfs   []tf3
		bytes int // encoded length, 0 to skip
	}{
		{"empty", nil, nil, 0},
		{"one small", []int32{0}, []tf3{{0, 0, 1}}, 2},
		{"packed limits", []int32{0, 1}, []tf3{{3, 3, 7}, {0, 0, 0}}, 4},
		{"two-byte form", []int32{5, 6}, []tf3{{1, 2, 8}, {3, 3, 254}}, 6},
		{"four-byte form", []int32{7}, []tf3{{4, 0, 1}}, 5},
		{"escaped", []int32{3, 1 << 20}, []tf3{{0, 0, esc}, {esc, esc, esc}}, 1 + 2 + 3 + 4},
		{"escaped path", []int32{9}, []tf3{{esc, 0, 0}}, 5},
		{"wide gaps", []int32{0, 127, 128, 1<<31 - 2}, []tf3{{0, 1, 0}, {0, 0, 2}, {1, 0, 0}, {0, 0, 1}}, 0},
	}
	const limit = 1<<31 - 1
	for _, c := range cases {
		b := appendRun(nil, c.ids, c.tfs)
		if c.bytes > 0 && len(b) != c.bytes {
			t.Errorf("%s: encoded in %d bytes, want %d", c.name, len(b), c.bytes)
		}
		ids, tfs, err := decodeRun(b, len(c.ids), limit)
		if err != nil || !slices.Equal(ids, c.ids) || !slices.Equal(tfs, c.tfs) {
			t.Errorf("%s: decoded %v %v, %v; want %v %v", c.name, ids, tfs, err, c.ids, c.tfs)
		}
	}

	// Many runs, through encodeRuns and decodeRuns.
	off := []int32{0}
	var ids []int32
	var tfs []tf3
	for _, c := range cases {
		ids = append(ids, c.ids...)
		tfs = append(tfs, c.tfs...)
		off = append(off, int32(len(ids)))
	}
	at, runs, err := encodeRuns(off, ids, tfs)
	if err != nil || len(at) != len(off) || at[len(at)-1] != uint32(len(runs)) {
		t.Fatalf("encodeRuns = %v, %d bytes, %v", at, len(runs), err)
	}
	gotIDs, gotTFs, err := decodeRuns(off, at, runs, limit)
	if err != nil || !slices.Equal(gotIDs, ids) || !slices.Equal(gotTFs, tfs) {
		t.Fatalf("decodeRuns = %v %v, %v; want %v %v", gotIDs, gotTFs, err, ids, tfs)
	}
}

// TestRunDamage decodes damaged runs: each is refused, and no change of one
// byte of a run makes decodeRun panic or yield an id out of range or out of
// order.
func TestRunDamage(t *testing.T) {
	ids := []int32{2, 3, 40, 200, 201}
	tfs := []tf3{{0, 0, 1}, {1, 2, 9}, {tfEscape, 0, 3}, {0, 0, 0}, {3, 3, 7}}
	b := appendRun(nil, ids, tfs)
	bad := map[string]struct {
		b     []byte
		n     int
		limit int32
	}{
		"id out of range":   {b, len(ids), 201},
		"fewer entries":     {b, len(ids) - 1, 1000},
		"more entries":      {b, len(ids) + 1, 1000},
		"no entries":        {b, 0, 1000},
		"cut":               {b[:len(b)-1], len(ids), 1000},
		"bytes for none":    {[]byte{0, 0}, 0, 1000},
		"bad form":          {[]byte{0, 0x90}, 1, 1000},
		"cut two-byte form": {[]byte{0, tfTwo}, 1, 1000},
		"cut four-byte":     {[]byte{0, tfFour, 1, 1}, 1, 1000},
		"long varint":       {[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0}, 1, 1000},
		"gap past limit":    {[]byte{0, 0, 0xff, 0xff, 0xff, 0xff, 0x07, 0}, 2, 1<<31 - 1},
	}
	for name, c := range bad {
		if _, _, err := decodeRun(c.b, c.n, c.limit); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: err = %v, want errCorrupt", name, err)
		}
	}
	for i := range b {
		for v := range 256 {
			d := bytes.Clone(b)
			d[i] = byte(v)
			got, _, err := decodeRun(d, len(ids), 1000)
			if err != nil {
				continue
			}
			for k, id := range got {
				if id < 0 || id >= 1000 || k > 0 && id <= got[k-1] {
					t.Fatalf("byte %d = %#x: ids %v", i, v, got)
				}
			}
		}
	}
}

// TestDamagedPostingsRun changes one byte of a term's encoded postings in a
// segment file: read whole, the segment is refused by its checksum; searched
// in place, asking for the term's postings yields nothing and an error that
// sticks, without a panic.
func TestDamagedPostingsRun(t *testing.T) {
	root, cache := heavyRepo(t), t.TempDir()
	ix, st := openT(t, root, cache)
	p := segFiles(t, st.CachePath)[0]
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	n := len(ix.segs[0].files)
	sg, err := loadSegment(p, n, ix.printOf(), true)
	if err != nil {
		t.Fatal(err)
	}
	// A term whose run ends in a one-byte tf3: made 0x90, it cannot decode.
	term := int32(-1)
	for lt := range int32(sg.terms.len()) {
		_, tfs := sg.postings(lt)
		if len(tfs) > 0 && len(appendTF(nil, tfs[len(tfs)-1])) == 1 {
			term = lt
			break
		}
	}
	if term < 0 {
		t.Fatal("no term to damage")
	}
	at := sg.disk.at[1] + int64(sg.postAt[term+1]) - 1
	damaged := bytes.Clone(orig)
	damaged[at] = 0x90
	if err := os.WriteFile(p, damaged, 0o644); err != nil {
		t.Fatal(err)
	}

	if _, err := loadSegment(p, n, ix.printOf(), false); !errors.Is(err, errCorrupt) {
		t.Fatalf("read whole: err = %v, want errCorrupt", err)
	}
	sg, err = loadSegment(p, n, ix.printOf(), true)
	if err != nil {
		t.Fatal(err)
	}
	if ids, tfs := sg.postings(term); ids != nil || tfs != nil || sg.diskErr() == nil {
		t.Fatalf("damaged postings = %v %v, err %v", ids, tfs, sg.diskErr())
	}
	first := sg.diskErr()
	if term > 0 {
		sg.postings(term - 1)
	}
	if sg.diskErr() != first || !errors.Is(first, errCorrupt) {
		t.Fatalf("error did not stick: %v then %v", first, sg.diskErr())
	}
	if _, err := sg.encode(ix.printOf()); err == nil {
		t.Fatal("encode of a damaged segment succeeded")
	}
}

// TestRunCacheBounded reads every run of a segment searched in place, twice,
// through a cache of a few runs: the cache never holds more than its two
// generations, and every run read back evicted equals the run read fresh.
func TestRunCacheBounded(t *testing.T) {
	root, cache := heavyRepo(t), t.TempDir()
	ix, st := openT(t, root, cache)
	p := segFiles(t, st.CachePath)[0]
	n := len(ix.segs[0].files)
	fresh, err := loadSegment(p, n, ix.printOf(), true)
	if err != nil {
		t.Fatal(err)
	}
	sg, err := loadSegment(p, n, ix.printOf(), true)
	if err != nil {
		t.Fatal(err)
	}
	sg.disk.cache.max = 256 // a few runs a generation
	most := 0
	terms := int32(sg.terms.len())
	if terms < 50 {
		t.Fatalf("%d terms: too few to evict", terms)
	}
	for pass := range 2 {
		for lt := range terms {
			ids, tfs := sg.postings(lt)
			wids, wtfs := fresh.postings(lt)
			if !slices.Equal(ids, wids) || !slices.Equal(tfs, wtfs) {
				t.Fatalf("pass %d, term %d: %v %v, want %v %v", pass, lt, ids, tfs, wids, wtfs)
			}
			most = max(most, sg.disk.cache.bytes())
		}
		for d := range int32(n) {
			ids, tfs := sg.forward(d)
			wids, wtfs := fresh.forward(d)
			if !slices.Equal(ids, wids) || !slices.Equal(tfs, wtfs) {
				t.Fatalf("pass %d, file %d: forward differs", pass, d)
			}
			most = max(most, sg.disk.cache.bytes())
		}
	}
	// Each generation holds at most max bytes, or one run larger than that.
	largest := 0
	for lt := range terms {
		ids, tfs := fresh.postings(lt)
		largest = max(largest, entries{ids, tfs}.size())
	}
	for d := range int32(n) {
		ids, tfs := fresh.forward(d)
		largest = max(largest, entries{ids, tfs}.size())
	}
	if bound := 2 * max(256, largest); most > bound {
		t.Errorf("cache held %d bytes, bound %d", most, bound)
	}
	if err := sg.diskErr(); err != nil {
		t.Fatal(err)
	}
	// A run asked for again right away is kept.
	sg.postings(0)
	before := len(sg.disk.cache.cur) + len(sg.disk.cache.old)
	sg.postings(0)
	if after := len(sg.disk.cache.cur) + len(sg.disk.cache.old); after != before {
		t.Errorf("a cached run read again changed the cache: %d runs, then %d", before, after)
	}
}
