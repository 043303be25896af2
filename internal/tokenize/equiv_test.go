package tokenize

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// corpus returns the text of real files: this module's sources and docs, and
// the tree named by $HONE_MEASURE_ROOT when set (a django checkout, say).
func corpus(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	add := func(root string, limit int64) {
		var total int64
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if n := d.Name(); n == ".git" || n == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			if total > limit {
				return filepath.SkipAll
			}
			info, err := d.Info()
			if err != nil || info.Size() > 1<<20 || !info.Mode().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			total += int64(len(b))
			out[p] = string(b)
			return nil
		})
	}
	add("../..", 64<<20)
	if root := os.Getenv("HONE_MEASURE_ROOT"); root != "" {
		add(root, 1<<30)
	}
	return out
}

func collectAll(f func(string, func(string)), s string) []string {
	var out []string
	f(s, func(t string) { out = append(out, strings.Clone(t)) })
	return out
}

// TestMatchesReference checks that Words, Terms, Identifier, Split and the
// Scanner give exactly the terms of the reference tokenizer on real files.
func TestMatchesReference(t *testing.T) {
	files := corpus(t)
	if len(files) < 20 {
		t.Fatalf("corpus has %d files", len(files))
	}
	var sc Scanner
	words, terms := 0, 0
	for p, text := range files {
		got, want := collectAll(Words, text), collectAll(refWords, text)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: Words differs from the reference", p)
		}
		words += len(got)
		want = collectAll(refTerms, text)
		if got := collectAll(Terms, text); !slices.Equal(got, want) {
			t.Fatalf("%s: Terms differs from the reference", p)
		}
		if got := collectAll(sc.Terms, text); !slices.Equal(got, want) {
			t.Fatalf("%s: Scanner.Terms differs from the reference", p)
		}
		terms += len(want)
		// Path-like and odd identifiers reach Identifier and Split directly.
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' }) {
			checkIdent(t, &sc, w)
		}
	}
	t.Logf("%d files, %d words, %d terms", len(files), words, terms)
}

func checkIdent(t *testing.T, sc *Scanner, w string) {
	t.Helper()
	want := collectAll(refIdentifier, w)
	if got := collectAll(Identifier, w); !slices.Equal(got, want) {
		t.Fatalf("Identifier(%q) = %q, want %q", w, got, want)
	}
	if got := collectAll(sc.Identifier, w); !slices.Equal(got, want) {
		t.Fatalf("Scanner.Identifier(%q) = %q, want %q", w, got, want)
	}
	if got, want := Split(w), refSplit(w); !slices.Equal(got, want) {
		t.Fatalf("Split(%q) = %q, want %q", w, got, want)
	}
}

func FuzzMatchesReference(f *testing.F) {
	for _, s := range []string{"SessionManager", "HTTPServerError x.y-z", "utf8Decode v2 base64", "__init__", "über_straße",
		"a._b a..b end. -x", "getHTTP2Client", "$foo/bar.Baz", "ABC1Def", "x\xffy", "İstanbul_KEY"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var sc Scanner
		if got, want := collectAll(Words, s), collectAll(refWords, s); !slices.Equal(got, want) {
			t.Fatalf("Words(%q) = %q, want %q", s, got, want)
		}
		want := collectAll(refTerms, s)
		if got := collectAll(Terms, s); !slices.Equal(got, want) {
			t.Fatalf("Terms(%q) = %q, want %q", s, got, want)
		}
		if got := collectAll(sc.Terms, s); !slices.Equal(got, want) {
			t.Fatalf("Scanner.Terms(%q) = %q, want %q", s, got, want)
		}
		checkIdent(t, &sc, s)
	})
}

func BenchmarkTerms(b *testing.B) {
	files := corpus(b)
	var total int64
	for _, text := range files {
		total += int64(len(text))
	}
	b.Run("reference", func(b *testing.B) {
		b.SetBytes(total)
		b.ReportAllocs()
		for b.Loop() {
			for _, text := range files {
				refTerms(text, func(string) {})
			}
		}
	})
	b.Run("Terms", func(b *testing.B) {
		b.SetBytes(total)
		b.ReportAllocs()
		for b.Loop() {
			for _, text := range files {
				Terms(text, func(string) {})
			}
		}
	})
	b.Run("Scanner", func(b *testing.B) {
		var sc Scanner
		b.SetBytes(total)
		b.ReportAllocs()
		for b.Loop() {
			for _, text := range files {
				sc.Terms(text, func(string) {})
			}
		}
	})
}
