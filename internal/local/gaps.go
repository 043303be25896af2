package local

import (
	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/tokenize"
)

// Missing context: what relevant files use or offer that the loop has not
// found yet ("definition of X", "caller of F"), and when such a gap is
// critical, so that the loop does not stop while the context lacks it.

// gaps lists what file id uses or offers that the loop has not found. A
// definition is a critical gap when the task names it, or when the file is
// relevant (target): the change will read what it calls.
func (e *Evaluator) gaps(id index.ID, known map[string]bool, target bool) ([]string, bool) {
	var out []string
	critical := false
	seen := map[string]bool{}
	unfound := func(ids []index.ID) bool {
		if len(ids) == 0 || len(ids) > anchor.MaxDefiners {
			return false
		}
		for _, d := range ids {
			if d == id || known[e.ix.File(d).Path] {
				return false
			}
		}
		return true
	}
	f := e.ix.File(id)
	for _, r := range f.Refs {
		if len(out) >= MaxGaps {
			break
		}
		if seen[r.Name] {
			continue
		}
		seen[r.Name] = true
		_, named := e.anchors.Symbols[r.Name]
		if !named && !e.sharesTaskTerm(r.Name) {
			continue
		}
		if unfound(e.ix.Defining(r.Name)) {
			out = append(out, "definition of "+r.Name)
			critical = critical || named || target
		}
	}
	for _, d := range f.Defs {
		if len(out) >= MaxGaps {
			break
		}
		if _, named := e.anchors.Symbols[d.Name]; !named || (d.Kind != "function" && d.Kind != "method") {
			continue
		}
		if unfound(e.ix.Referencing(d.Name)) {
			out = append(out, "caller of "+d.Name)
		}
	}
	return out, critical
}

// sharesTaskTerm reports whether a name has a part that is a distinctive task
// keyword (not a stop word, at least 4 letters).
func (e *Evaluator) sharesTaskTerm(name string) bool {
	found := false
	tokenize.Identifier(name, func(t string) {
		if len(t) >= 4 && !tokenize.IsStopWord(t) {
			if _, ok := e.taskTerms[t]; ok {
				found = true
			}
		}
	})
	return found
}
