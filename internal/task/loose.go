package task

import (
	"regexp"
	"strings"
)

// Loose code: issue trackers without Markdown (Trac, Bugzilla, mailing
// lists) paste reproducers as plain lines, neither fenced nor indented:
//
//	>>> Client.objects.filter(Q(id=37) ^ Q(id=37)).count()
//	from django.db import models
//	class Book(models.Model):
//	User.objects.annotate(
//
// Read as prose, every name in them would weigh as an identifier the user
// wrote in a sentence (IdentifierWeight), and a reproducer's API calls would
// outweigh the words that say what is wrong. looseCode recognises such lines
// so that they are read as a code block.

var (
	// promptRE: an interactive prompt, Python's or IPython's.
	promptRE = regexp.MustCompile(`^(?:>>>|\.\.\.)(?:\s|$)|^(?:In|Out)\s?\[\d*\]:`)
	// statementRE: a line that can only be a statement: an import, a class
	// or function header, a decorator, a declaration.
	statementRE = regexp.MustCompile(`^(?:from\s+\.*[\w.]+\s+import\s|import\s+[\w.]+(?:\s*,\s*[\w.]+)*(?:\s+as\s+\w+)?\s*;?$|(?:async\s+)?def\s+\w+\s*\(.*:\s*$|class\s+\w+\s*(?:\(.*\))?\s*:\s*$|@[\w.]+(?:\(.*\))?\s*$` +
		// the same in C-family languages, Go, Rust and JavaScript
		`|#include\s*[<"]|use\s+[\w:]+(?:::\{.*\})?\s*;$|package\s+[\w.]+\s*;?$|(?:func|fn|function)\s+[\w.()* ]+\(.*\{\s*$|(?:const|let|var)\s+\w+(?:\s*:\s*[\w<>\[\]]+)?\s*:?=\s*\S.*[;{(,]?$)`)
	// exprRE: an assignment, a call or a chain opening on a name, or a line
	// that opens with a closing bracket (the end of a call split over lines).
	exprRE = regexp.MustCompile(`^(?:[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*(?:[-+*/|&]?=[^=]|\()|[)\]}])`)
	// quotedRE: string literals, whose words are data, not prose.
	quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)
)

// codeKeywords are the words code puts next to other words ("for x in
// xs", "import a as b", "except KeyError as e"); any other two bare words
// in a row are prose.
var codeKeywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("in is not and or for if elif else while try except finally with as " +
		"import from return raise yield lambda assert del pass break continue global nonlocal async await " +
		"def class None True False new package const let var func fn function use pub static struct impl mut") {
		codeKeywords[w] = true
	}
}

// looseCode reports whether a line outside any block reads as code. Only a
// prompt may be indented: an indented line under a stack frame is the
// frame's source line, which the trace reading takes.
func looseCode(line string) bool {
	s := strings.TrimSpace(line)
	if promptRE.MatchString(s) {
		return true
	}
	if s != line[:len(s)] {
		return false
	}
	if strings.HasPrefix(s, "Traceback (") {
		return false // a traceback has its own reading, line by line
	}
	if !statementRE.MatchString(s) && !exprRE.MatchString(s) {
		return false
	}
	if strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "..") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return false // a full stop ends a sentence, not a statement
	}
	return !sentence(s)
}

// sentence reports whether s, its string literals removed, holds two bare
// words in a row that are not code keywords: "Case() crashes with ~Q()" is
// prose that opens with a call.
func sentence(s string) bool {
	s = quotedRE.ReplaceAllString(s, " ")
	run := 0
	for _, f := range strings.Fields(s) {
		f = strings.TrimRight(f, ",.;:!?")
		plain := len(f) >= 2 && !codeKeywords[f]
		for _, r := range f {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '\'') {
				plain = false
				break
			}
		}
		if !plain {
			run = 0
			continue
		}
		if run++; run >= 2 {
			return true
		}
	}
	return false
}
