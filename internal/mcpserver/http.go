package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultHTTPAddr is where ServeHTTP listens when addr is "".
const DefaultHTTPAddr = "127.0.0.1:7777"

// HTTPPath is the endpoint of the streamable HTTP transport:
// http://127.0.0.1:7777/mcp by default.
const HTTPPath = "/mcp"

// ErrRemoteBind refuses a non-loopback listen address without AllowRemote.
var ErrRemoteBind = errors.New("mcpserver: refusing to listen on a non-loopback address (the server has no authentication); pass --allow-remote to do it anyway")

// ServeHTTP runs the server on streamable HTTP at addr (host:port; "" means
// DefaultHTTPAddr) until ctx is done. The endpoint is HTTPPath. A host that is
// not a loopback address (127.0.0.0/8, ::1, localhost) is refused unless
// opts.AllowRemote is set. The server's roots are opts.Repo and opts.Roots
// only: opts.ClientRoots is ignored, since any local process can connect and
// declare any root. Logs go to stderr unless opts.Logger is set.
func ServeHTTP(ctx context.Context, addr string, opts Options) error {
	if opts.Logger == nil {
		opts.Logger = stderrLogger()
	}
	opts.ClientRoots = false
	if addr == "" {
		addr = DefaultHTTPAddr
	}
	if err := checkBind(addr, opts.AllowRemote); err != nil {
		return err
	}
	s, err := New(opts)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mcpserver: %w", err)
	}
	defer s.Close()
	go s.Warm(s.life)
	s.log.Info("hone mcp: listening", "url", "http://"+ln.Addr().String()+HTTPPath, "repo", s.baseDir)
	return s.serveHTTP(ctx, ln)
}

// Handler returns the streamable HTTP handler of the server. Each HTTP
// session is a client session of its own (its own client roots, when
// Options.ClientRoots is set; leave it unset on a port others can reach).
func (s *Server) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Logger: s.log, SessionTimeout: s.opts.SessionTTL})
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	return http.NewCrossOriginProtection().Handler(mux)
}

func (s *Server) serveHTTP(ctx context.Context, ln net.Listener) error {
	return serveUntil(ctx, ln, s.Handler(), ShutdownGrace, func() { s.stop(errStopped) }, s.log)
}

// serveUntil serves h on ln until ctx is done, then shuts down: stop (if not
// nil) cancels the work in flight; the requests that may carry a call (all
// but GET, the long-lived event streams) get grace to write their answers;
// then the server shuts down, and closes within answerGrace what is still
// open (event streams, a client reconnecting one, a handler that ignores its
// cancelled context).
func serveUntil(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration, stop func(), log *slog.Logger) error {
	var calls atomic.Int64 // requests in flight that may carry a call
	inner := h
	h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			calls.Add(1)
			defer calls.Add(-1)
		}
		inner.ServeHTTP(w, r)
	})
	// Requests run under base, which shutdown cancels: a client's open
	// event stream ends then instead of holding the shutdown.
	base, cancelBase := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBase()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil,
		BaseContext: func(net.Listener) context.Context { return base }}
	srv.RegisterOnShutdown(cancelBase)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("mcpserver: %w", err)
	case <-ctx.Done():
	}
	srv.SetKeepAlivesEnabled(false)
	if stop != nil {
		stop()
	}
	// The cancelled calls answer now; ending the requests' contexts (Shutdown
	// does) before they have would lose the answers.
	for deadline := time.Now().Add(grace); calls.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if n := calls.Load(); n > 0 {
		log.Warn("hone mcp: calls still running after the grace period; closing their connections", "calls", n, "grace", grace)
	}
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), answerGrace)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		if err := srv.Close(); err != nil {
			return fmt.Errorf("mcpserver: close: %w", err)
		}
	}
	return nil
}

// ShutdownGrace is how long the HTTP server waits for the calls in flight
// when it stops, before it closes their connections. Their work is cancelled
// first, so that they only need to write an answer.
const ShutdownGrace = 2 * time.Second

// checkBind refuses a non-loopback host unless allowRemote.
func checkBind(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("mcpserver: listen address %q: %w (want host:port, e.g. %s)", addr, err, DefaultHTTPAddr)
	}
	if allowRemote || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("%w: %q", ErrRemoteBind, addr)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
