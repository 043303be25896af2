package cli

import (
	"context"
	"io"
	"sync"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// progress draws an indexing bar on a terminal (callers check isTerminal).
type progress struct {
	mu    sync.Mutex
	p     *mpb.Progress
	bar   *mpb.Bar
	total int
}

func newProgress(ctx context.Context, w io.Writer) *progress {
	return &progress{p: mpb.NewWithContext(ctx, mpb.WithOutput(w), mpb.WithWidth(40))}
}

// set is an index.Options.Progress callback.
func (p *progress) set(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		p.total = total
		p.bar = p.p.AddBar(int64(total),
			mpb.PrependDecorators(decor.Name("indexing "), decor.CountersNoUnit("%d/%d")),
			mpb.AppendDecorators(decor.Percentage()))
	}
	if total != p.total {
		p.total = total
		p.bar.SetTotal(int64(total), false)
	}
	p.bar.SetCurrent(int64(done))
}

func (p *progress) done() {
	p.mu.Lock()
	if p.bar != nil {
		p.bar.SetTotal(int64(p.total), true)
	}
	p.mu.Unlock()
	p.p.Wait()
}
