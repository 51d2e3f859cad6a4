package advisor

import "github.com/gpubot/gpubot/knowledge"

// Unsuppliable says why an offer cannot serve a ranked plan of cards per
// replica or job, or "" when it can: a marketplace listing of fewer cards
// than one replica needs (a third-party host's single-card listing says
// nothing of a machine with that many cards linked together), or, for a
// 16-bit language-model job, a card without BF16 (today's open models ship
// BF16 weights; Volta and Turing run them in FP16, and FlashAttention-2
// needs Ampere or newer). Contracted clouds, retail platforms and GPU
// clouds sell multi-card machines and are never set aside for their size.
func (m Market) Unsuppliable(o knowledge.Offer, cards, bits int, llm bool) Text {
	c, _ := m.category(o.Platform)
	listed := max(int(o.GPUCount), 1)
	if cards > listed && c == knowledge.Marketplace {
		return txt("marketplace listings with fewer cards than one replica needs in one machine",
			"算力市场挂单的卡数不够一个副本（需在同一台机器上）")
	}
	if llm && (bits == 0 || bits == 16) {
		if g, err := m.card(o.GPU, ""); err == nil && g.BF16TFLOPS == 0 {
			return txt("no BF16 (a BF16 model runs in FP16, without FlashAttention-2)",
				"不支持 BF16（BF16 模型只能按 FP16 跑，也用不了 FlashAttention-2）")
		}
	}
	return Text{}
}

// WithoutOffers is m less the offers whose keys are in drop.
func (m Market) WithoutOffers(drop map[string]bool) Market {
	kept := make([]knowledge.Offer, 0, len(m.Offers))
	for _, o := range m.Offers {
		if !drop[o.Key] {
			kept = append(kept, o)
		}
	}
	m.Offers = kept
	return m
}
