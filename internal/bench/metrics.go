package bench

import (
	"math"
	"regexp"
	"slices"
)

// Ks are the cut-offs of the ranked metrics (Acc@k, Hit@k, Recall@k).
var Ks = []int{1, 3, 5, 10}

func goldSet(gold []string) map[string]bool {
	m := make(map[string]bool, len(gold))
	for _, g := range gold {
		m[g] = true
	}
	return m
}

func top(ranked []string, k int) []string {
	return ranked[:min(k, len(ranked))]
}

// AccAt is strict file-level accuracy at k: 1 when every gold file is in the
// top k; when there are more gold files than k, 1 when the top k are k gold
// files. Otherwise 0.
func AccAt(ranked, gold []string, k int) float64 {
	if k <= 0 {
		return 0 // nothing read finds nothing
	}
	g := goldSet(gold)
	t := top(ranked, k)
	in := 0
	for _, p := range t {
		if g[p] {
			in++
		}
	}
	if len(g) > k {
		return b2f(len(t) == k && in == k)
	}
	return b2f(len(g) > 0 && in == len(g))
}

// HitAt is 1 when at least one gold file is in the top k.
func HitAt(ranked, gold []string, k int) float64 {
	g := goldSet(gold)
	for _, p := range top(ranked, k) {
		if g[p] {
			return 1
		}
	}
	return 0
}

// RecallAt is the share of gold files in the top k.
func RecallAt(ranked, gold []string, k int) float64 {
	g := goldSet(gold)
	if len(g) == 0 {
		return 0
	}
	in := 0
	for _, p := range top(ranked, k) {
		if g[p] {
			in++
		}
	}
	return float64(in) / float64(len(g))
}

// ReciprocalRank is 1/rank of the first gold file (ranks from 1), 0 when no
// gold file is ranked. Its mean over instances is the MRR.
func ReciprocalRank(ranked, gold []string) float64 {
	g := goldSet(gold)
	for i, p := range ranked {
		if g[p] {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// SetPrecision is the share of the selected files that are gold. The
// precision of an empty selection is defined as 0: selecting nothing is not
// a precise answer.
func SetPrecision(files, gold []string) float64 {
	if len(files) == 0 {
		return 0
	}
	g := goldSet(gold)
	in := 0
	for _, p := range files {
		if g[p] {
			in++
		}
	}
	return float64(in) / float64(len(files))
}

// SetRecall is the share of gold files among the selected files (0 with no
// gold file).
func SetRecall(files, gold []string) float64 {
	return RecallAt(files, gold, len(files))
}

// Median is the middle of xs (the mean of the two middle values when len(xs)
// is even); 0 for no value.
func Median(xs []int64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return float64(s[n/2-1]+s[n/2]) / 2
}

// Percentile is the nearest-rank p-th percentile of xs: the smallest value
// with at least p% of the values at or below it; 0 for no value.
func Percentile(xs []int64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	r := int(math.Ceil(p / 100 * float64(len(s))))
	r = max(1, min(r, len(s)))
	return float64(s[r-1])
}

var (
	number = regexp.MustCompile(`\d+(\.\d+)?`)
	detail = regexp.MustCompile(`\s*\([^()]*\)`)
)

// StopKind is a stop reason with its numbers replaced by N and its details
// in parentheses (the files it names) left out, so that reasons of one kind
// count together: "cycle 2 brought no new file" -> "cycle N brought no new
// file".
func StopKind(stopped string) string {
	return number.ReplaceAllString(detail.ReplaceAllString(stopped, ""), "N")
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
