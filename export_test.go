package hone

import "testing"

// SetCompleteStep makes the step a Refresh parses towards completing a
// first answer's index (CompleteStep) n bytes, until the test ends.
func SetCompleteStep(t testing.TB, n int64) {
	old := completeStep
	completeStep = n
	t.Cleanup(func() { completeStep = old })
}
