package mcpserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// jsonNames collects the JSON field names of the tools' inputs and outputs.
func jsonNames(types ...any) map[string]bool {
	names := map[string]bool{}
	var walk func(t reflect.Type)
	seen := map[reflect.Type]bool{}
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if tag := strings.Split(f.Tag.Get("json"), ",")[0]; tag != "" && tag != "-" {
				names[tag] = true
			}
			walk(f.Type)
		}
	}
	for _, x := range types {
		walk(reflect.TypeOf(x))
	}
	return names
}

// TestIntegrationsNameRealTools: the shipped skill, subagent and rules
// (integrations/) name only tools the server has and parameters and fields
// its tools take or return, so they cannot drift from the server.
func TestIntegrationsNameRealTools(t *testing.T) {
	tools := map[string]bool{"retrieve_context": true, "search": true, "start": true, "judge": true}
	fields := jsonNames(RetrieveInput{}, Result{}, StartInput{}, JudgeInput{}, Step{}, SearchInput{}, SearchOutput{})
	toolRE := regexp.MustCompile(`mcp__hone__(\w+)`)
	// A snake_case word in backticks, alone or as "name: value".
	fieldRE := regexp.MustCompile("`([a-z]+(?:_[a-z]+)*)(?::[^`]*)?`")
	var files []string
	filepath.WalkDir("../../integrations", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, m := range toolRE.FindAllStringSubmatch(string(b), -1) {
			if !tools[m[1]] {
				t.Errorf("%s names tool %q, which the server lacks", f, m[1])
			}
		}
		for _, m := range fieldRE.FindAllStringSubmatch(string(b), -1) {
			w := m[1]
			if !tools[w] && !fields[w] && w != "hone" {
				t.Errorf("%s names %q, neither a tool nor a field of one", f, w)
			}
		}
	}
	if checked < 4 {
		t.Fatalf("checked %d integration files, want the 4 shipped", checked)
	}
}
