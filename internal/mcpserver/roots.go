package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hone-dev/hone"
)

// The roots rule. The server reads only inside its roots: the default
// repository, each directory of Options.Roots, and, with Options.ClientRoots,
// the roots the client declares (the MCP roots capability). Up to protocol
// 2025-11-25 the server asks with roots/list and keeps the answer until
// notifications/roots/list_changed; from 2026-07-28, where a server may not
// send requests of its own, the tool call answers with an input request for
// the roots and the client calls again with them (SEP-2322).
// A call's repo is resolved (relative to the default repository, symbolic
// links followed) and must then lie inside one of them; otherwise the call is
// a tool error naming the roots. Server roots are resolved once, at New;
// client roots when a call needs them.

// rootsTimeout bounds a roots/list round trip: a client that declares roots
// but never answers must not hang the call.
const rootsTimeout = 5 * time.Second

// errOutsideRoots is the error of a repo outside every root.
var errOutsideRoots = errors.New("outside the directories this server may read")

// root is a directory the server may read.
type root struct {
	dir   string // canonical: absolute, symbolic links resolved
	given string // absolute as given (for messages and lexical checks)
	from  string // where it comes from: "default repository", "--root", "client root"
}

// serverRoots resolves the default repository and opts.Roots. A root that does
// not exist or is not a directory is an error.
func serverRoots(base string, extra []string) ([]root, error) {
	roots := []root{}
	add := func(dir, from string) error {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		real, err := canonicalDir(abs)
		if err != nil {
			return err
		}
		for _, r := range roots {
			if r.dir == real {
				return nil
			}
		}
		roots = append(roots, root{dir: real, given: abs, from: from})
		return nil
	}
	if err := add(base, "default repository"); err != nil {
		return nil, fmt.Errorf("mcpserver: default repository: %w", err)
	}
	for _, d := range extra {
		if strings.TrimSpace(d) == "" {
			return nil, errors.New("mcpserver: root: empty path")
		}
		if err := add(d, "--root"); err != nil {
			return nil, fmt.Errorf("mcpserver: root %s: %w", d, describe(err))
		}
	}
	return roots, nil
}

// within reports whether p lies at or under dir (both clean and absolute).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// inside returns the root that holds p, canonically or as given.
func inside(roots []root, p string, lexical bool) (root, bool) {
	for _, r := range roots {
		if within(r.dir, p) || (lexical && within(r.given, p)) {
			return r, true
		}
	}
	return root{}, false
}

// resolveRepo turns a call's repo argument into a canonical directory inside
// the roots of the calling session. "" is the default repository; a relative
// path is taken from it; a file:// URI is accepted. When the client's roots
// are needed and must be asked for in the call's result, it returns that
// result (ask) instead.
func (s *Server) resolveRepo(ctx context.Context, req *mcp.CallToolRequest, p string) (dir string, ask *mcp.CallToolResult, err error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return s.baseDir, nil, nil
	}
	if strings.HasPrefix(strings.ToLower(p), "file:") {
		fp, err := fileURIPath(p)
		if err != nil {
			return "", nil, fmt.Errorf("repo %q: %w", p, err)
		}
		p = fp
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.baseDir, p)
	}
	abs := filepath.Clean(p)
	real, rerr := filepath.EvalSymlinks(abs)
	if rerr != nil {
		// Judge a path that does not resolve by where its existing part
		// leads, so that the answer tells nothing of what lies outside.
		real = resolvePrefix(abs)
	}
	roots := s.roots
	_, ok := inside(roots, real, false)
	if !ok {
		// Only a repo outside the server's roots needs the client's.
		client, ask := s.clientRoots(ctx, req)
		if ask != nil {
			return "", ask, nil
		}
		roots = append(roots[:len(roots):len(roots)], client...)
		_, ok = inside(roots, real, false)
	}
	switch {
	case ok && rerr != nil:
		return "", nil, fmt.Errorf("repo: %w", describe(statError(abs, rerr)))
	case ok:
		if err := checkDir(real); err != nil {
			return "", nil, fmt.Errorf("repo: %w", describe(err))
		}
		return real, nil, nil
	}
	if _, in := inside(roots, abs, true); in {
		return "", nil, s.outsideError(abs, real, roots) // a symbolic link leads out
	}
	return "", nil, s.outsideError(abs, "", roots)
}

// resolvePrefix resolves the symbolic links of the longest part of abs that
// exists, and appends the rest.
func resolvePrefix(abs string) string {
	rest := ""
	for p := abs; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// checkRepo checks that dir (canonical, e.g. a session's repository) still
// lies inside the roots of the calling session; ask as for resolveRepo.
func (s *Server) checkRepo(ctx context.Context, req *mcp.CallToolRequest, dir string) (ask *mcp.CallToolResult, err error) {
	if _, ok := inside(s.roots, dir, false); ok {
		return nil, nil
	}
	client, ask := s.clientRoots(ctx, req)
	if ask != nil {
		return ask, nil
	}
	roots := append(s.roots[:len(s.roots):len(s.roots)], client...)
	if _, ok := inside(roots, dir, false); ok {
		return nil, nil
	}
	return nil, s.outsideError(dir, "", roots)
}

// outsideError names the roots a repo must lie in. via is the target of a
// symbolic link that leads out, if that is the reason.
func (s *Server) outsideError(p, via string, roots []root) error {
	var b strings.Builder
	for i, r := range roots {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s)", r.dir, r.from)
	}
	how := "start hone mcp with --root DIR to serve another directory"
	if s.opts.ClientRoots {
		how += ", or add it to the client's roots (workspace folders)"
	}
	if via != "" {
		return fmt.Errorf("repo %s: %w: a symbolic link leads to %s; the served roots are %s; %s",
			p, errOutsideRoots, via, b.String(), how)
	}
	return fmt.Errorf("repo %s: %w; the served roots are %s; %s", p, errOutsideRoots, b.String(), how)
}

// checkDir checks that the canonical path p is a readable directory.
func checkDir(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return statError(p, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %w", p, hone.ErrNotDir)
	}
	return nil
}

// statError maps a failed stat or EvalSymlinks of p to hone's errors.
func statError(p string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: %w", p, hone.ErrNoRepo)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: %w", p, hone.ErrUnreadable)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s: %w", p, hone.ErrNotDir)
	}
	return err
}

// fileURIPath returns the local path of a file:// URI: percent-escapes
// decoded, host empty or localhost, an absolute path (C:/… on Windows).
func fileURIPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("not a file URI: %w", err)
	}
	switch {
	case !strings.EqualFold(u.Scheme, "file"):
		return "", fmt.Errorf("not a file URI (scheme %q)", u.Scheme)
	case u.Host != "" && !strings.EqualFold(u.Host, "localhost"):
		return "", fmt.Errorf("file URI on another host (%q)", u.Host)
	case u.Opaque != "":
		return "", errors.New("not an absolute file URI (want file:///path)")
	case u.Path == "":
		return "", errors.New("file URI without a path")
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/src → C:/src
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("file URI path %q is not absolute", u.Path)
	}
	return filepath.Clean(p), nil
}

// sessionRoots caches the roots one client session declared.
type sessionRoots struct {
	mu    sync.Mutex
	gen   int    // bumped by notifications/roots/list_changed
	have  int    // the gen roots were listed at; -1: not listed
	roots []root // canonical directories
}

// Multi round-trip requests for the client's roots (protocol 2026-07-28).
const (
	// multiRoundTripVersion is the first protocol version in which the
	// server asks for the roots in its result, not with a request.
	multiRoundTripVersion = "2026-07-28"
	// rootsInput names the roots in a call's input requests and responses.
	rootsInput = "hone_roots"
	// rootsAsked is the request state of a call that asked for the roots: a
	// retry that carries it but no roots gets none (no second round).
	rootsAsked = "hone:roots-asked"
)

// clientRoots returns the roots the client of req declares: nil when client
// roots are off, the client declares no roots capability, or listing fails
// (logged). When the roots must be asked for in the call's result, it returns
// that result instead.
func (s *Server) clientRoots(ctx context.Context, req *mcp.CallToolRequest) ([]root, *mcp.CallToolResult) {
	if !s.opts.ClientRoots || req == nil || req.Session == nil {
		return nil, nil
	}
	ss := req.Session
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.RootsV2 == nil {
		return nil, nil
	}
	if ip.ProtocolVersion >= multiRoundTripVersion {
		if req.Params != nil && req.Params.RequestState == rootsAsked {
			res, ok := req.Params.InputResponses[rootsInput].(*mcp.ListRootsResult)
			if !ok {
				s.log.Warn("hone mcp: the client declares roots but sent none; serving the server's roots only")
				return nil, nil
			}
			return s.decodeRoots(res), nil
		}
		return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsInput: &mcp.ListRootsParams{}},
			RequestState: rootsAsked}
	}

	// A client that does not promise list_changed notifications may change
	// its roots silently: ask each time.
	cache := ip.Capabilities.RootsV2.ListChanged
	sr := s.sessionRoots(ss)
	sr.mu.Lock()
	gen := sr.gen
	if cache && sr.have == gen {
		roots := sr.roots
		sr.mu.Unlock()
		return roots, nil
	}
	sr.mu.Unlock()

	lctx, cancel := context.WithTimeout(ctx, rootsTimeout)
	defer cancel()
	res, err := ss.ListRoots(lctx, nil)
	if err != nil {
		s.log.Warn("hone mcp: the client declares roots but roots/list failed; serving the server's roots only", "err", err)
		return nil, nil
	}
	roots := s.decodeRoots(res)
	sr.mu.Lock()
	if sr.gen == gen {
		sr.roots, sr.have = roots, gen
	}
	sr.mu.Unlock()
	return roots, nil
}

// decodeRoots turns the client's roots into directories; roots that are no
// local directory are left out (logged).
func (s *Server) decodeRoots(res *mcp.ListRootsResult) []root {
	var roots []root
	for _, r := range res.Roots {
		if r == nil {
			continue
		}
		p, err := fileURIPath(r.URI)
		if err == nil {
			p, err = canonicalDir(p)
		}
		if err != nil {
			s.log.Info("hone mcp: client root ignored", "uri", r.URI, "err", err)
			continue
		}
		roots = append(roots, root{dir: p, given: p, from: "client root"})
	}
	s.log.Info("hone mcp: client roots", "roots", len(roots))
	return roots
}

// sessionRoots returns the roots cache of ss, creating it. Caches of sessions
// that have ended are dropped on the way.
func (s *Server) sessionRoots(ss *mcp.ServerSession) *sessionRoots {
	s.rootsMu.Lock()
	defer s.rootsMu.Unlock()
	if sr, ok := s.byClient[ss]; ok {
		return sr
	}
	live := map[*mcp.ServerSession]bool{}
	for l := range s.mcp.Sessions() {
		live[l] = true
	}
	for k := range s.byClient {
		if !live[k] {
			delete(s.byClient, k)
		}
	}
	sr := &sessionRoots{have: -1}
	s.byClient[ss] = sr
	return sr
}

// rootsChanged handles notifications/roots/list_changed: the next call that
// needs the client's roots lists them again.
func (s *Server) rootsChanged(_ context.Context, req *mcp.RootsListChangedRequest) {
	if req == nil || req.Session == nil {
		return
	}
	sr := s.sessionRoots(req.Session)
	sr.mu.Lock()
	sr.gen++
	sr.mu.Unlock()
	s.log.Info("hone mcp: the client's roots changed")
}
