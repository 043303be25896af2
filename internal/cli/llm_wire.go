package cli

import (
	"log/slog"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/llm"
)

// wireLLM builds the LLM evaluator over the local one: the local ranking
// picks the candidates, the model judges the best of them.
func wireLLM(l *llmFlags, repo *hone.Repo, task string, opts *hone.RetrieveOptions, log *slog.Logger) (func() map[string]any, error) {
	cfg, err := llm.LoadConfig(llm.Config{Provider: l.provider, BaseURL: l.baseURL, Model: l.model})
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
		return repo.View(p, terms, hone.ViewOptions{Budget: budget})
	}
	ev, err := llm.New(cfg, base, view)
	if err != nil {
		return nil, llmError{err}
	}
	opts.Evaluator = ev
	return func() map[string]any {
		u := ev.Usage()
		if u.Errors > 0 {
			log.Warn("the LLM evaluator failed on some requests; their files kept the local score", "errors", u.Errors)
		}
		return map[string]any{"llm": u}
	}, nil
}

// checkLLM validates the LLM settings without a repository, so that a
// misconfiguration fails before any work.
func checkLLM(l *llmFlags) error {
	if l.noNetwork {
		return usageError{errString("--no-network forbids --evaluator llm")}
	}
	cfg, err := llm.LoadConfig(llm.Config{Provider: l.provider, BaseURL: l.baseURL, Model: l.model})
	if err != nil {
		return llmError{err}
	}
	cfg.SetDefaults()
	if err := cfg.Validate(); err != nil {
		return llmError{err}
	}
	return nil
}
