package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hone-dev/hone/internal/walk"
)

type stat struct {
	size, mtime int64
	inode       uint64
}

// Open loads root's index from the cache, brings it up to date with the tree
// (re-reading only files whose size, mtime or inode changed), saves it, and
// returns it. A cache that cannot be read, or a cache directory that cannot be
// written, costs a warning in Stats.Warnings, never the index.
func Open(ctx context.Context, root string, opts Options) (*Index, Stats, error) {
	start := time.Now()
	var st Stats
	warn := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		st.Warnings = append(st.Warnings, msg)
		if opts.Logger != nil {
			opts.Logger.Warn(msg)
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, st, fmt.Errorf("index: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, st, fmt.Errorf("index: %w", err)
	} else if !fi.IsDir() {
		return nil, st, fmt.Errorf("index: %s is not a directory", abs)
	}

	// old is the index to start from; held, that the cache file holds it.
	var old *Index
	held := false
	if !opts.NoCache {
		st.CachePath, err = cachePath(opts.CacheDir, abs)
		if err != nil {
			warn("%v; indexing in memory", err)
		}
	}
	if st.CachePath != "" {
		prev := opts.Prev
		if prev != nil && prev.root != abs {
			prev = nil
		}
		if prev != nil && prev.heldBy(st.CachePath) {
			old, held = prev, true
		} else {
			old, err = load(st.CachePath, abs)
			held = err == nil
			then := "rebuilt"
			if old == nil && prev != nil {
				old, then = prev, "written again from the index in memory"
			}
			switch {
			case err == nil, errors.As(err, new(*fs.PathError)):
				// No cache (yet, or any more), or none readable: save
				// reports an unusable directory.
			case errors.Is(err, errStale):
				warn("index: cache %s is of another version; %s", st.CachePath, then)
			default:
				warn("index: cache %s unusable (%v); %s", st.CachePath, err, then)
			}
		}
	}

	var files []walk.File
	err = walkTree(ctx, abs, opts.Walk,
		func(f walk.File) error { files = append(files, f); return nil },
		func(s walk.Skip) { st.Skipped = append(st.Skipped, s) })
	if err != nil {
		return nil, st, fmt.Errorf("index: walk %s: %w", abs, err)
	}

	// Decide per walked file: reuse from the cache, keep a content skip, or read.
	const parse = -1
	plan := make([]int, len(files)) // old file id, or parse
	var oldSkips map[string]contentSkip
	seen := 0
	var toRead []walk.File
	if old != nil && len(old.contentSkips) > 0 {
		oldSkips = make(map[string]contentSkip, len(old.contentSkips))
		for _, c := range old.contentSkips {
			oldSkips[c.skip.Path] = c
		}
	}
	var keptSkips []contentSkip
	for i, f := range files {
		plan[i] = parse
		now := stat{f.Size, f.ModTime, f.Inode}
		if old != nil {
			if id, ok := old.byPath[f.Path]; ok {
				seen++
				of := &old.files[id]
				if (stat{of.Size, of.ModTime, old.inodes[id]}) == now {
					plan[i] = int(id)
					continue
				}
			} else if c, ok := oldSkips[f.Path]; ok && (stat{c.size, c.mtime, c.inode}) == now {
				plan[i] = -2
				keptSkips = append(keptSkips, c)
				st.Skipped = append(st.Skipped, c.skip)
				continue
			}
		}
		toRead = append(toRead, f)
	}
	if old != nil {
		st.Removed = len(old.files) - seen
	}
	if old != nil && len(toRead) == 0 && st.Removed == 0 && len(keptSkips) == len(old.contentSkips) {
		st.Files, st.Reused = len(old.files), len(old.files)
		ix := old
		if !held {
			// The index in memory is up to date but its file is gone or
			// damaged: write it again, from a copy that carries the new
			// file's version (old may be in use elsewhere).
			cp := *old
			ix = &cp
			if err := save(st.CachePath, ix); err != nil {
				warn("index: cache not saved (%v); index kept in memory", err)
			}
		}
		st.Millis = time.Since(start).Milliseconds()
		return ix, st, nil
	}

	parsed, err := parseAll(ctx, toRead, opts.Workers, opts.Progress)
	if err != nil {
		return nil, st, err
	}
	var base strTable
	if old != nil {
		base = old.terms
	}
	b := newBuilder(len(files), base)
	b.skips = keptSkips
	next := 0
	for i, f := range files {
		switch {
		case plan[i] >= 0:
			b.addReused(old, ID(plan[i]))
			st.Reused++
		case plan[i] == parse:
			p := &parsed[next]
			next++
			if p.skip != nil {
				st.Skipped = append(st.Skipped, *p.skip)
				b.skips = append(b.skips, contentSkip{skip: *p.skip, size: f.Size, mtime: f.ModTime, inode: f.Inode})
				continue
			}
			b.addParsed(p)
			st.Parsed++
		}
		if err := ctx.Err(); err != nil {
			return nil, st, fmt.Errorf("index: %w", err)
		}
	}
	parsed = nil
	ix := b.finish(abs)
	st.Files = len(ix.files)

	if st.CachePath != "" {
		if err := save(st.CachePath, ix); err != nil {
			warn("index: cache not saved (%v); index kept in memory", err)
		}
	}
	st.Millis = time.Since(start).Milliseconds()
	return ix, st, nil
}

// save writes ix to p atomically (a temporary file renamed over p) under an
// exclusive lock on p.lock, so that concurrent hone processes never leave a
// torn file, and records in ix the version written. ix must not be in use
// by others yet.
func save(p string, ix *Index) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	unlock, err := lockFile(p + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	fi, err := replaceFile(p, ix.encode())
	ix.file = fi
	return err
}

// replaceFile writes the parts to a temporary file beside p and renames it
// over p: readers see the old file or the new one, never a torn one. It
// returns the new file's info. The caller holds p's lock.
func replaceFile(p string, parts ...[]byte) (os.FileInfo, error) {
	tmp, err := os.CreateTemp(filepath.Dir(p), filepath.Base(p)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	var werr error
	for _, b := range parts {
		if werr == nil {
			_, werr = tmp.Write(b)
		}
	}
	// The file's version (inode, size, modification time) as written; a
	// rename keeps it.
	fi, serr := tmp.Stat()
	if err := errors.Join(werr, serr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("index: write cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("index: %w", err)
	}
	return fi, nil
}

// walkTree is walk.Walk; tests may stand in a simpler walker.
var walkTree = walk.Walk
