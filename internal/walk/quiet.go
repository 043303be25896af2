package walk

import (
	"hash/fnv"
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

// Memo holds the quiet directories of a walk, by repository path.
type Memo map[string]*QuietDir

// QuietDir is a quiet directory as a walk found it.
type QuietDir struct {
	Ino          uint64
	MTime, CTime int64  // Unix nanoseconds
	Chain        uint64 // fingerprint of the ignore files above it and the options
	Items        []QuietItem
}

// QuietItem is one entry of a quiet directory, in walk order: a skip, or a
// quiet subdirectory (Sub, its name), whose own items come in its place.
type QuietItem struct {
	Sub  string
	Skip Skip
}

// quietSettle: a directory changed this close to the walk's start is not
// recorded. Tests shorten it.
var quietSettle = 2 * time.Second

// onList, when set (by tests), is called with each directory a walk lists.
var onList func(rel string)

// quietFrame gathers the items of a directory being walked; quiet turns
// false at the first entry that is not left out by name or type.
type quietFrame struct {
	quiet bool
	items []QuietItem
}

// emit reports s and records it in f.
func (w *walker) emit(f *quietFrame, s Skip) {
	w.skip(s)
	if f.quiet {
		f.items = append(f.items, QuietItem{Skip: s})
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
// quiet directory below it, are as recorded under the chain of prints.
func (w *walker) still(d *dir, rel, path string, q *QuietDir, chain uint64) bool {
	if q.Chain != chain {
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

// remember records the directory d at rel (not the root; a frame is quiet
// only below it and with Options.Remember set) as quiet with f's items,
// unless it changed within quietSettle of the walk's start or the system
// gives no inode and status-change time to check it by; it reports whether
// it did.
func (w *walker) remember(d *dir, rel string, f *quietFrame, chain uint64) bool {
	m, err := d.stat()
	settled := w.start.Add(-quietSettle).UnixNano()
	if err != nil || m.ino == 0 || m.cTime == 0 || m.modTime >= settled || m.cTime >= settled {
		return false
	}
	w.opts.Remember[rel] = &QuietDir{Ino: m.ino, MTime: m.modTime, CTime: m.cTime, Chain: chain, Items: f.items}
	return true
}
