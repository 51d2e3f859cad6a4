package advisor

import (
	"fmt"
	"strings"

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
	// Rows are the sourced rows that are no catalogue offer (knowledge
	// Procurement.Rows): a card no offer prices falls back on them, said
	// as such (cheapestRow).
	Rows []knowledge.Offer
	// Reserved are the sourced cloud rows (knowledge Procurement): a plan
	// bigger than one machine rents from the sellers of 8-GPU machines.
	Reserved []knowledge.ReservedPrice

	// prep is the engine's cache for this market (Prepare); nil: each
	// call makes its own.
	prep *cache
}

// MarketOf returns the market held in a knowledge base, prepared (its
// cache is filled by the calls given it or a copy of it).
func MarketOf(b *knowledge.Base) Market {
	return Prepare(Market{GPUs: b.GPUs, Archs: b.Archs, Offers: b.Offers, Platforms: b.Platforms, Guide: b.Guide, Rows: b.Procurement.Rows, Reserved: b.Procurement.Reserved})
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

// cheapestRow is the cheapest sourced row for a card that the filter
// keeps, for an answer no catalogue offer can price: a provider's row
// first, a market-wide row only when no provider has one (and the filter
// allows it).
func (m Market) cheapestRow(gpu string, p *pricing, f OfferFilter) (CardPrice, bool) {
	strict := f
	strict.NoMarketRange = true
	if cp, ok, _ := Cheapest(gpu, m.Rows, p.cur, p.fx, strict); ok {
		return cp, true
	}
	if f.NoMarketRange {
		return CardPrice{}, false
	}
	cp, ok, _ := Cheapest(gpu, m.Rows, p.cur, p.fx, f)
	return cp, ok
}

// cheapest is the cheapest of the market's offers for gpu that f keeps
// (Cheapest's order and price), from the call's index; a quiet call's
// price carries no conversion text.
func (m Market) cheapest(c *memo, gpu string, p *pricing, f OfferFilter) (CardPrice, bool) {
	ix := c.index(m.Offers, m.Archs)
	i, cp, found := ix.cheapestAt(gpu, p, f)
	if !found || (c != nil && c.quiet) {
		return cp, found
	}
	cp, _ = NormalizeOffer(ix.offers[i], p.cur, p.fx)
	return cp, true
}

// rowNote says that a price comes from a sourced row, not a catalogue
// offer: the nearest published figure, with its date and source.
func sourcedRowNote(g knowledge.GPU, cp CardPrice, what Text) Text {
	src, _, _ := strings.Cut(cp.Source, " — ")
	return txt(
		fmt.Sprintf("no catalogue offer prices %s %s: the nearest sourced figure is used, %s %s (%s, dated %s; %s) — a published figure, not a live offer; confirm before you commit",
			g.Name, what.EN, cp.Platform, cp.Original.String(), src, cp.ObservedAt, confidenceOf(cp.Note)),
		fmt.Sprintf("目录里没有 %s 的%s报价：采用最接近的有出处数据，%s %s（%s，日期 %s；%s）——这是公开数据而非实时报价，下单前请确认",
			g.Name, what.ZH, cp.Platform, cp.Original.String(), src, cp.ObservedAt, confidenceOf(cp.Note)))
}

// confidenceOf reads "confidence high|medium|low" from an offer's note.
func confidenceOf(note string) string {
	for _, c := range []string{"high", "medium", "low"} {
		if strings.Contains(note, "confidence "+c) {
			return "confidence " + c
		}
	}
	return "confidence not graded"
}

// platformMissingNote says that the platform asked about has no figure for
// the card, and which market figure answers instead.
func platformMissingNote(platform string, g knowledge.GPU, cp CardPrice, what Text) Text {
	return txt(
		fmt.Sprintf("%s has no %s price for %s in the data: the market figure is used instead, %s %s (dated %s) — ask %s for its own price",
			platform, what.EN, g.Name, cp.Platform, cp.Original.String(), cp.ObservedAt, platform),
		fmt.Sprintf("数据里没有 %s 的 %s %s价：改用市场价，%s %s（日期 %s）——请向 %s 询价",
			platform, g.Name, what.ZH, cp.Platform, cp.Original.String(), cp.ObservedAt, platform))
}

// anywhere is the cheapest price for a card on any platform when the one
// asked about (f.Platform) has none: a provider's catalogue offer, else a
// provider's sourced row, else a market-wide range.
func (m Market) anywhere(gpu string, p *pricing, f OfferFilter) (CardPrice, bool) {
	f.Platform, f.NoMarketRange = "", true
	if cp, ok, _ := Cheapest(gpu, m.Offers, p.cur, p.fx, f); ok {
		return cp, true
	}
	if cp, ok := m.cheapestRow(gpu, p, f); ok {
		return cp, true
	}
	f.NoMarketRange = false
	if cp, ok, _ := Cheapest(gpu, m.Offers, p.cur, p.fx, f); ok {
		return cp, true
	}
	return m.cheapestRow(gpu, p, f)
}
