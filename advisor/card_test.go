package advisor

import (
	"math"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func cardOf(t *testing.T, id string, n int) CardFacts {
	t.Helper()
	kb := knowledge.MustShipped()
	g, ok := kb.GPU(id)
	if !ok {
		t.Fatalf("no card %s", id)
	}
	f, err := Card(g, n, kb.Archs)
	if err != nil {
		t.Fatalf("Card(%s, %d): %v", id, n, err)
	}
	return f
}

func capOf(t *testing.T, f CardFacts, m Method, bits int) CardCapacity {
	t.Helper()
	for _, c := range f.Capacity {
		if c.Method == m && c.Bits == bits {
			return c
		}
	}
	t.Fatalf("Card(%s) has no %s %d-bit row", f.GPU, m, bits)
	return CardCapacity{}
}

// The facts are the card table's, checked against the vendors' published
// figures: RTX 3090 24 GB GDDR6X at 936 GB/s, Ampere (BF16 tensor cores,
// no FP8: FP8 arrived with Ada/Hopper); RTX 4090 Ada with FP8; V100 Volta
// has FP16 tensor cores but no BF16 (BF16 arrived with Ampere); H100 SXM
// NVLink 4 at 900 GB/s; RTX 5090 32 GB at 1,792 GB/s.
func TestCardFacts(t *testing.T) {
	for _, tc := range []struct {
		id                  string
		vram, bw, nvlink    float64
		bf16, fp16Only, fp8 bool
	}{
		{"rtx3090", 24, 936, 0, true, false, false},
		{"rtx4090", 24, 1008, 0, true, false, true},
		{"rtx5090", 32, 1792, 0, true, false, true},
		{"v100-sxm2", 32, 900, 300, false, true, false},
		{"h100-sxm", 80, 3350, 900, true, false, true},
	} {
		f := cardOf(t, tc.id, 1)
		if f.VRAMGB != tc.vram || f.BandwidthGBs != tc.bw || f.NVLink != tc.nvlink {
			t.Errorf("Card(%s) vram/bw/nvlink = %v/%v/%v, want %v/%v/%v", tc.id, f.VRAMGB, f.BandwidthGBs, f.NVLink, tc.vram, tc.bw, tc.nvlink)
		}
		if f.BF16 != tc.bf16 || f.FP16Only != tc.fp16Only || f.FP8 != tc.fp8 {
			t.Errorf("Card(%s) bf16/fp16only/fp8 = %v/%v/%v, want %v/%v/%v", tc.id, f.BF16, f.FP16Only, f.FP8, tc.bf16, tc.fp16Only, tc.fp8)
		}
	}
}

// Capacity bounds worked by hand. Inference: vLLM may use 90 % of the
// card, so the weights alone cap the size at 0.9 × VRAM ÷ bytes per
// parameter (24 GB 3090: 21.6 GB → 10.8B at 2 bytes, 21.6B at 1, 43.2B at
// 0.5); the 0.8 GB runtime overhead, the KV cache of one 4,096-token
// request and the prefill chunk come out of it, a few GB at most, so the
// size sits within ~2.5 GB of weights below the cap (16-bit: ≥ 9.4B).
// Full fine-tuning with AdamW in mixed precision holds 16 bytes per
// parameter (2 weights + 2 gradients + 12 FP32 master and moments; ZeRO,
// Rajbhandari et al. 2020 §3.1): 24 GB ÷ 16 = 1.5B at most, 80 GB → 5B.
// LoRA keeps the 16-bit base: 24 ÷ 2 = 12B at most; QLoRA a 4-bit one: 48B.
func TestCardCapacityHand(t *testing.T) {
	f := cardOf(t, "rtx3090", 1)
	for _, tc := range []struct {
		m        Method
		bits     int
		low, cap float64
	}{
		{Inference, 16, 9.4, 10.8},
		{Inference, 8, 16, 21.6},
		{Inference, 4, 25, 43.2},
		{LoRA, 16, 7, 12},
		{QLoRA, 4, 20, 48},
		{Full, 16, 0.8, 1.5},
	} {
		c := capOf(t, f, tc.m, tc.bits)
		if c.MaxParamsB < tc.low || c.MaxParamsB > tc.cap {
			t.Errorf("Card(3090) %s %d-bit largest = %.1fB, want %.1f–%.1fB", tc.m, tc.bits, c.MaxParamsB, tc.low, tc.cap)
		}
		// the named catalogue model obeys the same weights-only cap
		if c.Model != "" && c.ModelParamsB > tc.cap {
			t.Errorf("Card(3090) %s %d-bit names %s (%.1fB), above the %.1fB cap", tc.m, tc.bits, c.Model, c.ModelParamsB, tc.cap)
		}
	}
	// 8-bit inference on a 3090: Qwen2.5-14B's 14.8 GB of weights leave
	// room on 21.6 GB, Qwen2.5-32B's 32.8 GB do not: the named model is
	// one of 14B up to under 21.6B.
	if c := capOf(t, f, Inference, 8); c.ModelParamsB < 14 || c.ModelParamsB > 21.6 {
		t.Errorf("Card(3090) 8-bit inference names %s (%.1fB), want a 14–21.6B model", c.Model, c.ModelParamsB)
	}
	h := cardOf(t, "h100-sxm", 1)
	if c := capOf(t, h, Full, 16); c.MaxParamsB < 3.5 || c.MaxParamsB > 5 {
		t.Errorf("Card(H100) full fine-tune largest = %.1fB, want 3.5–5B (80 GB ÷ 16 bytes)", c.MaxParamsB)
	}
	// 70B at 8 bits is 70 GB of weights: inside 0.9 × 80 = 72 GB on one H100
	if c := capOf(t, h, Inference, 8); c.MaxParamsB < 65 || c.MaxParamsB > 72 {
		t.Errorf("Card(H100) 8-bit inference largest = %.1fB, want 65–72B", c.MaxParamsB)
	}
}

// Two cards hold more than one and at most twice the memory's worth: FSDP
// shards the 16 bytes per parameter of a full fine-tune, so two 3090s cap
// at 48 ÷ 16 = 3B.
func TestCardCapacityTwoCards(t *testing.T) {
	one, two := cardOf(t, "rtx3090", 1), cardOf(t, "rtx3090", 2)
	if two.TotalVRAMGB != 48 {
		t.Errorf("Card(3090, 2) total = %v GB, want 48", two.TotalVRAMGB)
	}
	c1, c2 := capOf(t, one, Full, 16), capOf(t, two, Full, 16)
	if c2.MaxParamsB <= c1.MaxParamsB || c2.MaxParamsB > 3 {
		t.Errorf("Card(3090, 2) full largest = %.1fB (one card %.1fB), want above one card and ≤ 3B", c2.MaxParamsB, c1.MaxParamsB)
	}
}

// Fewer bits never hold less, and the methods order as their bytes per
// parameter do: QLoRA (≈0.5) > LoRA (2) > full (16).
func TestCardCapacityOrder(t *testing.T) {
	for _, id := range []string{"rtx3060", "rtx4090", "rtx5090", "a100-80g", "ascend-910b"} {
		f := cardOf(t, id, 1)
		i16, i8, i4 := capOf(t, f, Inference, 16), capOf(t, f, Inference, 8), capOf(t, f, Inference, 4)
		q, l, full := capOf(t, f, QLoRA, 4), capOf(t, f, LoRA, 16), capOf(t, f, Full, 16)
		if i8.MaxParamsB < i16.MaxParamsB || i4.MaxParamsB < i8.MaxParamsB {
			t.Errorf("Card(%s) inference 16/8/4 = %.1f/%.1f/%.1f, want non-decreasing", id, i16.MaxParamsB, i8.MaxParamsB, i4.MaxParamsB)
		}
		if q.MaxParamsB <= l.MaxParamsB || l.MaxParamsB <= full.MaxParamsB {
			t.Errorf("Card(%s) qlora/lora/full = %.1f/%.1f/%.1f, want decreasing", id, q.MaxParamsB, l.MaxParamsB, full.MaxParamsB)
		}
	}
}

func TestCardRefuses(t *testing.T) {
	if _, err := Card(knowledge.GPU{}, 1, nil); err == nil {
		t.Error("Card(no card) = nil error, want an input error")
	}
}

// Card's capacities are Fit's rule: for each method, the largest size a
// bisection over Fit (the public rule, one card at a time) finds, and the
// largest catalogue model Fit holds below it. The fast path sizes quietly
// and skips sizes whose weights alone exceed the cards.
func TestCardCapacityIsFitsRule(t *testing.T) {
	kb := knowledge.MustShipped()
	for _, id := range []string{"rtx5090", "rtx3090", "h100-sxm", "v100", "t4"} {
		g, ok := kb.GPU(id)
		if !ok {
			t.Fatalf("no %s in the card table", id)
		}
		for _, n := range []int{1, 2, 8} {
			f, err := Card(g, n, kb.Archs)
			if err != nil {
				t.Fatal(err)
			}
			dense := denseCatalogue(kb.Archs)
			for i, cm := range cardMethods {
				fits := func(w Workload) bool {
					w.Method, w.Bits = cm.m, cm.bits
					r, err := Fit(w, []knowledge.GPU{g}, kb.Archs)
					return err == nil && r.Options[0].Count > 0 && r.Options[0].Count <= n
				}
				want := largestHeld(func(p float64) bool { return fits(Workload{ParamsB: p}) })
				wantModel := ""
				for j := len(dense) - 1; j >= 0; j-- {
					if a := dense[j]; a.ParamsB <= want*1.1+0.5 && fits(Workload{Model: a.ID, ParamsB: a.ParamsB}) {
						wantModel = a.ID
						break
					}
				}
				got := f.Capacity[i]
				if got.MaxParamsB != want || got.Model != wantModel {
					t.Errorf("%d × %s %s %d-bit: got %vB (%s), Fit's rule gives %vB (%s)", n, id, cm.m, cm.bits, got.MaxParamsB, got.Model, want, wantModel)
				}
			}
		}
	}
}

// weightsBound is a size no rule can hold. By hand, for one 32 GB RTX
// 5090 in 16 bits: 1.01 × 32 × 2³⁰/10⁹ ÷ 2 bytes = 17.35B parameters
// (34.70B at 8 bits, 69.41B at 4); eight 80 GB cards at 4 bits:
// 1.01 × 8 × 80 × 1.0737 ÷ 0.5 = 1388.1B; seven count as the four of the
// largest layout within them: 694.07B. Fit agrees that a dense model
// just past the bound does not fit.
func TestWeightsBound(t *testing.T) {
	for _, c := range []struct {
		bits int
		vram float64
		n    int
		want float64
	}{{16, 32, 1, 17.35}, {8, 32, 1, 34.70}, {4, 32, 1, 69.41}, {4, 80, 8, 1388.1}, {4, 80, 7, 694.07}} {
		if got := weightsBound(c.bits, c.vram, c.n); math.Abs(got-c.want) > 0.05 {
			t.Errorf("weightsBound(%d bits, %v GB, %d cards) = %v, want %v", c.bits, c.vram, c.n, got, c.want)
		}
	}
	kb := knowledge.MustShipped()
	for _, g := range kb.GPUs {
		if g.VRAMGB <= 0 {
			continue
		}
		for _, cm := range cardMethods {
			for _, n := range []int{1, 2, 8} {
				p := math.Ceil(weightsBound(cm.bits, g.VRAMGB, n)*10)/10 + 0.1
				if p > MaxParamsB {
					continue
				}
				r, err := Fit(Workload{ParamsB: p, Method: cm.m, Bits: cm.bits}, []knowledge.GPU{g}, kb.Archs)
				if err == nil && r.Options[0].Count > 0 && r.Options[0].Count <= n {
					t.Errorf("%d × %s holds %s %d-bit at %vB, past the weights bound", n, g.ID, cm.m, cm.bits, p)
				}
			}
		}
	}
}
