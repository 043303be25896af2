package index

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/hone-dev/hone/internal/syntax"
)

// Records: what parsing a file yields, addressed by its content.
//
// A file's record is everything its parse gives the index: its language,
// definitions, references and imports, its term count per field and its
// distinct terms with their counts. It depends only on the file's path and
// bytes (and on the extractor), so it is stored under a key of those:
// SHA-256 of the path, a zero byte and the content, cut to 16 bytes. Every
// file Open parses is known to the store of its cache directory; a file
// Open must read again is first looked up there, and a record found stands
// in for the parse (tree-sitter and the tokenizer are most of an index's
// time). Checking out another commit thus re-parses only the versions of
// files this cache directory has never seen: going back to a branch, a
// stash popped, a second worktree or clone of one repository (the key
// holds no root) cost a read and a hash per file. A file renamed is parsed
// again: its path is in the key, as its path terms and language are in the
// record.
//
// A file parsed is in a segment already, which holds all its record does
// (the segment keeps each file's content key): the store keeps a pointer
// there, not a copy. The segment an Open builds is named before its files
// are parsed, and each parse puts a pointer value: pointerMagic, then the
// segment's file name. A lookup that finds a pointer reads that segment in
// place (once per Open: its head, and the forward index of the files it
// needs), finds the file by path, checks its key, and copies its entry out;
// a pointer whose segment is gone (folded into another, swept, pruned, its
// root's cache removed) or holds something else costs a parse, and the
// new pointer replaces it. A record in full is written only for a version
// that leaves its segment (below), which a pointer would not keep. On a
// tree of 58,346 files the store went from 137 MiB to a few MiB
// (BENCHMARKS.md, *The records store*).
//
// The store is one bbolt file, records.db, beside the index files. Records
// live in generation buckets ("g" and the generation number, big-endian);
// puts go to the newest, and a lookup reads the newest two, copying a hit
// from the older one into the newest. When the newest holds more than half
// of the store's budget (Options.RecordsMax), the next write starts a new
// generation and drops the one before the older: records in use survive,
// the store stays within about the budget, and bbolt reuses the freed pages.
// Bucket "meta" holds the format version, the extractor fingerprint of the
// records, the executable stamp that last checked it, and the newest
// generation with its byte count; a store of another version or extractor
// is replaced by a new file (bbolt never gives back the pages of an emptied
// one), or emptied in place when this process still shares a handle on it.
//
// Record value: crc uint32 (little-endian), the CRC-32 (IEEE) of the rest,
// then the record compressed with DEFLATE (compress/flate, its fastest
// level: about half the bytes, at a cost far below the parse a record
// saves; BENCHMARKS.md, *Compressed records*). The record (uvarints; strings
// are uvarint length and bytes):
//
//	lang     string
//	strings  count, then each string once (tag names, parents, kinds,
//	         imports), named below by their position
//	imports  count, then string positions
//	defs, refs  each: count, then per tag name, parent, kind (positions),
//	         line and last line
//	len      the term count of each field
//	terms    count, then per term in sorted order: the length of the prefix
//	         it shares with the term before, the rest (string), and its
//	         counts in the three fields
//
// Open puts in the store, in full, the records of the files it replaces or
// loses (read back from their segment, where the content key of each file
// is kept), unless the newest generation holds them in full already: a
// version that was indexed for long is in the newest generation when it
// leaves the tree, so that going back to it finds it however much was
// parsed meanwhile. A record in full replaces a pointer of the same key;
// a pointer never replaces a record. When an Open folds old segments into
// the new one, the pointers of the files they held are moved to it.
//
// An Open that reads or replaces only a few files (recordsMinFiles) parses
// them and leaves the store alone.
//
// The store is a cache: a record that fails its checks, a store that cannot
// be opened (another process holds it past a short wait, a full or
// read-only directory) or that is corrupt costs parsing, with a warning for
// the last; a corrupt file is removed and written anew. A file another
// program cuts while it is open faults under bbolt's mapping with bbolt's
// locks held: every call on the store runs in a goroutine of its own and a
// handle that faulted is abandoned, never closed (sharedDB.call), so that
// such a cut costs a warning and a rebuild, never a hang.
const (
	recordsFile    = "records.db"
	recordsVersion = 3 // 2: values compressed; 3: or pointers into segments
	// DefaultRecordsMax is the records store's default budget in bytes.
	DefaultRecordsMax = 512 << 20
	// recordsWait bounds the wait for another process's store.
	recordsWait = 250 * time.Millisecond
	// flushEvery: the records gathered are written once they hold this
	// many bytes.
	flushEvery = 8 << 20
	// recordsFill is how full bbolt fills a page when a node splits (its
	// default is half): the keys are hashes, so every write lands all over
	// the tree, and pages split at half full left records.db about a third
	// air (BENCHMARKS.md, *The records store*).
	recordsFill = 0.95
	// recordsAlloc is the step by which the file grows (bbolt's default is
	// 16 MiB, up to that much unused at the end of the file).
	recordsAlloc = 2 << 20
)

// recordsBudget is the store's budget when Options leave it unset:
// $HONE_RECORDS_MB mebibytes (0: no store), else DefaultRecordsMax. A value
// that is not a whole number of MiB is warned of and the default used.
func recordsBudget(warn func(string, ...any)) int64 {
	v, ok := os.LookupEnv("HONE_RECORDS_MB")
	if !ok || strings.TrimSpace(v) == "" {
		return DefaultRecordsMax
	}
	mb, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || mb < 0 || mb > 1<<30 {
		warn("index: HONE_RECORDS_MB=%q is not a number of MiB; the records store keeps its default of %d MiB", v, DefaultRecordsMax>>20)
		return DefaultRecordsMax
	}
	return mb << 20
}

// useRecords opens the store beside the cache file at cachePath for an
// Open that reads toRead files and replaces the files at retired in old's
// segments, and puts the retired files' records in it. It returns nil when
// the Open goes without a store: no cache, a budget of nothing, too few
// files for the store to pay its opening and its synced write, a cache
// directory that cannot be made (save warns of it), a store another
// process holds or a read-only directory (logged), or one that cannot be
// used (warned).
func useRecords(cachePath string, opts Options, old *Index, retired []loc, toRead int, warn func(string, ...any)) *records {
	if cachePath == "" {
		return nil
	}
	budget := opts.RecordsMax
	if budget == 0 {
		budget = recordsBudget(warn)
	}
	dir := filepath.Dir(cachePath)
	if budget <= 0 || max(toRead, len(retired)) < recordsMinFiles || os.MkdirAll(dir, 0o755) != nil {
		return nil
	}
	rs, err := openRecords(dir, budget)
	switch {
	case errors.Is(err, bolt.ErrTimeout), errors.Is(err, os.ErrPermission):
		if opts.Logger != nil {
			opts.Logger.Debug("index: records store not used; parsing every file", "err", err)
		}
		return nil
	case err != nil:
		warn("%v; parsing every file", err)
		return nil
	}
	if rs.renewed {
		warn("index: records store %s was corrupt; started anew", filepath.Join(dir, recordsFile))
	}
	rs.dir, rs.print = dir, extractorPrint()
	// A retired version whose record the newest generation holds in full
	// already (it left a segment before, and came back) is not encoded
	// again, unless the next write starts a generation; the others (most:
	// a parse leaves only a pointer) are read back from their segment.
	var keys []recordKey
	var at []loc
	for _, l := range retired {
		if k := old.segs[l.seg].keys[l.id]; k != (recordKey{}) && k != unparsedKey {
			keys, at = append(keys, k), append(at, l)
		}
	}
	have := rs.newest(keys)
	for i, l := range at {
		if !have[i] {
			if retiredHook != nil {
				retiredHook(keys[i])
			}
			rs.put(keys[i], encodeRetired(old.segs[l.seg], l.id))
		}
	}
	return rs
}

// retiredHook, when set (by tests), is called with the key of each retired
// record useRecords encodes.
var retiredHook func(recordKey)

// newest reports which of keys the newest generation holds and keeps past
// the next write, in one read: none when that write starts a generation
// (the newest is over half the budget, see writeTx), or when the store
// cannot be read; then every record is put, and flush skips those it finds.
func (rs *records) newest(keys []recordKey) []bool {
	have := make([]bool, len(keys))
	if len(keys) == 0 || rs.failure() != nil {
		return have
	}
	err := rs.sh.call(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			mb := tx.Bucket(metaBucket)
			if mb == nil {
				return nil
			}
			st, ok := decodeState(mb.Get(metaKey))
			if !ok || st.genSize > rs.max/2 {
				return nil
			}
			if b := tx.Bucket(genBucket(st.gen)); b != nil {
				for i, k := range keys {
					// A pointer does not keep a version whose segment
					// is to go: its record is written in full.
					v := b.Get(k[:])
					_, ptr := pointerSeg(v)
					have[i] = v != nil && !ptr
				}
			}
			return nil
		})
	})
	if err != nil {
		rs.fail(err)
		clear(have)
	}
	return have
}

// recordsMinFiles: an Open that reads or replaces fewer files does not use
// the store (parsing them costs less than opening it and syncing a write:
// an edit in a watched tree stays as fast as without it). A variable for
// the tests.
var recordsMinFiles = 16

var (
	metaBucket = []byte("meta")
	metaKey    = []byte("state")
)

// recordKey addresses a file's record: its path and content.
type recordKey [16]byte

// unparsedKey is the key of a file indexed without its parse (a lexical
// file, see Options.Lexical): it has no record, and an Open that is not
// lexical reads it again.
var unparsedKey = recordKey{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

func keyOf(path string, raw []byte) recordKey {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(raw)
	var sum [sha256.Size]byte
	var k recordKey
	copy(k[:], h.Sum(sum[:0]))
	return k
}

// records is an open store, used by one Open: lookups from the parse
// workers, puts gathered and written in batches as they grow and by flush.
type records struct {
	sh  *sharedDB
	max int64

	// renewed: the file was not a store, or a damaged one, and was made
	// anew.
	renewed bool
	// emptyInPlace: a store of another version or extractor is emptied
	// rather than refused with errStaleStore (see openRecords).
	emptyInPlace bool

	// dir is the cache directory (the segments pointers name are there);
	// target, the name of the segment the files parsed now will be in
	// (setTarget); print, the extractor fingerprint a segment read through
	// a pointer must carry.
	dir    string
	target string
	print  uint64

	mu      sync.Mutex
	gen     uint64              // newest generation, as last read or written
	sibs    map[string]*pointed // segments read through pointers, by name
	puts    map[recordKey][]byte
	pending int                // bytes in puts
	bad     map[recordKey]bool // records found damaged: written over
	err     error              // the first failure met; the store is then left alone
}

// recordState is the meta bucket's one value.
type recordState struct {
	version uint32
	print   uint64
	stamp   uint64
	gen     uint64
	genSize int64
}

func (s recordState) encode() []byte {
	b := make([]byte, 0, 40)
	b = binary.LittleEndian.AppendUint32(b, s.version)
	b = binary.LittleEndian.AppendUint64(b, s.print)
	b = binary.LittleEndian.AppendUint64(b, s.stamp)
	b = binary.LittleEndian.AppendUint64(b, s.gen)
	b = binary.LittleEndian.AppendUint64(b, uint64(s.genSize))
	return b
}

func decodeState(b []byte) (recordState, bool) {
	if len(b) != 36 {
		return recordState{}, false
	}
	return recordState{
		version: binary.LittleEndian.Uint32(b),
		print:   binary.LittleEndian.Uint64(b[4:]),
		stamp:   binary.LittleEndian.Uint64(b[12:]),
		gen:     binary.LittleEndian.Uint64(b[20:]),
		genSize: int64(binary.LittleEndian.Uint64(b[28:])),
	}, true
}

func genBucket(g uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("g"), g)
}

// stores shares one bolt handle per file within the process: bbolt's file
// lock would otherwise make two Opens of one process wait on each other.
var stores struct {
	sync.Mutex
	open map[string]*sharedDB
}

type sharedDB struct {
	db   *bolt.DB
	path string
	refs int

	// dead is closed when a call on db faulted or panicked: the handle is
	// abandoned (see call).
	dead chan struct{}
	once sync.Once
}

// call runs fn on the handle, guarded, in a goroutine of its own, and waits
// for it or for the handle to be abandoned, whichever comes first.
//
// bbolt reads the file through a mapping: a file another program cuts
// faults under a reader or a writer, which guard turns into errDamaged, but
// the lock bbolt held then (its meta lock, its mapping's read lock, the
// writer's lock) is never released. Every later transaction and Close
// would wait on it for good. So a handle that faulted once is abandoned:
// the calls waiting on its locks are left behind (their goroutines stay
// blocked, a few per fault, until the process exits), no new call starts,
// it is never closed (its descriptor and file lock stay with the process)
// and its file is removed, so that the next Open makes a new one under a
// lock of its own.
func (s *sharedDB) call(fn func(*bolt.DB) error) error {
	select {
	case <-s.dead:
		return errDamaged
	default:
	}
	done := make(chan error, 1)
	go func() {
		err := guard(func() error { return fn(s.db) })
		if errors.Is(err, errDamaged) {
			s.abandon()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-s.dead:
		return errDamaged
	}
}

// abandon gives up the handle: it leaves the process's table, so that the
// next acquireDB opens the file anew, and its file is removed.
func (s *sharedDB) abandon() {
	s.once.Do(func() {
		close(s.dead)
		stores.Lock()
		if stores.open[s.path] == s {
			delete(stores.open, s.path)
		}
		stores.Unlock()
		os.Remove(s.path)
	})
}

// errStaleStore marks a store of another records version or extractor,
// which openRecords replaces by a new file.
var errStaleStore = errors.New("index: records store of another version")

// errDamaged marks a store that bbolt could not read: a page it panicked
// on, or a fault in its mapping of a file cut short.
var errDamaged = errors.New("index: records store is damaged")

// guard runs fn with a memory fault turned into a panic (bbolt maps the
// file: a page past the end of a truncated file faults) and any panic
// into errDamaged: a damaged cache never takes the process down.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w (%v)", errDamaged, r)
		}
	}()
	return fn()
}

// openRecords opens (or creates) the store in dir. Its records must be
// the running extractor's: a store last checked by this very executable is
// trusted to be (as a manifest is), else the fingerprints are compared and
// a store of another extractor or version is replaced by a new file. A store that is not
// one or is damaged is removed and made anew (renewed). A store it cannot
// use is an error; the caller parses without it.
func openRecords(dir string, max int64) (*records, error) {
	p := filepath.Join(dir, recordsFile)
	rs, err := tryRecords(p, max, false)
	if errors.Is(err, errStaleStore) {
		// Replaced by a new file; where that fails (a handle this process
		// shares still holds the old one), emptied in place.
		if rerr := os.Remove(p); rerr == nil || errors.Is(rerr, fs.ErrNotExist) {
			rs, err = tryRecords(p, max, false)
		}
		if errors.Is(err, errStaleStore) {
			rs, err = tryRecords(p, max, true)
		}
	}
	// What is not the system's refusal (a lock held, a permission, a file
	// that cannot be opened) is the file's fault: bbolt's checks of its
	// meta pages and size, or a panic or fault while reading it.
	var pe *fs.PathError
	var errno syscall.Errno
	if err != nil && !errors.Is(err, bolt.ErrTimeout) && !errors.As(err, &pe) && !errors.As(err, &errno) {
		// (A handle abandoned has removed its file already.)
		if rerr := os.Remove(p); rerr == nil || errors.Is(rerr, fs.ErrNotExist) {
			if rs, err = tryRecords(p, max, true); err == nil {
				rs.renewed = true
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("index: records store %s: %w", p, err)
	}
	return rs, nil
}

func tryRecords(p string, max int64, emptyInPlace bool) (*records, error) {
	var sh *sharedDB
	if err := guard(func() (err error) { sh, err = acquireDB(p); return err }); err != nil {
		return nil, err
	}
	rs := &records{sh: sh, max: max, puts: map[recordKey][]byte{}, emptyInPlace: emptyInPlace}
	err := sh.call(func(db *bolt.DB) error { return db.Update(rs.check) })
	if err != nil {
		rs.close()
		return nil, err
	}
	return rs, nil
}

// check reads the store's state; a store of another version or extractor
// is refused with errStaleStore, or, with emptyInPlace, emptied.
func (rs *records) check(tx *bolt.Tx) error {
	mb, err := tx.CreateBucketIfNotExists(metaBucket)
	if err != nil {
		return err
	}
	st, ok := decodeState(mb.Get(metaKey))
	stale := ok && st.version != recordsVersion
	ok = ok && !stale
	stamp := exeStamp()
	if !ok || stamp == 0 || st.stamp != stamp {
		if print := extractorPrint(); !ok || st.print != print {
			if (stale || st.print != print && st.gen > 0) && !rs.emptyInPlace {
				// Every record is another extractor's: a new file, since
				// bbolt never gives back the pages of an emptied one.
				return errStaleStore
			}
			var names [][]byte
			c := tx.Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
				if k[0] == 'g' {
					names = append(names, append([]byte(nil), k...))
				}
			}
			for _, n := range names {
				if err := tx.DeleteBucket(n); err != nil {
					return err
				}
			}
			st = recordState{version: recordsVersion, print: print, gen: 1}
		}
		st.stamp = stamp
		if err := mb.Put(metaKey, st.encode()); err != nil {
			return err
		}
	}
	rs.gen = st.gen
	return nil
}

// acquireDB opens the bolt file at p, or shares the process's handle.
// A fault while bolt.Open reads the file leaves no lock but its file lock,
// held by a descriptor that is lost: the caller removes the file and opens
// a new one.
func acquireDB(p string) (*sharedDB, error) {
	stores.Lock()
	defer stores.Unlock()
	if s := stores.open[p]; s != nil {
		s.refs++
		return s, nil
	}
	db, err := bolt.Open(p, 0o600, &bolt.Options{Timeout: recordsWait, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, err
	}
	db.AllocSize = recordsAlloc
	if stores.open == nil {
		stores.open = map[string]*sharedDB{}
	}
	s := &sharedDB{db: db, path: p, refs: 1, dead: make(chan struct{})}
	stores.open[p] = s
	return s, nil
}

// close releases the store (the file closes with its last user). A store
// found damaged meanwhile is removed, to be made anew by the next Open; one
// whose mapping faulted is abandoned, not closed (see call).
func (rs *records) close() {
	s := rs.sh
	stores.Lock()
	if stores.open[s.path] == s {
		if s.refs--; s.refs > 0 {
			stores.Unlock()
			return
		}
		delete(stores.open, s.path)
	} else if s.refs--; s.refs > 0 {
		// Abandoned, with other users: the last one goes on below.
		stores.Unlock()
		return
	}
	stores.Unlock()
	if err := s.call(func(db *bolt.DB) error { return db.Close() }); err != nil || errors.Is(rs.failure(), errDamaged) {
		s.abandon()
	}
}

// fail records the store's first failure; it is not used after one.
func (rs *records) fail(err error) {
	rs.mu.Lock()
	if rs.err == nil {
		rs.err = err
	}
	rs.mu.Unlock()
}

func (rs *records) failure() error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.err
}

// pointerMagic starts a pointer value: the record of the key is the file of
// that path in the segment the rest of the value names.
var pointerMagic = []byte("\x00segment\x00")

// pointerValue is a pointer to segment seg.
func pointerValue(seg string) []byte {
	return append(append(make([]byte, 0, len(pointerMagic)+len(seg)), pointerMagic...), seg...)
}

// pointerSeg returns the segment a pointer value names, or false for a
// record (or a pointer that names no segment file).
func pointerSeg(v []byte) (string, bool) {
	if !bytes.HasPrefix(v, pointerMagic) {
		return "", false
	}
	seg := string(v[len(pointerMagic):])
	if seg == "" || filepath.Base(seg) != seg || !strings.HasSuffix(seg, ".seg") {
		return "", false
	}
	return seg, true
}

// pointed is a segment read through a pointer, once.
type pointed struct {
	once sync.Once
	sg   *segment
}

// setTarget names the segment the files parsed from now on will be in:
// their pointers name it.
func (rs *records) setTarget(seg string) { rs.target = seg }

// pointTo puts a pointer for a file parsed into the target segment.
func (rs *records) pointTo(k recordKey) {
	if rs.target != "" {
		rs.put(k, pointerValue(rs.target))
	}
}

// recall fills p (path and stat set) with what the store knows of key k: a
// record, or, through a pointer, the file's entry in the segment that holds
// it (a segment of this root or of another root of the same repository in
// this cache directory, searched in place). It reports false when neither
// serves: no entry, a segment gone, of another extractor or damaged, or a
// record that fails its checks (marked damaged, to be written over).
func (rs *records) recall(k recordKey, p *parsed) bool {
	v, older := rs.get(k)
	if v == nil {
		return false
	}
	if seg, ok := pointerSeg(v); ok {
		if sg := rs.segment(seg); sg == nil || !fromSegment(sg, p.file.Path, k, p) {
			// The segment is gone (folded, swept, pruned) or holds
			// something else: the pointer is written over.
			rs.damaged(k)
			return false
		}
	} else if !decodeRecord(v, p) {
		rs.damaged(k)
		return false
	}
	if older {
		rs.put(k, v) // kept in the newest generation
	}
	return true
}

// segment returns the segment named seg in the store's directory, read in
// place once per Open, or nil.
func (rs *records) segment(seg string) *segment {
	rs.mu.Lock()
	if rs.sibs == nil {
		rs.sibs = map[string]*pointed{}
	}
	pt := rs.sibs[seg]
	if pt == nil {
		pt = &pointed{}
		rs.sibs[seg] = pt
	}
	rs.mu.Unlock()
	pt.once.Do(func() {
		if sg, err := loadSegment(filepath.Join(rs.dir, seg), -1, rs.print, true); err == nil {
			// Each file's run is read once: none is kept decoded.
			sg.disk.cache = runCache{}
			pt.sg = sg
		}
	})
	return pt.sg
}

// fromSegment fills p (path and stat set) with the file at path in sg, if
// sg holds it with key k: its tags, imports and counts, copied out of the
// segment's buffers, its terms interned in the worker's dictionary.
func fromSegment(sg *segment, path string, k recordKey, p *parsed) bool {
	i := sort.Search(len(sg.files), func(i int) bool { return sg.files[i].Path >= path })
	if i >= len(sg.files) || sg.files[i].Path != path || i >= len(sg.keys) || sg.keys[i] != k {
		return false
	}
	d := int32(i)
	sf := &sg.files[d]        // its tags not decoded into it: tagsCopy
	ts, ftfs := sg.forward(d) // its term ids checked against the table as decoded
	if sg.diskErr() != nil {
		return false
	}
	f := File{Lang: strings.Clone(sf.Lang), Len: sf.Len}
	f.Defs, f.Refs = sg.tagsCopy(ID(d))
	if f.Lang == "" {
		return false
	}
	if len(sf.Imports) > 0 {
		f.Imports = make([]string, len(sf.Imports))
		for j, s := range sf.Imports {
			f.Imports[j] = strings.Clone(s)
		}
	}
	ids := make([]int32, len(ts))
	tfs := make([]tfFull, len(ts))
	for j, t := range ts {
		ids[j] = p.dict.intern(sg.terms.at(int(t)))
		tfs[j] = sg.full(t, d, ftfs[j])
	}
	f.Path, f.Size, f.ModTime, f.CTime = p.file.Path, p.file.Size, p.file.ModTime, p.file.CTime
	p.file, p.terms, p.tfs = f, ids, tfs
	return true
}

// get returns a copy of k's record, from the newest two generations, and
// whether it came from the older one (the caller puts it again into the
// newest once it has checked it).
func (rs *records) get(k recordKey) (v []byte, older bool) {
	if rs.failure() != nil {
		return nil, false
	}
	rs.mu.Lock()
	gen := rs.gen
	rs.mu.Unlock()
	err := rs.sh.call(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			for i, g := range []uint64{gen, gen - 1} {
				if b := tx.Bucket(genBucket(g)); b != nil {
					if x := b.Get(k[:]); x != nil {
						v, older = append([]byte(nil), x...), i == 1
						return nil
					}
				}
			}
			return nil
		})
	})
	if err != nil {
		rs.fail(err)
		return nil, false
	}
	return v, older
}

// put gathers a record for flush, which writes it unless the newest
// generation holds it already.
func (rs *records) put(k recordKey, v []byte) {
	rs.mu.Lock()
	rs.puts[k] = v
	rs.pending += len(v)
	var puts map[recordKey][]byte
	var bad map[recordKey]bool
	if rs.pending >= flushEvery {
		// Written as the parse goes on: a large tree's records do not
		// all wait in memory.
		puts, bad = rs.take()
	}
	rs.mu.Unlock()
	if puts != nil {
		rs.write(puts, bad)
	}
}

// take returns the gathered records and empties the set; rs.mu is held.
func (rs *records) take() (map[recordKey][]byte, map[recordKey]bool) {
	puts, bad := rs.puts, rs.bad
	rs.puts, rs.bad, rs.pending = map[recordKey][]byte{}, nil, 0
	return puts, bad
}

// damaged marks k's stored record as one that failed its checks: flush
// writes the new parse over it.
func (rs *records) damaged(k recordKey) {
	rs.mu.Lock()
	if rs.bad == nil {
		rs.bad = map[recordKey]bool{}
	}
	rs.bad[k] = true
	rs.mu.Unlock()
}

// flush writes the records gathered and not yet written.
func (rs *records) flush() error {
	rs.mu.Lock()
	puts, bad := rs.take()
	rs.mu.Unlock()
	return rs.write(puts, bad)
}

// write puts records in the newest generation in one transaction, starting
// a new generation first when the newest is full.
func (rs *records) write(puts map[recordKey][]byte, bad map[recordKey]bool) error {
	if err := rs.failure(); err != nil {
		return err
	}
	if len(puts) == 0 {
		return nil
	}
	err := rs.sh.call(func(db *bolt.DB) error {
		return db.Update(func(tx *bolt.Tx) error { return rs.writeTx(tx, puts, bad) })
	})
	if err != nil {
		rs.fail(err)
	}
	return err
}

func (rs *records) writeTx(tx *bolt.Tx, puts map[recordKey][]byte, bad map[recordKey]bool) error {
	mb := tx.Bucket(metaBucket)
	if mb == nil {
		return errors.New("index: records store lost its meta bucket")
	}
	st, ok := decodeState(mb.Get(metaKey))
	if !ok {
		return errors.New("index: records store: bad meta")
	}
	// The state is read again: another process may have moved on since
	// the store was opened.
	if st.genSize > rs.max/2 {
		if g := st.gen - 1; g > 0 && tx.Bucket(genBucket(g)) != nil {
			if err := tx.DeleteBucket(genBucket(g)); err != nil {
				return err
			}
		}
		st.gen++
		st.genSize = 0
	}
	b, err := tx.CreateBucketIfNotExists(genBucket(st.gen))
	if err != nil {
		return err
	}
	// Pages filled to recordsFill, not bbolt's half, and the keys in order.
	b.FillPercent = recordsFill
	keys := make([]recordKey, 0, len(puts))
	for k := range puts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b recordKey) int { return bytes.Compare(a[:], b[:]) })
	for _, k := range keys {
		// Keys name contents: one already there is the same record,
		// unless it points into a segment (this is the record in full of
		// a retired version, whose segment is to go, or a pointer at the
		// segment its file was folded into).
		v := puts[k]
		if old := b.Get(k[:]); old != nil && !bad[k] {
			// A record stays; a pointer gives way to the record in full
			// and to a pointer at the segment the file moved into.
			if _, oldPtr := pointerSeg(old); !oldPtr || bytes.Equal(old, v) {
				continue
			}
		}
		if err := b.Put(k[:], v); err != nil {
			return err
		}
		st.genSize += int64(len(k) + len(v))
	}
	if err := mb.Put(metaKey, st.encode()); err != nil {
		return err
	}
	rs.mu.Lock()
	rs.gen = st.gen // a commit that fails leaves it as it was
	rs.mu.Unlock()
	return nil
}

// encodeRetired writes local file d of segment sg as a record value.
func encodeRetired(sg *segment, d int32) []byte {
	ts, ftfs := sg.forward(d)
	terms, tfs := make([]string, 0, len(ts)), make([]tfFull, 0, len(ts))
	for i, t := range ts {
		terms = append(terms, sg.terms.at(int(t)))
		tfs = append(tfs, sg.full(t, d, ftfs[i]))
	}
	return encodeRecord(sg.file(d), terms, tfs)
}

// encodeRecord writes what parsing f gave, its distinct terms with their
// counts, as a record value: the tags' and imports' strings once each in a
// table, the terms sorted and each stored as the length of the prefix it
// shares with the one before and the rest.
func encodeRecord(f *File, terms []string, tfs []tfFull) []byte {
	e := encoder{b: make([]byte, 4, 128+8*len(terms))}
	strs := map[string]int{}
	var table []string
	id := func(s string) uint64 {
		i, ok := strs[s]
		if !ok {
			i = len(table)
			strs[s] = i
			table = append(table, s)
		}
		return uint64(i)
	}
	var refs encoder
	tags := func(ts []syntax.Tag) {
		refs.uv(uint64(len(ts)))
		for _, t := range ts {
			refs.uv(id(t.Name))
			refs.uv(id(t.Parent))
			refs.uv(id(t.Kind))
			refs.uv(uint64(max(t.Line, 0)))
			refs.uv(uint64(max(t.End, 0)))
		}
	}
	refs.uv(uint64(len(f.Imports)))
	for _, s := range f.Imports {
		refs.uv(id(s))
	}
	tags(f.Defs)
	tags(f.Refs)
	e.str(f.Lang)
	e.uv(uint64(len(table)))
	for _, s := range table {
		e.str(s)
	}
	e.b = append(e.b, refs.b...)
	for _, n := range f.Len {
		e.uv(uint64(max(n, 0)))
	}
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(terms[a], terms[b]) })
	e.uv(uint64(len(terms)))
	prev := ""
	for _, i := range order {
		t := terms[i]
		n := 0
		for n < len(t) && n < len(prev) && t[n] == prev[n] {
			n++
		}
		e.uv(uint64(n))
		e.str(t[n:])
		for _, c := range tfs[i] {
			e.uv(uint64(c))
		}
		prev = t
	}
	return compressRecord(e.b[4:])
}

// maxRecordBytes bounds a record's uncompressed size: a parse of a file
// within the walk's size limit is far smaller, so a larger one is damage (or
// a decompression bomb). Tests lower it.
var maxRecordBytes = 64 << 20

var flaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid: no error
	return w
}}

var inflaters = sync.Pool{New: func() any { return flate.NewReader(nil) }}

// compressRecord returns the value of a record: its checksum, then rec
// compressed.
func compressRecord(rec []byte) []byte {
	buf := bytes.NewBuffer(make([]byte, 4, 4+len(rec)/2))
	w := flaters.Get().(*flate.Writer)
	w.Reset(buf)
	w.Write(rec) // a bytes.Buffer takes every write
	w.Close()
	flaters.Put(w)
	v := buf.Bytes()
	binary.LittleEndian.PutUint32(v, crc32.Checksum(v[4:], crcTable))
	return v
}

// inflateRecord checks a record value and returns the record it holds, or
// false.
func inflateRecord(v []byte) ([]byte, bool) {
	if len(v) < 4 || binary.LittleEndian.Uint32(v) != crc32.Checksum(v[4:], crcTable) {
		return nil, false
	}
	r := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(v[4:]), nil); err != nil {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(r, int64(maxRecordBytes)+1))
	if err != nil || len(out) > maxRecordBytes {
		return nil, false
	}
	return out, true
}

// decodeRecord fills p (path and stat already set) from a record value,
// interning its terms in the worker's dictionary. It reports false, p
// untouched, when the value fails its checks.
func decodeRecord(v []byte, p *parsed) bool {
	rec, ok := inflateRecord(v)
	if !ok {
		return false
	}
	d := &decoder{b: rec}
	rest := func() int { return len(d.b) - d.i }
	var f File
	f.Lang = d.str()
	table := make([]string, d.count(rest()))
	for i := range table {
		table[i] = d.str()
	}
	str := func() string {
		if i := d.count(len(table)); d.err == nil && i < len(table) {
			return table[i]
		}
		d.fail()
		return ""
	}
	tags := func() []syntax.Tag {
		n := d.count(rest())
		if n == 0 {
			return nil
		}
		ts := make([]syntax.Tag, n)
		for i := range ts {
			ts[i] = syntax.Tag{Name: str(), Parent: str(), Kind: str(),
				Line: d.count(math.MaxInt32), End: d.count(math.MaxInt32)}
		}
		return ts
	}
	if n := d.count(rest()); n > 0 {
		f.Imports = make([]string, n)
		for i := range f.Imports {
			f.Imports[i] = str()
		}
	}
	f.Defs = tags()
	f.Refs = tags()
	for i := range f.Len {
		f.Len[i] = int32(d.count(math.MaxInt32))
	}
	n := d.count(rest())
	terms := make([]string, n)
	tfs := make([]tfFull, n)
	prev := ""
	for i := range terms {
		k := d.count(len(prev))
		s := d.str()
		if d.err != nil {
			break
		}
		terms[i] = prev[:k] + s
		for j := range tfs[i] {
			tfs[i][j] = uint16(d.count(math.MaxUint16))
		}
		prev = terms[i]
	}
	if d.err != nil || d.i != len(d.b) || f.Lang == "" {
		return false
	}
	ids := make([]int32, n)
	for i, t := range terms {
		ids[i] = p.dict.intern(t)
	}
	f.Path, f.Size, f.ModTime, f.CTime = p.file.Path, p.file.Size, p.file.ModTime, p.file.CTime
	p.file, p.terms, p.tfs = f, ids, tfs
	return true
}
