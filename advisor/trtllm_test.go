package advisor

import (
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/knowledge"
)

// TensorRT-LLM has its own kernel efficiencies (trtllmKernelEffs), fitted
// on its 12 tune rows of testdata/serving_points.yaml (NVIDIA's published
// perf-overview tables, cited there). Against its 15 held-out rows, which
// the fit never read, the median |error| is 14.5 % (25.2 % with the shared
// figures) and all are within 2×; the bar here is 20 % and 100 %. Every
// other row (vLLM, the default engine) keeps the shared figures.
func TestTensorRTLLMOwnConstants(t *testing.T) {
	raw, err := os.ReadFile("testdata/serving_points.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var points []servingPoint
	if err := yaml.Unmarshal(raw, &points); err != nil {
		t.Fatal(err)
	}
	kb := knowledge.MustShipped()
	cal := newCalibration()
	for _, p := range points {
		if !strings.HasPrefix(p.Source, "trtllm") {
			continue
		}
		g, _ := kb.GPU(p.GPU)
		s, err := Serve(ServeInput{Workload: Workload{Model: p.Model, Bits: p.Bits, Engine: EngineTRTLLM}, GPU: g, Cards: p.Cards,
			InputTokens: p.In, OutputTokens: p.Out, Concurrency: p.Concurrency, MaxSeqs: p.MaxSeqs}, kb.Archs)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		cal.add(p.Split, s.TokensPerS/p.WantTPS)
	}
	for _, split := range []string{"tune", "holdout"} {
		share, med := cal.stats(split)
		t.Logf("TensorRT-LLM %s: %d rows, %.0f%% within 2×, median |error| %.1f%%", split, len(cal.errs[split]), share*100, med*100)
	}
	if share, med := cal.stats("holdout"); share < 1 || med > 0.20 {
		t.Errorf("TensorRT-LLM held-out rows: %.0f%% within 2×, median |error| %.1f%%; want 100%% and ≤ 20%%", share*100, med*100)
	}

	// The default engine (vLLM) keeps the shared figures: one Llama-3.1-8B
	// request in BF16 on an H100 streams at 80 % of 3,350 GB/s either way,
	// and TensorRT-LLM at 70 %.
	g, _ := kb.GPU("h100-sxm")
	for _, c := range []struct {
		engine string
		bw     float64
	}{{"", 0.80}, {EngineVLLM, 0.80}, {EngineTRTLLM, 0.70}} {
		if got := effFor(KernelBF16, c.engine).BW; got != c.bw {
			t.Errorf("engine %q: BF16 bandwidth share %v, want %v", c.engine, got, c.bw)
		}
		s, err := Serve(ServeInput{Workload: Workload{Model: "llama-3.1-8b", Engine: c.engine}, GPU: g, Cards: 1, InputTokens: 1000, OutputTokens: 500, Concurrency: 1}, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		// Weights 8.03B × 2 bytes + KV 131,072 B/token × 1,250 tokens, over
		// the share of 3,350 GB/s.
		a, _ := kb.Arch("llama-3.1-8b")
		want := (a.ParamsB*2e9 + 1250*a.KVBytesPerToken) / (3350e9 * c.bw)
		if !near(s.StepMemoryS, want, 1e-3) {
			t.Errorf("engine %q: decode step memory time %.6f s, want %.6f s", c.engine, s.StepMemoryS, want)
		}
	}
}
