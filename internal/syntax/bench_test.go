package syntax

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestExtractTree extracts every file of a language under $HONE_BENCH_ROOT
// with two goroutines and reports the time: the cold-index budget check.
func TestExtractTree(t *testing.T) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		t.Skip("set HONE_BENCH_ROOT to a repository")
	}
	var srcs [][]byte
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && Language(p) != "" {
			b, err := os.ReadFile(p)
			if err == nil {
				srcs, paths = append(srcs, b), append(paths, p)
			}
		}
		return nil
	})
	start, cpu0 := time.Now(), cpuTime()
	var next, defs, refs, imps, incomplete atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(srcs) {
					return
				}
				r, err := Extract(paths[i], srcs[i])
				if err != nil {
					t.Error(err)
				}
				defs.Add(int64(len(r.Defs)))
				refs.Add(int64(len(r.Refs)))
				imps.Add(int64(len(r.Imports)))
				if r.Incomplete != "" {
					incomplete.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d files in %v wall, %v process CPU (2 goroutines): %d defs, %d refs, %d imports, %d incomplete",
		len(srcs), time.Since(start), cpuTime()-cpu0, defs.Load(), refs.Load(), imps.Load(), incomplete.Load())
}

// pySource builds a real-ish Python module: imports, classes with
// decorated methods, calls, comprehensions and strings.
func pySource(classes int) []byte {
	var b []byte
	b = append(b, "import os\nimport re\nfrom collections import defaultdict\nfrom .utils import helper, Other as O\n\nLIMIT = 100\n\n"...)
	for i := range classes {
		c := fmt.Sprintf("Model%d", i)
		b = fmt.Appendf(b, "class %s(Base, mixins.Mixin):\n    \"\"\"Docstring for %s.\"\"\"\n    name = fields.CharField(max_length=%d)\n\n", c, c, i)
		for j := range 6 {
			b = fmt.Appendf(b, "    @property\n    def method_%d(self, a, b=None, *args, **kwargs):\n        # comment %d\n        result = [x.strip() for x in a.split(',') if x]\n        if b is not None and len(result) > %d:\n            raise ValueError('bad value: %%s' %% b)\n        d = defaultdict(list)\n        for k, v in kwargs.items():\n            d[k].append(helper(v, key=k))\n        return self.other.compute(result, d, flag=True)\n\n", j, j, j)
		}
	}
	return b
}

func BenchmarkExtractPython(b *testing.B) {
	src := pySource(40)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Extract("m.py", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParsePython(b *testing.B) {
	src := pySource(40)
	g := grammars["python"]
	g.once.Do(g.init)
	w, _ := g.get()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		w.parser.Parse(src, nil).Close()
	}
}

// cpuTime is the process's user+system CPU time: on a shared machine it
// measures the work where wall time measures the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
