//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTaskFileNotRegular: a --task-file that is a named pipe nobody writes
// to, or a device, is refused at once (exit 2, a message naming what it
// is), never waited on.
func TestTaskFileNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cases := []struct{ name, path, says string }{
		{"named pipe without a writer", fifo, "named pipe"},
		{"device", "/dev/null", "device"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			type result struct {
				code   int
				stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, _, stderr := run(t, "", "--repo", fixture, "--task-file", c.path)
				done <- result{code, stderr}
			}()
			select {
			case r := <-done:
				if r.code != ExitUsage || !strings.Contains(r.stderr, c.says) || !strings.HasPrefix(r.stderr, "hone: task file: ") {
					t.Errorf("hone --task-file %s = exit %d, stderr %q; want exit %d naming a %s", c.path, r.code, r.stderr, ExitUsage, c.says)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("hone --task-file %s still running after 5 s", c.path)
			}
		})
	}
}
