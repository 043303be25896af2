package hone

import (
	"fmt"
	"strings"

	"github.com/hone-dev/hone/internal/pack"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/loop"
)

// PackOptions control Pack.
type PackOptions struct {
	// Budget bounds the pack in tokens (estimated as bytes/4; <= 0: no limit).
	Budget int
	// ShowSecrets shows files that look like secret material and the values
	// of credentials as they are. By default such a file is listed with the
	// reason ("not shown: looks like a private key") and the value of a
	// credential is masked ("db.password=********").
	ShowSecrets bool
}

// Pack renders a Markdown context pack of res within opts.Budget tokens
// (tokens estimated as pack.Tokens does): the selected files, then the rest
// of the ranking, each shown by the parts the task points at (see package
// pack). What it shows goes to a model: see PackOptions.ShowSecrets.
func (r *Repo) Pack(res *Result, opts PackOptions) (string, error) {
	ix, _ := r.index()
	var parsed *parsedTask
	if p := res.parsed; p != nil && p.ix == ix && p.task.Text == res.Task {
		parsed = p
	}
	aim := newTaskAim(ix, res.Task, parsed)
	in := pack.Input{Task: res.Task, Root: r.root, Terms: aim.words}
	add := func(e loop.Evaluation, selected, fallback bool) {
		f := pack.File{Evaluation: e, Selected: selected, Fallback: fallback}
		if id, ok := ix.Lookup(e.Path); ok {
			f.Defs = ix.File(id).Defs
			f.Evidence = aim.of(id)
		} else {
			f.Evidence = aim.of(-1)
		}
		in.Files = append(in.Files, f)
	}
	seen := map[string]bool{}
	for _, e := range res.Files {
		seen[e.Path] = true
		add(e, true, false)
	}
	judged := map[string]float64{}
	for _, e := range res.Ranked {
		judged[e.Path] = e.Relevance
		if !seen[e.Path] && (res.Evidence == nil || e.Relevance >= FallbackFloor) {
			seen[e.Path] = true
			add(e, false, false)
		}
	}
	// After a judged session, what the budget leaves goes to hone's own
	// ranking: a judge errs too.
	for _, e := range res.Evidence {
		if seen[e.Path] {
			continue
		}
		seen[e.Path] = true
		why := "hone's own ranking, not kept by the judge"
		if j, ok := judged[e.Path]; ok {
			why = fmt.Sprintf("hone's own ranking (%.2f); the judge rated it %.2f", e.Relevance, j)
		}
		e.Reason = why + ": " + e.Reason
		add(e, false, true)
	}
	out, err := pack.Build(in, pack.Options{Budget: opts.Budget, ShowSecrets: opts.ShowSecrets})
	if err == nil {
		if err = ix.Err(); err != nil {
			return "", fmt.Errorf("hone: the index cache changed during the pack (run again): %w", err)
		}
	}
	return out, err
}

// After a judged session (Start), the pack holds the judge's files, then,
// with what the budget leaves (pack.File.Fallback), hone's own ranking: a
// file the judge rated below FallbackFloor can come back there.
const FallbackFloor = 0.2

// taskSymbols returns the names a task gives, lower-cased: its identifiers,
// and each dotted name whole, as its last two parts and as its last part.
func taskSymbols(t *task.Task) map[string]bool {
	out := map[string]bool{}
	for _, id := range t.Identifiers {
		out[strings.ToLower(id)] = true
	}
	for _, d := range t.DottedNames {
		d = strings.ToLower(d)
		out[d] = true
		parts := strings.Split(d, ".")
		if n := len(parts); n >= 2 {
			out[parts[n-2]+"."+parts[n-1]] = true
		}
		out[parts[len(parts)-1]] = true
	}
	return out
}
