package bot

import (
	"strings"
	"testing"
)

// "X? if not, Y?": both fits answered, the first way first. Hand values:
// a 7B full fine-tune with AdamW is ≈ 16 bytes a parameter (≥ 112 GB)
// → no on one 24 GB 4090, LoRA (BF16 weights ≈ 14 GB + adapters) → yes;
// Llama-3-8B in BF16 is ≈ 16 GB of weights → no on a 12 GB 3060, at 4 bits
// ≈ 4.5 GB → yes; 70B in BF16 is 140 GB of weights → no on one 141 GB
// H200 (with the KV cache and runtime), FP8 ≈ 70 GB → yes.
func TestFitWithFallback(t *testing.T) {
	for _, c := range []struct {
		q          string
		minA, maxB float64
		sep        string
	}{
		{"就一张4090，7b全参微调能跑吗？不行的话lora呢", 112, 24, "退一步："},
		{"3060 12g能不能跑llama3 8b推理啊，int4的话呢", 16, 12, "退一步："},
		{"70B BF16 inference on one H200? If not, FP8?", 140, 141, "If not: "},
		{"4090 24g LoRA微调 Qwen2.5-14B，bf16能跑吗？不行的话QLoRA呢", 28, 24, "退一步："},
	} {
		a := askOne(t, c.q)
		if a.Err != "" || a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" || *a.Typed.Value < c.minA {
			t.Errorf("%s: first way %+v (err %q), want no at ≥ %v GB", c.q, a.Typed, a.Err, c.minA)
			continue
		}
		alt := a.Typed.Also[len(a.Typed.Also)-1]
		if alt.Asked != "memory_gb" || alt.Verdict == nil || *alt.Verdict != "yes" || *alt.Value >= c.maxB {
			t.Errorf("%s: fallback %+v, want yes under %v GB", c.q, alt, c.maxB)
		}
		if first, _, _ := strings.Cut(a.Text, "\n"); !strings.Contains(first, c.sep) {
			t.Errorf("%s: first line %q does not answer both", c.q, first)
		}
	}
	// no fallback: one fit, as before
	if a := askOne(t, "3060 12g 能 qlora 7b 吗"); a.fallback != nil || strings.Contains(a.Text, "退一步") {
		t.Errorf("a plain fit got a fallback: %s", a.Text)
	}
}
