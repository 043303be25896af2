package task

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFrames(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		frames []Frame
		errors []string
		idents []string // must be among Identifiers
		terms  []string // must be among Keywords
	}{
		{
			name: "python",
			text: "Crash on save\n```\nTraceback (most recent call last):\n" +
				"  File \"/usr/lib/python3.9/site-packages/django/db/models/query.py\", line 619, in delete\n" +
				"    collector.collect(del_query)\n" +
				"  File \"/usr/lib/python3.9/unittest/case.py\", line 59, in testPartExecutor\n" +
				"    yield\n" +
				"ValueError: bad cascade in collect_related\n```",
			frames: []Frame{
				{File: "/usr/lib/python3.9/site-packages/django/db/models/query.py", Line: 619, Func: "delete"},
				{File: "/usr/lib/python3.9/unittest/case.py", Line: 59, Func: "testPartExecutor"},
			},
			errors: []string{"ValueError: bad cascade in collect_related"},
			idents: []string{"delete", "ValueError", "collector.collect", "collect_related"},
			terms:  []string{"delete", "query", "valueerror", "cascade", "collect_related"},
		},
		{
			name: "python in prose, windows",
			text: "x\n File \"C:\\Python39\\lib\\site-packages\\pkg\\mod.py\", line 3, in <module>\n\tmain()",
			frames: []Frame{
				{File: "C:/Python39/lib/site-packages/pkg/mod.py", Line: 3, Func: "<module>"},
			},
		},
		{
			name: "ipython before 8.0, windows",
			text: "Lag crashes\n```\nOperationalError        Traceback (most recent call last)\n" +
				"<ipython-input-12-996617e96a38> in <module>\n----> 1 print(q)\n" +
				"C:\\envs\\lib\\site-packages\\django\\db\\backends\\utils.py in _execute(self, sql, params, *ignored)\n" +
				"     85             else:\n---> 86                 return self.cursor.execute(sql, params)\n" +
				"~/lib/python3.7/site-packages/xarray/core/dataset.py in __getitem__(self, key)\n" +
				"OperationalError: near \"OVER\": syntax error\n```",
			frames: []Frame{
				{File: "C:/envs/lib/site-packages/django/db/backends/utils.py", Func: "_execute"},
				{File: "~/lib/python3.7/site-packages/xarray/core/dataset.py", Func: "__getitem__"},
			},
			errors: []string{"OperationalError: near \"OVER\": syntax error"},
		},
		{
			name: "ipython 8",
			text: "x\n```\nFile ~/miniconda3/lib/python3.10/site-packages/xarray/core/dataset.py:1362, in Dataset._construct_dataarray(self, name)\n" +
				"   1360     _, name, variable = _get_virtual_variable(self._variables, name)\n```",
			frames: []Frame{
				{File: "~/miniconda3/lib/python3.10/site-packages/xarray/core/dataset.py", Line: 1362, Func: "Dataset._construct_dataarray"},
			},
		},
		{
			name: "go panic",
			text: "panic: runtime error: invalid memory address or nil pointer dereference\n\n" +
				"goroutine 1 [running]:\n" +
				"github.com/acme/shop/cart.(*Cart).Total(0xc000010000, 0x1)\n" +
				"\t/home/u/shop/cart/cart.go:42 +0x1d\n" +
				"main.main()\n" +
				"\t/home/u/shop/main.go:12 +0x25\n" +
				"runtime.main()\n" +
				"\t/usr/local/go/src/runtime/proc.go:250 +0x207\n",
			frames: []Frame{
				{File: "/home/u/shop/cart/cart.go", Line: 42, Func: "github.com/acme/shop/cart.(*Cart).Total"},
				{File: "/home/u/shop/main.go", Line: 12, Func: "main.main"},
				{File: "/usr/local/go/src/runtime/proc.go", Line: 250, Func: "runtime.main"},
			},
			errors: []string{"panic: runtime error: invalid memory address or nil pointer dereference"},
			idents: []string{"Cart.Total"},
			terms:  []string{"cart.total", "cart", "total", "pointer", "dereference"},
		},
		{
			name:   "go test output",
			text:   "TestTotal fails\n    cart_test.go:31: got 3, want 4\n",
			frames: []Frame{{File: "cart_test.go", Line: 31}},
			terms:  []string{"testtotal", "cart_test"},
		},
		{
			name: "java",
			text: "NPE on checkout\nException in thread \"main\" java.lang.NullPointerException: cart is null\n" +
				"\tat com.acme.shop.CartService.checkout(CartService.java:42)\n" +
				"\tat com.acme.shop.Main$Runner.run(Main.java:10)\n" +
				"\tat java.base/java.lang.Thread.run(Thread.java:829)\n" +
				"\tat sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n" +
				"Caused by: java.io.IOException: disk full\n" +
				"\t... 3 more\n",
			frames: []Frame{
				{File: "com/acme/shop/CartService.java", Line: 42, Func: "com.acme.shop.CartService.checkout"},
				{File: "com/acme/shop/Main.java", Line: 10, Func: "com.acme.shop.Main$Runner.run"},
				{File: "java/lang/Thread.java", Line: 829, Func: "java.lang.Thread.run"},
				{Func: "sun.reflect.NativeMethodAccessorImpl.invoke0"},
			},
			errors: []string{"Exception in thread \"main\" java.lang.NullPointerException: cart is null",
				"Caused by: java.io.IOException: disk full"},
			idents: []string{"CartService.checkout", "Runner.run", "java.lang.NullPointerException"},
			terms:  []string{"cartservice", "checkout", "nullpointerexception"},
		},
		{
			name: "javascript",
			text: "TypeError in render\nTypeError: Cannot read properties of undefined (reading 'name')\n" +
				"    at renderUser (/app/src/components/User.js:10:5)\n" +
				"    at Object.<anonymous> (file:///app/src/index.js:3:1)\n" +
				"    at /app/node_modules/lib/dist/run.js:7:12\n" +
				"    at Module._compile (node:internal/modules/cjs/loader:1105:14)\n",
			frames: []Frame{
				{File: "/app/src/components/User.js", Line: 10, Func: "renderUser"},
				{File: "/app/src/index.js", Line: 3, Func: "Object.<anonymous>"},
				{File: "/app/node_modules/lib/dist/run.js", Line: 7},
				{File: "node:internal/modules/cjs/loader", Line: 1105, Func: "Module._compile"},
			},
			errors: []string{"TypeError: Cannot read properties of undefined (reading 'name')"},
			idents: []string{"renderUser", "TypeError"},
			terms:  []string{"renderuser", "user"},
		},
		{
			name: "rust",
			text: "Panic on empty input\nthread 'main' panicked at src/parser.rs:10:5:\nindex out of bounds\n" +
				"stack backtrace:\n   0: rust_begin_unwind\n" +
				"   3: mycrate::parser::Parser::parse_expr\n             at ./src/parser.rs:10:5\n",
			frames: []Frame{
				{File: "src/parser.rs", Line: 10},
				{File: "./src/parser.rs", Line: 10, Func: "mycrate::parser::Parser::parse_expr"},
			},
			errors: []string{"thread 'main' panicked at src/parser.rs:10:5:"},
			idents: []string{"Parser", "parse_expr"},
			terms:  []string{"parse_expr", "parser"},
		},
		{
			name:   "old rust panic",
			text:   "x\nthread 'main' panicked at 'called `Option::unwrap()` on a `None` value', src/main.rs:4:37",
			frames: []Frame{{File: "src/main.rs", Line: 4}},
		},
		{
			name: "gdb and sanitizer",
			text: "Segfault\n#0  0x00005555 in parse_header (buf=0x0) at src/http/header.c:88\n" +
				"    #1 0x4f5a in main /home/u/proj/main.cc:10:5\n",
			frames: []Frame{
				{File: "src/http/header.c", Line: 88, Func: "parse_header"},
				{File: "/home/u/proj/main.cc", Line: 10, Func: "main"},
			},
			idents: []string{"parse_header"},
			terms:  []string{"parse_header", "header"},
		},
		{
			name: "pytest output",
			text: "Chained exceptions lost\n```\n______ test_chained ______\n\n    def test_chained():\n" +
				">       raise ValueError(11)\nE       ValueError: 11\n\nbasic/test_basic.py:80: ValueError\n```",
			frames: []Frame{{File: "basic/test_basic.py", Line: 80}},
			errors: []string{"E       ValueError: 11"},
			idents: []string{"test_chained", "ValueError"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse(tc.text)
			checkInvariants(t, tc.text, got)
			if d := cmp.Diff(tc.frames, got.Frames); d != "" {
				t.Errorf("Parse(%q).Frames (-want +got):\n%s", tc.text, d)
			}
			if tc.errors != nil {
				if d := cmp.Diff(tc.errors, got.Errors); d != "" {
					t.Errorf("Parse(%q).Errors (-want +got):\n%s", tc.text, d)
				}
			}
			for _, id := range tc.idents {
				if !slices.Contains(got.Identifiers, id) {
					t.Errorf("Parse(%q).Identifiers = %v, want %q among them", tc.text, got.Identifiers, id)
				}
			}
			ks := terms(got)
			for _, w := range tc.terms {
				if !slices.Contains(ks, w) {
					t.Errorf("Parse(%q).Keywords = %v, want %q among them", tc.text, ks, w)
				}
			}
		})
	}
}

func TestStdlibFramesAddNoTerms(t *testing.T) {
	got := Parse("x\n  File \"/usr/lib/python3.7/unittest/case.py\", line 59, in testPartExecutor\n    yield\n")
	if len(got.Frames) != 1 {
		t.Fatalf("Frames = %v, want one", got.Frames)
	}
	if ks := terms(got); slices.Contains(ks, "testpartexecutor") || slices.Contains(ks, "case") {
		t.Errorf("Keywords = %v, want no terms from a standard-library frame", ks)
	}
}

func TestFuncNames(t *testing.T) {
	tests := []struct {
		fn, kind string
		want     []string
	}{
		{"delete", "py", []string{"delete"}},
		{"<module>", "py", nil},
		{"com.acme.CartService.checkout", "java", []string{"CartService.checkout"}},
		{"com.acme.Main$Runner.lambda$run$0", "java", []string{"Runner.run"}},
		{"github.com/a/b/cart.(*Cart).Total", "go", []string{"Cart.Total"}},
		{"main.main", "go", []string{"main"}},
		{"pkg.Handle.func1", "go", []string{"Handle"}},
		{"mycrate::parser::Parser::parse_expr::h0123456789abcdef", "rust", []string{"Parser", "parse_expr"}},
		{"std::vector<int>::push_back", "c", []string{"push_back"}},
		{"async Promise.all", "js", []string{"Promise.all"}},
		{"Foo.bar [as baz]", "js", []string{"Foo.bar"}},
	}
	for _, tc := range tests {
		if got := funcNames(tc.fn, tc.kind); !slices.Equal(got, tc.want) {
			t.Errorf("funcNames(%q, %q) = %q, want %q", tc.fn, tc.kind, got, tc.want)
		}
	}
}
