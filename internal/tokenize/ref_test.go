package tokenize

// This file keeps the first, rune-by-rune tokenizer verbatim (renamed ref*)
// as the reference the byte-scanning one must match term for term.

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words calls fn for each raw word of text: a maximal run of letters, digits,
// '_', and of '.' or '-' when they join two word characters (so "a.b.c" and
// "jwt-utils" are one word, but "end." is "end"). It does not lower-case.
func refWords(text string, fn func(word string)) {
	start := -1
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		word := refIsWordRune(r)
		if !word && (r == '.' || r == '-') && start >= 0 && i+size < len(text) {
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			word = refIsWordRune(next) && next != '_'
		}
		if word {
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

func refIsWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Split returns the parts of an identifier, lower-cased, in order, without the
// whole identifier itself. It returns nil when the identifier has one part.
func refSplit(ident string) []string {
	var parts []string
	add := func(p string) {
		if p != "" {
			parts = append(parts, strings.ToLower(p))
		}
	}
	// First split on separators, then on case and digit boundaries.
	seps := func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' || r == '$' }
	for _, chunk := range strings.FieldsFunc(ident, seps) {
		refSplitCase(chunk, add)
	}
	if len(parts) <= 1 {
		return nil
	}
	return parts
}

// splitCase splits one separator-free chunk at case and digit boundaries.
func refSplitCase(s string, add func(string)) {
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
		case unicode.IsDigit(prev) && unicode.IsLetter(cur) && refDigitsFollowLetters(runes, i):
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
func refDigitsFollowLetters(runes []rune, i int) bool {
	j := i - 1
	for j >= 0 && unicode.IsDigit(runes[j]) {
		j--
	}
	return j >= 0 && unicode.IsLetter(runes[j]) && unicode.IsUpper(runes[i])
}

// Terms calls fn for every index term of text: for each word, the whole word
// lower-cased, then its parts (see Split). Pure numbers and terms outside
// [MinLen, MaxLen] are skipped. A term can be reported more than once.
func refTerms(text string, fn func(term string)) {
	refWords(text, func(w string) {
		refIdentifier(w, fn)
	})
}

// Identifier calls fn for the terms of one identifier: whole, then parts.
// A dotted or dashed word also gives its compound segments whole.
func refIdentifier(ident string, fn func(term string)) {
	trimmed := strings.Trim(ident, "_-.")
	whole := strings.ToLower(trimmed)
	if refKeep(whole) {
		fn(whole)
	}
	parts := refSplit(ident)
	for _, p := range parts {
		if p != whole && refKeep(p) {
			fn(p)
		}
	}
	if len(parts) == 0 {
		return
	}
	for _, seg := range strings.FieldsFunc(trimmed, func(r rune) bool { return r == '.' || r == '-' }) {
		seg = strings.Trim(seg, "_")
		if seg != trimmed && len(refSplit(seg)) > 1 && refKeep(strings.ToLower(seg)) {
			fn(strings.ToLower(seg))
		}
	}
}

func refKeep(t string) bool {
	if len(t) < MinLen || len(t) > MaxLen {
		return false
	}
	for _, r := range t {
		if !unicode.IsDigit(r) && r != '.' && r != '-' && r != '_' {
			return true
		}
	}
	return false
}
