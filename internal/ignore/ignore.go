// Package ignore matches paths against the patterns of one ignore file
// (.gitignore and files of its syntax) with git's semantics, in time linear
// in the length of the path for each pattern.
//
// # Reading a file
//
// A file is read as git reads it. A UTF-8 byte-order mark at its start is
// skipped. Lines end at "\n", and one "\r" before it is dropped (CRLF files).
// An empty line, or one whose first byte is "#", holds no pattern ("\#" starts
// a pattern with "#"). A NUL byte ends the line, as it ends a C string.
// Trailing spaces are dropped unless escaped ("a\ " keeps one). Then a
// leading "!" negates the pattern: it re-includes what an earlier pattern
// excluded ("\!" is a literal "!"); and one trailing "/" makes it match
// directories only.
//
// # Matching
//
// Paths are relative to the directory holding the ignore file, with "/"
// between elements. A pattern with no "/" but a trailing one ("*.log",
// "build/") matches the last element of a path at any depth. Any other
// pattern matches the whole path from the file's directory: "doc/*.txt"
// matches doc/a.txt, not x/doc/a.txt nor doc/x/a.txt, and a leading "/" only
// anchors ("/TODO"). Within a pattern:
//
//   - "*" matches any run of bytes but "/", "?" one byte but "/";
//   - "[...]" matches one byte of a set: ranges ("a-z"), negation by a
//     leading "!" or "^", a "]" first in the set as a member, "\" escaping,
//     and the classes [:alnum:] [:alpha:] [:blank:] [:cntrl:] [:digit:]
//     [:graph:] [:lower:] [:print:] [:punct:] [:space:] [:upper:] [:xdigit:]
//     (ASCII, as git's); a set never matches "/";
//   - "\" makes the next byte literal;
//   - "**" between slashes or at an end of the pattern matches any run of
//     bytes, "/" included: "**/x" matches x at any depth, "x/**" everything
//     below x (not x itself), "a/**/b" a/b, a/x/b and a/x/y/b; anywhere else
//     "**" is "*";
//   - a pattern with an unclosed "[", an unknown [:class:] or a trailing
//     "\" matches nothing.
//
// # Limits
//
// Git reads an ignore file of any length up to 100 MiB, but what a file
// costs here grows with it: memory with its bytes (a compiled pattern holds a
// step per byte) and every match with its number of patterns. A file of
// 825,000 lines (50 MB) took 7-17 s and 1.5 GB. So Parse reads at most the
// first MaxSize bytes (4 MiB, cut at a line end) and keeps at most
// MaxPatterns patterns (100,000: far beyond a hand-written file, and a file
// at the limit parses in about 0.1 s and 20 MB); the lines after are
// dropped, and Matcher.Cut says from which line, so the caller can warn.
// Parse looks at its context every parseCheckEvery lines, so a cancelled
// parse returns promptly.
//
// # Precedence
//
// Of the patterns that match a path, the last in the file decides: Match
// returns it, and a negated one means "not ignored". The rules across files
// (deeper files first, nothing re-included below an ignored directory) are
// the caller's, which knows the tree.
//
// Two details follow git's code rather than its manual. The bytes before a
// pattern's first wildcard are compared as a literal prefix and the rest is
// matched on its own, so a "**" right after that prefix counts as starting
// the pattern: "foo**/bar" matches foox/y/bar. And case is significant
// (core.ignoreCase is not read).
//
// # Cost
//
// Git's wildmatch, and fnmatch, backtrack over the choices of each "*";
// fnmatch without git's cut-offs takes time exponential in the number of
// stars ("*a*a*a*a*a*a*a*a*a*a*b" against a name of 40 a's runs for hours).
// Here a pattern is compiled to a sequence of steps (a byte, a set, "*",
// "**") and run as a nondeterministic automaton whose states are positions
// in that sequence: each byte of the path advances every live state at once,
// so one match costs O(steps × len(path)) whatever the pattern. As in git,
// a pattern without wildcards is compared as a string and "*" followed by a
// literal as a suffix, so the common patterns never run the automaton; and
// the steps after a pattern's last "*" ("*.py[cod]": ".py[cod]") must match
// the path's last bytes, which rejects most paths before it runs (on a
// 58,000-file tree this took a fifth of a warm run's user time).
package ignore

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"strings"
)

// Pattern is one pattern of an ignore file. Its fields are read-only.
type Pattern struct {
	Line    int    // 1-based line number in the file
	Text    string // the line as git keeps it: no line end, no unescaped trailing spaces
	Negated bool   // "!pattern": re-includes what an earlier pattern excluded
	DirOnly bool   // "pattern/": matches directories only

	base bool   // matched against the last element of a path, not the whole path
	kind kind   // how it is matched
	lit  string // the literal compared, as kind says
	prog []step // kindGlob: the pattern after lit, compiled
	// tail: kindGlob, the steps after prog's last run ("*", "**"): each
	// reads one byte, so they must match the last len(tail) bytes of a
	// path, which rejects most paths before the automaton runs.
	tail []step
}

// kind is how a pattern is matched.
type kind uint8

const (
	kindNever   kind = iota // matches nothing: malformed or empty
	kindLiteral             // the name (or path) equals lit
	kindSuffix              // "*" and a literal: the name ends with lit
	kindGlob                // the name starts with lit and prog matches the rest
)

// String returns the pattern as written.
func (p *Pattern) String() string { return p.Text }

// Matcher holds the patterns of one ignore file. It is immutable and safe
// for concurrent use.
type Matcher struct {
	patterns []Pattern
	names    bool // every pattern matches base names only
	cut      Cut  // the lines dropped by the limits, if any
}

// The limits of one ignore file (see the package comment).
const (
	// MaxSize is the most bytes of a file Parse reads: a compiled pattern
	// holds a 16-byte step per byte, so this bounds a file's memory to
	// tens of MiB whatever its lines.
	MaxSize = 4 << 20
	// MaxPatterns is the most patterns Parse keeps: every path a walk meets
	// may be tried against each, so this bounds the work of a match.
	MaxPatterns = 100_000
)

// parseCheckEvery is how many lines Parse reads between looks at its
// context: 100,000 patterns parse in about 0.1 s (BenchmarkParseLarge), so
// 4,096 lines take a few milliseconds.
const parseCheckEvery = 4096

// Cut describes the lines of a file Parse dropped for its limits. The zero
// Cut means none.
type Cut struct {
	Line   int    // the first line dropped (1-based); 0 if none
	Reason string // which limit: "more than 100000 patterns" or "larger than 4 MiB"
}

// String describes the cut for a warning: "lines 100001 and after dropped
// (more than 100000 patterns)".
func (c Cut) String() string {
	if c.Line == 0 {
		return "nothing dropped"
	}
	return fmt.Sprintf("lines %d and after dropped (%s)", c.Line, c.Reason)
}

// bom is the UTF-8 byte-order mark git skips at the start of a file.
var bom = []byte("\xef\xbb\xbf")

// Parse reads the patterns of an ignore file, at most MaxPatterns of them
// from its first MaxSize bytes; Matcher.Cut reports what it dropped. A line
// git would keep but could never match (a lone "!", a malformed set) is
// dropped too, silently. The only error is ctx's, which Parse looks at every
// parseCheckEvery lines.
func Parse(ctx context.Context, data []byte) (*Matcher, error) {
	m := &Matcher{names: true}
	if len(data) > MaxSize {
		// Keep whole lines: cut after the last line end within the limit.
		i := bytes.LastIndexByte(data[:MaxSize], '\n')
		data = data[:i+1]
		m.cut = Cut{Line: 1 + bytes.Count(data, []byte("\n")), Reason: fmt.Sprintf("larger than %d MiB", MaxSize>>20)}
	}
	data = bytes.TrimPrefix(data, bom)
	text := string(data) // one copy: every pattern's Text is a part of it
	m.patterns = make([]Pattern, 0, min(MaxPatterns, 1+strings.Count(text, "\n")))
	for n := 1; len(text) > 0; n++ {
		if n%parseCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = strings.TrimSuffix(line, "\r")
		if i := strings.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		p, ok := compile(n, trimTrailingSpaces(line))
		if !ok {
			continue
		}
		if len(m.patterns) == MaxPatterns {
			m.cut = Cut{Line: n, Reason: fmt.Sprintf("more than %d patterns", MaxPatterns)}
			break
		}
		m.patterns = append(m.patterns, p)
		m.names = m.names && p.base
	}
	return m, nil
}

// Cut reports the lines Parse dropped for its limits.
func (m *Matcher) Cut() Cut { return m.cut }

// Len returns the number of patterns that can match.
func (m *Matcher) Len() int { return len(m.patterns) }

// NamesOnly reports whether every pattern matches base names only ("*.pyc",
// "build/"), so that the verdict on a path depends on its last element (and
// whether it is a directory) alone.
func (m *Matcher) NamesOnly() bool { return m.names }

// Match returns the last pattern that matches path, or nil. path is relative
// to the directory holding the file, "/"-separated, without a leading or
// trailing "/"; isDir says whether it names a directory. A non-nil result
// with Negated set means the path is explicitly not ignored.
func (m *Matcher) Match(path string, isDir bool) *Pattern {
	name := path[strings.LastIndexByte(path, '/')+1:]
	for i := len(m.patterns) - 1; i >= 0; i-- {
		p := &m.patterns[i]
		if p.DirOnly && !isDir {
			continue
		}
		s := path
		if p.base {
			s = name
		}
		if p.match(s) {
			return p
		}
	}
	return nil
}

// match matches s, the path or its last element as p.base says.
func (p *Pattern) match(s string) bool {
	switch p.kind {
	case kindLiteral:
		return s == p.lit
	case kindSuffix:
		return strings.HasSuffix(s, p.lit)
	case kindGlob:
		return strings.HasPrefix(s, p.lit) && endsWith(s[len(p.lit):], p.tail, !p.base) && run(p.prog, s[len(p.lit):], !p.base)
	}
	return false
}

// endsWith reports whether the last len(tail) bytes of s match tail's
// one-byte steps, path selecting path semantics as in run.
func endsWith(s string, tail []step, path bool) bool {
	if len(s) < len(tail) {
		return false
	}
	s = s[len(s)-len(tail):]
	for i := range tail {
		c := s[i]
		switch st := &tail[i]; st.op {
		case opByte:
			if c != st.b {
				return false
			}
		case opSet:
			if !st.set.has(c) {
				return false
			}
		case opAny:
			if path && c == '/' {
				return false
			}
		}
	}
	return true
}

// fixedTail returns the steps that end prog after its last run ("*", "**",
// or "**/", whose "/" may be skipped): each reads exactly one byte.
func fixedTail(prog []step) []step {
	i := len(prog)
	for i > 0 {
		if j := i - 1; j >= 2 && prog[j-2].op == opSkip {
			break // the "/" of "**/"
		}
		switch prog[i-1].op {
		case opByte, opSet, opAny:
			i--
			continue
		}
		break
	}
	return prog[i:]
}

// trimTrailingSpaces drops the spaces that end s unless the first of them is
// escaped, as git does; tabs are kept.
func trimTrailingSpaces(s string) string {
	last := -1 // start of the run of spaces ending s, if any
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if last < 0 {
				last = i
			}
		case '\\':
			if i++; i == len(s) {
				return s
			}
			last = -1
		default:
			last = -1
		}
	}
	if last >= 0 {
		return s[:last]
	}
	return s
}

// compile parses one pattern line; ok is false for a pattern that can never
// match.
func compile(line int, text string) (p Pattern, ok bool) {
	p = Pattern{Line: line, Text: text}
	s := text
	if strings.HasPrefix(s, "!") {
		p.Negated, s = true, s[1:]
	}
	if strings.HasSuffix(s, "/") {
		p.DirOnly, s = true, s[:len(s)-1]
	}
	p.base = !strings.Contains(s, "/")
	if !p.base {
		s = strings.TrimPrefix(s, "/") // one leading "/" only anchors
	}
	if s == "" {
		return p, false
	}
	lit := wildcardFree(s)
	switch {
	case lit == len(s):
		p.kind, p.lit = kindLiteral, s
		return p, true
	case p.base && s[0] == '*' && 1+wildcardFree(s[1:]) == len(s):
		p.kind, p.lit = kindSuffix, s[1:]
		return p, true
	case p.base:
		lit = 0 // git matches a base-name glob whole
	}
	prog, ok := compileGlob(s[lit:], !p.base)
	if !ok {
		return p, false
	}
	p.kind, p.lit, p.prog, p.tail = kindGlob, s[:lit], prog, fixedTail(prog)
	return p, true
}

// wildcardFree returns the length of the prefix of s without a wildcard or
// escape ("*", "?", "[", "\").
func wildcardFree(s string) int {
	if i := strings.IndexAny(s, `*?[\`); i >= 0 {
		return i
	}
	return len(s)
}

// op is what one step of a compiled pattern matches.
type op uint8

const (
	opByte op = iota // one byte, equal to step.b
	opAny            // "?": one byte ("/" excepted under path semantics)
	opSet            // "[...]": one byte of step.set
	opStar           // "*": a run of bytes ("/" excepted under path semantics)
	opAll            // "**": a run of any bytes
	opSkip           // before "**/" (opAll, then "/"): reads nothing, and may skip both
)

// step is one element of a compiled pattern.
type step struct {
	op  op
	b   byte
	set *byteSet // opSet
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) remove(c byte)   { s[c>>6] &^= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}

// compileGlob compiles the wildcard part of a pattern. Under path semantics
// ("/" separates elements) "*", "?" and sets never match "/" and "**" is
// special between slashes; otherwise every run of stars matches anything.
// ok is false for a pattern that can never match.
func compileGlob(pat string, path bool) (prog []step, ok bool) {
	prog = make([]step, 0, len(pat)) // a step reads at least a byte of pat ("**/" three for three)
	for i := 0; i < len(pat); {
		switch c := pat[i]; c {
		case '\\':
			if i+1 == len(pat) {
				return nil, false // a trailing "\" matches nothing
			}
			prog = append(prog, step{op: opByte, b: pat[i+1]})
			i += 2
		case '?':
			prog = append(prog, step{op: opAny})
			i++
		case '*':
			j := i
			for j < len(pat) && pat[j] == '*' {
				j++
			}
			switch {
			case !path:
				prog = append(prog, step{op: opAll})
			case j-i >= 2 && (i == 0 || pat[i-1] == '/') && j < len(pat) && pat[j] == '/':
				// "**/" as whole elements: any run of bytes ending in "/",
				// or nothing at all.
				prog = append(prog, step{op: opSkip}, step{op: opAll}, step{op: opByte, b: '/'})
				j++
			case j-i >= 2 && (i == 0 || pat[i-1] == '/') && (j == len(pat) || strings.HasPrefix(pat[j:], `\/`)):
				// "**" at the end, or before an escaped "/" (which git
				// counts as an element's end without letting it be skipped).
				prog = append(prog, step{op: opAll})
			default:
				prog = append(prog, step{op: opStar}) // elsewhere "**" is "*"
			}
			i = j
		case '[':
			set, next, ok := parseSet(pat, i+1)
			if !ok {
				return nil, false
			}
			if path {
				set.remove('/')
			}
			prog = append(prog, step{op: opSet, set: set})
			i = next
		default:
			prog = append(prog, step{op: opByte, b: c})
			i++
		}
	}
	return prog, true
}

// parseSet parses a bracket expression whose "[" precedes pat[i], returning
// the set and the index after its "]"; ok is false when it is malformed (no
// closing "]", an unknown class, a trailing "\").
func parseSet(pat string, i int) (set *byteSet, next int, ok bool) {
	set = new(byteSet)
	negated := i < len(pat) && (pat[i] == '!' || pat[i] == '^')
	if negated {
		i++
	}
	prev := -1 // the last single byte added, which may start a range
	for first := true; ; first = false {
		if i >= len(pat) {
			return nil, 0, false
		}
		c := pat[i]
		switch {
		case c == ']' && !first:
			if negated {
				for w := range set {
					set[w] = ^set[w]
				}
			}
			return set, i + 1, true
		case c == '\\':
			if i++; i == len(pat) {
				return nil, 0, false
			}
			set.add(pat[i])
			prev = int(pat[i])
		case c == '-' && prev >= 0 && i+1 < len(pat) && pat[i+1] != ']':
			i++
			hi := pat[i]
			if hi == '\\' {
				if i++; i == len(pat) {
					return nil, 0, false
				}
				hi = pat[i]
			}
			set.addRange(byte(prev), hi)
			prev = -1
		case c == '[' && i+1 < len(pat) && pat[i+1] == ':':
			start := i + 2
			end := strings.IndexByte(pat[start:], ']')
			if end < 0 {
				return nil, 0, false
			}
			end += start
			if end == start || pat[end-1] != ':' {
				// Not "[:name:]": the "[" is a member and the bytes after it
				// are read as usual.
				set.add('[')
				prev = '['
				break
			}
			if !addClass(set, pat[start:end-1]) {
				return nil, 0, false
			}
			prev = -1
			i = end
		default:
			set.add(c)
			prev = int(c)
		}
		i++
	}
}

// addClass adds the ASCII bytes of a [:name:] class, reporting whether the
// name is known.
func addClass(set *byteSet, name string) bool {
	var in func(c byte) bool
	switch name {
	case "alnum":
		in = func(c byte) bool { return isAlpha(c) || isDigit(c) }
	case "alpha":
		in = isAlpha
	case "blank":
		in = func(c byte) bool { return c == ' ' || c == '\t' }
	case "cntrl":
		in = func(c byte) bool { return c < 0x20 || c == 0x7f }
	case "digit":
		in = isDigit
	case "graph":
		in = func(c byte) bool { return c > 0x20 && c < 0x7f }
	case "lower":
		in = func(c byte) bool { return 'a' <= c && c <= 'z' }
	case "print":
		in = func(c byte) bool { return c >= 0x20 && c < 0x7f }
	case "punct":
		in = func(c byte) bool { return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c) }
	case "space":
		in = func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' } // git's isspace
	case "upper":
		in = func(c byte) bool { return 'A' <= c && c <= 'Z' }
	case "xdigit":
		in = func(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	default:
		return false
	}
	for c := 0; c < 0x80; c++ {
		if in(byte(c)) {
			set.add(byte(c))
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// run reports whether prog matches all of s, simulating the automaton whose
// state i means "prog[:i] has matched the bytes read so far"; state
// len(prog) accepts. path selects path semantics ("/" only matched by "/"
// and "**").
func run(prog []step, s string, path bool) bool {
	words := (len(prog) + 64) / 64 // states 0..len(prog)
	var buf [8]uint64
	var cur, next []uint64
	if 2*words <= len(buf) {
		cur, next = buf[:words], buf[words:2*words]
	} else {
		b := make([]uint64, 2*words)
		cur, next = b[:words], b[words:]
	}
	cur[0] = 1
	closure(prog, cur)
	for i := 0; i < len(s); i++ {
		c := s[i]
		slash := path && c == '/'
		clear(next)
		live := false
		for w, word := range cur {
			for word != 0 {
				q := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if q == len(prog) {
					continue // the accepting state consumes nothing
				}
				st := &prog[q]
				to := -1
				switch st.op {
				case opByte:
					if c == st.b {
						to = q + 1
					}
				case opAny:
					if !slash {
						to = q + 1
					}
				case opSet:
					if st.set.has(c) {
						to = q + 1
					}
				case opStar:
					if !slash {
						to = q
					}
				case opAll:
					to = q
				} // opSkip reads nothing
				if to >= 0 {
					next[to>>6] |= 1 << (to & 63)
					live = true
				}
			}
		}
		if !live {
			return false
		}
		closure(prog, next)
		cur, next = next, cur
	}
	n := len(prog)
	return cur[n>>6]&(1<<(n&63)) != 0
}

// closure adds to states those reached without reading a byte: past a star
// (matching nothing), and from the start of "**/" past its three steps.
// Moves only go forward, so one pass in order suffices.
func closure(prog []step, states []uint64) {
	for q := range prog {
		if states[q>>6]&(1<<(q&63)) == 0 {
			continue
		}
		switch prog[q].op {
		case opStar, opAll:
			states[(q+1)>>6] |= 1 << ((q + 1) & 63)
		case opSkip:
			states[(q+1)>>6] |= 1 << ((q + 1) & 63)
			states[(q+3)>>6] |= 1 << ((q + 3) & 63)
		}
	}
}
