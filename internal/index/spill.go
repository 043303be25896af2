package index

import (
	"context"
	"os"
	"path/filepath"

	"github.com/hone-dev/hone/internal/walk"
)

// Bounded builds. What a parse gives (terms and counts per file, tags,
// imports, the workers' dictionaries) takes about one and a half times the
// source in memory, and a segment under construction holds all of it until
// it is laid out. A large tree read at once, a first index or a checkout
// far away, is therefore cut into chunks by bytes of source: each chunk but
// the last is parsed, built into a segment of its own, written to the cache
// directory and read back in its stored form (arrays in one buffer, tags
// decoded on use), so that what its parse and build held is garbage before
// the next chunk starts. The last chunk goes on as any change does (it
// becomes the new segment, absorbing the small ones beside it). The chunks
// are the index's segments like any other, searched together and answering
// as one index built from scratch; there are at most maxChunks of them, so
// that with the later edits' small segments the index stays within
// maxSegments without folding a chunk back in.
const maxChunks = maxSegments / 2

// chunkBytes is the least source a chunk holds: a read of less is not cut.
// A variable, so that tests can cut small trees.
var chunkBytes int64 = 64 << 20

// chunkPlan cuts files into consecutive chunks of at least chunkBytes of
// source each (the last may hold less), at most maxChunks of them, as even
// as those allow; it returns each chunk's end in files.
func chunkPlan(files []walk.File) []int {
	var total int64
	for _, f := range files {
		total += f.Size
	}
	per := max(chunkBytes, (total+maxChunks-1)/maxChunks)
	var ends []int
	var acc int64
	for i, f := range files {
		acc += f.Size
		if acc >= per && i+1 < len(files) && len(ends) < maxChunks-1 {
			ends = append(ends, i+1)
			acc = 0
		}
	}
	return append(ends, len(files))
}

// spill parses files into a segment, writes it beside the manifest p and
// returns it as read back from its file, with the files whose content was
// refused. A segment that cannot be written or read back is returned as
// built (save writes it, or warns). sg is nil when no file was kept.
func spill(ctx context.Context, files []walk.File, p string, print uint64, workers int, inPlace bool, rs *records, lexical func(string) bool, progress func(done, total int)) (sg *segment, skips []contentSkip, parsedN, recalledN, lexicalN int, err error) {
	// Named first: the records store points the files parsed at it.
	name := newSegmentName(p)
	if rs != nil {
		rs.setTarget(name)
	}
	parsed, err := parseAll(ctx, files, workers, rs, lexical, progress)
	if err != nil {
		return nil, nil, 0, 0, 0, err
	}
	skips, _ = refused(nil, parsed, files)
	b := newBuilder(len(files), nil)
	parsedN, recalledN, lexicalN = b.addKept(parsed)
	parsed = nil
	if len(b.recs) == 0 {
		return nil, skips, 0, 0, 0, nil
	}
	sg = b.finish()
	sg.name = name
	sp := filepath.Join(filepath.Dir(p), sg.name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return sg, skips, parsedN, recalledN, lexicalN, nil
	}
	buf, err := sg.encode(print)
	if err != nil {
		return sg, skips, parsedN, recalledN, lexicalN, nil
	}
	if _, err := replaceFile(sp, buf); err != nil {
		return sg, skips, parsedN, recalledN, lexicalN, nil
	}
	sg.size.Store(int64(len(buf)))
	if back, err := loadSegment(sp, len(sg.files), print, inPlace); err == nil {
		sg = back
	}
	if afterSpill != nil {
		afterSpill(sp)
	}
	return sg, skips, parsedN, recalledN, lexicalN, nil
}

// afterSpill, when set (by tests), is called with each spilled segment's
// file: a concurrent save of the same root may collect that file before
// this Open's manifest names it, and save must then write it again from
// memory.
var afterSpill func(path string)

// offsetProgress reports a chunk's progress as part of the whole read.
func offsetProgress(progress func(done, total int), off, total int) func(done, total int) {
	if progress == nil {
		return nil
	}
	return func(done, _ int) { progress(off+done, total) }
}
