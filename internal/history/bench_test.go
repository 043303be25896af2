package history

import (
	"context"
	"os"
	"reflect"
	"slices"
	"testing"
)

// BenchmarkFiles ranks a real log (HONE_BENCH_ROOT, a git work tree) for a
// task of 40 terms, as the local evaluator does once per retrieval.
func BenchmarkFiles(b *testing.B) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		b.Skip("HONE_BENCH_ROOT not set")
	}
	l, _, err := Load(context.Background(), Source{Dir: root}, Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	var q []Term
	for i, w := range []string{"model", "field", "query", "queryset", "filter", "crash", "error", "migration",
		"admin", "form", "test", "database", "sqlite", "postgresql", "index", "constraint", "unique", "name",
		"default", "value", "return", "object", "create", "update", "delete", "related", "foreign", "key",
		"many", "annotate", "aggregate", "expression", "subquery", "order", "group", "json", "date", "time",
		"timezone", "bulk_create"} {
		q = append(q, Term{w, 1 + float64(i%3)})
	}
	b.ResetTimer()
	for b.Loop() {
		l.Files(q)
	}
}

// BenchmarkLoadCache reads a real log (HONE_BENCH_ROOT) from its cache, as
// every warm CLI call does.
func BenchmarkLoadCache(b *testing.B) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		b.Skip("HONE_BENCH_ROOT not set")
	}
	src, cache := Source{Dir: root}, b.TempDir()
	if _, _, err := Load(context.Background(), src, Options{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	p, err := pathFor(cache, src)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := loadCache(p, src.key(), MaxCommits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBringForward brings a cached log of a real repository forward
// by 50 commits, as a warm call does after a pull: HONE_BENCH_GITDIR (a
// git directory, such as a bare mirror) from HEAD~50 to HEAD.
func BenchmarkBringForward(b *testing.B) {
	gitDir := os.Getenv("HONE_BENCH_GITDIR")
	if gitDir == "" {
		b.Skip("HONE_BENCH_GITDIR not set")
	}
	cache := b.TempDir()
	old := Source{GitDir: gitDir, Rev: "HEAD~50"}
	if _, _, err := Load(context.Background(), old, Options{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	p, err := pathFor(cache, old)
	if err != nil {
		b.Fatal(err)
	}
	saved, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(p, saved, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		_, st, err := Load(context.Background(), Source{GitDir: gitDir, Rev: "HEAD"}, Options{CacheDir: cache})
		if err != nil || !st.Cached || st.Read == 0 {
			b.Fatalf("%+v, %v: want the log brought forward", st, err)
		}
	}
}

// TestLazyRealLog: a real log (HONE_BENCH_ROOT) opened from its cache
// answers as the log read from git, for the benchmark's task and for every
// path Partners and Touches are asked about.
func TestLazyRealLog(t *testing.T) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		t.Skip("HONE_BENCH_ROOT not set")
	}
	src, cache := Source{Dir: root}, t.TempDir()
	fresh, _, err := Load(context.Background(), src, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	p, err := pathFor(cache, src)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := loadCache(p, src.key(), MaxCommits)
	if err != nil || lazy.disk == nil {
		t.Fatalf("%v; want a log read from the cache", err)
	}
	words := []string{"model", "field", "query", "queryset", "filter", "crash", "bulk_create", "proxy", "nowhere_xyz",
		"admin", "form", "migration", "sqlite", "json", "timezone", "aggregate", "subquery"}
	for i := range words {
		var q []Term
		for j, w := range words[:i+1] {
			q = append(q, Term{w, 1 + float64(j%3)})
		}
		if got, want := lazy.Files(q), fresh.Files(q); !reflect.DeepEqual(got, want) {
			t.Fatalf("Files(%v): %d files, want %d", q, len(got), len(want))
		}
	}
	for _, path := range append(slices.Clone(fresh.paths), "nowhere.py") {
		if got, want := lazy.Partners(path, 5), fresh.Partners(path, 5); !reflect.DeepEqual(got, want) {
			t.Fatalf("Partners(%s) = %v, want %v", path, got, want)
		}
		gn, gm := lazy.Touches(path)
		wn, wm := fresh.Touches(path)
		if gn != wn || gm != wm {
			t.Fatalf("Touches(%s) = %d, %d; want %d, %d", path, gn, gm, wn, wm)
		}
	}
}
