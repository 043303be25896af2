package cachedir

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hone-dev/hone/internal/filelock"
	"github.com/hone-dev/hone/internal/history"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/testrepo"
)

// fixture is a cache directory holding the indexes (and commit histories)
// of two repositories, kept (root kept) and gone (root removed), plus an
// unrelated file, a link named like a manifest, an old orphan segment and
// a fresh one, llm/ and bench/.
type fixture struct {
	dir        string
	kept, gone string // roots, as the manifests record them
	keptFiles  []string
	goneFiles  []string
	oldOrphan  string
	newOrphan  string
	outside    string // the link's target, outside the directory
}

var repoFiles = map[string]string{
	"main.go":      "package main\n\nfunc main() { serve() }\n",
	"serve.go":     "package main\n\n// serve answers requests.\nfunc serve() {}\n",
	"util/util.go": "package util\n\nfunc Helper() int { return 1 }\n",
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func build(t *testing.T, cache, root string, git bool) string {
	t.Helper()
	if git {
		testrepo.Git(t, root, "init", "-q")
		testrepo.Commit(t, root, "first", nil)
	}
	ix, _, err := index.Open(context.Background(), root, index.Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if git {
		if _, _, err := history.Load(context.Background(), history.Source{Dir: ix.Root()}, history.Options{CacheDir: cache}); err != nil {
			t.Fatal(err)
		}
	}
	return ix.Root()
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir()}
	_, err := exec.LookPath("git")
	git := err == nil // without git, no history caches
	keptRoot := testrepo.Write(t, repoFiles)
	goneParent := t.TempDir()
	goneRoot := filepath.Join(goneParent, "repo")
	testrepo.WriteFiles(t, goneRoot, repoFiles)
	f.kept = build(t, f.dir, keptRoot, git)
	before := names(t, f.dir)
	f.gone = build(t, f.dir, goneRoot, git)
	for _, n := range names(t, f.dir) {
		if !slices.Contains(before, n) && n != index.RecordsFile {
			f.goneFiles = append(f.goneFiles, n)
		}
	}
	for _, n := range before {
		if n != index.RecordsFile {
			f.keptFiles = append(f.keptFiles, n)
		}
	}
	if err := os.RemoveAll(goneRoot); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string, age time.Duration) {
		p := filepath.Join(f.dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if age > 0 {
			old := time.Now().Add(-age)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	keptPrefix := strings.TrimSuffix(index.ManifestName(f.kept), ".bin")
	f.oldOrphan = keptPrefix + "-00000000000000aa.seg"
	f.newOrphan = keptPrefix + "-00000000000000bb.seg"
	write(f.oldOrphan, "old orphan", 2*time.Hour)
	write(f.newOrphan, "new orphan", 0)
	if _, err := os.Stat(filepath.Join(f.dir, index.RecordsFile)); err != nil {
		write(index.RecordsFile, "records", 0) // too few files to open the store
	}
	write("notes.txt", "not hone's", 48*time.Hour)
	write("llm/judgments/x.json", "{}", 0)
	write("bench/work/y", "y", 0)
	f.outside = filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(f.outside, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.outside, filepath.Join(f.dir, "index-0123456789abcdef.bin")); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestList: each repository with its root's state, its files' sizes, its
// history; the orphans; llm/ and bench/; nothing that is not hone's.
func TestList(t *testing.T) {
	f := newFixture(t)
	u, err := List(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Repos) != 2 {
		t.Fatalf("List = %d repositories, want 2: %+v", len(u.Repos), u.Repos)
	}
	for _, r := range u.Repos {
		want := f.kept
		files := f.keptFiles
		if !r.Exists {
			want, files = f.gone, f.goneFiles
		}
		if r.Root != want {
			t.Errorf("repository %s: Exists = %v, want the root %s", r.Root, r.Exists, want)
		}
		var size, hist int64
		segs := 0
		for _, n := range files {
			fi, err := os.Stat(filepath.Join(f.dir, n))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case strings.HasPrefix(n, "history-"):
				hist += fi.Size()
			case strings.HasSuffix(n, ".seg"):
				segs++
				size += fi.Size()
			case strings.HasSuffix(n, ".bin"):
				size += fi.Size()
			}
		}
		if r.IndexBytes != size || r.Segments != segs || r.HistoryBytes != hist || segs == 0 {
			t.Errorf("repository %s: %d bytes, %d segments, history %d bytes; want %d, %d, %d (files %v)",
				r.Root, r.IndexBytes, r.Segments, r.HistoryBytes, size, segs, hist, files)
		}
		if time.Since(r.LastUsed) > time.Hour {
			t.Errorf("repository %s: last used %v", r.Root, r.LastUsed)
		}
	}
	var orphans []string
	for _, o := range u.Orphans {
		orphans = append(orphans, o.Name)
	}
	if want := []string{f.oldOrphan, f.newOrphan}; !slices.Equal(orphans, want) {
		t.Errorf("orphans = %v, want %v", orphans, want)
	}
	if u.LLMBytes != 2 || u.BenchBytes != 1 {
		t.Errorf("llm/ %d bytes, bench/ %d bytes; want 2 and 1", u.LLMBytes, u.BenchBytes)
	}
	if u.RecordsBudget != index.DefaultRecordsMax && os.Getenv("HONE_RECORDS_MB") == "" {
		t.Errorf("records budget = %d, want %d", u.RecordsBudget, index.DefaultRecordsMax)
	}
	total := u.OrphanBytes + u.RecordsBytes + u.LLMBytes + u.BenchBytes
	for _, r := range u.Repos {
		total += r.IndexBytes + r.HistoryBytes
	}
	for _, h := range u.Histories {
		total += h.Bytes
	}
	if u.Total != total || u.OrphanBytes != int64(len("old orphan")+len("new orphan")) {
		t.Errorf("total %d, orphans %d bytes; want %d and 20", u.Total, u.OrphanBytes, total)
	}
}

// A directory that does not exist holds nothing; it is no error.
func TestListMissing(t *testing.T) {
	u, err := List(filepath.Join(t.TempDir(), "none"))
	if err != nil || len(u.Repos) != 0 || u.Total != 0 {
		t.Errorf("List(missing) = %+v, %v", u, err)
	}
}

// TestPrune: what each option removes, exactly; what is not hone's (a
// file, a link named like a manifest, the link's target) always survives.
func TestPrune(t *testing.T) {
	cases := []struct {
		name string
		opts PruneOptions
		// gone lists what must go, by the fixture's parts.
		gone func(f *fixture) []string
	}{
		{"default", PruneOptions{}, func(f *fixture) []string {
			return append(slices.Clone(f.goneFiles), f.oldOrphan)
		}},
		{"dry run", PruneOptions{DryRun: true}, func(f *fixture) []string { return nil }},
		{"older than", PruneOptions{OlderThan: 24 * time.Hour, Now: func() time.Time { return time.Now().Add(48 * time.Hour) }},
			func(f *fixture) []string {
				// The kept repository's lock file stays (its root exists: an
				// index may be about to take it); every orphan is now old.
				var kept []string
				for _, n := range f.keptFiles {
					if !strings.HasSuffix(n, ".lock") {
						kept = append(kept, n)
					}
				}
				return append(append(kept, f.goneFiles...), f.oldOrphan, f.newOrphan)
			}},
		{"all", PruneOptions{All: true}, func(f *fixture) []string {
			return append(append(slices.Clone(f.keptFiles), f.goneFiles...), f.oldOrphan, f.newOrphan,
				index.RecordsFile, "llm", "bench")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			before := names(t, f.dir)
			res, err := Prune(f.dir, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			after := names(t, f.dir)
			gone := c.gone(f)
			var want []string
			for _, n := range before {
				if !slices.Contains(gone, n) {
					want = append(want, n)
				}
			}
			if !slices.Equal(after, want) {
				t.Errorf("after Prune the directory holds\n%v\nwant\n%v", after, want)
			}
			for _, n := range []string{"notes.txt", "index-0123456789abcdef.bin"} {
				if !slices.Contains(after, n) {
					t.Errorf("Prune removed %s, which is not hone's", n)
				}
			}
			if _, err := os.Stat(f.outside); err != nil {
				t.Errorf("the link's target: %v", err)
			}
			if len(res.Skipped) != 0 {
				t.Errorf("skipped %v", res.Skipped)
			}
			var removed []string
			var freed int64
			for _, r := range res.Removed {
				removed = append(removed, strings.TrimSuffix(r.Name, string(filepath.Separator)))
				freed += r.Bytes
			}
			sort.Strings(removed)
			wantRemoved := c.gone(f)
			if c.opts.DryRun {
				wantRemoved = append(slices.Clone(f.goneFiles), f.oldOrphan)
			}
			sort.Strings(wantRemoved)
			if !slices.Equal(removed, wantRemoved) {
				t.Errorf("Prune reports removing\n%v\nwant\n%v", removed, wantRemoved)
			}
			if freed != res.Freed || freed <= 0 {
				t.Errorf("freed %d, the removed sum to %d", res.Freed, freed)
			}
		})
	}
}

// A repository's cache whose lock another process holds is left, and said
// to be.
func TestPruneHeldLock(t *testing.T) {
	f := newFixture(t)
	var manifest string
	for _, n := range f.goneFiles {
		if strings.HasSuffix(n, ".bin") && strings.HasPrefix(n, "index-") {
			manifest = n
		}
	}
	unlock, err := filelock.Lock(filepath.Join(f.dir, manifest+".lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	res, err := Prune(f.dir, PruneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, manifest)); err != nil {
		t.Errorf("the held repository's manifest: %v", err)
	}
	if len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0], "in use") {
		t.Errorf("skipped %v, want the held repository", res.Skipped)
	}
}

// A manifest that fails its checksum is no repository's: it is an orphan,
// removed once an hour old (as are its segments, then orphans too).
func TestCorruptManifest(t *testing.T) {
	f := newFixture(t)
	manifest := filepath.Join(f.dir, index.ManifestName(f.kept))
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(manifest, b, 0o600); err != nil {
		t.Fatal(err)
	}
	u, err := List(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Repos) != 1 || u.Repos[0].Root != f.gone {
		t.Errorf("repositories %+v, want only %s", u.Repos, f.gone)
	}
	if !slices.ContainsFunc(u.Orphans, func(o File) bool { return o.Name == filepath.Base(manifest) }) {
		t.Errorf("orphans %+v lack the corrupt manifest", u.Orphans)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(manifest, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := Prune(f.dir, PruneOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(manifest); err == nil {
		t.Error("the corrupt manifest survived")
	}
	if _, err := os.Stat(filepath.Join(f.dir, f.newOrphan)); err != nil {
		t.Errorf("the fresh orphan: %v", err)
	}
}
