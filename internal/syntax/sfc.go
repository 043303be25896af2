package syntax

import (
	"regexp"
	"strings"
)

// Single-file components
//
// A Vue (.vue) or Svelte (.svelte) component holds its code in <script>
// blocks between markup and styles: a <script setup lang="ts"> of a Vue
// component imports the composables and stores it uses and defines the
// functions its template calls. An Astro component (.astro) holds its
// server code, TypeScript, in a frontmatter fenced by "---" lines at the
// top, and client code in <script> blocks. hone reads that code with the
// JavaScript or TypeScript grammar and leaves the rest out: sfcScript
// blanks every byte outside it (a newline stays a newline), so that the
// lines and byte offsets of definitions, references and imports are the
// file's own. A block is TypeScript when its lang attribute says ts,
// typescript or tsx (an Astro frontmatter always is); the component is
// read as TypeScript when any block is. The file's Lang is "vue", "svelte"
// or "astro"; its imports resolve as JavaScript's.

// sfcLangs maps the extensions of single-file components to their Lang.
var sfcLangs = map[string]string{".vue": "vue", ".svelte": "svelte", ".astro": "astro"}

// IsComponentLang reports whether lang is that of a single-file component
// (a value of sfcLangs), whose imports resolve as JavaScript's.
func IsComponentLang(lang string) bool {
	for _, l := range sfcLangs {
		if l == lang {
			return true
		}
	}
	return false
}

var (
	// scriptRE matches a <script> block: its attributes, then its contents.
	scriptRE = regexp.MustCompile(`(?is)<script(\s[^>]*)?>(.*?)</script\s*>`)
	// tsLangRE matches a lang attribute naming TypeScript.
	tsLangRE = regexp.MustCompile(`(?i)\blang\s*=\s*["']?(ts|typescript|tsx)\b`)
	// frontmatterRE matches an Astro frontmatter: the "---" line that opens
	// the file, its contents, and the next "---" line.
	frontmatterRE = regexp.MustCompile(`^\s*---[ \t]*\r?\n((?s:.*?))\r?\n---[ \t]*(?:\r?\n|$)`)
)

// sfcScript returns src with everything outside its code blanked (the
// contents of its <script> blocks and, with frontmatter, of an Astro
// frontmatter), and the grammar to read it with ("typescript", "tsx" or
// "javascript"); ok is false when src has no code.
func sfcScript(src []byte, frontmatter bool) (out []byte, grammar string, ok bool) {
	blocks := scriptRE.FindAllSubmatchIndex(src, -1)
	var front []int
	if frontmatter {
		front = frontmatterRE.FindSubmatchIndex(src)
	}
	if len(blocks) == 0 && front == nil {
		return nil, "", false
	}
	out = make([]byte, len(src))
	for i, c := range src {
		if c == '\n' {
			out[i] = '\n'
		} else {
			out[i] = ' '
		}
	}
	grammar = "javascript"
	if front != nil {
		copy(out[front[2]:front[3]], src[front[2]:front[3]])
		grammar = "typescript"
	}
	for _, b := range blocks {
		if front != nil && b[0] < front[1] {
			continue // a <script> inside the frontmatter's code is text there
		}
		copy(out[b[4]:b[5]], src[b[4]:b[5]])
		if b[2] < 0 {
			continue // no attributes
		}
		if m := tsLangRE.FindSubmatch(src[b[2]:b[3]]); m != nil {
			if strings.EqualFold(string(m[1]), "tsx") {
				grammar = "tsx"
			} else if grammar != "tsx" {
				grammar = "typescript"
			}
		}
	}
	return out, grammar, true
}

// extractComponent extracts the tags of a single-file component (see
// Single-file components).
func extractComponent(path, lang string, src []byte) (Result, error) {
	if len(src) > MaxParseSize {
		return Result{Lang: lang, Incomplete: "too large to parse"}, nil
	}
	code, grammar, ok := sfcScript(src, lang == "astro")
	if !ok {
		return Result{Lang: lang}, nil
	}
	res, err := grammars[grammar].extract(path, code)
	res.Lang = lang
	return res, err
}
