package task

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hone-dev/hone/internal/tokenize"
)

// parser holds the state of one Parse.
type parser struct {
	terms  map[string]*acc
	seq    int
	idents ranked
	dotted ranked
	spans  ranked
	paths  ranked
	errors ranked
	frames []Frame
	title  string
	framed map[Frame]bool
	tests  bool
	docs   bool
	config bool
	// oneLine: the task is one line, every word of it chosen (see
	// softStop); aside: the softStop words it uses as a circumstance
	// ("after an error"), which stay stop words.
	oneLine bool
	aside   map[string]bool

	cache      map[string][]string // word -> its terms
	identCache map[string]bool     // word -> isIdentifier
	wordBuf    []wordAt

	// State carried from one line to the next.
	pyFrame  bool   // the previous line was a Python frame: this one is its source line
	ipyFrame bool   // the previous line was an IPython frame or one of its numbered source lines
	goFunc   string // the previous line looked like a Go frame's function
	rustFunc string // the previous line was a numbered Rust backtrace function
}

func newParser() *parser {
	return &parser{terms: map[string]*acc{}, framed: map[Frame]bool{}, cache: map[string][]string{},
		identCache: map[string]bool{}}
}

var (
	htmlComment = regexp.MustCompile(`(?s)<!--.*?(?:-->|$)`)
	zeroWidth   = strings.NewReplacer("\u200b", "", "\ufeff", "", "\u200c", "", "\u200d", "", "\r\n", "\n", "\r", "\n")
)

// prepare caps, repairs and normalises the text and removes HTML comments.
func prepare(text string) string {
	if len(text) > MaxParseBytes {
		cut := strings.LastIndexByte(text[:MaxParseBytes], '\n')
		if cut < MaxParseBytes/2 {
			cut = MaxParseBytes
		}
		text = text[:cut]
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	text = zeroWidth.Replace(text)
	if strings.Contains(text, "<!--") {
		text = htmlComment.ReplaceAllString(text, "")
	}
	return text
}

var (
	fenceRE    = regexp.MustCompile("^\\s{0,3}(```+|~~~+)")
	headingRE  = regexp.MustCompile(`^\s{0,3}(?:#{1,6}\s+(.*?)\s*#*|\*\*([^*]+)\*\*:?|__([^_]+)__:?|<summary>(.*?)</summary>)\s*$`)
	envRE      = regexp.MustCompile(`(?i)^(?:your |the |my )?(?:environment|system(?: info(?:rmation)?| details)?|platform(?: info(?:rmation)?)?|installed versions|dependencies|.*\bversions?(?: info(?:rmation)?)?|output of .*(?:show_versions|show_config|pip freeze|pip list|conda list|version).*|pip (?:freeze|list)|conda list)\s*:?$`)
	checkRE    = regexp.MustCompile(`(?i)^\s*[-*+]\s*\[[ xX]?\]\s*(?:i |i'|i’|my |this |there |the issue|searched|checked|confirmed|read |tested|included|provided|verified)`)
	modifiedRE = regexp.MustCompile(`^\s*\(last modified by [^)]*\)\s*$`)
	listRE     = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s`)
)

// run parses the cleaned text.
func (p *parser) run(text string) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if len(l) > MaxLineBytes {
			lines[i] = strings.ToValidUTF8(l[:MaxLineBytes], "")
		}
	}
	nonEmpty := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			nonEmpty++
		}
	}
	p.oneLine = nonEmpty == 1
	if p.oneLine {
		p.aside = asides(text)
	}
	title := -1
	for i, l := range lines {
		if s := strings.TrimSpace(l); s != "" {
			if len(s) <= MaxTitleLen && !fenceRE.MatchString(l) {
				title = i
				p.title = s
			}
			break
		}
	}
	var (
		block    []string // the current fenced or indented block
		fence    string   // the open fence marker, "" outside a fence
		indented bool     // block is an indented block
		env      bool     // inside an environment section
		blank    = true   // the previous line was blank
	)
	flush := func() {
		if len(block) > 0 && !env {
			p.codeBlock(block)
		}
		block, indented = nil, false
	}
	for i, line := range lines {
		if fence != "" {
			if t := strings.TrimSpace(line); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				flush()
				fence = ""
				continue
			}
			block = append(block, line)
			continue
		}
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			flush()
			fence = m[1]
			blank = false
			continue
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			blank = true
			p.resetLineState()
			continue
		}
		if isIndented(line) && (indented || blank) && !listRE.MatchString(line) {
			if !indented {
				flush()
			}
			block, indented = append(block, line), true
			blank = false
			continue
		}
		if i != title && looseCode(line) {
			// An unfenced reproducer line: it and what follows indented
			// under it are a code block.
			if !indented {
				flush()
			}
			block, indented = append(block, line), true
			blank = false
			continue
		}
		if indented {
			flush()
		}
		blank = false
		f := 1.0
		if i == title {
			f = TitleFactor
		}
		if m := heading(line); m != nil && i != title {
			h := strings.TrimSpace(m[1] + m[2] + m[3] + m[4])
			env = envRE.MatchString(strings.Trim(h, " :*_"))
			if env {
				continue
			}
			p.proseLine(line, next(lines, i), f, true)
			continue
		}
		if env || strings.Contains(line, "[") && checkRE.MatchString(line) ||
			strings.Contains(line, "(last modified") && modifiedRE.MatchString(line) {
			continue
		}
		p.proseLine(line, next(lines, i), f, false)
	}
	flush()
}

// heading matches a heading line: # Title, **Title**, __Title__, <summary>.
func heading(line string) []string {
	t := strings.TrimLeft(line, " ")
	if t == "" || !strings.ContainsRune("#*_<", rune(t[0])) {
		return nil
	}
	return headingRE.FindStringSubmatch(line)
}

// next returns the line after lines[i], or "".
func next(lines []string, i int) string {
	if i+1 < len(lines) {
		return lines[i+1]
	}
	return ""
}

func isIndented(line string) bool {
	return strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
}

func (p *parser) resetLineState() {
	p.pyFrame, p.ipyFrame, p.goFunc, p.rustFunc = false, false, "", ""
}

// codeBlock parses the lines of a fenced or indented block.
func (p *parser) codeBlock(lines []string) {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	f := 1.0
	if n > BlockFullLines {
		f = math.Max(MinBlockFactor, math.Sqrt(float64(BlockFullLines)/float64(n)))
	}
	p.resetLineState()
	for j, l := range lines {
		if strings.TrimSpace(l) == "" {
			p.resetLineState()
			continue
		}
		if p.traceLine(l, next(lines, j), f) {
			continue
		}
		l = p.locations(l, f)
		p.words(l, f*CodeWordWeight, f*CodeIdentWeight, OriginCode, OriginCode)
	}
	p.resetLineState()
}

var (
	imageRE   = regexp.MustCompile(`!\[[^\]]*\]\([^)]*\)`)
	linkRE    = regexp.MustCompile(`\[([^\]]*)\]\([^)\s]*\)`)
	urlRE     = regexp.MustCompile(`(?i)\b(?:https?|ftp|file)://[^\s<>"'` + "`" + `)\]]+|\bwww\.[^\s<>"')\]]+`)
	blobRE    = regexp.MustCompile(`(?i)^(?:https?://)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/[^/]+/[^/]+/(?:-/)?(?:blob|tree|raw|src)/[^/]+/([^?#]+)|^https?://raw\.githubusercontent\.com/[^/]+/[^/]+/[^/]+/([^?#]+)`)
	tagRE     = regexp.MustCompile(`(?i)</?(?:details|summary|br|p|pre|code|b|i|em|strong|sub|sup|img|a|div|span|hr|ul|ol|li|table|thead|tbody|tr|td|th|kbd|blockquote|h[1-6]|tt|del|ins|s|u)\b[^>]*>`)
	entities  = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`, "&#39;", "'", "&nbsp;", " ")
	spanRE    = regexp.MustCompile("(`+)([^`]+?)`+")
	testAskRE = regexp.MustCompile(`(?i)\b(?:(?:add|adds|adding|added|write|writing|create|creating|fix|fixes|fixing|update|updating|improve|extend|expand|increase|missing|need|needs|lacks?|more|new)\s+(?:(?:a|an|the|some|more|new|missing|failing|broken|flaky|existing|proper|additional|corresponding|appropriate|these|this|those|that|its|our|unit|integration|regression|e2e|end-to-end|snapshot)\s+){0,3}(?:tests?|test ?cases?|test coverage|test suites?|specs?)\b|\b(?:tests|test cases|(?:a|an|unit|regression|integration|e2e)\s+tests?)\s+(?:for|to cover|covering)\b|\btest coverage\b|\bunit[ -]tests?\b)`)
	// configRE: the task is about settings, manifests, dependencies or CI.
	configRE = regexp.MustCompile(`(?i)\b(?:ci|workflows?|pipelines?|github actions?|ya?ml|toml|json|xml|ini|manifests?|dependenc(?:y|ies)|deps|lint(?:er|ing)?|eslint|prettier|tsconfig|dockerfile|docker|renovate|dependabot|config|configuration|settings file|setup\.cfg|pyproject|gradle|pom|makefile|editorconfig)\b`)
	docsRE   = regexp.MustCompile(`(?i)\b(?:(?:add|adds|adding|added|write|writing|fix|fixes|fixing|update|updating|improve|improving|clarify|clarifying|correct|extend|expand|rewrite|missing|incorrect|wrong|outdated|inaccurate|misleading|typos?|mistakes?|errors?)\s+(?:in\s+|to\s+|for\s+|of\s+)?(?:(?:a|an|the|some|more|new|this|that|its|our|api|user|reference|existing|relevant|corresponding)\s+){0,3}(?:documentation|docs|docstrings?|readme|changelog|guide|tutorial|demos?|examples?)\b|^\s*docs?(?:\([^)]*\))?:)`)
)

// proseLine parses a line of prose; f scales its weights (the title).
func (p *parser) proseLine(line, nextLine string, f float64, heading bool) {
	if p.traceLine(line, nextLine, f) {
		return
	}
	if strings.Contains(line, "&") {
		line = entities.Replace(line)
	}
	if strings.Contains(line, "](") {
		line = imageRE.ReplaceAllString(line, " ")
		line = linkRE.ReplaceAllString(line, "$1")
	}
	if strings.Contains(line, "<") {
		line = tagRE.ReplaceAllString(line, " ")
	}
	if strings.Contains(line, "`") {
		line = spanRE.ReplaceAllStringFunc(line, func(s string) string {
			p.codeSpan(spanRE.FindStringSubmatch(s)[2], f)
			return " "
		})
	}
	if strings.Contains(line, "://") || strings.Contains(line, "www.") {
		line = urlRE.ReplaceAllStringFunc(line, func(u string) string {
			if m := blobRE.FindStringSubmatch(u); m != nil {
				path := m[1] + m[2]
				if looksLikePath(path) {
					p.path(path, f)
				}
			}
			return " "
		})
	}
	line = p.prosePaths(line, f)
	if !p.config && configRE.MatchString(line) {
		p.config = true
	}
	if !p.tests || !p.docs {
		low := strings.ToLower(line)
		if !p.tests && strings.Contains(low, "test") && testAskRE.MatchString(line) {
			p.tests = true
		}
		if !p.docs && (strings.Contains(low, "doc") || strings.Contains(low, "readme") || strings.Contains(low, "changelog") ||
			strings.Contains(low, "guide") || strings.Contains(low, "tutorial") || strings.Contains(low, "demo") ||
			strings.Contains(low, "example")) {
			p.docs = docsRE.MatchString(line)
		}
	}
	wordW := f * WordWeight
	if heading {
		wordW = -1 // heading words are template words unless they look like code
	}
	p.words(line, wordW, f*IdentifierWeight, OriginWord, OriginIdentifier)
}

// codeSpan parses the content of an `inline code` span.
func (p *parser) codeSpan(s string, f float64) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	p.spans.add(s, 0)
	if looksLikePath(s) {
		p.path(s, f)
		return
	}
	if p.traceLine(s, "", f) {
		return
	}
	single := 0
	tokenize.Words(s, func(string) { single++ })
	if single == 1 {
		// A span of one word is an identifier whatever its shape: `filter`.
		tokenize.Words(s, func(w string) { p.ident(w, f*CodeSpanWeight, OriginCode) })
		return
	}
	p.words(s, f*CodeSpanWeight, f*CodeSpanWeight, OriginCode, OriginCode)
}

// words emits the terms of text: identifiers with identW and identOrigin,
// other words with wordW and wordOrigin (a negative wordW drops them).
func (p *parser) words(text string, wordW, identW float64, wordOrigin, identOrigin string) {
	if strings.Contains(text, "://") {
		text = urlRE.ReplaceAllString(text, " ")
	}
	ws := p.wordBuf[:0]
	n, cur := 0, 0
	tokenize.Words(text, func(w string) {
		at := cur + strings.Index(text[cur:], w)
		cur = at + len(w)
		id := p.isIdent(w)
		if id {
			n++
		}
		ws = append(ws, wordAt{w, cur < len(text) && text[cur] == '(', id})
	})
	p.wordBuf = ws[:0]
	if n > DenseLineIdents {
		// A line dense with names is output (SQL, reprs, logs), not a sentence.
		f := math.Max(MinBlockFactor, math.Sqrt(float64(DenseLineIdents)/float64(n)))
		wordW, identW = wordW*f, identW*f
	}
	for _, x := range ws {
		w, called := x.word, x.called
		switch {
		case !called && strings.Contains(w, ".") && looksLikePath(w):
			p.pathTerms(w, identW, 0, identOrigin) // a file name in code or output: settings.py
		case x.ident || (called && keepWord(w)):
			p.ident(w, identW, identOrigin)
		case strings.ContainsAny(w, ".-"):
			// Hyphenated prose (built-in) and dotted non-names (v1.2, e.g):
			// their letter-led parts are words.
			for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '.' || r == '-' }) {
				if part != "" && !unicode.IsDigit(rune(part[0])) {
					p.word(part, wordW, wordOrigin)
				}
			}
		default:
			p.word(w, wordW, wordOrigin)
		}
	}
}

// wordAt is a word of a line: whether a '(' follows it, whether it is
// written as an identifier.
type wordAt struct {
	word          string
	called, ident bool
}

func keepWord(w string) bool {
	t := strings.ToLower(w)
	return len(t) >= tokenize.MinLen && !isStop(t)
}

// word adds a plain word.
func (p *parser) word(w string, weight float64, origin string) {
	if weight <= 0 {
		return
	}
	if ts := p.termsOf(w); len(ts) > 0 && ts[0] == wholeOf(w) { // whole only: a plain word's parts say no more
		p.add(ts[0], weight, origin)
	}
}

// receivers are dropped from the front of dotted names.
var receivers = []string{"self.", "cls.", "this.", "Self::", "self::"}

// ident adds an identifier as written: its terms, and its name to the lists.
func (p *parser) ident(w string, weight float64, origin string) {
	for _, r := range receivers {
		w = strings.TrimPrefix(w, r)
	}
	w = strings.Trim(w, ".-")
	if w == "" || isStop(strings.ToLower(strings.Trim(w, "_"))) {
		return
	}
	if strings.Contains(w, ".") {
		comps := strings.Split(w, ".")
		p.add(strings.ToLower(w), weight*DottedBonus, origin)
		for i, c := range comps {
			if i == 0 && len(comps) > 2 && !startsUpper(c) {
				p.identTerms(c, weight*PartFactor, origin) // the root package (django, sklearn) says little
				continue
			}
			p.identTerms(c, weight, origin)
		}
		p.dotted.add(w, weight*DottedBonus)
		p.idents.add(w, weight*DottedBonus)
		return
	}
	p.identTerms(w, weight, origin)
	p.idents.add(w, weight)
}

// identTerms adds the whole of a one-part identifier at weight and its parts
// at weight·PartFactor.
func (p *parser) identTerms(w string, weight float64, origin string) {
	for i, t := range p.termsOf(w) {
		if i == 0 && t == wholeOf(w) {
			p.add(t, weight, origin)
		} else {
			p.add(t, weight*PartFactor, origin)
		}
	}
}

func wholeOf(w string) string { return strings.ToLower(strings.Trim(w, "_-.")) }

// termsOf returns tokenize.Identifier's terms of w, the whole first, cached:
// tasks repeat their words.
func (p *parser) termsOf(w string) []string {
	if ts, ok := p.cache[w]; ok {
		return ts
	}
	var ts []string
	tokenize.Identifier(w, func(t string) { ts = append(ts, t) })
	p.cache[w] = ts
	return ts
}

// isIdent is isIdentifier, cached.
func (p *parser) isIdent(w string) bool {
	if v, ok := p.identCache[w]; ok {
		return v
	}
	v := isIdentifier(w)
	p.identCache[w] = v
	return v
}

// add records one occurrence of a term.
func (p *parser) add(t string, w float64, origin string) {
	if w <= 0 || t == "" || isNoise(t) {
		return
	}
	if isStop(t) && !(p.oneLine && softStop[t] && !p.aside[t]) {
		return
	}
	a := p.terms[t]
	if a == nil {
		a = &acc{first: p.seq}
		p.seq++
		p.terms[t] = a
	}
	a.count++
	if w > a.base {
		a.base = w
		if origin != "" || a.origin == "" {
			a.origin = origin
		}
	}
}

// isIdentifier reports whether a word is written as code: snake_case,
// camelCase, HTTPServer or a dotted name.
func isIdentifier(w string) bool {
	if strings.Contains(w, ".") {
		return isDotted(w)
	}
	if strings.Contains(w, "-") {
		return false
	}
	if strings.Contains(w, "_") {
		return strings.Trim(w, "_") != "" && hasLetter(w)
	}
	if len(w) >= 3 && w[len(w)-1] == 's' && isUpper(w[:len(w)-1]) {
		return false // URLs, APIs
	}
	return len(tokenize.Split(w)) >= 2
}

func isUpper(s string) bool {
	for _, r := range s {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// tlds end dotted words that are host names, not code.
var tlds = map[string]bool{"com": true, "org": true, "net": true, "io": true, "dev": true, "edu": true, "gov": true}

// isDotted reports whether w is a dotted name: two or more parts that each
// start with a letter or '_', not all of one letter (e.g, i.e), not a host name.
func isDotted(w string) bool {
	parts := strings.Split(w, ".")
	if len(parts) < 2 || tlds[parts[len(parts)-1]] || len(parts) == 2 && parts[1] == "js" && jsProducts[strings.ToLower(parts[0])] {
		return false // github.com, Node.js
	}
	long := false
	for _, s := range parts {
		if s == "" {
			return false
		}
		r, _ := utf8.DecodeRuneInString(s)
		if !(unicode.IsLetter(r) || r == '_' || r == '$') || strings.Contains(s, "-") {
			return false
		}
		if utf8.RuneCountInString(s) > 1 {
			long = true
		}
	}
	return long
}

// softStop are the stop words that also name what code is made of (an
// error, a file, a line, a value; nouns, not verbs such as returns or
// throw, which a task uses as verbs more often): filler in an issue report
// ("I get an error when ..."), often the subject of a one-line task
// ("Normalise error url to pathname", "Line numbers are off by one"), where
// every word was chosen: a one-line task keeps them as words, unless it
// names them as a circumstance (see asides). (Kept at half a word's weight
// instead, with no asides, dev-short Acc@5 was 66.1; at a whole word's,
// 67.1.)
var softStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`error errors file files line lines value values call function class
		version versions case cases code example examples import true false null none nil module console
		async await`) {
		m[w] = true
	}
	return m
}()

// circumstance are the words that open a circumstance: "after an error",
// "on error", "when a file ...". A softStop word right after one (an
// article between them allowed) says when, not what.
var circumstance = map[string]bool{"after": true, "on": true, "upon": true, "when": true, "whenever": true,
	"during": true, "while": true, "if": true, "once": true, "despite": true, "before": true}

// asides returns the softStop words text uses only as a circumstance.
func asides(text string) map[string]bool {
	var ws []string
	tokenize.Words(text, func(w string) { ws = append(ws, strings.ToLower(w)) })
	out, subject := map[string]bool{}, map[string]bool{}
	for i, w := range ws {
		if !softStop[w] {
			continue
		}
		j := i - 1
		if j > 0 && (ws[j] == "a" || ws[j] == "an" || ws[j] == "the") {
			j--
		}
		if j >= 0 && circumstance[ws[j]] {
			out[w] = true
		} else {
			subject[w] = true
		}
	}
	for w := range subject {
		delete(out, w)
	}
	return out
}

// templateStop are words of issue templates and bug-report prose that say
// nothing about where code lives.
var templateStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`reproduce reproducible reproduction repro traceback recent description describe
		steps summary screenshot screenshots additional information details minimal mwe think believe know say says said
		wrong correct correctly incorrectly properly unexpected unexpectedly raise raised raises raising throw thrown
		print assert except finally lambda pass elif async await yield nonlocal del public private protected static void
		catch impl fn pub mut println printf console typeof instanceof undefined foo bar baz qux anonymous module
		listcomp genexpr dictcomp setcomp lt gt amp quot nbsp eg ie`) {
		m[w] = true
	}
	return m
}()

func isStop(t string) bool { return tokenize.IsStopWord(t) || templateStop[t] }

// isNoise reports whether a term is a hex literal (0x4a3f2b) or looks like a
// hash (659d2421c7adb): addresses and commits, not names.
func isNoise(t string) bool {
	if strings.HasPrefix(t, "0x") && len(t) > 2 && strings.Trim(t[2:], "0123456789abcdef") == "" {
		return true
	}
	if len(t) < 7 || strings.Trim(t, "0123456789abcdef") != "" {
		return false
	}
	return strings.ContainsAny(t, "0123456789") && strings.ContainsAny(t, "abcdef")
}
