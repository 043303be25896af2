package cli

import (
	"log/slog"

	"github.com/spf13/pflag"

	"github.com/hone-dev/hone"
)

// llmFlags select and configure the evaluator.
type llmFlags struct {
	evaluator string
	provider  string
	baseURL   string
	model     string
	noNetwork bool
}

func (l *llmFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&l.evaluator, "evaluator", "local", "evaluator: local (offline) or llm")
	fl.StringVar(&l.provider, "llm-provider", "", "LLM provider: openai (any OpenAI-compatible endpoint) or anthropic ($HONE_LLM_PROVIDER)")
	fl.StringVar(&l.baseURL, "llm-base-url", "", "LLM endpoint base URL ($HONE_LLM_BASE_URL)")
	fl.StringVar(&l.model, "llm-model", "", "LLM model name ($HONE_LLM_MODEL)")
	fl.BoolVar(&l.noNetwork, "no-network", false, "guarantee no network use: refuse any evaluator but local")
}

// wire installs the chosen evaluator into opts. It returns a function that
// reports the evaluator's usage for the stats, or nil.
func (l *llmFlags) wire(repo *hone.Repo, task string, opts *hone.RetrieveOptions, log *slog.Logger) (func() map[string]any, error) {
	switch l.evaluator {
	case "", "local":
		return nil, nil
	case "llm":
		if l.noNetwork {
			return nil, usageError{errString("--no-network forbids --evaluator llm")}
		}
		return wireLLM(l, repo, task, opts, log)
	}
	return nil, usageError{errString("--evaluator must be local or llm, not " + l.evaluator)}
}

type errString string

func (e errString) Error() string { return string(e) }
