package task

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics and that every Task keeps its
// invariants: keywords lower-case, non-empty, weighted > 0, unique; paths
// and frame files without a line suffix.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"", "Fix the authentication token expiry bug", "`x`", "```\ncode\n```", "<!-- c -->x",
		"File \"a.py\", line 3, in f\nValueError: x", "\tat com.a.B.c(B.java:1)", "at f (/a.js:1:2)",
		"main.main()\n\t/a/main.go:3 +0x1", "thread 'main' panicked at src/main.rs:1:2:", "#0 0x1 in f a.c:3",
		"see src/a/b.py:12:5 and https://github.com/o/r/blob/main/x/y.go#L3", "\xff\xfe", "**Versions**\nnumpy",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	if files, err := filepath.Glob("testdata/*.txt"); err == nil {
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Parse(text)
		if got.Text != text {
			t.Fatalf("Parse(%q).Text = %q, want the input", text, got.Text)
		}
		checkInvariants(t, text, got)
	})
}
