package local

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/tokenize"
)

// Focus: the BM25F and coverage signals see a file as one bag of words, so
// a long module that says each of the task's words somewhere scores like a
// short one that says them all in one function. Focus reads the file again
// and cuts it at its definitions: each function, method or class runs to
// the next definition, and the text before the first is the file's head. A
// file without definitions (prose, data) has no focus. The share of the
// task's keyword weight that the best of these pieces holds is how
// concentrated the match is: the function the bug lives in tends to hold
// the task's words together. The title, the gist of an issue, gets a focus
// of its own: the share of the title's words that one piece holds.
const (
	// WeightFocus scales the share of the task's keyword weight held by
	// the file's best definition.
	WeightFocus = 0.25
	// WeightTitleFocus scales the share of the title's keyword weight held
	// by the file's best definition for them.
	WeightTitleFocus = 0.2
	// MaxFocusBytes: larger files are not read again (their focus is 0).
	MaxFocusBytes = 1 << 20
	// FocusFloor: files whose other evidence (before links) sums to less
	// are not read again: focus could not lift them among the strongest.
	FocusFloor = 0.3
)

// focused is the focus of one file, for the task's words and for the
// title's.
type focused struct {
	all, title piece
}

// piece is the best piece of a file for a set of words: the share of their
// weight it holds, its definition ("" for the file's head or a file without
// definitions) and the number of the words in it.
type piece struct {
	share float64
	def   string
	terms int
}

// focus returns the focus of file id, computed once per evaluator.
func (e *Evaluator) focus(id index.ID) focused {
	e.mu.Lock()
	f, ok := e.focusOf[id]
	e.mu.Unlock()
	if ok {
		return f
	}
	f = e.computeFocus(id)
	e.mu.Lock()
	e.focusOf[id] = f
	e.mu.Unlock()
	return f
}

func (e *Evaluator) computeFocus(id index.ID) focused {
	if e.taskTotal <= 0 {
		return focused{}
	}
	file := e.ix.File(id)
	if len(file.Defs) == 0 {
		return focused{} // one piece: its focus would be its coverage, counted again
	}
	full := filepath.Join(e.ix.Root(), filepath.FromSlash(file.Path))
	st, err := os.Stat(full)
	if err != nil || st.Size() > MaxFocusBytes || !st.Mode().IsRegular() {
		return focused{} // unreadable or too large: no focus, no error (the index judged it readable before)
	}
	text, err := os.ReadFile(full)
	if err != nil {
		return focused{}
	}
	// Piece boundaries: the lines where definitions start, in order.
	type start struct {
		line int
		name string
	}
	starts := []start{{1, ""}}
	for _, d := range file.Defs {
		name := d.Name
		if d.Parent != "" {
			name = d.Parent + "." + d.Name
		}
		starts = append(starts, start{d.Line, name})
	}
	sort.SliceStable(starts, func(a, b int) bool { return starts[a].line < starts[b].line })
	var best focused
	var sc tokenize.Scanner
	var low []byte // bound's buffer
	seen := map[string]bool{}
	off, line := 0, 1
	for i, s := range starts {
		if i+1 < len(starts) && starts[i+1].line <= s.line {
			continue // another definition starts on the same line: the piece is the last one's
		}
		from, l := advance(text, off, line, s.line)
		end := len(text)
		if i+1 < len(starts) {
			end, l = advance(text, from, l, starts[i+1].line)
		}
		off, line = end, l
		if skipPieces {
			if all, title := e.bound(text[from:end], &low); !beats(all, best.all.share) && !beats(title, best.title.share) {
				// It cannot hold more than the best so far: a piece
				// replaces the best only with a larger share.
				if end >= len(text) {
					break
				}
				continue
			}
		}
		clear(seen)
		var all, title piece
		sc.Terms(string(text[from:end]), func(t string) {
			if w, ok := e.taskTerms[t]; ok && !seen[t] {
				seen[strings.Clone(t)] = true // the Scanner reuses t's bytes
				all.share += w
				all.terms++
				if e.titleTerms[t] {
					title.share += w
					title.terms++
				}
			}
		})
		if all.share > best.all.share {
			all.def = s.name
			best.all = all
		}
		if title.share > best.title.share {
			title.def = s.name
			best.title = title
		}
		if end >= len(text) {
			break
		}
	}
	best.all.share /= e.taskTotal
	if e.titleTotal > 0 {
		best.title.share /= e.titleTotal
	}
	return best
}

// skipPieces lets computeFocus skip the pieces that cannot beat the best
// piece so far (see bound); a test turns it off to compare.
var skipPieces = true

// bound returns an upper bound of the shares of the task's words and of the
// title's that the piece b holds: the weights of the task terms that occur
// in b lower-cased, even as part of a longer word. Every term the tokenizer
// reports is a lower-cased substring of its text (a whole identifier
// trimmed of separators, or one of its parts), so the piece holds at most
// these. A piece with a byte beyond ASCII gets no bound (+Inf): lower-casing
// there may change the text's length or bring a letter into ASCII (the
// Kelvin sign lower-cases to k). low is a buffer kept between calls.
func (e *Evaluator) bound(b []byte, low *[]byte) (all, title float64) {
	if cap(*low) < len(b) {
		*low = make([]byte, len(b))
	}
	buf := (*low)[:len(b)]
	var or byte
	for i, c := range b {
		or |= c
		buf[i] = lowerASCII[c]
	}
	if or >= utf8.RuneSelf {
		return math.Inf(1), math.Inf(1)
	}
	for _, t := range e.termBytes {
		if bytes.Contains(buf, t) {
			w := e.taskTerms[string(t)]
			all += w
			if e.titleTerms[string(t)] {
				title += w
			}
		}
	}
	return all, title
}

// lowerASCII maps each byte to its lower case in ASCII.
var lowerASCII = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()

// beats reports whether a piece bounded by bound may hold a share above
// best: above 0, and above best but for rounding (the bound adds the same
// weights in another order).
func beats(bound, best float64) bool {
	return bound > 0 && bound+1e-9 > best
}

// advance returns the byte offset of line target, counting from offset off
// at line line, and the line reached (len(text) when the text ends first).
func advance(text []byte, off, line, target int) (int, int) {
	for line < target && off < len(text) {
		j := bytes.IndexByte(text[off:], '\n')
		if j < 0 {
			return len(text), line
		}
		off += j + 1
		line++
	}
	return off, line
}

// label describes a piece in a reason; what names the words ("task terms",
// "title words").
func (p piece) label(what string) string {
	if p.def == "" {
		return fmt.Sprintf("one part holds %d %s", p.terms, what)
	}
	return fmt.Sprintf("%s holds %d %s", p.def, p.terms, what)
}
