package cli

import (
	"log/slog"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/llm"
)

// llmRun is one retrieval's LLM evaluator, reported into its result.
type llmRun struct {
	ev  *llm.Evaluator
	log *slog.Logger
}

// wireLLM builds the LLM evaluator over the local one: the local ranking
// picks the candidates, the model judges the best of them.
func wireLLM(l *llmFlags, repo *hone.Repo, task string, opts *hone.RetrieveOptions, log *slog.Logger) (*llmRun, error) {
	cfg, err := llm.LoadConfig(l.overlay())
	if err != nil {
		return nil, llmError{err}
	}
	base, err := repo.LocalEvaluator(task, *opts)
	if err != nil {
		return nil, err
	}
	// The evaluator's views never show a secret, whatever --show-secrets
	// says: a model judging relevance never needs one.
	view := func(p string, terms []string, budget int) (string, error) {
		return repo.View(p, terms, hone.ViewOptions{Budget: budget, Task: task})
	}
	ev, err := llm.New(cfg, base, view)
	if err != nil {
		return nil, llmError{err}
	}
	opts.Evaluator = ev
	// A cycle offers the model a page it judges whole: candidates past its
	// top_n would keep the local score and never reach it (they count as
	// judged). The page is hone's own ranking first (hone.Repo.Retrieve).
	if n := ev.Config().TopN; opts.Loop.Candidates <= 0 || opts.Loop.Candidates > n {
		opts.Loop.Candidates = n
	}
	return &llmRun{ev: ev, log: log}, nil
}

// extra returns the evaluator's usage for the stats, and warns on stderr
// about the files that kept the local score.
func (r *llmRun) extra() map[string]any {
	u := r.ev.Usage()
	if u.Errors > 0 {
		r.log.Warn("the LLM evaluator failed on some requests; their files kept the local score", "errors", u.Errors)
	}
	if s := u.Stopped(); s != "" {
		r.log.Warn(s)
	}
	return map[string]any{"llm": u}
}

// report puts the usage into res's stats and, when the time budget ran
// out, says so in its stop reason.
func (r *llmRun) report(res *hone.Result) {
	res.Stats.Extra = r.extra()
	if s := r.ev.Usage().Stopped(); s != "" {
		res.Stopped += "; " + s
	}
}

// checkLLM validates the LLM settings without a repository, so that a
// misconfiguration fails before any work.
func checkLLM(l *llmFlags) error {
	if l.noNetwork {
		return usageError{errString("--no-network forbids --evaluator llm")}
	}
	cfg, err := llm.LoadConfig(l.overlay())
	if err != nil {
		return llmError{err}
	}
	cfg.SetDefaults()
	if err := cfg.Validate(); err != nil {
		return llmError{err}
	}
	return nil
}
