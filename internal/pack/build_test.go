package pack

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/loop"
)

// TestPackFileSize checks that the size the budget is counted with is the
// size render prints, for any choice of lines.
func TestPackFileSize(t *testing.T) {
	var src strings.Builder
	for i := range 120 {
		fmt.Fprintf(&src, "line %d %s\n", i, strings.Repeat("x", i%300))
	}
	f := newFile("a.py", []byte(src.String()), nil, nil, false)
	rng := rand.New(rand.NewSource(1))
	for trial := range 200 {
		pf := &packFile{f: f, chosen: make([]bool, len(f.lines)+2)}
		p := rng.Float64()
		if trial == 0 {
			p = 1
		}
		for l := 1; l <= len(f.lines); l++ {
			pf.choose(l, rng.Float64() < p)
		}
		// Unchoose some again, as a rolled-back unit does.
		for l := 1; l <= len(f.lines); l++ {
			if rng.Float64() < 0.1 {
				pf.choose(l, false)
			}
		}
		if got, want := pf.size(), len(pf.render()); got != want {
			t.Fatalf("trial %d: size() = %d, render is %d bytes", trial, got, want)
		}
	}
}

// bigModule is a module of many small functions and one the task names,
// too large to show whole.
func bigModule() (string, []syntax.Tag) {
	var b strings.Builder
	var defs []syntax.Tag
	line := 1
	b.WriteString("import os\n\n")
	line += 2
	for i := range 200 {
		name := fmt.Sprintf("helper_%d", i)
		body := []string{"def " + name + "(x):", "    y = x + " + fmt.Sprint(i), "    return y * 2", ""}
		if i == 157 {
			name = "parse_expiry"
			body = []string{"def parse_expiry(token):", "    # the expiry of a token, in seconds", "    exp = token['exp']", "    return exp - now()", ""}
		}
		defs = append(defs, syntax.Tag{Name: name, Kind: "function", Line: line, End: line + 3})
		for _, l := range body {
			b.WriteString(l + "\n")
			line++
		}
	}
	return b.String(), defs
}

func TestContextAimsAtTheNamedDefinition(t *testing.T) {
	root := t.TempDir()
	src, defs := bigModule()
	os.WriteFile(filepath.Join(root, "tokens.py"), []byte(src), 0o644)
	os.WriteFile(filepath.Join(root, "small.py"), []byte("def f():\n    return 1\n"), 0o644)
	ev := Evidence{Terms: map[string]float64{"expiry": 2, "token": 1}, Symbols: map[string]bool{"parse_expiry": true}}
	in := Input{Task: "Fix parse_expiry of a token", Root: root, Terms: []string{"expiry", "token"},
		Files: []File{
			{Evaluation: loop.Evaluation{Path: "tokens.py", Relevance: 0.95, Reason: "defines parse_expiry"}, Selected: true, Defs: defs, Evidence: ev},
			{Evaluation: loop.Evaluation{Path: "small.py", Relevance: 0.5, Reason: "bm25"}},
		}}
	for _, budget := range []int{300, 1000, 4000} {
		got, err := Build(in, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if Tokens(got) > budget {
			t.Errorf("budget %d: %d tokens", budget, Tokens(got))
		}
		// The named function, whole, at every budget that holds it.
		for _, want := range []string{"## tokens.py (relevance 0.95)", "def parse_expiry(token):", "return exp - now()"} {
			if !strings.Contains(got, want) {
				t.Errorf("budget %d: pack lacks %q:\n%s", budget, want, got)
			}
		}
		if budget >= 1000 && !strings.Contains(got, "## small.py") {
			t.Errorf("budget %d: the ranked small file is missing although the budget has room:\n%s", budget, got)
		}
	}
}

// The units cover every line that is not blank: module-level statements
// between definitions and class attributes after the methods are units of
// their own (the latter in their class), and blank lines join the unit
// before them.
func TestUnitsCoverTheFile(t *testing.T) {
	src := "import os\n\ndef a():\n    return 1\n\nX = a()\nregister(X)\n\nclass C:\n    def m(self):\n        pass\n\n    y = 2\n"
	defs := []syntax.Tag{
		{Name: "a", Kind: "function", Line: 3, End: 4},
		{Name: "C", Kind: "class", Line: 9, End: 13},
		{Name: "m", Kind: "method", Parent: "C", Line: 10, End: 11},
	}
	f := newFile("m.py", []byte(src), nil, defs, false)
	type span struct{ From, To, Def, Parent int }
	var got []span
	for _, u := range f.units() {
		got = append(got, span{u.from, u.to, u.def, u.parent})
	}
	want := []span{
		{1, 2, -1, -1},  // head, and the blank line after it
		{3, 5, 0, -1},   // a, and the blank line after it
		{6, 8, -1, -1},  // X = a(); register(X)
		{9, 9, 1, -1},   // C's header
		{10, 12, 2, 1},  // m, and the blank line after it
		{13, 13, -1, 1}, // y = 2, in C
	}
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("units (-want +got):\n%s", d)
	}
}

// fieldsModule is a module of many field classes, each with a to_python
// method; the task names one of them as Class.method or a class whole.
func fieldsModule() (string, []syntax.Tag) {
	var b strings.Builder
	var defs []syntax.Tag
	line := 1
	add := func(s string) {
		b.WriteString(s + "\n")
		line++
	}
	for i := range 40 {
		name := fmt.Sprintf("Field%d", i)
		words := "value value decimal invalid operation raises type error on the value formfield"
		if i == 23 {
			name = "DecimalField"
			words = "value"
		}
		start := line
		add("class " + name + "(Field):")
		add("    description = 'a field'")
		defs = append(defs, syntax.Tag{Name: "description", Kind: "constant", Parent: name, Line: line - 1, End: line - 1})
		add("")
		m := line
		add("    def to_python(self, value):")
		add("        # " + words)
		add("        return convert(value)")
		defs = append(defs, syntax.Tag{Name: "to_python", Kind: "method", Parent: name, Line: m, End: line - 1})
		add("")
		g := line
		add("    def get_internal_type(self):")
		add("        return '" + name + "'")
		defs = append(defs, syntax.Tag{Name: "get_internal_type", Kind: "method", Parent: name, Line: g, End: line - 1})
		defs = append(defs, syntax.Tag{Name: name, Kind: "class", Line: start, End: line - 1})
		add("")
	}
	slices.SortStableFunc(defs, func(a, b syntax.Tag) int { return cmp.Compare(a.Line, b.Line) })
	return b.String(), defs
}

// A definition the task names with its class leads its file, although its
// siblings of the same name hold more of the task's words.
func TestContextAimsAtTheQualifiedName(t *testing.T) {
	root := t.TempDir()
	src, defs := fieldsModule()
	os.WriteFile(filepath.Join(root, "fields.py"), []byte(src), 0o644)
	terms := map[string]float64{"decimal": 2, "invalid": 1, "operation": 1, "raises": 1, "type": 1, "error": 1, "value": 1}
	words := slices.Sorted(maps.Keys(terms))
	ev := Evidence{Terms: terms, Symbols: map[string]bool{"decimalfield.to_python": true, "to_python": true, "decimalfield": true}}
	in := Input{Task: "DecimalField.to_python() raises TypeError on an invalid value", Root: root, Terms: words,
		Files: []File{{Evaluation: loop.Evaluation{Path: "fields.py", Relevance: 0.95}, Selected: true, Defs: defs, Evidence: ev}}}
	got, err := Build(in, Options{Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	if Tokens(got) > 300 {
		t.Errorf("%d tokens", Tokens(got))
	}
	if strings.Contains(got, "whole file") {
		t.Fatalf("the module fits whole at 300 tokens: the test says nothing:\n%s", got)
	}
	for _, w := range []string{"class DecimalField(Field):", "        # value\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("pack lacks %q:\n%s", w, got)
		}
	}
}

// A class the task names is one unit, the class whole, that leads its
// file; its members are still units of their own too.
func TestNamedClassIsWhole(t *testing.T) {
	src, defs := fieldsModule()
	f := newFile("fields.py", []byte(src), []string{"decimalfield", "formfield"}, defs, false)
	ev := Evidence{Terms: map[string]float64{"decimalfield": 2, "formfield": 1}, Symbols: map[string]bool{"decimalfield": true}}
	us := f.score(f.units(), ev)
	var class syntax.Tag
	for _, d := range defs {
		if d.Name == "DecimalField" {
			class = d
		}
	}
	top := us[0]
	if top.def < 0 || defs[top.def].Name != "DecimalField" || top.from != class.Line || top.to != class.End || !top.named {
		t.Errorf("first unit %+v, want DecimalField whole, lines %d-%d, named", top, class.Line, class.End)
	}
	members := 0
	for _, u := range us {
		if u.parent == top.def && u.def >= 0 {
			members++
		}
	}
	if members != 3 {
		t.Errorf("%d member units of DecimalField, want 3 (description, to_python, get_internal_type)", members)
	}
}

// A Fallback file gets only what the budget leaves: the other files' parts
// that fit come first, whatever its relevance; with room, it is shown.
func TestFallbackFillsWhatIsLeft(t *testing.T) {
	root := t.TempDir()
	src, defs := bigModule()
	os.WriteFile(filepath.Join(root, "tokens.py"), []byte(src), 0o644)
	os.WriteFile(filepath.Join(root, "hub.py"), []byte(src), 0o644)
	ev := Evidence{Terms: map[string]float64{"expiry": 2, "token": 1}, Symbols: map[string]bool{"parse_expiry": true}}
	files := func(fallback bool) []File {
		return []File{
			{Evaluation: loop.Evaluation{Path: "tokens.py", Relevance: 0.95, Reason: "judged"}, Selected: true, Defs: defs, Evidence: ev},
			{Evaluation: loop.Evaluation{Path: "hub.py", Relevance: 0.99, Reason: "hone's own"}, Defs: defs, Evidence: ev, Fallback: fallback},
		}
	}
	shown := func(pack, path string) int {
		_, after, ok := strings.Cut(pack, "## "+path+" ")
		if !ok {
			return 0
		}
		body, _, _ := strings.Cut(after, "\n## ")
		return strings.Count(body, " | ")
	}
	for _, budget := range []int{1500, 3000} {
		in := Input{Task: "Fix parse_expiry of a token", Root: root, Terms: []string{"expiry", "token"}, Files: files(true)}
		got, err := Build(in, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		in.Files = files(false)
		plain, err := Build(in, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if Tokens(got) > budget {
			t.Errorf("budget %d: %d tokens", budget, Tokens(got))
		}
		// As a fallback, hub.py takes nothing from tokens.py; as a ranked
		// file of higher relevance, it does.
		if a, b := shown(got, "tokens.py"), shown(plain, "tokens.py"); a <= b {
			t.Errorf("budget %d: tokens.py shows %d lines beside a fallback, %d beside a ranked file; want more", budget, a, b)
		}
	}
	got, err := Build(Input{Task: "Fix parse_expiry of a token", Root: root, Terms: []string{"expiry", "token"}, Files: files(true)}, Options{Budget: 8000})
	if err != nil {
		t.Fatal(err)
	}
	if shown(got, "hub.py") == 0 {
		t.Errorf("with room, the fallback file is not shown:\n%s", got)
	}
}

// The first file is the edit most of the time (rankPrior): it is shown
// whole when it fits in half the budget, so that every part of it the edit
// may touch is there; the same file behind another is not.
func TestFirstFileWhole(t *testing.T) {
	root := t.TempDir()
	module := func(matchAll bool) ([]byte, []syntax.Tag) {
		var b strings.Builder
		var defs []syntax.Tag
		for i := range 110 {
			name := fmt.Sprintf("helper_%d", i)
			if i == 71 {
				name = "parse_expiry"
			}
			word := "shifted"
			if matchAll || i == 71 {
				word = "expiry"
			}
			defs = append(defs, syntax.Tag{Name: name, Kind: "function", Line: 4*i + 1, End: 4*i + 3})
			fmt.Fprintf(&b, "def %s(value):\n    %s = value + %d\n    return %s * 2\n\n", name, word, i, word)
		}
		return []byte(b.String()), defs
	}
	// tokens.py names the task's word in one function; the others in every
	// one, so that their parts outweigh the rest of tokens.py.
	src, defs := module(false)
	other, otherDefs := module(true)
	tokens := (newFile("tokens.py", src, nil, defs, false).wholeSize() + BytesPerToken - 1) / BytesPerToken
	if tokens <= wholeFileTokens {
		t.Fatalf("the module is %d tokens, within wholeFileTokens: it would be whole anyway", tokens)
	}
	os.WriteFile(filepath.Join(root, "tokens.py"), src, 0o644)
	names := []string{"tokens.py", "a.py", "b.py", "c.py", "d.py"}
	for _, n := range names[1:] {
		os.WriteFile(filepath.Join(root, n), other, 0o644)
	}
	ev := Evidence{Terms: map[string]float64{"expiry": 2}, Symbols: map[string]bool{"parse_expiry": true}}
	whole := func(pack, path string) bool {
		_, after, _ := strings.Cut(pack, "## "+path+" ")
		body, _, _ := strings.Cut(after, "\n## ")
		return strings.Contains(body, "_whole file")
	}
	budget := 2*tokens + 200
	for rank, want := range []bool{true, false} {
		order := slices.Insert(slices.Clone(names[1:]), rank, "tokens.py")
		var files []File
		for i, p := range order {
			d := otherDefs
			if p == "tokens.py" {
				d = defs
			}
			files = append(files, File{Evaluation: loop.Evaluation{Path: p, Relevance: 0.9 - 0.01*float64(i), Reason: "r"}, Defs: d, Evidence: ev})
		}
		got, err := Build(Input{Task: "Fix parse_expiry", Root: root, Terms: []string{"expiry"}, Files: files}, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if w := whole(got, "tokens.py"); w != want {
			t.Errorf("budget %d (the file %d tokens), tokens.py ranked %d: whole = %v, want %v", budget, tokens, rank+1, w, want)
		}
	}
}
