// Package llm is hone's optional LLM evaluator: a loop.Evaluator that asks a
// language model to judge the candidates the local evaluator ranks highest.
//
// Evaluate works in four steps:
//
//  1. The base (local) evaluator scores every candidate; its evaluation stands
//     for every file the model does not judge.
//  2. The TopN candidates by local relevance are viewed compactly (path,
//     definitions, matched lines, within PerFileTokens). Package secret
//     decides what must not leave the machine: a file that is secret
//     material (a private key, a .env file, credentials.json, …; the view
//     function refuses it with a *secret.Error, or its name or view says so)
//     is never sent and keeps its local score with the reason "not sent:
//     looks like a private key"; in every other view the values of
//     credentials are masked (db.password=********) before it is sent,
//     whatever the view function did.
//  3. Each view is looked up in the cache, keyed on (provider, model, task,
//     path, SHA-256 of the view); a hit makes no request. The rest go to the
//     model in batches of BatchSize, at most Concurrency requests at once.
//     The prompt states the task and the relevance scale (0.8-1.0 directly
//     implements the target; 0.5-0.7 related patterns or types; 0.2-0.4
//     tangential; below 0.2 not relevant), puts above each view hone's own
//     evidence for the file ("hone 0.93: defines isTokenExpired:+0.35, ...",
//     loop.Candidate.EvidenceBrief, a second opinion as a judge over MCP
//     gets) and, for a second look, why the file is shown again (the note is
//     part of the cache key), and asks for strict JSON:
//     {"evaluations":[{"path","relevance","reason","missing_context","critical"}],"keywords":[…]}.
//  4. Each reply is validated: paths not in the batch are dropped, a relevance
//     slightly outside [0,1] is clamped and one far outside is rejected, a
//     reply that is not JSON is repaired (code fences stripped, the outermost
//     object taken) or asked for once more. A judged file gets the model's
//     relevance, its reason prefixed "llm: ", its missing context, and the
//     batch's keywords in Evaluation.Terms (so REFINE searches for them as
//     it does for the task's words).
//     A file the model could not judge keeps its local evaluation, and the
//     reason says why: "llm: unusable reply (…); local score kept: …".
//
// The model has Timeout for the whole retrieval: one deadline, fixed at the
// Evaluator's first Evaluate, bounds every request, retry and backoff of
// every cycle after it (one Evaluator serves one retrieval). It bounds the
// model only: the local evaluation always finishes, and when the deadline
// passes, the batches still in flight or not yet sent keep it, with the
// reason "llm: time budget of 60s ran out (--llm-timeout); local score
// kept: …"; Usage.OutOfTime counts them and Usage.Stopped says so in a
// sentence. A later cycle sends nothing (cache hits are still used).
//
// Each request times out after RequestTimeout (default: all of Timeout);
// 429, 5xx and transport errors are retried up to MaxRetries times with
// exponential backoff and jitter, honouring Retry-After. Failures degrade to
// the local evaluation, except 401, 403 and 404 (a wrong key, URL or model),
// which Evaluate returns as errors, and the context's cancellation. Usage
// counts requests, tokens, cache hits, retries, errors and cost.
package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hone-dev/hone/internal/secret"
	"github.com/hone-dev/hone/loop"
)

// Judgment policy.
const (
	// clampSlack: a relevance this far outside [0,1] is rounding and is
	// clamped; further out the model used another scale and is not trusted.
	clampSlack = 0.05
	// keywordMinRelevance: a batch's keywords go to the Learned of files the
	// model found at least this relevant (REFINE learns from relevant files).
	keywordMinRelevance = 0.5
	// maxKeywords bounds the keywords kept per batch.
	maxKeywords = 8
	// viewBytesPerToken bounds a view's bytes at twice the usual ~4 bytes per
	// token, guarding the budget against a view function that overshoots.
	viewBytesPerToken = 8
)

// ViewFunc returns a compact view of a repository file for a judge: its path,
// definitions and the lines matching terms, within about budget tokens
// (hone.Repo.View).
type ViewFunc func(path string, terms []string, budget int) (string, error)

// Usage counts an Evaluator's work since New. It is what the CLI puts in the
// trace and in --json stats.
type Usage struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Requests counts HTTP requests, retries included.
	Requests     int   `json:"requests"`
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	// CacheHits counts files judged from the cache, with no request.
	CacheHits int `json:"cache_hits"`
	Retries   int `json:"retries"`
	// Reasks counts batches asked again after an unusable reply.
	Reasks int `json:"reasks"`
	// Errors counts batches that got no usable judgment.
	Errors int `json:"errors"`
	// Judged counts files that carry the model's judgment (cache hits too).
	Judged int `json:"judged"`
	// KeptLocal counts files sent, or meant to be sent, that kept the local
	// evaluation (failed request, unusable or missing judgment, no view).
	KeptLocal int `json:"kept_local"`
	// NotSent counts files withheld because they look like secrets.
	NotSent int `json:"not_sent"`
	// UnknownPaths counts judgments of paths that were not asked about.
	UnknownPaths int `json:"unknown_paths"`
	// TimeBudget is Config.Timeout, the model's time for the retrieval.
	TimeBudget string `json:"time_budget"`
	// OutOfTime counts the distinct files that kept the local evaluation
	// because the time budget ran out before the model judged them (each
	// cycle's are counted in KeptLocal too); OutOfTimeCycle is the cycle it
	// ran out in (0: it did not).
	OutOfTime      int `json:"out_of_time"`
	OutOfTimeCycle int `json:"out_of_time_cycle,omitempty"`
	// EnoughAsked counts the times the model was asked whether the files
	// judged relevant are enough (Enough); EnoughSaid the times it said so.
	EnoughAsked int `json:"enough_asked"`
	EnoughSaid  int `json:"enough_said"`
	// CostUSD is the tokens' cost at Config.Prices; 0 without prices.
	CostUSD float64 `json:"cost_usd"`
}

// Evaluator is the LLM evaluator. It is safe for concurrent use.
type Evaluator struct {
	cfg    Config
	base   loop.Evaluator
	view   ViewFunc
	client *http.Client
	cache  *cache
	sem    chan struct{}
	format atomic.Int32 // openai response_format level (formatSchema…)

	mu    sync.Mutex
	usage Usage

	late      map[string]bool // files that kept the local score for lack of time
	startOnce sync.Once
	deadline  time.Time // when Timeout runs out, fixed by the first Evaluate

	// Test hooks.
	sleep       func(context.Context, time.Duration) error
	backoffBase time.Duration
}

// New returns an LLM evaluator over base, the local evaluator. cfg gets its
// defaults filled and is validated. view renders the files sent.
func New(cfg Config, base loop.Evaluator, view ViewFunc) (*Evaluator, error) {
	if base == nil {
		return nil, errors.New("llm: no base evaluator")
	}
	if view == nil {
		return nil, errors.New("llm: no view function")
	}
	cfg.SetDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &Evaluator{cfg: cfg, base: base, view: view,
		client: &http.Client{}, sem: make(chan struct{}, cfg.Concurrency),
		sleep: sleepCtx, backoffBase: backoffBase}
	if !cfg.NoCache && cfg.CacheDir != "" {
		e.cache = &cache{dir: cfg.CacheDir}
	}
	e.usage.Provider, e.usage.Model = cfg.Provider, cfg.Model
	e.usage.TimeBudget = cfg.Timeout.String()
	return e, nil
}

// errOutOfTime is the cause of the model's context when Timeout ran out.
var errOutOfTime = errors.New("llm: time budget ran out")

// budget returns the context of the model's calls in one Evaluate: ctx with
// the retrieval's deadline, fixed the first time.
func (e *Evaluator) budget(ctx context.Context) (context.Context, context.CancelFunc) {
	e.startOnce.Do(func() { e.deadline = time.Now().Add(e.cfg.Timeout) })
	return context.WithDeadlineCause(ctx, e.deadline, errOutOfTime)
}

// String is the usage in a line, for the text report.
func (u Usage) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d requests (%d retries), %d in + %d out tokens, %d files judged (%d from the cache), %d kept the local score",
		u.Provider, u.Model, u.Requests, u.Retries, u.InputTokens, u.OutputTokens, u.Judged, u.CacheHits, u.KeptLocal)
	if u.Errors > 0 {
		fmt.Fprintf(&b, ", %d failed batches", u.Errors)
	}
	if u.NotSent > 0 {
		fmt.Fprintf(&b, ", %d not sent (secrets)", u.NotSent)
	}
	if u.OutOfTime > 0 {
		fmt.Fprintf(&b, ", time budget %s ran out in cycle %d", u.TimeBudget, u.OutOfTimeCycle)
	}
	if u.CostUSD > 0 {
		fmt.Fprintf(&b, ", $%.4f", u.CostUSD)
	}
	return b.String()
}

// Stopped returns a sentence for the result's stop reason when the time
// budget ran out before the model judged some files, else "".
func (u Usage) Stopped() string {
	if u.OutOfTime == 0 {
		return ""
	}
	noun := "files"
	if u.OutOfTime == 1 {
		noun = "file"
	}
	return fmt.Sprintf("the LLM time budget (%s, --llm-timeout) ran out in cycle %d: %d %s kept the local score",
		u.TimeBudget, u.OutOfTimeCycle, u.OutOfTime, noun)
}

// Config returns the evaluator's effective configuration.
func (e *Evaluator) Config() Config { return e.cfg }

// Usage returns the counts so far.
func (e *Evaluator) Usage() Usage {
	e.mu.Lock()
	defer e.mu.Unlock()
	u := e.usage
	if p := e.cfg.Prices; p != nil {
		u.CostUSD = (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output) / 1e6
	}
	return u
}

func (e *Evaluator) count(f func(*Usage)) {
	e.mu.Lock()
	f(&e.usage)
	e.mu.Unlock()
}

func (e *Evaluator) addTokens(t tokens) {
	e.count(func(u *Usage) { u.InputTokens += t.in; u.OutputTokens += t.out })
}

// outcome is what became of one file: a judgment, or a note saying why the
// local evaluation stands.
type outcome struct {
	j    *judgment
	note string
	late bool // the time budget ran out first
}

// item is one file to judge: its view, and the note above it (hone's
// evidence, and why it is shown again).
type item struct {
	path, note, view, key string
}

// evidenceNotes returns, by path, what the prompt says above a candidate's
// view: hone's own evidence (loop.Candidate.EvidenceBrief), as a judge over
// MCP sees it beside each excerpt, and for a second look why the file is
// shown again ("second look: judged 0.30, hone's evidence 0.85").
func evidenceNotes(cands []loop.Candidate) map[string]string {
	out := make(map[string]string, len(cands))
	for _, c := range cands {
		var lines []string
		if c.SecondLook() {
			lines = append(lines, c.Via[0])
		}
		if b := c.EvidenceBrief(); b != "" {
			lines = append(lines, b)
		}
		if len(lines) > 0 {
			out[c.Path] = strings.Join(lines, "\n") + "\n"
		}
	}
	return out
}

// Evaluate implements loop.Evaluator.
func (e *Evaluator) Evaluate(ctx context.Context, in loop.EvalInput) ([]loop.Evaluation, error) {
	evals, err := e.base.Evaluate(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("llm: local evaluator: %w", err)
	}
	out := make([]loop.Evaluation, len(evals))
	copy(out, evals)

	outcomes := map[string]outcome{}
	var todo []item
	terms := in.Query.Terms()
	notes := evidenceNotes(in.Candidates)
	for _, p := range e.pick(in, out) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		view, err := e.view(p, terms, e.cfg.PerFileTokens)
		var withheld *secret.Error
		if errors.As(err, &withheld) {
			outcomes[p] = outcome{note: "not sent: " + withheld.Reason + "; local score kept"}
			continue
		}
		if err != nil {
			outcomes[p] = outcome{note: fmt.Sprintf("llm: no view (%v); local score kept", err)}
			continue
		}
		if reason := secret.File(p, []byte(view)); reason != "" {
			outcomes[p] = outcome{note: "not sent: " + reason + "; local score kept"}
			continue
		}
		view, _ = secret.Mask(p, view)
		if max := e.cfg.PerFileTokens * viewBytesPerToken; len(view) > max {
			view = truncate(view, max)
		}
		note, _ := secret.Mask(p, notes[p])
		key := cacheKey(e.cfg.Provider, e.cfg.Model, in.Task, p, note+view)
		if j, ok := e.cache.get(key); ok {
			outcomes[p] = outcome{j: &j}
			e.count(func(u *Usage) { u.CacheHits++ })
			continue
		}
		todo = append(todo, item{path: p, note: note, view: view, key: key})
	}

	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		fatal error
	)
	mctx, cancel := e.budget(ctx)
	defer cancel()
	lateAll := func(batch []item, why *outOfTimeError) {
		note := fmt.Sprintf("llm: time budget of %s ran out (--llm-timeout", e.cfg.Timeout)
		if why != nil && why.wait > 0 {
			note += fmt.Sprintf("; no retry: waiting %s would pass it", why.wait.Round(time.Millisecond))
		}
		if why != nil && why.last != nil {
			note += fmt.Sprintf("; last error: %v", why.last)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, it := range batch {
			outcomes[it.path] = outcome{note: note + "); local score kept", late: true}
		}
	}
	for start := 0; start < len(todo); start += e.cfg.BatchSize {
		batch := todo[start:min(start+e.cfg.BatchSize, len(todo))]
		if mctx.Err() != nil {
			lateAll(batch, nil) // or cancelled, which is returned below
			continue
		}
		select {
		case e.sem <- struct{}{}:
		case <-mctx.Done():
			lateAll(batch, nil)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-e.sem }()
			res, err := e.judge(mctx, in.Task, batch)
			var late *outOfTimeError
			if errors.As(err, &late) && ctx.Err() == nil {
				lateAll(batch, late)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if fatal == nil {
					fatal = err
				}
				return
			}
			for p, o := range res {
				outcomes[p] = o
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if fatal != nil {
		return nil, fmt.Errorf("llm: %w", fatal)
	}

	for i := range out {
		o, ok := outcomes[out[i].Path]
		if !ok {
			continue
		}
		ev := &out[i]
		switch {
		case o.j != nil:
			e.count(func(u *Usage) { u.Judged++ })
			ev.Relevance = o.j.Relevance
			ev.Reason = "llm: " + o.j.Reason
			ev.MissingContext = append([]string{}, o.j.MissingContext...)
			ev.Critical = o.j.Critical && len(o.j.MissingContext) > 0
			ev.Terms = dedupe(append(append([]string(nil), o.j.Keywords...), ev.Terms...))
		case o.late:
			e.count(func(u *Usage) {
				u.KeptLocal++
				if e.late == nil {
					e.late = map[string]bool{}
				}
				e.late[ev.Path] = true
				u.OutOfTime = len(e.late)
				if u.OutOfTimeCycle == 0 {
					u.OutOfTimeCycle = in.Cycle
				}
			})
			ev.Reason = joinReason(o.note, ev.Reason)
		case strings.HasPrefix(o.note, "not sent"):
			e.count(func(u *Usage) { u.NotSent++ })
			ev.Reason = joinReason(o.note, ev.Reason)
		default:
			e.count(func(u *Usage) { u.KeptLocal++ })
			ev.Reason = joinReason(o.note, ev.Reason)
		}
	}
	return out, nil
}

// pick returns the paths of the TopN evaluations by local relevance that are
// candidates of this cycle, ties in candidate order.
func (e *Evaluator) pick(in loop.EvalInput, evals []loop.Evaluation) []string {
	rank := make(map[string]int, len(in.Candidates))
	for i, c := range in.Candidates {
		if _, ok := rank[c.Path]; !ok {
			rank[c.Path] = i
		}
	}
	idx := make([]int, 0, len(evals))
	seen := map[string]bool{}
	for i, ev := range evals {
		if _, ok := rank[ev.Path]; ok && !seen[ev.Path] {
			seen[ev.Path] = true
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ea, eb := evals[idx[a]], evals[idx[b]]
		if ea.Relevance != eb.Relevance {
			return ea.Relevance > eb.Relevance
		}
		return rank[ea.Path] < rank[eb.Path]
	})
	if len(idx) > e.cfg.TopN {
		idx = idx[:e.cfg.TopN]
	}
	paths := make([]string, len(idx))
	for i, k := range idx {
		paths[i] = evals[k].Path
	}
	return paths
}

// judge asks the model about one batch. It returns an outcome per path, or
// an error when the evaluation as a whole must fail (a fatal HTTP status,
// cancellation) or the time budget ran out (*outOfTimeError).
func (e *Evaluator) judge(ctx context.Context, task string, batch []item) (map[string]outcome, error) {
	paths := make([]string, len(batch))
	for i, it := range batch {
		paths[i] = it.path
	}
	user := userPrompt(task, batch)
	res := make(map[string]outcome, len(batch))
	keepAll := func(note string) map[string]outcome {
		e.count(func(u *Usage) { u.Errors++ })
		for _, p := range paths {
			res[p] = outcome{note: note}
		}
		return res
	}

	var r reply
	var perr error
	for try := 0; try < 2; try++ {
		prompt := e.again(user, try, perr)
		text, err := e.ask(ctx, judgeCall(systemPrompt, prompt, paths))
		if err != nil {
			var ae *apiError
			if errors.Is(err, errOutOfTime) {
				return nil, err
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errors.As(err, &ae) && ae.fatal() {
				return nil, err
			}
			return keepAll(fmt.Sprintf("llm: request failed (%v); local score kept", err)), nil
		}
		if r, perr = parseReply(text); perr == nil {
			break
		}
	}
	if perr != nil {
		return keepAll(fmt.Sprintf("llm: unusable reply (%v); local score kept", perr)), nil
	}

	inBatch := map[string]bool{}
	for _, p := range paths {
		inBatch[p] = true
	}
	got := map[string]*judgment{}
	for _, ev := range r.Evaluations {
		if !inBatch[ev.Path] {
			e.count(func(u *Usage) { u.UnknownPaths++ })
			continue
		}
		if _, dup := got[ev.Path]; dup {
			continue
		}
		if _, dup := res[ev.Path]; dup {
			continue
		}
		rel, ok := ev.Relevance, ev.HasRelevance
		switch {
		case !ok:
			res[ev.Path] = outcome{note: "llm: unusable reply (no relevance); local score kept"}
			continue
		case rel < -clampSlack || rel > 1+clampSlack:
			res[ev.Path] = outcome{note: fmt.Sprintf("llm: unusable reply (relevance %g outside 0..1); local score kept", rel)}
			continue
		}
		reason := ev.Reason
		if reason == "" {
			reason = "no reason given"
		}
		got[ev.Path] = &judgment{Relevance: min(max(rel, 0), 1), Reason: reason,
			MissingContext: dedupe(ev.MissingContext), Critical: ev.Critical}
	}
	kws := dedupe(r.Keywords)
	if len(kws) > maxKeywords {
		kws = kws[:maxKeywords]
	}
	best := ""
	for p, j := range got {
		if best == "" || j.Relevance > got[best].Relevance || (j.Relevance == got[best].Relevance && p < best) {
			best = p
		}
	}
	for p, j := range got {
		if j.Relevance >= keywordMinRelevance || p == best {
			j.Keywords = kws
		}
	}
	for _, it := range batch {
		if j, ok := got[it.path]; ok {
			res[it.path] = outcome{j: j}
			e.cache.put(it.key, *j)
		} else if _, ok := res[it.path]; !ok {
			res[it.path] = outcome{note: "llm: no judgment in the reply; local score kept"}
		}
	}
	if len(got) == 0 {
		e.count(func(u *Usage) { u.Errors++ })
	}
	return res, nil
}

// systemPrompt states the task of the judge, the scale and the reply format.
const systemPrompt = `You judge which source files a coding agent must read to carry out a task in a repository.

Give each file shown a relevance to the task:
- 0.8-1.0: directly implements the target (the code to change, or the definition at the heart of the task)
- 0.5-0.7: related patterns, types, callers or configuration the change must follow
- 0.2-0.4: tangential (same area, unlikely to be needed)
- below 0.2: not relevant

Judge from the views shown: a view lists a file's definitions and the lines that match the search terms ("…" marks elided lines). A line "hone 0.93: …" above a view is the search tool's own estimate from word statistics, the commit history and the code graph, with its largest reasons; it has not read the code as you do: a second opinion, not the answer. A line "second look: …" says you judged the file before and the tool's estimate disagrees: judge it again from the view. Give a one-sentence reason naming the code that decides it. In missing_context name what the task still needs that the file does not show (such as "definition of SessionManager" or "caller of validate_token"); set critical to true when that context is needed to make the change. In keywords give up to 8 identifiers or terms of this codebase worth searching for next.

Reply with only a JSON object, one evaluation per file, paths exactly as given:
{"evaluations":[{"path":"…","relevance":0.0,"reason":"…","missing_context":["…"],"critical":false}],"keywords":["…"]}`

// again is the prompt user of a request's try (from 0): after an unusable
// reply (perr), it says so and asks again, counted as a reask.
func (e *Evaluator) again(user string, try int, perr error) string {
	if try == 0 {
		return user
	}
	e.count(func(u *Usage) { u.Reasks++ })
	return user + fmt.Sprintf("\n\nYour previous reply was unusable (%v). Reply with only the JSON object described above.", perr)
}

// Enough implements loop.Finisher: it shows the model the task and the
// files judged relevant (each with its judgment's reason and the context it
// named missing) and asks whether they are enough to make the change. A
// failed or unusable reply is "not enough" (the loop goes on), counted in
// Usage.Errors; only running out of time or a cancelled context is an
// error. With Config.NoEnough it asks nothing and answers "not enough".
func (e *Evaluator) Enough(ctx context.Context, in loop.EnoughInput) (bool, string, error) {
	if len(in.Relevant) == 0 || e.cfg.NoEnough {
		return false, "", nil
	}
	ctx, cancel := e.budget(ctx)
	defer cancel()
	e.count(func(u *Usage) { u.EnoughAsked++ })
	user := enoughPrompt(in.Task, in.Relevant)
	var perr error
	for try := 0; try < 2; try++ {
		prompt := e.again(user, try, perr)
		text, err := e.ask(ctx, enoughCall(prompt))
		if err != nil {
			if !errors.Is(err, errOutOfTime) && ctx.Err() == nil {
				e.count(func(u *Usage) { u.Errors++ })
			}
			return false, "", err
		}
		var enough bool
		var missing string
		if enough, missing, perr = parseEnough(text); perr == nil {
			if enough {
				e.count(func(u *Usage) { u.EnoughSaid++ })
			}
			return enough, missing, nil
		}
	}
	e.count(func(u *Usage) { u.Errors++ })
	return false, "", perr
}

// enoughSystem states the question Enough asks and the reply's format.
const enoughSystem = `You decide whether a coding agent has found what it must read in a repository to carry out a task.

You are shown the task and the files judged relevant to it so far, each with the reason given and the context named as still missing. Answer enough=true when these files hold the code to change and what the change must follow, so that no further search is needed; answer false when a file the change needs is likely still unfound (a second place to change, a definition or caller named as missing), and say in missing what to look for.

Reply with only a JSON object:
{"enough":false,"missing":"…"}`

// enoughPrompt lists the task and the relevant files' judgments.
func enoughPrompt(task string, relevant []loop.Evaluation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\n\nRelevant files (%d):\n", task, len(relevant))
	for _, r := range relevant {
		fmt.Fprintf(&b, "\n### FILE: %s\nrelevance %.2f: %s\n", r.Path, r.Relevance, truncate(r.Reason, 400))
		if len(r.MissingContext) > 0 {
			fmt.Fprintf(&b, "missing: %s\n", strings.Join(r.MissingContext, "; "))
		}
	}
	return b.String()
}

// userPrompt lists the task and the batch's views.
func userPrompt(task string, batch []item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\n\nFiles (%d):\n", task, len(batch))
	for _, it := range batch {
		fmt.Fprintf(&b, "\n### FILE: %s\n%s%s\n", it.path, it.note, strings.TrimRight(it.view, "\n"))
	}
	return b.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], '\n')
	if cut <= 0 {
		cut = n
	}
	return s[:cut] + "\n…"
}

func joinReason(note, local string) string {
	if local == "" {
		return note
	}
	return note + ": " + local
}

func dedupe(xs []string) []string {
	out := make([]string, 0, len(xs))
	seen := map[string]bool{}
	for _, x := range xs {
		x = strings.TrimSpace(x)
		if x == "" || seen[x] {
			continue
		}
		seen[x] = true
		out = append(out, x)
	}
	return out
}
