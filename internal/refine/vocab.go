package refine

import (
	"strings"

	"github.com/hone-dev/hone/internal/pathclass"
	"github.com/hone-dev/hone/internal/tokenize"
)

// Vocabulary: REFINE adds "the codebase's own terms", so it learns words,
// not tokens. A term is not vocabulary when it is
//
//   - a number, or hexadecimal: a colour (0b5ed7), a hash or an id (3f2a9c1),
//     or a hyphenated term with a digit (a CSS class, col-md-4);
//   - a keyword or built-in of a common language (elif, readonly, nameof),
//     or markup (div, href, btn): every file of that language says it;
//   - a stop word, or shorter than three letters.
//
// And a file teaches only when it is the project's own code: not a test,
// document, example, build output or bundled third-party code (pathclass),
// whose words are the code's again or nobody's (generated files are never
// indexed); a test or document teaches when the task is about tests or
// documentation.

// IsVocabulary reports whether a lower-case index term may be learned.
func IsVocabulary(t string) bool {
	if len(t) < 3 || tokenize.IsStopWord(t) || langKeywords[t] {
		return false
	}
	digits, hex := 0, true
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'f':
		default:
			hex = false
		}
	}
	if digits == len(t) || hex && digits > 0 || digits > 0 && strings.Contains(t, "-") {
		return false // 2024, 0b5ed7, 3f2a9c1; col-md-4, utf-8
	}
	return true
}

// teaches reports whether a file's terms may be learned.
func (r *Refiner) teaches(p string) bool {
	switch pathclass.Of(p) {
	case pathclass.Code:
		return true
	case pathclass.Test:
		return r.task.MentionsTests
	case pathclass.Doc:
		return r.task.MentionsDocs
	}
	return false
}

// langKeywords are keywords and ubiquitous built-ins of Python, JavaScript
// and TypeScript, Java, C#, Go, Rust, C and C++, PHP and Ruby that are not
// also domain words (range, select, match, map, type stay: a codebase may
// mean them).
var langKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
elif lambda yield async await pass raise except finally nonlocal global assert cls kwargs args isinstance
typeof instanceof undefined void readonly protected private public internal static override virtual
abstract sealed namespace using nameof foreach throw throws catch extends implements super
const var let func struct impl pub mut crate dyn unsafe defer chan fallthrough goto
bool boolean int int32 int64 uint uint32 uint64 float float32 float64 double char byte long short
unsigned signed sizeof typedef struct enum extern inline constexpr nullptr template typename auto
println printf sprintf fprintf console prototype echo elsif unless endif begin rescue ensure
string str
div span href https http www btn nbsp tbody thead ul li ol nav img src alt px rem
`) {
		m[w] = true
	}
	return m
}()
