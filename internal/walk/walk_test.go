package walk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-enry/go-enry/v2"
	"github.com/go-enry/go-enry/v2/data"
	"github.com/google/go-cmp/cmp"

	"github.com/hone-dev/hone/internal/ignore"
)

// fixture writes files (path -> content) under a new temp dir. A content
// starting with "->" makes a symlink to the rest.
func fixture(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(c, "->"); ok {
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if strings.HasSuffix(p, "/") {
			continue
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// run walks root and returns the indexed paths and "path reason" skips.
func run(t testing.TB, root string, opts Options) (files, skips []string) {
	t.Helper()
	err := Walk(context.Background(), root, opts, func(f File) error {
		files = append(files, f.Path)
		return nil
	}, func(s Skip) {
		skips = append(skips, s.Path+" "+s.Reason.String())
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return files, skips
}

func TestWalk(t *testing.T) {
	big := strings.Repeat("x", DefaultMaxFileSize+1)
	root := fixture(t, map[string]string{
		".gitignore":                        "*.log\n!keep.log\nbuild/\n/rootonly.txt\n",
		".git/config":                       "[core]\n",
		".github/workflows/ci.yml":          "on: push\n",
		".honeignore":                       "secret/\n",
		".ignore":                           "scratch.txt\n",
		"a.txt":                             "a\n",
		"a/b.py":                            "b = 1\n",
		"a0.txt":                            "a0\n",
		"app.log":                           "log\n",
		"keep.log":                          "keep\n",
		"rootonly.txt":                      "x\n",
		"build/out.js":                      "x\n",
		"scratch.txt":                       "x\n",
		"secret/key.txt":                    "x\n",
		"sub/.gitignore":                    "*.tmp\n!important.log\n",
		"sub/rootonly.txt":                  "kept: anchored pattern is for the root only\n",
		"sub/x.tmp":                         "x\n",
		"sub/important.log":                 "re-included by the deeper file\n",
		"sub/other.log":                     "x\n",
		"sub/deep/y.tmp":                    "x\n",
		"vendor/lib.go":                     "package lib\n",
		"node_modules/m/i.js":               "x\n",
		"pkg/third_party/t.c":               "int x;\n",
		"env/pyvenv.cfg":                    "home = /usr\n",
		"env/lib/site.py":                   "x\n",
		"__pycache__/a.pyc":                 "x\n",
		"package-lock.json":                 "{}\n",
		"static/app.min.js":                 "x\n",
		"static/app.js.map":                 "{}\n",
		"static/jquery-3.5.1.js":            "x\n",
		"static/bootstrap.min.css":          "x\n",
		"static/theme-1.0.css":              "x\n",
		"static/app-v2.js":                  "kept: no release number\n",
		"wwwroot/lib/jquery/dist/jquery.js": "x\n",
		"wwwroot/js/site.js":                "kept: the project's own script\n",
		"core/cache/backends.py":            "kept: Linguist's (^|/)cache/ is not applied\n",
		"tests/fixtures/models.py":          "kept: the project's test data\n",
		"resources/js/bootstrap.js":         "kept: a Laravel application's own\n",
		"static/bootstrap.bundle.js":        "x\n",
		"extern/agg/agg.h":                  "x\n",
		"gradlew":                           "x\n",
		".idea/workspace.xml":               "x\n",
		"ui/Form1.Designer.cs":              "x\n",
		".pnp.cjs":                          "x\n",
		"db/.sqlx/query-1f2e.json":          "{}\n",
		"locale/fr/django.po":               "msgid \"x\"\n",
		"locale/django.pot":                 "msgid \"x\"\n",
		"img/logo.png":                      "\x89PNG",
		"huge.txt":                          big,
		"link.txt":                          "->a.txt",
		"linkdir":                           "->a",
		"loop1":                             "->loop2",
		"loop2":                             "->loop1",
		"dangling":                          "->nowhere.txt",
		"outside":                           "->/etc/hostname",
		"up":                                "->../",
		"empty/":                            "",
	})
	files, skips := run(t, root, Options{})
	wantFiles := []string{
		".github/workflows/ci.yml", ".gitignore", ".honeignore", ".ignore",
		"a.txt", "a/b.py", "a0.txt", "core/cache/backends.py", "keep.log", "link.txt",
		"resources/js/bootstrap.js", "static/app-v2.js", "sub/.gitignore", "sub/important.log", "sub/rootonly.txt",
		"tests/fixtures/models.py", "wwwroot/js/site.js",
	}
	if diff := cmp.Diff(wantFiles, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	wantSkips := []string{
		".git/ vcs",
		".idea/ generated",
		".pnp.cjs generated",
		"__pycache__/ generated",
		"app.log ignored",
		"build/ ignored",
		"dangling symlink",
		"db/.sqlx/query-1f2e.json generated",
		"env/ vendored",
		"extern/ vendored",
		"gradlew vendored",
		"huge.txt huge",
		"img/logo.png binary",
		"linkdir symlink",
		"locale/django.pot data",
		"locale/fr/django.po data",
		"loop1 symlink",
		"loop2 symlink",
		"node_modules/ vendored",
		"outside symlink",
		"package-lock.json generated",
		"pkg/third_party/ vendored",
		"rootonly.txt ignored",
		"scratch.txt ignored",
		"secret/ ignored",
		"static/app.js.map generated",
		"static/app.min.js vendored",
		"static/bootstrap.bundle.js vendored",
		"static/bootstrap.min.css vendored",
		"static/jquery-3.5.1.js vendored",
		"static/theme-1.0.css vendored",
		"sub/deep/y.tmp ignored",
		"sub/other.log ignored",
		"sub/x.tmp ignored",
		"ui/Form1.Designer.cs generated",
		"up symlink",
		"vendor/ vendored",
		"wwwroot/lib/jquery/dist/jquery.js vendored",
	}
	if diff := cmp.Diff(wantSkips, skips); diff != "" {
		t.Errorf("skips (-want +got):\n%s", diff)
	}

	t.Run("order", func(t *testing.T) {
		var all []string
		err := Walk(context.Background(), root, Options{}, func(f File) error {
			all = append(all, f.Path)
			return nil
		}, func(s Skip) { all = append(all, strings.TrimSuffix(s.Path, "/")) })
		if err != nil {
			t.Fatal(err)
		}
		if !sort.StringsAreSorted(all) {
			t.Errorf("paths not in lexical order: %q", all)
		}
	})

	t.Run("include vendored", func(t *testing.T) {
		files, _ := run(t, root, Options{IncludeVendored: true})
		for _, want := range []string{"vendor/lib.go", "node_modules/m/i.js", "pkg/third_party/t.c", "env/lib/site.py",
			"static/jquery-3.5.1.js", "wwwroot/lib/jquery/dist/jquery.js", "static/bootstrap.bundle.js", "extern/agg/agg.h"} {
			if !contains(files, want) {
				t.Errorf("IncludeVendored: %s missing from %q", want, files)
			}
		}
		// Minified is generated whoever wrote it.
		for _, skipped := range []string{"static/app.min.js", "static/bootstrap.min.css"} {
			if contains(files, skipped) {
				t.Errorf("IncludeVendored: %s indexed", skipped)
			}
		}
	})

	t.Run("include data", func(t *testing.T) {
		files, _ := run(t, root, Options{IncludeData: true})
		for _, want := range []string{"locale/django.pot", "locale/fr/django.po"} {
			if !contains(files, want) {
				t.Errorf("IncludeData: %s missing from %q", want, files)
			}
		}
	})

	t.Run("max size", func(t *testing.T) {
		files, skips := run(t, root, Options{MaxFileSize: 1})
		if contains(files, "a/b.py") || !contains(skips, "a/b.py huge") {
			t.Errorf("MaxFileSize 1: a/b.py not skipped as huge: %q", skips)
		}
	})

	t.Run("details", func(t *testing.T) {
		got := map[string]string{}
		_ = Walk(context.Background(), root, Options{}, func(File) error { return nil }, func(s Skip) { got[s.Path] = s.Detail })
		want := map[string]string{
			"app.log":                           ".gitignore:1: *.log",
			"sub/x.tmp":                         "sub/.gitignore:1: *.tmp",
			"secret/":                           ".honeignore:1: secret/",
			"loop1":                             "symlink loop",
			"dangling":                          "dangling symlink",
			"outside":                           "points outside the repository",
			"linkdir":                           "symlink to a directory (not followed)",
			"vendor/":                           `Linguist vendor rule (^|/)vendors?/`,
			"wwwroot/lib/jquery/dist/jquery.js": `Linguist vendor rule (^|/)jquery([^.]*)\.js$`,
			"env/":                              "python virtual environment (holds pyvenv.cfg)",
			".idea/":                            "tool cache or build metadata .idea/",
			"ui/Form1.Designer.cs":              "generated file type *.designer.cs",
			"img/logo.png":                      "binary file type .png",
			"locale/fr/django.po":               "translation catalog *.po",
			"static/jquery-3.5.1.js":            `Linguist vendor rule (^|/)jquery\-\d\.\d+(\.\d+)?\.js$`,
			"static/theme-1.0.css":              "hone vendor rule " + `^[A-Za-z][A-Za-z0-9_.+-]*?[-.]v?[0-9]+\.[0-9]+(\.[0-9]+)?([-+][0-9A-Za-z.-]*[0-9A-Za-z])?((\.slim)?(\.min)?|(\.umd|\.esm|\.bundle)(\.min)?)\.css$ (a library style sheet named with its release)`,
		}
		for p, d := range want {
			if got[p] != d {
				t.Errorf("detail of %s = %q, want %q", p, got[p], d)
			}
		}
	})

	t.Run("file fields", func(t *testing.T) {
		var f File
		_ = Walk(context.Background(), root, Options{}, func(x File) error {
			if x.Path == "a/b.py" {
				f = x
			}
			return nil
		}, nil)
		if f.Abs != "" || f.Size != 6 || f.ModTime == 0 || f.Inode == 0 {
			t.Errorf("File = %+v", f)
		}
	})
}

func TestWalkGitInfoExclude(t *testing.T) {
	root := fixture(t, map[string]string{
		".git/info/exclude": "local.txt\n",
		"local.txt":         "x\n",
		"main.go":           "package main\n",
	})
	files, skips := run(t, root, Options{})
	if diff := cmp.Diff([]string{"main.go"}, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{".git/ vcs", "local.txt ignored"}, skips); diff != "" {
		t.Errorf("skips (-want +got):\n%s", diff)
	}
}

func TestWalkUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads everything")
	}
	root := fixture(t, map[string]string{"ok.txt": "x\n", "secret.txt": "x\n", "locked/f.txt": "x\n"})
	if err := os.Chmod(filepath.Join(root, "secret.txt"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "locked"), 0o755) })
	files, skips := run(t, root, Options{})
	if diff := cmp.Diff([]string{"ok.txt"}, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"locked/ unreadable", "secret.txt unreadable"}, skips); diff != "" {
		t.Errorf("skips (-want +got):\n%s", diff)
	}
}

func TestWalkSpecialFile(t *testing.T) {
	root := fixture(t, map[string]string{"ok.txt": "x\n"})
	if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	files, skips := run(t, root, Options{})
	if !cmp.Equal([]string{"ok.txt"}, files) || !cmp.Equal([]string{"pipe unreadable"}, skips) {
		t.Errorf("files %q skips %q", files, skips)
	}
}

func TestWalkErrors(t *testing.T) {
	root := fixture(t, map[string]string{"a.txt": "a", "b.txt": "b"})
	tests := []struct {
		name string
		root string
		want string
	}{
		{"missing root", filepath.Join(root, "nope"), "no such file"},
		{"root is a file", filepath.Join(root, "a.txt"), "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Walk(context.Background(), tt.root, Options{}, func(File) error { return nil }, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "walk: ") {
				t.Errorf("Walk(%s) = %v, want error containing %q", tt.root, err, tt.want)
			}
		})
	}

	t.Run("fn error stops", func(t *testing.T) {
		stop := errors.New("stop")
		n := 0
		err := Walk(context.Background(), root, Options{}, func(File) error { n++; return stop }, nil)
		if !errors.Is(err, stop) || n != 1 {
			t.Errorf("Walk = %v after %d files, want stop after 1", err, n)
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := Walk(ctx, root, Options{}, func(File) error { return nil }, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Walk(cancelled) = %v, want context.Canceled", err)
		}
	})

	t.Run("symlinked root", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "r")
		if err := os.Symlink(root, link); err != nil {
			t.Fatal(err)
		}
		files, _ := run(t, link, Options{})
		if !cmp.Equal([]string{"a.txt", "b.txt"}, files) {
			t.Errorf("files = %q", files)
		}
	})
}

func TestSkipReasonString(t *testing.T) {
	want := map[SkipReason]string{
		SkipIgnored: "ignored", SkipHidden: "vcs", SkipBinary: "binary", SkipHuge: "huge",
		SkipGenerated: "generated", SkipVendored: "vendored", SkipUnreadable: "unreadable",
		SkipSymlink: "symlink", SkipEncoding: "encoding", SkipData: "data", 0: "SkipReason(0)",
	}
	for r, s := range want {
		if r.String() != s {
			t.Errorf("SkipReason(%d).String() = %q, want %q", int(r), r.String(), s)
		}
	}
}

// TestWalkLargeDirectory lists a directory too big for one getdents64 call
// and checks that nothing is lost and the order holds.
func TestWalkLargeDirectory(t *testing.T) {
	files := map[string]string{}
	var want []string
	for i := range 3000 {
		p := fmt.Sprintf("d/%04d-%s.txt", i, strings.Repeat("n", 40))
		files[p] = "x\n"
		want = append(want, p)
	}
	files["d/sub/z.txt"] = "x\n"
	want = append(want, "d/sub/z.txt")
	root := fixture(t, files)
	got, skips := run(t, root, Options{})
	if diff := cmp.Diff(want, got); diff != "" || len(skips) != 0 {
		t.Errorf("files (-want +got):\n%s\nskips %q", diff, skips)
	}
}

func utf16le(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = []byte{0xFF, 0xFE}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func utf16be(s string) []byte {
	b := []byte{0xFE, 0xFF}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

func TestSniff(t *testing.T) {
	code := "def f():\n    return 1\n"
	tests := []struct {
		name     string
		path     string
		content  []byte
		wantText string // "" means the content itself
		reason   SkipReason
	}{
		{"plain", "a.py", []byte(code), "", 0},
		{"empty", "a.py", nil, "", 0},
		{"utf-8 bom dropped", "a.py", append([]byte{0xEF, 0xBB, 0xBF}, code...), code, 0},
		{"utf-16le bom", "a.cs", utf16le("class Ä {}\n", true), "class Ä {}\n", 0},
		{"utf-16be bom", "a.cs", utf16be("class Ä {}\n"), "class Ä {}\n", 0},
		{"utf-16 without bom is binary", "a.cs", utf16le("class A {}\n", false), "", SkipBinary},
		{"utf-32", "a.txt", []byte{0xFF, 0xFE, 0, 0, 'a', 0, 0, 0}, "", SkipEncoding},
		{"nul byte", "a.bin", []byte("ELF\x00\x01\x02"), "", SkipBinary},
		{"control bytes", "a.bin", bytes.Repeat([]byte("\x01\x02\x03abc"), 100), "", SkipBinary},
		{"latin-1 kept", "a.py", []byte("# caf\xe9 na\xefve\nx = 1\n"), "# café naïve\nx = 1\n", 0},
		{"cp1252 quotes", "a.txt", []byte("\x93quoted\x94\n"), "“quoted”\n", 0},
		{"one bad byte in utf-8", "a.py", []byte("s = 'é'\n# \xff\n"), "s = 'é'\n# ÿ\n", 0},
		{"mostly invalid", "a.dat", bytes.Repeat([]byte{0xC3, 0xFF, 0xFE, 0x81, 'a'}, 200), "", SkipEncoding},
		{"go generated", "a.go", []byte("// Code generated by stringer; DO NOT EDIT.\n\npackage a\n"), "", SkipGenerated},
		{"generated after license", "a.go", []byte("// Copyright 2020\n// license\n\n// Code generated by protoc-gen-go. DO NOT EDIT.\npackage a\n"), "", SkipGenerated},
		{"@generated", "a.js", []byte("/**\n * @generated\n */\nvar a;\n"), "", SkipGenerated},
		{"autogenerated", "a.py", []byte("# This file is autogenerated by pip-compile\nx=1\n"), "", SkipGenerated},
		{"file was automatically generated", "t.py", []byte("# This file was automatically generated from ply. To re-generate it,\nx=1\n"), "", SkipGenerated},
		{"this is an auto-generated file", "t.ts", []byte("// THIS IS AN AUTO-GENERATED FILE\nexport const a = 1\n"), "", SkipGenerated},
		{"marker opens the comment", "t.py", []byte("# automatically generated by tools/gen.py\nx=1\n"), "", SkipGenerated},
		{"c# auto-generated tag", "T.cs", []byte("// <auto-generated>\n//   by a tool\n// </auto-generated>\nclass T {}\n"), "", SkipGenerated},
		{"marker after a label", "t.c", []byte("/* WARNING: autogenerated code */\nint a;\n"), "", SkipGenerated},
		{"module mentions generated files kept", "parser.py", []byte("# This module includes files automatically generated from a grammar\n# (they end in _tab.py).\nclass Parser: pass\n"), "", 0},
		{"source code generated by another tool kept", "test_gen.py", []byte("# Tests the source code generated with the code printer\ndef test(): pass\n"), "", 0},
		{"those are auto-generated kept", "setup.cfg", []byte("# skip the stubs, since those are all auto-generated\n[flake8]\n"), "", 0},
		{"do not edit counts anywhere", "t.py", []byte("# Built from the schema, do not edit\nx=1\n"), "", SkipGenerated},
		{"marker too late", "a.py", []byte(strings.Repeat("x = 1\n", 20) + "# DO NOT EDIT\n"), "", 0},
		{"django migration kept", "m.py", []byte("# Generated by Django 2.2 on 2019-01-01\nfrom django.db import migrations\n"), "", 0},
		{"minified", "app.js", []byte(strings.Repeat("var a=1;", 1000) + "\n"), "", SkipGenerated},
		{"long prose lines kept", "doc.md", []byte(strings.Repeat("word ", 1000) + "\n"), "", 0},
		// Linguist's content rules.
		{"linguist minified", "a.css", []byte(strings.Repeat(".a{color:red}"+strings.Repeat(" ", 120)+"\n", 5)), "", SkipGenerated},
		{"short lines kept", "a.css", []byte(strings.Repeat(".a { color: red; }\n", 50)), "", 0},
		{"cython", "m.c", []byte("/* Generated by Cython 3.0.0 */\n#include <Python.h>\n"), "", SkipGenerated},
		{"postscript", "f.eps", []byte("%!PS-Adobe-3.0 EPSF-3.0\n%%Title: f.eps\n%%Creator: Matplotlib v3.8.0\n"), "", SkipGenerated},
		{"hand-written postscript kept", "f.eps", []byte("%!PS-Adobe-3.0 EPSF-3.0\n%%Creator: Jane Doe\n"), "", 0},
		{"source map reference kept", "a.js", []byte("var a;\n//# sourceMappingURL=a.js.map\n"), "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, reason, detail, skip := Sniff(tt.path, tt.content)
			if reason != tt.reason || skip != (tt.reason != 0) {
				t.Fatalf("Sniff(%q) = %v %q skip=%v, want %v", tt.content[:min(len(tt.content), 40)], reason, detail, skip, tt.reason)
			}
			if skip && detail == "" {
				t.Errorf("Sniff: skip without detail")
			}
			want := tt.wantText
			if want == "" {
				want = string(tt.content)
			}
			if tt.reason == 0 && string(text) != want {
				t.Errorf("Sniff text = %q, want %q", text, want)
			}
			if tt.reason == 0 && !utf8.Valid(text) {
				t.Errorf("Sniff text is not UTF-8: %q", text)
			}
		})
	}
}

func TestSniffLinguistDetail(t *testing.T) {
	_, _, detail, _ := Sniff("m.c", []byte("/* Generated by Cython 3.0.0 */\n#include <Python.h>\n"))
	if want := "Linguist generated rule isCompiledCythonFile"; detail != want {
		t.Errorf("Sniff detail = %q, want %q", detail, want)
	}
}

// FuzzIgnore walks a fixed tree under fuzzed .gitignore and .ignore files:
// the walk must never fail or panic, every path must be repository-relative
// and inside the root, files must come in lexical order, and a file must
// never be both indexed and skipped.
func FuzzIgnore(f *testing.F) {
	f.Add("*.log\n!keep.log\n", "build/\n")
	f.Add("/a\n**/b/**\n\\!x\n", "")
	f.Add("[a-\n\\\n!\n/\n**\n***\n", "a/**/b\n!*/\n")
	f.Add("\r\n\x00*\r\n", "#\n \\ \n")
	tree := map[string]string{
		"a/b/c.txt": "x", "a/keep.log": "x", "x.log": "x", "build/o.js": "x",
		"!x": "x", "sp ace.txt": "x", "a/b/d/e.go": "x", ".hidden/h.txt": "x",
	}
	root := fixture(f, tree)
	f.Fuzz(func(t *testing.T, gitignore, ignore string) {
		if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(gitignore), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "a", ".ignore"), []byte(ignore), 0o644); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		var files []string
		err := Walk(context.Background(), root, Options{}, func(fl File) error {
			files = append(files, fl.Path)
			check(t, root, fl.Path)
			seen[fl.Path] = true
			return nil
		}, func(s Skip) {
			check(t, root, strings.TrimSuffix(s.Path, "/"))
			if seen[s.Path] {
				t.Errorf("%s both indexed and skipped", s.Path)
			}
		})
		if err != nil {
			t.Fatalf("Walk: %v", err)
		}
		if !sort.StringsAreSorted(files) {
			t.Errorf("not sorted: %q", files)
		}
	})
}

func check(t *testing.T, root, p string) {
	t.Helper()
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || filepath.Clean(p) != filepath.FromSlash(p) || strings.HasPrefix(p, "..") {
		t.Errorf("bad path %q", p)
	}
	if _, err := os.Lstat(filepath.Join(root, p)); err != nil {
		t.Errorf("path %q does not exist: %v", p, err)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func BenchmarkSniff(b *testing.B) {
	src := bytes.Repeat([]byte("def f(x):\n    return x + 1  # café\n"), 1000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Sniff("a.py", src)
	}
}

// BenchmarkWalk walks the tree at $HONE_BENCH_ROOT (e.g. a django checkout).
func BenchmarkWalk(b *testing.B) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		b.Skip("set HONE_BENCH_ROOT to a repository")
	}
	n, ops := 0, 0
	cpu := cpuTime()
	for b.Loop() {
		n = 0
		if err := Walk(context.Background(), root, Options{}, func(File) error { n++; return nil }, nil); err != nil {
			b.Fatal(err)
		}
		ops++
	}
	b.ReportMetric(float64(n), "files")
	b.ReportMetric(float64(cpuTime()-cpu)/float64(ops)/1e6, "cpu-ms/op")
}

// BenchmarkWalkRecorded walks the tree at $HONE_BENCH_ROOT as a warm run
// does: from the record of a walk before it (Options.Quiet), nothing
// changed in between.
func BenchmarkWalkRecorded(b *testing.B) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		b.Skip("set HONE_BENCH_ROOT to a repository")
	}
	settleAtOnce(b)
	memo := Memo{}
	if err := Walk(context.Background(), root, Options{Remember: memo}, nil, nil); err != nil {
		b.Fatal(err)
	}
	n, ops := 0, 0
	cpu := cpuTime()
	for b.Loop() {
		n = 0
		if err := Walk(context.Background(), root, Options{Quiet: memo}, func(File) error { n++; return nil }, nil); err != nil {
			b.Fatal(err)
		}
		ops++
	}
	b.ReportMetric(float64(n), "files")
	b.ReportMetric(float64(cpuTime()-cpu)/float64(ops)/1e6, "cpu-ms/op")
}

// TestIgnoreByName checks that memoizing by base name gives the verdicts of
// matching every path, and that only base-name patterns are memoized.
func TestIgnoreByName(t *testing.T) {
	tests := []struct {
		patterns  string
		namesOnly bool
	}{
		{"*.pyc\n__pycache__\nbuild/\n!keep.pyc\n# c\n\n", true},
		{"*.py[co]\r\nMANIFEST\r\n", true},
		{"/rootonly\n", false},
		{"docs/_build/\n", false},
		{"**/x\n", false},
		{"\\#lit\n", true},
		{"a[/]b\n", false},
	}
	paths := []string{"a.pyc", "x/a.pyc", "keep.pyc", "y/keep.pyc", "__pycache__", "z/__pycache__", "build", "q/build", "MANIFEST", "rootonly", "d/rootonly", "docs/_build", "x", "a/x", "#lit"}
	for _, tt := range tests {
		t.Run(tt.patterns, func(t *testing.T) {
			root := fixture(t, map[string]string{".gitignore": tt.patterns})
			w := &walker{skip: func(Skip) {}}
			m, ok, err := w.load(filepath.Join(root, ".gitignore"), "", ".gitignore", true)
			if !ok || err != nil {
				t.Fatalf("load failed: %v", err)
			}
			if got := m.byName != nil; got != tt.namesOnly {
				t.Fatalf("load(%q) memoizes by name: %v, want %v", tt.patterns, got, tt.namesOnly)
			}
			plain := m
			plain.byName = nil
			for range 2 { // the second round reads the memo
				for _, p := range paths {
					for _, dir := range []bool{false, true} {
						d1, ok1 := w.ignored([]matcher{m}, p, dir)
						d2, ok2 := w.ignored([]matcher{plain}, p, dir)
						if d1 != d2 || ok1 != ok2 {
							t.Errorf("ignored(%q, dir=%v) = %q %v memoized, %q %v not", p, dir, d1, ok1, d2, ok2)
						}
					}
				}
			}
		})
	}
}

// TestWalkPathologicalIgnore is the hardening issue's case: one .gitignore
// line with many stars and a file named with 40 a's. The old matcher
// backtracked for hours (four times longer per extra "*a"); the deadline is
// generous, the walk takes microseconds.
func TestWalkPathologicalIgnore(t *testing.T) {
	name := strings.Repeat("a", 40)
	root := fixture(t, map[string]string{
		".gitignore": "*a*a*a*a*a*a*a*a*a*a*b\n",
		name:         "x\n",
		"d/" + name:  "x\n",
		"d/.ignore":  "**/a*a*a*a*a*a*a*a*a*a*a*a*b\n",
		name + "b":   "ignored: it ends in b\n",
	})
	type result struct {
		files, skips []string
		err          error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		r.err = Walk(context.Background(), root, Options{}, func(f File) error {
			r.files = append(r.files, f.Path)
			return nil
		}, func(s Skip) { r.skips = append(r.skips, s.Path+" "+s.Reason.String()) })
		done <- r
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Walk: %v", r.err)
		}
		if diff := cmp.Diff([]string{".gitignore", name, "d/.ignore", "d/" + name}, r.files); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{name + "b ignored"}, r.skips); diff != "" {
			t.Errorf("skips (-want +got):\n%s", diff)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Walk did not finish in 20 s")
	}
}

// TestWalkAgainstGit compares the walk's ignore verdicts with git
// check-ignore on a tree with nested ignore files, negations and every kind
// of pattern: a path is ignored by the walk when it, or a directory above
// it, is skipped as ignored. Skipped without git.
func TestWalkAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	files := map[string]string{
		".gitignore": "*.log\n!keep.log\nbuild/\n/rootonly.txt\ndoc/**/gen/\na/**\n!a/keep/\n!a/keep/**\n" +
			"*.c\n!src/*.c\nfoo**/bar\n[Tt]emp*\n\\#hash\ntrail\\ \n**/cache/\nx[[:digit:]]?\n",
		".git/info/exclude":   "local.txt\nkeep.log\n",
		"sub/.gitignore":      "!*.log\n*.txt\n/anch\ndeep/x*\n",
		"sub/deep/.gitignore": "!x1\n",
	}
	for _, p := range []string{
		"app.log", "keep.log", "sub/x.log", "sub/keep.log", "build/o.js", "x/build", "rootonly.txt",
		"sub/rootonly.txt", "doc/a/gen/x.py", "doc/gen/y.py", "doc/genx/z.py", "a/z.py", "a/keep/k.py",
		"a/keep/s/k2.py", "m.c", "src/m.c", "src/deep/m.c", "foox/y/bar", "foo/bar", "Temp1.py",
		"temp2/z.py", "#hash", "trail ", "trail", "sub/anch", "sub/q/anch", "sub/deep/x1", "sub/deep/x2",
		"sub/deep/y", "local.txt", "p/cache/c.py", "cache", "x1a", "x1", "main.go",
	} {
		files[p] = "x\n"
	}
	root := fixture(t, files)
	git := exec.Command("git", "init", "-q", root)
	git.Env = append(os.Environ(), "HOME="+root, "XDG_CONFIG_HOME="+root, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// git init keeps the exclude file written above.
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if p != root {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	git = exec.Command("git", "-C", root, "check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
	git.Env = append(os.Environ(), "HOME="+root, "XDG_CONFIG_HOME="+root, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	git.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	out, err := git.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("git check-ignore: %v", err)
	}
	gitIgnored := map[string]bool{}
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+3 < len(fields); i += 4 {
		gitIgnored[fields[i+3]] = fields[i+2] != "" && !strings.HasPrefix(fields[i+2], "!")
	}
	if len(gitIgnored) != len(paths) {
		t.Fatalf("git answered for %d of %d paths", len(gitIgnored), len(paths))
	}

	walkIgnored := map[string]bool{} // paths skipped as ignored, directories with "/"
	_, skips := run(t, root, Options{})
	for _, s := range skips {
		if p, ok := strings.CutSuffix(s, " ignored"); ok {
			walkIgnored[p] = true
		}
	}
	for _, p := range paths {
		got := walkIgnored[p]
		for i := range len(p) {
			if p[i] == '/' && walkIgnored[p[:i+1]] {
				got = true
			}
		}
		if info, err := os.Stat(filepath.Join(root, p)); err == nil && info.IsDir() && walkIgnored[p+"/"] {
			got = true
		}
		if got != gitIgnored[p] {
			t.Errorf("%s: walk ignores it: %v, git: %v", p, got, gitIgnored[p])
		}
	}
}

// TestWalkCancel cancels the walk from fn: Walk must return ctx's error
// and call fn no more than a check interval later. Under an ignore file of
// thousands of patterns every entry is a check interval of work, so no
// file may follow the cancelling one; the old interval counted entries
// alone and let 255 more through.
func TestWalkCancel(t *testing.T) {
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("d/f%03d.py", i)] = "x\n"
	}
	var patterns strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&patterns, "*never%d*.q\n", i)
	}
	tests := []struct {
		name      string
		gitignore string
		maxAfter  int // calls of fn allowed after the cancelling one
	}{
		{"empty ignore file", "", ctxCheckEvery},
		{"huge ignore file", patterns.String(), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files[".gitignore"] = tt.gitignore
			root := fixture(t, files)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := 0
			err := Walk(ctx, root, Options{}, func(File) error {
				if calls++; calls == 2 {
					cancel()
				}
				return nil
			}, nil)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Walk = %v, want context.Canceled", err)
			}
			if after := calls - 2; after > tt.maxAfter {
				t.Errorf("fn called %d times after the cancel, want at most %d", after, tt.maxAfter)
			}
		})
	}
}

// TestWalkIgnoreFileCut checks the limits of an ignore file: of one with
// more than ignore.MaxPatterns patterns, the first apply, the rest do not,
// and a warning names the file and the lines dropped.
func TestWalkIgnoreFileCut(t *testing.T) {
	var patterns strings.Builder
	patterns.WriteString("first.txt\n")
	for i := range ignore.MaxPatterns - 1 {
		fmt.Fprintf(&patterns, "never%d/x\n", i)
	}
	patterns.WriteString("last.txt\n") // line MaxPatterns+1: dropped
	root := fixture(t, map[string]string{
		"sub/.gitignore": patterns.String(),
		"sub/first.txt":  "x\n",
		"sub/last.txt":   "x\n",
		"sub/kept.txt":   "x\n",
	})
	var log bytes.Buffer
	opts := Options{Logger: slog.New(slog.NewTextHandler(&log, nil))}
	var got []string
	var skips []string
	err := Walk(context.Background(), root, opts, func(f File) error {
		got = append(got, f.Path)
		return nil
	}, func(s Skip) { skips = append(skips, s.String()) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"sub/kept.txt", "sub/last.txt"}; !slices.Equal(got, want) {
		t.Errorf("Walk files = %q, want %q", got, want)
	}
	if want := []string{"sub/.gitignore: huge (1288896 bytes > limit 1048576)", "sub/first.txt: ignored (sub/.gitignore:1: first.txt)"}; !slices.Equal(skips, want) {
		t.Errorf("Walk skips = %q, want %q", skips, want)
	}
	want := fmt.Sprintf("walk: ignore file sub/.gitignore: lines %d and after dropped (more than %d patterns); the lines before apply", ignore.MaxPatterns+1, ignore.MaxPatterns)
	if !strings.Contains(log.String(), want) {
		t.Errorf("log = %q, want a warning %q", log.String(), want)
	}
}

// TestWalkCancelWhileParsing cancels a walk while it reads the 50 MB
// .gitignore of issue 32 (825,000 lines), which the old walk parsed whole
// for seconds without looking at ctx: Walk must return ctx's error promptly.
func TestWalkCancelWhileParsing(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 50 MB file")
	}
	root := fixture(t, map[string]string{"a.txt": "x\n"})
	line := "some/dir/**/build-output-[0-9]*.o-" + strings.Repeat("x", 25) + "\n" // 61 bytes
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), bytes.Repeat([]byte(line), 825_000), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Walk(ctx, root, Options{}, nil, nil) }()
	time.Sleep(20 * time.Millisecond) // into the parse (or past it: then Walk is done or stops at once)
	cancel()
	cancelled := time.Now()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Walk = %v, want context.Canceled or nil", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatalf("Walk still running %v after the cancel", time.Since(cancelled))
	}
}

// TestWalkIgnoreFileNotRegular links ignore files to a named pipe, which the
// old walk opened and waited on for good, and to /dev/zero, which it read
// without end: such a file is reported and not applied, and the walk goes on.
func TestWalkIgnoreFileNotRegular(t *testing.T) {
	tests := []struct {
		name   string
		target func(t *testing.T, root string) string // the link's target
		skips  []string                               // the Skips of .gitignore: not applied, not indexed
	}{
		{"link to a named pipe", func(t *testing.T, root string) string {
			if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			return "pipe"
		}, []string{
			".gitignore: unreadable (ignore file not applied: not a regular file (named pipe))",
			".gitignore: unreadable (symlink to a special file (named pipe))",
		}},
		{"link to /dev/zero", func(t *testing.T, _ string) string {
			if _, err := os.Stat("/dev/zero"); err != nil {
				t.Skip("no /dev/zero")
			}
			return "/dev/zero"
		}, []string{
			".gitignore: unreadable (ignore file not applied: not a regular file (device))",
			".gitignore: symlink (points outside the repository)",
		}},
		{"link to a directory", func(*testing.T, string) string { return "sub" }, []string{
			".gitignore: unreadable (ignore file not applied: not a regular file (directory))",
			".gitignore: symlink (symlink to a directory (not followed))",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := fixture(t, map[string]string{"a.txt": "x\n", "sub/b.txt": "x\n"})
			if err := os.Symlink(tt.target(t, root), filepath.Join(root, ".gitignore")); err != nil {
				t.Fatal(err)
			}
			done := make(chan []string, 1)
			go func() {
				var skips []string
				err := Walk(context.Background(), root, Options{}, nil, func(s Skip) {
					if s.Path == ".gitignore" {
						skips = append(skips, s.String())
					}
				})
				if err != nil {
					skips = append(skips, "error: "+err.Error())
				}
				done <- skips
			}()
			select {
			case skips := <-done:
				if diff := cmp.Diff(tt.skips, skips); diff != "" {
					t.Errorf("skips of .gitignore (-want +got):\n%s", diff)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Walk did not finish in 20 s")
			}
		})
	}
}

// TestReadIgnoreLimit checks git's size limit on ignore files.
func TestReadIgnoreLimit(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, ".gitignore")
	if err := os.WriteFile(p, []byte("*.log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, maxIgnoreSize); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	if data, err := readIgnore(p); err != nil || len(data) != ignore.MaxSize+1 {
		t.Errorf("readIgnore of %d bytes = %d bytes, %v; want %d (what ignore.Parse reads, and one byte to see the cut)", maxIgnoreSize, len(data), err, ignore.MaxSize+1)
	}
	if err := os.Truncate(p, maxIgnoreSize+1); err != nil {
		t.Fatal(err)
	}
	if _, err := readIgnore(p); err == nil || err.Error() != "larger than 100 MiB" {
		t.Errorf("readIgnore of %d bytes: error %v, want larger than 100 MiB", maxIgnoreSize+1, err)
	}
}

// TestLinguistGeneratedNames checks that the walk skips a path of each of
// Linguist's generated-file name rules (go-enry's, which the walk does not
// call: see the package comment).
func TestLinguistGeneratedNames(t *testing.T) {
	samples := []string{
		".idea/workspace.xml", "Pods/Alamofire/Source/Session.swift", "Carthage/Build/iOS/A.framework/A",
		"ui/Form1.Designer.cs", "ui/Form1.designer.vb", "features/Login.feature.cs",
		"node_modules/x/y.js", "vendor/github.com/pkg/errors/errors.go",
		"Gopkg.lock", "glide.lock", "poetry.lock", "pdm.lock", "uv.lock", "esy.lock", "app.esy.lock", "deno.lock",
		"npm-shrinkwrap.json", "package-lock.json", "pnpm-lock.yaml", ".pnp.cjs", ".pnp.loader.mjs",
		"Godeps/Godeps.json", "composer.lock", "ext/kernel.zep.c", "ext/kernel.zep.h", "ext/kernel.zep.php",
		"Cargo.lock", "Cargo.toml.orig", "flake.lock", "MODULE.bazel.lock", "Pipfile.lock", ".terraform.lock.hcl",
		"src/__generated__/Query.graphql.ts", "lib/Foo_TLB.pas", "htmlcov/index.html", "db/.sqlx/query-1f2e.json",
		"ui/Main.nib", "App.xcworkspace/contents.xcworkspacedata", "App.xcworkspace/user.xcuserstate",
	}
	// A new rule in go-enry needs a sample here and a name in the walk.
	if got, want := len(data.GeneratedCodeNameMatchers), 31; got != want {
		t.Errorf("go-enry has %d generated name rules, the walk was written for %d", got, want)
	}
	files := map[string]string{}
	for _, p := range samples {
		if !enry.IsGenerated(p, nil) {
			t.Errorf("enry.IsGenerated(%q) = false: not a sample of a Linguist rule", p)
		}
		files[p] = "x\n"
	}
	kept, skips := run(t, fixture(t, files), Options{})
	if len(kept) != 0 {
		t.Errorf("indexed %q, skipped %q", kept, skips)
	}
}
