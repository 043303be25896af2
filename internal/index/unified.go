package index

import (
	"maps"
	"slices"
	"sort"
	"strings"
)

// unified is one term space over all segments: the first segment's local
// ids, then the terms only later segments hold, each once. Associations and
// Distinctive count in it; an index of one segment without tombstones
// could use its local ids, but the space costs nothing to build there.
type unified struct {
	segs  []*segment // the segments it maps, for a later index to reuse
	ids   [][]int32  // per segment: local term -> unified id (nil for the first)
	extra []string   // unified id len(segs[0].terms)+i is extra[i]
	// sorted: extra[:sorted] is in sorted order (as a merge laid it out),
	// found by binary search; tail finds the rest, the terms an edit
	// brought in after that.
	sorted int
	tail   map[string]int32
	df     []int32 // per unified term: live files holding it
	info   []bool  // per unified term: informative (see markInformative)
}

// terms returns the unified term space, building it on first use: from the
// space of an earlier index of the root (uniPrev, set by Open and load)
// when the two share their first segment and differ by little, so that a
// refresh after an edit maps only the edit's segment; else by a merge of
// the term tables.
func (ix *Index) terms() *unified {
	ix.uniOnce.Do(func() {
		var u *unified
		if ix.uniPrev != nil {
			u = ix.uniPrev.extend(ix.segs)
			ix.uniPrev = nil
		}
		if u == nil {
			u = mergeTerms(ix.segs)
		}
		u.count(ix)
		ix.uni.Store(u)
	})
	return ix.uni.Load()
}

// inheritTerms lets ix start its term space from from's (an earlier index
// of the same root), built or inherited; private says from is in no one
// else's hands, so that its inherited space may be read too.
func (ix *Index) inheritTerms(from *Index, private bool) {
	if u := from.uni.Load(); u != nil {
		ix.uniPrev = u
	} else if private {
		ix.uniPrev = from.uniPrev
	}
}

// mergeTerms maps segs into one space. Every term table is sorted, so the
// later segments' tables are merged, and each term the merge yields is
// looked up in the first table by galloping from where the last one was
// found: the time is linear in the later tables, whether they are a few
// edits beside one large segment or chunks of equal size (looking each
// later term up in the whole first table, and the rest in a map, took a
// second on a large tree built in chunks; this takes 85 ms).
func mergeTerms(segs []*segment) *unified {
	u := &unified{segs: segs, ids: make([][]int32, len(segs))}
	if len(segs) == 0 {
		return u
	}
	s0 := segs[0].terms
	n0 := s0.len()
	pos := make([]int, len(segs))
	head := make([]string, len(segs))
	live := make([]bool, len(segs))
	advance := func(s int) {
		if live[s] = pos[s] < segs[s].terms.len(); live[s] {
			head[s] = segs[s].terms.at(pos[s])
		}
	}
	later := 0
	for s := 1; s < len(segs); s++ {
		u.ids[s] = make([]int32, segs[s].terms.len())
		later += segs[s].terms.len()
		advance(s)
	}
	// At most that many extras: one allocation.
	u.extra = make([]string, 0, later)
	// Every first-table term before at is less than the merge's.
	at := 0
	for {
		least := -1
		for s := 1; s < len(segs); s++ {
			if live[s] && (least < 0 || head[s] < head[least]) {
				least = s
			}
		}
		if least < 0 {
			break
		}
		text := head[least]
		at = gallop(s0, at, text)
		id := int32(n0 + len(u.extra))
		if at < n0 && s0.at(at) == text {
			id = int32(at)
		} else {
			u.extra = append(u.extra, text)
		}
		for s := least; s < len(segs); s++ {
			if live[s] && head[s] == text {
				u.ids[s][pos[s]] = id
				pos[s]++
				advance(s)
			}
		}
	}
	u.sorted = len(u.extra)
	return u
}

// extend returns p's space carried over to segs: the segments both hold keep
// their maps (shared, never written), and each new segment's terms are
// looked up one by one. It returns nil, for a merge, when the first segment
// changed, or when the segments added, the segments dropped (whose terms
// stay behind unused) or the terms added since the last merge come to more
// than an eighth of the space.
func (p *unified) extend(segs []*segment) *unified {
	if len(segs) == 0 || len(p.segs) == 0 || segs[0] != p.segs[0] {
		return nil
	}
	had := make(map[*segment]int, len(p.segs))
	for j, sg := range p.segs[1:] {
		had[sg] = j + 1
	}
	u := &unified{segs: segs, ids: make([][]int32, len(segs)), sorted: p.sorted}
	bound := (segs[0].terms.len()+len(p.extra))/8 + 4096
	var fresh []int
	added := 0
	for s := 1; s < len(segs); s++ {
		if j, ok := had[segs[s]]; ok {
			u.ids[s] = p.ids[j]
			delete(had, segs[s])
		} else {
			fresh = append(fresh, s)
			added += segs[s].terms.len()
		}
	}
	dropped := 0
	for sg := range had {
		dropped += sg.terms.len()
	}
	if added > bound || dropped > bound || len(p.tail) > bound {
		return nil
	}
	// Clipped: an append copies, and p stays as it was for its own index.
	u.extra = slices.Clip(p.extra)
	u.tail = maps.Clone(p.tail)
	s0 := segs[0].terms
	n0 := s0.len()
	sorted := u.extra[:u.sorted]
	for _, s := range fresh {
		tab := segs[s].terms
		m := make([]int32, tab.len())
		for t := range m {
			text := tab.at(t)
			if i := s0.find(text); i >= 0 {
				m[t] = int32(i)
				continue
			}
			if i, ok := slices.BinarySearch(sorted, text); ok {
				m[t] = int32(n0 + i)
				continue
			}
			if id, ok := u.tail[text]; ok {
				m[t] = id
				continue
			}
			// A copy: the segment's buffer may go long before the space.
			text = strings.Clone(text)
			id := int32(n0 + len(u.extra))
			u.extra = append(u.extra, text)
			if u.tail == nil {
				u.tail = map[string]int32{}
			}
			u.tail[text] = id
			m[t] = id
		}
		u.ids[s] = m
	}
	return u
}

// count fills the space's document frequencies over ix's live files and its
// informative marks: each segment's postings lengths, less its tombstoned
// files' terms (a few, counted apart, rather than a lookup per term).
func (u *unified) count(ix *Index) {
	n0 := 0
	if len(ix.segs) > 0 {
		n0 = ix.segs[0].terms.len()
	}
	total := n0 + len(u.extra)
	u.df = make([]int32, total)
	u.info = make([]bool, total)
	for s, sg := range ix.segs {
		ids := u.ids[s]
		off := sg.postOff
		for t := range sg.terms.len() {
			id := int32(t)
			if ids != nil {
				id = ids[t]
			}
			u.df[id] += off[t+1] - off[t]
			if s == 0 || int(id) >= n0 {
				u.info[id] = sg.informative[t]
			}
		}
		for t, n := range ix.deadDF[s] {
			id := t
			if ids != nil {
				id = ids[t]
			}
			u.df[id] -= n
		}
	}
}

// termAt returns the text of unified term id.
func (ix *Index) termAt(u *unified, id int32) string {
	if n0 := ix.segs[0].terms.len(); int(id) >= n0 {
		return u.extra[int(id)-n0]
	}
	return ix.segs[0].terms.at(int(id))
}

// uid returns the unified id of local term t of segment s.
func (u *unified) uid(s int, t int32) int32 {
	if s == 0 {
		return t
	}
	return u.ids[s][t]
}

// gallop returns the position of the first term of t at or after from that
// is not less than s: it steps 1, 2, 4, ... terms ahead, then searches the
// last step, so a position n terms on costs about 2·log2(n) comparisons.
func gallop(t strTable, from int, s string) int {
	n := t.len()
	lo, step := from, 1
	hi := from
	for hi < n && t.at(hi) < s {
		lo = hi + 1
		hi = from + step
		step *= 2
	}
	hi = min(hi, n)
	return lo + sort.Search(hi-lo, func(i int) bool { return t.at(lo+i) >= s })
}
