package index

import (
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/tokenize"
)

// maxVariants bounds Variants: a stem shared by more words is too vague.
const maxVariants = 8

// Variants returns the repository's terms that share term's stem
// (tokenize.Stem), term itself excluded, most frequent first: "expired",
// "expires" and "expiration" for "expiry". Since stems are prefixes of their
// words, the sorted term table is scanned from the stem on.
func (ix *Index) Variants(term string) []string {
	stem := tokenize.Stem(term)
	if stem == term && len(term) <= 4 {
		return nil
	}
	var out []string
	n := ix.terms.len()
	for i := sort.Search(n, func(i int) bool { return ix.terms.at(i) >= stem }); i < n && strings.HasPrefix(ix.terms.at(i), stem); i++ {
		t := ix.terms.at(i)
		if t != term && tokenize.Stem(t) == stem {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return ix.DocFreq(out[a]) > ix.DocFreq(out[b]) })
	if len(out) > maxVariants {
		out = out[:maxVariants]
	}
	return out
}
