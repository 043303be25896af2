package task

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Frame and exception line formats.
var (
	// File "/x/y.py", line 3, in f
	pyFrameRE = regexp.MustCompile(`^\s*File "([^"]+)", line (\d+)(?:, in (.+?))?\s*$`)
	// IPython and Jupyter print frames as "PATH in func(args)" (before 8.0)
	// and "File PATH:LINE, in func" (since).
	ipyOldFrameRE = regexp.MustCompile(`^\s*((?:[A-Za-z]:)?[^\s<>"]+\.py) in ([\w.<>]+)\(.*$`)
	ipyNewFrameRE = regexp.MustCompile(`^\s*File ((?:[A-Za-z]:)?[^\s"]+\.py):(\d+)(?:, in (.+?))?\s*$`)
	// at com.foo.Bar.baz(Bar.java:42), at java.base/java.lang.Thread.run(Thread.java:829)
	javaFrameRE = regexp.MustCompile(`^\s*at\s+(?:[\w.$-]+(?:@[\w.-]*)?/)*([\w$.<>-]+)\(([^()]*)\)`)
	// at fn (/path/file.js:10:5), at /path/file.js:10:5, Rust's "at ./src/foo.rs:10:5"
	jsFrameRE = regexp.MustCompile(`^\s*at\s+(?:(.+?)\s+\()?(\S+?):(\d+)(?::\d+)?\)?\s*$`)
	// \t/path/file.go:12 +0x1d, under a line holding the function
	goFileRE = regexp.MustCompile(`^\s+((?:[A-Za-z]:)?\S+\.go):(\d+)(?:\s+\+0x[0-9a-fA-F]+)?\s*$`)
	// github.com/x/y/pkg.(*Type).Method(0xc000, ...)
	goFuncRE = regexp.MustCompile(`^((?:[\w.\-~]+/)*[\w\-~]+\.(?:\(\*?[\w\[\], ]+\)\.)?[\w\[\].]+)\(.*\)\s*$`)
	// "  3: mycrate::foo::bar" in a Rust backtrace
	rustFuncRE = regexp.MustCompile(`^\s*\d+:\s+(?:0x[0-9a-fA-F]+\s+-\s+)?(\S+::\S+)\s*$`)
	// #0 0x4f5 in main /path/file.cc:10:5 (sanitizers), #1 0x0 in foo (x=1) at src/foo.c:12 (gdb)
	gdbFrameRE = regexp.MustCompile(`^\s*#\d+\s+(?:0x[0-9a-fA-F]+\s+in\s+)?(\S+?)\s*(?:\(.*\))?\s+(?:at\s+)?(\S+?):(\d+)(?::\d+)?\s*$`)
	// ValueError: msg, E   KeyError: 'x', Caused by: java.io.IOException: msg
	exceptionRE = regexp.MustCompile(`^\s*(?:E\s+|Caused by:\s*|Exception in thread "[^"]*"\s+|Uncaught\s+(?:\(in promise\)\s+)?)?((?:[A-Za-z_$][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Warning|Exit|Interrupt|Fault|Failure|DoesNotExist|Iteration|Configured))(?::\s*(.*?))?\s*$`)
	// thread 'main' panicked at src/main.rs:10:5: / panic: runtime error: ...
	panicRE = regexp.MustCompile(`^\s*(?:thread '[^']*' panicked at\s*(.*)|panic:\s+(.*)|fatal error:\s+(.*))$`)
	// generic path:LINE in output: basic/test_basic.py:80: ValueError, src/foo.c:12:5: error
	locationRE = regexp.MustCompile(`((?:[A-Za-z]:)?[\w.~\-/\\@+$]*[\w\-~$]\.[A-Za-z][A-Za-z0-9+]{0,9}):(\d+)`)
	// the numbered source lines IPython prints under a frame: "---> 86     return x", "     85  else:"
	ipySourceRE = regexp.MustCompile(`^\s*(?:-*>\s*)?\d+(?:\s|$)`)
	// traceback boilerplate lines that carry no term
	traceNoiseRE = regexp.MustCompile(`^\s*(?:Traceback \(most recent call last\):|The above exception was the direct cause of the following exception:|During handling of the above exception, another exception occurred:|goroutine \d+ \[[^\]]*\]:|stack backtrace:|Stack trace:|note: run with .RUST_BACKTRACE.*|\.\.\. \d+ more|\[Previous line repeated \d+ more times?\]|={3,}(?:\s.*?\s={3,})?|-{3,}|_{3,}\s*(.*?)\s*_{3,})\s*$`)
)

// traceLine handles a line that is part of a stack trace or an exception;
// it reports whether the line was consumed. next is the following line ("" at
// the end); f scales the weights.
func (p *parser) traceLine(line, next string, f float64) bool {
	pyFrame, ipyFrame, goFunc, rustFunc := p.pyFrame, p.ipyFrame, p.goFunc, p.rustFunc
	p.resetLineState()
	t := strings.TrimSpace(line)
	if t == "" {
		return true
	}
	if m := match(pyFrameRE, line, `File "`); m != nil {
		n, _ := strconv.Atoi(m[2])
		p.frame(Frame{File: cleanFramePath(m[1]), Line: n, Func: m[3]}, f, "py")
		p.pyFrame = true
		return true
	}
	if m := match(ipyNewFrameRE, line, "File "); m != nil {
		n, _ := strconv.Atoi(m[2])
		// The numbered source lines that follow are read as code.
		fn, _, _ := strings.Cut(m[3], "(")
		p.frame(Frame{File: cleanFramePath(m[1]), Line: n, Func: fn}, f, "py")
		p.ipyFrame = true
		return true
	}
	if m := match(ipyOldFrameRE, line, ".py in "); m != nil {
		p.frame(Frame{File: cleanFramePath(m[1]), Func: m[2]}, f, "py")
		p.ipyFrame = true
		return true
	}
	if ipyFrame {
		if loc := ipySourceRE.FindStringIndex(line); loc != nil {
			// A numbered source line under an IPython frame: code of the
			// trace, like the line Python prints under its frame.
			p.words(line[loc[1]:], f*TraceCodeWeight, f*TraceCodeWeight, OriginTrace, OriginTrace)
			p.ipyFrame = true
			return true
		}
	}
	if pyFrame && !strings.HasPrefix(t, "File ") {
		// The source line Python prints under its frame.
		p.words(t, f*TraceCodeWeight, f*TraceCodeWeight, OriginTrace, OriginTrace)
		return true
	}
	switch t[0] {
	case 'a':
		if m := javaFrameRE.FindStringSubmatch(line); m != nil {
			p.frame(javaFrame(m[1], m[2]), f, "java")
			return true
		}
		if m := jsFrameRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[3])
			fn := m[1]
			if fn == "" {
				fn = rustFunc
			}
			p.frame(Frame{File: cleanFramePath(m[2]), Line: n, Func: fn}, f, "js")
			return true
		}
	case '#':
		if m := gdbFrameRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[3])
			p.frame(Frame{File: cleanFramePath(m[2]), Line: n, Func: m[1]}, f, "c")
			return true
		}
	}
	if strings.Contains(t, ".go:") {
		if m := goFileRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			p.frame(Frame{File: cleanFramePath(m[1]), Line: n, Func: goFunc}, f, "go")
			return true
		}
	}
	if m := match(goFuncRE, t, ")"); m != nil && goFileRE.MatchString(next) {
		p.goFunc = m[1] // the function of the frame whose file line follows
		return true
	}
	if m := match(rustFuncRE, line, "::"); m != nil {
		p.rustFunc = m[1]
		p.frameFunc(m[1], f, "rust")
		return true
	}
	if strings.IndexByte("TDgsSn.[=-_", t[0]) >= 0 {
		if m := traceNoiseRE.FindStringSubmatch(t); m != nil {
			if m[1] != "" { // ____ test_name ____ in pytest output
				p.words(m[1], f*TraceFuncWeight, f*TraceFuncWeight, OriginTrace, OriginTrace)
			}
			return true
		}
	}
	if m := match(exceptionRE, line, ""); m != nil && (m[2] != "" || t == m[1]) {
		p.errors.add(t, 0)
		p.ident(m[1], f*ExceptionWeight, OriginTrace)
		p.message(m[2], f)
		return true
	}
	if m := match(panicRE, line, "panic"); m != nil || strings.Contains(line, "fatal error") && panicRE.MatchString(line) {
		if m == nil {
			m = panicRE.FindStringSubmatch(line)
		}
		p.errors.add(t, 0)
		msg := m[1] + m[2] + m[3]
		p.message(p.locations(msg, f), f)
		return true
	}
	return false
}

// exceptionWords are the ends of exception names; a line without one is
// not an exception line.
var exceptionWords = []string{"Error", "Exception", "Warning", "Exit", "Interrupt", "Fault", "Failure",
	"DoesNotExist", "Iteration", "Configured"}

// match runs re on s only when s contains must (a cheap filter; "" means an
// exception name).
func match(re *regexp.Regexp, s, must string) []string {
	if must == "" {
		found := false
		for _, w := range exceptionWords {
			if strings.Contains(s, w) {
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	} else if !strings.Contains(s, must) {
		return nil
	}
	return re.FindStringSubmatch(s)
}

// message adds the words of an exception message.
func (p *parser) message(msg string, f float64) {
	if msg != "" {
		p.words(msg, f*MessageWeight, f*IdentifierWeight, OriginTrace, OriginTrace)
	}
}

// locations records the path:LINE locations of a line of output as frames and
// returns the line without them.
func (p *parser) locations(line string, f float64) string {
	if !strings.Contains(line, ":") {
		return line
	}
	return locationRE.ReplaceAllStringFunc(line, func(s string) string {
		m := locationRE.FindStringSubmatch(s)
		if !looksLikePath(m[1]) {
			return s
		}
		n, _ := strconv.Atoi(m[2])
		p.frame(Frame{File: cleanFramePath(m[1]), Line: n}, f, "")
		return " "
	})
}

var schemeRE = regexp.MustCompile(`^(?:file://|(?:webpack|webpack-internal)://+)`)

func cleanFramePath(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), `\`, "/")
	s = schemeRE.ReplaceAllString(s, "")
	s, _ = splitLineSuffix(s)
	return s
}

// javaFrame builds a frame from a Java method and its "(File.java:42)" part;
// the file is placed in its package directory.
func javaFrame(fn, where string) Frame {
	fr := Frame{Func: fn}
	file, line, _ := strings.Cut(where, ":")
	if !strings.Contains(file, ".") || strings.Contains(file, " ") {
		return fr // Native Method, Unknown Source
	}
	fr.Line, _ = strconv.Atoi(line)
	segs := strings.Split(fn, ".")
	if len(segs) > 2 {
		fr.File = strings.Join(segs[:len(segs)-2], "/") + "/" + file
	} else {
		fr.File = file
	}
	return fr
}

// frame records a frame and adds its terms, unless it is in a standard
// library: those frames are kept but add no terms.
func (p *parser) frame(fr Frame, f float64, kind string) {
	if p.framed[fr] || len(p.frames) >= MaxFrames {
		return
	}
	p.framed[fr] = true
	p.frames = append(p.frames, fr)
	if isStdlib(fr) {
		return
	}
	if fr.File != "" && !strings.HasPrefix(fr.File, "<") {
		p.pathTerms(fr.File, f*TraceFileWeight, 0, OriginTrace)
	}
	p.frameFunc(fr.Func, f, kind)
}

// frameFunc adds the names of a frame's function as identifiers.
func (p *parser) frameFunc(fn string, f float64, kind string) {
	for _, name := range funcNames(fn, kind) {
		p.ident(name, f*TraceFuncWeight, OriginTrace)
	}
}

var (
	genericArgsRE = regexp.MustCompile(`<[^<>]*>|\[[^\[\]]*\]|\{\{closure\}\}|::h[0-9a-f]{16}$| \[as [^\]]*\]`)
	closureRE     = regexp.MustCompile(`^(?:func\d+|lambda|\d+|anonymous|init|clinit|new|async)$`)
)

// funcNames returns the identifiers a frame's function names: the function
// and, when it is a member, "Type.member".
func funcNames(fn, kind string) []string {
	fn = strings.TrimSpace(fn)
	if fn == "" || strings.HasPrefix(fn, "<") {
		return nil
	}
	for _, pre := range []string{"async ", "new "} {
		fn = strings.TrimPrefix(fn, pre)
	}
	for range 3 { // nested generics peel from the inside
		next := genericArgsRE.ReplaceAllString(fn, "")
		if next == fn {
			break
		}
		fn = next
	}
	sep := "."
	if strings.Contains(fn, "::") {
		sep = "::"
	} else if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
	}
	fn = strings.NewReplacer("(*", "", "(", "", ")", "", "$", ".").Replace(fn)
	var segs []string
	for _, s := range strings.Split(fn, sep) {
		if s != "" && !closureRE.MatchString(s) && isName(s) {
			segs = append(segs, s)
		}
	}
	switch kind {
	case "java": // the package is the lower-case head
		for len(segs) > 1 && !startsUpper(segs[0]) {
			segs = segs[1:]
		}
	case "go": // the first segment is the package
		if len(segs) > 1 {
			segs = segs[1:]
		}
	}
	switch {
	case len(segs) == 0:
		return nil
	case len(segs) >= 2 && startsUpper(segs[len(segs)-2]) && sep == ".":
		return []string{segs[len(segs)-2] + "." + segs[len(segs)-1]}
	case len(segs) >= 2 && startsUpper(segs[len(segs)-2]):
		return []string{segs[len(segs)-2], segs[len(segs)-1]}
	}
	return []string{segs[len(segs)-1]}
}

func isName(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

func startsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

var (
	pyStdlibRE = regexp.MustCompile(`(?:^|/)lib/python\d(?:\.\d+)?/|^[a-z]:/.*?/lib/|^<frozen |^<string>$`)
	javaStdRE  = regexp.MustCompile(`^(?:java|javax|sun|jdk|com\.sun|kotlin|scala|junit|org\.junit)\.`)
)

// isStdlib reports whether a frame is in a language's standard library or
// runtime rather than in project or third-party code. Third-party code
// (site-packages, node_modules, Go's module cache, cargo's registry) may be
// the repository itself, so it is not standard library.
func isStdlib(fr Frame) bool {
	f := strings.ToLower(fr.File)
	for _, third := range []string{"site-packages", "dist-packages", "node_modules", "/pkg/mod/", "/.cargo/registry/"} {
		if strings.Contains(f, third) {
			return false
		}
	}
	switch {
	case f == "":
		return javaStdRE.MatchString(fr.Func) || strings.HasPrefix(fr.Func, "std::") || strings.HasPrefix(fr.Func, "core::")
	case pyStdlibRE.MatchString(f):
		return true
	case strings.HasPrefix(f, "node:") || strings.HasPrefix(f, "internal/"):
		return true
	case strings.HasSuffix(f, ".go") && (strings.Contains(f, "/go/src/") || strings.Contains(f, "/goroot/")):
		return true
	case strings.HasSuffix(f, ".rs") && strings.Contains(f, "/rustc/"):
		return true
	case strings.HasSuffix(f, ".java") || strings.HasSuffix(f, ".kt") || strings.HasSuffix(f, ".scala"):
		return javaStdRE.MatchString(fr.Func)
	}
	return false
}
