// Package report prints a retrieval's result for the command line: a readable
// trace (Text), one JSON object (JSON) or bare paths (Paths).
//
// Text shows one block per cycle of the loop, then why it stopped, the files
// found and the work done:
//
//	Cycle 1
//	  DISPATCH  keywords: authentication, token, expiry | patterns: ** | excludes: — | focus: —
//	            40 candidates
//	  EVALUATE  src/auth/auth.ts (0.92)  src/auth/tokens.ts (0.85)
//	            +31 below 0.2
//	  REFINE    add 'refresh', 'jwt'; patterns src/auth/**; exclude src/user.ts
//	            why: learned 'refresh', 'jwt' from auth.ts
//
//	Stopped: cycle 2: 3 files at or above 0.70 and no critical gap
//
//	Files
//	  0.92  src/auth/auth.ts
//	        defines validateToken:+0.35, …
//	        missing: definition of SessionManager
//
//	Stats: 24 files indexed · index 12 ms · retrieve 3 ms
//
// The text is deterministic for a given result (maps are printed in key
// order), so it can be compared with golden files. Colour (ANSI) is added only
// when TextOptions.Color is set: the caller sets it when the writer is a
// terminal.
//
// JSON writes the result as one indented object with exactly the keys task,
// files, ranked, cycles, stopped and stats. Lists are never null (an empty
// list is []; a cycle's refinement alone is null, for the last cycle, as in
// package loop), and every relevance is rounded to 3 decimals: the evaluators'
// signals are not finer than that, and the rounding keeps float noise such as
// 0.30000000000000004 out of diffs and golden files.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/pack"
	"github.com/hone-dev/hone/loop"
)

// Layout constants.
const (
	// notRelevant is the relevance below which a file is "not relevant" on
	// the loop's scale: such files are counted, not listed, in a trace.
	notRelevant = 0.2
	// related is where the loop's "related patterns or types" band roughly
	// starts; scores from it up to the threshold are shown in yellow.
	related = 0.4
	// defaultWidth is the line width text is wrapped to.
	defaultWidth = 100
	// defaultTop is how many judged files a cycle lists.
	defaultTop = 6
	// defaultKeywords is how many keywords a DISPATCH line lists.
	defaultKeywords = 12
	// listShown is how many excludes, patterns or focus areas a line lists
	// before it counts the rest.
	listShown = 4
	// fallbackFiles is how many ranked files are shown when none reached the
	// threshold.
	fallbackFiles = 5
	// stageIndent aligns the text after a stage name.
	stageIndent = "            "
	// fileIndent aligns a file's reason under its path.
	fileIndent = "        "
)

// TextOptions control Text. The zero value prints a plain trace.
type TextOptions struct {
	// Color adds ANSI colours; set it only when the writer is a terminal.
	Color bool
	// Width wraps lines (0: 100).
	Width int
	// Top is how many judged files each cycle lists (0: 6).
	Top int
	// Keywords is how many keywords each DISPATCH lists (0: 12).
	Keywords int
	// NoTrace leaves out the cycles: only the stop reason, files and stats.
	NoTrace bool
	// Threshold is the relevance shown in green (0: loop.DefaultThreshold);
	// pass the retrieval's own.
	Threshold float64
}

func (o *TextOptions) setDefaults() {
	if o.Width <= 0 {
		o.Width = defaultWidth
	}
	if o.Top <= 0 {
		o.Top = defaultTop
	}
	if o.Keywords <= 0 {
		o.Keywords = defaultKeywords
	}
	if o.Threshold <= 0 {
		o.Threshold = loop.DefaultThreshold
	}
}

var errNil = errors.New("report: nil result")

// ANSI styles.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiCyan   = "\x1b[36m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
)

// printer writes a report, wrapping at a width and colouring when asked.
type printer struct {
	w    io.Writer
	opts TextOptions
	err  error
}

func (p *printer) line(s string) {
	if p.err == nil {
		_, p.err = io.WriteString(p.w, s+"\n")
	}
}

// style wraps s in an ANSI style when colour is on.
func (p *printer) style(code, s string) string {
	if !p.opts.Color || s == "" {
		return s
	}
	return code + s + ansiReset
}

// score prints a relevance, coloured by its band.
func (p *printer) score(r float64) string {
	s := fmt.Sprintf("%.2f", r)
	switch {
	case r >= p.opts.Threshold:
		return p.style(ansiGreen, s)
	case r >= related:
		return p.style(ansiYellow, s)
	}
	return p.style(ansiDim, s)
}

// item is a piece of text and how it is shown (coloured or not); layout uses
// the plain form's width.
type item struct{ plain, shown string }

func plain(s string) item { return item{s, s} }

// flow lays items out after first (the first line's prefix) and indent (the
// next lines'), separated by sep, breaking lines at the width. Lines break
// between items, and inside an uncoloured item that fits on no line, between
// its words.
func (p *printer) flow(first, indent string, items []item, sep string) {
	type token struct{ sep, plain, shown string }
	var tokens []token
	for _, it := range items {
		if it.plain == it.shown && max(width(first), width(indent))+width(it.plain) > p.opts.Width && strings.Contains(it.plain, " ") {
			for i, w := range strings.Fields(it.plain) {
				s := " "
				if i == 0 {
					s = sep
				}
				tokens = append(tokens, token{s, w, w})
			}
			continue
		}
		tokens = append(tokens, token{sep, it.plain, it.shown})
	}
	cur := first
	fresh := true // nothing on the current line yet
	for _, t := range tokens {
		if !fresh && width(cur)+width(t.sep+t.plain) > p.opts.Width {
			p.line(strings.TrimRight(cur, " "))
			cur, fresh = indent, true
		}
		if !fresh {
			cur += t.sep
		}
		cur += t.shown
		fresh = false
	}
	if !fresh || strings.TrimSpace(first) != "" {
		p.line(strings.TrimRight(cur, " "))
	}
}

// text wraps prose after first and indent, by words.
func (p *printer) text(first, indent, s string) {
	var items []item
	for _, w := range strings.Fields(s) {
		items = append(items, plain(w))
	}
	p.flow(first, indent, items, " ")
}

// width counts the runes of s that show: ANSI colour codes take no room.
func width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			j := strings.IndexByte(s[i:], 'm')
			if j < 0 {
				break
			}
			i += j + 1
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}

// Text writes a readable report of res: the trace of each cycle, why the loop
// stopped, the files found with their reasons and missing context, and the
// stats.
func Text(w io.Writer, res *hone.Result, opts TextOptions) error {
	if res == nil {
		return errNil
	}
	opts.setDefaults()
	p := &printer{w: w, opts: opts}
	p.text(p.style(ansiBold, "Task:")+" ", "      ", firstLine(res.Task))
	p.line("")
	if !opts.NoTrace {
		for _, c := range res.Cycles {
			p.cycle(c)
			p.line("")
		}
	}
	p.text(p.style(ansiBold, "Stopped:")+" ", "         ", res.Stopped)
	p.line("")
	p.files(res)
	p.stats(res.Stats)
	return p.err
}

// firstLine shortens a multi-line task to its first line and a count.
func firstLine(task string) string {
	task = strings.TrimSpace(task)
	first, rest, ok := strings.Cut(task, "\n")
	if !ok {
		return task
	}
	return fmt.Sprintf("%s (+%s)", strings.TrimSpace(first), plural(strings.Count(rest, "\n")+1, "line"))
}

func (p *printer) stage(name string) string {
	return "  " + p.style(ansiCyan, fmt.Sprintf("%-8s", name)) + "  "
}

func (p *printer) cycle(c loop.Cycle) {
	p.line(p.style(ansiBold, fmt.Sprintf("Cycle %d", c.N)))

	// DISPATCH: the query.
	q := c.Query
	terms := q.Terms()
	kw := "—"
	if len(terms) > 0 {
		// As many keywords as fit on the first line, at most opts.Keywords
		// and at least one.
		room := p.opts.Width - width(stageIndent+"keywords: ")
		n := 1
		for n < min(len(terms), p.opts.Keywords) {
			s := strings.Join(terms[:n+1], ", ")
			if n+1 < len(terms) {
				s += fmt.Sprintf(" … +%d", len(terms)-n-1)
			}
			if width(s) > room {
				break
			}
			n++
		}
		kw = strings.Join(terms[:n], ", ")
		if n < len(terms) {
			kw += fmt.Sprintf(" … +%d", len(terms)-n)
		}
	}
	patterns := list(q.Patterns, "**")
	parts := []item{
		plain("keywords: " + kw),
		plain("patterns: " + patterns),
		plain("excludes: " + list(q.Excludes, "—")),
		plain("focus: " + list(q.FocusAreas, "—")),
	}
	p.flow(p.stage("DISPATCH"), stageIndent, parts, " | ")
	p.line(stageIndent + plural(c.Candidates, "candidate"))

	// EVALUATE: the best judgments, the rest counted.
	var shown []item
	more, low := 0, 0
	for _, e := range c.Evaluations {
		switch {
		case e.Relevance < notRelevant:
			low++
		case len(shown) < p.opts.Top:
			shown = append(shown, item{
				plain: fmt.Sprintf("%s (%.2f)", pack.LinePath(e.Path), e.Relevance),
				shown: fmt.Sprintf("%s (%s)", pack.LinePath(e.Path), p.score(e.Relevance)),
			})
		default:
			more++
		}
	}
	var counts []string
	if more > 0 {
		counts = append(counts, fmt.Sprintf("+%d more at or above %.1f", more, notRelevant))
	}
	if low > 0 {
		counts = append(counts, fmt.Sprintf("+%d below %.1f", low, notRelevant))
	}
	switch {
	case len(shown) > 0:
		p.flow(p.stage("EVALUATE"), stageIndent, shown, "  ")
		if len(counts) > 0 {
			p.line(stageIndent + p.style(ansiDim, strings.Join(counts, ", ")))
		}
	case len(counts) > 0:
		p.line(p.stage("EVALUATE") + strings.Join(counts, ", "))
	default:
		p.line(p.stage("EVALUATE") + "nothing judged")
	}

	// REFINE: what changed and why.
	r := c.Refinement
	if r == nil {
		return
	}
	var changes []item
	if len(r.AddedKeywords) > 0 {
		changes = append(changes, plain("add "+quoted(r.AddedKeywords)))
	}
	if len(r.AddedPatterns) > 0 {
		changes = append(changes, plain("patterns "+list(r.AddedPatterns, "")))
	}
	if len(r.Excluded) > 0 {
		changes = append(changes, plain("exclude "+list(r.Excluded, "")))
	}
	if len(r.AddedFocus) > 0 {
		changes = append(changes, plain("focus "+list(r.AddedFocus, "")))
	}
	if len(changes) == 0 {
		changes = append(changes, plain("nothing to add"))
	}
	p.flow(p.stage("REFINE"), stageIndent, changes, "; ")
	if len(r.Associations) > 0 {
		var as []item
		for _, a := range r.Associations {
			as = append(as, plain(a))
		}
		p.flow(stageIndent+"associations: ", stageIndent+"  ", as, "; ")
	}
	for i, why := range r.Why {
		label := "why: "
		if i > 0 {
			label = "     "
		}
		p.text(stageIndent+p.style(ansiDim, label), stageIndent+"       ", why)
	}
}

// list prints at most listShown items and counts the rest; empty prints none.
func list(s []string, none string) string {
	if len(s) == 0 {
		return none
	}
	n := min(len(s), listShown)
	out := strings.Join(s[:n], ", ")
	if n < len(s) {
		out += fmt.Sprintf(" +%d more", len(s)-n)
	}
	return out
}

// quoted prints terms as 'a', 'b', counting beyond listShown*2.
func quoted(s []string) string {
	n := min(len(s), listShown*2)
	q := make([]string, n)
	for i, t := range s[:n] {
		q[i] = "'" + t + "'"
	}
	out := strings.Join(q, ", ")
	if n < len(s) {
		out += fmt.Sprintf(" +%d more", len(s)-n)
	}
	return out
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// files prints the result's files, or the best ranked ones when none reached
// the threshold.
func (p *printer) files(res *hone.Result) {
	files := res.Files
	switch {
	case len(files) > 0:
		p.line(p.style(ansiBold, "Files"))
	case len(res.Ranked) > 0:
		files = res.Ranked[:min(fallbackFiles, len(res.Ranked))]
		p.line(p.style(ansiBold, "No file reached the threshold; best ranked:"))
	default:
		p.line("No file found.")
		p.line("")
		return
	}
	for _, e := range files {
		p.line("  " + p.score(e.Relevance) + "  " + p.style(ansiBold, pack.LinePath(e.Path)))
		if r := strings.TrimSpace(e.Reason); r != "" {
			p.text(fileIndent, fileIndent, r)
		}
		if len(e.MissingContext) > 0 {
			p.text(fileIndent+p.style(ansiDim, "missing:")+" ", fileIndent+"  ", strings.Join(e.MissingContext, "; "))
		}
	}
	p.line("")
}

// stats prints the stats line, evaluator figures in key order.
func (p *printer) stats(s hone.Stats) {
	parts := []item{
		plain(fmt.Sprintf("%s indexed", plural(s.FilesIndexed, "file"))),
	}
	if s.Unparsed > 0 {
		parts = append(parts, plain(fmt.Sprintf("first answer: %d not parsed yet (the next runs parse them)", s.Unparsed)))
	}
	parts = append(parts,
		plain(fmt.Sprintf("index %d ms", s.IndexMs)),
		plain(fmt.Sprintf("retrieve %d ms", s.RetrieveMs)),
	)
	keys := make([]string, 0, len(s.Extra))
	for k := range s.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, plain(fmt.Sprintf("%s %v", k, s.Extra[k])))
	}
	p.flow(p.style(ansiBold, "Stats:")+" ", "       ", parts, " · ")
}

// JSON writes res as one indented JSON object with the keys task, files,
// ranked, cycles, stopped and stats; lists are [] when empty and relevances
// are rounded to 3 decimals.
func JSON(w io.Writer, res *hone.Result) error {
	if res == nil {
		return errNil
	}
	out := normalize(res)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// normalize copies res with empty lists for nil ones and rounded relevances.
func normalize(res *hone.Result) *hone.Result {
	out := *res
	out.Files = evals(res.Files)
	out.Ranked = evals(res.Ranked)
	out.Cycles = make([]loop.Cycle, len(res.Cycles))
	for i, c := range res.Cycles {
		c.Evaluations = evals(c.Evaluations)
		if c.Refinement != nil {
			r := *c.Refinement
			r.AddedKeywords = strs(r.AddedKeywords)
			r.AddedPatterns = strs(r.AddedPatterns)
			r.Excluded = strs(r.Excluded)
			r.AddedFocus = strs(r.AddedFocus)
			r.Associations = strs(r.Associations)
			r.Why = strs(r.Why)
			c.Refinement = &r
		}
		out.Cycles[i] = c
	}
	return &out
}

func evals(es []loop.Evaluation) []loop.Evaluation {
	out := make([]loop.Evaluation, len(es))
	for i, e := range es {
		e.Relevance = round3(e.Relevance)
		e.MissingContext = strs(e.MissingContext)
		out[i] = e
	}
	return out
}

func strs(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func round3(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1000) / 1000
}

// NoPaths says why Paths wrote nothing, for stderr: why the loop stopped,
// and the best ranked files below the threshold, if any ("hone: no file
// reached 0.70 (cycle 3: ...); best ranked: a.py 0.66, b.py 0.52").
func NoPaths(res *hone.Result, threshold float64) string {
	msg := fmt.Sprintf("hone: no file reached %.2f (%s)", threshold, res.Stopped)
	var best []string
	for _, e := range res.Ranked {
		if len(best) == 3 {
			break
		}
		best = append(best, fmt.Sprintf("%s %.2f", pack.LinePath(e.Path), e.Relevance))
	}
	if len(best) > 0 {
		msg += "; best ranked: " + strings.Join(best, ", ") + " (--json shows every file and why)"
	}
	return msg
}

// Paths writes the result's files, one path a line (nothing when none). A
// path that a line could not hold as it is (a control character such as a
// newline in a file name, or a leading double quote) is written as a Go
// quoted string, the way git quotes such paths: "new\nline.py".
func Paths(w io.Writer, res *hone.Result) error {
	if res == nil {
		return errNil
	}
	var b strings.Builder
	for _, e := range res.Files {
		b.WriteString(pack.LinePath(e.Path) + "\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
