package advisor

import (
	"slices"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Serving settings by hand: Llama-3.1-8B (8.03B, BF16 weights) on one H100
// at a 4,096-token context.
//
//	weights        8.03e9 × 2                                   = 16.06 GB
//	prefill chunk  8,192 × (2×4,096 + 2×14,336) × 2 + 2 × 128,256 × 4 = 0.605 GB
//	KV, BF16       4,096 × 131,072 B (2 × 32 layers × 1,024 × 2) = 0.5369 GB per request
//	KV, FP8        half of it                                   = 0.2684 GB
//	vLLM budget    util × 80 × 2³⁰ ÷ 10⁹ − 0.8 − 16.06 − 0.605
//	TensorRT-LLM   util × (80 × 2³⁰ ÷ 10⁹ − 0.8 − 16.06 − 0.605)
func TestServingSettingsByHand(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h100-sxm")
	card := 80 * float64(1<<30) / 1e9
	fixed := 8.03*2 + (8192*(2*4096+2*14336)*2+2*128256*4)/1e9
	kv16 := 4096 * 131072 / 1e9
	tests := []struct {
		name string
		w    Workload
		want float64
	}{
		{"vLLM defaults: 0.9, BF16 KV", Workload{}, (0.9*card - 0.8 - fixed) / kv16},
		{"kv_bits=8 doubles the requests", Workload{KVBits: 8}, (0.9*card - 0.8 - fixed) / (kv16 / 2)},
		{"gpu_mem_util=0.95", Workload{MemUtil: 0.95}, (0.95*card - 0.8 - fixed) / kv16},
		{"TensorRT-LLM: 0.9 of the free memory", Workload{Engine: EngineTRTLLM}, 0.9 * (card - 0.8 - fixed) / kv16},
	}
	for _, tt := range tests {
		w := tt.w
		w.Model, w.Method, w.SeqLen = "llama-3.1-8b", Inference, 4096
		res, err := Fit(w, []knowledge.GPU{g}, kb.Archs)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if o := res.Options[0]; o.Count != 1 || !near(o.MaxConcurrency, tt.want, 0.02) {
			t.Errorf("%s: %d card(s), max_concurrency %v, want 1 and %.2f", tt.name, o.Count, o.MaxConcurrency, tt.want)
		}
	}
}

// Each engine's defaults, recorded as defaulted so the answer states them:
// vLLM max_num_seqs 256, BF16 KV (kv_cache_dtype auto); TensorRT-LLM
// max_batch_size 2048 and, with an FP8 checkpoint, an FP8 KV cache.
func TestServingEngineDefaults(t *testing.T) {
	tests := []struct {
		w            Workload
		engine       string
		kvBits, seqs int
	}{
		{Workload{ParamsB: 8}, EngineVLLM, 16, 256},
		{Workload{ParamsB: 8, Bits: 8}, EngineVLLM, 16, 256},
		{Workload{ParamsB: 8, Engine: EngineTRTLLM}, EngineTRTLLM, 16, 2048},
		{Workload{ParamsB: 8, Bits: 8, Engine: EngineTRTLLM}, EngineTRTLLM, 8, 2048},
		{Workload{ParamsB: 8, Bits: 8, Engine: EngineTRTLLM, KVBits: 16, MaxSeqs: 512}, EngineTRTLLM, 16, 512},
	}
	for _, tt := range tests {
		w, err := tt.w.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		if w.Engine != tt.engine || w.KVBits != tt.kvBits || w.MaxSeqs != tt.seqs || w.MemUtil != 0.9 {
			t.Errorf("%+v: engine %s kv_bits %d max_seqs %d util %v, want %s %d %d 0.9", tt.w, w.Engine, w.KVBits, w.MaxSeqs, w.MemUtil, tt.engine, tt.kvBits, tt.seqs)
		}
		if !slices.Contains(w.Defaulted, "gpu_mem_util") || (tt.w.KVBits == 0) != slices.Contains(w.Defaulted, "kv_bits") {
			t.Errorf("%+v: defaulted %v, want gpu_mem_util and kv_bits (when not given)", tt.w, w.Defaulted)
		}
	}
	// The cap reaches serving: 128 in / 128 out on one H100 holds far more
	// than 256 requests, so vLLM runs 256 and TensorRT-LLM more.
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h100-sxm")
	for _, c := range []struct {
		engine string
		want   int
	}{{"", 256}, {EngineTRTLLM, 2048}} {
		s, err := Serve(ServeInput{Workload: Workload{Model: "llama-3.1-8b", Bits: 8, Engine: c.engine}, GPU: g, Cards: 1, InputTokens: 128, OutputTokens: 128}, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		if s.ConcurrencyLimit < c.want || s.Concurrency != c.want {
			t.Errorf("engine %q: concurrency %d (KV holds %d), want the cap %d", c.engine, s.Concurrency, s.ConcurrencyLimit, c.want)
		}
	}
}

func TestServingSettingsRejectBadInput(t *testing.T) {
	tests := []struct {
		w     Workload
		field string
	}{
		{Workload{ParamsB: 8, KVBits: 4}, "kv_bits"},
		{Workload{ParamsB: 8, MemUtil: 1.5}, "gpu_mem_util"},
		{Workload{ParamsB: 8, MemUtil: 0.05}, "gpu_mem_util"},
		{Workload{ParamsB: 8, MaxSeqs: -1}, "max_seqs"},
		{Workload{ParamsB: 8, Engine: "ollama"}, "engine"},
		{Workload{ParamsB: 8, Method: LoRA, KVBits: 8}, "kv_bits"},
	}
	for _, tt := range tests {
		_, err := tt.w.Normalize()
		wantInputErr(t, "Normalize", err, tt.field)
	}
}
