package cli

import (
	"context"
	"io"
	"testing"
	"time"
)

func TestWatchdog(t *testing.T) {
	cases := []struct {
		name     string
		cancel   bool
		disarmIn time.Duration // when the run returns; 0: never
		want     int           // exit code given, -1: exit not called
	}{
		{"not interrupted", false, 0, -1},
		{"returns within the grace", true, 10 * time.Millisecond, -1},
		{"stuck past the grace", true, 0, ExitInterrupted},
	}
	const grace = 50 * time.Millisecond
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			exited := make(chan int, 1)
			disarm := Watchdog(ctx, grace, io.Discard, func(code int) { exited <- code })
			if c.cancel {
				cancel()
			}
			if c.disarmIn > 0 {
				time.Sleep(c.disarmIn)
				disarm()
			}
			got := -1
			select {
			case got = <-exited:
			case <-time.After(10 * grace):
			}
			if got != c.want {
				t.Errorf("exit code %d, want %d", got, c.want)
			}
			disarm()
		})
	}
}
