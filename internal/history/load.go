package history

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hone-dev/hone/internal/index"
)

// cacheVersion changes when the cache's layout or the way commits are read
// changes.
const cacheVersion = 7

// Options control Load.
type Options struct {
	// CacheDir holds the cached log; "" means hone's cache directory (see
	// index.CacheDir).
	CacheDir string
	// NoCache reads the log every time.
	NoCache bool
	// Timeout bounds reading the log (0: DefaultTimeout).
	Timeout time.Duration
	// Logger receives warnings; nil discards them.
	Logger *slog.Logger
	// MaxCommits bounds how far back the log goes (0: MaxCommits).
	MaxCommits int
	// Prev is a log this source gave before: returned as it is when it is
	// still of the revision (a refresh after edits that did not commit).
	Prev *Log
}

// Stats say how a Load went.
type Stats struct {
	Commits int   // commits in the log
	Read    int   // commits read from git by this Load
	Cached  bool  // the log came from the cache, whole or in part
	Partial bool  // reading stopped early (the time limit, or a message over 16 MiB)
	Millis  int64 // time taken
}

// Load returns the log of src's revision: from the cache, brought to the
// revision by reading only the difference, when the cache holds a log of a
// related revision; else read afresh. It returns ErrNoHistory (wrapped) when
// there is no git history to read, and ErrDubiousOwnership too when git
// refuses the repository because another user owns it; that refusal is also
// logged as a warning, once per directory and process.
func Load(ctx context.Context, src Source, opts Options) (*Log, Stats, error) {
	start := time.Now()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxCommits <= 0 {
		opts.MaxCommits = MaxCommits
	}
	var st Stats
	rev, err := resolve(ctx, src)
	if err != nil {
		warnRefused(opts.Logger, err)
		return nil, st, err
	}
	if opts.Prev != nil && opts.Prev.rev == rev && opts.Prev.limit == opts.MaxCommits {
		st.Commits, st.Cached, st.Partial = opts.Prev.Len(), true, opts.Prev.partial
		st.Millis = time.Since(start).Milliseconds()
		return opts.Prev, st, nil
	}
	var cachePath string
	if !opts.NoCache {
		if cachePath, err = pathFor(opts.CacheDir, src); err != nil {
			opts.Logger.Warn("history: no cache", "err", err)
		}
	}
	var l *Log
	keep := false // the cache holds a deeper log than this Load reads: leave it
	if cachePath != "" {
		old, err := loadCache(cachePath, src.key(), opts.MaxCommits)
		var depth otherDepth
		switch {
		case err == nil:
			l, st.Cached = extend(ctx, src, old, rev, opts, &st), true
		case errors.As(err, &depth):
			// Expected after a first answer (FirstAnswerCommits) and on the
			// run after it: no warning.
			opts.Logger.Debug("history: the cache holds a log of another depth; the log is read again",
				"cached", depth.limit, "want", opts.MaxCommits)
			keep = depth.limit > opts.MaxCommits
		case !errors.Is(err, os.ErrNotExist):
			opts.Logger.Warn("history: cache unreadable, the log is read again", "path", cachePath, "err", err)
		}
	}
	if l == nil {
		st.Cached = false
		cs, partial, err := read(ctx, src, opts.MaxCommits, opts.Timeout, rev)
		if err != nil {
			return nil, st, err
		}
		l = &Log{rev: rev, limit: opts.MaxCommits, partial: partial, truncated: len(cs) >= opts.MaxCommits}
		l.add(cs)
		st.Read = len(cs)
		if partial {
			opts.Logger.Warn("history: reading the log stopped early (the time limit, or a commit message over 16 MiB); the newest commits are used",
				"commits", len(cs), "timeout", opts.Timeout)
		}
	}
	if cachePath != "" && !keep && (st.Read > 0 || !st.Cached) {
		if err := saveCache(cachePath, src.key(), l); err != nil {
			opts.Logger.Warn("history: cache not saved", "err", err)
		}
	}
	st.Commits, st.Partial, st.Millis = l.Len(), l.partial, time.Since(start).Milliseconds()
	return l, st, nil
}

// extend returns old brought to rev: as it is when it holds rev; with the
// commits since when rev descends from its revision; on another branch,
// less the commits only its revision had and with those only rev has.
// It returns nil when the log must be read afresh.
func extend(ctx context.Context, src Source, old *Log, rev string, opts Options, st *Stats) *Log {
	if old.rev == rev {
		return old
	}
	// Only a log in memory takes commits in and out.
	if err := old.materialize(); err != nil {
		opts.Logger.Warn("history: cache unreadable, the log is read again", "err", err)
		return nil
	}
	limit := opts.MaxCommits
	// A log cut at its limit lacks the older commits: if dropping leaves
	// it short, only a fresh read is right. (A log cut by the time limit
	// is brought forward as it is: reading it afresh would hit the limit
	// again.)
	short := old.truncated
	out, err := src.git(ctx, "merge-base", old.rev, rev).Output()
	if err != nil {
		return nil // unrelated histories, or history rewritten
	}
	base := strings.TrimSpace(string(out))
	if base != old.rev {
		// Another branch (or back to an ancestor): drop what only the
		// old revision has.
		gone, err := src.git(ctx, "rev-list", fmt.Sprintf("--max-count=%d", limit+1), old.rev, "^"+base, "--").Output()
		if err != nil {
			return nil
		}
		hashes := strings.Fields(string(gone))
		if len(hashes) > limit {
			return nil
		}
		drop := make(map[string]bool, len(hashes))
		for _, h := range hashes {
			if len(h) >= hashLen {
				drop[h[:hashLen]] = true
			}
		}
		old = old.without(drop)
	}
	cs, partial, err := read(ctx, src, limit+1, opts.Timeout, rev, "^"+base)
	if err != nil || partial || len(cs) > limit {
		return nil
	}
	old.add(cs)
	old.rev = rev
	st.Read = len(cs)
	if short && old.Len() < limit {
		return nil
	}
	old.truncated = short || old.Len() > limit
	// The oldest go, so that the log holds what a fresh read would.
	return old.keepNewest(limit)
}

// resolve returns the full hash of src's revision.
func resolve(ctx context.Context, src Source) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoHistory, err)
	}
	out, err := src.git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", src.rev()+"^{commit}").Output()
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if err := refused(err); err != nil {
			return "", err
		}
		return "", fmt.Errorf("%w at %s (%s)", ErrNoHistory, src.where(), src.rev())
	}
	return strings.TrimSpace(string(out)), nil
}

func (s Source) where() string {
	if s.GitDir != "" {
		return s.GitDir
	}
	return s.Dir
}

// key identifies a source's log in the cache.
func (s Source) key() string {
	if s.GitDir != "" {
		return "git-dir " + s.GitDir
	}
	return "dir " + s.Dir
}

func pathFor(dir string, src Source) (string, error) {
	dir, err := index.CacheDir(dir)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(src.key()))
	return filepath.Join(dir, "history-"+hex.EncodeToString(sum[:8])+".bin"), nil
}

// The cache file, history-<hash of the source's key>.bin, is a header and
// the body (see encodeBody):
//
//	magic    [8]byte  "HONEHIS\n"
//	version  uint32   cacheVersion (little-endian)
//	crc      uint32   CRC-32 (IEEE) of the body, as the index cache
//
// A file that fails a check (magic, version, checksum, key, limit, the
// counts and sizes of its tables) is not used: the log is read again. An
// entry that is wrong all the same (an id out of range) is found when a
// query reads it, and counts as absent (see encodeBody). The checksum
// matters: a damaged body often still decodes (a flipped bit in a count or
// a term makes another log, which ranks other files).
const (
	cacheMagic = "HONEHIS\n"
	headerSize = 16
)

func saveCache(p, key string, l *Log) error {
	b := encodeBody(make([]byte, headerSize), key, l)
	copy(b, cacheMagic)
	binary.LittleEndian.PutUint32(b[8:], cacheVersion)
	binary.LittleEndian.PutUint32(b[12:], crc32.ChecksumIEEE(b[headerSize:]))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), filepath.Base(p)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	// The gob-encoded file of cache version 3 and before, if any, is dead.
	os.Remove(strings.TrimSuffix(p, ".bin") + ".gob")
	return nil
}

var (
	// errStale marks a cache of another version or source.
	errStale = errors.New("history: cache of another version or source")
	// errCorrupt marks a cache that fails its checksum.
	errCorrupt = errors.New("history: cache is corrupt")
)

// otherDepth marks a sound cache of the source whose log was read to
// another limit (Options.MaxCommits): not an error to warn of, as a first
// answer reads fewer commits than the runs after it.
type otherDepth struct{ limit int }

func (e otherDepth) Error() string {
	return fmt.Sprintf("history: cache of a log read to %d commits", e.limit)
}

// loadCache reads and checks a cached log.
func loadCache(p, key string, limit int) (*Log, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > math.MaxInt32 {
		return nil, errCorrupt
	}
	b := hugeBuffer(int(st.Size()))
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%w (%v)", errCorrupt, err)
	}
	return decodeCache(b, key, limit)
}

// decodeCache checks the bytes of a cache file and opens the log they
// hold, which keeps them: b must not change after.
func decodeCache(b []byte, key string, limit int) (*Log, error) {
	if len(b) < headerSize || string(b[:8]) != cacheMagic {
		return nil, errCorrupt
	}
	if binary.LittleEndian.Uint32(b[8:]) != cacheVersion {
		return nil, errStale
	}
	if crc32.ChecksumIEEE(b[headerSize:]) != binary.LittleEndian.Uint32(b[12:]) {
		return nil, errCorrupt
	}
	l := &Log{}
	k, err := decodeBody(b[headerSize:], l)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", errCorrupt, err)
	}
	if k != key {
		return nil, errStale
	}
	if l.limit != limit {
		return nil, otherDepth{l.limit}
	}
	return l, nil
}
