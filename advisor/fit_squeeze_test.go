package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Llama 3 70B (shared/reference/model_configs.json, llama-3-70b): 70.554B
// params, 80 layers, hidden 8192, 8 KV heads × 128, MLP 28672, vocab
// 128256, untied embeddings. QLoRA rank 16, batch 1, seq 2048, gc on:
//
//	embeddings E = 2 × 128256 × 8192 = 2.101B (kept 16-bit)
//	NF4 base    = (70.554 − 2.101)B × 4.127 ÷ 8 + 2.101B × 2 = 35.313 + 4.202 = 39.515 GB
//	LoRA/layer  = 16 × [(8192+8192)×2 + (8192+1024)×2 + (8192+28672)×3] = 2,588,672
//	              × 80 layers = 207.09M: weights 0.414, grads 0.414, Adam 8 B 1.657 GB
//	fixed       = 39.515 + 0.414 + 0.414 + 1.657 = 42.00 GB
//	activations = 80 × 2 × 2048 × 8192 (checkpoints, 2.684)
//	            + (12×8192 + 4×1024 + 8×28672 = 331,776 B/token) × 2048 (0.679)
//	            + 2048 × 128256 × 12 (logits, 3.152) = 6.516 GB
//	per card on n cards (FSDP: states sharded, activations whole):
//	            (42.00 ÷ n + 6.516) × 1.05 + 0.8
//	n=1: 51.74   n=2: 29.69   n=3: 22.34   n=4: 18.68
func TestQLoRA70BCardCounts(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	g4090, ok := kb.GPU("rtx4090")
	if !ok || g4090.VRAMGB != 24 {
		t.Fatalf("rtx4090 %v %v GB; the hand calculation assumes 24 GB", ok, g4090.VRAMGB)
	}
	w := Workload{Model: "llama-3-70b", Method: QLoRA}
	res, err := m.Fit(w, []knowledge.GPU{g4090})
	if err != nil {
		t.Fatal(err)
	}
	if !near(res.TotalGB, 51.74, 0.05) {
		t.Errorf("total %v GB, want ≈51.74 (hand sum above)", res.TotalGB)
	}
	// Three 24 GB cards hold 22.34 GB each and two need 29.69: FSDP shards
	// over any count, so the answer is 3, not the next power of two.
	o := res.Options[0]
	if o.Count != 3 || !near(o.PerCardGB, 22.34, 0.05) {
		t.Errorf("4090s: %d cards at %v GB each, want 3 at ≈22.34 GB", o.Count, o.PerCardGB)
	}
}

// Inference keeps tensor-parallel layouts that divide the heads: Llama 3
// 70B's 64 query and 8 KV heads split over 1, 2, 4 or 8 cards. BF16
// weights alone are 70.554B × 2 = 141.1 GB: 6 × 24 GB would hold them by
// memory (144 GB) but tp=6 does not divide 64 heads — the layout is 8.
func TestInferenceCountsDivideHeads(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	g, _ := kb.GPU("rtx4090")
	res, err := m.Fit(Workload{Model: "llama-3-70b", Method: Inference, Bits: 16}, []knowledge.GPU{g})
	if err != nil {
		t.Fatal(err)
	}
	switch n := res.Options[0].Count; n {
	case 8, 16:
	default:
		t.Errorf("70B bf16 inference on 4090s: %d cards, want a head-dividing layout ≥ 8", n)
	}
}

// Llama 3 70B QLoRA on one 48 GB card (review Q31): 51.74 GB at 2,048
// tokens is 7.8 % over. Halving the sequence halves the activations:
//
//	seq 1024: (42.00 + 3.258) × 1.05 + 0.8 = 48.32 GB  (still over 48)
//	seq  512: (42.00 + 1.629) × 1.05 + 0.8 = 46.61 GB  (fits, 1.39 GB spare)
//
// The QLoRA paper (Dettmers et al. 2023, abstract and §4) fine-tuned 65B
// on a single 48 GB GPU: a 70B one fits there too at a short sequence.
func TestSqueezeQLoRA70BOn48GB(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	sq, ok := m.SqueezeFit(Workload{Model: "llama-3-70b", Method: QLoRA}, 48, 1)
	if !ok {
		t.Fatal("no setting found that fits 48 GB")
	}
	if !near(sq.NeedGB, 51.74, 0.05) || !near(sq.Over, 51.74/48-1, 0.002) || sq.AskedSeq != 2048 {
		t.Errorf("need %v GB (%v over) at %d tokens, want 51.74 GB, 7.8 %%, 2048", sq.NeedGB, sq.Over, sq.AskedSeq)
	}
	if sq.Change != "seq=512" || sq.Workload.SeqLen != 512 || !near(sq.PerCardGB, 46.61, 0.05) || !near(sq.SpareGB, 48-46.61, 0.05) {
		t.Errorf("squeeze %q (seq %d) at %v GB, %v spare; want seq=512 at ≈46.61 GB", sq.Change, sq.Workload.SeqLen, sq.PerCardGB, sq.SpareGB)
	}
	// A job that already holds needs no squeeze; inference is not squeezed.
	if _, ok := m.SqueezeFit(Workload{Model: "llama-3-70b", Method: QLoRA}, 80, 1); ok {
		t.Error("51.74 GB holds on 80 GB: no squeeze expected")
	}
	if _, ok := m.SqueezeFit(Workload{Model: "llama-3-70b", Method: Inference}, 24, 1); ok {
		t.Error("inference: no squeeze expected")
	}
	// 70B QLoRA on one 24 GB card: the NF4 weights alone (39.5 GB) are over
	// 24 GB, so no shorter sequence helps.
	if sq, ok := m.SqueezeFit(Workload{Model: "llama-3-70b", Method: QLoRA}, 24, 1); ok {
		t.Errorf("24 GB holds 70B QLoRA with %q? weights alone are 39.5 GB", sq.Change)
	}
}
