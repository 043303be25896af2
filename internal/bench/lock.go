package bench

import (
	"fmt"
	"path/filepath"

	"github.com/hone-dev/hone/internal/filelock"
)

// lockWorkDir takes the work directory for this run: a second bench on the
// same directory would clear the work trees under the first one. It fails
// at once, naming the directory, when another process holds it (where
// flock is missing, give concurrent runs their own work directories).
func lockWorkDir(dir string) (func(), error) {
	p := filepath.Join(dir, "bench.lock")
	unlock, held, err := filelock.TryLock(p)
	switch {
	case err != nil:
		return nil, fmt.Errorf("bench: lock %s: %w", p, err)
	case !held:
		return nil, fmt.Errorf("bench: work directory %s is in use by another hone bench; give each run its own --work-dir", dir)
	}
	return unlock, nil
}
