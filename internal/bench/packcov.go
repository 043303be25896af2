package bench

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// # Pack coverage
//
// What a subagent receives is the context pack, so the pack is measured too:
// with Options.PackBudgets, each instance's pack is built at every budget
// and read back the way a reader would, as shared/bench/packcov.py reads the
// CLI's --pack output (the two must agree on the same pack):
//
//   - a section starts at a heading "## PATH (relevance R)" outside a fence;
//     the path is shown (files_covered counts such headings);
//   - in a section, "_whole file, N lines_" shows lines 1..N;
//   - inside a fence, a line "  N | text" shows line N.
//
// A gold hunk is covered when at least one of its edit lines is shown; the
// line share is the share of all edit lines shown.

// Hunk is one hunk of the real fix: the pre-image line numbers it removes
// or changes in Path (a pure insertion is located at the line it follows).
type Hunk struct {
	Path  string `json:"path"`
	Lines []int  `json:"lines"`
}

// PackCoverage is how much of the real fix one pack shows.
type PackCoverage struct {
	// Budget is the pack's token budget; Tokens what it used (bytes/4).
	Budget int `json:"budget"`
	Tokens int `json:"tokens"`
	// Files is the number of file sections in the pack.
	Files int `json:"files"`
	// FilesCovered: every gold file has a section.
	FilesCovered bool `json:"files_covered"`
	// Hunks is the number of gold hunks (0: the instance has none, and the
	// hunk figures are not counted).
	Hunks int `json:"hunks"`
	// HunksCovered: every gold hunk shows at least one of its edit lines.
	HunksCovered bool `json:"hunks_covered"`
	// HunkShare is the share of gold hunks shown, LineShare the share of
	// their edit lines.
	HunkShare float64 `json:"hunk_share"`
	LineShare float64 `json:"line_share"`
	// BuildMs is how long the pack took to build.
	BuildMs float64 `json:"build_ms"`
}

var (
	packSection = regexp.MustCompile(`^## (.+?) \(relevance [0-9.]+\)\s*$`)
	packWhole   = regexp.MustCompile(`^_whole file, (\d+) lines?_`)
	packLine    = regexp.MustCompile(`^\s*(\d+) \|`)
)

// excerptLine is a numbered line of a judge's excerpt: "  12 | text".
var excerptLine = regexp.MustCompile(`^\s*(\d+) \|`)

// ExcerptLines reads back which lines of its file a judge's excerpt
// (hone.Excerpts.Of, pack.View) shows: its numbered lines.
func ExcerptLines(view string) map[int]bool {
	shown := map[int]bool{}
	for _, line := range splitLines(view) {
		if m := excerptLine.FindStringSubmatch(line); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				shown[n] = true
			}
		}
	}
	return shown
}

// ShownLines reads a pack back: for every file section, the line numbers it
// shows (an empty set for a section with no line shown).
func ShownLines(pack string) map[string]map[int]bool {
	shown := map[string]map[int]bool{}
	var cur map[int]bool
	fence := false
	for _, line := range splitLines(pack) {
		if !fence {
			if m := packSection.FindStringSubmatch(line); m != nil {
				p := strings.Trim(strings.TrimSpace(m[1]), `"`)
				if shown[p] == nil {
					shown[p] = map[int]bool{}
				}
				cur = shown[p]
				continue
			}
		}
		if cur == nil {
			continue
		}
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if !fence {
			if m := packWhole.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[1])
				for i := 1; i <= n; i++ {
					cur[i] = true
				}
			}
			continue
		}
		if m := packLine.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			cur[n] = true
		}
	}
	return shown
}

// Cover scores a pack against an instance's gold files and hunks.
func Cover(pack string, budget int, gold []string, hunks []Hunk) PackCoverage {
	shown := ShownLines(pack)
	c := PackCoverage{Budget: budget, Tokens: len(pack) / 4, Files: len(shown), Hunks: len(hunks)}
	c.FilesCovered = len(gold) > 0
	for _, g := range gold {
		if shown[g] == nil {
			c.FilesCovered = false
		}
	}
	if len(hunks) == 0 {
		return c
	}
	covered, lines, got := 0, 0, 0
	for _, h := range hunks {
		lines += len(h.Lines)
		seen := map[int]bool{}
		for _, l := range h.Lines {
			if shown[h.Path][l] && !seen[l] {
				seen[l] = true
				got++
			}
		}
		if len(seen) > 0 {
			covered++
		}
	}
	c.HunksCovered = covered == len(hunks)
	c.HunkShare = float64(covered) / float64(len(hunks))
	if lines > 0 {
		c.LineShare = float64(got) / float64(lines)
	}
	return c
}

// splitLines splits text at line boundaries as Python's str.splitlines does
// (\n, \r\n, \r, \v, \f, \x1c-\x1e, \x85, U+2028, U+2029), so that a
// source line holding a form feed is read as packcov.py reads it.
func splitLines(s string) []string {
	var out []string
	start, skip := 0, -1
	for i, r := range s {
		if i == skip {
			start = i + 1
			continue
		}
		switch r {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		default:
			continue
		}
		out = append(out, s[start:i])
		start = i + utf8.RuneLen(r)
		if r == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			skip = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
