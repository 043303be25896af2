// Package cachedir lists and prunes what hone keeps in its cache directory
// (index.CacheDir): per repository a manifest, index-<hash>.bin, the
// segment files it names, index-<hash>-<16 hex>.seg, and a lock file,
// index-<hash>.bin.lock (see internal/index); commit-history caches,
// history-<hash of the source>.bin (internal/history); the records store
// that every repository shares, records.db, bounded by its budget; and the
// directories llm/ (cached LLM judgments) and bench/ (hone bench's work
// trees). Only files named by these patterns are hone's: nothing else in
// the directory is listed or removed, and symbolic links are never
// followed.
package cachedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"github.com/hone-dev/hone/internal/history"
	"github.com/hone-dev/hone/internal/index"
)

// Repo is the index cache of one repository.
type Repo struct {
	// Root is the repository's absolute path, as its manifest records it.
	Root string `json:"root"`
	// Exists: Root is still a directory.
	Exists bool `json:"exists"`
	// Manifest is the manifest's file name.
	Manifest string `json:"manifest"`
	// IndexBytes is the size of the manifest and of its segment files.
	IndexBytes int64 `json:"index_bytes"`
	// Segments counts the segment files of the repository's cache.
	Segments int `json:"segments"`
	// LastUsed is the manifest's modification time: when the index was
	// last written.
	LastUsed time.Time `json:"last_used"`
	// HistoryBytes is the size of the commit-history cache of the
	// repository (its working tree or its .git), 0 when none.
	HistoryBytes int64 `json:"history_bytes"`
	// OtherVersion: the manifest is of another format version (hone
	// rebuilds it on the next use).
	OtherVersion bool `json:"other_version,omitempty"`

	hash    string
	segs    []string // segment file names (all index-<hash>-*.seg present)
	history []string // history file names
}

// History is a commit-history cache no listed repository owns (a bare
// mirror read with --git-dir, or a repository whose index is gone).
type History struct {
	// Source is the working tree or git directory whose log it holds.
	Source string `json:"source"`
	GitDir bool   `json:"git_dir"`
	// Exists: Source is still there.
	Exists   bool      `json:"exists"`
	Bytes    int64     `json:"bytes"`
	LastUsed time.Time `json:"last_used"`
	File     string    `json:"file"`
}

// File is a file of hone's that belongs to no repository's current cache:
// a segment no manifest names, a temporary file, an unreadable manifest or
// history cache, a lock file without a manifest.
type File struct {
	Name    string    `json:"name"`
	Bytes   int64     `json:"bytes"`
	ModTime time.Time `json:"mod_time"`

	hash string // the repository hash of an index- file, else ""
}

// Usage is what hone keeps in a cache directory.
type Usage struct {
	Dir       string    `json:"dir"`
	Repos     []Repo    `json:"repos"`
	Histories []History `json:"histories"`
	Orphans   []File    `json:"orphans"`
	// OrphanBytes is the size of the Orphans.
	OrphanBytes int64 `json:"orphan_bytes"`
	// RecordsBytes is records.db's size; RecordsBudget, the budget the
	// store keeps itself within (about: the newest two generations).
	RecordsBytes  int64 `json:"records_bytes"`
	RecordsBudget int64 `json:"records_budget"`
	// LLMBytes and BenchBytes are the sizes of the regular files under
	// llm/ and bench/.
	LLMBytes   int64 `json:"llm_bytes"`
	BenchBytes int64 `json:"bench_bytes"`
	// Total is the size of everything listed.
	Total int64 `json:"total_bytes"`
}

// The names of hone's files.
var (
	manifestRE = regexp.MustCompile(`^index-([0-9a-f]{16})\.bin$`)
	lockRE     = regexp.MustCompile(`^index-([0-9a-f]{16})\.bin\.lock$`)
	segmentRE  = regexp.MustCompile(`^index-([0-9a-f]{16})-[0-9a-f]{16}\.seg$`)
	indexTmpRE = regexp.MustCompile(`^index-([0-9a-f]{16})(?:\.bin|-[0-9a-f]{16}\.seg)\.tmp[0-9]+$`)
	historyRE  = regexp.MustCompile(`^history-[0-9a-f]{16}\.bin$`)
	histTmpRE  = regexp.MustCompile(`^history-[0-9a-f]{16}\.bin\.tmp[0-9]+$`)
)

const (
	llmDir   = "llm"
	benchDir = "bench"
)

// entry is a regular file of the directory.
type entry struct {
	name string
	size int64
	mod  time.Time
}

// List reads what hone keeps in dir. A directory that does not exist
// holds nothing.
func List(dir string) (*Usage, error) {
	u := &Usage{Dir: dir, RecordsBudget: index.RecordsBudget(), Repos: []Repo{}, Histories: []History{}, Orphans: []File{}}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return u, nil
	}
	if err != nil {
		return nil, err
	}
	files := map[string]entry{}
	for _, e := range ents {
		fi, err := e.Info() // lstat: a link is not followed
		if err != nil {
			continue // removed meanwhile
		}
		switch {
		case fi.Mode().IsRegular():
			files[e.Name()] = entry{e.Name(), fi.Size(), fi.ModTime()}
		case fi.IsDir() && e.Name() == llmDir:
			u.LLMBytes = treeSize(filepath.Join(dir, llmDir))
		case fi.IsDir() && e.Name() == benchDir:
			u.BenchBytes = treeSize(filepath.Join(dir, benchDir))
		}
	}
	if e, ok := files[index.RecordsFile]; ok {
		u.RecordsBytes = e.size
	}
	byHash := map[string]*Repo{}
	named := map[string]bool{} // segments some current manifest names
	for name, e := range files {
		m := manifestRE.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		info, err := index.ReadManifestInfo(filepath.Join(dir, name))
		if err != nil {
			u.Orphans = append(u.Orphans, File{Name: name, Bytes: e.size, ModTime: e.mod, hash: m[1]})
			continue
		}
		fi, err := os.Stat(info.Root)
		r := &Repo{Root: info.Root, Exists: err == nil && fi.IsDir(), Manifest: name, IndexBytes: e.size,
			LastUsed: e.mod, OtherVersion: !info.Current, hash: m[1]}
		for _, s := range info.Segments {
			named[s] = true
		}
		byHash[m[1]] = r
	}
	// Segments: a repository's when its manifest names them, or when the
	// manifest is of another version (whose names are not read); else
	// orphans.
	for name, e := range files {
		switch m := segmentRE.FindStringSubmatch(name); {
		case m == nil:
		case byHash[m[1]] != nil && (named[name] || byHash[m[1]].OtherVersion):
			r := byHash[m[1]]
			r.IndexBytes += e.size
			r.Segments++
			r.segs = append(r.segs, name)
		default:
			u.Orphans = append(u.Orphans, File{Name: name, Bytes: e.size, ModTime: e.mod, hash: m[1]})
		}
		if m := lockRE.FindStringSubmatch(name); m != nil && byHash[m[1]] == nil {
			u.Orphans = append(u.Orphans, File{Name: name, Bytes: e.size, ModTime: e.mod, hash: m[1]})
		}
		if m := indexTmpRE.FindStringSubmatch(name); m != nil {
			u.Orphans = append(u.Orphans, File{Name: name, Bytes: e.size, ModTime: e.mod, hash: m[1]})
		}
		if histTmpRE.MatchString(name) {
			u.Orphans = append(u.Orphans, File{Name: name, Bytes: e.size, ModTime: e.mod})
		}
	}
	byRoot := map[string]*Repo{}
	for _, r := range byHash {
		byRoot[r.Root] = r
	}
	for name, e := range files {
		if !historyRE.MatchString(name) {
			continue
		}
		src, gitDir, err := history.CacheSource(filepath.Join(dir, name))
		if err != nil {
			u.Orphans = append(u.Orphans, File{Name: name, Bytes: e.size, ModTime: e.mod})
			continue
		}
		owner := src
		if gitDir && filepath.Base(src) == ".git" {
			owner = filepath.Dir(src)
		}
		if r := byRoot[owner]; r != nil && (!gitDir || filepath.Base(src) == ".git") {
			r.HistoryBytes += e.size
			r.history = append(r.history, name)
			continue
		}
		_, err = os.Stat(src)
		u.Histories = append(u.Histories, History{Source: src, GitDir: gitDir, Exists: err == nil,
			Bytes: e.size, LastUsed: e.mod, File: name})
	}
	for _, r := range byHash {
		sort.Strings(r.segs)
		u.Repos = append(u.Repos, *r)
		u.Total += r.IndexBytes + r.HistoryBytes
	}
	sort.Slice(u.Repos, func(i, j int) bool { return u.Repos[i].Root < u.Repos[j].Root })
	sort.Slice(u.Histories, func(i, j int) bool { return u.Histories[i].Source < u.Histories[j].Source })
	sort.Slice(u.Orphans, func(i, j int) bool { return u.Orphans[i].Name < u.Orphans[j].Name })
	for _, h := range u.Histories {
		u.Total += h.Bytes
	}
	for _, o := range u.Orphans {
		u.OrphanBytes += o.Bytes
	}
	u.Total += u.OrphanBytes + u.RecordsBytes + u.LLMBytes + u.BenchBytes
	return u, nil
}

// treeSize sums the sizes of the regular files under dir, following no
// link.
func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are left out
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
