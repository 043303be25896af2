package local

import (
	"regexp"
	"strings"

	"github.com/hone-dev/hone/internal/index"
)

// # Re-export files
//
// A file that defines nothing (no function, type or constant of its own),
// makes few calls and imports several modules is a barrel: an
// index.ts of `export * from './x'` lines, a Python __init__.py of imports,
// a Rust mod.rs of `pub use`. It names every symbol of its package, so it
// matches any task about the package, and a task rarely changes it: it is
// demoted (BarrelFactor), as documentation is, unless the task is about
// what a package exports ("export the Foo type", "expose bar"). Only a
// parsed file is judged: a file the first answer read lexically has no
// definitions yet, and nothing is known of it.

// BarrelFactor multiplies the relevance of a re-export file.
const BarrelFactor = 0.5

// barrelImports is the fewest imports a re-export file has;
// barrelCallsPer the imports it has per call it makes, at least.
const (
	barrelImports  = 2
	barrelCallsPer = 4
)

// exportsRE finds a task about what a package exports.
var exportsRE = regexp.MustCompile(`(?i)\b(re-?)?export(s|ed|ing)?\b|\bexpos(e|es|ed|ing)\b|\bbarrels?\b|\bentry ?points?\b|\bpublic api\b`)

// barrel reports whether file id only re-exports (see Re-export files).
func (e *Evaluator) barrel(id index.ID) bool {
	if !e.ix.Parsed(id) {
		return false
	}
	f := e.ix.File(id)
	if len(f.Imports) < barrelImports {
		return false
	}
	for _, d := range f.Defs {
		// A module declaration (Rust's `mod x;`) and a dunder (__all__)
		// are a barrel's own; a function, a type or a constant is code.
		if d.Kind != "module" && !strings.HasPrefix(d.Name, "__") {
			return false
		}
	}
	// A call is code that runs: a file of imports and a few calls (a
	// server.ts that builds and starts the app, a main.py) is an entry
	// point, not a list of exports; a package's __init__.py that imports
	// forty names and warns of a deprecated one in a module __getattr__
	// still is one.
	calls := 0
	for _, r := range f.Refs {
		if r.Kind != "import" {
			calls++
		}
	}
	return calls*barrelCallsPer < len(f.Imports)
}
