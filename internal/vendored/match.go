package vendored

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// A ruleSet matches a string against many regular expressions for about the
// cost of one table look-up per byte. Go's regexp runs each of Linguist's
// unanchored path rules in ~5 µs on a 60-byte path (all of them: ~500 µs), so
// each rule is guarded by the literals that every one of its matches
// contains, found in the top-level concatenation of its syntax tree with
// regexp/syntax: (^|/)jquery([^.]*)\.js$ needs "jquery", and ".js" at the
// end. A scan of the string looks its two-byte windows up in a table of the
// first two bytes of each rule's longest literal; an expression runs only
// where that literal occurs and the rule's other literals are in the string.
// A rule without a literal of two bytes or more is tried on every string.
// An expression is compiled the first time its guard admits a string: most
// rules never run in a given repository, and compiling all of them would
// cost ~1 ms at every start.
//
// A ruleSet is immutable once built and safe for concurrent use.
type ruleSet struct {
	rules  []Rule
	res    []*lazyRegexp
	lits   []guard
	open   []int32        // rules without a key: tried on every string
	heads  [1 << 16]uint8 // by the first two bytes of a key: 1 + its index in groups, or 0
	groups [][]int32      // the rules of each key's first two bytes
}

// guard is what a string must hold for a rule to match it.
type guard struct {
	key    string   // the longest literal, "" when shorter than 2 bytes
	others []string // the rule's other literals
	suffix string   // a literal the string must end with
	end    bool     // the rule ends in $: it never matches a directory
}

func (g *guard) admits(s string) bool {
	if !strings.HasSuffix(s, g.suffix) {
		return false
	}
	for _, o := range g.others {
		if !strings.Contains(s, o) {
			return false
		}
	}
	return true
}

// lazyRegexp is an expression compiled on first use.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp // nil if src does not compile: then it matches nothing
}

func (l *lazyRegexp) MatchString(s string) bool {
	l.once.Do(func() { l.re, _ = regexp.Compile(l.src) })
	return l.re != nil && l.re.MatchString(s)
}

// add adds the rule r, whose expression has the guard g.
func (s *ruleSet) add(r Rule, g guard) {
	i := int32(len(s.rules))
	s.rules = append(s.rules, r)
	s.res = append(s.res, &lazyRegexp{src: r.Pattern})
	s.lits = append(s.lits, g)
	if g.key == "" {
		s.open = append(s.open, i)
		return
	}
	k := uint16(g.key[0])<<8 | uint16(g.key[1])
	switch {
	case s.heads[k] > 0:
		s.groups[s.heads[k]-1] = append(s.groups[s.heads[k]-1], i)
	case len(s.groups) < 255:
		s.groups = append(s.groups, []int32{i})
		s.heads[k] = uint8(len(s.groups))
	default: // the table is full: try the rule on every string
		s.open = append(s.open, i)
	}
}

// match returns the first rule found that matches str. With dir, str is a
// directory's name or path with a "/" appended, and rules ending in $ are
// not tried: only a rule without one matches every path below a directory
// it matches.
func (s *ruleSet) match(str string, dir bool) (Rule, bool) {
	for _, i := range s.open {
		if g := &s.lits[i]; !(dir && g.end) && g.admits(str) && s.res[i].MatchString(str) {
			return s.rules[i], true
		}
	}
	for j := 0; j+1 < len(str); j++ {
		h := s.heads[uint16(str[j])<<8|uint16(str[j+1])]
		if h == 0 {
			continue
		}
		for _, i := range s.groups[h-1] {
			g := &s.lits[i]
			if !(dir && g.end) && strings.HasPrefix(str[j:], g.key) && g.admits(str) && s.res[i].MatchString(str) {
				return s.rules[i], true
			}
		}
	}
	return Rule{}, false
}

// guardOf reads the literals of the top-level concatenation of the
// expression src: every match of src contains each of them, and ends with
// the one just before a final $. An expression that does not parse gets no
// guard: it is tried on every string.
func guardOf(src string) guard {
	g := guard{end: strings.HasSuffix(src, "$")}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return g
	}
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	var lits []string
	for i, s := range subs {
		if s.Op != syntax.OpLiteral || s.Flags&syntax.FoldCase != 0 {
			continue
		}
		l := string(s.Rune)
		lits = append(lits, l)
		if i+2 == len(subs) && subs[i+1].Op == syntax.OpEndText {
			g.suffix = l
		}
	}
	best := -1
	for i, l := range lits {
		if len(l) >= 2 && (best < 0 || len(l) > len(lits[best])) {
			best = i
		}
	}
	for i, l := range lits {
		if i == best {
			g.key = l
		} else if l != g.suffix {
			g.others = append(g.others, l)
		}
	}
	return g
}

// isNameRule reports whether the expression src names a file or a
// directory: after an optional leading (^|/) it has no literal "/" and no
// anchor at the start of the path, so each of its matches that stays within
// one path segment is a match of that segment's name.
func isNameRule(src string) bool {
	for _, p := range []string{`(^|/)`, `(^|\/)`, `(?:^|/)`, `(?:^|\/)`} {
		if rest, ok := strings.CutPrefix(src, p); ok {
			src = rest
			break
		}
	}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return false
	}
	return !hasSlashOrStart(re)
}

func hasSlashOrStart(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.ContainsRune(string(re.Rune), '/')
	case syntax.OpBeginText, syntax.OpBeginLine:
		return true
	}
	for _, s := range re.Sub {
		if hasSlashOrStart(s) {
			return true
		}
	}
	return false
}
