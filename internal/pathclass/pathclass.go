// Package pathclass tells test, documentation and example files from the code
// they describe, by path alone.
//
// Tasks are usually about code, and test files repeat the code's vocabulary
// (they call what they test), so hone ranks them below the code unless the task
// is about tests. The rules are conventions shared across ecosystems:
//
//	tests: a directory named test, tests, testing, __tests__, spec, specs,
//	       fixtures, __fixtures__, __testfixtures__, __mocks__, mocks, e2e,
//	       cypress or playwright, or a .NET test project (Foo.Tests,
//	       Foo.UnitTests, Foo.Specs); test_*.py, *_test.py, *_test.go,
//	       *Test.java, *Test.php, *Tests.cs, *.test.ts, *.spec.js,
//	       *_spec.rb, conftest.py, type tests (*.test-d.ts), Cypress tests
//	       (*.cy.ts), generated Go mocks (mock_*.go, *_mock.go)
//	docs:  a directory named doc, docs or documentation; *.md, *.rst, *.txt,
//	       *.adoc; changelogs and release notes without a source extension
//	       (CHANGELOG, HISTORY, an archived CHANGES.old; history.py is code)
//	examples: a directory named example(s), sample(s), demo(s), benchmarks,
//	       benches (Cargo's), playground(s) (the sample projects a JavaScript
//	       tool tests against), stories or .storybook; a file named demo or
//	       example (demo.vue beside a composable), a Storybook story
//	       (Button.stories.tsx beside the Button it shows) or a benchmark
//	       (*.bench.ts)
//	build output: a directory named dist (the bundles a JavaScript package
//	       commits for release repeat the sources they are built from; build/
//	       is left alone: it usually holds build scripts, which are code)
//	config: settings, manifests and CI, not code: a file under .github,
//	       .gitlab, .circleci, .vscode, .idea or .devcontainer, or with a
//	       data or settings extension (.yml, .yaml, .toml, .json, .xml,
//	       .ini, .cfg, .conf, .properties, .lock, .DotSettings)
//	vendored: bundled third-party code, by package vendored's rules
//	       (Linguist's): indexed only with --include-vendored, and then
//	       neither the project's code nor its vocabulary, whatever its
//	       directory (a vendored file under tests/ is vendored)
package pathclass

import (
	"path"
	"strings"

	"github.com/hone-dev/hone/internal/vendored"
)

// Kind classifies a path.
type Kind int

const (
	Code Kind = iota
	Test
	Doc
	Example
	Build
	Vendored
	Config
)

func (k Kind) String() string {
	switch k {
	case Test:
		return "test"
	case Doc:
		return "doc"
	case Example:
		return "example"
	case Build:
		return "build output"
	case Vendored:
		return "vendored"
	case Config:
		return "config"
	}
	return "code"
}

var (
	testDirs = set("test", "tests", "testing", "__tests__", "spec", "specs", "testdata", "test_utils", "testcases",
		"fixtures", "__fixtures__", "__testfixtures__", "__mocks__", "mocks", "e2e", "cypress", "playwright")
	// testProjects end the name of a .NET test project's directory.
	testProjects = []string{".tests", ".test", ".unittests", ".integrationtests", ".specs"}
	docDirs      = set("doc", "docs", "documentation", "_docs")
	exampleDirs  = set("example", "examples", "sample", "samples", "demo", "demos", "benchmarks", "benches", "asv_bench", "gallery", "tutorials",
		"playground", "playgrounds", "stories", ".storybook")
	// exampleSuffixes end the stem of a file that shows or measures code:
	// a Storybook story, a benchmark.
	exampleSuffixes = []string{".stories", ".story", ".bench"}
	// exampleStems: a file named demo or example beside the code it shows
	// (vueuse's useDraggable/demo.vue).
	exampleStems = set("demo", "example")
	buildDirs    = set("dist")
	// configDirs are read at the top of the tree only.
	configDirs = set(".github", ".gitlab", ".circleci", ".vscode", ".idea", ".devcontainer")
	configExts = set(".yml", ".yaml", ".toml", ".json", ".jsonc", ".json5", ".xml", ".ini", ".cfg", ".conf",
		".properties", ".lock", ".dotsettings")
	docExts = set(".md", ".rst", ".txt", ".adoc", ".markdown", ".rdoc")
)

func hasAnySuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// Of classifies a repository-relative, slash-separated path.
func Of(p string) Kind {
	if _, ok := vendored.Path(p); ok {
		return Vendored
	}
	lower := strings.ToLower(p)
	base := path.Base(lower)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	dirs := strings.Split(path.Dir(lower), "/")
	switch {
	case strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || stem == "conftest" ||
		strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, "_spec") ||
		stem == "tests" || stem == "test" || strings.HasSuffix(stem, ".test-d") || strings.HasSuffix(stem, ".cy"):
		return Test
	case ext == ".go" && (strings.HasPrefix(stem, "mock_") || strings.HasSuffix(stem, "_mock")):
		return Test
	case (ext == ".java" || ext == ".cs" || ext == ".kt" || ext == ".scala" || ext == ".php") &&
		(strings.HasSuffix(stem, "test") || strings.HasSuffix(stem, "tests")) && strings.HasSuffix(path.Base(p), "Test"+path.Ext(p)) ||
		strings.HasSuffix(path.Base(p), "Tests"+path.Ext(p)) && ext != ".py":
		return Test
	}
	for _, d := range dirs {
		if testDirs[d] || hasAnySuffix(d, testProjects) {
			return Test
		}
		if buildDirs[d] {
			return Build
		}
	}
	if docExts[ext] || (ext == "" || ext == ".old") && (strings.HasPrefix(stem, "changelog") || strings.HasPrefix(stem, "changes") || strings.HasPrefix(stem, "history")) {
		return Doc
	}
	for _, d := range dirs {
		if docDirs[d] {
			return Doc
		}
		if exampleDirs[d] {
			return Example
		}
	}
	if exampleStems[stem] || hasAnySuffix(stem, exampleSuffixes) {
		return Example
	}
	if configExts[ext] || configDirs[dirs[0]] {
		return Config
	}
	return Code
}
