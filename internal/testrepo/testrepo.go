// Package testrepo writes small fixture repositories for tests and opens
// hone's index on them, so that each package's tests describe their fixture
// as a map of paths to contents and nothing else.
package testrepo

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hone-dev/hone/internal/index"
)

// Write creates files (slash-separated paths to contents) under a new
// temporary directory and returns its path.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, text := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Index writes files and indexes them in memory (no cache).
func Index(t testing.TB, files map[string]string) *index.Index {
	t.Helper()
	root := Write(t, files)
	ix, _, err := index.Open(context.Background(), root, index.Options{NoCache: true})
	if err != nil {
		t.Fatalf("index.Open(%s) = %v", root, err)
	}
	return ix
}
