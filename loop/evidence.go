package loop

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// hone's own evidence in a stepwise session (Options.Evidence, Pool and
// Prior): what it says of each candidate, shown to the judge beside the
// excerpt (Candidate.EvidenceBrief); the judgments it disputes, which come
// back once for a second look; and when it rates nothing left worth a page
// (EvidenceFloor).

// When hone's own evidence disputes a judgment. Its relevance is calibrated
// on the development set (BENCHMARKS.md, Calibration): the fix changed 27 %
// of the files it scored 0.8-0.9 and 65 % of those at 0.9 or more, but 7.7 %
// at 0.7-0.8 and under 5 % below: 0.8 is where its evidence turns for a file
// judged unrelated. A file judged relevant is disputed only when hone puts it
// below the default threshold, where the two disagree on which side of it
// the file falls: disputing it up to 0.8 too gave a second look to files
// both sides call relevant, and a second look that a judge gets wrong loses
// a file it had right (BENCHMARKS.md, *The loop with a judge that reads
// code*: a judge wrong one time in five, dev selection recall 85.4 -> 87.1 %).
const (
	// DisputeHigh: a file judged at or above the threshold while the
	// evidence is below this is disputed.
	DisputeHigh = 0.7
	// DisputeLow: a file judged below 0.5 while the evidence is at or above
	// this is disputed.
	DisputeLow = 0.8
	// DisputeLowDoubted replaces DisputeLow once the judge is in doubt
	// (DoubtBelow): files the evidence rates from here to DisputeLow, where
	// the fix changed 7.7 % of the files (BENCHMARKS.md, Calibration), get
	// a second look too when the judge rates them unrelated.
	DisputeLowDoubted = 0.7
	// DoubtBelow: a judge that rates relevant a file hone's evidence puts
	// below this, or that reverses its own judgment on a second look, is in
	// doubt for the rest of the session. The fix changed under 1 % of the
	// files the evidence scores below 0.5 (BENCHMARKS.md, Calibration): a
	// judge that finds one relevant sees what hone cannot, or errs, and
	// either way its judgments of unrelated files are worth checking where
	// hone's evidence is strong. A judge that agrees with the evidence
	// wherever the evidence is clear keeps DisputeLow: its second looks
	// cost a page slot each, which a file not offered yet may need.
	DoubtBelow = 0.5
)

// When the loop stops taking a judge's word. A judge that errs calls
// relevant files hone's evidence rates hopeless: the fix changed 0.2 % of
// the files the evidence scores 0.2-0.4, and none below 0.2 (BENCHMARKS.md,
// Calibration). One such judgment is a judge that sees what hone cannot, or
// errs, and puts it in doubt (DoubtBelow); a second says it errs, and it is
// distrusted for the rest of the session: its relevant judgments of files
// the evidence rates below OverruleBelow are overruled, the earlier ones
// too. An overruled file is not selected, does not count toward the stop
// rule, gets no second look (the same judge would settle it), and is ranked
// at its evidence, its reason saying why. A judge that insists, revising
// its judgment explicitly (Evaluation.Revise), is taken at its word: that
// is what revising is for. A judge that is right where hone is blind loses
// those files; one that errs one time in five no longer fills the
// selection with them (BENCHMARKS.md, *A judge that errs is distrusted*).
const (
	// HopelessBelow: a file judged relevant while the evidence is below
	// this counts toward DistrustAfter.
	HopelessBelow = 0.3
	// DistrustAfter is how many such files make the judge distrusted.
	DistrustAfter = 2
	// OverruleBelow: a distrusted judge's relevant judgment of a file the
	// evidence rates below this is overruled. The fix changed 0.2 % of the
	// files in 0.2-0.4 and 0.4 % in 0.4-0.5 (Calibration); overruling up
	// to 0.5 cost the judge wrong one time in five 0.3 points of recall on
	// dev and 0.2 on dev-short for 0.8 and 0.2 of precision (BENCHMARKS.md).
	OverruleBelow = 0.4
)

// noteHopeless counts e toward DistrustAfter when it judges relevant a file
// the evidence rates below HopelessBelow.
func (s *Session) noteHopeless(e Evaluation) {
	if ev, ok := s.evidence[e.Path]; ok && e.Relevance >= s.opts.Threshold && ev < HopelessBelow {
		s.hopeless[e.Path] = true
	}
}

// Distrust says why the judge is distrusted (its relevant judgments of
// files hone's evidence rates below OverruleBelow are overruled), or "".
func (s *Session) Distrust() string { return s.distrust }

// distrustWhy says why the judge is distrusted: the files it judged
// relevant that the evidence rates below HopelessBelow.
func (s *Session) distrustWhy() string {
	paths := make([]string, 0, len(s.hopeless))
	for p := range s.hopeless {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(a, b int) bool { return s.order[paths[a]] < s.order[paths[b]] })
	parts := make([]string, len(paths))
	for i, p := range paths {
		parts[i] = fmt.Sprintf("%s %.2f, hone's evidence %.2f", p, s.judged[p].Relevance, s.evidence[p])
	}
	return fmt.Sprintf("it judged relevant %d files hone's evidence rates below %.2f (%s)", len(paths), HopelessBelow, strings.Join(parts, "; "))
}

// stands reports whether the judgment e of p counts as relevant, for the
// stop rule and for enough: at or above the threshold, with no second look
// pending (a dispute open) and not overruled.
func (s *Session) stands(p string, e Evaluation) bool {
	_, open := s.disputed[p]
	return e.Relevance >= s.opts.Threshold && !open && s.overruled[p] == ""
}

// overrule records whether the distrusted judge's judgment e is overruled:
// a relevant judgment, not an explicit revision, of a file the evidence
// rates below OverruleBelow. An overruled file's open dispute is closed: its
// second look is not given.
func (s *Session) overrule(e Evaluation) {
	delete(s.overruled, e.Path)
	ev, ok := s.evidence[e.Path]
	if s.distrust == "" || !ok || e.Revise || e.Relevance < s.opts.Threshold || ev >= OverruleBelow {
		return
	}
	s.overruled[e.Path] = fmt.Sprintf("judged %.2f where hone's evidence is %.2f, by a judge distrusted after it judged relevant %d files the evidence rates below %.2f",
		e.Relevance, ev, len(s.hopeless), HopelessBelow)
	delete(s.disputed, e.Path)
}

// EvidenceFloor: once the judge has found what it needs, a pooled session
// (Options.Pool) offers no page whose best new file hone's evidence rates
// below this. The fix changed under 1 % of the files it scores below 0.5
// (BENCHMARKS.md, Calibration): reading such a page costs a judge
// thousands of tokens for little. At 0.5 a perfect simulated judge lost
// every gold file of 4 more of the 407 issues of the development set; at
// 0.4, none.
const EvidenceFloor = 0.4

// briefParts is how many of the evidence's reasons EvidenceBrief keeps.
const briefParts = 3

// reasonPartRE matches one part of an evaluator's reason: "what:+0.25".
var reasonPartRE = regexp.MustCompile(`(.+?:[+-]\d+(?:\.\d+)?)(?:, |$)`)

// EvidenceBrief is hone's evidence for a judge to read beside the excerpt:
// "hone 0.93: defines isTokenExpired:+0.35, covers 3 of 3 task terms:+0.30,
// ..." with the first briefParts parts of its reason (BriefReason); ""
// when the file was not weighed.
func (c Candidate) EvidenceBrief() string {
	if c.EvidenceReason == "" && c.Evidence == 0 {
		return ""
	}
	brief := fmt.Sprintf("hone %.2f", c.Evidence)
	if r := BriefReason(c.EvidenceReason, briefParts); r != "" {
		brief += ": " + r
	}
	return brief
}

// BriefReason keeps the first n parts ("what:+0.25") of an evaluator's
// reason, which writes the largest contributions first, and marks the cut
// with ", ..."; a reason not made of such parts is kept whole.
func BriefReason(reason string, n int) string {
	parts := reasonPartRE.FindAllStringSubmatch(reason, n+1)
	if len(parts) == 0 {
		return reason
	}
	var b strings.Builder
	for i, m := range parts {
		if i == n {
			b.WriteString(", ...")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(m[1])
	}
	return b.String()
}

// enough reports whether the judge has found what it needs and hone's
// evidence rates nothing left worth a page: a file judged at or above the
// threshold that the evidence does not dispute, no critical gap, nothing
// the judge's last answer asked for (missing context, terms, requests), and
// no fresh candidate at EvidenceFloor or more. fresh is sorted by evidence.
func (s *Session) enough(fresh []Candidate) (string, bool) {
	if s.extra || s.asked || len(s.cycles) == 0 {
		return "", false
	}
	found := ""
	for p, e := range s.judged {
		if !s.stands(p, e) {
			continue
		}
		if e.Critical {
			return "", false
		}
		if found == "" || s.order[p] < s.order[found] {
			found = p
		}
	}
	if found == "" {
		return "", false
	}
	for _, c := range fresh {
		if s.evidence[c.Path] >= EvidenceFloor {
			return "", false
		}
	}
	best := "nothing"
	if len(fresh) > 0 {
		best = fmt.Sprintf("%s at %.2f", fresh[0].Path, s.evidence[fresh[0].Path])
	}
	return fmt.Sprintf("after cycle %d: the judge found a relevant file and hone rates no file left at %.2f or more (found %s; best left %s)",
		len(s.cycles), EvidenceFloor, found, best), true
}

// secondLooks returns the disputed judgments as candidates, in the order
// their files were first seen, each saying why it is offered again.
func (s *Session) secondLooks() []Candidate {
	var out []Candidate
	for p, why := range s.disputed {
		out = append(out, Candidate{Path: p, Via: []string{SecondLook + why}})
	}
	sort.Slice(out, func(a, b int) bool { return s.order[out[a].Path] < s.order[out[b].Path] })
	return out
}

// weigh runs Options.Evidence on the new candidates and keeps its relevance.
func (s *Session) weigh(ctx context.Context, cands []Candidate) error {
	if s.opts.Evidence == nil || s.opts.Rejudge || len(cands) == 0 {
		return nil
	}
	evs, err := s.opts.Evidence.Evaluate(ctx, EvalInput{Task: s.task, Cycle: s.Cycle(), Query: s.query.Clone(),
		Candidates: append([]Candidate(nil), cands...), Judged: s.Judged()})
	if err != nil {
		return fmt.Errorf("loop: hone's evidence: %w", err)
	}
	for _, e := range evs {
		s.evidence[e.Path] = clamp01(e.Relevance)
		s.why[e.Path] = e.Reason
	}
	return nil
}

// dispute records whether hone's evidence disputes the judgment e strongly
// (a file judged relevant that the evidence puts below DisputeHigh, or one
// judged unrelated that it puts at DisputeLow or more); a file gets one
// second look, after which its judgment stands.
func (s *Session) dispute(e Evaluation) {
	delete(s.disputed, e.Path)
	if s.looked[e.Path] || e.Revise {
		return
	}
	low := DisputeLow
	if s.doubt != "" {
		low = DisputeLowDoubted
	}
	ev, ok := s.evidence[e.Path]
	switch {
	case !ok:
	case e.Relevance >= s.opts.Threshold && ev < DisputeHigh:
		s.disputed[e.Path] = fmt.Sprintf("judged %.2f, hone's evidence %.2f", e.Relevance, ev)
	case e.Relevance < 0.5 && ev >= low:
		why := fmt.Sprintf("judged %.2f, hone's evidence %.2f", e.Relevance, ev)
		if ev < DisputeLow {
			why += "; the judge is in doubt: " + s.doubt
		}
		s.disputed[e.Path] = why
	}
}

// doubtOf returns why the judgment e puts the judge in doubt (DoubtBelow),
// or "": it rates relevant a file hone's evidence puts below DoubtBelow, or
// it is a second look (its file's dispute is open, so it was judged before)
// that turns the file's judgment to the other side of the threshold. Call
// it before e is recorded.
func (s *Session) doubtOf(e Evaluation) string {
	if ev, ok := s.evidence[e.Path]; ok && e.Relevance >= s.opts.Threshold && ev < DoubtBelow {
		return fmt.Sprintf("it judged %s %.2f where hone's evidence is %.2f", e.Path, e.Relevance, ev)
	}
	if _, open := s.disputed[e.Path]; open && !e.Revise {
		before := s.judged[e.Path]
		if (before.Relevance >= s.opts.Threshold) == (e.Relevance >= s.opts.Threshold) {
			return ""
		}
		return fmt.Sprintf("it judged %s %.2f, then %.2f on a second look", e.Path, before.Relevance, e.Relevance)
	}
	return ""
}

// evidenceRanked returns hone's own evaluation of every file its evidence
// weighed, best first: Options.Prior's as they are, the others with their
// relevance.
func (s *Session) evidenceRanked() []Evaluation {
	if len(s.evidence) == 0 {
		return nil
	}
	out := make([]Evaluation, 0, len(s.evidence))
	seen := make(map[string]bool, len(s.evidence))
	for _, e := range s.opts.Prior {
		if !seen[e.Path] {
			seen[e.Path] = true
			e.Relevance = s.evidence[e.Path]
			out = append(out, e)
		}
	}
	for p, r := range s.evidence {
		if !seen[p] {
			out = append(out, Evaluation{Path: p, Relevance: r, Reason: fmt.Sprintf("hone's evidence %.2f", r), MissingContext: []string{}})
		}
	}
	s.sortEvals(out)
	return out
}
