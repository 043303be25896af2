package index

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/hone-dev/hone/internal/tokenize"
)

// Association parameters.
const (
	// assocMaxDFRatio: a term in more than a fifth of the files is vocabulary
	// of the whole repository, not of a topic.
	assocMaxDFRatio = 0.2
	// assocSmallRepoDF: in a small repository a topic's words fill a few
	// files whatever the ratio says.
	assocSmallRepoDF = 5
	// assocMinDF: a term in one file cannot co-occur with anything twice.
	assocMinDF = 2
	// assocMinSupport: one shared file is chance; two start to be a pattern.
	assocMinSupport = 2
	// assocMinLen: two-letter terms are abbreviations too ambiguous to suggest.
	assocMinLen = 3
	// assocShrink discounts associations seen in few files: the score is
	// NPMI · support/(support+assocShrink), so a pair seen in 2 files keeps
	// 2/3 of its NPMI and one seen in 10 keeps 10/11.
	assocShrink = 1.0
	// assocSample caps the files scanned for a common term: an even sample of
	// its postings estimates the co-occurrence counts, bounding the cost.
	assocSample = 300
	// distinctiveMinLen: terms shorter than this are too generic to teach.
	distinctiveMinLen = 3
)

// markInformative marks the terms fit to be suggested: not stop words, at
// least assocMinLen long, not dotted (their parts are terms of their own).
// It runs when a segment is built; the marks are stored with it.
func (s *segment) markInformative() {
	s.informative = make([]bool, s.terms.len())
	for t := range s.informative {
		s.informative[t] = informative(s.terms.at(t))
	}
}

func informative(s string) bool {
	return len(s) >= assocMinLen && !strings.Contains(s, ".") && !tokenize.IsStopWord(s)
}

// Assoc is a term associated with another by co-occurrence in the repository.
type Assoc struct {
	Term    string
	Score   float64 // normalised pointwise mutual information, in (0,1], discounted for small support
	Support int     // files where both occur
}

var countPool sync.Pool

// Associations returns up to k terms that co-occur with term in the
// repository's files, strongest first. The strength is the normalised
// pointwise mutual information of the two terms over files,
//
//	npmi(t,u) = ln(N·c / (df_t·df_u)) / -ln(c/N)
//
// (c files hold both, estimated from an even sample of at most assocSample
// of term's files), discounted by c/(c+assocShrink). Only informative
// terms in at least assocMinDF and at most assocMaxDFRatio of the files are
// candidates, and pairs need assocMinSupport shared files. The cost is the
// total number of distinct terms in the files holding term.
func (ix *Index) Associations(term string, k int) []Assoc {
	low := strings.ToLower(term)
	if k <= 0 || len(ix.segs) == 0 {
		return nil
	}
	u := ix.terms()
	t := int32(-1)
	var docs []ID // term's live files, ascending
	for s, sg := range ix.segs {
		lt := sg.termID(low)
		if lt < 0 {
			continue
		}
		t = u.uid(s, lt)
		ds, _ := sg.postings(lt)
		for _, d := range ds {
			if g := ix.glob[s][d]; g >= 0 {
				docs = append(docs, g)
			}
		}
	}
	if len(ix.segs) > 1 {
		slices.Sort(docs)
	}
	if t < 0 {
		return nil
	}
	n := ix.Len()
	dft := len(docs)
	if dft < assocMinSupport {
		return nil
	}
	info := u.info
	maxDF := max(int32(assocMaxDFRatio*float64(n)), assocSmallRepoDF)

	counts, _ := countPool.Get().([]int32)
	if len(counts) != len(u.df) {
		counts = make([]int32, len(u.df))
	}
	var touched []int32
	step := 1
	if len(docs) > assocSample {
		step = (len(docs) + assocSample - 1) / assocSample
	}
	scale := float64(len(docs)) / float64((len(docs)+step-1)/step)
	for k := 0; k < len(docs); k += step {
		l := ix.loc[docs[k]]
		sg := ix.segs[l.seg]
		lts, _ := sg.forward(l.id)
		for _, lt := range lts {
			w := u.uid(int(l.seg), lt)
			if !info[w] || w == t {
				continue
			}
			df := u.df[w]
			if df < assocMinDF || df > maxDF {
				continue
			}
			if counts[w] == 0 {
				touched = append(touched, w)
			}
			counts[w]++
		}
	}
	var out []Assoc
	for _, w := range touched {
		c := int(math.Round(float64(counts[w]) * scale))
		counts[w] = 0
		if c < assocMinSupport {
			continue
		}
		dfu := int(u.df[w])
		pxy := float64(c) / float64(n)
		npmi := math.Log(float64(n)*float64(c)/(float64(dft)*float64(dfu))) / -math.Log(pxy)
		if pxy >= 1 {
			npmi = 1
		}
		if npmi <= 0 {
			continue
		}
		out = append(out, Assoc{Term: strings.Clone(ix.termAt(u, w)), Score: min(npmi, 1) * float64(c) / (float64(c) + assocShrink), Support: c})
	}
	countPool.Put(counts)
	slices.SortFunc(out, func(a, b Assoc) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return strings.Compare(a.Term, b.Term)
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// Distinctive returns up to k terms of file id with the highest tf·idf in the
// symbols and content fields: tf is the sum of the two counts (log-damped,
// 1+ln tf), idf the BM25 idf. Stop words, dotted terms and terms shorter than
// distinctiveMinLen are left out.
func (ix *Index) Distinctive(id ID, k int) []string {
	if id < 0 || int(id) >= ix.Len() || k <= 0 {
		return nil
	}
	u := ix.terms()
	n := ix.Len()
	type ts struct {
		text  string
		score float64
	}
	var all []ts
	l := ix.loc[id]
	sg := ix.segs[l.seg]
	fts, ftfs := sg.forward(l.id)
	for i, t := range fts {
		full := sg.full(t, l.id, ftfs[i])
		tf := int(full[FieldSymbols]) + int(full[FieldContent])
		text := sg.terms.at(int(t))
		if tf == 0 || !sg.informative[t] || len(text) < distinctiveMinLen {
			continue
		}
		df := int(u.df[u.uid(int(l.seg), t)])
		all = append(all, ts{text, (1 + math.Log(float64(tf))) * idf(n, df)})
	}
	// Ties go to the term first in the sorted term table.
	slices.SortFunc(all, func(a, b ts) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(a.text, b.text)
	})
	if len(all) > k {
		all = all[:k]
	}
	out := make([]string, len(all))
	for i, x := range all {
		out[i] = strings.Clone(x.text) // not a view of the cache's buffer
	}
	return out
}
