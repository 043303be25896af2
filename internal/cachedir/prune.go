package cachedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hone-dev/hone/internal/filelock"
	"github.com/hone-dev/hone/internal/index"
)

// DefaultOrphanAge is how old a file no manifest names must be before
// Prune removes it: a younger one may be a segment that a running index
// build has written and is about to name.
const DefaultOrphanAge = time.Hour

// PruneOptions says what Prune removes besides the caches of repositories
// that no longer exist and the orphans older than OrphanAge.
type PruneOptions struct {
	// OlderThan, when positive, removes also the caches of repositories
	// (and the history caches) not written for that long.
	OlderThan time.Duration
	// All removes everything hone keeps in the directory: every
	// repository's cache, records.db, llm/ and bench/.
	All bool
	// DryRun lists what would go and removes nothing (and takes no lock).
	DryRun bool
	// OrphanAge is DefaultOrphanAge when 0.
	OrphanAge time.Duration
	// Now is time.Now when nil.
	Now func() time.Time
}

// Removed is a file or directory Prune removed (or would remove).
type Removed struct {
	// Name is its path relative to the cache directory.
	Name string `json:"name"`
	// Bytes is its size (a directory's, the size of its regular files).
	Bytes int64 `json:"bytes"`
	// Why it went: "root gone", "unused", "orphan", "all".
	Reason string `json:"reason"`
	// Root is the repository or history source it belonged to, if any.
	Root string `json:"root,omitempty"`
}

// PruneResult is what Prune removed, and what it left because another
// process holds it (Skipped, each with its reason) or failed to remove.
type PruneResult struct {
	Dir     string    `json:"dir"`
	DryRun  bool      `json:"dry_run"`
	Removed []Removed `json:"removed"`
	Freed   int64     `json:"freed_bytes"`
	Skipped []string  `json:"skipped"`
}

// Prune removes from dir the caches of repositories whose root is gone,
// the orphans older than opts.OrphanAge, and what opts adds. A
// repository's files are removed under the lock its index takes to write
// them; one another process holds is skipped. Only hone's own files (see
// the package comment) are removed, and no link is followed.
func Prune(dir string, opts PruneOptions) (*PruneResult, error) {
	if opts.OrphanAge == 0 {
		opts.OrphanAge = DefaultOrphanAge
	}
	now := time.Now()
	if opts.Now != nil {
		now = opts.Now()
	}
	u, err := List(dir)
	if err != nil {
		return nil, err
	}
	p := &pruner{dir: dir, dry: opts.DryRun, res: &PruneResult{Dir: dir, DryRun: opts.DryRun, Removed: []Removed{}, Skipped: []string{}}}
	unused := func(t time.Time) bool { return opts.OlderThan > 0 && now.Sub(t) >= opts.OlderThan }
	for _, r := range u.Repos {
		reason := ""
		switch {
		case opts.All:
			reason = "all"
		case !r.Exists:
			reason = "root gone"
		case unused(r.LastUsed):
			reason = "unused"
		default:
			continue
		}
		p.repo(r, reason)
	}
	for _, h := range u.Histories {
		switch {
		case opts.All:
			p.file(h.File, h.Bytes, "all", h.Source)
		case !h.Exists:
			p.file(h.File, h.Bytes, "source gone", h.Source)
		case unused(h.LastUsed):
			p.file(h.File, h.Bytes, "unused", h.Source)
		}
	}
	for _, o := range u.Orphans {
		if !opts.All && now.Sub(o.ModTime) < opts.OrphanAge {
			continue
		}
		p.orphan(o)
	}
	if opts.All {
		if u.RecordsBytes > 0 {
			p.locked(index.RecordsFile, index.RecordsFile, u.RecordsBytes, "")
		}
		if u.LLMBytes > 0 || isDir(filepath.Join(dir, llmDir)) {
			p.tree(llmDir, u.LLMBytes, "")
		}
		if u.BenchBytes > 0 || isDir(filepath.Join(dir, benchDir)) {
			p.tree(benchDir, u.BenchBytes, filepath.Join(benchDir, "bench.lock"))
		}
	}
	return p.res, nil
}

type pruner struct {
	dir string
	dry bool
	res *PruneResult
}

func (p *pruner) skip(format string, args ...any) {
	p.res.Skipped = append(p.res.Skipped, fmt.Sprintf(format, args...))
}

// remove removes the regular file name (never a link: one put in its
// place is left alone) and records it.
func (p *pruner) file(name string, size int64, reason, root string) {
	full := filepath.Join(p.dir, name)
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil || !fi.Mode().IsRegular() {
		p.skip("%s: not a regular file", name)
		return
	}
	if !p.dry {
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			p.skip("%s: %v", name, err)
			return
		}
	}
	p.res.Removed = append(p.res.Removed, Removed{Name: name, Bytes: size, Reason: reason, Root: root})
	p.res.Freed += size
}

// repo removes a repository's cache under its index's lock: the manifest,
// every segment and temporary file of its hash, its history caches, and,
// when the root is gone or everything goes, the lock file.
func (p *pruner) repo(r Repo, reason string) {
	manifest := filepath.Join(p.dir, r.Manifest)
	if !p.dry {
		unlock, held, err := index.TryLockManifest(manifest)
		if err != nil {
			p.skip("%s (%s): %v", r.Manifest, r.Root, err)
			return
		}
		if !held {
			p.skip("%s (%s): in use by another hone process", r.Manifest, r.Root)
			return
		}
		defer unlock()
		if reason == "root gone" && isDir(r.Root) {
			p.skip("%s (%s): the root is back", r.Manifest, r.Root)
			return
		}
	}
	// Read the directory again under the lock: a segment written since
	// the listing goes too.
	prefix := strings.TrimSuffix(r.Manifest, ".bin")
	ents, err := os.ReadDir(p.dir)
	if err != nil {
		p.skip("%s: %v", p.dir, err)
		return
	}
	for _, e := range ents {
		n := e.Name()
		if n == r.Manifest || (strings.HasPrefix(n, prefix+"-") && segmentRE.MatchString(n)) ||
			(strings.HasPrefix(n, prefix) && indexTmpRE.MatchString(n)) {
			p.file(n, size(e), reason, r.Root)
		}
	}
	for _, h := range r.history {
		p.file(h, size(nil, filepath.Join(p.dir, h)), reason, r.Root)
	}
	if reason != "unused" {
		p.file(r.Manifest+".lock", 0, reason, r.Root)
	}
}

// orphan removes a file that belongs to no current cache, under the lock
// of the repository hash it carries, if any, after checking that it still
// belongs to none.
func (p *pruner) orphan(o File) {
	if o.hash == "" || p.dry {
		p.file(o.Name, o.Bytes, "orphan", "")
		return
	}
	manifest := filepath.Join(p.dir, "index-"+o.hash+".bin")
	if lockRE.MatchString(o.Name) {
		// A lock file without a manifest: taken, it is removed only if no
		// manifest appeared meanwhile.
		unlock, held, err := filelock.TryLock(filepath.Join(p.dir, o.Name))
		if err != nil || !held {
			return
		}
		defer unlock()
		if _, err := os.Lstat(manifest); errors.Is(err, fs.ErrNotExist) {
			p.file(o.Name, o.Bytes, "orphan", "")
		}
		return
	}
	if _, err := os.Lstat(manifest + ".lock"); errors.Is(err, fs.ErrNotExist) {
		// No lock file and so no writer of this hash since the last
		// prune: taking the lock would create one to no purpose.
		p.file(o.Name, o.Bytes, "orphan", "")
		return
	}
	unlock, held, err := index.TryLockManifest(manifest)
	if err != nil || !held {
		p.skip("%s: in use by another hone process", o.Name)
		return
	}
	defer unlock()
	if segmentRE.MatchString(o.Name) {
		if info, err := index.ReadManifestInfo(manifest); err == nil {
			for _, s := range info.Segments {
				if s == o.Name {
					return // named since the listing
				}
			}
			if !info.Current {
				return
			}
		}
	}
	p.file(o.Name, o.Bytes, "orphan", "")
}

// locked removes the file name under a lock on lockName (records.db: the
// store's own lock, which bbolt takes on the file itself).
func (p *pruner) locked(name, lockName string, bytes int64, root string) {
	if !p.dry {
		unlock, held, err := filelock.TryLock(filepath.Join(p.dir, lockName))
		if err != nil || !held {
			p.skip("%s: in use by another hone process", name)
			return
		}
		defer unlock()
	}
	p.file(name, bytes, "all", root)
}

// tree removes the directory name (llm/, bench/) and all it holds, under
// the lock file lockName when there is one (hone bench's), without
// following links (os.RemoveAll removes a link, not what it points to).
func (p *pruner) tree(name string, bytes int64, lockName string) {
	full := filepath.Join(p.dir, name)
	if fi, err := os.Lstat(full); err != nil || !fi.IsDir() {
		return
	}
	if !p.dry {
		if lockName != "" {
			if _, err := os.Lstat(filepath.Join(p.dir, lockName)); err == nil {
				unlock, held, err := filelock.TryLock(filepath.Join(p.dir, lockName))
				if err != nil || !held {
					p.skip("%s: in use by another hone process", name)
					return
				}
				defer unlock()
			}
		}
		if err := os.RemoveAll(full); err != nil {
			p.skip("%s: %v", name, err)
			return
		}
	}
	p.res.Removed = append(p.res.Removed, Removed{Name: name + string(filepath.Separator), Bytes: bytes, Reason: "all"})
	p.res.Freed += bytes
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// size is the size of the directory entry e, or of the file at path when
// e is nil (0 when it cannot be read).
func size(e fs.DirEntry, path ...string) int64 {
	var fi fs.FileInfo
	var err error
	if e != nil {
		fi, err = e.Info()
	} else {
		fi, err = os.Lstat(path[0])
	}
	if err != nil {
		return 0
	}
	return fi.Size()
}
