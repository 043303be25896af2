// Package loop is hone's iterative retrieval loop, and the small vocabulary its
// three roles share.
//
// A subagent needs the files that matter for a task, and nothing else. The loop
// finds them the way a careful engineer would:
//
//  1. DISPATCH: a Searcher runs a broad Query (keywords, glob patterns,
//     excludes, focus areas) and proposes candidate files.
//  2. EVALUATE: an Evaluator gives each candidate a relevance in [0,1], a
//     reason, and the context still missing. 0.8-1.0 directly implements the
//     target; 0.5-0.7 related patterns or types; 0.2-0.4 tangential; below 0.2
//     not relevant.
//  3. REFINE: a Refiner turns the judgments into the next Query: the codebase's
//     own terms found in relevant files, their directories, excludes for files
//     below 0.2, and targeted look-ups for the missing context.
//  4. LOOP: at most Options.MaxCycles cycles. The loop stops early when
//     Options.MinFiles files reach Options.Threshold and no critical gap
//     remains, or when a cycle brings nothing new.
//
// The result holds the files at or above the threshold, best first, and every
// evaluated file ranked, merged across cycles.
//
// # Judgments are kept
//
// A judge that reads code (an agent over MCP, a language model) costs tokens
// for every file it reads, and what it said stays true: a judged file is never
// offered again, every cycle offers files not judged yet (going down the
// ranking when the refined query brings nothing new), and a file's relevance
// is its judgment until the judge revises it explicitly (Evaluation.Revise).
// A cycle that would only repeat earlier ones stops the session and says so.
// The judge may end the session (Session.Finish: at once, or after the second
// looks of judgments hone's evidence disputes; a judge Run drives says so as
// a Finisher, asked after each cycle that leaves files relevant) and may ask
// for something specific in the next cycle (Session.Request: a symbol's
// definition, its callers, a path pattern). Options.Rejudge restores the other behaviour for
// a cheap deterministic judge (hone's local evaluator): judged files are
// offered again and re-scored with the refined query, the latest judgment
// winning.
//
// # What a judge reads first
//
// A judge should find at least what hone's own ranking holds at the same
// reading cost. With Options.Pool and Options.Prior (hone wires both for a
// stepwise session), each cycle's page is the best of hone's own final
// ranking (Prior) not judged yet and of a pool of the refined query's
// files, ordered by hone's evidence; what a refinement brought in from the
// judgments (the judge's terms and requests, the neighbours of files it
// found relevant) goes first. Cycle 1 is thus hone's top page, and each later
// cycle what the judgments point to, then the next page.
//
// The loop knows no concrete Searcher, Evaluator or Refiner; hone wires them in
// one place. A Session exposes the loop one step at a time, so that a caller
// (an agent over MCP) can be the Evaluator itself.
package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Keyword is one weighted term of a Query.
type Keyword struct {
	// Term is a lower-case index term or a whole identifier.
	Term string
	// Weight multiplies the term's contribution; words of the task weigh 1.
	Weight float64
	// Origin says where the term came from: "task", "identifier", "learned"
	// (from a relevant file), "association" (co-occurrence in the repository)
	// or "gap" (named by missing context).
	Origin string
	// For is the task word an "association" or "stem" term stands for
	// ("limit" for "throttle"), so a judge can count it toward that word.
	For string
}

// Focus-area prefixes. A focus area steers DISPATCH beyond keyword matching.
const (
	// FocusFile names a repository path that must be a candidate (a file named
	// in the task or in a stack trace): "file:django/db/models/query.py".
	FocusFile = "file:"
	// FocusSymbol names a symbol whose defining files must be candidates:
	// "symbol:QuerySet" or "symbol:django.db.models.QuerySet".
	FocusSymbol = "symbol:"
	// FocusDir names a directory whose files are preferred: "dir:src/auth/".
	FocusDir = "dir:"
)

// Query is what DISPATCH runs. The zero Query matches every indexed file with
// no preference.
type Query struct {
	// Patterns are doublestar globs over repository paths; a candidate must match
	// one of them. Empty means every indexed file.
	Patterns []string `json:"patterns"`
	// Keywords rank the candidates.
	Keywords []Keyword `json:"-"`
	// Excludes are globs or exact paths never proposed again.
	Excludes []string `json:"excludes"`
	// FocusAreas are prefixed targets (FocusFile, FocusSymbol, FocusDir).
	FocusAreas []string `json:"focus_areas"`
}

// Terms returns the keyword terms in order, for display.
func (q Query) Terms() []string {
	out := make([]string, len(q.Keywords))
	for i, k := range q.Keywords {
		out[i] = k.Term
	}
	return out
}

// NoMatch is the stop reason of a cycle whose query matched no file; it
// names the words searched for, so that the reader sees why.
func NoMatch(cycle int, q Query) string {
	terms := q.Terms()
	if len(terms) == 0 {
		return fmt.Sprintf("cycle %d: the query matched no file (the task gave no word to search for)", cycle)
	}
	more := ""
	if len(terms) > 8 {
		terms, more = terms[:8], fmt.Sprintf(" +%d more", len(terms)-8)
	}
	return fmt.Sprintf("cycle %d: the query matched no file (words searched: %s%s)", cycle, strings.Join(terms, ", "), more)
}

// Clone returns a deep copy of q.
func (q Query) Clone() Query {
	return Query{
		Patterns:   append([]string(nil), q.Patterns...),
		Keywords:   append([]Keyword(nil), q.Keywords...),
		Excludes:   append([]string(nil), q.Excludes...),
		FocusAreas: append([]string(nil), q.FocusAreas...),
	}
}

// Candidate is a file proposed by DISPATCH.
type Candidate struct {
	// Path is repository-relative with forward slashes.
	Path string
	// Score is the Searcher's score; higher is better. Scores compare only
	// within one Search call.
	Score float64
	// Matched lists the query terms found in the file.
	Matched []string
	// Via lists the focus areas that brought the file in, or, first, why a
	// judged file is offered again (SecondLook).
	Via []string
	// Evidence is hone's own relevance of the file (Options.Evidence), set
	// by a Session's Dispatch when it weighed the file; otherwise 0.
	Evidence float64
	// EvidenceReason is why hone's evaluator gave Evidence: its reason, as
	// it wrote it ("" when the file was not weighed). See EvidenceBrief.
	EvidenceReason string
}

// SecondLook prefixes the Via of a judged file offered once more because
// hone's evidence disputes its judgment.
const SecondLook = "second look: "

// SecondLook reports whether c is a judged file offered for a second look.
func (c Candidate) SecondLook() bool {
	return len(c.Via) > 0 && strings.HasPrefix(c.Via[0], SecondLook)
}

// Evaluation is the judgment of one file.
type Evaluation struct {
	// Path is repository-relative with forward slashes.
	Path string `json:"path"`
	// Relevance is in [0,1].
	Relevance float64 `json:"relevance"`
	// Reason explains the relevance; the local evaluator lists its signals and
	// their weights.
	Reason string `json:"reason"`
	// MissingContext names what the file needs that was not found yet, such as
	// "definition of SessionManager" or "caller of validate_enrollment".
	MissingContext []string `json:"missing_context"`
	// Critical is true when some missing context is needed to act on the task
	// (the loop does not stop early while a file at or above the threshold has a
	// critical gap).
	Critical bool `json:"-"`
	// Learned lists the file's own distinctive terms that the Refiner may add to
	// the next query.
	Learned []string `json:"-"`
	// Terms are the codebase's own words the judge named for the next query
	// (an agent's terms, a model's keywords): "SchoolContext" where the task
	// said "DbContext". They weigh as the task's words, and the files that
	// define them become candidates.
	Terms []string `json:"-"`
	// Revise marks a judgment that replaces the judge's earlier one of a file
	// judged in an earlier cycle (without Rejudge, only such a judgment may
	// name a file that is not a candidate of the current cycle).
	Revise bool `json:"-"`
}

// Searcher proposes candidates for a query (DISPATCH).
type Searcher interface {
	// Search returns at most limit ranked candidates, best first, followed
	// by the files that the query's file: and symbol: focus areas name, when
	// the ranking missed them.
	Search(ctx context.Context, q Query, limit int) ([]Candidate, error)
}

// EvalInput is what an Evaluator judges.
type EvalInput struct {
	// Task is the task as the user wrote it.
	Task string
	// Cycle counts from 1.
	Cycle int
	// Query is the query that produced the candidates.
	Query Query
	// Candidates are this cycle's candidates, best first.
	Candidates []Candidate
	// Judged holds the latest evaluation of every file judged in earlier
	// cycles, by path.
	Judged map[string]Evaluation
}

// Evaluator judges candidates (EVALUATE).
type Evaluator interface {
	// Evaluate returns one evaluation per candidate it could judge. It may
	// leave out candidates it could not judge; it must not invent paths.
	Evaluate(ctx context.Context, in EvalInput) ([]Evaluation, error)
}

// A Finisher is an Evaluator that can also say, after a cycle, that the
// files judged relevant so far are enough for the task: the judge's "done"
// (Session.Finish), for a judge Run drives, such as a language model. Run
// asks it after each cycle that leaves at least one file judged relevant and
// none of them with a critical gap, unless the session ends anyway.
type Finisher interface {
	// Enough reports whether the relevant files suffice, and why (or what
	// is still missing). An error counts as "not enough": the loop goes on.
	Enough(ctx context.Context, in EnoughInput) (bool, string, error)
}

// EnoughInput is what a Finisher decides on.
type EnoughInput struct {
	// Task is the task as the user wrote it.
	Task string
	// Cycle is the cycle just judged, from 1.
	Cycle int
	// Relevant are the latest judgments at or above the threshold, best
	// first.
	Relevant []Evaluation
}

// RefineInput is what a Refiner learns from.
type RefineInput struct {
	Task  string
	Cycle int
	// Query is the query of the cycle just judged.
	Query Query
	// Evaluations are the judgments of that cycle, best first.
	Evaluations []Evaluation
	// Judged holds the latest evaluation of every file judged so far.
	Judged map[string]Evaluation
	// Requests are what the judge asked the next cycle to look up, in its
	// words: "definition of X", "callers of X", "path:src/auth/**".
	Requests []string
}

// Refinement records what REFINE changed and why.
type Refinement struct {
	AddedKeywords []string `json:"added_keywords"`
	AddedPatterns []string `json:"added_patterns"`
	Excluded      []string `json:"excluded"`
	AddedFocus    []string `json:"added_focus"`
	// Associations are the repository's own terms used for the task's words,
	// "rate limit → throttle (co-occurs in 4 files)".
	Associations []string `json:"associations"`
	// Why explains each change in a line.
	Why []string `json:"why"`
}

// Empty reports whether the refinement changed nothing in the query.
func (r Refinement) Empty() bool {
	return len(r.AddedKeywords) == 0 && len(r.AddedPatterns) == 0 && len(r.Excluded) == 0 && len(r.AddedFocus) == 0
}

// Refiner builds the first query from the task and each next one from
// judgments (REFINE).
type Refiner interface {
	Initial(ctx context.Context, task string) (Query, error)
	Refine(ctx context.Context, in RefineInput) (Query, Refinement, error)
}

// Options set the loop's budget and stop rule. The zero value means the
// defaults; see SetDefaults.
type Options struct {
	// MaxCycles bounds the number of cycles (default 3).
	MaxCycles int
	// Threshold is the relevance a file needs to be in Result.Files (default 0.7).
	Threshold float64
	// MinFiles files at or above Threshold, with no critical gap, stop the loop
	// early (default 3).
	MinFiles int
	// Candidates is the number of candidates per DISPATCH (default 40).
	// Without Rejudge it is a hard cap: the files a focus area brings in
	// (named by the task) count toward it.
	Candidates int
	// Rejudge offers judged files again in later cycles, where the judge
	// re-scores them with the refined query and the latest judgment wins:
	// for a cheap, deterministic judge (hone's local evaluator). Off (the
	// default), a judged file is never offered again and every cycle brings
	// files not judged yet.
	Rejudge bool
	// Evidence, when set (and Rejudge is off), is hone's own evaluator, run on
	// each cycle's candidates: a judgment it disputes strongly (see Dispute)
	// does not count toward the stop rule and is offered once more for a
	// second look, whose judgment stands; a judge in doubt (DoubtBelow)
	// is disputed more readily.
	Evidence Evaluator `json:"-"`
	// Pool, when above Candidates and Evidence is set, is how many files
	// not judged yet DISPATCH asks the Searcher for: the evidence judges them
	// all and the Candidates it ranks best are offered (what a refinement
	// brought in first; the first query's focus areas are in the evidence
	// already). A judge then reads hone's own ranking, not the Searcher's,
	// page by page. Zero: the Searcher's order.
	Pool int
	// Prior is hone's own ranking of the task, best first (its offline
	// loop's Result.Ranked, from the same evaluator as Evidence). With Pool,
	// DISPATCH ranks the files of Prior not judged yet beside the Searcher's
	// pool, each at its relevance there, which is also the evidence its
	// judgment is weighed against: the judge reads hone's final ranking
	// first, and what the judge's refined queries bring competes with it.
	// A file's evidence is found once: from Prior, else the first time the
	// pool holds it.
	Prior []Evaluation `json:"-"`
	// Reground, when set, is asked before each REFINE of a session (Start's
	// loop) for newer ground to go on from: a session that started on a
	// first answer's partial index moves to the complete index once it is
	// there, so that its refinements and later cycles read the definitions,
	// imports and links the partial index lacked. It returns nil to keep the
	// current ground. What was judged stays, with the evidence it was weighed
	// against; the files not judged yet are weighed again on the new ground.
	Reground func(ctx context.Context) *Ground `json:"-"`
}

// Ground is what a session searches and weighs with: the parts of its wiring
// bound to one index (see Options.Reground).
type Ground struct {
	Searcher Searcher
	Refiner  Refiner
	// Evidence and Prior replace Options.Evidence and Options.Prior; a nil
	// Evidence keeps the current one.
	Evidence Evaluator
	Prior    []Evaluation
	// Why says what changed, for the trace.
	Why string
}

// Defaults.
const (
	DefaultMaxCycles  = 3
	DefaultThreshold  = 0.7
	DefaultMinFiles   = 3
	DefaultCandidates = 40
)

// SetDefaults fills zero fields with the defaults.
func (o *Options) SetDefaults() {
	if o.MaxCycles <= 0 {
		o.MaxCycles = DefaultMaxCycles
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.MinFiles <= 0 {
		o.MinFiles = DefaultMinFiles
	}
	if o.Candidates <= 0 {
		o.Candidates = DefaultCandidates
	}
}

// Cycle is the trace of one cycle.
type Cycle struct {
	N           int          `json:"cycle"`
	Query       Query        `json:"query"`
	Candidates  int          `json:"candidates"`
	Evaluations []Evaluation `json:"evaluations"`
	// Refinement is nil for the last cycle.
	Refinement *Refinement `json:"refinement"`
}

// Result is what the loop returns.
type Result struct {
	Task string `json:"task"`
	// Files are the evaluations at or above the threshold, best first.
	Files []Evaluation `json:"files"`
	// Ranked is every evaluated file, best first, merged across cycles.
	Ranked []Evaluation `json:"ranked"`
	Cycles []Cycle      `json:"cycles"`
	// Stopped says why the loop stopped.
	Stopped string `json:"stopped"`
	// Evidence is hone's own judgment of the files a judged session weighed
	// (Options.Evidence: its Prior and the candidates it weighed), best
	// first; nil without Options.Evidence. A context pack falls back on it
	// after the judge's files (see hone's Repo.Pack).
	Evidence []Evaluation `json:"-"`
}

// ErrDone is returned by Session methods once the loop has stopped.
var ErrDone = errors.New("loop: session is done")

// Session runs the loop one step at a time: Dispatch proposes candidates, the
// caller judges them, Judge records the judgments and refines. Run drives a
// Session with an Evaluator. A Session is not safe for concurrent use.
type Session struct {
	task     string
	searcher Searcher
	refiner  Refiner
	opts     Options

	query    Query
	pending  []Candidate // candidates of the current cycle, awaiting Judge
	cycles   []Cycle
	judged   map[string]Evaluation
	order    map[string]int // first-seen order, for stable ties
	requests []string       // the judge's asks for the next cycle
	stopped  string

	evidence  map[string]float64 // hone's own relevance of each candidate (Options.Evidence)
	why       map[string]string  // and its reason
	disputed  map[string]string  // judgments the evidence disputes, awaiting a second look: why
	looked    map[string]bool    // files given their second look
	extra     bool               // the cycle beyond MaxCycles that only gives second looks
	finish    string             // why the judge asked to end (Finish), while its second looks are given
	looks     int                // cycles of second looks only after which the session went on (Finish)
	prior     []string           // Options.Prior's paths, best first
	initial   map[string]bool    // the first query's focus areas
	asked     bool               // the last judgments named missing context, terms or requests
	doubt     string             // why the judge is in doubt (DoubtBelow); "" while it is not
	hopeless  map[string]bool    // files judged relevant that hone's evidence rates below HopelessBelow
	distrust  string             // why the judge is distrusted (DistrustAfter); "" while it is not
	overruled map[string]string  // relevant judgments the loop does not take (distrust): why
}

// NewSession starts a loop for task and builds its first query.
func NewSession(ctx context.Context, task string, s Searcher, r Refiner, opts Options) (*Session, error) {
	if strings.TrimSpace(task) == "" {
		return nil, errors.New("loop: empty task")
	}
	opts.SetDefaults()
	q, err := r.Initial(ctx, task)
	if err != nil {
		return nil, fmt.Errorf("loop: initial query: %w", err)
	}
	sess := &Session{task: task, searcher: s, refiner: r, opts: opts, query: q,
		judged: map[string]Evaluation{}, order: map[string]int{},
		evidence: map[string]float64{}, why: map[string]string{}, disputed: map[string]string{}, looked: map[string]bool{},
		hopeless: map[string]bool{}, overruled: map[string]string{}}
	if sess.pooled() {
		sess.initial = map[string]bool{}
		for _, f := range q.FocusAreas {
			sess.initial[f] = true
		}
		sess.takePrior(opts.Prior)
	}
	return sess, nil
}

// reground moves the session onto g (Options.Reground). The judged files
// keep their evidence; every other file's is forgotten, then taken from g's
// Prior or weighed when a pool next holds it.
func (s *Session) reground(g *Ground) {
	if g.Searcher != nil {
		s.searcher = g.Searcher
	}
	if g.Refiner != nil {
		s.refiner = g.Refiner
	}
	if g.Evidence == nil {
		return
	}
	s.opts.Evidence, s.opts.Prior = g.Evidence, g.Prior
	for p := range s.evidence {
		if _, judged := s.judged[p]; !judged {
			delete(s.evidence, p)
			delete(s.why, p)
		}
	}
	s.prior = s.prior[:0]
	s.takePrior(g.Prior)
}

// takePrior reads hone's ranking (Options.Prior): each file's relevance there
// is its evidence, unless the file has evidence already, and the files
// taken are the prior's order.
func (s *Session) takePrior(prior []Evaluation) {
	for _, e := range prior {
		if _, ok := s.evidence[e.Path]; !ok {
			s.evidence[e.Path] = clamp01(e.Relevance)
			s.why[e.Path] = e.Reason
			s.prior = append(s.prior, e.Path)
		}
	}
}

// pooled reports whether DISPATCH ranks a pool by hone's evidence
// (Options.Pool).
func (s *Session) pooled() bool {
	return !s.opts.Rejudge && s.opts.Evidence != nil && s.opts.Pool > s.opts.Candidates
}

// Query returns the query the next Dispatch runs.
func (s *Session) Query() Query { return s.query.Clone() }

// Cycle returns the number of the current cycle, from 1.
func (s *Session) Cycle() int { return len(s.cycles) + 1 }

// Done reports whether the loop has stopped, and why.
func (s *Session) Done() (bool, string) { return s.stopped != "", s.stopped }

// Judged returns a copy of the latest evaluation of every judged file.
func (s *Session) Judged() map[string]Evaluation {
	m := make(map[string]Evaluation, len(s.judged))
	for k, v := range s.judged {
		m[k] = v
	}
	return m
}

// Dispatch runs the current query and returns this cycle's candidates. It
// returns none only when the session is done (the query matched no file, or,
// without Rejudge, only files judged already): Done says why.
func (s *Session) Dispatch(ctx context.Context) ([]Candidate, error) {
	if s.stopped != "" {
		return nil, ErrDone
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.opts.Rejudge {
		cands, err := s.searcher.Search(ctx, s.query, s.opts.Candidates)
		if err != nil {
			return nil, fmt.Errorf("loop: dispatch: %w", err)
		}
		s.pending = cands
		if len(cands) == 0 {
			s.stopped = NoMatch(s.Cycle(), s.query)
		}
		return cands, nil
	}
	// Ask for as many more as were judged: the judged ones are dropped, so the
	// cycle goes down the ranking.
	pool := s.opts.Candidates
	ranked := s.pooled()
	if ranked {
		pool = s.opts.Pool
	}
	cands, err := s.searcher.Search(ctx, s.query, pool+len(s.judged))
	if err != nil {
		return nil, fmt.Errorf("loop: dispatch: %w", err)
	}
	fresh := cands[:0:0]
	for _, c := range cands {
		if _, ok := s.judged[c.Path]; !ok {
			fresh = append(fresh, c)
		}
	}
	if ranked {
		// hone's own ranking: its files not judged yet compete with the pool.
		in := make(map[string]bool, len(fresh))
		for _, c := range fresh {
			in[c.Path] = true
		}
		for _, p := range s.prior {
			if _, judged := s.judged[p]; !judged && !in[p] {
				fresh = append(fresh, Candidate{Path: p})
			}
		}
	}
	second := s.secondLooks()
	if s.extra {
		fresh = nil // the extra cycle only gives second looks
	}
	switch {
	case len(second) == 0 && len(cands) == 0 && len(fresh) == 0:
		s.stopped = NoMatch(s.Cycle(), s.query)
		return nil, nil
	case len(second) == 0 && len(fresh) == 0:
		s.stopped = fmt.Sprintf("cycle %d: every file the query matches was judged in an earlier cycle", s.Cycle())
		return nil, nil
	}
	if len(second) > s.opts.Candidates {
		second = second[:s.opts.Candidates]
	}
	if ranked {
		// hone's evidence judges the whole pool, beside its own ranking
		// (Prior), and picks the page offered.
		var unweighed []Candidate
		for _, c := range fresh {
			if _, ok := s.evidence[c.Path]; !ok {
				unweighed = append(unweighed, c)
			}
		}
		if err := s.weigh(ctx, unweighed); err != nil {
			return nil, err
		}
		sort.SliceStable(fresh, func(a, b int) bool { return s.evidence[fresh[a].Path] > s.evidence[fresh[b].Path] })
		if why, ok := s.enough(fresh); ok {
			// Only the open second looks, then the end.
			if len(second) == 0 {
				s.stopped = why
				return nil, nil
			}
			fresh, s.extra = nil, true
		}
		// The task's own focus areas are in the evidence already: only
		// what a refinement brought in (the judge's terms, requests and
		// neighbours) goes before hone's ranking.
		fresh = capCandidates(fresh, s.opts.Candidates-len(second), s.initial)
	} else {
		fresh = capCandidates(fresh, s.opts.Candidates-len(second), nil)
		if err := s.weigh(ctx, fresh); err != nil {
			return nil, err
		}
	}
	s.pending = append(second, fresh...)
	for i := range s.pending {
		s.pending[i].Evidence = s.evidence[s.pending[i].Path]
		s.pending[i].EvidenceReason = s.why[s.pending[i].Path]
	}
	return append([]Candidate(nil), s.pending...), nil
}

// capCandidates keeps at most limit candidates: every one a focus area
// brought in (a file the task names, a symbol's definition) first, in the
// order given, then the best ranked others; the result keeps the order
// given. A focus area in ignore gives no priority.
func capCandidates(cands []Candidate, limit int, ignore map[string]bool) []Candidate {
	if len(cands) <= limit {
		return cands
	}
	keep := make([]bool, len(cands))
	n := 0
	for i, c := range cands {
		if n < limit && slices.ContainsFunc(c.Via, func(v string) bool { return !ignore[v] }) {
			keep[i] = true
			n++
		}
	}
	for i := range cands {
		if !keep[i] && n < limit {
			keep[i] = true
			n++
		}
	}
	out := make([]Candidate, 0, limit)
	for i, c := range cands {
		if keep[i] {
			out = append(out, c)
		}
	}
	return out
}

// Request records what the judge asks the next cycle to look up ("definition
// of X", "callers of X", "path:src/auth/**"); the Refiner receives it with
// the judgments of the cycle.
func (s *Session) Request(asks ...string) {
	for _, a := range asks {
		if a = strings.TrimSpace(a); a != "" {
			s.requests = append(s.requests, a)
		}
	}
}

// Input returns the EvalInput for the candidates of the last Dispatch.
func (s *Session) Input() EvalInput {
	return EvalInput{Task: s.task, Cycle: s.Cycle(), Query: s.query.Clone(),
		Candidates: append([]Candidate(nil), s.pending...), Judged: s.Judged()}
}

// Judge records the evaluations of the current cycle, applies the stop rule
// and, when the loop goes on, refines the query. Evaluations of paths that
// were not candidates of this cycle are an error. It reports whether the loop
// is done.
func (s *Session) Judge(ctx context.Context, evals []Evaluation) (bool, error) {
	if s.stopped != "" {
		return true, ErrDone
	}
	cand := make(map[string]bool, len(s.pending))
	for _, c := range s.pending {
		cand[c.Path] = true
	}
	newPaths := 0
	clean := make([]Evaluation, 0, len(evals))
	seen := map[string]bool{}
	for _, e := range evals {
		_, before := s.judged[e.Path]
		if !cand[e.Path] && !(e.Revise && before) {
			if e.Revise {
				return false, fmt.Errorf("loop: revised %q, which was never judged", e.Path)
			}
			return false, fmt.Errorf("loop: judged %q, which is not a candidate of cycle %d", e.Path, s.Cycle())
		}
		if seen[e.Path] {
			continue
		}
		seen[e.Path] = true
		e.Relevance = clamp01(e.Relevance)
		if e.MissingContext == nil {
			e.MissingContext = []string{}
		}
		if _, ok := s.judged[e.Path]; !ok {
			newPaths++
			s.order[e.Path] = len(s.order)
		}
		clean = append(clean, e)
	}
	s.sortEvals(clean)
	doubted := s.doubt != ""
	if !s.opts.Rejudge && !doubted {
		for _, e := range clean {
			if s.doubt = s.doubtOf(e); s.doubt != "" {
				break
			}
		}
	}
	dropped := 0 // second looks that turned a relevant judgment unrelated
	for _, e := range clean {
		if _, ok := s.disputed[e.Path]; ok {
			s.looked[e.Path] = true // its second look: this judgment stands
			if s.judged[e.Path].Relevance >= s.opts.Threshold && e.Relevance < s.opts.Threshold {
				dropped++
			}
		}
		s.judged[e.Path] = e
		if !s.opts.Rejudge {
			s.dispute(e)
			s.noteHopeless(e)
		}
	}
	distrusted := s.distrust != ""
	if !s.opts.Rejudge && !distrusted && len(s.hopeless) >= DistrustAfter {
		s.distrust = s.distrustWhy()
	}
	if s.distrust != "" {
		// From the judgment that made the judge distrusted on, every
		// relevant judgment of a file hone rates below OverruleBelow is
		// overruled, the earlier ones too.
		for p, e := range s.judged {
			if !distrusted || seen[p] {
				s.overrule(e)
			}
		}
	}
	if !doubted && s.doubt != "" {
		// In doubt from now on: the earlier judgments of unrelated files
		// are checked again against the lower bar.
		for p, e := range s.judged {
			if _, open := s.disputed[p]; !open && !seen[p] {
				s.dispute(e)
			}
		}
	}
	cyc := Cycle{N: s.Cycle(), Query: s.query.Clone(), Candidates: len(s.pending), Evaluations: clean}
	s.cycles = append(s.cycles, cyc)
	last := &s.cycles[len(s.cycles)-1]
	s.pending = nil

	var goOn string
	if s.extra && s.finish != "" {
		if dropped == 0 {
			s.stopped = fmt.Sprintf("%s; cycle %d gave the judgments hone's evidence disputed their second look first", s.finish, last.N)
			return true, nil
		}
		// The judge's "enough" rested on a file it now calls unrelated:
		// the session goes on, unless the rules below stop it, and the
		// judge may finish again.
		goOn = fmt.Sprintf("the judge asked to end, then turned %d relevant judgments over on their second look: the session goes on", dropped)
		s.extra, s.finish = false, ""
		s.looks++ // it brought no new file: not one of the pattern's cycles
	}
	if why, stop := s.stopRule(newPaths, clean, goOn != ""); stop {
		if len(s.disputed) > 0 && !s.extra {
			// Before the session ends, one more cycle gives the disputed
			// files their second look, and nothing else.
			s.extra = true
			return false, nil
		}
		s.stopped = why
		return true, nil
	}
	if s.extra {
		s.stopped = fmt.Sprintf("cycle %d: second looks given before the end", last.N)
		return true, nil
	}
	if err := ctx.Err(); err != nil {
		s.stopped = "cancelled: " + err.Error()
		return true, err
	}
	var moved string
	if s.opts.Reground != nil {
		if g := s.opts.Reground(ctx); g != nil {
			s.reground(g)
			moved = g.Why
		}
	}
	requests := s.requests
	s.requests = nil
	s.asked = len(requests) > 0
	for _, e := range clean {
		s.asked = s.asked || len(e.MissingContext) > 0 || len(e.Terms) > 0
	}
	next, ref, err := s.refiner.Refine(ctx, RefineInput{Task: s.task, Cycle: last.N, Query: s.query.Clone(),
		Evaluations: clean, Judged: s.Judged(), Requests: requests})
	if err != nil {
		s.stopped = "refine failed: " + err.Error()
		return true, fmt.Errorf("loop: refine: %w", err)
	}
	if moved != "" {
		ref.Why = append(ref.Why, moved)
	}
	if goOn != "" {
		ref.Why = append(ref.Why, goOn)
	}
	if !distrusted && s.distrust != "" {
		ref.Why = append(ref.Why, fmt.Sprintf("the judge is distrusted: %s; its relevant judgments of files hone rates below %.2f are overruled (%d so far)",
			s.distrust, OverruleBelow, len(s.overruled)))
	}
	last.Refinement = &ref
	if ref.Empty() {
		if s.opts.Rejudge {
			s.stopped = fmt.Sprintf("cycle %d: refinement found nothing to add", last.N)
			return true, nil
		}
		// The same query offers the next files of its ranking: the judged
		// ones are not offered again.
		ref.Why = append(ref.Why, "nothing new to add: the next cycle goes further down the same ranking")
	}
	s.query = next
	return false, nil
}

// stopRule applies the early-stop rule after a cycle whose judgments are
// evals. A judgment hone's evidence disputes does not count until its
// second look; the reason says so. A cycle of second looks only (looked:
// the judge asked to end, then turned a judgment over) brings no new file:
// it is not one of the MaxCycles, and it is not a cycle that "brought
// nothing related".
func (s *Session) stopRule(newPaths int, evals []Evaluation, looked bool) (string, bool) {
	n := len(s.cycles)   // the cycle's number, in the reasons
	fresh := n - s.looks // the cycles that offered new files
	good, critical := 0, 0
	for p, e := range s.judged {
		if s.stands(p, e) {
			good++
			if e.Critical {
				critical++
			}
		}
	}
	related := false // this cycle judged some file related or relevant
	for _, e := range evals {
		related = related || e.Relevance >= 0.5
	}
	disputes := ""
	if len(s.disputed) > 0 {
		disputes = fmt.Sprintf("; %d judgments hone's evidence disputes await a second look", len(s.disputed))
	}
	switch {
	case good >= s.opts.MinFiles && critical == 0:
		return fmt.Sprintf("cycle %d: %d files at or above %.2f and no critical gap%s", n, good, s.opts.Threshold, disputes), true
	case !s.opts.Rejudge && !looked && fresh > 1 && good > 0 && critical == 0 && !related && len(s.disputed) == 0:
		return fmt.Sprintf("cycle %d brought nothing related; %d files at or above %.2f stand", n, good, s.opts.Threshold), true
	case s.opts.Rejudge && n > 1 && newPaths == 0:
		return fmt.Sprintf("cycle %d brought no new file", n), true
	case fresh >= s.opts.MaxCycles:
		if good >= s.opts.MinFiles {
			return fmt.Sprintf("cycle %d: reached --cycles %d; %d files at or above %.2f, %d with a critical gap", n, s.opts.MaxCycles, good, s.opts.Threshold, critical), true
		}
		return fmt.Sprintf("cycle %d: reached --cycles %d with %d of %d files at or above %.2f", n, s.opts.MaxCycles, good, s.opts.MinFiles, s.opts.Threshold), true
	}
	return "", false
}

// Stop ends the session early with a reason (a caller that has seen enough).
func (s *Session) Stop(why string) {
	if s.stopped == "" {
		s.stopped = why
	}
}

// Finish ends the session at the judge's request (it has enough context),
// as Stop does, unless judgments hone's evidence disputes await their second
// look: a judge's "enough" must not rest on judgments hone's evidence
// disagrees with strongly (a handful of false positives). Then the next
// cycle offers those second looks only, and the session ends after them with
// why, unless a second look turns a relevant judgment unrelated: the
// judge's "enough" rested on it, and the session goes on (the refinement's
// trace says so), the judge free to finish again. Call it after Judge.
// Finish reports whether the session has ended.
func (s *Session) Finish(why string) bool {
	if s.stopped != "" {
		return true
	}
	if len(s.disputed) == 0 || s.opts.Rejudge || len(s.pending) > 0 {
		s.Stop(why)
		return true
	}
	s.extra, s.finish = true, why
	return false
}

// Result returns the result so far: all judged files, best first.
func (s *Session) Result() *Result {
	ranked := make([]Evaluation, 0, len(s.judged))
	for p, e := range s.judged {
		if why := s.overruled[p]; why != "" {
			// hone's word stands, not the mean of the two (which lost the
			// simulated model one more dev issue at Acc@5: BENCHMARKS.md,
			// *A judge that errs is distrusted*).
			e.Relevance = s.evidence[p]
			e.Reason = fmt.Sprintf("overruled, hone's evidence %.2f stands: %s; the judge said: %s", e.Relevance, why, e.Reason)
		}
		ranked = append(ranked, e)
	}
	s.sortEvals(ranked)
	files := []Evaluation{}
	for _, e := range ranked {
		if e.Relevance >= s.opts.Threshold {
			files = append(files, e)
		}
	}
	stopped := s.stopped
	if stopped == "" {
		stopped = "not finished"
	}
	return &Result{Task: s.task, Files: files, Ranked: ranked, Cycles: append([]Cycle(nil), s.cycles...), Stopped: stopped,
		Evidence: s.evidenceRanked()}
}

// sortEvals orders by relevance, then by hone's evidence (Options.Evidence:
// of two files a judge rated alike, the one hone rates higher first), then
// by first-seen order, then by path.
func (s *Session) sortEvals(es []Evaluation) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Relevance != es[j].Relevance {
			return es[i].Relevance > es[j].Relevance
		}
		ei, iok := s.evidence[es[i].Path]
		ej, jok := s.evidence[es[j].Path]
		if iok && jok && ei != ej {
			return ei > ej
		}
		oi, iok := s.order[es[i].Path]
		oj, jok := s.order[es[j].Path]
		if iok && jok && oi != oj {
			return oi < oj
		}
		return es[i].Path < es[j].Path
	})
}

// Run drives the loop with an Evaluator until it stops. On cancellation it
// returns the result so far together with the context's error.
func Run(ctx context.Context, task string, s Searcher, e Evaluator, r Refiner, opts Options) (*Result, error) {
	sess, err := NewSession(ctx, task, s, r, opts)
	if err != nil {
		return nil, err
	}
	for {
		cands, err := sess.Dispatch(ctx)
		if err != nil {
			sess.Stop("dispatch failed: " + err.Error())
			return sess.Result(), err
		}
		if len(cands) == 0 {
			sess.Stop(NoMatch(sess.Cycle(), sess.Query()))
			return sess.Result(), nil
		}
		evals, err := e.Evaluate(ctx, sess.Input())
		if err != nil {
			sess.Stop("evaluate failed: " + err.Error())
			return sess.Result(), fmt.Errorf("loop: evaluate: %w", err)
		}
		done, err := sess.Judge(ctx, evals)
		if err != nil {
			return sess.Result(), err
		}
		if done {
			return sess.Result(), nil
		}
		if f, ok := e.(Finisher); ok && sess.askEnough() {
			in := EnoughInput{Task: task, Cycle: sess.Cycle() - 1, Relevant: sess.Result().Files}
			enough, why, err := f.Enough(ctx, in)
			if err != nil && ctx.Err() != nil {
				sess.Stop("cancelled: " + ctx.Err().Error())
				return sess.Result(), ctx.Err()
			}
			if err == nil && enough {
				msg := fmt.Sprintf("cycle %d: the judge says done", in.Cycle)
				if why = strings.TrimSpace(why); why != "" {
					msg += " (" + why + ")"
				}
				if sess.Finish(msg) {
					return sess.Result(), nil
				}
			}
		}
	}
}

// askEnough reports whether a Finisher is asked after the cycle just
// judged: the session goes on, it is not giving second looks before its
// end, and at least one file stands relevant, none with a critical gap.
func (s *Session) askEnough() bool {
	if s.stopped != "" || s.extra {
		return false
	}
	relevant := 0
	for _, e := range s.judged {
		if e.Relevance >= s.opts.Threshold {
			if e.Critical {
				return false
			}
			relevant++
		}
	}
	return relevant > 0
}

func clamp01(x float64) float64 {
	switch {
	case x != x: // NaN
		return 0
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// MarshalJSON writes the query with its keywords as plain terms, in the order
// of the trace: patterns, keywords, excludes, focus_areas.
func (q Query) MarshalJSON() ([]byte, error) {
	type view struct {
		Patterns   []string `json:"patterns"`
		Keywords   []string `json:"keywords"`
		Excludes   []string `json:"excludes"`
		FocusAreas []string `json:"focus_areas"`
	}
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	return json.Marshal(view{nz(q.Patterns), nz(q.Terms()), nz(q.Excludes), nz(q.FocusAreas)})
}
