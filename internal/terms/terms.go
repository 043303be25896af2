// Package terms picks, from a parsed task, the words that say the most about
// where the code is, and the repository's variants of them. The evaluator and
// the refiner share it so that both read the task the same way.
//
// A word tells in proportion to its task weight (identifiers and the title
// weigh more) times its inverse document frequency in the repository (a word
// in every file tells nothing). A word the repository never uses still
// counts, at half weight: the task may say it where the code does not.
package terms

import (
	"sort"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/synonym"
	"github.com/hone-dev/hone/internal/task"
)

const (
	// KeyCount is how many of the task's most telling words are key.
	KeyCount = 8
	// VariantsPerWord bounds the stem variants of one key word ("expired",
	// "expires" for "expiry"); more add noise, not recall.
	VariantsPerWord = 2
	// unusedFactor weighs a word the repository never uses.
	unusedFactor = 0.5
)

// Key returns the task's KeyCount most telling words.
func Key(ix *index.Index, t *task.Task) map[string]bool {
	type kw struct {
		text string
		w    float64
	}
	ks := make([]kw, 0, len(t.Keywords))
	for _, k := range t.Keywords {
		w := k.Weight * ix.IDF(k.Text)
		if ix.DocFreq(k.Text) == 0 {
			w *= unusedFactor
		}
		ks = append(ks, kw{k.Text, w})
	}
	sort.SliceStable(ks, func(a, b int) bool { return ks[a].w > ks[b].w })
	m := make(map[string]bool, KeyCount)
	for i := 0; i < len(ks) && len(m) < KeyCount; i++ {
		m[ks[i].text] = true
	}
	return m
}

// Variant is a repository term that shares a key word's stem.
type Variant struct {
	Term string
	// For is the task word it varies.
	For    string
	Weight float64 // the word's task weight
	// Short says the variant is a short or spelled-out form of the word
	// (synonym.Abbreviated), not a term sharing its stem.
	Short bool
}

// Variants returns up to VariantsPerWord variants (index.Variants, most
// frequent first) of each plain key word, and up to as many of its short or
// spelled-out forms that the repository uses (synonym.Abbreviated: tmp for
// "temporary"), skipping terms in have.
func Variants(ix *index.Index, t *task.Task, key map[string]bool, have map[string]bool) []Variant {
	var out []Variant
	for _, k := range t.Keywords {
		if k.Origin != task.OriginWord || !key[k.Text] {
			continue
		}
		take := func(terms []string, short bool) {
			n := 0
			for _, v := range terms {
				if n >= VariantsPerWord {
					break
				}
				if have[v] || short && ix.DocFreq(v) == 0 {
					continue
				}
				have[v] = true
				n++
				out = append(out, Variant{Term: v, For: k.Text, Weight: k.Weight, Short: short})
			}
		}
		take(ix.Variants(k.Text), false) // index terms: in use by construction
		take(synonym.Abbreviated(k.Text), true)
	}
	return out
}
