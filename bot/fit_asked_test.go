package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/gpubot/gpubot/bot/thread"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

// within reports whether got is within tol of want.
func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// Review round 9, Q1: "can i qlora llama 3 8b on my 3060 12gb?? seq len
// 2048, batch 4". Llama 3 8B: 32 layers, hidden 4096, 8 KV heads × 128
// (kv 1024), MLP 14336, vocab 128256, untied embeddings E = 2 × 128256 ×
// 4096 = 1.05B.
//
//	NF4 base      (8.03 − 1.05)B × 4.127 ÷ 8 + 1.05B × 2 = 3.60 + 2.10 = 5.70 GB
//	LoRA r16      per layer 16 × (2×(4096+4096) + 2×(4096+1024) + 3×(4096+14336))
//	              = 1,310,720 × 32 layers = 41.94M: weights 0.084, grads
//	              0.084, Adam 8 B × 41.94M = 0.336 GB
//	activations   checkpoints 32 × 2 × 4 × 2048 × 4096 = 2.147 GB
//	(gc on, bs 4) + one layer (12×4096 + 4×1024 + 8×14336 = 167,936 B) × 8192 = 1.376 GB
//	              + logits 4 × 2048 × 128256 × 12 B = 12.61 GB  → 16.13 GB
//	bs 4          (5.70+0.084+0.084+0.336 + 16.13) × 1.05 + 0.8 = 24.25 GB
//	bs 1          (6.204 + 16.13 ÷ 4) × 1.05 + 0.8 = 11.55 GB ≤ 12
//
// More cards do not help (each keeps its micro-batch's activations), so
// the answer is batch 1 with gradient accumulation 4: the same effective
// batch. The 12.61 GB of logits is Llama 3's 128K vocabulary (4× Llama 2's
// 32K; unslothai/unsloth#824: "llama-3 uses 128K, so it uses more VRAM");
// stacks with chunked cross-entropy (Unsloth, torchtune) run lower.
func TestQLoRA8BOn3060LeadsWithGradientAccumulation(t *testing.T) {
	for _, c := range []struct{ q, lead, yes string }{
		{"can i qlora llama 3 8b on my 3060 12gb?? seq len 2048, batch 4", "Not at batch 4 (≈24.25 GB of 12 GB)", "yes at batch 1 with gradient accumulation 4 (same effective batch, ≈11.55 GB"},
		{"我的 3060 12g 能 qlora llama 3 8b 吗？seq 2048，batch 4", "batch 4 不行（约需 24.25 GB，卡只有 12 GB）", "batch 1 + 梯度累积 4 可以（等效 batch 不变，约 11.55 GB"},
	} {
		a := askOne(t, c.q)
		if !strings.HasPrefix(a.Headline, c.lead) || !strings.Contains(a.Headline, c.yes) {
			t.Errorf("%q: headline %q, want %q … %q", c.q, a.Headline, c.lead, c.yes)
		}
		if strings.Contains(a.Text, "64") {
			t.Errorf("%q: the answer still proposes more cards:\n%s", c.q, a.Text)
		}
		v, _ := a.Result.(FitResult)
		if !within(v.Breakdown.ActivationsGB, 16.13, 0.02) || v.Squeeze == nil || !within(v.Squeeze.PerCardGB, 11.55, 0.02) || v.Squeeze.Workload.Batch != 1 {
			t.Errorf("%q: activations %v GB, squeeze %+v; want 16.13 GB and batch 1 at 11.55 GB", c.q, v.Breakdown.ActivationsGB, v.Squeeze)
		}
	}
}

// Q2: "笔记本 3060 6G 显存跑 phi-3-mini 推理，fp16 放得下吗？放不下该用啥量化".
// Phi-3-mini 3.821B: 32 layers, hidden 3072, 32 KV heads × 96 (kv 3072),
// MLP 8192, vocab 32064, untied E = 2 × 32064 × 3072 = 0.197B. vLLM rule on
// one 6 GB card: 0.9 × 6 × 1.0737 = 5.80 GB, minus the 0.8 GB context,
// minus weights and the 8,192-token chunk's activations 8192 × (2×3072 +
// 2×8192) × 2 B = 0.37 GB, must hold one 4,096-token KV cache 4096 × 32 ×
// 2 × 3072 × 2 B = 1.61 GB:
//
//	8-bit  weights 3.624 + 0.394 = 4.02 → 5.80 − 0.8 − 4.02 − 0.37 = 0.61 < 1.61: no
//	4-bit  weights 3.624 × 4.25/8 + 0.394 = 2.32 → 5.80 − 0.8 − 2.32 − 0.37 = 2.31 ≥ 1.61: yes
//
// The laptop's card is theirs: no "needs 2 cards".
func TestLaptop3060LeadsWithThePrecisionThatFits(t *testing.T) {
	for _, c := range []struct{ q, lead, yes string }{
		{"笔记本 3060 6G 显存跑 phi-3-mini 推理，fp16 放得下吗？放不下该用啥量化", "放不下：FP16 约需 10.71 GB，超过你的 6 GB", "用 4-bit（约 5.12 GB）可以"},
		{"laptop 3060 6GB, can it run phi-3-mini inference in fp16? if it does not fit, which quantization?", "No at FP16: ≈10.71 GB, more than your card's 6 GB", "4-bit (≈5.12 GB) fits"},
	} {
		a := askOne(t, c.q)
		if !strings.HasPrefix(a.Headline, c.lead) || !strings.HasSuffix(a.Headline, c.yes) {
			t.Errorf("%q: headline %q, want %q … %q", c.q, a.Headline, c.lead, c.yes)
		}
		if strings.Contains(a.Headline, "需要 2") || strings.Contains(a.Headline, "you have") || strings.Contains(a.Text, "RTX 3060 12GB 放得下") {
			t.Errorf("%q: proposes more cards or sizes the 12 GB card:\n%s", c.q, a.Text)
		}
		v, _ := a.Result.(FitResult)
		if len(v.Lower) != 2 || v.Lower[0].Bits != 8 || v.Lower[0].Fits || v.Lower[1].Bits != 4 || !v.Lower[1].Fits {
			t.Errorf("%q: lower precisions %+v, want 8-bit no, 4-bit yes", c.q, v.Lower)
		}
	}
}

// Q3: "两张 4090 全参微调 Qwen2.5-7B？不行的话租 A100 80G 跑 10 小时要多少钱".
// Full fine-tuning keeps 16 B per parameter: 7.616B × 16 = 121.9 GB of
// states, sharded. On one 80 GB A100 that alone is over; on two, 60.9 GB
// each plus the micro-batch's activations fits: 2 cards. The total is
// 2 cards × 10 h × the cheapest on-demand A100 80GB rate.
func TestFullFineTuneOnTwo4090sThenRentA100(t *testing.T) {
	for _, c := range []struct{ q, lead, rent string }{
		{"实验室只有两张 4090，想跑 Qwen2.5-7B 全参微调，能行吗？不行的话租 A100 80G 跑 10 小时要多少钱", "不行：", "租 A100 80GB 跑 10 小时约"},
		{"our lab only has two 4090s, can we full fine-tune Qwen2.5-7B? if not, how much to rent A100 80G for 10 hours", "No:", "renting A100 80GB for 10 h: ≈"},
	} {
		a := askOne(t, c.q)
		if a.Err != "" || !strings.HasPrefix(a.Headline, c.lead) || !strings.Contains(a.Headline, c.rent) {
			t.Errorf("%q: headline %q (err %q), want %q … %q", c.q, a.Headline, a.Err, c.lead, c.rent)
			continue
		}
		v, _ := a.Result.(FitResult)
		r := v.Rental
		if r == nil || r.Cards != 2 || r.Hours != 10 || r.Price == nil || !within(r.Total, r.Price.Price*20, 0.011) {
			t.Errorf("%q: rental %+v, want 2 cards × 10 h × the card-hour price", c.q, r)
		}
	}
}

// Q4: "DeepSeek-R1 671B 满血版 FP8 部署最少要几张 H20？141G 和 96G 两个版本".
// FP8 weights: (671.026 − 1.853)B × 1 B + 1.853B × 2 B = 672.88 GB (E =
// 2 × 129280 × 7168). vLLM's rule per card on n cards: 0.9 × VRAM × 1.0737
// − 0.8 − 672.88 ÷ n must hold one 4,096-token MLA cache (4096 × 70,272 B
// = 0.29 GB):
//
//	141 GB  n=4: 136.3 − 0.8 − 168.2 < 0;  n=8: 136.3 − 0.8 − 84.1 = 51.3: 8
//	 96 GB  n=4: 92.8 − 0.8 − 168.2 < 0;   n=8: 92.8 − 0.8 − 84.1 = 7.9: 8
//
// Both sizes, the one said first first; the 141 GB is the catalogue's
// h20-141g. Nobody said they have one: no "你只有 1 张".
func TestH20BothVariants(t *testing.T) {
	a := askOne(t, "DeepSeek-R1 671B 满血版 FP8 部署最少要几张 H20？141G 和 96G 两个版本分别说一下")
	v, _ := a.Result.(FitResult)
	if len(v.Variants) != 2 || v.Variants[0].VRAMGB != 141 || v.Variants[1].VRAMGB != 96 ||
		v.Variants[0].Cards != 8 || v.Variants[1].Cards != 8 || !v.Variants[0].InCatalogue || v.Variants[0].GPU != "h20-141g" {
		t.Errorf("variants %+v, want H20 141GB ×8 (h20-141g) then H20 96GB ×8", v.Variants)
	}
	if !strings.HasPrefix(a.Headline, "最少张数：H20 141GB 8 张") || !strings.Contains(a.Headline, "H20 96GB 8 张") || strings.Contains(a.Headline, "你只有") {
		t.Errorf("headline %q, want both counts and no 'you have one'", a.Headline)
	}
}

// Q5: "Can a single 8x H200 node serve DeepSeek-V3 in FP8 with 64k
// context? Roughly how many concurrent sequences?". MLA caches (512 + 64)
// × 61 layers × 2 B = 70,272 B per token (knowledge/data/models.json:
// kv_lora_rank 512, qk_rope_head_dim 64), × 65,536 = 4.605 GB a sequence.
// Per card on 8: 0.9 × 141 × 1.0737 = 136.26 − 0.8 − (672.88 + 0.84 GB
// chunk activations) ÷ 8 = 51.25 GB of KV room. Tensor parallel keeps the
// latent whole on every card: 51.25 ÷ 4.605 = 11.1; data-parallel
// attention caches each request once: 8 × 11.1 = 89.
func TestDeepSeekV3On8H200Concurrency(t *testing.T) {
	for _, c := range []struct{ q, yes, n string }{
		{"Can a single 8x H200 node serve DeepSeek-V3 in FP8 with 64k context? Roughly how many concurrent sequences?", "Yes", "about 11 concurrent 65,536-token sequences"},
		{"单台 8 卡 H200 能跑 DeepSeek-V3 FP8 64k 上下文吗？大概能同时跑多少条序列？", "可以", "约可同时容纳 11 条 65,536 token 的序列"},
	} {
		a := askOne(t, c.q)
		if !strings.HasPrefix(a.Headline, c.yes) || !strings.Contains(a.Headline, c.n) || !strings.Contains(a.Headline, "89") {
			t.Errorf("%q: headline %q, want %s with %q and 89 under DP attention", c.q, a.Headline, c.yes, c.n)
		}
		v, _ := a.Result.(FitResult)
		if v.Verdict == nil || !within(v.Verdict.MaxConcurrency, 11.13, 0.05) || !within(v.Verdict.MaxConcurrencyDP, 89.0, 0.3) {
			t.Errorf("%q: verdict %+v, want ≈11.1 (TP) and ≈89 (DP attention)", c.q, v.Verdict)
		}
	}
}

// Q6: the KV cache of Llama 3.1 70B at 32k × batch 16 is 16 × 32,768 × 80
// layers × 2 × 8 KV heads × 128 × 2 B = 171.8 GB; "ok and with FP8 KV
// cache?" halves the cache (85.9 GB) and leaves the weights at 16 bits
// (70.554B × 2 = 141.11 GB), not 8-bit weights.
func TestFP8KVCacheFollowUp(t *testing.T) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer rdb.Close()
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	b.UseThreads(thread.New(rdb, thread.Options{}))
	ctx := context.Background()
	in := Message{Team: "T1", Channel: "C1", User: "U1", Thread: "1700000000.000900"}
	in.Text = "What's the KV cache footprint for Llama 3.1 70B at 32k context, batch 16?"
	first := b.Answer(ctx, in)
	in.Text = "ok and with FP8 KV cache?"
	a := b.Answer(ctx, in)
	f, _ := first.Result.(FitResult)
	v, _ := a.Result.(FitResult)
	if !within(f.Breakdown.KVCacheGB, 171.8, 0.01) || !within(v.Breakdown.KVCacheGB, 85.9, 0.01) || !within(v.Breakdown.WeightsGB, 141.11, 0.01) {
		t.Errorf("KV %v → %v GB, weights %v GB; want 171.8 → 85.9 GB with 141.11 GB of 16-bit weights", f.Breakdown.KVCacheGB, v.Breakdown.KVCacheGB, v.Breakdown.WeightsGB)
	}
	if !strings.HasPrefix(a.Headline, "KV cache ≈85.9 GB") {
		t.Errorf("headline %q, want the 8-bit KV cache first", a.Headline)
	}
}

// kvBitsAsked reads the 8 bits as the cache's, and says when the message
// names the weights' precision apart.
func TestKVBitsAsked(t *testing.T) {
	for text, want := range map[string][2]bool{
		"ok and with FP8 KV cache?":              {true, false},
		"kv cache in fp8":                        {true, false},
		"KV 缓存用 int8 呢":                          {true, false},
		"int4 weights and fp8 kv cache":          {true, true},
		"llama 70b fp8 on two H100":              {false, false},
		"what's the kv cache for 70b at 32k":     {false, false},
		"--kv-cache-dtype fp8 for qwen 72b":      {true, false},
		"8-bit weights, how big is the kv cache": {false, false},
	} {
		kv, w := kvBitsAsked(text)
		if [2]bool{kv, w} != want {
			t.Errorf("kvBitsAsked(%q) = %v, %v; want %v", text, kv, w, want)
		}
	}
}
