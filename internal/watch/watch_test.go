package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func write(t *testing.T, root, p, text string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestChanges(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a/b/x.py", "x = 1\n")
	write(t, root, "a/y.py", "y = 1\n")
	write(t, root, "build/out.py", "o = 1\n")
	write(t, root, ".git/HEAD", "ref\n")
	w, err := New(root, []string{"build"})
	if err != nil {
		t.Skipf("no watcher here: %v", err)
	}
	defer w.Close()
	if n := w.Watches(); n != 3 { // the root, a, a/b
		t.Errorf("Watches() = %d, want 3", n)
	}
	got := func() []string {
		t.Helper()
		p, ok := w.Changes()
		if !ok {
			t.Fatal("Changes: incomplete set")
		}
		slices.Sort(p)
		return p
	}
	if p := got(); len(p) != 0 {
		t.Errorf("nothing changed: Changes() = %v", p)
	}
	// Each edit is seen by the very next call: the barrier orders them.
	for i := range 20 {
		write(t, root, "a/b/x.py", "x = "+string(rune('a'+i))+"\n")
		if p := got(); !slices.Equal(p, []string{"a/b/x.py"}) {
			t.Fatalf("edit %d: Changes() = %v, want [a/b/x.py]", i, p)
		}
	}
	write(t, root, "build/out.py", "o = 2\n")
	write(t, root, ".git/HEAD", "other\n")
	if p := got(); len(p) != 0 {
		t.Errorf("changes in left-out directories: Changes() = %v", p)
	}
	os.Remove(filepath.Join(root, "a/y.py"))
	if p := got(); !slices.Equal(p, []string{"a/y.py"}) {
		t.Errorf("removal: Changes() = %v", p)
	}
	// A new directory is watched from its creation on.
	write(t, root, "c/d/z.py", "z = 1\n")
	if p := got(); !slices.Contains(p, "c") {
		t.Errorf("new directory: Changes() = %v, want c among them", p)
	}
	write(t, root, "c/d/z.py", "z = 2\n")
	if p := got(); !slices.Equal(p, []string{"c/d/z.py"}) {
		t.Errorf("edit in a new directory: Changes() = %v", p)
	}
	w.Close()
	if _, ok := w.Changes(); ok {
		t.Error("Changes after Close reports a complete set")
	}
}
