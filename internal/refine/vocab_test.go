package refine

import "testing"

func TestIsVocabulary(t *testing.T) {
	for _, tc := range []struct {
		term string
		want bool
	}{
		{"throttle", true}, {"enrollmentdate", true}, {"ratelimit", true}, {"fluentvalidation", true},
		{"range", true}, {"select", true}, {"decade", true}, {"beef", true}, // all-letter hex is a word
		{"0b5ed7", false}, {"04414d", false}, {"3f2a9c1", false}, {"2024", false}, {"42", false},
		{"col-md-4", false}, {"utf-8", false}, {"div", false}, {"href", false}, {"string", false},
		{"elif", false}, {"readonly", false}, {"nameof", false}, {"typeof", false}, {"the", false}, {"ab", false},
	} {
		if got := IsVocabulary(tc.term); got != tc.want {
			t.Errorf("IsVocabulary(%q) = %v, want %v", tc.term, got, tc.want)
		}
	}
}
