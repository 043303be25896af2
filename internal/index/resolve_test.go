package index

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hone-dev/hone/internal/syntax"
)

// handIndex builds an index of files given by path, language and imports,
// without reading anything.
func handIndex(files []File) *Index {
	b := newBuilder(len(files), nil)
	for _, f := range files {
		b.recs = append(b.recs, record{file: f})
	}
	ix := newIndex("/repo", []*segment{b.finish()}, nil, nil)
	ix.resolveGraph(nil, nil)
	return ix
}

var resolveFiles = []File{
	{Path: "src/pkg/__init__.py", Lang: "python", Imports: []string{".models"}},
	{Path: "src/pkg/models/__init__.py", Lang: "python", Imports: []string{"pkg.models.query.QuerySet"},
		Defs: []syntax.Tag{{Name: "Model", Kind: "class"}}},
	{Path: "src/pkg/models/query.py", Lang: "python", Imports: []string{"..utils", ".sql"},
		Defs: []syntax.Tag{{Name: "QuerySet", Kind: "class"}, {Name: "filter", Parent: "QuerySet", Kind: "method"}},
		Refs: []syntax.Tag{{Name: "escape", Kind: "call"}}},
	{Path: "src/pkg/models/sql/__init__.py", Lang: "python"},
	{Path: "src/pkg/utils.py", Lang: "python", Imports: []string{"json", "pkg.models"},
		Defs: []syntax.Tag{{Name: "escape", Kind: "function"}}},
	{Path: "src/pkg/serializers/__init__.py", Lang: "python"},
	{Path: "src/pkg/serializers/json.py", Lang: "python", Defs: []syntax.Tag{{Name: "filter", Kind: "function"}}},
	{Path: "tests/models/test_query.py", Lang: "python", Imports: []string{"pkg.models.query", "models.helpers.make"},
		Refs: []syntax.Tag{{Name: "QuerySet", Kind: "call"}}},
	{Path: "tests/models/helpers.py", Lang: "python"},
	{Path: "web/auth/login.ts", Lang: "typescript", Imports: []string{"./tokens", "../lib", "react", "@/auth/tokens"}},
	{Path: "web/auth/tokens.tsx", Lang: "tsx"},
	{Path: "web/lib/index.js", Lang: "javascript"},
	{Path: "web/components/Login.vue", Lang: "vue", Imports: []string{"../auth/login", "./Field.vue", "vue"}},
	{Path: "web/components/Field.vue", Lang: "vue"},
	{Path: "web/components/Badge.svelte", Lang: "svelte", Imports: []string{"../lib"}},
	{Path: "cmd/tool/main.go", Lang: "go", Imports: []string{"github.com/acme/tool/internal/store", "fmt", "errors"}},
	{Path: "internal/store/store.go", Lang: "go"},
	{Path: "internal/store/disk.go", Lang: "go"},
	{Path: "internal/store/store_test.go", Lang: "go"},
	{Path: "errors/errors.go", Lang: "go"},
	{Path: "java/com/acme/App.java", Lang: "java", Imports: []string{"com.acme.util.Strings", "com.acme.model.*", "java.util.List", "com.acme.util.Strings.join"}},
	{Path: "java/com/acme/util/Strings.java", Lang: "java"},
	{Path: "java/com/acme/model/User.java", Lang: "java"},
	{Path: "java/com/acme/model/Role.java", Lang: "java"},
	{Path: "rs/src/lib.rs", Lang: "rust", Imports: []string{"crate::net::conn::Conn", "std::io"}},
	{Path: "rs/src/net/mod.rs", Lang: "rust", Imports: []string{"self::conn", "super::util"}},
	{Path: "rs/src/net/conn.rs", Lang: "rust", Imports: []string{"super::mod", "super::super::util::trim"}},
	{Path: "rs/src/util.rs", Lang: "rust"},
	// A Cargo workspace: crates beside each other (app-core at the top,
	// app_plugin under crates/), used by their crate names.
	{Path: "app-fm/src/main.rs", Lang: "rust", Imports: []string{"app_core::tab::Folder", "app_core::tab::folder::Folder", "app_plugin::url", "app_core", "serde::Deserialize"}},
	{Path: "app-core/src/lib.rs", Lang: "rust"},
	{Path: "app-core/src/tab/mod.rs", Lang: "rust"},
	{Path: "app-core/src/tab/folder.rs", Lang: "rust"},
	{Path: "crates/app_plugin/src/lib.rs", Lang: "rust"},
	{Path: "crates/app_plugin/src/url.rs", Lang: "rust"},
	{Path: "c/src/main.c", Lang: "c", Imports: []string{"util.h", "net/sock.h", "stdio.h"}},
	{Path: "c/src/util.h", Lang: "c"},
	{Path: "c/include/net/sock.h", Lang: "c"},
}

func TestResolveImport(t *testing.T) {
	ix := handIndex(resolveFiles)
	tests := []struct {
		from, imp string
		want      []string
	}{
		{"src/pkg/__init__.py", ".models", []string{"src/pkg/models/__init__.py"}},
		{"src/pkg/models/__init__.py", "pkg.models.query.QuerySet", []string{"src/pkg/models/query.py"}},
		{"src/pkg/models/query.py", "..utils", []string{"src/pkg/utils.py"}},
		{"src/pkg/models/query.py", ".sql", []string{"src/pkg/models/sql/__init__.py"}},
		{"src/pkg/utils.py", "json", nil}, // serializers/json.py sits inside a package
		{"src/pkg/utils.py", "pkg.models", []string{"src/pkg/models/__init__.py"}},
		{"tests/models/test_query.py", "pkg.models.query", []string{"src/pkg/models/query.py"}},
		{"tests/models/test_query.py", "models.helpers.make", []string{"tests/models/helpers.py"}},
		{"web/auth/login.ts", "./tokens", []string{"web/auth/tokens.tsx"}},
		{"web/auth/login.ts", "../lib", []string{"web/lib/index.js"}},
		{"web/auth/login.ts", "react", nil},
		{"web/auth/login.ts", "@/auth/tokens", []string{"web/auth/tokens.tsx"}},
		{"web/components/Login.vue", "../auth/login", []string{"web/auth/login.ts"}},
		{"web/components/Login.vue", "./Field.vue", []string{"web/components/Field.vue"}},
		{"web/components/Login.vue", "vue", nil},
		{"web/components/Badge.svelte", "../lib", []string{"web/lib/index.js"}},
		{"cmd/tool/main.go", "github.com/acme/tool/internal/store", []string{"internal/store/disk.go", "internal/store/store.go"}},
		{"cmd/tool/main.go", "fmt", nil},
		{"cmd/tool/main.go", "errors", []string{"errors/errors.go"}},
		{"java/com/acme/App.java", "com.acme.util.Strings", []string{"java/com/acme/util/Strings.java"}},
		{"java/com/acme/App.java", "com.acme.model.*", []string{"java/com/acme/model/Role.java", "java/com/acme/model/User.java"}},
		{"java/com/acme/App.java", "java.util.List", nil},
		{"java/com/acme/App.java", "com.acme.util.Strings.join", []string{"java/com/acme/util/Strings.java"}},
		{"rs/src/lib.rs", "crate::net::conn::Conn", []string{"rs/src/net/conn.rs"}},
		{"rs/src/lib.rs", "std::io", nil},
		{"rs/src/net/mod.rs", "self::conn", []string{"rs/src/net/conn.rs"}},
		{"rs/src/net/mod.rs", "super::util", []string{"rs/src/util.rs"}},
		{"rs/src/net/conn.rs", "super::super::util::trim", []string{"rs/src/util.rs"}},
		{"app-fm/src/main.rs", "app_core::tab::Folder", []string{"app-core/src/tab/mod.rs"}}, // the item of module tab
		{"app-fm/src/main.rs", "app_core::tab::folder::Folder", []string{"app-core/src/tab/folder.rs"}},
		{"app-fm/src/main.rs", "app_plugin::url", []string{"crates/app_plugin/src/url.rs"}},
		{"app-fm/src/main.rs", "app_core", []string{"app-core/src/lib.rs"}},
		{"app-fm/src/main.rs", "serde::Deserialize", nil},
		{"c/src/main.c", "util.h", []string{"c/src/util.h"}},
		{"c/src/main.c", "net/sock.h", []string{"c/include/net/sock.h"}},
		{"c/src/main.c", "stdio.h", nil},
	}
	for _, tt := range tests {
		t.Run(tt.from+":"+tt.imp, func(t *testing.T) {
			id, ok := ix.Lookup(tt.from)
			if !ok {
				t.Fatalf("no %s", tt.from)
			}
			got := paths(ix, ix.ResolveImport(id, tt.imp))
			slices.Sort(got)
			if len(got) == 0 {
				got = nil
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ResolveImport(%s, %q) (-want +got):\n%s", tt.from, tt.imp, diff)
			}
		})
	}
}

func TestImportGraph(t *testing.T) {
	ix := handIndex(resolveFiles)
	q, _ := ix.Lookup("src/pkg/models/query.py")
	got := paths(ix, ix.ImportedBy(q))
	want := []string{"src/pkg/models/__init__.py", "tests/models/test_query.py"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ImportedBy(query.py) (-want +got):\n%s", diff)
	}
	got = paths(ix, ix.Imports(q))
	want = []string{"src/pkg/models/sql/__init__.py", "src/pkg/utils.py"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Imports(query.py) (-want +got):\n%s", diff)
	}
}

func TestResolveModule(t *testing.T) {
	ix := handIndex(resolveFiles)
	tests := []struct {
		mod   string
		first string
	}{
		{"pkg.models.query", "src/pkg/models/query.py"},
		{"pkg.models", "src/pkg/models/__init__.py"},
		{"pkg.models.query.QuerySet", "src/pkg/models/query.py"},
		{"web/auth/tokens", "web/auth/tokens.tsx"},
		{"auth/tokens.tsx", "web/auth/tokens.tsx"},
		{"src/pkg/utils.py", "src/pkg/utils.py"},
		{"internal/store", "internal/store/disk.go"},
	}
	for _, tt := range tests {
		got := paths(ix, ix.ResolveModule(tt.mod))
		if len(got) == 0 || got[0] != tt.first {
			t.Errorf("ResolveModule(%q) = %v, want %s first", tt.mod, got, tt.first)
		}
	}
	if got := ix.ResolveModule("nosuch.module"); got != nil {
		t.Errorf("ResolveModule(nosuch.module) = %v", paths(ix, got))
	}
}

func TestDefining(t *testing.T) {
	ix := handIndex(resolveFiles)
	tests := []struct {
		name string
		want []string
	}{
		{"QuerySet", []string{"src/pkg/models/query.py"}},
		{"QuerySet.filter", []string{"src/pkg/models/query.py"}},
		{"filter", []string{"src/pkg/models/query.py", "src/pkg/serializers/json.py"}},
		{"pkg.models.query.QuerySet", []string{"src/pkg/models/query.py"}},
		{"pkg.models.QuerySet", []string{"src/pkg/models/query.py"}}, // re-exported by models/__init__.py
		{"pkg.models.query.QuerySet.filter", []string{"src/pkg/models/query.py"}},
		{"pkg.models.Model", []string{"src/pkg/models/__init__.py"}},
		{"other.QuerySet", []string{"src/pkg/models/query.py"}},
		{"Nothing", nil},
	}
	for _, tt := range tests {
		got := paths(ix, ix.Defining(tt.name))
		if len(got) == 0 {
			got = nil
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Defining(%q) (-want +got):\n%s", tt.name, diff)
		}
	}
	if got := paths(ix, ix.Referencing("QuerySet")); !slices.Equal(got, []string{"tests/models/test_query.py"}) {
		t.Errorf("Referencing(QuerySet) = %v", got)
	}
	if got := paths(ix, ix.Referencing("pkg.utils.escape")); !slices.Equal(got, []string{"src/pkg/models/query.py"}) {
		t.Errorf("Referencing(pkg.utils.escape) = %v", got)
	}
	for _, name := range []string{"QuerySet", "pkg.utils.escape", "NoSuchName"} {
		if n, want := ix.ReferencingCount(name), len(ix.Referencing(name)); n != want {
			t.Errorf("ReferencingCount(%s) = %d, want %d", name, n, want)
		}
	}
}

// TestEncodeRoundTrip checks that tags, imports and the graph survive the
// cache format: a segment's file and the manifest.
func TestEncodeRoundTrip(t *testing.T) {
	ix := handIndex(resolveFiles)
	sg := ix.segs[0]
	sg.name = "index-0-0.seg"
	b, err := sg.encode(extractorPrint())
	if err != nil {
		t.Fatal(err)
	}
	sg.size.Store(int64(len(b)))
	got, err := decodeSegment(b, int64(len(b)), extractorPrint(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sg.files, got.files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	m, err := decodeManifest(ix.encodeManifest(), "/repo")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ix.imports, m.imports, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
	if len(m.segs) != 1 || m.segs[0].name != sg.name || m.segs[0].files != len(sg.files) {
		t.Errorf("manifest segments = %+v", m.segs)
	}
}
