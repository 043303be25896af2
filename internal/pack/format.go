package pack

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hone-dev/hone/loop"
)

// Pack limits.
const (
	// wholeFileTokens is the largest file shown whole: below it, reading the
	// whole file costs little more than excerpts and loses nothing.
	wholeFileTokens = 1500
	// maxTaskBytes bounds the task quoted in the header: longer tasks are logs.
	maxTaskBytes = 2000
	// footerCap bounds the list of files left out.
	footerCap = 400
	// wholeIfCovered shows a file whole, when it fits, once its excerpts would
	// hold this share of it: most of a file reads better without the gaps.
	wholeIfCovered = 0.6
)

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
