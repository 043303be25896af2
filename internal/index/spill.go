package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hone-dev/hone/internal/walk"
)

// Bounded builds. What a parse gives (terms and counts per file, tags,
// imports, the workers' dictionaries) takes about one and a half times the
// source in memory, and a segment under construction holds all of it until
// it is laid out. A large tree read at once, a first index or a checkout
// far away, is therefore cut into chunks by bytes of source: each chunk is
// parsed, built into a segment of its own and written to the cache
// directory, so that what its parse and build held is garbage before the
// next chunk starts; the chunks are read back in their stored form (arrays
// in one buffer, tags decoded on use) once the last is built, so that none
// sits beside a parse. Over an index, the last chunk goes on as any change
// does (it becomes the new segment, absorbing the small ones beside it). The chunks
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

// spilledSegment is a chunk written as a segment: its file, held open, to
// be read back (read) once the build's last chunk is built, so that the
// chunks read back do not sit beside the last one's parse, the build's
// peak of memory; or, when it could not be written or opened, the segment
// as built (save writes it, or warns).
type spilledSegment struct {
	f     *os.File
	files int
	print uint64
	built *segment
}

// read returns the segment: read back from its file (in place with
// inPlace), or as built.
func (s *spilledSegment) read(inPlace bool) (*segment, error) {
	if s.built != nil {
		return s.built, nil
	}
	sg, err := loadSegmentFrom(s.f, s.files, s.print, inPlace)
	if err != nil {
		return nil, fmt.Errorf("index: read back chunk %s: %w", filepath.Base(s.f.Name()), err)
	}
	return sg, nil
}

// close closes the file of a segment never read back (a build that failed).
func (s *spilledSegment) close() {
	if s.built == nil && s.f != nil {
		s.f.Close()
		s.f = nil
	}
}

// spill parses files into a segment, writes it beside the manifest p and
// returns it to be read back, with the files whose content was refused.
// A segment that cannot be written or opened is returned as built. sg is
// nil when no file was kept.
func spill(ctx context.Context, files []walk.File, p string, print uint64, workers int, rs *records, lexical func(string) bool, progress func(done, total int)) (sg *spilledSegment, skips []contentSkip, parsedN, recalledN, lexicalN int, err error) {
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
	built := b.finish()
	built.name = name
	sg = &spilledSegment{built: built}
	sp := filepath.Join(filepath.Dir(p), built.name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return sg, skips, parsedN, recalledN, lexicalN, nil
	}
	buf, err := built.encode(print)
	if err != nil {
		return sg, skips, parsedN, recalledN, lexicalN, nil
	}
	if _, err := replaceFile(sp, buf); err != nil {
		return sg, skips, parsedN, recalledN, lexicalN, nil
	}
	built.size.Store(int64(len(buf)))
	// Held open: another process's save may remove the file before this
	// Open's manifest names it (then this save writes it again).
	if f, err := os.Open(sp); err == nil {
		sg = &spilledSegment{f: f, files: len(built.files), print: print}
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
