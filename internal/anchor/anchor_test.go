package anchor

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/testrepo"
)

// fixture: a Python package under src/, two util.py files that both define
// helper, and MaxDefiners+1 plugins that all define register.
var fixture = map[string]string{
	"src/pkg/__init__.py":        "",
	"src/pkg/mod.py":             "class Widget:\n    def render(self):\n        return 1\n",
	"src/pkg/util.py":            "def helper():\n    return 1\n",
	"src/other/__init__.py":      "",
	"src/other/util.py":          "def helper():\n    return 2\n",
	"src/pkg/models/__init__.py": "",
	"src/pkg/models/query.py":    "class QuerySet:\n    def filter(self):\n        return self\n",
	"setup.py":                   "from setuptools import setup\nsetup()\n",
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

// view is an Anchor with its file's path instead of its id.
type view struct {
	Path, Kind, Name string
	Strength         float64
	Order            int
}

func views(ix *index.Index, s Set) []view {
	var out []view
	for id, as := range s.ByFile {
		for _, a := range as {
			if a.ID != id {
				panic(fmt.Sprintf("anchor of %d filed under %d", a.ID, id))
			}
			out = append(out, view{ix.File(id).Path, a.Kind, a.Name, a.Strength, a.Order})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Name < b.Name
	})
	return out
}

func symbolPaths(ix *index.Index, s Set) map[string][]string {
	out := map[string][]string{}
	for name, ids := range s.Symbols {
		for _, id := range ids {
			out[name] = append(out[name], ix.File(id).Path)
		}
		sort.Strings(out[name])
	}
	return out
}

func TestFind(t *testing.T) {
	ix := openFixture(t)
	const (
		queryFrame = `  File "/usr/lib/python3.9/site-packages/pkg/models/query.py", line 2, in filter`
		modFrame   = `  File "/home/x/proj/src/pkg/mod.py", line 3, in render`
	)
	tests := []struct {
		name        string
		text        string
		want        []view
		wantFrames  int
		wantSymbols map[string][]string
	}{
		{
			name: "repository-relative path",
			text: "Crash in src/pkg/mod.py when drawing",
			want: []view{{"src/pkg/mod.py", KindPath, "src/pkg/mod.py", 1, 0}},
		},
		{
			name: "absolute path from another machine",
			text: "See /home/x/proj/src/pkg/mod.py for the crash",
			want: []view{{"src/pkg/mod.py", KindPath, "/home/x/proj/src/pkg/mod.py", 1, 0}},
		},
		{
			name: "path with a directory tells two util.py apart",
			text: "The crash is in other/util.py somewhere",
			want: []view{{"src/other/util.py", KindPath, "other/util.py", 1, 0}},
		},
		{
			name: "a unique bare file name",
			text: "The crash is in mod.py somewhere",
			want: []view{{"src/pkg/mod.py", KindPath, "mod.py", 1, 0}},
		},
		{
			name: "an ambiguous bare file name is dropped",
			text: "The crash is in util.py somewhere",
		},
		{
			name: "an absolute path to a root file",
			text: "Running /home/me/work/setup.py fails",
			want: []view{{"setup.py", KindPath, "/home/me/work/setup.py", 1, 0}},
		},
		{
			name: "an unknown path",
			text: "The crash is in lib/nowhere.py somewhere",
		},
		{
			name: "site-packages frame",
			text: "Traceback (most recent call last):\n" + queryFrame + "\n    return self\nValueError: bad",
			want: []view{
				{"src/pkg/models/query.py", KindDefines, "filter", 1, 0},
				{"src/pkg/models/query.py", KindFrame, "filter (query.py)", 1, 0},
			},
			wantFrames:  1,
			wantSymbols: map[string][]string{"filter": {"src/pkg/models/query.py"}},
		},
		{
			name: "frames keep their order",
			text: "Traceback (most recent call last):\n" + modFrame + "\n    x()\n" + queryFrame + "\n    return self\nValueError: bad",
			want: []view{
				{"src/pkg/mod.py", KindDefines, "render", 1, 0},
				{"src/pkg/mod.py", KindFrame, "render (mod.py)", 1, 0},
				{"src/pkg/models/query.py", KindDefines, "filter", 1, 0},
				{"src/pkg/models/query.py", KindFrame, "filter (query.py)", 1, 1},
			},
			wantFrames:  2,
			wantSymbols: map[string][]string{"filter": {"src/pkg/models/query.py"}, "render": {"src/pkg/mod.py"}},
		},
		{
			name: "dotted module path",
			text: "Importing pkg.models.query fails",
			want: []view{{"src/pkg/models/query.py", KindModule, "pkg.models.query", 1, 0}},
		},
		{
			name:        "a symbol defined in one file",
			text:        "`QuerySet` loses its state",
			want:        []view{{"src/pkg/models/query.py", KindDefines, "QuerySet", 1, 0}},
			wantSymbols: map[string][]string{"QuerySet": {"src/pkg/models/query.py"}},
		},
		{
			name: "a member and its name",
			text: "`Widget.render` crashes",
			want: []view{
				{"src/pkg/mod.py", KindDefines, "Widget.render", 1, 0},
				{"src/pkg/mod.py", KindDefines, "render", 1, 0},
			},
			wantSymbols: map[string][]string{"Widget.render": {"src/pkg/mod.py"}, "render": {"src/pkg/mod.py"}},
		},
		{
			name: "a symbol defined in two files",
			text: "`helper` returns the wrong value",
			want: []view{
				{"src/other/util.py", KindDefines, "helper", 0.5, 0},
				{"src/pkg/util.py", KindDefines, "helper", 0.5, 0},
			},
			wantSymbols: map[string][]string{"helper": {"src/other/util.py", "src/pkg/util.py"}},
		},
		{
			name: "a symbol defined in more than MaxDefiners files is dropped",
			text: "`register` is called twice",
		},
		{
			name: "a symbol nobody defines",
			text: "`NoSuchThing` is missing",
		},
		{
			name: "a path and a symbol on one file",
			text: "src/pkg/models/query.py: `QuerySet` loses its state",
			want: []view{
				{"src/pkg/models/query.py", KindDefines, "QuerySet", 1, 0},
				{"src/pkg/models/query.py", KindPath, "src/pkg/models/query.py", 1, 0},
			},
			wantSymbols: map[string][]string{"QuerySet": {"src/pkg/models/query.py"}},
		},
		{
			name: "empty task",
			text: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk := task.Parse(tt.text)
			s := Find(ix, &tk)
			if diff := cmp.Diff(tt.want, views(ix, s)); diff != "" {
				t.Errorf("Find(%q) anchors (-want +got):\n%s", tt.text, diff)
			}
			if s.Frames != tt.wantFrames {
				t.Errorf("Find(%q).Frames = %d, want %d", tt.text, s.Frames, tt.wantFrames)
			}
			want := tt.wantSymbols
			if want == nil {
				want = map[string][]string{}
			}
			if diff := cmp.Diff(want, symbolPaths(ix, s)); diff != "" {
				t.Errorf("Find(%q).Symbols (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// Tasks built by hand reach cases the parser may not produce.
func TestFindHandBuilt(t *testing.T) {
	ix := openFixture(t)
	tests := []struct {
		name string
		t    task.Task
		want []view
	}{
		{
			name: "Windows path with backslashes and ./",
			t:    task.Task{Paths: []string{`.\src\pkg\mod.py`}},
			want: []view{{"src/pkg/mod.py", KindPath, `.\src\pkg\mod.py`, 1, 0}},
		},
		{
			name: "a path named twice anchors once",
			t:    task.Task{Paths: []string{"src/pkg/mod.py", "src/pkg/mod.py"}},
			want: []view{{"src/pkg/mod.py", KindPath, "src/pkg/mod.py", 1, 0}},
		},
		{
			name: "a frame with no file resolves its class path",
			t:    task.Task{Frames: []task.Frame{{Func: "pkg.models.query.QuerySet.filter"}}},
			want: []view{{"src/pkg/models/query.py", KindFrame, "pkg.models.query.QuerySet.filter", 1, 0}},
		},
		{
			name: "the longest common suffix wins over a shorter one",
			t:    task.Task{Paths: []string{"x/pkg/util.py"}},
			want: []view{{"src/pkg/util.py", KindPath, "x/pkg/util.py", 1, 0}},
		},
		{
			name: "a module path naming a package anchors its initialiser at PackageShare",
			t:    task.Task{DottedNames: []string{"pkg.models", "pkg.models.query"}},
			want: []view{
				{"src/pkg/models/__init__.py", KindModule, "pkg.models", PackageShare, 0},
				{"src/pkg/models/query.py", KindModule, "pkg.models.query", 1, 0},
			},
		},
		{
			name: "a dotted name through a module picks the definer",
			t:    task.Task{Identifiers: []string{"pkg.models.query.QuerySet"}},
			want: []view{{"src/pkg/models/query.py", KindDefines, "pkg.models.query.QuerySet", 1, 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Find(ix, &tt.t)
			if diff := cmp.Diff(tt.want, views(ix, s)); diff != "" {
				t.Errorf("Find(%+v) anchors (-want +got):\n%s", tt.t, diff)
			}
		})
	}
}

// A compound name the task gives that no file defines (a setting) anchors
// the few files that hold it verbatim, even as an attribute of a dotted
// name; a plain word, a defined name, or a name held by more than MaxUsers
// files anchors nothing this way.
func TestFindMentions(t *testing.T) {
	files := map[string]string{
		"app/config.py": "def setup(app):\n    app.add_config_value('upload_max_size', 10)\n",
		"app/upload.py": "def check(app, f):\n    return f.size <= app.config.upload_max_size\n",
		"app/other.py":  "def other():\n    return 'upload'\n",
		"app/defs.py":   "def parse_upload():\n    return 1\n",
	}
	for i := 0; i <= MaxUsers; i++ {
		files[fmt.Sprintf("app/use%d.py", i)] = "x = 'everywhere_key'\n"
	}
	ix := testrepo.Index(t, files)
	strength := 1 / math.Sqrt(2)
	tests := []struct {
		ident string
		want  []view
	}{
		{"upload_max_size", []view{
			{"app/config.py", KindMentions, "upload_max_size", strength, 0},
			{"app/upload.py", KindMentions, "upload_max_size", strength, 0},
		}},
		{"upload", nil},
		{"everywhere_key", nil},
		{"parse_upload", []view{{"app/defs.py", KindDefines, "parse_upload", 1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.ident, func(t *testing.T) {
			s := Find(ix, &task.Task{Identifiers: []string{tt.ident}})
			if diff := cmp.Diff(tt.want, views(ix, s)); diff != "" {
				t.Errorf("Find(%q) anchors (-want +got):\n%s", tt.ident, diff)
			}
		})
	}
}

func TestPackageInit(t *testing.T) {
	for p, want := range map[string]bool{
		"pkg/__init__.py": true, "src/lib/index.ts": true, "web/index.js": true, "src/net/mod.rs": true,
		"pkg/init.py": false, "docs/index.md": false, "index.html": false, "src/module.rs": false,
	} {
		if got := packageInit(p); got != want {
			t.Errorf("packageInit(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestSymbols(t *testing.T) {
	ix := openFixture(t)
	tests := []struct {
		t    task.Task
		want []string
	}{
		{task.Task{Identifiers: []string{"SessionManager", "validate_enrollment"}}, []string{"SessionManager", "validate_enrollment"}},
		{task.Task{DottedNames: []string{"django.db.models.QuerySet"}}, []string{"models.QuerySet", "QuerySet"}},
		{task.Task{CodeSpans: []string{"foo()", "a b", "x", "`Token`"}}, []string{"foo", "Token"}},
		{task.Task{Identifiers: []string{"ab", strings.Repeat("a", 81)}}, nil},
		{task.Task{Identifiers: []string{"Token"}, CodeSpans: []string{"Token"}}, []string{"Token"}},
	}
	for _, tt := range tests {
		if got := symbols(ix, &tt.t); !cmp.Equal(got, tt.want) {
			t.Errorf("symbols(%+v) = %q, want %q", tt.t, got, tt.want)
		}
	}
}
