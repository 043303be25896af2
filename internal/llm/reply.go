package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// judgment is the model's verdict on one file, as cached and applied.
type judgment struct {
	Relevance      float64  `json:"relevance"`
	Reason         string   `json:"reason"`
	MissingContext []string `json:"missing_context"`
	Critical       bool     `json:"critical"`
	Keywords       []string `json:"keywords"`
}

// reply is a parsed, not yet validated, model reply.
type reply struct {
	Evaluations []replyEval
	Keywords    []string
}

type replyEval struct {
	Path           string
	Relevance      float64
	HasRelevance   bool
	Reason         string
	MissingContext []string
	Critical       bool
}

// errNoJSON and errShape are the ways a reply can be unusable.
var (
	errNoJSON = errors.New("no JSON object")
	errShape  = errors.New("no \"evaluations\" array")
)

// parseReply reads a model's reply leniently: it strips Markdown code fences,
// takes the outermost JSON object, and accepts numbers written as strings, a
// string where a list was asked for, and "score" for "relevance". It never
// panics.
func parseReply(text string) (reply, error) {
	obj := outermostObject(stripFences(text))
	if obj == "" {
		return reply{}, errNoJSON
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(obj), &raw); err != nil {
		return reply{}, fmt.Errorf("invalid JSON: %w", err)
	}
	evs, ok := raw["evaluations"]
	if !ok {
		return reply{}, errShape
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(evs, &items); err != nil {
		return reply{}, errShape
	}
	var r reply
	for _, it := range items {
		var e replyEval
		e.Path = strings.TrimPrefix(strings.TrimSpace(asString(it["path"])), "./")
		if e.Path == "" {
			continue
		}
		rel, ok := it["relevance"]
		if !ok {
			rel, ok = it["score"]
		}
		if ok {
			e.Relevance, e.HasRelevance = asNumber(rel)
		}
		e.Reason = strings.TrimSpace(asString(it["reason"]))
		e.MissingContext = asStrings(it["missing_context"])
		e.Critical, _ = asBool(it["critical"])
		r.Evaluations = append(r.Evaluations, e)
	}
	r.Keywords = asStrings(raw["keywords"])
	return r, nil
}

// stripFences removes a ```json … ``` wrapper.
func stripFences(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if j := strings.LastIndex(rest, "```"); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	return s
}

// outermostObject returns the text from the first '{' to its matching '}'
// (braces inside strings are skipped), or to the last '}' when the object
// never closes properly.
func outermostObject(s string) string {
	start := strings.IndexByte(s, '{')
	if start < 0 {
		return ""
	}
	depth, inStr, esc := 0, false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return s[start : i+1]
			}
		}
	}
	if end := strings.LastIndexByte(s, '}'); end > start {
		return s[start : end+1]
	}
	return ""
}

func asString(m json.RawMessage) string {
	if len(m) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(m, &s) == nil {
		return s
	}
	var f float64
	if json.Unmarshal(m, &f) == nil {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return ""
}

func asNumber(m json.RawMessage) (float64, bool) {
	var f float64
	if json.Unmarshal(m, &f) == nil {
		return f, !math.IsNaN(f)
	}
	var s string
	if json.Unmarshal(m, &s) == nil {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

func asBool(m json.RawMessage) (bool, bool) {
	var b bool
	if json.Unmarshal(m, &b) == nil {
		return b, true
	}
	return false, false
}

// asStrings reads a list of strings, or one string, dropping blanks.
func asStrings(m json.RawMessage) []string {
	if len(m) == 0 {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(m, &list) != nil {
		list = []json.RawMessage{m}
	}
	var out []string
	for _, x := range list {
		if s := strings.TrimSpace(asString(x)); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// parseEnough reads Enough's reply: {"enough": bool, "missing": "..."}.
func parseEnough(text string) (enough bool, missing string, err error) {
	obj := outermostObject(stripFences(text))
	if obj == "" {
		return false, "", errNoJSON
	}
	var r struct {
		Enough  *bool           `json:"enough"`
		Missing json.RawMessage `json:"missing"`
	}
	if err := json.Unmarshal([]byte(obj), &r); err != nil {
		return false, "", fmt.Errorf("invalid JSON: %w", err)
	}
	if r.Enough == nil {
		return false, "", errShape
	}
	return *r.Enough, strings.TrimSpace(asString(r.Missing)), nil
}
