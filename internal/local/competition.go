package local

import (
	"math"
)

// Competition: a file's relevance is judged against its rivals (see the
// package comment, "compete"): the strongest evidence of the first cycle is
// the yardstick, and a file well short of it is related, not the target.

// plainScore is a file's relevance without and with competition.
type plainScore struct{ plain, score float64 }

// compete sets each file's score: its plain relevance less Competition × how
// far its evidence falls short of the lead, but not below CompetitionFloor +
// FloorSlope × (plain - CompetitionFloor); a file at or below the floor keeps
// its plain relevance. The lead is the strongest evidence of the first cycle
// and stays: against one yardstick, scores keep the order of plain relevance
// across cycles.
func (e *Evaluator) compete(js []*judged) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, j := range js {
		if !e.led && j.evidence > e.lead {
			e.lead, e.leader = j.evidence, j.cand.Path
		}
	}
	e.led = e.led || len(js) > 0
	for _, j := range js {
		j.score = j.plain
		if !e.opts.NoCompetition && j.plain > CompetitionFloor {
			// Above the floor, never below a compressed copy of the plain
			// relevance: strictly increasing in it, so no ties and no
			// reordering.
			soft := CompetitionFloor + FloorSlope*(j.plain-CompetitionFloor)
			j.score = round3(math.Max(soft, j.plain-Competition*math.Max(0, e.lead-j.evidence)))
		}
		j.penalty = round3(j.plain - j.score)
		e.scores[j.cand.Path] = plainScore{plain: j.plain, score: j.score}
	}
}
