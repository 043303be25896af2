package cli

import (
	"log/slog"

	"github.com/hone-dev/hone"
)

// wireLLM builds the LLM evaluator over the local one.
func wireLLM(l *llmFlags, repo *hone.Repo, task string, opts *hone.RetrieveOptions, log *slog.Logger) (func() map[string]any, error) {
	return nil, llmError{errString("the LLM evaluator is not wired yet")}
}
