package syntax

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func TestLanguage(t *testing.T) {
	tests := map[string]string{
		"a.py": "python", "a.pyi": "python", "x/y.go": "go", "a.js": "javascript", "a.mjs": "javascript",
		"a.cjs": "javascript", "a.jsx": "javascript", "a.ts": "typescript", "a.mts": "typescript",
		"a.cts": "typescript", "a.tsx": "tsx", "A.java": "java", "a.rs": "rust", "a.c": "c", "a.h": "c",
		"a.cc": "cpp", "a.cpp": "cpp", "a.cxx": "cpp", "a.hpp": "cpp", "a.hh": "cpp", "a.hxx": "cpp",
		"a.cs": "csharp", "a.rb": "ruby", "a.php": "php", "A.PY": "python",
		"README.md": "", "Makefile": "", "a.txt": "", ".py": "python",
		"App.vue": "vue", "x/Counter.svelte": "svelte", "A.VUE": "vue", "src/Card.astro": "astro",
	}
	for p, want := range tests {
		if got := Language(p); got != want {
			t.Errorf("Language(%q) = %q, want %q", p, got, want)
		}
	}
}

// render prints a Result one tag a line, for golden files.
func render(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "lang %s\n", r.Lang)
	if r.Incomplete != "" {
		fmt.Fprintf(&b, "incomplete %s\n", r.Incomplete)
	}
	for _, d := range r.Defs {
		fmt.Fprintf(&b, "def %d-%d %s %s", d.Line, d.End, d.Kind, d.Name)
		if d.Parent != "" {
			fmt.Fprintf(&b, " in %s", d.Parent)
		}
		b.WriteByte('\n')
	}
	for _, d := range r.Refs {
		fmt.Fprintf(&b, "ref %d %s %s\n", d.Line, d.Kind, d.Name)
	}
	for _, i := range r.Imports {
		fmt.Fprintf(&b, "import %s\n", i)
	}
	return b.String()
}

// TestGolden extracts every testdata file and compares with its .golden;
// refresh with -update and review the diff.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*")
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Extract(f, src)
			if err != nil {
				t.Fatalf("Extract(%s): %v", f, err)
			}
			got := render(r)
			golden := f + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("Extract(%s) (-want +got):\n%s", f, diff)
			}
		})
	}
}

func TestExtract(t *testing.T) {
	type def struct {
		Name, Kind, Parent string
		Line               int
	}
	tests := []struct {
		path, src string
		defs      []def    // must be present
		refs      []string // "kind name", must be present
		imports   []string // exactly
	}{
		{
			path: "a.py",
			src: "import os.path, sys as system\nfrom django.db import models, connection as c\nfrom .utils import helper\n" +
				"from .. import sibling\nfrom x import *\n\nclass QuerySet(models.Model):\n    name = models.CharField()\n\n" +
				"    def filter(self):\n        def inner():\n            pass\n        return helper(self)\n\nLIMIT = 3\n",
			defs: []def{{"QuerySet", "class", "", 7}, {"name", "constant", "QuerySet", 8}, {"filter", "method", "QuerySet", 10},
				{"inner", "function", "", 11}, {"LIMIT", "constant", "", 15}},
			refs:    []string{"class Model", "call CharField", "call helper", "import helper", "import models"},
			imports: []string{"os.path", "sys", "django.db", "django.db.models", "django.db.connection", ".utils", ".utils.helper", "..", "..sibling", "x"},
		},
		{
			path:    "a.go",
			src:     "package a\n\nimport (\n\t\"fmt\"\n\tx \"github.com/x/y\"\n)\n\ntype S struct{}\n\ntype I interface{ M() }\n\nfunc (s *S) Run() { fmt.Println(x.Y) }\n\nfunc New() *S { return nil }\n",
			defs:    []def{{"S", "type", "", 8}, {"I", "interface", "", 10}, {"Run", "method", "S", 12}, {"New", "function", "", 14}},
			refs:    []string{"call Println", "type S"},
			imports: []string{"fmt", "github.com/x/y"},
		},
		{
			path:    "a.ts",
			src:     "import { A } from \"./session-manager\";\nexport class AuthService extends Base {\n  login(): void { issueToken(); }\n}\nexport function isExpired(): boolean { return true; }\n",
			defs:    []def{{"AuthService", "class", "", 2}, {"login", "method", "AuthService", 3}, {"isExpired", "function", "", 5}},
			refs:    []string{"call issueToken", "class Base"},
			imports: []string{"./session-manager"},
		},
		{
			path:    "a.js",
			src:     "const x = require('./lib/x');\nfunction main() { x.run(); }\n",
			defs:    []def{{"main", "function", "", 2}},
			refs:    []string{"call run", "import x"},
			imports: []string{"./lib/x"},
		},
		{
			path:    "A.java",
			src:     "package com.foo;\nimport com.foo.util.Helper;\npublic class A {\n  void run() { Helper.go(); }\n}\n",
			defs:    []def{{"A", "class", "", 3}, {"run", "method", "A", 4}},
			refs:    []string{"call go"},
			imports: []string{"com.foo.util.Helper"},
		},
		{
			path:    "a.rs",
			src:     "use crate::auth::tokens;\nuse std::collections::{HashMap, HashSet};\nstruct Pool;\nimpl Pool { fn get(&self) {} }\nfn main() { tokens::check(); }\n",
			defs:    []def{{"Pool", "class", "", 3}, {"get", "method", "Pool", 4}, {"main", "function", "", 5}},
			refs:    []string{"call check", "implementation Pool"},
			imports: []string{"crate::auth::tokens", "std::collections::HashMap", "std::collections::HashSet"},
		},
		{
			path:    "a.c",
			src:     "#include \"pool.h\"\n#include <stdio.h>\nint pool_get(int n) { return helper(n); }\n",
			defs:    []def{{"pool_get", "function", "", 3}},
			refs:    []string{"call helper"},
			imports: []string{"pool.h", "stdio.h"},
		},
		{
			path:    "a.cpp",
			src:     "#include \"conn.hpp\"\nclass Conn {\n  void open();\n  int size() { return 0; }\n};\nvoid Conn::close() { run(); }\n",
			defs:    []def{{"Conn", "class", "", 2}, {"size", "method", "Conn", 4}, {"close", "method", "Conn", 6}},
			refs:    []string{"call run"},
			imports: []string{"conn.hpp"},
		},
		{
			path:    "a.cs",
			src:     "using System.Text;\nnamespace App {\n  class User {\n    void Save() { repo.Store(this); }\n  }\n}\n",
			defs:    []def{{"App", "module", "", 2}, {"User", "class", "App", 3}, {"Save", "method", "User", 4}},
			refs:    []string{"call Store"},
			imports: []string{"System.Text"},
		},
		{
			path:    "a.rb",
			src:     "require 'json'\nrequire_relative 'lib/auth'\nclass Auth < Base\n  def login\n    check(1)\n  end\nend\n",
			defs:    []def{{"Auth", "class", "", 3}, {"login", "method", "Auth", 4}},
			refs:    []string{"call check", "class Base"},
			imports: []string{"json", "./lib/auth"},
		},
		{
			path:    "a.php",
			src:     "<?php\nnamespace App;\nuse App\\Models\\User;\nclass C {\n  public function show() { $u = new User(); helper(); }\n}\n",
			defs:    []def{{"App", "module", "", 2}, {"C", "class", "", 4}, {"show", "method", "C", 5}},
			refs:    []string{"class User", "call helper"},
			imports: []string{`App\Models\User`},
		},
		{path: "notes.txt", src: "just words"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r, err := Extract(tt.path, []byte(tt.src))
			if err != nil {
				t.Fatalf("Extract(%s): %v", tt.path, err)
			}
			if r.Incomplete != "" {
				t.Errorf("Extract(%s).Incomplete = %q", tt.path, r.Incomplete)
			}
			got := map[def]bool{}
			for _, d := range r.Defs {
				got[def{d.Name, d.Kind, d.Parent, d.Line}] = true
			}
			for _, d := range tt.defs {
				if !got[d] {
					t.Errorf("Extract(%s) lacks definition %+v; defs:\n%s", tt.path, d, render(r))
				}
			}
			refs := map[string]bool{}
			for _, x := range r.Refs {
				refs[x.Kind+" "+x.Name] = true
			}
			for _, x := range tt.refs {
				if !refs[x] {
					t.Errorf("Extract(%s) lacks reference %q; refs:\n%s", tt.path, x, render(r))
				}
			}
			if diff := cmp.Diff(tt.imports, r.Imports); diff != "" {
				t.Errorf("Extract(%s).Imports (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestExtractText(t *testing.T) {
	r, err := Extract("README.md", []byte("# hi"))
	if err != nil || r.Lang != "text" || r.Defs != nil || r.Refs != nil || r.Imports != nil {
		t.Errorf("Extract(README.md) = %+v, %v", r, err)
	}
}

func TestExtractBroken(t *testing.T) {
	garbage := []byte("\x00\xff}}}{{{ def class ((( <?php \"unterminated")
	for _, p := range []string{"a.py", "a.go", "a.js", "a.ts", "a.tsx", "A.java", "a.rs", "a.c", "a.cpp", "a.cs", "a.rb", "a.php"} {
		r, err := Extract(p, garbage)
		if err != nil {
			t.Errorf("Extract(%s, garbage) = %v, want no error", p, err)
		}
		if r.Lang != Language(p) {
			t.Errorf("Extract(%s, garbage).Lang = %q", p, r.Lang)
		}
	}

	t.Run("recovers around a syntax error", func(t *testing.T) {
		src := "def ok():\n    pass\n\ndef broken(:\n    pass\n\nclass Later:\n    def m(self):\n        pass\n"
		r, err := Extract("a.py", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if r.Incomplete != "syntax errors" {
			t.Errorf("Incomplete = %q, want syntax errors", r.Incomplete)
		}
		names := map[string]bool{}
		for _, d := range r.Defs {
			names[d.Name] = true
		}
		if !names["ok"] || !names["Later"] {
			t.Errorf("defs around the error lost: %s", render(r))
		}
	})

	t.Run("too large", func(t *testing.T) {
		r, err := Extract("a.py", make([]byte, MaxParseSize+1))
		if err != nil || r.Incomplete != "too large to parse" || r.Lang != "python" {
			t.Errorf("Extract(huge) = %+v, %v", r, err)
		}
	})
}

// TestExtractConcurrent runs Extract from many goroutines over every
// language (run with -race): results must equal the sequential ones.
func TestExtractConcurrent(t *testing.T) {
	files, _ := filepath.Glob("testdata/*")
	type job struct {
		path string
		src  []byte
		want string
	}
	var jobs []job
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		src, _ := os.ReadFile(f)
		r, _ := Extract(f, src)
		jobs = append(jobs, job{f, src, render(r)})
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				j := jobs[(g+i)%len(jobs)]
				r, err := Extract(j.path, j.src)
				if err != nil || render(r) != j.want {
					t.Errorf("concurrent Extract(%s) differs: %v", j.path, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestNormalise(t *testing.T) {
	rust := map[string][]string{
		"a::b":                         {"a::b"},
		"a::{b, c::{d, e as f}, self}": {"a::b", "a::c::d", "a::c::e", "a"},
		"a::*":                         {"a"},
		"{a, b}":                       {"a", "b"},
		"a as b":                       {"a"},
	}
	for in, want := range rust {
		if got := rustUse(in); !cmp.Equal(got, want) {
			t.Errorf("rustUse(%q) = %q, want %q", in, got, want)
		}
	}
	last := map[string]string{
		"django.db.models": "models", ".utils": "utils", "..": "", "./auth": "auth", "./auth.js": "auth",
		"github.com/x/y": "y", "crate::a::b": "b", "stdio.h": "stdio", `App\Models\User`: "User", "x": "x",
		"sys/types.h": "types", "java.util": "util",
	}
	for in, want := range last {
		if got := lastSegment(in); got != want {
			t.Errorf("lastSegment(%q) = %q, want %q", in, got, want)
		}
	}
	quotes := map[string]string{`"a"`: "a", `'a'`: "a", "<a.h>": "a.h", "`a`": "a", `"a'`: `"a'`, "a": "a"}
	for in, want := range quotes {
		if got := unquote(in); got != want {
			t.Errorf("unquote(%q) = %q, want %q", in, got, want)
		}
	}
}
