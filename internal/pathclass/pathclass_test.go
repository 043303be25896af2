package pathclass

import "testing"

func TestOf(t *testing.T) {
	tests := []struct {
		path string
		want Kind
	}{
		// Examples beside the code.
		{"packages/core/useDraggable/demo.vue", Example},
		{"src/widgets/example.tsx", Example},
		{"src/demos.ts", Code},
		// Settings, manifests and CI.
		{".github/workflows/ci.yml", Config},
		{".github/actions/setup/action.yaml", Config},
		{".github/scripts/release.py", Config},
		{"pyproject.toml", Config},
		{"packages/core/package.json", Config},
		{"Npgsql.sln.DotSettings", Config},
		{"core/pom.xml", Config},
		{"src/config.ts", Code},
		{"src/settings.py", Code},
		{"app/.github/notes.py", Code},
		{"tests/fixtures/user.json", Test},
		{"docs/_config.yml", Doc},
		// Python.
		{"tests/test_views.py", Test},
		{"app/test_models.py", Test},
		{"app/models_test.py", Test},
		{"conftest.py", Test},
		{"src/pkg/conftest.py", Test},
		{"app/tests.py", Test},
		{"tests/helpers.py", Test},
		{"tests/__init__.py", Test},
		{"django/test/client.py", Test},
		{"sklearn/utils/testing/fixtures.py", Test},
		{"pkg/testdata/sample.py", Test},
		{"pkg/testcases/base.py", Test},
		{"app/models.py", Code},
		{"app/latest.py", Code},
		{"app/contest.py", Code},
		{"app/testing_utils.py", Code},
		{"app/attestation.py", Code},
		{"app/unittest_compat.py", Code},
		{"app/pytest_plugin.py", Code},
		{"app/testsuite.py", Code},
		{"app/Tests.py", Test}, // the stem "tests" names a test module whatever its case
		// Go.
		{"internal/auth/token_test.go", Test},
		{"internal/auth/token.go", Code},
		{"internal/attestation.go", Code},
		{"internal/latest.go", Code},
		{"internal/auth/testdata/golden.json", Test},
		{"internal/store/mock_store.go", Test},
		{"internal/store/store_mock.go", Test},
		{"internal/store/mockery.go", Code},
		// Bundled third-party code, wherever it lies.
		{"wwwroot/lib/jquery/dist/jquery.js", Vendored},
		{"vendor/github.com/pkg/errors/errors.go", Vendored},
		{"tests/vendor/jquery.js", Vendored},
		{"docs/_static/jquery.js", Vendored},
		{"static/js/app.min.js", Vendored},
		{"wwwroot/js/site.js", Code},
		{"django/core/cache/backends/base.py", Code},
		// Build output.
		{"dist/axios.js", Build},
		{"packages/core/dist/index.mjs", Build},
		{"build/tasks/release.js", Code},
		{"src/dist.js", Code},
		{"lib/distutils/core.py", Code},
		{"tests/dist/fixture.js", Test}, // a test directory wins
		// Java, Kotlin, C#, Scala.
		{"src/main/java/com/foo/Foo.java", Code},
		{"src/test/java/com/foo/FooTest.java", Test},
		{"core/src/com/foo/FooTest.java", Test},
		{"core/src/com/foo/FooTests.java", Test},
		{"core/src/com/foo/Latest.java", Code},
		{"core/src/com/foo/Contest.java", Code},
		{"core/src/com/foo/Attest.java", Code},
		{"app/src/FooTest.kt", Test},
		{"lib/FooTests.cs", Test},
		{"lib/FooTest.cs", Test},
		{"lib/Foo.cs", Code},
		{"src/Shop.Tests/Helpers/Builder.cs", Test},
		{"src/Shop.UnitTests/OrderBuilder.cs", Test},
		{"src/Shop.Specs/Steps.cs", Test},
		{"src/Shop.Testing.Abstractions/Clock.cs", Code},
		{"src/Shop.Contest/Entry.cs", Code},
		// PHP (PHPUnit).
		{"src/FooTest.php", Test},
		{"src/FooTests.php", Test},
		{"src/Latest.php", Code},
		{"src/Foo.php", Code},
		// JavaScript and TypeScript.
		{"web/src/auth/session.test.ts", Test},
		{"web/src/auth/session.spec.js", Test},
		{"web/src/auth/session.test.tsx", Test},
		{"web/src/auth/__tests__/session.ts", Test},
		{"web/src/auth/session.ts", Code},
		{"web/src/protest.js", Code},
		{"web/src/contest.ts", Code},
		{"web/src/latest.js", Code},
		{"web/src/spectrum.js", Code},
		{"src/components/Button.stories.tsx", Example},
		{"src/components/Button.story.ts", Example},
		{"src/stories/Introduction.mdx", Example},
		{".storybook/preview.ts", Example},
		{"src/components/Button.tsx", Code},
		{"src/components/histories.ts", Code},
		{"src/types.test-d.ts", Test},
		{"src/components/Button.cy.tsx", Test},
		{"cypress/support/commands.ts", Test},
		{"playwright/auth.setup.ts", Test},
		{"src/mocks/handlers.ts", Test},
		{"src/encode.bench.ts", Example},
		{"src/bench.ts", Code},
		{"src/fancy.ts", Code},
		{"packages/.test/mount.ts", Test}, // a hidden test-helper directory
		// Ruby.
		{"spec/models/user_spec.rb", Test},
		{"lib/models/user_spec.rb", Test},
		{"lib/models/user.rb", Code},
		{"lib/models/inspect.rb", Code},
		// Rust.
		{"tests/integration.rs", Test},
		{"src/lib.rs", Code},
		// Documentation.
		{"docs/index.rst", Doc},
		{"docs/conf.py", Doc},
		{"doc/source/api.rst", Doc},
		{"documentation/guide.html", Doc},
		{"README.md", Doc},
		{"readme.markdown", Doc},
		{"pkg/NOTES.txt", Doc},
		{"manual.adoc", Doc},
		{"CHANGELOG", Doc},
		{"CHANGELOG.md", Doc},
		{"CHANGES.rst", Doc},
		{"HISTORY", Doc},
		{"HISTORY.rst", Doc},
		{"CHANGES.old", Doc},
		// Code files whose names start like a changelog's are code.
		{"IPython/core/history.py", Code},
		{"app/changes.py", Code},
		{"vcs/changeset.py", Code},
		{"web/src/historyManager.js", Code},
		{"src/Changes.java", Code},
		// Examples.
		{"examples/basic/main.py", Example},
		{"example/app.js", Example},
		{"samples/Demo.java", Example},
		{"demo/app.ts", Example},
		{"playground/css/vite.config.js", Example},
		{"packages/react-query/codemods/__testfixtures__/a.input.tsx", Test},
		{"src/__mocks__/fs.ts", Test},
		{"tests/fixtures/app.py", Test},
		{"packages/app/e2e/login.ts", Test},
		{"src/fixture.ts", Code},
		{"benchmarks/bench_query.py", Example},
		{"benches/parse.rs", Example},
		{"asv_bench/benchmarks/frame.py", Example},
		{"gallery/plot.py", Example},
		// A test directory wins over the doc and example rules.
		{"tests/README.md", Test},
		{"examples/tests/x.py", Test},
		// Plain code with words that merely contain the conventions.
		{"src/testimonials.py", Code},
		{"src/specs_parser.go", Code},
		{"src/docstring.py", Code},
		{"src/examples_loader.py", Code},
		{"Makefile", Code},
		{"main.go", Code},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := Of(tt.path); got != tt.want {
				t.Errorf("Of(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

func TestKindString(t *testing.T) {
	tests := []struct {
		k    Kind
		want string
	}{
		{Code, "code"},
		{Test, "test"},
		{Doc, "doc"},
		{Example, "example"},
		{Build, "build output"},
		{Kind(99), "code"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(tt.k), got, tt.want)
		}
	}
}
