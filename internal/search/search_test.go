package search

import (
	"context"
	"errors"
	"fmt"
	"github.com/bmatcuk/doublestar/v4"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

// fixture is a small repository: Python auth code and its test, an API, a
// TypeScript front end, a guide, and nine plugins that all define register.
var fixture = map[string]string{
	"app/__init__.py":      "",
	"app/auth/__init__.py": "from app.auth.tokens import TokenManager\n",
	"app/auth/tokens.py": `"""Authentication tokens and their expiry."""
import datetime


class TokenManager:
    """Issues tokens and checks token expiry."""

    def issue(self, user):
        return datetime.datetime.now()

    def is_expired(self, token):
        return token.expires_at < datetime.datetime.utcnow()
`,
	"app/api/throttle.py": `class Throttle:
    """Rate limit for the API."""

    def allow(self, client):
        return True
`,
	"app/api/views.py": `from app.api.throttle import Throttle
from app.auth.tokens import TokenManager


def login(request):
    if not Throttle().allow(request.client):
        return "rate limit exceeded"
    return TokenManager().issue(request.user)
`,
	"tests/test_tokens.py": `from app.auth.tokens import TokenManager


def test_token_expiry():
    # token expiry: an expired token is refused
    token = TokenManager().issue("u")
    assert not TokenManager().is_expired(token)


def test_token_expiry_again():
    token = TokenManager().issue("v")
    assert token
`,
	"web/src/auth/refresh.ts": `export function refreshToken(token: string): string {
  return token;
}
`,
	"web/src/auth/session.ts": `import { refreshToken } from "./refresh";

export class Session {
  renew(token: string) { return refreshToken(token); }
}
`,
	"docs/guide.md": "# Guide\n\nHow the pieces fit.\n",
}

func init() {
	for i := 1; i <= MaxDefiners+1; i++ {
		fixture[fmt.Sprintf("plugins/p%d.py", i)] = "def register(app):\n    return app\n"
	}
}

func openFixture(t testing.TB) *index.Index {
	t.Helper()
	return testrepo.Index(t, fixture)
}

func kw(terms ...string) []loop.Keyword {
	out := make([]loop.Keyword, len(terms))
	for i, t := range terms {
		out[i] = loop.Keyword{Term: t, Weight: 1, Origin: "task"}
	}
	return out
}

func candPaths(cs []loop.Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Path
	}
	return out
}

func sorted(xs []string) []string {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs
}

func byPath(cs []loop.Candidate) map[string]loop.Candidate {
	m := map[string]loop.Candidate{}
	for _, c := range cs {
		m[c.Path] = c
	}
	return m
}

func TestSearchPatternsAndExcludes(t *testing.T) {
	ix := openFixture(t)
	s := New(ix, Options{})
	tokenFiles := []string{"app/auth/__init__.py", "app/auth/tokens.py", "app/api/views.py", "tests/test_tokens.py",
		"web/src/auth/refresh.ts", "web/src/auth/session.ts"}
	tests := []struct {
		name string
		q    loop.Query
		want []string // as a set
	}{
		{"no pattern admits every matching file", loop.Query{Keywords: kw("token")}, tokenFiles},
		{"the catch-all admits every matching file", loop.Query{Patterns: []string{CatchAll}, Keywords: kw("token")}, tokenFiles},
		{"**/* is a catch-all too", loop.Query{Patterns: []string{"**/*"}, Keywords: kw("token")}, tokenFiles},
		{"a specific pattern restricts", loop.Query{Patterns: []string{"web/**"}, Keywords: kw("token")},
			[]string{"web/src/auth/refresh.ts", "web/src/auth/session.ts"}},
		{"patterns are an allow-list together", loop.Query{Patterns: []string{"web/**", "tests/*.py"}, Keywords: kw("token")},
			[]string{"tests/test_tokens.py", "web/src/auth/refresh.ts", "web/src/auth/session.ts"}},
		{"a glob exclude drops files", loop.Query{Patterns: []string{CatchAll}, Keywords: kw("token"), Excludes: []string{"web/**"}},
			[]string{"app/auth/__init__.py", "app/auth/tokens.py", "app/api/views.py", "tests/test_tokens.py"}},
		{"an exact exclude drops one file", loop.Query{Patterns: []string{CatchAll}, Keywords: kw("token"), Excludes: []string{"app/auth/tokens.py"}},
			[]string{"app/auth/__init__.py", "app/api/views.py", "tests/test_tokens.py", "web/src/auth/refresh.ts", "web/src/auth/session.ts"}},
		{"excludes win over patterns", loop.Query{Patterns: []string{"web/**"}, Keywords: kw("token"), Excludes: []string{"**/*.ts"}}, nil},
		{"no keyword, no focus: nothing", loop.Query{Patterns: []string{CatchAll}}, nil},
		{"a keyword of weight 0 is ignored", loop.Query{Keywords: []loop.Keyword{{Term: "token", Weight: 0}}}, nil},
		{"a term nobody uses: nothing", loop.Query{Keywords: kw("zebra")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Search(context.Background(), tt.q, 40)
			if err != nil {
				t.Fatalf("Search(%+v) error = %v", tt.q, err)
			}
			if diff := cmp.Diff(sorted(tt.want), sorted(candPaths(got)), cmpNilEmpty); diff != "" {
				t.Errorf("Search(%+v) paths (-want +got):\n%s", tt.q, diff)
			}
			for i, c := range got {
				if i > 0 && c.Score > got[i-1].Score {
					t.Errorf("Search() not best first: %v after %v", c, got[i-1])
				}
				if len(c.Matched) == 0 || c.Via != nil {
					t.Errorf("keyword candidate %s: Matched = %v, Via = %v; want matched terms and no Via", c.Path, c.Matched, c.Via)
				}
			}
		})
	}
}

func TestLiteral(t *testing.T) {
	tests := []struct {
		path, want string
		notMatch   []string // other paths the pattern must not match
	}{
		{"app/api/views.py", "app/api/views.py", []string{"app/api/view.py"}},
		{"docs/api/basic_json/operator[].md", `docs/api/basic_json/operator\[\].md`, []string{"docs/api/basic_json/operator.md"}},
		{"app/[slug]/page.tsx", `app/\[slug\]/page.tsx`, []string{"app/s/page.tsx", "app/g/page.tsx"}},
		{"src/{a,b}/x*?.go", `src/\{a,b\}/x\*\?.go`, []string{"src/a/xyz.go", "src/b/x1.go"}},
		{`odd\name.c`, `odd\\name.c`, []string{"oddname.c"}},
	}
	for _, tt := range tests {
		got := Literal(tt.path)
		if got != tt.want {
			t.Errorf("Literal(%q) = %q, want %q", tt.path, got, tt.want)
		}
		if !doublestar.ValidatePattern(got) {
			t.Errorf("Literal(%q) = %q is not a valid glob", tt.path, got)
		}
		if ok, _ := doublestar.Match(got, tt.path); !ok {
			t.Errorf("Literal(%q) = %q does not match the path itself", tt.path, got)
		}
		if ok, _ := doublestar.Match(got+"/**", tt.path+"/sub/file.go"); !ok {
			t.Errorf("Literal(%q)/** does not match a file below it", tt.path)
		}
		for _, o := range tt.notMatch {
			if ok, _ := doublestar.Match(got, o); ok {
				t.Errorf("Literal(%q) = %q matches %q too", tt.path, got, o)
			}
		}
	}
}

var cmpNilEmpty = cmp.Transformer("nilEmpty", func(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
})

func TestSearchPreferBoost(t *testing.T) {
	ix := openFixture(t)
	s := New(ix, Options{})
	ctx := context.Background()
	base := loop.Query{Patterns: []string{CatchAll}, Keywords: kw("token")}
	plain, err := s.Search(ctx, base, 40)
	if err != nil {
		t.Fatal(err)
	}
	before := byPath(plain)
	tests := []struct {
		name      string
		patterns  []string
		focus     []string
		preferred func(p string) bool
	}{
		{"dir focus", []string{CatchAll}, []string{"dir:web/src"}, func(p string) bool { return strings.HasPrefix(p, "web/src/") }},
		{"dir focus with a slash", []string{CatchAll}, []string{"dir:app/auth/"}, func(p string) bool { return strings.HasPrefix(p, "app/auth/") }},
		{"dir focus as a glob", []string{CatchAll}, []string{"dir:app/auth/**"}, func(p string) bool { return strings.HasPrefix(p, "app/auth/") }},
		{"a specific pattern beside the catch-all", []string{CatchAll, "tests/**"}, nil, func(p string) bool { return strings.HasPrefix(p, "tests/") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := base.Clone()
			q.Patterns, q.FocusAreas = tt.patterns, tt.focus
			got, err := s.Search(ctx, q, 40)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(sorted(candPaths(plain)), sorted(candPaths(got))); diff != "" {
				t.Fatalf("a preference changed the candidates (-before +after):\n%s", diff)
			}
			boosted := 0
			for _, c := range got {
				want := before[c.Path].Score
				if tt.preferred(c.Path) {
					want *= PreferBoost
					boosted++
				}
				if c.Score != want {
					t.Errorf("Search(%v, %v) score of %s = %v, want %v", tt.patterns, tt.focus, c.Path, c.Score, want)
				}
			}
			if boosted == 0 {
				t.Errorf("no candidate was preferred")
			}
		})
	}
}

func TestSearchFocusBringsFiles(t *testing.T) {
	ix := openFixture(t)
	s := New(ix, Options{})
	tests := []struct {
		name    string
		q       loop.Query
		wantVia map[string][]string // path -> Via, for candidates that have one
	}{
		{
			name:    "file focus with no keyword match",
			q:       loop.Query{Patterns: []string{CatchAll}, Keywords: kw("throttle"), FocusAreas: []string{"file:docs/guide.md"}},
			wantVia: map[string][]string{"docs/guide.md": {"file:docs/guide.md"}},
		},
		{
			name:    "file focus on a file keywords found too",
			q:       loop.Query{Patterns: []string{CatchAll}, Keywords: kw("throttle"), FocusAreas: []string{"file:app/api/throttle.py"}},
			wantVia: map[string][]string{"app/api/throttle.py": {"file:app/api/throttle.py"}},
		},
		{
			name:    "file focus outside the patterns still joins",
			q:       loop.Query{Patterns: []string{"web/**"}, Keywords: kw("token"), FocusAreas: []string{"file:app/auth/tokens.py"}},
			wantVia: map[string][]string{"app/auth/tokens.py": {"file:app/auth/tokens.py"}},
		},
		{
			name:    "file focus on an unknown path adds nothing",
			q:       loop.Query{Keywords: kw("throttle"), FocusAreas: []string{"file:nowhere.py"}},
			wantVia: map[string][]string{},
		},
		{
			name:    "an excluded focus file stays out",
			q:       loop.Query{Keywords: kw("throttle"), FocusAreas: []string{"file:docs/guide.md"}, Excludes: []string{"docs/**"}},
			wantVia: map[string][]string{},
		},
		{
			name:    "symbol focus with no keywords",
			q:       loop.Query{Patterns: []string{CatchAll}, FocusAreas: []string{"symbol:Throttle"}},
			wantVia: map[string][]string{"app/api/throttle.py": {"symbol:Throttle"}},
		},
		{
			name:    "dotted symbol focus",
			q:       loop.Query{FocusAreas: []string{"symbol:TokenManager.is_expired"}},
			wantVia: map[string][]string{"app/auth/tokens.py": {"symbol:TokenManager.is_expired"}},
		},
		{
			name: "file and symbol focus on one file",
			q:    loop.Query{FocusAreas: []string{"file:app/auth/tokens.py", "symbol:TokenManager", "symbol:TokenManager"}},
			wantVia: map[string][]string{
				"app/auth/tokens.py": {"file:app/auth/tokens.py", "symbol:TokenManager"},
			},
		},
		{
			name:    "a symbol defined in more than MaxDefiners files is skipped",
			q:       loop.Query{FocusAreas: []string{"symbol:register"}},
			wantVia: map[string][]string{},
		},
		{
			name:    "an unknown symbol adds nothing",
			q:       loop.Query{FocusAreas: []string{"symbol:NoSuchThing"}},
			wantVia: map[string][]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Search(context.Background(), tt.q, 40)
			if err != nil {
				t.Fatal(err)
			}
			via := map[string][]string{}
			for _, c := range got {
				if c.Via != nil {
					via[c.Path] = c.Via
				}
			}
			if diff := cmp.Diff(tt.wantVia, via); diff != "" {
				t.Errorf("Search(%+v) Via (-want +got):\n%s", tt.q, diff)
			}
			if len(tt.q.Keywords) == 0 && len(got) != len(tt.wantVia) {
				t.Errorf("Search(%+v) = %v, want only the focus files", tt.q, candPaths(got))
			}
		})
	}
}

func TestSearchLimit(t *testing.T) {
	ix := openFixture(t)
	s := New(ix, Options{})
	q := loop.Query{Keywords: kw("token")}
	all, err := s.Search(context.Background(), q, 40)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Search(context.Background(), q, 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(candPaths(all[:2]), candPaths(got)); diff != "" {
		t.Errorf("Search(limit 2) (-want +got):\n%s", diff)
	}
	// A focus file comes on top of the limit.
	q.FocusAreas = []string{"file:docs/guide.md"}
	got, err = s.Search(context.Background(), q, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(candPaths(all[:2]), "docs/guide.md"); !slices.Equal(candPaths(got), want) {
		t.Errorf("Search(limit 2, file focus) = %v, want %v", candPaths(got), want)
	}
	// A zero limit means the default.
	got, err = s.Search(context.Background(), loop.Query{Keywords: kw("token")}, 0)
	if err != nil || len(got) != len(all) {
		t.Errorf("Search(limit 0) = %d candidates, %v; want %d", len(got), err, len(all))
	}
}

func TestSearchDemotion(t *testing.T) {
	ix := openFixture(t)
	ctx := context.Background()
	q := loop.Query{Patterns: []string{CatchAll}, Keywords: kw("expiry", "token")}
	const testFile, codeFile = "tests/test_tokens.py", "app/auth/tokens.py"
	plain, err := New(ix, Options{}).Search(ctx, q, 40)
	if err != nil {
		t.Fatal(err)
	}
	pos := func(cs []loop.Candidate, p string) int { return slices.Index(candPaths(cs), p) }
	if pos(plain, testFile) > pos(plain, codeFile) {
		t.Fatalf("fixture: without demotion %s should outrank %s: %v", testFile, codeFile, candPaths(plain))
	}
	demoted, err := New(ix, Options{DemoteTests: true, DemoteDocs: true}).Search(ctx, q, 40)
	if err != nil {
		t.Fatal(err)
	}
	if pos(demoted, testFile) < pos(demoted, codeFile) {
		t.Errorf("with DemoteTests %s still outranks %s: %v", testFile, codeFile, candPaths(demoted))
	}
	before, after := byPath(plain), byPath(demoted)
	if got, want := after[testFile].Score, before[testFile].Score*TestFactor; got != want {
		t.Errorf("demoted score of %s = %v, want %v × TestFactor = %v", testFile, got, before[testFile].Score, want)
	}
	if got, want := after[codeFile].Score, before[codeFile].Score; got != want {
		t.Errorf("score of code %s changed under demotion: %v, want %v", codeFile, got, want)
	}
}

func TestOptionsFactor(t *testing.T) {
	tests := []struct {
		opts Options
		path string
		want float64
	}{
		{Options{}, "tests/test_x.py", 1},
		{Options{}, "docs/a.md", 1},
		{Options{DemoteTests: true}, "tests/test_x.py", TestFactor},
		{Options{DemoteTests: true}, "docs/a.md", 1},
		{Options{DemoteDocs: true}, "docs/a.md", DocFactor},
		{Options{DemoteDocs: true}, "examples/a.py", DocFactor},
		{Options{DemoteDocs: true}, "tests/test_x.py", 1},
		{Options{DemoteTests: true, DemoteDocs: true}, "app/x.py", 1},
		{Options{DemoteBuild: true}, "dist/axios.js", BuildFactor},
		{Options{DemoteBuild: true}, "packages/ui/dist/index.js", BuildFactor},
		{Options{DemoteTests: true, DemoteDocs: true}, "dist/axios.js", 1},
		{Options{DemoteBuild: true}, "build/release/cdn.js", 1},
		{Options{DemoteBuild: true}, "src/distance.js", 1},
		{Options{DemoteBuild: true}, "wwwroot/lib/jquery/dist/jquery.js", BuildFactor},
		{Options{DemoteBuild: true}, "vendor/github.com/pkg/errors/errors.go", BuildFactor},
		{Options{DemoteTests: true}, "tests/vendor/jquery.js", 1}, // vendored, not a test
	}
	for _, tt := range tests {
		if got := tt.opts.Factor(tt.path); got != tt.want {
			t.Errorf("%+v.Factor(%q) = %v, want %v", tt.opts, tt.path, got, tt.want)
		}
	}
}

func TestSearchErrors(t *testing.T) {
	ix := openFixture(t)
	s := New(ix, Options{})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		q       loop.Query
		wantErr string
		is      error
	}{
		{"bad pattern", context.Background(), loop.Query{Patterns: []string{"app/[a-"}, Keywords: kw("token")}, `search: bad glob "app/[a-"`, nil},
		{"bad exclude", context.Background(), loop.Query{Excludes: []string{"{a,b"}, Keywords: kw("token")}, `search: bad glob "{a,b"`, nil},
		{"cancelled", cancelled, loop.Query{Keywords: kw("token")}, "context canceled", context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Search(tt.ctx, tt.q, 40)
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("Search(%+v) = %v, %v; want error %q", tt.q, got, err, tt.wantErr)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Search() error %v is not %v", err, tt.is)
			}
		})
	}
}

func TestSearchConcurrent(t *testing.T) {
	ix := openFixture(t)
	s := New(ix, Options{DemoteTests: true})
	q := loop.Query{Patterns: []string{CatchAll}, Keywords: kw("token", "expiry"), FocusAreas: []string{"symbol:Throttle"}}
	want, err := s.Search(context.Background(), q, 40)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			got, err := s.Search(context.Background(), q, 40)
			if err == nil && !cmp.Equal(want, got) {
				err = fmt.Errorf("concurrent Search() = %v, want %v", candPaths(got), candPaths(want))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
