package index

import (
	"path"
	"slices"
	"strings"

	"github.com/hone-dev/hone/internal/syntax"
)

// Import resolution works on two tables built with the index (and stored
// with it) from the paths alone:
//
//   - modKeys: every suffix of every file's extension-less path
//     ("django/db/models/query", "db/models/query", "models/query", "query");
//     a package file (__init__.py, index.js, mod.rs) also stands for its
//     directory.
//   - dirs: every suffix of every directory -> the files directly in it.
//
// Each language family turns an import into candidate paths and picks the
// best: relative imports are exact, absolute ones match by suffix, preferring
// a match rooted where the language would look (a Python module whose top
// package sits in a directory that is not itself a package) and then the
// shortest path.

// pkgStems are file stems that stand for their directory.
var pkgStems = map[string]bool{"__init__": true, "index": true, "mod": true}

func (s *segment) buildModules() {
	var mods, dirs nameTableBuilder
	for i := range s.files {
		id := ID(i)
		p := s.files[i].Path
		stem := stripExt(p)
		addSuffixes(&mods, stem, id)
		if pkgStems[path.Base(stem)] {
			if d := path.Dir(stem); d != "." {
				addSuffixes(&mods, d, id)
			}
		}
		if d := path.Dir(p); d != "." {
			addSuffixes(&dirs, d, id)
		} else {
			dirs.add("", id)
		}
	}
	s.modKeys, s.dirs = mods.table(), dirs.table()
}

// addSuffixes adds id under s and under every suffix of s that starts after a
// slash.
func addSuffixes(m *nameTableBuilder, s string, id ID) {
	for {
		m.add(s, id)
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return
		}
		s = s[i+1:]
	}
}

// stripExt removes the last extension of a path's final segment.
func stripExt(p string) string {
	base := path.Base(p)
	if dot := strings.LastIndexByte(base, '.'); dot > 0 {
		return p[:len(p)-len(base)+dot]
	}
	return p
}

func ext(p string) string {
	base := path.Base(p)
	if dot := strings.LastIndexByte(base, '.'); dot > 0 {
		return base[dot:]
	}
	return ""
}

var (
	pyExts   = []string{".py", ".pyi"}
	jsExts   = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts", ".vue", ".svelte", ".astro"}
	javaExts = []string{".java", ".kt", ".scala", ".groovy"}
)

// ResolveImport maps an import of file from (as syntax reports it) to the
// indexed files it names.
func (ix *Index) ResolveImport(from ID, imp string) []ID {
	f := ix.meta(from)
	if f == nil || imp == "" {
		return nil
	}
	if syntax.IsComponentLang(f.Lang) {
		return ix.resolveJS(f.Path, imp)
	}
	switch f.Lang {
	case "python":
		return ix.resolvePython(f.Path, imp)
	case "javascript", "typescript", "tsx":
		return ix.resolveJS(f.Path, imp)
	case "go":
		return ix.resolveGo(imp)
	case "java":
		return ix.resolveDotted(imp, javaExts, true)
	case "csharp":
		if ids := ix.dirFiles(strings.ReplaceAll(imp, ".", "/"), []string{".cs"}); len(ids) > 0 {
			return ids
		}
		return ix.resolveDotted(imp, []string{".cs"}, false)
	case "rust":
		return ix.resolveRust(f.Path, imp)
	case "c", "cpp":
		return ix.resolveInclude(f.Path, imp)
	default:
		return ix.resolveGeneric(f.Path, imp)
	}
}

// pyModuleAt returns the module file for an extension-less relative path.
func (ix *Index) pyModuleAt(p string) (ID, bool) {
	for _, e := range pyExts {
		if id, ok := ix.byPath[p+e]; ok {
			return id, true
		}
	}
	for _, e := range pyExts {
		if id, ok := ix.byPath[path.Join(p, "__init__"+e)]; ok {
			return id, true
		}
	}
	return 0, false
}

func (ix *Index) resolvePython(from, imp string) []ID {
	if strings.HasPrefix(imp, ".") {
		dots := len(imp) - len(strings.TrimLeft(imp, "."))
		rest := strings.ReplaceAll(imp[dots:], ".", "/")
		dir := path.Dir(from)
		for i := 1; i < dots; i++ {
			dir = path.Dir(dir)
		}
		if id, ok := ix.pyModuleAt(path.Join(dir, rest)); ok {
			return []ID{id}
		}
		if rest != "" {
			// "from .a import name": name lives in a.py or a/__init__.py.
			if id, ok := ix.pyModuleAt(path.Join(dir, path.Dir(rest))); ok {
				return []ID{id}
			}
		}
		return nil
	}
	segs := strings.Split(imp, ".")
	for drop := 0; drop <= 1 && drop < len(segs); drop++ {
		key := strings.Join(segs[:len(segs)-drop], "/")
		if best, ok := ix.bestPython(key); ok {
			return []ID{best}
		}
	}
	return nil
}

// bestPython picks the module file for an absolute module key: its path is
// prefix/key.py or prefix/key/__init__.py where prefix is not itself a package
// (Python looks up absolute imports from path roots), shortest path first.
func (ix *Index) bestPython(key string) (ID, bool) {
	best, found := ID(-1), false
	for _, id := range ix.names(pickModKeys, key) {
		p := ix.Path(id)
		e := ext(p)
		if !slices.Contains(pyExts, e) {
			continue
		}
		var prefix string
		switch {
		case p == key+e:
		case strings.HasSuffix(p, "/"+key+e):
			prefix = strings.TrimSuffix(p, "/"+key+e)
		case p == key+"/__init__"+e:
		case strings.HasSuffix(p, "/"+key+"/__init__"+e):
			prefix = strings.TrimSuffix(p, "/"+key+"/__init__"+e)
		default:
			continue
		}
		if prefix != "" && ix.isPyPackage(prefix) {
			continue
		}
		if !found || len(p) < len(ix.Path(best)) {
			best, found = id, true
		}
	}
	return best, found
}

// isPyPackage reports whether dir holds an __init__.py.
func (ix *Index) isPyPackage(dir string) bool {
	for _, e := range pyExts {
		if _, ok := ix.byPath[dir+"/__init__"+e]; ok {
			return true
		}
	}
	return false
}

func (ix *Index) resolveJS(from, imp string) []ID {
	try := func(base string) []ID {
		if id, ok := ix.byPath[base]; ok && ext(base) != "" {
			return []ID{id}
		}
		for _, e := range jsExts {
			if id, ok := ix.byPath[base+e]; ok {
				return []ID{id}
			}
		}
		for _, e := range jsExts {
			if id, ok := ix.byPath[path.Join(base, "index"+e)]; ok {
				return []ID{id}
			}
		}
		return nil
	}
	if imp == "." || imp == ".." || strings.HasPrefix(imp, "./") || strings.HasPrefix(imp, "../") {
		return try(path.Join(path.Dir(from), imp))
	}
	if strings.HasPrefix(imp, "/") {
		return try(strings.TrimPrefix(imp, "/"))
	}
	// Path aliases ("@/auth", "~/auth", "src/auth") match by suffix; bare
	// package names ("react", "@scope/pkg") are outside the repository.
	alias := false
	for _, p := range []string{"@/", "~/"} {
		if strings.HasPrefix(imp, p) {
			imp, alias = imp[len(p):], true
		}
	}
	if !alias && (!strings.Contains(imp, "/") || strings.HasPrefix(imp, "@")) {
		return nil
	}
	if ids := try(imp); ids != nil {
		return ids
	}
	return ix.bestBySuffix(stripExt(imp), jsExts)
}

// bestBySuffix returns the shortest-path file whose extension-less path is key
// or ends in /key, with one of exts.
func (ix *Index) bestBySuffix(key string, exts []string) []ID {
	best := ID(-1)
	for _, id := range ix.names(pickModKeys, key) {
		p := ix.Path(id)
		if !slices.Contains(exts, ext(p)) {
			continue
		}
		if best < 0 || len(p) < len(ix.Path(best)) {
			best = id
		}
	}
	if best < 0 {
		return nil
	}
	return []ID{best}
}

// dirFiles returns the files with one of exts directly in the directory
// whose path is dir or ends in /dir, choosing the shortest such directory.
func (ix *Index) dirFiles(dir string, exts []string) []ID {
	var out []ID
	bestDir := ""
	for _, id := range ix.names(pickDirs, dir) {
		p := ix.Path(id)
		if !slices.Contains(exts, ext(p)) || strings.HasSuffix(p, "_test.go") {
			continue
		}
		d := path.Dir(p)
		switch {
		case bestDir == "" || len(d) < len(bestDir):
			bestDir, out = d, []ID{id}
		case d == bestDir:
			out = append(out, id)
		}
	}
	return out
}

func (ix *Index) resolveGo(imp string) []ID {
	goExt := []string{".go"}
	if first, _, _ := strings.Cut(imp, "/"); !strings.Contains(first, ".") {
		// Standard library or a module without a host: only an exact directory.
		if ids := ix.dirFiles(imp, goExt); len(ids) > 0 && path.Dir(ix.Path(ids[0])) == imp {
			return ids
		}
		return nil
	}
	// A directory ending in the whole import path (vendored or staged
	// modules), else the longest suffix of the import path that is a
	// directory of the repository (the module root is the repository root).
	if ids := ix.dirFiles(imp, goExt); len(ids) > 0 {
		return ids
	}
	for s := imp; ; {
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return nil
		}
		s = s[i+1:]
		if ids := ix.dirFiles(s, goExt); len(ids) > 0 && path.Dir(ix.Path(ids[0])) == s {
			return ids
		}
	}
}

// resolveDotted resolves com.foo.Bar by path suffix com/foo/Bar.<ext>;
// com.foo.* names every file of the package directory; a trailing member
// (static import) is dropped once.
func (ix *Index) resolveDotted(imp string, exts []string, wildcard bool) []ID {
	imp = strings.TrimPrefix(imp, "static ")
	if wildcard && strings.HasSuffix(imp, ".*") {
		return ix.dirFiles(strings.ReplaceAll(strings.TrimSuffix(imp, ".*"), ".", "/"), exts)
	}
	segs := strings.Split(imp, ".")
	for drop := 0; drop <= 1 && drop < len(segs); drop++ {
		if ids := ix.bestBySuffix(strings.Join(segs[:len(segs)-drop], "/"), exts); ids != nil {
			return ids
		}
	}
	return nil
}

// resolveRust resolves a use path: crate::, self:: and super:: from the
// current crate and module; any other path from the current module, then,
// when it starts with another crate of the workspace (yazi_core::tab::Folder),
// from that crate's src directory, the crate found by its directory
// (yazi-core/src/lib.rs, crates/yazi_core/src/lib.rs); what is left, by path
// suffix.
func (ix *Index) resolveRust(from, imp string) []ID {
	rs := []string{".rs"}
	segs := strings.Split(imp, "::")
	// The directory holding the current module's children.
	self := path.Dir(from)
	if stem := path.Base(stripExt(from)); stem != "mod" && stem != "lib" && stem != "main" {
		self = stripExt(from)
	}
	var base string
	other := false // the path may start with another crate's name
	switch segs[0] {
	case "crate":
		base = path.Dir(from)
		for base != "." {
			if _, ok := ix.byPath[base+"/lib.rs"]; ok {
				break
			}
			if _, ok := ix.byPath[base+"/main.rs"]; ok {
				break
			}
			base = path.Dir(base)
		}
		segs = segs[1:]
	case "self":
		base, segs = self, segs[1:]
	case "super":
		base = self
		for len(segs) > 0 && segs[0] == "super" {
			base, segs = path.Dir(base), segs[1:]
		}
	case "std", "core", "alloc":
		return nil
	default:
		base, other = self, true
	}
	if ids := ix.rustModule(base, segs); ids != nil || len(segs) == 0 {
		return ids
	}
	if other {
		if src, ok := ix.rustCrate(segs[0]); ok {
			if ids := ix.rustModule(src, segs[1:]); ids != nil {
				return ids
			}
		}
	}
	// A path from the crate root, by suffix.
	for n := len(segs); n >= 2; n-- {
		if ids := ix.bestBySuffix(strings.Join(segs[:n], "/"), rs); ids != nil {
			return ids
		}
	}
	return nil
}

// rustModule resolves the module path segs (its last parts may name items
// in a module: the longest prefix that is a file wins) below directory base;
// no segs is base's own lib.rs, main.rs or mod.rs.
func (ix *Index) rustModule(base string, segs []string) []ID {
	for n := len(segs); n >= 1; n-- {
		p := path.Join(append([]string{base}, segs[:n]...)...)
		if id, ok := ix.byPath[p+".rs"]; ok {
			return []ID{id}
		}
		if id, ok := ix.byPath[p+"/mod.rs"]; ok {
			return []ID{id}
		}
	}
	if len(segs) == 0 {
		for _, name := range []string{"/lib.rs", "/main.rs", "/mod.rs"} {
			if id, ok := ix.byPath[base+name]; ok {
				return []ID{id}
			}
		}
	}
	return nil
}

// rustCrate returns the src directory of the workspace crate named name (as
// a use path names it, with underscores): the directory of a src/lib.rs
// whose crate directory is name, or name with hyphens.
func (ix *Index) rustCrate(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	for _, dir := range []string{name, strings.ReplaceAll(name, "_", "-")} {
		// The shortest such path: <dir>/src/lib.rs itself when it is one.
		if ids := ix.bestBySuffix(dir+"/src/lib", []string{".rs"}); ids != nil {
			return path.Dir(ix.Path(ids[0])), true
		}
	}
	return "", false
}

func (ix *Index) resolveInclude(from, imp string) []ID {
	imp = strings.Trim(imp, "<>\"")
	if id, ok := ix.byPath[path.Join(path.Dir(from), imp)]; ok {
		return []ID{id}
	}
	if id, ok := ix.byPath[path.Clean(imp)]; ok {
		return []ID{id}
	}
	best := ID(-1)
	for _, id := range ix.names(pickModKeys, stripExt(imp)) {
		p := ix.Path(id)
		if p != imp && !strings.HasSuffix(p, "/"+imp) {
			continue
		}
		if best < 0 || len(p) < len(ix.Path(best)) {
			best = id
		}
	}
	if best < 0 {
		return nil
	}
	return []ID{best}
}

// resolveGeneric handles Ruby, PHP and other languages: relative to the
// importing file first, then by path suffix among files of the same
// extension.
func (ix *Index) resolveGeneric(from, imp string) []ID {
	e := ext(from)
	if e == "" {
		return nil
	}
	norm := strings.NewReplacer("::", "/", "\\", "/").Replace(strings.TrimPrefix(imp, "\\"))
	if strings.HasPrefix(norm, ".") {
		if id, ok := ix.byPath[path.Join(path.Dir(from), stripExt(norm))+e]; ok {
			return []ID{id}
		}
		return nil
	}
	if !strings.Contains(norm, "/") {
		norm = strings.ReplaceAll(norm, ".", "/")
	}
	return ix.bestBySuffix(stripExt(norm), []string{e})
}

// resolveGraph resolves the imports of every file into the import graph.
// When prev is an index of the same paths (so of the same file ids), only
// the files that redo names are resolved again and the others keep prev's
// links: a file's links depend on its own language and imports and on the
// paths of the tree, nothing else.
func (ix *Index) resolveGraph(prev *Index, redo map[ID]bool) {
	ix.imports = make([][]ID, ix.Len())
	for i := range ix.imports {
		id := ID(i)
		if prev != nil && !redo[id] {
			ix.imports[i] = prev.imports[i]
			continue
		}
		var out []ID
		for _, imp := range ix.meta(id).Imports {
			for _, to := range ix.ResolveImport(id, imp) {
				if to != id && !slices.Contains(out, to) {
					out = append(out, to)
				}
			}
		}
		slices.Sort(out)
		ix.imports[i] = out
	}
	ix.invertGraph()
}

func (ix *Index) invertGraph() {
	ix.importedBy = make([][]ID, ix.Len())
	for i, imps := range ix.imports {
		for _, id := range imps {
			ix.importedBy[id] = append(ix.importedBy[id], ID(i))
		}
	}
}

// ResolveModule maps a dotted or slashed module path ("django.db.models.query",
// "src/auth/tokens") to indexed files, by path suffix, best first: a file
// whose whole path is the module, then shorter paths. A trailing name that is
// not a module ("django.db.models.QuerySet") is dropped once. A directory
// with no package file stands for the files directly in it.
func (ix *Index) ResolveModule(mod string) []ID {
	mod = strings.TrimSpace(mod)
	if mod == "" {
		return nil
	}
	if id, ok := ix.byPath[strings.TrimPrefix(mod, "./")]; ok {
		return []ID{id}
	}
	key := strings.NewReplacer("::", "/", "\\", "/").Replace(strings.Trim(mod, "./"))
	if !strings.Contains(key, "/") {
		key = strings.ReplaceAll(key, ".", "/")
	} else {
		key = stripExt(key)
	}
	for drop := 0; drop <= 1; drop++ {
		if ids := ix.names(pickModKeys, key); len(ids) > 0 {
			// Each file's rank and path length once, not per comparison.
			type ranked struct {
				id        ID
				rank, len int
			}
			rs := make([]ranked, len(ids))
			for i, id := range ids {
				p := ix.Path(id)
				r, q := 1, stripExt(p)
				if rest, ok := strings.CutPrefix(q, key); ok && (rest == "" || rest == "/__init__" || rest == "/index" || rest == "/mod") {
					r = 0
				}
				rs[i] = ranked{id, r, len(p)}
			}
			slices.SortStableFunc(rs, func(a, b ranked) int {
				if a.rank != b.rank {
					return a.rank - b.rank
				}
				return a.len - b.len
			})
			for i, r := range rs {
				ids[i] = r.id
			}
			return ids
		}
		// A directory without a package file: its files (a Go package).
		if ids := ix.names(pickDirs, key); len(ids) > 0 {
			out := ids
			slices.SortStableFunc(out, func(a, b ID) int { return len(ix.Path(a)) - len(ix.Path(b)) })
			return out
		}
		i := strings.LastIndexByte(key, '/')
		if i < 0 {
			return nil
		}
		key = key[:i]
	}
	return nil
}

// defines reports whether file id defines name (Name, or Parent.Name when
// name is dotted).
func (ix *Index) defines(id ID, name string) bool {
	parent, leaf, dotted := strings.Cut(name, ".")
	for _, t := range ix.File(id).Defs {
		if dotted {
			if t.Name == leaf && t.Parent == parent {
				return true
			}
		} else if t.Name == name {
			return true
		}
	}
	return false
}

// Defining returns the files that define a symbol named name: an exact match
// of the name or of Parent.Name ("QuerySet.filter"). A longer dotted name
// ("django.db.models.QuerySet") is split into a module and a name: when the
// module resolves to files that define the name (or import a file that does,
// one re-export hop), those files win; else the last two parts, then the last
// part, are looked up.
func (ix *Index) Defining(name string) []ID {
	if ids := ix.names(pickDefs, name); len(ids) > 0 {
		return slices.Clone(ids)
	}
	parts := strings.Split(name, ".")
	if len(parts) < 2 {
		return nil
	}
	for i := len(parts) - 1; i >= 1 && len(parts)-i <= 2; i-- {
		rest := strings.Join(parts[i:], ".")
		var out []ID
		for _, m := range ix.ResolveModule(strings.Join(parts[:i], ".")) {
			if ix.defines(m, rest) {
				out = append(out, m)
			}
		}
		if len(out) == 0 {
			for _, m := range ix.ResolveModule(strings.Join(parts[:i], ".")) {
				for _, m2 := range ix.Imports(m) {
					if ix.defines(m2, rest) && !slices.Contains(out, m2) {
						out = append(out, m2)
					}
				}
			}
		}
		if len(out) > 0 {
			slices.Sort(out)
			return out
		}
	}
	if len(parts) > 2 {
		if ids := ix.names(pickDefs, strings.Join(parts[len(parts)-2:], ".")); len(ids) > 0 {
			return slices.Clone(ids)
		}
	}
	return (ix.names(pickDefs, parts[len(parts)-1]))
}

// Referencing returns the files that reference name (calls, types, imports);
// for a dotted name, its last part.
func (ix *Index) Referencing(name string) []ID { return ix.referencing(name) }

// ReferencingCount returns len(Referencing(name)) without copying the list.
func (ix *Index) ReferencingCount(name string) int { return len(ix.referencing(name)) }

// referencing is Referencing's lookup.
func (ix *Index) referencing(name string) []ID {
	if ids := ix.names(pickRefs, name); len(ids) > 0 {
		return ids
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return ix.names(pickRefs, name[i+1:])
	}
	return nil
}
