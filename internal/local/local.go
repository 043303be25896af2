// Package local is hone's offline evaluator: it judges candidate files with
// named, documented signals drawn from the index, with no model and no
// network.
//
// A file's relevance is the sum of its signals' contributions, mapped to
// [0,1] by squash (unchanged up to SquashKnee, then approaching 1 smoothly,
// so strong files do not tie), multiplied by a demotion factor for test
// and documentation files when the task is not about them, less a
// competition penalty for falling short of the task's strongest file:
//
//	lexical   WeightBM25 × (the file's BM25F score for the task's own terms,
//	          the cycle's synonyms (each at the weight of the task words it
//	          stands for, × SynonymLexical) and association terms / the best
//	          score any file gets): judged against the task, not the cycle's
//	          query, so scores compare across cycles
//	coverage  WeightCoverage × (share of the task's keyword weight the file
//	          has; a variant, association or synonym counts for its word)
//	focus     WeightFocus × (share of the task's keyword weight that the
//	          file's best definition holds, read from the file: a function
//	          with all the task's words beats a module that spreads them out),
//	          and WeightTitleFocus × the same for the title's words
//	history   WeightHistory × the file's share of the past commits whose
//	          messages are most like the task (see package history): where
//	          similar changes were made before
//	activity  for a one-line task, WeightActivity × log(1 + the past
//	          commits that touched the file) / log(1 + the most any file
//	          had): where the project changes (of two copies of a module,
//	          the one still maintained)
//	anchors   the task names the file's path (WeightPath), a stack-trace frame
//	          points into it (WeightFrame, WeightLastFrame for the frame nearest
//	          the error), a dotted module path resolves to it (WeightModule),
//	          it defines a symbol the task names (WeightDefines) or uses one
//	          (WeightUses), it holds a compound name the task gives that
//	          nothing defines, a setting or option (WeightMentions); each
//	          scaled by the anchor's strength and, for modules and symbols,
//	          by where the task names them (importance: a module listed in a
//	          pasted configuration counts for less than one named in prose),
//	          and capped together at AnchorCap
//	symbol    it defines a specific symbol named after one of the task's key
//	          words or their synonyms, or a plain name that is itself one of
//	          the cycle's synonyms and defined in few files (throttle), or
//	          one of the task's key words defined in the file named after
//	          it and in few others (passthrough in passthrough.ts)
//	          (WeightSymbolTerm)
//	path      the file's name is a key word or a synonym (WeightPathName);
//	          its path (directories and name) says two or more of the
//	          title's words, postgresql/client.py for "postgresql client
//	          certificates" (WeightPathName)
//	links     per relevant file it imports or is imported by (WeightImport)
//	          and per relevant file that uses a specific name it defines
//	          (WeightDefUse), scaled by that file's relevance and, for a file
//	          or name with more than HubUsers users, by sqrt(HubUsers/users);
//	          capped at LinkCap
//	compete   minus Competition × how far the file's evidence (its sum,
//	          unsquashed relevance) falls short of the strongest evidence of
//	          the first cycle, for a file above CompetitionFloor, which it
//	          keeps FloorSlope of its relevance above
//
// Links come from the LinkSources strongest files at or above LinkFloor, from
// earlier cycles and from this cycle after a first pass without links, so one
// cycle already connects the implementation to its helpers.
//
// Competition makes relevance a judgment of the file among its rivals, as a
// reader would give it: a file well short of the best candidate is related
// (medium), not the target. The yardstick is fixed after the first cycle, so
// the penalty never reorders files; it shortens the selection (the files at
// or above the threshold) to those close to the best.
//
// Missing context is what relevant files use but nobody has found yet:
// "definition of X" for a name the file references that the task mentions (or
// that shares a task word), and "caller of F" for a task-named function whose
// callers were not found. A missing definition is critical when the task
// itself names the symbol, or when the file that needs it is relevant (at
// or above the threshold), and the index can find it: the loop does not
// stop while the context lacks it, and REFINE looks it up by name.
//
// Every evaluation's Reason lists its signals with their contributions, so a
// user sees why: "defines SessionManager:+0.30, bm25 0.82:+0.29, …".
//
// One family of signals a file: signals.go (the signals of the file alone),
// focus.go, links.go, competition.go, support.go (the selection's context),
// gaps.go (missing context); this file holds the weights and the judging.
package local

import (
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/history"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/pathclass"
	"github.com/hone-dev/hone/internal/search"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/terms"
	"github.com/hone-dev/hone/internal/tokenize"
	"github.com/hone-dev/hone/loop"
)

// Signal weights. Together the lexical signals reach about 0.5: words alone
// make a file related, not the target. Structural evidence (the task names the
// file, its module, a symbol it defines, or a trace runs through it) is what
// lifts a file to the 0.8-1.0 band.
const (
	// WeightBM25 scales the BM25F score relative to the best candidate.
	WeightBM25 = 0.45
	// WeightCoverage scales the share of the task's keyword weight found in
	// the file (a variant of a word counts for it): breadth of match, which
	// BM25 rewards only weakly.
	WeightCoverage = 0.30
	// VariantWeight weighs a variant of a task word in the lexical score.
	VariantWeight = 0.7
	// SynonymLexical weighs a synonym in the lexical score, relative to the
	// task words it stands for together: the concept in the code's word, less
	// certain than the task's own.
	SynonymLexical = 0.6
	// WeightSymbolTerm: the file defines a symbol named after one of the
	// task's words (isTokenExpired for "token expiry"): the concept lives there.
	WeightSymbolTerm = 0.10
	// WeightPath: the task names the file's path; the strongest pointer there is.
	WeightPath = 0.45
	// WeightFrame: a stack-trace frame runs through the file.
	WeightFrame = 0.25
	// WeightLastFrame: extra for the resolved frame nearest the error (the
	// last in a Python or Rust trace, the first in Go, Java and JavaScript).
	WeightLastFrame = 0.10
	// WeightModule: a dotted module path in the task resolves to the file.
	WeightModule = 0.30
	// WeightDefines: the file defines a symbol the task names.
	WeightDefines = 0.35
	// WeightUses: the file uses a symbol the task names (scaled by
	// 1/sqrt(number of users)): the caller is often where the bug shows.
	WeightUses = 0.15
	// WeightMentions: the file holds, verbatim, a compound identifier the
	// task names that no file defines (a setting or option name), scaled by
	// 1/sqrt(number of such files).
	WeightMentions = 0.20
	// AnchorCap bounds all anchors together: several weak mentions of one file
	// should not outweigh one definite one by much.
	AnchorCap = 0.60
	// WeightHistory scales the file's history score: its share, relative
	// to the best source file's, of the past commits most like the task.
	WeightHistory = 0.20
	// WeightActivity scales how much the project changes the file: the
	// log of the past commits that touched it, relative to the file most
	// touched, for a one-line task only. A prior: it matters where the task
	// says little (of two copies of a module the one still maintained wins;
	// dev-short Acc@3 55.7 -> 58.9), and an issue report's own evidence
	// outweighs it (there it moved Acc@1 69.5 -> 68.8 and the pack's hunks
	// 58.5 -> 56.5 %).
	WeightActivity = 0.10
	// WeightPathName: the file's name is one of the task's words (auth.ts for
	// an authentication task): a naming convention most codebases keep.
	WeightPathName = 0.10
	// WeightImport: imports or is imported by a relevant file, per such file
	// (scaled by its relevance).
	WeightImport = 0.10
	// WeightDefUse: defines a name that a relevant file uses, per such file.
	WeightDefUse = 0.15
	// MaxPartners: the files the target most often changed with (at least
	// history.MinTogether commits) that Support may lift.
	MaxPartners = 5
	// LinkFloor: files at or above this relevance lend links to their
	// neighbours, in proportion to their relevance (a related file's helpers
	// are worth a look; a relevant file's, more).
	LinkFloor = 0.5
	// MinImportance is the least a task-named symbol counts for, relative to
	// the task's most important name.
	MinImportance = 0.3
	// LinkSources is how many of the strongest files lend links.
	LinkSources = 4
	// HubUsers: a link through a name or file with more users than this
	// counts for less (see hub).
	HubUsers = 10
	// LinkCap bounds all links together: a hub imported by everything is not
	// the target for that.
	LinkCap = 0.35
	// SquashKnee and SquashScale shape squash: sums up to the knee are kept,
	// beyond it each SquashScale of extra evidence halves the distance to 1
	// by a factor e.
	SquashKnee  = 0.85
	SquashScale = 0.35
	// Competition: a file loses this much relevance per unit of evidence
	// it falls short of the strongest file of the task's first cycle, but
	// not below CompetitionFloor (nor below its own relevance if that is
	// lower): a clearly stronger candidate makes a file related (medium),
	// not irrelevant. On the development set a file other than the
	// strongest was a fixed file at most one time in five, even within
	// 0.025 of it.
	Competition      = 1.0
	CompetitionFloor = 0.5
	// FloorSlope: how much of its plain relevance above CompetitionFloor a
	// penalised file keeps at least, so that files held near the floor keep
	// their order.
	FloorSlope = 0.25
	// MaxSharedDefiners: a name defined in more files than this (save, run,
	// get) neither links files nor names a concept.
	MaxSharedDefiners = 3
	// MaxGaps bounds the missing context listed per file.
	MaxGaps = 3
	// gapFloor: files below this relevance report no missing context.
	gapFloor = 0.5
	// learnedPerFile is how many distinctive terms a relevant file offers REFINE.
	learnedPerFile = 8
)

// Options configure an Evaluator.
type Options struct {
	// Threshold is the relevance at which a file counts as relevant for links.
	Threshold float64
	// Demote sets the test and documentation demotion (shared with DISPATCH).
	Demote search.Options
	// NoLinks turns the link signals off (for ablation).
	NoLinks bool
	// NoCompetition turns the competition penalty off: each file's
	// relevance is its own evidence alone.
	NoCompetition bool
	// NoFocus turns the focus signal off (for ablation).
	NoFocus bool
	// NoSupport keeps the selection to the files that reach the threshold
	// on their own (see Support).
	NoSupport bool
	// History is the repository's commit log; nil turns the history
	// signal off.
	History *history.Log
}

// Evaluator judges candidates of one task. Build one per retrieval with New
// (it remembers the first cycle's strongest evidence);
// it is safe for concurrent use once built.
type Evaluator struct {
	ix      *index.Index
	task    *task.Task
	anchors anchor.Set
	opts    Options
	// taskTerms maps each task keyword to its weight; taskStems each stem of
	// a plain task word to the word.
	taskTerms map[string]float64
	taskStems map[string]string
	taskTotal float64
	// termBytes are the keys of taskTerms as bytes, sorted (see bound).
	termBytes [][]byte
	// keyTerms are the task's terms.KeyCount most telling words (weight ×
	// idf): only they count for the naming signals, since in a long issue
	// every file defines something named after one of forty words.
	keyTerms map[string]bool
	// maxWeight is the heaviest task keyword's weight.
	maxWeight float64
	// titleWords are the words of the task's title, lower-cased.
	titleWords map[string]bool
	// titleTerms are the task keywords the title holds, and titleTotal
	// their weight (for the title's focus).
	titleTerms map[string]bool
	titleTotal float64
	// titleStems maps the stems of the title's plain words to the words.
	titleStems map[string]string
	// aboutExports: the task is about what a package exports (see
	// Re-export files).
	aboutExports bool
	// oneLine: the task is its title alone, a one-line task (see activity).
	oneLine bool
	// lastFrame is the Order of the resolved frame nearest the error.
	lastFrame int
	// query is the task's own terms (keywords and their variants), which
	// every file is judged against, whatever the cycle's query added; best is
	// the best BM25F score any indexed file gets for it.
	query []index.Term
	best  float64

	mu       sync.Mutex
	bestWith map[string]float64 // best score of query plus association terms, by their key
	// lead is the strongest evidence of the first cycle judged, and leader
	// that file; scores holds each file's latest relevance before and after
	// the competition penalty (a file lends links with the first, when the
	// loop still holds our judgment of it and not, say, an LLM's).
	lead   float64
	leader string
	led    bool
	scores map[string]plainScore
	// focusOf caches each judged file's focus (see focus.go).
	focusOf map[index.ID]focused
	// past holds the history score of the files past commits like the
	// task touched.
	past map[string]history.Hit
	// supporters are the files lifted into the selection (see Support),
	// and how each is one hop from the target.
	supporters map[string]string

	// memo holds what depends on the task and the index alone, computed
	// once per evaluator: whether a name is specific, a file's
	// distinctive terms. It has its own lock, so that it may be read
	// with mu held.
	memoMu      sync.Mutex
	specificOf  map[string]bool
	distinctive map[index.ID][]string
	partners    map[string][]history.Partner
}

// New returns an evaluator for the parsed task t with its anchors.
func New(ix *index.Index, t *task.Task, anchors anchor.Set, opts Options) *Evaluator {
	if opts.Threshold <= 0 {
		opts.Threshold = loop.DefaultThreshold
	}
	e := &Evaluator{ix: ix, task: t, anchors: anchors, opts: opts, taskTerms: map[string]float64{},
		taskStems: map[string]string{}}
	for _, k := range t.Keywords {
		if k.Weight > e.taskTerms[k.Text] {
			e.taskTotal += k.Weight - e.taskTerms[k.Text]
			e.taskTerms[k.Text] = k.Weight
		}
		e.maxWeight = math.Max(e.maxWeight, k.Weight)
		if st := tokenize.Stem(k.Text); st != k.Text || !strings.ContainsAny(k.Text, "._-") {
			if _, ok := e.taskStems[st]; !ok {
				e.taskStems[st] = k.Text
			}
		}
	}
	for t := range e.taskTerms {
		e.termBytes = append(e.termBytes, []byte(t))
	}
	sort.Slice(e.termBytes, func(a, b int) bool { return string(e.termBytes[a]) < string(e.termBytes[b]) })
	e.lastFrame = anchor.NearestFrame(t, anchors)
	seen := map[string]bool{}
	for _, k := range t.Keywords {
		if !seen[k.Text] {
			seen[k.Text] = true
			e.query = append(e.query, index.Term{Text: k.Text, Weight: k.Weight})
		}
	}
	e.keyTerms = terms.Key(ix, t)
	for _, v := range terms.Variants(ix, t, e.keyTerms, seen) {
		e.query = append(e.query, index.Term{Text: v.Term, Weight: v.Weight * VariantWeight})
		if st := tokenize.Stem(v.Term); v.Short && e.taskStems[st] == "" {
			e.taskStems[st] = v.For // a short form covers its word
		}
	}
	e.best = e.bestScore(e.query)
	e.bestWith = map[string]float64{}
	e.scores = map[string]plainScore{}
	e.focusOf = map[index.ID]focused{}
	e.supporters = map[string]string{}
	e.specificOf = map[string]bool{}
	e.distinctive = map[index.ID][]string{}
	e.partners = map[string][]history.Partner{}
	e.aboutExports = exportsRE.MatchString(t.Text)
	e.titleWords = map[string]bool{}
	tokenize.Words(t.Title, func(w string) { e.titleWords[strings.ToLower(strings.Trim(w, "._-"))] = true })
	e.titleTerms = map[string]bool{}
	e.titleStems = map[string]string{}
	tokenize.Terms(t.Title, func(w string) {
		if tw, ok := e.taskTerms[w]; ok && !e.titleTerms[w] {
			e.titleTerms[w] = true
			e.titleTotal += tw
		}
		if len(w) >= 3 && !tokenize.IsStopWord(w) && !strings.ContainsAny(w, "._-") {
			e.titleStems[tokenize.Stem(w)] = w
		}
	})
	if e.titleTotal >= e.taskTotal*0.999 {
		// A task that is all title (one line) has no gist apart from its
		// words: the title's focus would count the focus twice.
		e.titleTerms, e.titleTotal = nil, 0
		e.oneLine = true
	}
	if opts.History != nil {
		q := make([]history.Term, 0, len(e.taskTerms))
		for t, w := range e.taskTerms {
			q = append(q, history.Term{Text: t, Weight: w})
		}
		sort.Slice(q, func(a, b int) bool { return q[a].Text < q[b].Text }) // the same sums every run
		e.past = e.againstSources(opts.History.Files(q))
	}
	return e
}

// againstSources rescales history hits so that the best indexed file
// that is not demoted (a source file, when the task is not about tests or
// docs) scores 1: the changelog and the tests that most commits touch
// would otherwise set the scale.
func (e *Evaluator) againstSources(hits map[string]history.Hit) map[string]history.Hit {
	best := 0.0
	for p, h := range hits {
		if _, ok := e.ix.Lookup(p); ok && e.opts.Demote.Factor(p) == 1 {
			best = math.Max(best, h.Score)
		}
	}
	if best == 0 {
		return hits
	}
	for p, h := range hits {
		h.Score = math.Min(1, h.Score/best)
		hits[p] = h
	}
	return hits
}

func (e *Evaluator) bestScore(q []index.Term) float64 {
	if hits := e.ix.Search(q, nil, 1); len(hits) > 0 {
		return hits[0].Score
	}
	return 0
}

// judgingQuery returns the terms files are judged against in a cycle: the
// task's own, plus the synonyms and association terms REFINE found for the
// task's words (the repository's word for the task's concept, "throttle" for
// "rate limit"), with the best score any file gets for them.
func (e *Evaluator) judgingQuery(q loop.Query) ([]index.Term, float64, map[string][]string) {
	var assoc []index.Term
	var key strings.Builder
	stands := map[string][]string{}
	for _, k := range q.Keywords {
		if k.Origin == OriginSynonym && k.Weight > 0 {
			// A synonym counts toward coverage, names files and symbols,
			// and is scored like the words it stands for: REFINE adds one
			// only where the repository lacks the task's own word, so the
			// synonym is the code's word for the concept, and one word for
			// a phrase ("throttle" for "rate limiting") weighs the phrase.
			stands[synonymKey+k.Term] = []string{k.For}
			w := 0.0
			for _, f := range strings.Fields(k.For) {
				if t := e.taskTerm(f); t != "" {
					stands[k.Term] = append(stands[k.Term], t)
					w += e.taskTerms[t]
				}
			}
			if w *= SynonymLexical; w > 0 {
				assoc = append(assoc, index.Term{Text: k.Term, Weight: w})
				fmt.Fprintf(&key, "%s^%g ", k.Term, w)
			}
		}
		if k.Origin == OriginAssociation && k.Weight > 0 {
			assoc = append(assoc, index.Term{Text: k.Term, Weight: k.Weight})
			fmt.Fprintf(&key, "%s^%g ", k.Term, k.Weight)
			for _, f := range strings.Fields(k.For) {
				if w := e.taskTerm(f); w != "" {
					stands[k.Term] = append(stands[k.Term], w)
				}
			}
		}
	}
	if len(assoc) == 0 {
		return e.query, e.best, stands
	}
	terms := append(append([]index.Term(nil), e.query...), assoc...)
	e.mu.Lock()
	defer e.mu.Unlock()
	best, ok := e.bestWith[key.String()]
	if !ok {
		best = e.bestScore(terms)
		e.bestWith[key.String()] = best
	}
	return terms, best, stands
}

// synonymKey prefixes the stands entries of synonyms, which may name files
// and symbols (associations, noisier, only count toward coverage).
const synonymKey = "\x00syn:"

// Keyword origins of the terms that stand for task words (set by REFINE).
const (
	OriginAssociation = "association"
	OriginSynonym     = "synonym"
)

type contribution struct {
	label string
	value float64
}

type judged struct {
	id      index.ID
	cand    loop.Candidate
	lex     index.Hit // the file's score for the task's own terms
	base    float64   // before links and demotion
	signals []contribution
	factor  float64
	barrel  bool // factor is BarrelFactor: the file only re-exports
	// plain is the relevance the file's signals give alone, evidence the
	// same unsquashed (the sum of the signals, for an undemoted file); score
	// the relevance after competition.
	plain    float64
	evidence float64
	penalty  float64
	score    float64
	// lift is what Support added to the score, and liftWhy the link.
	lift    float64
	liftWhy string
}

// Evaluate implements loop.Evaluator.
func (e *Evaluator) Evaluate(ctx context.Context, in loop.EvalInput) ([]loop.Evaluation, error) {
	ids := map[index.ID]bool{}
	for _, c := range in.Candidates {
		if id, ok := e.ix.Lookup(c.Path); ok {
			ids[id] = true
		}
	}
	query, best, stands := e.judgingQuery(in.Query)
	lex := map[index.ID]index.Hit{}
	for _, h := range e.ix.Search(query, func(id index.ID) bool { return ids[id] }, len(ids)) {
		lex[h.ID] = h
	}
	js := make([]*judged, 0, len(in.Candidates))
	for _, c := range in.Candidates {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		id, ok := e.ix.Lookup(c.Path)
		if !ok {
			continue
		}
		j := &judged{id: id, cand: c, lex: lex[id], factor: e.opts.Demote.Factor(c.Path)}
		if j.factor == 1 && !e.aboutExports && e.barrel(id) {
			j.factor, j.barrel = BarrelFactor, true
		}
		e.baseSignals(j, best, stands)
		js = append(js, j)
	}
	// Link sources: the LinkSources strongest files at or above LinkFloor,
	// from earlier judgments and this cycle's first pass. Only the strongest:
	// in a long issue a dozen files are related, and hubs linked to all of
	// them would rise on links alone.
	type src struct {
		id  index.ID
		rel float64
	}
	var srcs []src
	e.mu.Lock()
	for p, ev := range in.Judged {
		rel := ev.Relevance
		if js, ok := e.scores[p]; ok && js.score == ev.Relevance {
			rel = js.plain // our own judgment: lend links by evidence, not by rank
		}
		if rel >= LinkFloor {
			if id, ok := e.ix.Lookup(p); ok {
				srcs = append(srcs, src{id, rel})
			}
		}
	}
	e.mu.Unlock()
	for _, j := range js {
		if s := squash(j.base) * j.factor; s >= LinkFloor {
			srcs = append(srcs, src{j.id, s})
		}
	}
	sort.SliceStable(srcs, func(a, b int) bool {
		if srcs[a].rel != srcs[b].rel {
			return srcs[a].rel > srcs[b].rel
		}
		return srcs[a].id < srcs[b].id
	})
	relevant := map[index.ID]float64{}
	for _, sr := range srcs {
		if len(relevant) >= LinkSources {
			break
		}
		if _, ok := relevant[sr.id]; !ok {
			relevant[sr.id] = sr.rel
		}
	}
	uses := map[string][]index.ID{} // names used by relevant files
	for id := range relevant {
		for _, r := range e.ix.File(id).Refs {
			uses[r.Name] = append(uses[r.Name], id)
		}
	}
	known := map[string]bool{}
	for p := range in.Judged {
		known[p] = true
	}
	for _, c := range in.Candidates {
		known[c.Path] = true
	}
	for _, j := range js {
		if !e.opts.NoLinks {
			e.linkSignals(j, relevant, uses)
		}
		total := 0.0
		for _, s := range j.signals {
			total += s.value
		}
		j.plain = round3(squash(total) * j.factor)
		j.evidence = unsquash(j.plain)
	}
	e.compete(js)
	e.support(js, stands)
	out := make([]loop.Evaluation, 0, len(js))
	for _, j := range js {
		ev := loop.Evaluation{Path: j.cand.Path, Relevance: j.score, Reason: e.reason(j)}
		if j.score >= gapFloor {
			ev.MissingContext, ev.Critical = e.gaps(j.id, known, j.score >= e.opts.Threshold)
		}
		if ev.MissingContext == nil {
			ev.MissingContext = []string{}
		}
		if j.score >= gapFloor {
			ev.Learned = e.learned(j.id)
		}
		out = append(out, ev)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Relevance > out[b].Relevance })
	return out, nil
}

// learned returns the distinctive terms file id offers REFINE, computed
// once per evaluator (a file is judged again in later cycles); the slice
// is the caller's.
func (e *Evaluator) learned(id index.ID) []string {
	e.memoMu.Lock()
	ts, ok := e.distinctive[id]
	e.memoMu.Unlock()
	if !ok {
		ts = e.ix.Distinctive(id, learnedPerFile)
		e.memoMu.Lock()
		e.distinctive[id] = ts
		e.memoMu.Unlock()
	}
	return slices.Clone(ts)
}

func (e *Evaluator) reason(j *judged) string {
	sigs := append([]contribution(nil), j.signals...)
	sort.SliceStable(sigs, func(a, b int) bool { return sigs[a].value > sigs[b].value })
	parts := make([]string, 0, len(sigs)+1)
	for _, s := range sigs {
		parts = append(parts, fmt.Sprintf("%s:+%.2f", s.label, s.value))
	}
	if j.barrel {
		parts = append(parts, fmt.Sprintf("re-exports only:×%.2f", j.factor))
	} else if j.factor != 1 {
		parts = append(parts, fmt.Sprintf("%s file:×%.2f", pathclass.Of(j.cand.Path), j.factor))
	}
	if j.penalty > 0 {
		parts = append(parts, fmt.Sprintf("evidence %.2f short of %s's %.2f:-%.2f", j.evidence, path.Base(e.leader), e.lead, j.penalty))
	}
	if j.lift > 0 {
		parts = append(parts, fmt.Sprintf("context for %s: %s:+%.2f", path.Base(e.leader), j.liftWhy, j.lift))
	}
	if len(parts) == 0 {
		return "no signal"
	}
	return strings.Join(parts, ", ")
}

// squash maps a sum of contributions to [0,1]: unchanged up to SquashKnee,
// then approaching 1 smoothly, so that files with more evidence than a
// clear hit still rank above those with just enough (no ties at 1).
func squash(x float64) float64 {
	if x <= SquashKnee {
		return math.Max(0, x)
	}
	return SquashKnee + (1-SquashKnee)*(1-math.Exp(-(x-SquashKnee)/SquashScale))
}

// unsquash inverts squash: the sum of contributions that gives relevance r.
func unsquash(r float64) float64 {
	if r <= SquashKnee {
		return r
	}
	if r >= 1 {
		r = 1 - 1e-9
	}
	return SquashKnee - SquashScale*math.Log(1-(r-SquashKnee)/(1-SquashKnee))
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
