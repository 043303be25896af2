package task

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func terms(t Task) []string {
	out := make([]string, len(t.Keywords))
	for i, k := range t.Keywords {
		out[i] = k.Text
	}
	return out
}

func weightOf(t Task, term string) float64 {
	for _, k := range t.Keywords {
		if k.Text == term {
			return k.Weight
		}
	}
	return 0
}

func TestKeywords(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // must be keywords
		not        []string // must not be keywords
	}{
		{"one-liner", "Fix the authentication token expiry bug",
			[]string{"authentication", "token", "expiry"}, []string{"fix", "the", "bug"}},
		{"camelCase", "SessionManager leaks sessions",
			[]string{"sessionmanager", "session", "manager", "leaks", "sessions"}, nil},
		{"snake_case", "validate_enrollment rejects valid students",
			[]string{"validate_enrollment", "validate", "enrollment", "rejects", "students"}, nil},
		{"dotted", "QuerySet.filter ignores Q objects",
			[]string{"queryset.filter", "queryset", "query", "set", "filter", "objects"}, []string{"q"}},
		{"module path", "django.db.models.QuerySet is slow",
			[]string{"django.db.models.queryset", "django", "db", "models", "queryset", "slow"}, nil},
		{"receiver dropped", "self.assertEqual fails",
			[]string{"assertequal", "equal"}, []string{"self", "self.assertequal"}},
		{"acronym plural", "Handle URLs in the router", []string{"urls", "router"}, []string{"ls", "ur"}},
		{"hyphenated prose", "A built-in cache for the jwt-utils module",
			[]string{"built", "cache", "jwt", "utils"}, []string{"built-in"}},
		{"code span", "Calling `get_format` with a lazy string fails",
			[]string{"get_format", "format", "lazy", "string"}, nil},
		{"html comment", "Title here\n<!-- Please fill in the template completely -->\nreal body",
			[]string{"title", "real", "body"}, []string{"template", "completely"}},
		{"unterminated comment", "Crash in parser\n<!-- template text never closed",
			[]string{"crash", "parser"}, []string{"template", "closed"}},
		{"url dropped", "See https://example.com/foo/bar?baz=qux for details on caching",
			[]string{"caching"}, []string{"https", "example", "com", "qux"}},
		{"image dropped", "Rendering is off ![screenshot](https://x.com/shot.png) in the legend",
			[]string{"rendering", "legend"}, []string{"shot", "png"}},
		{"link text kept", "As in [the serializer](https://x.org/s) docs", []string{"serializer"}, []string{"org"}},
		{"checklist boilerplate", "Bug in router\n- [x] I have searched the existing issues\n- [ ] Add retries to the fetcher",
			[]string{"router", "retries", "fetcher"}, []string{"searched", "existing"}},
		{"versions section", "Plot crash\n\n#### Versions\nnumpy: 1.2\nscipy: 1.3\n\n#### Other\nthe legend breaks",
			[]string{"plot", "crash", "legend"}, []string{"numpy", "scipy"}},
		{"empty", "", nil, nil},
		{"only stop words", "fix the bug please", nil, []string{"fix", "bug"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse(tc.text)
			ks := terms(got)
			for _, w := range tc.want {
				if !slices.Contains(ks, w) {
					t.Errorf("Parse(%q).Keywords = %v, want %q among them", tc.text, ks, w)
				}
			}
			for _, w := range tc.not {
				if slices.Contains(ks, w) {
					t.Errorf("Parse(%q).Keywords = %v, want no %q", tc.text, ks, w)
				}
			}
		})
	}
}

func TestWeights(t *testing.T) {
	t.Run("identifier over word", func(t *testing.T) {
		got := Parse("body\nthe SessionManager drops the cookie")
		if a, b := weightOf(got, "sessionmanager"), weightOf(got, "cookie"); a != IdentifierWeight || b != WordWeight {
			t.Errorf("weights sessionmanager=%v cookie=%v, want %v and %v", a, b, IdentifierWeight, WordWeight)
		}
	})
	t.Run("parts weigh less", func(t *testing.T) {
		got := Parse("body\nthe SessionManager drops the cookie")
		if w := weightOf(got, "manager"); w != IdentifierWeight*PartFactor {
			t.Errorf("weight of manager = %v, want IdentifierWeight*PartFactor = %v", w, IdentifierWeight*PartFactor)
		}
	})
	t.Run("title weighs more", func(t *testing.T) {
		got := Parse("Token expiry\nthe cookie")
		if a, b := weightOf(got, "expiry"), weightOf(got, "cookie"); a != TitleFactor*WordWeight || b != WordWeight {
			t.Errorf("weights expiry=%v cookie=%v, want %v and %v", a, b, TitleFactor*WordWeight, WordWeight)
		}
	})
	t.Run("repetition is sublinear", func(t *testing.T) {
		got := Parse("x\ncookie cookie cookie cookie")
		want := WordWeight * (1 + RepeatBoost*1.3862943611198906) // ln 4
		if w := weightOf(got, "cookie"); w < want-0.001 || w > want+0.001 {
			t.Errorf("weight of cookie = %v, want %v", w, want)
		}
	})
	t.Run("repetition capped", func(t *testing.T) {
		got := Parse("x\n" + strings.Repeat("cookie ", 100000))
		if w := weightOf(got, "cookie"); w != WordWeight*MaxRepeatFactor {
			t.Errorf("weight of cookie = %v, want %v", w, WordWeight*MaxRepeatFactor)
		}
	})
	t.Run("long code block weighs less", func(t *testing.T) {
		short := Parse("x\n```\nfrobnicate_all()\n```")
		long := Parse("x\n```\nfrobnicate_all()\n" + strings.Repeat("a = 1\n", 80) + "```")
		if a, b := weightOf(short, "frobnicate_all"), weightOf(long, "frobnicate_all"); a != CodeIdentWeight || b >= a {
			t.Errorf("weights short=%v long=%v, want %v and less", a, b, CodeIdentWeight)
		}
	})
	t.Run("a one-line task keeps the nouns of code", func(t *testing.T) {
		// Every word of a one-line task was chosen: error, line and value
		// name what changes. In an issue report they are filler.
		for _, tt := range []struct {
			text, word string
			want       float64
		}{
			{"Normalise error url to pathname", "error", TitleFactor * WordWeight},
			{"Add line numbers to the gutter", "line", TitleFactor * WordWeight},
			{"Colour scale lacks a base value", "value", TitleFactor * WordWeight},
			{"Normalise error url to pathname\nI get an error when the page loads", "error", 0},
			{"Parser error on tabs\n\nIt fails.", "error", 0},
			{"GET /me returns 500 when the user was deleted", "returns", 0},   // a verb: dropped
			{"Temporary directory is not removed after an error", "error", 0}, // a circumstance
			{"Retry on error", "error", 0},
			{"Error page shows the wrong status on error", "error", TitleFactor * WordWeight}, // once as the subject
			{"Fix the token expiry", "fix", 0},
		} {
			// Repeated, a word weighs more: want is its least weight.
			if w := weightOf(Parse(tt.text), tt.word); (tt.want == 0) != (w == 0) || w < tt.want {
				t.Errorf("%q: weight of %s = %v, want %v", tt.text, tt.word, w, tt.want)
			}
		}
	})
	t.Run("max keywords", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i < 200; i++ {
			b.WriteString("word" + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + " ")
		}
		if n := len(Parse(b.String()).Keywords); n != MaxKeywords {
			t.Errorf("len(Keywords) = %d, want %d", n, MaxKeywords)
		}
	})
	t.Run("heaviest first", func(t *testing.T) {
		got := Parse("Token `SessionManager`\nbody words follow here")
		for i := 1; i < len(got.Keywords); i++ {
			if got.Keywords[i].Weight > got.Keywords[i-1].Weight {
				t.Fatalf("Keywords not sorted: %v", got.Keywords)
			}
		}
	})
}

func TestNames(t *testing.T) {
	tests := []struct {
		name, text string
		want       Task // only the name lists are compared
	}{
		{"identifiers", "SessionManager calls validate_enrollment and QuerySet.filter()",
			Task{Identifiers: []string{"QuerySet.filter", "SessionManager", "validate_enrollment"},
				DottedNames: []string{"QuerySet.filter"}}},
		{"called plain word", "calling filter() twice",
			Task{Identifiers: []string{"filter"}}},
		{"not dotted", "e.g. this, i.e. that, see github.com and v1.2.3",
			Task{}},
		{"code spans", "Use `os.path.join` not `+` and `classes_`",
			Task{Identifiers: []string{"os.path.join", "classes_"}, DottedNames: []string{"os.path.join"},
				CodeSpans: []string{"os.path.join", "+", "classes_"}}},
		{"paths", "Broken in src/auth/tokens.ts and django/db/models/query.py:1234, also setup.py.",
			Task{Paths: []string{"src/auth/tokens.ts", "django/db/models/query.py", "setup.py"},
				Frames: []Frame{{File: "django/db/models/query.py", Line: 1234}}}},
		{"route segments", "The page in app/[slug]/page.tsx and pages/[id].tsx, app/(shop)/cart/page.tsx, src/routes/[slug]/+page.svelte; see [setup.py](https://x.io)",
			Task{Paths: []string{"app/[slug]/page.tsx", "pages/[id].tsx", "app/(shop)/cart/page.tsx", "src/routes/[slug]/+page.svelte", "setup.py"}}},
		{"windows path", `Fails at C:\proj\src\app.py:12:5`,
			Task{Paths: []string{"C:/proj/src/app.py"}, Frames: []Frame{{File: "C:/proj/src/app.py", Line: 12}}}},
		{"github blob url", "Here: https://github.com/django/django/blob/c57ff9b/django/contrib/admin/sites.py#L456 breaks",
			Task{Paths: []string{"django/contrib/admin/sites.py"}}},
		{"path in code span", "edit `lib/core/engine.rs` please",
			Task{Paths: []string{"lib/core/engine.rs"}, CodeSpans: []string{"lib/core/engine.rs"}}},
		{"call is not a path", "response.json() returns None",
			Task{Identifiers: []string{"response.json"}, DottedNames: []string{"response.json"}}},
		{"product is not a path", "Works in Node.js but not in Deno",
			Task{}},
		{"bare file names", "The Makefile and Cargo.toml disagree",
			Task{Paths: []string{"Makefile", "Cargo.toml"}}},
		{"exception line", "Crash\nValueError: invalid literal for int_parse",
			Task{Identifiers: []string{"ValueError", "int_parse"}, Errors: []string{"ValueError: invalid literal for int_parse"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse(tc.text)
			got = Task{Identifiers: got.Identifiers, DottedNames: got.DottedNames, CodeSpans: got.CodeSpans,
				Paths: got.Paths, Frames: got.Frames, Errors: got.Errors}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Parse(%q) names (-want +got):\n%s", tc.text, d)
			}
		})
	}
}

func TestMentions(t *testing.T) {
	tests := []struct {
		text                string
		tests, docs, config bool
	}{
		{"Fix the authentication token expiry bug", false, false, false},
		{"Add a test for the token refresh", true, false, false},
		{"Add unit tests for SessionManager", true, false, false},
		{"Fix the failing test TestExpiry", true, false, false},
		{"We need more tests for the parser", true, false, false},
		{"Write regression tests covering the date parser", true, false, false},
		{"The test passes but the app crashes", false, false, false},
		{"Crash\n```\nFile \"tests/test_x.py\", line 3, in test_y\nAssertionError\n```", false, false, false},
		{"import unittest breaks under unittest.mock", false, false, false},
		{"Update the documentation for the cache settings", false, true, false},
		{"Typo in the README", false, true, false},
		{"docs: explain retries", false, true, false},
		{"According to the docs this should work", false, false, false},
		{"Fix the docstring of parse_date", false, true, false},
		{"Update the demo of useDraggable", false, true, false},
		{"Fix the example for the retry client", false, true, false},
		{"Crash when, for example, the list is empty", false, false, false},
		{"Add Node 22 to the CI matrix", false, false, true},
		{"Run the lint workflow on pull requests", false, false, true},
		{"Bump the minimum version in pyproject", false, false, true},
		{"Read the port from the YAML settings", false, false, true},
		{"Pass correct jsx config for esbuild-loader", false, false, true},
		{"Configurable compression level for zstd", false, false, false},
		{"Make --grid work when not in TTY", false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			got := Parse(tc.text)
			if got.MentionsTests != tc.tests {
				t.Errorf("Parse(%q).MentionsTests = %v, want %v", tc.text, got.MentionsTests, tc.tests)
			}
			if got.MentionsDocs != tc.docs {
				t.Errorf("Parse(%q).MentionsDocs = %v, want %v", tc.text, got.MentionsDocs, tc.docs)
			}
			if got.MentionsConfig != tc.config {
				t.Errorf("Parse(%q).MentionsConfig = %v, want %v", tc.text, got.MentionsConfig, tc.config)
			}
		})
	}
}

func TestRobustness(t *testing.T) {
	tests := []string{"", "   \n\t\n", "\xff\xfe\xfd", "```", "```\n", "<!--", "`", "File \"", "at (", "#1",
		"a\x00b", strings.Repeat("`", 1000), strings.Repeat("<!-- ", 1000)}
	for _, text := range tests {
		t.Run("", func(t *testing.T) {
			got := Parse(text)
			if got.Text != text {
				t.Errorf("Parse(%q).Text = %q, want the input", text, got.Text)
			}
			checkInvariants(t, text, got)
		})
	}
}

// checkInvariants checks what every Task must satisfy.
func checkInvariants(t *testing.T, text string, got Task) {
	t.Helper()
	seen := map[string]bool{}
	for _, k := range got.Keywords {
		if k.Text == "" || k.Text != strings.ToLower(k.Text) || !(k.Weight > 0) || k.Origin == "" {
			t.Errorf("Parse(%q) has keyword %+v, want non-empty lower-case text, weight > 0, an origin", text, k)
		}
		if seen[k.Text] {
			t.Errorf("Parse(%q) has keyword %q twice", text, k.Text)
		}
		seen[k.Text] = true
	}
	if len(got.Keywords) > MaxKeywords {
		t.Errorf("Parse(%q) has %d keywords, want at most %d", text, len(got.Keywords), MaxKeywords)
	}
	for _, p := range got.Paths {
		if p == "" || lineSuffixRE.MatchString(p) {
			t.Errorf("Parse(%q).Paths has %q, want a path without line suffix", text, p)
		}
	}
	for _, f := range got.Frames {
		if lineSuffixRE.MatchString(f.File) || f.Line < 0 {
			t.Errorf("Parse(%q).Frames has %+v, want a path without line suffix", text, f)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	text := bigTask(1 << 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Parse(text)
	}
}

// BenchmarkParseShapes parses 1 MB inputs of degenerate shapes: one huge
// line, thousands of paths, frames, fences or comments.
func BenchmarkParseShapes(b *testing.B) {
	n := 1 << 20
	shapes := []struct{ name, unit string }{
		{"dots", "a.b"}, {"paths", "a.py "}, {"locations", "a.py:1:"}, {"ticks", "`a` "}, {"comments", "<!-- "},
		{"idents", "FooBar_baz "}, {"lines", "x\n"}, {"indented", "    a.b(c)\n"}, {"fences", "```\n"},
		{"pyframes", "  File \"/a/b.py\", line 3, in f\n    x()\n"}, {"javaframes", "at a.b.C.d(C.java:1)\n"},
		{"exceptions", "ValueErrorValueError"}, {"headings", "# Versions\n"}, {"unicode", "日本語テキスト "},
		{"word", "a"}, {"slashes", "a/"}, {"backslashes", `a\`}, {"links", "[x](y) ![z](w) "},
		{"urls", "https://github.com/a/b/blob/c/d.py "},
	}
	for _, s := range shapes {
		text := strings.Repeat(s.unit, n/len(s.unit))
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				Parse(text)
			}
		})
	}
}

// bigTask builds a task of about n bytes from an issue with code and a
// traceback, repeated.
func bigTask(n int) string {
	unit := "SessionManager drops tokens after `refresh_token()` in src/auth/tokens.ts\n" +
		"The session_store.get call returns None when the expiry is near.\n" +
		"```python\nfrom app.auth import SessionManager\nm = SessionManager()\nm.refresh_token(user)\n```\n" +
		"Traceback (most recent call last):\n  File \"/usr/lib/python3/site-packages/app/auth.py\", line 42, in refresh_token\n" +
		"    return self.store.get(key)\nKeyError: 'token'\n\n"
	var b strings.Builder
	b.WriteString("Fix the authentication token expiry bug\n")
	for b.Len() < n {
		b.WriteString(unit)
	}
	return b.String()
}

func TestTitle(t *testing.T) {
	long := strings.Repeat("word ", MaxTitleLen/5+1)
	for _, tc := range []struct{ in, want string }{
		{"Posify ignores is_finite assumptions\n\nbody", "Posify ignores is_finite assumptions"},
		{"\n\n  Fix the token expiry bug  \nmore", "Fix the token expiry bug"},
		{"```python\nx = 1\n```", ""},
		{long + "\nbody", ""},
		{"", ""},
	} {
		if got := Parse(tc.in).Title; got != tc.want {
			t.Errorf("Parse(%.30q).Title = %q, want %q", tc.in, got, tc.want)
		}
	}
}
