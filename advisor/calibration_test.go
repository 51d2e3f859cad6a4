package advisor

import (
	"math"
	"sort"
	"testing"
)

// calibration tallies a model against published figures, per split
// ("tune", "holdout") and over all of them: the share within 2× and the
// median error, the bar issue 15 sets (≥ 80 % within 2×, median ≤ 35 %).
type calibration struct {
	errs   map[string][]float64
	within map[string]int
}

func newCalibration() *calibration {
	return &calibration{errs: map[string][]float64{}, within: map[string]int{}}
}

// add records one point, model ÷ published; it reports whether the point
// is within 2×.
func (c *calibration) add(split string, ratio float64) bool {
	ok := ratio >= 0.5 && ratio <= 2
	for _, s := range []string{split, "all"} {
		c.errs[s] = append(c.errs[s], math.Abs(ratio-1))
		if ok {
			c.within[s]++
		}
	}
	return ok
}

// check logs and holds all points and the held-out ones to the bar.
func (c *calibration) check(t *testing.T, what string) {
	t.Helper()
	for _, split := range []string{"all", "holdout"} {
		es := c.errs[split]
		if len(es) == 0 {
			t.Errorf("%s: no %s points", what, split)
			continue
		}
		sort.Float64s(es)
		med := es[len(es)/2]
		if len(es)%2 == 0 {
			med = (es[len(es)/2-1] + es[len(es)/2]) / 2
		}
		share := float64(c.within[split]) / float64(len(es))
		t.Logf("%s %s: %d points, %d within 2× (%.0f%%), median |error| %.1f%%", what, split, len(es), c.within[split], share*100, med*100)
		if share < 0.8 || med > 0.35 {
			t.Errorf("%s %s: %.0f%% within 2×, median error %.1f%%; want ≥ 80%% and ≤ 35%%", what, split, share*100, med*100)
		}
	}
}
