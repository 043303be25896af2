package pack

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone/internal/secret"
	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/loop"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const repo = "testdata/repo"

// fixtureDefs are the definitions of the fixture files, as the syntax package
// would report them.
var fixtureDefs = map[string][]syntax.Tag{
	"src/auth/tokens.py": {
		{Name: "DEFAULT_EXPIRY", Kind: "constant", Line: 6},
		{Name: "Token", Kind: "class", Line: 10},
		{Name: "expired", Parent: "Token", Kind: "method", Line: 15},
		{Name: "TokenStore", Kind: "class", Line: 21},
		{Name: "__init__", Parent: "TokenStore", Kind: "method", Line: 24},
		{Name: "put", Parent: "TokenStore", Kind: "method", Line: 27},
		{Name: "refreshToken", Parent: "TokenStore", Kind: "method", Line: 30},
	},
	"src/auth/session.go": {
		{Name: "Session", Kind: "type", Line: 6},
		{Name: "Valid", Parent: "Session", Kind: "method", Line: 13},
		{Name: "Renew", Parent: "Session", Kind: "method", Line: 18},
	},
	"src/big/handlers.py": func() []syntax.Tag {
		var tags []syntax.Tag
		for i := 1; i <= 30; i++ {
			line := 6 + (i-1)*7
			tags = append(tags, syntax.Tag{Name: "handler_" + strconv.Itoa(i), Kind: "function", Line: line})
		}
		tags = append(tags, syntax.Tag{Name: "Router", Kind: "class", Line: 216},
			syntax.Tag{Name: "route", Parent: "Router", Kind: "method", Line: 217})
		return tags
	}(),
}

func defsOf(path string) []syntax.Tag { return fixtureDefs[path] }

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{{"", 0}, {"a", 1}, {"abcd", 1}, {"abcde", 2}, {strings.Repeat("x", 400), 100}, {"…", 1}} {
		if got := Tokens(tc.in); got != tc.want {
			t.Errorf("Tokens(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestView(t *testing.T) {
	for _, tc := range []struct {
		name   string
		path   string
		terms  []string
		budget int
	}{
		{"tokens", "src/auth/tokens.py", []string{"token", "Expiry", "jwt"}, 0},
		{"tokens-tight", "src/auth/tokens.py", []string{"token", "expiry"}, 60},
		{"handlers", "src/big/handlers.py", []string{"refresh_token", "status"}, 0},
		{"handlers-tight", "src/big/handlers.py", []string{"token"}, 120},
		{"session-noterms", "src/auth/session.go", nil, 0},
		{"ts-camel", "web/app.ts", []string{"token"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := View(repo, tc.path, tc.terms, defsOf(tc.path), Options{Budget: tc.budget})
			if err != nil {
				t.Fatalf("View(%q) error: %v", tc.path, err)
			}
			if tc.budget > 0 && Tokens(got) > tc.budget {
				t.Errorf("View(%q, budget %d) = %d tokens", tc.path, tc.budget, Tokens(got))
			}
			golden(t, "view-"+tc.name+".golden", got)
		})
	}
}

func TestViewMatchesIdentifierParts(t *testing.T) {
	got, err := View(repo, "web/app.ts", []string{"TOKEN"}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 | import { refreshToken }", "4 |   const token", "matches: token 3"} {
		if !strings.Contains(got, want) {
			t.Errorf("View(app.ts, TOKEN) lacks %q:\n%s", want, got)
		}
	}
}

func TestViewErrors(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "ok.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ok.py", filepath.Join(root, "inside.py")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		root, path string
		want       error // nil: any error
	}{
		{root, "../secret.txt", ErrOutsideRoot},
		{root, "a/../../secret.txt", ErrOutsideRoot},
		{root, filepath.Join(outside, "secret.txt"), ErrOutsideRoot},
		{root, "link.txt", ErrOutsideRoot},
		{root, "dir/secret.txt", ErrOutsideRoot},
		{root, "missing.py", nil},
		{root, "", nil},
		{repo, "src", nil},
		{repo, "assets/logo.bin", ErrBinary},
	} {
		t.Run(tc.path, func(t *testing.T) {
			_, err := View(tc.root, tc.path, []string{"x"}, nil, Options{})
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("View(%q) error = %v, want %v", tc.path, err, tc.want)
			}
		})
	}
	if _, err := View(root, "inside.py", nil, nil, Options{}); err != nil {
		t.Errorf("View(inside.py) (a symlink within the root) error: %v", err)
	}
}

var fixtureFiles = []loop.Evaluation{
	{Path: "src/auth/tokens.py", Relevance: 0.91, Reason: "defines Token.expired:+0.35, matches token, expiry", MissingContext: []string{"caller of refreshToken"}},
	{Path: "src/big/handlers.py", Relevance: 0.72, Reason: "calls TokenStore.refreshToken:+0.20"},
	{Path: "assets/logo.bin", Relevance: 0.5, Reason: "path matches logo"},
	{Path: "src/auth/session.go", Relevance: 0.74, Reason: "type Session holds a token"},
	{Path: "README.md", Relevance: 0.3, Reason: "mentions tokens"},
	{Path: "web/app.ts", Relevance: 0.25, Reason: "calls refreshToken"},
}

const fixtureTask = "Fix the authentication token expiry bug:\ntokens never expire."

func TestBuild(t *testing.T) {
	terms := []string{"token", "expiry", "expired"}
	for _, tc := range []struct {
		name   string
		budget int
	}{{"unlimited", 0}, {"2000", 2000}, {"700", 700}, {"200", 200}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := buildFor(repo, fixtureTask, fixtureFiles, terms, defsOf, Options{Budget: tc.budget})
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if tc.budget > 0 && Tokens(got) > tc.budget {
				t.Errorf("buildFor(budget %d) = %d tokens", tc.budget, Tokens(got))
			}
			golden(t, "build-"+tc.name+".golden", got)
		})
	}
}

func TestBuildOmitsAndOrders(t *testing.T) {
	got, err := buildFor(repo, fixtureTask, fixtureFiles, []string{"token"}, defsOf, Options{Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "omitted for budget: ") {
		t.Errorf("buildFor(300) names no omitted file:\n%s", got)
	}
	if !strings.Contains(got, "unreadable: assets/logo.bin") {
		t.Errorf("buildFor(300) does not name the binary file:\n%s", got)
	}
	a, b := strings.Index(got, "## src/auth/tokens.py"), strings.Index(got, "## src/auth/session.go")
	if a < 0 || b < 0 || a > b {
		t.Errorf("Build: tokens.py (0.91) at %d, session.go (0.74) at %d: want best first", a, b)
	}
}

func TestBudgetNeverExceeded(t *testing.T) {
	terms := []string{"token", "expiry", "handler", "status", "session"}
	long := strings.Repeat("token expiry ", 500)
	for budget := 1; budget <= 3000; budget += 37 {
		for _, task := range []string{fixtureTask, long} {
			got, err := buildFor(repo, task, fixtureFiles, terms, defsOf, Options{Budget: budget})
			if err != nil {
				t.Fatalf("buildFor(budget %d): %v", budget, err)
			}
			if Tokens(got) > budget {
				t.Fatalf("buildFor(budget %d) = %d tokens:\n%s", budget, Tokens(got), got)
			}
		}
		for _, p := range []string{"src/auth/tokens.py", "src/big/handlers.py", "README.md"} {
			got, err := View(repo, p, terms, defsOf(p), Options{Budget: budget})
			if err != nil {
				t.Fatalf("View(%q, budget %d): %v", p, budget, err)
			}
			if Tokens(got) > budget {
				t.Fatalf("View(%q, budget %d) = %d tokens:\n%s", p, budget, Tokens(got), got)
			}
		}
	}
}

func TestBuildWholeWhenExcerptsCoverMost(t *testing.T) {
	// handlers.py is 219 lines, about 1,660 tokens with line numbers: too
	// large to be shown whole by default, so at 1,000 tokens it is shown by
	// its parts; at 2,500 its parts fill most of it and it is shown whole.
	files := []loop.Evaluation{{Path: "src/big/handlers.py", Relevance: 0.9}}
	for _, tc := range []struct {
		budget int
		terms  []string
		want   string
	}{
		{1000, []string{"token"}, "_excerpts of 219 lines_"},
		{2500, []string{"token"}, "_whole file, 219 lines_"},
		{2500, []string{"request", "data", "status", "handler", "kind"}, "_whole file, 219 lines_"},
	} {
		got, err := buildFor(repo, "task", files, tc.terms, defsOf, Options{Budget: tc.budget})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("buildFor(handlers.py, %q, %d) lacks %q:\n%s", tc.terms, tc.budget, tc.want, got)
		}
	}
}

func TestBuildRefusesEscape(t *testing.T) {
	files := []loop.Evaluation{{Path: "../pack.go", Relevance: 0.9}}
	if _, err := buildFor(repo, "task", files, nil, nil, Options{}); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("buildFor(../pack.go) error = %v, want ErrOutsideRoot", err)
	}
}

func TestFence(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  string
	}{{nil, "```"}, {[]string{"a ``` b"}, "````"}, {[]string{"`````"}, "``````"}} {
		if got := fenceFor(tc.lines); got != tc.want {
			t.Errorf("fenceFor(%q) = %q, want %q", tc.lines, got, tc.want)
		}
	}
}

func TestLanguage(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"a/b.py", "python"}, {"x.TSX", "tsx"}, {"Makefile", "make"}, {"x.unknown", ""}, {"noext", ""},
	} {
		if got := Language(tc.path); got != tc.want {
			t.Errorf("Language(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// Fake secrets for the fixture below, built at run time so that no scanner
// flags this file.
var (
	fakeKey = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgwMbRvI0MBZhpF\n-----END RSA PRIVATE KEY-----\n"
	fakeAWS = "AKIA" + "IOSFODNN7EXAMPLE"
)

// secretRepo is a repository holding secret material and credentials next
// to code, as in the issue: a private key and a certificate, .env and
// credentials.json, and the two configuration lines the LLM filter missed.
func secretRepo(t *testing.T) (string, []loop.Evaluation) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"deploy/id_rsa":    fakeKey,
		"certs/server.pem": "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUYz\n-----END CERTIFICATE-----\n",
		".env":             "DATABASE_URL=postgres://app:hunter2@db:5432/app\nAPI_KEY=q8Zr2Lx9Vb4Nt7Pw\n",
		"credentials.json": `{"aws_access_key_id": "` + fakeAWS + `", "aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG"}` + "\n",
		"config/database.yml": "production:\n  adapter: postgresql\n  username: app\n  password: s3cr3tPassw0rd\n" +
			"  host: <%= ENV['DB_HOST'] %>\n",
		"src/main/resources/application.properties": "db.url=jdbc:postgresql://db:5432/app\ndb.user=app\ndb.password=hunter2secret\n",
		"app/keys.py": "import os\n\n\ndef load_private_key(path):\n    \"\"\"Load the private key at path.\"\"\"\n" +
			"    password = os.environ.get('KEY_PASSWORD')\n    if not password:\n        return open(path).read()\n" +
			"    return decrypt(open(path).read(), password=password)\n",
	}
	var evals []loop.Evaluation
	rel := 0.95
	for _, p := range []string{"deploy/id_rsa", "certs/server.pem", "app/keys.py", ".env", "credentials.json",
		"config/database.yml", "src/main/resources/application.properties"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o600); err != nil {
			t.Fatal(err)
		}
		evals = append(evals, loop.Evaluation{Path: p, Relevance: rel, Reason: "names " + filepath.Base(p)})
		rel -= 0.05
	}
	return root, evals
}

// leaks are the secret values of secretRepo.
var leaks = []string{"MIIEowIBAAKCAQEA", "MIIBszCCAVmg", "hunter2", "q8Zr2Lx9Vb4Nt7Pw", fakeAWS, "wJalrXUtnFEMI",
	"s3cr3tPassw0rd", "hunter2secret"}

func TestBuildSecrets(t *testing.T) {
	root, evals := secretRepo(t)
	terms := []string{"private", "key", "password", "api_key", "database_url"}
	for _, budget := range []int{0, 2000, 400} {
		t.Run(strconv.Itoa(budget), func(t *testing.T) {
			got, err := buildFor(root, "fix the private key loading in id_rsa and server.pem", evals, terms, nil, Options{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range leaks {
				if strings.Contains(got, s) {
					t.Errorf("buildFor(budget %d) shows %q:\n%s", budget, s, got)
				}
			}
			if budget == 0 {
				golden(t, "build-secrets.golden", got)
			}
		})
	}
	shown, err := buildFor(root, "task", evals, terms, nil, Options{ShowSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range leaks {
		if !strings.Contains(shown, s) {
			t.Errorf("buildFor(ShowSecrets) lacks %q", s)
		}
	}
	if strings.Contains(shown, "not shown") || strings.Contains(shown, secret.Masked) {
		t.Errorf("buildFor(ShowSecrets) still hides something:\n%s", shown)
	}
}

func TestViewSecrets(t *testing.T) {
	root, _ := secretRepo(t)
	for _, tc := range []struct {
		path, want string // want: the reason, or "" for a view
	}{
		{"deploy/id_rsa", secret.PrivateKey},
		{"certs/server.pem", secret.Certificate},
		{".env", secret.EnvFile},
		{"credentials.json", secret.Credentials},
		{"config/database.yml", ""},
		{"src/main/resources/application.properties", ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			got, err := View(root, tc.path, []string{"password", "key"}, nil, Options{})
			var se *secret.Error
			switch {
			case tc.want != "" && (!errors.As(err, &se) || se.Reason != tc.want):
				t.Errorf("View(%q) error = %v, want not shown: %s", tc.path, err, tc.want)
			case tc.want == "" && err != nil:
				t.Errorf("View(%q) error = %v", tc.path, err)
			case tc.want == "" && !strings.Contains(got, "password"+map[bool]string{true: "=", false: ": "}[strings.HasSuffix(tc.path, "properties")]+secret.Masked):
				t.Errorf("View(%q) masks no password:\n%s", tc.path, got)
			}
			for _, s := range leaks {
				if strings.Contains(got, s) {
					t.Errorf("View(%q) shows %q:\n%s", tc.path, s, got)
				}
			}
			if _, err := View(root, tc.path, nil, nil, Options{ShowSecrets: true}); err != nil {
				t.Errorf("View(%q, ShowSecrets) error: %v", tc.path, err)
			}
		})
	}
}

func TestBuildKeystoreByName(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "release.jks"), []byte("\xfe\xed\xfe\xed\x00\x00\x00\x02"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := buildFor(root, "task", []loop.Evaluation{{Path: "release.jks", Relevance: 0.9}}, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "_not shown: "+secret.Keystore+"_") || strings.Contains(got, "unreadable") {
		t.Errorf("buildFor(release.jks) does not say it is a keystore:\n%s", got)
	}
}

// TestBuildNoRoom: a budget that leaves no room for any file still names the
// files that ranked and says why they are left out.
func TestBuildNoRoom(t *testing.T) {
	for _, budget := range []int{20, 30, 50} {
		t.Run(strconv.Itoa(budget), func(t *testing.T) {
			got, err := buildFor(repo, fixtureTask, fixtureFiles, []string{"token"}, defsOf, Options{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			if Tokens(got) > budget {
				t.Errorf("buildFor(budget %d) = %d tokens", budget, Tokens(got))
			}
			if want := fmt.Sprintf("omitted, no file fits in %d tokens: ", budget); !strings.Contains(got, want) {
				t.Errorf("buildFor(budget %d) lacks %q:\n%s", budget, want, got)
			}
		})
	}
	got, err := buildFor(repo, fixtureTask, fixtureFiles, []string{"token"}, defsOf, Options{Budget: 50})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "src/auth/tokens.py") {
		t.Errorf("buildFor(budget 50) does not name the best file:\n%s", got)
	}
}

func TestLinePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"src/a.py", "src/a.py"},
		{"new\nline.py", `"new\nline.py"`},
		{"tab\there.py", `"tab\there.py"`},
		{`"quoted".py`, `"\"quoted\".py"`},
		{"naïve.py", "naïve.py"},
	} {
		if got := LinePath(tc.in); got != tc.want {
			t.Errorf("LinePath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNewlineInPath: a file name holding a newline must not split the
// heading, the view's first line or the footer.
func TestNewlineInPath(t *testing.T) {
	root := t.TempDir()
	name := "evil\n## injected.py"
	if err := os.WriteFile(filepath.Join(root, name), []byte("x = 1\n"), 0o644); err != nil {
		t.Skip("no newline in file names here:", err)
	}
	files := []loop.Evaluation{{Path: name, Relevance: 0.9}, {Path: "gone\nfile.py", Relevance: 0.8}}
	got, err := buildFor(root, "task", files, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "## \"evil\\n## injected.py\" (relevance 0.90)\n") || !strings.Contains(got, `unreadable: "gone\nfile.py"`) {
		t.Errorf("Build does not quote the paths:\n%s", got)
	}
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "## injected") || l == "file.py" {
			t.Errorf("Build split a path over lines: %q in\n%s", l, got)
		}
	}
	view, err := View(root, name, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(view, "\n"); first != `"evil\n## injected.py" (python, 1 line)` {
		t.Errorf("View's first line = %q", first)
	}
}

// BenchmarkBuild measures a pack of the fixture files, with and without the
// secret checks, to price them: an 8,000-token pack, the CLI's default.
func BenchmarkBuild(b *testing.B) {
	terms := []string{"token", "expiry", "handler", "status", "session"}
	for _, tc := range []struct {
		name string
		opts Options
	}{{"masked", Options{Budget: 8000}}, {"shown", Options{Budget: 8000, ShowSecrets: true}}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := buildFor(repo, fixtureTask, fixtureFiles, terms, defsOf, tc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// buildFor packs files as a selection ranked by relevance, with terms as
// the task's words.
func buildFor(root, task string, files []loop.Evaluation, terms []string, defsOf func(string) []syntax.Tag, opts Options) (string, error) {
	ev := Evidence{Terms: map[string]float64{}}
	for _, t := range terms {
		ev.Terms[t] = 1
	}
	in := Input{Task: task, Root: root, Terms: terms}
	files = slices.Clone(files)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Relevance > files[j].Relevance })
	for _, e := range files {
		f := File{Evaluation: e, Selected: true, Evidence: ev}
		if defsOf != nil {
			f.Defs = defsOf(e.Path)
		}
		in.Files = append(in.Files, f)
	}
	return Build(in, opts)
}

// TestViewAgain: a second look shows lines the first view did not, never
// one it did, within its budget; after a view that showed everything that
// matches, it says so.
func TestViewAgain(t *testing.T) {
	numbered := func(s string) map[int]bool {
		out := map[int]bool{}
		for _, line := range strings.Split(s, "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[1] == "|" {
				if n, err := strconv.Atoi(f[0]); err == nil {
					out[n] = true
				}
			}
		}
		return out
	}
	for _, tc := range []struct {
		path  string
		terms []string
		first int
		more  bool // the second look must show new lines
	}{
		{"src/big/handlers.py", []string{"token"}, 60, true},
		{"src/big/handlers.py", []string{"refresh_token", "status"}, 120, true},
		{"src/auth/tokens.py", []string{"token", "expiry"}, 60, true},
		{"src/auth/session.go", nil, 40, true}, // nothing matches: the file past its head
		{"web/app.ts", []string{"token"}, 0, false},
	} {
		first, err := View(repo, tc.path, tc.terms, defsOf(tc.path), Options{Budget: tc.first})
		if err != nil {
			t.Fatal(err)
		}
		again, err := ViewAgain(repo, tc.path, tc.terms, defsOf(tc.path), tc.first, Options{Budget: 120})
		if err != nil {
			t.Fatal(err)
		}
		if Tokens(again) > 120 {
			t.Errorf("ViewAgain(%s) = %d tokens, budget 120", tc.path, Tokens(again))
		}
		seen := numbered(first)
		fresh := 0
		for n := range numbered(again) {
			if seen[n] {
				t.Errorf("ViewAgain(%s, %q, first %d) shows line %d again:\nfirst:\n%s\nagain:\n%s", tc.path, tc.terms, tc.first, n, first, again)
			}
			fresh++
		}
		if tc.more && fresh == 0 {
			t.Errorf("ViewAgain(%s, %q, first %d) shows no new line:\nfirst:\n%s\nagain:\n%s", tc.path, tc.terms, tc.first, first, again)
		}
		if !tc.more && !strings.Contains(again, "showed all of it") {
			t.Errorf("ViewAgain(%s) after a whole view = %q", tc.path, again)
		}
	}
}

// TestViewAgainBudgets: over every file of the test repository, many first
// budgets, second budgets and word sets, a second look stays within its
// budget and never repeats a numbered line of the first view.
func TestViewAgainBudgets(t *testing.T) {
	files := []string{"README.md", "src/auth/session.go", "src/auth/tokens.py", "src/big/handlers.py", "web/app.ts"}
	termSets := [][]string{nil, {"token"}, {"refresh_token", "status", "expiry"}, {"absent"}}
	for _, p := range files {
		for _, terms := range termSets {
			for _, first := range []int{0, 1, 30, 60, 120, 300, 1000} {
				view, err := View(repo, p, terms, defsOf(p), Options{Budget: first})
				if err != nil {
					t.Fatal(err)
				}
				shown := map[string]bool{}
				for _, l := range strings.Split(view, "\n") {
					if f := strings.Fields(l); len(f) >= 2 && f[1] == "|" {
						shown[l] = true
					}
				}
				for _, budget := range []int{5, 40, 120, 300} {
					again, err := ViewAgain(repo, p, terms, defsOf(p), first, Options{Budget: budget})
					if err != nil {
						t.Fatal(err)
					}
					if Tokens(again) > budget {
						t.Errorf("ViewAgain(%s, %q, first %d, budget %d) = %d tokens", p, terms, first, budget, Tokens(again))
					}
					for _, l := range strings.Split(again, "\n") {
						if shown[l] {
							t.Errorf("ViewAgain(%s, %q, first %d, budget %d) repeats %q", p, terms, first, budget, l)
						}
					}
				}
			}
		}
	}
}

// TestViewAgainUnlimited: without a budget, a second look after a view that
// cut the definitions lists them all.
func TestViewAgainUnlimited(t *testing.T) {
	const p = "src/big/handlers.py"
	first, err := View(repo, p, []string{"token"}, defsOf(p), Options{Budget: 60})
	if err != nil {
		t.Fatal(err)
	}
	again, err := ViewAgain(repo, p, []string{"token"}, defsOf(p), 60, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first, " more\n") {
		t.Fatalf("the first view lists every definition: the test says nothing:\n%s", first)
	}
	if strings.Contains(again, " more\n") || !strings.Contains(again, "defs: ") {
		t.Errorf("the first view cut the definitions, the second should list them all:\nfirst:\n%s\nagain:\n%s", first, again)
	}
}

func TestNLines(t *testing.T) {
	for n, want := range map[int]string{0: "0 lines", 1: "1 line", 2: "2 lines", 120: "120 lines"} {
		if got := nLines(n); got != want {
			t.Errorf("nLines(%d) = %q, want %q", n, got, want)
		}
	}
}
