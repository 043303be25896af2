package syntax

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDumpTags writes every tag and import Extract finds under
// $HONE_BENCH_ROOT to $HONE_TAGS_DUMP, one line each, so that a change to
// extraction can be checked against a dump made before it (diff).
func TestDumpTags(t *testing.T) {
	root, out := os.Getenv("HONE_BENCH_ROOT"), os.Getenv("HONE_TAGS_DUMP")
	if root == "" || out == "" {
		t.Skip("set HONE_BENCH_ROOT and HONE_TAGS_DUMP")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	n := 0
	for _, r := range strings.Split(root, ",") {
		filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || Language(p) == "" {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			res, err := Extract(p, src)
			if err != nil {
				t.Error(err)
			}
			n++
			fmt.Fprintf(w, "F %s %s %q\n", p, res.Lang, res.Incomplete)
			for _, d := range res.Defs {
				fmt.Fprintf(w, "D %q %q %s %d %d\n", d.Name, d.Parent, d.Kind, d.Line, d.End)
			}
			for _, d := range res.Refs {
				fmt.Fprintf(w, "R %q %q %s %d %d\n", d.Name, d.Parent, d.Kind, d.Line, d.End)
			}
			for _, i := range res.Imports {
				fmt.Fprintf(w, "I %q\n", i)
			}
			return nil
		})
	}
	t.Logf("%d files", n)
}
