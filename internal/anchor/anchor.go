// Package anchor ties the concrete things a task names to repository files.
//
// A task often points straight at code: a file path ("django/db/models/query.py"),
// a stack-trace frame ("File \".../site-packages/django/db/models/query.py\",
// line 1090"), a module path ("django.db.models.query"), or a symbol
// ("QuerySet.filter", `SessionManager`). Each such mention is an anchor. Paths
// and frames are matched to indexed files by the longest common path suffix, so
// an absolute path from someone else's machine, or a frame inside an installed
// copy of the package (site-packages, node_modules, GOPATH), still finds the
// repository's file. Module paths resolve through the index's module resolver,
// symbols through its definition table. Symbols defined in many files are weak
// anchors and are dropped past MaxDefiners.
package anchor

import (
	"math"
	"path"
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/tokenize"
)

// Kinds of anchors.
const (
	KindPath    = "path"    // the task names the file's path
	KindFrame   = "frame"   // a stack-trace frame points into the file
	KindModule  = "module"  // a dotted module path names the file
	KindDefines = "defines" // the file defines a symbol the task names
	KindUses    = "uses"    // the file uses (calls, imports) a symbol the task names
	// KindMentions: the file holds, verbatim, a compound identifier the task
	// names that no file defines: a setting, option or key
	// (autodoc_typehints_description_target, FILE_UPLOAD_PERMISSIONS) lives
	// as a string or attribute in the few files that read or register it.
	KindMentions = "mentions"
)

// MaxUsers drops use anchors of a symbol that more files use: a task-named
// function called everywhere does not point at one caller.
const MaxUsers = 6

// MaxDefiners drops symbol anchors defined in more files than this: a name
// defined everywhere (save, run, __init__) locates nothing.
const MaxDefiners = 8

// Anchor is one mention tied to a file.
type Anchor struct {
	ID   index.ID
	Kind string
	// Name is what the task said: the path, frame, module or symbol.
	Name string
	// Strength in (0,1]: 1 for an exact or unique match, less when the mention
	// matches several files.
	Strength float64
	// Order is the mention's position among the task's frames (0 = first);
	// for other kinds 0.
	Order int
}

// Set holds a task's anchors by file.
type Set struct {
	ByFile map[index.ID][]Anchor
	// Frames is the number of stack-trace frames that resolved to files.
	Frames int
	// Symbols maps each task symbol that the index defines to its definers.
	Symbols map[string][]index.ID
}

// Find resolves the anchors of a parsed task.
func Find(ix *index.Index, t *task.Task) Set {
	s := Set{ByFile: map[index.ID][]Anchor{}, Symbols: map[string][]index.ID{}}
	var byBase map[string][]index.ID
	suffix := func(p string) []index.ID {
		if byBase == nil {
			byBase = baseNames(ix)
		}
		return matchSuffix(ix, byBase, p)
	}
	add := func(a Anchor) {
		for _, b := range s.ByFile[a.ID] {
			if b.Kind == a.Kind && b.Name == a.Name {
				return
			}
		}
		s.ByFile[a.ID] = append(s.ByFile[a.ID], a)
	}
	for _, p := range t.Paths {
		ids := suffix(p)
		for _, id := range ids {
			add(Anchor{ID: id, Kind: KindPath, Name: p, Strength: 1 / float64(len(ids))})
		}
	}
	for i, f := range t.Frames {
		ids := suffix(f.File)
		if len(ids) == 0 && f.Func != "" {
			// Java and similar frames name a class path rather than a file path.
			if j := strings.LastIndex(f.Func, "."); j > 0 {
				ids = ix.ResolveModule(f.Func[:j])
			}
		}
		if len(ids) > 0 {
			s.Frames++
		}
		for _, id := range ids {
			add(Anchor{ID: id, Kind: KindFrame, Name: frameName(f), Strength: 1 / float64(len(ids)), Order: i})
		}
	}
	for _, d := range t.DottedNames {
		ids := ix.ResolveModule(d)
		if len(ids) > 0 && len(ids) <= MaxDefiners {
			for _, id := range ids {
				st := 1 / float64(len(ids))
				if packageInit(ix.Path(id)) {
					st *= PackageShare
				}
				add(Anchor{ID: id, Kind: KindModule, Name: d, Strength: st})
			}
		}
	}
	for _, name := range symbols(ix, t) {
		ids := ix.Defining(name)
		if len(ids) == 0 {
			holders := mentioning(ix, name)
			for _, h := range holders {
				add(Anchor{ID: h, Kind: KindMentions, Name: name, Strength: 1 / math.Sqrt(float64(len(holders)))})
			}
		}
		if len(ids) == 0 || len(ids) > MaxDefiners {
			continue
		}
		s.Symbols[name] = ids
		for _, id := range ids {
			add(Anchor{ID: id, Kind: KindDefines, Name: name, Strength: 1 / float64(len(ids))})
		}
		// The code that uses the named symbol is where a task about using it
		// ("fails when calling to_native_string") often lands.
		users := ix.Referencing(name)
		if len(users) == 0 || len(users) > MaxUsers {
			continue
		}
		for _, id := range users {
			add(Anchor{ID: id, Kind: KindUses, Name: name, Strength: 1 / math.Sqrt(float64(len(users)))})
		}
	}
	return s
}

// mentioning returns the files that hold name as a whole term, when name is a
// compound identifier (two parts or more, no dots) held by at most MaxUsers
// files; otherwise nil.
func mentioning(ix *index.Index, name string) []index.ID {
	if strings.Contains(name, ".") || len(tokenize.Split(name)) < 2 {
		return nil
	}
	term := strings.ToLower(name)
	if df := ix.DocFreq(term); df == 0 || df > MaxUsers {
		return nil
	}
	hits := ix.Search([]index.Term{{Text: term, Weight: 1}}, nil, MaxUsers)
	out := make([]index.ID, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// PackageShare is the strength a module anchor keeps when the module path
// names a package and resolves to its initialiser (__init__.py, index.js,
// mod.rs): the name points at the package, of which that file is one part.
const PackageShare = 0.5

// packageInit reports whether p is a package's initialiser file.
func packageInit(p string) bool {
	b := path.Base(p)
	stem := strings.TrimSuffix(b, path.Ext(b))
	switch stem {
	case "__init__", "mod":
		return true
	case "index":
		switch path.Ext(b) {
		case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs":
			return true
		}
	}
	return false
}

// symbols lists the task's symbol mentions: identifiers, the last one or two
// parts of dotted names, and code spans that are identifiers.
func symbols(ix *index.Index, t *task.Task) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = strings.Trim(s, "`'\"()[]{}<>:;,")
		if s == "" || seen[s] || !isIdentLike(s) {
			return
		}
		seen[s] = true
		out = append(out, s)
	}
	for _, id := range t.Identifiers {
		add(id)
	}
	for _, d := range t.DottedNames {
		if len(ix.ResolveModule(d)) > 0 {
			continue // a module path (django.conf.urls.i18n): its parts are not symbols
		}
		parts := strings.Split(d, ".")
		if len(parts) >= 2 {
			add(strings.Join(parts[len(parts)-2:], "."))
		}
		add(parts[len(parts)-1])
	}
	for _, c := range t.CodeSpans {
		add(c)
	}
	return out
}

func isIdentLike(s string) bool {
	if len(s) < 3 || len(s) > 80 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func frameName(f task.Frame) string {
	switch {
	case f.Func != "" && f.File == "":
		return f.Func
	case f.Func != "":
		return f.Func + " (" + path.Base(f.File) + ")"
	}
	return f.File
}

func baseNames(ix *index.Index) map[string][]index.ID {
	m := make(map[string][]index.ID, ix.Len())
	for i := 0; i < ix.Len(); i++ {
		id := index.ID(i)
		f := ix.File(id)
		if f == nil {
			continue
		}
		b := path.Base(f.Path)
		m[b] = append(m[b], id)
	}
	return m
}

// matchSuffix returns the files whose path shares the longest trailing run of
// segments with p. A bare file name matches only when it is unique in the
// repository or carries a directory; the best-matching files win.
func matchSuffix(ix *index.Index, byBase map[string][]index.ID, p string) []index.ID {
	p = strings.ReplaceAll(strings.TrimSpace(p), "\\", "/")
	p = strings.TrimPrefix(p, "./")
	if p == "" {
		return nil
	}
	if id, ok := ix.Lookup(p); ok {
		return []index.ID{id}
	}
	segs := strings.Split(p, "/")
	cands := byBase[segs[len(segs)-1]]
	if len(cands) == 0 {
		return nil
	}
	best, bestN := []index.ID(nil), 0
	for _, id := range cands {
		fs := strings.Split(ix.File(id).Path, "/")
		n := 0
		for n < len(fs) && n < len(segs) && fs[len(fs)-1-n] == segs[len(segs)-1-n] {
			n++
		}
		switch {
		case n > bestN:
			best, bestN = []index.ID{id}, n
		case n == bestN:
			best = append(best, id)
		}
	}
	if bestN == 1 && len(segs) == 1 && len(best) > 1 {
		return nil // a bare, ambiguous file name
	}
	if len(best) > MaxDefiners {
		return nil
	}
	return best
}

// NearestFrame returns the index of the frame nearest the error among those
// that resolved to a repository file (anchors): Python and Rust print it
// last, Go, Java and JavaScript first. Frames of other code (the standard
// library, dependencies) do not count: when a trace ends in reflect or numpy,
// the repository's frame closest to that point is where to look. It returns
// -1 when no frame resolved.
func NearestFrame(t *task.Task, anchors Set) int {
	if len(t.Frames) == 0 {
		return -1
	}
	// The trace's language is its first frame with a source file's extension
	// (Python's first frame can be "<stdin>" or "<ipython-input-1>").
	last := false
	for _, f := range t.Frames {
		ext := path.Ext(f.File)
		if ext == "" || strings.ContainsAny(ext, "<>") {
			continue
		}
		last = ext == ".py" || ext == ".rs" || ext == ".rb"
		break
	}
	best := -1
	for _, as := range anchors.ByFile {
		for _, a := range as {
			if a.Kind != KindFrame {
				continue
			}
			if best < 0 || last && a.Order > best || !last && a.Order < best {
				best = a.Order
			}
		}
	}
	return best
}
