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
//	lexical   WeightBM25 × (the file's BM25F score for the task's own terms
//	          and the cycle's association terms / the best score any file
//	          gets): judged against the task, not the cycle's query, so scores
//	          compare across cycles
//	coverage  WeightCoverage × (share of the task's keyword weight the file
//	          has; a variant, association or synonym counts for its word)
//	focus     WeightFocus × (share of the task's keyword weight that the
//	          file's best definition holds, read from the file: a function
//	          with all the task's words beats a module that spreads them out),
//	          and WeightTitleFocus × the same for the title's words
//	history   WeightHistory × the file's share of the past commits whose
//	          messages are most like the task (see package history): where
//	          similar changes were made before
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
//	          words or their synonyms (WeightSymbolTerm)
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
package local

import (
	"context"
	"fmt"
	"math"
	"path"
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
	// WeightPathName: the file's name is one of the task's words (auth.ts for
	// an authentication task): a naming convention most codebases keep.
	WeightPathName = 0.10
	// WeightImport: imports or is imported by a relevant file, per such file
	// (scaled by its relevance).
	WeightImport = 0.10
	// WeightDefUse: defines a name that a relevant file uses, per such file.
	WeightDefUse = 0.15
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
	}
	e.best = e.bestScore(e.query)
	e.bestWith = map[string]float64{}
	e.scores = map[string]plainScore{}
	e.focusOf = map[index.ID]focused{}
	e.supporters = map[string]string{}
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
// task's own, plus the association terms REFINE found for the task's words
// (the repository's word for the task's concept, "throttle" for "rate
// limit"), with the best score any file gets for them.
func (e *Evaluator) judgingQuery(q loop.Query) ([]index.Term, float64, map[string][]string) {
	var assoc []index.Term
	var key strings.Builder
	stands := map[string][]string{}
	for _, k := range q.Keywords {
		if k.Origin == OriginSynonym && k.Weight > 0 {
			// A synonym counts toward coverage and names files and symbols,
			// but the lexical score stays the task's own words'.
			stands[synonymKey+k.Term] = []string{k.For}
			for _, f := range strings.Fields(k.For) {
				if w := e.taskTerm(f); w != "" {
					stands[k.Term] = append(stands[k.Term], w)
				}
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
			ev.Learned = e.ix.Distinctive(j.id, learnedPerFile)
		}
		out = append(out, ev)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Relevance > out[b].Relevance })
	return out, nil
}

// plainScore is a file's relevance without and with competition.
type plainScore struct{ plain, score float64 }

// compete sets each file's score: its plain relevance less Competition × how
// far its evidence falls short of the lead, but not below CompetitionFloor +
// FloorSlope × (plain - CompetitionFloor); a file at or below the floor keeps
// its plain relevance. The lead is the strongest evidence of the first cycle
// and stays: against one yardstick, scores keep the order of plain relevance
// across cycles.
func (e *Evaluator) compete(js []*judged) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, j := range js {
		if !e.led && j.evidence > e.lead {
			e.lead, e.leader = j.evidence, j.cand.Path
		}
	}
	e.led = e.led || len(js) > 0
	for _, j := range js {
		j.score = j.plain
		if !e.opts.NoCompetition && j.plain > CompetitionFloor {
			// Above the floor, never below a compressed copy of the plain
			// relevance: strictly increasing in it, so no ties and no
			// reordering.
			soft := CompetitionFloor + FloorSlope*(j.plain-CompetitionFloor)
			j.score = round3(math.Max(soft, j.plain-Competition*math.Max(0, e.lead-j.evidence)))
		}
		j.penalty = round3(j.plain - j.score)
		e.scores[j.cand.Path] = plainScore{plain: j.plain, score: j.score}
	}
}

// baseSignals adds the signals that need no other file. stands maps the
// cycle's association terms to the task words they stand for.
func (e *Evaluator) baseSignals(j *judged, best float64, stands map[string][]string) {
	add := func(label string, v float64) {
		if v > 0.0005 {
			j.signals = append(j.signals, contribution{label, v})
		}
	}
	if best > 0 && j.lex.Score > 0 {
		r := math.Min(1, j.lex.Score/best)
		add(fmt.Sprintf("bm25 %.2f of best", r), WeightBM25*r)
	}
	if e.taskTotal > 0 {
		got := map[string]bool{}
		for _, m := range j.lex.Matched {
			if t := e.taskTerm(m); t != "" {
				got[t] = true
			}
			for _, t := range stands[m] {
				got[t] = true
			}
		}
		for term, words := range stands {
			if strings.HasPrefix(term, synonymKey) || !e.contains(j.id, term) {
				continue
			}
			for _, t := range words {
				got[t] = true
			}
		}
		covered := 0.0
		for t := range got {
			covered += e.taskTerms[t]
		}
		add(fmt.Sprintf("covers %d of %d task terms", len(got), len(e.taskTerms)), WeightCoverage*covered/e.taskTotal)
	}
	for _, d := range e.ix.File(j.id).Defs {
		if !e.specific(d.Name) {
			continue
		}
		if t := e.namedAfter(d.Name, stands); t != "" {
			add(fmt.Sprintf("defines %s (%q)", d.Name, t), WeightSymbolTerm)
			break
		}
	}
	anchorSum := 0.0
	var anchorLabels []contribution
	for _, a := range e.anchors.ByFile[j.id] {
		var w float64
		label := ""
		switch a.Kind {
		case anchor.KindPath:
			w, label = WeightPath, "task names path "+a.Name
		case anchor.KindFrame:
			w, label = WeightFrame, "trace frame "+a.Name
			if a.Order == e.lastFrame {
				w += WeightLastFrame
				label = "trace frame nearest the error " + a.Name
			}
		case anchor.KindModule:
			w, label = WeightModule*e.importance(a.Name), "task names module "+a.Name
		case anchor.KindDefines:
			w, label = WeightDefines*e.importance(a.Name), "defines "+a.Name
		case anchor.KindUses:
			w, label = WeightUses*e.importance(a.Name), "uses "+a.Name
		case anchor.KindMentions:
			w, label = WeightMentions*e.importance(a.Name), "mentions "+a.Name
		}
		anchorLabels = append(anchorLabels, contribution{label, w * a.Strength})
	}
	sort.SliceStable(anchorLabels, func(a, b int) bool { return anchorLabels[a].value > anchorLabels[b].value })
	for _, c := range anchorLabels {
		v := math.Min(c.value, AnchorCap-anchorSum)
		if v <= 0 {
			break
		}
		anchorSum += v
		add(c.label, v)
	}
	if says := e.pathSays(j.cand.Path); len(says) >= 2 {
		add(fmt.Sprintf("path says %s (title)", strings.Join(says, " and ")), WeightPathName)
	}
	stem := strings.TrimSuffix(path.Base(j.cand.Path), path.Ext(j.cand.Path))
	if strings.HasPrefix(stem, "__") {
		stem = "" // __init__, __main__: every package has one; the name says nothing
	}
	for _, t := range nameTerms(stem) {
		if w := e.taskTerm(t); w != "" && e.keyTerms[w] {
			add(fmt.Sprintf("file name says %q", t), WeightPathName)
			break
		}
		if syn := stands[synonymKey+t]; len(syn) > 0 {
			add(fmt.Sprintf("file name says %q (%s)", t, syn[0]), WeightPathName)
			break
		}
	}
	for _, s := range j.signals {
		j.base += s.value
	}
	// Focus reads the file again: only for files whose other evidence
	// could place them among the strongest.
	if !e.opts.NoFocus && j.base >= FocusFloor {
		f := e.focus(j.id)
		for _, c := range []struct {
			p    piece
			w    float64
			what string
		}{{f.all, WeightFocus, "task terms"}, {f.title, WeightTitleFocus, "title words"}} {
			if v := c.w * c.p.share; v > 0.0005 {
				add(c.p.label(c.what), v)
				j.base += v
			}
		}
	}
	if h, ok := e.past[j.cand.Path]; ok {
		if v := WeightHistory * h.Score; v > 0.0005 {
			add(fmt.Sprintf("past commits like the task touched it (%d, best %s)", h.Commits, h.Best), v)
			j.base += v
		}
	}
}

// pathSays returns the title words that the file's path (directories and
// name) says, in path order.
func (e *Evaluator) pathSays(p string) []string {
	p = strings.TrimSuffix(p, path.Ext(p))
	var out []string
	seen := map[string]bool{}
	for _, comp := range strings.Split(p, "/") {
		tokenize.Identifier(comp, func(t string) {
			if w, ok := e.titleStems[tokenize.Stem(t)]; ok && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		})
	}
	return out
}

// importance returns how central a named symbol or module is to the task,
// in [MinImportance, 1]: 1 when the title names it, else its keyword weight
// relative to the task's heaviest keyword. A class named in the title
// weighs 1; one used in a pasted reproducer (models.Model, models.CharField)
// weighs less.
func (e *Evaluator) importance(name string) float64 {
	w := e.taskTerms[strings.ToLower(name)]
	if w == 0 {
		if i := strings.LastIndex(name, "."); i >= 0 {
			w = e.taskTerms[strings.ToLower(name[i+1:])]
		}
	}
	if e.maxWeight <= 0 || e.inTitle(name) {
		return 1
	}
	return math.Max(MinImportance, math.Min(1, w/e.maxWeight))
}

// inTitle reports whether the task's title has name as a word (in any
// case: titles capitalise their first word): the title states the subject.
func (e *Evaluator) inTitle(name string) bool {
	return e.titleWords[strings.ToLower(name)]
}

// contains reports whether file id has term in any field.
func (e *Evaluator) contains(id index.ID, term string) bool {
	for f := index.Field(0); f < index.NumFields; f++ {
		if e.ix.TermFreq(id, f, term) > 0 {
			return true
		}
	}
	return false
}

// specific reports whether a name says something when two files share it:
// not a dunder, defined in at most MaxSharedDefiners files, and either a
// compound identifier (is_language_prefix_used, ModelAdmin) or a capitalised
// name of some length (Session): plain words such as append, warn or collect
// are everyone's vocabulary.
func (e *Evaluator) specific(name string) bool {
	if strings.HasPrefix(name, "__") || len(name) < 3 {
		return false
	}
	if len(tokenize.Split(name)) < 2 && !(len(name) >= 5 && name[0] >= 'A' && name[0] <= 'Z') {
		return false
	}
	return len(e.ix.Defining(name)) <= MaxSharedDefiners
}

// taskTerm returns the task keyword that term is or is a variant of, or "".
func (e *Evaluator) taskTerm(term string) string {
	if _, ok := e.taskTerms[term]; ok {
		return term
	}
	return e.taskStems[tokenize.Stem(term)]
}

// namedAfter returns the distinctive task word a symbol's name contains (or
// the task phrase a synonym in it stands for), or "".
func (e *Evaluator) namedAfter(name string, stands map[string][]string) string {
	found := ""
	tokenize.Identifier(name, func(t string) {
		if found == "" && len(t) >= 4 && !tokenize.IsStopWord(t) {
			if w := e.taskTerm(t); w != "" && e.keyTerms[w] && !strings.ContainsAny(w, "._-") {
				found = w
			} else if syn := stands[synonymKey+t]; len(syn) > 0 {
				found = t + " for " + syn[0]
			}
		}
	})
	return found
}

// nameTerms returns a file stem's terms with a plural s dropped, so that
// tokens.ts answers "token".
func nameTerms(stem string) []string {
	var out []string
	tokenize.Identifier(stem, func(t string) {
		out = append(out, t)
		if len(t) > 3 && strings.HasSuffix(t, "s") {
			out = append(out, strings.TrimSuffix(t, "s"))
		}
	})
	return out
}

func (e *Evaluator) linkSignals(j *judged, relevant map[index.ID]float64, uses map[string][]index.ID) {
	var links []contribution
	seen := map[index.ID]bool{}
	for _, peer := range e.ix.Imports(j.id) {
		if r := relevant[peer]; r > 0 && peer != j.id && !seen[peer] {
			seen[peer] = true
			links = append(links, contribution{"imports " + path.Base(e.ix.File(peer).Path), WeightImport * r})
		}
	}
	importers := e.ix.ImportedBy(j.id)
	for _, peer := range importers {
		if r := relevant[peer]; r > 0 && peer != j.id && !seen[peer] {
			seen[peer] = true
			links = append(links, contribution{"imported by " + path.Base(e.ix.File(peer).Path), WeightImport * r * hub(len(importers))})
		}
	}
	users := map[index.ID]bool{}
	for _, d := range e.ix.File(j.id).Defs {
		if !e.specific(d.Name) {
			continue // __init__, save, run: defined everywhere, links nothing
		}
		damp := 1.0
		if len(uses[d.Name]) > 0 {
			damp = hub(e.ix.ReferencingCount(d.Name))
		}
		for _, peer := range uses[d.Name] {
			if r := relevant[peer]; peer != j.id && !users[peer] {
				users[peer] = true
				links = append(links, contribution{fmt.Sprintf("defines %s used by %s", d.Name, path.Base(e.ix.File(peer).Path)), WeightDefUse * r * damp})
			}
		}
	}
	sort.SliceStable(links, func(a, b int) bool { return links[a].value > links[b].value })
	sum := 0.0
	for _, l := range links {
		v := math.Min(l.value, LinkCap-sum)
		if v <= 0.0005 {
			break
		}
		sum += v
		j.signals = append(j.signals, l)
		j.signals[len(j.signals)-1].value = v
	}
}

func (e *Evaluator) reason(j *judged) string {
	sigs := append([]contribution(nil), j.signals...)
	sort.SliceStable(sigs, func(a, b int) bool { return sigs[a].value > sigs[b].value })
	parts := make([]string, 0, len(sigs)+1)
	for _, s := range sigs {
		parts = append(parts, fmt.Sprintf("%s:+%.2f", s.label, s.value))
	}
	if j.factor != 1 {
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

// squash maps a sum of contributions to [0,1]: unchanged up to SquashKnee,
// then approaching 1 smoothly, so that files with more evidence than a
// clear hit still rank above those with just enough (no ties at 1).
func squash(x float64) float64 {
	if x <= SquashKnee {
		return math.Max(0, x)
	}
	return SquashKnee + (1-SquashKnee)*(1-math.Exp(-(x-SquashKnee)/SquashScale))
}

// hub returns the share of a link's weight kept when the linked name or file
// has n users: all of it up to HubUsers, then sqrt(HubUsers/n). A class
// every module uses, or a module every module imports, links a relevant
// file to everything.
func hub(n int) float64 {
	if n <= HubUsers {
		return 1
	}
	return math.Sqrt(float64(HubUsers) / float64(n))
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
