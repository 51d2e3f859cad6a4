package advisor

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// FP8 weights on cards with and without FP8 kernels, sized by hand.
//
// One replica at the default inference workload (1 request × 4,096 tokens):
//
//	weights, FP8  (P − E) × 1 + E × 2 = P + E bytes (embeddings and head in BF16)
//	weights, BF16 P × 2 bytes (upcast where the card has no FP8 kernels)
//	activations   4,096 × (2 × hidden + 2 × MLP width) × 2 + vocab × 4
//	KV cache      4,096 × bytes per token
//	core          weights + activations + KV cache (one replica, memory_gb)
//
// A layout is sized by the rule max_concurrency uses (vLLM's, the default
// engine): the activations of a full 8,192-token prefill chunk (2
// requests' logits) next to the weights, split over n cards, plus the
// request's KV, of which a card holds kvShare(n), plus the 0.8 GB CUDA
// context, within gpu_memory_utilization 0.9 of the card read in GiB:
//
//	per card  (core − act₄ₖ − kv + act₈ₖ) ÷ n + kv × share(n) + 0.8 GB
//	fits      per card ≤ 0.9 × VRAM × 1.0737 (80 → 77.31, 141 → 136.26, 32 → 30.92, 24 → 23.19)
//
// DeepSeek-V3: P = 671.026e9, E = 2 × 129,280 × 7,168 = 1.853e9, MLP width
// 8 × 2,048 + 2,048 = 18,432, MLA 70,272 B/token → core 673.59 GB in FP8,
// 1,342.76 GB upcast; the MLA latent is whole on each of up to 8
// tensor-parallel ranks (share 1), halved again per pipeline stage past 8
// cards. Llama-3.1-70B bits=8: P = 70.554e9, E = 2 × 128,256 × 8,192 =
// 2.101e9, MLP 28,672, 327,680 B/token → 74.60 GB, 143.05 GB upcast; 8 KV
// heads split evenly up to 8 cards (share 1/n).
func TestFP8WeightsOnCardsWithoutFP8(t *testing.T) {
	kb := knowledge.MustShipped()
	const (
		dsCore8, dsCore16 = 673.587139712, 1342.759781632
		llCore8, llCore16 = 74.602016384, 143.05467008
	)
	type shapeOf struct{ act4k, act8k, kv float64 }
	ds := shapeOf{(4096*(2*7168+2*18432)*2 + 129280*4) / 1e9, (8192*(2*7168+2*18432)*2 + 2*129280*4) / 1e9, 4096 * 70272 / 1e9}
	ll := shapeOf{(4096*(2*8192+2*28672)*2 + 128256*4) / 1e9, (8192*(2*8192+2*28672)*2 + 2*128256*4) / 1e9, 4096 * 327680 / 1e9}
	per := func(core float64, n int, model string) float64 {
		sh, share := ll, 1/float64(n)
		if model == "deepseek-v3" {
			sh, share = ds, 1/math.Max(1, float64(n)/8)
		}
		return (core-sh.act4k-sh.kv+sh.act8k)/float64(n) + sh.kv*share + 0.8
	}
	tests := []struct {
		model string
		bits  int
		gpu   string
		core  float64
		cards int
		note  string // what the option's note must say; "" = none about precision
	}{
		// DeepSeek-V3 ships FP8: native on Hopper and Ada, weight-only on
		// Ampere (same bytes), upcast to FP16 on Volta and Pascal.
		{"deepseek-v3", 0, "h100-sxm", dsCore8, 16, ""},         // 8 cards 85.3 > 77.31; 16 → 43.1
		{"deepseek-v3", 0, "h200", dsCore8, 8, ""},              // 85.3 ≤ 136.26
		{"deepseek-v3", 0, "a100-80g", dsCore8, 16, "W8A16"},    // as H100
		{"deepseek-v3", 0, "rtx4090", dsCore8, 32, ""},          // 24 → 29.0 > 23.19; 32 → 21.9
		{"deepseek-v3", 0, "v100-sxm2", dsCore16, 48, "upcast"}, // 40 → 34.4 > 30.92; 48 → 28.8 (FP8 would be 24)
		{"deepseek-v3", 0, "p40", dsCore16, 64, "upcast"},       // 56 → 24.8 > 23.19; 64 → 21.8
		{"llama-3.1-70b", 8, "h100-sxm", llCore8, 1, ""},        // 76.0 ≤ 77.31
		{"llama-3.1-70b", 8, "a100-80g", llCore8, 1, "W8A16"},
		{"llama-3.1-70b", 8, "rtx4090", llCore8, 4, ""},          // 2 → 38.4; 4 → 19.6
		{"llama-3.1-70b", 8, "v100-sxm2", llCore16, 8, "upcast"}, // 4 → 36.7 > 30.92 (FP8 would fit on 4); 8 → 18.8
		{"llama-3.1-70b", 8, "p40", llCore16, 8, "upcast"},       // 4 → 36.7; 8 → 18.8 ≤ 23.19
	}
	for _, tc := range tests {
		g, ok := kb.GPU(tc.gpu)
		if !ok {
			t.Fatalf("no card %s", tc.gpu)
		}
		res, err := Fit(Workload{Model: tc.model, Bits: tc.bits, Method: Inference}, []knowledge.GPU{g}, kb.Archs)
		if err != nil {
			t.Fatalf("%s on %s: %v", tc.model, tc.gpu, err)
		}
		o := res.Options[0]
		if want := per(tc.core, tc.cards, tc.model); o.Count != tc.cards || !near(o.PerCardGB, want, 0.01) {
			t.Errorf("%s on %s: %d cards at %.2f GB each, want %d at %.2f GB", tc.model, tc.gpu, o.Count, o.PerCardGB, tc.cards, want)
		}
		p, _ := remark(o, FitPrecision)
		switch {
		case tc.note == "" && (strings.Contains(p.Precision.EN, "FP8") || o.UpcastGB != 0):
			t.Errorf("%s on %s runs FP8 natively, note %q upcast %v", tc.model, tc.gpu, p.Precision.EN, o.UpcastGB)
		case tc.note != "" && !strings.Contains(p.Precision.EN, tc.note):
			t.Errorf("%s on %s: note %q, want it to say %q", tc.model, tc.gpu, p.Precision.EN, tc.note)
		case tc.note == "upcast" && !near(o.UpcastGB, tc.core*1.05+0.8, 0.02):
			t.Errorf("%s on %s: upcast_gb %v, want %.2f", tc.model, tc.gpu, o.UpcastGB, tc.core*1.05+0.8)
		}
		if tc.note != "" {
			said := false
			for _, n := range res.FitNotes {
				said = said || (n.Kind == FitPrecision && slices.Contains(n.Cards, g.Name) && strings.Contains(n.Precision.EN, tc.note))
			}
			if !said {
				t.Errorf("%s on %s: no assumption names the card and says %q: %+v", tc.model, tc.gpu, tc.note, res.FitNotes)
			}
		}
		// memory_gb stays the FP8 replica as asked.
		if want := map[string]float64{"deepseek-v3": dsCore8, "llama-3.1-70b": llCore8}[tc.model]*1.05 + 0.8; !near(res.TotalGB, want, 0.02) {
			t.Errorf("%s: memory_gb %v, want %.2f", tc.model, res.TotalGB, want)
		}
	}
}

// A serving answer on a card without FP8 reads the upcast weights: the
// decode step of Llama-3.1-70B bits=8 on 8 × V100 streams 141 GB, not 72.
func TestServingUpcastOnVolta(t *testing.T) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("v100-sxm2")
	m := Market{GPUs: []knowledge.GPU{g}, Archs: kb.Archs}
	s, _, err := bestServing(g, Workload{Model: "llama-3.1-70b", Bits: 8, Method: Inference, Batch: 1, SeqLen: 1500}, 0, 8, 1000, 500, 1, m.Archs, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Class != KernelBF16 || !near(s.stepWeights/1e9, 141.108, 0.01) {
		t.Errorf("class %s, %.2f GB weights per step, want bf16 class reading 70.554e9 × 2 = 141.11 GB", s.Class, s.stepWeights/1e9)
	}
	found := false
	for _, a := range s.Assumptions {
		found = found || strings.Contains(a.EN, "upcast")
	}
	if !found {
		t.Errorf("serving assumptions do not say the FP8 weights are upcast: %v", s.Assumptions)
	}
}

// BF16 LoRA on a V100 runs in FP16: the same memory as on an A100 (both
// hold the 7B job on one card), and the option says FP16.
func TestBF16OnVoltaIsFP16(t *testing.T) {
	kb := knowledge.MustShipped()
	v, _ := kb.GPU("v100-sxm2")
	a, _ := kb.GPU("a100-80g")
	res, err := Fit(Workload{ParamsB: 7, Method: LoRA}, []knowledge.GPU{v, a}, kb.Archs)
	if err != nil {
		t.Fatal(err)
	}
	ov, oa := res.Options[0], res.Options[1]
	if ov.Count != 1 || ov.PerCardGB != oa.PerCardGB {
		t.Errorf("V100 %d cards %.2f GB, A100 %.2f GB: want one card each, same memory", ov.Count, ov.PerCardGB, oa.PerCardGB)
	}
	pv, _ := remark(ov, FitPrecision)
	if _, a := remark(oa, FitPrecision); !strings.Contains(pv.Precision.EN, "FP16") || !strings.Contains(pv.Precision.EN, "loss scaling") || a {
		t.Errorf("V100 remarks %+v, A100 remarks %+v: want FP16 with loss scaling on the V100 only", ov.Remarks, oa.Remarks)
	}
}

// upcast_gb reaches the JSON answer (issue 25: it never did). Llama-3.1-70B
// bits=8 on a V100, which has no FP8 kernels: one replica held upcast to
// 16 bits is 143.05 GB × 1.05 + 0.8 = 151.01 GB (the core of
// TestFP8WeightsOnCardsWithoutFP8); on an H100 the FP8 weights run as they
// are and the field is left out.
func TestUpcastGBInJSON(t *testing.T) {
	kb := knowledge.MustShipped()
	for _, tc := range []struct {
		gpu  string
		want float64 // 0: absent
	}{{"v100-sxm2", 143.05467008*1.05 + 0.8}, {"h100-sxm", 0}} {
		g, _ := kb.GPU(tc.gpu)
		res, err := Fit(Workload{Model: "llama-3.1-70b", Bits: 8, Method: Inference}, []knowledge.GPU{g}, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Options []map[string]any `json:"options"`
		}
		if err := json.Unmarshal(b, &out); err != nil || len(out.Options) == 0 {
			t.Fatalf("%s: %v, %s", tc.gpu, err, b)
		}
		got, ok := out.Options[0]["upcast_gb"].(float64)
		if ok != (tc.want > 0) || !near(got, tc.want, 0.02) {
			t.Errorf("%s: upcast_gb %v (present %v), want %.2f", tc.gpu, got, ok, tc.want)
		}
	}
}
