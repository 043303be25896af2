package synonym

import (
	"slices"
	"testing"
)

func TestAbbreviated(t *testing.T) {
	tests := []struct {
		word string
		want []string
	}{
		{"temporary", []string{"temp", "tmp"}},
		{"tmp", []string{"temporary", "temp"}},
		{"directories", []string{"dir", "dirs"}}, // by stem
		{"args", []string{"argument", "arg", "argv"}},
		{"error", []string{"err"}},
		{"throttle", nil}, // a concept's other word is not a short form
		{"", nil},
	}
	for _, tt := range tests {
		if got := Abbreviated(tt.word); !slices.Equal(got, tt.want) {
			t.Errorf("Abbreviated(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// TestAbbreviationsWellFormed: every line holds a word and a short form,
// each a lower-case single word.
func TestAbbreviationsWellFormed(t *testing.T) {
	for _, g := range abbreviations {
		if len(g) < 2 {
			t.Errorf("%q: a word without a short form", g)
		}
		for _, w := range g {
			for _, c := range w {
				if c < 'a' || c > 'z' {
					t.Errorf("%q: %q is not a lower-case word", g, w)
					break
				}
			}
		}
	}
}
