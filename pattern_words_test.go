package hone_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/hone-dev/hone"
)

// The pattern's examples again, on fixtures written apart from the first
// ones (other names, comments, layouts and languages) and such that the file
// to change never says the task's words: the code's vocabulary is not the
// task's ("throttle" for "rate limiting", "bearer" and "stale" for "token
// expiry", "not after today" for "date validation"). A fixture that happens to
// hold the task's words passes on lexical overlap; these pass only if hone
// bridges the words (synonyms, names, links).
func TestPatternExamplesInOtherWords(t *testing.T) {
	// target: the file to change, ranked within the first within files and
	// selected; want: also selected; not: outside Files.
	cases := []struct {
		name, repo, task, target string
		within                   int
		want, not                []string
	}{
		{
			name: "rate limiting, Express", repo: "testdata/storefront",
			task:   "Add rate limiting to API endpoints",
			target: "src/middleware/throttle.ts", within: 1,
			// The middleware, the list that installs the shared middleware
			// and the router that mounts /api.
			want: []string{"src/middleware/index.ts", "src/router-setup.ts"},
			not:  []string{"src/routes/cart.ts", "src/services/pricing.ts"},
		},
		{
			name: "rate limiting, net/http", repo: "testdata/parcel-api",
			task:   "Add rate limiting to API endpoints",
			target: "internal/httpmw/throttle.go", within: 1,
			// Routes builds the wrapper chain the throttle joins.
			want: []string{"internal/server/routes.go"},
			not:  []string{"internal/parcels/store.go"},
		},
		{
			name: "token expiry, Flask", repo: "testdata/notes-app",
			task:   "Fix the authentication token expiry bug",
			target: "notes/auth/jwt_helpers.py", within: 1,
			not: []string{"notes/store.py", "notes/views/notes.py"},
		},
		{
			name: "token expiry, Go", repo: "testdata/ledger-svc",
			task:   "Fix the authentication token expiry bug",
			target: "internal/credentials/bearer.go", within: 1,
			// The middleware that checks the credential on every call.
			want: []string{"internal/web/mux.go"},
			not:  []string{"internal/ledger/books.go"},
		},
		{
			name: "enrollment date validation, ASP.NET", repo: "testdata/campus-portal",
			task:   "Fix the enrollment date validation bug",
			target: "Rules/NotInFutureAttribute.cs", within: 1,
			// The model whose EnrollmentDate carries [NotInFuture].
			want: []string{"Models/Learner.cs"},
			not:  []string{"Controllers/CoursesController.cs", "Models/Course.cs"},
		},
		{
			name: "enrollment date validation, Django", repo: "testdata/academy",
			task: "Fix the enrollment date validation bug",
			// The model that names the field comes first, and today the
			// form that lists it too: the check is one hop away (the field's
			// validators), which hone reads as support, not as the focus of
			// the task. Selected, third.
			target: "academy/registrar/checks.py", within: 3,
			want: []string{"academy/registrar/models.py"},
			not:  []string{"academy/catalog/models.py", "academy/catalog/views.py"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The fixture's own property first: the target does not say
			// the task's words.
			src, err := os.ReadFile(filepath.Join(tc.repo, tc.target))
			if err != nil {
				t.Fatal(err)
			}
			if w := sharedWord(tc.task, string(src)); w != "" {
				t.Fatalf("fixture %s says the task's word %q: it tests nothing", tc.target, w)
			}
			res, err := open(t, tc.repo).Retrieve(context.Background(), tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatalf("Retrieve(%q): %v", tc.task, err)
			}
			rank := -1
			for i, e := range res.Ranked {
				if e.Path == tc.target {
					rank = i
					break
				}
			}
			if rank < 0 || rank >= tc.within {
				t.Errorf("Retrieve(%q): %s ranked %d, want within the first %d:%s", tc.task, tc.target, rank+1, tc.within, dump(res.Ranked))
			}
			got := map[string]bool{}
			for _, f := range res.Files {
				got[f.Path] = true
			}
			for _, w := range append([]string{tc.target}, tc.want...) {
				if !got[w] {
					t.Errorf("Retrieve(%q).Files lacks %s; got %v\nranked: %s", tc.task, w, paths(res.Files), dump(res.Ranked))
				}
			}
			for _, n := range tc.not {
				if got[n] {
					t.Errorf("Retrieve(%q).Files has %s, which is not relevant", tc.task, n)
				}
			}
		})
	}
}

// sharedWord returns a word of the task (four letters or more) that text
// holds as a whole word, in any case, or "". Identifiers are whole words
// (ValidationError does not say "validation"; a comment's "validation"
// does): the test is of the words a reader would search for.
func sharedWord(task, text string) string {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		words[w] = true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(task), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 4 && words[w] {
			return w
		}
	}
	return ""
}
