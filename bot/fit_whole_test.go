package bot

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
)

// lines is an answer's text, line by line.
func lines(a Answer) []string { return strings.Split(a.Text, "\n") }

// Review Q40 (issue #22): "qlora 70b 要几张4090". 70B QLoRA at batch 1 ×
// 2,048 tokens: NF4 base (70 − 1.05)B × 4.127 ÷ 8 + 1.05B × 2 ≈ 39.2 GB,
// adapter states ≈ 2.5 GB, activations ≈ 6.5 GB. FSDP shards the ≈41.9 GB
// of states; each card keeps its 6.5 GB of activations whole:
// (41.9 ÷ 3 + 6.5) × 1.05 + 0.8 ≈ 22.3 GB ≤ 24 on three cards, and
// (41.9 ÷ 2 + 6.5) × 1.05 + 0.8 ≈ 29.6 GB > 24 on two. The answer is 3,
// and "3张4090行吗" says yes with the same figure.
func TestQLoRA70BOnThree4090s(t *testing.T) {
	a := askOne(t, "qlora 70b 要几张4090")
	if !strings.Contains(a.Headline, "3 张 RTX 4090") {
		t.Errorf("headline %q, want 3 张 RTX 4090", a.Headline)
	}
	if strings.Contains(a.Text, "改用 qlora") {
		t.Errorf("the Next line suggests QLoRA to a QLoRA question:\n%s", a.Text)
	}
	a = askOne(t, "qlora 70b 3张4090行吗")
	if !strings.HasPrefix(a.Headline, "可以") || !strings.Contains(a.Headline, "3 张") {
		t.Errorf("headline %q, want 可以 on 3 cards", a.Headline)
	}
	v, ok := a.Result.(FitResult)
	if !ok || v.Verdict == nil || v.Verdict.Cards != 3 || v.Verdict.PerCardGB > 24 || v.Verdict.PerCardGB < 21 {
		t.Errorf("verdict %+v, want 3 cards at ≈22.3 GB each", v.Verdict)
	}
}

// Review Q31: Llama 3 70B QLoRA on one 48 GB A6000 needs ≈51.74 GB at
// 2,048 tokens (advisor/fit_squeeze_test.go has the sum), 7.8 % over:
// tight, not a flat no; at seq=512 it needs (42.00 + 1.63) × 1.05 + 0.8 ≈
// 46.61 GB, which the first two lines say (as the QLoRA paper's 65B on
// one 48 GB GPU). Both languages.
func TestQLoRA70BOnOneA6000IsTight(t *testing.T) {
	for _, c := range []struct{ q, tight, setting string }{
		{"can I QLoRA fine-tune llama 3 70B on my single 48GB A6000?", "Tight", "seq=512"},
		{"一张 48G 的 A6000 能 qlora 微调 llama 3 70B 吗", "偏紧", "seq=512"},
	} {
		a := askOne(t, c.q)
		ls := lines(a)
		if !strings.HasPrefix(a.Headline, c.tight) || !strings.Contains(a.Headline, "51.74") || !strings.Contains(a.Headline, c.setting) || !strings.Contains(a.Headline, "46.61") {
			t.Errorf("%q: headline %q, want %s with 51.74 GB and %s at 46.61 GB", c.q, a.Headline, c.tight, c.setting)
		}
		if len(ls) < 2 || !strings.Contains(ls[1], "QLoRA") || !strings.Contains(ls[1], "1.39") {
			t.Errorf("%q: second line %q, want the setting with its 1.39 GB spare and the QLoRA paper", c.q, ls[1])
		}
	}
}

// Review Q27: the KV cache of Llama 3.1 70B at 32k × batch 16 in fp16 is
// 16 × 32,768 × 80 layers × 2 × 8 KV heads × 128 × 2 B = 171,798,691,840 B
// ≈ 171.8 GB: the first line says it, with its formula.
func TestKVCacheQuestionLeadsWithKV(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"KV cache memory for Llama 3.1 70B, 32k context, batch 16, fp16?", "KV cache ≈171.8 GB (16 × 32,768 tokens × 80 layers × 2 (K, V) × 8 KV heads × 128 dims × 2 bytes)"},
		{"llama 3.1 70b 32k上下文 16并发 kv缓存要多少", "KV 缓存约 171.8 GB（16 路 × 32,768 token × 80 层"},
	} {
		a := askOne(t, c.q)
		if !strings.HasPrefix(a.Headline, c.want) {
			t.Errorf("%q: headline %q, want it to open with %q", c.q, a.Headline, c.want)
		}
	}
	// Without the words the headline stays the job's memory.
	if a := askOne(t, "llama 3.1 70b inference, 32k context, batch 16, fp16: which cards?"); strings.Contains(a.Headline, "KV cache ≈") {
		t.Errorf("headline %q leads with the KV cache unasked", a.Headline)
	}
}

// Review Q9/Q13: one memory figure. GLM-4-9B in BF16 is 9.4B × 2 =
// 18.8 GB of weights; the headline's figure is the working's total (the
// "total per replica" figure), not a second per-card number.
func TestFitHeadlineFigureIsTheTotal(t *testing.T) {
	for _, q := range []string{"GLM-4-9B 在一张4090上能跑吗", "qwen2.5 32b awq int4 要多少显存 4090够吗", "can glm-4-9b run on one 4090?"} {
		a := askOne(t, q)
		v, ok := a.Result.(FitResult)
		if !ok || v.Verdict == nil {
			t.Fatalf("%q: result %T, want a fit verdict", q, a.Result)
		}
		if v.Workload.Method != advisor.Inference || v.MemoryGB < 18.8 {
			t.Errorf("%q: %s at %v GB", q, v.Workload.Method, v.MemoryGB)
		}
		total := fmtNum(v.MemoryGB)
		if !strings.Contains(a.Headline, total+" GB") || strings.Contains(a.Headline, fmtNum(v.Verdict.PerCardGB)+" GB") && v.Verdict.PerCardGB != v.MemoryGB {
			t.Errorf("%q: headline %q, want the one total %s GB (not the per-card %v)", q, a.Headline, total, v.Verdict.PerCardGB)
		}
	}
}

// Review Q43: "can i finetune flux on 16gb vram" is a fine-tune (LoRA by
// default), not inference. FLUX.1-dev's bf16 weights alone are 11.9B × 2
// = 23.8 GB > 16: no as asked; an NF4 base with cached text embeddings
// needs (6.694 + 0.168 + 0.833 + 6.0) × 1.05 + 0.8 ≈ 15.18 GB (advisor/
// image_squeeze_test.go has the steps), which the answer names.
func TestFluxFineTuneOn16GB(t *testing.T) {
	for _, c := range []struct{ q, no, fit string }{
		{"can i finetune flux on 16gb vram", "No", "What makes it fit 16 GB: bits=4 text_encoder=cached — ≈15.18 GB"},
		{"微调 flux 16g 显存够吗", "不行", "在 16 GB 上放得下的设置：bits=4 text_encoder=cached——约 15.18 GB"},
	} {
		a := askOne(t, c.q)
		res, ok := a.Result.(advisor.ImageResult)
		if !ok || res.Inputs.Method != advisor.LoRA {
			t.Fatalf("%q: result %T, want an image LoRA fine-tune", c.q, a.Result)
		}
		if res.MemoryGB <= 23.8 || !strings.HasPrefix(a.Headline, c.no) {
			t.Errorf("%q: %v GB, headline %q; want over the 23.8 GB of bf16 weights, and %s", c.q, res.MemoryGB, a.Headline, c.no)
		}
		if ls := lines(a); len(ls) < 2 || !strings.HasPrefix(ls[1], c.fit) {
			t.Errorf("%q: second line %q, want %q", c.q, ls[1], c.fit)
		}
	}
}

// Review Q35: SDXL DreamBooth on a 4090. DreamBooth-LoRA is assumed and
// said; full-UNet DreamBooth trains 2.567B params × 16 B (weights 2,
// grads 2, FP32 master + Adam 12) = 41.1 GB before activations: more than
// 24 GB, which the answer also says.
func TestSDXLDreamBoothOn4090(t *testing.T) {
	a := askOne(t, "SDXL DreamBooth fine-tune on a 4090?")
	res, ok := a.Result.(advisor.ImageResult)
	if !ok || res.Inputs.Method != advisor.LoRA || res.MemoryGB > 24 || !strings.HasPrefix(a.Headline, "Yes") {
		t.Fatalf("result %T %+v, headline %q; want a LoRA fine-tune that fits 24 GB", a.Result, res.Inputs.Method, a.Headline)
	}
	if !strings.Contains(a.Text, "DreamBooth-LoRA") || !strings.Contains(a.Text, "train_dreambooth.py") {
		t.Errorf("the answer does not say which DreamBooth it sized:\n%s", a.Text)
	}
	full := askOne(t, "full fine-tune sdxl with dreambooth, how much vram")
	if r, ok := full.Result.(advisor.ImageResult); !ok || r.Inputs.Method != advisor.Full || r.MemoryGB < 41.1 {
		t.Errorf("full DreamBooth: %T %+v, want full at ≥ 41.1 GB", full.Result, r.Inputs.Method)
	}
}
