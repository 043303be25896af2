package ignore

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// parsed is what a test compares of a Pattern.
type parsed struct {
	Line    int
	Text    string
	Negated bool
	DirOnly bool
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []parsed
	}{
		{"comments and blank lines", "# c\n\n*.log\n  # not a comment\n", []parsed{{3, "*.log", false, false}, {4, "  # not a comment", false, false}}},
		{"escaped hash", "\\#lit\n", []parsed{{1, "\\#lit", false, false}}},
		{"negation and directory", "!keep/\n\\!bang\n", []parsed{{1, "!keep/", true, true}, {2, "\\!bang", false, false}}},
		{"CRLF", "a\r\nb/\r\n#c\r\n", []parsed{{1, "a", false, false}, {2, "b/", false, true}}},
		{"only one CR is a line end", "a\r\r\n", []parsed{{1, "a\r", false, false}}},
		{"no final newline", "a\nb", []parsed{{1, "a", false, false}, {2, "b", false, false}}},
		{"byte-order mark", "\xef\xbb\xbf*.o\n", []parsed{{1, "*.o", false, false}}},
		{"trailing spaces", "a  \nb\\ \nc\\  \nd \\ \ne\t\n", []parsed{
			{1, "a", false, false}, {2, "b\\ ", false, false}, {3, "c\\ ", false, false}, {4, "d \\ ", false, false}, {5, "e\t", false, false}}},
		{"trailing backslash keeps spaces", "a \\\n", nil}, // kept as "a \", which matches nothing
		{"NUL ends a line", "ab\x00cd\n", []parsed{{1, "ab", false, false}}},
		{"lines that match nothing", "!\n/\n   \n\r\n[a\n[[:nope:]]\nx\\\n", nil},
		{"one trailing slash only", "a//\n", []parsed{{1, "a//", false, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := parse([]byte(tt.data))
			var got []parsed
			for _, p := range m.patterns {
				got = append(got, parsed{p.Line, p.Text, p.Negated, p.DirOnly})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.data, diff)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern string
		path    string
		isDir   bool
		want    bool
	}{
		// Base-name patterns match at any depth.
		{"*.log", "a.log", false, true},
		{"*.log", "x/y/a.log", false, true},
		{"*.log", "a.log/x", false, false},
		{"*.log", "a.logx", false, false},
		{"build", "build", true, true},
		{"build", "x/build", false, true},
		{"build/", "x/build", false, false},
		{"build/", "x/build", true, true},
		{"*.py[cod]", "m.pyc", false, true},
		{"*.py[cod]", "m.pyx", false, false},
		{"*", "anything", false, true},
		{"**", "a/b", false, true},
		{"a**b", "axxb", false, true},
		{"?", "ab", false, false},
		{"a?c", "abc", false, true},
		// A "/" anchors at the file's directory.
		{"/TODO", "TODO", false, true},
		{"/TODO", "x/TODO", false, false},
		{"doc/*.txt", "doc/a.txt", false, true},
		{"doc/*.txt", "doc/x/a.txt", false, false},
		{"doc/*.txt", "x/doc/a.txt", false, false},
		{"doc/", "doc", true, true},
		{"a/b/", "a/b", false, false},
		{"//a", "a", false, false},
		// "*" and "?" stop at "/" in path patterns.
		{"a/*", "a/b", false, true},
		{"a/*", "a/b/c", false, false},
		{"a/?", "a/b", false, true},
		{"a?b/c", "a/b/c", false, false},
		{"a*/b", "ax/b", false, true},
		{"a*/b", "ax/y/b", false, false},
		{"*/b", "x/b", false, true},
		// "**" in its three positions.
		{"**/foo", "foo", false, true},
		{"**/foo", "a/b/foo", false, true},
		{"**/foo", "a/xfoo", false, false},
		{"**/foo/bar", "x/foo/bar", false, true},
		{"abc/**", "abc/x", false, true},
		{"abc/**", "abc/x/y", false, true},
		{"abc/**", "abc", true, false},
		{"a/**/b", "a/b", false, true},
		{"a/**/b", "a/x/b", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a/**/b", "a/xb", false, false},
		{"a/**b", "a/xb", false, true},
		{"a/**b", "a/x/b", false, false},
		{"a**/b", "ax/b", false, true},
		{"a/***/b", "a/x/y/b", false, true},
		{"**\\/x", "x", false, false},
		{"**\\/x", "y/x", false, true},
		{"a/**/**/b", "a/b", false, true},
		// The literal prefix is compared apart, as in git.
		{"foo**/bar", "foox/y/bar", false, true},
		{"foo*/bar", "foox/y/bar", false, false},
		// Sets.
		{"[a-c]x", "bx", false, true},
		{"[a-c]x", "dx", false, false},
		{"[!a-c]x", "dx", false, true},
		{"[^a-c]x", "ax", false, false},
		{"[]]", "]", false, true},
		{"[]a]", "a", false, true},
		{"[!]]", "]", false, false},
		{"[a-]", "-", false, true},
		{"[-a]", "-", false, true},
		{"[\\]]", "]", false, true},
		{"[a\\-c]", "b", false, false},
		{"[[:alpha:]]", "q", false, true},
		{"[[:alpha:]]", "1", false, false},
		{"[[:digit:][:upper:]]", "Q", false, true},
		{"[[:space:]]", "\t", false, true},
		{"[[:space:]]", "\v", false, false},
		{"[[:punct:]]", "_", false, true},
		{"[[:xdigit:]]", "f", false, true},
		{"[[:xdigit:]]", "g", false, false},
		{"[[:a]", "[", false, true},
		{"[[:a]", ":", false, true},
		{"[[:nope:]]", "n", false, false},
		{"[abc", "[abc", false, false},
		{"a/[/]b", "a//b", false, false},
		{"[é]", "\xa9", false, true}, // a set holds bytes, as in git
		// Escapes.
		{"\\*", "*", false, true},
		{"\\*", "x", false, false},
		{"\\#a", "#a", false, true},
		{"\\!a", "!a", false, true},
		{"a\\ ", "a ", false, true},
		{"a\\", "a\\", false, false},
		{"a\\b", "ab", false, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s~%s", tt.pattern, tt.path), func(t *testing.T) {
			got := parse([]byte(tt.pattern+"\n")).Match(tt.path, tt.isDir) != nil
			if got != tt.want {
				t.Errorf("Parse(%q).Match(%q, %v) = %v, want %v", tt.pattern, tt.path, tt.isDir, got, tt.want)
			}
			if ref := refDecide([]string{tt.pattern}, tt.path, tt.isDir) >= 0; ref != tt.want {
				t.Errorf("reference on %q, %q, %v = %v, want %v", tt.pattern, tt.path, tt.isDir, ref, tt.want)
			}
		})
	}
}

// TestMatchLastWins checks that the last matching pattern decides.
func TestMatchLastWins(t *testing.T) {
	m := parse([]byte("*.log\n!keep.log\nbuild/\n!build/\nx\n"))
	tests := []struct {
		path    string
		isDir   bool
		line    int // 0: no pattern matches
		negated bool
	}{
		{"a.log", false, 1, false},
		{"d/keep.log", false, 2, true},
		{"build", true, 4, true},
		{"build", false, 0, false},
		{"x", false, 5, false},
		{"y", false, 0, false},
	}
	for _, tt := range tests {
		p := m.Match(tt.path, tt.isDir)
		line, negated := 0, false
		if p != nil {
			line, negated = p.Line, p.Negated
		}
		if line != tt.line || negated != tt.negated {
			t.Errorf("Match(%q, %v) = line %d negated %v, want line %d negated %v", tt.path, tt.isDir, line, negated, tt.line, tt.negated)
		}
	}
}

// TestMatchPathological runs patterns on which a backtracking matcher takes
// time exponential in the number of stars (the old matcher ran for hours on
// the first); the deadline is generous, each takes microseconds.
func TestMatchPathological(t *testing.T) {
	long := strings.Repeat("a", 40)
	tests := []struct{ name, pattern, path string }{
		{"stars", "*a*a*a*a*a*a*a*a*a*a*b", long},
		{"more stars", "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", strings.Repeat("a", 4000)},
		{"under doublestar", "**/a*a*a*a*a*a*a*a*a*a*b", strings.Repeat("x/", 100) + long},
		{"doublestars", "a/**/a/**/a/**/a/**/a/**/a/**/b", strings.Repeat("a/", 2000) + "c"},
		{"question marks", "*?*?*?*?*?*?*?*?*?*?*?*?b", strings.Repeat("a", 4000)},
		{"sets", "[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*b", strings.Repeat("a", 4000)},
		{"200 stars", strings.Repeat("*a", 200) + "b", strings.Repeat("a", 10000)},
		// The paths above fail on their last byte, before the automaton
		// runs (see Pattern.tail); these end as the patterns do.
		{"stars, the tail matching", "*a*a*a*a*a*a*a*a*a*a*c*b", long + "b"},
		{"200 stars, the tail matching", strings.Repeat("*a", 200) + "*c*b", strings.Repeat("a", 10000) + "b"},
		{"doublestars, the tail matching", "a/**/a/**/a/**/a/**/a/**/a/**/c/**/b", strings.Repeat("a/", 2000) + "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan bool, 1)
			go func() { done <- parse([]byte(tt.pattern)).Match(tt.path, false) != nil }()
			select {
			case got := <-done:
				if got {
					t.Errorf("Match(%q) on %d bytes = true, want false", tt.pattern, len(tt.path))
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("Match(%q) on %d bytes did not finish in 20 s", tt.pattern, len(tt.path))
			}
		})
	}
}

// TestAgainstGit compares Match with git check-ignore on random patterns
// over random trees: for every path, the pattern git names (or none) must
// be the one Match gives, a directory excluded above the path deciding
// first as git does.
func TestAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	rounds := 200
	if testing.Short() {
		rounds = 40
	}
	rng := rand.New(rand.NewPCG(13, 7))
	root := t.TempDir()
	home := t.TempDir()
	gitCmd := func(stdin []byte, args ...string) []byte {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
		cmd.Stdin = bytes.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 { // 1: nothing ignored
				t.Fatalf("git %v: %v", args, err)
			}
		}
		return out
	}
	gitCmd(nil, "init", "-q")

	type round struct {
		lines []string
		m     *Matcher
		paths map[string]bool // relative path -> is a directory
	}
	rs := make([]round, rounds)
	var stdin bytes.Buffer
	for r := range rs {
		dir := filepath.Join(root, fmt.Sprintf("r%d", r))
		rs[r].paths = map[string]bool{}
		randomTree(t, rng, dir, "", 0, rs[r].paths)
		for range 1 + rng.IntN(4) {
			rs[r].lines = append(rs[r].lines, randomPattern(rng))
		}
		data := []byte(strings.Join(rs[r].lines, "\n") + "\n")
		if err := os.WriteFile(filepath.Join(dir, ".gitignore"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		rs[r].m = parse(data)
		for p := range rs[r].paths {
			fmt.Fprintf(&stdin, "r%d/%s\x00", r, p)
		}
	}
	out := gitCmd(stdin.Bytes(), "check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
	fields := strings.Split(string(out), "\x00")
	checked, matched := 0, 0
	for i := 0; i+3 < len(fields); i += 4 {
		line, text, full := fields[i+1], fields[i+2], fields[i+3]
		var r int
		rel, _ := strings.CutPrefix(full[strings.IndexByte(full, '/'):], "/")
		fmt.Sscanf(full, "r%d/", &r)
		isDir, ok := rs[r].paths[rel]
		if !ok {
			t.Fatalf("git names a path not asked: %q", full)
		}
		want := "none"
		if line != "" {
			want = line + ":" + text
			matched++
		}
		got := "none"
		if p := decide(rs[r].m, rel, isDir); p != nil {
			got = fmt.Sprintf("%d:%s", p.Line, p.Text)
		}
		if got != want {
			t.Errorf("patterns %q, path %q (dir %v): Match decides by %s, git by %s", rs[r].lines, rel, isDir, got, want)
		}
		checked++
	}
	if checked < rounds*3 || matched == 0 {
		t.Fatalf("compared %d paths (%d matched) over %d rounds: git output not understood", checked, matched, rounds)
	}
	t.Logf("%d paths compared, %d matched by a pattern", checked, matched)
}

// decide is git's verdict on a path: the pattern that ignores a directory
// above it, else the last pattern matching it.
func decide(m *Matcher, path string, isDir bool) *Pattern {
	for i := range len(path) {
		if path[i] == '/' {
			if p := m.Match(path[:i], true); p != nil && !p.Negated {
				return p
			}
		}
	}
	return m.Match(path, isDir)
}

// nameBytes make up random file names: the letters patterns use, and bytes
// that mean something in a pattern.
const nameBytes = "aaabbb.*?[]!# \\-^:x"

// randomTree makes a few files and directories under dir, recording each
// path relative to the round's directory.
func randomTree(t *testing.T, rng *rand.Rand, dir, rel string, depth int, paths map[string]bool) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for range 1 + rng.IntN(4) {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteByte(nameBytes[rng.IntN(len(nameBytes))])
		}
		name := b.String()
		if name == "." || name == ".." {
			continue
		}
		p := name
		if rel != "" {
			p = rel + "/" + name
		}
		if _, dup := paths[p]; dup {
			continue
		}
		if depth < 3 && rng.IntN(3) == 0 {
			paths[p] = true
			randomTree(t, rng, filepath.Join(dir, name), p, depth+1, paths)
			continue
		}
		paths[p] = false
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// patternParts make up random patterns, weighted toward those that match.
var patternParts = []string{
	"a", "a", "b", "b", "x", "*", "*", "*", "**", "**", "?", "/", "/", "/",
	"[ab]", "[!a]", "[^b]", "[a-b]", "[]a]", "[[:alpha:]]", "[[:punct:]]", "[[:space:]]", "[[:nope:]]", "[[:a]",
	"\\*", "\\a", "\\ ", " ", "!", "#", ".", "[", "]", "-", "\\", "\\[", "\\/", "\\\\",
}

func randomPattern(rng *rand.Rand) string {
	var b strings.Builder
	switch rng.IntN(6) {
	case 0:
		b.WriteString("!")
	case 1:
		b.WriteString("/")
	}
	for range 1 + rng.IntN(5) {
		b.WriteString(patternParts[rng.IntN(len(patternParts))])
	}
	switch rng.IntN(6) {
	case 0:
		b.WriteString("/")
	case 1:
		b.WriteString("  ")
	}
	return b.String()
}

// FuzzMatch checks that Parse and Match never panic and agree with a
// backtracking reference written from git's rules, on one or two pattern
// lines and a path.
func FuzzMatch(f *testing.F) {
	f.Add("*.log", "!keep.log", "a/keep.log", false)
	f.Add("a/**/b", "", "a/x/y/b", false)
	f.Add("**/x", "x/**", "x/y", true)
	f.Add("[[:alpha:]-z]*", "[!a]?", "b/q", false)
	f.Add("foo**/bar", "\\#a\\ ", "foox/y/bar", false)
	f.Add("*a*a*a*a*a*a*b", "/a*", strings.Repeat("a", 30), false)
	f.Fuzz(func(t *testing.T, line1, line2, path string, isDir bool) {
		if len(line1)+len(line2)+len(path) > 200 || strings.ContainsAny(line1+line2, "\n") {
			return // the reference is slow on long input; one line each
		}
		path = strings.Trim(path, "/")
		if path == "" || strings.Contains(path, "//") || strings.ContainsRune(path, 0) {
			return
		}
		lines := []string{line1, line2}
		m := parse([]byte(line1 + "\n" + line2 + "\n"))
		got := -1
		if p := m.Match(path, isDir); p != nil {
			got = p.Line - 1
		}
		if want := refDecide(lines, path, isDir); got != want {
			t.Errorf("lines %q, path %q (dir %v): Match gives line index %d, reference %d", lines, path, isDir, got, want)
		}
	})
}

// refDecide returns the index of the last line matching path, or -1: a
// second implementation, by memoized backtracking over the raw pattern.
func refDecide(lines []string, path string, isDir bool) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if refLine(lines[i], path, isDir) {
			return i
		}
	}
	return -1
}

// refLine reports whether one line of an ignore file matches path.
func refLine(line, path string, isDir bool) bool {
	if line == "" || line[0] == '#' {
		return false
	}
	line = strings.TrimSuffix(line, "\r")
	line, _, _ = strings.Cut(line, "\x00")
	// Drop trailing spaces after the last byte that is not an unescaped space.
	end := 0
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			end = min(i+1, len(line))
		} else if line[i] != ' ' {
			end = i + 1
		}
	}
	pat := strings.TrimPrefix(line[:end], "!")
	if strings.HasSuffix(pat, "/") {
		if !isDir {
			return false
		}
		pat = pat[:len(pat)-1]
	}
	if pat == "" {
		return false
	}
	if !strings.Contains(pat, "/") {
		return refWild(pat, path[strings.LastIndexByte(path, '/')+1:], false)
	}
	pat = strings.TrimPrefix(pat, "/")
	n := strings.IndexAny(pat, `*?[\`)
	if n < 0 {
		return pat == path
	}
	if !strings.HasPrefix(path, pat[:n]) {
		return false
	}
	return refWild(pat[n:], path[n:], true)
}

// refWild matches text against a glob by trying every choice, memoized.
// Under path semantics "/" is matched only by "/" and by "**" as a whole
// element.
func refWild(pat, text string, path bool) bool {
	memo := map[[2]int]bool{}
	var match func(pi, ti int) bool
	match = func(pi, ti int) bool {
		key := [2]int{pi, ti}
		if r, ok := memo[key]; ok {
			return r
		}
		r := false
		switch {
		case pi == len(pat):
			r = ti == len(text)
		case pat[pi] == '*':
			pj := pi
			for pj < len(pat) && pat[pj] == '*' {
				pj++
			}
			crossing := !path || pj-pi > 1 && (pi == 0 || pat[pi-1] == '/') &&
				(pj == len(pat) || pat[pj] == '/' || strings.HasPrefix(pat[pj:], `\/`))
			if path && crossing && pj < len(pat) && pat[pj] == '/' && match(pj+1, ti) {
				r = true // "**/" matching no directory
				break
			}
			for t := ti; t <= len(text); t++ {
				if match(pj, t) {
					r = true
					break
				}
				if t < len(text) && !crossing && text[t] == '/' {
					break
				}
			}
		case ti == len(text):
		case pat[pi] == '\\':
			r = pi+1 < len(pat) && pat[pi+1] == text[ti] && match(pi+2, ti+1)
		case pat[pi] == '?':
			r = !(path && text[ti] == '/') && match(pi+1, ti+1)
		case pat[pi] == '[':
			in, next, ok := refSet(pat, pi+1, text[ti])
			r = ok && in && !(path && text[ti] == '/') && match(next, ti+1)
		default:
			r = pat[pi] == text[ti] && match(pi+1, ti+1)
		}
		memo[key] = r
		return r
	}
	return refMalformedFree(pat) && match(0, 0)
}

// refMalformedFree reports whether every set of pat is well formed and no
// "\" ends it: git gives up on the whole pattern otherwise.
func refMalformedFree(pat string) bool {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			if i++; i == len(pat) {
				return false
			}
		case '[':
			_, next, ok := refSet(pat, i+1, 'a')
			if !ok {
				return false
			}
			i = next - 1
		}
	}
	return true
}

// refSet reports whether c is in the set starting at pat[i] (after "["),
// and the index after its "]"; ok is false when the set is malformed.
func refSet(pat string, i int, c byte) (in bool, next int, ok bool) {
	negated := i < len(pat) && (pat[i] == '!' || pat[i] == '^')
	if negated {
		i++
	}
	classes := map[string]func(byte) bool{
		"alnum":  func(b byte) bool { return strings.IndexByte("0123456789", b) >= 0 || refAlpha(b) },
		"alpha":  refAlpha,
		"blank":  func(b byte) bool { return b == ' ' || b == '\t' },
		"cntrl":  func(b byte) bool { return b <= 31 || b == 127 },
		"digit":  func(b byte) bool { return strings.IndexByte("0123456789", b) >= 0 },
		"graph":  func(b byte) bool { return b >= '!' && b <= '~' },
		"lower":  func(b byte) bool { return strings.IndexByte("abcdefghijklmnopqrstuvwxyz", b) >= 0 },
		"print":  func(b byte) bool { return b >= ' ' && b <= '~' },
		"punct":  func(b byte) bool { return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", b) >= 0 },
		"space":  func(b byte) bool { return strings.IndexByte(" \t\n\r", b) >= 0 },
		"upper":  func(b byte) bool { return strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZ", b) >= 0 },
		"xdigit": func(b byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", b) >= 0 },
	}
	last := -1 // a byte that may start a range
	for j := i; j < len(pat); j++ {
		b := pat[j]
		if b == ']' && j > i {
			return in != negated, j + 1, true
		}
		if b == '\\' {
			if j++; j == len(pat) {
				return false, 0, false
			}
			in = in || pat[j] == c
			last = int(pat[j])
			continue
		}
		if b == '-' && last >= 0 && j+1 < len(pat) && pat[j+1] != ']' {
			j++
			hi := pat[j]
			if hi == '\\' {
				if j++; j == len(pat) {
					return false, 0, false
				}
				hi = pat[j]
			}
			in = in || int(c) >= last && c <= hi
			last = -1
			continue
		}
		if b == '[' && strings.HasPrefix(pat[j:], "[:") {
			if k := strings.IndexByte(pat[j+2:], ']'); k < 0 {
				return false, 0, false
			} else if name, isClass := strings.CutSuffix(pat[j+2:j+2+k], ":"); isClass && k > 0 {
				f := classes[name]
				if f == nil {
					return false, 0, false
				}
				in = in || f(c)
				last = -1
				j += 2 + k
				continue
			}
		}
		in = in || b == c
		last = int(b)
	}
	return false, 0, false
}

func refAlpha(b byte) bool {
	return strings.IndexByte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", b) >= 0
}

// BenchmarkMatch matches one pattern against one path.
func BenchmarkMatch(b *testing.B) {
	tests := []struct{ name, pattern, path string }{
		{"literal", "__pycache__", "django/contrib/admin/__pycache__"},
		{"suffix", "*.pyc", "django/contrib/admin/views/main.pyc"},
		{"set", "*.py[cod]", "django/contrib/admin/views/main.py"},
		{"anchored", "docs/_build/", "docs/_build"},
		{"doublestar", "**/node_modules/**/*.js", "web/node_modules/react/cjs/react.development.js"},
		{"pathological-40", "*a*a*a*a*a*a*a*a*a*a*b", strings.Repeat("a", 40)},
		{"pathological-4000", "*a*a*a*a*a*a*a*a*a*a*b", strings.Repeat("a", 4000)},
		{"pathological-4000-tail", "*a*a*a*a*a*a*a*a*a*a*c*b", strings.Repeat("a", 4000) + "b"},
	}
	for _, tt := range tests {
		m := parse([]byte(tt.pattern))
		dir := strings.HasSuffix(tt.pattern, "/")
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.path)))
			for b.Loop() {
				m.Match(tt.path, dir)
			}
		})
	}
}

// parse is Parse under a context never done, which cannot fail.
func parse(data []byte) *Matcher {
	m, err := Parse(context.Background(), data)
	if err != nil {
		panic(err) // only ctx's error, and context.Background is never done
	}
	return m
}

// lines returns n lines "dir0/*.tmp" .. "dir{n-1}/*.tmp", each a pattern.
func lines(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "dir%d/*.tmp\n", i)
	}
	return b.Bytes()
}

func TestParseLimits(t *testing.T) {
	t.Run("patterns", func(t *testing.T) {
		data := append([]byte("# a comment\n\n"), lines(MaxPatterns+10)...)
		m := parse(data)
		if m.Len() != MaxPatterns {
			t.Errorf("Parse of %d patterns kept %d, want %d", MaxPatterns+10, m.Len(), MaxPatterns)
		}
		want := Cut{Line: MaxPatterns + 3, Reason: "more than 100000 patterns"}
		if got := m.Cut(); got != want {
			t.Errorf("Cut() = %+v, want %+v", got, want)
		}
		last := fmt.Sprintf("dir%d/a.tmp", MaxPatterns-1)
		if m.Match(last, false) == nil {
			t.Errorf("Match(%q) = nil: the last pattern within the limit is not applied", last)
		}
		first := fmt.Sprintf("dir%d/a.tmp", MaxPatterns)
		if p := m.Match(first, false); p != nil {
			t.Errorf("Match(%q) = %v: a pattern past the limit is applied", first, p)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		line := strings.Repeat("x", 999) + "\n" // 1,000 bytes a line
		data := []byte(strings.Repeat(line, MaxSize/1000+50))
		m := parse(data)
		if want := MaxSize / 1000; m.Len() != want {
			t.Errorf("Parse of %d bytes kept %d patterns, want %d (whole lines within %d bytes)", len(data), m.Len(), want, MaxSize)
		}
		want := Cut{Line: MaxSize/1000 + 1, Reason: "larger than 4 MiB"}
		if got := m.Cut(); got != want {
			t.Errorf("Cut() = %+v, want %+v", got, want)
		}
	})
	t.Run("within", func(t *testing.T) {
		if got := parse(lines(1000)).Cut(); got != (Cut{}) {
			t.Errorf("Cut() of a small file = %+v, want none", got)
		}
	})
}

func TestParseCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	data := lines(3 * parseCheckEvery)
	if m, err := Parse(ctx, data); err != context.Canceled || m != nil {
		t.Fatalf("Parse under a cancelled context = %v, %v; want nil, context.Canceled", m, err)
	}

	// Cancelled while parsing a file at the limits: returns promptly.
	data = lines(MaxPatterns * 2)
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Parse(ctx, data)
		done <- err
	}()
	time.Sleep(time.Millisecond)
	cancel()
	start := time.Now()
	select {
	case err := <-done:
		if err != nil && err != context.Canceled {
			t.Errorf("Parse cancelled mid-way: error %v, want context.Canceled (or nil if it had finished)", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatalf("Parse still running %v after cancel", time.Since(start))
	}
}

// BenchmarkParseLarge parses a file at the pattern limit, and the 50 MB file
// of issue 32 (825,000 lines), cut to its first MaxSize bytes.
func BenchmarkParseLarge(b *testing.B) {
	for _, bb := range []struct {
		name string
		data []byte
	}{
		{"100k-patterns", lines(MaxPatterns)},
		{"825k-lines", bytes.Repeat([]byte("some/dir/**/build-output-[0-9]*.o\n"), 825_000)},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(bb.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(context.Background(), bb.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
