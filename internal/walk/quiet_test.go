package walk

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

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
// still quiet is not listed.
func TestQuietDirectories(t *testing.T) {
	old := quietSettle
	quietSettle = 0
	t.Cleanup(func() { quietSettle = old })
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
	write := func(p, c string) {
		t.Helper()
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	memo := Memo{}
	calls(t, root, Options{Remember: memo})
	wantQuiet := []string{"docs", "docs/img", "docs/img/old", "locale/de/LC_MESSAGES", "locale/fr", "locale/fr/LC_MESSAGES", "logs", "logs/old"}
	var got []string
	for p := range memo {
		got = append(got, p)
	}
	slices.Sort(got)
	if diff := cmp.Diff(wantQuiet, got); diff != "" {
		t.Fatalf("quiet directories (-want +got):\n%s", diff)
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
		if st.name == "nothing changed" && len(listed) >= len(wantQuiet)+3 {
			t.Errorf("nothing changed: %d directories listed (%s)", len(listed), strings.Join(listed, ", "))
		}
		memo = next
	}
}
