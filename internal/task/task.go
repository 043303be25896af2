// Package task turns a task written in plain words into what hone's retrieval
// loop searches for: ranked keywords, the code identifiers, dotted names, file
// paths and stack-trace frames the task names, and whether it is about tests or
// documentation.
//
// A task can be a one-liner ("Fix the authentication token expiry bug") or a
// whole GitHub issue with a template, markdown, code blocks, pasted output and
// tracebacks. Parse reads it line by line:
//
//  1. Clean-up. Invalid UTF-8 is replaced, line ends and zero-width spaces
//     normalised, HTML comments (issue templates) removed, and only the first
//     MaxParseBytes are read. The text is cut into lines; ``` and ~~~ fences,
//     indented blocks and unfenced reproducer lines (">>> " prompts, imports,
//     definitions, assignments and calls that do not read as a sentence: see
//     loose.go) are code, everything else prose. Environment sections
//     ("#### Versions", "**Environment**") are skipped to the next heading, and
//     template checklist items ("- [x] I have searched ...") are dropped.
//  2. Traces. Every line is first tried as a stack-trace frame (Python, Java,
//     JavaScript, Go, Rust, gdb/sanitizer, and generic path:LINE) or an
//     exception line ("ValueError: ...", "Caused by: ...", "panic: ...").
//     Frames keep their path as written (backslashes become slashes): a frame in
//     site-packages or node_modules still points at a repository file by its
//     suffix. The functions of frames outside a language's standard library are
//     identifiers; the exception type and the words of its message are kept.
//  3. Prose. Markdown images, link targets, URLs and HTML tags go (a GitHub or
//     GitLab blob URL leaves its repository path behind); `code spans` are
//     code; file paths are taken out whole; the remaining words are plain words
//     or identifiers. A word is an identifier when it is camelCase, snake_case,
//     dotted (QuerySet.filter), or called (filter()).
//  4. Code. Every word of a code block is a code term; identifiers also go to
//     Identifiers. A long block (pasted output) weighs less, by the square root
//     of its length, so that it cannot swamp the title.
//
// # Keywords
//
// Every term is lower-cased as the index does (tokenize.Identifier): an
// identifier gives its whole form and its parts (SessionManager ->
// sessionmanager, session, manager), a dotted name its whole form, each
// component and their parts. Stop words (tokenize.IsStopWord and a few words of
// issue templates) are dropped. A term's weight is the largest base weight it
// was seen with (the constants below: identifiers, code and paths over plain
// words; anything in the title line times TitleFactor), times a sublinear
// bonus for repetition, 1 + RepeatBoost·ln(count), capped at MaxRepeatFactor.
// The MaxKeywords heaviest terms are kept, ties broken by first appearance.
//
// Parse is a pure function, safe for concurrent use.
package task

import (
	"math"
	"sort"
	"strings"
)

// Term origins.
const (
	OriginIdentifier = "identifier" // a code identifier or dotted name in prose
	OriginCode       = "code"       // a code span or code block
	OriginPath       = "path"       // a file path named in the task
	OriginWord       = "word"       // a plain word of prose
	OriginTrace      = "trace"      // a stack-trace frame or exception line
)

// Base weights of terms, by where they were seen.
const (
	// WordWeight is the unit: a plain word of the task body.
	WordWeight = 1.0
	// IdentifierWeight: a name written as code in prose is what the user means precisely.
	IdentifierWeight = 2.5
	// DottedBonus multiplies the whole form of a dotted name: it names one member exactly.
	DottedBonus = 1.2
	// PartFactor scales the parts of a split identifier: "manager" says less than "sessionmanager".
	PartFactor = 0.5
	// CodeSpanWeight: `inline code` is an identifier the user took care to mark.
	CodeSpanWeight = 2.5
	// CodeIdentWeight: an identifier in a code block, often the API the reproducer calls.
	CodeIdentWeight = 1.5
	// CodeWordWeight: any other word of a code block (local variables, output) is like prose.
	CodeWordWeight = 1.0
	// PathWeight: the stem of a file path named in the task points at a file.
	PathWeight = 3.0
	// PathDirWeight: the directories of a named path, a weaker hint of the area.
	PathDirWeight = 1.0
	// TraceFuncWeight: a function of a stack frame is where the failure went through.
	TraceFuncWeight = 2.0
	// TraceFileWeight: the file stem of a stack frame.
	TraceFileWeight = 1.0
	// TraceCodeWeight: the source line Python prints under a frame.
	TraceCodeWeight = 1.0
	// ExceptionWeight: the exception type names the failure.
	ExceptionWeight = 2.5
	// MessageWeight: the words of an exception message often appear verbatim in the code that raises it.
	MessageWeight = 1.5
	// TitleFactor multiplies everything in the title line: GitHub issues put the gist there.
	TitleFactor = 2.0
	// RepeatBoost is the weight gained per e-fold of repetition.
	RepeatBoost = 0.25
	// MaxRepeatFactor caps the repetition bonus, so pasted output cannot dominate.
	MaxRepeatFactor = 2.0
	// BlockFullLines is the length of a code block below which it weighs fully.
	BlockFullLines = 20
	// MinBlockFactor is the least a long code block or a dense line weighs.
	MinBlockFactor = 0.3
	// DenseLineIdents is the number of identifiers a line holds before it weighs less, by the square root.
	DenseLineIdents = 8
)

// Limits.
const (
	// MaxParseBytes is how much of the task is read; the gist of a task is at its start.
	MaxParseBytes = 64 << 10
	// MaxLineBytes is how much of one line is read; longer lines are data (minified code, base64, dumps).
	MaxLineBytes = 2048
	// MaxTitleLen is the longest first line that counts as a title.
	MaxTitleLen = 256
	// MaxKeywords is the number of keywords kept.
	MaxKeywords = 40
	// MaxNames bounds Identifiers, DottedNames, CodeSpans, Paths and Errors each.
	MaxNames = 64
	// MaxFrames bounds Frames.
	MaxFrames = 100
)

// Task is a parsed task. Lists are nil when empty.
type Task struct {
	// Text is the task as given.
	Text string
	// Title is the task's first line when it reads as a title (at most
	// MaxTitleLen bytes, not a code fence), trimmed; "" otherwise.
	Title string
	// Keywords are the query terms, heaviest first, at most MaxKeywords.
	Keywords []Term
	// Identifiers are the code identifiers the task names, as written
	// (SessionManager, validate_enrollment, QuerySet.filter), most important
	// first. A receiver self., cls. or this. is removed.
	Identifiers []string
	// DottedNames are the identifiers with dots (django.db.models.QuerySet,
	// os.path.join), most important first.
	DottedNames []string
	// CodeSpans are the contents of `inline code` spans, in order.
	CodeSpans []string
	// Paths are the file paths named in prose, in order, with slashes and no
	// line suffix (":12:5", "#L10-L20"). Files that appear only as stack
	// frames are in Frames.
	Paths []string
	// Frames are the stack-trace frames and path:LINE locations, in order.
	Frames []Frame
	// Errors are the exception lines ("ValueError: bad value", "panic: ..."),
	// in order.
	Errors []string
	// MentionsTests is true when the task asks for work on tests ("add a
	// test", "fix the failing test", "unit tests") or names a test file in
	// prose. A traceback through test files does not count.
	MentionsTests bool
	// MentionsDocs is true when the task is about documentation.
	MentionsDocs bool
	// MentionsConfig is true when the task names settings, manifests,
	// dependencies or CI ("config", "workflow", "yaml", "dependencies").
	MentionsConfig bool
}

// Frame is one stack-trace frame.
type Frame struct {
	// File is the path as written, with backslashes turned to slashes and no
	// line suffix. For a Java frame it is the package directory joined to the
	// source file (com/foo/Bar.java). It is "" when unknown.
	File string
	// Line is the line number, 0 when unknown.
	Line int
	// Func is the function as written, "" when unknown.
	Func string
}

// Term is a weighted query term.
type Term struct {
	// Text is lower-case, normalised like the index's terms.
	Text string
	// Weight is positive; a plain word of the body weighs WordWeight.
	Weight float64
	// Origin is one of the Origin constants.
	Origin string
}

// Parse parses a task. It never fails: empty or unreadable text gives a Task
// with only Text set.
func Parse(text string) Task {
	t := Task{Text: text}
	if strings.TrimSpace(text) == "" {
		return t
	}
	p := newParser()
	p.run(prepare(text))
	p.fill(&t)
	return t
}

// acc accumulates one keyword.
type acc struct {
	base   float64
	origin string
	count  int
	first  int
}

// maxRanked bounds the names a ranked set considers, in order of appearance.
const maxRanked = 16 * MaxNames

// ranked is an ordered set of names with a rank weight.
type ranked struct {
	seen  map[string]int // name -> index in items
	items []rankedItem
}

type rankedItem struct {
	name   string
	weight float64
}

func (r *ranked) add(name string, w float64) {
	if r.seen == nil {
		r.seen = map[string]int{}
	}
	if i, ok := r.seen[name]; ok {
		r.items[i].weight = math.Max(r.items[i].weight, w)
		return
	}
	if len(r.items) >= maxRanked {
		return
	}
	r.seen[name] = len(r.items)
	r.items = append(r.items, rankedItem{name, w})
}

// byWeight returns the names heaviest first, ties in order of appearance.
func (r *ranked) byWeight(limit int) []string {
	items := append([]rankedItem(nil), r.items...)
	sort.SliceStable(items, func(i, j int) bool { return items[i].weight > items[j].weight })
	return r.names(items, limit)
}

// inOrder returns the names in order of appearance.
func (r *ranked) inOrder(limit int) []string { return r.names(r.items, limit) }

func (r *ranked) names(items []rankedItem, limit int) []string {
	if len(items) == 0 {
		return nil
	}
	if len(items) > limit {
		items = items[:limit]
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.name
	}
	return out
}

func (p *parser) fill(t *Task) {
	t.Title = p.title
	keys := make([]string, 0, len(p.terms))
	for k := range p.terms {
		keys = append(keys, k)
	}
	weight := func(a *acc) float64 {
		f := 1 + RepeatBoost*math.Log(float64(a.count))
		return a.base * math.Min(f, MaxRepeatFactor)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := p.terms[keys[i]], p.terms[keys[j]]
		wa, wb := weight(a), weight(b)
		if wa != wb {
			return wa > wb
		}
		return a.first < b.first
	})
	if len(keys) > MaxKeywords {
		keys = keys[:MaxKeywords]
	}
	for _, k := range keys {
		a := p.terms[k]
		t.Keywords = append(t.Keywords, Term{Text: k, Weight: math.Round(weight(a)*1000) / 1000, Origin: a.origin})
	}
	t.Identifiers = p.idents.byWeight(MaxNames)
	t.DottedNames = p.dotted.byWeight(MaxNames)
	t.CodeSpans = p.spans.inOrder(MaxNames)
	t.Paths = p.paths.inOrder(MaxNames)
	t.Errors = p.errors.inOrder(MaxNames)
	t.Frames = p.frames
	t.MentionsTests = p.tests
	t.MentionsDocs = p.docs
	t.MentionsConfig = p.config
}
