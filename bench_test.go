package hone_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hone-dev/hone"
)

// The speed targets are checked by these benchmarks, not by timed tests:
//
//	go test -run '^$' -bench . -benchtime 3x .
//
// They run on HONE_BENCH_ROOT when it names a repository (a django checkout,
// say), else on a generated Python repository of django's size: 2,800
// modules, about 11 MB, in packages of 20 modules that import each other.

const benchTask = "QuerySet.filter() ignores Q objects combined with exclude(); the SQL compiler drops the negation"

func benchRoot(b *testing.B) string {
	if root := os.Getenv("HONE_BENCH_ROOT"); root != "" {
		return root
	}
	root := filepath.Join(b.TempDir(), "repo")
	rng := rand.New(rand.NewSource(1))
	words := strings.Fields("query set filter exclude compiler negation model field lookup expression " +
		"join table column alias where clause order group having annotate aggregate manager related " +
		"cache connection cursor execute fetch result iterator chunk batch prefetch select update delete")
	for p := 0; p < 140; p++ {
		for m := 0; m < 20; m++ {
			var src strings.Builder
			fmt.Fprintf(&src, "\"\"\"Module %d of package %d.\"\"\"\nfrom pkg%d import mod%d\n\n", m, p, (p+1)%140, (m+1)%20)
			for c := 0; c < 6; c++ {
				w1, w2 := words[rng.Intn(len(words))], words[rng.Intn(len(words))]
				fmt.Fprintf(&src, "class %s%sHandler%d:\n    \"\"\"Handles the %s of the %s.\"\"\"\n\n", upper(w1), upper(w2), c, w1, w2)
				for f := 0; f < 5; f++ {
					w3 := words[rng.Intn(len(words))]
					fmt.Fprintf(&src, "    def %s_%s_%d(self, %s, %s=None):\n        # %s the %s before the %s\n        result = mod%d.%s_%s(%s)\n        return result\n\n",
						w1, w3, f, w2, w3, w3, w1, w2, (m+1)%20, w3, w1, w2)
				}
			}
			path := filepath.Join(root, fmt.Sprintf("pkg%d", p), fmt.Sprintf("mod%d.py", m))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("pkg%d", p), "__init__.py"), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// benchCache returns the cache directory of a benchmark that starts warm:
// HONE_BENCH_CACHE when set (an index of a large tree built once), else a
// fresh one.
func benchCache(b *testing.B) string {
	if dir := os.Getenv("HONE_BENCH_CACHE"); dir != "" {
		return dir
	}
	return b.TempDir()
}

// BenchmarkOpenCold indexes the repository from nothing (target: < 5 s on
// django's size, 2 cores).
func BenchmarkOpenCold(b *testing.B) {
	root := benchRoot(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cache := b.TempDir()
		if _, err := hone.Open(context.Background(), root, hone.Options{CacheDir: cache}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWarmRun is what a second `hone TASK` costs: open from the cache
// (walk, stat, load) and retrieve with every cycle (target: < 200 ms of
// process time on django's size).
func BenchmarkWarmRun(b *testing.B) {
	root := benchRoot(b)
	cache := b.TempDir()
	if _, err := hone.Open(context.Background(), root, hone.Options{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		repo, err := hone.Open(context.Background(), root, hone.Options{CacheDir: cache})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := repo.Retrieve(context.Background(), benchTask, hone.RetrieveOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefreshOneFile is what an edit costs the next call: one file
// changed (its modification time moved on; its content is left alone, so
// HONE_BENCH_ROOT may name a real checkout), then Open, which parses that
// file again and writes a segment of it beside the others.
func BenchmarkRefreshOneFile(b *testing.B) {
	root := benchRoot(b)
	cache := b.TempDir()
	if _, err := hone.Open(context.Background(), root, hone.Options{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	var file string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && file == "" && !d.IsDir() && strings.HasSuffix(p, ".py") {
			file = p
		}
		return err
	})
	if err != nil || file == "" {
		b.Fatalf("no Python file under %s (%v)", root, err)
	}
	info, err := os.Stat(file)
	if err != nil {
		b.Fatal(err)
	}
	defer os.Chtimes(file, info.ModTime(), info.ModTime())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := info.ModTime().Add(time.Duration(i+1) * time.Second)
		if err := os.Chtimes(file, t, t); err != nil {
			b.Fatal(err)
		}
		if _, err := hone.Open(context.Background(), root, hone.Options{CacheDir: cache}); err != nil {
			b.Fatal(err)
		}
	}
}

// firstPython returns a Python file of root.
func firstPython(b *testing.B, root string) string {
	var file string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && file == "" && !d.IsDir() && strings.HasSuffix(p, ".py") {
			file = p
		}
		return err
	})
	if err != nil || file == "" {
		b.Fatalf("no Python file under %s (%v)", root, err)
	}
	return file
}

// editThenAnswer times one edit (a file's modification time moved on) and
// the next answer: refresh, then retrieve with every cycle, on repo.
func editThenAnswer(b *testing.B, root string, repo *hone.Repo, reopen func() *hone.Repo) {
	file := firstPython(b, root)
	info, err := os.Stat(file)
	if err != nil {
		b.Fatal(err)
	}
	defer os.Chtimes(file, info.ModTime(), info.ModTime())
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := info.ModTime().Add(time.Duration(i+1) * time.Second)
		if err := os.Chtimes(file, t, t); err != nil {
			b.Fatal(err)
		}
		if reopen != nil {
			repo = reopen()
		} else if err := repo.Refresh(ctx); err != nil {
			b.Fatal(err)
		}
		if st := repo.IndexStats(); st.Parsed != 1 {
			b.Fatalf("the edit was not read again: %+v", st)
		}
		if _, err := repo.Retrieve(ctx, benchTask, hone.RetrieveOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if st, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(st), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.Atoi(f[1])
				b.ReportMetric(float64(kb)/1024, "rss-MiB")
			}
		}
	}
}

// BenchmarkEditThenAnswerServer is an edit and the next answer in a warm
// server (hone mcp: a Repo kept open, watching the tree): the refresh
// stats the one file the watcher saw change and writes a segment of it
// (targets: < 50 ms on django, < 100 ms on the 50,000-file tree).
func BenchmarkEditThenAnswerServer(b *testing.B) {
	root := benchRoot(b)
	ctx := context.Background()
	repo, err := hone.Open(ctx, root, hone.Options{CacheDir: benchCache(b), Watch: true})
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	if err := repo.Refresh(ctx); err != nil { // the walk after the watcher starts
		b.Fatal(err)
	}
	editThenAnswer(b, root, repo, nil)
}

// BenchmarkEditThenAnswerWalk is the same in a Repo kept open without a
// watcher: each refresh walks the tree.
func BenchmarkEditThenAnswerWalk(b *testing.B) {
	root := benchRoot(b)
	repo, err := hone.Open(context.Background(), root, hone.Options{CacheDir: benchCache(b)})
	if err != nil {
		b.Fatal(err)
	}
	editThenAnswer(b, root, repo, nil)
}

// BenchmarkEditThenAnswerCLI is an edit and the next `hone TASK`: open from
// the cache (walk, load, a segment of the edited file) and retrieve; compare
// with BenchmarkWarmRun (target: under 1.2 times it).
func BenchmarkEditThenAnswerCLI(b *testing.B) {
	root := benchRoot(b)
	cache := benchCache(b)
	open := func() *hone.Repo {
		repo, err := hone.Open(context.Background(), root, hone.Options{CacheDir: cache})
		if err != nil {
			b.Fatal(err)
		}
		return repo
	}
	editThenAnswer(b, root, open(), open)
}

// BenchmarkRetrieve is the loop alone on an open repository.
func BenchmarkRetrieve(b *testing.B) {
	root := benchRoot(b)
	repo, err := hone.Open(context.Background(), root, hone.Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := repo.Retrieve(context.Background(), benchTask, hone.RetrieveOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRetrievePack is what `hone bench` times for an instance: the
// loop on an open repository (its retrieve_ms), then the pack of its
// result at 8,000 tokens (its build_ms), reported apart as retrieve-ms/op
// and pack-ms/op. HONE_BENCH_TASK gives the task text (a file's contents
// when it names a file), else benchTask; HONE_BENCH_GITDIR and
// HONE_BENCH_REV read the commit history from a mirror at a commit, as the
// bench does (else the checkout's own, if any).
func BenchmarkRetrievePack(b *testing.B) {
	root := benchRoot(b)
	text := benchTask
	if t := os.Getenv("HONE_BENCH_TASK"); t != "" {
		text = t
		if data, err := os.ReadFile(t); err == nil {
			text = string(data)
		}
	}
	opts := hone.Options{CacheDir: benchCache(b),
		History: hone.History{GitDir: os.Getenv("HONE_BENCH_GITDIR"), Rev: os.Getenv("HONE_BENCH_REV")}}
	repo, err := hone.Open(context.Background(), root, opts)
	if err != nil {
		b.Fatal(err)
	}
	var retrieve, pack time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		res, err := repo.Retrieve(context.Background(), text, hone.RetrieveOptions{})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := repo.Pack(res, hone.PackOptions{Budget: 8000}); err != nil {
			b.Fatal(err)
		}
		retrieve += t1.Sub(t0)
		pack += time.Since(t1)
	}
	b.ReportMetric(float64(retrieve.Microseconds())/1000/float64(b.N), "retrieve-ms/op")
	b.ReportMetric(float64(pack.Microseconds())/1000/float64(b.N), "pack-ms/op")
}

func upper(w string) string { return strings.ToUpper(w[:1]) + w[1:] }
