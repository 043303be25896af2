package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/hone-dev/hone/internal/walk"
)

// synthRepo writes a repository of n Python files of ~200 lines drawn from a
// Zipf vocabulary, in nested packages.
func synthRepo(tb testing.TB, n int) string {
	tb.Helper()
	root := tb.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 5000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%sx%d", strings.Repeat("q", i%3), i)
	}
	zipf := rand.NewZipf(rand.New(rand.NewPCG(3, 4)), 1.1, 2, uint64(len(vocab)-1))
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("pkg%d", i%7), fmt.Sprintf("sub%d", i%23))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "from pkg%d.sub%d import mod%d\n\n", r.IntN(7), r.IntN(23), r.IntN(n))
		for c := range 4 {
			fmt.Fprintf(&sb, "class %sManager%d:\n", strings.ToUpper(vocab[zipf.Uint64()][:1])+vocab[zipf.Uint64()][1:], c)
			for m := range 5 {
				fmt.Fprintf(&sb, "    def %s_%s(self, %s):\n", vocab[zipf.Uint64()], vocab[zipf.Uint64()], vocab[zipf.Uint64()])
				for range 8 {
					fmt.Fprintf(&sb, "        %s = %s.%s(%s)  # %s %s\n", vocab[zipf.Uint64()], vocab[zipf.Uint64()], vocab[zipf.Uint64()], vocab[zipf.Uint64()], vocab[zipf.Uint64()], vocab[zipf.Uint64()])
				}
				_ = m
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("mod%d.py", i)), []byte(sb.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

const benchFiles = 1000

func BenchmarkOpenCold(b *testing.B) {
	root := synthRepo(b, benchFiles)
	for b.Loop() {
		if _, _, err := Open(context.Background(), root, Options{NoCache: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpenWarm(b *testing.B) {
	root, cache := synthRepo(b, benchFiles), b.TempDir()
	if _, _, err := Open(context.Background(), root, Options{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_, st, err := Open(context.Background(), root, Options{CacheDir: cache})
		if err != nil || st.Parsed != 0 {
			b.Fatal(err, st)
		}
	}
}

// BenchmarkOpenSecondRoot is the first index of a second worktree or
// clone of a tree whose records the cache directory holds: each file is
// read, hashed and recalled rather than parsed. Beside BenchmarkOpenCold
// (the same tree parsed) it is what the records store spares.
func BenchmarkOpenSecondRoot(b *testing.B) {
	root, cache := synthRepo(b, benchFiles), b.TempDir()
	if _, _, err := Open(context.Background(), root, Options{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	drop := func() {
		ents, err := os.ReadDir(cache)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range ents {
			if e.Name() != recordsFile {
				os.Remove(filepath.Join(cache, e.Name()))
			}
		}
	}
	for b.Loop() {
		b.StopTimer()
		drop() // the manifest and segments: an index never built here
		b.StartTimer()
		_, st, err := Open(context.Background(), root, Options{CacheDir: cache})
		if err != nil || st.Parsed != 0 || st.Recalled != st.Files {
			b.Fatal(err, st)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	ix, _, err := Open(context.Background(), synthRepo(b, benchFiles), Options{NoCache: true})
	if err != nil {
		b.Fatal(err)
	}
	var q []Term
	for i := range 30 {
		q = append(q, Term{Text: fmt.Sprintf("w%sx%d", strings.Repeat("q", (i*7)%3), i*7), Weight: 1})
	}
	for b.Loop() {
		ix.Search(q, nil, 50)
	}
}

// TestMeasure reports figures for the repository named by $HONE_MEASURE_ROOT
// (e.g. a django checkout); it is skipped otherwise.
func TestMeasure(t *testing.T) {
	root := os.Getenv("HONE_MEASURE_ROOT")
	if root == "" {
		t.Skip("set HONE_MEASURE_ROOT to measure a repository")
	}
	cache := t.TempDir()
	ctx := context.Background()
	t0 := time.Now()
	ix, st, err := Open(ctx, root, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	cold := time.Since(t0)
	var srcBytes int64
	for i := range ix.Len() {
		srcBytes += ix.File(ID(i)).Size
	}
	defs, refs := 0, 0
	for i := range ix.Len() {
		defs += len(ix.File(ID(i)).Defs)
		refs += len(ix.File(ID(i)).Refs)
	}
	t.Logf("cold Open: %v (files %d, skipped %d, terms %d, pairs %d, defs %d, refs %d, source %.1f MB)",
		cold, st.Files, len(st.Skipped), ix.NumTerms(), ix.segs[0].fwdOff[len(ix.segs[0].fwdOff)-1], defs, refs, float64(srcBytes)/1e6)
	var cacheBytes int64
	for _, sg := range ix.segs {
		cacheBytes += sg.size.Load()
	}
	t.Logf("cache: %.1f MB in %d segments", float64(cacheBytes)/1e6, ix.Segments())
	ix = nil
	runtime.GC()
	var best time.Duration
	for range 5 {
		t0 = time.Now()
		ix, st, err = Open(ctx, root, Options{CacheDir: cache})
		if d := time.Since(t0); err == nil && (best == 0 || d < best) {
			best = d
		}
	}
	t.Logf("warm Open: %v (parsed %d, reused %d)", best, st.Parsed, st.Reused)
	t0 = time.Now()
	load(st.CachePath, ix.root, nil, false, t.Logf, nil)
	t.Logf("cache load alone: %v", time.Since(t0))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap after GC: %.1f MB (source %.1f MB)", float64(ms.HeapAlloc)/1e6, float64(srcBytes)/1e6)

	words := strings.Fields("queryset filter exclude annotate aggregate model field foreign key related manager cache timezone datetime request response middleware session csrf token authentication user permission form widget template migration schema database cursor sql")
	var q []Term
	for _, w := range words {
		q = append(q, Term{Text: w, Weight: 1})
	}
	const reps = 200
	t0 = time.Now()
	for range reps {
		ix.Search(q, nil, 50)
	}
	t.Logf("Search of %d terms: %v", len(q), time.Since(t0)/reps)
	hits := ix.Search(q[:3], nil, 5)
	for _, h := range hits {
		t.Logf("  %s %.2f %v", ix.File(h.ID).Path, h.Score, h.Matched)
	}
	for _, w := range []string{"throttle", "timezone", "csrf", "queryset", "model"} {
		t0 = time.Now()
		as := ix.Associations(w, 8)
		d := time.Since(t0)
		var s []string
		for _, a := range as {
			s = append(s, fmt.Sprintf("%s(%.2f,%d)", a.Term, a.Score, a.Support))
		}
		t.Logf("Associations(%s) in %v: %v", w, d, s)
	}
	t0 = time.Now()
	ids := ix.Defining("django.db.models.QuerySet")
	t.Logf("Defining(django.db.models.QuerySet) in %v: %v", time.Since(t0), paths(ix, ids))
	if id, ok := ix.Lookup("django/db/models/query.py"); ok {
		t.Logf("Distinctive(query.py): %v", ix.Distinctive(id, 10))
		t.Logf("Imports(query.py): %d, ImportedBy: %d", len(ix.Imports(id)), len(ix.ImportedBy(id)))
	}
}

// BenchmarkMeasureWarm opens $HONE_MEASURE_ROOT warm (skipped when unset).
func BenchmarkMeasureWarm(b *testing.B) {
	root := os.Getenv("HONE_MEASURE_ROOT")
	if root == "" {
		b.Skip("set HONE_MEASURE_ROOT")
	}
	cache := filepath.Join(os.TempDir(), "hone-measure-cache")
	if _, _, err := Open(context.Background(), root, Options{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := Open(context.Background(), root, Options{CacheDir: cache}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMeasureDecode decodes $HONE_MEASURE_ROOT's cache from memory.
func BenchmarkMeasureDecode(b *testing.B) {
	root := os.Getenv("HONE_MEASURE_ROOT")
	if root == "" {
		b.Skip("set HONE_MEASURE_ROOT")
	}
	cache := filepath.Join(os.TempDir(), "hone-measure-cache")
	_, st, err := Open(context.Background(), root, Options{CacheDir: cache})
	if err != nil {
		b.Fatal(err)
	}
	ix, _, _ := Open(context.Background(), root, Options{CacheDir: cache})
	buf, err := os.ReadFile(filepath.Join(filepath.Dir(st.CachePath), ix.segs[0].name))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeSegment(buf, int64(len(buf)), extractorPrint(), false, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenColdChunks is a first index of the generated repository in
// one piece and cut into maxChunks chunks (as a tree of more than
// chunkBytes of source is, spill.go), with the largest live heap seen
// (runtime/metrics, read every millisecond) as peak-heap-MiB: the chunks
// bound the build's memory to one chunk's parse beside the index read back.
func BenchmarkOpenColdChunks(b *testing.B) {
	root := synthRepo(b, benchFiles)
	var total int64
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				total += fi.Size()
			}
		}
		return nil
	})
	for _, tt := range []struct {
		name  string
		bytes int64
	}{{"one", total + 1}, {"chunks", total / maxChunks}} {
		b.Run(tt.name, func(b *testing.B) {
			old := chunkBytes
			chunkBytes = tt.bytes
			defer func() { chunkBytes = old }()
			peak := 0.0
			for b.Loop() {
				done := make(chan struct{})
				got := make(chan float64)
				go func() { got <- peakHeap(done) }()
				if _, _, err := Open(context.Background(), root, Options{CacheDir: b.TempDir(), RecordsMax: -1}); err != nil {
					b.Fatal(err)
				}
				close(done)
				peak = max(peak, <-got)
			}
			b.ReportMetric(peak/(1<<20), "peak-heap-MiB")
		})
	}
}

// peakHeap samples the bytes of live and not yet collected heap objects
// every millisecond until done is closed, and returns the largest.
func peakHeap(done <-chan struct{}) float64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	best := 0.0
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		metrics.Read(s)
		best = max(best, float64(s[0].Value.Uint64()))
		select {
		case <-done:
			return best
		case <-tick.C:
		}
	}
}

// BenchmarkOpenColdRoot indexes $HONE_BENCH_ROOT cold (no cache): the
// profile of a first index of a real tree.
func BenchmarkOpenColdRoot(b *testing.B) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		b.Skip("set HONE_BENCH_ROOT to a repository")
	}
	for b.Loop() {
		if _, _, err := Open(context.Background(), root, Options{NoCache: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenLexicalRoot is BenchmarkOpenColdRoot for a first answer's
// Open (Options.Lexical): a read of the tree without parsing.
func BenchmarkOpenLexicalRoot(b *testing.B) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		b.Skip("set HONE_BENCH_ROOT to a repository")
	}
	for b.Loop() {
		if _, _, err := Open(context.Background(), root, Options{NoCache: true, Lexical: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeQuiet decodes the record of a walk of 16,000 directories
// of four entries each (a 58,346-file tree records about that).
func BenchmarkDecodeQuiet(b *testing.B) {
	memo := walk.Memo{}
	for i := range 16000 {
		memo[fmt.Sprintf("pkg%d/sub%d", i/100, i)] = &walk.QuietDir{Ino: uint64(i), MTime: int64(i) << 30, CTime: int64(i) << 30, Chain: uint64(i), Listed: true,
			Items: []walk.QuietItem{{File: "index.ts"}, {File: fmt.Sprintf("file%d.ts", i)}, {Sub: "lib"},
				{Skip: walk.Skip{Path: fmt.Sprintf("pkg%d/sub%d/logo.png", i/100, i), Reason: walk.SkipBinary, Detail: "binary extension .png"}}}}
	}
	var e encoder
	encodeQuiet(&e, memo)
	b.SetBytes(int64(len(e.b)))
	b.ResetTimer()
	for range b.N {
		if q := decodeQuiet(&decoder{b: e.b}); len(q) != len(memo) {
			b.Fatal(len(q))
		}
	}
}
