package history

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/testrepo"
)

// TestDubiousOwnership: when git refuses the repository because another
// user owns it, Load says so (ErrDubiousOwnership, ErrNoHistory) and warns
// once, naming the fix.
func TestDubiousOwnership(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the repository; it may change the environment.
		setup func(t *testing.T) string
	}{
		{"git refuses (a stand-in git)", func(t *testing.T) string {
			dir := t.TempDir()
			bin := t.TempDir()
			script := "#!/bin/sh\n" +
				"echo \"fatal: detected dubious ownership in repository at '" + dir + "'\" >&2\n" +
				"echo 'To add an exception for this directory, call:' >&2\n" +
				"exit 128\n"
			if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", bin)
			return dir
		}},
		{"a repository another user owns", func(t *testing.T) string {
			testrepo.NeedGit(t)
			if os.Geteuid() != 0 {
				t.Skip("needs root to give the repository to another user")
			}
			dir := t.TempDir()
			testrepo.Git(t, dir, "init", "-q", "-b", "main")
			testrepo.Commit(t, dir, "Fix the throttle", map[string]string{"limiter.go": "package api\n"})
			if err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
				if err != nil {
					return err
				}
				return os.Lchown(p, 4321, 4321)
			}); err != nil {
				t.Fatal(err)
			}
			t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null") // no safe.directory of this machine's
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			t.Setenv("SUDO_UID", "")
			return dir
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, nil))
			for i := 0; i < 3; i++ { // a long-lived process loads again and again
				_, _, err := Load(context.Background(), Source{Dir: dir}, Options{NoCache: true, Logger: log})
				if !errors.Is(err, ErrDubiousOwnership) || !errors.Is(err, ErrNoHistory) {
					t.Fatalf("Load #%d = %v, want ErrDubiousOwnership and ErrNoHistory", i+1, err)
				}
				if fix := "git config --global --add safe.directory " + dir; !strings.Contains(err.Error(), fix) {
					t.Errorf("Load #%d error %q does not name the fix %q", i+1, err, fix)
				}
			}
			if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
				t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
			}
			for _, want := range []string{"dubious ownership", "the history signal is off", "safe.directory " + dir} {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("warning lacks %q:\n%s", want, logs.String())
				}
			}
		})
	}
}
