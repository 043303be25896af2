package secret

import (
	"bytes"
	"testing"
)

// shapesBySearch is shapesIn the plain way, a search per hint: the reference.
func shapesBySearch(content []byte) uint32 {
	var set uint32
	for i, sh := range tokenShapes {
		for _, h := range sh.hints {
			if bytes.Contains(content, []byte(h)) {
				set |= 1 << i
				break
			}
		}
	}
	return set
}

// TestShapesIn: the one-pass scan finds the shapes a search per hint finds,
// with hints at the start, the end, overlapping and cut short.
func TestShapesIn(t *testing.T) {
	texts := []string{"", "a", "SK", "S", "xo", "xox", "://", ":/", "ghp_", "gh", "eyJhb", "x AKIA", "AKI", "BearerAuthorization",
		"hooks.slack.co", "hooks.slack.com", "-----BEGIN PRIVATE KEY-----", "sk-sk-", "_v1__v", "dapidapi", "SG.SK"}
	for _, sh := range tokenShapes {
		for _, h := range sh.hints {
			texts = append(texts, h, "x"+h, h[:len(h)-1], h+h[:1])
		}
	}
	for _, a := range texts {
		for _, b := range []string{"", " ", "glpat-", "npm_"} {
			c := []byte(a + b)
			if got, want := shapesIn(c), shapesBySearch(c); got != want {
				t.Errorf("shapesIn(%q) = %b, want %b", c, got, want)
			}
		}
	}
}

func BenchmarkShapes(b *testing.B) {
	data := bytes.Repeat([]byte("func (s *Server) handle(ctx context.Context, req *http.Request) error { return s.key.check(req.Header) }\n"), 400)
	b.Run("one-pass", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			shapesIn(data)
		}
	})
	b.Run("search-per-hint", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			shapesBySearch(data)
		}
	})
}
