package index

import (
	"fmt"

	"github.com/hone-dev/hone/internal/filelock"
)

// lockFile takes an exclusive advisory lock on p, creating it, and returns
// the function that releases it (a no-op where flock is missing: the
// rename keeps writes atomic).
func lockFile(p string) (func(), error) {
	unlock, err := filelock.Lock(p)
	if err != nil {
		return nil, fmt.Errorf("index: lock %s: %w", p, err)
	}
	return unlock, nil
}
