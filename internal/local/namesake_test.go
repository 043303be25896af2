package local

import (
	"slices"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

// TestNamesakeDefinition: a plain name the task says as a key word, defined
// in the file named after it and in few others, names the file's subject
// (passthrough in passthrough.ts): the file gets the symbol signal a
// compound name would. A plain name defined in a file of another name, or
// in more than MaxSharedDefiners files (step), does not. Two layouts,
// written apart.
func TestNamesakeDefinition(t *testing.T) {
	fixtures := []struct {
		name  string
		files map[string]string
		task  string
		want  string   // the file that gets the signal, and the label
		label string   // its label
		not   []string // files that must not get a namesake signal
	}{
		{
			name: "TypeScript, a function per file",
			files: map[string]string{
				"src/core/passthrough.ts": "/** Performs the intercepted request as is. */\nexport function passthrough(): Response {\n  return new Response(null, { status: 302 })\n}\n",
				"src/core/handle.ts":      "import { passthrough } from './passthrough'\n\nexport function onPassthroughResponse(r: Response) {\n  // passthrough responses are sent on as they are\n  return passthrough\n}\n",
				"src/core/bypass.ts":      "export function bypass(input: string): Request {\n  return new Request(input)\n}\n",
				"src/core/types.ts":       "export type ResponseType = 'passthrough' | 'mocked'\n",
			},
			task:  "Return type of passthrough is wrong",
			want:  "src/core/passthrough.ts",
			label: `defines its namesake passthrough ("passthrough")`,
			not:   []string{"src/core/handle.ts", "src/core/types.ts"},
		},
		{
			name: "Python, a module named after its command",
			files: map[string]string{
				"tool/commands/arrow.py":  "def arrow(tab, step):\n    \"\"\"Move the cursor by step.\"\"\"\n    return tab.cursor + step\n",
				"tool/commands/find.py":   "def find_arrow(tab, query):\n    return [f for f in tab.files if query in f]\n",
				"tool/commands/common.py": "def arrow_keys():\n    return ['up', 'down']\n",
				"tool/a/step.py":          "def step(n):\n    return n\n",
				"tool/b/step.py":          "def step(n):\n    return n + 1\n",
				"tool/c/step.py":          "def step(n):\n    return n + 2\n",
				"tool/d/step.py":          "def step(n):\n    return n + 3\n",
			},
			task:  "New arrow top command to jump by a step to the top",
			want:  "tool/commands/arrow.py",
			label: `defines its namesake arrow ("arrow")`,
			not:   []string{"tool/commands/find.py", "tool/commands/common.py", "tool/a/step.py"},
		},
	}
	for _, tt := range fixtures {
		t.Run(tt.name, func(t *testing.T) {
			ix := testrepo.Index(t, tt.files)
			e, _ := newEval(t, ix, tt.task, Options{})
			var paths []string
			for p := range tt.files {
				paths = append(paths, p)
			}
			slices.Sort(paths)
			in := loop.EvalInput{Task: tt.task, Candidates: candidates(paths...), Cycle: 1}
			got := evalOne(t, e, in, tt.want)
			if !slices.ContainsFunc(signals(got.Reason), func(s string) bool { return strings.HasPrefix(s, tt.label+":+") }) {
				t.Errorf("%s: reason %q lacks %q", tt.want, got.Reason, tt.label)
			}
			for _, p := range tt.not {
				if r := evalOne(t, e, in, p).Reason; strings.Contains(r, "namesake") {
					t.Errorf("%s: reason %q has a namesake signal", p, r)
				}
			}
		})
	}
}
