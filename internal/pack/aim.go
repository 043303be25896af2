package pack

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/internal/tokenize"
)

// # Aiming at the edit
//
// A file too large to show whole is cut into units: the head (imports and
// module docstring, before the first definition), each function or method
// whole (its decorators and the comment block above it included), and the
// header of each class-like definition (its signature, docstring and
// attributes, up to its first member). A nested function belongs to the
// function around it.
//
// Each unit is scored by what the task says about it (Evidence):
//
//	named   the task names the definition (or Class.method):     namedValue
//	member  the task names its class:                            memberValue
//	frame   a stack-trace frame points into it:                  frameValue
//	words   the task's keywords it holds, each once, by weight,
//	        times the keyword's rarity among the file's units
//	        (a word every unit says, self or value, says little)
//
// and the words' part is divided by the square root of the unit's length
// in units of unitLines, past that length: a long function says more words
// by its length alone. A definition the task names with its class
// (DecimalField.to_python) also gets the file's best words' part, so that
// it leads the file however many words its siblings hold: in a file of
// forty to_python methods the words alone cannot pick the one the task
// means. A class-like definition the task names is shown whole, not just
// its header: the task is about the class, and the edit is often a member
// to add or change in it (a unit too large for the budget's share is cut to
// its signature and matching lines, as any unit). The pack shows a file's
// units best first.

// Evidence is what a task says about where its change goes, for one file.
type Evidence struct {
	// Terms are the task's keywords and their weights, as index terms.
	Terms map[string]float64
	// Symbols are the names the task gives, lower-cased: identifiers and the
	// parts of dotted names ("queryset", "filter", "queryset.filter").
	Symbols map[string]bool
	// Lines are the lines of this file that stack-trace frames point at;
	// Nearest the one nearest the error (0: none).
	Lines   []int
	Nearest int
}

// Unit weights.
const (
	// namedValue: the task names the definition; that is where it points.
	namedValue = 6.0
	// memberValue: the task names the definition's class: a method of the
	// class the issue is about.
	memberValue = 1.0
	// frameValue: a trace frame runs through the unit; nearestValue more for
	// the frame nearest the error.
	frameValue   = 3.0
	nearestValue = 2.0
	// unitLines: units longer than this pay for their length in the words'
	// part (by the square root of the excess factor).
	unitLines = 30
	// minPlainName: a one-word lower-case name this long (formfield,
	// deconstruct) is specific enough to be named without its class.
	minPlainName = 7
)

// unit is a run of lines a pack shows together.
type unit struct {
	from, to int     // 1-based, inclusive
	def      int     // index into the file's defs; -1 for the head
	parent   int     // index of the enclosing class-like definition, -1 if none
	score    float64 // what the task says about it
	named    bool
}

// classLike kinds hold members; their own unit is their header.
var classLike = map[string]bool{"class": true, "interface": true, "impl": true, "module": true, "type": true}

// units cuts f into units (see Aiming at the edit). Definitions without a
// known end run to the line before the next definition.
func (f *file) units() []unit {
	n := len(f.lines)
	if n == 0 {
		return nil
	}
	defs := f.defs
	end := func(i int) int {
		d := defs[i]
		if d.End >= d.Line {
			return min(d.End, n)
		}
		for j := i + 1; j < len(defs); j++ {
			if defs[j].Line > d.Line {
				return defs[j].Line - 1
			}
		}
		return n
	}
	var out []unit
	if len(defs) == 0 {
		return []unit{{from: 1, to: n, def: -1, parent: -1}}
	}
	first := f.lead(defs[0].Line)
	if first > 1 {
		out = append(out, unit{from: 1, to: first - 1, def: -1, parent: -1})
	}
	// Stack of open class-like definitions: (index, end line).
	type open struct{ i, end int }
	var stack []open
	covered := 0 // last line of the function unit being inside
	for i, d := range defs {
		e := end(i)
		for len(stack) > 0 && stack[len(stack)-1].end < d.Line {
			stack = stack[:len(stack)-1]
		}
		if d.Line <= covered {
			continue // nested in a function: part of it
		}
		parent := -1
		if len(stack) > 0 {
			parent = stack[len(stack)-1].i
		}
		from := f.lead(d.Line)
		if classLike[d.Kind] && f.hasMember(i, e) {
			// The header: up to the first member.
			to := e
			for j := i + 1; j < len(defs) && defs[j].Line <= e; j++ {
				if defs[j].Line > d.Line {
					to = f.lead(defs[j].Line) - 1
					break
				}
			}
			out = append(out, unit{from: from, to: max(from, to), def: i, parent: parent})
			stack = append(stack, open{i, e})
			continue
		}
		out = append(out, unit{from: from, to: max(from, e), def: i, parent: parent})
		covered = e
	}
	return f.fillGaps(out)
}

// fillGaps makes the units cover the file: a run of lines no unit holds
// (module-level statements between definitions, class attributes after the
// methods, the code after the last definition) becomes a unit of its own,
// in its class when it lies in one; a run of blank lines joins the unit
// before it, so that an insertion after a definition is shown with it.
func (f *file) fillGaps(us []unit) []unit {
	n := len(f.lines)
	held := make([]bool, n+2)
	for _, u := range us {
		for l := u.from; l <= u.to && l <= n; l++ {
			held[l] = true
		}
	}
	slices.SortStableFunc(us, func(a, b unit) int { return cmp.Compare(a.from, b.from) })
	var out []unit
	k := 0 // next unit of us to emit
	for l := 1; l <= n; {
		if held[l] {
			for k < len(us) && us[k].from <= l {
				out = append(out, us[k])
				k++
			}
			l++
			continue
		}
		end := l
		for end+1 <= n && !held[end+1] {
			end++
		}
		// Leading blank lines join the unit before.
		for l < end && strings.TrimSpace(f.lines[l-1]) == "" && len(out) > 0 && out[len(out)-1].to == l-1 {
			out[len(out)-1].to = l
			l++
		}
		blank := true
		for m := l; m <= end; m++ {
			if strings.TrimSpace(f.lines[m-1]) != "" {
				blank = false
				break
			}
		}
		switch {
		case blank && len(out) > 0 && out[len(out)-1].to == l-1:
			out[len(out)-1].to = end
		case !blank:
			out = append(out, unit{from: l, to: end, def: -1, parent: f.classAround(l)})
		}
		l = end + 1
	}
	return append(out, us[k:]...)
}

// classAround returns the index of the innermost class-like definition
// whose lines hold line l, or -1.
func (f *file) classAround(l int) int {
	best := -1
	for i, d := range f.defs {
		if classLike[d.Kind] && d.Line <= l && d.End >= l && (best < 0 || d.Line >= f.defs[best].Line) {
			best = i
		}
	}
	return best
}

// hasMember reports whether a definition starts inside defs[i]'s lines
// after its first.
func (f *file) hasMember(i, end int) bool {
	for j := i + 1; j < len(f.defs) && f.defs[j].Line <= end; j++ {
		if f.defs[j].Line > f.defs[i].Line {
			return true
		}
	}
	return false
}

// lead returns the first line of the block that introduces the definition
// at line: the decorators and comment lines directly above it.
func (f *file) lead(line int) int {
	l := line
	for l > 1 {
		t := strings.TrimSpace(f.lines[l-2])
		if t == "" || !isLeadLine(t) {
			break
		}
		l--
	}
	return l
}

// isLeadLine reports whether a trimmed line belongs above a definition: a
// decorator, attribute or annotation, or a comment.
func isLeadLine(t string) bool {
	for _, p := range []string{"@", "#[", "//", "/*", "*", "#", "///", "[", "--"} {
		if strings.HasPrefix(t, p) {
			return !strings.HasPrefix(t, "#include") && !strings.HasPrefix(t, "#define") && !strings.HasPrefix(t, "#if")
		}
	}
	return false
}

// score sets each unit's score from ev and returns the units best first
// (ties in file order). The task's words are found through the file's hits
// (newFile matched them once), so f must have been built with ev's terms.
func (f *file) score(us []unit, ev Evidence) []unit {
	// The weight of each of f's terms: the heaviest task keyword it is.
	weight := make([]float64, len(f.terms))
	for k, w := range ev.Terms {
		for _, t := range normTerms([]string{k}) {
			if i := slices.Index(f.terms, t); i >= 0 {
				weight[i] = math.Max(weight[i], w)
			}
		}
	}
	// Each term's rarity among the units: log(1 + units / units holding it).
	termsOf := make([][]int, len(us))
	df := make([]int, len(f.terms))
	seen := make([]int, len(f.terms)) // last unit (+1) that counted the term
	for i, u := range us {
		for l := u.from; l <= u.to; l++ {
			for _, t := range f.hits[l-1] {
				if seen[t] != i+1 && weight[t] > 0 {
					seen[t] = i + 1
					termsOf[i] = append(termsOf[i], t)
					df[t]++
				}
			}
		}
	}
	words := make([]float64, len(us))
	best := 0.0
	for i, u := range us {
		for _, t := range termsOf[i] {
			words[i] += weight[t] * math.Log(1+float64(len(us))/float64(df[t]))
		}
		if lines := u.to - u.from + 1; lines > unitLines {
			words[i] /= math.Sqrt(float64(lines) / float64(unitLines))
		}
		best = max(best, words[i])
	}
	for i := range us {
		u := &us[i]
		s := words[i]
		if u.def >= 0 {
			d := f.defs[u.def]
			if named(d, ev.Symbols) {
				s += namedValue
				u.named = true
				if namedWithClass(d, ev.Symbols) {
					s += best
				}
				if classLike[d.Kind] && d.End > u.to {
					u.to = min(d.End, len(f.lines)) // the class whole
				}
			} else if d.Parent != "" && ev.Symbols[strings.ToLower(d.Parent)] {
				s += memberValue
			}
		}
		for _, l := range ev.Lines {
			if l >= u.from && l <= u.to {
				s += frameValue
				if l == ev.Nearest {
					s += nearestValue
				}
			}
		}
		u.score = s
	}
	out := append([]unit(nil), us...)
	slices.SortStableFunc(out, func(a, b unit) int { return cmp.Compare(b.score, a.score) })
	return out
}

// namedWithClass reports whether the task names d as Parent.Name.
func namedWithClass(d syntax.Tag, symbols map[string]bool) bool {
	return d.Parent != "" && symbols[strings.ToLower(d.Parent)+"."+strings.ToLower(d.Name)]
}

// named reports whether the task names definition d: its name, or
// Parent.Name.
func named(d syntax.Tag, symbols map[string]bool) bool {
	if len(symbols) == 0 {
		return false
	}
	if namedWithClass(d, symbols) {
		return true
	}
	n := strings.ToLower(d.Name)
	// A short or common name (get, save, run) is named only with its class.
	if len(n) < 4 || (len(n) < minPlainName && len(tokenize.Split(d.Name)) < 2 && !(d.Name[0] >= 'A' && d.Name[0] <= 'Z')) {
		return false
	}
	return symbols[n]
}
