// Package testrepo writes small fixture repositories for tests and opens
// hone's index on them, so that each package's tests describe their fixture
// as a map of paths to contents and nothing else.
package testrepo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/index"
)

// Write creates files (slash-separated paths to contents) under a new
// temporary directory and returns its path.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	WriteFiles(t, root, files)
	return root
}

// WriteFiles creates or overwrites files (slash-separated paths to
// contents) under dir, making directories as needed.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Padded copies the fixture directory into a new temporary directory, adds
// n Go files that no test's task is about (ledgers, twenty a directory under
// internal/), and returns its path: a tree larger than what a first answer
// parses.
func Padded(t testing.TB, fixture string, n int) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	files := make(map[string]string, n)
	for i := range n {
		files[fmt.Sprintf("internal/m%03d/ledger_%03d.go", i/20, i)] = fmt.Sprintf("package m%03d\n\n// Balance%d sums a ledger's entries.\nfunc Balance%d(entries []int) int {\n\ttotal := 0\n\tfor _, e := range entries {\n\t\ttotal += e\n\t}\n\treturn total\n}\n", i/20, i, i)
	}
	WriteFiles(t, dir, files)
	return dir
}

// NeedGit skips the test when git is not installed.
func NeedGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
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

// Git runs git in dir with a fixed identity and no user or system
// configuration, and returns its trimmed output.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Commit writes files under dir (a git work tree), stages everything and
// commits it with message; it returns the new commit's hash.
func Commit(t testing.TB, dir, message string, files map[string]string) string {
	t.Helper()
	WriteFiles(t, dir, files)
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "--allow-empty", "-m", message)
	return Git(t, dir, "rev-parse", "HEAD")
}
