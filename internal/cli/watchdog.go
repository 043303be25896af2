package cli

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// Grace is how long a run may take to return once interrupted (SIGINT,
// SIGTERM) before Watchdog ends the process.
const Grace = time.Second

// Watchdog makes an interruption final: once ctx is done, a run that has not
// returned within grace (work stuck where no context reaches, such as a
// system call or a lock) is given up: a line goes to stderr and exit is
// called with ExitInterrupted. The function it returns disarms it; call it
// as soon as the run returns, before anything cancels ctx. cmd/hone passes
// os.Exit; Watchdog itself never exits.
func Watchdog(ctx context.Context, grace time.Duration, stderr io.Writer, exit func(int)) (disarm func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			fmt.Fprintf(stderr, "hone: interrupted; stopped without waiting %v more for the work in progress\n", grace)
			exit(ExitInterrupted)
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}
