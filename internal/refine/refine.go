// Package refine is hone's REFINE step: it builds the first query from the
// task and each next query from the judgments of the last cycle.
//
// The first query holds the task's keywords (identifiers whole and split;
// the key words with up to two variants of their stem that the repository
// uses; for a concept whose words the repository lacks, general programming
// synonyms from package synonym), the catch-all pattern, and focus areas for
// every file the task points at (paths, stack-trace frames, module paths)
// and every symbol it names.
//
// After a cycle, the refiner learns from the files judged relevant (at or
// above the threshold; failing those, the best two at 0.5 or more):
//
//   - their distinctive terms join the keywords at LearnedWeight: the code's
//     own vocabulary ("throttle" where the task said "rate limit");
//   - their directories join the patterns, as a preference;
//   - once some file reached the threshold, files scored below ExcludeBelow
//     are excluded from later cycles;
//   - missing context becomes targeted look-ups: "definition of X" a symbol
//     focus area, "caller of X" a keyword X (callers mention it);
//   - when the task's words found little (fewer than MinFiles relevant files),
//     terms the repository associates with the task's strongest words (names
//     defined where the word is most prominent, and terms that co-occur with
//     it) join at AssocWeight × their score, listed in the trace.
package refine

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/search"
	"github.com/hone-dev/hone/internal/synonym"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/terms"
	"github.com/hone-dev/hone/loop"
)

const (
	// LearnedWeight weighs a term learned from relevant files: the code's own
	// words, but not the task's, so below the task's own words.
	LearnedWeight = 0.35
	// MaxLearned bounds the terms learned per cycle, so the query keeps its focus.
	MaxLearned = 6
	// StemWeight weighs a variant of a task word ("limit" for "limiting"):
	// likely the same concept, but not the word the task chose.
	StemWeight = 0.7
	// AssocWeight scales an associated term by its association score.
	AssocWeight = 0.5
	// MinAssoc is the weakest association used.
	MinAssoc = 0.25
	// assocTerms is how many of the task's strongest words get associations.
	assocTerms = 4
	// assocPerTerm is how many associations each such word contributes.
	assocPerTerm = 2
	// namingFiles is how many of a word's best files lend their names.
	namingFiles = 2
	// SynonymWeight weighs a general synonym of a task word: the concept, in
	// words the task did not use.
	SynonymWeight = 0.6
	// synonymsPerConcept bounds the synonyms added per concept.
	synonymsPerConcept = 3
	// synonymRareDF: synonyms stand in only for words the repository uses in
	// at most this many files; where it has the task's word, it needs no other.
	synonymRareDF = 2
	// GapWeight weighs a name from missing context used as a keyword.
	GapWeight = 0.8
	// ExcludeBelow: files scored below this are not proposed again.
	ExcludeBelow = 0.2
	// mediumFloor: with nothing at the threshold, files at or above this teach.
	mediumFloor = 0.5
	// MaxPatterns bounds the directories added per cycle.
	MaxPatterns = 3
	// maxCommonShare: a learned term in more than this share of files is noise.
	maxCommonShare = 0.10
	// maxFrameworkShare: a framework in more of the files is the whole
	// project's, not the target area's.
	maxFrameworkShare = 0.5
	// maxFrameworks bounds the frameworks learned per cycle.
	maxFrameworks = 2
)

// Options configure a Refiner.
type Options struct {
	Threshold float64
	MinFiles  int
	// NoAssociations turns the co-occurrence terms off (for ablation).
	NoAssociations bool
	// Neighbours offers the code-graph neighbours of files judged related
	// (for a judge that does not re-score judged files: loop.Options.Rejudge
	// off).
	Neighbours bool
}

// Refiner builds queries for one task. It is safe for concurrent use.
type Refiner struct {
	ix      *index.Index
	task    *task.Task
	anchors anchor.Set
	opts    Options
}

// New returns a refiner for the parsed task t with its anchors.
func New(ix *index.Index, t *task.Task, anchors anchor.Set, opts Options) *Refiner {
	if opts.Threshold <= 0 {
		opts.Threshold = loop.DefaultThreshold
	}
	if opts.MinFiles <= 0 {
		opts.MinFiles = loop.DefaultMinFiles
	}
	return &Refiner{ix: ix, task: t, anchors: anchors, opts: opts}
}

// Initial implements loop.Refiner.
func (r *Refiner) Initial(ctx context.Context, _ string) (loop.Query, error) {
	q := loop.Query{Patterns: []string{search.CatchAll}, Excludes: []string{}}
	have := map[string]bool{}
	for _, k := range r.task.Keywords {
		if have[k.Text] {
			continue
		}
		have[k.Text] = true
		q.Keywords = append(q.Keywords, loop.Keyword{Term: k.Text, Weight: k.Weight, Origin: k.Origin})
	}
	for _, v := range terms.Variants(r.ix, r.task, terms.Key(r.ix, r.task), have) {
		q.Keywords = append(q.Keywords, loop.Keyword{Term: v.Term, Weight: v.Weight * StemWeight, Origin: "stem", For: v.For})
	}
	if !r.opts.NoAssociations {
		r.synonyms(&q, have)
	}
	focus := map[string]bool{}
	ids := make([]index.ID, 0, len(r.anchors.ByFile))
	for id := range r.anchors.ByFile {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	for _, id := range ids {
		for _, a := range r.anchors.ByFile[id] {
			if a.Kind == anchor.KindDefines || a.Kind == anchor.KindUses {
				continue // symbols are focus areas of their own; users are not forced in
			}
			f := loop.FocusFile + r.ix.File(id).Path
			if !focus[f] {
				focus[f] = true
				q.FocusAreas = append(q.FocusAreas, f)
			}
		}
	}
	names := make([]string, 0, len(r.anchors.Symbols))
	for n := range r.anchors.Symbols {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		q.FocusAreas = append(q.FocusAreas, loop.FocusSymbol+n)
	}
	return q, ctx.Err()
}

// synonyms adds the repository's words for the concepts the task's most
// telling words name, from the general vocabulary of package synonym.
func (r *Refiner) synonyms(q *loop.Query, have map[string]bool) {
	weight := map[string]float64{}
	var words []string
	for _, k := range r.task.Keywords {
		if k.Origin == task.OriginWord || k.Origin == task.OriginIdentifier {
			if _, ok := weight[k.Text]; !ok {
				words = append(words, k.Text)
			}
			weight[k.Text] = max(weight[k.Text], k.Weight)
		}
	}
	key := terms.Key(r.ix, r.task)
	for _, m := range synonym.Expand(words) {
		// A concept is rare in the repository when one of its words is: a
		// phrase whose word the code never uses is not in the code.
		w, telling, used := 0.0, false, -1
		for _, x := range m.Words {
			w = max(w, weight[x])
			telling = telling || key[x]
			if df := r.ix.DocFreq(x); used < 0 || df < used {
				used = df
			}
		}
		if !telling || used > synonymRareDF {
			continue // the repository has the task's own word for it
		}
		n := 0
		for _, o := range m.Others {
			if n >= synonymsPerConcept || have[o] || r.ix.DocFreq(o) == 0 {
				continue
			}
			have[o] = true
			n++
			q.Keywords = append(q.Keywords, loop.Keyword{Term: o, Weight: w * SynonymWeight, Origin: "synonym",
				For: strings.Join(m.Words, " ")})
		}
	}
}

var identRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)

// Refine implements loop.Refiner.
func (r *Refiner) Refine(ctx context.Context, in loop.RefineInput) (loop.Query, loop.Refinement, error) {
	q := in.Query.Clone()
	ref := loop.Refinement{AddedKeywords: []string{}, AddedPatterns: []string{}, Excluded: []string{},
		AddedFocus: []string{}, Associations: []string{}, Why: []string{}}
	have := map[string]bool{}
	for _, k := range q.Keywords {
		have[k.Term] = true
	}
	focus := map[string]bool{}
	for _, f := range q.FocusAreas {
		focus[f] = true
	}
	patterns := map[string]bool{}
	for _, p := range q.Patterns {
		patterns[p] = true
	}
	excluded := map[string]bool{}
	for _, e := range q.Excludes {
		excluded[e] = true
	}

	var teachers []loop.Evaluation
	relevant := 0
	for _, e := range in.Evaluations {
		if e.Relevance >= r.opts.Threshold {
			teachers = append(teachers, e)
			relevant++
		}
	}
	if len(teachers) == 0 {
		for _, e := range in.Evaluations {
			if e.Relevance >= mediumFloor && len(teachers) < 2 {
				teachers = append(teachers, e)
			}
		}
	}

	// The code's own vocabulary, from the teachers.
	count := map[string]int{}
	var order []string
	for _, e := range teachers {
		if !r.teaches(e.Path) {
			continue
		}
		for _, t := range e.Learned {
			t = strings.ToLower(t)
			if have[t] || !IsVocabulary(t) {
				continue
			}
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
	common := int(maxCommonShare*float64(r.ix.Len())) + 1
	var learned []string
	// The frameworks the teachers are written against first: their word
	// for the concern (see frameworks).
	for _, t := range r.frameworks(teachers, have) {
		if len(learned) >= MaxLearned {
			break
		}
		have[t] = true
		learned = append(learned, t)
		q.Keywords = append(q.Keywords, loop.Keyword{Term: t, Weight: LearnedWeight, Origin: "learned"})
	}
	for _, t := range order {
		if len(learned) >= MaxLearned {
			break
		}
		df := r.ix.DocFreq(t)
		if df == 0 || df > common {
			continue
		}
		have[t] = true
		learned = append(learned, t)
		q.Keywords = append(q.Keywords, loop.Keyword{Term: t, Weight: LearnedWeight, Origin: "learned"})
	}
	if len(learned) > 0 {
		ref.AddedKeywords = append(ref.AddedKeywords, learned...)
		ref.Why = append(ref.Why, fmt.Sprintf("learned %s from %s", quoteList(learned), pathList(teachers)))
	}

	// Their directories, as a preference.
	st := &state{q: &q, ref: &ref, have: have, focus: focus, patterns: patterns}
	dirs := 0
	for _, e := range teachers {
		if d := path.Dir(e.Path); d != "." && dirs < MaxPatterns && st.addPattern(search.Literal(d)+"/**") {
			dirs++
		}
	}
	if dirs > 0 {
		ref.Why = append(ref.Why, "prefer the directories of relevant files")
	}

	// Exclude what was judged not relevant, once something is: until a file
	// reaches the threshold the scores do not yet say what relevant looks
	// like, and a file that shares few of the task's words may be the one
	// that uses the codebase's own.
	if relevant > 0 {
		for _, e := range in.Evaluations {
			if x := search.Literal(e.Path); e.Relevance < ExcludeBelow && !excluded[x] {
				excluded[x] = true
				q.Excludes = append(q.Excludes, x)
				ref.Excluded = append(ref.Excluded, e.Path)
			}
		}
		if len(ref.Excluded) > 0 {
			ref.Why = append(ref.Why, fmt.Sprintf("exclude %d files scored below %.1f", len(ref.Excluded), ExcludeBelow))
		}
	}

	// Missing context becomes targeted look-ups.
	for _, e := range in.Evaluations {
		if e.Relevance < mediumFloor {
			continue
		}
		for _, gap := range e.MissingContext {
			caller := strings.HasPrefix(gap, "caller of ")
			for _, name := range identRe.FindAllString(gap, -1) {
				if gapWords[strings.ToLower(name)] {
					continue
				}
				defs := r.ix.Defining(name)
				switch {
				case !caller && len(defs) > 0 && len(defs) <= anchor.MaxDefiners:
					if st.addFocus(loop.FocusSymbol + name) {
						ref.Why = append(ref.Why, fmt.Sprintf("look up the %s (%s)", gap, path.Base(e.Path)))
					}
				case caller || len(defs) == 0:
					if t := strings.ToLower(name); r.ix.DocFreq(t) > 0 && st.addKeyword(t, GapWeight, "gap") {
						ref.Why = append(ref.Why, fmt.Sprintf("search for the %s (%s)", gap, path.Base(e.Path)))
					}
				}
			}
		}
	}

	// What the judge said: its requests, its terms, the neighbours of what it
	// found related (a judge that reads code; hone's local evaluator names
	// no terms and asks for nothing).
	r.requests(st, in.Requests)
	r.judgeTerms(st, in.Evaluations)
	if r.opts.Neighbours {
		r.neighbours(st, in)
	}

	// When the task's words found little, use the repository's associations.
	if relevant < r.opts.MinFiles && !r.opts.NoAssociations {
		for _, a := range r.associate(have) {
			ref.AddedKeywords = append(ref.AddedKeywords, a.term)
			ref.Associations = append(ref.Associations, a.note)
			q.Keywords = append(q.Keywords, loop.Keyword{Term: a.term, Weight: AssocWeight * a.score, Origin: "association", For: a.word})
		}
		if len(ref.Associations) > 0 {
			ref.Why = append(ref.Why, fmt.Sprintf("only %d files reached %.2f: add terms the repository uses with the task's words", relevant, r.opts.Threshold))
		}
	}
	return q, ref, ctx.Err()
}

// frameworks returns the libraries the teachers import (imports that
// resolve to no file of the repository and are not the language's standard
// library, stdlib.go) that other files use too (the last part of each absolute import:
// FluentValidation, DataAnnotations), the most shared among the teachers
// first, then the rarest in the repository, at most maxFrameworks. The
// framework a file is written against is the codebase's word for its
// concern, and it is often in too many files of a small project for the
// distinctive terms to offer it: a REFINE that learns it finds the other
// files written against it (validators, the models they validate).
func (r *Refiner) frameworks(teachers []loop.Evaluation, have map[string]bool) []string {
	count := map[string]int{}
	var order []string
	for _, e := range teachers {
		id, ok := r.ix.Lookup(e.Path)
		if !ok || !r.teaches(e.Path) {
			continue
		}
		seen := map[string]bool{}
		for _, imp := range r.ix.File(id).Imports {
			if strings.HasPrefix(imp, ".") || len(r.ix.ResolveImport(id, imp)) > 0 {
				continue // the project's own module: not a framework
			}
			if isStandardLibrary(r.ix.File(id).Lang, imp) {
				continue // every program's: no concern of this one (stdlib.go)
			}
			t := strings.ToLower(imp[strings.LastIndexAny(imp, `./:\`)+1:])
			if seen[t] || have[t] || len(t) < 4 || !IsVocabulary(t) {
				continue
			}
			seen[t] = true
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
		}
	}
	limit := int(maxFrameworkShare * float64(r.ix.Len()))
	var out []string
	for _, t := range order {
		if df := r.ix.DocFreq(t); df > 1 && df <= limit {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if count[out[a]] != count[out[b]] {
			return count[out[a]] > count[out[b]]
		}
		return r.ix.DocFreq(out[a]) < r.ix.DocFreq(out[b])
	})
	return out[:min(len(out), maxFrameworks)]
}

// gapWords are the words of missing-context phrases, not names.
var gapWords = map[string]bool{"definition": true, "of": true, "caller": true, "callers": true, "the": true,
	"usage": true, "usages": true, "implementation": true, "test": true, "tests": true, "for": true, "and": true}

type assoc struct {
	term  string
	word  string // the task word it stands for
	score float64
	note  string
}

// associate finds the repository's words for the task's strongest words
// (weight × idf), two ways:
//
//   - co-occurrence: terms found in the same files as the word (normalised
//     PMI, from the index);
//   - naming: the names defined in the files where the word is most
//     prominent (its best BM25F files): code names a concept in its
//     definitions, so the files that talk most about "limit" name the thing
//     that limits ("throttle").
//
// A word the repository never uses speaks through its variants.
func (r *Refiner) associate(have map[string]bool) []assoc {
	type cand struct {
		term, word string
		w          float64
	}
	var words []cand
	add := func(text, word string, weight float64) {
		if strings.ContainsAny(text, "._-") || len(text) < 3 || r.ix.DocFreq(text) == 0 {
			return
		}
		words = append(words, cand{text, word, weight * r.ix.IDF(text)})
	}
	for _, k := range r.task.Keywords {
		add(k.Text, k.Text, k.Weight)
		if k.Origin == task.OriginWord && r.ix.DocFreq(k.Text) == 0 {
			for _, v := range r.ix.Variants(k.Text) {
				add(v, k.Text, k.Weight*StemWeight)
			}
		}
	}
	sort.SliceStable(words, func(a, b int) bool { return words[a].w > words[b].w })
	if len(words) > assocTerms {
		words = words[:assocTerms]
	}
	var out []assoc
	take := func(w cand, term string, score float64, note string) bool {
		if score < MinAssoc || have[term] || !IsVocabulary(term) || r.ix.DocFreq(term) == 0 {
			return false
		}
		have[term] = true
		out = append(out, assoc{term: term, word: w.word, score: score, note: note})
		return true
	}
	for _, w := range words {
		n := 0
		for _, name := range r.namesNear(w.term) {
			if n >= assocPerTerm {
				break
			}
			if take(w, name.term, name.score, fmt.Sprintf("%s → %s (named in %s)", w.term, name.term, name.where)) {
				n++
			}
		}
		for _, a := range r.ix.Associations(w.term, 8) {
			if n >= assocPerTerm {
				break
			}
			if take(w, a.Term, a.Score, fmt.Sprintf("%s → %s (%.2f, together in %d files)", w.term, a.Term, a.Score, a.Support)) {
				n++
			}
		}
	}
	return out
}

type named struct {
	term, where string
	score       float64
}

// namesNear returns the names defined in the files where term is most
// prominent, best first: a name that is the file's own (throttle in
// throttle.ts) scores 1, another class, function or type 0.8, any other
// definition 0.5, each divided by the file's rank.
func (r *Refiner) namesNear(term string) []named {
	hits := r.ix.Search([]index.Term{{Text: term, Weight: 1}}, nil, namingFiles)
	var out []named
	seen := map[string]bool{}
	common := int(maxCommonShare*float64(r.ix.Len())) + 2
	for rank, h := range hits {
		f := r.ix.File(h.ID)
		stem := strings.ToLower(strings.TrimSuffix(path.Base(f.Path), path.Ext(f.Path)))
		for _, d := range f.Defs {
			t := strings.ToLower(d.Name)
			if seen[t] || strings.Contains(t, term) || len(t) < 4 {
				continue
			}
			seen[t] = true
			if df := r.ix.DocFreq(t); df == 0 || df > common {
				continue
			}
			score := 0.5
			switch {
			case t == stem:
				score = 1
			case d.Kind == "class" || d.Kind == "function" || d.Kind == "type" || d.Kind == "interface":
				score = 0.8
			}
			out = append(out, named{term: t, where: path.Base(f.Path), score: score / float64(rank+1)})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	return out
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "'" + x + "'"
	}
	return strings.Join(q, ", ")
}

func pathList(es []loop.Evaluation) string {
	ps := make([]string, 0, len(es))
	for _, e := range es {
		ps = append(ps, path.Base(e.Path))
	}
	return strings.Join(ps, ", ")
}
