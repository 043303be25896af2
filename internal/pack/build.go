package pack

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/secret"
	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/loop"
)

// Pack limits.
const (
	// wholeFileTokens is the largest file shown whole: below it, reading the
	// whole file costs little more than excerpts and loses nothing.
	wholeFileTokens = 1500
	// partsShare caps what one file may take of the budget left, unless it is
	// the last: the next files still get room.
	partsShare = 0.5
	// maxTaskBytes bounds the task quoted in the header: longer tasks are logs.
	maxTaskBytes = 2000
	// footerCap bounds the list of files left out.
	footerCap = 400
	// wholeIfCovered shows a file whole, when it fits, once its excerpts would
	// hold this share of it: most of a file reads better without the gaps.
	wholeIfCovered = 0.6
)

// Build writes a Markdown context pack for task: files best first (by
// relevance; ties keep their order), each with its relevance, reason, missing
// context and either the whole file or its excerpts for terms, numbered,
// within opts.Budget tokens. defsOf gives a file's definitions (nil: none). A
// file is shown with some of its lines or not at all; a file that looks like
// secret material is listed with the reason and never shown, unless
// opts.ShowSecrets. The footer names the files that do not fit (a later,
// smaller file may still fit after a larger one was left out; when none fits
// it says the budget is too small), the unreadable ones (binary, deleted) and
// those whose credential values were masked; the header gives way to it, so
// the footer is there at any budget that can hold the title and one line. A
// path leaving root is an error.
func Build(root, task string, files []loop.Evaluation, terms []string, defsOf func(path string) []syntax.Tag, opts Options) (string, error) {
	limit := limitBytes(opts.Budget)
	order := append([]loop.Evaluation(nil), files...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].Relevance > order[j].Relevance })

	footerLimit := footerCap
	if limit >= 0 {
		footerLimit = max(min(footerCap, limit/8), len(noRoomLabel(opts.Budget))+len(": 99 files\n"))
	}
	var b strings.Builder
	b.WriteString(header(task, limit, footerLimit))
	if !fits(0, b.Len(), limit) {
		return cut(b.String(), limit), nil
	}

	var omitted, skipped, masked []string
	shown := 0
	for i, e := range order {
		used := b.Len()
		avail := -1
		if limit >= 0 {
			reserve := 0
			if i < len(order)-1 || len(omitted) > 0 || len(skipped) > 0 || len(masked) > 0 {
				reserve = footerLimit
			}
			avail = max(0, limit-used-reserve)
		}
		sec := sectionHead(e)
		if !fits(0, len(sec), avail) {
			omitted = append(omitted, e.Path)
			continue
		}
		data, err := read(root, e.Path, opts.ShowSecrets)
		if errors.Is(err, ErrOutsideRoot) {
			return "", err
		}
		var withheld *secret.Error
		if errors.As(err, &withheld) {
			note := "_not shown: " + withheld.Reason + "_\n\n"
			if !fits(0, len(sec)+len(note), avail) {
				omitted = append(omitted, e.Path)
				continue
			}
			b.WriteString(sec + note)
			shown++
			continue
		}
		if err != nil {
			skipped = append(skipped, e.Path)
			continue
		}
		var defs []syntax.Tag
		if defsOf != nil {
			defs = defsOf(e.Path)
		}
		share := avail
		if avail >= 0 && i < len(order)-1 {
			share = max(len(sec), int(float64(avail)*partsShare))
		}
		text, wasMasked := body(newFile(e.Path, data, terms, defs, opts.ShowSecrets), share-len(sec), avail < 0)
		if text == "" {
			omitted = append(omitted, e.Path)
			continue
		}
		b.WriteString(sec)
		b.WriteString(text)
		shown++
		if wasMasked {
			masked = append(masked, e.Path)
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

// noRoomLabel says why every file was left out.
func noRoomLabel(budget int) string {
	return fmt.Sprintf("omitted, no file fits in %d tokens", budget)
}

// header prints the title and the task, quoted within maxTaskBytes, a
// quarter of limit and what footerLimit leaves (-1: no limit); the task is
// left out when no line of it fits.
func header(task string, limit, footerLimit int) string {
	const title = "# Context for the task\n\n"
	taskCap := maxTaskBytes
	if limit >= 0 {
		taskCap = min(taskCap, limit/4, limit-len(title)-footerLimit-len("> \n\n"))
	}
	if taskCap < len("> x …") {
		return title
	}
	return title + quote(task, taskCap) + "\n\n"
}

// quote prints the task as a Markdown quote of at most limit bytes.
func quote(task string, limit int) string {
	task = strings.TrimSpace(task)
	if len(task) > limit {
		task = cut(task, max(0, limit-len(" …"))) + " …"
	}
	lines := strings.Split(task, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

// sectionHead prints a file's heading, reason and missing context.
func sectionHead(e loop.Evaluation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s (relevance %.2f)\n\n", LinePath(filepath.ToSlash(e.Path)), e.Relevance)
	if r := strings.TrimSpace(e.Reason); r != "" {
		b.WriteString(r + "\n\n")
	}
	if len(e.MissingContext) > 0 {
		b.WriteString("Missing context: " + strings.Join(e.MissingContext, "; ") + "\n\n")
	}
	return b.String()
}

// body prints the whole file or its excerpts in a fenced block within limit
// bytes, and whether a line it printed was masked; unlimited ignores limit.
// It returns "" when nothing fits. A large file is not printed whole to be
// measured: wholeSize stands in until the whole file is the choice.
func body(f *file, limit int, unlimited bool) (string, bool) {
	if unlimited {
		limit = -1
	}
	if len(f.lines) == 0 {
		note := "_empty file_\n\n"
		if fits(0, len(note), limit) {
			return note, false
		}
		return "", false
	}
	lang := Language(f.path)
	fence := fenceFor(f.lines)
	block := func(note, text string) string {
		return note + fence + lang + "\n" + text + fence + "\n\n"
	}
	wholeNote := fmt.Sprintf("_whole file, %d lines_\n\n", len(f.lines))
	size := f.wholeSize()
	if (size+BytesPerToken-1)/BytesPerToken <= wholeFileTokens {
		whole, masked := f.whole()
		if s := block(wholeNote, whole); Tokens(whole) <= wholeFileTokens && fits(0, len(s), limit) {
			return s, masked
		}
	}
	note := fmt.Sprintf("_excerpts of %d lines_\n\n", len(f.lines))
	overhead := len(block(note, ""))
	if !fits(0, overhead, limit) {
		return "", false
	}
	room := -1
	if limit >= 0 {
		room = limit - overhead
	}
	ex, exMasked := f.excerpt(f.pieces(true), room)
	if ex == "" {
		return "", false
	}
	if float64(len(ex)) >= wholeIfCovered*float64(size) {
		whole, masked := f.whole()
		if s := block(wholeNote, whole); fits(0, len(s), limit) {
			return s, masked
		}
	}
	return block(note, ex), exMasked
}

// fenceFor returns a backtick fence longer than any run of backticks in lines.
func fenceFor(lines []string) string {
	longest := 0
	for _, l := range lines {
		run := 0
		for i := 0; i < len(l); i++ {
			if l[i] == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// footerList is one line of the footer: a label and the files it names.
type footerList struct {
	label string
	paths []string
}

// footer prints its lists within limit bytes: as many names as fit, then a
// count.
func footer(lists []footerList, limit int) string {
	var b strings.Builder
	for _, l := range lists {
		if len(l.paths) == 0 {
			continue
		}
		b.WriteString(listLine(l.label, l.paths, limit-b.Len()))
	}
	return b.String()
}

// listLine prints "label: a, b, and N more\n" within limit bytes, or "".
func listLine(label string, paths []string, limit int) string {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = LinePath(filepath.ToSlash(p))
	}
	full := label + ": " + strings.Join(names, ", ") + "\n"
	if len(full) <= limit {
		return full
	}
	for k := len(names) - 1; k >= 1; k-- {
		s := fmt.Sprintf("%s: %s and %d more\n", label, strings.Join(names[:k], ", "), len(names)-k)
		if len(s) <= limit {
			return s
		}
	}
	s := fmt.Sprintf("%s: %d files\n", label, len(names))
	if len(s) <= limit {
		return s
	}
	return ""
}
