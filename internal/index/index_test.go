package index

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/walk"
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		helperProcess()
		return
	}
	// Until package walk is implemented, stand in a plain directory walk.
	if err := walk.Walk(context.Background(), os.TempDir(), walk.Options{}, func(walk.File) error { return errStopProbe }, func(walk.Skip) {}); err != nil && !errors.Is(err, errStopProbe) {
		walkTree = plainWalk
	}
	os.Exit(m.Run())
}

var errStopProbe = errors.New("probe done")

func plainWalk(ctx context.Context, root string, _ walk.Options, fn func(walk.File) error, _ func(walk.Skip)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		return fn(walk.File{Path: filepath.ToSlash(rel), Abs: p, Size: info.Size(), ModTime: info.ModTime().UnixNano(), Inode: inodeOf(info)})
	})
}

// copyRepo copies testdata/repo into a fresh directory.
func copyRepo(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS("testdata/repo")); err != nil {
		t.Fatal(err)
	}
	return dst
}

func openT(t testing.TB, root, cache string) (*Index, Stats) {
	t.Helper()
	ix, st, err := Open(context.Background(), root, Options{CacheDir: cache})
	if err != nil {
		t.Fatalf("Open(%s) = %v", root, err)
	}
	return ix, st
}

func paths(ix *Index, ids []ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = ix.File(id).Path
	}
	return out
}

func hitPaths(ix *Index, hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = ix.File(h.ID).Path
	}
	return out
}

func TestSearch(t *testing.T) {
	ix, _ := openT(t, copyRepo(t), t.TempDir())
	tests := []struct {
		terms []string
		top   string
	}{
		{[]string{"token", "expiry"}, "app/auth/tokens.py"},
		{[]string{"throttle"}, "app/api/throttle.py"},
		{[]string{"refresh"}, "web/src/auth/refresh.ts"},
		{[]string{"session", "expired"}, "web/src/auth/session.ts"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.terms, "+"), func(t *testing.T) {
			var q []Term
			for _, s := range tt.terms {
				q = append(q, Term{Text: s, Weight: 1})
			}
			hits := ix.Search(q, nil, 3)
			if len(hits) == 0 || ix.File(hits[0].ID).Path != tt.top {
				t.Fatalf("Search(%v) = %v, want %s first", tt.terms, hitPaths(ix, hits), tt.top)
			}
			if !slices.Equal(hits[0].Matched, tt.terms) {
				t.Errorf("Search(%v) matched %v", tt.terms, hits[0].Matched)
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Errorf("hits out of order: %v", hits)
				}
			}
		})
	}
	t.Run("keep", func(t *testing.T) {
		hits := ix.Search([]Term{{"token", 1}}, func(id ID) bool { return strings.HasSuffix(ix.File(id).Path, ".ts") }, 10)
		for _, h := range hits {
			if !strings.HasSuffix(ix.File(h.ID).Path, ".ts") {
				t.Errorf("keep let %s through", ix.File(h.ID).Path)
			}
		}
		if len(hits) == 0 {
			t.Error("keep filtered everything")
		}
	})
	t.Run("weight", func(t *testing.T) {
		a := ix.Search([]Term{{"token", 1}}, nil, 1)
		b := ix.Search([]Term{{"token", 2}}, nil, 1)
		if len(a) == 0 || len(b) == 0 || b[0].Score < 1.99*a[0].Score || b[0].Score > 2.01*a[0].Score {
			t.Errorf("weight 2 scored %v, weight 1 %v", b, a)
		}
	})
}

func TestTermStats(t *testing.T) {
	ix, _ := openT(t, copyRepo(t), t.TempDir())
	id, ok := ix.Lookup("app/auth/tokens.py")
	if !ok {
		t.Fatal("Lookup(app/auth/tokens.py) failed")
	}
	if got := ix.TermFreq(id, FieldPath, "tokens"); got != 1 {
		t.Errorf("TermFreq(path, tokens) = %d, want 1", got)
	}
	if got := ix.TermFreq(id, FieldContent, "expiry"); got != 3 {
		t.Errorf("TermFreq(content, expiry) = %d, want 3", got)
	}
	if got := ix.DocFreq("throttle"); got != 3 {
		t.Errorf("DocFreq(throttle) = %d, want 3", got)
	}
	if ix.IDF("throttle") <= ix.IDF("import") {
		t.Errorf("IDF(throttle) = %v <= IDF(import) = %v", ix.IDF("throttle"), ix.IDF("import"))
	}
	if got := ix.DocFreq("nosuchterm"); got != 0 {
		t.Errorf("DocFreq(nosuchterm) = %d", got)
	}
}

func TestAssociations(t *testing.T) {
	ix, _ := openT(t, copyRepo(t), t.TempDir())
	as := ix.Associations("rate", 10)
	var terms []string
	for _, a := range as {
		terms = append(terms, a.Term)
		if a.Score <= 0 || a.Score > 1 || a.Support < assocMinSupport {
			t.Errorf("Associations(rate) gave %+v", a)
		}
	}
	if !slices.Contains(terms, "throttle") {
		t.Errorf("Associations(rate) = %v, want throttle among them", terms)
	}
	if got := ix.Associations("nosuchterm", 5); got != nil {
		t.Errorf("Associations(nosuchterm) = %v", got)
	}
}

func TestDistinctive(t *testing.T) {
	ix, _ := openT(t, copyRepo(t), t.TempDir())
	id, _ := ix.Lookup("app/auth/tokens.py")
	got := ix.Distinctive(id, 5)
	if !slices.Contains(got, "expiry") {
		t.Errorf("Distinctive(tokens.py) = %v, want expiry", got)
	}
	for _, s := range got {
		if len(s) < distinctiveMinLen || strings.Contains(s, ".") {
			t.Errorf("Distinctive gave %q", s)
		}
	}
}

func TestIncremental(t *testing.T) {
	root, cache := copyRepo(t), t.TempDir()
	ix, st := openT(t, root, cache)
	n := ix.Len()
	if st.Parsed != n || st.Reused != 0 {
		t.Fatalf("cold Open: %+v", st)
	}
	_, st = openT(t, root, cache)
	if st.Parsed != 0 || st.Reused != n || st.Removed != 0 || len(st.Warnings) != 0 {
		t.Fatalf("warm Open: %+v", st)
	}

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "app/settings.py"), []byte("BURST_QUOTA = 7\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "app/api/quota.py"), []byte("def quota_check(): pass\n"), 0o644))
	must(os.Remove(filepath.Join(root, "docs/guide.md")))
	ix, st = openT(t, root, cache)
	if st.Parsed != 2 || st.Removed != 1 || st.Reused != n-2 || st.Files != n {
		t.Fatalf("Open after edit, add, delete: %+v", st)
	}
	if ix.DocFreq("quota") != 2 || ix.DocFreq("token_ttl") != 1 {
		t.Errorf("DocFreq(quota) = %d, DocFreq(token_ttl) = %d after edit", ix.DocFreq("quota"), ix.DocFreq("token_ttl"))
	}
	if _, ok := ix.Lookup("docs/guide.md"); ok {
		t.Error("deleted file still indexed")
	}
	// The updated index must answer as a cold build of the same tree.
	cold, _, err := Open(context.Background(), root, Options{NoCache: true})
	must(err)
	sameIndex(t, cold, ix)
	_, st = openT(t, root, cache)
	if st.Parsed != 0 || st.Reused != n {
		t.Fatalf("warm Open after update: %+v", st)
	}
}

func TestCorruptCache(t *testing.T) {
	root := copyRepo(t)
	tests := []struct {
		name   string
		damage func(b []byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"header only", func(b []byte) []byte { return b[:headerSize] }},
		{"empty", func(b []byte) []byte { return nil }},
		{"flipped byte", func(b []byte) []byte { b[len(b)-3] ^= 0x55; return b }},
		{"flipped body", func(b []byte) []byte { b[manifestHead+10] ^= 0xff; return b }},
		{"old version", func(b []byte) []byte { b[8]++; return b }},
		{"foreign magic", func(b []byte) []byte { copy(b, "GARBAGE!"); return b }},
		{"other extractor", func(b []byte) []byte { b[16]++; return b }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := t.TempDir()
			want, st := openT(t, root, cache)
			b, err := os.ReadFile(st.CachePath)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(st.CachePath, tt.damage(b), 0o644); err != nil {
				t.Fatal(err)
			}
			got, st := openT(t, root, cache)
			if len(st.Warnings) != 1 || st.Parsed+st.Recalled != want.Len() {
				t.Fatalf("Open on a damaged cache: %+v", st)
			}
			sameIndex(t, want, got)
			_, st = openT(t, root, cache)
			if len(st.Warnings) != 0 || st.Parsed != 0 {
				t.Errorf("Open after the rebuild: %+v", st)
			}
		})
	}
	t.Run("foreign root", func(t *testing.T) {
		cache := t.TempDir()
		other := copyRepo(t)
		_, st := openT(t, root, cache)
		_, st2 := openT(t, other, cache)
		// Put the first root's cache where the second's belongs.
		b, _ := os.ReadFile(st.CachePath)
		os.WriteFile(st2.CachePath, b, 0o644)
		_, st2 = openT(t, other, cache)
		if len(st2.Warnings) != 1 || !strings.Contains(st2.Warnings[0], "belongs to") {
			t.Errorf("Open with a foreign cache: %+v", st2)
		}
	})
}

func TestUnwritableCache(t *testing.T) {
	root := copyRepo(t)
	// A cache "directory" that is a file cannot be created or written.
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	ix, st, err := Open(context.Background(), root, Options{CacheDir: filepath.Join(blocker, "sub")})
	if err != nil || ix == nil || ix.Len() == 0 {
		t.Fatalf("Open = %v, %v", ix, err)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "not saved") {
		t.Errorf("warnings = %q", st.Warnings)
	}
}

func TestCacheDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HONE_CACHE_DIR", dir)
	_, st := openT(t, copyRepo(t), "")
	if filepath.Dir(st.CachePath) != dir {
		t.Errorf("CachePath = %s, want in %s", st.CachePath, dir)
	}
	if _, err := os.Stat(st.CachePath); err != nil {
		t.Error(err)
	}
}
