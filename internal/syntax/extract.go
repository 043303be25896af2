package syntax

import (
	"embed"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
	tscs "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Parsing guards.
const (
	// MaxParseSize is the largest file parsed; larger ones get no tags. It is
	// above walk's default size limit, so it only bites when that is raised.
	MaxParseSize = 2 << 20
	// ParseTimeout abandons a pathological parse; a normal source file of a
	// few thousand lines parses in milliseconds.
	ParseTimeout = 5 * time.Second
)

//go:embed queries/*.scm
var queryFS embed.FS

type grammar struct {
	name    string
	lang    func() unsafe.Pointer
	queries []string // files under queries/, concatenated in order

	once     sync.Once
	language *ts.Language
	query    *ts.Query
	roles    []role // by capture index
	err      error
	free     chan *worker
}

// worker is a parser and a query cursor, used by one goroutine at a time.
type worker struct {
	parser *ts.Parser
	cursor *ts.QueryCursor
}

type roleKind uint8

const (
	roleIgnore    roleKind = iota
	roleName               // @name
	roleDef                // @definition.<kind>
	roleRef                // @reference.<kind>
	roleImport             // @import.<how>
	roleContainer          // @container: a block whose definitions have its @name as parent
	roleScope              // @local.scope: the qualifier of an out-of-line C++ method
)

type role struct {
	kind roleKind
	sub  string // normalised tag kind, or the import's normaliser
}

var grammars = map[string]*grammar{
	"python":     {name: "python", lang: tspy.Language, queries: []string{"python.tags.scm", "python.extra.scm"}},
	"go":         {name: "go", lang: tsgo.Language, queries: []string{"go.tags.scm", "go.extra.scm"}},
	"javascript": {name: "javascript", lang: tsjs.Language, queries: []string{"javascript.tags.scm", "javascript.extra.scm"}},
	"typescript": {name: "typescript", lang: tsts.LanguageTypescript, queries: []string{"typescript.tags.scm", "javascript.tags.scm", "typescript.extra.scm"}},
	"tsx":        {name: "tsx", lang: tsts.LanguageTSX, queries: []string{"typescript.tags.scm", "javascript.tags.scm", "typescript.extra.scm"}},
	"java":       {name: "java", lang: tsjava.Language, queries: []string{"java.tags.scm", "java.extra.scm"}},
	"rust":       {name: "rust", lang: tsrust.Language, queries: []string{"rust.tags.scm", "rust.extra.scm"}},
	"c":          {name: "c", lang: tsc.Language, queries: []string{"c.tags.scm", "c.extra.scm"}},
	"cpp":        {name: "cpp", lang: tscpp.Language, queries: []string{"cpp.tags.scm", "cpp.extra.scm"}},
	"csharp":     {name: "csharp", lang: tscs.Language, queries: []string{"csharp.tags.scm", "csharp.extra.scm"}},
	"ruby":       {name: "ruby", lang: tsruby.Language, queries: []string{"ruby.tags.scm", "ruby.extra.scm"}},
	"php":        {name: "php", lang: tsphp.LanguagePHP, queries: []string{"php.tags.scm", "php.extra.scm"}},
}

// defKinds maps the tags.scm definition kinds to Tag kinds; others are
// dropped.
var defKinds = map[string]string{
	"class": "class", "function": "function", "method": "method", "type": "type",
	"interface": "interface", "constant": "constant", "module": "module", "macro": "macro",
}

// refKinds maps the tags.scm reference kinds to Tag kinds.
var refKinds = map[string]string{
	"call": "call", "send": "call", "type": "type", "class": "class",
	"implementation": "implementation", "interface": "implementation", "import": "import",
	"attribute": "attribute", // C# [Name] (see attributeRef)
}

func (g *grammar) init() {
	g.free = make(chan *worker, 2*runtime.GOMAXPROCS(0))
	g.language = ts.NewLanguage(g.lang())
	var src strings.Builder
	for _, f := range g.queries {
		b, err := queryFS.ReadFile("queries/" + f)
		if err != nil {
			g.err = fmt.Errorf("syntax: %s: %w", g.name, err)
			return
		}
		src.Write(b)
		src.WriteByte('\n')
	}
	q, qerr := ts.NewQuery(g.language, src.String())
	if qerr != nil {
		g.err = fmt.Errorf("syntax: compile %s query: %s", g.name, qerr.Error())
		return
	}
	g.query = q
	names := q.CaptureNames()
	g.roles = make([]role, len(names))
	for i, n := range names {
		var r role
		switch {
		case n == "name":
			r.kind = roleName
		case strings.HasPrefix(n, "definition."):
			if k, ok := defKinds[strings.TrimPrefix(n, "definition.")]; ok {
				r = role{kind: roleDef, sub: k}
			}
		case strings.HasPrefix(n, "reference."):
			if k, ok := refKinds[strings.TrimPrefix(n, "reference.")]; ok {
				r = role{kind: roleRef, sub: k}
			}
		case strings.HasPrefix(n, "import."):
			r = role{kind: roleImport, sub: strings.TrimPrefix(n, "import.")}
		case n == "container":
			r.kind = roleContainer
		case n == "local.scope":
			r.kind = roleScope
		}
		g.roles[i] = r
	}
	// Captures only upstream's doc-comment tooling uses cost work for nothing.
	for _, n := range []string{"doc", "ignore", "module"} {
		q.DisableCapture(n)
	}
}

func (g *grammar) get() (*worker, error) {
	select {
	case w := <-g.free:
		return w, nil
	default:
	}
	p := ts.NewParser()
	if err := p.SetLanguage(g.language); err != nil {
		p.Close()
		return nil, fmt.Errorf("syntax: %s grammar: %w", g.name, err)
	}
	p.SetTimeoutMicros(uint64(ParseTimeout / time.Microsecond))
	return &worker{parser: p, cursor: ts.NewQueryCursor()}, nil
}

func (g *grammar) put(w *worker) {
	select {
	case g.free <- w:
	default:
		w.parser.Close()
		w.cursor.Close()
	}
}

// rawDef is a definition before its parent is resolved.
type rawDef struct {
	Tag
	nameStart        uint
	tagStart, tagEnd uint
	container        bool // only a scope for others (Rust impl), not a definition
	fixed            bool // Parent already known (Go receiver, C++ qualifier)
}

func (g *grammar) extract(path string, src []byte) (res Result, err error) {
	res.Lang = g.name
	g.once.Do(g.init)
	if g.err != nil {
		return res, g.err
	}
	if len(src) > MaxParseSize {
		res.Incomplete = "too large to parse"
		return res, nil
	}
	w, err := g.get()
	if err != nil {
		return res, err
	}
	broken := false
	defer func() {
		if r := recover(); r != nil { // a bug in a binding must not take the indexer down
			res = Result{Lang: g.name, Incomplete: fmt.Sprintf("extraction failed: %v", r)}
			err = nil
			broken = true
		}
		if broken {
			// A parser whose parse was cancelled is not reused: tree-sitter's
			// ts_parser_reset leaves canceled_balancing set in the C library
			// go-tree-sitter v0.25.0 ships, and the next parse aborts the
			// process (tree-sitter PR #4176).
			w.parser.Close()
			w.cursor.Close()
			return
		}
		g.put(w)
	}()
	tree := w.parser.Parse(src, nil)
	if tree == nil {
		broken = true
		res.Incomplete = "parse timed out"
		return res, nil
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		res.Incomplete = "syntax errors"
	}

	var (
		defs    []rawDef
		imports []string
		impLine []int // line of each import, for its reference
		seenRef = map[Tag]bool{}
		refAt   []uint // name node start of each reference
	)
	matches := w.cursor.Matches(g.query, root, src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		var (
			name, tag, scope ts.Node
			hasName, hasTag  bool
			hasScope         bool
			r                role
		)
		for _, c := range m.Captures {
			cr := g.roles[c.Index]
			switch cr.kind {
			case roleName:
				if !hasName {
					name, hasName = c.Node, true
				}
			case roleDef, roleRef, roleContainer:
				tag, hasTag, r = c.Node, true, cr
			case roleScope:
				scope, hasScope = c.Node, true
			case roleImport:
				line := int(c.Node.StartPosition().Row) + 1
				for _, imp := range normaliseImport(cr.sub, c.Node, src) {
					imports, impLine = append(imports, imp), append(impLine, line)
				}
			}
		}
		if !hasName || !hasTag {
			continue
		}
		text := string(src[name.StartByte():name.EndByte()])
		if text == "" {
			continue
		}
		t := Tag{Name: text, Kind: r.sub, Line: int(name.StartPosition().Row) + 1}
		switch r.kind {
		case roleRef:
			if t.Kind == "attribute" {
				t = attributeRef(t)
			}
			if g.name == "ruby" && name.StartByte() == tag.StartByte() && name.EndByte() == tag.EndByte() {
				// Upstream's bare-identifier pattern relies on #is-not? local,
				// which the Go binding does not apply: keep constants (class
				// references), drop identifiers (mostly local variables).
				if name.Kind() != "constant" {
					continue
				}
				t.Kind = "class"
			}
			if !seenRef[t] {
				seenRef[t] = true
				res.Refs = append(res.Refs, t)
				refAt = append(refAt, name.StartByte())
			}
		case roleDef, roleContainer:
			if isPrototype(g.name, tag) {
				continue
			}
			t.End = max(t.Line, int(tag.EndPosition().Row)+1)
			d := rawDef{Tag: t, nameStart: name.StartByte(), tagStart: tag.StartByte(), tagEnd: tag.EndByte()}
			if r.kind == roleContainer {
				d.Name, d.Kind, d.container = typeName(text), "impl", true
			}
			switch {
			case hasScope:
				d.Parent, d.fixed = string(src[scope.StartByte():scope.EndByte()]), true
			case g.name == "go" && d.Kind == "method":
				d.Parent, d.fixed = goReceiver(tag, src), true
			}
			defs = append(defs, d)
		}
	}

	// A definition's own name is no reference to it (Go's bare
	// type_identifier and Ruby's bare constant patterns match both).
	defAt := make(map[uint]bool, len(defs))
	for _, d := range defs {
		if !d.container {
			defAt[d.nameStart] = true
		}
	}
	refs := res.Refs[:0]
	for i, t := range res.Refs {
		if !defAt[refAt[i]] {
			refs = append(refs, t)
		}
	}
	res.Refs = refs
	res.Defs = resolve(defs)
	for i, imp := range imports {
		if last := lastSegment(imp); last != "" {
			t := Tag{Name: last, Kind: "import", Line: impLine[i]}
			if !seenRef[t] {
				seenRef[t] = true
				res.Refs = append(res.Refs, t)
			}
		}
	}
	res.Imports = dedupe(imports)
	sort.SliceStable(res.Refs, func(i, j int) bool { return res.Refs[i].Line < res.Refs[j].Line })
	return res, nil
}

// attributeRef turns a C# attribute use into the reference of its class:
// [Required] names RequiredAttribute (the compiler adds the suffix).
func attributeRef(t Tag) Tag {
	t.Kind = "type"
	if !strings.HasSuffix(t.Name, "Attribute") {
		t.Name += "Attribute"
	}
	return t
}

// specificity ranks kinds two patterns give one name: a Rust function in an
// impl block is a method, a Go type of interface type an interface.
var specificity = map[string]int{"method": 1, "interface": 1}

// classLike kinds make a function inside them a method.
var classLike = map[string]bool{"class": true, "interface": true, "impl": true}

// resolve merges duplicate definitions of one name node and gives each
// definition its innermost enclosing container as parent.
func resolve(raw []rawDef) []Tag {
	byName := make(map[uint]int, len(raw))
	defs := raw[:0]
	for _, d := range raw {
		if i, ok := byName[d.nameStart]; ok && !d.container {
			if specificity[d.Kind] > specificity[defs[i].Kind] {
				defs[i].Kind = d.Kind // the more specific pattern wins
			}
			continue
		}
		if !d.container {
			byName[d.nameStart] = len(defs)
		}
		defs = append(defs, d)
	}
	out := make([]Tag, 0, len(defs))
	for i := range defs {
		d := &defs[i]
		if d.container {
			continue
		}
		if !d.fixed {
			// Innermost definition whose node strictly contains d's.
			best := -1
			for j := range defs {
				o := &defs[j]
				if j == i || o.tagStart > d.tagStart || o.tagEnd < d.tagEnd || (o.tagStart == d.tagStart && o.tagEnd == d.tagEnd) {
					continue
				}
				if best < 0 || o.tagEnd-o.tagStart < defs[best].tagEnd-defs[best].tagStart {
					best = j
				}
			}
			if best >= 0 {
				o := defs[best]
				switch {
				case o.Kind == "function" || o.Kind == "method":
					// nested in a function: a local helper, no parent
				case classLike[o.Kind]:
					d.Parent = o.Name
					if d.Kind == "function" {
						d.Kind = "method"
					}
				default: // module, namespace
					d.Parent = o.Name
					if d.Kind == "method" {
						d.Kind = "function"
					}
				}
			}
		} else if d.Parent != "" && d.Kind == "function" {
			d.Kind = "method"
		}
		out = append(out, d.Tag)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// declaratorWrappers are the C and C++ declarators that can wrap a function's
// declarator: int *f(void), int (f)(void), int &f().
var declaratorWrappers = map[string]bool{
	"pointer_declarator": true, "reference_declarator": true,
	"parenthesized_declarator": true, "attributed_declarator": true,
}

// isPrototype reports whether a definition tag is a declaration without a
// body, which upstream's tags.scm tag as definitions too:
//
//   - C and C++: a function declarator that belongs to a declaration (int
//     f(void); in a header) or to a C++ member declared in its class body
//     (field_declaration) and defined out of line (void Conn::open() { ... });
//   - TypeScript: a function, method or abstract method signature (a .d.ts
//     file's declare function jsx(...), an overload, an interface member);
//   - Java: a method declaration without a body (an interface's or an
//     abstract class's).
//
// A prototype announces a function that another file (or the same one)
// defines; counting it would let every header, typings file and interface
// compete with the implementation for the function's name. The class,
// interface or type that holds it stays defined.
func isPrototype(lang string, n ts.Node) bool {
	switch lang {
	case "c", "cpp":
		if n.Kind() != "function_declarator" {
			return false
		}
		p := n.Parent()
		for p != nil && declaratorWrappers[p.Kind()] {
			p = p.Parent()
		}
		return p != nil && (p.Kind() == "declaration" || p.Kind() == "field_declaration")
	case "typescript", "tsx":
		switch n.Kind() {
		case "function_signature", "method_signature", "abstract_method_signature":
			return true
		}
	case "java":
		return n.Kind() == "method_declaration" && n.ChildByFieldName("body") == nil
	}
	return false
}

// goReceiver returns the receiver type name of a Go method declaration.
func goReceiver(method ts.Node, src []byte) string {
	recv := method.ChildByFieldName("receiver")
	if recv == nil {
		return ""
	}
	if n := firstOfKind(*recv, "type_identifier", 4); n != nil {
		return string(src[n.StartByte():n.EndByte()])
	}
	return ""
}

func firstOfKind(n ts.Node, kind string, depth int) *ts.Node {
	if n.Kind() == kind {
		return &n
	}
	if depth == 0 {
		return nil
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c == nil {
			continue
		}
		if f := firstOfKind(*c, kind, depth-1); f != nil {
			return f
		}
	}
	return nil
}

// typeName reduces a type as written to its bare name: "a::Foo<T>" -> "Foo".
func typeName(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	return strings.TrimSpace(strings.TrimLeft(s, "&*"))
}

func dedupe(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(xs))
	out := xs[:0]
	for _, x := range xs {
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
