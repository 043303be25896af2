package hone

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/pack"
	"github.com/hone-dev/hone/loop"
)

// A stepwise session (Start, the MCP tools start and judge, hone bench
// --judge) shows StepCandidates candidates a cycle by default, each with an
// excerpt of about ExcerptTokens tokens, hone's evidence beside it included
// (Excerpts.Of): enough to judge a file's relevance, few enough for an
// agent to judge each with care. A second look shows as much again of what
// the first excerpt did not (Excerpts).
const (
	StepCandidates = 15
	ExcerptTokens  = 300
)

// Excerpts renders the excerpts of one stepwise session: a candidate's
// view (View) the first time it is offered, and for a second look the part
// of the file that first view did not show (ViewAgain), never the same
// lines again. It remembers the words each file was first shown by. Not
// safe for concurrent use.
type Excerpts struct {
	v           Viewer
	showSecrets bool
	task        string
	first       map[string]shown // path -> what its first excerpt was made of
}

// shown is what a file's first excerpt was rendered from: the query's terms
// and its budget.
type shown struct {
	terms  []string
	budget int
}

// Viewer renders excerpts: *Repo is one.
type Viewer interface {
	View(path string, terms []string, opts ViewOptions) (string, error)
	ViewAgain(path string, terms []string, opts ViewOptions) (string, error)
}

// NewExcerpts starts the excerpts of a session on v; showSecrets as in
// ViewOptions.
func NewExcerpts(v Viewer, showSecrets bool) *Excerpts {
	return &Excerpts{v: v, showSecrets: showSecrets, first: map[string]shown{}}
}

// ForTask aims every excerpt at the part of its file the task points at,
// as the pack does (ViewOptions.Task), and returns x.
func (x *Excerpts) ForTask(task string) *Excerpts {
	x.task = task
	return x
}

// Of returns candidate c's excerpt, the query's terms being terms: the
// view of the file without the path it starts with (the candidate names
// it). What a judge reads of a candidate is its excerpt and hone's
// evidence beside it (loop.Candidate.EvidenceBrief): the excerpt takes
// what the evidence leaves of ExcerptTokens (at least half of them).
func (x *Excerpts) Of(c loop.Candidate, terms []string) (string, error) {
	budget := max(ExcerptTokens-pack.Tokens(c.EvidenceBrief()), ExcerptTokens/2)
	opts := ViewOptions{Budget: budget, ShowSecrets: x.showSecrets, Task: x.task}
	var view string
	var err error
	if was, ok := x.first[c.Path]; ok && c.SecondLook() {
		opts.First = was.budget
		view, err = x.v.ViewAgain(c.Path, was.terms, opts)
	} else {
		if !ok {
			x.first[c.Path] = shown{append([]string(nil), terms...), budget}
		}
		view, err = x.v.View(c.Path, terms, opts)
	}
	// The candidate names its path: the excerpt starts after it.
	return strings.TrimPrefix(view, pack.LinePath(c.Path)+" "), err
}

// ViewOptions control View.
type ViewOptions struct {
	// Budget bounds the view in tokens (estimated as bytes/4; <= 0: no limit).
	Budget int
	// ShowSecrets shows a file that looks like secret material and the
	// values of credentials as they are (see Repo.Pack).
	ShowSecrets bool
	// First is, for ViewAgain, the budget the first view of the file had
	// (<= 0: ExcerptTokens).
	First int
	// Task, when set, aims the view as the pack aims a file: the part of
	// the file the task points at (its keywords at their weights, the names
	// it gives, its stack-trace frames) comes first; the terms still choose
	// the matching lines. Unset: the terms alone aim it.
	Task string
}

// View returns a compact view of a file for a judge: its path, definitions and
// the lines that match terms, within about opts.Budget tokens. Unless
// opts.ShowSecrets, a file that looks like secret material is an error
// wrapping ErrSecret, and credential values are masked.
func (r *Repo) View(p string, terms []string, opts ViewOptions) (string, error) {
	ix, _ := r.index()
	id, ok := ix.Lookup(p)
	if !ok {
		if !filepath.IsLocal(filepath.FromSlash(p)) {
			return "", fmt.Errorf("hone: %s: %w", p, ErrOutsideRepo)
		}
		return "", fmt.Errorf("hone: %s: not an indexed file", p)
	}
	return pack.View(r.root, p, terms, ix.File(id).Defs, r.viewOptions(ix, id, opts))
}

// viewOptions are the pack's options for a view of file id with opts.
func (r *Repo) viewOptions(ix *index.Index, id index.ID, opts ViewOptions) pack.Options {
	po := pack.Options{Budget: opts.Budget, ShowSecrets: opts.ShowSecrets}
	if opts.Task != "" {
		ev := r.aims.get(ix, opts.Task).of(id)
		po.Aim = &ev
	}
	return po
}

// ViewAgain is View's continuation for a reader who has read View(p,
// terms) at opts.First tokens (ExcerptTokens when unset): what that view
// did not show, within opts.Budget (see pack.ViewAgain).
func (r *Repo) ViewAgain(p string, terms []string, opts ViewOptions) (string, error) {
	ix, _ := r.index()
	id, ok := ix.Lookup(p)
	if !ok {
		return r.View(p, terms, opts) // its error
	}
	first := opts.First
	if first <= 0 {
		first = ExcerptTokens
	}
	return pack.ViewAgain(r.root, p, terms, ix.File(id).Defs, first, r.viewOptions(ix, id, opts))
}
