package advisor

import (
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/knowledge"
)

type trainingRun struct {
	Name     string  `yaml:"name"`
	Split    string  `yaml:"split"`
	Source   string  `yaml:"source"`
	Model    string  `yaml:"model"`
	ParamsB  float64 `yaml:"params_b"`
	GPU      string  `yaml:"gpu"`
	Tokens   float64 `yaml:"tokens"`
	GPUHours float64 `yaml:"gpu_hours"`
}

// Published pretraining runs at the default MFU: GPU-hours within ×1.5 for
// ≥ 80 % of them (issue 15), on all rows and on the held-out rows alone.
func TestTrainingMatchesPublishedRuns(t *testing.T) {
	raw, err := os.ReadFile("testdata/training_runs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var runs []trainingRun
	if err := yaml.Unmarshal(raw, &runs); err != nil {
		t.Fatal(err)
	}
	if len(runs) < 15 {
		t.Fatalf("%d training runs, want ≥ 15", len(runs))
	}
	m := testMarket(t)
	hits, n := map[string]int{}, map[string]int{}
	cal := newCalibration() // within 2× and median error per split, logged
	for _, r := range runs {
		if r.Source == "" || (r.Split != "tune" && r.Split != "holdout") {
			t.Fatalf("%s: needs a source and split tune|holdout", r.Name)
		}
		res, err := Cost(CostInput{Workload: Workload{Model: r.Model, ParamsB: r.ParamsB, Method: Full}, GPU: r.GPU, Tokens: r.Tokens,
			Price: Money{Amount: 1, Currency: knowledge.USD}, Currency: knowledge.USD}, m)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		ratio := res.GPUHours / r.GPUHours
		cal.add(r.Split, ratio)
		ok := ratio <= 1.5 && ratio >= 1/1.5
		for _, s := range []string{"all", r.Split} {
			n[s]++
			if ok {
				hits[s]++
			}
		}
		t.Logf("%-7s %-26s %12.0f vs %12.0f GPU-h (×%.2f, MFU %.2f, %d cards min) %s", r.Split, r.Name, res.GPUHours, r.GPUHours, ratio, res.MFU, res.GPUs, mark(ok))
	}
	for _, s := range []string{"all", "holdout"} {
		share := float64(hits[s]) / float64(n[s])
		t.Logf("%s: %d of %d runs within ×1.5 (%.0f%%)", s, hits[s], n[s], share*100)
		if share < 0.8 {
			t.Errorf("%s: %.0f%% of training runs within ×1.5, want ≥ 80%%", s, share*100)
		}
	}
	cal.check(t, "training")
}

// "/gpu cost 405b full 15.6T tokens on h100", by hand: 6 × 405e9 ×
// 15.6e12 FLOPs at the H100-class MFU 0.35; the fewest H100 that hold the
// sharded job; the cluster that finishes in 90 days.
func TestCost405BPretrainingOnH100(t *testing.T) {
	m := testMarket(t)
	wantSpec(t, m, "h100-sxm", "peak TFLOPS", peak, 989)
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 405, Method: Full}, GPU: "h100", Tokens: 15.6e12, Days: 90,
		Price: Money{Amount: 2, Currency: knowledge.USD}, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	gh := 6 * 405e9 * 15.6e12 / (989e12 * 0.35 * 3600)
	if !near(res.GPUHours, gh, 1) {
		t.Errorf("gpu_hours = %v, want %.0f", res.GPUHours, gh)
	}
	// 16 bytes/param of weights, gradients and Adam states: 6.48 TB,
	// sharded (ZeRO-3). Each card keeps its own micro-batch's activations
	// (1 × 2,048 tokens, checkpointed; Llama-3.1-405B shape L 126, h 16384,
	// kv 1024, i 53248, vocab 128256): 126 × 2 × 2048 × 16384 + (12×16384 +
	// 4×1024 + 8×53248) × 2048 + 2048 × 128256 × 4 = 10.79 GB, not sharded.
	// (6480 ÷ n + 10.79) × 1.05 + 0.8 ≤ 80 → n ≥ 100.2: the 128-card layout.
	if res.GPUs != 128 {
		t.Errorf("fewest cards = %d, want 128", res.GPUs)
	}
	if !near(res.WallHours, gh/128, 1) {
		t.Errorf("wall_hours = %v, want %.0f on 128 cards", res.WallHours, gh/128)
	}
	// 90 days = 2,160 h needs gh ÷ 2160 = 14,084 cards: the 16,384 layout.
	dl := res.Deadline
	if dl == nil || !dl.Meets || dl.Cards != 16384 || !near(dl.WallHours, gh/16384, 0.5) {
		t.Errorf("deadline = %+v, want 16384 cards, %.0f h", dl, gh/16384)
	}
}

// A user-given MFU is the whole job's: 67B continued pre-training on 16
// H800 at MFU 0.3 takes exactly FLOPs ÷ (peak × 0.3), no further discount.
func TestCostGivenMFUIsWholeJob(t *testing.T) {
	m := testMarket(t)
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 67, Method: Full}, GPU: "h800", GPUs: 16, Tokens: 1e11, MFU: 0.3,
		Price: Money{Amount: 2, Currency: knowledge.USD}, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	gh := 6 * 67e9 * 1e11 / (989e12 * 0.3 * 3600)
	if !near(res.GPUHours, gh, 0.5) || !near(res.WallHours, gh/16, 0.5) {
		t.Errorf("gpu_hours %v wall %v, want %.0f and %.0f h", res.GPUHours, res.WallHours, gh, gh/16)
	}
}

// FP8 training on a card with FP8 tensor cores computes at the FP8 peak;
// a card without FP8 is refused with a clear error.
func TestCostFP8Training(t *testing.T) {
	m := testMarket(t)
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 7, Method: Full}, GPU: "h100", Tokens: 1e10, FP8: true,
		Price: Money{Amount: 2, Currency: knowledge.USD}, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	// 1e10 tokens is pretraining scale: a dense 7B (Llama-2-7B shape, 32
	// layers) on a compute-heavy card runs at 0.35 × (7/32 ÷ 3.2)^0.3 =
	// 0.35 × 0.4471 = 0.156.
	if gh := 6 * 7e9 * 1e10 / (1979e12 * 0.156 * 3600); !near(res.GPUHours, gh, 0.05) {
		t.Errorf("fp8 gpu_hours = %v, want %.2f at the 1,979 TFLOPS FP8 peak", res.GPUHours, gh)
	}
	_, err = Cost(CostInput{Workload: Workload{ParamsB: 7, Method: Full}, GPU: "a100-80g", Tokens: 1e10, FP8: true,
		Price: Money{Amount: 2, Currency: knowledge.USD}}, m)
	wantInputErr(t, "Cost(fp8 on A100)", err, "fp8")
}

// The pretraining MFU by size, by hand: 0.35 × (params per layer ÷ 3.2B)^0.3
// on a compute-heavy card for dense full training of ≥ 10B tokens.
//
//	Llama-3.1-8B   8.03 ÷ 32 = 0.2509B   (0.0784)^0.3 = 0.4659 → 0.163
//	Llama-3.1-70B  70.554 ÷ 80 = 0.8819B (0.2756)^0.3 = 0.6793 → 0.238
//	Llama-3.1-405B 405.85 ÷ 126 = 3.221B ≥ 3.2B             → 0.35
//
// Meta's model card GPU-hours (1.46M, 7.0M, 30.84M on H100 at 15T/15.6T
// tokens) imply 0.140, 0.256 and 0.347: the engine lands at 0.86×, 1.08×
// and 0.99× of the published hours (it was 0.40×, 0.73× and 0.99× at a flat
// 0.35). An A100, a mixture of experts and a 1B-token fine-tune keep their
// class figure.
func TestPretrainingMFUBySize(t *testing.T) {
	kb := knowledge.MustShipped()
	h100, _ := kb.GPU("h100-sxm")
	a100, _ := kb.GPU("a100-80g")
	tests := []struct {
		model  string
		g      knowledge.GPU
		method Method
		d      float64
		want   float64
	}{
		{"llama-3.1-8b", h100, Full, 15e12, 0.163},
		{"llama-3.1-70b", h100, Full, 15e12, 0.238},
		{"llama-3.1-405b", h100, Full, 15.6e12, 0.35},
		{"llama-3.1-8b", a100, Full, 15e12, 0.40},
		{"deepseek-v3", h100, Full, 14.8e12, 0.35},
		{"llama-3.1-8b", h100, Full, 1e9, 0.35},
		{"llama-3.1-8b", h100, LoRA, 15e12, 0.30},
	}
	for _, tt := range tests {
		a, _ := findArch(kb.Archs, tt.model)
		sh, err := ShapeFor(a.ParamsB, tt.model, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := mfuFor(tt.method, tt.g, sh, tt.d); !near(got, tt.want, 0.0015) {
			t.Errorf("%s %s on %s, %g tokens: MFU %v, want %v", tt.model, tt.method, tt.g.ID, tt.d, got, tt.want)
		}
	}
	for _, c := range []struct {
		model     string
		tokens    float64
		published float64
	}{{"llama-3.1-8b", 15e12, 1.46e6}, {"llama-3.1-70b", 15e12, 7.0e6}, {"llama-3.1-405b", 15.6e12, 30.84e6}} {
		res, err := Cost(CostInput{Workload: Workload{Model: c.model, Method: Full}, GPU: "h100", Tokens: c.tokens,
			Price: Money{Amount: 1, Currency: knowledge.USD}, Currency: knowledge.USD}, testMarket(t))
		if err != nil {
			t.Fatal(err)
		}
		if r := res.GPUHours / c.published; r < 0.8 || r > 1.25 {
			t.Errorf("%s: %.3g GPU-h, %.2f× Meta's %.3g; want within 1.25×", c.model, res.GPUHours, r, c.published)
		}
	}
}
