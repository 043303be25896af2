package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// errNoSession is returned for an unknown, expired or evicted session id.
var errNoSession = errors.New("unknown or expired session")

// session is one stepwise loop driven by an agent. Its mutex serialises the
// calls of one session (a loop.Session is not safe for concurrent use).
type session struct {
	mu      sync.Mutex
	id      string
	dir     string // canonical repository directory
	repo    backend
	loop    *loop.Session
	pending []loop.Candidate // the candidates shown for the current cycle
	budget  int              // Markdown pack budget for the result; 0: none
	secrets bool             // show_secrets: excerpts and pack show secrets
	// excerpts renders the candidates' excerpts (a second look shows what
	// the first excerpt of its file did not).
	excerpts *hone.Excerpts
	started  time.Time
	// finishing: the judge said done and was given second looks first
	// (loop.Session.Finish); the session ends after them or goes on.
	finishing bool
	// distrustTold: the judge was told that hone overrules some of its
	// judgments (loop.Session.Distrust), which is said once.
	distrustTold bool

	lastUse time.Time // guarded by sessionStore.mu
}

// sessionStore holds live sessions. Idle sessions expire after ttl; beyond max
// sessions the least recently used is dropped.
type sessionStore struct {
	ttl   time.Duration
	max   int
	clock func() time.Time

	mu sync.Mutex
	m  map[string]*session
}

func newSessionStore(ttl time.Duration, max int, clock func() time.Time) *sessionStore {
	return &sessionStore{ttl: ttl, max: max, clock: clock, m: map[string]*session{}}
}

// add registers s under a new random id and returns the ids it evicted.
func (st *sessionStore) add(s *session) (evicted []string, err error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("session id: %w", err)
	}
	s.id = "hs_" + hex.EncodeToString(b[:])
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.clock()
	st.expireLocked(now)
	for len(st.m) >= st.max {
		var oldest *session
		for _, o := range st.m {
			if oldest == nil || o.lastUse.Before(oldest.lastUse) {
				oldest = o
			}
		}
		delete(st.m, oldest.id)
		evicted = append(evicted, oldest.id)
	}
	s.started, s.lastUse = now, now
	st.m[s.id] = s
	return evicted, nil
}

// get returns the live session id and marks it used.
func (st *sessionStore) get(id string) (*session, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.clock()
	st.expireLocked(now)
	s, ok := st.m[id]
	if !ok {
		return nil, fmt.Errorf("%w %q; sessions expire after %s idle: call start again", errNoSession, id, st.ttl)
	}
	s.lastUse = now
	return s, nil
}

// remove forgets id (a finished session).
func (st *sessionStore) remove(id string) {
	st.mu.Lock()
	delete(st.m, id)
	st.mu.Unlock()
}

// len returns the number of live sessions.
func (st *sessionStore) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.expireLocked(st.clock())
	return len(st.m)
}

func (st *sessionStore) expireLocked(now time.Time) {
	for id, s := range st.m {
		if now.Sub(s.lastUse) > st.ttl {
			delete(st.m, id)
		}
	}
}
