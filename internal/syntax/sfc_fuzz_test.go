package syntax

import (
	"bytes"
	"os"
	"testing"
)

// FuzzComponent: whatever a component file holds, its code keeps the
// file's length and newlines (so that lines and offsets stay the file's),
// and Extract never panics nor reports a tag past the file's last line.
func FuzzComponent(f *testing.F) {
	for _, p := range []string{"testdata/Profile.vue", "testdata/Counter.svelte", "testdata/Card.astro", "testdata/Empty.vue"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("---\n---\n<script lang=\"ts\">"))
	f.Add([]byte("<script setup lang=tsx>\nconst a = <div/>\n</script>\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, astro := range []bool{false, true} {
			code, _, ok := sfcScript(src, astro)
			if !ok {
				continue
			}
			if len(code) != len(src) {
				t.Fatalf("code is %d bytes, the file %d", len(code), len(src))
			}
			for i, c := range src {
				if (c == '\n') != (code[i] == '\n') {
					t.Fatalf("byte %d: newline moved", i)
				}
				if code[i] != c && code[i] != ' ' {
					t.Fatalf("byte %d: %q became %q", i, c, code[i])
				}
			}
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, p := range []string{"x.vue", "x.svelte", "x.astro"} {
			res, err := Extract(p, src)
			if err != nil {
				t.Fatalf("Extract(%s): %v", p, err)
			}
			for _, tg := range append(res.Defs, res.Refs...) {
				if tg.Line < 1 || tg.Line > lines || tg.End > lines {
					t.Fatalf("Extract(%s): tag %+v outside the file's %d lines", p, tg, lines)
				}
			}
		}
	})
}
