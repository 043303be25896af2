package index

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"os"
	"path/filepath"
	"sync"

	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/internal/walk"
)

// The cache file, one per repository, is named index-<hash of the absolute
// root>.bin. It is little-endian:
//
//	header (40 bytes):
//	  magic      [8]byte  "HONEIDX\n"
//	  version    uint32   formatVersion
//	  crc        uint32   CRC-32C of everything after the header
//	  extractor  uint64   fingerprint of the syntax extractor (see extractorPrint)
//	  lenMeta    uint64   byte length of the meta section
//	  lenFwd     uint64   byte length of the forward section
//	meta section (uvarints unless noted; strings are uvarint length + bytes):
//	  root string
//	  strings: count, total bytes, each length, the bytes  (paths, languages,
//	           tag names, kinds, imports; index 0 is "")
//	  terms:   same layout, sorted
//	  files:   count, total defs, total refs, total imports, then per file:
//	           path, lang (string ids), size, mtime (varint), inode,
//	           len per field, defs and refs (count, then name, parent, kind
//	           string ids and line each), imports (count, string ids),
//	           resolved imports (count, file ids)
//	  content skips: count, then path, reason, detail (strings), size, mtime
//	           (varint), inode
//	forward section:
//	  terms count, files count, pairs count, then per file: pair count and
//	  for each pair (by increasing term id): term id delta, c<<2 | p<<1 | s
//	  where c is the content count and p, s flag a path and a symbols count
//	  that follow.
//
// Postings and norms are not stored: they are rebuilt from the forward index
// on load (a counting sort, a few milliseconds on django), in parallel with
// the meta section's decoding. A file that fails any check (magic, version,
// extractor, checksum, root, bounds) is not used.
const (
	cacheMagic    = "HONEIDX\n"
	formatVersion = 1
	headerSize    = 40
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errStale marks a cache written by another format or extractor.
var errStale = errors.New("index: cache is of another version")

// cachePath returns the cache file for root.
func cachePath(dir, root string) (string, error) {
	if dir == "" {
		dir = os.Getenv("HONE_CACHE_DIR")
	}
	if dir == "" {
		ucd, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("index: no cache directory: %w", err)
		}
		dir = filepath.Join(ucd, "hone")
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(dir, "index-"+hex.EncodeToString(sum[:8])+".bin"), nil
}

var (
	printOnce sync.Once
	printVal  uint64
)

// extractorPrint fingerprints the syntax extractor by its output on a few
// small probes, so that a cache written by an older extractor is rebuilt.
func extractorPrint() uint64 {
	printOnce.Do(func() {
		h := fnv.New64a()
		probes := []struct{ path, src string }{
			{"p/m.py", "import os\nfrom .a import b\nclass A(B):\n    def f(self):\n        g()\n"},
			{"p/m.go", "package m\nimport \"fmt\"\ntype T struct{}\nfunc (T) F() { fmt.Println() }\n"},
			{"p/m.ts", "import { a } from './a'\nexport class C { m(): void { a() } }\n"},
		}
		for _, p := range probes {
			r, err := syntax.Extract(p.path, []byte(p.src))
			fmt.Fprintf(h, "%s|%v|%v|%v|%v|%v\n", p.path, r.Lang, r.Defs, r.Refs, r.Imports, err)
		}
		printVal = h.Sum64()
	})
	return printVal
}

// encoder appends varints and strings.
type encoder struct{ b []byte }

func (e *encoder) uv(x uint64)  { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) v(x int64)    { e.b = binary.AppendVarint(e.b, x) }
func (e *encoder) str(s string) { e.uv(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) table(s []string) {
	total := 0
	for _, x := range s {
		total += len(x)
	}
	e.uv(uint64(len(s)))
	e.uv(uint64(total))
	for _, x := range s {
		e.uv(uint64(len(x)))
	}
	for _, x := range s {
		e.b = append(e.b, x...)
	}
}

// encode serialises ix.
func (ix *Index) encode() []byte {
	sids := map[string]uint64{"": 0}
	strs := []string{""}
	sid := func(s string) uint64 {
		if id, ok := sids[s]; ok {
			return id
		}
		id := uint64(len(strs))
		sids[s] = id
		strs = append(strs, s)
		return id
	}
	var files encoder
	var nDefs, nRefs, nImps int
	for i := range ix.files {
		f := &ix.files[i]
		nDefs += len(f.Defs)
		nRefs += len(f.Refs)
		nImps += len(f.Imports)
	}
	files.uv(uint64(len(ix.files)))
	files.uv(uint64(nDefs))
	files.uv(uint64(nRefs))
	files.uv(uint64(nImps))
	tags := func(ts []syntax.Tag) {
		files.uv(uint64(len(ts)))
		for _, t := range ts {
			files.uv(sid(t.Name))
			files.uv(sid(t.Parent))
			files.uv(sid(t.Kind))
			files.uv(uint64(max(t.Line, 0)))
		}
	}
	for i := range ix.files {
		f := &ix.files[i]
		files.uv(sid(f.Path))
		files.uv(sid(f.Lang))
		files.v(f.Size)
		files.v(f.ModTime)
		files.uv(ix.inodes[i])
		for _, l := range f.Len {
			files.uv(uint64(l))
		}
		tags(f.Defs)
		tags(f.Refs)
		files.uv(uint64(len(f.Imports)))
		for _, s := range f.Imports {
			files.uv(sid(s))
		}
		files.uv(uint64(len(ix.imports[i])))
		for _, id := range ix.imports[i] {
			files.uv(uint64(id))
		}
	}
	files.uv(uint64(len(ix.contentSkips)))
	for _, c := range ix.contentSkips {
		files.uv(sid(c.skip.Path))
		files.uv(uint64(c.skip.Reason))
		files.uv(sid(c.skip.Detail))
		files.v(c.size)
		files.v(c.mtime)
		files.uv(c.inode)
	}

	var meta encoder
	meta.str(ix.root)
	meta.table(strs)
	meta.table(ix.terms)
	meta.b = append(meta.b, files.b...)

	fwd := encoder{b: make([]byte, 0, len(ix.fwdTerm)*3)}
	fwd.uv(uint64(len(ix.terms)))
	fwd.uv(uint64(len(ix.files)))
	fwd.uv(uint64(len(ix.fwdTerm)))
	for d := range ix.files {
		lo, hi := ix.fwdOff[d], ix.fwdOff[d+1]
		fwd.uv(uint64(hi - lo))
		prev := int32(-1)
		for i := lo; i < hi; i++ {
			t, tf := ix.fwdTerm[i], ix.fwdTF[i]
			fwd.uv(uint64(t - prev))
			prev = t
			x := uint64(tf[FieldContent]) << 2
			if tf[FieldPath] > 0 {
				x |= 2
			}
			if tf[FieldSymbols] > 0 {
				x |= 1
			}
			fwd.uv(x)
			if tf[FieldPath] > 0 {
				fwd.uv(uint64(tf[FieldPath]))
			}
			if tf[FieldSymbols] > 0 {
				fwd.uv(uint64(tf[FieldSymbols]))
			}
		}
	}

	out := make([]byte, headerSize, headerSize+len(meta.b)+len(fwd.b))
	out = append(out, meta.b...)
	out = append(out, fwd.b...)
	copy(out, cacheMagic)
	binary.LittleEndian.PutUint32(out[8:], formatVersion)
	binary.LittleEndian.PutUint32(out[12:], crc32.Checksum(out[headerSize:], castagnoli))
	binary.LittleEndian.PutUint64(out[16:], extractorPrint())
	binary.LittleEndian.PutUint64(out[24:], uint64(len(meta.b)))
	binary.LittleEndian.PutUint64(out[32:], uint64(len(fwd.b)))
	return out
}

// decoder reads what encoder wrote; the first error sticks.
type decoder struct {
	b   []byte
	i   int
	err error
}

var errCorrupt = errors.New("index: cache is corrupt")

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.i = len(d.b)
}

func (d *decoder) uv() uint64 {
	if d.i < len(d.b) && d.b[d.i] < 0x80 {
		x := d.b[d.i]
		d.i++
		return uint64(x)
	}
	x, n := binary.Uvarint(d.b[d.i:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.i += n
	return x
}

func (d *decoder) v() int64 {
	x, n := binary.Varint(d.b[d.i:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.i += n
	return x
}

// count reads a count that must not exceed limit.
func (d *decoder) count(limit int) int {
	x := d.uv()
	if x > uint64(limit) {
		d.fail()
		return 0
	}
	return int(x)
}

func (d *decoder) str() string {
	n := d.count(len(d.b) - d.i)
	s := string(d.b[d.i : d.i+n])
	d.i += n
	return s
}

// table reads a string table into substrings of one allocation.
func (d *decoder) table() []string {
	n := d.count(len(d.b) - d.i)
	total := d.count(len(d.b) - d.i)
	lens := make([]int, n)
	sum := 0
	for i := range lens {
		lens[i] = d.count(total)
		sum += lens[i]
	}
	if d.err != nil || sum != total || total > len(d.b)-d.i {
		d.fail()
		return nil
	}
	all := string(d.b[d.i : d.i+total])
	d.i += total
	out := make([]string, n)
	at := 0
	for i, l := range lens {
		out[i] = all[at : at+l]
		at += l
	}
	return out
}

// load reads the cache at p for root. A missing file yields an error
// satisfying errors.Is(err, fs.ErrNotExist).
func load(p, root string) (*Index, error) {
	buf, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return decode(buf, root)
}

func decode(buf []byte, root string) (*Index, error) {
	if len(buf) < headerSize || string(buf[:8]) != cacheMagic {
		return nil, errCorrupt
	}
	if binary.LittleEndian.Uint32(buf[8:]) != formatVersion || binary.LittleEndian.Uint64(buf[16:]) != extractorPrint() {
		return nil, errStale
	}
	lenMeta, lenFwd := binary.LittleEndian.Uint64(buf[24:]), binary.LittleEndian.Uint64(buf[32:])
	body := buf[headerSize:]
	if lenMeta > uint64(len(body)) || lenFwd != uint64(len(body))-lenMeta {
		return nil, errCorrupt
	}
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(buf[12:]) {
		return nil, errCorrupt
	}
	ix := &Index{}
	// The forward section and postings decode beside the meta section.
	var fwdErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		fwdErr = ix.decodeForward(body[lenMeta:])
	}()
	metaErr := ix.decodeMeta(body[:lenMeta], root)
	wg.Wait()
	if metaErr != nil {
		return nil, metaErr
	}
	if fwdErr != nil {
		return nil, fwdErr
	}
	if len(ix.fwdOff) != len(ix.files)+1 || len(ix.postOff) != len(ix.terms)+1 {
		return nil, errCorrupt
	}
	ix.deriveFiles()
	ix.invertGraph()
	return ix, nil
}

func (ix *Index) decodeMeta(b []byte, root string) error {
	d := &decoder{b: b}
	if r := d.str(); r != root {
		if d.err != nil {
			return d.err
		}
		return fmt.Errorf("index: cache belongs to %q, not %q", r, root)
	}
	ix.root = root
	strs := d.table()
	ix.terms = d.table()
	if d.err != nil {
		return d.err
	}
	str := func() string {
		i := d.uv()
		if i >= uint64(len(strs)) {
			d.fail()
			return ""
		}
		return strs[i]
	}
	rest := len(b)
	n := d.count(rest)
	nDefs, nRefs, nImps := d.count(rest), d.count(rest), d.count(rest)
	if d.err != nil {
		return d.err
	}
	tagBuf := make([]syntax.Tag, nDefs+nRefs)
	impBuf := make([]string, nImps)
	ix.files = make([]File, n)
	ix.inodes = make([]uint64, n)
	ix.imports = make([][]ID, n)
	tags := func() []syntax.Tag {
		c := d.count(len(tagBuf))
		if c == 0 {
			return nil
		}
		ts := tagBuf[:c:c]
		tagBuf = tagBuf[c:]
		for i := range ts {
			ts[i] = syntax.Tag{Name: str(), Parent: str(), Kind: str(), Line: int(d.uv())}
		}
		return ts
	}
	for i := 0; i < n && d.err == nil; i++ {
		f := &ix.files[i]
		f.Path = str()
		f.Lang = str()
		f.Size = d.v()
		f.ModTime = d.v()
		ix.inodes[i] = d.uv()
		for j := range f.Len {
			f.Len[j] = int32(d.count(1 << 31))
		}
		f.Defs = tags()
		f.Refs = tags()
		if c := d.count(len(impBuf)); c > 0 {
			f.Imports = impBuf[:c:c]
			impBuf = impBuf[c:]
			for j := range f.Imports {
				f.Imports[j] = str()
			}
		}
		if c := d.count(n); c > 0 {
			ids := make([]ID, c)
			for j := range ids {
				ids[j] = ID(d.count(n - 1))
			}
			ix.imports[i] = ids
		}
	}
	nSkips := d.count(rest)
	if d.err == nil && nSkips > 0 {
		ix.contentSkips = make([]contentSkip, nSkips)
		for i := range ix.contentSkips {
			c := &ix.contentSkips[i]
			c.skip.Path = str()
			c.skip.Reason = walk.SkipReason(d.uv())
			c.skip.Detail = str()
			c.size = d.v()
			c.mtime = d.v()
			c.inode = d.uv()
		}
	}
	if d.err == nil && d.i != len(b) {
		d.fail()
	}
	return d.err
}

func (ix *Index) decodeForward(b []byte) error {
	d := &decoder{b: b}
	T := d.count(len(b))
	N := d.count(len(b))
	P := d.count(len(b))
	if d.err != nil {
		return d.err
	}
	ix.fwdOff = make([]int32, N+1)
	ix.fwdTerm = make([]int32, P)
	ix.fwdTF = make([]tf3, P)
	at := 0
	for f := 0; f < N && d.err == nil; f++ {
		c := d.count(P - at)
		t := int64(-1)
		for j := 0; j < c; j++ {
			dt := d.uv()
			if dt == 0 || dt > uint64(T) || t+int64(dt) >= int64(T) {
				d.fail()
				break
			}
			t += int64(dt)
			x := d.uv()
			var tf tf3
			tf[FieldContent] = uint16(x >> 2)
			if x&2 != 0 {
				tf[FieldPath] = uint16(d.uv())
			}
			if x&1 != 0 {
				tf[FieldSymbols] = uint16(d.uv())
			}
			ix.fwdTerm[at] = int32(t)
			ix.fwdTF[at] = tf
			at++
		}
		ix.fwdOff[f+1] = int32(at)
	}
	if d.err == nil && (at != P || d.i != len(b)) {
		d.fail()
	}
	if d.err != nil {
		return d.err
	}
	ix.buildPostings(T)
	return nil
}
