package search

import (
	"fmt"

	"github.com/bmatcuk/doublestar/v4"
)

// MaxAlternatives is the most brace alternatives one glob may expand to.
// doublestar matches a brace-free glob in time linear in the path, but it
// tries every combination of a glob's {a,b} groups on every path, and the
// combinations multiply: eighteen groups {*,*} take 0.14 s on one path of 18
// bytes, and each more doubles it, so a query's patterns could stall a
// search for hours. Real globs hold a few ({src,lib}/**/*.{js,ts} is four).
const MaxAlternatives = 64

// glob is a compiled pattern: the brace-free globs its braces expand to,
// one of which a path must match. This is brace expansion as a shell does
// it; doublestar's own brace matching agrees but for one case, where the
// path ends before a brace group and it misses a match (x/{**/,} does not
// match x there, though x/**/ does): such a path matches here.
type glob []string

// compileGlob validates a doublestar pattern and expands its braces.
func compileGlob(p string) (glob, error) {
	if !doublestar.ValidatePattern(p) {
		return nil, fmt.Errorf("search: bad glob %q", p)
	}
	s, _ := parseAlts(p, 0, false)
	if count(s) > MaxAlternatives {
		return nil, fmt.Errorf("search: glob %q expands to more than %d brace alternatives", p, MaxAlternatives)
	}
	seen := map[string]bool{}
	var g glob
	for _, e := range expand(s) {
		if !seen[e] {
			seen[e] = true
			g = append(g, e)
		}
	}
	return g, nil
}

// compileGlobs compiles each pattern.
func compileGlobs(ps []string) ([]glob, error) {
	gs := make([]glob, len(ps))
	for i, p := range ps {
		g, err := compileGlob(p)
		if err != nil {
			return nil, err
		}
		gs[i] = g
	}
	return gs, nil
}

// match reports whether path matches the glob.
func (g glob) match(path string) bool {
	for _, e := range g {
		if doublestar.MatchUnvalidated(e, path) {
			return true
		}
	}
	return false
}

// seq is a glob as a concatenation of literal text (kept with its escapes
// and character classes, which doublestar reads) and brace groups.
type seq []part

// part is literal glob text, or a group of alternatives when alts is set.
type part struct {
	text string
	alts []seq
}

// parseAlts parses the valid pattern p from i to its end or, inGroup, to
// the "," or "}" that ends the current alternative, returning the index of
// that byte. It reads braces as doublestar does: "\" escapes a byte, and a
// "," or "}" inside a character class is a member of the class.
func parseAlts(p string, i int, inGroup bool) (seq, int) {
	var s seq
	start := i
	flush := func() {
		if i > start {
			s = append(s, part{text: p[start:i]})
		}
	}
	for i < len(p) {
		switch p[i] {
		case '\\':
			i += 2
		case '[':
			// A class runs to the next unescaped "]" (a valid one is never
			// empty, so that "]" is not its first member).
			for i++; i < len(p) && p[i] != ']'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
			i++
		case '{':
			flush()
			var g part
			for {
				alt, end := parseAlts(p, i+1, true)
				g.alts = append(g.alts, alt)
				i = end
				if i >= len(p) || p[i] == '}' {
					break
				}
			}
			s = append(s, g)
			i++
			start = i
		case ',', '}':
			if inGroup {
				flush()
				return s, i
			}
			i++
		default:
			i++
		}
	}
	i = min(i, len(p))
	flush()
	return s, i
}

// count returns how many brace-free globs s expands to, or more than
// MaxAlternatives when it is larger.
func count(s seq) int {
	n := 1
	for _, pt := range s {
		if pt.alts == nil {
			continue
		}
		sum := 0
		for _, a := range pt.alts {
			sum = min(sum+count(a), MaxAlternatives+1)
		}
		n = min(n*sum, MaxAlternatives+1)
	}
	return n
}

// expand returns the brace-free globs s stands for, at most MaxAlternatives
// when count(s) allows it.
func expand(s seq) []string {
	out := []string{""}
	for _, pt := range s {
		if pt.alts == nil {
			for i := range out {
				out[i] += pt.text
			}
			continue
		}
		var alts []string
		for _, a := range pt.alts {
			alts = append(alts, expand(a)...)
		}
		next := make([]string, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+a)
			}
		}
		out = next
	}
	return out
}
