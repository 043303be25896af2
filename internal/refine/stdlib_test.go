package refine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

func TestIsStandardLibrary(t *testing.T) {
	tests := []struct {
		lang, imp string
		want      bool
	}{
		{"python", "itertools", true},
		{"python", "itertools.chain", true},
		{"python", "urllib.parse.urlsplit", true},
		{"python", "celery", false},
		{"python", "django.db.models", false},
		{"go", "fmt", true},
		{"go", "net/http", true},
		{"go", "github.com/labstack/echo/v4", false},
		{"go", "golang.org/x/sync/errgroup", false},
		{"typescript", "node:fs", true},
		{"typescript", "path", true},
		{"typescript", "fs/promises", true},
		{"typescript", "express", false},
		{"tsx", "react", false},
		{"java", "java.util.List", false},         // Java's and C#'s standard libraries hold frameworks
		{"java", "javax.validation.Valid", false}, // (javax.validation, DataAnnotations): kept
		{"csharp", "System.ComponentModel.DataAnnotations", false},
		{"rust", "std::collections::HashMap", true},
		{"rust", "core::fmt", true},
		{"rust", "serde::Deserialize", false},
		{"ruby", "json", false}, // not known: kept as before
	}
	for _, tt := range tests {
		if got := isStandardLibrary(tt.lang, tt.imp); got != tt.want {
			t.Errorf("isStandardLibrary(%q, %q) = %v, want %v", tt.lang, tt.imp, got, tt.want)
		}
	}
}

// TestFrameworksLeaveTheStandardLibrary: the libraries a relevant file is
// written against are learned, the standard library it also imports is
// not. Two layouts written apart: a Python mail worker on a task queue, a
// TypeScript upload route on a web framework.
func TestFrameworksLeaveTheStandardLibrary(t *testing.T) {
	python := map[string]string{
		"mail/sender.py":  "import functools\nimport itertools\nimport smtplib\nfrom celery import shared_task\n\n@shared_task\ndef send(batch):\n    for m in itertools.chain(batch):\n        smtplib.SMTP().send_message(m)\n",
		"mail/digest.py":  "import itertools\nfrom celery import shared_task\n\n@shared_task\ndef digest(users):\n    return list(itertools.islice(users, 10))\n",
		"mail/backoff.py": "import functools\nimport smtplib\n\ndef retrying(fn):\n    return functools.wraps(fn)(fn)\n",
	}
	typescript := map[string]string{
		"src/routes/upload.ts": "import { readFile } from 'node:fs/promises'\nimport path from 'path'\nimport express from 'express'\n\nexport const upload = express.Router()\nupload.post('/', async (req, res) => res.send(await readFile(path.join('/tmp', req.params.name))))\n",
		"src/routes/health.ts": "import express from 'express'\nimport os from 'os'\n\nexport const health = express.Router()\nhealth.get('/', (_req, res) => res.json({ load: os.loadavg() }))\n",
		"src/util/paths.ts":    "import path from 'path'\n\nexport const root = (p: string) => path.resolve(p)\n",
	}
	for _, tc := range []struct {
		name     string
		files    map[string]string
		relevant string
		want     string
		std      []string // what the relevant file imports of the standard library
	}{
		{"python", python, "mail/sender.py", "celery", []string{"functools", "itertools", "smtplib"}},
		{"typescript", typescript, "src/routes/upload.ts", "express", []string{"fs", "promises", "path"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for p, src := range tc.files {
				files[p] = src
			}
			for i := 1; i <= 8; i++ { // filler, so that nothing is in half the files
				files[fmt.Sprintf("misc/m%d.txt", i)] = "notes\n"
			}
			ix := testrepo.Index(t, files)
			r, _, _ := newRefiner(t, ix, "Fix the upload of mail batches", Options{NoAssociations: true})
			got := r.frameworks([]loop.Evaluation{{Path: tc.relevant, Relevance: 0.9}}, map[string]bool{})
			if !slices.Contains(got, tc.want) {
				t.Errorf("frameworks = %v, want %q among them", got, tc.want)
			}
			for _, s := range tc.std {
				if slices.Contains(got, s) {
					t.Errorf("frameworks = %v: %q is the standard library's", got, s)
				}
			}
		})
	}
}
