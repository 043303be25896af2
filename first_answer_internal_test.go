package hone

import (
	"context"
	"testing"
	"time"

	"github.com/hone-dev/hone/internal/testrepo"
)

// A call made while a first answer's index is being completed (a Refresh
// holds the lock) does not wait for it: Refresh returns at once, and the
// retrieval parses its own task's files in memory.
func TestCallDuringCompletionDoesNotWait(t *testing.T) {
	dir := testrepo.Padded(t, "testdata/auth-service", 10)
	ctx := context.Background()
	r, err := Open(ctx, dir, Options{CacheDir: t.TempDir(), History: History{Off: true}, FirstAnswer: true, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Stand in for a completion that runs.
	r.mu.Lock()
	r.completing = true
	r.mu.Unlock()
	r.refreshMu.Lock()
	released := false
	defer func() {
		if !released {
			r.refreshMu.Unlock()
		}
	}()
	before := r.IndexStats().Unparsed
	done := make(chan error, 1)
	var res *Result
	go func() {
		if err := r.Refresh(ctx); err != nil {
			done <- err
			return
		}
		var err error
		res, err = r.Retrieve(ctx, "Fix the authentication token expiry bug", RetrieveOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a call waited for the completion")
	}
	if res.Stats.Unparsed == 0 || res.Stats.Unparsed >= before {
		t.Errorf("the call's index: %d unparsed, %d before; want its task's files parsed and the rest not", res.Stats.Unparsed, before)
	}
	r.refreshMu.Unlock()
	released = true
}
