package loop

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// finishingEvaluator is a fakeEvaluator that also answers Enough: enough
// once want files stand relevant (or err).
type finishingEvaluator struct {
	fakeEvaluator
	want  int
	err   error
	asked []EnoughInput
}

func (f *finishingEvaluator) Enough(ctx context.Context, in EnoughInput) (bool, string, error) {
	f.asked = append(f.asked, in)
	if f.err != nil {
		return false, "", f.err
	}
	return len(in.Relevant) >= f.want, "the handler and its validator", nil
}

// TestRunFinisher: a judge Run drives that says the relevant files are
// enough ends the session (Session.Finish), without the cycles the stop
// rule would run (one relevant file never makes three at 0.7); it is asked
// only while some file stands relevant and none has a critical gap; an
// error of its answer lets the loop go on; and when hone's evidence
// disputes a relevant judgment, the second look comes first.
func TestRunFinisher(t *testing.T) {
	script := [][]string{{"a", "b", "c"}, {"d", "e"}, {"f"}}
	rel := []map[string]float64{
		{"a": 0.9, "b": 0.1, "c": 0.1},
		{"d": 0.1, "e": 0.1},
		{"f": 0.1},
	}
	t.Run("enough", func(t *testing.T) {
		e := &finishingEvaluator{fakeEvaluator: fakeEvaluator{rel: rel}, want: 1}
		res, err := Run(context.Background(), "task", &fakeSearcher{script: script}, e, &fakeRefiner{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Cycles) != 1 || !strings.Contains(res.Stopped, "cycle 1: the judge says done (the handler and its validator)") {
			t.Errorf("cycles %d, stopped %q; want one cycle, ended by the judge", len(res.Cycles), res.Stopped)
		}
		if len(e.asked) != 1 || len(e.asked[0].Relevant) != 1 || e.asked[0].Relevant[0].Path != "a" || e.asked[0].Cycle != 1 {
			t.Errorf("asked %+v, want once after cycle 1 with a", e.asked)
		}
	})
	t.Run("not enough", func(t *testing.T) {
		e := &finishingEvaluator{fakeEvaluator: fakeEvaluator{rel: rel}, want: 2}
		res, err := Run(context.Background(), "task", &fakeSearcher{script: script}, e, &fakeRefiner{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Cycles) < 2 || strings.Contains(res.Stopped, "the judge says done") {
			t.Errorf("cycles %d, stopped %q; want the loop to go on", len(res.Cycles), res.Stopped)
		}
	})
	t.Run("error goes on", func(t *testing.T) {
		e := &finishingEvaluator{fakeEvaluator: fakeEvaluator{rel: rel}, want: 1, err: errors.New("model down")}
		res, err := Run(context.Background(), "task", &fakeSearcher{script: script}, e, &fakeRefiner{}, Options{})
		if err != nil {
			t.Fatalf("Run: %v (an answer that failed must not fail the retrieval)", err)
		}
		if len(res.Cycles) < 2 || len(e.asked) == 0 || strings.Contains(res.Stopped, "the judge says done") {
			t.Errorf("cycles %d, asked %d, stopped %q; want the loop to go on", len(res.Cycles), len(e.asked), res.Stopped)
		}
	})
	t.Run("critical gap", func(t *testing.T) {
		e := &finishingEvaluator{fakeEvaluator: fakeEvaluator{rel: rel, critical: map[int]map[string]bool{1: {"a": true}}}, want: 1}
		if _, err := Run(context.Background(), "task", &fakeSearcher{script: script}, e, &fakeRefiner{}, Options{}); err != nil {
			t.Fatal(err)
		}
		for _, in := range e.asked {
			if in.Cycle == 1 {
				t.Errorf("asked after cycle 1, whose relevant file named a critical gap")
			}
		}
	})
	t.Run("nothing relevant", func(t *testing.T) {
		none := []map[string]float64{{"a": 0.1, "b": 0.1, "c": 0.1}}
		e := &finishingEvaluator{fakeEvaluator: fakeEvaluator{rel: none}, want: 0}
		if _, err := Run(context.Background(), "task", &fakeSearcher{script: script}, e, &fakeRefiner{}, Options{}); err != nil {
			t.Fatal(err)
		}
		if len(e.asked) != 0 {
			t.Errorf("asked %d times with no file relevant", len(e.asked))
		}
	})
	t.Run("disputed first", func(t *testing.T) {
		// hone's evidence rates b far above the judge's 0.1: its second
		// look comes before the end.
		ev := &fakeEvaluator{rel: []map[string]float64{{"a": 0.9, "b": 0.97, "c": 0.1, "d": 0.1, "e": 0.1, "f": 0.1}}}
		e := &finishingEvaluator{fakeEvaluator: fakeEvaluator{rel: rel}, want: 1}
		res, err := Run(context.Background(), "task", &fakeSearcher{script: [][]string{{"a", "b", "c"}, {"b"}, {"b"}}}, e, &fakeRefiner{}, Options{Evidence: ev})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Cycles) != 2 || !strings.Contains(res.Stopped, "the judge says done") || !strings.Contains(res.Stopped, "second look first") {
			t.Errorf("cycles %d, stopped %q; want the second look of b in cycle 2, then the end", len(res.Cycles), res.Stopped)
		}
	})
}
