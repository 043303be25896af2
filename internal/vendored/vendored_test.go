package vendored

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-enry/go-enry/v2/data"
	"github.com/google/go-cmp/cmp"
)

func TestPath(t *testing.T) {
	tests := []struct {
		path string
		want string // the rule's pattern; "" when not vendored
	}{
		// The contoso-university fixture's bundled libraries.
		{"wwwroot/lib/jquery/dist/jquery.js", `(^|/)jquery([^.]*)\.js$`},
		{"wwwroot/lib/jquery-validation/dist/jquery.validate.js", `(^|/)jquery([^.]*)\.validate(\.unobtrusive)?\.js$`},
		{"wwwroot/lib/jquery-validation-unobtrusive/jquery.validate.unobtrusive.js", `(^|/)jquery([^.]*)\.validate(\.unobtrusive)?\.js$`},
		{"wwwroot/lib/bootstrap/dist/css/bootstrap.css", `(^|/)bootstrap([^/.]*)(\..*)?\.(css|less|scss|styl)$`},
		{"wwwroot/lib/bootstrap/dist/css/bootstrap.min.css", `(^|/)bootstrap([^/.]*)(\..*)?\.(css|less|scss|styl)$`},
		{"wwwroot/lib/jquery-validation/dist/additional-methods.js", `(^|/)wwwroot/lib/.*$`},
		{"wwwroot/js/site.js", ""},
		{"wwwroot/css/site.css", ""},
		// Linguist's rules.
		{"node_modules/left-pad/index.js", `(^|/)node_modules/`},
		{"web/bower_components/x/y.js", `(^|/)bower_components/`},
		{"vendor/github.com/pkg/errors/errors.go", `(^|/)vendors?/`},
		{"src/third_party/zlib/inflate.c", `(3rd|[Tt]hird)[-_]?[Pp]arty/`},
		{"django/contrib/admin/static/admin/js/vendor/select2/select2.full.js", `(^|/)vendors?/`},
		{"static/js/app.min.js", `(\.|-)min\.(js|css)$`},
		{"static/css/font-awesome/css/all.css", `(^|/)font-?awesome/.*\.(css|less|scss|styl)$`},
		{"deps/jemalloc/src/arena.c", `^deps/`},
		{"src/deps/x.c", ""}, // ^deps/ is the root's only
		{"tools/cpplint.py", `(^|/)cpplint\.py`},
		{"gradlew", `(^|/)gradlew$`},
		{"gradle/wrapper/gradle-wrapper.properties", `(^|/)gradle/wrapper/`},
		{"Carthage/Checkouts/Alamofire/Source/Alamofire.swift", `(^|/)Carthage/`},
		// hone's.
		{"lib/python3.12/site-packages/requests/api.py", `(^|/)(site|dist)-packages/`},
		{".venv/bin/activate", `(^|/)\.?venv/`},
		{"ios/Pods/Alamofire/Source/Session.swift", `(^|/)Pods/`},
		{"extern/agg24-svn/include/agg_arc.h", `(^|/)[Ee]xtern(als)?/`},
		{"sklearn/externals/_arff.py", `(^|/)[Ee]xtern(als)?/`},
		{"astropy/extern/configobj/configobj.py", `(^|/)[Ee]xtern(als)?/`},
		{"static/js/jquery-3.5.1.min.js", `(\.|-)min\.(js|css)$`},
		{"static/js/jquery-3.5.1.js", `(^|/)jquery\-\d\.\d+(\.\d+)?\.js$`},
		{"static/underscore-1.13.1.js", versioned + `\.[mc]?js$`},
		{"static/css/pure-3.0.0.css", versioned + `\.css$`},
		{"static/vue-2.6.14.esm.mjs", versioned + `\.[mc]?js$`},
		{"static/js/bootstrap.bundle.js", `(^|/)bootstrap([^/.]+(\..*)?|\..+)\.js$`},
		// The project's own code, where Linguist's rule is excluded or narrowed.
		{"django/core/cache/backends/base.py", ""},
		{"sympy/external/gmpy.py", ""},
		{"tests/fixtures/models.py", ""},
		{"pkg/testdata/golden.json", ""},
		{"docs/_theme/djangodocs/layout.html", ""},
		{"doc/_static/mpl.css", ""},
		{"dist/axios.js", ""},
		{".github/workflows/ci.yml", ""},
		{".gitignore", ""},
		{"types/index.d.ts", ""},
		{"resources/js/bootstrap.js", ""},
		{"src/react-components/Button.js", ""}, // Linguist's [^.]* would cross the "/"
		{"angular-app/src/main.js", ""},
		{"fabfile.py", ""},
		{"configure", ""},
		{"env/settings.py", ""},
		{"debian/rules", ""},
		{"tests/staticfiles_tests/project/documents/cached/import.css", ""},
		{"django/db/models/query.py", ""},
		{"lib/matplotlib/backends/web_backend/js/mpl.js", ""},
		{"src/app/version-1.2.py", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r, ok := Path(tt.path)
			if got := r.Pattern; got != tt.want || ok != (tt.want != "") {
				t.Errorf("Path(%q) = %q, %v; want %q", tt.path, got, ok, tt.want)
			}
		})
	}
}

func TestDir(t *testing.T) {
	tests := []struct {
		dir  string
		want string
	}{
		{"node_modules", `(^|/)node_modules/`},
		{"web/static/vendor", `(^|/)vendors?/`},
		{"third_party", `(3rd|[Tt]hird)[-_]?[Pp]arty/`},
		{"wwwroot/lib", ""}, // its files are, one by one
		{"deps", `^deps/`},
		{"src/deps", ""},
		{"ios/Realm.framework", `(^|/)Realm\.framework`},
		{"js/select2", ""}, // (^|/)select2/.*\.(css|scss|js)$ takes some files below, not the directory
		{"static/jquery.js", ""},
		{"django/core/cache", ""},
		{"wwwroot", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			r, ok := Dir(tt.dir)
			if got := r.Pattern; got != tt.want || ok != (tt.want != "") {
				t.Errorf("Dir(%q) = %q, %v; want %q", tt.dir, got, ok, tt.want)
			}
		})
	}
}

func TestRuleString(t *testing.T) {
	r, _ := Path("wwwroot/lib/jquery/dist/jquery.js")
	if got, want := r.String(), `Linguist vendor rule (^|/)jquery([^.]*)\.js$`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	r, _ = Path("wwwroot/lib/jquery-validation/dist/additional-methods.js")
	if got, want := r.String(), `hone vendor rule (^|/)wwwroot/lib/.*$ (ASP.NET client libraries installed by LibMan or Bower)`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestExcludedAreLinguists fails when go-enry no longer has a rule hone
// excludes: the rule changed, and the exclusion needs a new look.
func TestExcludedAreLinguists(t *testing.T) {
	have := map[string]bool{}
	for _, re := range data.VendorMatchers {
		if re != nil {
			have[re.String()] = true
		}
	}
	for p := range excluded {
		t.Run(p, func(t *testing.T) {
			if !have[p] {
				t.Errorf("excluded rule %q is not among go-enry's vendor rules", p)
			}
		})
	}
	if got, want := len(names.rules)+len(paths.rules), len(have)-len(excluded)+len(honeRules); got != want {
		t.Errorf("%d rules in use, want %d", got, want)
	}
}

func TestIsNameRule(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{`(^|/)jquery([^.]*)\.js$`, true},
		{`(^|\/)d3(\.v\d+)?([^.]*)\.js$`, true},
		{`(\.|-)min\.(js|css)$`, true},
		{`(^|/)bootstrap([^/.]*)(\..*)?\.(css|less|scss|styl)$`, true}, // [^/.] is a class, not a "/"
		{`(^|/)Realm\.framework`, true},
		{`(^|/)node_modules/`, false},
		{`(^|/)select2/.*\.(css|scss|js)$`, false},
		{`(3rd|[Tt]hird)[-_]?[Pp]arty/`, false},
		{`^rebar$`, false}, // the root's only
		{`^deps/`, false},
		{`(`, false},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			if got := isNameRule(tt.src); got != tt.want {
				t.Errorf("isNameRule(%q) = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

func TestGuardOf(t *testing.T) {
	tests := []struct {
		src  string
		want guard
	}{
		{`(^|/)jquery([^.]*)\.js$`, guard{key: "jquery", suffix: ".js", end: true}},
		{`(^|\/)d3(\.v\d+)?([^.]*)\.js$`, guard{key: ".js", others: []string{"d3"}, suffix: ".js", end: true}},
		{`(^|/)[Vv]+endor/`, guard{key: "endor/"}},
		{`^[Dd]ependencies/`, guard{key: "ependencies/"}},
		{`(^|/)font-?awesome/.*\.(css|less|scss|styl)$`, guard{key: "awesome/", others: []string{"font", "."}, end: true}},
		{`(^|/)\.[Dd][Ss]_[Ss]tore$`, guard{key: "tore", others: []string{".", "_"}, suffix: "tore", end: true}},
		{`(?i)vendor/`, guard{}}, // case-folded: no exact literal
		{`a|b`, guard{}},
		{`(`, guard{}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, guardOf(tt.src), cmp.AllowUnexported(guard{})); diff != "" {
				t.Errorf("guardOf(%q) mismatch (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

// TestVersioned checks hone's rule for library files named with their
// release.
func TestVersioned(t *testing.T) {
	js, css := regexp.MustCompile(versioned+`\.[mc]?js$`), regexp.MustCompile(versioned+`\.css$`)
	tests := []struct {
		name string
		want bool
	}{
		{"jquery-3.5.1.js", true},
		{"jquery-3.5.1.min.js", true},
		{"jquery-3.6.0.slim.min.js", true},
		{"underscore-1.13.1.js", true},
		{"bootstrap-4.0.0.min.css", true},
		{"bootstrap-4.0.0.css", true},
		{"font-awesome-4.7.0.css", true},
		{"vue-2.6.14.esm.js", true},
		{"react-16.14.0.umd.min.js", true},
		{"jquery-3.0.0-beta1.js", true},
		{"moment-v2.29.js", true},
		{"jquery.js", false},
		{"app.js", false},
		{"app-v2.js", false},
		{"es6-shim.js", false},
		{"html5shiv.js", false},
		{"base64.js", false},
		{"utf-8.js", false},
		{"jquery-3.5.1.py", false},
		{"jquery-3.5.1.js.map", false},
		{"vue-3.4.0.esm.mjs", true},
		{"lodash-4.17.21.cjs", true},
		{"1.2.3.js", false},
		{"-1.2.js", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := js.MatchString(tt.name) || css.MatchString(tt.name); got != tt.want {
				t.Errorf("versioned(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

// corpus is a set of paths that exercises every rule: the repository's own
// files, and per rule its literal in several places.
func corpus(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if rel, err := filepath.Rel("../..", p); err == nil && rel != "." {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []*ruleSet{names, paths} {
		for _, g := range set.lits {
			lit := g.key + strings.Join(g.others, "") + g.suffix
			for _, f := range []string{"%s", "a/%s", "%s/x", "a/%s/b.js", "%s.js", "a/%s.css", "a/b%s", "x%s.min.js", "%s1.2/", "a/%s/"} {
				out = append(out, strings.ReplaceAll(f, "%s", lit))
			}
		}
	}
	return append(out, "jquery-3.6.0.js", "a/jquery.ui.core.js", "d3.v7.js", "a/knockout-3.5.1.js",
		"packages/Newtonsoft.Json.13.0.1/lib/x.dll", "tiny_mce/plugins/x.js", "CodeMirror/5.2/mode/x.js")
}

// TestMatchIsBruteForce checks the literal index against running every rule
// on every string: a rule is never missed for its literal.
func TestMatchIsBruteForce(t *testing.T) {
	for _, s := range corpus(t) {
		for _, set := range []*ruleSet{names, paths} {
			for _, dir := range []bool{false, true} {
				want := false
				for i, re := range set.res {
					if !(dir && set.lits[i].end) && re.MatchString(s) {
						want = true
						break
					}
				}
				r, got := set.match(s, dir)
				if got != want {
					t.Errorf("match(%q, %v) = %v (%s), brute force %v", s, dir, got, r.Pattern, want)
				}
				if got && !regexp.MustCompile(r.Pattern).MatchString(s) {
					t.Errorf("match(%q, %v) names %s, which does not match", s, dir, r.Pattern)
				}
			}
		}
	}
}

// TestWalkOrderIsPath checks that the walk's decisions (Dir on each
// directory until one is vendored, then File) are Path's.
func TestWalkOrderIsPath(t *testing.T) {
	for _, p := range corpus(t) {
		p = strings.Trim(p, "/")
		walk := false
		for i := 0; i < len(p) && !walk; i++ {
			if p[i] == '/' {
				_, walk = Dir(p[:i])
			}
		}
		if !walk {
			_, walk = File(p)
		}
		if _, got := Path(p); got != walk {
			t.Errorf("Path(%q) = %v, the walk's Dir and File say %v", p, got, walk)
		}
	}
}

func BenchmarkFile(b *testing.B) {
	paths := []string{
		"django/contrib/admin/static/admin/js/vendor/jquery/jquery.js",
		"django/db/models/sql/compiler.py",
		"tests/model_fields/test_jsonfield.py",
		"docs/ref/models/querysets.txt",
		"lib/matplotlib/tests/baseline_images/test_axes/foo.png",
	}
	for b.Loop() {
		for _, p := range paths {
			File(p)
		}
	}
}
