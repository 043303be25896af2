package refine

import (
	"testing"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/task"
)

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

func TestTeaches(t *testing.T) {
	tests := []struct {
		path        string
		aboutTests  bool
		wantTeaches bool
	}{
		{"app/models.py", false, true},
		{"tests/test_models.py", false, false},
		{"tests/test_models.py", true, true},
		{"docs/guide.md", false, false},
		{"dist/app.js", false, false},
		// Bundled third-party code (indexed with --include-vendored) never teaches.
		{"wwwroot/lib/jquery-validation/dist/jquery.validate.js", false, false},
		{"vendor/github.com/pkg/errors/errors.go", false, false},
		{"tests/vendor/jquery.js", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r := New(nil, &task.Task{MentionsTests: tt.aboutTests}, anchor.Set{}, Options{})
			if got := r.teaches(tt.path); got != tt.wantTeaches {
				t.Errorf("teaches(%q) with MentionsTests=%v = %v, want %v", tt.path, tt.aboutTests, got, tt.wantTeaches)
			}
		})
	}
}
