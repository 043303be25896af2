package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/cachedir"
	"github.com/hone-dev/hone/internal/testrepo"
)

func runIn(t *testing.T, cache string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), append([]string{"--cache-dir", cache}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestCacheCommand: hone cache lists the repositories of the cache (text
// and --json), prune --dry-run removes nothing, prune removes the gone
// repository's files and leaves what is not hone's.
func TestCacheCommand(t *testing.T) {
	cache := t.TempDir()
	files := map[string]string{"a.go": "package a\n\nfunc A() {}\n", "b.go": "package a\n\nfunc B() { A() }\n"}
	kept := testrepo.Write(t, files)
	gone := filepath.Join(t.TempDir(), "gone")
	testrepo.WriteFiles(t, gone, files)
	for _, r := range []string{kept, gone} {
		if code, _, stderr := runIn(t, cache, "--no-history", "-q", "index", "-r", r); code != ExitOK {
			t.Fatalf("hone index -r %s = %d: %s", r, code, stderr)
		}
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, "mine.txt"), []byte("not hone's"), 0o644); err != nil {
		t.Fatal(err)
	}

	code, text, stderr := runIn(t, cache, "cache")
	if code != ExitOK {
		t.Fatalf("hone cache = %d: %s", code, stderr)
	}
	lines := strings.Split(text, "\n")
	var keptLine, goneLine string
	for _, l := range lines {
		switch {
		case strings.Contains(l, gone):
			goneLine = l
		case strings.HasPrefix(l, kept+" "):
			keptLine = l
		}
	}
	if !strings.Contains(goneLine, " gone ") || !strings.Contains(keptLine, " present ") ||
		!strings.Contains(text, "records.db: ") || !strings.Contains(text, "total: ") {
		t.Errorf("hone cache printed\n%s", text)
	}
	if _, list, _ := runIn(t, cache, "cache", "list"); list != text {
		t.Errorf("hone cache list printed\n%s\nnot what hone cache did", list)
	}

	code, js, _ := runIn(t, cache, "cache", "--json")
	var u cachedir.Usage
	if err := json.Unmarshal([]byte(js), &u); code != ExitOK || err != nil || len(u.Repos) != 2 {
		t.Fatalf("hone cache --json = %d, %v:\n%s", code, err, js)
	}

	before := dirNames(t, cache)
	code, dry, _ := runIn(t, cache, "cache", "prune", "--dry-run")
	if code != ExitOK || !strings.Contains(dry, "would remove") || !strings.Contains(dry, gone) {
		t.Errorf("hone cache prune --dry-run = %d:\n%s", code, dry)
	}
	if after := dirNames(t, cache); !slices.Equal(after, before) {
		t.Errorf("--dry-run changed the directory: %v, was %v", after, before)
	}

	code, out, stderr := runIn(t, cache, "cache", "prune", "--json")
	var res cachedir.PruneResult
	if err := json.Unmarshal([]byte(out), &res); code != ExitOK || err != nil || res.Freed <= 0 {
		t.Fatalf("hone cache prune --json = %d, %v:\n%s%s", code, err, out, stderr)
	}
	for _, r := range res.Removed {
		if r.Root != gone {
			t.Errorf("prune removed %s of %s", r.Name, r.Root)
		}
	}
	code, js, _ = runIn(t, cache, "cache", "--json")
	u = cachedir.Usage{}
	if err := json.Unmarshal([]byte(js), &u); code != ExitOK || err != nil || len(u.Repos) != 1 || !u.Repos[0].Exists {
		t.Errorf("after prune, hone cache --json = %d, %v:\n%s", code, err, js)
	}
	if _, err := os.Stat(filepath.Join(cache, "mine.txt")); err != nil {
		t.Errorf("prune removed a file that is not hone's: %v", err)
	}
}

// Bad flags and arguments of hone cache are usage errors.
func TestCacheUsage(t *testing.T) {
	for _, args := range [][]string{
		{"cache", "prune", "--all", "--older-than", "1h"},
		{"cache", "prune", "--older-than", "-1h"},
		{"cache", "prune", "--older-than", "soon"},
		{"cache", "nonsense"},
		{"cache", "prune", "extra"},
	} {
		if code, _, stderr := run(t, "", args...); code != ExitUsage {
			t.Errorf("hone %v = exit %d, want %d; stderr: %s", args, code, ExitUsage, stderr)
		}
	}
}
