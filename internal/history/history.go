// Package history reads a repository's commit log and answers one question
// for the local evaluator: which files did past commits like this task touch?
//
// Studies of bug localization (BugLocator, Locus) found the fixes of similar
// past reports among the strongest pointers to where a new report will be
// fixed. A commit message says in words what its diff changed, in the words
// an issue uses ("Fixed crash in QuerySet.bulk_create() with a proxy
// model"), and the files it touched are where those words live in code.
//
// Each commit is a document: its message (less trailers such as
// Signed-off-by) split into terms as the index splits code, so identifiers
// match whole and in parts. Files ranks the commits against the task's
// weighted keywords by BM25 and lets the TopCommits best lend their score
// to the files they touched, divided by the square root of how many there
// were: a commit that touched one file says more about it than one that
// touched twenty. Merges and commits that touched more than
// MaxFilesPerCommit files (renames, reformatting, release bumps) are left
// out. A file's score is then divided by the best file's, so the strongest
// file gets 1.
//
// The log comes from the git command, the newest MaxCommits commits back
// from the revision, and is kept in the cache directory keyed by its source.
// When the revision moves, only the difference is read: the commits since
// the merge base of the cached revision and the new one are added, the
// commits only the cached revision had are dropped, and the oldest go past
// MaxCommits, so a switch of branch costs what the branch holds, not the
// whole log. Only the revision's ancestors are ever read, so a log never
// holds a commit from the revision's future. Without git, or outside a git repository, there is
// no log and the signal is simply absent. When git refuses the repository
// because another user owns it (its safe.directory check), the signal is
// off too, and Load warns once per directory, naming the fix.
package history

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hone-dev/hone/internal/tokenize"
)

const (
	// MaxCommits bounds how far back the log is read.
	MaxCommits = 20000
	// MaxFilesPerCommit: commits that touched more files are sweeping
	// changes, not fixes, and are left out.
	MaxFilesPerCommit = 30
	// TopCommits is how many of the best-matching commits lend their score
	// to the files they touched.
	TopCommits = 30
	// DefaultTimeout bounds reading the log; what was read by then is kept.
	DefaultTimeout = 60 * time.Second
	// bm25's parameters, as the index's.
	k1, b = 1.2, 0.75
	// hashLen is how much of a commit's hash is kept for reasons.
	hashLen = 10
)

// ErrNoHistory says there is no log to read: git is missing, or the
// directory is not in a git repository, or the revision is unknown.
var ErrNoHistory = errors.New("history: no git history")

// Source says where a log is read from.
type Source struct {
	// Dir is the repository's work tree (or a directory in it): the log is
	// read there, limited to Dir and with paths relative to it.
	Dir string
	// GitDir, when set, is a git directory read instead (a bare mirror); its
	// paths are relative to the top of its tree.
	GitDir string
	// Rev is the revision whose ancestors are read; "" means HEAD.
	Rev string
}

func (s Source) rev() string {
	if s.Rev == "" {
		return "HEAD"
	}
	return s.Rev
}

// git returns a git command for the source.
func (s Source) git(ctx context.Context, args ...string) *exec.Cmd {
	pre := []string{"-c", "core.quotepath=off"}
	if s.GitDir != "" {
		pre = append(pre, "--git-dir="+s.GitDir)
	} else {
		pre = append(pre, "-C", s.Dir)
	}
	cmd := exec.CommandContext(ctx, "git", append(pre, args...)...)
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	return cmd
}

// Log is a repository's commit history, indexed for Files. It is read-only
// once built and safe for concurrent use.
type Log struct {
	rev    string
	paths  []string
	pathID map[string]int32
	terms  []string
	termID map[string]int32
	// post holds, per term, pairs of (commit, term frequency).
	post    [][]int32
	lens    []int32   // per commit: its number of terms
	hashes  []string  // per commit: its abbreviated hash
	times   []int64   // per commit: its committer time (Unix seconds)
	files   [][]int32 // per commit: the paths it touched (none for a commit left out)
	total   int64     // sum of lens
	docs    int       // commits with files: the documents
	partial bool      // reading stopped early: the time limit, or a message over 16 MiB
	// limit is the most commits the log keeps; truncated, that it stops
	// there, short of the first commit.
	limit     int
	truncated bool

	// byPath indexes the commits by the paths they touched, and most is
	// the longest of its lists (Partners, Touches); built on first use.
	byPathOnce sync.Once
	byPath     [][]int32
	most       int

	// disk, when set, is the log as its cache file holds it, decoded as
	// queries ask (see encodeBody); the slices and maps above are then
	// empty (but for docs, total and most) until materialize.
	disk *disk
}

// Rev returns the full hash of the revision the log was read at.
func (l *Log) Rev() string { return l.rev }

// Len returns the number of commits in the log, those left out of ranking
// (merges aside) included: they count toward MaxCommits as in git's log.
func (l *Log) Len() int {
	if l.disk != nil {
		return l.disk.n
	}
	return len(l.lens)
}

// termPostings returns the (commit, frequency) pairs of term t, or false
// when the log does not hold it.
func (l *Log) termPostings(t string) ([]int32, bool) {
	if d := l.disk; d != nil {
		id, ok := d.terms.search(t)
		if !ok {
			return nil, false
		}
		return d.postings(id), true
	}
	id, ok := l.termID[t]
	if !ok {
		return nil, false
	}
	return l.post[id], true
}

// commitLen, commitTime, commitHash and commitFiles return commit c's
// length, committer time, abbreviated hash and path ids (the last into
// buf when the log is on disk).
func (l *Log) commitLen(c int32) int32 {
	if l.disk != nil {
		return l.disk.len(c)
	}
	return l.lens[c]
}

func (l *Log) commitTime(c int32) int64 {
	if l.disk != nil {
		return l.disk.time(c)
	}
	return l.times[c]
}

func (l *Log) commitHash(c int32) string {
	if l.disk != nil {
		return l.disk.hashes.str(int(c))
	}
	return l.hashes[c]
}

func (l *Log) commitFiles(c int32, buf []int32) []int32 {
	if l.disk != nil {
		return l.disk.commitFiles(c, buf)
	}
	return l.files[c]
}

// pathName returns the path of id; pathIndex the id of a path.
func (l *Log) pathName(id int32) string {
	if l.disk != nil {
		return l.disk.paths.str(int(id))
	}
	return l.paths[id]
}

func (l *Log) pathIndex(p string) (int32, bool) {
	if l.disk != nil {
		return l.disk.paths.search(p)
	}
	id, ok := l.pathID[p]
	return id, ok
}

// Term is a weighted query term.
type Term struct {
	Text   string
	Weight float64
}

// Hit is one file's share of the past commits like the task.
type Hit struct {
	// Score is the file's history score relative to the best file's, in (0,1].
	Score float64
	// Commits counts the top commits that touched the file; Best is the
	// abbreviated hash of the best of them.
	Commits int
	Best    string
}

// Files returns, for each file the TopCommits commits most like the query
// touched, its Hit. Paths are as the log names them (slash-separated,
// relative to the source).
func (l *Log) Files(query []Term) map[string]Hit {
	if l == nil || l.docs == 0 {
		return nil
	}
	n := float64(l.docs)
	avg := float64(l.total) / n
	if avg <= 0 {
		avg = 1
	}
	score := make([]float64, l.Len())
	var touched []int32
	for _, q := range query {
		if q.Weight <= 0 {
			continue
		}
		p, ok := l.termPostings(q.Text)
		if !ok {
			continue
		}
		df := float64(len(p) / 2)
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i := 0; i+1 < len(p); i += 2 {
			c, tf := p[i], float64(p[i+1])
			if score[c] == 0 {
				touched = append(touched, c)
			}
			norm := k1 * (1 - b + b*float64(l.commitLen(c))/avg)
			score[c] += q.Weight * idf * tf * (k1 + 1) / (tf + norm)
		}
	}
	// The TopCommits best, the newer first among equals (by committer
	// time, then hash: not by place in the log, which differs between a
	// log read afresh and one brought forward, so that both answer alike):
	// a bounded insertion keeps the work linear in the commits scored.
	better := func(a, c int32) bool {
		if score[a] != score[c] {
			return score[a] > score[c]
		}
		if ta, tc := l.commitTime(a), l.commitTime(c); ta != tc {
			return ta > tc
		}
		return l.commitHash(a) > l.commitHash(c)
	}
	top := make([]int32, 0, TopCommits+1)
	for _, c := range touched {
		if len(top) == TopCommits && !better(c, top[len(top)-1]) {
			continue
		}
		i := sort.Search(len(top), func(i int) bool { return better(c, top[i]) })
		top = append(top, 0)
		copy(top[i+1:], top[i:])
		top[i] = c
		if len(top) > TopCommits {
			top = top[:TopCommits]
		}
	}
	out := map[string]Hit{}
	best := 0.0
	var buf []int32
	for _, c := range top {
		files := l.commitFiles(c, buf)
		buf = files
		share := score[c] / math.Sqrt(float64(len(files)))
		for _, f := range files {
			p := l.pathName(f)
			h := out[p]
			if h.Commits == 0 {
				h.Best = l.commitHash(c)
			}
			h.Score += share
			h.Commits++
			out[p] = h
			best = math.Max(best, h.Score)
		}
	}
	for p, h := range out {
		h.Score /= best
		out[p] = h
	}
	return out
}

// commit is one parsed log entry.
type commit struct {
	hash  string
	time  int64 // committer time, Unix seconds
	terms map[string]int32
	files []string
}

// read runs git log over revs and returns the commits it lists, newest
// first. A timeout keeps what was read (partial is then true).
func read(ctx context.Context, src Source, limit int, timeout time.Duration, revs ...string) (cs []commit, partial bool, err error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := []string{"log", "--no-merges", "--no-renames", "--no-show-signature", "--name-only",
		"--format=%x1e%H %ct%x1f%B%x1f", fmt.Sprintf("--max-count=%d", limit)}
	var paths []string
	if src.GitDir == "" {
		// Only commits that touched the directory, named relative to it:
		// in a monorepo, the opened project's own history.
		args, paths = append(args, "--relative"), []string{"."}
	}
	args = append(append(append(args, revs...), "--"), paths...)
	cmd := src.git(rctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, fmt.Errorf("history: %w", err)
	}
	if err := cmd.Start(); err != nil {
		if rctx.Err() != nil && ctx.Err() == nil {
			return nil, true, nil // timed out before git started
		}
		return nil, false, fmt.Errorf("%w: %v", ErrNoHistory, err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	sc.Split(splitRecords)
	for sc.Scan() {
		if c, ok := parseRecord(sc.Bytes()); ok {
			cs = append(cs, c)
		}
	}
	scanErr := sc.Err()
	if scanErr != nil {
		// An oversized record: stop reading, keep what came before it.
		io.Copy(io.Discard, out)
	}
	werr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, false, ctx.Err()
	case rctx.Err() != nil:
		return cs, true, nil
	case werr != nil:
		return nil, false, fmt.Errorf("history: git log: %v: %s", werr, strings.TrimSpace(stderr.String()))
	}
	return cs, scanErr != nil, nil
}

// splitRecords splits git log's output at the record separator.
func splitRecords(data []byte, atEOF bool) (int, []byte, error) {
	start := 0
	for start < len(data) && data[start] == 0x1e {
		start++
	}
	if i := bytes.IndexByte(data[start:], 0x1e); i >= 0 {
		return start + i, data[start : start+i], nil
	}
	if atEOF && start < len(data) {
		return len(data), data[start:], nil
	}
	return start, nil, nil
}

// parseRecord reads one "hash time \x1f message \x1f names" record.
func parseRecord(rec []byte) (commit, bool) {
	parts := bytes.SplitN(rec, []byte{0x1f}, 3)
	if len(parts) != 3 {
		return commit{}, false
	}
	hash, when, _ := bytes.Cut(parts[0], []byte{' '})
	if len(hash) < hashLen {
		return commit{}, false
	}
	t, _ := strconv.ParseInt(string(when), 10, 64) // 0 if git gave none
	c := commit{hash: string(hash[:hashLen]), time: t, terms: map[string]int32{}}
	for _, line := range strings.Split(string(parts[2]), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.HasPrefix(line, `"`) { // a quoted (odd) name: skip it
			continue
		}
		c.files = append(c.files, line)
	}
	if len(c.files) == 0 || len(c.files) > MaxFilesPerCommit {
		// Kept as an empty entry, so that the log counts commits as git
		// does, but never ranked.
		return commit{hash: c.hash, time: c.time}, true
	}
	for _, line := range strings.Split(string(parts[1]), "\n") {
		if isTrailer(line) {
			continue
		}
		tokenize.Terms(line, func(t string) {
			if !tokenize.IsStopWord(t) {
				c.terms[t]++
			}
		})
	}
	return c, true
}

// isTrailer reports a "Signed-off-by: Name <mail>" line: a name, not words
// about the change.
func isTrailer(line string) bool {
	key, _, ok := strings.Cut(line, ": ")
	if !ok || !strings.HasSuffix(key, "-by") {
		return false
	}
	return !strings.ContainsAny(key, " \t")
}

// add appends commits (given newest first) to the log, oldest first.
func (l *Log) add(cs []commit) {
	if l.pathID == nil {
		l.pathID = map[string]int32{}
	}
	if l.termID == nil {
		l.termID = map[string]int32{}
	}
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		idx := int32(len(l.lens))
		var files []int32
		for _, f := range c.files {
			id, ok := l.pathID[f]
			if !ok {
				id = int32(len(l.paths))
				l.paths = append(l.paths, f)
				l.pathID[f] = id
			}
			files = append(files, id)
		}
		// Terms in a fixed order, so that the cache is the same file for
		// the same log.
		ts := make([]string, 0, len(c.terms))
		length := int32(0)
		for t, n := range c.terms {
			ts = append(ts, t)
			length += n
		}
		sort.Strings(ts)
		for _, t := range ts {
			id, ok := l.termID[t]
			if !ok {
				id = int32(len(l.terms))
				l.terms = append(l.terms, t)
				l.termID[t] = id
				l.post = append(l.post, nil)
			}
			l.post[id] = append(l.post[id], idx, c.terms[t])
		}
		l.lens = append(l.lens, length)
		l.hashes = append(l.hashes, c.hash)
		l.times = append(l.times, c.time)
		l.files = append(l.files, files)
		l.total += int64(length)
		if len(files) > 0 {
			l.docs++
		}
	}
}

// without returns the log less the commits whose abbreviated hashes drop
// holds; it shares l's path and term tables, so l must not be used after.
func (l *Log) without(drop map[string]bool) *Log {
	n := &Log{rev: l.rev, limit: l.limit, partial: l.partial, truncated: l.truncated, paths: l.paths, pathID: l.pathID, terms: l.terms,
		termID: l.termID}
	renum := make([]int32, len(l.lens))
	for i := range l.lens {
		if drop[l.hashes[i]] {
			renum[i] = -1
			continue
		}
		renum[i] = int32(len(n.lens))
		n.lens = append(n.lens, l.lens[i])
		n.hashes = append(n.hashes, l.hashes[i])
		n.times = append(n.times, l.times[i])
		n.files = append(n.files, l.files[i])
		n.total += int64(l.lens[i])
		if len(l.files[i]) > 0 {
			n.docs++
		}
	}
	n.post = make([][]int32, len(l.post))
	for t, p := range l.post {
		var kept []int32
		for i := 0; i+1 < len(p); i += 2 {
			if c := renum[p[i]]; c >= 0 {
				kept = append(kept, c, p[i+1])
			}
		}
		n.post[t] = kept
	}
	return n
}

// keepNewest returns the log less all but its n newest commits by
// committer time (among equal times, the last added): a fresh read keeps
// the first n of git's walk, which goes by committer time, so a log brought
// forward, whose new commits come after the old ones whatever their dates
// (a branch of old commits merged), must cut by time too to hold what a
// fresh read holds. Like without, it consumes l.
func (l *Log) keepNewest(n int) *Log {
	extra := l.Len() - n
	if extra <= 0 {
		return l
	}
	order := make([]int, l.Len())
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(l.times[a], l.times[b]) })
	drop := make(map[string]bool, extra)
	for _, i := range order[:extra] {
		drop[l.hashes[i]] = true
	}
	return l.without(drop)
}
