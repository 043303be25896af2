package history

import (
	"sort"
)

// Partners: the files a change to one file usually comes with. A task often
// changes a feature in two parallel places (a client and a server side, a
// classic and a mini API, a type and its registration), and the second place
// shares few of the task's words; the log says which files changed together
// before. Only the commits Files ranks count (merges and sweeping commits of
// more than MaxFilesPerCommit files are left out), so a release bump that
// touched everything pairs nothing.

// MinTogether is the fewest past commits two files must share to be
// partners: one shared commit is a coincidence.
const MinTogether = 2

// Partner is a file that changed with another.
type Partner struct {
	Path string
	// Together counts the commits that touched both; Of the commits that
	// touched the file asked about.
	Together, Of int
}

// Share is the part of the asked file's commits that touched the partner.
func (p Partner) Share() float64 {
	if p.Of == 0 {
		return 0
	}
	return float64(p.Together) / float64(p.Of)
}

// Partners returns the files that changed with path in at least MinTogether
// of the log's ranked commits, most often first (then by path), at most max
// of them. Paths are as the log names them.
func (l *Log) Partners(path string, max int) []Partner {
	if l == nil || max <= 0 {
		return nil
	}
	id, ok := l.pathIndex(path)
	if !ok {
		return nil
	}
	var commits []int32
	if l.disk != nil {
		commits = l.disk.touching(id)
	} else {
		commits = l.touching()[id]
	}
	count := map[int32]int{}
	var buf []int32
	for _, c := range commits {
		buf = l.commitFiles(c, buf)
		for _, f := range buf {
			if f != id {
				count[f]++
			}
		}
	}
	var out []Partner
	for f, n := range count {
		if n >= MinTogether {
			out = append(out, Partner{Path: l.pathName(f), Together: n, Of: len(commits)})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Together != out[b].Together {
			return out[a].Together > out[b].Together
		}
		return out[a].Path < out[b].Path
	})
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// touching returns, per path id, the commits that touched it (built once,
// with the most any path had).
func (l *Log) touching() [][]int32 {
	l.byPathOnce.Do(func() {
		by := make([][]int32, len(l.paths))
		for c, fs := range l.files {
			for _, f := range fs {
				by[f] = append(by[f], int32(c))
			}
		}
		for _, cs := range by {
			l.most = max(l.most, len(cs))
		}
		l.byPath = by
	})
	return l.byPath
}

// Touches returns how many of the log's ranked commits touched path, and
// the most any path had.
func (l *Log) Touches(path string) (n, most int) {
	if l == nil {
		return 0, 0
	}
	if d := l.disk; d != nil {
		if id, ok := d.paths.search(path); ok {
			n = d.touchCount(id)
		}
		return n, l.most
	}
	by := l.touching()
	if id, ok := l.pathID[path]; ok {
		n = len(by[id])
	}
	return n, l.most
}
