package walk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// settleAtOnce lets a walk record a directory however recently it changed
// (quietSettle 0) for the rest of the test.
func settleAtOnce(t testing.TB) {
	old := quietSettle
	quietSettle = 0
	t.Cleanup(func() { quietSettle = old })
}

// writeAt writes the file p (slash-separated, below root) with content c,
// making its directories.
func writeAt(t *testing.T, root, p, c string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
}

// calls walks root and returns every call of fn and skip, in order.
func calls(t *testing.T, root string, opts Options) []string {
	t.Helper()
	var out []string
	err := Walk(context.Background(), root, opts, func(f File) error {
		out = append(out, "file "+f.Path)
		return nil
	}, func(s Skip) {
		out = append(out, "skip "+s.String())
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestQuietDirectories walks a tree with directories that hold nothing to
// index (catalogs, compiled files, ignored and vendored names, nested),
// records them, and after each change of a list walks it again from the
// record: the calls must be those of a walk without one, and a directory
// still quiet is not listed. The other directories are recorded as listed
// (TestListedDirectories); when nothing changed, no directory is listed.
func TestQuietDirectories(t *testing.T) {
	settleAtOnce(t)
	files := map[string]string{
		".gitignore":                  "*.log\nsecret/\n",
		"app/main.py":                 "def main(): pass\n",
		"app/util/helpers.py":         "def helper(): pass\n",
		"app/__pycache__/main.pyc":    "\x00\x01",
		"build.log":                   "x\n",
		"docs/img/a.png":              "\x89PNG",
		"docs/img/b.png":              "\x89PNG",
		"docs/img/old/c.jpg":          "\xff\xd8",
		"locale/fr/LC_MESSAGES/a.po":  "msgid \"a\"\n",
		"locale/fr/LC_MESSAGES/a.mo":  "\x00",
		"locale/de/LC_MESSAGES/a.po":  "msgid \"a\"\n",
		"locale/de/LC_MESSAGES/a.mo":  "\x00",
		"locale/de/formats.py":        "DATE = 1\n",
		"logs/run.log":                "x\n",
		"logs/old/run.log":            "x\n",
		"secret/keys.txt":             "k\n",
		"web/node_modules/x/index.js": "module.exports = 1\n",
		"web/app.js":                  "export const a = 1\n",
	}
	root := fixture(t, files)
	write := func(p, c string) { writeAt(t, root, p, c) }
	memo := Memo{}
	calls(t, root, Options{Remember: memo})
	wantQuiet := []string{"docs", "docs/img", "docs/img/old", "locale/de/LC_MESSAGES", "locale/fr", "locale/fr/LC_MESSAGES", "logs", "logs/old"}
	wantListed := []string{"", "app", "app/util", "locale", "locale/de", "web"}
	var got, gotListed []string
	for p, q := range memo {
		if q.Listed {
			gotListed = append(gotListed, p)
		} else {
			got = append(got, p)
		}
	}
	slices.Sort(got)
	slices.Sort(gotListed)
	if diff := cmp.Diff(wantQuiet, got); diff != "" {
		t.Fatalf("quiet directories (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantListed, gotListed); diff != "" {
		t.Fatalf("listed directories (-want +got):\n%s", diff)
	}
	steps := []struct {
		name   string
		change func()
		listed []string // directories the walk from the record must list (beside the others that are not quiet)
	}{
		{"nothing changed", func() {}, nil},
		{"a source file in a catalog directory", func() { write("locale/fr/LC_MESSAGES/strings.py", "S = 1\n") }, []string{"locale/fr/LC_MESSAGES"}},
		{"a catalog renamed to source", func() {
			os.Rename(filepath.Join(root, "docs/img/old/c.jpg"), filepath.Join(root, "docs/img/old/c.py"))
		}, []string{"docs/img/old"}},
		{"an ignore file in a quiet directory", func() { write("logs/.gitignore", "!run.log\n") }, []string{"logs"}},
		{"the root's ignore file", func() { write(".gitignore", "*.log\nsecret/\n*.png\n") }, []string{"docs", "docs/img"}},
		{"a quiet directory removed", func() { os.RemoveAll(filepath.Join(root, "locale/de/LC_MESSAGES")) }, nil},
		{"a quiet directory replaced by a file", func() {
			os.RemoveAll(filepath.Join(root, "docs/img"))
			write("docs/img", "not a directory\n")
		}, []string{"docs"}},
	}
	for _, st := range steps {
		time.Sleep(20 * time.Millisecond) // past the clock's tick, as quietSettle would be
		st.change()
		want := calls(t, root, Options{})
		var listed []string
		onList = func(rel string) { listed = append(listed, rel) }
		next := Memo{}
		got := calls(t, root, Options{Quiet: memo, Remember: next})
		onList = nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: the walk from the record differs (-plain +from the record):\n%s", st.name, diff)
		}
		for _, p := range st.listed {
			if !slices.Contains(listed, p) {
				t.Errorf("%s: %s was not listed again", st.name, p)
			}
		}
		for _, p := range listed {
			if q := memo[p]; q != nil && !slices.Contains(st.listed, p) && st.name == "nothing changed" {
				t.Errorf("%s: quiet %s was listed", st.name, p)
			}
		}
		t.Logf("%s: listed %q", st.name, listed)
		if st.name == "nothing changed" && len(listed) > 0 {
			t.Errorf("nothing changed: %d directories listed (%s)", len(listed), strings.Join(listed, ", "))
		}
		memo = next
	}
}

// TestListedDirectories records the listings of a tree's directories and,
// after each change, walks it again from the record: the calls, with each
// file's size, times and inode, must be those of a walk without a record;
// a directory whose entries did not change is not listed (an edit of a
// file's content or of what a link points to moves none of its times), one
// whose entries or ignore files changed is.
func TestListedDirectories(t *testing.T) {
	settleAtOnce(t)
	root := fixture(t, map[string]string{
		".gitignore":           "*.tmp\n",
		"README.md":            "# app\n",
		"src/main.go":          "package main\n",
		"src/util/strings.go":  "package util\n",
		"src/util/scratch.tmp": "x\n",
		"src/.ignore":          "gen_*.go\n",
		"src/gen_table.go":     "package main\n",
		"src/link.go":          "->util/strings.go",
		"lib/a.py":             "A = 1\n",
		"lib/b.py":             "B = 2\n",
		// Deeper than a view may stand below an opened directory.
		"pkg/a/b/c/deep.go": "package c\n",
		"pkg/a/b/c/more.go": "package c\n",
	})
	path := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	write := func(p, c string) { writeAt(t, root, p, c) }
	opts := Options{MaxFileSize: 64}
	walkAll := func(o Options) []string {
		t.Helper()
		var out []string
		err := Walk(context.Background(), root, o, func(f File) error {
			out = append(out, fmt.Sprintf("file %s %d %d %d", f.Path, f.Size, f.ModTime, f.Inode))
			return nil
		}, func(s Skip) { out = append(out, "skip "+s.String()) })
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	memo := Memo{}
	o := opts
	o.Remember = memo
	walkAll(o)
	for _, p := range []string{"", "src", "src/util", "lib", "pkg/a/b/c"} {
		if q := memo[p]; q == nil || !q.Listed {
			t.Fatalf("%q not recorded as listed: %+v", p, q)
		}
	}
	steps := []struct {
		name   string
		change func()
		listed []string // exactly the directories the walk from the record lists
	}{
		{"nothing changed", func() {}, nil},
		{"a file's content edited", func() { write("lib/a.py", "A = 1000\n") }, nil},
		{"a file grown past the size limit", func() { write("lib/b.py", strings.Repeat("B = 2\n", 20)) }, nil},
		{"what a link points to edited", func() { write("src/util/strings.go", "package util\n\nconst X = 1\n") }, nil},
		{"a file added", func() { write("lib/c.py", "C = 3\n") }, []string{"lib"}},
		{"a file removed", func() { os.Remove(path("src/main.go")) }, []string{"src"}},
		{"a file edited four directories down", func() { write("pkg/a/b/c/deep.go", "package c\n\nvar X = 1\n") }, nil},
		{"a file added four directories down", func() { write("pkg/a/b/c/new.go", "package c\n") }, []string{"pkg/a/b/c"}},
		{"a directory three down replaced by a link to a directory", func() {
			os.RemoveAll(path("pkg/a/b"))
			if err := os.Symlink(path("src"), path("pkg/a/b")); err != nil {
				t.Fatal(err)
			}
		}, []string{"pkg/a"}},
		{"an ignore file edited in place", func() { write("src/.ignore", "gen_*.go\nlink.go\n") }, []string{"src", "src/util"}},
		{"the root's ignore file edited in place", func() { write(".gitignore", "") }, []string{"", "lib", "pkg", "pkg/a", "src", "src/util"}},
		{"a directory replaced by a file", func() {
			os.RemoveAll(path("src/util"))
			write("src/util", "not a directory\n")
		}, []string{"src"}},
	}
	for _, st := range steps {
		time.Sleep(20 * time.Millisecond) // past the clock's tick, as quietSettle would be
		st.change()
		want := walkAll(opts)
		var listed []string
		onList = func(rel string) { listed = append(listed, rel) }
		next := Memo{}
		o := opts
		o.Quiet, o.Remember = memo, next
		got := walkAll(o)
		onList = nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: the walk from the record differs (-plain +from the record):\n%s", st.name, diff)
		}
		slices.Sort(listed)
		if diff := cmp.Diff(st.listed, listed); diff != "" {
			t.Errorf("%s: directories listed (-want +got):\n%s", st.name, diff)
		}
		if same := next.Same(memo); same != (len(st.listed) == 0) {
			t.Errorf("%s: Same = %v with %d directories listed", st.name, same, len(listed))
		}
		memo = next
	}
}

// TestListedUnreadableIgnore: a directory whose ignore file cannot be read
// (here a dangling link) is listed on every walk, as before; the record
// found alike is the one carried (Memo.Same holds), so that nothing is
// written again for a tree that did not change.
func TestListedUnreadableIgnore(t *testing.T) {
	settleAtOnce(t)
	root := fixture(t, map[string]string{
		"src/main.go":    "package main\n",
		"src/.gitignore": "->nowhere",
	})
	memo := Memo{}
	want := calls(t, root, Options{Remember: memo})
	for i := range 2 {
		time.Sleep(20 * time.Millisecond)
		next := Memo{}
		if diff := cmp.Diff(want, calls(t, root, Options{Quiet: memo, Remember: next})); diff != "" {
			t.Fatalf("walk %d from the record (-first +now):\n%s", i, diff)
		}
		if !next.Same(memo) {
			t.Errorf("walk %d: nothing changed, yet the record differs", i)
		}
		memo = next
	}
}

// TestListedChangeWhileListing: a file created in a directory just after
// the walk read its listing is seen by the next walk from the record, even
// when the file system's clock runs far behind the machine's (the settling
// rule, here an hour's skew, then records the directory): the times
// recorded are those from before the listing.
func TestListedChangeWhileListing(t *testing.T) {
	old := quietSettle
	quietSettle = -time.Hour
	t.Cleanup(func() { quietSettle = old })
	root := fixture(t, map[string]string{"src/main.go": "package main\n", "README.md": "# x\n"})
	time.Sleep(20 * time.Millisecond)
	onListed = func(rel string) {
		if rel == "src" {
			writeAt(t, root, "src/late.go", "package main\n")
		}
	}
	memo := Memo{}
	calls(t, root, Options{Remember: memo})
	onListed = nil
	if q := memo["src"]; q == nil || !q.Listed {
		t.Fatalf("src not recorded: %+v", q)
	}
	want := calls(t, root, Options{})
	got := calls(t, root, Options{Quiet: memo, Remember: Memo{}})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the walk from the record (-plain +from the record):\n%s", diff)
	}
}
