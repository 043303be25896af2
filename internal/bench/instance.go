package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Instance is one benchmark issue: a repository at a commit, a task, and the
// files its real fix changed. Fields of the file beyond these are ignored.
type Instance struct {
	ID string `json:"instance_id"`
	// Repo is the upstream owner/name.
	Repo string `json:"repo"`
	// MirrorRepo is the owner/name of a repository with the same commits,
	// mirrored under the mirror root as owner+name; "" means Repo.
	MirrorRepo string `json:"mirror_repo"`
	BaseCommit string `json:"base_commit"`
	// Problem is the issue text, given verbatim to the retriever as the task.
	Problem string `json:"problem_statement"`
	// Gold are the files the fix changed, repository-relative.
	Gold []string `json:"gold_files"`
	// GoldHunks, when given, say where the fix edits the gold files (see
	// Hunk); the pack's coverage of them is measured with
	// Options.PackBudgets.
	GoldHunks []Hunk `json:"gold_hunks,omitempty"`
	// Language is optional: a set that spans languages names each
	// instance's, and the summary then has figures per language.
	Language string `json:"language,omitempty"`
}

// Mirror returns the repository whose mirror holds the instance's commit.
func (in Instance) Mirror() string {
	if in.MirrorRepo != "" {
		return in.MirrorRepo
	}
	return in.Repo
}

// maxLine bounds one line of an instances file (problem statements with
// pasted logs run to a few hundred KiB).
const maxLine = 64 << 20

// ReadInstances reads a JSON-lines file of instances. Blank lines are
// skipped; a malformed line, a missing field or a repeated instance_id is an
// error naming the line.
func ReadInstances(r io.Reader) ([]Instance, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	var out []Instance
	seen := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var in Instance
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			return nil, fmt.Errorf("bench: instances line %d: %w", n, err)
		}
		if err := in.check(); err != nil {
			return nil, fmt.Errorf("bench: instances line %d: %w", n, err)
		}
		if prev, ok := seen[in.ID]; ok {
			return nil, fmt.Errorf("bench: instances line %d: instance_id %q already on line %d", n, in.ID, prev)
		}
		seen[in.ID] = n
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: reading instances: %w", err)
	}
	return out, nil
}

func (in Instance) check() error {
	var missing []string
	for _, f := range []struct{ name, v string }{
		{"instance_id", in.ID}, {"repo", in.Repo}, {"base_commit", in.BaseCommit}, {"problem_statement", in.Problem},
	} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(in.Gold) == 0 {
		missing = append(missing, "gold_files")
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	if strings.Count(in.Mirror(), "/") != 1 {
		return errors.New("repo must be owner/name, got " + in.Mirror())
	}
	return nil
}
