package search

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone/loop"
)

func TestCompileGlob(t *testing.T) {
	tests := []struct {
		pattern string
		want    glob
		err     string
	}{
		{"**/*.py", glob{"**/*.py"}, ""},
		{"{src,lib}/**/*.{js,ts}", glob{"src/**/*.js", "src/**/*.ts", "lib/**/*.js", "lib/**/*.ts"}, ""},
		{"a{b,{c,d}e}f", glob{"abf", "acef", "adef"}, ""},
		{"{a,a}{a,a}", glob{"aa"}, ""},
		{"{}x{,y}", glob{"x", "xy"}, ""},
		{`\{a,b\}`, glob{`\{a,b\}`}, ""},
		{`{a\,b,c}`, glob{`a\,b`, "c"}, ""},
		{"{[,}]x,y}", glob{"[,}]x", "y"}, ""},
		{"[{]{a,b}", glob{"[{]a", "[{]b"}, ""},
		{`{[\]},]x,y}`, glob{`[\]},]x`, "y"}, ""},
		{strings.Repeat("{a,b}", 6), nil, ""},
		{strings.Repeat("{a,b}", 7), nil, "expands to more than 64 brace alternatives"},
		{strings.Repeat("{a,a}", 30), nil, "expands to more than 64 brace alternatives"},
		{strings.Repeat("{a,{b,{c,{d,e}}}}", 3), nil, "expands to more than 64 brace alternatives"},
		{"app/[a-", nil, "bad glob"},
		{"{a,b", nil, "bad glob"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			got, err := compileGlob(tt.pattern)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("compileGlob(%q) error = %v, want one saying %q", tt.pattern, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("compileGlob(%q): %v", tt.pattern, err)
			}
			if tt.want == nil {
				if len(got) != 64 {
					t.Errorf("compileGlob(%q) has %d alternatives, want 64", tt.pattern, len(got))
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("compileGlob(%q) (-want +got):\n%s", tt.pattern, diff)
			}
		})
	}
}

// TestGlobAgreesWithDoublestar checks compiled globs on random patterns and
// paths: the alternatives are those of a plain rewriting of the pattern, one
// brace group at a time, as doublestar reads braces; a brace-free glob
// matches exactly as doublestar.Match; and one with braces matches whatever
// doublestar.Match does, and more only where doublestar misses a match of
// an alternative (see MaxAlternatives).
func TestGlobAgreesWithDoublestar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	parts := []string{"a", "b", "/", "*", "**", "?", "{", "}", ",", "[ab]", "[!a]", `\*`, `\{`, `\,`, "{a,b}", "{,a}", "{**/,}", "[{]", "[,]", "[}]"}
	checked := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(7) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		p := b.String()
		for range 5 {
			var path strings.Builder
			for range rng.IntN(6) {
				path.WriteString([]string{"a", "b", "/", "ab", "{", ",", "*", "}"}[rng.IntN(8)])
			}
			if checkGlob(t, p, path.String()) {
				checked++
			}
		}
	}
	if checked < 20000 {
		t.Fatalf("only %d valid pattern and path pairs", checked)
	}
}

// checkGlob checks compileGlob(p) against doublestar on one path,
// reporting whether p compiled.
func checkGlob(t *testing.T, p, path string) bool {
	t.Helper()
	g, err := compileGlob(p)
	if err != nil {
		return false
	}
	if len(g) > MaxAlternatives {
		t.Fatalf("compileGlob(%q) has %d alternatives", p, len(g))
	}
	want := map[string]bool{}
	for _, e := range rewriteBraces(p) {
		want[e] = true
	}
	got := map[string]bool{}
	for _, e := range g {
		got[e] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("compileGlob(%q) alternatives (-rewritten +compiled):\n%s", p, diff)
	}
	ds, _ := doublestar.Match(p, path)
	if m := g.match(path); m != ds && (!strings.ContainsAny(p, "{}") || ds) {
		t.Errorf("glob %q (alternatives %q) on %q = %v, doublestar %v", p, g, path, m, ds)
	}
	return true
}

// rewriteBraces expands the first brace group of p into one pattern per
// alternative, and each of those in turn, by plain string rewriting.
func rewriteBraces(p string) []string {
	open := -1
	for i := 0; i < len(p) && open < 0; i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			for i++; i < len(p) && p[i] != ']'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
		case '{':
			open = i
		}
	}
	if open < 0 {
		return []string{p}
	}
	var commas []int
	depth := 0
	end := -1
	for i := open; i < len(p) && end < 0; i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			for i++; i < len(p) && p[i] != ']'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				end = i
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	var out []string
	from := open + 1
	for _, c := range append(commas, end) {
		out = append(out, rewriteBraces(p[:open]+p[from:c]+p[end+1:])...)
		from = c + 1
	}
	return out
}

// FuzzGlob checks compileGlob as TestGlobAgreesWithDoublestar does, on
// fuzzed patterns and paths.
func FuzzGlob(f *testing.F) {
	f.Add("{src,lib}/**/*.{js,ts}", "src/a/b.ts")
	f.Add("a{b,{c,d}e}f", "adef")
	f.Add("{[,}]x,y}", "}x")
	f.Add(`{a\,b,c}`, "a,b")
	f.Add("x/{**/,}", "x")
	f.Fuzz(func(t *testing.T, p, path string) {
		if len(p) > 40 || len(path) > 40 {
			return // doublestar and the rewriting are exponential in the braces
		}
		checkGlob(t, p, path)
	})
}

// TestSearchBraceBomb sends globs whose brace groups doublestar tries in
// every combination on every path: eighteen groups {*,*} take 0.14 s on
// app/auth/tokens.py, thirty would take hours a path. The search must
// refuse them at once.
func TestSearchBraceBomb(t *testing.T) {
	s := New(openFixture(t), Options{})
	bomb := strings.Repeat("{*,*}", 30) + "b"
	for _, q := range []loop.Query{
		{Patterns: []string{bomb}, Keywords: kw("token")},
		{Patterns: []string{CatchAll}, Excludes: []string{bomb}, Keywords: kw("token")},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := s.Search(context.Background(), q, 10)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "more than 64 brace alternatives") {
				t.Errorf("Search(%+v) = %v, want the glob refused", q, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("Search(%+v) did not return in 20 s", q)
		}
	}
}

// BenchmarkGlobMatch matches compiled globs against a path, beside
// doublestar.Match on the same pattern.
func BenchmarkGlobMatch(b *testing.B) {
	const path = "django/contrib/admin/static/admin/js/actions.js"
	for _, p := range []string{"**/*.py", "django/**", "{django,tests}/**/*.{js,ts}", strings.Repeat("{*,*}", 6) + "b"} {
		g, err := compileGlob(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("compiled/"+p, func(b *testing.B) {
			for b.Loop() {
				g.match(path)
			}
		})
		b.Run("doublestar/"+p, func(b *testing.B) {
			for b.Loop() {
				doublestar.Match(p, path)
			}
		})
	}
}
