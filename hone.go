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
//
// CONTRACT STUB: the implementation replaces the bodies below.
package hone

import (
	"context"
	"errors"
	"log/slog"

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
)

// MaxTaskBytes is the largest task accepted: larger texts are pasted logs, not tasks.
const MaxTaskBytes = 1 << 20

// Options control Open.
type Options struct {
	// CacheDir holds the index cache; "" means $HONE_CACHE_DIR, else the user
	// cache directory.
	CacheDir string
	// NoCache indexes in memory only.
	NoCache bool
	// MaxFileSize skips larger files (0: 1 MiB).
	MaxFileSize int64
	// IncludeVendored indexes vendor/, node_modules/ and the like.
	IncludeVendored bool
	// Logger receives warnings and progress; nil discards them.
	Logger *slog.Logger
	// Progress, when set, is called while files are indexed.
	Progress func(done, total int)
}

// RetrieveOptions control one retrieval. The zero value means the defaults.
type RetrieveOptions struct {
	// Loop sets cycles, threshold, minimum files and candidates per cycle.
	Loop loop.Options
	// IncludeTests stops the down-weighting of test files (it is also off when
	// the task is about tests).
	IncludeTests bool
	// Evaluator replaces the local evaluator (an LLM evaluator, say).
	Evaluator loop.Evaluator
}

// Stats describe the work behind a Result.
type Stats struct {
	FilesIndexed int   `json:"files_indexed"`
	IndexMs      int64 `json:"index_ms"`
	RetrieveMs   int64 `json:"retrieve_ms"`
	// Extra carries evaluator-specific figures (an LLM evaluator's tokens and cost).
	Extra map[string]any `json:"extra,omitempty"`
}

// Result is a retrieval's answer and trace. Its JSON form has exactly the keys
// task, files, ranked, cycles, stopped and stats.
type Result struct {
	loop.Result
	Stats Stats `json:"stats"`
}

// Repo is an opened repository. It is safe for concurrent use.
type Repo struct{}

// Open indexes the repository at dir (incrementally, from the cache when
// there is one).
func Open(ctx context.Context, dir string, opts Options) (*Repo, error) {
	return nil, errors.New("hone: not implemented")
}

// Root returns the repository's absolute root.
func (r *Repo) Root() string { return "" }

// Refresh brings the index up to date with the tree (after edits).
func (r *Repo) Refresh(ctx context.Context) error { return nil }

// Retrieve runs the loop for task.
func (r *Repo) Retrieve(ctx context.Context, task string, opts RetrieveOptions) (*Result, error) {
	return nil, errors.New("hone: not implemented")
}

// Search runs one DISPATCH of q and returns at most limit candidates.
func (r *Repo) Search(ctx context.Context, q loop.Query, limit int) ([]loop.Candidate, error) {
	return nil, errors.New("hone: not implemented")
}

// Start begins a stepwise loop for a caller that evaluates candidates itself.
func (r *Repo) Start(ctx context.Context, task string, opts RetrieveOptions) (*loop.Session, error) {
	return nil, errors.New("hone: not implemented")
}

// View returns a compact view of a file for a judge: its path, definitions and
// the lines that match terms, within about budget tokens.
func (r *Repo) View(path string, terms []string, budget int) (string, error) {
	return "", errors.New("hone: not implemented")
}

// Pack renders a Markdown context pack of res within budget tokens.
func (r *Repo) Pack(res *Result, budget int) (string, error) {
	return "", errors.New("hone: not implemented")
}
