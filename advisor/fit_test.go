package advisor

import (
	"errors"
	"math"
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
			// Llama-2-13B shape, b=1, s=1024, h=5120, kv=5120 (MHA), i=13824,
			// L=40. Stored per layer and token (norm in 2h, q/k/v input 2h,
			// Q 2h, K and V 2·2kv, o input 2h, MLP norm in 2h, gate/up input
			// 2h, gate, up, SiLU(gate) and the product 4 × 2i):
			// 12×5120 + 4×5120 + 8×13824 = 192,512 bytes (37.6 per hidden
			// unit; GPT-3's 34 would be 10 % low).
			// off: 40 × 192,512 × 1024 + logits 1024 × 32000 × 12 bytes
			// (the loss's peak: BF16 logits 2 + FP32 log-softmax 4 + its FP32
			// gradient 4 + the BF16 gradient 2)
			w: Workload{ParamsB: 13, Method: LoRA, Batch: 1, SeqLen: 1024, NoGC: true},
			check: func(t *testing.T, m Memory) {
				want := (40*192512*1024.0 + 1024*32000*12.0) / 1e9
				if !near(m.Breakdown.ActivationsGB, want, 0.01) {
					t.Errorf("activations = %v GB, want %.2f GB", m.Breakdown.ActivationsGB, want)
				}
			},
		},
		{
			name: "gradient checkpointing on keeps one input per layer",
			// on: 40 × 2 × 1024 × 5120 (checkpoints) + 192,512 × 1024 (one
			// layer recomputed) + logits
			w: Workload{ParamsB: 13, Method: LoRA, Batch: 1, SeqLen: 1024},
			check: func(t *testing.T, m Memory) {
				want := (40*2*1024*5120.0 + 192512*1024.0 + 1024*32000*12.0) / 1e9
				if !near(m.Breakdown.ActivationsGB, want, 0.01) {
					t.Errorf("activations = %v GB, want %.2f GB", m.Breakdown.ActivationsGB, want)
				}
			},
		},
		{
			name: "GQA and SwiGLU: Llama-3-8B without checkpointing stores 41·h per layer",
			// h=4096, 8 KV heads × 128 = kv 1024, i=14336, L=32, vocab 128256:
			// 12×4096 + 4×1024 + 8×14336 = 167,936 bytes/token/layer
			// (= 41 × 4096, where GPT-3's 34 × 4096 = 139,264 is 17 % short).
			// b=2, s=2048: 32 × 167,936 × 4096 = 22.01 GB; logits
			// 4096 × 128256 × 12 = 6.30 GB.
			w: Workload{Model: "llama-3-8b", Method: Full, Batch: 2, SeqLen: 2048, NoGC: true},
			check: func(t *testing.T, m Memory) {
				want := (32*167936*4096.0 + 4096*128256*12.0) / 1e9
				if !near(m.Breakdown.ActivationsGB, want, 0.01) {
					t.Errorf("activations = %v GB, want %.2f GB", m.Breakdown.ActivationsGB, want)
				}
			},
		},
		{
			name: "MoE: Mixtral stores the two experts a token visits",
			// h=4096, kv=1024, MLP width 2 experts × 14336 = 28672, L=32,
			// vocab 32000: 12×4096 + 4×1024 + 8×28672 = 282,624 bytes;
			// b=1, s=1024: 32 × 282,624 × 1024 + 1024 × 32000 × 12.
			w: Workload{Model: "mixtral-8x7b", Method: LoRA, Batch: 1, SeqLen: 1024, NoGC: true},
			check: func(t *testing.T, m Memory) {
				want := (32*282624*1024.0 + 1024*32000*12.0) / 1e9
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
	// weights 140 GB; KV 4096 × 2×80×1024×2 B = 1.342 GB, 8 KV heads split
	// evenly over up to 8 cards; activations of vLLM's full 8,192-token
	// prefill chunk 8192 × (2×8192 + 2×28672) × 2 B + 2 × 128256 × 4 B =
	// 1.209 GB, split over the cards like the weights.
	fixed := 140 + (8192*(2*8192+2*28672)*2+2*128256*4)/1e9
	kv := 4096 * 2 * 80 * 1024 * 2 / 1e9
	perCard := func(n float64) float64 { return fixed/n + kv/n + 0.8 }
	// vLLM's rule (the default engine): a card gives gpu_memory_utilization
	// 0.9 of its memory read in GiB (80 GB = 80 × 2³⁰ bytes).
	capOf := func(vram float64) float64 { return 0.9 * vram * (1 << 30) / 1e9 }
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
	// Cross-check the first rows against the hand formula. One card needs
	// ≈144.4 GB (over H100's 77.3 and H200's 136.3, under B200's 173.9);
	// two need ≈72.1 GB each; a 24 GB card (23.19) needs 8 (≈18.6 GB each).
	if perCard(1) <= capOf(141) || perCard(1) > capOf(180) || perCard(2) > capOf(80) || perCard(4) <= capOf(24) || perCard(8) > capOf(24) {
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
	want := map[string]bool{"bits": true, "batch": true, "seq_len": true, "optimizer": true, "lora_rank": true, "stack": true}
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
	o := f.Options[0]
	_, pcie := remark(o, FitPCIeOnly)
	link, named := remark(o, FitSlowFabric)
	if o.Count < 2 || pcie || !named || link.Fabric != "HCCS" || link.LinkGBs != g.FabricGBs {
		t.Errorf("910B remarks = %+v (count %d), want the HCCS link named at %v GB/s, not PCIe", o.Remarks, o.Count, g.FabricGBs)
	}
}

// The KV cache under tensor parallelism, by hand: a card keeps
// ceil(kv_heads ÷ tp) heads of kv_heads (copies past tp = kv_heads), an MLA
// latent whole on every rank; past one machine (tp 8) pipeline stages split
// the layers.
func TestKVShareUnderTensorParallel(t *testing.T) {
	tests := []struct {
		name string
		s    Shape
		n    int
		want float64
	}{
		{"8 KV heads on 8 cards: one head each", Shape{Attention: "GQA", KVHeads: 8}, 8, 1.0 / 8},
		{"4 KV heads on 8 cards: each head on two cards", Shape{Attention: "GQA", KVHeads: 4}, 8, 1.0 / 4},
		{"4 KV heads on 2 cards", Shape{Attention: "GQA", KVHeads: 4}, 2, 1.0 / 2},
		{"10 KV heads on 4 cards: ceil(2.5) = 3 of 10", Shape{Attention: "GQA", KVHeads: 10}, 4, 3.0 / 10},
		{"4 KV heads on 16 cards: tp 8 copies, 2 stages", Shape{Attention: "GQA", KVHeads: 4}, 16, 1.0 / 4 / 2},
		{"MLA on 8 cards: the latent whole on each", Shape{Attention: "MLA"}, 8, 1},
		{"MLA on 16 cards: whole per rank, halved by 2 stages", Shape{Attention: "MLA"}, 16, 0.5},
		{"one card holds all", Shape{Attention: "MLA"}, 1, 1},
	}
	for _, tt := range tests {
		if got := tt.s.kvShare(tt.n); !near(got, tt.want, 1e-12) {
			t.Errorf("%s: kvShare = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// DeepSeek-V3 (FP8, MLA) on 8 × H200 at a 4,096-token context, by hand,
// under vLLM's defaults (gpu_memory_utilization 0.9, BF16 KV cache).
//
//	budget per card   0.9 × 141 × 2³⁰ ÷ 10⁹ − 0.8 (CUDA context) = 135.458 GB
//	weights           P + E = 671.026e9 + 2 × 129,280 × 7,168    = 672.879 GB
//	prefill chunk     8,192 × (2×7,168 + 2×18,432) × 2 + 2 × 129,280 × 4 = 0.840 GB
//	per card, fixed   (672.879 + 0.840) ÷ 8                     = 84.215 GB
//	KV left per card  135.458 − 84.215                          = 51.24 GB
//	one request       4,096 × 70,272 B (the latent, whole on each rank) = 0.2878 GB
//	concurrency       51.24 ÷ 0.2878                            ≈ 178
//
// Split eight ways as if it had heads, the same room gave ≈ 1,420.
func TestDeepSeekV3ConcurrencyOn8H200(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h200")
	res, err := Fit(Workload{Model: "deepseek-v3", Method: Inference, SeqLen: 4096}, []knowledge.GPU{g}, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	o := res.Options[0]
	room := 0.9*141*(1<<30)/1e9 - 0.8
	fixed := (672.879 + (8192*(2*7168+2*18432)*2+2*129280*4)/1e9) / 8
	want := (room - fixed) / (4096 * 70272 / 1e9)
	if o.Count != 8 || !near(o.MaxConcurrency, want, 1) || o.MaxConcurrency < 170 || o.MaxConcurrency > 185 {
		t.Errorf("8 × H200: count %d, max_concurrency %v; want 8 and %.0f (≈178)", o.Count, o.MaxConcurrency, want)
	}
	s, err := Serve(ServeInput{Workload: Workload{Model: "deepseek-v3"}, GPU: g, Cards: 8, InputTokens: 3584, OutputTokens: 1024}, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	// Serving at 3,584 in + 1,024 out caches 3,584 + 512 = 4,096 tokens on
	// average: the same ≈178.
	if s.ConcurrencyLimit < 170 || s.ConcurrencyLimit > 185 {
		t.Errorf("serving concurrency limit = %d, want ≈178", s.ConcurrencyLimit)
	}
}

// No answer says "fits" where not one request or sequence fits: every
// option with a count holds the workload's batch under the same rule that
// gives max_batch / max_concurrency, and its per-card figure is within the
// card.
func TestFitOptionsNeverContradictThemselves(t *testing.T) {
	kb := knowledge.MustShipped()
	loads := []Workload{
		{Model: "deepseek-v3", Method: Inference, SeqLen: 32768},
		{Model: "qwen3-235b-a22b", Method: Inference, Batch: 16, SeqLen: 8192},
		{ParamsB: 70, Method: Inference, SeqLen: 131072},
		{ParamsB: 7, Method: Inference, Batch: 64, SeqLen: 4096},
		{ParamsB: 70, Method: Full},
		{ParamsB: 13, Method: LoRA, Batch: 8, SeqLen: 8192, NoGC: true},
		{ParamsB: 8, Method: QLoRA, Batch: 4, SeqLen: 4096},
		{ParamsB: 405, Method: Full, Batch: 2, SeqLen: 8192},
	}
	for _, w := range loads {
		res, err := Fit(w, kb.GPUs, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		b := res.Workload.Batch
		for _, o := range res.Options {
			switch {
			case o.Count == 0 && (o.Fits || o.MaxBatch != 0 || o.MaxConcurrency != 0):
				t.Errorf("%+v on %s: no layout, yet fits=%v max_batch %d max_concurrency %v", w, o.GPU, o.Fits, o.MaxBatch, o.MaxConcurrency)
			case o.Count > 0 && res.Workload.trains() && o.MaxBatch < b:
				t.Errorf("%+v on %d × %s: max_batch %d below the batch %d it was sized at", w, o.Count, o.GPU, o.MaxBatch, b)
			case o.Count > 0 && !res.Workload.trains() && o.MaxConcurrency < float64(b):
				t.Errorf("%+v on %d × %s: max_concurrency %v below the %d requests it was sized at", w, o.Count, o.GPU, o.MaxConcurrency, b)
			case o.Count > 0 && o.PerCardGB > o.VRAMGB:
				t.Errorf("%+v on %d × %s: %v GB per card over %v", w, o.Count, o.GPU, o.PerCardGB, o.VRAMGB)
			}
		}
	}
}

// FSDP/ZeRO-3 shards states, not activations, and max_batch is not floored
// at 1. Llama-3-8B full fine-tune, 1 × 2,048 tokens, checkpointing on:
//
//	states       8.03e9 × 16 bytes                      = 128.48 GB (sharded)
//	activations  32 × 2 × 2048 × 4096 + 167,936 × 2048
//	             + 2048 × 128,256 × 12                  = 4.03 GB per sequence (whole on every card)
//
// (12 bytes per logit: the loss's BF16 logits, FP32 log-softmax and the
// gradients.) On 2 × 80 GB: (128.48 ÷ 2 + b × 4.03) × 1.05 + 0.8 ≤ 80 →
// b ≤ 2.8: 2 sequences per card, where dividing the activations by 2 as
// well would have claimed 5. On 1 card the states alone are 134.9 GB: max_batch 0.
func TestTrainingActivationsNotShardedByFSDP(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h100-sxm")
	res, err := Fit(Workload{Model: "llama-3-8b", Method: Full}, []knowledge.GPU{g}, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	P := res.Shape.ParamsB * 1e9
	states := P * 16 / 1e9
	act := (32*2*2048*4096.0 + 167936*2048.0 + 2048*128256*12.0) / 1e9
	o := res.Options[0]
	wantPer := (states/2+act)*1.05 + 0.8
	wantBatch := int(((80-0.8)/1.05 - states/2) / act)
	if o.Count != 2 || !near(o.PerCardGB, wantPer, 0.02) || o.MaxBatch != wantBatch || wantBatch != 2 {
		t.Errorf("2 × H100: count %d, %v GB/card, max_batch %d; want 2, %.2f GB, %d", o.Count, o.PerCardGB, o.MaxBatch, wantPer, wantBatch)
	}
	lim := trainLimits(res.Memory)
	if got := lim.maxBatch(80, 1); got != 0 {
		t.Errorf("max_batch on one 80 GB card = %d, want 0 (the states alone are %.1f GB)", got, states*1.05+0.8)
	}
}

// A training fit ranks by the cost to finish, with each card's real
// precision. 13B LoRA (4·N FLOPs per token, N = 13e9), one card each:
//
//	V100 SXM2  no BF16: FP16 tensor 125 TFLOPS × MFU 0.26 (non-A100 class) ÷ 5.2e10 = 625 tokens/s
//	A100 80GB  BF16 312 × 0.35 ÷ 5.2e10                                  = 2,100 tokens/s
//	H100 SXM   BF16 989 × 0.30 (compute-heavy class) ÷ 5.2e10            = 5,705.8 tokens/s
//
// At $0.50/h the V100 costs 0.5 ÷ (625 × 3600) × 10⁶ = $0.222 per million
// tokens; the H100 at $2/h, four times the hourly price, 2 ÷ (5,705.8 ×
// 3600) × 10⁶ = $0.097: cheaper per job.
func TestFitRanksTrainingByCostToFinish(t *testing.T) {
	kb := knowledge.MustShipped()
	var gpus []knowledge.GPU
	for _, id := range []string{"v100-sxm2", "a100-80g", "h100-sxm"} {
		g, _ := kb.GPU(id)
		gpus = append(gpus, g)
	}
	res, err := Fit(Workload{ParamsB: 13, Method: LoRA}, gpus, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"v100-sxm2": 625, "a100-80g": 2100, "h100-sxm": 5705.8}
	byID := map[string]FitOption{}
	for _, o := range res.Options {
		byID[o.GPU] = o
		if o.Count != 1 || !near(o.TrainTokensPerS, want[o.GPU], 0.5) {
			t.Errorf("%s: %d card(s), %v tokens/s, want 1 and %v", o.GPU, o.Count, o.TrainTokensPerS, want[o.GPU])
		}
	}
	v100, h100 := JobCostPerMTokens(byID["v100-sxm2"], 0.5), JobCostPerMTokens(byID["h100-sxm"], 2)
	if !near(v100, 0.5/(625*3600)*1e6, 0.001) || !near(h100, 2/(5705.8*3600)*1e6, 0.001) || h100 >= v100 {
		t.Errorf("per million tokens: V100 at $0.5/h %v, H100 at $2/h %v; want 0.222 and 0.097", v100, h100)
	}
	if JobCostPerMTokens(FitOption{}, 1) != 0 {
		t.Error("an option with no layout has no job cost")
	}
}

// Cards without BF16 train at the precision they have: a 3B LoRA (4·N =
// 1.2e10 FLOPs per token), one card each, MFU 0.26 (a card outside the
// datacenter classes), against the vendors' datasheets:
//
//	T4        Turing, FP16 tensor cores only: 65 TFLOPS × 0.26 ÷ 1.2e10 = 1,408.3 tokens/s
//	Tesla P40 Pascal, no tensor cores: FP32 11.76 × 0.26 ÷ 1.2e10       =   254.8 tokens/s
//	RTX 3090  Ampere, BF16 71 (dense) × 0.26 ÷ 1.2e10                   = 1,538.3 tokens/s
//
// Per job, the T4 at $0.20/h costs 0.2 ÷ (1,408.3 × 3600) × 10⁶ = $0.0394
// per million tokens, the P40 at half its hourly price 0.1 ÷ (254.8 ×
// 3600) × 10⁶ = $0.109: the cheaper hour is the dearer job.
func TestCostToFinishWithoutBF16(t *testing.T) {
	kb := knowledge.MustShipped()
	var gpus []knowledge.GPU
	for _, id := range []string{"t4", "p40", "rtx3090"} {
		g, ok := kb.GPU(id)
		if !ok {
			t.Fatalf("no card %s", id)
		}
		gpus = append(gpus, g)
	}
	if gpus[0].BF16TFLOPS != 0 || gpus[0].FP16TFLOPS != 65 || gpus[1].BF16TFLOPS+gpus[1].FP16TFLOPS != 0 || gpus[1].FP32TFLOPS != 11.76 || gpus[2].BF16TFLOPS != 71 {
		t.Fatalf("hand figures assume T4 FP16 65 (no BF16), P40 FP32 11.76 only, 3090 BF16 71: %+v", gpus)
	}
	res, err := Fit(Workload{ParamsB: 3, Method: LoRA}, gpus, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"t4": 1408.3, "p40": 254.8, "rtx3090": 1538.3}
	byID := map[string]FitOption{}
	for _, o := range res.Options {
		byID[o.GPU] = o
		if o.Count != 1 || !near(o.TrainTokensPerS, want[o.GPU], 0.1) {
			t.Errorf("%s: %d card(s), %v tokens/s, want 1 and %v", o.GPU, o.Count, o.TrainTokensPerS, want[o.GPU])
		}
	}
	t4, p40 := JobCostPerMTokens(byID["t4"], 0.2), JobCostPerMTokens(byID["p40"], 0.1)
	if !near(t4, 0.0394, 0.0001) || !near(p40, 0.109, 0.001) {
		t.Errorf("per million tokens: T4 at $0.2/h %v, P40 at $0.1/h %v; want 0.0394 and 0.109", t4, p40)
	}
}

// remark is o's remark of kind k, if it has one.
func remark(o FitOption, k FitNoteKind) (FitNote, bool) {
	for _, r := range o.Remarks {
		if r.Kind == k {
			return r, true
		}
	}
	return FitNote{}, false
}

// DeepSeek-V3 FP8 on 8× H200 at 64k tokens (review round 9): MLA caches
// (kv_lora_rank 512 + qk_rope_head_dim 64) × 61 layers × 2 B = 70,272 B a
// token (knowledge/data/models.json, deepseek-v3), × 65,536 = 4.605 GB a
// request. FP8 weights (671.026 − 1.853)B + 1.853B × 2 = 672.88 GB; the
// 8,192-token prefill chunk 8192 × (2×7168 + 2×18432) × 2 B = 0.84 GB.
// vLLM's room per card on 8: 0.9 × 141 × 1.0737 − 0.8 − (672.88 + 0.84) ÷ 8
// = 136.26 − 0.8 − 84.22 = 51.24 GB. Tensor parallel keeps the latent
// whole on every card: 51.24 ÷ 4.605 = 11.13 requests; data-parallel
// attention caches each once: 8 × 11.13 = 89.0. A GQA model's heads split
// already: Llama 3 70B's two figures are the same.
func TestConcurrencyMLAUnderTPAndDP(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	h200, ok := kb.GPU("h200")
	if !ok || h200.VRAMGB != 141 {
		t.Fatalf("h200 %v %v GB; the hand calculation assumes 141 GB", ok, h200.VRAMGB)
	}
	tp, dp, err := m.Concurrency(Workload{Model: "deepseek-v3", Method: Inference, Bits: 8, SeqLen: 65536}, h200, 8)
	if err != nil || math.Abs(tp-11.13) > 0.05 || math.Abs(dp-89.0) > 0.4 {
		t.Errorf("Concurrency(deepseek-v3 fp8 64k, 8× H200) = %v, %v (%v); want ≈11.13 and ≈89.0", tp, dp, err)
	}
	tp, dp, err = m.Concurrency(Workload{Model: "llama-3-70b", Method: Inference, Bits: 16, SeqLen: 8192}, h200, 2)
	if err != nil || tp <= 0 || dp != tp {
		t.Errorf("Concurrency(llama-3-70b, 2× H200) = %v, %v (%v); want the same figure twice", tp, dp, err)
	}
	if tp, dp, err := m.Concurrency(Workload{Model: "llama-3-70b", Method: QLoRA}, h200, 1); err != nil || tp != 0 || dp != 0 {
		t.Errorf("Concurrency(training) = %v, %v (%v); want 0, 0", tp, dp, err)
	}
}
