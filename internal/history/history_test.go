package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hone-dev/hone/internal/testrepo"
)

// shopRepo is a repository whose history says where throttling lives.
func shopRepo(t *testing.T) (dir string, commits []string) {
	t.Helper()
	testrepo.NeedGit(t)
	dir = t.TempDir()
	testrepo.Git(t, dir, "init", "-q", "-b", "main")
	add := func(msg string, files map[string]string) {
		commits = append(commits, testrepo.Commit(t, dir, msg, files))
	}
	add("Initial layout", map[string]string{"README.md": "shop\n", "api/limiter.go": "package api\n",
		"api/cart.go": "package api\n", "docs/guide.md": "guide\n"})
	add("Fix throttle window overflow in RequestLimiter\n\nThe sliding window wrapped.\n\nSigned-off-by: Cart Totals <ct@x>",
		map[string]string{"api/limiter.go": "package api\n// v2\n"})
	add("Cart totals round half up", map[string]string{"api/cart.go": "package api\n// v2\n"})
	add("Throttle: document the window", map[string]string{"docs/guide.md": "guide v2\n", "api/limiter.go": "package api\n// v3\n"})
	sweep := map[string]string{}
	for i := 0; i <= MaxFilesPerCommit; i++ {
		sweep[fmt.Sprintf("gen/f%02d.go", i)] = "package gen\n"
	}
	add("Reformat everything for the throttle throttle throttle release", sweep)
	return dir, commits
}

func TestFiles(t *testing.T) {
	dir, commits := shopRepo(t)
	l, st, err := Load(context.Background(), Source{Dir: dir}, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	// The sweep touched too many files: counted, never ranked.
	if st.Commits != 5 || l.Len() != 5 || l.docs != 4 || st.Cached {
		t.Fatalf("stats %+v, len %d, %d ranked; want 5 commits read, 4 ranked, not cached", st, l.Len(), l.docs)
	}
	if l.Rev() != commits[len(commits)-1] {
		t.Errorf("Rev = %s, want %s", l.Rev(), commits[len(commits)-1])
	}
	hits := l.Files([]Term{{"throttle", 2}, {"window", 1}, {"overflow", 1}})
	lim, ok := hits["api/limiter.go"]
	if !ok || lim.Score != 1 || lim.Commits != 2 {
		t.Fatalf("api/limiter.go = %+v (%v); want score 1 from 2 commits", lim, ok)
	}
	if lim.Best != commits[1][:hashLen] {
		t.Errorf("best commit of limiter = %s, want the fix %s", lim.Best, commits[1][:hashLen])
	}
	if g := hits["docs/guide.md"]; g.Score <= 0 || g.Score >= lim.Score {
		t.Errorf("docs/guide.md = %+v; want a share below limiter's", g)
	}
	if _, ok := hits["api/cart.go"]; ok {
		t.Errorf("api/cart.go scored, but no commit about throttling touched it: %+v", hits)
	}
	for p := range hits {
		if strings.HasPrefix(p, "gen/") {
			t.Errorf("%s scored: the sweep touched %d files and must be left out", p, MaxFilesPerCommit+1)
		}
	}
	// A trailer's name is not a word about the change.
	if h := l.Files([]Term{{"totals", 1}}); h["api/limiter.go"].Score != 0 || h["api/cart.go"].Score != 1 {
		t.Errorf("totals: %+v; want only cart.go (the Signed-off-by name is not read)", h)
	}
	// Identifiers match whole and in parts, as in the index.
	if h := l.Files([]Term{{"limiter", 1}}); h["api/limiter.go"].Score != 1 {
		t.Errorf("limiter (part of RequestLimiter): %+v", h)
	}
	if h := l.Files([]Term{{"nothing", 1}}); len(h) != 0 {
		t.Errorf("a term no commit has scored files: %+v", h)
	}
	var nilLog *Log
	if h := nilLog.Files([]Term{{"throttle", 1}}); h != nil {
		t.Errorf("nil log: %+v", h)
	}
}

// TestRevision: only the revision's ancestors are read, never its future.
func TestRevision(t *testing.T) {
	dir, commits := shopRepo(t)
	l, _, err := Load(context.Background(), Source{Dir: dir, Rev: commits[1]}, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != 2 {
		t.Fatalf("len %d at the second commit, want 2", l.Len())
	}
	if h := l.Files([]Term{{"throttle", 1}}); h["docs/guide.md"].Score != 0 {
		t.Errorf("a later commit leaked into the log: %+v", h)
	}
}

// TestSubdir: from a directory inside the work tree, paths are relative to
// it and changes outside it are left out.
func TestSubdir(t *testing.T) {
	dir, _ := shopRepo(t)
	l, _, err := Load(context.Background(), Source{Dir: filepath.Join(dir, "api")}, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	h := l.Files([]Term{{"throttle", 1}})
	if h["limiter.go"].Score != 1 || len(h) != 1 {
		t.Errorf("from api/: %+v; want only limiter.go", h)
	}
}

// TestBareMirror reads a bare clone at a named commit, as hone bench does.
func TestBareMirror(t *testing.T) {
	dir, commits := shopRepo(t)
	bare := filepath.Join(t.TempDir(), "mirror")
	testrepo.Git(t, dir, "clone", "-q", "--bare", dir, bare)
	l, _, err := Load(context.Background(), Source{GitDir: bare, Rev: commits[3]}, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != 4 || l.Files([]Term{{"throttle", 1}})["api/limiter.go"].Score != 1 {
		t.Errorf("bare mirror: len %d, hits %+v", l.Len(), l.Files([]Term{{"throttle", 1}}))
	}
}

func TestNoHistory(t *testing.T) {
	testrepo.NeedGit(t)
	ctx := context.Background()
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A parent repository must not be found above the temporary directory.
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(plain))
	for name, src := range map[string]Source{
		"not a repository": {Dir: plain},
		"missing dir":      {Dir: filepath.Join(plain, "nope")},
		"unknown revision": {Dir: plain, Rev: "v9.9"},
	} {
		if _, _, err := Load(ctx, src, Options{NoCache: true}); !errors.Is(err, ErrNoHistory) {
			t.Errorf("%s: err = %v, want ErrNoHistory", name, err)
		}
	}
	empty := t.TempDir()
	testrepo.Git(t, empty, "init", "-q")
	if _, _, err := Load(ctx, Source{Dir: empty}, Options{NoCache: true}); !errors.Is(err, ErrNoHistory) {
		t.Errorf("repository without commits: err = %v, want ErrNoHistory", err)
	}
	dir, _ := shopRepo(t)
	if _, _, err := Load(ctx, Source{Dir: dir, Rev: "--output=/tmp/x"}, Options{NoCache: true}); !errors.Is(err, ErrNoHistory) {
		t.Errorf("an option as revision: err = %v, want ErrNoHistory", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := Load(cancelled, Source{Dir: dir}, Options{NoCache: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func TestCache(t *testing.T) {
	dir, commits := shopRepo(t)
	ctx := context.Background()
	cache := t.TempDir()
	opts := Options{CacheDir: cache}
	src := Source{Dir: dir, Rev: commits[1]}
	_, st, err := Load(ctx, src, opts)
	if err != nil || st.Cached || st.Read != 2 {
		t.Fatalf("first load: %+v, %v; want 2 read", st, err)
	}
	// The same revision: all from the cache.
	l, st, err := Load(ctx, src, opts)
	if err != nil || !st.Cached || st.Read != 0 || l.Len() != 2 {
		t.Fatalf("second load: %+v, %v; want cached, none read", st, err)
	}
	// A descendant: only the new commits are read.
	l, st, err = Load(ctx, Source{Dir: dir}, opts)
	if err != nil || !st.Cached || st.Read != 3 || l.Len() != 5 {
		t.Fatalf("descendant: %+v, len %d, %v; want cached, 3 read, 5 in all", st, l.Len(), err)
	}
	fresh, _, err := Load(ctx, Source{Dir: dir}, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	q := []Term{{"throttle", 1}, {"cart", 1}}
	if got, want := fmt.Sprint(l.Files(q)), fmt.Sprint(fresh.Files(q)); got != want {
		t.Errorf("extended log answers %s, a fresh one %s", got, want)
	}
	// Another branch, from the second commit: the commits only the cached
	// revision had are dropped, the branch's own are read.
	testrepo.Git(t, dir, "checkout", "-q", "-b", "side", commits[1])
	side := testrepo.Commit(t, dir, "Cart: a coupon lowers the totals", map[string]string{"api/cart.go": "package api\n// coupon\n"})
	l, st, err = Load(ctx, Source{Dir: dir, Rev: side}, opts)
	if err != nil || !st.Cached || st.Read != 1 || l.Len() != 3 {
		t.Fatalf("branch: %+v, len %d, %v; want cached, 1 read, 3 in all", st, l.Len(), err)
	}
	sameAsFresh := func(what string, l *Log, rev string) {
		t.Helper()
		fresh, _, err := Load(ctx, Source{Dir: dir, Rev: rev}, Options{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range [][]Term{{{"throttle", 1}, {"cart", 1}}, {{"totals", 1}}, {{"window", 2}, {"coupon", 1}}} {
			if got, want := fmt.Sprint(l.Files(q)), fmt.Sprint(fresh.Files(q)); got != want {
				t.Errorf("%s: %v answers %s, a fresh log %s", what, q, got, want)
			}
		}
	}
	sameAsFresh("branch", l, side)
	// Back to an ancestor of the cached revision: the later commits go.
	l, st, err = Load(ctx, Source{Dir: dir, Rev: commits[0]}, opts)
	if err != nil || !st.Cached || st.Read != 0 || l.Len() != 1 {
		t.Fatalf("ancestor: %+v, len %d, %v; want cached, none read, 1 commit", st, l.Len(), err)
	}
	sameAsFresh("ancestor", l, commits[0])
	// A log given back for the same revision is used as it is.
	again, st, err := Load(ctx, Source{Dir: dir, Rev: commits[0]}, Options{CacheDir: cache, Prev: l})
	if err != nil || again != l || !st.Cached || st.Read != 0 {
		t.Fatalf("Prev at its revision: %+v, %v, same log %v", st, err, again == l)
	}
	if again, _, err = Load(ctx, Source{Dir: dir, Rev: commits[1]}, Options{CacheDir: cache, Prev: l}); err != nil || again == l || again.Len() != 2 {
		t.Fatalf("Prev at another revision was used: %v", err)
	}
	// A corrupt cache is read again, with a warning.
	files, _ := filepath.Glob(filepath.Join(cache, "history-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	if err := os.WriteFile(files[0], []byte("not a gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	l, st, err = Load(ctx, src, opts)
	if err != nil || st.Cached || l.Len() != 2 || !strings.Contains(logs.String(), "cache unreadable") {
		t.Fatalf("corrupt cache: %+v, %v, logs %q", st, err, logs.String())
	}
	// An inconsistent one too.
	// (Its ids are checked as they are read: the commit naming a missing
	// path counts as touching none, and the log cannot be brought forward.)
	bad := &Log{rev: commits[1], limit: MaxCommits, lens: []int32{1}, hashes: []string{"x"}, times: []int64{1},
		files: [][]int32{{7}}, terms: []string{"cart"}, post: [][]int32{{0, 1}}}
	if err := saveCache(files[0], src.key(), bad); err != nil {
		t.Fatal(err)
	}
	if l, err := loadCache(files[0], src.key(), MaxCommits); err != nil {
		t.Fatal(err)
	} else if h := l.Files([]Term{{"cart", 1}}); len(h) != 0 || l.materialize() == nil {
		t.Errorf("a cache naming a missing path: Files = %v, materialized", h)
	}
	l, st, err = Load(ctx, Source{Dir: dir, Rev: commits[4]}, opts)
	if err != nil || st.Cached || l.Len() != 5 {
		t.Fatalf("a cache naming a missing path, brought forward: %+v, %v; want read afresh", st, err)
	}
	if err := saveCache(files[0], src.key(), bad); err != nil {
		t.Fatal(err)
	}
	if _, err := loadCache(files[0], "dir /elsewhere", MaxCommits); !errors.Is(err, errStale) {
		t.Errorf("another source's cache: err = %v, want errStale", err)
	}
}

// TestTimeout keeps what was read when git is too slow; here nothing.
func TestTimeout(t *testing.T) {
	dir, _ := shopRepo(t)
	l, st, err := Load(context.Background(), Source{Dir: dir}, Options{NoCache: true, Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Partial || l.Len() > 4 {
		t.Errorf("timeout: %+v, len %d; want partial", st, l.Len())
	}
}

func TestParseRecord(t *testing.T) {
	hash := strings.Repeat("a", 40)
	for _, tc := range []struct {
		name, rec string
		ok        bool
		files     int
	}{
		{"ordinary", hash + "\x1fFix it\n\x1f\n\na.go\nb/c.py\n", true, 2},
		{"no files: kept, never ranked", hash + "\x1fEmpty\n\x1f\n", true, 0},
		{"short hash", "abc\x1fX\x1f\na.go\n", false, 0},
		{"missing fields", hash + "\x1fno names", false, 0},
		{"quoted odd name skipped", hash + "\x1fX\x1f\n\"we\\tird\"\na.go\n", true, 1},
		{"crlf", hash + "\x1fX\r\n\x1f\r\na.go\r\n", true, 1},
		{"bad utf-8", hash + "\x1f\xff\xfe caf\xe9 fix\x1f\na.go\n", true, 1},
	} {
		c, ok := parseRecord([]byte(tc.rec))
		if ok != tc.ok || len(c.files) != tc.files {
			t.Errorf("%s: ok %v files %v; want %v, %d", tc.name, ok, c.files, tc.ok, tc.files)
		}
		if ok && tc.files == 0 && len(c.terms) != 0 {
			t.Errorf("%s: terms %v of a commit never ranked", tc.name, c.terms)
		}
		if ok && tc.files > 0 && c.files[len(c.files)-1] != "a.go" && tc.name != "ordinary" {
			t.Errorf("%s: files %q", tc.name, c.files)
		}
	}
}

func TestIsTrailer(t *testing.T) {
	for line, want := range map[string]bool{
		"Signed-off-by: A <a@b>":     true,
		"Co-authored-by: B <b@c>":    true,
		"Reviewed-by: C":             true,
		"Fixed by: the new parser":   false,
		"Refs #123: crash on import": false,
		"stand-by: no":               true,
		"plain words":                false,
	} {
		if got := isTrailer(line); got != want {
			t.Errorf("isTrailer(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestFilesTop: the bounded selection of the best commits picks what a
// full sort would (score, then the newer first, then the greater hash), on a
// log with many ties, pairs of commits sharing a time among them.
func TestFilesTop(t *testing.T) {
	words := []string{"alpha", "beta", "gamma", "delta"}
	var cs []commit // newest first, as git lists them
	for i := 0; i < 300; i++ {
		c := commit{hash: fmt.Sprintf("%010d", i), time: 1_700_000_000 - int64(i/2)*60, terms: map[string]int32{}}
		c.terms[words[i%4]] = int32(1 + i%3)
		if i%7 == 0 {
			c.terms[words[(i+1)%4]] = 1
		}
		c.files = []string{fmt.Sprintf("f%d.go", i%50), fmt.Sprintf("g%d.go", i%11)}
		cs = append(cs, c)
	}
	l := &Log{}
	l.add(cs)
	q := []Term{{"alpha", 2}, {"beta", 1}, {"delta", 0.5}}
	got := l.Files(q)
	// The reference: score every commit, sort them all.
	n := float64(l.Len())
	avg := float64(l.total) / n
	type sc struct {
		c int
		s float64
	}
	var all []sc
	for c := range l.lens {
		s := 0.0
		for _, t := range q {
			id := l.termID[t.Text]
			p := l.post[id]
			df := float64(len(p) / 2)
			for i := 0; i < len(p); i += 2 {
				if int(p[i]) == c {
					tf := float64(p[i+1])
					s += t.Weight * math.Log(1+(n-df+0.5)/(df+0.5)) * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(l.lens[c])/avg))
				}
			}
		}
		if s > 0 {
			all = append(all, sc{c, s})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		a, c := all[i].c, all[j].c
		switch {
		case all[i].s != all[j].s:
			return all[i].s > all[j].s
		case l.times[a] != l.times[c]:
			return l.times[a] > l.times[c]
		}
		return l.hashes[a] > l.hashes[c]
	})
	want := map[string]Hit{}
	best := 0.0
	for _, x := range all[:TopCommits] {
		for _, f := range l.files[x.c] {
			h := want[l.paths[f]]
			if h.Commits == 0 {
				h.Best = l.hashes[x.c]
			}
			h.Score += x.s / math.Sqrt(float64(len(l.files[x.c])))
			h.Commits++
			want[l.paths[f]] = h
			best = math.Max(best, h.Score)
		}
	}
	for p, h := range want {
		h.Score /= best
		want[p] = h
	}
	if len(got) != len(want) {
		t.Fatalf("%d files, want %d", len(got), len(want))
	}
	for p, w := range want {
		g := got[p]
		if g.Commits != w.Commits || g.Best != w.Best || math.Abs(g.Score-w.Score) > 1e-12 {
			t.Errorf("%s: %+v, want %+v", p, g, w)
		}
	}
}

// TestKeepNewest: a log cut to its newest commits answers as a log of only
// those commits would.
func TestKeepNewest(t *testing.T) {
	var cs []commit // newest first
	for i := 7; i >= 0; i-- {
		cs = append(cs, commit{hash: fmt.Sprintf("%010d", i), terms: map[string]int32{[]string{"alpha", "beta"}[i%2]: int32(1 + i%3), "gamma": 1},
			files: []string{fmt.Sprintf("f%d.go", i%3)}})
	}
	whole := &Log{}
	whole.add(cs)
	cut := whole.keepNewest(5)
	only := &Log{}
	only.add(cs[:5])
	if cut.Len() != 5 || fmt.Sprint(cut.hashes) != fmt.Sprint(only.hashes) || cut.total != only.total {
		t.Fatalf("cut: %d commits %v (total %d), want %v (total %d)", cut.Len(), cut.hashes, cut.total, only.hashes, only.total)
	}
	for _, q := range [][]Term{{{"alpha", 1}}, {{"beta", 2}, {"gamma", 1}}} {
		if got, want := fmt.Sprint(cut.Files(q)), fmt.Sprint(only.Files(q)); got != want {
			t.Errorf("%v: %s, want %s", q, got, want)
		}
	}
	if same := only.keepNewest(9); same != only {
		t.Error("keepNewest above the length made a new log")
	}
}

// TestWindow: a log cut at its limit holds, after any move of the
// revision, what a fresh read at that revision would: the newest commits,
// read afresh when dropping a branch's commits would leave it short.
func TestWindow(t *testing.T) {
	dir, commits := shopRepo(t)
	ctx := context.Background()
	opts := Options{CacheDir: t.TempDir(), MaxCommits: 2}
	check := func(what, rev string, wantCached bool) {
		t.Helper()
		l, st, err := Load(ctx, Source{Dir: dir, Rev: rev}, opts)
		if err != nil {
			t.Fatal(err)
		}
		fresh, _, err := Load(ctx, Source{Dir: dir, Rev: rev}, Options{NoCache: true, MaxCommits: 2})
		if err != nil {
			t.Fatal(err)
		}
		if st.Cached != wantCached || fmt.Sprint(l.hashes) != fmt.Sprint(fresh.hashes) {
			t.Errorf("%s: cached %v (want %v), commits %v, a fresh read %v", what, st.Cached, wantCached, l.hashes, fresh.hashes)
		}
		if !l.truncated && l.Len() == 2 && rev != commits[1] {
			t.Errorf("%s: a log cut at its limit is not marked truncated", what)
		}
	}
	check("first", commits[2], false)
	check("descendant", commits[4], true) // three more, the oldest go
	check("ancestor", commits[1], false)  // dropping leaves one: read afresh
	check("descendant again", commits[3], true)
	// Another limit: the cache is of another log, read again without a
	// warning (a first answer reads fewer commits than the runs after it).
	var logged bytes.Buffer
	quiet := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn}))
	deep := Options{CacheDir: opts.CacheDir, MaxCommits: 3, Logger: quiet}
	if _, st, err := Load(ctx, Source{Dir: dir, Rev: commits[3]}, deep); err != nil || st.Cached {
		t.Errorf("another limit: %+v, %v; want a fresh read", st, err)
	}
	// A shallower read leaves the deeper log cached.
	shallow := Options{CacheDir: opts.CacheDir, MaxCommits: 2, Logger: quiet}
	if l, st, err := Load(ctx, Source{Dir: dir, Rev: commits[3]}, shallow); err != nil || st.Cached || l.Len() != 2 {
		t.Errorf("shallower: %+v, %v; want a fresh read of 2 commits", st, err)
	}
	if l, st, err := Load(ctx, Source{Dir: dir, Rev: commits[3]}, deep); err != nil || !st.Cached || l.Len() != 3 {
		t.Errorf("deep again: %+v, %v; want the deeper log from the cache", st, err)
	}
	if logged.Len() > 0 {
		t.Errorf("a cache of another depth warned:\n%s", logged.String())
	}
}

// TestCacheBitFlips damages a cached log one bit at a time: every damaged
// copy must be refused (the log is then read again), never taken for a log.
func TestCacheBitFlips(t *testing.T) {
	dir, _ := shopRepo(t)
	cache := t.TempDir()
	src := Source{Dir: dir}
	want, _, err := Load(context.Background(), src, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "history-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	good, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	q := []Term{{"throttle", 1}, {"cart", 1}, {"window", 1}}
	if l, err := decodeCache(good, src.key(), MaxCommits); err != nil || fmt.Sprint(l.Files(q)) != fmt.Sprint(want.Files(q)) {
		t.Fatalf("the undamaged cache: %v", err)
	}
	accepted := 0
	for bit := range 8 * len(good) {
		bad := bytes.Clone(good)
		bad[bit/8] ^= 1 << (bit % 8)
		if l, err := decodeCache(bad, src.key(), MaxCommits); err == nil {
			if accepted++; accepted <= 3 {
				t.Errorf("bit %d of %d flipped: accepted; Files = %v, want %v", bit, 8*len(good), l.Files(q), want.Files(q))
			}
		}
	}
	if accepted > 0 {
		t.Errorf("%d of %d single-bit flips accepted", accepted, 8*len(good))
	}
	// Cut short, the file is refused too.
	for _, n := range []int{0, headerSize - 1, headerSize, len(good) / 2, len(good) - 1} {
		if _, err := decodeCache(good[:n], src.key(), MaxCommits); err == nil {
			t.Errorf("the first %d of %d bytes: accepted", n, len(good))
		}
	}
}

// TestFilesOrderFree: the files a log names do not depend on the order its
// commits were added in (a log brought forward holds the new commits after
// the old ones, a fresh read interleaves them by git's walk), even when
// more commits tie than TopCommits keeps.
func TestFilesOrderFree(t *testing.T) {
	var cs []commit
	for i := 0; i < TopCommits+15; i++ {
		cs = append(cs, commit{hash: fmt.Sprintf("%010d", i*7919%1000), time: 1_700_000_000 - int64(i%9)*60,
			terms: map[string]int32{"parser": 1}, files: []string{fmt.Sprintf("f%d.go", i)}})
	}
	fresh := &Log{}
	fresh.add(cs)
	shuffled := slices.Clone(cs)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	forward := &Log{}
	forward.add(shuffled)
	q := []Term{{"parser", 1}}
	a, b := fresh.Files(q), forward.Files(q)
	if len(a) != TopCommits || !maps.Equal(a, b) {
		t.Errorf("the same commits in another order name other files:\n%v\n%v", a, b)
	}
}

// TestKeepNewestByTime: the commits cut are the oldest by committer time,
// not the first added: a log brought forward adds a merged branch's old
// commits after the newer ones it held, and a fresh read (git's walk goes
// by committer time) would not reach them.
func TestKeepNewestByTime(t *testing.T) {
	mk := func(hash string, when int64) commit {
		return commit{hash: hash, time: when, terms: map[string]int32{"fix": 1}, files: []string{hash + ".go"}}
	}
	l := &Log{}
	l.add([]commit{mk("old-3.....", 300), mk("old-2.....", 200), mk("old-1.....", 100)}) // newest first
	l.add([]commit{mk("merged-2..", 250), mk("merged-1..", 50)})                         // a branch merged later
	cut := l.keepNewest(3)
	if got := fmt.Sprint(cut.hashes); got != "[old-2..... old-3..... merged-2..]" {
		t.Errorf("kept %s, want the three newest by time: old-2, old-3, merged-2", got)
	}
}
