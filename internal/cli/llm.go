package cli

import (
	"log/slog"
	"time"

	"github.com/spf13/pflag"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/llm"
)

// llmFlags select and configure the evaluator.
type llmFlags struct {
	evaluator string
	provider  string
	baseURL   string
	model     string
	timeout   durationFlag
	noNetwork bool
}

func (l *llmFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&l.evaluator, "evaluator", "local", "evaluator: local (offline) or llm")
	fl.StringVar(&l.provider, "llm-provider", "", "LLM provider: openai (any OpenAI-compatible endpoint) or anthropic ($HONE_LLM_PROVIDER)")
	fl.StringVar(&l.baseURL, "llm-base-url", "", "LLM endpoint base URL ($HONE_LLM_BASE_URL)")
	fl.StringVar(&l.model, "llm-model", "", "LLM model name ($HONE_LLM_MODEL)")
	fl.Var(&l.timeout, "llm-timeout", "the model's time for the whole retrieval, e.g. 90s or 90; then the local scores stand ($HONE_LLM_TIMEOUT, default 60s)")
	fl.BoolVar(&l.noNetwork, "no-network", false, "guarantee no network use: refuse any evaluator but local")
}

// overlay is the part of the LLM configuration the flags set.
func (l *llmFlags) overlay() llm.Config {
	return llm.Config{Provider: l.provider, BaseURL: l.baseURL, Model: l.model, Timeout: time.Duration(l.timeout)}
}

// wire installs the chosen evaluator into opts. It returns the LLM
// evaluator's run, to report into the result, or nil for the local one.
func (l *llmFlags) wire(repo *hone.Repo, task string, opts *hone.RetrieveOptions, log *slog.Logger) (*llmRun, error) {
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

// durationFlag is a positive duration given as "90s" or as seconds ("90").
type durationFlag time.Duration

func (d *durationFlag) String() string {
	if *d == 0 {
		return ""
	}
	return time.Duration(*d).String()
}

func (d *durationFlag) Set(s string) error {
	v, err := llm.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = durationFlag(v)
	return nil
}

func (d *durationFlag) Type() string { return "duration" }

type errString string

func (e errString) Error() string { return string(e) }
