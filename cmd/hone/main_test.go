package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hone-dev/hone/internal/cli"
)

// TestSignalWhileStuck: SIGINT or SIGTERM ends hone within about a second,
// exit 130, even while it waits where no context reaches (here a read of
// standard input that never ends).
func TestSignalWhileStuck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "hone")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "--repo", "../../testdata/auth-service", "--cache-dir", t.TempDir(), "-")
			w, err := cmd.StdinPipe() // held open: the read never ends
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			sent := time.Now()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("hone still running 5 s after %v", sig)
			}
			took := time.Since(sent)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != cli.ExitInterrupted {
				t.Errorf("after %v: %v; want exit %d", sig, err, cli.ExitInterrupted)
			}
			if took > cli.Grace+time.Second {
				t.Errorf("exit %v after %v; want within %v", took, sig, cli.Grace)
			}
		})
	}
}
