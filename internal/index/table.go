package index

import (
	"slices"
	"sort"
	"strings"
)

// strTable is a sorted or unsorted table of strings laid out as one blob and
// offsets, so that it can be stored and loaded without a header per string:
// string i is blob[off[i]:off[i+1]].
type strTable struct {
	off  []uint32
	blob string
}

func newStrTable(ss []string) strTable {
	var b strings.Builder
	total := 0
	for _, s := range ss {
		total += len(s)
	}
	b.Grow(total)
	off := make([]uint32, len(ss)+1)
	for i, s := range ss {
		b.WriteString(s)
		off[i+1] = uint32(b.Len())
	}
	return strTable{off: off, blob: b.String()}
}

func (t strTable) len() int {
	if len(t.off) == 0 {
		return 0
	}
	return len(t.off) - 1
}

func (t strTable) at(i int) string { return t.blob[t.off[i]:t.off[i+1]] }

// find returns the position of s in a sorted table, or -1.
func (t strTable) find(s string) int {
	n := t.len()
	i := sort.Search(n, func(i int) bool { return t.at(i) >= s })
	if i < n && t.at(i) == s {
		return i
	}
	return -1
}

// strings returns the table as a slice of substrings of the blob.
func (t strTable) strings() []string {
	out := make([]string, t.len())
	for i := range out {
		out[i] = t.at(i)
	}
	return out
}

// nameTable maps names (sorted keys) to the ascending, distinct files holding
// them: key i's files are ids[off[i]:off[i+1]]. It is built once with the
// index and stored with it, so a warm Open builds no map.
type nameTable struct {
	keys strTable
	off  []int32
	ids  []ID
}

// get returns the files of name; the slice must not be modified.
func (nt *nameTable) get(name string) []ID {
	i := nt.keys.find(name)
	if i < 0 {
		return nil
	}
	return nt.ids[nt.off[i]:nt.off[i+1]]
}

// nameTableBuilder collects (name, file) pairs in ascending file order.
type nameTableBuilder struct {
	kid  map[string]int32
	keys []string
	ids  [][]ID
}

func (b *nameTableBuilder) add(name string, id ID) {
	if b.kid == nil {
		b.kid = map[string]int32{}
	}
	k, ok := b.kid[name]
	if !ok {
		k = int32(len(b.keys))
		b.kid[name] = k
		b.keys = append(b.keys, name)
		b.ids = append(b.ids, nil)
	}
	if ids := b.ids[k]; len(ids) == 0 || ids[len(ids)-1] != id {
		b.ids[k] = append(ids, id)
	}
}

func (b *nameTableBuilder) table() nameTable {
	order := make([]int32, len(b.keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(b.keys[x], b.keys[y]) })
	keys := make([]string, len(order))
	off := make([]int32, len(order)+1)
	total := 0
	for _, ids := range b.ids {
		total += len(ids)
	}
	ids := make([]ID, 0, total)
	for i, k := range order {
		keys[i] = b.keys[k]
		ids = append(ids, b.ids[k]...)
		off[i+1] = int32(len(ids))
	}
	return nameTable{keys: newStrTable(keys), off: off, ids: ids}
}

// buildNameTables fills the definition and reference tables from the files'
// tags (all decoded: it runs on a segment being built): a definition is
// found by Name and, for members, by Parent.Name; a reference by Name.
func (s *segment) buildNameTables() {
	var defs, refs nameTableBuilder
	for i := range s.files {
		id := ID(i)
		for _, t := range s.files[i].Defs {
			defs.add(t.Name, id)
			if t.Parent != "" {
				defs.add(t.Parent+"."+t.Name, id)
			}
		}
		for _, t := range s.files[i].Refs {
			refs.add(t.Name, id)
		}
	}
	s.defs, s.refs = defs.table(), refs.table()
}
