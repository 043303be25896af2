package hone

import (
	"sync"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/pack"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/terms"
)

// taskAim is what a task says about where its change goes, for the pack and
// for the excerpts a judge reads (Repo.View with ViewOptions.Task): the
// task's keywords at their weights with the short forms the repository uses
// for them, the names it gives, and per file the lines its stack-trace
// frames point at. The pack and a judge's excerpt of one file thus show the
// same part of it first.
type taskAim struct {
	words   []string // the keywords and short forms, in order, once each
	terms   map[string]float64
	symbols map[string]bool
	task    *task.Task
	anchors anchor.Set
	nearest int
}

// newTaskAim reads text's aim in ix; parsed, when not nil, is the task as
// a retrieval over ix parsed it (with its anchors), to be reused.
func newTaskAim(ix *index.Index, text string, parsed *parsedTask) *taskAim {
	a := &taskAim{}
	if parsed != nil {
		a.task, a.anchors = parsed.task, parsed.anchors
	} else {
		t := task.Parse(text)
		a.task, a.anchors = &t, anchor.Find(ix, &t)
	}
	t := a.task
	a.nearest = anchor.NearestFrame(t, a.anchors)
	// A key word's short forms (tmp for "temporary") are the same word.
	variants := terms.Variants(ix, t, terms.Key(ix, t), map[string]bool{})
	a.terms = map[string]float64{}
	for _, k := range t.Keywords {
		if _, ok := a.terms[k.Text]; !ok {
			a.words = append(a.words, k.Text)
		}
		a.terms[k.Text] = max(a.terms[k.Text], k.Weight)
	}
	for _, v := range variants {
		if _, ok := a.terms[v.Term]; !ok && v.Short {
			a.words = append(a.words, v.Term)
			a.terms[v.Term] = v.Weight
		}
	}
	a.symbols = taskSymbols(t)
	return a
}

// of returns the aim at file id (-1: a file the index does not hold; no
// frame lines). The maps are shared: callers only read them.
func (a *taskAim) of(id index.ID) pack.Evidence {
	ev := pack.Evidence{Terms: a.terms, Symbols: a.symbols}
	if id < 0 {
		return ev
	}
	for _, an := range a.anchors.ByFile[id] {
		if an.Kind != anchor.KindFrame || an.Order < 0 || an.Order >= len(a.task.Frames) {
			continue
		}
		l := a.task.Frames[an.Order].Line
		ev.Lines = append(ev.Lines, l)
		if an.Order == a.nearest {
			ev.Nearest = l
		}
	}
	return ev
}

// viewAims keeps the aim of the task a Repo's views were last asked for
// (ViewOptions.Task): a judge's page is a dozen views of one task.
type viewAims struct {
	mu   sync.Mutex
	ix   *index.Index
	text string
	aim  *taskAim
}

// get returns text's aim in ix, reading it once per task and index.
func (v *viewAims) get(ix *index.Index, text string) *taskAim {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.aim == nil || v.ix != ix || v.text != text {
		v.ix, v.text, v.aim = ix, text, newTaskAim(ix, text, nil)
	}
	return v.aim
}
