// Package syntax extracts definitions, references and imports from source
// files with tree-sitter tag queries.
//
// # How
//
// Language picks a grammar by file extension. Extract parses the file with
// that grammar and runs one query per language: the grammar's own tags.scm
// (see queries/README.md; TypeScript and TSX add JavaScript's, as upstream
// does) followed by hone's <lang>.extra.scm. A match with a @name capture and a
// @definition.<kind> capture is a definition; with @reference.<kind>, a
// reference. Kinds are normalised to the small sets documented on Tag
// (C#'s "send" is a "call", an "interface" reference an "implementation";
// PHP property "field" definitions are dropped).
//
// A definition's Parent is the innermost enclosing class, interface, module or
// impl block, found from the byte ranges of the definitions themselves (no
// tree walk); a function directly inside a class-like definition becomes a
// "method", one nested in another function gets no parent. Go methods take
// their receiver's type, C++ out-of-line definitions ("void Foo::bar()")
// their qualifier.
//
// # Imports
//
// @import.<how> captures are normalised per language:
//
//	python   import a.b                -> "a.b"
//	         from a.b import c, d      -> "a.b", "a.b.c", "a.b.d"
//	         from .x import y          -> ".x", ".x.y"
//	         from .. import z          -> "..", "..z"
//	js/ts    import x from "./auth"; require("./auth"); export * from "./auth"  -> "./auth"
//	go       import "github.com/x/y"   -> "github.com/x/y"
//	java     import com.foo.Bar;       -> "com.foo.Bar"
//	rust     use crate::a::{b, c::d};  -> "crate::a::b", "crate::a::c::d"
//	c/c++    #include "foo.h" / <stdio.h> -> "foo.h" / "stdio.h"
//	ruby     require "x" / require_relative "y" -> "x" / "./y"
//	php      use App\Models\User;      -> "App\Models\User"
//	csharp   using System.Text;        -> "System.Text"
//
// The last segment of each import is also a reference of kind "import"
// ("from a.b import c" refers to c).
//
// # Cost and safety
//
// Each grammar's query is compiled once (sync.Once). Parsers and query
// cursors are not thread-safe; each language keeps a bounded free list of
// them (a channel rather than a sync.Pool: they hold C memory that a pool
// would drop without freeing), so Extract is safe for concurrent use. Trees
// are closed after each file. Files over MaxParseSize are not parsed, and a
// parse that runs past ParseTimeout is abandoned; both yield a Result with
// Lang set, no tags and Incomplete saying why. Syntax errors do not stop
// extraction: tree-sitter recovers, and the tags of the recovered tree are
// returned (Incomplete notes the errors).
package syntax

import (
	"path"
	"strings"
)

// Tag is a named definition or reference in a file.
type Tag struct {
	// Name is the identifier as written: "filter", "QuerySet".
	Name string
	// Parent is the enclosing class, type or module when known ("QuerySet" for
	// the method filter), else "".
	Parent string
	// Kind: for definitions "class", "function", "method", "type", "interface",
	// "constant", "module", "macro"; for references "call", "type", "class",
	// "implementation", "import".
	Kind string
	// Line is 1-based.
	Line int
	// End is the last line of a definition's node (1-based; the whole
	// function, class or type, its body included), 0 for references and
	// where unknown.
	End int
}

// Result is what Extract finds in one file.
type Result struct {
	// Lang is the language name ("python", "go", "javascript", "typescript",
	// "tsx", "java", "rust", "c", "cpp", "csharp", "ruby", "php"; "vue",
	// "svelte" and "astro" for single-file components, see sfc.go) or "text".
	Lang string
	Defs []Tag
	Refs []Tag
	// Imports are the modules the file imports, as written but normalised per
	// language (see package doc): "django.db.models", ".utils", "./auth",
	// "github.com/x/y", "com.foo.Bar", "crate::a::b", "foo.h".
	Imports []string
	// Incomplete says why tags may be missing or partial ("syntax errors",
	// "too large to parse", "parse timed out"); "" when the parse was clean.
	Incomplete string
}

// extLang maps lower-case extensions to languages.
var extLang = map[string]string{
	".py": "python", ".pyi": "python",
	".go": "go",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
	".tsx":  "tsx",
	".java": "java",
	".rs":   "rust",
	".c":    "c", ".h": "c",
	".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".h++": "cpp",
	".cs":  "csharp",
	".rb":  "ruby",
	".php": "php",
}

// Language returns the language of a path by its name, or "" when hone has no
// grammar for it (the file is then indexed as plain text).
func Language(p string) string {
	ext := strings.ToLower(path.Ext(p))
	if l, ok := sfcLangs[ext]; ok {
		return l
	}
	return extLang[ext]
}

// Extract parses src as the language of path. Files of no known language get
// Lang "text" and no tags. Safe for concurrent use. The error is non-nil only
// when a query fails to compile (a bug in hone, caught by its tests); a file
// hone cannot parse yields a Result with Incomplete set instead.
func Extract(path string, src []byte) (Result, error) {
	lang := Language(path)
	if lang == "" {
		return Result{Lang: "text"}, nil
	}
	if IsComponentLang(lang) {
		return extractComponent(path, lang, src)
	}
	g := grammars[lang]
	return g.extract(path, src)
}
