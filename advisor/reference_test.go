package advisor

import (
	"math"
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/knowledge"
)

type referencePoint struct {
	Name      string   `yaml:"name"`
	Source    string   `yaml:"source"`
	Workload  Workload `yaml:"workload"`
	WantGB    float64  `yaml:"want_gb"`
	Tolerance float64  `yaml:"tolerance"`
}

func TestMemoryMatchesPublicReferencePoints(t *testing.T) {
	raw, err := os.ReadFile("testdata/reference_points.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var points []referencePoint
	if err := yaml.Unmarshal(raw, &points); err != nil {
		t.Fatal(err)
	}
	if len(points) < 10 {
		t.Fatalf("only %d reference points loaded", len(points))
	}
	kb := knowledge.MustShipped()
	for _, p := range points {
		t.Run(p.Name, func(t *testing.T) {
			if p.Source == "" || p.Tolerance <= 0 || p.Tolerance > 0.25 {
				t.Fatalf("reference point needs a source and a tolerance in (0, 0.25]: %+v", p)
			}
			m, err := EstimateMemory(p.Workload, kb.Archs)
			if err != nil {
				t.Fatal(err)
			}
			rel := (m.TotalGB - p.WantGB) / p.WantGB
			t.Logf("%s: estimate %.2f GB vs %.0f GB published (%+.1f%%)", p.Name, m.TotalGB, p.WantGB, rel*100)
			if math.Abs(rel) > p.Tolerance {
				t.Errorf("EstimateMemory(%s) = %.2f GB, want %.0f GB ±%.0f%% (%s)", p.Name, m.TotalGB, p.WantGB, p.Tolerance*100, p.Source)
			}
		})
	}
}
