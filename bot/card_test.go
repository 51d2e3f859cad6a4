package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
)

// Card questions are answered from the card table (vendor figures: the
// RTX 3090 is Ampere with BF16 tensor cores and no FP8, 71 dense BF16
// TFLOPS; the V100 is Volta with FP16 tensor cores only; the RTX 4090 is
// Ada with FP8, 330.3 dense TFLOPS; the H100 SXM has 900 GB/s NVLink; the
// RTX 4090 has none), verdict first, in the asker's language.
func TestCardFactQuestions(t *testing.T) {
	b := newTestBot(t)
	for _, tc := range []struct {
		q, verdict, head string
	}{
		{"3090 支持 bf16 吗", "yes", "支持。RTX 3090 有 BF16"},
		{"does the 3090 support bf16?", "yes", "Yes — the RTX 3090 has BF16 tensor cores (71 TFLOPS"},
		{"V100 支持bf16吗", "no", "不支持。V100"},
		{"does the V100 support bf16?", "no", "No — the V100"},
		{"4090 支持 fp8 吗", "yes", "330.3 TFLOPS"},
		{"does the 3090 support fp8?", "no", "No — the RTX 3090 has no FP8"},
		{"H100 有 nvlink 吗", "yes", "900 GB/s"},
		{"does the 4090 have nvlink?", "no", "No — the card table lists no NVLink for the RTX 4090"},
	} {
		a := b.Answer(context.Background(), Message{Text: tc.q})
		if a.Intent != "knowledge" {
			t.Errorf("%q answered as %s, want knowledge: %s", tc.q, a.Intent, a.Headline)
			continue
		}
		if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != tc.verdict {
			t.Errorf("%q verdict = %v, want %s", tc.q, a.Typed, tc.verdict)
		}
		if !strings.Contains(a.Headline, tc.head) {
			t.Errorf("%q headline = %q, want it to contain %q", tc.q, a.Headline, tc.head)
		}
	}
}

// "What can a 5090 run?": the card's memory and the largest model per
// method in the headline. Hand bounds: 32 GB × 0.9 ÷ 2 bytes = 14.4B at
// most in 16-bit; ÷ 0.5 byte = 57.6B at most in 4-bit.
func TestCardCapacityQuestion(t *testing.T) {
	b := newTestBot(t)
	for _, q := range []string{"what can a 5090 32G run?", "5090能跑多大的模型"} {
		a := b.Answer(context.Background(), Message{Text: q})
		v, ok := a.Result.(CardView)
		if a.Intent != "knowledge" || !ok {
			t.Fatalf("%q answered as %s (%T), want a knowledge card answer", q, a.Intent, a.Result)
		}
		if v.VRAMGB != 32 || !strings.Contains(a.Headline, "32 GB") {
			t.Errorf("%q: vram %v, headline %q; want 32 GB", q, v.VRAMGB, a.Headline)
		}
		for _, c := range v.Capacity {
			if c.Method == "inference" && c.Bits == 16 && (c.MaxParamsB > 14.4 || c.MaxParamsB < 11) {
				t.Errorf("%q 16-bit inference largest %.1fB, want 11–14.4B", q, c.MaxParamsB)
			}
			if c.Method == "inference" && c.Bits == 4 && c.MaxParamsB > 57.6 {
				t.Errorf("%q 4-bit inference largest %.1fB, want ≤ 57.6B", q, c.MaxParamsB)
			}
		}
		if a.Typed == nil || a.Typed.Asked != "info" || a.Typed.Verdict != nil {
			t.Errorf("%q typed = %+v, want info with no verdict", q, a.Typed)
		}
	}
}

// A card for a named model: Llama-3-8B holds 8 GB of weights at 8 bits
// and 16 GB at 16 bits, so on a 12 GB RTX 3060 8-bit fits and 16-bit does
// not — 4-bit is not required.
func TestCardModelQuestion(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "3060 12g跑llama3 8b推理都OOM，是不是必须4bit量化才行？"})
	v, ok := a.Result.(CardView)
	if a.Intent != "knowledge" || !ok {
		t.Fatalf("answered as %s (%T), want a knowledge card answer: %s", a.Intent, a.Result, a.Headline)
	}
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" || a.Typed.Asked != "memory_gb" {
		t.Fatalf("typed = %+v, want memory_gb with verdict no", a.Typed)
	}
	if !strings.HasPrefix(a.Headline, "不必须。") || !strings.Contains(a.Headline, "8 位") {
		t.Errorf("headline %q, want the verdict first and the 8-bit fit", a.Headline)
	}
	for _, f := range v.Fits {
		if f.Bits == 16 && f.Fits || f.Bits == 8 && !f.Fits {
			t.Errorf("fit %s %d-bit fits=%v (%v GB): want 16-bit out, 8-bit in", f.Method, f.Bits, f.Fits, f.MemoryGB)
		}
	}
}

// How-to questions get the guide note written for them, verdict first
// when they are yes/no.
func TestInfoQuestions(t *testing.T) {
	b := newTestBot(t)
	for _, tc := range []struct {
		q, item, verdict string
	}{
		{"NVLink 对两张3090有用吗", "nvlink-two-consumer-cards", "no"},
		{"is nvlink worth it on two 3090s?", "nvlink-two-consumer-cards", "no"},
		{"在autodl租了4张4090跑ddp，速度只有单卡2倍左右，正常吗？qwen2.5-7b全参", "ddp-scaling-pcie", "yes"},
		{"lora rank 64 vs 8 on a 24g card for llama-3-8b — does rank even change vram much?", "lora-rank-memory", "no"},
		{"H800和H100到底差在哪？训大模型影响大吗？", "h100-vs-h800", "yes"},
		{"用spot训练会不会被打断？", "spot-interruption-checkpointing", "yes"},
		{"A800、H800现在还能进口吗？手上这批卡以后维保会不会有问题？", "a800-h800-import-maintenance", "no"},
		{"买卡的残值一般按多少算？H100用三年后大概还能卖几成？", "residual-value-gpus", ""},
		{"whats the diff between gpu hours and wall clock if I use 4 cards", "gpu-hours-vs-wall-clock", ""},
	} {
		a := b.Answer(context.Background(), Message{Text: tc.q})
		res, ok := a.Result.(KnowledgeResult)
		if a.Intent != "knowledge" || !ok || len(res.Items) == 0 {
			t.Errorf("%q answered as %s (%T), want a guide note", tc.q, a.Intent, a.Result)
			continue
		}
		if res.Items[0].ID != tc.item {
			t.Errorf("%q: note %s, want %s", tc.q, res.Items[0].ID, tc.item)
		}
		got := ""
		if a.Typed != nil && a.Typed.Verdict != nil {
			got = *a.Typed.Verdict
		}
		if got != tc.verdict {
			t.Errorf("%q verdict %q, want %q", tc.q, got, tc.verdict)
		}
		if res.Answer == "" || a.Headline != res.Answer {
			t.Errorf("%q headline %q, want the note's direct answer", tc.q, a.Headline)
		}
	}
}

// Calculations stay calculations: a card with a price, hours or a model
// to size is not a card-facts question.
func TestCardQuestionsLeaveCalculations(t *testing.T) {
	b := newTestBot(t)
	for _, q := range []string{
		"/gpu fit 13b lora",
		"13b lora 需要多少显存",
		"4090 多少钱一小时",
		"H100 和 H800 选哪个",
		"4090 包月划算吗 每月200小时",
		"how much to LoRA a 7b on 50k samples on a 4090?",
		"H20现在能买吗",
	} {
		a := b.Answer(context.Background(), Message{Text: q})
		if _, card := a.Result.(CardView); card || a.Intent == "knowledge" {
			t.Errorf("%q answered as %s (%T), want a calculation", q, a.Intent, a.Result)
		}
	}
}

// The verdict of a card-for-a-model question, by hand: "must I use 4
// bits?" is no when 8 bits already fits, yes when only 4 does, and no
// when not even 4 does (it is not enough); "can it run?" is yes when any
// precision fits, leading with the highest that does.
func TestCardModelVerdict(t *testing.T) {
	fit := func(bits int, fits bool) advisor.CardFit {
		return advisor.CardFit{Method: advisor.Inference, Bits: bits, Fits: fits}
	}
	for _, tc := range []struct {
		name    string
		fits    []advisor.CardFit
		bits    int
		must    bool
		lead    int
		verdict string
	}{
		{"8-bit fits: 4-bit not required", []advisor.CardFit{fit(16, false), fit(8, true), fit(4, true)}, 4, true, 1, "no"},
		{"only 4-bit fits: required", []advisor.CardFit{fit(16, false), fit(8, false), fit(4, true)}, 4, true, 2, "yes"},
		{"nothing fits: 4-bit is not enough", []advisor.CardFit{fit(16, false), fit(8, false), fit(4, false)}, 4, true, 2, "no"},
		{"can it run: 8-bit is the best that fits", []advisor.CardFit{fit(16, false), fit(8, true), fit(4, true)}, 0, false, 1, "yes"},
		{"can it run: nothing fits", []advisor.CardFit{fit(16, false), fit(8, false), fit(4, false)}, 0, false, 2, "no"},
	} {
		lead, v := cardModelVerdict(tc.fits, tc.bits, tc.must)
		if lead != tc.lead || v == nil || *v != tc.verdict {
			got := "nil"
			if v != nil {
				got = *v
			}
			t.Errorf("%s: lead %d verdict %s, want %d %s", tc.name, lead, got, tc.lead, tc.verdict)
		}
	}
}

// Two cards side by side: LoRA keeps a 16-bit base, so 32 GB holds at
// most 16B and 24 GB at most 12B (2 bytes a parameter); the 5090 holds
// the larger model, and its 8 GB more is an answer of yes.
func TestTwoCardQuestion(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "5090比4090多8g显存，对lora帮助大吗"})
	v, ok := a.Result.(CardView)
	if a.Intent != "knowledge" || !ok || v.Other == nil {
		t.Fatalf("answered as %s (%T), want two cards side by side: %s", a.Intent, a.Result, a.Headline)
	}
	var l5090, l4090 float64
	for i, c := range v.Capacity {
		if c.Method == "lora" {
			l5090, l4090 = c.MaxParamsB, v.Other.Capacity[i].MaxParamsB
		}
	}
	if l5090 > 16 || l4090 > 12 || l5090 <= l4090 {
		t.Errorf("LoRA largest 5090 %.1fB, 4090 %.1fB; want ≤16, ≤12 and the 5090 larger", l5090, l4090)
	}
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" || !strings.HasPrefix(a.Headline, "有帮助。") {
		t.Errorf("headline %q typed %+v, want yes first", a.Headline, a.Typed)
	}
	if _, ignored := a.Ignored["vram_gb"]; ignored {
		t.Errorf("the 8 GB named was ignored: %v", a.Ignored)
	}
}
