// Package tokenize turns source text and task text into index terms, the way a
// programmer reads code.
//
// An identifier is kept whole and also split into its parts, so that a query for
// "session" finds SessionManager and a query for "session_manager" finds it too:
//
//	SessionManager    -> sessionmanager, session, manager
//	validate_enrollment -> validate_enrollment, validate, enrollment
//	jwt-utils         -> jwt-utils, jwt, utils
//	HTTPServerError   -> httpservererror, http, server, error
//	django.db.models  -> django.db.models, django, db, models
//	self.max_retries  -> self.max_retries, self, max, retries, max_retries
//
// Splitting happens at '_', '-', '.', at lower→Upper boundaries, at the end of an
// acronym (HTTPServer → HTTP + Server) and between letters and digits only when
// the digits are followed by letters again (utf8Decode → utf8 + decode; v2 stays).
// All terms are lower-cased. Terms shorter than MinLen or longer than MaxLen are
// dropped, as are pure numbers. Stop words are not removed here: IsStopWord lets
// the caller decide (the index keeps every term and lets IDF weigh it; the task
// parser drops stop words from keywords).
//
// All functions are safe for concurrent use.
package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

const (
	// MinLen is the shortest term kept: single letters carry no meaning.
	MinLen = 2
	// MaxLen is the longest term kept: longer runs are hashes, base64 or data.
	MaxLen = 64
)

// Words calls fn for each raw word of text: a maximal run of letters, digits,
// '_', and of '.' or '-' when they join two word characters (so "a.b.c" and
// "jwt-utils" are one word, but "end." is "end"). It does not lower-case.
// Words are substrings of text.
func Words(text string, fn func(word string)) {
	start := -1
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			// ASCII: a table lookup, and a look-ahead of one byte for '.' and '-'.
			word := asciiWord[c]
			if !word && (c == '.' || c == '-') && start >= 0 && i+1 < len(text) {
				if n := text[i+1]; n < utf8.RuneSelf {
					word = asciiWord[n] && n != '_'
				} else {
					next, _ := utf8.DecodeRuneInString(text[i+1:])
					word = isWordRune(next)
				}
			}
			if word {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				fn(text[start:i])
				start = -1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			fn(text[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(text[start:])
	}
}

// asciiWord marks the ASCII word characters: letters, digits and '_'.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = isWordRune(rune(c))
	}
	return t
}()

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Split returns the parts of an identifier, lower-cased, in order, without the
// whole identifier itself. It returns nil when the identifier has one part.
func Split(ident string) []string {
	if !isASCII(ident) {
		return splitRunes(ident)
	}
	var sp splitter
	n := sp.split(ident)
	if n <= 1 {
		return nil
	}
	lower := strings.ToLower(ident)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = lower[sp.parts[2*i]:sp.parts[2*i+1]]
	}
	return parts
}

// Terms calls fn for every index term of text: for each word, the whole word
// lower-cased, then its parts (see Split). Pure numbers and terms outside
// [MinLen, MaxLen] are skipped. A term can be reported more than once. The
// terms stay valid after fn returns (see Scanner for a variant that does not
// allocate).
func Terms(text string, fn func(term string)) {
	var s Scanner
	s.stable = true
	s.Terms(text, fn)
}

// Identifier calls fn for the terms of one identifier: whole, then parts.
func Identifier(ident string, fn func(term string)) {
	var s Scanner
	s.stable = true
	s.Identifier(ident, fn)
}

// A Scanner reports the same terms as Terms and Identifier without allocating
// for ASCII identifiers: a term it reports is lower-cased into the Scanner's
// buffer (or is a substring of the input) and is valid only until fn returns;
// a caller that keeps it must copy it. Non-ASCII identifiers take the Unicode
// path, which allocates. The zero Scanner is ready to use; a Scanner is not
// safe for concurrent use.
type Scanner struct {
	buf    []byte
	sp     splitter
	seg    splitter
	stable bool // report strings that outlive fn (one allocation per lower-cased identifier)
}

// Terms is the package-level Terms with the Scanner's buffers.
func (s *Scanner) Terms(text string, fn func(term string)) {
	Words(text, func(w string) { s.Identifier(w, fn) })
}

// Identifier is the package-level Identifier with the Scanner's buffers.
func (s *Scanner) Identifier(ident string, fn func(term string)) {
	if !isASCII(ident) {
		identifierRunes(ident, fn)
		return
	}
	// The whole identifier: trimmed of separators, lower-cased.
	lo, hi := 0, len(ident)
	for lo < hi && isTrimmed(ident[lo]) {
		lo++
	}
	for hi > lo && isTrimmed(ident[hi-1]) {
		hi--
	}
	trimmed := ident[lo:hi]
	var whole string
	switch {
	case !hasUpper(trimmed):
		whole = trimmed
	case s.stable:
		whole = strings.ToLower(trimmed)
	default:
		s.buf = appendLower(s.buf[:0], trimmed)
		whole = unsafe.String(unsafe.SliceData(s.buf), len(s.buf))
	}
	if keep(whole) {
		fn(whole)
	}
	// The parts lie inside the trimmed identifier (the trimmed bytes are
	// separators), so each lower-cased part is a substring of whole.
	n := s.sp.split(ident)
	if n <= 1 {
		return
	}
	for i := range n {
		p := whole[s.sp.parts[2*i]-lo : s.sp.parts[2*i+1]-lo]
		if p != whole && keep(p) {
			fn(p)
		}
	}
	// The compound segments of a dotted or dashed word, whole:
	// self.max_retries gives max_retries, obj.getName getname.
	if strings.IndexByte(trimmed, '.') < 0 && strings.IndexByte(trimmed, '-') < 0 {
		return
	}
	for i := 0; i < len(trimmed); {
		j := i
		for j < len(trimmed) && trimmed[j] != '.' && trimmed[j] != '-' {
			j++
		}
		a, b := i, j
		for a < b && trimmed[a] == '_' {
			a++
		}
		for b > a && trimmed[b-1] == '_' {
			b--
		}
		if a < b && s.seg.split(trimmed[a:b]) > 1 {
			if p := whole[a:b]; keep(p) {
				fn(p)
			}
		}
		i = j + 1
	}
}

func isTrimmed(c byte) bool { return c == '_' || c == '-' || c == '.' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpperASCII(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigitASCII(c byte) bool { return '0' <= c && c <= '9' }
func isSplitSep(c byte) bool   { return c == '_' || c == '-' || c == '.' || c == '/' || c == '$' }

// splitter finds the parts of an ASCII identifier as byte ranges, with the
// rules of splitRunes.
type splitter struct {
	parts []int // start, end of each part
}

// split fills sp.parts with the parts of ident and returns their number.
func (sp *splitter) split(ident string) int {
	sp.parts = sp.parts[:0]
	for i := 0; i < len(ident); {
		if isSplitSep(ident[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(ident) && !isSplitSep(ident[j]) {
			j++
		}
		sp.splitCase(ident, i, j)
		i = j
	}
	return len(sp.parts) / 2
}

// splitCase splits the separator-free chunk s[lo:hi] at case and digit
// boundaries.
func (sp *splitter) splitCase(s string, lo, hi int) {
	start := lo
	for i := lo + 1; i < hi; i++ {
		prev, cur := s[i-1], s[i]
		boundary := false
		switch {
		case isLowerASCII(prev) && isUpperASCII(cur):
			boundary = true // camelCase
		case isUpperASCII(prev) && isUpperASCII(cur) && i+1 < hi && isLowerASCII(s[i+1]):
			boundary = true // HTTPServer: split before the S
		case isDigitASCII(prev) && isUpperASCII(cur):
			// utf8Decode: split after the 8 only when a letter run preceded.
			j := i - 1
			for j >= lo && isDigitASCII(s[j]) {
				j--
			}
			boundary = j >= lo && (isLowerASCII(s[j]) || isUpperASCII(s[j]))
		}
		if boundary {
			sp.parts = append(sp.parts, start, i)
			start = i
		}
	}
	sp.parts = append(sp.parts, start, hi)
}

// splitRunes is Split for any text, rune by rune.
func splitRunes(ident string) []string {
	var parts []string
	add := func(p string) {
		if p != "" {
			parts = append(parts, strings.ToLower(p))
		}
	}
	// First split on separators, then on case and digit boundaries.
	seps := func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' || r == '$' }
	for _, chunk := range strings.FieldsFunc(ident, seps) {
		splitCase(chunk, add)
	}
	if len(parts) <= 1 {
		return nil
	}
	return parts
}

// splitCase splits one separator-free chunk at case and digit boundaries.
func splitCase(s string, add func(string)) {
	runes := []rune(s)
	start := 0
	for i := 1; i < len(runes); i++ {
		prev, cur := runes[i-1], runes[i]
		boundary := false
		switch {
		case unicode.IsLower(prev) && unicode.IsUpper(cur):
			boundary = true // camelCase
		case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			boundary = true // HTTPServer: split before the S
		case unicode.IsDigit(prev) && unicode.IsLetter(cur) && digitsFollowLetters(runes, i):
			boundary = true // utf8Decode: split after the 8 only when a letter run preceded
		}
		if boundary {
			add(string(runes[start:i]))
			start = i
		}
	}
	add(string(runes[start:]))
}

// digitsFollowLetters reports whether the digit run ending at i-1 is preceded by
// letters and followed by an upper-case letter (utf8Decode), so that v2 or
// base64 stay whole while utf8Decode splits.
func digitsFollowLetters(runes []rune, i int) bool {
	j := i - 1
	for j >= 0 && unicode.IsDigit(runes[j]) {
		j--
	}
	return j >= 0 && unicode.IsLetter(runes[j]) && unicode.IsUpper(runes[i])
}

// identifierRunes is Identifier for any text, rune by rune.
func identifierRunes(ident string, fn func(term string)) {
	trimmed := strings.Trim(ident, "_-.")
	whole := strings.ToLower(trimmed)
	if keep(whole) {
		fn(whole)
	}
	parts := splitRunes(ident)
	for _, p := range parts {
		if p != whole && keep(p) {
			fn(p)
		}
	}
	if len(parts) == 0 || !strings.ContainsAny(trimmed, ".-") {
		return
	}
	for _, seg := range strings.FieldsFunc(trimmed, func(r rune) bool { return r == '.' || r == '-' }) {
		seg = strings.Trim(seg, "_")
		if len(splitRunes(seg)) > 1 {
			if p := strings.ToLower(seg); keep(p) {
				fn(p)
			}
		}
	}
}

func keep(t string) bool {
	if len(t) < MinLen || len(t) > MaxLen {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= utf8.RuneSelf {
			return keepRunes(t[i:])
		}
		if !isDigitASCII(c) && c != '.' && c != '-' && c != '_' {
			return true
		}
	}
	return false
}

func keepRunes(t string) bool {
	for _, r := range t {
		if !unicode.IsDigit(r) && r != '.' && r != '-' && r != '_' {
			return true
		}
	}
	return false
}

// IsStopWord reports whether t (lower-case) is an English or programming stop
// word: too common in tasks and code to say anything about where code lives.
func IsStopWord(t string) bool {
	_, ok := stopWords[t]
	return ok
}

var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`
a about above after again against all also am an and any are aren as at be because been before being
below between both but by can cannot could did didn do does doesn doing don down during each either else
etc even ever every few for from further get gets got had has hasn have haven having he her here hers
herself him himself his how however i if in into is isn it its itself just let like ll me might more most
much must my myself need needs no nor not now of off often on once one only or other our ours ourselves
out over own per please quite rather re really same see seem seems she should shouldn since so some such
than that the their theirs them themselves then there these they this those though through thus to too
under until up upon us use used uses using very via was wasn way we well were weren what when where
whether which while who whom why will with within without won would wouldn yet you your yours yourself
yourselves ve ok okay hi hello thanks thank want wants wanted try tried trying make makes made instead
going able still already actually maybe something anything everything nothing someone anyone thing
things lot lots kind sure currently new old bug bugs fix fixes fixed issue issues problem problems error
errors work works working worked expected actual behavior behaviour happen happens happened following
example examples case cases code version versions line lines file files run runs running return returns
returned call calls called value values true false none null nil self this def func function class
return import from var let const add adding added implement implementing implemented introduce
support supports supported allow allows allowed enable improve improved`) {
		m[w] = struct{}{}
	}
	return m
}()
