// Package hone finds the files a coding agent needs for a task, by iterative
// retrieval over a code-aware index of the repository.
//
// Open a repository once, then Retrieve for as many tasks as you like, from as
// many goroutines as you like:
//
//	repo, err := hone.Open(ctx, "/path/to/repo", hone.Options{})
//	res, err := repo.Retrieve(ctx, "Fix the authentication token expiry bug", hone.RetrieveOptions{})
//	for _, f := range res.Files { fmt.Println(f.Path, f.Relevance, f.Reason) }
//
// Retrieve runs the loop of package loop — DISPATCH, EVALUATE, REFINE, at most
// three cycles — with hone's index as the Searcher, its local evaluator (or an
// Evaluator you pass) and its refiner. Start exposes the same loop one step at
// a time for a caller that wants to judge the candidates itself.
package hone

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/history"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/local"
	"github.com/hone-dev/hone/internal/refine"
	"github.com/hone-dev/hone/internal/search"
	"github.com/hone-dev/hone/internal/secret"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/tokenize"
	"github.com/hone-dev/hone/internal/walk"
	"github.com/hone-dev/hone/internal/watch"
	"github.com/hone-dev/hone/loop"
)

// Errors that callers (and the CLI's exit codes) tell apart. Returned errors
// wrap them; test with errors.Is.
var (
	ErrNoRepo       = errors.New("repository not found")        // the directory does not exist
	ErrNotDir       = errors.New("not a directory")             // the path is a file
	ErrUnreadable   = errors.New("repository unreadable")       // permission denied on the root
	ErrEmptyRepo    = errors.New("no indexable file")           // nothing to index
	ErrEmptyTask    = errors.New("empty task")                  // the task has no words
	ErrTaskTooLarge = errors.New("task too large")              // over MaxTaskBytes
	ErrOutsideRepo  = errors.New("path outside the repository") // a path that escapes the root
	// ErrSecret: View refused a file that looks like secret material (a
	// private key, a .env file, credentials.json); the error says why.
	ErrSecret = secret.ErrSecret
)

// EmptyRepoError is the error of Open and Refresh when the repository has no
// indexable file. It wraps ErrEmptyRepo; Stats.Skipped lists every file left
// out and why (what hone index --explain prints), since that is when a user
// needs to know.
type EmptyRepoError struct {
	Root  string
	Stats index.Stats
}

func (e *EmptyRepoError) Error() string {
	return fmt.Sprintf("hone: %s: %v (%d files skipped; see hone index --explain)", e.Root, ErrEmptyRepo, len(e.Stats.Skipped))
}

func (e *EmptyRepoError) Unwrap() error { return ErrEmptyRepo }

// MaxTaskBytes is the largest task accepted: larger texts are pasted logs, not tasks.
const MaxTaskBytes = 1 << 20

// Options control Open.
type Options struct {
	// CacheDir holds the index cache; "" means $HONE_CACHE_DIR, else the user
	// cache directory.
	CacheDir string
	// NoCache indexes in memory only.
	NoCache bool
	// RecordsMax is the byte budget of the store of parsed files addressed
	// by content that every repository of the cache directory shares (a
	// second worktree, a branch switched back parse only what it never
	// saw): 0 means $HONE_RECORDS_MB (MiB; 0 turns it off) when set, else
	// 512 MiB; below 0 no store.
	RecordsMax int64
	// MaxFileSize skips larger files (0: 1 MiB).
	MaxFileSize int64
	// IncludeVendored indexes bundled third-party code (vendor/,
	// node_modules/, wwwroot/lib/, jquery.js: GitHub Linguist's vendor
	// rules, less those that would take the project's own code).
	IncludeVendored bool
	// IncludeData indexes non-source data such as translation catalogs (*.po).
	IncludeData bool
	// Logger receives warnings and progress; nil discards them.
	Logger *slog.Logger
	// Progress, when set, is called while files are indexed.
	Progress func(done, total int)
	// History says where the commit history is read from (by default the
	// git repository the directory is in, at HEAD).
	History History
	// FirstAnswer answers a first contact without waiting for the whole
	// index: when the cache holds no index of the tree (or with NoCache),
	// Open reads the files without parsing them (index.Options.Lexical)
	// and only the newest FirstAnswerCommits commits of the history; each
	// retrieval (Retrieve, Start) then parses the FirstParse files its
	// first query ranks best before it judges anything. Without Watch,
	// every later Refresh (each next run of a CLI) reads the whole history
	// and parses the files not parsed yet, those changed since included (a
	// large checkout is parsed in steps too), until their sizes pass
	// CompleteStep bytes (by one file at most): each run costs a bounded
	// parse, and successive runs complete the index. A run on a complete,
	// unchanged index is as without FirstAnswer. An answer from a partial
	// index says so (Stats.Unparsed). With Watch (a long-lived Repo, hone
	// mcp), the first retrieval instead starts a Refresh that parses the
	// rest, in the background, as soon as it has parsed its files; so does
	// any retrieval judged by RetrieveOptions.Evaluator. A stepwise session
	// or a judged retrieval goes on from the complete index once it is
	// there (loop.Options.Reground); Close stops a completion in progress.
	FirstAnswer bool
	// Watch keeps a watcher of the tree (inotify, kqueue or the like) so
	// that Refresh stats only the paths that changed instead of walking
	// the tree; for a long-lived Repo (hone mcp). Where watching is not
	// available, or the limit of watches is reached, Refresh walks as
	// without it. Close releases the watcher.
	Watch bool
	// InPlace leaves the bulk of the index on disk: the forward index and
	// postings of what Open reads from the cache (about a quarter of it,
	// compressed) are read by offset as queries need them
	// (index.Options.InPlace), which saves the memory they take on a warm
	// run of a large tree. For a process that answers
	// and exits (the CLI does): when a cache file is cut or rewritten under
	// the process, Retrieve and Pack fail with an error that says so (run
	// again: the next Open rebuilds what was lost), where a Repo that read
	// its index whole (the default, for servers) answers on from memory.
	InPlace bool
}

// History says where the commit history behind the history signal (files
// that past commits like the task touched) is read from. The zero value
// reads the git repository the opened directory is in, at HEAD; without git
// or a repository the signal is absent.
type History struct {
	// Off reads no history.
	Off bool
	// GitDir, when set, is a git directory read instead (a bare mirror),
	// at Rev ("" means HEAD); its paths must be relative to the opened
	// directory (hone bench checks a mirror's commit out there).
	GitDir, Rev string
	// Timeout bounds reading the log the first time (0: a minute); what
	// was read by then is used.
	Timeout time.Duration
}

// RetrieveOptions control one retrieval. The zero value means the defaults.
type RetrieveOptions struct {
	// Loop sets cycles, threshold, minimum files and candidates per cycle.
	Loop loop.Options
	// IncludeTests stops the down-weighting of test files (it is also off when
	// the task is about tests).
	IncludeTests bool
	// Evaluator replaces the local evaluator (an LLM evaluator, say). On a
	// first answer's partial index (Options.FirstAnswer) it is taken for a
	// judge that reads: the rest of the index is parsed in the background
	// while it judges the first cycle, and the later cycles go on from the
	// complete index (its first Judge waits for that when at most
	// AwaitBytes were left to parse).
	Evaluator loop.Evaluator
	// Baseline turns the loop off: one DISPATCH of the task's plain words,
	// ranked by BM25F alone. It is the reference every figure is compared to.
	Baseline bool
	// Off turns single parts of the pipeline off, to measure what each adds.
	Off Features
}

// Features name the parts of retrieval that can be turned off for ablation.
type Features struct {
	// TaskParsing: keywords are the task's plain words, no identifiers,
	// paths, traces or weights.
	TaskParsing bool `json:"task_parsing,omitempty"`
	// Symbols: no anchors from definitions, paths, modules or traces, and
	// no focus (the task's words held by one definition).
	Symbols bool `json:"symbols,omitempty"`
	// Links: no import and definition-use links between files.
	Links bool `json:"links,omitempty"`
	// Refinement: a single cycle.
	Refinement bool `json:"refinement,omitempty"`
	// Associations: no co-occurrence terms.
	Associations bool `json:"associations,omitempty"`
	// History: no files from past commits like the task.
	History bool `json:"history,omitempty"`
}

// Stats describe the work behind a Result.
type Stats struct {
	FilesIndexed int `json:"files_indexed"`
	// Unparsed counts the indexed files whose definitions, references and
	// imports were not known to the answer: a first answer (see
	// Options.FirstAnswer); 0 from a complete index.
	Unparsed   int   `json:"unparsed,omitempty"`
	IndexMs    int64 `json:"index_ms"`
	RetrieveMs int64 `json:"retrieve_ms"`
	// Extra carries evaluator-specific figures (an LLM evaluator's tokens and cost).
	Extra map[string]any `json:"extra,omitempty"`
}

// Evaluation is the judgment of one file (see loop.Evaluation).
type Evaluation = loop.Evaluation

// Result is a retrieval's answer and trace. Its JSON form has exactly the keys
// task, files, ranked, cycles, stopped and stats.
type Result struct {
	loop.Result
	Stats Stats `json:"stats"`
	// parsed is the task as Retrieve parsed it, with its anchors, for Pack.
	parsed *parsedTask
}

// parsedTask is a task's parse and its anchors in one index.
type parsedTask struct {
	ix      *index.Index
	task    *task.Task
	anchors anchor.Set
}

// Repo is an opened repository. It is safe for concurrent use: Retrieve,
// Search, Start, View and Pack may run while Refresh swaps in a newer index.
type Repo struct {
	root string
	opts Options

	mu      sync.RWMutex
	ix      *index.Index
	stats   index.Stats
	indexMs int64
	hist    *history.Log
	histMsg string

	// watcher (with Options.Watch) collects the tree's changes; walkNext
	// says the next Refresh must walk (the watcher started after the last
	// walk, so it may have missed an edit made in between); watchSkip is
	// the set of skipped directories it was started with.
	watcher   *watch.Watcher
	walkNext  bool
	watchSkip []string
	watchOff  bool // watching failed; not tried again
	closed    bool

	// refreshMu makes Refreshes one at a time; completing says a Refresh
	// completing a first answer's index runs in the background (with
	// Watch), stopped by Close through stop.
	refreshMu  sync.Mutex
	completing bool
	stop       context.CancelFunc
	bg         sync.WaitGroup
	// completed is closed when the latest background completion ends.
	completed chan struct{}

	// aims keeps the aim of the task views were last asked for.
	aims viewAims
}

// Open indexes the repository at dir (incrementally, from the cache when
// there is one).
func Open(ctx context.Context, dir string, opts Options) (*Repo, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	root, err := checkRoot(dir)
	if err != nil {
		return nil, err
	}
	r := &Repo{root: root, opts: opts}
	if err := r.Refresh(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// checkRoot resolves dir and tells the common mistakes apart.
func checkRoot(dir string) (string, error) {
	if strings.TrimSpace(dir) == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("hone: %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("hone: %s: %w", dir, ErrNoRepo)
	case errors.Is(err, fs.ErrPermission):
		return "", fmt.Errorf("hone: %s: %w", dir, ErrUnreadable)
	case errors.Is(err, syscall.ELOOP), errors.Is(err, syscall.ENOTDIR), errors.Is(err, syscall.ENAMETOOLONG):
		// A symbolic-link loop, a path through a file, a name too long:
		// no directory there.
		return "", fmt.Errorf("hone: %s: %w (%v)", dir, ErrNoRepo, err)
	case err != nil:
		return "", fmt.Errorf("hone: %s: %w", dir, err)
	case !fi.IsDir():
		return "", fmt.Errorf("hone: %s: %w", dir, ErrNotDir)
	}
	f, err := os.Open(abs)
	if err != nil {
		return "", fmt.Errorf("hone: %s: %w: %v", dir, ErrUnreadable, err)
	}
	_, err = f.Readdirnames(1)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("hone: %s: %w: %v", dir, ErrUnreadable, err)
	}
	return abs, nil
}

// Root returns the repository's absolute root.
func (r *Repo) Root() string { return r.root }

// IndexStats returns the statistics of the latest (re)index.
func (r *Repo) IndexStats() index.Stats {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.stats
}

// Refresh brings the index up to date with the tree (after edits): only
// changed files are read again. The index it replaces stays whole for
// whoever still uses it (a session started before keeps its own): indexes
// live in memory, never in a mapping of the cache file. The cache file is
// read again only when another process changed it, and written again from
// the index in memory when it was removed or damaged. A watched Repo
// (Options.Watch) whose first answer's index is not complete yet keeps it
// so (what changed is read without parsing) until the background Refresh
// its first retrieval starts completes it.
func (r *Repo) Refresh(ctx context.Context) error {
	r.mu.RLock()
	completing := r.completing
	r.mu.RUnlock()
	if completing {
		if !r.refreshMu.TryLock() {
			// The background completion reads the tree now; a call does
			// not wait for it (its retrieval parses what it needs).
			return nil
		}
		r.refreshMu.Unlock()
	}
	return r.refresh(ctx, false)
}

// refresh is Refresh; complete parses every file a first answer left.
func (r *Repo) refresh(ctx context.Context, complete bool) error {
	r.refreshMu.Lock()
	defer r.refreshMu.Unlock()
	start := time.Now()
	// The commit history is read beside the index (git, then the cache).
	var hist *history.Log
	var histMsg string
	histDone := make(chan struct{})
	r.mu.RLock()
	prev := r.ix
	partial := r.opts.Watch && prev != nil && r.stats.Unparsed > 0
	r.mu.RUnlock()
	// A first contact, or a watched first answer's index not completed
	// yet, is read without parsing (and with the short history). Any
	// other Refresh of a first answer's Repo that is not watched (a CLI's
	// next runs) parses a bounded step of what is not parsed yet.
	first := r.opts.FirstAnswer && prev == nil && (r.opts.NoCache || !index.HasCache(r.opts.CacheDir, r.root))
	short := first || (partial && !complete)
	lexical, step := short, int64(0)
	if r.opts.FirstAnswer && !r.opts.Watch && !first {
		lexical, step = true, completeStep
	}
	go func() {
		defer close(histDone)
		hist, histMsg = r.loadHistory(ctx, short)
	}()
	defer func() { <-histDone }() // never leave the reader behind
	touched := r.changes()
	ix, st, err := index.Open(ctx, r.root, r.indexOptions(index.Options{
		Lexical:    lexical,
		ParseBytes: step,
		Touched:    touched,
		Prev:       prev, // read the cache file again only if someone changed it
		Progress:   r.opts.Progress,
	}))
	if err != nil {
		return fmt.Errorf("hone: index %s: %w", r.root, err)
	}
	// index.Open has logged st.Warnings as it met them.
	if ix.Len() == 0 {
		return &EmptyRepoError{Root: r.root, Stats: st}
	}
	indexMs := time.Since(start).Milliseconds()
	<-histDone
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	if !st.Walked {
		// What the walk left out is as the last walk saw it.
		st.Skipped = r.stats.Skipped
	}
	r.ix, r.stats, r.indexMs, r.hist, r.histMsg = ix, st, indexMs, hist, histMsg
	if st.Walked && r.opts.Watch {
		r.watchLocked(st.Skipped)
	}
	r.mu.Unlock()
	return nil
}

// changes returns the paths the watcher saw change since the last Refresh,
// or nil when the tree must be walked (no watcher, an incomplete set, or a
// watcher started after the last walk).
func (r *Repo) changes() []string {
	r.mu.Lock()
	w, walk := r.watcher, r.walkNext
	r.walkNext = false
	r.mu.Unlock()
	if w == nil {
		return nil
	}
	paths, complete := w.Changes()
	if !complete || walk {
		return nil
	}
	return paths
}

// watchLocked (re)starts the watcher after a walk that skipped the
// directories in skipped, unless one runs with the same set.
func (r *Repo) watchLocked(skipped []walk.Skip) {
	if r.watchOff || r.closed {
		return
	}
	var dirs []string
	for _, s := range skipped {
		if strings.HasSuffix(s.Path, "/") {
			dirs = append(dirs, strings.TrimSuffix(s.Path, "/"))
		}
	}
	if r.watcher != nil && slices.Equal(dirs, r.watchSkip) {
		return
	}
	if r.watcher != nil {
		r.watcher.Close()
		r.watcher = nil
	}
	w, err := watch.New(r.root, dirs)
	if err != nil {
		r.watchOff = true
		r.opts.Logger.Warn("hone: not watching the tree; each refresh walks it", "err", err)
		return
	}
	r.watcher, r.watchSkip, r.walkNext = w, dirs, true
	r.opts.Logger.Debug("hone: watching the tree", "directories", w.Watches())
}

// Close releases what the Repo holds beyond memory (its watcher, with
// Options.Watch) and stops a first answer's background completion, waiting
// for it. The Repo still answers afterwards; Refresh then walks.
func (r *Repo) Close() error {
	r.mu.Lock()
	r.closed = true
	stop := r.stop
	var err error
	if r.watcher != nil {
		err = r.watcher.Close()
		r.watcher = nil
	}
	r.mu.Unlock()
	if stop != nil {
		stop()
		r.bg.Wait() // the background completion stops at once, and writes nothing more
	}
	return err
}

// loadHistory reads the commit log, or returns nil: a repository without
// one (not under git, or git missing) is no error. The message says what
// was read, or why nothing was. short reads only the newest
// FirstAnswerCommits (a first answer's).
func (r *Repo) loadHistory(ctx context.Context, short bool) (*history.Log, string) {
	h := r.opts.History
	if h.Off {
		return nil, "off"
	}
	src := history.Source{Dir: r.root, GitDir: h.GitDir, Rev: h.Rev}
	hopts := history.Options{CacheDir: r.opts.CacheDir, NoCache: r.opts.NoCache,
		Timeout: h.Timeout, Logger: r.opts.Logger, Prev: r.commitLog()}
	if short {
		hopts.MaxCommits = FirstAnswerCommits
	}
	l, st, err := history.Load(ctx, src, hopts)
	switch {
	case errors.Is(err, history.ErrNoHistory):
		r.opts.Logger.Debug("hone: no commit history", "err", err)
		return nil, "none (" + strings.TrimPrefix(err.Error(), "history: ") + ")"
	case err != nil:
		r.opts.Logger.Warn("hone: commit history not read; retrieval goes on without it", "err", err)
		return nil, "not read (" + strings.TrimPrefix(err.Error(), "history: ") + ")"
	}
	r.opts.Logger.Debug("hone: commit history", "commits", st.Commits, "read", st.Read, "cached", st.Cached, "ms", st.Millis)
	noun := "commits"
	if st.Commits == 1 {
		noun = "commit"
	}
	msg := fmt.Sprintf("%d %s up to %.10s (%d read from git", st.Commits, noun, l.Rev(), st.Read)
	if st.Partial {
		msg += ", stopped early"
	}
	return l, msg + fmt.Sprintf("), %d ms", st.Millis)
}

// History says what commit history the latest (re)index read: how many
// commits up to which revision, or why there is none.
func (r *Repo) History() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.histMsg
}

func (r *Repo) index() (*index.Index, int64) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.ix, r.indexMs
}

func (r *Repo) commitLog() *history.Log {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.hist
}

// CheckTask validates a task's text.
func CheckTask(text string) error {
	if len(text) > MaxTaskBytes {
		return fmt.Errorf("hone: %w: %d bytes, at most %d", ErrTaskTooLarge, len(text), MaxTaskBytes)
	}
	words := 0
	for _, f := range strings.Fields(strings.ToValidUTF8(text, " ")) {
		if utf8.RuneCountInString(f) > 0 {
			words++
		}
	}
	if words == 0 {
		return fmt.Errorf("hone: %w", ErrEmptyTask)
	}
	return nil
}

// wiring is one retrieval's concrete loop roles, and the parsed task and
// its anchors they share.
type wiring struct {
	searcher  *search.Searcher
	evaluator loop.Evaluator
	refiner   *refine.Refiner
	opts      loop.Options
	task      *task.Task
	anchors   anchor.Set
}

// wire builds the Searcher, Evaluator and Refiner for a task: the one place
// where concrete choices are made.
//
// stepwise is a session whose caller judges (Start): judged files are never
// offered again. Otherwise hone's own evaluator, cheap and deterministic,
// re-scores the files of earlier cycles with each refined query
// (loop.Options.Rejudge); another Evaluator (an LLM) judges each file once
// and reads hone's own ranking first, as a stepwise session's judge does
// (loop.Options.Pool, set by prior).
func (r *Repo) wire(ix *index.Index, text string, opts RetrieveOptions, stepwise bool) (*wiring, error) {
	if err := CheckTask(text); err != nil {
		return nil, err
	}
	lo := opts.Loop
	lo.SetDefaults()
	if stepwise {
		lo.Rejudge = false
	} else if opts.Evaluator == nil {
		lo.Rejudge = true
	}
	if !lo.Rejudge && lo.Pool == 0 {
		// A judge (the caller of Start, an LLM) reads hone's own ranking a
		// page at a time (see prior): a pool of at least
		// DefaultCandidates, and always more than a page.
		lo.Pool = max(loop.DefaultCandidates, 2*lo.Candidates)
	}
	if opts.Baseline {
		lo.MaxCycles = 1
		t := plainTask(text)
		return &wiring{searcher: search.New(ix, search.Options{}), evaluator: bm25Only{},
			refiner: refine.New(ix, &t, anchor.Set{}, refine.Options{}), opts: lo}, nil
	}
	t := task.Parse(text)
	if opts.Off.TaskParsing {
		t = plainTask(text)
	}
	demote := search.Options{
		DemoteTests: !opts.IncludeTests && !t.MentionsTests,
		DemoteDocs:  !t.MentionsDocs,
		DemoteBuild: true,
		// Settings, manifests and CI rank below code unless the task
		// names them.
		DemoteConfig: !t.MentionsConfig,
	}
	anchors := anchor.Set{}
	if !opts.Off.Symbols {
		anchors = anchor.Find(ix, &t)
	}
	if opts.Off.Refinement {
		lo.MaxCycles = 1
	}
	w := &wiring{
		task:     &t,
		anchors:  anchors,
		searcher: search.New(ix, demote),
		refiner: refine.New(ix, &t, anchors, refine.Options{Threshold: lo.Threshold, MinFiles: lo.MinFiles,
			NoAssociations: opts.Off.Associations, Neighbours: !lo.Rejudge}),
		opts: lo,
	}
	lopts := local.Options{Threshold: lo.Threshold, Demote: demote, NoLinks: opts.Off.Links, NoFocus: opts.Off.Symbols}
	if !opts.Off.History {
		lopts.History = r.commitLog()
	}
	w.evaluator = local.New(ix, &t, anchors, lopts)
	if opts.Evaluator != nil {
		w.evaluator = opts.Evaluator
	}
	if !w.opts.Rejudge && w.opts.Evidence == nil {
		// A judge that reads code is weighed against hone's own evidence: an
		// evaluator of its own (it keeps the task's strongest file).
		w.opts.Evidence = local.New(ix, &t, anchors, lopts)
	}
	return w, nil
}

// plainTask is the task as plain words: every term of the text but stop
// words, weight 1, no identifiers, paths or traces.
func plainTask(text string) task.Task {
	t := task.Task{Text: text}
	seen := map[string]bool{}
	tokenize.Terms(text, func(term string) {
		if !seen[term] && !tokenize.IsStopWord(term) {
			seen[term] = true
			t.Keywords = append(t.Keywords, task.Term{Text: term, Weight: 1, Origin: "plain"})
		}
	})
	return t
}

// bm25Only ranks candidates by the searcher's score alone: the baseline.
type bm25Only struct{}

func (bm25Only) Evaluate(_ context.Context, in loop.EvalInput) ([]loop.Evaluation, error) {
	best := 0.0
	for _, c := range in.Candidates {
		best = max(best, c.Score)
	}
	out := make([]loop.Evaluation, 0, len(in.Candidates))
	for _, c := range in.Candidates {
		rel := 0.0
		if best > 0 {
			rel = c.Score / best
		}
		out = append(out, loop.Evaluation{Path: c.Path, Relevance: rel, Reason: fmt.Sprintf("bm25 %.3f", c.Score),
			MissingContext: []string{}})
	}
	return out, nil
}

// LocalEvaluator returns hone's local evaluator for task, for an evaluator
// that builds on it (an LLM evaluator judges the local ranking's top files).
// It remembers the task's strongest file from its first evaluation (the
// competition yardstick): use a new one for each retrieval.
func (r *Repo) LocalEvaluator(text string, opts RetrieveOptions) (loop.Evaluator, error) {
	ix, _, err := r.ready(context.Background(), text, opts)
	if err != nil {
		return nil, err
	}
	opts.Evaluator = nil
	w, err := r.wire(ix, text, opts, false)
	if err != nil {
		return nil, err
	}
	return w.evaluator, nil
}

// Retrieve runs the loop for task. On cancellation it returns the result so
// far with the context's error.
func (r *Repo) Retrieve(ctx context.Context, text string, opts RetrieveOptions) (*Result, error) {
	ix, indexMs, err := r.ready(ctx, text, opts)
	if err != nil {
		return nil, err
	}
	// The parse ready did for a first answer is index time (in indexMs),
	// not retrieval.
	start := time.Now()
	w, err := r.wire(ix, text, opts, false)
	if err != nil {
		return nil, err
	}
	// Cancelled while hone ranks for the judge: the loop below stops at
	// once and returns the (empty) result so far with the context's error.
	if err := r.prior(ctx, ix, text, opts, w); err != nil && ctx.Err() == nil {
		return nil, err
	}
	if opts.Evaluator != nil && ix.Unparsed() > 0 && w.opts.Reground == nil {
		// A judge that reads (an LLM) gives the background completion
		// time: its later cycles go on from the complete index.
		w.opts.Reground = r.reground(ix, text, opts)
	}
	lr, err := loop.Run(ctx, text, w.searcher, w.evaluator, w.refiner, w.opts)
	if lr == nil {
		return nil, err
	}
	if err := ix.Err(); err != nil {
		return nil, fmt.Errorf("hone: the index cache changed during the retrieval (run again): %w", err)
	}
	res := &Result{Result: *lr, Stats: Stats{FilesIndexed: ix.Len(), Unparsed: ix.Unparsed(), IndexMs: indexMs,
		RetrieveMs: time.Since(start).Milliseconds()}}
	if w.task != nil {
		res.parsed = &parsedTask{ix: ix, task: w.task, anchors: w.anchors}
	}
	return res, err
}

func (r *Repo) indexOptions(o index.Options) index.Options {
	o.CacheDir, o.NoCache, o.RecordsMax = r.opts.CacheDir, r.opts.NoCache, r.opts.RecordsMax
	o.Walk = walk.Options{MaxFileSize: r.opts.MaxFileSize, IncludeVendored: r.opts.IncludeVendored,
		IncludeData: r.opts.IncludeData, Logger: r.opts.Logger}
	o.Logger = r.opts.Logger
	o.InPlace = r.opts.InPlace
	return o
}

// Search runs one DISPATCH of q and returns at most limit candidates. Test
// and documentation files are not demoted.
func (r *Repo) Search(ctx context.Context, q loop.Query, limit int) ([]loop.Candidate, error) {
	ix, _ := r.index()
	if len(q.Patterns) == 0 {
		q.Patterns = []string{search.CatchAll}
	}
	return search.New(ix, search.Options{}).Search(ctx, q, limit)
}

// Start begins a stepwise loop for a caller that evaluates candidates itself:
// call Dispatch, judge the candidates, call Judge, until it reports done.
// On a first answer's partial index (Options.FirstAnswer) the session moves
// to the complete index once it is there (see reground); on a watched Repo
// of at most AwaitBytes left to parse, its first Judge waits for it.
func (r *Repo) Start(ctx context.Context, text string, opts RetrieveOptions) (*loop.Session, error) {
	ix, _, err := r.ready(ctx, text, opts)
	if err != nil {
		return nil, err
	}
	w, err := r.wire(ix, text, opts, true)
	if err != nil {
		return nil, err
	}
	if err := r.prior(ctx, ix, text, opts, w); err != nil {
		return nil, err
	}
	if ix.Unparsed() > 0 && w.opts.Reground == nil {
		w.opts.Reground = r.reground(ix, text, opts)
	}
	return loop.NewSession(ctx, text, w.searcher, w.refiner, w.opts)
}

// AwaitBytes bounds what a session's first judgments wait for: when a
// watched Repo completes a first answer's index in the background and at
// most this many bytes of source were left to parse when the session
// started (django: 25 MB, parsed in about 3 s on 2 cores), the session's
// next cycle waits for the complete index rather than search the partial
// one, so that it does not depend on how fast its judge answered. A larger
// tree's session moves to the complete index when it is there.
const AwaitBytes = CompleteStep

// awaitCompletion waits for the background completion of the Repo's first
// answer's index when ix, a session's index, had at most AwaitBytes left to
// parse, and reports whether it waited for one that ended.
func (r *Repo) awaitCompletion(ctx context.Context, ix *index.Index) bool {
	r.mu.RLock()
	ch := r.completed
	r.mu.RUnlock()
	if ch == nil || ix.UnparsedBytes() > AwaitBytes {
		return false
	}
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		return false
	}
}

// reground lets a session started on a first answer's partial index ix go
// on from the Repo's index once that one has fewer files left unparsed (a
// watched Repo completes it in the background while the judge reads, and
// the session may wait for it: awaitCompletion; a Refresh of one that is
// not watched parses a step of it): hone's ranking
// is read again there (prior), and the refinements and later cycles search
// it. Ground that cannot be built leaves the session where it is.
func (r *Repo) reground(ix *index.Index, text string, opts RetrieveOptions) func(context.Context) *loop.Ground {
	return func(ctx context.Context) *loop.Ground {
		cur, _ := r.index()
		if cur.Unparsed() >= ix.Unparsed() && r.awaitCompletion(ctx, ix) {
			cur, _ = r.index()
		}
		if cur.Unparsed() >= ix.Unparsed() {
			return nil
		}
		w, err := r.wire(cur, text, opts, true)
		if err == nil {
			err = r.prior(ctx, cur, text, opts, w)
		}
		if err != nil {
			if ctx.Err() == nil {
				r.opts.Logger.Warn("hone: a session stays on its first answer's index", "err", err)
			}
			return nil
		}
		why := fmt.Sprintf("the index has %d files left unparsed, %d at the start: the session reads it from here", cur.Unparsed(), ix.Unparsed())
		if cur.Unparsed() == 0 {
			why = fmt.Sprintf("the index is complete now (%d files were unparsed at the start): the session reads it from here", ix.Unparsed())
		}
		ix = cur
		return &loop.Ground{Searcher: w.searcher, Refiner: w.refiner, Evidence: w.opts.Evidence, Prior: w.opts.Prior, Why: why}
	}
}

// prior gives a judged loop hone's own final ranking to read first
// (loop.Options.Prior, with Pool): the offline loop runs once (tens of
// milliseconds), and its evaluator, which holds the task's yardstick, weighs
// what the judge's queries bring (Evidence). Without it a judge would read
// the first query's raw search order and never see a file hone's refined
// cycles found. It does nothing for the baseline or a session that has a
// Prior or no Pool.
func (r *Repo) prior(ctx context.Context, ix *index.Index, text string, opts RetrieveOptions, w *wiring) error {
	if w.opts.Pool <= w.opts.Candidates || w.opts.Prior != nil || opts.Baseline {
		return nil
	}
	off := opts
	off.Evaluator = nil
	off.Loop.Candidates = w.opts.Pool
	ow, err := r.wire(ix, text, off, false)
	if err != nil {
		return err
	}
	lr, err := loop.Run(ctx, text, ow.searcher, ow.evaluator, ow.refiner, ow.opts)
	if err != nil {
		return err
	}
	w.opts.Prior, w.opts.Evidence = lr.Ranked, ow.evaluator
	return nil
}
