package knowledge

import (
	"math"
	"testing"
)

// Every row of the reference model_configs.json ships, with sources and
// confidence, and is found by id and by the aliases users type.
func TestModelCatalogue(t *testing.T) {
	b := MustShipped()
	if len(b.Archs) != 74 {
		t.Fatalf("%d models shipped, want the reference file's 74", len(b.Archs))
	}
	for name, id := range map[string]string{
		"deepseek-v3": "deepseek-v3", "DeepSeek V3": "deepseek-v3", "mixtral:8x7b": "mixtral-8x7b",
		"Qwen3-30B-A3B": "qwen3-30b-a3b", "通义千问3 30B-A3B": "qwen3-30b-a3b", "gpt-oss-120b": "gpt-oss-120b",
		"Llama 3.1 405B": "llama-3.1-405b",
	} {
		a, ok := b.Arch(name)
		if !ok || a.ID != id {
			t.Errorf("Arch(%q) = %q, %v; want %s", name, a.ID, ok, id)
		}
	}
	moe := 0
	for _, a := range b.Archs {
		if a.MoE() {
			moe++
			// Routed experts hold most of a MoE's weight, never more than all.
			if r := a.RoutedParamsB(); r <= 0 || r >= a.ParamsB {
				t.Errorf("%s routed params %v of %v", a.ID, r, a.ParamsB)
			}
		}
	}
	if moe != 20 {
		t.Errorf("%d mixture-of-experts models, want 20", moe)
	}
	// Mixtral 8x7B: 46.70B total, 12.88B active with embeddings; one expert
	// slot across 32 layers is (46.703 − 12.88) ÷ 6; all 8 of them are
	// 45.1B (3 × 4096 × 14336 × 32 layers × 8 = 45.1B by the config).
	mx, _ := b.Arch("mixtral-8x7b")
	if want := 3.0 * 4096 * 14336 * 32 * 8 / 1e9; math.Abs(mx.RoutedParamsB()-want) > 0.05 {
		t.Errorf("mixtral routed = %.3f B, want %.3f B from the config", mx.RoutedParamsB(), want)
	}
	if d, _ := b.Arch("deepseek-v3"); d.WeightFormat() != "fp8" || d.KVBytes(4096) != 70272*4096 {
		t.Errorf("deepseek-v3 format %s, KV %v", d.WeightFormat(), d.KVBytes(4096))
	}
	// gpt-oss-120b: 18 global layers × 36,864 B/token + 18 windowed layers
	// capped at 128 tokens.
	if g, _ := b.Arch("gpt-oss-120b"); g.KVBytes(8192) != 36864*8192+36864*128 {
		t.Errorf("gpt-oss-120b KV(8192) = %v", g.KVBytes(8192))
	}
	if len(b.Images) != 5 {
		t.Errorf("%d image models, want 5", len(b.Images))
	}
}
