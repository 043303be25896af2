// Package watch tells which paths of a tree changed since it last asked,
// from the operating system's notifications (inotify on Linux, kqueue on the
// BSDs and macOS, ReadDirectoryChangesW on Windows, through fsnotify), so
// that a warm index need not stat every file of the tree to find one edit.
//
// A Watcher watches each directory of the tree but those the caller leaves
// out (the directories the walk skips whole: .git, ignored, vendored), one
// watch each, and collects the repository paths that events name. Changes
// hands the set over and says whether it is complete: it is not after a
// queue overflow, an error of the notifier, or when the limit of watches
// was reached (then the Watcher gives up for good); the caller then walks
// the tree as without a Watcher. A path a Watcher reports may be a
// directory, or a file created or removed: the caller checks each against
// what it knows, and walks when one is new to it.
//
// Events are read on a goroutine, so an edit made just before a call to
// Changes may not have been read yet. Changes therefore creates a file in a
// private directory watched by the same notifier and waits for its event:
// the operating system queues events in order, so every event of an edit
// made before the call has been read by then. That directory is made in the
// system's temporary directory, named after the process
// (hone-watch-PID-RANDOM), and removed by Close; New also removes those a
// process left when it was killed (its PID no longer runs), so none pile up.
package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// barrierWait bounds the wait for the barrier's event; past it Changes
// reports an incomplete set.
const barrierWait = 2 * time.Second

// Watcher collects the changed paths of one tree. It is safe for
// concurrent use.
type Watcher struct {
	root    string
	skip    map[string]bool // repository paths of directories left out
	fw      *fsnotify.Watcher
	private string // the barrier's directory

	mu       sync.Mutex
	touched  map[string]bool
	lost     error // why the set is incomplete (nil: complete)
	dead     error // why the Watcher gave up for good
	barrier  int
	arrived  map[int]chan struct{}
	nWatches int
}

// New watches the directories of the tree at root (an absolute path), but
// those named in skip (repository paths, forward slashes, without a
// trailing slash) and the ones below them. It fails when the platform has
// no notifier or the limit of watches is reached.
func New(root string, skip []string) (*Watcher, error) {
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	sweep(os.TempDir())
	private, err := os.MkdirTemp("", barrierPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch: %w", err)
	}
	w := &Watcher{root: root, skip: map[string]bool{}, fw: fw, private: private,
		touched: map[string]bool{}, arrived: map[int]chan struct{}{}}
	for _, s := range skip {
		w.skip[strings.TrimSuffix(s, "/")] = true
	}
	if err := fw.Add(private); err != nil {
		w.Close()
		return nil, fmt.Errorf("watch: %w", err)
	}
	if err := w.addTree(root); err != nil {
		w.Close()
		return nil, err
	}
	go w.run()
	return w, nil
}

// barrierPrefix begins the name of every barrier directory.
const barrierPrefix = "hone-watch-"

// sweep removes the barrier directories under tmp of processes that no
// longer run. Only a directory named as New names them, holding nothing but
// barrier files (numbers), is removed.
func sweep(tmp string) {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), barrierPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		p, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(p)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		ours := true
		for _, f := range files {
			if _, err := strconv.Atoi(f.Name()); err != nil || f.IsDir() {
				ours = false
				break
			}
		}
		if ours {
			os.RemoveAll(dir)
		}
	}
}

// Watches returns the number of directories watched.
func (w *Watcher) Watches() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.nWatches
}

// rel returns the repository path of abs, or "" when it is the root or
// outside it.
func (w *Watcher) rel(abs string) string {
	r, err := filepath.Rel(w.root, abs)
	if err != nil || r == "." || strings.HasPrefix(r, "..") {
		return ""
	}
	return filepath.ToSlash(r)
}

// skipped reports whether repository path p is in or below a directory
// left out.
func (w *Watcher) skipped(p string) bool {
	for {
		if w.skip[p] {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// addTree watches dir and the directories below it that are not left out.
func (w *Watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return fmt.Errorf("watch: %w", err)
			}
			return nil // a directory that went away or cannot be read
		}
		if !d.IsDir() {
			return nil
		}
		if r := w.rel(p); r != "" && (d.Name() == ".git" || w.skipped(r)) {
			return filepath.SkipDir
		}
		if err := w.fw.Add(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipDir
			}
			return fmt.Errorf("watch: %s: %w (the limit of watches may be reached)", p, err)
		}
		w.mu.Lock()
		w.nWatches++
		w.mu.Unlock()
		return nil
	})
}

func (w *Watcher) run() {
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.event(ev)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			w.mu.Lock()
			w.lost = err
			w.mu.Unlock()
		}
	}
}

func (w *Watcher) event(ev fsnotify.Event) {
	if filepath.Dir(ev.Name) == w.private {
		if n, err := strconv.Atoi(filepath.Base(ev.Name)); err == nil && ev.Has(fsnotify.Create) {
			w.mu.Lock()
			if c := w.arrived[n]; c != nil {
				close(c)
				delete(w.arrived, n)
			}
			w.mu.Unlock()
			os.Remove(ev.Name)
		}
		return
	}
	p := w.rel(ev.Name)
	if p == "" || p == ".git" || strings.HasPrefix(p, ".git/") || w.skipped(p) {
		return
	}
	if ev.Has(fsnotify.Create) {
		// A new directory: watch it (and what was made in it meanwhile).
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			if err := w.addTree(ev.Name); err != nil {
				w.mu.Lock()
				w.lost = err
				w.mu.Unlock()
			}
		}
	}
	w.mu.Lock()
	w.touched[p] = true
	w.mu.Unlock()
}

// Changes returns the repository paths events named since the last call,
// and whether that set is complete (see the package comment); the set is
// emptied either way.
func (w *Watcher) Changes() (paths []string, complete bool) {
	w.mu.Lock()
	if w.dead != nil {
		w.mu.Unlock()
		return nil, false
	}
	w.barrier++
	n := w.barrier
	c := make(chan struct{})
	w.arrived[n] = c
	w.mu.Unlock()
	ok := false
	if f, err := os.Create(filepath.Join(w.private, strconv.Itoa(n))); err == nil {
		f.Close()
		select {
		case <-c:
			ok = true
		case <-time.After(barrierWait):
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.arrived, n)
	for p := range w.touched {
		paths = append(paths, p)
	}
	clear(w.touched)
	complete = ok && w.lost == nil
	w.lost = nil
	if paths == nil {
		paths = []string{}
	}
	return paths, complete
}

// Close stops watching.
func (w *Watcher) Close() error {
	w.mu.Lock()
	w.dead = errors.New("watch: closed")
	w.mu.Unlock()
	err := w.fw.Close()
	os.RemoveAll(w.private)
	return err
}
