package hone_test

import (
	"testing"
)

// TestOneLineTaskNounsOfCode: in a one-line task, a word that is filler in
// an issue report ("error", "line") names what changes. Two fixtures
// written apart, each with a target named after that word and other files
// that share the task's remaining words more: the target comes first.
func TestOneLineTaskNounsOfCode(t *testing.T) {
	cases := []struct {
		name, task, target string
		files              map[string]string
	}{
		{
			name:   "TypeScript server",
			task:   "Normalise error url to pathname",
			target: "server/handlers/error.ts",
			files: map[string]string{
				"server/handlers/error.ts": `import { renderPage } from './renderer'

export default async function errorHandler(error: HttpError, event: Event) {
  const statusCode = error.statusCode || 500
  const details = { statusCode, message: error.message, url: event.url }
  if (event.wantsJson) {
    return { error: true, ...details }
  }
  return renderPage('/__error', details)
}
`,
				"server/handlers/renderer.ts": `import { withBase } from '../utils/paths'

export async function renderPage(route: string, props: object) {
  const { pathname, search } = new URL(route, 'http://localhost')
  const html = await renderToString(withBase(pathname), props)
  return { body: html, search }
}
`,
				"server/utils/paths.ts": `export function withBase(pathname: string, base = '/') {
  return base.replace(/\/$/, '') + '/' + pathname.replace(/^\//, '')
}

export function isAbsoluteUrl(url: string) {
  return /^[a-z]+:\/\//i.test(url)
}
`,
			},
		},
		{
			name:   "Python log viewer",
			task:   "Line numbers are off by one after a filter",
			target: "logview/line.py",
			files: map[string]string{
				"logview/line.py": `"""A record of the log as the viewer shows it."""


class Line:
    def __init__(self, number, text):
        self.number = number
        self.text = text

    @classmethod
    def from_records(cls, records):
        return [cls(i, text) for i, text in enumerate(records)]

    def render(self):
        return f"{self.number:>6} {self.text}"
`,
				"logview/filter.py": `"""Keep the records that match a pattern."""
import re


def apply_filter(lines, pattern):
    rx = re.compile(pattern)
    return [ln for ln in lines if rx.search(ln.text)]
`,
				"logview/viewer.py": `"""The viewer: records in, a filtered page out."""
from logview.filter import apply_filter
from logview.line import Line


class Viewer:
    def __init__(self, records):
        self.lines = Line.from_records(records)

    def page(self, pattern=None, size=40):
        shown = apply_filter(self.lines, pattern) if pattern else self.lines
        return [ln.render() for ln in shown[:size]]
`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantFirst(t, tc.files, tc.task, tc.target)
		})
	}
}
