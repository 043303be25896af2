package syntax

import (
	"os"
	"sort"
	"testing"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// TestCompileCost times the compilation of each language's query.
func TestCompileCost(t *testing.T) {
	if os.Getenv("HONE_COMPILE_COST") == "" {
		t.Skip("set HONE_COMPILE_COST=1")
	}
	var names []string
	for n := range grammars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		g := grammars[n]
		start := time.Now()
		g.once.Do(g.init)
		if g.err != nil {
			t.Fatal(g.err)
		}
		t.Logf("%-10s %4d patterns %v", n, g.query.PatternCount(), time.Since(start))
	}
}

// topLevel splits query source into its top-level forms.
func topLevel(src string) []string {
	var out []string
	depth, start := 0, -1
	inStr := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '(' || c == '[':
			if depth == 0 {
				start = i
			}
			depth++
		case c == ')' || c == ']':
			depth--
			if depth == 0 {
				j := i + 1
				// trailing captures and quantifiers: "] @definition.class"
				for j < len(src) && src[j] != '\n' {
					j++
				}
				out = append(out, src[start:j])
				i = j
			}
		}
	}
	return out
}

func TestCompileCostPerPattern(t *testing.T) {
	lang := os.Getenv("HONE_COMPILE_COST")
	g := grammars[lang]
	if g == nil {
		t.Skip("set HONE_COMPILE_COST to a language")
	}
	g.once.Do(g.init)
	for _, f := range g.queries {
		b, _ := queryFS.ReadFile("queries/" + f)
		for _, p := range topLevel(string(b)) {
			start := time.Now()
			q, err := ts.NewQuery(g.language, p)
			d := time.Since(start)
			if err != nil {
				t.Logf("%s: %v: %.60q", f, err, p)
				continue
			}
			q.Close()
			if d > time.Millisecond {
				t.Logf("%s %v %.200q", f, d, p)
			}
		}
	}
}
