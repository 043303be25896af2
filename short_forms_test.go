package hone_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
)

// Code writes short forms of the words a task spells out: tmp for
// "temporary", dir for "directory". Two fixtures, written apart (a Go build
// tool, a Python service), whose file to change says only the short forms
// while other files say the task's other words. hone must rank the file of
// short forms first.
func TestShortFormsOfTaskWords(t *testing.T) {
	cases := []struct {
		name, task, target string
		files              map[string]string
	}{
		{
			name:   "Go build tool",
			task:   "Temporary directories are never deleted",
			target: "internal/stage/scratch.go",
			files: map[string]string{
				"internal/stage/scratch.go": `package stage

import "os"

// Scratch holds the tmp dirs one run made.
type Scratch struct{ dirs []string }

// NewTmpDir makes a fresh tmp dir under base and remembers it.
func (s *Scratch) NewTmpDir(base string) (string, error) {
	d, err := os.MkdirTemp(base, "stage-")
	if err == nil {
		s.dirs = append(s.dirs, d)
	}
	return d, err
}

// Purge removes every tmp dir it made.
func (s *Scratch) Purge() {
	for _, d := range s.dirs {
		os.RemoveAll(d)
	}
}
`,
				"internal/stage/build.go": `package stage

import "fmt"

// Build compiles the targets; a failed step stops the build.
func Build(targets []string) error {
	for _, t := range targets {
		if err := compile(t); err != nil {
			return fmt.Errorf("build of %s fails: %w", t, err)
		}
	}
	return nil
}

func compile(t string) error { return nil }
`,
				"internal/layout/directories.go": `package layout

// Directories are the output directories of a project, in the order the
// layout lists them: bin, lib, share.
var Directories = []string{"bin", "lib", "share"}

// Owns says whether a directory name is one the layout lists.
func Owns(name string) bool {
	for _, d := range Directories {
		if d == name {
			return true
		}
	}
	return false
}
`,
				"cmd/stage/main.go": `package main

import "fmt"

func main() { fmt.Println("stage: build targets") }
`,
			},
		},
		{
			name:   "Python service",
			task:   "Temporary directory is not removed after an error",
			target: "svc/workspace.py",
			files: map[string]string{
				"svc/workspace.py": `import shutil
import tempfile


class Workspace:
    """A tmp dir for one job."""

    def __init__(self):
        self.tmp_dir = tempfile.mkdtemp(prefix="job-")

    def run(self, job):
        job.execute(self.tmp_dir)
        shutil.rmtree(self.tmp_dir)
`,
				"svc/errors.py": `class JobError(Exception):
    """An error a job raised; the message is shown to the user."""


def describe(error):
    return "job failed: %s" % error
`,
				"svc/retention.py": `import os
import time

MAX_AGE = 30 * 24 * 3600


def prune_logs(path):
    """Old log files are removed after thirty days."""
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if time.time() - os.path.getmtime(full) > MAX_AGE:
            os.unlink(full)
`,
				"svc/app.py": `from svc.workspace import Workspace
from svc.retention import prune_logs


def main():
    ws = Workspace()
    prune_logs("/var/log/svc")
    return ws
`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, long := range []string{"temporary", "directory", "directories"} {
				if w := sharedWord(long, tc.files[tc.target]); w != "" {
					t.Fatalf("fixture %s says %q: it tests nothing", tc.target, w)
				}
			}
			wantFirst(t, tc.files, tc.task, tc.target)
		})
	}
}

// TestPackShowsShortForms: the pack aims at a task word's short forms too. A
// long file whose one function handles the tmp dirs, among many that do
// not, packed in a budget that holds a part of it: the part shown is that
// function.
func TestPackShowsShortForms(t *testing.T) {
	var src strings.Builder
	src.WriteString("package stage\n\nimport \"os\"\n\n")
	for i := range 60 {
		fmt.Fprintf(&src, "// Step%d runs stage %d of the pipeline and reports its outcome.\nfunc Step%d(n int) int {\n\tif n > %d {\n\t\treturn n - %d\n\t}\n\treturn n + %d\n}\n\n", i, i, i, i, i, i)
		if i == 41 {
			src.WriteString("// Purge drops every tmp dir a run made.\nfunc Purge(tmpDirs []string) {\n\tfor _, d := range tmpDirs {\n\t\tos.RemoveAll(d)\n\t}\n}\n\n")
		}
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "stage"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stage", "pipeline.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := open(t, dir)
	const task = "Temporary directories are never deleted"
	res, err := repo.Retrieve(context.Background(), task, hone.RetrieveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pack, err := repo.Pack(res, hone.PackOptions{Budget: 500})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pack, "func Purge(tmpDirs []string)") {
		t.Errorf("the pack does not show the function of tmp dirs:\n%s", pack)
	}
}
