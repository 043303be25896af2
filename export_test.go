package hone

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// SetCompleteStep makes the step a Refresh parses towards completing a
// first answer's index (CompleteStep) n bytes, until the test ends.
func SetCompleteStep(t testing.TB, n int64) {
	old := completeStep
	completeStep = n
	t.Cleanup(func() { completeStep = old })
}

// PaddedCopy copies a fixture into a new directory and adds n Go files
// that no task of the tests is about (ledgers), twenty a directory.
func PaddedCopy(t testing.TB, fixture string, n int) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		p := filepath.Join(dir, "internal", fmt.Sprintf("m%03d", i/20), fmt.Sprintf("ledger_%03d.go", i))
		src := fmt.Sprintf("package m%03d\n\n// Balance%d sums a ledger's entries.\nfunc Balance%d(entries []int) int {\n\ttotal := 0\n\tfor _, e := range entries {\n\t\ttotal += e\n\t}\n\treturn total\n}\n", i/20, i, i)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
