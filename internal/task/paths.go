package task

import (
	"regexp"
	"strconv"
	"strings"
)

// sourceExts are the extensions that make a bare name (no slash) a file:
// query.py, main.go, Cargo.toml. A name with a slash needs any extension.
var sourceExts = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`py pyi pyx pxd go java kt kts scala groovy js jsx mjs cjs ts tsx mts cts vue
		svelte rs c h cc cpp cxx hpp hh hxx cs rb php swift mm dart lua pl pm jl exs erl hrl hs clj cljs elm zig
		nim sh bash zsh ps1 sql proto graphql gql yaml yml toml json ini cfg conf xml html htm css scss sass less
		md rst txt gradle cmake mk lock tf ipynb`) {
		m[e] = true
	}
	return m
}()

// bareFiles are file names without an extension that name files.
var bareFiles = map[string]bool{"Makefile": true, "Dockerfile": true, "Rakefile": true, "Gemfile": true,
	"Jenkinsfile": true, "Vagrantfile": true, "Procfile": true, "CODEOWNERS": true}

// jsProducts are "X.js" names of products, not files.
var jsProducts = map[string]bool{"node": true, "vue": true, "next": true, "nuxt": true, "d3": true, "chart": true,
	"three": true, "express": true, "react": true, "angular": true, "ember": true, "backbone": true, "nest": true}

var (
	// pathTokenRE finds path-like runs in prose, with an optional line suffix.
	// A segment may be a route parameter or group, as web frameworks name
	// them: app/[slug]/page.tsx, pages/[id].tsx, app/(marketing)/about.tsx.
	pathTokenRE  = regexp.MustCompile(`(?:[A-Za-z]:[\\/])?(?:[\w.~\-/\\@+$]|\[[\w.\-]+\]|\([\w.\-]+\)/)*(?:[\w\-~$]|\[[\w.\-]+\])\.[A-Za-z][A-Za-z0-9+]{0,9}(?:(?::\d+)+|#L\d+(?:-L?\d+)?)?\b|\b(?:Makefile|Dockerfile|Rakefile|Gemfile|Jenkinsfile|Vagrantfile|Procfile|CODEOWNERS)\b`)
	lineSuffixRE = regexp.MustCompile(`(?:(?::\d+)+|#L\d+(?:-L?\d+)?)$`)
	extRE        = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+]{0,9}$`)
)

// splitLineSuffix returns a path without its line suffix and the line (0 when none).
func splitLineSuffix(s string) (string, int) {
	loc := lineSuffixRE.FindStringIndex(s)
	if loc == nil {
		return s, 0
	}
	suf := strings.TrimPrefix(strings.TrimPrefix(s[loc[0]:], ":"), "#L")
	if i := strings.IndexAny(suf, ":-"); i >= 0 {
		suf = suf[:i]
	}
	n, _ := strconv.Atoi(suf)
	return s[:loc[0]], n
}

// cleanPath turns backslashes into slashes and trims surrounding punctuation.
func cleanPath(s string) string {
	s = strings.ReplaceAll(s, `\`, "/")
	return strings.TrimRight(strings.TrimLeft(s, `"'(<[`), `"'.,;:)>]`)
}

// looksLikePath reports whether s (without line suffix) names a file: a name
// with a slash and an extension, a bare name with a source extension, or a
// known extension-less file name.
func looksLikePath(s string) bool {
	s = cleanPath(s)
	s, _ = splitLineSuffix(s)
	if s == "" || strings.ContainsAny(s, " \t\"'`<>|*?") || strings.HasPrefix(s, "//") || strings.Contains(s, "://") {
		return false
	}
	base := s[strings.LastIndexByte(s, '/')+1:]
	if bareFiles[base] {
		return true
	}
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || dot == len(base)-1 {
		return false
	}
	stem, ext := base[:dot], base[dot+1:]
	if !extRE.MatchString(ext) || !hasLetter(stem) {
		return false
	}
	if strings.Contains(s, "/") {
		return !strings.Contains(s, "//")
	}
	if !sourceExts[ext] {
		return false
	}
	if ext == "js" && jsProducts[strings.ToLower(stem)] {
		return false
	}
	// A bare dotted word must have a stem that reads as a file name.
	for _, r := range stem {
		if !(r == '_' || r == '-' || r == '.' || r == '+' || r == '@' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127) {
			return false
		}
	}
	return true
}

// prosePaths takes the file paths out of a line of prose and returns the
// line with them blanked. A path with a line suffix is also a Frame.
func (p *parser) prosePaths(line string, f float64) string {
	if !hasExtDot(line) && !strings.Contains(line, "file") && !strings.Contains(line, "CODEOWNERS") {
		return line
	}
	locs := pathTokenRE.FindAllStringIndex(line, -1)
	if locs == nil {
		return line
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		raw := line[loc[0]:loc[1]]
		if loc[1] < len(line) && line[loc[1]] == '(' {
			continue // a call: response.json()
		}
		if loc[0] > 0 && (line[loc[0]-1] == '.' || line[loc[0]-1] == '/') {
			continue // the tail of something longer that did not match as a whole
		}
		if !looksLikePath(raw) {
			continue
		}
		path, n := splitLineSuffix(cleanPath(raw))
		p.path(path, f)
		if n > 0 {
			p.frame(Frame{File: path, Line: n}, f, "")
		}
		b.WriteString(line[last:loc[0]])
		b.WriteByte(' ')
		last = loc[1]
	}
	if last == 0 {
		return line
	}
	b.WriteString(line[last:])
	return b.String()
}

// path records a file path named in prose and adds its terms: the stem at
// PathWeight, the directories at PathDirWeight.
func (p *parser) path(s string, f float64) {
	s, _ = splitLineSuffix(cleanPath(s))
	if s == "" {
		return
	}
	p.paths.add(s, 0)
	p.pathTerms(s, f*PathWeight, f*PathDirWeight, OriginPath)
}

// pathTerms adds the terms of a path: its file stem at stemW, its directory
// names at dirW (zero to skip them).
func (p *parser) pathTerms(s string, stemW, dirW float64, origin string) {
	segs := strings.Split(s, "/")
	base := segs[len(segs)-1]
	if dot := strings.LastIndexByte(base, '.'); dot > 0 {
		base = base[:dot]
	}
	for _, t := range p.termsOf(base) {
		p.add(t, stemW, origin)
	}
	if dirW <= 0 {
		return
	}
	for _, d := range segs[:len(segs)-1] {
		if d == "" || d == "." || d == ".." || d == "~" || strings.HasSuffix(d, ":") {
			continue
		}
		for _, t := range p.termsOf(d) {
			p.add(t, dirW, origin)
		}
	}
}

// hasExtDot reports whether s has a '.' between a word character and a
// letter, as a file name does: a cheap filter before pathTokenRE.
func hasExtDot(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if s[i] != '.' {
			continue
		}
		b, c := s[i-1], s[i+1]
		word := b == '_' || b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
		if word && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return true
		}
	}
	return false
}
