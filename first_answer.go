package hone

import (
	"context"
	"time"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/loop"
)

// FirstParse is how many files a retrieval on a first answer's index (see
// Options.FirstAnswer) has parsed before it judges: its first query's best
// candidates.
const FirstParse = 100

// CompleteStep is how many bytes of source a Refresh parses towards
// completing a first answer's index when the Repo is not watched (see
// Options.FirstAnswer): the files not parsed yet, in the walk's order, until
// their sizes pass it. A run of the CLI after a first contact thus costs
// about a parse of CompleteStep bytes, not of the tree: a tree of less
// source completes on its second run (django: 25 MB indexed, with a third
// to spare), and one of 58,000 files (340 MB indexed) in about a dozen.
const CompleteStep = 32 << 20

// completeStep is CompleteStep; tests take smaller steps.
var completeStep int64 = CompleteStep

// FirstAnswerCommits is how much history a first answer reads (see
// Options.FirstAnswer): git gives it in a tenth of the time of the whole.
const FirstAnswerCommits = 2000

// ready returns the index a retrieval of text runs on, with the time the
// index took: the Repo's, after parsing, when it is a first answer's, the
// FirstParse files the task's first query ranks best there (they stay
// parsed for later retrievals).
func (r *Repo) ready(ctx context.Context, text string, opts RetrieveOptions) (*index.Index, int64, error) {
	r.mu.RLock()
	ix, indexMs, unparsed := r.ix, r.indexMs, r.stats.Unparsed
	r.mu.RUnlock()
	if unparsed == 0 || opts.Baseline {
		return ix, indexMs, nil
	}
	start := time.Now()
	w, err := r.wire(ix, text, opts, false)
	if err != nil {
		return nil, 0, err
	}
	q, err := w.refiner.Initial(ctx, text)
	var cands []loop.Candidate
	if err == nil {
		cands, err = w.searcher.Search(ctx, q, FirstParse)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ix, indexMs, nil // the loop stops on it, with its result so far
		}
		return nil, 0, err
	}
	var paths []string
	for _, c := range cands {
		if id, ok := ix.Lookup(c.Path); ok && !ix.Parsed(id) {
			paths = append(paths, c.Path)
		}
	}
	if len(paths) == 0 {
		r.mu.Lock()
		r.completeLocked(opts)
		r.mu.Unlock()
		return ix, indexMs, nil
	}
	o := r.indexOptions(index.Options{Lexical: true, Parse: paths, Touched: paths, Prev: ix})
	locked := r.refreshMu.TryLock()
	if !locked {
		// A Refresh runs (the background completion): parse in memory and
		// leave the cache to it.
		o.NoCache = true
	}
	nix, st, err := index.Open(ctx, r.root, o)
	if locked {
		r.refreshMu.Unlock()
	}
	if err != nil {
		// The answer comes from the index as it is (read, not parsed):
		// weaker, but an answer; a cancelled retrieval stops in the loop.
		if ctx.Err() == nil {
			r.opts.Logger.Warn("hone: first answer: the task's files were not parsed; answering from the files' words", "err", err)
		}
		return ix, indexMs, nil
	}
	ms := time.Since(start).Milliseconds()
	r.opts.Logger.Debug("hone: first answer: parsed the files the task points at", "parsed", st.Parsed+st.Recalled,
		"unparsed", st.Unparsed, "ms", ms)
	r.mu.Lock()
	if r.ix == ix {
		skipped := r.stats.Skipped
		r.ix, r.stats = nix, st
		r.stats.Skipped = skipped
	}
	r.completeLocked(opts)
	r.mu.Unlock()
	return nix, indexMs + ms, nil
}

// completeLocked starts the background completion of a first answer's index
// when none runs: in a long-lived Repo (Watch), while its caller reads the
// first answer; and for a retrieval that waits on a judge (an LLM,
// RetrieveOptions.Evaluator), while the judge reads the first cycle, so
// that the loop goes on from the complete index (reground). r.mu is held.
func (r *Repo) completeLocked(opts RetrieveOptions) {
	if (r.opts.Watch || opts.Evaluator != nil) && !r.completing && !r.closed {
		r.completing = true
		bg, stop := context.WithCancel(context.Background())
		r.stop = stop
		r.bg.Add(1)
		done := make(chan struct{})
		r.completed = done
		go func() {
			defer r.bg.Done()
			defer close(done)
			defer stop()
			if err := r.refresh(bg, true); err != nil {
				if bg.Err() == nil {
					r.opts.Logger.Warn("hone: completing the index of a first answer", "err", err)
				}
				r.mu.Lock()
				r.completing = false // the next retrieval tries again
				r.mu.Unlock()
			}
		}()
	}
}
