//go:build unix

package filelock

import (
	"path/filepath"
	"testing"
)

// A held lock turns TryLock away, in this process too (flock locks belong
// to open files), until it is released; Lock then takes it.
func TestTryLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := Lock(p)
	if err != nil {
		t.Fatal(err)
	}
	if u, held, err := TryLock(p); err != nil || held {
		if u != nil {
			u()
		}
		t.Fatalf("TryLock on a held lock: held %v, err %v; want refused", held, err)
	}
	unlock()
	u, held, err := TryLock(p)
	if err != nil || !held {
		t.Fatalf("TryLock on a free lock: held %v, err %v", held, err)
	}
	u()
}
