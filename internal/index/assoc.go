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

// informativeTerms returns, per term, whether it is fit to be suggested.
func (ix *Index) informativeTerms() []bool { return ix.informative }

// markInformative marks the terms fit to be suggested: not stop words, at
// least assocMinLen long, not dotted (their parts are terms of their own).
// It runs when the index is built; the marks are stored with it.
func (ix *Index) markInformative() {
	ix.informative = make([]bool, ix.terms.len())
	for t := range ix.informative {
		s := ix.terms.at(t)
		ix.informative[t] = len(s) >= assocMinLen && !strings.Contains(s, ".") && !tokenize.IsStopWord(s)
	}
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
	t := ix.termID(strings.ToLower(term))
	if t < 0 || k <= 0 {
		return nil
	}
	n := len(ix.files)
	dft := int(ix.postOff[t+1] - ix.postOff[t])
	if dft < assocMinSupport {
		return nil
	}
	info := ix.informativeTerms()
	maxDF := max(int32(assocMaxDFRatio*float64(n)), assocSmallRepoDF)

	counts, _ := countPool.Get().([]int32)
	if len(counts) != ix.terms.len() {
		counts = make([]int32, ix.terms.len())
	}
	var touched []int32
	docs := ix.postDoc[ix.postOff[t]:ix.postOff[t+1]]
	step := 1
	if len(docs) > assocSample {
		step = (len(docs) + assocSample - 1) / assocSample
	}
	scale := float64(len(docs)) / float64((len(docs)+step-1)/step)
	for k := 0; k < len(docs); k += step {
		d := docs[k]
		for _, u := range ix.fwdTerm[ix.fwdOff[d]:ix.fwdOff[d+1]] {
			if !info[u] || u == t {
				continue
			}
			df := ix.postOff[u+1] - ix.postOff[u]
			if df < assocMinDF || df > maxDF {
				continue
			}
			if counts[u] == 0 {
				touched = append(touched, u)
			}
			counts[u]++
		}
	}
	var out []Assoc
	for _, u := range touched {
		c := int(math.Round(float64(counts[u]) * scale))
		counts[u] = 0
		if c < assocMinSupport {
			continue
		}
		dfu := int(ix.postOff[u+1] - ix.postOff[u])
		pxy := float64(c) / float64(n)
		npmi := math.Log(float64(n)*float64(c)/(float64(dft)*float64(dfu))) / -math.Log(pxy)
		if pxy >= 1 {
			npmi = 1
		}
		if npmi <= 0 {
			continue
		}
		out = append(out, Assoc{Term: ix.terms.at(int(u)), Score: min(npmi, 1) * float64(c) / (float64(c) + assocShrink), Support: c})
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
	if id < 0 || int(id) >= len(ix.files) || k <= 0 {
		return nil
	}
	info := ix.informativeTerms()
	n := len(ix.files)
	type ts struct {
		t     int32
		score float64
	}
	var all []ts
	lo, hi := ix.fwdOff[id], ix.fwdOff[id+1]
	for i := lo; i < hi; i++ {
		t := ix.fwdTerm[i]
		full := ix.full(t, int32(id), ix.fwdTF[i])
		tf := int(full[FieldSymbols]) + int(full[FieldContent])
		if tf == 0 || !info[t] || len(ix.terms.at(int(t))) < distinctiveMinLen {
			continue
		}
		df := int(ix.postOff[t+1] - ix.postOff[t])
		all = append(all, ts{t, (1 + math.Log(float64(tf))) * idf(n, df)})
	}
	slices.SortFunc(all, func(a, b ts) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return int(a.t - b.t)
	})
	if len(all) > k {
		all = all[:k]
	}
	out := make([]string, len(all))
	for i, x := range all {
		out[i] = ix.terms.at(int(x.t))
	}
	return out
}
