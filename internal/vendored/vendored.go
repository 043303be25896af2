// Package vendored tells bundled third-party code from the project's own by
// its repository path: the libraries, dependency trees and tool scripts a
// project copies in (wwwroot/lib/, jquery.js, bootstrap.css, third_party/,
// node_modules/), which a task almost never changes and whose words are not
// the project's.
//
// # Rules
//
// The rules are GitHub Linguist's vendor.yml, as go-enry v2.9.6 ships it
// (data.VendorMatchers: regular expressions over a slash-separated path),
// less those that would take the project's own code (excluded, below, each
// with its reason), plus a few of hone's (honeRules). hone does not import
// go-enry at run time: its data package costs ~20 ms of CPU and 5 MB at
// every start, for language statistics hone does not use. The rules are
// copied into linguist.go by TestLinguistRules, which fails when go.mod's
// go-enry no longer has them (refresh with -update). Every rule is one of two
// kinds:
//
//   - A name rule has no "/" of its own, except a leading (^|/), and is not
//     anchored at the root: (^|/)jquery([^.]*)\.js$, (\.|-)min\.(js|css)$. It
//     is matched against one name: a file's, or a directory's with a "/"
//     appended. Linguist matches it against the whole path, where [^.]* and
//     .* also cross directories: (^|/)react(-[^.]*)?\.js$ takes
//     src/react-components/Button.js. hone does not.
//   - A path rule is every other: (^|/)node_modules/, (3rd|[Tt]hird)[-_]?[Pp]arty/,
//     (^|/)select2/.*\.(css|scss|js)$, ^deps/. It is matched against a
//     directory's path with a "/" appended, and a file's path.
//
// A directory that a rule matches is vendored whole, and so is every path
// below it: a match of its path with a "/" appended is a match of every
// longer path (the rules have no look-ahead, and those ending in $ are not
// tried on directories). Dir and File together (the walk's order: a
// directory once, then the files of directories that are not vendored)
// decide as Path does for the whole path.
//
// # Cost
//
// Go's regexp takes ~5 µs to run one of these unanchored rules over a
// 60-byte path, ~500 µs for all of them: more than the walk spends on a
// file. So each rule is keyed by a literal every match of it contains, and
// an expression runs only on a string holding its literal (see ruleSet):
// File costs a scan of the name and the path, ~0.2 µs; on django the walk
// spends ~8% more CPU than with hone's earlier lists of names.
//
// The rule sets are built on first use (no expression is compiled until a
// string holds its literal) and immutable after; everything here is safe for
// concurrent use.
package vendored

import (
	"strings"
	"sync"
)

// Origin says whose a rule is.
type Origin string

const (
	Linguist Origin = "Linguist" // vendor.yml, through go-enry
	Hone     Origin = "hone"     // honeRules
)

// Rule is one rule that marks a path as bundled third-party code.
type Rule struct {
	Origin  Origin
	Pattern string // the regular expression
	Why     string // for hone's rules: what the rule is for
}

// String names the rule for `hone index --explain`: "Linguist vendor rule
// (^|/)jquery([^.]*)\.js$".
func (r Rule) String() string {
	s := string(r.Origin) + " vendor rule " + r.Pattern
	if r.Why != "" {
		s += " (" + r.Why + ")"
	}
	return s
}

// excluded are Linguist's vendor rules hone does not apply, with the reason:
// they take the project's own code, tests, documentation or configuration,
// which Linguist leaves out of a repository's language statistics but which a
// task may well be about. The trees named are those it was measured on.
var excluded = map[string]string{
	`(^|/)cache/`:              "django/core/cache/ is Django's cache framework",
	`(^|/)dist/`:               "a committed dist/ is ranked below the code as build output (package pathclass), not dropped",
	`(^|/)configure$`:          "hand-written in many projects (FFmpeg, QEMU), not only autoconf's output",
	`(^|/)testdata/`:           "the project's test data",
	`(^|/)[Tt]ests?/fixtures/`: "the project's test data: django's tests/fixtures/ is the test of its fixtures feature",
	`(^|/)[Ss]pecs?/fixtures/`: "the project's test data",
	`(^|/)docs?/_?(build|themes?|templates?|static)/`: "the project's documentation theme, templates and images (django docs/_theme/, " +
		"matplotlib and sphinx doc/_static/); libraries bundled there are caught by the file rules (min.js, font-awesome)",
	`(^|/)[Ee]xtern(als?)?/`: "also takes external/, sympy's own package sympy/external/; hone's rule keeps extern/ and externals/",
	`(^|/)bootstrap([^/.]*)(\..*)?\.(js|css|less|scss|styl)$`: "bootstrap.js is also the name of many projects' own start-up script " +
		"(every Laravel application's resources/js/bootstrap.js); hone's two rules keep the rest",
	`([^\s]*)import\.(css|less|scss|styl)$`: "takes any stylesheet named *import.css, such as django's test file " +
		"tests/staticfiles_tests/project/documents/cached/import.css",
	`(.*?)\.d\.ts$`:           "TypeScript declarations are often the project's own (index.d.ts, types.d.ts)",
	`(^|/)env/`:               "often the project's configuration code; a virtual environment named env/ is caught by its pyvenv.cfg",
	`(^|/)fabfile\.py$`:       "a Fabric deployment script is the project's own Python",
	`(^|/)prototype(.*)\.js$`: "Prototype.js's name, too general: a project's prototype.js or prototypes.js",
	`(^|/)effects\.js$`:       "script.aculo.us's name, too general: a project's own effects.js",
	`(^|/)controls\.js$`:      "script.aculo.us's name, too general: a project's own controls.js",
	`(^|/)dragdrop\.js$`:      "script.aculo.us's name, too general: a project's own dragdrop.js",
	// The project's configuration, not third-party code.
	`(^|/)\.gitattributes$`:      "project configuration",
	`(^|/)\.gitignore$`:          "project configuration",
	`(^|/)\.gitmodules$`:         "project configuration",
	`(^|/)\.github/`:             "the project's CI workflows and templates",
	`(^|/)\.teamcity/`:           "the project's CI configuration",
	`(^|/)Jenkinsfile$`:          "the project's CI configuration",
	`(^|/)\.gitpod\.Dockerfile$`: "project configuration",
	`(^|/)Vagrantfile$`:          "project configuration",
	`(^|/)proguard\.pro$`:        "project configuration",
	`(^|/)proguard-rules\.pro$`:  "project configuration",
	`(^|/)\.vscode/`:             "project configuration",
	`(^|/)\.sublime-project`:     "project configuration",
	`(^|/)\.sublime-workspace`:   "project configuration",
	`(^|/)\.obsidian/`:           "project configuration",
	`(^|/)\.indent\.pro`:         "project configuration",
	`(^|/)\.osx$`:                "project configuration",
	`^debian/`:                   "the project's Debian packaging",
	`(^|/)\.[Dd][Ss]_[Ss]tore$`:  "Finder metadata, skipped as binary",
}

// honeRule is one of hone's own rules.
type honeRule struct {
	pattern string
	name    bool // a name rule (see the package comment); else a path rule
	why     string
}

// honeRules are what Linguist's rules miss or hone narrows.
var honeRules = []honeRule{
	// Tried on each file (the $), not on the directory, so that the
	// library's own rule (jquery.js, bootstrap.css) is the one named when
	// there is one; wwwroot/lib/ holds tens of files, not thousands.
	{`(^|/)wwwroot/lib/.*$`, false, "ASP.NET client libraries installed by LibMan or Bower"},
	{`(^|/)(site|dist)-packages/`, false, "installed Python packages"},
	{`(^|/)\.?venv/`, false, "Python virtual environment"},
	{`(^|/)jspm_packages/`, false, "installed jspm packages"},
	{`(^|/)Pods/`, false, "CocoaPods dependencies"},
	{`(^|/)\.yarn/`, false, "Yarn's cache and releases"},
	{`(^|/)[Ee]xtern(als)?/`, false, "bundled dependencies"},
	{`(^|/)bootstrap([^/.]*)(\..*)?\.(css|less|scss|styl)$`, true, "Linguist's bootstrap rule, for style sheets"},
	{`(^|/)bootstrap([^/.]+(\..*)?|\..+)\.js$`, true, "Linguist's bootstrap rule, for scripts but bootstrap.js"},
	// A project does not version its own files in their names; it does
	// vendor libraries so, as copied in from a download: jquery-3.5.1.js,
	// underscore-1.13.1.js, bootstrap-4.0.0.min.css, vue-2.6.14.esm.js.
	{versioned + `\.[mc]?js$`, true, "a library script named with its release"},
	{versioned + `\.css$`, true, "a library style sheet named with its release"},
}

// versioned is the start of a file name with a release number:
// name-<version>[.slim][.min], name-<version>.umd|.esm|.bundle[.min].
const versioned = `^[A-Za-z][A-Za-z0-9_.+-]*?[-.]v?[0-9]+\.[0-9]+(\.[0-9]+)?([-+][0-9A-Za-z.-]*[0-9A-Za-z])?((\.slim)?(\.min)?|(\.umd|\.esm|\.bundle)(\.min)?)`

// linguistRule is one of Linguist's vendor rules with what a ruleSet needs
// of it, worked out once by TestLinguistRules (see linguist.go).
type linguistRule struct {
	pattern string
	name    bool // a name rule; else a path rule
	guard   guard
}

// sets are the name rules and the path rules.
type sets struct{ names, paths *ruleSet }

// rules builds the sets on first use.
var rules = sync.OnceValue(func() sets {
	s := sets{&ruleSet{}, &ruleSet{}}
	for _, l := range linguistRules {
		if excluded[l.pattern] != "" {
			continue
		}
		set := s.paths
		if l.name {
			set = s.names
		}
		set.add(Rule{Origin: Linguist, Pattern: l.pattern}, l.guard)
	}
	for _, h := range honeRules {
		set := s.paths
		if h.name {
			set = s.names
		}
		set.add(Rule{Origin: Hone, Pattern: h.pattern, Why: h.why}, guardOf(h.pattern))
	}
	return s
})

// Dir reports whether the directory at rel (repository-relative,
// slash-separated, without a trailing "/") is bundled third-party code
// whole, and by which rule. It checks the directory itself: its parents
// are the caller's (the walk does not enter a vendored directory).
func Dir(rel string) (Rule, bool) {
	if rel == "" {
		return Rule{}, false
	}
	s, dir := rules(), rel+"/"
	if r, ok := s.names.match(dir[strings.LastIndexByte(rel, '/')+1:], true); ok {
		return r, true
	}
	return s.paths.match(dir, true)
}

// File reports whether the file at rel is bundled third-party code by its
// own name or path, and by which rule; the directories above it are the
// caller's to check with Dir.
func File(rel string) (Rule, bool) {
	s := rules()
	if r, ok := s.names.match(rel[strings.LastIndexByte(rel, '/')+1:], false); ok {
		return r, true
	}
	return s.paths.match(rel, false)
}

// Path reports whether the file at rel is bundled third-party code, by any
// directory above it or by itself.
func Path(rel string) (Rule, bool) {
	for rest := rel; ; {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			break
		}
		if r, ok := rules().names.match(rest[:i+1], true); ok {
			return r, true
		}
		rest = rest[i+1:]
	}
	// A path rule matching a directory's path matches the file's too.
	return File(rel)
}
