//go:build !unix

package walk

import (
	"errors"
	"time"
)

func mkfifo(string) error { return errors.New("no fifos") }

func cpuTime() time.Duration { return 0 }
