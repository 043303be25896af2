// Package walk lists the files of a repository that hone indexes, and says why
// it leaves each other file out.
//
// CONTRACT STUB: the implementation replaces the bodies below.
package walk

import (
	"context"
	"errors"
)

// SkipReason says why a file is not indexed.
type SkipReason int

const (
	SkipIgnored    SkipReason = iota + 1 // matched .gitignore, .ignore or .honeignore
	SkipHidden                           // .git, .hg, .svn and other VCS metadata
	SkipBinary                           // NUL bytes or mostly non-text
	SkipHuge                             // larger than Options.MaxFileSize
	SkipGenerated                        // generated code: header marker, lock files, minified bundles
	SkipVendored                         // vendor/, node_modules/, third_party/, site-packages/ ...
	SkipUnreadable                       // permission or I/O error
	SkipSymlink                          // symlink leaving the root, dangling or looping
	SkipEncoding                         // not UTF-8 (or UTF-16 with BOM) text
)

// String names the reason for `hone index --explain`.
func (r SkipReason) String() string { return "" }

// File is one file to index.
type File struct {
	Path    string // repository-relative, forward slashes
	Abs     string // absolute path on disk
	Size    int64
	ModTime int64 // Unix nanoseconds
	Inode   uint64
}

// Skip records a file left out and why.
type Skip struct {
	Path   string
	Reason SkipReason
	Detail string
}

// Options control a walk.
type Options struct {
	MaxFileSize     int64 // skip larger files; 0 means DefaultMaxFileSize
	IncludeVendored bool
}

// DefaultMaxFileSize is the largest file indexed by default.
const DefaultMaxFileSize = 1 << 20

// Walk calls fn for every file to index under root and skip for every file
// left out by path or metadata, in lexical path order. It stops at the first
// error fn returns, or when ctx is done.
func Walk(ctx context.Context, root string, opts Options, fn func(File) error, skip func(Skip)) error {
	return errors.New("walk: not implemented")
}

// Sniff looks at a file's content and reports whether it must be skipped
// (binary, generated, bad encoding). It returns the text to index, which is
// content itself or a UTF-8 transcoding (UTF-16 with BOM).
func Sniff(path string, content []byte) (text []byte, reason SkipReason, detail string, skip bool) {
	return content, 0, "", false
}
