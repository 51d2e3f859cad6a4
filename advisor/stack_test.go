package advisor

import (
	"errors"
	"math"
	"os"
	"slices"
	"sort"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/knowledge"
)

type stackPoint struct {
	Name      string  `yaml:"name"`
	Source    string  `yaml:"source"`
	Model     string  `yaml:"model"`
	ParamsB   float64 `yaml:"params_b"`
	Method    Method  `yaml:"method"`
	Bits      int     `yaml:"bits"`
	Rank      int     `yaml:"rank"`
	Batch     int     `yaml:"batch"`
	Seq       int     `yaml:"seq"`
	Stack     string  `yaml:"stack"`
	Allocated bool    `yaml:"allocated"`
	WantGB    float64 `yaml:"want_gb"`
	OverGB    float64 `yaml:"over_gb"`
}

// The stack model against measured peaks (testdata/stack_points.yaml:
// LLaMA-Factory's QLoRA/LoRA measurements and the transformers docs'
// max_memory_allocated readings): every row within 15 %, an OOM row
// above its card, and the median error printed.
func TestStackPeaksMatchMeasured(t *testing.T) {
	raw, err := os.ReadFile("testdata/stack_points.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var points []stackPoint
	if err := yaml.Unmarshal(raw, &points); err != nil {
		t.Fatal(err)
	}
	kb := knowledge.MustShipped()
	var errs []float64
	for _, p := range points {
		if p.Source == "" {
			t.Fatalf("%s: no source", p.Name)
		}
		m, err := EstimateMemory(Workload{Model: p.Model, ParamsB: p.ParamsB, Method: p.Method, Bits: p.Bits, LoRARank: p.Rank,
			Batch: p.Batch, SeqLen: p.Seq, Stack: p.Stack}, kb.Archs)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		got := m.raw.Total()
		if p.Allocated { // max_memory_allocated sees neither the context nor the reserve
			got -= m.own + m.reserve
		}
		if p.OverGB > 0 {
			t.Logf("%-28s %6.2f GB, OOM on %v GB", p.Name, got, p.OverGB)
			if got <= p.OverGB {
				t.Errorf("%s: %.2f GB fits %v GB; measured OOM (%s)", p.Name, got, p.OverGB, p.Source)
			}
			continue
		}
		e := got/p.WantGB - 1
		errs = append(errs, math.Abs(e))
		t.Logf("%-28s %6.2f GB vs %6.2f measured (%+5.1f%%)", p.Name, got, p.WantGB, e*100)
		if math.Abs(e) > 0.15 {
			t.Errorf("%s: %.2f GB, measured %.2f (%+.0f%%), want within 15%% (%s)", p.Name, got, p.WantGB, e*100, p.Source)
		}
	}
	sort.Float64s(errs)
	t.Logf("stack points: %d, median |error| %.1f%%", len(errs), errs[len(errs)/2]*100)
}

// Each stack's own terms by hand, on Llama-2-7B (32 layers, hidden 4096,
// 32 heads, vocab 32,000 untied).
func TestStackTermsByHand(t *testing.T) {
	kb := knowledge.MustShipped()
	est := func(w Workload) Memory {
		t.Helper()
		m, err := EstimateMemory(w, kb.Archs)
		if err != nil {
			t.Fatalf("%+v: %v", w, err)
		}
		return m
	}
	base := Workload{Model: "llama-2-7b", Method: LoRA, Batch: 2, SeqLen: 1024}
	hf, eager, ds := base, base, base
	eager.Stack, ds.Stack = StackHFEager, StackDeepSpeed
	mHF, mEager, mDS := est(hf), est(eager), est(ds)
	if mHF.Workload.Stack != StackHF || !slices.Contains(mHF.Workload.Defaulted, "stack") {
		t.Errorf("training stack %q (defaulted %v), want hf filled in", mHF.Workload.Stack, mHF.Workload.Defaulted)
	}
	// Eager scores with checkpointing: one layer × 2 × 32 heads × 1024² × 5
	// bytes = 335,544,320 bytes = 0.3355 GB more activations.
	if d := mEager.raw.ActivationsGB - mHF.raw.ActivationsGB; math.Abs(d-0.33554432) > 1e-6 {
		t.Errorf("eager scores add %.6f GB, want 0.335544", d)
	}
	// ZeRO-3 buffers: (5e8 + 5e7 + 2 × (6.738B − 0.262B embeddings) ÷ 32
	// layers) × 2 bytes. Llama-2-7B: 6,738,415,616 params, embeddings
	// 2 × 32,000 × 4,096 = 262,144,000: layer 202,383,488 → (550e6 +
	// 404,766,976) × 2 = 1,909,533,952 bytes on every card.
	if d := mDS.own - mHF.own; math.Abs(d-1.909533952) > 0.01 {
		t.Errorf("deepspeed buffers %.4f GB, want ≈ 1.9095", d)
	}
	// The buffers stay on every card: 16 cards still hold them whole.
	if l := trainLimits(mDS); math.Abs(l.perCard(16, 2)-trainLimits(mHF).perCard(16, 2)-1.909533952) > 0.01 {
		t.Errorf("16-card layout: deepspeed − hf = %.4f GB per card, want the 1.9095 GB buffers", l.perCard(16, 2)-trainLimits(mHF).perCard(16, 2))
	}
	// Training logits at 12 bytes: 2 × 1024 × 32,000 × 12 = 0.786 GB in
	// the activations (the rest: 32 × 2 × 2×1024×4096 checkpoints = 0.537
	// GB, one layer 153,600 × 2,048 = 0.315 GB).
	if want := 0.786432 + 0.536870912 + 0.3145728; math.Abs(mHF.raw.ActivationsGB-want) > 1e-6 {
		t.Errorf("hf activations %.6f GB, want %.6f", mHF.raw.ActivationsGB, want)
	}

	// Inference: transformers' generate() vs a serving engine.
	inf := Workload{Model: "llama-2-7b", Batch: 1, SeqLen: 16384}
	gen := inf
	gen.Stack = StackHF
	mV, mG := est(inf), est(gen)
	if mV.Workload.Stack != StackVLLM || mG.Workload.Engine != "" || mG.Workload.MemUtil != 0 {
		t.Errorf("stacks: default %q, hf engine %q util %v; want vllm, and no engine settings under hf", mV.Workload.Stack, mG.Workload.Engine, mG.Workload.MemUtil)
	}
	// generate() runs the 16,384-token prompt at once: 16,384 × (2×4096 +
	// 2×11008) × 2 bytes + 32,000 × 4 = 0.99 GB, where vLLM's chunk is
	// 8,192 tokens (half of the MLP part).
	if want := 16384.0*(2*4096+2*11008)*2/1e9 + 32000*4/1e9; math.Abs(mG.raw.ActivationsGB-want) > 1e-6 {
		t.Errorf("generate activations %.6f GB, want %.6f", mG.raw.ActivationsGB, want)
	}
	for _, bad := range []Workload{
		{ParamsB: 7, Method: LoRA, Stack: StackVLLM},
		{ParamsB: 7, Stack: StackDeepSpeed},
		{ParamsB: 7, Stack: "megatron"},
		{ParamsB: 7, Stack: StackHF, MaxSeqs: 64},
	} {
		if _, err := bad.Normalize(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	// A serving setting on a training job names the setting given.
	var in *InputError
	if _, err := (Workload{ParamsB: 7, Method: LoRA, Engine: EngineTRTLLM}).Normalize(); !errors.As(err, &in) || in.Field != "engine" {
		t.Errorf("engine= on LoRA: %v, want an input error on engine", err)
	}
}
