package local

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/history"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/internal/tokenize"
)

// Support: the selection is the context a subagent works from, so it holds
// the target and what the change must read with it, not the target alone.
// Competition keeps every runner-up in the related band, which orders the
// ranking well but would leave the selection at about one file. So after
// competition, up to MaxSupport files one hop from the target in the code
// graph, that the task supports by itself, are lifted into the selection:
//
//   - one hop: the target (the strongest file of the first cycle) uses a
//     specific name the file defines (the definitions it calls), the file
//     uses a specific name the target defines (a caller that wires it), one
//     imports the other, or the target's past commits changed the file with
//     it in at least CoChangeSupport of them;
//   - or it names another part of the task: its path or a specific name
//     it defines says a key word of the task that the target's do not
//     (the task "Add pagination to the Students index page" names the
//     pagination helper, the target, and the students index view and
//     controller, which it does not link to yet);
//   - supported: the file's own relevance, before competition, is at least
//     SupportFloor (it shares the task's words or anchors; a helper the
//     task never touches stays out).
//
// Linked files come first, then those naming more of what the target does
// not name.
// The strongest such files by their own relevance are taken, first come
// first served across cycles (the target is fixed after the first), and
// scored SupportBase plus SupportSpan of how far their relevance is above
// the floor, below the target's. On the development set this took the
// share of the gold files selected from 64 % (1.8 files) to about 80 %
// (3.5 files); of the files it lifts about a quarter are files the fix
// changed or that the fixed code uses directly.
const (
	// MaxSupport bounds the files lifted into the selection.
	MaxSupport = 2
	// SupportFloor is the least relevance, before competition, of a file
	// lifted: the task must speak for it too.
	SupportFloor = 0.45
	// SupportBase and SupportSpan place a lifted file in [SupportBase,
	// SupportBase+SupportSpan]: selected, below the target's band.
	SupportBase = 0.7
	SupportSpan = 0.09
	// CoChangeSupport: a file the target changed with in at least this
	// share of the target's past commits is one hop from it.
	CoChangeSupport = 0.25
)

// link says how file id is one hop from the target, or "" when it is not.
func (e *Evaluator) link(target, id index.ID) string {
	if target == id {
		return ""
	}
	tf, f := e.ix.File(target), e.ix.File(id)
	tname := path.Base(tf.Path)
	if n := e.firstUse(tf.Refs, f.Defs); n != "" {
		return fmt.Sprintf("defines %s, which %s uses", n, tname)
	}
	if n := e.firstUse(f.Refs, tf.Defs); n != "" {
		return fmt.Sprintf("uses %s from %s", n, tname)
	}
	for _, x := range e.ix.Imports(target) {
		if x == id {
			return "imported by " + tname
		}
	}
	for _, x := range e.ix.Imports(id) {
		if x == target {
			return "imports " + tname
		}
	}
	if pt, ok := e.partner(target, f.Path); ok && pt.Share() >= CoChangeSupport {
		return fmt.Sprintf("changed with %s in %d of its %d past commits", tname, pt.Together, pt.Of)
	}
	return ""
}

// namesList returns the task's key words that file id names, in path then
// definition order: words of its path (its directories and file name) and
// of the specific names it defines; a synonym the cycle's query holds names
// the words it stands for (throttle.ts names "rate limiting").
func (e *Evaluator) namesList(id index.ID, stands map[string][]string) []string {
	var out []string
	seen := map[string]bool{}
	word := func(w string) {
		if e.keyTerms[w] && !seen[w] && len(w) >= 3 && !strings.ContainsAny(w, "._-") {
			seen[w] = true
			out = append(out, w)
		}
	}
	add := func(t string) {
		if w := e.taskTerm(t); w != "" {
			word(w)
		}
		for _, phrase := range stands[synonymKey+t] {
			for _, f := range strings.Fields(phrase) {
				if w := e.taskTerm(f); w != "" {
					word(w)
				}
			}
		}
	}
	f := e.ix.File(id)
	p := strings.TrimSuffix(f.Path, path.Ext(f.Path))
	for _, comp := range strings.Split(p, "/") {
		for _, t := range nameTerms(comp) {
			add(t)
		}
	}
	for _, d := range f.Defs {
		if e.specific(d.Name) {
			tokenize.Identifier(d.Name, add)
		}
	}
	return out
}

// names is namesList as a set.
func (e *Evaluator) names(id index.ID, stands map[string][]string) map[string]bool {
	m := map[string]bool{}
	for _, w := range e.namesList(id, stands) {
		m[w] = true
	}
	return m
}

// firstUse returns the first of refs that names a specific definition of
// defs, or "".
func (e *Evaluator) firstUse(refs, defs []syntax.Tag) string {
	specific := map[string]bool{}
	for _, d := range defs {
		if e.specific(d.Name) {
			specific[d.Name] = true
		}
	}
	for _, r := range refs {
		if specific[r.Name] {
			return r.Name
		}
	}
	return ""
}

// support lifts up to MaxSupport of js (judged and competed) into the
// selection (see Support). Called with e.mu not held.
func (e *Evaluator) support(js []*judged, stands map[string][]string) {
	if e.opts.NoSupport {
		return
	}
	e.mu.Lock()
	leader, lead := e.leader, e.scores[e.leader].score
	chosen := len(e.supporters)
	e.mu.Unlock()
	target, ok := e.ix.Lookup(leader)
	if !ok || lead < e.opts.Threshold {
		return // no target yet: nothing to support
	}
	type cand struct {
		j     *judged
		why   string
		named int // key words it names that the target does not; 0 when linked
	}
	var cs []cand
	targetNames := e.names(target, stands)
	for _, j := range js {
		e.mu.Lock()
		why, was := e.supporters[j.cand.Path]
		e.mu.Unlock()
		if was {
			cs = append(cs, cand{j: j, why: why}) // lifted before: stays lifted
			continue
		}
		if j.score >= e.opts.Threshold || j.plain < SupportFloor || j.id == target {
			continue
		}
		if why := e.link(target, j.id); why != "" {
			cs = append(cs, cand{j: j, why: why})
			continue
		}
		var more []string
		for _, w := range e.namesList(j.id, stands) {
			if !targetNames[w] {
				more = append(more, w)
			}
		}
		if len(more) > 0 {
			cs = append(cs, cand{j: j, why: fmt.Sprintf("names %q, which %s does not", strings.Join(more, " "), path.Base(leader)), named: len(more)})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if (cs[a].named == 0) != (cs[b].named == 0) {
			return cs[a].named == 0 // linked first
		}
		if cs[a].named != cs[b].named {
			return cs[a].named > cs[b].named // then those naming more of the task
		}
		return cs[a].j.plain > cs[b].j.plain
	})
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range cs {
		if _, was := e.supporters[c.j.cand.Path]; !was {
			if chosen >= MaxSupport {
				continue
			}
			chosen++
			e.supporters[c.j.cand.Path] = c.why
		}
		s := SupportBase + SupportSpan*math.Min(1, (c.j.plain-SupportFloor)/(1-SupportFloor))
		s = round3(math.Min(s, lead-0.001))
		if s > c.j.score {
			c.j.lift = round3(s - c.j.score)
			c.j.liftWhy = c.why
			c.j.score = s
			e.scores[c.j.cand.Path] = plainScore{plain: c.j.plain, score: s}
		}
	}
}

// partner returns how p changed with file peer in the commit history, when
// it is one of peer's MaxPartners most frequent partners.
func (e *Evaluator) partner(peer index.ID, p string) (history.Partner, bool) {
	if e.opts.History == nil {
		return history.Partner{}, false
	}
	pp := e.ix.File(peer).Path
	e.memoMu.Lock()
	ps, ok := e.partners[pp]
	e.memoMu.Unlock()
	if !ok {
		ps = e.opts.History.Partners(pp, MaxPartners)
		e.memoMu.Lock()
		e.partners[pp] = ps
		e.memoMu.Unlock()
	}
	for _, pt := range ps {
		if pt.Path == p {
			return pt, true
		}
	}
	return history.Partner{}, false
}
