package advisor

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Hand calculations: every expected figure below is worked out from the
// published formulas in the comment, not read back from the engine.
func TestMemoryHandCalculations(t *testing.T) {
	kb := knowledge.MustShipped()
	tests := []struct {
		name  string
		w     Workload
		check func(t *testing.T, m Memory)
	}{
		{
			name: "7B inference fp16 weights are 14 GB",
			w:    Workload{ParamsB: 7, Method: Inference, Batch: 1, SeqLen: 1},
			check: func(t *testing.T, m Memory) {
				if m.Breakdown.WeightsGB != 14 {
					t.Errorf("weights = %v GB, want 7e9 × 2 B = 14 GB", m.Breakdown.WeightsGB)
				}
			},
		},
		{
			name: "13B KV cache follows vLLM's formula on Llama-2-13B",
			// 2 × 40 layers × 40 KV heads × 128 dim × 2 bytes = 819,200 B/token
			// (the PagedAttention paper's 13B example); × 2 requests × 2048 tokens.
			w: Workload{ParamsB: 13, Method: Inference, Batch: 2, SeqLen: 2048},
			check: func(t *testing.T, m Memory) {
				want := 819200.0 * 2 * 2048 / 1e9
				if !near(m.Breakdown.KVCacheGB, want, 0.01) {
					t.Errorf("kv cache = %v GB, want %.2f GB", m.Breakdown.KVCacheGB, want)
				}
			},
		},
		{
			name: "full fine-tune with AdamW costs 16 bytes per parameter (ZeRO paper)",
			w:    Workload{ParamsB: 7, Method: Full, Batch: 1, SeqLen: 128},
			check: func(t *testing.T, m Memory) {
				b := m.Breakdown
				perParam := (b.WeightsGB + b.GradientsGB + b.OptimizerGB) / 7
				if !near(perParam, 16, 1e-9) {
					t.Errorf("weights+grads+optimizer = %v bytes/param, want 16", perParam)
				}
			},
		},
		{
			name: "8-bit Adam cuts full fine-tune states to 6 bytes per parameter",
			w:    Workload{ParamsB: 7, Method: Full, Batch: 1, SeqLen: 128, Optimizer: AdamW8bit},
			check: func(t *testing.T, m Memory) {
				if !near(m.Breakdown.OptimizerGB, 42, 1e-9) {
					t.Errorf("optimizer = %v GB, want 7e9 × 6 B = 42 GB", m.Breakdown.OptimizerGB)
				}
			},
		},
		{
			name: "LoRA rank 16 adapter count on Llama-3-8B",
			// Per layer: r × [(4096+4096) q + (4096+1024) k + (4096+1024) v +
			// (4096+4096) o + 3 × (4096+14336) MLP] = 16 × 81,920 = 1,310,720;
			// × 32 layers = 41,943,040 params; gradients 2 bytes each.
			w: Workload{ParamsB: 8, Method: LoRA, Batch: 1, SeqLen: 128},
			check: func(t *testing.T, m Memory) {
				if m.Trainable != 41943040 {
					t.Errorf("trainable = %v, want 41,943,040", m.Trainable)
				}
				if !near(m.Breakdown.GradientsGB, 41943040*2/1e9, 0.005) {
					t.Errorf("gradients = %v GB, want 0.08 GB", m.Breakdown.GradientsGB)
				}
			},
		},
		{
			name: "gradient checkpointing off stores every layer's activations",
			// Llama-2-13B shape, b=1, s=1024, h=5120, L=40:
			// on:  40×2×1024×5120 + 34×1024×5120 + 1024×32000×4 bytes
			// off: 40×34×1024×5120 + 1024×32000×4 bytes
			w: Workload{ParamsB: 13, Method: LoRA, Batch: 1, SeqLen: 1024, NoGC: true},
			check: func(t *testing.T, m Memory) {
				want := (40*34*1024*5120.0 + 1024*32000*4.0) / 1e9
				if !near(m.Breakdown.ActivationsGB, want, 0.01) {
					t.Errorf("activations = %v GB, want %.2f GB", m.Breakdown.ActivationsGB, want)
				}
			},
		},
		{
			name: "gradient checkpointing on keeps one input per layer",
			w:    Workload{ParamsB: 13, Method: LoRA, Batch: 1, SeqLen: 1024},
			check: func(t *testing.T, m Memory) {
				want := (40*2*1024*5120.0 + 34*1024*5120.0 + 1024*32000*4.0) / 1e9
				if !near(m.Breakdown.ActivationsGB, want, 0.01) {
					t.Errorf("activations = %v GB, want %.2f GB", m.Breakdown.ActivationsGB, want)
				}
			},
		},
		{
			name: "4-bit inference weights carry group scales and 16-bit embeddings",
			// Qwen2.5-72B shape: embeddings 2 × 152064 × 8192 = 2.491B params.
			// (72 − 2.491)e9 × 4.25 / 8 + 2.491e9 × 2 bytes.
			w: Workload{ParamsB: 72, Method: Inference, Bits: 4, Batch: 1, SeqLen: 1},
			check: func(t *testing.T, m Memory) {
				e := 2 * 152064 * 8192.0
				want := ((72e9-e)*4.25/8 + e*2) / 1e9
				if !near(m.Breakdown.WeightsGB, want, 0.01) {
					t.Errorf("weights = %v GB, want %.2f GB", m.Breakdown.WeightsGB, want)
				}
			},
		},
		{
			name: "overhead is 0.8 GB plus 5 percent",
			w:    Workload{ParamsB: 7, Method: Inference, Batch: 1, SeqLen: 1},
			check: func(t *testing.T, m Memory) {
				b := m.Breakdown
				core := b.WeightsGB + b.ActivationsGB + b.KVCacheGB
				if !near(b.OverheadGB, 0.8+0.05*core, 0.01) {
					t.Errorf("overhead = %v GB, want 0.8 + 5%% of %.2f", b.OverheadGB, core)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := EstimateMemory(tt.w, kb.Archs)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, m)
			sum := m.Breakdown.Total()
			if !near(sum, m.TotalGB, 0.03) {
				t.Errorf("parts sum to %v, total says %v", sum, m.TotalGB)
			}
		})
	}
}

func TestFitCardCounts(t *testing.T) {
	kb := knowledge.MustShipped()
	// 70B fp16 inference, 1 request × 4096 tokens on the Llama-3-70B shape:
	// weights 140 GB; KV 4096 × 2×80×1024×2 B = 1.342 GB; activations
	// 4096 × (2×8192 + 2×28672) × 2 B + 128256 × 4 B = 0.605 GB.
	core := 140 + 4096*2*80*1024*2/1e9 + (4096*(2*8192+2*28672)*2+128256*4)/1e9
	perCard := func(n float64) float64 { return core/n*1.05 + 0.8 }
	tests := []struct {
		name string
		w    Workload
		gpu  string
		want int
	}{
		{"70B fp16 on H100 needs 2 cards", Workload{ParamsB: 70, Method: Inference, Batch: 1, SeqLen: 4096}, "h100-sxm", 2},
		{"70B fp16 on RTX 4090 needs 8 cards", Workload{ParamsB: 70, Method: Inference, Batch: 1, SeqLen: 4096}, "rtx4090", 8},
		{"70B fp16 on H200 needs 2 cards", Workload{ParamsB: 70, Method: Inference, Batch: 1, SeqLen: 4096}, "h200", 2},
		{"70B fp16 on B200 fits one card", Workload{ParamsB: 70, Method: Inference, Batch: 1, SeqLen: 4096}, "b200", 1},
		{"7B inference fits one RTX 4090", Workload{ParamsB: 7, Method: Inference, Batch: 1, SeqLen: 4096}, "rtx4090", 1},
		{"7B full fine-tune does not fit one A100 80GB", Workload{ParamsB: 7, Method: Full}, "a100-80g", 2},
	}
	// Cross-check the first three rows against the hand formula.
	// One card needs ≈149.8 GB (over H100's 80 and H200's 141, under B200's
	// 180); two need ≈75.3 GB each; a 24 GB card needs 8 (≈19.4 GB each).
	if perCard(1) <= 141 || perCard(1) > 180 || perCard(2) > 80 || perCard(4) <= 24 || perCard(8) > 24 {
		t.Fatalf("hand calculation disagrees with the table: %.1f %.1f %.1f", perCard(1), perCard(2), perCard(8))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Fit(tt.w, kb.GPUs, kb.Archs)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.MinCards(tt.gpu); got != tt.want {
				t.Errorf("Fit(%s) on %s = %d cards, want %d", tt.name, tt.gpu, got, tt.want)
			}
		})
	}
	res, _ := Fit(Workload{ParamsB: 70, Method: Inference, Batch: 1, SeqLen: 4096}, kb.GPUs, kb.Archs)
	for _, o := range res.Options {
		if o.GPU == "h100-sxm" && !near(o.PerCardGB, perCard(2), 0.02) {
			t.Errorf("H100 ×2 per-card = %v GB, want %.2f", o.PerCardGB, perCard(2))
		}
	}
}

func TestNormalizeRejectsBadInput(t *testing.T) {
	tests := []struct {
		name  string
		w     Workload
		field string
	}{
		{"missing size", Workload{Method: LoRA}, "params_b"},
		{"negative size", Workload{ParamsB: -5}, "params_b"},
		{"absurd size", Workload{ParamsB: 9999999}, "params_b"},
		{"bad bits", Workload{ParamsB: 7, Bits: 3}, "bits"},
		{"qlora at 16 bits", Workload{ParamsB: 7, Method: QLoRA, Bits: 16}, "bits"},
		{"lora at 4 bits", Workload{ParamsB: 7, Method: LoRA, Bits: 4}, "bits"},
		{"unknown method", Workload{ParamsB: 7, Method: "dpo"}, "method"},
		{"huge batch", Workload{ParamsB: 7, Batch: 100000}, "batch"},
		{"rank too big", Workload{ParamsB: 7, Method: LoRA, LoRARank: 5000}, "lora_rank"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.w.Normalize()
			var in *InputError
			if !errors.As(err, &in) {
				t.Fatalf("Normalize(%+v) err = %v, want *InputError", tt.w, err)
			}
			if in.Field != tt.field || in.Hint == "" {
				t.Errorf("InputError field = %q hint = %q, want field %q and a hint", in.Field, in.Hint, tt.field)
			}
		})
	}
}

func TestNormalizeFillsAndRecordsDefaults(t *testing.T) {
	w, err := Workload{ParamsB: 13, Method: LoRA}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	// LLaMA-Factory / Unsloth example configs: micro-batch 1 at 2,048 tokens.
	if w.Batch != 1 || w.SeqLen != 2048 || w.Bits != 16 || w.LoRARank != 16 || w.Optimizer != AdamW {
		t.Errorf("defaults = %+v, want batch 1, seq 2048, 16 bits, rank 16, adamw", w)
	}
	inf, err := Workload{ParamsB: 13}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if inf.Method != Inference || inf.Batch != 1 || inf.SeqLen != 4096 {
		t.Errorf("inference defaults = %+v, want inference, 1 request × 4096 tokens", inf)
	}
	want := map[string]bool{"bits": true, "batch": true, "seq_len": true, "optimizer": true, "lora_rank": true}
	for _, d := range w.Defaulted {
		if !want[d] {
			t.Errorf("unexpected default %q", d)
		}
		delete(want, d)
	}
	if len(want) > 0 {
		t.Errorf("defaults not recorded: %v", want)
	}
	q, _ := Workload{ParamsB: 70, Method: QLoRA}.Normalize()
	if q.Bits != 4 {
		t.Errorf("qlora default bits = %d, want 4", q.Bits)
	}
}

func TestShapeScalesFarFromReferences(t *testing.T) {
	kb := knowledge.MustShipped()
	s, err := ShapeFor(1000, "", kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	// Nearest is Llama-3.1-405B; factor (1000/405.853)^(1/3) = 1.351.
	if s.From != "llama-3.1-405b" || !near(s.Scale, 1.351, 0.001) || s.Layers != 170 {
		t.Errorf("ShapeFor(1000B) = %+v, want llama-3.1-405b scaled 1.351 to 170 layers", s)
	}
	s, _ = ShapeFor(70, "", kb.Archs)
	if s.From != "llama-3-70b" || s.Scale != 1 {
		t.Errorf("ShapeFor(70B) = %s ×%v, want llama-3-70b unscaled", s.From, s.Scale)
	}
}

// The Ascend 910B joins its cards over HCCS, so a multi-card job on it is
// not called "PCIe only".
func TestFitNoteHCCS(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("ascend-910b")
	if g.Fabric != "HCCS" || g.FabricGBs <= 0 || g.Confidence != "low" {
		t.Fatalf("910B row: fabric %q %v, confidence %s", g.Fabric, g.FabricGBs, g.Confidence)
	}
	f, err := Fit(Workload{ParamsB: 70, Method: LoRA}, []knowledge.GPU{g}, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Options[0].Note.EN; f.Options[0].Count < 2 || strings.Contains(n, "PCIe only") || !strings.Contains(n, "HCCS") {
		t.Errorf("910B note = %q (count %d), want the HCCS link named", n, f.Options[0].Count)
	}
}
