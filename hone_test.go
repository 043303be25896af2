package hone_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/refine"
	"github.com/hone-dev/hone/internal/report"
	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func open(t *testing.T, dir string) *hone.Repo {
	t.Helper()
	// The fixtures live inside hone's own repository: its history is
	// hone's, not theirs, and would make the goldens move with it.
	repo, err := hone.Open(context.Background(), dir, hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}})
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	return repo
}

func paths(es []hone.Evaluation) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Path
	}
	return out
}

// The pattern's own examples: the files a subagent needs, and not the others.
func TestPatternExamples(t *testing.T) {
	// want: in Files (at or above the threshold); top: the first len(top)
	// of Ranked, in any order; not: outside Files.
	cases := []struct {
		name, repo, task string
		want, top, not   []string
	}{
		{
			name: "token expiry",
			repo: "testdata/auth-service",
			task: "Fix the authentication token expiry bug",
			// The two files that handle tokens are selected, and with them
			// the context the change reads: the session manager that uses
			// tokens.ts's AccessToken and the JWT helpers tokens.ts calls
			// (support, see internal/local); the user model is not.
			want: []string{"src/auth/auth.ts", "src/auth/tokens.ts", "src/auth/session-manager.ts", "src/auth/jwt-utils.ts"},
			top:  []string{"src/auth/auth.ts", "src/auth/tokens.ts", "src/auth/session-manager.ts", "src/auth/jwt-utils.ts"},
			not:  []string{"src/users/user.ts", "src/users/user-repository.ts"},
		},
		{
			name: "pagination (ASP.NET MVC)",
			repo: "testdata/contoso-university",
			task: "Add pagination to the Students index page",
			// The helper the task names, and the students index it names
			// too: its controller and its view (support: they name what
			// PaginatedList.cs does not); not the other index pages, nor
			// the bundled Bootstrap that says "pagination" most.
			want: []string{"PaginatedList.cs", "Controllers/StudentsController.cs", "Views/Students/Index.cshtml"},
			not:  []string{"Views/Home/Index.cshtml", "wwwroot/lib/bootstrap/dist/css/bootstrap.css", "Views/Instructors/Index.cshtml"},
		},
		{
			name: "enrollment date validation (DataAnnotations)",
			repo: "testdata/contoso-university",
			task: "Fix the enrollment date validation bug",
			// The validation attribute, and the model and DTO it
			// validates ([EnrollmentDate] uses EnrollmentDateAttribute);
			// not the bundled jQuery validation plugin.
			want: []string{"Validation/EnrollmentDateAttribute.cs", "Models/Student.cs", "Models/CreateStudentRequest.cs"},
			not: []string{"wwwroot/lib/jquery-validation-unobtrusive/jquery.validate.unobtrusive.js",
				"wwwroot/lib/jquery-validation/dist/jquery.validate.js"},
		},
		{
			name: "enrollment date validation (FluentValidation)",
			repo: "testdata/contoso-api",
			task: "Fix the enrollment date validation bug",
			// The shared date rule and the validators that use it.
			want: []string{"Validators/DateRules.cs", "Validators/CreateStudentRequestValidator.cs", "Validators/UpdateStudentRequestValidator.cs"},
			not:  []string{"Validators/CourseValidator.cs"},
		},
		{
			name: "rate limiting",
			repo: "testdata/api-gateway",
			task: "Add rate limiting to API endpoints",
			// The code says "throttle", never "rate limit": router-setup.ts
			// is the target, and with it the middleware it wires
			// (applyMiddleware) and the throttle, which names the task's
			// "rate limiting" through a synonym that router-setup.ts does not
			// (support, see internal/local).
			want: []string{"src/router-setup.ts", "src/middleware/index.ts", "src/middleware/throttle.ts"},
			top:  []string{"src/middleware/throttle.ts", "src/middleware/index.ts", "src/router-setup.ts"},
			not:  []string{"src/handlers/users.ts", "src/handlers/orders.ts"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := open(t, tc.repo).Retrieve(context.Background(), tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatalf("Retrieve(%q): %v", tc.task, err)
			}
			got := map[string]bool{}
			for _, f := range res.Files {
				got[f.Path] = true
			}
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("Retrieve(%q).Files lacks %s; got %v\nranked: %s", tc.task, w, paths(res.Files), dump(res.Ranked))
				}
			}
			if len(res.Ranked) < len(tc.top) {
				t.Fatalf("Retrieve(%q) ranked %d files, want at least %d", tc.task, len(res.Ranked), len(tc.top))
			}
			top := map[string]bool{}
			for _, e := range res.Ranked[:len(tc.top)] {
				top[e.Path] = true
			}
			for _, w := range tc.top {
				if !top[w] {
					t.Errorf("Retrieve(%q): %s not in the top %d of Ranked:%s", tc.task, w, len(tc.top), dump(res.Ranked))
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

func dump(es []hone.Evaluation) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString("\n  ")
		b.WriteString(e.Path)
		b.WriteString(" ")
		b.WriteString(strings.TrimSpace(strings.Split(e.Reason, "\n")[0]))
		b.WriteString(" = ")
		b.WriteString(strconv.FormatFloat(e.Relevance, 'f', -1, 64))
	}
	return b.String()
}

// The human and JSON traces are golden files: a change to ranking or to the
// report shows up as a diff (refresh with go test -run Golden -update).
func TestGoldenTraces(t *testing.T) {
	cases := []struct{ name, repo, task string }{
		{"auth", "testdata/auth-service", "Fix the authentication token expiry bug"},
		{"ratelimit", "testdata/api-gateway", "Add rate limiting to API endpoints"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := open(t, tc.repo).Retrieve(context.Background(), tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res.Stats.IndexMs, res.Stats.RetrieveMs = 0, 0 // timings vary
			var text, js bytes.Buffer
			if err := report.Text(&text, res, report.TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := report.JSON(&js, res); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "golden", tc.name+".txt"), text.Bytes())
			golden(t, filepath.Join("testdata", "golden", tc.name+".json"), js.Bytes())
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output; rerun with -update and review the diff\ngot:\n%s", path, got)
	}
}

func TestJSONKeys(t *testing.T) {
	res, err := open(t, "testdata/auth-service").Retrieve(context.Background(), "Fix the authentication token expiry bug", hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want := []string{"cycles", "files", "ranked", "stats", "stopped", "task"}
	var got []string
	for k := range m {
		got = append(got, k)
	}
	if len(got) != len(want) {
		t.Fatalf("JSON keys = %v, want %v", got, want)
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks key %q", k)
		}
	}
}

// TestEmptyRepoSaysWhy: Open of a repository with no indexable file says
// why each file was left out.
func TestEmptyRepoSaysWhy(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "logo.png"), []byte{0x89, 'P', 'N', 'G', 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := hone.Open(context.Background(), dir, hone.Options{CacheDir: t.TempDir()})
	var empty *hone.EmptyRepoError
	if !errors.As(err, &empty) || !errors.Is(err, hone.ErrEmptyRepo) {
		t.Fatalf("Open(%s) = %v, want an *EmptyRepoError wrapping ErrEmptyRepo", dir, err)
	}
	if len(empty.Stats.Skipped) != 1 || empty.Stats.Skipped[0].Path != "logo.png" || empty.Stats.Skipped[0].Reason.String() != "binary" {
		t.Errorf("Skipped = %v, want logo.png as binary", empty.Stats.Skipped)
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	cases := []struct {
		name string
		dir  string
		want error
	}{
		{"missing", filepath.Join(t.TempDir(), "nope"), hone.ErrNoRepo},
		{"file", file, hone.ErrNotDir},
		{"empty repo", empty, hone.ErrEmptyRepo},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := hone.Open(ctx, tc.dir, hone.Options{CacheDir: t.TempDir()})
			if !errors.Is(err, tc.want) {
				t.Errorf("Open(%s) = %v, want %v", tc.dir, err, tc.want)
			}
		})
	}
	repo := open(t, "testdata/auth-service")
	for _, tc := range []struct {
		name, task string
		want       error
	}{
		{"empty task", "  \n\t", hone.ErrEmptyTask},
		{"huge task", strings.Repeat("token ", hone.MaxTaskBytes/6+1), hone.ErrTaskTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := repo.Retrieve(ctx, tc.task, hone.RetrieveOptions{})
			if !errors.Is(err, tc.want) {
				t.Errorf("Retrieve(%.20q) = %v, want %v", tc.task, err, tc.want)
			}
		})
	}
}

// TestRefineLearnsTheCodebasesVocabulary: when the loop refines, it learns
// the words of the target area's code, the framework it is written against
// among them (FluentValidation, DataAnnotations), and never a colour, a
// number, markup or a language keyword, nor anything from bundled code.
func TestRefineLearnsTheCodebasesVocabulary(t *testing.T) {
	for _, tc := range []struct {
		repo string
		want []string
	}{
		{"testdata/contoso-api", []string{"fluentvalidation"}},
		{"testdata/contoso-university", []string{"dataannotations", "validationcontext"}},
	} {
		t.Run(tc.repo, func(t *testing.T) {
			// MinFiles above what the fixture holds: the loop runs every cycle.
			res, err := open(t, tc.repo).Retrieve(context.Background(), "Fix the enrollment date validation bug",
				hone.RetrieveOptions{Loop: loop.Options{MinFiles: 8}})
			if err != nil {
				t.Fatal(err)
			}
			learned := map[string]bool{}
			for _, c := range res.Cycles {
				if c.Refinement != nil {
					for _, k := range c.Refinement.AddedKeywords {
						learned[k] = true
					}
				}
			}
			for _, w := range tc.want {
				if !learned[w] {
					t.Errorf("REFINE did not learn %q; it learned %v", w, learned)
				}
			}
			for k := range learned {
				if !refine.IsVocabulary(k) {
					t.Errorf("REFINE learned %q, which is not vocabulary", k)
				}
			}
		})
	}
}

// Uses says what the code at some lines reads: isTokenExpired (tokens.ts
// line 25) calls expiryOf, which jwt-utils.ts defines.
func TestUses(t *testing.T) {
	repo := open(t, "testdata/auth-service")
	got := repo.Uses("src/auth/tokens.ts", []int{25})
	if !slices.Contains(got, "src/auth/jwt-utils.ts") || slices.Contains(got, "src/auth/tokens.ts") {
		t.Errorf("Uses(tokens.ts, 25) = %v, want jwt-utils.ts and not tokens.ts itself", got)
	}
	if got := repo.Uses("no/such.ts", []int{1}); got != nil {
		t.Errorf("Uses(no/such.ts) = %v, want nil", got)
	}
}

// TestStartPagesByEvidence: a stepwise session offers hone's own ranking,
// best first by its evidence, whatever the page size (40 is the largest the
// MCP server allows).
func TestStartPagesByEvidence(t *testing.T) {
	ctx := context.Background()
	repo, err := hone.Open(ctx, "testdata/campus-portal", hone.Options{CacheDir: t.TempDir(), History: hone.History{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	for _, n := range []int{3, 40} {
		sess, err := repo.Start(ctx, "Fix the enrollment date validation bug", hone.RetrieveOptions{Loop: loop.Options{Candidates: n}})
		if err != nil {
			t.Fatal(err)
		}
		cands, err := sess.Dispatch(ctx)
		if err != nil || len(cands) < 3 {
			t.Fatalf("candidates %d: %d offered, %v", n, len(cands), err)
		}
		for i := 1; i < len(cands); i++ {
			if cands[i].Evidence > cands[i-1].Evidence {
				t.Errorf("candidates %d: %s (evidence %.2f) offered after %s (%.2f)", n, cands[i].Path, cands[i].Evidence, cands[i-1].Path, cands[i-1].Evidence)
			}
		}
	}
}

// After a judged session, the pack holds the judge's files and, with what
// the budget leaves, hone's own ranking: a file a judge wrongly rated low
// still reaches the subagent, marked as such, after the judge's files.
func TestPackAfterSessionFallsBackOnHonesRanking(t *testing.T) {
	ctx := context.Background()
	repo := open(t, "testdata/auth-service")
	task := "Fix the authentication token expiry bug"
	sess, err := repo.Start(ctx, task, hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A judge that keeps one minor file and rates every other file 0.1.
	kept := ""
	for {
		if done, _ := sess.Done(); done {
			break
		}
		cands, err := sess.Dispatch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) == 0 {
			break
		}
		evals := make([]loop.Evaluation, 0, len(cands))
		for _, c := range cands {
			rel := 0.1
			if kept == "" && c.Path == "src/config.ts" || c.Path == kept {
				kept, rel = c.Path, 0.9
			}
			evals = append(evals, loop.Evaluation{Path: c.Path, Relevance: rel, Reason: "scripted"})
		}
		if _, err := sess.Judge(ctx, evals); err != nil {
			t.Fatal(err)
		}
	}
	res := sess.Result()
	if len(res.Evidence) == 0 || kept == "" {
		t.Fatalf("session: evidence %d files, kept %q", len(res.Evidence), kept)
	}
	pack, err := repo.Pack(&hone.Result{Result: *res}, hone.PackOptions{Budget: 8000})
	if err != nil {
		t.Fatal(err)
	}
	judged := strings.Index(pack, "## "+kept+" ")
	fallback := strings.Index(pack, "## src/auth/tokens.ts ")
	if judged < 0 || fallback < 0 || fallback < judged {
		t.Fatalf("pack: the judge's %s at %d, hone's tokens.ts at %d; want both, the judge's first:\n%s", kept, judged, fallback, pack)
	}
	if !strings.Contains(pack[fallback:], "the judge rated it 0.10") {
		t.Errorf("tokens.ts in the pack does not say the judge rated it low:\n%s", pack[fallback:min(len(pack), fallback+400)])
	}
}

// wantFirst writes files into a new tree and checks that task ranks target
// first there.
func wantFirst(t *testing.T, files map[string]string, task, target string) {
	t.Helper()
	res, err := open(t, testrepo.Write(t, files)).Retrieve(context.Background(), task, hone.RetrieveOptions{})
	if err != nil {
		t.Fatalf("Retrieve(%q): %v", task, err)
	}
	if len(res.Ranked) == 0 || res.Ranked[0].Path != target {
		t.Errorf("Retrieve(%q): want %s first:%s", task, target, dump(res.Ranked))
	}
}
