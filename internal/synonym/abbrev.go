package synonym

import "github.com/hone-dev/hone/internal/tokenize"

// Abbreviations: code shortens the words prose spells out ("temporary" is
// tmp or temp in an identifier, "directory" is dir). Each line is one word
// and the short forms programmers use for it across languages; a task may
// use either. Unlike the concept groups above these are the same word, so
// the caller treats them as the word's variants (as "expired" is
// "expiry's"), not as another concept. General programming usage only:
// nothing here comes from a benchmark's repository.
var abbreviations = [][]string{
	{"temporary", "temp", "tmp"},
	{"directory", "dir", "dirs"},
	{"argument", "arg", "args", "argv"},
	{"parameter", "param", "params"},
	{"message", "msg"},
	{"request", "req"},
	{"response", "resp", "res"},
	{"attribute", "attr", "attrs"},
	{"function", "func", "fn"},
	{"reference", "ref", "refs"},
	{"environment", "env"},
	{"information", "info"},
	{"initialize", "init"},
	{"maximum", "max"},
	{"minimum", "min"},
	{"number", "num"},
	{"string", "str"},
	{"character", "char"},
	{"source", "src"},
	{"destination", "dst", "dest"},
	{"previous", "prev"},
	{"current", "cur", "curr"},
	{"length", "len"},
	{"index", "idx"},
	{"context", "ctx"},
	{"buffer", "buf"},
	{"object", "obj"},
	{"value", "val"},
	{"document", "doc", "docs"},
	{"specification", "spec"},
	{"utility", "util", "utils"},
	{"library", "lib"},
	{"package", "pkg"},
	{"image", "img"},
	{"button", "btn"},
	{"command", "cmd"},
	{"application", "app"},
	{"repository", "repo"},
	{"statistics", "stats"},
	{"execute", "exec"},
	{"implementation", "impl"},
	{"sequence", "seq"},
	{"separator", "sep"},
	{"position", "pos"},
	{"expression", "expr"},
	{"allocate", "alloc"},
	{"calculate", "calc"},
	{"description", "desc"},
	{"database", "db"},
	{"configuration", "config", "cfg", "conf"},
	{"authentication", "auth"},
	{"administrator", "admin"},
	{"certificate", "cert"},
	{"password", "passwd", "pwd"},
	{"identifier", "ident"},
	{"synchronize", "sync"},
	{"asynchronous", "async"},
	{"miscellaneous", "misc"},
	{"administration", "admin"},
	{"millisecond", "ms"},
	{"organization", "org"},
	{"template", "tmpl", "tpl"},
	{"variable", "var", "vars"},
	{"dictionary", "dict"},
	{"iterator", "iter"},
	{"pointer", "ptr"},
	{"error", "err"},
}

// byStem maps the stem of every member to its groups.
var byStem = func() map[string][]int {
	m := map[string][]int{}
	for i, g := range abbreviations {
		for _, w := range g {
			st := tokenize.Stem(w)
			m[st] = append(m[st], i)
		}
	}
	return m
}()

// Abbreviated returns the other forms of word (lower-case) in the
// abbreviation table: its short forms for a spelled-out word, the word and
// its other short forms for a short form; nil when it has none. word
// matches a member by stem ("temporarily" finds temp and tmp).
func Abbreviated(word string) []string {
	var out []string
	st := tokenize.Stem(word)
	for _, i := range byStem[st] {
		for _, w := range abbreviations[i] {
			if tokenize.Stem(w) != st {
				out = append(out, w)
			}
		}
	}
	return out
}
