package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// Limits of the tools' inputs and outputs.
const (
	// stepCandidates is the number of candidates start and judge show per
	// cycle by default.
	stepCandidates = hone.StepCandidates
	// maxStepCandidates bounds max_candidates (the loop's own default).
	maxStepCandidates = loop.DefaultCandidates
	// defaultSearchLimit and maxSearchLimit bound search's answer.
	defaultSearchLimit = 20
	maxSearchLimit     = 200
	// maxCycles bounds max_cycles: the loop converges in 2-3 cycles.
	maxCycles = 10
	// rankedReasonParts is how much of a reason retrieve_context keeps for a
	// ranked file outside the selection.
	rankedReasonParts = 3
	// maxBudgetTokens bounds budget_tokens (a pack larger than this does not
	// fit a model's context anyway).
	maxBudgetTokens = 200_000
)

const instructions = `hone finds the files of this repository that matter for a coding task.
Call retrieve_context with the task in plain words before reading code: it returns the relevant files, best first, with a relevance in [0,1] and the reason, and a Markdown pack of their key parts when you give budget_tokens.
Use start and judge instead when you want to judge the candidates yourself, and search for one keyword look-up.`

// RetrieveInput is the input of retrieve_context.
type RetrieveInput struct {
	Task         string  `json:"task" jsonschema:"the coding task in plain words, as a user would state it (an issue title and body, a bug report, a feature request); stack traces and identifiers help"`
	Repo         string  `json:"repo,omitempty" jsonschema:"repository directory, absolute or relative to the server's default repository; omit to use the default repository"`
	MaxCycles    int     `json:"max_cycles,omitempty" jsonschema:"maximum DISPATCH-EVALUATE-REFINE cycles (default 3, at most 10)"`
	Threshold    float64 `json:"threshold,omitempty" jsonschema:"relevance in (0,1] a file needs to be listed in files (default 0.7)"`
	BudgetTokens int     `json:"budget_tokens,omitempty" jsonschema:"when set, also return pack: a Markdown context pack of the relevant files' key parts within about this many tokens"`
	IncludeTests bool    `json:"include_tests,omitempty" jsonschema:"do not down-weight test files (they are kept anyway when the task is about tests)"`
	ShowSecrets  bool    `json:"show_secrets,omitempty" jsonschema:"show files that look like secret material (private keys, certificates, .env, credentials.json) and the values of credentials in pack and excerpts; by default such a file is listed with the reason (not shown: looks like a private key) and a credential value is masked as ********"`
}

// Result is a retrieval's answer, with the keys of `hone --json` (over MCP
// the trace leaves each cycle's judgments to ranked).
type Result struct {
	Task    string      `json:"task" jsonschema:"the task as given"`
	Files   []File      `json:"files" jsonschema:"the files at or above the threshold, best first: read these"`
	Ranked  []File      `json:"ranked" jsonschema:"every judged file, best first, merged across cycles (over MCP a file outside files keeps the three largest parts of its reason)"`
	Cycles  []Cycle     `json:"cycles" jsonschema:"the trace of each cycle: its query, candidates and judgments, and how the query was refined"`
	Stopped string      `json:"stopped" jsonschema:"why the loop stopped"`
	Stats   *hone.Stats `json:"stats,omitempty" jsonschema:"files indexed and time spent"`
	Pack    string      `json:"pack,omitempty" jsonschema:"Markdown context pack of the relevant files (only when budget_tokens was given)"`
	Tokens  int         `json:"tokens,omitempty" jsonschema:"retrieve_context: about how many tokens this whole answer carries (its JSON, bytes/4)"`
}

// File is one judged file.
type File struct {
	Path           string   `json:"path" jsonschema:"repository-relative path with forward slashes"`
	Relevance      float64  `json:"relevance" jsonschema:"0.8-1 implements the target; 0.5-0.7 related patterns or types; 0.2-0.4 tangential; below 0.2 not relevant"`
	Reason         string   `json:"reason" jsonschema:"why the file is relevant (the local evaluator lists its signals and weights)"`
	MissingContext []string `json:"missing_context" jsonschema:"what the file refers to that was not found yet"`
}

// Cycle is the trace of one cycle.
type Cycle struct {
	N           int         `json:"cycle" jsonschema:"cycle number, from 1"`
	Query       Query       `json:"query" jsonschema:"the query this cycle ran"`
	Candidates  int         `json:"candidates" jsonschema:"number of candidates the query proposed"`
	Evaluations []File      `json:"evaluations" jsonschema:"the judgments of this cycle, best first (hone --json; empty over MCP, where ranked holds every judgment)"`
	Refinement  *Refinement `json:"refinement" jsonschema:"what the next query changed and why (null for the last cycle)"`
}

// Query is a DISPATCH query as the trace shows it.
type Query struct {
	Patterns   []string `json:"patterns" jsonschema:"path globs a candidate must match (empty: every file)"`
	Keywords   []string `json:"keywords" jsonschema:"terms that rank the candidates"`
	Excludes   []string `json:"excludes" jsonschema:"globs or paths never proposed"`
	FocusAreas []string `json:"focus_areas" jsonschema:"targets such as file:PATH, symbol:NAME, dir:PATH/"`
}

// Refinement records a REFINE step.
type Refinement struct {
	AddedKeywords []string `json:"added_keywords" jsonschema:"terms added to the query"`
	AddedPatterns []string `json:"added_patterns" jsonschema:"globs added to the query"`
	Excluded      []string `json:"excluded" jsonschema:"paths excluded as not relevant"`
	AddedFocus    []string `json:"added_focus" jsonschema:"focus areas added for missing context"`
	Associations  []string `json:"associations" jsonschema:"the repository's own terms used for the task's words"`
	Why           []string `json:"why" jsonschema:"one line per change"`
}

// SearchInput is the input of search.
type SearchInput struct {
	Keywords []string `json:"keywords,omitempty" jsonschema:"words or identifiers to rank files by (e.g. token, expiry, SessionManager)"`
	Patterns []string `json:"patterns,omitempty" jsonschema:"doublestar globs over repository paths; a file must match one (e.g. src/auth/**, **/*.py)"`
	Excludes []string `json:"excludes,omitempty" jsonschema:"globs or paths to leave out (e.g. **/tests/**)"`
	Limit    int      `json:"limit,omitempty" jsonschema:"maximum number of candidates (default 20, at most 200)"`
	Repo     string   `json:"repo,omitempty" jsonschema:"repository directory, absolute or relative to the server's default repository; omit to use the default repository"`
}

// SearchOutput is search's answer.
type SearchOutput struct {
	Query      Query       `json:"query" jsonschema:"the query that ran"`
	Candidates []Candidate `json:"candidates" jsonschema:"matching files, best first"`
}

// Candidate is a file proposed by DISPATCH.
type Candidate struct {
	Path    string   `json:"path" jsonschema:"repository-relative path with forward slashes"`
	Score   float64  `json:"score" jsonschema:"search score; compare only within one answer"`
	Matched []string `json:"matched,omitempty" jsonschema:"the query terms found in the file (search; in start and judge the excerpt's matches line says it, with counts)"`
	Via     []string `json:"via,omitempty" jsonschema:"focus areas that brought the file in"`
	Hone    string   `json:"hone,omitempty" jsonschema:"hone's own relevance of the file (0..1, the scale you judge on) and its largest reasons, from signals an excerpt does not show (the commit history, imports, callers): a second opinion, not a judgment"`
	Excerpt string   `json:"excerpt,omitempty" jsonschema:"the file's definitions and the lines matching the query, to judge it by"`
}

// StartInput is the input of start.
type StartInput struct {
	Task          string  `json:"task" jsonschema:"the coding task in plain words"`
	Repo          string  `json:"repo,omitempty" jsonschema:"repository directory, absolute or relative to the server's default repository; omit to use the default repository"`
	Threshold     float64 `json:"threshold,omitempty" jsonschema:"relevance in (0,1] a file needs to count as found (default 0.7)"`
	MaxCycles     int     `json:"max_cycles,omitempty" jsonschema:"maximum cycles (default 3, at most 10)"`
	MaxCandidates int     `json:"max_candidates,omitempty" jsonschema:"candidates shown per cycle (default 15, at most 40)"`
	BudgetTokens  int     `json:"budget_tokens,omitempty" jsonschema:"when set, the final result carries a Markdown context pack of about this many tokens: the files you judged relevant first, then, with what is left, hone's own ranking, each such file marked as hone's (with your rating if you judged it)"`
	IncludeTests  bool    `json:"include_tests,omitempty" jsonschema:"do not down-weight test files"`
	ShowSecrets   bool    `json:"show_secrets,omitempty" jsonschema:"show files that look like secret material (private keys, certificates, .env, credentials.json) and the values of credentials in pack and excerpts; by default such a file is listed with the reason (not shown: looks like a private key) and a credential value is masked as ********, for the whole session (the excerpts of start and judge and the final pack)"`
}

// JudgeInput is the input of judge.
type JudgeInput struct {
	Session     string     `json:"session" jsonschema:"the session id returned by start"`
	Evaluations []Judgment `json:"evaluations,omitempty" jsonschema:"one judgment per candidate of the current cycle; candidates left out count as not judged (omit it with done true to end the session as it stands); a file judged in an earlier cycle may be judged again with revise true"`
	Done        bool       `json:"done,omitempty" jsonschema:"true when you have enough context: the session ends with these judgments and returns the result, after one more answer of second looks when hone's evidence disputes some of them strongly (done alone, without evaluations, ends it as it stands)"`
	Ask         []string   `json:"ask,omitempty" jsonschema:"what the next cycle should look up, e.g. 'definition of SessionManager', 'callers of validate_token', 'path:src/auth/**'"`
}

// Judgment is the agent's evaluation of one candidate.
type Judgment struct {
	Path           string   `json:"path" jsonschema:"a candidate path exactly as listed in the last answer"`
	Relevance      float64  `json:"relevance" jsonschema:"0..1: 0.8-1 directly implements the target; 0.5-0.7 related patterns or types; 0.2-0.4 tangential; below 0.2 not relevant (excluded from later cycles)"`
	Reason         string   `json:"reason,omitempty" jsonschema:"one sentence: why"`
	MissingContext []string `json:"missing_context,omitempty" jsonschema:"what this file needs that you have not seen yet, e.g. 'definition of SessionManager' or 'caller of validate_token'; the next cycle looks for it"`
	Critical       bool     `json:"critical,omitempty" jsonschema:"true when the missing context is needed to act on the task; the loop does not stop early while a relevant file has a critical gap"`
	Terms          []string `json:"terms,omitempty" jsonschema:"the codebase's own identifiers you saw in this file that the next query should search for (they weigh as the task's words; the files defining them are offered)"`
	Revise         bool     `json:"revise,omitempty" jsonschema:"true to replace your judgment of a file judged in an earlier cycle"`
}

// Step is the answer of start and judge.
type Step struct {
	Session    string      `json:"session" jsonschema:"the session id: pass it to judge"`
	Done       bool        `json:"done" jsonschema:"true when the loop has stopped: result holds the answer and the session is closed"`
	Cycle      int         `json:"cycle,omitempty" jsonschema:"the cycle the candidates belong to, from 1"`
	Query      *Query      `json:"query,omitempty" jsonschema:"the query that proposed the candidates (refined from your judgments after cycle 1)"`
	Candidates []Candidate `json:"candidates,omitempty" jsonschema:"the files to judge now, each with an excerpt"`
	Tokens     int         `json:"tokens,omitempty" jsonschema:"about how many tokens this whole answer carries (its JSON, bytes/4)"`
	Result     *Result     `json:"result,omitempty" jsonschema:"the final result, when done (its cycles are left out: each answer showed its own)"`
	Next       string      `json:"next" jsonschema:"what to do next"`
}

func (s *Server) addTools() {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "retrieve_context", Title: "Find the files a task needs", Annotations: readOnly,
		Description: `Find the files of the repository that matter for a coding task. Call this first, before reading or searching code, with the task in plain words (an issue, a bug report, a feature request; paste stack traces and names as they are).
It runs hone's retrieval loop (search, judge, refine, up to 3 cycles) offline and returns JSON: files (relevant files, best first, each with path, relevance 0..1, reason and missing_context), ranked (every file judged), cycles (the trace: queries and refinements) and stopped (why it stopped). With budget_tokens it also returns pack, a Markdown context pack of the files' key parts within that budget, ready to read; a file that looks like a secret (private key, certificate, .env, credentials) is listed there but not shown, and credential values are masked (db.password=********), unless show_secrets is true.
Read the files in order of relevance; files below 0.5 are usually not needed. Takes well under a second on a warm repository.`},
		guard(s, s.retrieve))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "search", Title: "Search the repository's index", Annotations: readOnly,
		Description: `Rank the repository's files by your own keywords, restricted to path globs and minus excludes: one search pass, no judging, no refinement. Use it for a quick look-up of a name or concept when retrieve_context's answer missed something. Returns candidates (path, score, the matched terms), best first.`},
		guard(s, s.search))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "start", Title: "Start a retrieval you judge yourself",
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: new(false)},
		Description: `Start a stepwise retrieval in which you are the judge. Returns a session id, the query and at most max_candidates (default 15) candidate files, the next page of hone's own ranking of the task (the files the task names count toward the limit) after what your judgments asked for, each with hone's own relevance and its largest reasons (hone: a second opinion from the commit history, imports and callers) and a short excerpt (about 300 tokens) (its definitions and the lines matching the query; a file that looks like a secret has none, and credential values are masked, unless show_secrets is true).
Judge every candidate (relevance 0..1, a one-line reason, the context it still needs) and call judge with the session id. Prefer retrieve_context unless you want to apply your own judgment; a session expires after 30 minutes idle.`},
		guard(s, s.start))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "judge", Title: "Judge the candidates of a retrieval",
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: new(false)},
		Description: `Send your judgments of the current candidates of a session opened by start. Only paths listed in the last answer may be judged. Relevance: 0.8-1 directly implements the target; 0.5-0.7 related patterns or types; 0.2-0.4 tangential; below 0.2 not relevant. A judged file is never proposed again: each cycle brings files not judged yet (revise true corrects an earlier judgment). missing_context and ask name what the next cycle should look up; terms name the codebase's own words for it; done true ends the session when you have enough.
Returns either done=false with the refined query and the next candidates to judge, or done=true with result: the relevant files best first, every judged file ranked, and the trace.`},
		guard(s, s.judge))
}

// retrieve runs the whole loop.
func (s *Server) retrieve(ctx context.Context, req *mcp.CallToolRequest, in RetrieveInput) (*mcp.CallToolResult, *Result, error) {
	lopts, err := loopOptions(in.MaxCycles, in.Threshold, 0)
	if err != nil {
		return nil, nil, err
	}
	if err := checkTask(in.Task); err != nil {
		return nil, nil, err
	}
	if err := checkBudget(in.BudgetTokens); err != nil {
		return nil, nil, err
	}
	repo, ask, err := s.repo(ctx, req, in.Repo)
	if ask != nil || err != nil {
		return ask, nil, err
	}
	res, err := repo.Retrieve(ctx, in.Task, hone.RetrieveOptions{Loop: lopts, IncludeTests: in.IncludeTests})
	if err != nil {
		return nil, nil, fmt.Errorf("retrieve_context: %w", describe(err))
	}
	out, err := convertResult(res)
	if err != nil {
		return nil, nil, err
	}
	// An agent pays for every token: the trace keeps each cycle's query and
	// refinement, and leaves its judgments to ranked, which holds them all
	// merged (they were a fifth of an answer with an 8,000-token pack).
	for i := range out.Cycles {
		out.Cycles[i].Evaluations = []File{}
	}
	// So do the reasons of the files ranked below the selection: their
	// largest parts (files keeps whole reasons).
	selected := map[string]bool{}
	for _, f := range out.Files {
		selected[f.Path] = true
	}
	for i, f := range out.Ranked {
		if !selected[f.Path] {
			out.Ranked[i].Reason = loop.BriefReason(f.Reason, rankedReasonParts)
		}
	}
	if in.BudgetTokens > 0 {
		if out.Pack, err = repo.Pack(res, hone.PackOptions{Budget: in.BudgetTokens, ShowSecrets: in.ShowSecrets}); err != nil {
			return nil, nil, fmt.Errorf("retrieve_context: pack: %w", err)
		}
	}
	out.Tokens = answerTokens(out)
	s.log.Info("hone mcp: retrieve_context", "repo", repo.Root(), "files", len(out.Files), "stopped", out.Stopped)
	return jsonText(out), out, nil
}

// search runs one DISPATCH.
func (s *Server) search(ctx context.Context, req *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, *SearchOutput, error) {
	limit := in.Limit
	switch {
	case limit < 0:
		return nil, nil, fmt.Errorf("search: limit must be positive, got %d", limit)
	case limit == 0:
		limit = defaultSearchLimit
	case limit > maxSearchLimit:
		limit = maxSearchLimit
	}
	q := loop.Query{Patterns: nonEmpty(in.Patterns), Excludes: nonEmpty(in.Excludes)}
	seen := map[string]bool{}
	for _, k := range in.Keywords {
		for _, w := range strings.Fields(k) {
			w = strings.ToLower(w)
			if !seen[w] {
				seen[w] = true
				q.Keywords = append(q.Keywords, loop.Keyword{Term: w, Weight: 1, Origin: "task"})
			}
		}
	}
	if len(q.Keywords) == 0 && len(q.Patterns) == 0 {
		return nil, nil, errors.New("search: give keywords or patterns (or both)")
	}
	repo, ask, err := s.repo(ctx, req, in.Repo)
	if ask != nil || err != nil {
		return ask, nil, err
	}
	cands, err := repo.Search(ctx, q, limit)
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", describe(err))
	}
	out := &SearchOutput{Query: convertQuery(q), Candidates: make([]Candidate, 0, len(cands))}
	for _, c := range cands {
		out.Candidates = append(out.Candidates, convertCandidate(c))
	}
	return jsonText(out), out, nil
}

// start opens a stepwise session and dispatches its first cycle.
func (s *Server) start(ctx context.Context, req *mcp.CallToolRequest, in StartInput) (*mcp.CallToolResult, *Step, error) {
	n := in.MaxCandidates
	switch {
	case n < 0:
		return nil, nil, fmt.Errorf("start: max_candidates must be positive, got %d", n)
	case n == 0:
		n = stepCandidates
	case n > maxStepCandidates:
		n = maxStepCandidates
	}
	lopts, err := loopOptions(in.MaxCycles, in.Threshold, n)
	if err != nil {
		return nil, nil, err
	}
	if err := checkTask(in.Task); err != nil {
		return nil, nil, err
	}
	if err := checkBudget(in.BudgetTokens); err != nil {
		return nil, nil, err
	}
	dir, ask, err := s.resolveRepo(ctx, req, in.Repo)
	if ask != nil || err != nil {
		return ask, nil, err
	}
	repo, err := s.repos.get(ctx, dir, true, progress(req))
	if err != nil {
		return nil, nil, fmt.Errorf("open repository: %w", describe(err))
	}
	ls, err := repo.Start(ctx, in.Task, hone.RetrieveOptions{Loop: lopts, IncludeTests: in.IncludeTests})
	if err != nil {
		return nil, nil, fmt.Errorf("start: %w", describe(err))
	}
	sess := &session{dir: dir, repo: repo, loop: ls, budget: in.BudgetTokens, secrets: in.ShowSecrets, excerpts: hone.NewExcerpts(repo, in.ShowSecrets).ForTask(in.Task)}
	evicted, err := s.sessions.add(sess)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range evicted {
		s.log.Info("hone mcp: session dropped (too many sessions)", "session", id)
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	step, err := s.dispatch(ctx, sess)
	return jsonText(step), step, err
}

// judge records the agent's judgments and moves the session on.
func (s *Server) judge(ctx context.Context, req *mcp.CallToolRequest, in JudgeInput) (*mcp.CallToolResult, *Step, error) {
	if strings.TrimSpace(in.Session) == "" {
		return nil, nil, errors.New("judge: session is empty: pass the session id returned by start")
	}
	sess, err := s.sessions.get(in.Session)
	if err != nil {
		return nil, nil, fmt.Errorf("judge: %w", err)
	}
	// The client's roots may have changed since start, and a session id is
	// no credential for another client's repository.
	if ask, err := s.checkRepo(ctx, req, sess.dir); ask != nil || err != nil {
		if err != nil {
			err = fmt.Errorf("judge: %w", err)
		}
		return ask, nil, err
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()

	pending := make(map[string]bool, len(sess.pending))
	for _, c := range sess.pending {
		pending[c.Path] = true
	}
	judged := sess.loop.Judged()
	evals := make([]loop.Evaluation, 0, len(in.Evaluations))
	for i, j := range in.Evaluations {
		p, err := repoPath(sess.dir, j.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("judge: evaluations[%d]: %w", i, err)
		}
		if math.IsNaN(j.Relevance) || j.Relevance < 0 || j.Relevance > 1 {
			return nil, nil, fmt.Errorf("judge: evaluations[%d] (%s): relevance must be within [0,1], got %v", i, p, j.Relevance)
		}
		if _, before := judged[p]; !pending[p] && !(j.Revise && before) {
			if j.Revise {
				return nil, nil, fmt.Errorf("judge: evaluations[%d]: %q was never judged: revise only files of earlier cycles", i, p)
			}
			return nil, nil, fmt.Errorf("judge: %q is not a candidate of cycle %d; judge only these paths: %s",
				p, sess.loop.Cycle(), strings.Join(candidatePaths(sess.pending), ", "))
		}
		evals = append(evals, loop.Evaluation{Path: p, Relevance: j.Relevance, Reason: j.Reason,
			MissingContext: nonEmpty(j.MissingContext), Critical: j.Critical && len(j.MissingContext) > 0,
			Terms: nonEmpty(j.Terms), Revise: j.Revise && !pending[p]})
	}
	sess.loop.Request(in.Ask...)
	if err := sess.repo.Refresh(ctx); err != nil {
		return nil, nil, fmt.Errorf("judge: refresh %s: %w", sess.dir, err)
	}
	done, err := sess.loop.Judge(ctx, evals)
	if err != nil && !done {
		return nil, nil, fmt.Errorf("judge: %w", err)
	}
	wentOn := sess.finishing && !done // the second looks turned the judge's done over
	sess.finishing = false
	finishing := false
	switch why := fmt.Sprintf("cycle %d: the judge has enough context", sess.loop.Cycle()-1); {
	case in.Done && !done && len(evals) == 0:
		sess.loop.Stop(why) // done alone: the session ends as it stands
		done = true
	case in.Done && !done:
		// The session ends now, or after the second looks of the judgments
		// hone's evidence disputes (loop.Session.Finish).
		done = sess.loop.Finish(why)
		finishing = !done
	}
	if err != nil {
		s.log.Warn("hone mcp: session stopped with an error", "session", sess.id, "err", err)
	}
	if done {
		step := s.finish(sess)
		return jsonText(step), step, nil
	}
	step, err := s.dispatch(ctx, sess)
	switch {
	case err != nil || step.Done:
	case finishing:
		sess.finishing = true
		step.Next = fmt.Sprintf("Before the session ends: hone's evidence disputes %d of your judgments strongly. Judge these again from their excerpts (each shows more of the file than the first); the session then ends, unless you now call a file you had judged relevant unrelated: then it goes on with new candidates, and done: true ends it again.", len(step.Candidates))
		step = step.counted()
	case wentOn && !in.Done:
		step.Next = "The session goes on: on its second look you called unrelated a file you had judged relevant, and your done rested on it. " + step.Next
		step = step.counted()
	}
	return jsonText(step), step, err
}

// dispatch runs the session's current query and shows its candidates, or
// finishes the session when nothing is left to judge. sess.mu is held.
func (s *Server) dispatch(ctx context.Context, sess *session) (*Step, error) {
	cands, err := sess.loop.Dispatch(ctx)
	if err != nil {
		s.sessions.remove(sess.id)
		return nil, fmt.Errorf("dispatch: %w", describe(err))
	}
	if len(cands) == 0 {
		sess.loop.Stop(loop.NoMatch(sess.loop.Cycle(), sess.loop.Query()))
		return s.finish(sess), nil
	}
	sess.pending = cands
	q := sess.loop.Query()
	terms := q.Terms()
	qv := convertQuery(q)
	step := &Step{Session: sess.id, Cycle: sess.loop.Cycle(), Query: &qv, Candidates: make([]Candidate, 0, len(cands)),
		Next: fmt.Sprintf("Judge the %d candidate(s) of cycle %d (relevance 0..1, reason, missing_context, terms) and call judge with session %q; add done: true if you then have what the task needs (each cycle costs what this one does).", len(cands), sess.loop.Cycle(), sess.id)}
	if slices.ContainsFunc(cands, loop.Candidate.SecondLook) {
		// Said only when it applies: every answer is read, and paid for.
		step.Next += " A candidate whose via says \"second look\" is one you judged before that hone's evidence disputes: judge it again from its excerpt, which shows more of the file than the first."
	}
	if why := sess.loop.Distrust(); why != "" && !sess.distrustTold {
		sess.distrustTold = true
		step.Next += fmt.Sprintf(" hone now overrules your relevant judgments of files its evidence rates below %.2f, earlier ones included, since %s. To keep such a file, judge it again with revise: true and the reason hone cannot see.",
			loop.OverruleBelow, strings.Replace(why, "it judged", "you judged", 1))
	}
	for _, c := range cands {
		cv := convertCandidate(c)
		cv.Matched = nil // the excerpt's matches line says it, with counts
		view, err := sess.excerpts.Of(c, terms)
		if err != nil {
			view = "(no excerpt: " + err.Error() + ")"
		}
		cv.Excerpt = view
		step.Candidates = append(step.Candidates, cv)
	}
	return step.counted(), nil
}

// counted sets st.Tokens to about what the whole answer carries: its JSON
// as the client receives it, bytes/4.
func (st *Step) counted() *Step {
	st.Tokens = 0
	st.Tokens = answerTokens(st)
	return st
}

// answerTokens is about what an answer v carries once it states it: its
// JSON as the client receives it, with a "tokens" field, bytes/4.
func answerTokens(v any) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the client receives it: "<", not "\u003c"
	if err := enc.Encode(v); err != nil {
		return 0
	}
	n := b.Len() + len(`,"tokens":`) + 4 // and its digits, about
	return (n + 3) / 4
}

// finish closes the session and returns its result. sess.mu is held.
func (s *Server) finish(sess *session) *Step {
	s.sessions.remove(sess.id)
	lr := sess.loop.Result()
	hr := &hone.Result{Result: *lr, Stats: hone.Stats{RetrieveMs: time.Since(sess.started).Milliseconds()}}
	res, err := convertResult(hr)
	if err != nil {
		res = &Result{Task: lr.Task, Stopped: lr.Stopped + "; " + err.Error()}
	}
	res.Stats = nil // a session's stats would only measure the agent's thinking time
	next := "Done: read the files in result.files, best first."
	if sess.budget > 0 {
		if pack, err := sess.repo.Pack(hr, hone.PackOptions{Budget: sess.budget, ShowSecrets: sess.secrets}); err != nil {
			next += " (no pack: " + err.Error() + ")"
		} else {
			res.Pack = pack
			next = "Done: result.pack holds the relevant code; result.files lists the files, best first."
		}
	}
	// The judge saw each cycle's query and candidates as they came: the
	// final answer leaves the trace out (about a quarter of it otherwise).
	res.Cycles = []Cycle{}
	s.log.Info("hone mcp: session done", "session", sess.id, "files", len(res.Files), "stopped", res.Stopped)
	return (&Step{Session: sess.id, Done: true, Result: res, Next: next}).counted()
}

// repo returns the warm repository named by a call (refreshed), or the
// result that asks the client for its roots (see resolveRepo).
func (s *Server) repo(ctx context.Context, req *mcp.CallToolRequest, p string) (backend, *mcp.CallToolResult, error) {
	dir, ask, err := s.resolveRepo(ctx, req, p)
	if ask != nil || err != nil {
		return nil, ask, err
	}
	r, err := s.repos.get(ctx, dir, true, progress(req))
	if err != nil {
		return nil, nil, fmt.Errorf("open repository: %w", describe(err))
	}
	return r, nil, nil
}

// progress returns what reports a repository's open to the client of req
// while the call waits for it, or nil when the client asked for no progress
// (it sent no progress token). Progress and total count the files indexed.
func progress(req *mcp.CallToolRequest) notifyFunc {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return func(ctx context.Context, done, total int64) {
		p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(done), Total: float64(total),
			Message: fmt.Sprintf("hone: indexing the repository, %d of %d files (once; later calls are warm)", done, total)}
		// A client gone or slow is not the call's failure.
		_ = req.Session.NotifyProgress(ctx, p)
	}
}

// guard runs a tool under the server's lifetime (Close cancels it), reports a
// cancellation by its cause, and turns a panic into a tool error: one bad
// call never ends the server.
func guard[In, Out any](s *Server, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		ctx, cancel := s.callContext(ctx)
		defer cancel()
		defer func() {
			if p := recover(); p != nil {
				name := ""
				if req != nil && req.Params != nil {
					name = req.Params.Name
				}
				s.log.Error("hone mcp: a tool panicked; the server goes on", "tool", name, "panic", p, "stack", string(debug.Stack()))
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("%s: internal error: %v (please report it)", name, p)
			}
		}()
		res, out, err = h(ctx, req, in)
		if err != nil {
			// The server's end first: AfterFunc cancels ctx a moment later.
			if cause := context.Cause(s.life); cause != nil {
				err = fmt.Errorf("%w (%v)", cause, err)
			} else if ctx.Err() != nil {
				err = fmt.Errorf("%w (%v)", context.Cause(ctx), err)
			}
		}
		return res, out, err
	}
}

// repoPath checks that p names a file inside the repository at root:
// relative, with no "..", and not escaping through a symbolic link; an
// absolute path inside root (as agents often write them) stands for its
// path relative to root. It returns p cleaned, with forward slashes.
func repoPath(root, p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", errors.New("path is empty")
	}
	if filepath.IsAbs(p) {
		if rel, ok := under(root, p); ok {
			p = rel
		}
	}
	slashed := strings.ReplaceAll(p, `\`, "/")
	if path.IsAbs(slashed) || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("%q: %w: give a path relative to the repository root", p, hone.ErrOutsideRepo)
	}
	clean := path.Clean(slashed)
	if !filepath.IsLocal(filepath.FromSlash(clean)) {
		return "", fmt.Errorf("%q: %w", p, hone.ErrOutsideRepo)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(clean)))
	if err == nil {
		rel, err := filepath.Rel(root, real)
		if err != nil || !filepath.IsLocal(rel) {
			return "", fmt.Errorf("%q: %w (a symbolic link leads out)", p, hone.ErrOutsideRepo)
		}
	}
	return clean, nil
}

// under returns the absolute path p relative to root when it lies inside
// root, root's symbolic links resolved or not.
func under(root, p string) (string, bool) {
	roots := []string{root}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
		roots = append(roots, real)
	}
	p = filepath.Clean(p)
	for _, r := range roots {
		if p != r && within(r, p) {
			rel, _ := filepath.Rel(r, p) // within computed it without error
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

func checkTask(task string) error {
	switch {
	case strings.TrimSpace(task) == "":
		return fmt.Errorf("task: %w: describe the coding task in plain words", hone.ErrEmptyTask)
	case len(task) > hone.MaxTaskBytes:
		return fmt.Errorf("task: %w (%d bytes, at most %d): state the task and keep only the relevant lines of logs", hone.ErrTaskTooLarge, len(task), hone.MaxTaskBytes)
	}
	return nil
}

func checkBudget(n int) error {
	if n < 0 || n > maxBudgetTokens {
		return fmt.Errorf("budget_tokens must be within [0,%d], got %d", maxBudgetTokens, n)
	}
	return nil
}

// loopOptions validates the loop settings of a call.
func loopOptions(cycles int, threshold float64, candidates int) (loop.Options, error) {
	if cycles < 0 || cycles > maxCycles {
		return loop.Options{}, fmt.Errorf("max_cycles must be within [1,%d], got %d", maxCycles, cycles)
	}
	if math.IsNaN(threshold) || threshold < 0 || threshold > 1 {
		return loop.Options{}, fmt.Errorf("threshold must be within (0,1], got %v", threshold)
	}
	return loop.Options{MaxCycles: cycles, Threshold: threshold, Candidates: candidates}, nil
}

// describe adds advice to the errors a caller can fix.
func describe(err error) error {
	switch {
	case errors.Is(err, hone.ErrNoRepo):
		return fmt.Errorf("%w (pass an existing directory as repo)", err)
	case errors.Is(err, hone.ErrNotDir):
		return fmt.Errorf("%w (repo must be a directory)", err)
	case errors.Is(err, hone.ErrEmptyRepo):
		return fmt.Errorf("%w (the directory holds no source file hone can index)", err)
	}
	return err
}

// jsonText returns a result whose text content is v's JSON in field order
// (the SDK's own fallback sorts the keys, which would put the trace before the
// files), or nil to let the SDK report a failure.
func jsonText(v any) *mcp.CallToolResult {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // code is full of <, > and &
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.TrimSuffix(b.String(), "\n")}}}
}

// convertResult turns a hone.Result into the tool's Result through its JSON
// form, so that the tool answers exactly what `hone --json` prints.
func convertResult(res *hone.Result) (*Result, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	var out Result
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	return &out, nil
}

func convertQuery(q loop.Query) Query {
	return Query{Patterns: nonNil(q.Patterns), Keywords: nonNil(q.Terms()), Excludes: nonNil(q.Excludes),
		FocusAreas: nonNil(q.FocusAreas)}
}

func convertCandidate(c loop.Candidate) Candidate {
	return Candidate{Path: c.Path, Score: math.Round(c.Score*1000) / 1000, Matched: nonNil(c.Matched), Via: c.Via, Hone: c.EvidenceBrief()}
}

func candidatePaths(cs []loop.Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Path
	}
	return out
}

// nonEmpty drops blank strings.
func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}
