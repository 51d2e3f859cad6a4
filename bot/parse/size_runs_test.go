package parse

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// TestSmallModelsAndRunsInWords: "a 125M gpt2" is 0.125 B parameters (the
// million-parameter reader never fired: it checked the boundary before the
// figure instead of the figure); "50 组实验，每组…3 小时" is 50 × 3 = 150
// hours in all; "avg 1k input" is a request's length, not 1,000 requests/s,
// while "平均80，输入200 token" keeps its rate of 80.
func TestSmallModelsAndRunsInWords(t *testing.T) {
	p := New(knowledge.MustShipped())
	for _, c := range []struct {
		text string
		want float64
		got  func(Slots) float64
	}{
		{"gonna pretrain a 125M gpt2 on 10B tokens, how long on a single 4090?", 0.125, func(s Slots) float64 { return s.ParamsB }},
		{"a 350m params model on a 3060", 0.35, func(s Slots) float64 { return s.ParamsB }},
		{"我要在3周内跑完 50 组实验，每组在 A100 上大概 3 小时，预算 3000 块", 150, func(s Slots) float64 { return s.Hours }},
		{"Llama 3.1 70B at 200 QPS peak, avg 1k input / 300 output tokens — how many H100?", 0, func(s Slots) float64 { return s.RequestsPerS }},
		{"7B小模型，QPS峰值300、平均80，输入200 token输出20 token左右，T4要几张？", 80, func(s Slots) float64 { return s.RequestsPerS }},
	} {
		if got := c.got(p.Parse(c.text).Slots); got != c.want {
			t.Errorf("%q: read %v, want %v", c.text, got, c.want)
		}
	}
}

// TestKVCacheBitsAreTheCache: "with FP8 KV cache" sets the cache's bits
// (8), never the weights' — the follow-up halved the weights instead.
func TestKVCacheBitsAreTheCache(t *testing.T) {
	p := New(knowledge.MustShipped())
	for _, q := range []string{"ok and with FP8 KV cache?", "llama 70b 32k context, kv cache in fp8", "KV 缓存用 int8 的话呢"} {
		s := p.Parse(q).Slots
		if s.KVBits != 8 || s.Bits != 0 {
			t.Errorf("%q: kv_bits %d, bits %d; want 8 and 0", q, s.KVBits, s.Bits)
		}
	}
	if s := p.Parse("llama 70b in fp8 with a 32k context").Slots; s.Bits != 8 || s.KVBits != 0 {
		t.Errorf("fp8 weights: bits %d, kv_bits %d", s.Bits, s.KVBits)
	}
}
