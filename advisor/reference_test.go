package advisor

import (
	"math"
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/knowledge"
)

type referencePoint struct {
	Name     string   `yaml:"name"`
	Source   string   `yaml:"source"`
	Workload Workload `yaml:"workload"`
	// Field compares one breakdown entry (weights_gb, kv_cache_gb) instead
	// of the total.
	Field     string  `yaml:"field"`
	WantGB    float64 `yaml:"want_gb"`
	Tolerance float64 `yaml:"tolerance"`
	// WantCards is a published deployment: the fewest cards of a type that
	// hold the job.
	WantCards *struct {
		GPU   string `yaml:"gpu"`
		Count int    `yaml:"count"`
	} `yaml:"want_cards"`
}

// minReferenceHitRate is the share of public reference points the memory
// model must land within tolerance of (issue 15: ≥ 85 %). Rows are not
// tuned one by one: a row the model disagrees with stays in, is printed,
// and counts against the rate.
const minReferenceHitRate = 0.85

func TestMemoryMatchesPublicReferencePoints(t *testing.T) {
	raw, err := os.ReadFile("testdata/reference_points.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var points []referencePoint
	if err := yaml.Unmarshal(raw, &points); err != nil {
		t.Fatal(err)
	}
	if len(points) < 60 {
		t.Fatalf("only %d reference points loaded, want ≥ 60", len(points))
	}
	kb := knowledge.MustShipped()
	hits := 0
	for _, p := range points {
		if p.Source == "" || (p.WantCards == nil && (p.Tolerance <= 0 || p.Tolerance > 0.25)) {
			t.Fatalf("reference point needs a source and a tolerance in (0, 0.25]: %+v", p)
		}
		if p.WantCards != nil {
			g, ok := kb.GPU(p.WantCards.GPU)
			if !ok {
				t.Fatalf("%s: unknown gpu %q", p.Name, p.WantCards.GPU)
			}
			f, err := Fit(p.Workload, []knowledge.GPU{g}, kb.Archs)
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			got := f.MinCards(g.ID)
			ok = got == p.WantCards.Count
			if ok {
				hits++
			}
			t.Logf("%-55s %d × %s vs %d published (%s GB per replica) %s", p.Name, got, g.ID, p.WantCards.Count, num(f.TotalGB), mark(ok))
			continue
		}
		m, err := EstimateMemory(p.Workload, kb.Archs)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		got := m.TotalGB
		switch p.Field {
		case "":
		case "weights_gb":
			got = m.Breakdown.WeightsGB
		case "kv_cache_gb":
			got = m.Breakdown.KVCacheGB
		default:
			t.Fatalf("%s: unknown field %q", p.Name, p.Field)
		}
		rel := (got - p.WantGB) / p.WantGB
		ok := math.Abs(rel) <= p.Tolerance
		if ok {
			hits++
		}
		t.Logf("%-55s %8.2f GB vs %7.2f GB published (%+6.1f%%, ±%.0f%%) %s", p.Name, got, p.WantGB, rel*100, p.Tolerance*100, mark(ok))
	}
	rate := float64(hits) / float64(len(points))
	t.Logf("reference points within tolerance: %d of %d (%.0f%%)", hits, len(points), rate*100)
	if rate < minReferenceHitRate {
		t.Errorf("%d of %d reference points within tolerance (%.0f%%), want ≥ %.0f%%", hits, len(points), rate*100, minReferenceHitRate*100)
	}
}

func mark(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISS"
}
