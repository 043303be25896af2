package task

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden is the reviewed form of a parsed fixture: Text is left out.
type golden struct {
	Keywords      []string // "term weight origin"
	Identifiers   []string
	DottedNames   []string
	CodeSpans     []string
	Paths         []string
	Frames        []Frame
	Errors        []string
	MentionsTests bool
	MentionsDocs  bool
}

func toGolden(t Task) golden {
	g := golden{Identifiers: t.Identifiers, DottedNames: t.DottedNames, CodeSpans: t.CodeSpans, Paths: t.Paths,
		Frames: t.Frames, Errors: t.Errors, MentionsTests: t.MentionsTests, MentionsDocs: t.MentionsDocs}
	for _, k := range t.Keywords {
		g.Keywords = append(g.Keywords, k.Text+" "+strings.TrimRight(strings.TrimRight(jsonFloat(k.Weight), "0"), ".")+" "+k.Origin)
	}
	return g
}

func jsonFloat(f float64) string {
	b, _ := json.Marshal(f)
	s := string(b)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// TestGolden parses the tasks in testdata/*.txt (real issues, and a few
// written for other languages) and compares with testdata/*.golden.json.
// Refresh with go test -run Golden -update and review the diff.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parsed := Parse(string(text))
			checkInvariants(t, name, parsed)
			got := toGolden(parsed)
			path := strings.TrimSuffix(f, ".txt") + ".golden.json"
			if *update {
				b, err := json.MarshalIndent(got, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			var want golden
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Parse(%s) (-want +got):\n%s", f, d)
			}
		})
	}
}
