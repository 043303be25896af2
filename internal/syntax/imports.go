package syntax

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// normaliseImport turns one @import.<how> capture into module names.
func normaliseImport(how string, n ts.Node, src []byte) []string {
	text := string(src[n.StartByte():n.EndByte()])
	switch how {
	case "string":
		return []string{unquote(text)}
	case "relative":
		s := unquote(text)
		if !strings.HasPrefix(s, ".") {
			s = "./" + s
		}
		return []string{s}
	case "text":
		return []string{strings.Join(strings.Fields(text), "")}
	case "python":
		return pythonImport(n, src)
	case "rust":
		return rustUse(text)
	case "php":
		return phpUse(n, src)
	}
	return nil
}

// unquote strips one pair of quotes, backticks or angle brackets.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		switch f, l := s[0], s[len(s)-1]; {
		case (f == '"' || f == '\'' || f == '`') && l == f, f == '<' && l == '>':
			return s[1 : len(s)-1]
		}
	}
	return s
}

func nodeText(n *ts.Node, src []byte) string {
	if n == nil {
		return ""
	}
	return strings.Join(strings.Fields(string(src[n.StartByte():n.EndByte()])), "")
}

// pythonImport handles import_statement and import_from_statement.
func pythonImport(n ts.Node, src []byte) []string {
	var names []string
	var module string
	var moduleStart uint = ^uint(0)
	if n.Kind() == "import_from_statement" {
		m := n.ChildByFieldName("module_name")
		if m == nil {
			return nil
		}
		module, moduleStart = nodeText(m, src), m.StartByte()
		names = append(names, module)
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c == nil || c.StartByte() == moduleStart {
			continue
		}
		var name string
		switch c.Kind() {
		case "dotted_name":
			name = nodeText(c, src)
		case "aliased_import":
			name = nodeText(c.ChildByFieldName("name"), src)
		default: // wildcard_import, comment
			continue
		}
		if name == "" {
			continue
		}
		switch {
		case module == "":
			names = append(names, name)
		case strings.HasSuffix(module, "."):
			names = append(names, module+name)
		default:
			names = append(names, module+"."+name)
		}
	}
	return names
}

// rustUse expands a use tree: "a::{b, c::d as e}" -> "a::b", "a::c::d".
func rustUse(text string) []string {
	var out []string
	var expand func(prefix, s string)
	expand = func(prefix, s string) {
		s = strings.TrimSpace(s)
		if s == "" {
			return
		}
		if strings.HasSuffix(s, "}") {
			if i := strings.IndexByte(s, '{'); i >= 0 {
				head := strings.TrimSuffix(strings.TrimSpace(s[:i]), "::")
				p := joinPath(prefix, head)
				for _, part := range splitTop(s[i+1 : len(s)-1]) {
					expand(p, part)
				}
				return
			}
		}
		if i := strings.Index(s, " as "); i >= 0 {
			s = strings.TrimSpace(s[:i])
		}
		s = strings.TrimSuffix(s, "::*")
		if s == "*" || s == "self" {
			s = ""
		}
		if p := joinPath(prefix, strings.Join(strings.Fields(s), "")); p != "" {
			out = append(out, p)
		}
	}
	expand("", strings.Join(strings.Fields(text), " "))
	return out
}

func joinPath(prefix, s string) string {
	switch {
	case prefix == "":
		return s
	case s == "":
		return prefix
	}
	return prefix + "::" + s
}

// splitTop splits s at commas outside braces.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// phpUse handles a namespace_use_clause, prefixing the group of a grouped
// use ("use App\{A, B}").
func phpUse(n ts.Node, src []byte) []string {
	var name string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c != nil && (c.Kind() == "qualified_name" || c.Kind() == "name") {
			name = nodeText(c, src)
			break
		}
	}
	if name == "" {
		return nil
	}
	if p := n.Parent(); p != nil && p.Kind() == "namespace_use_group" {
		if d := p.Parent(); d != nil {
			for i := uint(0); i < d.NamedChildCount(); i++ {
				c := d.NamedChild(i)
				if c != nil && c.Kind() == "namespace_name" {
					name = nodeText(c, src) + `\` + name
					break
				}
			}
		}
	}
	return []string{strings.TrimPrefix(name, `\`)}
}

// lastSegment is the last name of a module path: "a.b.c" -> "c",
// "./auth.js" -> "auth", "crate::a::b" -> "b", "stdio.h" -> "stdio".
func lastSegment(imp string) string {
	s := imp
	if i := strings.LastIndexAny(s, `/\:`); i >= 0 {
		s = s[i+1:]
	}
	switch {
	case strings.Contains(imp, "/") || strings.HasSuffix(s, ".h") || strings.HasSuffix(s, ".hpp") || strings.HasSuffix(s, ".rb") || strings.HasSuffix(s, ".php"):
		if i := strings.IndexByte(s, '.'); i > 0 {
			s = s[:i]
		}
	default:
		if i := strings.LastIndexByte(s, '.'); i >= 0 {
			s = s[i+1:]
		}
	}
	if s == "*" || s == "." || s == ".." {
		return ""
	}
	return s
}
