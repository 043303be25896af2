// Package mcpserver serves hone to coding agents over the Model Context
// Protocol (MCP), on stdio or on streamable HTTP.
//
// Four tools cover two ways of using the retrieval loop:
//
//   - retrieve_context runs the whole loop with hone's local evaluator and
//     returns the files that matter, ranked, with the loop's trace (the same
//     JSON as `hone --json`), plus a Markdown context pack when a token budget
//     is given. One call; the agent then reads the files it was given.
//   - search runs a single DISPATCH of the agent's own keywords and globs.
//   - start and judge expose the loop one step at a time, with the agent as the
//     Evaluator: start returns the first candidates with short excerpts, the
//     agent scores each (relevance 0..1, a reason, missing context) and sends
//     the scores with judge, which refines the query and returns the next
//     candidates, or the result when the loop stops.
//
// The server reads only inside its roots: the default repository, the
// directories of Options.Roots and, with Options.ClientRoots, the roots the
// client declares (MCP roots/list, refreshed on roots/list_changed). A call's
// repo, given absolute or relative to the default repository, is resolved
// through its symbolic links and must lie inside one of them (roots.go).
//
// The server keeps every repository it has opened warm in memory, keyed by
// absolute path, and refreshes its index (incrementally) before each call, so
// that edits between calls are seen. Stepwise sessions live in memory too; they
// expire after an idle TTL and their number is capped (the least recently used
// goes first).
//
// Bad input is a tool error (a result with IsError set and a sentence saying
// what to do), never a protocol error: an empty task, a repository that does
// not exist or lies outside the roots, an unknown session, a judged path
// outside the repository. A tool that panics answers with an error; the
// server goes on. On stdio, a line that is not JSON-RPC is answered with a
// JSON-RPC error and skipped (stdio.go). Logs go to the Logger (stderr in
// Serve); on stdio, stdout carries only JSON-RPC.
//
// Stopping: when its input ends, Serve answers the calls it has read (for up
// to drainGrace), cancels what still runs and returns; on ctx's end (SIGTERM)
// it cancels at once. Every call and every repository open runs under the
// server's lifetime, which Close ends, so nothing outlives the client.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// Defaults of Options.
const (
	// DefaultSessionTTL is long enough for an agent to read excerpts and think,
	// short enough that abandoned sessions do not pile up.
	DefaultSessionTTL = 30 * time.Minute
	// DefaultMaxSessions bounds the memory held by stepwise sessions.
	DefaultMaxSessions = 64
	// DefaultMaxRepos bounds the number of indexes held warm.
	DefaultMaxRepos = 8
)

// Options configure a Server. The zero value serves the working directory.
type Options struct {
	// Repo is the default repository, used when a call names none; "" means the
	// working directory. It is always served.
	Repo string
	// Roots are further directories the tools may read. A call's repo must
	// lie inside Repo, one of Roots or (with ClientRoots) a root the client
	// declares. Each must be an existing directory; New resolves its
	// symbolic links once.
	Roots []string
	// ClientRoots lets the roots the client declares (MCP roots/list) widen
	// what the tools may read. Set it when the client may read the user's
	// files anyway, as on stdio, where the client is the process that started
	// the server. ServeHTTP clears it: any local process can connect.
	ClientRoots bool
	// Open is passed to hone.Open for every repository (cache directory, file
	// size limit, vendored code). Its Logger defaults to Logger.
	Open hone.Options
	// SessionTTL is how long an idle stepwise session lives (0: 30 min).
	SessionTTL time.Duration
	// MaxSessions caps the live stepwise sessions (0: 64).
	MaxSessions int
	// MaxRepos caps the repositories held open (0: 8).
	MaxRepos int
	// AllowRemote lets ServeHTTP listen on a non-loopback address. The server
	// has no authentication: anyone who reaches the port can read the code.
	AllowRemote bool
	// Logger receives the server's logs; nil discards them (Serve and ServeHTTP
	// default to stderr).
	Logger *slog.Logger
	// Clock returns the time, for session expiry (nil: time.Now).
	Clock func() time.Time
	// Version is reported to clients (default "dev").
	Version string
	// Stdin and Stdout replace os.Stdin and os.Stdout in Serve.
	Stdin  io.Reader
	Stdout io.Writer

	// open replaces hone.Open in tests.
	open func(ctx context.Context, dir string, opts hone.Options) (backend, error)
	// maxLine and drain replace maxLineBytes and drainGrace in tests.
	maxLine int
	drain   time.Duration
}

// backend is what the server uses of an opened repository; *hone.Repo
// satisfies it.
type backend interface {
	Root() string
	Refresh(ctx context.Context) error
	Retrieve(ctx context.Context, task string, opts hone.RetrieveOptions) (*hone.Result, error)
	Search(ctx context.Context, q loop.Query, limit int) ([]loop.Candidate, error)
	Start(ctx context.Context, task string, opts hone.RetrieveOptions) (*loop.Session, error)
	View(path string, terms []string, opts hone.ViewOptions) (string, error)
	ViewAgain(path string, terms []string, opts hone.ViewOptions) (string, error)
	Pack(res *hone.Result, opts hone.PackOptions) (string, error)
}

// openHone opens a repository for the server: it watches the tree, so that
// a call refreshes the index from the tree's changes without walking it.
func openHone(ctx context.Context, dir string, opts hone.Options) (backend, error) {
	opts.Watch = true
	r, err := hone.Open(ctx, dir, opts)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Server is hone's MCP server: the tools, the warm repositories and the
// stepwise sessions. It is safe for concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	baseDir string // canonical default repository directory
	roots   []root // the server's roots, the default repository first
	mcp     *mcp.Server

	life context.Context         // ends with Close: every call and open stops
	stop context.CancelCauseFunc // ends life

	repos    *repoCache
	sessions *sessionStore

	rootsMu  sync.Mutex
	byClient map[*mcp.ServerSession]*sessionRoots // client roots per session
}

// errStopped is the cause of the calls cancelled by Close.
var errStopped = errors.New("hone mcp is stopping (its client closed the connection, or it was told to stop)")

// New builds a Server. It checks that the default repository is a directory
// but does not index it yet (see Warm).
func New(opts Options) (*Server, error) {
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = DefaultSessionTTL
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.MaxRepos <= 0 {
		opts.MaxRepos = DefaultMaxRepos
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.open == nil {
		opts.open = openHone
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Open.Logger == nil {
		opts.Open.Logger = log
	}
	dir := opts.Repo
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("mcpserver: working directory: %w", err)
		}
		dir = wd
	}
	roots, err := serverRoots(dir, opts.Roots)
	if err != nil {
		return nil, err
	}
	if base := roots[0].dir; filepath.Dir(base) == base {
		log.Warn("hone mcp: the default repository is the file system's root: every directory is served; pass --repo", "repo", base)
	}
	life, stop := context.WithCancelCause(context.Background())
	s := &Server{opts: opts, log: log, baseDir: roots[0].dir, roots: roots, life: life, stop: stop,
		repos:    newRepoCache(life, opts.MaxRepos, opts.Open, opts.open, log),
		sessions: newSessionStore(opts.SessionTTL, opts.MaxSessions, opts.Clock),
		byClient: map[*mcp.ServerSession]*sessionRoots{}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "hone", Title: "hone: context retrieval for coding agents",
		Version: opts.Version}, &mcp.ServerOptions{Logger: log, Instructions: instructions,
		RootsListChangedHandler: s.rootsChanged})
	s.addTools()
	return s, nil
}

// Close stops the server's work: calls in flight return at once with an
// error and repository opens stop. Sessions are not closed; the transport
// does that. Close is idempotent and always returns nil.
func (s *Server) Close() error {
	s.stop(errStopped)
	s.repos.closeAll()
	return nil
}

// callContext returns ctx, also cancelled when the server stops.
func (s *Server) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(s.life, func() { cancel(context.Cause(s.life)) })
	return ctx, func() { unhook(); cancel(nil) }
}

// MCP returns the underlying MCP server, to run on any transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Warm opens the default repository, so that the first call finds its index
// ready. Errors are logged, not returned: the calls report them.
func (s *Server) Warm(ctx context.Context) {
	start := time.Now()
	if _, err := s.repos.get(ctx, s.baseDir, false, nil); err != nil {
		if ctx.Err() != nil {
			return // stopped before the index was ready
		}
		s.log.Warn("hone mcp: cannot open the default repository", "repo", s.baseDir, "err", err)
		return
	}
	s.log.Info("hone mcp: repository ready", "repo", s.baseDir, "ms", time.Since(start).Milliseconds())
}

// Serve runs the server on stdin/stdout until the input ends or ctx is done.
// At the end of input the calls read so far are answered (those still running
// after a second are cancelled and answered with an error) before it returns
// nil; when ctx is done, the calls in flight are cancelled at once. Logs go to
// stderr unless opts.Logger is set.
func Serve(ctx context.Context, opts Options) error {
	if opts.Logger == nil {
		opts.Logger = stderrLogger()
	}
	s, err := New(opts)
	if err != nil {
		return err
	}
	defer s.Close()
	var in io.Reader = os.Stdin
	var out io.Writer = os.Stdout
	if opts.Stdin != nil {
		in = opts.Stdin
	}
	if opts.Stdout != nil {
		out = opts.Stdout
	}
	drain := opts.drain
	if drain <= 0 {
		drain = drainGrace
	}
	conn := newStdioConn(in, out, opts.maxLine, drain, func() { s.stop(errStopped) }, s.log)
	ss, err := s.mcp.Connect(ctx, conn, nil)
	if err != nil {
		return fmt.Errorf("mcpserver: %w", err)
	}
	go s.Warm(s.life)
	return s.runStdio(ctx, ss, conn)
}

// exitGrace bounds the wait for a session to wind down once its calls were
// answered or cancelled: a call that ignores cancellation cannot keep the
// process alive.
const exitGrace = 500 * time.Millisecond

// runStdio waits for the session on conn to end: at the end of input, or
// when ctx is done.
func (s *Server) runStdio(ctx context.Context, ss *mcp.ServerSession, conn *stdioConn) error {
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	stopped := false
	select {
	case err := <-ended:
		return sessionError(err)
	case <-conn.inputDone():
		// Read has reported the end of input, after the answers were written.
	case <-ctx.Done():
		s.log.Info("hone mcp: stopping", "cause", context.Cause(ctx))
		stopped = true
		s.stop(errStopped)
		conn.waitAnswered(answerGrace) // the cancelled calls answer
		go ss.Close()
	}
	s.stop(errStopped)
	select {
	case err := <-ended:
		if stopped {
			return nil // told to stop: what the closing session says does not matter
		}
		return sessionError(err)
	case <-time.After(exitGrace):
		s.log.Warn("hone mcp: calls still running after cancellation; exiting anyway", "calls", conn.inFlight())
		return nil
	}
}

// sessionError is the error Serve reports for a session's end: none for
// the end of input or a cancellation.
func sessionError(err error) error {
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return fmt.Errorf("mcpserver: %w", err)
}

func stderrLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// canonicalDir returns dir as an absolute path with symlinks resolved, and
// checks that it is a directory.
func canonicalDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", statError(abs, err)
	}
	if err := checkDir(real); err != nil {
		return "", err
	}
	return real, nil
}

// repoCache holds opened repositories by canonical path, least recently used
// first out. Opens run under the server's lifetime, not under the call that
// asked: a call that is cancelled leaves the index to a later call, and
// stopping the server stops the open.
type repoCache struct {
	life context.Context
	max  int
	opts hone.Options
	open func(context.Context, string, hone.Options) (backend, error)
	log  *slog.Logger
	// every is how often a waiting call reports progress (progressEvery;
	// tests shorten it).
	every time.Duration

	mu    sync.Mutex
	tick  int64
	repos map[string]*repoEntry
}

type repoEntry struct {
	ready   chan struct{} // closed once repo/err are set
	repo    backend
	err     error
	lastUse int64
	// done and total are the open's progress: files indexed of those to
	// index (0 of 0 while it walks the tree or reads the cache).
	done, total atomic.Int64
}

// progressEvery is how often a call waiting for an open reports its
// progress to the client (MCP notifications/progress), so that a client's
// request timeout that progress resets (the Inspector's does) does not end
// the first call on a big tree.
const progressEvery = time.Second

// notifyFunc reports an open's progress to one waiting call.
type notifyFunc func(ctx context.Context, done, total int64)

func newRepoCache(life context.Context, max int, opts hone.Options, open func(context.Context, string, hone.Options) (backend, error), log *slog.Logger) *repoCache {
	return &repoCache{life: life, max: max, opts: opts, open: open, log: log, every: progressEvery, repos: map[string]*repoEntry{}}
}

// get returns the repository at the canonical path dir, opening it on first
// use; it waits for an open in progress only as long as ctx lasts, and
// meanwhile calls notify (when not nil) every progressEvery with the open's
// progress. With refresh, an already open repository is brought up to date
// first.
func (c *repoCache) get(ctx context.Context, dir string, refresh bool, notify notifyFunc) (backend, error) {
	c.mu.Lock()
	c.tick++
	e, opened := c.repos[dir]
	if opened {
		e.lastUse = c.tick
	} else {
		e = &repoEntry{ready: make(chan struct{}), lastUse: c.tick}
		c.repos[dir] = e
		c.evictLocked()
		go c.load(dir, e)
	}
	c.mu.Unlock()
	if err := e.wait(ctx, notify, c.every); err != nil {
		return nil, err
	}
	if e.err != nil {
		return nil, e.err
	}
	if opened && refresh {
		if err := e.repo.Refresh(ctx); err != nil {
			return nil, fmt.Errorf("refresh %s: %w", dir, err)
		}
	}
	return e.repo, nil
}

// wait waits for e's open, as long as ctx lasts, reporting its progress to
// notify every period when it has moved (MCP asks that each notification's
// progress be larger than the last).
func (e *repoEntry) wait(ctx context.Context, notify notifyFunc, every time.Duration) error {
	var tick <-chan time.Time
	if notify != nil {
		t := time.NewTicker(every)
		defer t.Stop()
		tick = t.C
	}
	var sent int64
	for {
		select {
		case <-e.ready:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
			if done := e.done.Load(); done > sent {
				sent = done
				notify(ctx, done, e.total.Load())
			}
		}
	}
}

// load opens the repository of e.
func (c *repoCache) load(dir string, e *repoEntry) {
	start := time.Now()
	opts := c.opts
	outer := opts.Progress
	opts.Progress = func(done, total int) {
		e.done.Store(int64(done))
		e.total.Store(int64(total))
		if outer != nil {
			outer(done, total)
		}
	}
	repo, err := c.open(c.life, dir, opts)
	if err == nil && c.life.Err() != nil {
		// Opened as the server stopped: closeAll may have passed this entry
		// already, so release the watcher here.
		if cl, ok := repo.(io.Closer); ok {
			cl.Close()
		}
		repo, err = nil, context.Cause(c.life)
	}
	if err != nil {
		c.mu.Lock()
		if c.repos[dir] == e {
			delete(c.repos, dir) // let a later call retry
		}
		c.mu.Unlock()
	} else {
		c.log.Info("hone mcp: opened repository", "repo", dir, "ms", time.Since(start).Milliseconds())
	}
	e.repo, e.err = repo, err
	close(e.ready)
}

// evictLocked drops the least recently used repositories beyond the cap.
func (c *repoCache) evictLocked() {
	for len(c.repos) > c.max {
		var oldest string
		var at int64 = -1
		for k, e := range c.repos {
			if at < 0 || e.lastUse < at {
				oldest, at = k, e.lastUse
			}
		}
		closeRepo(c.repos[oldest])
		delete(c.repos, oldest)
		c.log.Info("hone mcp: closed repository (cache full)", "repo", oldest)
	}
}

// closeRepo releases what an opened repository holds beyond memory (its
// watcher), once its open is done; calls that still hold it go on. The
// channel it returns is closed when that is done.
func closeRepo(e *repoEntry) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-e.ready
		if c, ok := e.repo.(io.Closer); ok && e.err == nil {
			c.Close()
		}
	}()
	return done
}

// closeWait bounds how long closeAll waits for the repositories to close.
// A cancelled open ends within milliseconds (hone.Open on a tree of 11,000
// files returned 0.1-330 ms after its cancel on a loaded machine); one that
// does not (a phase deaf to ctx, as the walk was while it parsed a 50 MB
// .gitignore) is not waited for: it was 2 s, and `hone mcp` took 2.1 s to
// exit on SIGTERM. An open that ends after the process leaves at most a
// watcher's directory, which the next watcher removes.
const closeWait = 300 * time.Millisecond

// closeAll closes every repository and waits for that, at most closeWait,
// so that a process exiting next leaves no watcher's directory behind.
func (c *repoCache) closeAll() {
	c.mu.Lock()
	var dones []<-chan struct{}
	for _, e := range c.repos {
		dones = append(dones, closeRepo(e))
	}
	c.mu.Unlock()
	deadline := time.After(closeWait)
	for _, d := range dones {
		select {
		case <-d:
		case <-deadline:
			return
		}
	}
}
