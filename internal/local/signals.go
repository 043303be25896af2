package local

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/tokenize"
)

// The signals that need no other file: lexical (BM25F, coverage), focus,
// history, anchors (paths, frames, modules, named symbols, mentions), the
// symbol and path naming signals (see the package comment for each weight).

// baseSignals adds the signals that need no other file. stands maps the
// cycle's association terms to the task words they stand for.
func (e *Evaluator) baseSignals(j *judged, best float64, stands map[string][]string) {
	add := func(label string, v float64) {
		if v > 0.0005 {
			j.signals = append(j.signals, contribution{label, v})
		}
	}
	if best > 0 && j.lex.Score > 0 {
		r := math.Min(1, j.lex.Score/best)
		add(fmt.Sprintf("bm25 %.2f of best", r), WeightBM25*r)
	}
	if e.taskTotal > 0 {
		got := map[string]bool{}
		for _, m := range j.lex.Matched {
			if t := e.taskTerm(m); t != "" {
				got[t] = true
			}
			for _, t := range stands[m] {
				got[t] = true
			}
		}
		for term, words := range stands {
			if strings.HasPrefix(term, synonymKey) || !e.contains(j.id, term) {
				continue
			}
			for _, t := range words {
				got[t] = true
			}
		}
		covered := 0.0
		for t := range got {
			covered += e.taskTerms[t]
		}
		add(fmt.Sprintf("covers %d of %d task terms", len(got), len(e.taskTerms)), WeightCoverage*covered/e.taskTotal)
	}
	stem := strings.TrimSuffix(path.Base(j.cand.Path), path.Ext(j.cand.Path))
	lowerStem := strings.ToLower(stem)
	for _, d := range e.ix.File(j.id).Defs {
		if !e.specific(d.Name) {
			// A plain name that is the code's word for the task's concept
			// (throttle for "rate limiting") names it as well as a compound.
			if syn := stands[synonymKey+strings.ToLower(d.Name)]; len(syn) > 0 &&
				len(e.ix.Defining(d.Name)) <= MaxSharedDefiners {
				add(fmt.Sprintf("defines %s (%s)", d.Name, syn[0]), WeightSymbolTerm)
				break
			}
			// So does the task's own key word defined in the file named
			// after it (passthrough in passthrough.ts), by few files.
			if lower := strings.ToLower(d.Name); lower == lowerStem && len(d.Name) >= 3 {
				if w := e.taskTerm(lower); w != "" && e.keyTerms[w] && len(e.ix.Defining(d.Name)) <= MaxSharedDefiners {
					add(fmt.Sprintf("defines its namesake %s (%q)", d.Name, w), WeightSymbolTerm)
					break
				}
			}
			continue
		}
		if t := e.namedAfter(d.Name, stands); t != "" {
			add(fmt.Sprintf("defines %s (%q)", d.Name, t), WeightSymbolTerm)
			break
		}
	}
	anchorSum := 0.0
	var anchorLabels []contribution
	for _, a := range e.anchors.ByFile[j.id] {
		var w float64
		label := ""
		switch a.Kind {
		case anchor.KindPath:
			w, label = WeightPath, "task names path "+a.Name
		case anchor.KindFrame:
			w, label = WeightFrame, "trace frame "+a.Name
			if a.Order == e.lastFrame {
				w += WeightLastFrame
				label = "trace frame nearest the error " + a.Name
			}
		case anchor.KindModule:
			w, label = WeightModule*e.importance(a.Name), "task names module "+a.Name
		case anchor.KindDefines:
			w, label = WeightDefines*e.importance(a.Name), "defines "+a.Name
		case anchor.KindUses:
			w, label = WeightUses*e.importance(a.Name), "uses "+a.Name
		case anchor.KindMentions:
			w, label = WeightMentions*e.importance(a.Name), "mentions "+a.Name
		}
		anchorLabels = append(anchorLabels, contribution{label, w * a.Strength})
	}
	sort.SliceStable(anchorLabels, func(a, b int) bool { return anchorLabels[a].value > anchorLabels[b].value })
	for _, c := range anchorLabels {
		v := math.Min(c.value, AnchorCap-anchorSum)
		if v <= 0 {
			break
		}
		anchorSum += v
		add(c.label, v)
	}
	if says := e.pathSays(j.cand.Path); len(says) >= 2 {
		add(fmt.Sprintf("path says %s (title)", strings.Join(says, " and ")), WeightPathName)
	}
	if strings.HasPrefix(stem, "__") {
		stem = "" // __init__, __main__: every package has one; the name says nothing
	}
	for _, t := range nameTerms(stem) {
		if w := e.taskTerm(t); w != "" && e.keyTerms[w] {
			add(fmt.Sprintf("file name says %q", t), WeightPathName)
			break
		}
		if syn := stands[synonymKey+t]; len(syn) > 0 {
			add(fmt.Sprintf("file name says %q (%s)", t, syn[0]), WeightPathName)
			break
		}
	}
	for _, s := range j.signals {
		j.base += s.value
	}
	// Focus reads the file again: only for files whose other evidence
	// could place them among the strongest.
	if !e.opts.NoFocus && j.base >= FocusFloor {
		f := e.focus(j.id)
		for _, c := range []struct {
			p    piece
			w    float64
			what string
		}{{f.all, WeightFocus, "task terms"}, {f.title, WeightTitleFocus, "title words"}} {
			if v := c.w * c.p.share; v > 0.0005 {
				add(c.p.label(c.what), v)
				j.base += v
			}
		}
	}
	if e.oneLine {
		if n, most := e.opts.History.Touches(j.cand.Path); n > 0 && most > 1 {
			if v := WeightActivity * math.Log1p(float64(n)) / math.Log1p(float64(most)); v > 0.0005 {
				add(fmt.Sprintf("changed by %d commit%s", n, plural(n)), v)
				j.base += v
			}
		}
	}
	if h, ok := e.past[j.cand.Path]; ok {
		if v := WeightHistory * h.Score; v > 0.0005 {
			add(fmt.Sprintf("past commits like the task touched it (%d, best %s)", h.Commits, h.Best), v)
			j.base += v
		}
	}
}

// pathSays returns the title words that the file's path (directories and
// name) says, in path order.
func (e *Evaluator) pathSays(p string) []string {
	p = strings.TrimSuffix(p, path.Ext(p))
	var out []string
	seen := map[string]bool{}
	for _, comp := range strings.Split(p, "/") {
		tokenize.Identifier(comp, func(t string) {
			if w, ok := e.titleStems[tokenize.Stem(t)]; ok && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		})
	}
	return out
}

// importance returns how central a named symbol or module is to the task,
// in [MinImportance, 1]: 1 when the title names it, else its keyword weight
// relative to the task's heaviest keyword. A class named in the title
// weighs 1; one used in a pasted reproducer (models.Model, models.CharField)
// weighs less.
func (e *Evaluator) importance(name string) float64 {
	w := e.taskTerms[strings.ToLower(name)]
	if w == 0 {
		if i := strings.LastIndex(name, "."); i >= 0 {
			w = e.taskTerms[strings.ToLower(name[i+1:])]
		}
	}
	if e.maxWeight <= 0 || e.inTitle(name) {
		return 1
	}
	return math.Max(MinImportance, math.Min(1, w/e.maxWeight))
}

// inTitle reports whether the task's title has name as a word (in any
// case: titles capitalise their first word): the title states the subject.
func (e *Evaluator) inTitle(name string) bool {
	return e.titleWords[strings.ToLower(name)]
}

// contains reports whether file id has term in any field.
func (e *Evaluator) contains(id index.ID, term string) bool {
	for f := index.Field(0); f < index.NumFields; f++ {
		if e.ix.TermFreq(id, f, term) > 0 {
			return true
		}
	}
	return false
}

// specific reports whether a name says something when two files share it:
// not a dunder, defined in at most MaxSharedDefiners files, and either a
// compound identifier (is_language_prefix_used, ModelAdmin) or a capitalised
// name of some length (Session): plain words such as append, warn or collect
// are everyone's vocabulary.
//
// Every candidate's definitions are asked about in every cycle, and the
// answer depends on the index alone: it is computed once per evaluator.
func (e *Evaluator) specific(name string) bool {
	e.memoMu.Lock()
	s, ok := e.specificOf[name]
	e.memoMu.Unlock()
	if ok {
		return s
	}
	s = e.isSpecific(name)
	e.memoMu.Lock()
	e.specificOf[name] = s
	e.memoMu.Unlock()
	return s
}

func (e *Evaluator) isSpecific(name string) bool {
	if strings.HasPrefix(name, "__") || len(name) < 3 {
		return false
	}
	if len(tokenize.Split(name)) < 2 && !(len(name) >= 5 && name[0] >= 'A' && name[0] <= 'Z') {
		return false
	}
	return len(e.ix.Defining(name)) <= MaxSharedDefiners
}

// taskTerm returns the task keyword that term is or is a variant of, or "".
func (e *Evaluator) taskTerm(term string) string {
	if _, ok := e.taskTerms[term]; ok {
		return term
	}
	return e.taskStems[tokenize.Stem(term)]
}

// namedAfter returns the distinctive task word a symbol's name contains (or
// the task phrase a synonym in it stands for), or "".
func (e *Evaluator) namedAfter(name string, stands map[string][]string) string {
	found := ""
	tokenize.Identifier(name, func(t string) {
		if found == "" && len(t) >= 4 && !tokenize.IsStopWord(t) {
			if w := e.taskTerm(t); w != "" && e.keyTerms[w] && !strings.ContainsAny(w, "._-") {
				found = w
			} else if syn := stands[synonymKey+t]; len(syn) > 0 {
				found = t + " for " + syn[0]
			}
		}
	})
	return found
}

// nameTerms returns a file stem's terms with a plural s dropped, so that
// tokens.ts answers "token".
func nameTerms(stem string) []string {
	var out []string
	tokenize.Identifier(stem, func(t string) {
		out = append(out, t)
		if len(t) > 3 && strings.HasSuffix(t, "s") {
			out = append(out, strings.TrimSuffix(t, "s"))
		}
	})
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
