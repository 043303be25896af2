package pack

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/hone-dev/hone/internal/secret"
	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/loop"
)

// # Filling the budget
//
// A pack is the context a subagent works from, so it spends its budget on
// what the change most likely reads or edits, across files: the selected
// files (the target and what it needs) first, then the rest of the ranking.
//
// Each file is cut into units (see Aiming at the edit); a small file is
// one unit, the whole file. A unit's value is the chance that it holds the
// edit, as two factors:
//
//	the file's weight  exp(FileWeightSlope × (relevance - 1)), the share of
//	                   files the fix changed at that relevance on the
//	                   development set (about 0.64 at 0.95, 0.12 at 0.75,
//	                   0.02 at 0.55); a selected file weighs at least
//	                   selectedFloor
//	the unit's share   its score over the file's total (plus a small even
//	                   share, so that a file with no evidence still shows
//	                   its best part: its head)
//
// The first file is offered whole, as one unit worth the file's weight,
// when it fits in half the budget (firstWholeShare), as any file of at most
// wholeFileTokens is: it is what the fix changed two times in three, and a
// whole file shows every part the edit touches, where a short task gives
// little to aim its parts at (one-line tasks: every hunk shown in 43.2 ->
// 45.7 % of packs; issue reports unchanged, 58.2 %; BENCHMARKS.md).
//
// Units are taken by value, best first, as long as they fit; a file's first
// unit also pays for its section heading and reason. A unit larger than
// maxUnitShare of the budget is shown as the excerpt of its matching lines
// within it (its first line, the signature, always). A method is shown with
// the first line of its class. What is chosen of a file is printed in file
// order, with "…" between runs; a file whose chosen lines hold most of it
// is shown whole when that fits.
//
// A Fallback file (hone's own ranking after a judge's files, see hone's
// Repo.Pack) gets only what is left: its units are taken after every unit
// of the others, and the others are shown whole where that fits first.
//
// The footer lists the ranked files that were left out and why.

// Pack weights and limits.
const (
	// FileWeightSlope turns a relevance into the share of files the fix
	// changed at that relevance (fitted on the development set's
	// calibration table: 64 % at 0.9-1.0, 38 % at 0.8-0.9, 12 % at 0.7-0.8,
	// 6 % at 0.6-0.7, 2 % at 0.5-0.6).
	FileWeightSlope = 10.0
	// selectedFloor: a selected file is part of the context the task needs,
	// whatever its relevance says about it being the edit.
	selectedFloor = 0.15
	// The rank prior: the first file is what the fix changed 68 % of the
	// time on the development set, the second 19 %, then about
	// rankPriorSecond × (2/rank)^rankPriorDecay (5 % at rank 3, 4 % at 4,
	// 2-3 % at 5-7): a file's weight is the larger of that and what its
	// relevance says (the competition between candidates compresses the
	// relevance of the runners-up).
	rankPriorFirst  = 0.68
	rankPriorSecond = 0.19
	rankPriorDecay  = 1.5
	// presence: a file's best unit is worth this much more of the file's
	// weight: a file named with its best part lets the subagent open the
	// rest, so the next files' first parts come before the first file's
	// fifth.
	presence = 0.5
	// evenShare is the share of a file's value spread evenly over its
	// units: a file with no evidence still shows its first unit.
	evenShare = 0.1
	// firstWholeShare: the first file is offered whole up to this share of
	// the budget (see Filling the budget).
	firstWholeShare = 0.5
	// maxUnitShare caps what one unit may take of the budget before it is
	// cut to its matching lines.
	maxUnitShare = 0.3
	// maxPackFiles bounds the files considered: on a sample of the
	// development set 8, 12 and 20 files gave the same coverage at 8,000
	// tokens, and each file costs a read and a tokenization.
	maxPackFiles = 12
	// minPackRelevance: files below are tangential at best.
	minPackRelevance = 0.2
	// maxReasonBytes cuts a ranked (not selected) file's reason.
	maxReasonBytes = 240
)

// File is one file offered to Build.
type File struct {
	loop.Evaluation
	// Selected: the file is in the selection (the target or what it needs).
	Selected bool
	// Defs are the file's definitions (with their end lines).
	Defs []syntax.Tag
	// Evidence says what the task says about the file's parts.
	Evidence Evidence
	// Fallback files get only what the budget leaves once every part of
	// the others that fits is in (hone's own ranking after a judge's files).
	Fallback bool
}

// Input is what Build packs.
type Input struct {
	Task string
	// Files: the selection, then the rest of the ranking, best first.
	Files []File
	// Terms are the words excerpts match (the task's keywords).
	Terms []string
	// Read reads a file (refusing paths outside the root, and secret
	// material with a *secret.Error); nil reads under Root.
	Read func(path string) ([]byte, error)
	Root string
}

// item is one unit of one file, a candidate for the pack.
type item struct {
	file     int
	unit     unit
	value    float64
	whole    bool // the whole file
	fallback bool // of a Fallback file: after every other item
}

// packFile is a file being packed.
type packFile struct {
	in       File
	f        *file
	head     string
	units    []unit
	chosen   []bool // by line, 1-based
	opened   bool
	withheld string // the note of a file not shown (secret material)
	n, runs  int    // chosen lines, and runs of them
	body     int    // bytes of the chosen lines as excerpts print them
	small    bool   // small enough to show whole
	fenceS   string
	wholeLen int
}

// masked reports whether a line shown had a credential value masked.
func (pf *packFile) masked() bool {
	for l := 1; l <= len(pf.f.lines); l++ {
		if pf.chosen[l] && pf.f.isMasked(l) {
			return true
		}
	}
	return false
}

// fence returns the file's code fence, computed once.
func (pf *packFile) fence() string {
	if pf.fenceS == "" {
		pf.fenceS = fenceFor(pf.f.lines)
	}
	return pf.fenceS
}

// contextHead prints a file's heading, reason and missing context; short
// cuts the reason to maxReasonBytes.
func contextHead(e loop.Evaluation, short bool) string {
	if short {
		if r := strings.TrimSpace(e.Reason); len(r) > maxReasonBytes {
			cutAt := strings.LastIndex(r[:maxReasonBytes], ", ")
			if cutAt <= 0 {
				cutAt = len(cut(r, maxReasonBytes))
			}
			e.Reason = r[:cutAt] + ", …"
		}
	}
	return sectionHead(e)
}

// Build writes a Markdown context pack of in within opts.Budget tokens
// (see Filling the budget). A file that looks like secret material is
// listed with the reason and never shown, and credential values are
// masked, unless opts.ShowSecrets.
func Build(in Input, opts Options) (string, error) {
	limit := limitBytes(opts.Budget)
	footerLimit := footerCap
	if limit >= 0 {
		footerLimit = max(min(footerCap, limit/8), len(noRoomLabel(opts.Budget))+len(": 99 files\n"))
	}
	var b strings.Builder
	b.WriteString(header(in.Task, limit, footerLimit))
	if !fits(0, b.Len(), limit) {
		return cut(b.String(), limit), nil
	}
	readFn := in.Read
	if readFn == nil {
		readFn = func(p string) ([]byte, error) { return read(in.Root, p, opts.ShowSecrets) }
	}

	var files []*packFile
	var skipped []string
	for _, fi := range in.Files {
		if len(files) >= maxPackFiles {
			break
		}
		if !fi.Selected && fi.Relevance < minPackRelevance {
			continue
		}
		data, err := readFn(fi.Path)
		var withheld *secret.Error
		switch {
		case errors.As(err, &withheld):
			pf := &packFile{in: fi, f: &file{path: fi.Path}, withheld: "_not shown: " + withheld.Reason + "_\n\n", small: true}
			pf.head = contextHead(fi.Evaluation, !fi.Selected)
			pf.chosen = make([]bool, 2)
			files = append(files, pf)
			continue
		case errors.Is(err, ErrOutsideRoot):
			return "", err
		case err != nil:
			skipped = append(skipped, fi.Path)
			continue
		}
		pf := &packFile{in: fi, f: newFile(fi.Path, data, in.Terms, fi.Defs, opts.ShowSecrets)}
		pf.head = contextHead(fi.Evaluation, !fi.Selected)
		pf.chosen = make([]bool, len(pf.f.lines)+2)
		tokens := (pf.f.wholeSize() + BytesPerToken - 1) / BytesPerToken
		pf.small = len(pf.f.lines) == 0 || tokens <= wholeFileTokens ||
			len(files) == 0 && !fi.Fallback && limit >= 0 && float64(tokens) <= firstWholeShare*float64(opts.Budget)
		pf.units = pf.f.score(pf.f.units(), fi.Evidence)
		files = append(files, pf)
	}

	room := -1
	if limit >= 0 {
		room = max(0, limit-b.Len()-footerLimit)
	}
	unitCap := -1
	if limit >= 0 {
		unitCap = int(maxUnitShare * float64(limit))
	}
	var items []item
	for i, pf := range files {
		w := math.Max(math.Exp(FileWeightSlope*(pf.in.Relevance-1)), rankPrior(i+1))
		if pf.in.Selected {
			w = math.Max(w, selectedFloor)
		}
		total := 0.0
		for _, u := range pf.units {
			total += math.Max(0, u.score)
		}
		if pf.small {
			// Whole, if it fits: its value is the file's.
			items = append(items, item{file: i, unit: unit{from: 1, to: max(1, len(pf.f.lines)), def: -1, parent: -1},
				value: w * (1 + presence), whole: true, fallback: pf.in.Fallback})
		}
		n := float64(len(pf.units))
		for k, u := range pf.units {
			share := evenShare / n
			if total > 0 {
				share += (1 - evenShare) * math.Max(0, u.score) / total
			} else {
				share = 1 / n
			}
			if k == 0 {
				share += presence
			}
			items = append(items, item{file: i, unit: u, value: w * share, fallback: pf.in.Fallback})
		}
	}
	slices.SortStableFunc(items, func(a, c item) int {
		if a.fallback != c.fallback {
			if a.fallback {
				return 1
			}
			return -1
		}
		return cmp.Compare(c.value, a.value)
	})

	used := 0
	// Two rounds: the files, then the Fallback files with what is left;
	// each ends by showing whole the files whose chosen lines hold most of
	// them.
	split := slices.IndexFunc(items, func(it item) bool { return it.fallback })
	if split < 0 {
		split = len(items)
	}
	for _, fallback := range []bool{false, true} {
		round := items[:split]
		if fallback {
			round = items[split:]
		}
		for _, it := range round {
			pf := files[it.file]
			var lines []int
			if it.whole {
				for l := 1; l <= max(1, len(pf.f.lines)); l++ {
					lines = append(lines, l)
				}
			} else {
				lines = pf.f.unitLines(it.unit, unitCap)
			}
			if room >= 0 {
				// A rough lower bound first: most units that cannot fit are
				// turned away without measuring (masking) their lines.
				rough := 0
				for _, l := range lines {
					if !pf.chosen[l] {
						rough += pf.f.roughCost(l)
					}
				}
				if used+rough*9/10 > room {
					continue
				}
			}
			before := pf.size()
			var added []int
			for _, l := range lines {
				if !pf.chosen[l] {
					pf.choose(l, true)
					added = append(added, l)
				}
			}
			if len(added) == 0 {
				continue
			}
			cost := pf.size() - before
			if !pf.opened {
				cost += len(pf.head)
			}
			if room >= 0 && used+cost > room {
				for _, l := range added {
					pf.choose(l, false)
				}
				continue
			}
			used += cost
			pf.opened = true
		}
		// A file whose chosen lines hold most of it reads better whole.
		for _, pf := range files {
			if !pf.opened || pf.in.Fallback != fallback {
				continue
			}
			before := pf.size()
			if pf.withheld != "" || float64(before) < wholeIfCovered*float64(pf.f.wholeSize()) {
				continue
			}
			var added []int
			for l := 1; l <= len(pf.f.lines); l++ {
				if !pf.chosen[l] {
					pf.choose(l, true)
					added = append(added, l)
				}
			}
			if cost := pf.size() - before; room >= 0 && used+cost > room {
				for _, l := range added {
					pf.choose(l, false)
				}
			} else {
				used += cost
			}
		}
	}

	var omitted, masked []string
	shown := 0
	for _, pf := range files {
		if !pf.opened {
			omitted = append(omitted, pf.in.Path)
			continue
		}
		shown++
		b.WriteString(pf.head)
		b.WriteString(pf.render())
		if pf.masked() {
			masked = append(masked, pf.in.Path)
		}
	}
	footerRoom := footerCap // the footer comes last: it may take what the files left
	if limit >= 0 {
		footerRoom = min(footerCap, limit-b.Len())
	}
	omittedLabel := "omitted for budget"
	if shown == 0 && limit >= 0 {
		omittedLabel = noRoomLabel(opts.Budget)
	}
	b.WriteString(footer([]footerList{
		{omittedLabel, omitted}, {"unreadable", skipped}, {"credential values masked in", masked},
	}, footerRoom))
	return cut(b.String(), limit), nil
}

// rankPrior is the share of files at a rank that the fix changed (see
// rankPriorFirst).
func rankPrior(rank int) float64 {
	switch {
	case rank <= 1:
		return rankPriorFirst
	case rank == 2:
		return rankPriorSecond
	}
	return rankPriorSecond * math.Pow(2/float64(rank), rankPriorDecay)
}

// roughCost is about what line l costs in an excerpt, without masking it
// (masking changes a line by a few bytes): enough to choose lines by;
// the budget is counted with lineCost.
func (f *file) roughCost(l int) int {
	if l > len(f.lines) {
		return 0 // the one line of an empty or withheld file
	}
	return min(len(f.lines[l-1]), maxLineBytes+len(" …")) + f.width + len(" | \n")
}

// unitLines lists the lines that show u: all of them, or, when they cost
// more than limit bytes (-1: no limit), its first line and the lines that
// match the task's words with their context, best first within limit; a
// member's class line comes first.
func (f *file) unitLines(u unit, limit int) []int {
	var out []int
	if u.parent >= 0 {
		out = append(out, f.defs[u.parent].Line)
	}
	cost := 0
	for l := u.from; l <= u.to; l++ {
		cost += f.roughCost(l)
	}
	if limit < 0 || cost <= limit {
		for l := u.from; l <= u.to; l++ {
			out = append(out, l)
		}
		return out
	}
	// Too large: the signature, then the matching lines by value.
	start := u.from
	if u.def >= 0 {
		start = f.defs[u.def].Line
	}
	out = append(out, start)
	used := f.roughCost(start)
	var ps []piece
	for _, p := range f.pieces(false) {
		if p.from >= u.from && p.to <= u.to {
			ps = append(ps, p)
		}
	}
	taken := map[int]bool{start: true}
	for _, p := range ps {
		c := len(separator)
		for l := p.from; l <= p.to; l++ {
			if !taken[l] {
				c += f.roughCost(l)
			}
		}
		if used+c > limit {
			continue
		}
		used += c
		for l := p.from; l <= p.to; l++ {
			if !taken[l] {
				taken[l] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// choose marks line l chosen (on) or not, keeping the counts size reads.
func (pf *packFile) choose(l int, on bool) {
	if pf.chosen[l] == on {
		return
	}
	left := l > 1 && pf.chosen[l-1]
	right := l+1 < len(pf.chosen) && pf.chosen[l+1]
	d := 1
	if !on {
		d = -1
	}
	pf.chosen[l] = on
	if l > len(pf.f.lines) {
		return // the empty file's one line
	}
	pf.n += d
	pf.body += d * pf.f.lineCost(l)
	switch {
	case left && right:
		pf.runs -= d // two runs join (or split)
	case !left && !right:
		pf.runs += d
	}
}

// size is the size of the file's block as render prints it now (0 with
// no line chosen).
func (pf *packFile) size() int {
	f := pf.f
	if len(f.lines) == 0 {
		return len(pf.render())
	}
	if pf.n == 0 {
		return 0
	}
	note := "_excerpts of " + nLines(len(f.lines)) + "_\n\n"
	body, runs := pf.body, pf.runs
	if pf.n == len(f.lines) {
		if pf.wholeLen == 0 {
			whole, _ := f.whole()
			pf.wholeLen = len(whole)
		}
		note, body, runs = "_whole file, "+nLines(len(f.lines))+"_\n\n", pf.wholeLen, 1
	}
	fence := pf.fence()
	return len(note) + len(fence) + len(Language(f.path)) + 1 + body + (runs-1)*len(separator) + len(fence) + 2
}

// render prints the file's chosen lines in order in a fenced block ("" with
// none chosen), noted as the whole file when every line is.
func (pf *packFile) render() string {
	f := pf.f
	if len(f.lines) == 0 {
		switch {
		case !pf.chosen[1]:
			return ""
		case pf.withheld != "":
			return pf.withheld
		}
		return "_empty file_\n\n"
	}
	n := 0
	for l := 1; l <= len(f.lines); l++ {
		if pf.chosen[l] {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	lang := Language(f.path)
	fence := pf.fence()
	if n == len(f.lines) {
		whole, _ := f.whole()
		return "_whole file, " + nLines(len(f.lines)) + "_\n\n" + fence + lang + "\n" + whole + fence + "\n\n"
	}
	var b strings.Builder
	prev := 0
	for l := 1; l <= len(f.lines); l++ {
		if !pf.chosen[l] {
			continue
		}
		if prev != 0 && prev != l-1 {
			b.WriteString(separator)
		}
		b.WriteString(f.renderLine(l, true))
		prev = l
	}
	return "_excerpts of " + nLines(len(f.lines)) + "_\n\n" + fence + lang + "\n" + b.String() + fence + "\n\n"
}
