package tokenize

import "strings"

// stemSuffixes are stripped by Stem, longest first. The list is a light
// English stemmer in the spirit of Porter's, tuned to the words of tasks and
// code: it conflates expiry/expired/expires/expiration, authenticate/
// authentication/authenticated, limit/limits/limiting/limiter, and leaves
// short words and identifiers with separators alone.
var stemSuffixes = []string{
	"izations", "ization", "ational", "ations", "ation", "ators", "ator",
	"ements", "ement", "ments", "ment", "ness", "ities", "ity",
	"ables", "able", "ibles", "ible", "ings", "ing", "ated", "ates", "ate",
	"ions", "ion", "ers", "er", "ors", "or", "ies", "ied", "es", "ed", "ly", "al", "s", "y", "e",
}

// minStem is the shortest stem Stem leaves: shorter ones conflate unrelated words.
const minStem = 4

// Stem returns the light stem of a lower-case word. Words with separators
// ('_', '-', '.') and words of fewer than minStem+1 letters are returned
// unchanged; "ss", "us" and "is" endings keep their s (class, status, axis).
func Stem(w string) string {
	if len(w) <= minStem || strings.ContainsAny(w, "_-.") {
		return w
	}
	if strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is") {
		return w
	}
	for _, s := range stemSuffixes {
		if strings.HasSuffix(w, s) && len(w)-len(s) >= minStem {
			w = w[:len(w)-len(s)]
			break
		}
	}
	// A doubled final consonant (running → runn, mapped → mapp) is undoubled.
	if n := len(w); n > minStem && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}
