package walk

import (
	"hash/fnv"
	"slices"
	"strconv"
	"time"
)

// Quiet directories: a warm walk that does not list what held nothing.
//
// A directory is quiet when nothing below it is indexed and nothing below it
// was stat'ed to know that: every entry was left out by its name or type
// alone (a translation catalog, a compiled file, an ignored name, a
// vendored or tool-cache directory), every subdirectory it entered is quiet
// too, and it holds no ignore file. django's locale/<lang>/LC_MESSAGES
// directories and their parents are two thirds of its 3,231 directories.
// What a walk leaves out of a quiet directory depends only on its entries'
// names and types, the ignore files above it and the walk's options; its
// entries change only with its modification and status-change times (a
// file created, removed or renamed in it moves both; an edit of a file's
// content does not, and does not matter here).
//
// So a walk given Options.Quiet (what an earlier walk found, see Memo)
// stats such a directory from its parent, and every quiet directory below
// it, instead of opening and listing them: when each has the inode and
// times recorded, and the ignore files above are the ones recorded (their
// contents' fingerprint), it reports the skips recorded, in the same order,
// and does not enter. One system call per directory instead of four. A
// directory whose times are within quietSettle of the walk's start is not
// recorded: a change in the same tick of a coarse clock could go unseen (as
// git's index treats racy entries).
//
// Listed directories: a warm walk that does not list what did not change.
//
// Every other directory's listing is recorded too, as the walk took it (a
// Listed QuietDir): the skips its names and types decided, the
// subdirectories to walk, the regular files to stat, the symbolic links to
// follow, and its ignore files. A walk that opens such a directory and
// finds its inode and times as recorded, and the ignore files above and in
// it as they were, takes the entries from the record instead of listing
// them and checking each name against the ignore files and the vendored,
// generated and data rules: the files are still stat'ed one by one (an edit
// of a file's content moves no time of its directory) and the links still
// followed, so what changed in a file is seen as before. On a tree of
// 58,346 files and 16,211 directories this halves the walk of a warm run
// (BENCHMARKS.md). The same settling rule applies.

// Memo holds the quiet and listed directories of a walk, by repository
// path ("" is the root, which is never quiet).
type Memo map[string]*QuietDir

// QuietDir is a quiet directory as a walk found it, or (Listed) the
// listing of another directory.
type QuietDir struct {
	Ino          uint64
	MTime, CTime int64  // Unix nanoseconds
	Chain        uint64 // fingerprint of the ignore files above it (and, listed, in it) and the options
	Items        []QuietItem
	// Listed marks a directory that is not quiet: Items are its entries
	// as the walk took them, and Ignores names its ignore files, weakest
	// first.
	Listed  bool
	Ignores []string
}

// QuietItem is one entry of a directory, in walk order: a skip; a
// subdirectory (Sub, its name), whose own items come in its place when it
// is quiet; and, in a listed directory only, a regular file to stat (File)
// or a symbolic link to follow (Link), by name.
type QuietItem struct {
	Sub  string
	File string
	Link string
	Skip Skip
}

// Same reports whether m records what prev does: the same directories, each
// taken from prev (a walk carries a record it used as it is).
func (m Memo) Same(prev Memo) bool {
	if len(m) != len(prev) {
		return false
	}
	for p, q := range m {
		if prev[p] != q {
			return false
		}
	}
	return true
}

// quietSettle: a directory changed this close to the walk's start is not
// recorded. Tests shorten it.
var quietSettle = 2 * time.Second

// onList and onListed, when set (by tests), are called with each directory
// a walk lists, before and after its listing is read.
var onList, onListed func(rel string)

// quietFrame gathers the items of a directory being walked (when record);
// quiet turns false at the first entry that is not left out by name or
// type, record when the listing fails.
type quietFrame struct {
	quiet, record bool
	items         []QuietItem
	ignores       []string
	// stat is the directory's, taken before it was listed: a change made
	// while it is listed moves the times away from those recorded, so the
	// next walk lists it again, whatever the clocks of the machine and of
	// the file system say.
	stat    meta
	statErr error
}

// emit reports s and records it in f.
func (w *walker) emit(f *quietFrame, s Skip) {
	w.skip(s)
	f.add(QuietItem{Skip: s})
}

// add records it in f.
func (f *quietFrame) add(it QuietItem) {
	if f.record {
		f.items = append(f.items, it)
	}
}

// chainPrint fingerprints the ignore files ms and the walk's options.
func (w *walker) chainPrint(ms []matcher) uint64 {
	h := fnv.New64a()
	o := w.opts
	h.Write([]byte(strconv.FormatInt(o.MaxFileSize, 10)))
	if o.IncludeVendored {
		h.Write([]byte{'v'})
	}
	if o.IncludeData {
		h.Write([]byte{'d'})
	}
	for _, m := range ms {
		h.Write([]byte{0})
		h.Write([]byte(m.name))
		h.Write([]byte(strconv.FormatUint(m.print, 16)))
	}
	return h.Sum64()
}

// still reports whether the quiet directory q at path, rel from d, and every
// quiet directory below it, are as recorded under the chain of prints (a
// listed record is not quiet: never still).
func (w *walker) still(d *dir, rel, path string, q *QuietDir, chain uint64) bool {
	if q.Chain != chain || q.Listed {
		return false
	}
	m, err := d.lstat(rel)
	if err != nil || !m.mode.IsDir() || m.ino != q.Ino || m.modTime != q.MTime || m.cTime != q.CTime {
		return false
	}
	for _, it := range q.Items {
		if it.Sub == "" {
			continue
		}
		sq := w.opts.Quiet[path+"/"+it.Sub]
		if sq == nil || !w.still(d, rel+"/"+it.Sub, path+"/"+it.Sub, sq, chain) {
			return false
		}
	}
	return true
}

// replay reports the skips of the quiet directory q at path as recorded,
// and carries it (and those below it) into Options.Remember.
func (w *walker) replay(path string, q *QuietDir) error {
	if w.opts.Remember != nil {
		w.opts.Remember[path] = q
	}
	for _, it := range q.Items {
		if w.work++; w.work >= ctxCheckEvery {
			w.work = 0
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		if it.Sub == "" {
			w.skip(it.Skip)
			continue
		}
		if err := w.replay(path+"/"+it.Sub, w.opts.Quiet[path+"/"+it.Sub]); err != nil {
			return err
		}
	}
	return nil
}

// remember records the directory at rel with f's items and the times it
// had before it was listed (a frame records only with Options.Remember
// set): as quiet when f is (never the root), else as listed, unless it
// changed within quietSettle of the walk's start (a change in the same tick
// of a coarse clock as the stat could go unseen) or the system gives no
// inode and status-change time to check it by; it reports whether it
// recorded the directory as quiet.
func (w *walker) remember(rel string, f *quietFrame, chain uint64) bool {
	if !f.record {
		return false
	}
	m := f.stat
	settled := w.start.Add(-quietSettle).UnixNano()
	if f.statErr != nil || m.ino == 0 || m.cTime == 0 || m.modTime >= settled || m.cTime >= settled {
		return false
	}
	q := &QuietDir{Ino: m.ino, MTime: m.modTime, CTime: m.cTime, Chain: chain, Items: f.items}
	if !f.quiet || rel == "" {
		q.Listed, q.Ignores = true, f.ignores
	}
	if was := w.opts.Quiet[rel]; was != nil && was.same(q) {
		q = was // listed again (an ignore file it cannot read), found alike: Same holds
	}
	w.opts.Remember[rel] = q
	return !q.Listed
}

// same reports whether q and r record the same.
func (q *QuietDir) same(r *QuietDir) bool {
	return q.Ino == r.Ino && q.MTime == r.MTime && q.CTime == r.CTime && q.Chain == r.Chain && q.Listed == r.Listed &&
		slices.Equal(q.Ignores, r.Ignores) && slices.Equal(q.Items, r.Items)
}

// relist walks the directory d at rel from its listing recorded in q, when
// its inode and times (m, d's stat) are as recorded and its ignore files,
// read again, make the chain recorded. It reports whether it did; when it
// did not, it has reported nothing, and the caller lists d.
func (w *walker) relist(d *dir, m meta, rel, abs string, ms []matcher, q *QuietDir) (bool, error) {
	if m.ino != q.Ino || m.modTime != q.MTime || m.cTime != q.CTime {
		return false, nil
	}
	own := ms[:len(ms):len(ms)]
	for _, name := range q.Ignores {
		mt, unread, err := w.read(child(abs, name), rel, join(rel, name))
		if err != nil || unread != nil {
			return false, err
		}
		own = append(own, mt)
	}
	if w.chainPrint(own) != q.Chain {
		return false, nil
	}
	for _, mt := range own[len(ms):] {
		w.warnCut(mt)
	}
	if w.opts.Remember != nil {
		w.opts.Remember[rel] = q
	}
	// The frame records nothing (q stands); own's chain is q's, checked
	// above.
	f := &quietFrame{}
	chainOf := func() uint64 { return q.Chain }
	for _, it := range q.Items {
		if w.work++; w.work >= ctxCheckEvery {
			w.work = 0
			if err := w.ctx.Err(); err != nil {
				return true, err
			}
		}
		var err error
		switch {
		case it.Sub != "":
			err = w.subdir(d, f, rel, abs, it.Sub, own, chainOf)
		case it.File != "":
			err = w.regular(d, join(rel, it.File), it.File)
		case it.Link != "":
			err = w.symlink(join(rel, it.Link), child(abs, it.Link), own)
		default:
			w.skip(it.Skip)
		}
		if err != nil {
			return true, err
		}
	}
	return true, nil
}
