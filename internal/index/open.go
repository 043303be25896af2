package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hone-dev/hone/internal/walk"
)

type stat struct {
	size, mtime, ctime int64
	inode              uint64
}

// Merge policy. A change is written as a new segment of the files it read;
// that segment absorbs the segments small beside it, so that segment sizes
// grow geometrically (as in a log-structured merge) and an edit costs a
// segment of about its own size, while a search reads few segments. Sizes
// are in bytes of source (what a segment's build holds in memory grows
// with them), and what a new segment gathers is bounded as a chunk of a
// large read is (spill.go): no Open rebuilds most of the index at once.
const (
	// mergeFactor: a new segment absorbs each segment with at most this
	// many times its live bytes; the cost of a change stays within a
	// constant of its size, amortised, and there are O(log n) segments.
	mergeFactor = 4
	// maxSegments bounds the segments a search reads: past it the smallest
	// are absorbed too, whatever their size.
	maxSegments = 8
)

// foldCap is the most live source a new segment gathers from the segments
// it absorbs and its fresh files, but for maxSegments: a chunk of a large
// read of total bytes (chunkPlan), so that a merge holds no more than a
// cold build does.
func foldCap(total int64) int64 {
	return max(chunkBytes, (total+maxChunks-1)/maxChunks)
}

// foldPlan chooses the segments a new segment of fresh bytes of source
// absorbs, given each segment's live and dead bytes and the number of other
// new segments (chunks of the same read, see spill.go). Within foldCap of
// the index's live bytes, it takes those more dead than live (their space
// goes back), smallest first, then the smallest while each has at most
// mergeFactor times the bytes gathered so far; then, whatever the cap, the
// smallest until at most maxSegments remain. A segment more dead than live
// that does not fit waits for an Open that reads less: its live bytes are
// at most half of what it held.
func foldPlan(live, dead []int64, fresh int64, others int) []bool {
	fold := make([]bool, len(live))
	total := fresh
	for _, n := range live {
		total += n
	}
	limit := foldCap(total)
	order := make([]int, len(live))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(live[a], live[b]) })
	size := fresh
	for _, i := range order {
		if dead[i] > live[i] && size+live[i] <= limit {
			fold[i] = true
			size += live[i]
		}
	}
	order = slices.DeleteFunc(order, func(i int) bool { return fold[i] })
	k := 0
	for ; k < len(order) && live[order[k]] <= mergeFactor*size && size+live[order[k]] <= limit; k++ {
		fold[order[k]] = true
		size += live[order[k]]
	}
	for ; k < len(order) && len(order)-k+1+others > maxSegments; k++ {
		fold[order[k]] = true
	}
	return fold
}

// Open loads root's index from the cache, brings it up to date with the tree
// (re-reading only files whose size, mtime or inode changed, into a new
// segment), saves it, and returns it. A cache that cannot be read, or a
// cache directory that cannot be written, costs a warning in
// Stats.Warnings, never the index.
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

	// Without a list of touched paths the tree is walked whatever the cache
	// holds: the walk (system calls) runs beside the cache's load (reads and
	// decoding), each on a core of its own.
	type walked struct {
		files   []walk.File
		skipped []walk.Skip
		err     error
	}
	// The walk starts from the directories the manifest recorded (read
	// ahead of the rest: a few bytes a file, 3.7 MiB for 58,346 files) and
	// records them anew.
	if !opts.NoCache {
		st.CachePath, err = cachePath(opts.CacheDir, abs)
		if err != nil {
			warn("%v; indexing in memory", err)
		}
	}
	walkOpts := opts.Walk
	walkOpts.Remember = walk.Memo{}
	var ahead *manifestRead // the manifest read ahead of the walk, for load
	if st.CachePath != "" && opts.Touched == nil {
		if opts.Prev != nil && opts.Prev.root == abs && opts.Prev.heldBy(st.CachePath) {
			walkOpts.Quiet = opts.Prev.quiet
		} else {
			ahead = readManifest(st.CachePath, abs)
			walkOpts.Quiet = ahead.quiet()
		}
	}
	var early chan walked
	if opts.Touched == nil {
		early = make(chan walked, 1)
		go func() {
			var w walked
			w.err = walkTree(ctx, abs, walkOpts,
				func(f walk.File) error { w.files = append(w.files, f); return nil },
				func(s walk.Skip) { w.skipped = append(w.skipped, s) })
			early <- w
		}()
	}

	// old is the index to start from; held, that the manifest describes it.
	var old *Index
	held := false
	if st.CachePath != "" {
		prev := opts.Prev
		if prev != nil && prev.root != abs {
			prev = nil
		}
		if prev != nil && prev.heldBy(st.CachePath) {
			old, held = prev, true
		} else {
			old, err = load(st.CachePath, abs, prev, opts.InPlace, warn, ahead)
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

	// An index read from the cache of several segments needs one term space
	// over them for its first search (terms): built beside the walk, on the
	// other core. A refresh that replaces the index extends it (see
	// inheritTerms), so it waits for it.
	var spaced chan struct{}
	if opts.Prev == nil && old != nil && len(old.segs) > 1 && early != nil {
		spaced = make(chan struct{})
		go func() {
			defer close(spaced)
			old.terms()
		}()
	}

	if opts.NoCache && opts.Prev != nil && opts.Prev.root == abs {
		old = opts.Prev // in memory only: an index of the same root to start from
	}

	var files []walk.File
	if opts.Touched != nil && old != nil && old == opts.Prev {
		files = touchedFiles(old, opts.Touched, opts.Walk.MaxFileSize)
	}
	// quiet is what the new index records: the walk's, or, without a walk,
	// what the index it starts from recorded.
	var quiet walk.Memo
	if old != nil {
		quiet = old.quiet
	}
	if files == nil {
		st.Walked = true
		if early != nil {
			w := <-early
			files, err = w.files, w.err
			st.Skipped = append(st.Skipped, w.skipped...)
		} else {
			err = walkTree(ctx, abs, walkOpts,
				func(f walk.File) error { files = append(files, f); return nil },
				func(s walk.Skip) { st.Skipped = append(st.Skipped, s) })
		}
		if err != nil {
			return nil, st, fmt.Errorf("index: walk %s: %w", abs, err)
		}
		quiet = walkOpts.Remember
	}

	// Decide per walked file: keep it where it is, keep a content skip, or
	// read it. A file read again, or gone, is tombstoned in its segment.
	var dead [][]bool // per old segment, copied on first write
	var retired []loc
	kill := func(id ID) {
		l := old.loc[id]
		retired = append(retired, l)
		if dead[l.seg] == nil {
			dead[l.seg] = make([]bool, len(old.segs[l.seg].files))
			copy(dead[l.seg], old.dead[l.seg])
		}
		dead[l.seg][l.id] = true
	}
	var seen []bool
	var oldSkips map[string]contentSkip
	if old != nil {
		dead = make([][]bool, len(old.segs))
		seen = make([]bool, old.Len())
		if len(old.contentSkips) > 0 {
			oldSkips = make(map[string]contentSkip, len(old.contentSkips))
			for _, c := range old.contentSkips {
				oldSkips[c.skip.Path] = c
			}
		}
	}
	// lexical says which files to read without parsing them: with
	// Options.Lexical, every file but those of Options.Parse and those
	// step takes (nil: every file is parsed). A file an earlier lexical
	// Open did not parse is read again (and parsed) when lexical does not
	// hold for it now.
	var lexical func(string) bool
	parse := make(map[string]bool, len(opts.Parse))
	if opts.Lexical {
		for _, p := range opts.Parse {
			parse[p] = true
		}
		lexical = func(p string) bool { return !parse[p] }
	}
	// step parses f too when Options.ParseBytes has room left for it (a
	// file not parsed yet that lexical would leave so), and reports
	// whether it did. Called in the order files are visited, before any is
	// read; parse is only read once reading starts.
	var stepped int64
	step := func(f walk.File) bool {
		if !opts.Lexical || stepped >= opts.ParseBytes || parse[f.Path] {
			return false
		}
		parse[f.Path] = true
		stepped += f.Size
		return true
	}
	var toRead []walk.File
	var keptSkips []contentSkip
	for _, f := range files {
		now := stat{f.Size, f.ModTime, f.CTime, f.Inode}
		if old != nil {
			if id, ok := old.byPath[f.Path]; ok {
				seen[id] = true
				of := old.meta(id)
				if (stat{of.Size, of.ModTime, of.CTime, old.inode(id)}) == now && (old.Parsed(id) || (lexical != nil && lexical(f.Path) && !step(f))) {
					continue
				}
				kill(id)
			} else if c, ok := oldSkips[f.Path]; ok && (stat{c.size, c.mtime, c.ctime, c.inode}) == now {
				keptSkips = append(keptSkips, c)
				st.Skipped = append(st.Skipped, c.skip)
				continue
			}
		}
		step(f) // new or changed (a no-op when it took f above)
		if f.Abs == "" {
			f.Abs = filepath.Join(abs, filepath.FromSlash(f.Path))
		}
		toRead = append(toRead, f)
	}
	for id, ok := range seen {
		if !ok {
			st.Removed++
			kill(ID(id))
		}
	}
	if old != nil && len(toRead) == 0 && st.Removed == 0 && len(keptSkips) == len(old.contentSkips) && old.imports != nil {
		st.Files, st.Reused, st.Unparsed = old.Len(), old.Len(), old.Unparsed()
		ix := old
		if (!held || !quiet.Same(old.quiet)) && st.CachePath != "" {
			// The index in memory is up to date but its manifest is gone
			// or damaged, or the walk recorded other directories: write
			// it again, from a copy that carries the new file's version
			// (old may be in use elsewhere).
			ix = old.clone()
			ix.quiet = quiet
			if err := save(st.CachePath, ix); err != nil {
				warn("index: cache not saved (%v); index kept in memory", err)
			}
		} else if held && st.CachePath != "" {
			sweep(st.CachePath, old)
		}
		st.Millis = time.Since(start).Milliseconds()
		return ix, st, nil
	}

	rs := useRecords(st.CachePath, opts, old, retired, len(toRead), warn)
	// A large read is built in chunks, each written as a segment of its
	// own before the next is parsed (spill.go); the last too unless it may
	// absorb segments of an index before it.
	skips := keptSkips
	var spilled []*spilledSegment
	defer func() {
		for _, sg := range spilled {
			sg.close() // a build that failed: the files are collected
		}
	}()
	lo := 0
	if ends := chunkPlan(toRead); len(ends) > 1 && st.CachePath != "" {
		print := extractorPrint()
		if old != nil {
			print = old.printOf()
		}
		spilling := ends[:len(ends)-1]
		if old == nil {
			// Nothing to fold into the last chunk: it is written and read
			// back as the others are, and the index holds no chunk whole.
			spilling = ends
		}
		for _, end := range spilling {
			sg, sk, np, nr, nl, err := spill(ctx, toRead[lo:end], st.CachePath, print, opts.Workers, rs, lexical, offsetProgress(opts.Progress, lo, len(toRead)))
			if err != nil {
				if rs != nil {
					rs.close()
				}
				return nil, st, err
			}
			if sg != nil {
				spilled = append(spilled, sg)
			}
			skips = append(skips, sk...)
			st.Parsed += np
			st.Recalled += nr
			st.Lexical += nl
			lo = end
		}
	}
	last := toRead[lo:]
	// The new segment is named first: the records store points the files
	// parsed at it.
	lastName := newSegmentName(st.CachePath)
	if rs != nil {
		rs.setTarget(lastName)
	}
	parsed, err := parseAll(ctx, last, opts.Workers, rs, lexical, offsetProgress(opts.Progress, lo, len(toRead)))
	// Which old segments the new one absorbs: those whose live files are
	// worth copying into it (foldPlan).
	var fold []bool
	var nLive []int
	// deadIn is old segment s's tombstones after this Open's.
	deadIn := func(s int) []bool {
		if dead[s] != nil {
			return dead[s]
		}
		return old.dead[s]
	}
	if old != nil {
		// Live and dead bytes of source per segment, and the fresh files'.
		var freshBytes int64
		for _, f := range last {
			freshBytes += f.Size
		}
		live, nd := make([]int64, len(old.segs)), make([]int64, len(old.segs))
		nLive = make([]int, len(old.segs))
		for s, sg := range old.segs {
			d := deadIn(s)
			for l := range sg.files {
				if d != nil && d[l] {
					nd[s] += sg.files[l].Size
				} else {
					live[s] += sg.files[l].Size
					nLive[s]++
				}
			}
		}
		fold = foldPlan(live, nd, freshBytes, len(spilled))
		if rs != nil && err == nil {
			// The files a folded segment held move into the new one: the
			// store's pointers follow them.
			for s, sg := range old.segs {
				if !fold[s] {
					continue
				}
				d := deadIn(s)
				for l := range sg.files {
					if (d == nil || !d[l]) && l < len(sg.keys) && sg.keys[l] != (recordKey{}) && sg.keys[l] != unparsedKey {
						rs.pointTo(sg.keys[l])
					}
				}
			}
		}
	}
	if rs != nil {
		if err == nil {
			if err := rs.flush(); errors.Is(err, errDamaged) {
				warn("%v; removed, to be made anew", err)
			} else if err != nil {
				warn("%v; records not saved", err)
			}
		}
		// Closed before the segment is built: its mapping of the file is
		// not held through the build's peak of memory.
		rs.close()
	}
	if err != nil {
		return nil, st, err
	}
	skips, fresh := refused(skips, parsed, last)
	for _, c := range skips[len(keptSkips):] {
		st.Skipped = append(st.Skipped, c.skip)
	}
	slices.SortFunc(skips, func(a, b contentSkip) int { return strings.Compare(a.skip.Path, b.skip.Path) })

	// The new segment: the files read, and the live files of the segments
	// it absorbs (fold, planned above).
	var segs []*segment
	var segDead [][]bool
	var base *segment
	total := fresh
	if old != nil {
		for s, sg := range old.segs {
			if fold[s] {
				total += nLive[s]
				if base == nil || nLive[s] > len(base.files) {
					base = sg
				}
			}
		}
	}
	b := newBuilder(total, base)
	if old != nil {
		for s, sg := range old.segs {
			d := deadIn(s)
			if !fold[s] {
				segs = append(segs, sg)
				segDead = append(segDead, d)
				continue
			}
			for l := range sg.files {
				if d == nil || !d[l] {
					b.addReused(sg, int32(l))
				}
			}
			if err := ctx.Err(); err != nil {
				return nil, st, fmt.Errorf("index: %w", err)
			}
		}
	}
	np, nr, nl := b.addKept(parsed)
	st.Parsed += np
	st.Recalled += nr
	st.Lexical += nl
	parsed = nil
	var lastSeg *segment
	if len(b.recs) > 0 {
		lastSeg = b.finish()
		lastSeg.name = lastName
	}
	b = nil
	// The chunks are read back now that the last is built (see
	// spilledSegment).
	for i, s := range spilled {
		sg, err := s.read(opts.InPlace)
		if err != nil {
			return nil, st, err
		}
		spilled[i] = &spilledSegment{built: sg} // read: nothing to close
		segs = append(segs, sg)
		segDead = append(segDead, nil)
	}
	if lastSeg != nil {
		segs = append(segs, lastSeg)
		segDead = append(segDead, nil)
	}
	ix := newIndex(abs, segs, segDead, skips)
	ix.quiet = quiet
	if old != nil {
		ix.print = old.print // the segments it keeps carry it
		if spaced != nil {
			<-spaced
		}
		ix.inheritTerms(old, old != opts.Prev)
	}
	st.Files = ix.Len()
	st.Unparsed = ix.Unparsed()
	st.Reused = st.Files - st.Parsed - st.Recalled - st.Lexical
	if old != nil && old.imports != nil && samePaths(old, ix) {
		redo := map[ID]bool{}
		for _, f := range toRead {
			if id, ok := ix.byPath[f.Path]; ok {
				redo[id] = true
			}
		}
		ix.resolveGraph(old, redo)
	} else {
		ix.resolveGraph(nil, nil)
	}

	if st.CachePath != "" {
		if err := save(st.CachePath, ix); err != nil {
			warn("index: cache not saved (%v); index kept in memory", err)
		}
	}
	st.Millis = time.Since(start).Milliseconds()
	return ix, st, nil
}

// touchedFiles returns the files a walk of old's tree would find now, when
// only the paths in touched may have changed since old was opened: old's
// files as they were, each touched one stat'ed again (and left out when it
// is gone). It returns nil when that cannot stand in for a walk: a touched
// path old does not know (a new file or directory), an ignore file, or one
// that is no longer a plain file within the size limit.
func touchedFiles(old *Index, touched []string, maxSize int64) []walk.File {
	if maxSize <= 0 {
		maxSize = walk.DefaultMaxFileSize
	}
	skipped := make(map[string]bool, len(old.contentSkips))
	for _, c := range old.contentSkips {
		skipped[c.skip.Path] = true
	}
	now := make(map[string]*walk.File, len(touched))
	for _, p := range touched {
		switch path.Base(p) {
		case ".gitignore", ".ignore", ".honeignore":
			return nil
		}
		if _, ok := old.byPath[p]; !ok && !skipped[p] {
			return nil
		}
		if _, ok := now[p]; ok {
			continue
		}
		abs := filepath.Join(old.root, filepath.FromSlash(p))
		fi, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			now[p] = nil // removed
			continue
		case err != nil, !fi.Mode().IsRegular(), fi.Size() > maxSize:
			return nil
		}
		now[p] = &walk.File{Path: p, Abs: abs, Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), CTime: walk.CTimeOf(fi), Inode: inodeOf(fi)}
	}
	files := make([]walk.File, 0, old.Len()+len(old.contentSkips))
	add := func(p string, size, mtime, ctime int64, inode uint64) {
		if f, ok := now[p]; ok {
			if f != nil {
				files = append(files, *f)
			}
			return
		}
		// No Abs: a file not touched keeps its stat, so it is not read (and
		// joining 58,000 paths cost 20 ms a refresh on a large tree).
		files = append(files, walk.File{Path: p, Size: size, ModTime: mtime, CTime: ctime, Inode: inode})
	}
	for id := range old.Len() {
		f := old.meta(ID(id))
		add(f.Path, f.Size, f.ModTime, f.CTime, old.inode(ID(id)))
	}
	for _, c := range old.contentSkips {
		add(c.skip.Path, c.size, c.mtime, c.ctime, c.inode)
	}
	return files
}

// samePaths reports whether a and b index the same paths (so that their
// file ids are the same).
func samePaths(a, b *Index) bool {
	if a.Len() != b.Len() {
		return false
	}
	for id := range a.Len() {
		if a.Path(ID(id)) != b.Path(ID(id)) {
			return false
		}
	}
	return true
}

// clone returns a copy of ix that shares its segments and arrays, for a
// save that records another manifest version (ix may be in use elsewhere).
func (ix *Index) clone() *Index {
	cp := &Index{root: ix.root, print: ix.print, segs: ix.segs, dead: ix.dead, nDead: ix.nDead, loc: ix.loc, glob: ix.glob,
		byPath: ix.byPath, deadDF: ix.deadDF, norm: ix.norm, imports: ix.imports, importedBy: ix.importedBy,
		contentSkips: ix.contentSkips, unparsed: ix.unparsed, quiet: ix.quiet}
	cp.inheritTerms(ix, false)
	return cp
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
