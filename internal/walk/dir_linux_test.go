//go:build linux

package walk

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestListShortReads lists a large directory trusting short reads as the end
// and not, with a small buffer, and wants the same entries.
func TestListShortReads(t *testing.T) {
	files := map[string]string{}
	for i := range 500 {
		files[fmt.Sprintf("%03d-%s.txt", i, strings.Repeat("n", i%200))] = "x"
	}
	root := fixture(t, files)
	names := func(filled bool, bufSize int) []string {
		d, err := openRoot(root, root)
		if err != nil {
			t.Fatal(err)
		}
		defer d.close()
		d.filled = filled
		ents, err := d.list(make([]byte, bufSize))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range ents {
			out = append(out, e.name)
		}
		slices.Sort(out)
		return out
	}
	want := names(false, direntBufSize)
	if len(want) != len(files) {
		t.Fatalf("listed %d entries, want %d", len(want), len(files))
	}
	for _, size := range []int{direntMax, 4096, direntBufSize} {
		if got := names(true, size); !slices.Equal(got, want) {
			t.Errorf("buffer %d, short reads trusted: %d entries, want %d", size, len(got), len(want))
		}
	}
}
