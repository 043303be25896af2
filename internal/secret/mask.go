package secret

import (
	"bytes"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Masker masks the credential values on the lines of one file. It is a
// small value, safe to copy and to use concurrently.
type Masker struct {
	// literal: an unquoted value is a literal (configuration formats).
	literal bool
	// keys: a key hint occurs in the file, so an assignment may match.
	keys bool
	// shapes has bit i set when tokenShapes[i]'s hints occur in the file.
	shapes uint32
	// keepLength: a value is overwritten by as many '*' as it has bytes,
	// not replaced by Masked, so that offsets stay true (Scrub).
	keepLength bool
}

// codeExtensions are the source formats in which only a quoted string is a
// literal: an unquoted value is an expression.
var codeExtensions = map[string]bool{
	".py": true, ".pyi": true, ".pyx": true, ".go": true, ".js": true, ".mjs": true, ".cjs": true,
	".jsx": true, ".ts": true, ".tsx": true, ".mts": true, ".cts": true, ".java": true, ".kt": true,
	".kts": true, ".scala": true, ".groovy": true, ".gradle": true, ".rs": true, ".c": true, ".h": true,
	".cc": true, ".cpp": true, ".cxx": true, ".hpp": true, ".hh": true, ".hxx": true, ".cs": true,
	".fs": true, ".vb": true, ".rb": true, ".php": true, ".swift": true, ".dart": true, ".lua": true,
	".pl": true, ".pm": true, ".r": true, ".ex": true, ".exs": true, ".erl": true, ".hs": true,
	".ml": true, ".clj": true, ".jl": true, ".zig": true, ".nim": true, ".sol": true, ".m": true,
	".mm": true, ".vue": true, ".svelte": true, ".html": true, ".htm": true, ".css": true,
	".scss": true, ".sass": true, ".less": true, ".tf": true, ".tfvars": true, ".hcl": true,
	".sql": true, ".po": true, ".pot": true,
}

// For returns the Masker for the lines of the file at p: source code by its
// extension, else a configuration format. content, when not nil, is the
// file's text: the checks whose hints it lacks are then skipped on every
// line, which makes a file without credentials cost one pass of
// substring searches (see BenchmarkMask).
func For(p string, content []byte) Masker {
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(p, `\`, "/")))
	m := Masker{literal: !codeExtensions[ext], keys: true, shapes: 1<<len(tokenShapes) - 1}
	if content == nil {
		return m
	}
	m.keys = hasHint(content)
	m.shapes = shapesIn(content)
	return m
}

// shapeHint is one hint of tokenShapes[shape].
type shapeHint struct {
	text  []byte
	shape int
}

// hintsByPair lists the shape hints by their first two bytes, so that one
// pass over a file finds which shapes it may hold; hintPair[a<<8|b] is the
// index into it plus one of the hints starting "ab", 0 for none.
var hintsByPair, hintPair = func() (lists [][]shapeHint, pair []uint16) {
	pair = make([]uint16, 1<<16)
	lists = [][]shapeHint{nil}
	for i, sh := range tokenShapes {
		for _, h := range sh.hints {
			k := uint16(h[0])<<8 | uint16(h[1])
			if pair[k] == 0 {
				pair[k] = uint16(len(lists))
				lists = append(lists, nil)
			}
			lists[pair[k]] = append(lists[pair[k]], shapeHint{[]byte(h), i})
		}
	}
	return lists, pair
}()

// shapePairs holds the pairs hintPair maps.
var shapePairs = pairsOf(hintPair)

// shapesIn returns the set of tokenShapes whose hints occur in content, in one
// pass (a search per hint cost as many passes as there are hints).
func shapesIn(content []byte) uint32 {
	var set uint32
	all := uint32(1)<<len(tokenShapes) - 1
	for i := 0; i+1 < len(content); i++ {
		x := uint16(content[i])<<8 | uint16(content[i+1])
		if !shapePairs.has(x) {
			continue
		}
		l := hintPair[x]
		for _, h := range hintsByPair[l] {
			if set&(1<<h.shape) == 0 && len(content)-i >= len(h.text) && bytes.Equal(content[i:i+len(h.text)], h.text) {
				set |= 1 << h.shape
				if set == all {
					return set
				}
			}
		}
	}
	return set
}

// Mask masks every line of text as the Masker for p does and returns the
// result and the number of lines changed.
func Mask(p, text string) (string, int) {
	m := For(p, []byte(text))
	lines := strings.Split(text, "\n")
	n := 0
	for i, l := range lines {
		if out, ok := m.Line(l); ok {
			lines[i] = out
			n++
		}
	}
	if n == 0 {
		return text, 0
	}
	return strings.Join(lines, "\n"), n
}

// Line returns line with the value of every credential on it replaced by
// Masked, and whether it replaced any.
func (m Masker) Line(line string) (string, bool) {
	var a, x, s bool
	out := line
	if m.keys && hasHint(line) {
		out, a = m.assignments(out)
		out, x = m.xmlForms(out)
	}
	if m.shapes != 0 {
		out, s = m.tokens(out)
	}
	return out, a || x || s
}

// keyHints are lower-case substrings one of which a credential key holds:
// a line with none of them is not scanned for assignments.
var keyHints = []string{"pass", "pwd", "pw", "secret", "token", "key", "cred", "auth"}

// assignments masks the values assigned to credential keys.
func (m Masker) assignments(s string) (string, bool) {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isKeyFirst(s[i]) || (i > 0 && isKeyChar(s[i-1])) {
			i++
			continue
		}
		j := i
		for j < len(s) && isKeyChar(s[j]) {
			j++
		}
		kind := notCredential
		if hasHint(s[i:j]) { // most identifiers hold none: skip splitting them
			kind = keyKind(strings.Trim(s[i:j], ".-"))
		}
		if kind == notCredential {
			i = j
			continue
		}
		from, to, ok := m.value(s, i, j, kind)
		if !ok {
			i = j
			continue
		}
		b.WriteString(s[last:from])
		b.WriteString(m.filler(s[from:to]))
		last, i = to, max(to, j)
	}
	if last == 0 {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// value finds the literal assigned to the key s[start:end]: the span to mask.
func (m Masker) value(s string, start, end int, kind credentialKind) (from, to int, ok bool) {
	var quote byte
	tight, pair := false, false // "key:value"; a ("KEY", "value") pair
	if start > 0 && (s[start-1] == '"' || s[start-1] == '\'') {
		quote = s[start-1]
	}
	k := end
	if quote != 0 && k < len(s) && s[k] == quote {
		k++
		if k < len(s) && s[k] == ']' {
			k++ // os.environ["API_KEY"] = …
		}
	}
	k = skipSpace(s, k)
	if k >= len(s) {
		return 0, 0, false
	}
	switch {
	case strings.HasPrefix(s[k:], "=>"), strings.HasPrefix(s[k:], ":="), strings.HasPrefix(s[k:], "?="):
		k += 2
	case s[k] == '=':
		if k+1 < len(s) && (s[k+1] == '=' || s[k+1] == '~') {
			return 0, 0, false // a comparison or a match
		}
		k++
	case s[k] == ':':
		if k+1 < len(s) && s[k+1] == ':' {
			return 0, 0, false
		}
		k++
		if !m.literal {
			k = skipAnnotation(s, k) // password: str = "…"
		}
		tight = k < len(s) && s[k] != ' ' && s[k] != '\t'
	case s[k] == ',' && quote != 0 && constantName(s[start:end]) && afterParen(s, start-1):
		k++ // ("API_KEY", "value"), define('DB_PASSWORD', …)
		pair = true
	case !m.literal && quote == 0 && isKeyStart(s[k]):
		// A declared type between name and value: apiKey string = "…".
		t := k
		for t < len(s) && (isKeyChar(s[t]) || s[t] == '[' || s[t] == ']' || s[t] == '*') {
			t++
		}
		t = skipSpace(s, t)
		if t >= len(s) || s[t] != '=' || (t+1 < len(s) && (s[t+1] == '=' || s[t+1] == '>')) {
			return 0, 0, false
		}
		k = t + 1
	default:
		return 0, 0, false
	}
	v := skipSpace(s, k)
	if v >= len(s) {
		return 0, 0, false
	}
	q := v
	for n := 0; n < 2 && q < len(s) && strings.IndexByte("bBrRuUfF", s[q]) >= 0; n++ {
		q++ // b"…", r'…', f"…"
	}
	if q < len(s) && (s[q] == '"' || s[q] == '\'' || s[q] == '`') {
		c := s[q]
		if strings.HasPrefix(s[q:], strings.Repeat(string(c), 3)) {
			return 0, 0, false // a multi-line string starts
		}
		e := closing(s, q+1, c)
		if e == len(s) || !literal(s[q+1:e], true) {
			return 0, 0, false
		}
		if kind == tokenName && !m.literal && !tokenLike(s[q+1:e]) {
			return 0, 0, false // token = "is not" in a tokenizer
		}
		if nameOf(s[start:end], s[q+1:e]) {
			return 0, 0, false
		}
		return q + 1, e, true
	}
	inline := !atLineStart(s[:start], quote)
	if pair || (tight && inline) {
		return 0, 0, false // a list of names; prose such as "pass :attr:"
	}
	if !m.literal {
		// In code only a field of a connection string or URL is a literal
		// without quotes: ";Password=…;", "?token=…&".
		if !inline || start == 0 || strings.IndexByte(";&?", s[start-1]) < 0 {
			return 0, 0, false
		}
	}
	e := len(s)
	if inline {
		e = v
		for e < len(s) && !unicode.IsSpace(rune(s[e])) && strings.IndexByte("&;,\"'<>)]}`", s[e]) < 0 {
			e++
		}
		if e < len(s) && s[e] == '(' {
			return 0, 0, false
		}
	} else {
		for e > v && (s[e-1] == ' ' || s[e-1] == '\t' || s[e-1] == '\r' || s[e-1] == ',' || s[e-1] == ';') {
			e--
		}
	}
	if e <= v || !literal(s[v:e], false) || strings.EqualFold(s[v:e], s[start:end]) {
		return 0, 0, false // password=password passes a variable on
	}
	if quote != 0 && strings.Trim(s[v:e], "0123456789") != "" {
		return 0, 0, false // {'X-CSRFToken': csrftoken}: only a number is bare after a quoted key
	}
	if !m.literal && strings.ContainsAny(s[v:e], "()") {
		return 0, 0, false
	}
	return v, e, true
}

// afterParen reports whether a '(' opens before s[i], spaces aside: the
// first argument of a call.
func afterParen(s string, i int) bool {
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	return i > 0 && s[i-1] == '('
}

// constantName reports whether key is written as a constant or an
// environment variable (API_KEY, DB_PASSWORD).
func constantName(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c >= 'a' && c <= 'z' {
			return false
		}
	}
	return true
}

// closing returns the index of the quote c that closes a string opened
// before i, or len(s) when the line ends first.
func closing(s string, i int, c byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case c:
			return i
		}
	}
	return len(s)
}

// skipAnnotation skips a type annotation after a colon when an assignment
// follows ("password: str = …", "apiKey: string = …") and returns where the
// value starts; otherwise it returns i.
func skipAnnotation(s string, i int) int {
	t := skipSpace(s, i)
	if t >= len(s) || !isKeyStart(s[t]) {
		return i
	}
	for t < len(s) && (isKeyChar(s[t]) || strings.IndexByte("[]|<>?*, ", s[t]) >= 0) {
		t++
	}
	if t < len(s) && s[t] == '=' && (t+1 >= len(s) || (s[t+1] != '=' && s[t+1] != '>')) {
		return t + 1
	}
	return i
}

// lineStarts are the words that may stand before a key at the start of a
// line: its value then runs to the end of the line.
var lineStarts = map[string]bool{"": true, "-": true, "export": true, "set": true, "env": true, "arg": true,
	"readonly": true, "local": true, "declare": true, "setenv": true}

// atLineStart reports whether only a line start (indentation, a list dash,
// export, a view's "12 |" gutter) stands before a key.
func atLineStart(before string, quote byte) bool {
	if quote != 0 {
		before = before[:len(before)-1]
	}
	before = strings.TrimSpace(before)
	if i := strings.IndexByte(before, '|'); i >= 0 && strings.Trim(before[:i], "0123456789 ") == "" {
		before = strings.TrimSpace(before[i+1:]) // a view's line number
	}
	if len(before) > 10 {
		return false
	}
	return lineStarts[strings.ToLower(before)]
}

var (
	reference  = regexp.MustCompile(`^(\$\{\{.*\}\}|\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*|\$\d+|\{\{.*\}\}|<%.*%>|\{%.*%\}|#\{[^}]*\}|%\([\w.]+\)[sd]|%[A-Za-z_][A-Za-z0-9_]*%|<[^<>]+>)$`)
	formatVerb = regexp.MustCompile(`^(%[-+# 0-9.]*[a-zA-Z]|\{[\w.:]*\}|\?|:[A-Za-z_]\w*)+$`)
	call       = regexp.MustCompile(`^[A-Za-z_$][\w.$]*[(\[]`)
	dotted     = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$`)
	// placeholders are the parts of a value that a program fills in.
	placeholders = regexp.MustCompile(`%\([\w.]+\)[a-z]|%[-+# 0-9.]*[a-zA-Z]|\{[\w.:]*\}|\$\{[^}]*\}|\{\{[^}]*\}\}`)
)

// notSecret are the unquoted words that are never a credential.
var notSecret = map[string]bool{"true": true, "false": true, "null": true, "none": true, "nil": true,
	"undefined": true, "~": true, "yes": true, "no": true, "on": true, "off": true,
	"read": true, "write": true} // GitHub Actions permissions: id-token: write

// literal reports whether v, a value assigned to a credential key, is a
// literal credential rather than empty, a reference or a placeholder.
func literal(v string, quoted bool) bool {
	v = strings.TrimSpace(v)
	if v == "" || sameRune(v) {
		return false
	}
	if strings.ContainsAny(v, "$%{}<#?:") { // what a reference or placeholder holds
		if reference.MatchString(v) || formatVerb.MatchString(v) {
			return false
		}
		if strings.IndexFunc(placeholders.ReplaceAllString(v, ""), isAlnum) < 0 {
			return false // "%s...", "{}:{}", "%(user)s@%(host)s"
		}
	}
	if notSecret[strings.ToLower(v)] {
		return false
	}
	if !quoted {
		switch v[0] {
		case '|', '>', '[', '{', '*', '&', '!', '#', ';':
			return false // YAML block scalar, flow collection, alias, anchor, tag; a comment
		}
		if (strings.ContainsAny(v, "([") && call.MatchString(v)) || (strings.Contains(v, ".") && dotted.MatchString(v)) {
			return false // code in a document: getCookie('csrftoken'), user.pass_word
		}
	}
	return !uiText(v)
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// sameRune reports whether s is one rune repeated (xxxx, ********, ...).
func sameRune(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return strings.Trim(s, string(r)) == ""
}

// uiText reports whether s reads as a sentence shown to a user ("Enter your
// password", "Invalid token.") rather than a passphrase.
func uiText(s string) bool {
	if !strings.Contains(s, " ") {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !strings.ContainsRune(" ',.?!:…’-", r) {
			return false
		}
	}
	first, n := utf8.DecodeRuneInString(s)
	second, _ := utf8.DecodeRuneInString(s[n:])
	last, _ := utf8.DecodeLastRuneInString(s)
	return (unicode.IsUpper(first) && unicode.IsLower(second)) || strings.ContainsRune(".?!:…", last)
}

// hasHint reports whether s holds a key hint, in any case. It runs on every
// line of every file hone indexes (Scrub): one lookup of each pair of bytes
// in keyPair, a comparison where a hint may start (a switch on each byte
// took three times as long: BenchmarkScrubTree).
func hasHint[T string | []byte](s T) bool {
	for i := 0; i+1 < len(s); i++ {
		x := uint16(s[i])<<8 | uint16(s[i+1])
		if !keyPairs.has(x) {
			continue
		}
		if h := keyHints[keyPair[x]-1]; len(s)-i >= len(h) && foldPrefix(s[i:i+len(h)], h) {
			return true
		}
	}
	return false
}

// pairSet is a set of byte pairs (a<<8|b) in 8 KiB, so that a scan's
// lookups stay in the processor's first cache, where a table of 64 Ki
// entries does not.
type pairSet [1 << 10]uint64

func (p *pairSet) has(x uint16) bool { return p[x>>6]&(1<<(x&63)) != 0 }

// pairsOf returns the set of the pairs a table indexed by pair maps to a
// value other than 0.
func pairsOf[T uint8 | uint16](table []T) (set pairSet) {
	for x, v := range table {
		if v != 0 {
			set[x>>6] |= 1 << (x & 63)
		}
	}
	return set
}

// keyPairs holds the pairs keyPair maps.
var keyPairs = pairsOf(keyPair[:])

// keyPair maps the first two bytes of each key hint, in any case, to the
// hint's index in keyHints plus one ("pw" stands for "pwd" too); 0 for none.
var keyPair = func() (t [1 << 16]uint8) {
	for i, h := range keyHints {
		for _, a := range []byte{h[0], h[0] &^ 0x20} {
			for _, b := range []byte{h[1], h[1] &^ 0x20} {
				t[uint16(a)<<8|uint16(b)] = uint8(i + 1)
			}
		}
	}
	return t
}()

// foldPrefix reports whether s equals the lower-case ASCII word h, in any case.
func foldPrefix[T string | []byte](s T, h string) bool {
	for j := 0; j < len(h); j++ {
		if s[j]|0x20 != h[j] {
			return false
		}
	}
	return true
}

func isKeyStart(c byte) bool {
	return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// isKeyFirst is isKeyStart or the dash of an option (--password=…).
func isKeyFirst(c byte) bool { return isKeyStart(c) || c == '-' }

func isKeyChar(c byte) bool {
	return isKeyStart(c) || (c >= '0' && c <= '9') || c == '.' || c == '-'
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// credentialParts are key parts that name a credential.
var credentialParts = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "pass": true, "pw": true, "passphrase": true,
	"secret": true, "token": true, "credential": true, "credentials": true, "creds": true,
	"apikey": true, "secretkey": true, "privatekey": true, "accesskey": true, "clientsecret": true,
}

// credentialSuffixes end key parts that name a credential (dbpassword, ghtoken).
var credentialSuffixes = []string{"password", "passwd", "secret", "token"}

// keyQualifiers make a following "key" part a credential (api_key, accessKey).
var keyQualifiers = map[string]bool{
	"api": true, "access": true, "secret": true, "private": true, "signing": true, "encryption": true,
	"master": true, "account": true, "client": true, "auth": true, "consumer": true, "subscription": true,
	"license": true, "deploy": true, "webhook": true, "ssh": true, "app": true, "service": true,
	"storage": true, "shared": true, "hmac": true,
}

// aboutParts, as a key's last part after a credential part, say the key is
// about the credential, not the credential itself.
var aboutParts = map[string]bool{
	"url": true, "uri": true, "urls": true, "endpoint": true, "host": true, "hostname": true, "port": true,
	"path": true, "paths": true, "file": true, "files": true, "filename": true, "dir": true,
	"directory": true, "type": true, "types": true, "kind": true, "name": true, "names": true,
	"label": true, "labels": true, "length": true, "len": true, "size": true, "min": true, "max": true,
	"count": true, "limit": true, "limits": true, "expiry": true, "expires": true, "expiration": true,
	"expire": true, "exp": true, "ttl": true, "timeout": true, "lifetime": true, "age": true,
	"header": true, "headers": true, "field": true, "fields": true, "prefix": true, "suffix": true,
	"id": true, "ids": true, "env": true, "var": true, "variable": true, "vars": true, "ref": true,
	"refs": true, "arn": true, "policy": true, "mode": true, "enabled": true, "enable": true,
	"disabled": true, "required": true, "regex": true, "pattern": true, "format": true, "hint": true,
	"prompt": true, "placeholder": true, "message": true, "msg": true, "error": true, "errors": true,
	"text": true, "title": true, "description": true, "desc": true, "help": true, "location": true,
	"provider": true, "manager": true, "class": true, "handler": true, "validator": true,
	"generator": true, "algorithm": true, "algo": true, "method": true, "methods": true, "scheme": true,
	"version": true, "rotation": true, "strength": true, "cache": true, "store": true, "param": true,
	"params": true, "parameter": true, "column": true, "table": true, "input": true, "option": true,
	"options": true, "flag": true, "template": true, "schema": true, "source": true, "link": true,
	"issuer": true, "audience": true, "scope": true, "scopes": true, "realm": true, "user": true,
	"username": true, "email": true, "domain": true, "region": true, "project": true, "tenant": true,
	// A key of a map: progressTokenKey (api_key ends in a qualified key part instead).
	"key": true,
	// Query lookups (Django's password__startswith).
	"startswith": true, "endswith": true, "contains": true, "icontains": true, "exact": true,
	"iexact": true, "isnull": true,
	// File names as keys ("password_change.html: 24").
	"html": true, "htm": true, "py": true, "js": true, "ts": true, "txt": true, "json": true,
	"yml": true, "yaml": true, "go": true, "rb": true, "php": true, "java": true, "md": true,
	"rst": true, "xml": true,
}

// flagParts, as a key's first part, make it a setting about credentials
// (show_password, max_tokens).
var flagParts = map[string]bool{"is": true, "has": true, "use": true, "show": true, "hide": true,
	"enable": true, "disable": true, "require": true, "allow": true, "num": true, "max": true, "min": true,
	"no": true, "public": true, "publishable": true, "pub": true,
	// Verbs: set_password names an action, not a value.
	"set": true, "get": true, "check": true, "validate": true, "verify": true, "reset": true,
	"change": true, "update": true, "hash": true, "encode": true, "decode": true, "generate": true,
	"create": true, "make": true, "load": true, "read": true, "fetch": true, "parse": true,
	"render": true, "send": true, "clear": true, "delete": true, "remove": true}

// credentialKind is what a key names.
type credentialKind int

const (
	notCredential credentialKind = iota
	// tokenName: a key whose only credential part is token (csrf_token). In
	// code such a name also holds a lexer's tokens, so a literal must look
	// like a generated token to be masked (tokenLike).
	tokenName
	credential
)

// credentialKey reports whether key names a credential.
func credentialKey(key string) bool { return keyKind(key) != notCredential }

// keyKind says whether and how key names a credential.
func keyKind(key string) credentialKind {
	if key == "_auth" {
		return credential
	}
	parts := splitKey(key)
	if len(parts) == 0 || flagParts[parts[0]] {
		return notCredential
	}
	found, kind := -1, notCredential
	for i, p := range parts {
		p = strings.TrimRight(p, "0123456789") // password1
		if p == "public" || p == "publishable" {
			return notCredential
		}
		if credentialParts[p] || (p == "key" && i > 0 && keyQualifiers[parts[i-1]]) || hasCredentialSuffix(p) {
			found = i
			if strings.HasSuffix(p, "token") && kind != credential {
				kind = tokenName
			} else {
				kind = credential
			}
		}
	}
	if found < 0 {
		return notCredential
	}
	if last := parts[len(parts)-1]; found != len(parts)-1 && aboutParts[last] {
		return notCredential
	}
	return kind
}

// nameOf reports whether value is a name related to key rather than a
// secret: one holds the other, and the holder has two parts or more
// (progressTokenKey = "progressToken", TokenTypeIDToken =
// "urn:ietf:params:oauth:token-type:id_token"), and the value has no
// space. A secret never spells its own key; a one-part key (password =
// "password1") is not judged.
func nameOf(key, value string) bool {
	kn, vn := squash(key), squash(value)
	if len(kn) < 4 || len(vn) < 4 || strings.ContainsAny(value, " \t") {
		return false
	}
	return (len(splitKey(key)) >= 2 && strings.Contains(vn, kn)) ||
		(len(splitKey(value)) >= 2 && strings.Contains(kn, vn))
}

// squash lower-cases s and drops all but letters and digits.
func squash(s string) string {
	var b strings.Builder
	for _, r := range s {
		if isAlnum(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// tokenLike reports whether v looks generated: no spaces, at least 8 bytes,
// and digits or mixed case in it, or 24 bytes and more.
func tokenLike(v string) bool {
	if len(v) < 8 || strings.ContainsAny(v, " \t") {
		return false
	}
	d, u, l := classes(v)
	return d || (u && l) || len(v) >= 24
}

func hasCredentialSuffix(p string) bool {
	for _, s := range credentialSuffixes {
		if strings.HasSuffix(p, s) {
			return true
		}
	}
	return false
}

// splitKey splits a key at . _ - and camelCase into lower-case parts.
func splitKey(key string) []string {
	var parts []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, strings.ToLower(key[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c == '.' || c == '_' || c == '-' {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := key[i-1]
		upper := c >= 'A' && c <= 'Z'
		switch {
		case upper && prev >= 'a' && prev <= 'z': // apiKey
			flush(i)
			start = i
		case upper && prev >= 'A' && prev <= 'Z' && i+1 < len(key) && key[i+1] >= 'a' && key[i+1] <= 'z': // APIKey
			flush(i)
			start = i
		}
	}
	flush(len(key))
	return parts
}

// XML forms: <password>…</password>, and a key or name attribute followed by a
// value attribute (<add key="Password" value="…"/>, Spring's <property
// name="password" value="…"/>).
var (
	xmlElement = regexp.MustCompile(`<([A-Za-z_][\w.:-]*)>([^<]+)</([A-Za-z_][\w.:-]*)>`)
	xmlKeyAttr = regexp.MustCompile(`(?i)\b(?:key|name)\s*=\s*"([^"]+)"\s+value\s*=\s*"([^"]*)"`)
)

func (m Masker) xmlForms(s string) (string, bool) {
	if strings.IndexByte(s, '<') < 0 {
		return s, false
	}
	var spans [][2]int
	for _, sm := range xmlElement.FindAllStringSubmatchIndex(s, -1) {
		name := s[sm[2]:sm[3]]
		if name == s[sm[6]:sm[7]] && credentialKey(name) && literal(s[sm[4]:sm[5]], false) {
			spans = append(spans, [2]int{sm[4], sm[5]})
		}
	}
	for _, sm := range xmlKeyAttr.FindAllStringSubmatchIndex(s, -1) {
		if credentialKey(s[sm[2]:sm[3]]) && literal(s[sm[4]:sm[5]], true) {
			spans = append(spans, [2]int{sm[4], sm[5]})
		}
	}
	return m.replace(s, spans)
}

// A shape is a well-known token: its first group is masked. Its regexp runs
// only on lines holding one of its hints (case-sensitive: a hint lists the
// cases it is written in); random, when set, must hold for the group. A
// shape without a regexp is the password of a URL (urlPasswords).
type shape struct {
	hints  []string
	re     *regexp.Regexp
	random bool
}

var tokenShapes = []shape{
	{hints: []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"}, re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])([A-Z0-9]{14,20})\b`)},
	{hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, re: regexp.MustCompile(`\bgh[pousr]_([A-Za-z0-9]{36,255})\b`)},
	{hints: []string{"github_pat_"}, re: regexp.MustCompile(`\bgithub_pat_(\w{22,255})`)},
	{hints: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glft-", "glimt-", "gloas-", "glsoat-", "glagent-", "glffct-"}, re: regexp.MustCompile(`\bgl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat|agent|ffct)-([\w-]{20,300})`)},
	{hints: []string{"xox", "xapp-"}, re: regexp.MustCompile(`\b(?:xox[abposre]|xapp)-([A-Za-z0-9-]{10,})`)},
	{hints: []string{"hooks.slack.com"}, re: regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/]{20,})`)},
	{hints: []string{"k_live_", "k_test_", "k_prod_"}, re: regexp.MustCompile(`\b[sr]k_(?:live|test|prod)_([A-Za-z0-9]{10,99})`)},
	{hints: []string{"sk-"}, re: regexp.MustCompile(`\bsk-(?:ant-(?:api|admin)\d\d-|proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})`), random: true},
	{hints: []string{"AIza"}, re: regexp.MustCompile(`\bAIza([\w-]{35})`)},
	{hints: []string{"npm_"}, re: regexp.MustCompile(`\bnpm_([A-Za-z0-9]{36})\b`)},
	{hints: []string{"pypi-"}, re: regexp.MustCompile(`\bpypi-(AgEIcHlwaS5vcmc[\w-]{50,})`)},
	{hints: []string{"SG."}, re: regexp.MustCompile(`\bSG\.([\w-]{22}\.[\w-]{43})`)},
	{hints: []string{"hf_"}, re: regexp.MustCompile(`\bhf_([A-Za-z]{34})\b`)},
	{hints: []string{"_v1_"}, re: regexp.MustCompile(`\bdo[opr]_v1_([a-f0-9]{64})`)},
	{hints: []string{"shpat_", "shpca_", "shppa_", "shpss_"}, re: regexp.MustCompile(`\bshp(?:at|ca|pa|ss)_([a-fA-F0-9]{32})`)},
	{hints: []string{"dapi"}, re: regexp.MustCompile(`\bdapi([a-f0-9]{32})`)},
	{hints: []string{"SK"}, re: regexp.MustCompile(`\bSK([0-9a-fA-F]{32})\b`)},
	{hints: []string{"eyJ"}, re: regexp.MustCompile(`\beyJ([A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)`)},
	{hints: []string{"Bearer", "bearer", "BEARER"}, re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{20,}=*)`)},
	{hints: []string{"Authorization", "authorization", "AUTHORIZATION"}, re: regexp.MustCompile(`(?i)authorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{8,}={0,2})`)},
	{hints: []string{"://"}}, // urlPasswords
	{hints: []string{"PRIVATE KEY"}, re: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(.+)`)},
}

// tokens masks the well-known token shapes the file may hold.
func (m Masker) tokens(s string) (string, bool) {
	var spans [][2]int
	for i, sh := range tokenShapes {
		if m.shapes&(1<<i) == 0 {
			continue
		}
		hit := false
		for _, h := range sh.hints {
			hit = hit || strings.Contains(s, h)
		}
		if !hit {
			continue
		}
		if sh.re == nil {
			spans = append(spans, urlPasswords(s)...)
			continue
		}
		for _, sm := range sh.re.FindAllStringSubmatchIndex(s, -1) {
			v := s[sm[2]:sm[3]]
			if strings.HasPrefix(v, Masked) || (sh.random && !randomish(v)) || sameRune(v) || reference.MatchString(v) {
				continue
			}
			spans = append(spans, [2]int{sm[2], sm[3]})
		}
	}
	return m.replace(s, spans)
}

// urlPasswords finds the password of each URL with one
// (scheme://user:password@host): the text between the first colon and the
// at sign of what follows "://", when neither a slash, a space nor a quote
// comes first.
func urlPasswords(s string) [][2]int {
	var spans [][2]int
	for off := 0; ; {
		i := strings.Index(s[off:], "://")
		if i < 0 {
			return spans
		}
		start := off + i + 3
		off = start
		if start-3 == 0 || !isKeyStart(s[start-4]) {
			continue // no scheme
		}
		colon := -1
		for j := start; j < len(s); j++ {
			c := s[j]
			if c == ':' && colon < 0 {
				colon = j
			} else if c == '@' {
				if colon >= 0 && j > colon+1 {
					if v := s[colon+1 : j]; !strings.HasPrefix(v, Masked) && !reference.MatchString(v) && !sameRune(v) {
						spans = append(spans, [2]int{colon + 1, j})
					}
				}
				break
			} else if c == '/' || c == '?' || c == '#' || c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '`' {
				break
			}
		}
	}
}

// randomish reports whether s mixes digits, upper- and lower-case letters,
// as generated keys do and words and CSS class names do not.
func randomish(s string) bool {
	d, u, l := classes(s)
	return d && u && l
}

// classes reports whether s holds ASCII digits, upper- and lower-case letters.
func classes(s string) (digit, upper, lower bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		digit = digit || (c >= '0' && c <= '9')
		upper = upper || (c >= 'A' && c <= 'Z')
		lower = lower || (c >= 'a' && c <= 'z')
	}
	return digit, upper, lower
}

// filler is what stands for the value v: Masked, or with keepLength as many
// '*' as v has bytes.
func (m Masker) filler(v string) string {
	if m.keepLength {
		return strings.Repeat("*", len(v))
	}
	return Masked
}

// replace masks the spans of s, merging overlaps.
func (m Masker) replace(s string, spans [][2]int) (string, bool) {
	if len(spans) == 0 {
		return s, false
	}
	for i := 1; i < len(spans); i++ { // insertion sort: spans are few
		for j := i; j > 0 && spans[j][0] < spans[j-1][0]; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp[0] < last {
			if sp[1] > last {
				last = sp[1]
			}
			continue
		}
		b.WriteString(s[last:sp[0]])
		b.WriteString(m.filler(s[sp[0]:sp[1]]))
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String(), true
}
