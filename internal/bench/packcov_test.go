package bench

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// handPack is a pack as Build writes it: a whole small file, excerpts of a
// large one with a gap, a section with nothing shown, and a fence inside a
// file that must not start a section.
const handPack = "# Context for the task\n\n> Fix the thing\n\n" +
	"## src/a.py (relevance 0.91)\n\ndefines fix:+0.35\n\n_whole file, 3 lines_\n\n```python\n1 | a\n2 | b\n3 | c\n```\n\n" +
	"## src/b.py (relevance 0.55)\n\n_excerpts of 300 lines_\n\n````python\n 10 | def f():\n 11 |     pass\n…\n120 | ## not a heading (relevance 0.50)\n121 | ```\n````\n\n" +
	"## \"odd\\nname.py\" (relevance 0.40)\n\n" +
	"omitted for budget: src/c.py\n"

func TestShownLines(t *testing.T) {
	got := ShownLines(handPack)
	want := map[string]map[int]bool{
		"src/a.py":     {1: true, 2: true, 3: true},
		"src/b.py":     {10: true, 11: true, 120: true, 121: true},
		`odd\nname.py`: {},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ShownLines (-want +got):\n%s", d)
	}
}

func TestCover(t *testing.T) {
	for _, tc := range []struct {
		name  string
		gold  []string
		hunks []Hunk
		want  PackCoverage
	}{
		{"every hunk shown", []string{"src/a.py"}, []Hunk{{"src/a.py", []int{2}}, {"src/a.py", []int{3, 4}}},
			PackCoverage{FilesCovered: true, Hunks: 2, HunksCovered: true, HunkShare: 1, LineShare: 2.0 / 3}},
		{"one hunk of two", []string{"src/a.py", "src/b.py"}, []Hunk{{"src/b.py", []int{11}}, {"src/b.py", []int{50, 51}}},
			PackCoverage{FilesCovered: true, Hunks: 2, HunkShare: 0.5, LineShare: 1.0 / 3}},
		{"a gold file left out", []string{"src/a.py", "src/c.py"}, []Hunk{{"src/a.py", []int{1}}, {"src/c.py", []int{1}}},
			PackCoverage{Hunks: 2, HunkShare: 0.5, LineShare: 0.5}},
		{"no hunks known", []string{"src/b.py"}, nil, PackCoverage{FilesCovered: true}},
		{"repeated edit line counted once shown", []string{"src/a.py"}, []Hunk{{"src/a.py", []int{1, 1}}},
			PackCoverage{FilesCovered: true, Hunks: 1, HunksCovered: true, HunkShare: 1, LineShare: 0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Cover(handPack, 8000, tc.gold, tc.hunks)
			tc.want.Budget, tc.want.Tokens, tc.want.Files = 8000, len(handPack)/4, 3
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Cover (-want +got):\n%s", d)
			}
		})
	}
}

func TestSplitLinesLikePython(t *testing.T) {
	got := splitLines("a\r\nb\rc\fd\x1ce\u2028f\n\ng")
	want := []string{"a", "b", "c", "d", "e", "f", "", "g"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("splitLines (-want +got):\n%s", d)
	}
}

// TestCoverAgreesWithPackcov reads hand-made packs with the reference
// scorer's own parser (shared/bench/packcov.py, when it and python3 are
// there) and compares the lines it finds with ShownLines.
func TestCoverAgreesWithPackcov(t *testing.T) {
	script := filepath.Join("..", "..", "..", "shared", "bench", "packcov.py")
	if env := os.Getenv("HONE_PACKCOV"); env != "" {
		script = env
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	if _, err := os.Stat(script); err != nil {
		t.Skipf("no packcov.py at %s (set HONE_PACKCOV)", script)
	}
	packs := []string{handPack,
		"## x.py (relevance 1.00)\n\n_excerpts of 9 lines_\n\n```\n3 | a\fb\n 4 | c\r\n```\n",
		"no section\n1 | a\n"}
	for i, p := range packs {
		f := filepath.Join(t.TempDir(), "pack.md")
		if err := os.WriteFile(f, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		prog := "import importlib.util,sys,json\n" +
			"s=importlib.util.spec_from_file_location('packcov',sys.argv[1]);m=importlib.util.module_from_spec(s);s.loader.exec_module(m)\n" +
			"r=m.parse_pack(open(sys.argv[2],encoding='utf-8',errors='replace').read())\n" +
			"print(json.dumps({k:sorted(v) for k,v in r.items()},sort_keys=True,separators=(',',':')))\n"
		out, err := exec.Command(py, "-c", prog, script, f).CombinedOutput()
		if err != nil {
			t.Fatalf("packcov.py: %v\n%s", err, out)
		}
		lines := map[string][]int{}
		for k, set := range ShownLines(p) {
			lines[k] = slices.Sorted(maps.Keys(set))
			if lines[k] == nil {
				lines[k] = []int{}
			}
		}
		b, _ := json.Marshal(lines)
		if got, want := string(b), strings.TrimSpace(string(out)); got != want {
			t.Errorf("pack %d: ShownLines = %s, packcov.py = %s", i, got, want)
		}
	}
}

func TestExcerptLines(t *testing.T) {
	view := "(python, 36 lines)\nmatches: token 12\ndefs: class Token:10, method Token.expired:15\n 9 | @dataclass\n10 | class Token:\n…\n120 |     return 1 | 2\n"
	got := ExcerptLines(view)
	for _, l := range []int{9, 10, 120} {
		if !got[l] {
			t.Errorf("line %d not read as shown", l)
		}
	}
	for _, l := range []int{12, 15, 36, 2} {
		if got[l] {
			t.Errorf("line %d read as shown: only numbered lines are", l)
		}
	}
	if len(got) != 3 {
		t.Errorf("ExcerptLines = %v, want lines 9, 10 and 120", got)
	}
}
