package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// mirrorDir finds the git directory of repo's mirror (owner/name) under root,
// at the first of root/owner+name/repo, root/owner+name/repo/.git,
// root/owner+name and root/owner+name/.git that holds one: a bare mirror, or
// a clone with a work tree (whose work tree is left alone: hone bench checks
// commits out into a tree of its own).
func mirrorDir(root, repo string) (string, error) {
	base := filepath.Join(root, strings.ReplaceAll(repo, "/", "+"))
	tried := []string{filepath.Join(base, "repo"), filepath.Join(base, "repo", ".git"), base, filepath.Join(base, ".git")}
	for _, d := range tried {
		if fi, err := os.Stat(filepath.Join(d, "objects")); err == nil && fi.IsDir() {
			return d, nil
		}
	}
	return "", fmt.Errorf("bench: no mirror of %s (a bare mirror or a clone) at %s", repo, strings.Join(tried, ", "))
}

// commitTimes returns the committer time (Unix seconds) of each commit that
// the mirror at gitDir holds; missing commits are left out.
func commitTimes(ctx context.Context, gitDir string, commits []string) map[string]int64 {
	out := map[string]int64{}
	if len(commits) == 0 {
		return out
	}
	var in bytes.Buffer
	for _, c := range commits {
		in.WriteString(c + "\n")
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "log", "--no-walk=unsorted", "--stdin", "--format=%H %ct")
	cmd.Stdin = &in
	b, err := cmd.Output()
	if err != nil { // a missing commit fails the batch: ask one by one
		for _, c := range commits {
			b, err := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "log", "-1", "--format=%H %ct", c+"^{commit}").Output()
			if err == nil {
				parseTimes(b, c, out)
			}
		}
		return out
	}
	parseTimes(b, "", out)
	return out
}

func parseTimes(b []byte, as string, out map[string]int64) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		h, t, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		if as != "" {
			h = as
		}
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			out[h] = n
		}
	}
}

// tree is one mirror's work tree under dir/tree, with its own git index at
// dir/index and the commit it holds in dir/commit. It is switched between
// commits with a two-tree merge (git read-tree -m -u OLD NEW), which rewrites
// only the files that differ, so that hone's incremental index re-reads only
// those. A tree is used by one goroutine at a time.
type tree struct {
	gitDir string
	dir    string // holds tree/, index, commit
	commit string // the commit the work tree holds, "" unknown
}

func newTree(gitDir, dir string) *tree {
	return &tree{gitDir: gitDir, dir: dir}
}

// Root is the work tree's directory.
func (t *tree) Root() string { return filepath.Join(t.dir, "tree") }

func (t *tree) statePath() string { return filepath.Join(t.dir, "commit") }

// git runs git on the mirror with the tree's index and work tree.
func (t *tree) git(ctx context.Context, args ...string) ([]byte, []byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.autocrlf=false", "-c", "core.safecrlf=false"}, args...)...)
	cmd.Dir = t.Root()
	cmd.Env = append(os.Environ(), "GIT_DIR="+t.gitDir, "GIT_WORK_TREE="+t.Root(),
		"GIT_INDEX_FILE="+filepath.Join(t.dir, "index"), "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("git %s: %w: %s", args[0], err, firstLines(stderr.String(), 3))
	}
	return stdout.Bytes(), stderr.Bytes(), err
}

// Checkout makes the work tree hold commit: by a two-tree merge from the
// commit it holds, else by a fresh checkout; either way the result is
// verified against the commit's tree. It reports how ("same", "switch" or
// "fresh") and the files skipped because their blobs are absent from the
// mirror (mirrors may lack blobs of 4 MiB or more).
func (t *tree) Checkout(ctx context.Context, commit string) (how string, skipped []string, err error) {
	if err := os.MkdirAll(t.Root(), 0o755); err != nil {
		return "", nil, fmt.Errorf("bench: %w", err)
	}
	if _, _, err := t.git(ctx, "cat-file", "-e", commit+"^{commit}"); err != nil {
		return "", nil, fmt.Errorf("bench: mirror %s has no commit %s (%v)", t.gitDir, commit, err)
	}
	if t.commit == "" {
		if b, err := os.ReadFile(t.statePath()); err == nil {
			t.commit = strings.TrimSpace(string(b))
		}
	}
	if t.commit != "" {
		how = "switch"
		if t.commit == commit {
			how = "same"
		}
		old := t.commit
		t.commit = ""
		if err := os.Remove(t.statePath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", nil, fmt.Errorf("bench: %w", err)
		}
		ok := true
		if how == "switch" {
			_, _, err := t.git(ctx, "read-tree", "-m", "-u", old, commit)
			ok = err == nil
		}
		if ok {
			if skipped, err = t.verify(ctx, commit); err == nil {
				return how, skipped, t.setCommit(commit)
			}
		}
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
	}
	skipped, err = t.fresh(ctx, commit)
	if err != nil {
		return "", nil, err
	}
	return "fresh", skipped, t.setCommit(commit)
}

func (t *tree) setCommit(commit string) error {
	t.commit = commit
	if err := os.WriteFile(t.statePath(), []byte(commit+"\n"), 0o644); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// fresh empties the work tree and checks commit out into it, like
// materialize.sh: read-tree, then checkout-index of every entry; entries whose
// blob is absent from the mirror are skipped.
func (t *tree) fresh(ctx context.Context, commit string) ([]string, error) {
	if err := os.RemoveAll(t.dir); err != nil {
		return nil, fmt.Errorf("bench: clearing %s: %w", t.dir, err)
	}
	if err := os.MkdirAll(t.Root(), 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if _, _, err := t.git(ctx, "read-tree", commit); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	_, stderr, err := t.git(ctx, "checkout-index", "-a", "-f", "-u")
	if err != nil {
		for _, l := range strings.Split(strings.TrimSpace(string(stderr)), "\n") {
			if l != "" && !strings.Contains(l, "unable to read sha1 file of") &&
				!strings.Contains(l, "cannot read") && !strings.Contains(l, "invalid object") {
				return nil, fmt.Errorf("bench: checkout of %s: %w", commit, err)
			}
		}
	}
	skipped, err := t.verify(ctx, commit)
	if err != nil {
		return nil, fmt.Errorf("bench: fresh checkout of %s: %w", commit, err)
	}
	return skipped, nil
}

// verify checks that the work tree holds exactly commit's tree: every
// tracked file's content (git diff-index after refreshing the index's stat
// data), and no untracked file. A file missing from the work tree is
// accepted only when its blob is absent from the mirror; those are returned.
func (t *tree) verify(ctx context.Context, commit string) ([]string, error) {
	t.git(ctx, "update-index", "-q", "--refresh") // stat-dirty entries are rehashed; diff-index reports the rest
	out, _, err := t.git(ctx, "diff-index", "--no-renames", "-z", commit)
	if err != nil {
		return nil, err
	}
	var skipped []string
	var diffs []string
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		meta, path := strings.Fields(fields[i]), fields[i+1]
		// meta: :srcmode dstmode srcsha dstsha status
		if len(meta) == 5 && meta[4] == "D" {
			if _, _, err := t.git(ctx, "cat-file", "-e", meta[2]); err != nil {
				skipped = append(skipped, path)
				continue
			}
		}
		diffs = append(diffs, path)
	}
	if len(diffs) > 0 {
		return nil, fmt.Errorf("work tree differs from %s in %d file(s), e.g. %s", commit, len(diffs), diffs[0])
	}
	out, _, err = t.git(ctx, "ls-files", "--others", "-z")
	if err != nil {
		return nil, err
	}
	if len(out) > 0 {
		first, _, _ := strings.Cut(string(out), "\x00")
		return nil, fmt.Errorf("work tree of %s has untracked files, e.g. %s", commit, first)
	}
	return skipped, nil
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "; ")
}
