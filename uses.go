package hone

import (
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/anchor"
)

// Uses returns the files that define what the code at lines of path uses:
// the names referenced in the functions and methods that hold those lines
// (or on the lines themselves, outside any), each defined in at most a few
// files (anchor.MaxDefiners: a name everybody defines links nothing),
// path itself left out, sorted. It answers "what does this code read",
// for a caller that knows where a change goes (hone bench uses it to
// measure how many selected files the fixed code uses directly).
func (r *Repo) Uses(path string, lines []int) []string {
	ix, _ := r.index()
	id, ok := ix.Lookup(path)
	if !ok || len(lines) == 0 {
		return nil
	}
	f := ix.File(id)
	type span struct{ from, to int }
	var spans []span
	for _, l := range lines {
		s := span{l, l}
		for _, d := range f.Defs {
			if (d.Kind == "function" || d.Kind == "method") && d.Line <= l && d.End >= l {
				s = span{min(s.from, d.Line), max(s.to, d.End)}
			}
		}
		spans = append(spans, s)
	}
	out := map[string]bool{}
	for _, ref := range f.Refs {
		in := false
		for _, s := range spans {
			if ref.Line >= s.from && ref.Line <= s.to {
				in = true
				break
			}
		}
		if !in || strings.HasPrefix(ref.Name, "__") || len(ref.Name) < 3 {
			continue
		}
		defs := ix.Defining(ref.Name)
		if len(defs) == 0 || len(defs) > anchor.MaxDefiners {
			continue
		}
		for _, d := range defs {
			if d != id {
				out[ix.Path(d)] = true
			}
		}
	}
	paths := make([]string, 0, len(out))
	for p := range out {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}
