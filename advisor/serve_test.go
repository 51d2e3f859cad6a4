package advisor

import (
	"math"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/knowledge"
)

type servingPoint struct {
	Name        string  `yaml:"name"`
	Split       string  `yaml:"split"`
	Source      string  `yaml:"source"`
	Model       string  `yaml:"model"`
	Bits        int     `yaml:"bits"`
	GPU         string  `yaml:"gpu"`
	Cards       int     `yaml:"cards"`
	In          int     `yaml:"in"`
	Out         int     `yaml:"out"`
	Concurrency int     `yaml:"concurrency"`
	MaxSeqs     int     `yaml:"max_seqs"`
	WantTPS     float64 `yaml:"want_tps"`
}

// The throughput model against published serving results: within 2× for
// ≥ 80 % of them and a median error ≤ 35 % (issue 15), on all rows and on
// the held-out rows alone.
func TestServingMatchesPublishedResults(t *testing.T) {
	raw, err := os.ReadFile("testdata/serving_points.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var points []servingPoint
	if err := yaml.Unmarshal(raw, &points); err != nil {
		t.Fatal(err)
	}
	if len(points) < 20 {
		t.Fatalf("%d serving points, want ≥ 20", len(points))
	}
	kb := knowledge.MustShipped()
	cal, trt := newCalibration(), newCalibration()
	for _, p := range points {
		if p.Source == "" || (p.Split != "tune" && p.Split != "holdout") {
			t.Fatalf("%s: needs a source and split tune|holdout", p.Name)
		}
		g, ok := kb.GPU(p.GPU)
		if !ok {
			t.Fatalf("%s: unknown gpu %s", p.Name, p.GPU)
		}
		// TensorRT-LLM's tables run under engine=trtllm: its KV fraction
		// of the memory the weights leave, FP8 KV with FP8 checkpoints.
		engine := ""
		if strings.HasPrefix(p.Source, "trtllm") {
			engine = EngineTRTLLM
		}
		s, err := Serve(ServeInput{Workload: Workload{Model: p.Model, Bits: p.Bits, Engine: engine}, GPU: g, Cards: p.Cards,
			InputTokens: p.In, OutputTokens: p.Out, Concurrency: p.Concurrency, MaxSeqs: p.MaxSeqs}, kb.Archs)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		ratio := s.TokensPerS / p.WantTPS
		within := cal.add(p.Split, ratio)
		if engine != "" {
			trt.add(p.Split, ratio)
		}
		t.Logf("%-7s %-48s %9.1f vs %9.1f tok/s (%+6.1f%%, batch %d, %s bound) %s", p.Split, p.Name, s.TokensPerS, p.WantTPS, (ratio-1)*100, s.Concurrency, s.Bound, mark(within))
	}
	cal.check(t, "serving")
	trt.check(t, "TensorRT-LLM rows (engine=trtllm)")
}

// One Llama-2-7B request on one H100 SXM, by hand (BF16 class: 80 % of
// 3,350 GB/s, 60 % of 989 TFLOPS in prefill, 50 % in decode, 1 ms step
// overhead).
func TestServeHandCalculation(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h100-sxm")
	s, err := Serve(ServeInput{Workload: Workload{Model: "llama-2-7b"}, GPU: g, Cards: 1, InputTokens: 1000, OutputTokens: 500, Concurrency: 1}, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	P := 6.738e9
	prefill := (1000*2*P + 2*32*4096*1000.0*1000) / (989e12 * 0.6)
	// Weights 6.738B × 2 bytes; KV 524,288 B/token at the average context
	// 1000 + 500/2 = 1250 tokens.
	mem := (P*2 + 1250*524288) / (3350e9 * 0.8)
	cmp := (2*P + 4*32*4096*1250.0) / (989e12 * 0.5)
	step := math.Max(mem, cmp) + 1e-3
	tps := 500 / (prefill + 500*step)
	if !near(s.PrefillSeconds, prefill, 1e-3) || !near(s.StepSeconds, step, 1e-3) || !near(s.TokensPerS, tps, 1e-3) {
		t.Errorf("Serve(7B, H100, 1000/500, 1 request) prefill %.5f s step %.6f s tps %.2f, want %.5f, %.6f, %.2f", s.PrefillSeconds, s.StepSeconds, s.TokensPerS, prefill, step, tps)
	}
	if want := math.Round((prefill+1e-3)*1000*10) / 10; s.TTFTms != want {
		t.Errorf("ttft_ms = %v, want %v", s.TTFTms, want)
	}
	if s.Bound != "memory" || s.Class != KernelBF16 {
		t.Errorf("bound %s class %s, want memory, bf16", s.Bound, s.Class)
	}
}

// A mixture of experts reads only the experts its batch selects: at one
// sequence Mixtral touches 2 of 8 experts per layer, so a step reads far
// less than all 93 GB; FLOPs come from the 12.7B active parameters.
func TestServeMoEReadsSelectedExperts(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h100-sxm")
	s, err := Serve(ServeInput{Workload: Workload{Model: "mixtral-8x7b", Bits: 16}, GPU: g, Cards: 2, InputTokens: 100, OutputTokens: 100, Concurrency: 1}, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := kb.Arch("mixtral-8x7b")
	routed := a.RoutedParamsB() * 2e9 // bytes
	total := a.ParamsB * 2e9
	wantRead := total - routed + routed*2.0/8 // coverage 1 − (1 − 2/8)^1 = 0.25
	kv := 150 * a.KVBytesPerToken
	if want := (wantRead + kv) / (2 * 3350e9 * 0.8); !near(s.StepMemoryS, want, 1e-3) {
		t.Errorf("Mixtral step memory time %.6f s, want %.6f s (shared + 25%% of experts)", s.StepMemoryS, want)
	}
	if s.ExpertCoverage != 0.25 {
		t.Errorf("expert coverage %v, want 0.25", s.ExpertCoverage)
	}
}

// DeepSeek-R1 decode on 8 × H200 against SGLang v0.5.7's published time
// per output token (SemiAnalysis InferenceX issue #870, 2026-03-05; FP8,
// TP 8, 1,024 in / 1,024 out): 12.8, 17.2, 25.6 and 34.6 ms at 8, 16, 32
// and 64 concurrent requests. Tolerance ±25 % per point (the spread between
// engine releases a few weeks apart is of that order). Without the MoE
// routing term the model gave about 7.5, 11.2, 16.3 and 21.3 ms (about
// 40 % short).
//
// SGLang v0.4.1.post2 (PR #2643, 2024-12-29), DeepSeek's first week, ran
// 3–5× slower still at batch 1–8; those rows stay held out in
// serving_points.yaml and are only logged here.
func TestDeepSeekSmallBatchDecode(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h200")
	for _, p := range []struct {
		conc   int
		tpotMS float64
	}{{8, 12.8}, {16, 17.2}, {32, 25.6}, {64, 34.6}} {
		s, err := Serve(ServeInput{Workload: Workload{Model: "deepseek-r1"}, GPU: g, Cards: 8, InputTokens: 1024, OutputTokens: 1024, Concurrency: p.conc}, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		got := s.StepSeconds * 1000
		dev := got/p.tpotMS - 1
		t.Logf("conc %2d: TPOT %.1f ms vs %.1f published (%+.1f%%): memory %.2f, all-reduce %.2f, expert routing %.2f ms", p.conc, got, p.tpotMS, dev*100,
			s.StepMemoryS*1000, s.StepCommS*1000, s.StepMoES*1000)
		if math.Abs(dev) > 0.25 {
			t.Errorf("conc %d: TPOT %.1f ms, published %.1f ms: off by %+.0f%%, want within ±25%%", p.conc, got, p.tpotMS, dev*100)
		}
	}
	for _, p := range []struct {
		conc int
		tps  float64
	}{{1, 30.29}, {8, 206.32}, {32, 760.52}} {
		s, _ := Serve(ServeInput{Workload: Workload{Model: "deepseek-v3"}, GPU: g, Cards: 8, InputTokens: 128, OutputTokens: 256, Concurrency: p.conc}, kb.Archs)
		t.Logf("SGLang v0.4.1.post2 batch %d: model %.0f tok/s vs %.1f measured in Dec 2024 (%.1f×)", p.conc, s.TokensPerS, p.tps, s.TokensPerS/p.tps)
	}
}

// The MoE step term by hand: DeepSeek-V3 routes in 58 of its 61 layers
// (first_k_dense_replace = 3 in its config.json); at 8 sequences a layer
// touches 1 − (1 − 8/256)^8 of its 256 experts, each costing 0.85 µs per
// card, plus 40 µs of routing per layer.
func TestMoEStepByHand(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h200")
	s, err := Serve(ServeInput{Workload: Workload{Model: "deepseek-v3"}, GPU: g, Cards: 8, InputTokens: 1000, OutputTokens: 500, Concurrency: 8}, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	cov := 1 - math.Pow(1-8.0/256, 8)
	if want := 58 * (40e-6 + cov*256*0.85e-6); !near(s.StepMoES, want, 1e-9) {
		t.Errorf("MoE step %.6f s, want 58 × (40 µs + %.4f × 256 × 0.85 µs) = %.6f s", s.StepMoES, cov, want)
	}
	d, _ := Serve(ServeInput{Workload: Workload{Model: "llama-3.1-70b", Bits: 8}, GPU: g, Cards: 8, InputTokens: 1000, OutputTokens: 500, Concurrency: 8}, kb.Archs)
	if d.StepMoES != 0 {
		t.Errorf("a dense model has no expert routing, got %v s", d.StepMoES)
	}
}
