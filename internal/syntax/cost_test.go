package syntax

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// TestParseCost splits the extraction of every file of $HONE_BENCH_ROOT in
// parse and query CPU time (one goroutine).
func TestParseCost(t *testing.T) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		t.Skip("set HONE_BENCH_ROOT to a repository")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	type file struct {
		g    *grammar
		src  []byte
		tree *ts.Tree
	}
	var files []file
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && Language(p) != "" {
			if b, err := os.ReadFile(p); err == nil && len(b) <= MaxParseSize {
				g := grammars[Language(p)]
				g.once.Do(g.init)
				files = append(files, file{g: g, src: b})
			}
		}
		return nil
	})
	c0 := cpuTime()
	for i := range files {
		w, err := files[i].g.get()
		if err != nil {
			t.Fatal(err)
		}
		files[i].tree = w.parser.Parse(files[i].src, nil)
		files[i].g.put(w)
	}
	parse := cpuTime() - c0
	pass := func(parse func(*ts.Parser, []byte) *ts.Tree) time.Duration {
		c0 := cpuTime()
		for i := range files {
			w, _ := files[i].g.get()
			if tr := parse(w.parser, files[i].src); tr != nil {
				tr.Close()
			}
			files[i].g.put(w)
		}
		return cpuTime() - c0
	}
	best := time.Hour
	for range 3 {
		best = min(best, pass(func(p *ts.Parser, b []byte) *ts.Tree { return p.Parse(b, nil) }))
	}
	cur := ts.NewQueryCursor()
	defer cur.Close()
	run := func(pick func(*grammar) *ts.Query) (time.Duration, int) {
		c0, n := cpuTime(), 0
		for _, f := range files {
			if f.tree == nil {
				continue
			}
			m := cur.Matches(pick(f.g), f.tree.RootNode(), f.src)
			for x := m.Next(); x != nil; x = m.Next() {
				n++
			}
		}
		return cpuTime() - c0, n
	}
	tq, nq := run(func(g *grammar) *ts.Query { return g.query })
	t.Logf("%d files: parse %v (first pass, trees kept), %v (best of 3, each tree closed); query %v (%d matches)", len(files), parse, best, tq, nq)
	for _, f := range files {
		if f.tree != nil {
			f.tree.Close()
		}
	}
}
