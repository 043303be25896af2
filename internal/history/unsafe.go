package history

import (
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"regexp"
	"sync"
)

// ErrDubiousOwnership says that git refuses to read the repository because
// another user owns it (git's safe.directory check). Load's error wraps it
// together with ErrNoHistory: the history signal is off until the directory
// is allowed.
var ErrDubiousOwnership = errors.New("history: git refuses the repository: dubious ownership")

// dubious finds git's refusal and the directory it names.
var dubious = regexp.MustCompile(`detected dubious ownership in repository at '([^'\n]*)'`)

// refused returns the error for a failed git command whose stderr says that
// git refuses the repository, or nil.
func refused(err error) error {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return nil
	}
	m := dubious.FindSubmatch(ee.Stderr)
	if m == nil {
		return nil
	}
	return &dubiousError{dir: string(m[1])}
}

// dubiousError is git's refusal of the repository at dir.
type dubiousError struct{ dir string }

func (e *dubiousError) Error() string {
	return fmt.Sprintf("history: git refuses the repository at %s: another user owns it (dubious ownership); "+
		"allow it with: git config --global --add safe.directory %s", e.dir, e.dir)
}

func (e *dubiousError) Is(target error) bool {
	return target == ErrDubiousOwnership || target == ErrNoHistory
}

// warned holds the directories whose refusal was logged, so that a
// long-lived process (hone mcp refreshes before every call) warns once.
var warned sync.Map

// warnRefused logs err once per directory when it is git's refusal.
func warnRefused(log *slog.Logger, err error) {
	var de *dubiousError
	if !errors.As(err, &de) {
		return
	}
	if _, dup := warned.LoadOrStore(de.dir, true); dup {
		return
	}
	log.Warn("history: git refuses to read the repository because another user owns it (dubious ownership); "+
		"the history signal is off. To allow it: git config --global --add safe.directory "+de.dir, "dir", de.dir)
}
