package history

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPartners(t *testing.T) {
	// Oldest first here; add takes the newest first.
	touched := [][]string{
		{"client/fetch.ts", "server/handler.ts"},
		{"client/fetch.ts", "server/handler.ts", "docs/api.md"},
		{"client/fetch.ts"},
		{"client/fetch.ts", "docs/api.md", "README.md"},
		{"client/fetch.ts", "server/handler.ts"},
		{"server/handler.ts", "server/routes.ts"},
		{"client/fetch.ts", "client/retry.ts"}, // once: a coincidence
	}
	var cs []commit
	for i := len(touched) - 1; i >= 0; i-- {
		cs = append(cs, commit{hash: fmt.Sprintf("%040d", i), time: int64(i), terms: map[string]int32{"x": 1}, files: touched[i]})
	}
	l := &Log{}
	l.add(cs)
	cases := []struct {
		path string
		max  int
		want []Partner
	}{
		{"client/fetch.ts", 10, []Partner{{"server/handler.ts", 3, 6}, {"docs/api.md", 2, 6}}},
		{"client/fetch.ts", 1, []Partner{{"server/handler.ts", 3, 6}}},
		{"server/handler.ts", 10, []Partner{{"client/fetch.ts", 3, 4}}},
		{"server/routes.ts", 10, nil},
		{"nowhere.go", 10, nil},
		{"client/fetch.ts", 0, nil},
	}
	for _, c := range cases {
		if got := l.Partners(c.path, c.max); !cmp.Equal(got, c.want) {
			t.Errorf("Partners(%s, %d) = %+v, want %+v", c.path, c.max, got, c.want)
		}
	}
	for _, c := range []struct {
		path    string
		n, most int
	}{{"client/fetch.ts", 6, 6}, {"server/routes.ts", 1, 6}, {"nowhere.go", 0, 6}} {
		if n, most := l.Touches(c.path); n != c.n || most != c.most {
			t.Errorf("Touches(%s) = %d, %d; want %d, %d", c.path, n, most, c.n, c.most)
		}
	}
	if s := (Partner{Together: 3, Of: 4}).Share(); s != 0.75 {
		t.Errorf("Share = %v, want 0.75", s)
	}
	var nilLog *Log
	if got := nilLog.Partners("a", 3); got != nil {
		t.Errorf("nil log: %v", got)
	}
}
