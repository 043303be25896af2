package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/syntax"
)

// TestViewLeadsWithTheAim: a judge's view of a file too large for its
// budget shows first the part its terms point at (the definition they
// name), even when other parts match more lines before it. Two layouts
// written apart: a Go file whose named function is its last, after
// helpers full of the other words, and a Python module whose named method
// sits in the middle of a class whose other methods say the words too.
func TestViewLeadsWithTheAim(t *testing.T) {
	type fixture struct {
		path  string
		src   string
		defs  []syntax.Tag
		terms []string
		want  string // a line of the named definition's body
	}
	var goSrc strings.Builder
	goSrc.WriteString("package limits\n\n")
	var goDefs []syntax.Tag
	line := 3
	for _, name := range []string{"windowStart", "windowEnd", "windowReset", "windowCount"} {
		goDefs = append(goDefs, syntax.Tag{Name: name, Kind: "function", Line: line, End: line + 4})
		goSrc.WriteString("func " + name + "(w *window) int {\n\t// the window of requests\n\tw.requests++\n\treturn w.requests\n}\n\n")
		line += 6
	}
	goDefs = append(goDefs, syntax.Tag{Name: "allowBurst", Kind: "function", Line: line, End: line + 6})
	goSrc.WriteString("func allowBurst(w *window, n int) bool {\n\tif n > w.burst {\n\t\treturn false // over the burst cap\n\t}\n\tw.requests += n\n\treturn true\n}\n")

	pySrc := `class Scheduler:
    """Runs jobs on a schedule."""

    def add_job(self, job):
        # a job joins the schedule
        self.jobs.append(job)

    def remove_job(self, job):
        # a job leaves the schedule
        self.jobs.remove(job)

    def next_run_time(self, job):
        delay = job.interval * self.factor
        return self.clock() + delay

    def pause_job(self, job):
        # the job stays on the schedule, paused
        job.paused = True

    def resume_job(self, job):
        # the job runs on the schedule again
        job.paused = False
`
	pyDefs := []syntax.Tag{
		{Name: "Scheduler", Kind: "class", Line: 1, End: 22},
		{Name: "add_job", Parent: "Scheduler", Kind: "method", Line: 4, End: 6},
		{Name: "remove_job", Parent: "Scheduler", Kind: "method", Line: 8, End: 10},
		{Name: "next_run_time", Parent: "Scheduler", Kind: "method", Line: 12, End: 14},
		{Name: "pause_job", Parent: "Scheduler", Kind: "method", Line: 16, End: 18},
		{Name: "resume_job", Parent: "Scheduler", Kind: "method", Line: 20, End: 22},
	}
	for _, fx := range []fixture{
		{"limits/window.go", goSrc.String(), goDefs, []string{"allowburst", "window", "requests"}, "over the burst cap"},
		{"jobs/scheduler.py", pySrc, pyDefs, []string{"next_run_time", "job", "schedule"}, "job.interval * self.factor"},
	} {
		t.Run(fx.path, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, filepath.FromSlash(fx.path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(fx.src), 0o644); err != nil {
				t.Fatal(err)
			}
			// The whole file does not fit: the view must choose.
			whole, err := View(root, fx.path, fx.terms, fx.defs, Options{})
			if err != nil {
				t.Fatal(err)
			}
			budget := Tokens(whole) * 2 / 3
			got, err := View(root, fx.path, fx.terms, fx.defs, Options{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, fx.want) {
				t.Errorf("the view at %d tokens does not show the named definition (%q):\n%s", budget, fx.want, got)
			}
		})
	}
}

// TestViewMatchesLineShowsTheQueryWords: the matches line names the query's
// words as given, not the folded forms they are matched by ("crashes", not
// "crashe"), each once.
func TestViewMatchesLineShowsTheQueryWords(t *testing.T) {
	root := t.TempDir()
	src := "def handle(proxy):\n    # crashes when the proxy has no model\n    return proxy.model\n"
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := View(root, "a.py", []string{"crashes", "proxies", "proxy", "models", "queryset"}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "matches: crashes 1, proxy 3, models 2; absent: proxies, queryset\n"
	if !strings.Contains(got, want) {
		t.Errorf("view:\n%s\nwant the line %q", got, want)
	}
}

// TestViewMatchesLineWithinBudget: a long query's matches line takes at most
// a quarter of a view's budget, the words the file holds first, the rest
// counted ("+12 more"), and what the file lacks only in what they leave; so
// that the file's own lines still fill most of the view. Unbounded, it lists
// every word.
func TestViewMatchesLineWithinBudget(t *testing.T) {
	root := t.TempDir()
	var src strings.Builder
	var terms []string
	for i := range 40 {
		w := fmt.Sprintf("widget%02d", i)
		terms = append(terms, w)
		if i%2 == 0 {
			fmt.Fprintf(&src, "def render_%s(%s):\n    return draw(%s)\n\n", w, w, w)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "w.py"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	matches := func(view string) string {
		for _, l := range strings.Split(view, "\n") {
			if strings.HasPrefix(l, "matches: ") {
				return l
			}
		}
		t.Fatalf("no matches line:\n%s", view)
		return ""
	}
	for _, budget := range []int{100, 200, 400} {
		got, err := View(root, "w.py", terms, nil, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		m := matches(got)
		if limit := budget * BytesPerToken / 4; len(m)+1 > limit {
			t.Errorf("budget %d: matches line of %d bytes, over a quarter of the view (%d):\n%s", budget, len(m)+1, limit, m)
		}
		if !strings.HasPrefix(m, "matches: widget00 2, ") || !strings.Contains(m, " more") {
			t.Errorf("budget %d: matches line %q does not list the first words found and count the rest", budget, m)
		}
		if strings.Contains(m, "absent:") && !strings.Contains(m, "widget38 2; absent: widget01, ") {
			t.Errorf("budget %d: matches line %q lists absent words before every word found", budget, m)
		}
	}
	got, err := View(root, "w.py", terms, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := matches(got); strings.Contains(m, "more") || !strings.Contains(m, "widget38 2; absent: widget01, ") || !strings.HasSuffix(m, "widget39") {
		t.Errorf("unbounded view: matches line %q does not list every word", m)
	}
}
