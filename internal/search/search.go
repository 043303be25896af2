// Package search is hone's DISPATCH: it runs a loop.Query against the index.
//
// A query ranks files by BM25F over the index's path, symbols and content
// fields, each keyword weighted. Patterns are an allow-list of doublestar
// globs (the catch-all "**" admits every file); a specific pattern or a "dir:"
// focus area also prefers the files under it. Excludes are globs or exact
// paths never proposed. "file:" and "symbol:" focus areas bring in files that
// keywords may have missed: the file a stack trace names, the file that
// defines a symbol the task or a gap names. Test, documentation and example
// files are demoted unless the caller says the task is about them, because
// they repeat the vocabulary of the code they exercise; build output (a
// committed dist/ bundle) is demoted too, as it repeats its sources.
//
// A glob's brace groups are expanded first, to at most MaxAlternatives
// brace-free globs, which doublestar matches in time linear in the path: no
// glob a client sends can stall a search.
package search

import (
	"context"
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/pathclass"
	"github.com/hone-dev/hone/loop"
)

const (
	// CatchAll is the default pattern: every indexed file.
	CatchAll = "**"
	// PreferBoost multiplies the score of a file under a specific pattern or a
	// dir: focus area: a preference, not a filter.
	PreferBoost = 1.25
	// TestFactor multiplies the score of test files when tests are demoted:
	// tests name what they test, so they match as well as the code itself.
	TestFactor = 0.5
	// DocFactor multiplies the score of documentation and examples when demoted.
	DocFactor = 0.5
	// BuildFactor multiplies the score of build output (a committed dist/
	// bundle), which repeats the code it is built from, and of bundled
	// third-party code (indexed with --include-vendored), which a task
	// rarely changes.
	BuildFactor = 0.5
	// MaxDefiners skips a symbol: focus area whose name more files define.
	MaxDefiners = 8
	// overfetch is how many more hits than asked are ranked before demotions
	// reorder them.
	overfetch = 3
)

// Options set what a Searcher demotes.
type Options struct {
	DemoteTests bool
	DemoteDocs  bool
	DemoteBuild bool
	// DemoteConfig demotes settings, manifests and CI files (pathclass.Config).
	DemoteConfig bool
}

// Searcher runs queries against one index. It is safe for concurrent use.
type Searcher struct {
	ix   *index.Index
	opts Options
}

// New returns a Searcher over ix.
func New(ix *index.Index, opts Options) *Searcher { return &Searcher{ix: ix, opts: opts} }

// globMeta are the characters doublestar reads as pattern syntax.
const globMeta = `*?[]{}\`

// Literal returns a glob that matches the repository path p itself: its
// glob metacharacters (a Next.js route such as app/[slug]/page.tsx, a doc
// page named operator[].md) escaped, so that a path made into a pattern
// neither fails validation nor matches other files.
func Literal(p string) string {
	if !strings.ContainsAny(p, globMeta) {
		return p
	}
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(globMeta, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Factor returns the demotion factor of a path under opts (1 for code).
func (o Options) Factor(p string) float64 {
	switch pathclass.Of(p) {
	case pathclass.Test:
		if o.DemoteTests {
			return TestFactor
		}
	case pathclass.Doc, pathclass.Example:
		if o.DemoteDocs {
			return DocFactor
		}
	case pathclass.Build, pathclass.Vendored:
		if o.DemoteBuild {
			return BuildFactor
		}
	case pathclass.Config:
		if o.DemoteConfig {
			return DocFactor
		}
	}
	return 1
}

// Search implements loop.Searcher.
func (s *Searcher) Search(ctx context.Context, q loop.Query, limit int) ([]loop.Candidate, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	patterns, err := compileGlobs(q.Patterns)
	if err != nil {
		return nil, err
	}
	excludes, err := compileGlobs(q.Excludes)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = loop.DefaultCandidates
	}
	var prefer []glob
	allowAll := len(q.Patterns) == 0
	for i, p := range q.Patterns {
		if p == CatchAll || p == "**/*" {
			allowAll = true
		} else {
			prefer = append(prefer, patterns[i])
		}
	}
	var dirs []string
	var files, syms []string
	for _, f := range q.FocusAreas {
		switch {
		case strings.HasPrefix(f, loop.FocusDir):
			// "dir:app/", "dir:app" and "dir:app/**" all name the directory app.
			d := strings.TrimSuffix(strings.TrimPrefix(f, loop.FocusDir), "**")
			dirs = append(dirs, strings.TrimSuffix(d, "/")+"/")
		case strings.HasPrefix(f, loop.FocusFile):
			files = append(files, strings.TrimPrefix(f, loop.FocusFile))
		case strings.HasPrefix(f, loop.FocusSymbol):
			syms = append(syms, strings.TrimPrefix(f, loop.FocusSymbol))
		}
	}
	excluded := func(p string) bool {
		for i, e := range q.Excludes {
			if e == p || excludes[i].match(p) {
				return true
			}
		}
		return false
	}
	allowed := func(p string) bool {
		if excluded(p) {
			return false
		}
		if allowAll {
			return true
		}
		for _, g := range prefer {
			if g.match(p) {
				return true
			}
		}
		return false
	}
	preferred := func(p string) bool {
		for _, d := range dirs {
			if strings.HasPrefix(p, d) {
				return true
			}
		}
		for _, g := range prefer {
			if g.match(p) {
				return true
			}
		}
		return false
	}

	terms := make([]index.Term, 0, len(q.Keywords))
	for _, k := range q.Keywords {
		if k.Weight > 0 && k.Term != "" {
			terms = append(terms, index.Term{Text: k.Term, Weight: k.Weight})
		}
	}
	keep := func(id index.ID) bool { return allowed(s.ix.Path(id)) }
	hits := s.ix.Search(terms, keep, limit*overfetch)

	byPath := map[string]*loop.Candidate{}
	var out []*loop.Candidate
	for _, h := range hits {
		p := s.ix.Path(h.ID)
		score := h.Score * s.opts.Factor(p)
		if preferred(p) {
			score *= PreferBoost
		}
		c := &loop.Candidate{Path: p, Score: score, Matched: h.Matched}
		byPath[p] = c
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > limit {
		for _, c := range out[limit:] {
			delete(byPath, c.Path)
		}
		out = out[:limit]
	}
	// Focus files and symbol definers join the candidates whatever their score.
	via := func(id index.ID, why string) {
		p := s.ix.Path(id)
		if excluded(p) {
			return
		}
		if c, ok := byPath[p]; ok {
			c.Via = appendOnce(c.Via, why)
			return
		}
		c := &loop.Candidate{Path: p, Via: []string{why}}
		byPath[p] = c
		out = append(out, c)
	}
	for _, f := range files {
		if id, ok := s.ix.Lookup(f); ok {
			via(id, loop.FocusFile+f)
		}
	}
	for _, name := range syms {
		defs := s.ix.Defining(name)
		if len(defs) > MaxDefiners {
			continue // a name defined everywhere locates nothing
		}
		for _, id := range defs {
			via(id, loop.FocusSymbol+name)
		}
	}
	res := make([]loop.Candidate, len(out))
	for i, c := range out {
		res[i] = *c
	}
	return res, nil
}

func appendOnce(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
