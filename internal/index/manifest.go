package index

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hone-dev/hone/internal/walk"
)

// segRef is a segment as the manifest names it.
type segRef struct {
	name  string
	size  int64
	files int
	dead  []int32
}

// newSegmentName returns a fresh segment file name for the manifest at p.
func newSegmentName(p string) string {
	var b [8]byte
	rand.Read(b[:])
	return strings.TrimSuffix(filepath.Base(p), ".bin") + "-" + hex.EncodeToString(b[:]) + ".seg"
}

// encodeManifest serialises the manifest of ix, whose segments are written
// (each has its name and size).
func (ix *Index) encodeManifest() []byte {
	var e encoder
	e.str(ix.root)
	e.uv(uint64(len(ix.segs)))
	for s, sg := range ix.segs {
		e.str(sg.name)
		e.uv(uint64(sg.size.Load()))
		e.uv(uint64(len(sg.files)))
		e.uv(uint64(ix.nDead[s]))
		prev := int32(0)
		for d, x := range ix.dead[s] {
			if x {
				e.uv(uint64(int32(d) - prev))
				prev = int32(d)
			}
		}
	}
	e.uv(uint64(ix.Len()))
	for _, imps := range ix.imports {
		e.uv(uint64(len(imps)))
		prev := ID(0)
		for _, id := range imps {
			e.uv(uint64(id - prev))
			prev = id
		}
	}
	e.uv(uint64(len(ix.contentSkips)))
	for _, c := range ix.contentSkips {
		e.str(c.skip.Path)
		e.uv(uint64(c.skip.Reason))
		e.str(c.skip.Detail)
		e.v(c.size)
		e.v(c.mtime)
		e.v(c.ctime)
		e.uv(c.inode)
	}
	encodeQuiet(&e, ix.quiet)
	out := make([]byte, manifestHead, manifestHead+len(e.b))
	out = append(out, e.b...)
	copy(out, cacheMagic)
	binary.LittleEndian.PutUint32(out[8:], formatVersion)
	binary.LittleEndian.PutUint32(out[12:], crc32.Checksum(out[manifestHead:], crcTable))
	binary.LittleEndian.PutUint64(out[16:], ix.printOf())
	binary.LittleEndian.PutUint64(out[24:], exeStamp())
	return out
}

// manifest is a decoded manifest.
type manifest struct {
	print uint64 // the extractor fingerprint its segments carry
	// own: the running executable wrote it (its stamp is exeStamp's).
	// Only then is its fingerprint taken on trust, and its directories
	// (quiet) kept: another build of hone may leave out other names as
	// generated, vendored, binary or data, or match ignore patterns
	// otherwise, so a walk does not start from its record.
	own     bool
	segs    []segRef
	files   int
	imports [][]ID
	skips   []contentSkip
	quiet   walk.Memo
}

// decodeManifest checks and decodes the manifest in buf for root.
func decodeManifest(buf []byte, root string) (*manifest, error) {
	return decodeManifestPrint(buf, root, true)
}

// manifestRead is a manifest read ahead of the walk (readManifest), which
// load then uses instead of reading and decoding the file again.
type manifestRead struct {
	buf []byte
	fi  os.FileInfo
	// head says the head and checksum passed (checkHead), so that load
	// checks the fingerprint before any error of the body, as
	// decodeManifest does.
	head bool
	m    *manifest // decoded without the fingerprint's check
	err  error
}

// readManifest reads and decodes the manifest at p for root without
// checking the extractor's fingerprint: the quiet directories the walk
// starts from do not depend on it, and load checks it. The manifest is
// small; reading it costs a read and a decode.
func readManifest(p, root string) *manifestRead {
	r := &manifestRead{}
	if r.buf, r.err = os.ReadFile(p); r.err != nil {
		return r
	}
	if r.fi, r.err = os.Stat(p); r.err != nil {
		return r
	}
	if r.m, r.err = checkHead(r.buf); r.err != nil {
		return r
	}
	r.head = true
	r.err = r.m.decodeBody(r.buf[manifestHead:], root)
	return r
}

// quiet returns the directories the manifest recorded, or nil when it
// recorded none or another executable wrote it (see manifest.own).
func (r *manifestRead) quiet() walk.Memo {
	if r.err != nil {
		return nil
	}
	return r.m.quiet
}

// decodeManifestPrint is decodeManifest; checkPrint says whether the
// extractor's fingerprint must be the running one's.
func decodeManifestPrint(buf []byte, root string, checkPrint bool) (*manifest, error) {
	m, err := checkHead(buf)
	if err != nil {
		return nil, err
	}
	if checkPrint {
		if err := m.checkPrint(); err != nil {
			return nil, err
		}
	}
	return m, m.decodeBody(buf[manifestHead:], root)
}

// checkHead checks the manifest's head and checksum and returns a manifest
// holding the extractor's fingerprint.
func checkHead(buf []byte) (*manifest, error) {
	if len(buf) < manifestHead || string(buf[:8]) != cacheMagic {
		return nil, errCorrupt
	}
	if binary.LittleEndian.Uint32(buf[8:]) != formatVersion {
		return nil, errStale
	}
	body := buf[manifestHead:]
	if crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(buf[12:]) {
		return nil, errCorrupt
	}
	s := exeStamp()
	return &manifest{print: binary.LittleEndian.Uint64(buf[16:]), own: s != 0 && binary.LittleEndian.Uint64(buf[24:]) == s}, nil
}

// checkPrint reports errStale unless m's fingerprint is the running
// extractor's: taken on trust when this executable stamped the manifest
// (own), computed otherwise.
func (m *manifest) checkPrint() error {
	want := m.print
	if !m.own {
		want = extractorPrint()
	}
	if m.print != want {
		return errStale
	}
	return nil
}

// decodeBody decodes the manifest's body into m.
func (m *manifest) decodeBody(body []byte, root string) error {
	d := &decoder{b: body}
	if r := d.str(); d.err == nil && r != root {
		return fmt.Errorf("index: cache belongs to %q, not %q", r, root)
	}
	rest := len(body)
	m.segs = make([]segRef, d.count(rest))
	for i := range m.segs {
		r := &m.segs[i]
		r.name = d.str()
		r.size = int64(d.count(1 << 62))
		r.files = d.count(1 << 31)
		r.dead = make([]int32, d.count(r.files))
		at := int32(0)
		for j := range r.dead {
			at += int32(d.count(r.files))
			if at >= int32(r.files) || (j > 0 && at <= r.dead[j-1]) {
				d.fail()
				break
			}
			r.dead[j] = at
		}
		if r.name != filepath.Base(r.name) || !strings.HasSuffix(r.name, ".seg") {
			d.fail()
		}
	}
	m.files = d.count(rest)
	// Every file's imports in one backing array: ends[i] is where file i's
	// end.
	m.imports = make([][]ID, m.files)
	var back []ID
	ends := make([]int, m.files)
	for i := 0; i < m.files && d.err == nil; i++ {
		c := d.count(m.files)
		at := ID(0)
		for range c {
			at += ID(d.count(m.files))
			if at >= ID(m.files) {
				d.fail()
				break
			}
			back = append(back, at)
		}
		ends[i] = len(back)
	}
	if d.err == nil {
		from := 0
		for i, to := range ends {
			if to > from {
				m.imports[i] = back[from:to:to]
			}
			from = to
		}
	}
	m.skips = make([]contentSkip, d.count(rest))
	for i := range m.skips {
		c := &m.skips[i]
		c.skip.Path = d.str()
		c.skip.Reason = walk.SkipReason(d.uv())
		c.skip.Detail = d.str()
		c.size = d.v()
		c.mtime = d.v()
		c.ctime = d.v()
		c.inode = d.uv()
	}
	// Decoded whoever wrote it, so that a damaged record is found alike.
	if m.quiet = decodeQuiet(d); !m.own {
		m.quiet = nil
	}
	if d.err == nil && d.i != len(d.b) {
		d.fail()
	}
	return d.err
}

// load reads the manifest at p for root and the segments it names, taking
// from prev (an earlier index of root, or nil) each segment it already
// holds rather than reading its file again. A missing manifest yields an
// error satisfying errors.Is(err, fs.ErrNotExist). A segment that cannot be
// read is left out with a warning (its files are then new to the caller);
// the import graph is then left nil, to be resolved again. The returned
// index remembers the manifest it came from (see Index.heldBy). early, when
// not nil, is the manifest as Open read it ahead of the walk (readManifest):
// it is checked and used instead of a second read.
func load(p, root string, prev *Index, inPlace bool, warn func(string, ...any), early *manifestRead) (*Index, error) {
	if early == nil {
		early = readManifest(p, root)
	}
	buf, fi, m, err := early.buf, early.fi, early.m, early.err
	if early.head {
		// The fingerprint's check comes before the body's, as in
		// decodeManifest: a manifest of another extractor is stale
		// whatever its body.
		if perr := m.checkPrint(); perr != nil {
			err = perr
		}
	}
	if err != nil {
		return nil, err
	}
	have := map[string]*segment{}
	if prev != nil {
		for _, sg := range prev.segs {
			have[sg.name] = sg
		}
	}
	var segs []*segment
	var dead [][]bool
	whole := true
	for _, r := range m.segs {
		sg := have[r.name]
		if sg == nil || len(sg.files) != r.files {
			sg, err = loadSegment(filepath.Join(filepath.Dir(p), r.name), r.files, m.print, inPlace)
			if err != nil {
				whole = false
				if errors.As(err, new(*fs.PathError)) {
					err = errors.New("missing")
				}
				warn("index: cache segment %s unusable (%v); its files are parsed again", r.name, err)
				continue
			}
		}
		segs = append(segs, sg)
		var dd []bool
		if len(r.dead) > 0 {
			dd = make([]bool, r.files)
			for _, d := range r.dead {
				dd[d] = true
			}
		}
		dead = append(dead, dd)
	}
	ix := newIndex(root, segs, dead, m.skips)
	ix.print = m.print
	ix.quiet = m.quiet
	if prev != nil {
		ix.inheritTerms(prev, false)
	}
	if whole && ix.Len() == m.files {
		ix.imports = m.imports
		ix.invertGraph()
	}
	ix.file = fi
	if s := exeStamp(); s != 0 && binary.LittleEndian.Uint64(buf[24:]) != s && ix.imports != nil {
		// Best effort: a later run checks the fingerprint again.
		if nfi, err := restamp(p, buf, fi, s); err == nil && nfi != nil {
			ix.file = nfi
		}
	}
	return ix, nil
}

// restamp replaces the manifest at p, whose bytes are buf (the version fi),
// with a copy carrying stamp, and returns the new file's info: a cache
// written by another executable (an older build of hone) is accepted by
// running the extractor on probes, tens of milliseconds that every later
// warm run would pay again. It does nothing (nil info) if p changed
// meanwhile, and replaces p by rename, never in place (another process may
// be reading it).
func restamp(p string, buf []byte, fi os.FileInfo, stamp uint64) (os.FileInfo, error) {
	unlock, err := lockFile(p + ".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if cur, err := os.Stat(p); err != nil || !sameVersion(cur, fi) {
		return nil, err
	}
	hdr := slices.Clone(buf[:manifestHead])
	binary.LittleEndian.PutUint64(hdr[24:], stamp)
	return replaceFile(p, hdr, buf[manifestHead:])
}

// save writes ix to the manifest p under an exclusive lock on p.lock: first
// each segment whose file is not there (a new one, or one someone removed
// or cut), then the manifest, each atomically (a temporary file renamed into
// place), so that concurrent hone processes never leave a torn file. Then it
// removes the files of root's cache that neither the new manifest nor the
// one it replaced names (older segments, temporary files of a killed
// process); the replaced manifest's segments go at the next save or sweep.
// It records in ix the manifest written.
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
	keep := map[string]bool{filepath.Base(p): true, filepath.Base(p) + ".lock": true}
	// The segments of the manifest being replaced stay one generation: a
	// process that has just read it may be reading them.
	if old, err := os.ReadFile(p); err == nil {
		if m, err := decodeManifest(old, ix.root); err == nil {
			for _, r := range m.segs {
				keep[r.name] = true
			}
		}
	}
	for _, sg := range ix.segs {
		keep[sg.name] = true
		sp := filepath.Join(dir, sg.name)
		if fi, err := os.Stat(sp); err == nil && sg.size.Load() == fi.Size() {
			continue
		}
		b, err := sg.encode(ix.printOf())
		if err != nil {
			return err
		}
		if _, err := replaceFile(sp, b); err != nil {
			return err
		}
		sg.size.Store(int64(len(b)))
	}
	fi, err := replaceFile(p, ix.encodeManifest())
	ix.file = fi
	if err != nil {
		return err
	}
	// Collect what no manifest of this root names any more. A process that
	// read the old manifest and has yet to read one of these segments finds
	// it missing and parses its files again.
	removeUnnamed(p, keep, 0)
	return nil
}

// removeUnnamed removes the files of the cache of the manifest at p that
// keep does not name (the manifest and its lock are named by the callers);
// with olderThan > 0, only regular files last written longer ago than that.
// The caller holds p's lock.
func removeUnnamed(p string, keep map[string]bool, olderThan time.Duration) {
	dir := filepath.Dir(p)
	prefix := strings.TrimSuffix(filepath.Base(p), ".bin")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, prefix) || keep[n] {
			continue
		}
		if olderThan > 0 {
			if fi, err := e.Info(); err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) <= olderThan {
				continue
			}
		}
		os.Remove(filepath.Join(dir, n))
	}
}

// staleAfter is how long a segment that root's manifest no longer names is
// kept for a process that read the manifest before (see save): such a
// process opens its segments as it loads them, in milliseconds.
const staleAfter = time.Minute

// sweep removes, when no process is writing root's cache, the files of it
// that the manifest at p (describing ix) does not name and that were last
// written more than staleAfter ago: the generation save keeps for readers,
// which would otherwise stay until the next save (after a first answer's
// index is completed, about three fifths of the index again on django, and
// warm runs save nothing). It is called by an Open that found the index
// up to date; it never waits for the lock.
func sweep(p string, ix *Index) {
	unlock, held, err := TryLockManifest(p)
	if err != nil || !held {
		return
	}
	defer unlock()
	keep := map[string]bool{filepath.Base(p): true, filepath.Base(p) + ".lock": true}
	for _, sg := range ix.segs {
		keep[sg.name] = true
	}
	removeUnnamed(p, keep, staleAfter)
}

// encodeQuiet appends the quiet and listed directories: count, then per
// directory in path order its path, inode, mtime, ctime (varints), the
// chain's fingerprint (8 bytes), its ignore files (count, names; a quiet
// directory has none) and its items: count, then per item 0 and a skip
// (path, reason, detail), 1 and a subdirectory's name, 2 and a file's or 3
// and a symbolic link's; a flag (0 or 1) says whether it is listed.
func encodeQuiet(e *encoder, q walk.Memo) {
	paths := make([]string, 0, len(q))
	for p := range q {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	e.uv(uint64(len(paths)))
	for _, p := range paths {
		d := q[p]
		e.str(p)
		e.uv(d.Ino)
		e.v(d.MTime)
		e.v(d.CTime)
		e.b = binary.LittleEndian.AppendUint64(e.b, d.Chain)
		e.uv(uint64(len(d.Ignores)))
		for _, name := range d.Ignores {
			e.str(name)
		}
		e.uv(uint64(len(d.Items)))
		for _, it := range d.Items {
			switch {
			case it.Sub != "":
				e.uv(1)
				e.str(it.Sub)
			case it.File != "":
				e.uv(2)
				e.str(it.File)
			case it.Link != "":
				e.uv(3)
				e.str(it.Link)
			default:
				e.uv(0)
				e.str(it.Skip.Path)
				e.uv(uint64(it.Skip.Reason))
				e.str(it.Skip.Detail)
			}
		}
		listed := uint64(0)
		if d.Listed {
			listed = 1
		}
		e.uv(listed)
	}
}

// name reads the name of a directory's entry: one path element, or the
// record is corrupt (a walk from it opens, stats and reads what it names,
// and must not leave the tree).
func (d *decoder) name() string {
	s := d.str()
	if s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/\x00") {
		d.fail()
		return ""
	}
	return s
}

// quietChunk is how many items decodeQuiet allocates at once.
const quietChunk = 4096

// decodeQuiet reads what encodeQuiet wrote.
func decodeQuiet(d *decoder) walk.Memo {
	n := d.count(len(d.b) - d.i)
	if n == 0 || d.err != nil {
		return nil
	}
	q := make(walk.Memo, n)
	if d.i < len(d.b) {
		d.s, d.sAt = string(d.b[d.i:]), d.i // the names share one string
		defer func() { d.s = "" }()
	}
	// One allocation for the directories, and items taken from chunks:
	// tens of thousands of small allocations were most of the decode, which
	// a warm run waits for before it walks.
	dirs := make([]walk.QuietDir, n)
	var chunk []walk.QuietItem
	for j := range n {
		p := d.str()
		qd := &dirs[j]
		*qd = walk.QuietDir{Ino: d.uv(), MTime: d.v(), CTime: d.v(), Chain: d.u64()}
		if n := d.count(len(d.b) - d.i); n > 0 {
			qd.Ignores = make([]string, n)
			for i := range qd.Ignores {
				qd.Ignores[i] = d.name()
			}
		}
		k := d.count(len(d.b) - d.i)
		if k > cap(chunk)-len(chunk) {
			chunk = make([]walk.QuietItem, 0, max(k, quietChunk))
		}
		qd.Items = chunk[len(chunk) : len(chunk)+k : len(chunk)+k]
		chunk = chunk[:len(chunk)+k]
		for i := range qd.Items {
			switch d.uv() {
			case 1:
				qd.Items[i].Sub = d.name()
			case 2:
				qd.Items[i].File = d.name()
			case 3:
				qd.Items[i].Link = d.name()
			case 0:
				qd.Items[i].Skip = walk.Skip{Path: d.str(), Reason: walk.SkipReason(d.uv()), Detail: d.str()}
			default:
				d.fail()
			}
		}
		switch d.uv() {
		case 0:
		case 1:
			qd.Listed = true
		default:
			d.fail()
		}
		if d.err != nil {
			return nil
		}
		q[p] = qd
	}
	return q
}
