package history

import (
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

func TestCodecRoundTrip(t *testing.T) {
	for _, l := range []*Log{sampleLog(), {}} {
		b := encodeBody(nil, "dir /repo", l)
		c, err := decodeBody(b)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		want := cacheFile{Key: "dir /repo", Rev: l.rev, Partial: l.partial, Limit: l.limit, Truncated: l.truncated,
			Paths: l.paths, Terms: l.terms, Hashes: l.hashes, Times: l.times, Post: l.post, Lens: l.lens, Files: l.files}
		normalize(&c)
		normalize(&want)
		if !reflect.DeepEqual(c, want) {
			t.Errorf("round trip:\n got %+v\nwant %+v", c, want)
		}
	}
}

// TestCodecTruncated: every strict prefix of a body is refused, never
// decoded into another log and never a panic.
func TestCodecTruncated(t *testing.T) {
	b := encodeBody(nil, "dir /repo", sampleLog())
	for n := 0; n < len(b); n++ {
		if _, err := decodeBody(b[:n]); err == nil {
			t.Fatalf("a body cut to %d of %d bytes decoded", n, len(b))
		}
	}
	if _, err := decodeBody(append(b, 0)); err == nil {
		t.Error("a body with a byte after its end decoded")
	}
}

// TestCodecImpossibleCounts: a count larger than the bytes left is refused
// before anything of that size is allocated.
func TestCodecImpossibleCounts(t *testing.T) {
	for name, b := range map[string][]byte{
		"huge key":      {0xff, 0xff, 0xff, 0xff, 0x0f},
		"huge list":     append(encodeBody(nil, "k", &Log{})[:4], 0xff, 0xff, 0xff, 0xff, 0x0f),
		"varint run-on": {0x80, 0x80, 0x80},
	} {
		if _, err := decodeBody(b); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func FuzzDecodeBody(f *testing.F) {
	f.Add(encodeBody(nil, "dir /repo", sampleLog()))
	f.Add(encodeBody(nil, "", &Log{}))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := decodeBody(b)
		if err != nil {
			return
		}
		// What decodes encodes back into the same log.
		l := &Log{rev: c.Rev, partial: c.Partial, truncated: c.Truncated, limit: c.Limit, paths: c.Paths, terms: c.Terms,
			hashes: c.Hashes, times: c.Times, post: c.Post, lens: c.Lens, files: c.Files}
		again, err := decodeBody(encodeBody(nil, c.Key, l))
		if err != nil {
			t.Fatalf("re-encoded body does not decode: %v", err)
		}
		normalize(&c)
		normalize(&again)
		if !reflect.DeepEqual(c, again) {
			t.Fatalf("re-encoded body decodes to another log:\n%+v\n%+v", c, again)
		}
	})
}

// normalize makes empty lists nil: the format does not tell them apart.
func normalize(c *cacheFile) {
	for _, p := range []*[]string{&c.Paths, &c.Terms, &c.Hashes} {
		if len(*p) == 0 {
			*p = nil
		}
	}
	if len(c.Times) == 0 {
		c.Times = nil
	}
	for _, p := range []*[][]int32{&c.Post, &c.Files} {
		if len(*p) == 0 {
			*p = nil
		}
		for i := range *p {
			if len((*p)[i]) == 0 {
				(*p)[i] = nil
			}
		}
	}
	if len(c.Lens) == 0 {
		c.Lens = nil
	}
}
