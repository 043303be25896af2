package history

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// sampleLog is a log with every field set, including a commit left out (no
// files), a term whose postings go back in commit order and ids near the
// int32 limit.
func sampleLog() *Log {
	return &Log{
		rev:       "0123456789abcdef0123456789abcdef01234567",
		paths:     []string{"a.go", "dir/b.py", "", "ünïcode/ç.rs"},
		terms:     []string{"token", "expiry", "x"},
		hashes:    []string{"abc1234", "def5678", "0000000"},
		times:     []int64{1_700_000_000, 1_600_000_000, 0},
		post:      [][]int32{{0, 2, 2, 1}, {2, 5, 0, 1}, {1, 2147483647}},
		lens:      []int32{3, 0, 7},
		files:     [][]int32{{0, 3, 1}, nil, {2}},
		partial:   true,
		limit:     20000,
		truncated: true,
	}
}

// genLog is a log of n commits built as Load builds one, with ties in
// time, commits left out (no files), paths shared between commits and a
// commit that touched many.
func genLog(seed uint64, n int) *Log {
	rng := rand.New(rand.NewPCG(seed, 7))
	words := []string{"alpha", "beta", "gamma", "delta", "queryset", "bulk_create", "proxy", "model", "fix", "crash"}
	var cs []commit // newest first
	for i := 0; i < n; i++ {
		c := commit{hash: fmt.Sprintf("%010x", rng.Uint64()), time: 1_700_000_000 - int64(i/3)*60}
		if i%11 == 5 {
			cs = append(cs, c) // left out
			continue
		}
		c.terms = map[string]int32{}
		for range 1 + rng.IntN(4) {
			c.terms[words[rng.IntN(len(words))]] += int32(1 + rng.IntN(3))
		}
		nf := 1 + rng.IntN(4)
		if i%37 == 0 {
			nf = 12
		}
		seen := map[string]bool{}
		for range nf {
			p := fmt.Sprintf("pkg%d/f%d.go", rng.IntN(4), rng.IntN(25))
			if !seen[p] {
				seen[p] = true
				c.files = append(c.files, p)
			}
		}
		cs = append(cs, c)
	}
	l := &Log{rev: fmt.Sprintf("%040d", seed), limit: MaxCommits}
	l.add(cs)
	return l
}

// open encodes l and opens the body as a cache file is opened.
func open(t testing.TB, l *Log) *Log {
	t.Helper()
	got := &Log{}
	key, err := decodeBody(encodeBody(nil, "dir /repo", l), got)
	if err != nil || key != "dir /repo" {
		t.Fatalf("decode: %q, %v", key, err)
	}
	if got.disk == nil {
		t.Fatal("the decoded log is not read from its body")
	}
	return got
}

// canonLog is a log by names, not ids: the cache renumbers paths and terms.
type canonLog struct {
	Rev                string
	Partial, Truncated bool
	Limit, Docs        int
	Total              int64
	Commits            []canonCommit
	Post               map[string][]int32
}

type canonCommit struct {
	Hash  string
	Time  int64
	Len   int32
	Files []string
}

func canon(l *Log) canonLog {
	c := canonLog{Rev: l.rev, Partial: l.partial, Truncated: l.truncated, Limit: l.limit, Docs: l.docs, Total: l.total,
		Post: map[string][]int32{}}
	for i := range l.lens {
		cc := canonCommit{Hash: l.hashes[i], Time: l.times[i], Len: l.lens[i]}
		for _, f := range l.files[i] {
			cc.Files = append(cc.Files, l.paths[f])
		}
		c.Commits = append(c.Commits, cc)
	}
	for t, ps := range l.post {
		if len(ps) == 0 {
			ps = nil
		}
		c.Post[l.terms[t]] = ps
	}
	return c
}

// withTotals sets docs, total and the maps as add would (sampleLog leaves
// them unset).
func withTotals(l *Log) *Log {
	l.pathID, l.termID = map[string]int32{}, map[string]int32{}
	for i, p := range l.paths {
		l.pathID[p] = int32(i)
	}
	for i, t := range l.terms {
		l.termID[t] = int32(i)
	}
	l.docs, l.total = 0, 0
	for i, n := range l.lens {
		l.total += int64(n)
		if len(l.files[i]) > 0 {
			l.docs++
		}
	}
	return l
}

func TestCodecRoundTrip(t *testing.T) {
	for i, l := range []*Log{sampleLog(), {}, genLog(1, 300)} {
		want := canon(withTotals(l))
		got := open(t, l)
		if got.Len() != l.Len() || got.Rev() != l.Rev() {
			t.Errorf("%d: opened: %d commits at %q, want %d at %q", i, got.Len(), got.Rev(), l.Len(), l.Rev())
		}
		if err := got.materialize(); err != nil {
			t.Fatalf("%d: materialize: %v", i, err)
		}
		if c := canon(got); !reflect.DeepEqual(c, want) {
			t.Errorf("%d: round trip:\n got %+v\nwant %+v", i, c, want)
		}
	}
}

// TestLazyAnswers: a log opened from its cache body answers every question
// exactly as the log it was encoded from, and so does the same log decoded
// whole (as extend does before it adds commits).
func TestLazyAnswers(t *testing.T) {
	dropped := genLog(3, 200)
	drop := map[string]bool{}
	for i, h := range dropped.hashes {
		if i%3 != 0 {
			drop[h] = true // leaves terms with no postings and paths no commit touched
		}
	}
	dropped = dropped.without(drop)
	queries := [][]Term{
		nil,
		{{"alpha", 1}},
		{{"queryset", 2}, {"bulk_create", 1}, {"proxy", 0.5}},
		{{"nowhere", 1}, {"fix", 1}},
		{{"crash", 0}, {"model", -1}, {"delta", 3}},
		{{"token", 1}, {"expiry", 2}, {"x", 1}},
		{{"alpha", 1}, {"beta", 1}, {"gamma", 1}, {"delta", 1}, {"queryset", 1}, {"bulk_create", 1}, {"proxy", 1},
			{"model", 1}, {"fix", 1}, {"crash", 1}, {"alpha", 2}},
		{{"", 1}},
	}
	for i, l := range []*Log{withTotals(sampleLog()), {}, genLog(1, 300), genLog(2, 40), dropped} {
		lazy := open(t, l)
		whole := open(t, l)
		if err := whole.materialize(); err != nil {
			t.Fatal(err)
		}
		if lazy.Len() != l.Len() || lazy.Rev() != l.Rev() {
			t.Errorf("%d: %d commits at %q, want %d at %q", i, lazy.Len(), lazy.Rev(), l.Len(), l.Rev())
		}
		for _, q := range queries {
			want := l.Files(q)
			for name, got := range map[string]map[string]Hit{"lazy": lazy.Files(q), "whole": whole.Files(q)} {
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%d, %s: Files(%v) =\n%v\nwant\n%v", i, name, q, got, want)
				}
			}
		}
		paths := append([]string{"nowhere.go", "pkg0", "pkg9/f1.go", "zzz"}, l.paths...)
		for _, p := range paths {
			for _, max := range []int{0, 1, 3, 100} {
				want := l.Partners(p, max)
				for name, got := range map[string][]Partner{"lazy": lazy.Partners(p, max), "whole": whole.Partners(p, max)} {
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%d, %s: Partners(%q, %d) = %v, want %v", i, name, p, max, got, want)
					}
				}
			}
			wn, wm := l.Touches(p)
			for name, x := range map[string]*Log{"lazy": lazy, "whole": whole} {
				if n, m := x.Touches(p); n != wn || m != wm {
					t.Errorf("%d, %s: Touches(%q) = %d, %d; want %d, %d", i, name, p, n, m, wn, wm)
				}
			}
		}
	}
}

// TestCodecTruncated: every strict prefix of a body is refused, never
// decoded into another log and never a panic.
func TestCodecTruncated(t *testing.T) {
	b := encodeBody(nil, "dir /repo", sampleLog())
	for n := 0; n < len(b); n++ {
		if _, err := decodeBody(b[:n], &Log{}); err == nil {
			t.Fatalf("a body cut to %d of %d bytes decoded", n, len(b))
		}
	}
	if _, err := decodeBody(append(b, 0), &Log{}); err == nil {
		t.Error("a body with a byte after its end decoded")
	}
}

// TestCodecImpossibleCounts: a count larger than the bytes left is refused
// before anything of that size is allocated.
func TestCodecImpossibleCounts(t *testing.T) {
	empty := encodeBody(nil, "k", &Log{})
	for name, b := range map[string][]byte{
		"huge key":      {0xff, 0xff, 0xff, 0xff, 0x0f},
		"huge commits":  append(empty[:5:5], 0xff, 0xff, 0xff, 0xff, 0x0f),
		"huge table":    append(empty[:9:9], 0xff, 0xff, 0xff, 0xff, 0x0f),
		"varint run-on": {0x80, 0x80, 0x80},
	} {
		if _, err := decodeBody(b, &Log{}); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

// query asks a log every question, with the terms and paths it names and
// some it does not; it must not panic, whatever the log's bytes.
func query(l *Log) {
	q := []Term{{"nowhere", 1}, {"", 1}}
	var paths []string
	if d := l.disk; d != nil {
		for i := range d.terms.n {
			q = append(q, Term{d.terms.str(i), 1})
		}
		for i := range d.paths.n {
			paths = append(paths, d.paths.str(i))
		}
	}
	l.Files(q)
	for _, p := range append(paths, "nowhere.go", "") {
		l.Partners(p, 10)
		l.Touches(p)
	}
	l.Len()
	l.materialize()
}

// TestLazyDamaged: a body made wrong after its checksum (every byte set to
// other values in turn) either fails to open or answers without a panic,
// whatever it answers; and ids out of range in a body that opens make the
// commit, term or path they belong to absent.
func TestLazyDamaged(t *testing.T) {
	for _, l := range []*Log{sampleLog(), genLog(4, 30)} {
		good := encodeBody(nil, "dir /repo", l)
		for i := range good {
			for _, v := range []byte{0, 1, 0x7f, 0x80, 0xff, good[i] ^ 1, good[i] + 1, good[i] - 1} {
				bad := append([]byte(nil), good...)
				bad[i] = v
				got := &Log{}
				if _, err := decodeBody(bad, got); err == nil {
					query(got)
				}
			}
		}
	}
	// Out of range: commit 0 names path 7 of 1, term "far" names commit 9
	// of 2; commit 1 and term "near" are right.
	bad := &Log{limit: MaxCommits, paths: []string{"a.go"}, terms: []string{"far", "near"}, hashes: []string{"h0", "h1"},
		times: []int64{1, 2}, lens: []int32{1, 1}, files: [][]int32{{7}, {0}}, post: [][]int32{{9, 1}, {0, 1, 1, 1}}}
	got := open(t, bad)
	if h := got.Files([]Term{{"far", 1}}); len(h) != 0 {
		t.Errorf("a term naming a missing commit: Files = %v", h)
	}
	if h := got.Files([]Term{{"near", 1}}); len(h) != 1 || h["a.go"].Best != "h1" {
		t.Errorf("a commit naming a missing path: Files = %v, want a.go by h1 alone", h)
	}
	if p := got.Partners("a.go", 10); p != nil {
		t.Errorf("Partners = %v", p)
	}
	if err := got.materialize(); err == nil {
		t.Error("a body with ids out of range materialized")
	}
	// A wrong table entry: the offsets of the path's commits (the last
	// table, whose only entry ends the body) past the end.
	b := encodeBody(nil, "k", &Log{paths: []string{"a.go"}, hashes: []string{"h"}, times: []int64{1}, lens: []int32{1},
		files: [][]int32{{0}}, terms: []string{"t"}, post: [][]int32{{0, 1}}})
	// The body ends with the table: count 1, offsets 0 and 2, then 2 bytes;
	// the entry's start goes past its end.
	b[len(b)-2-8] = 3
	got = &Log{}
	if _, err := decodeBody(b, got); err != nil {
		t.Fatal(err)
	}
	if n, _ := got.Touches("a.go"); n != 0 {
		t.Errorf("a wrong entry: Touches = %d", n)
	}
	if p := got.Partners("a.go", 3); p != nil {
		t.Errorf("a wrong entry: Partners = %v", p)
	}
	if h := got.Files([]Term{{"t", 1}}); len(h) != 1 {
		t.Errorf("a wrong entry of another table: Files = %v", h)
	}
}

func FuzzDecodeBody(f *testing.F) {
	f.Add(encodeBody(nil, "dir /repo", sampleLog()))
	f.Add(encodeBody(nil, "", &Log{}))
	f.Add(encodeBody(nil, "dir /repo", genLog(5, 20)))
	f.Fuzz(func(t *testing.T, b []byte) {
		l := &Log{}
		key, err := decodeBody(b, l)
		if err != nil {
			return
		}
		query(l) // materializes it last
		if l.disk != nil {
			return
		}
		// What decodes whole encodes back into the same log.
		again := &Log{}
		if _, err := decodeBody(encodeBody(nil, key, l), again); err != nil {
			t.Fatalf("re-encoded body does not decode: %v", err)
		}
		if err := again.materialize(); err != nil {
			t.Fatalf("re-encoded body does not materialize: %v", err)
		}
		if a, b := canon(l), canon(again); !reflect.DeepEqual(a, b) {
			t.Fatalf("re-encoded body decodes to another log:\n%+v\n%+v", a, b)
		}
	})
}

var _ = math.MaxInt32
