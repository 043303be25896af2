package tokenize

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func collect(f func(string, func(string)), s string) []string {
	var out []string
	f(s, func(t string) { out = append(out, t) })
	return out
}

func TestIdentifier(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"SessionManager", []string{"sessionmanager", "session", "manager"}},
		{"validate_enrollment", []string{"validate_enrollment", "validate", "enrollment"}},
		{"jwt-utils", []string{"jwt-utils", "jwt", "utils"}},
		{"HTTPServerError", []string{"httpservererror", "http", "server", "error"}},
		{"django.db.models", []string{"django.db.models", "django", "db", "models"}},
		{"utf8Decode", []string{"utf8decode", "utf8", "decode"}},
		{"base64", []string{"base64"}},
		{"x", nil},
		{"__init__", []string{"init"}},
		{"1234", nil},
		{"getHTTP2Client", []string{"gethttp2client", "get", "http2", "client"}},
		// A dotted or dashed word also gives its compound segments whole.
		{"app.config.autodoc_typehints", []string{"app.config.autodoc_typehints", "app", "config", "autodoc", "typehints", "autodoc_typehints"}},
		{"self._maxRetries", []string{"self._maxretries", "self", "max", "retries", "maxretries"}},
		{"über.grün_blau", []string{"über.grün_blau", "über", "grün", "blau", "grün_blau"}},
	}
	for _, c := range cases {
		if got := collect(Identifier, c.in); !cmp.Equal(got, c.want) {
			t.Errorf("Identifier(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"Fix the token-expiry bug.", []string{"Fix", "the", "token-expiry", "bug"}},
		{"call a.b.c() now", []string{"call", "a.b.c", "now"}},
		{"end. Next", []string{"end", "Next"}},
		{"über_straße ok", []string{"über_straße", "ok"}},
		{"", nil},
	}
	for _, c := range cases {
		if got := collect(Words, c.in); !cmp.Equal(got, c.want) {
			t.Errorf("Words(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestStem(t *testing.T) {
	groups := [][]string{
		{"expiry", "expired", "expires", "expire", "expiration"},
		{"authentication", "authenticate", "authenticated", "authenticates"},
		{"limit", "limits", "limiting", "limiter", "limited"},
		{"token", "tokens"},
		{"throttle", "throttling", "throttled"},
		{"validation", "validate", "validator"},
	}
	for _, g := range groups {
		want := Stem(g[0])
		for _, w := range g[1:] {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q, want %q (the stem of %q)", w, got, want, g[0])
			}
		}
	}
	for _, w := range []string{"class", "status", "axis", "get_item", "api"} {
		if got := Stem(w); got != w {
			t.Errorf("Stem(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestIsStopWord(t *testing.T) {
	for _, w := range []string{"the", "fix", "bug", "should"} {
		if !IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = false", w)
		}
	}
	for _, w := range []string{"token", "session", "queryset"} {
		if IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = true", w)
		}
	}
}
