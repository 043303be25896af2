package index

import (
	"container/heap"
	"math"
	"strings"
	"sync"
)

// BM25F parameters.
const (
	// weightPath: a term in the path names the file's subject (auth/tokens.py
	// is about tokens), as strong a signal as a definition.
	weightPath = 3.0
	// weightSymbols: a file that defines a name is where that name lives.
	weightSymbols = 3.0
	// weightContent: a mention anywhere in the text is the baseline.
	weightContent = 1.0

	// bPath: paths vary little in length; a deep path should not be punished much.
	bPath = 0.3
	// bSymbols: files defining many names dilute each one, but less than prose.
	bSymbols = 0.5
	// bContent: the classic BM25 value for running text.
	bContent = 0.75

	// k1 saturates the combined pseudo-frequency: the tenth mention adds little.
	k1 = 1.2
)

var (
	fieldWeight = [NumFields]float64{weightPath, weightSymbols, weightContent}
	fieldB      = [NumFields]float64{bPath, bSymbols, bContent}
)

// idf is the BM25 inverse document frequency of a term in df of n files.
func idf(n, df int) float64 {
	if df <= 0 {
		return 0
	}
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// accum is a Search's scratch space, pooled.
type accum struct {
	score   []float32
	matched []uint64 // words bits per file
	touched []int32
}

var accumPool sync.Pool

// Search ranks files by BM25F over the path, symbols and content fields for
// terms; keep, when non-nil, filters files. It returns at most limit hits,
// best first (ties by id). Terms are matched lower-cased; a term repeated in
// terms adds its weights. Terms with weight <= 0 are ignored.
func (ix *Index) Search(terms []Term, keep func(ID) bool, limit int) []Hit {
	n := ix.Len()
	if n == 0 || limit <= 0 || len(terms) == 0 {
		return nil
	}
	type qterm struct {
		text   string
		ids    []int32 // local id in each segment, or -1
		df     int
		weight float64
	}
	var qs []qterm
	seen := map[string]int{}
	for _, t := range terms {
		if t.Weight <= 0 {
			continue
		}
		low := strings.ToLower(t.Text)
		if i, ok := seen[low]; ok {
			qs[i].weight += t.Weight
			continue
		}
		q := qterm{text: t.Text, ids: make([]int32, len(ix.segs)), weight: t.Weight}
		for s, sg := range ix.segs {
			q.ids[s] = sg.termID(low)
			if q.ids[s] >= 0 {
				q.df += ix.segDF(s, q.ids[s])
			}
		}
		if q.df == 0 {
			// Held by no live file: as absent as from a fresh index.
			continue
		}
		seen[low] = len(qs)
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return nil
	}
	words := (len(qs) + 63) / 64

	a, _ := accumPool.Get().(*accum)
	if a == nil || len(a.score) != n || len(a.matched) < n*words {
		a = &accum{score: make([]float32, n), matched: make([]uint64, n*words)}
	}
	defer func() {
		for _, d := range a.touched {
			a.score[d] = 0
			clear(a.matched[int(d)*words : int(d)*words+words])
		}
		a.touched = a.touched[:0]
		accumPool.Put(a)
	}()

	// Each file is live in one segment only, so that its score sums the
	// same terms in the same order as in an index of one segment.
	for qi, q := range qs {
		w := float32(q.weight * idf(n, q.df))
		bit, word := uint64(1)<<(qi%64), qi/64
		for s, sg := range ix.segs {
			t := q.ids[s]
			if t < 0 {
				continue
			}
			glob := ix.glob[s]
			docs, tfs := sg.postings(t)
			for i, ld := range docs {
				d := glob[ld]
				if d < 0 {
					continue
				}
				nm := &ix.norm[d]
				tf := tfs[i]
				var x float32
				if !tf.escaped() {
					x = float32(tf[0])*nm[0] + float32(tf[1])*nm[1] + float32(tf[2])*nm[2]
				} else {
					f := sg.overflow[pairKey(t, ld)]
					x = float32(f[0])*nm[0] + float32(f[1])*nm[1] + float32(f[2])*nm[2]
				}
				if a.score[d] == 0 {
					a.touched = append(a.touched, int32(d))
				}
				a.score[d] += w * x / (k1 + x)
				a.matched[int(d)*words+word] |= bit
			}
		}
	}

	h := hitHeap{}
	for _, d := range a.touched {
		s := a.score[d]
		if s <= 0 {
			continue
		}
		if len(h) == limit && !better(s, d, h[0].score, h[0].id) {
			continue
		}
		if keep != nil && !keep(ID(d)) {
			continue
		}
		if len(h) < limit {
			heap.Push(&h, scored{s, d})
		} else {
			h[0] = scored{s, d}
			heap.Fix(&h, 0)
		}
	}
	hits := make([]Hit, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		s := heap.Pop(&h).(scored)
		hit := Hit{ID: ID(s.id), Score: float64(s.score)}
		m := a.matched[int(s.id)*words : int(s.id)*words+words]
		for qi, q := range qs {
			if m[qi/64]&(uint64(1)<<(qi%64)) != 0 {
				hit.Matched = append(hit.Matched, q.text)
			}
		}
		hits[i] = hit
	}
	return hits
}

type scored struct {
	score float32
	id    int32
}

// better orders hits: higher score first, then lower id.
func better(s float32, d int32, t float32, e int32) bool {
	return s > t || (s == t && d < e)
}

// hitHeap is a min-heap on (score, -id): its root is the worst kept hit.
type hitHeap []scored

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j].score, h[j].id, h[i].score, h[i].id) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Term is a query term with a weight.
type Term struct {
	Text   string
	Weight float64
}

// Hit is a file matched by Search.
type Hit struct {
	ID    ID
	Score float64
	// Matched lists the query terms found in the file.
	Matched []string
}
