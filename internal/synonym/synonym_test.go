package synonym

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	cases := []struct {
		words []string
		want  []Match
	}{
		{[]string{"rate", "limiting", "api", "endpoints"}, []Match{
			{Words: []string{"rate", "limiting"}, Others: []string{"throttle", "throttling", "ratelimit", "ratelimiter"}}, // limiter: same stem as limiting
			{Words: []string{"endpoints"}, Others: []string{"route", "router", "handler", "view"}},
		}},
		{[]string{"rate"}, nil},
		{[]string{"token", "expiry"}, []Match{
			{Words: []string{"expiry"}, Others: []string{"ttl", "lifetime"}}, // expire, expiration: same stem as expiry
			{Words: []string{"token"}, Others: []string{"jwt", "bearer"}},
		}},
		{nil, nil},
	}
	for _, c := range cases {
		if got := Expand(c.words); !cmp.Equal(got, c.want) {
			t.Errorf("Expand(%q) diff (-got +want):\n%s", c.words, cmp.Diff(got, c.want))
		}
	}
}
