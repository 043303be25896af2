package refine

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/search"
	"github.com/hone-dev/hone/loop"
)

// What a judge that reads code says is worth more than what hone extracts:
// it has read the excerpts. Its terms weigh as the task's words, the files
// that define them become candidates, its requests are looked up first, and
// the neighbours of the files it found related (what they import and what
// imports them) are offered next.
const (
	// JudgeTermWeight weighs a term the judge named (Evaluation.Terms).
	JudgeTermWeight = 1.0
	// maxJudgeTerms bounds the judge's terms taken per cycle.
	maxJudgeTerms = 8
	// RequestWeight weighs a name the judge asked about (Session.Request).
	RequestWeight = 1.0
	// maxNeighbours bounds the code-graph neighbours offered per cycle.
	maxNeighbours = 4
)

// state is what one Refine call has in its query, to add without repeats.
type state struct {
	q        *loop.Query
	ref      *loop.Refinement
	have     map[string]bool // keyword terms
	focus    map[string]bool
	patterns map[string]bool
}

func (st *state) addKeyword(term string, weight float64, origin string) bool {
	if st.have[term] {
		return false
	}
	st.have[term] = true
	st.q.Keywords = append(st.q.Keywords, loop.Keyword{Term: term, Weight: weight, Origin: origin})
	st.ref.AddedKeywords = append(st.ref.AddedKeywords, term)
	return true
}

func (st *state) addFocus(f string) bool {
	if st.focus[f] {
		return false
	}
	st.focus[f] = true
	st.q.FocusAreas = append(st.q.FocusAreas, f)
	st.ref.AddedFocus = append(st.ref.AddedFocus, f)
	return true
}

func (st *state) addPattern(p string) bool {
	if st.patterns[p] {
		return false
	}
	st.patterns[p] = true
	if len(st.q.Patterns) == 0 {
		st.q.Patterns = []string{search.CatchAll}
	}
	st.q.Patterns = append(st.q.Patterns, p)
	st.ref.AddedPatterns = append(st.ref.AddedPatterns, p)
	return true
}

// lookUp adds a name: the files defining it as a focus area when few do
// (the pattern's "learn codebase terminology": the definition of the word
// the code uses), and the name as a keyword (the files that use it).
func (r *Refiner) lookUp(st *state, name string, weight float64, origin string, definition bool) (added []string) {
	if definition {
		if defs := r.ix.Defining(name); len(defs) > 0 && len(defs) <= anchor.MaxDefiners {
			if f := loop.FocusSymbol + name; st.addFocus(f) {
				added = append(added, f)
			}
		}
	}
	t := strings.ToLower(name)
	if IsVocabulary(t) && r.ix.DocFreq(t) > 0 && st.addKeyword(t, weight, origin) {
		added = append(added, t)
	}
	return added
}

// judgeTerms adds the terms the judge named, most often named first.
func (r *Refiner) judgeTerms(st *state, evals []loop.Evaluation) {
	count := map[string]int{}
	var order []string
	for _, e := range evals {
		for _, t := range e.Terms {
			if t = identRe.FindString(t); t == "" {
				continue
			}
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
	var took []string
	for _, t := range order {
		if len(took) >= maxJudgeTerms {
			break
		}
		if added := r.lookUp(st, t, JudgeTermWeight, "judge", true); len(added) > 0 {
			took = append(took, t)
		}
	}
	if len(took) > 0 {
		st.ref.Why = append(st.ref.Why, fmt.Sprintf("search for the judge's terms %s and their definitions", quoteList(took)))
	}
}

// requests turns the judge's asks into look-ups: "definition of X" the files
// defining X, "callers of X" (or "uses of X") the files that mention X,
// "path:GLOB" (or any pattern with a slash or a star) a preferred pattern,
// a bare name both.
func (r *Refiner) requests(st *state, asks []string) {
	for _, a := range asks {
		low := strings.ToLower(a)
		switch {
		case strings.HasPrefix(low, "path:") || (!strings.Contains(a, " ") && strings.ContainsAny(a, "/*")):
			p := a
			if strings.HasPrefix(low, "path:") {
				p = strings.TrimSpace(a[len("path:"):])
			}
			if p != "" && st.addPattern(p) {
				st.ref.Why = append(st.ref.Why, fmt.Sprintf("the judge asked for %s", p))
			}
		default:
			caller := strings.Contains(low, "caller") || strings.Contains(low, "uses of") || strings.Contains(low, "usages")
			var added []string
			for _, name := range identRe.FindAllString(a, -1) {
				if gapWords[strings.ToLower(name)] || strings.EqualFold(name, "uses") {
					continue
				}
				added = append(added, r.lookUp(st, name, RequestWeight, "request", !caller)...)
			}
			if len(added) > 0 {
				st.ref.Why = append(st.ref.Why, fmt.Sprintf("the judge asked for the %s", a))
			}
		}
	}
}

// neighbours offers the code-graph neighbours of the files judged relevant
// (at the threshold or more): what they import and what imports them, not
// judged yet, the files with the most judged neighbours first. Files judged
// only related (0.5 up to the threshold) bring none: with a simulated judge
// that grades the files the fix's code uses 0.6, their neighbours took the
// page slots hone's own ranking would have filled, and every gold file was
// offered less often (BENCHMARKS.md, a judge that uses the middle of the
// scale); they still teach terms when nothing is relevant.
func (r *Refiner) neighbours(st *state, in loop.RefineInput) {
	votes := map[index.ID]float64{}
	var from []string
	for _, e := range in.Evaluations {
		if e.Relevance < r.opts.Threshold {
			continue
		}
		id, ok := r.ix.Lookup(e.Path)
		if !ok {
			continue
		}
		if b := path.Base(e.Path); !slices.Contains(from, b) {
			from = append(from, b)
		}
		for _, n := range r.ix.Imports(id) {
			votes[n] += e.Relevance
		}
		for _, n := range r.ix.ImportedBy(id) {
			votes[n] += e.Relevance
		}
	}
	type cand struct {
		id    index.ID
		score float64
	}
	var cs []cand
	for id, v := range votes {
		p := r.ix.File(id).Path
		if _, judged := in.Judged[p]; judged || !r.teaches(p) {
			continue
		}
		cs = append(cs, cand{id, v})
	}
	sort.Slice(cs, func(a, b int) bool {
		if cs[a].score != cs[b].score {
			return cs[a].score > cs[b].score
		}
		return cs[a].id < cs[b].id
	})
	var added []string
	for _, c := range cs {
		if len(added) >= maxNeighbours {
			break
		}
		p := r.ix.File(c.id).Path
		if st.addFocus(loop.FocusFile + p) {
			added = append(added, p)
		}
	}
	if len(added) > 0 {
		st.ref.Why = append(st.ref.Why, fmt.Sprintf("offer what the related files (%s) import or are imported by: %s",
			strings.Join(from, ", "), strings.Join(added, ", ")))
	}
}
