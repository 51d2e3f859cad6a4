package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// Market is what the money questions are answered from: card specs,
// reference architectures, the current offers, platforms and guide items.
// The bot builds it from the shipped knowledge and swaps in a live offer
// snapshot when it has one.
type Market struct {
	GPUs      []knowledge.GPU
	Archs     []knowledge.Arch
	Offers    []knowledge.Offer
	Platforms []knowledge.Platform
	Guide     []knowledge.GuideItem
}

// MarketOf returns the market held in a knowledge base.
func MarketOf(b *knowledge.Base) Market {
	return Market{GPUs: b.GPUs, Archs: b.Archs, Offers: b.Offers, Platforms: b.Platforms, Guide: b.Guide}
}

// card finds a card by id, name or alias.
func (m Market) card(name, hint string) (knowledge.GPU, error) {
	for _, g := range m.GPUs { // canonical ids first: no normalising
		if g.ID == name {
			return g, nil
		}
	}
	k := knowledge.NormalizeName(name)
	for _, g := range m.GPUs {
		if knowledge.NormalizeName(g.ID) == k || knowledge.NormalizeName(g.Name) == k {
			return g, nil
		}
		for _, a := range g.Aliases {
			if knowledge.NormalizeName(a) == k {
				return g, nil
			}
		}
	}
	return knowledge.GPU{}, inputErr("gpu", fmt.Sprintf("unknown card %q", name), hint)
}

// platform finds a platform by id.
func (m Market) platform(id string) (knowledge.Platform, bool) {
	for _, p := range m.Platforms {
		if p.ID == id {
			return p, true
		}
	}
	return knowledge.Platform{}, false
}

// granularity is the billing granularity of an offer: its own, else its
// platform's, else "".
func (m Market) granularity(cp CardPrice) string {
	if cp.Billing != "" {
		return cp.Billing
	}
	if p, ok := m.platform(cp.Platform); ok {
		return p.Granularity
	}
	return ""
}
