package index

import (
	"slices"
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/tokenize"
)

// maxVariants bounds Variants: a stem shared by more words is too vague.
const maxVariants = 8

// Variants returns the repository's terms that share term's stem
// (tokenize.Stem), term itself excluded, most frequent first: "expired",
// "expires" and "expiration" for "expiry". Since stems are prefixes of their
// words, each segment's sorted term table is scanned from the stem on.
func (ix *Index) Variants(term string) []string {
	stem := tokenize.Stem(term)
	if stem == term && len(term) <= 4 {
		return nil
	}
	var out []string
	for _, sg := range ix.segs {
		lo, hi := sg.prefix(stem)
		for i := lo; i < hi; i++ {
			if t := sg.terms.at(i); t != term && tokenize.Stem(t) == stem {
				out = append(out, strings.Clone(t)) // not a view of the cache's buffer
			}
		}
	}
	if !ix.single() {
		slices.Sort(out)
		out = slices.Compact(out)
		// A term only dead files hold is not the repository's any more.
		out = slices.DeleteFunc(out, func(t string) bool { return ix.DocFreq(t) == 0 })
	}
	sort.SliceStable(out, func(a, b int) bool { return ix.DocFreq(out[a]) > ix.DocFreq(out[b]) })
	if len(out) > maxVariants {
		out = out[:maxVariants]
	}
	return out
}
