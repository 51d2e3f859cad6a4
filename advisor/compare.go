package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// MaxCompare is the most cards one comparison shows.
const MaxCompare = 6

const compareHint = "/gpu compare h100 h800 h20"

// CompareRow is one card's figures side by side with the others.
type CompareRow struct {
	GPU          string  `json:"gpu"`
	Name         string  `json:"name"`
	Tier         string  `json:"tier"`
	VRAMGB       float64 `json:"vram_gb"`
	BandwidthGBs float64 `json:"bandwidth_gbs"`
	BF16TFLOPS   float64 `json:"bf16_tflops"` // the peak the engine uses (BF16, else FP16 tensor, else FP32)
	FP8TFLOPS    float64 `json:"fp8_tflops"`  // 0 = no FP8
	NVLinkGBs    float64 `json:"nvlink_gbs"`  // 0 = PCIe only
	Interconnect string  `json:"interconnect"`
	TDPWatts     float64 `json:"tdp_watts"`
	// PriceLow..PriceHigh is the per-card-hour range over the card's
	// offers: on-demand ones, else interruptible, else monthly plans (see
	// PriceBasis). Zero when the catalogue has no price.
	PriceLow     float64 `json:"price_low"`
	PriceHigh    float64 `json:"price_high"`
	PriceBasis   string  `json:"price_basis"`    // on_demand, interruptible, monthly, none
	PerTFLOPHour float64 `json:"per_tflop_hour"` // low price ÷ peak TFLOPS
	PerGBHour    float64 `json:"per_gb_hour"`    // low price ÷ VRAM GB
	Offers       int     `json:"offers"`
	// OnDemand is the card's cheapest on-demand offer and Reserved its
	// cheapest reserved-term one (term stated, or "" when the source does
	// not say); nil when the catalogue has none.
	OnDemand *RowPrice `json:"cheapest_on_demand,omitempty"`
	Reserved *RowPrice `json:"cheapest_reserved,omitempty"`
	SeedNote string    `json:"seed_disagrees,omitempty"`
	Notes    string    `json:"notes,omitempty"`
}

// RowPrice is one offer that prices a comparison row.
type RowPrice struct {
	Platform   string  `json:"platform"`
	Offer      string  `json:"offer"`
	Price      float64 `json:"price"` // per card-hour
	Term       string  `json:"term,omitempty"`
	TermLabel  *Text   `json:"term_label,omitempty"` // reserved only
	ObservedAt string  `json:"observed_at"`
}

func rowPrice(cp CardPrice) *RowPrice {
	return &RowPrice{Platform: cp.Platform, Offer: cp.Offer, Price: cp.Low, ObservedAt: cp.ObservedAt}
}

// CompareInputs are the comparison question after defaults.
type CompareInputs struct {
	GPUs      []string           `json:"gpus"`
	Currency  knowledge.Currency `json:"currency"`
	FX        float64            `json:"fx"`
	Defaulted []string           `json:"defaulted"`
}

// Comparison puts two or more cards side by side and says what the
// differences mean.
type Comparison struct {
	Inputs      CompareInputs `json:"inputs"`
	Rows        []CompareRow  `json:"rows"`
	Notes       []Text        `json:"notes"` // what the differences mean, pair by pair
	Lines       []Line        `json:"lines"`
	Assumptions []Text        `json:"assumptions"`
	Sources     []PriceSource `json:"sources"`
	// Said and Assumed are Notes and Assumptions as values, in their
	// order; bot/present words them (present.WordCompare), and the lines
	// by key.
	Said    []CompareNote `json:"-"`
	Assumed []CompareNote `json:"-"`
}

// CompareNote is what a difference between two cards means, or one of a
// comparison's assumptions, as a kind and its operands; bot/present words
// it. The fields a kind does not use are zero.
type CompareNote struct {
	Kind CompareNoteKind
	// Hi and Lo are the cards' names, the one with more of the figure
	// first (the faster link, the more memory, the cheaper compute, the
	// card with FP8 or the domestic stack); HiValue and LoValue their
	// figures, Ratio the larger over the smaller to 2 decimals; Link is
	// Lo's interconnect where it has no NVLink.
	Hi, Lo           string
	HiValue, LoValue float64
	Ratio            float64
	Link             string
	// GPU and Seed: the card whose seed documents disagree, and what they
	// say (CompareSeed).
	GPU, Seed string
	// Text is a sentence worded elsewhere in the engine (CompareWorded).
	Text Text
}

// CompareNoteKind names what a CompareNote says.
type CompareNoteKind string

// A comparison's notes and assumptions.
const (
	CompareNVLinkGap    CompareNoteKind = "nvlink_gap"    // both have NVLink, at different speeds
	CompareNoNVLink     CompareNoteKind = "no_nvlink"     // one has no NVLink
	CompareBandwidth    CompareNoteKind = "bandwidth"     // memory bandwidth ≥ 1.15×
	CompareCompute      CompareNoteKind = "compute"       // dense BF16 compute ≥ 1.15×
	CompareMemory       CompareNoteKind = "memory"        // more memory per card
	CompareFP8          CompareNoteKind = "fp8"           // one runs FP8 natively
	CompareStack        CompareNoteKind = "stack"         // a domestic software stack
	CompareCheaper      CompareNoteKind = "cheaper"       // cheaper per TFLOP-hour ≥ 1.15×
	CompareMonthlyOnly  CompareNoteKind = "monthly_only"  // Hi is priced only as a monthly plan
	CompareSpotOnly     CompareNoteKind = "spot_only"     // Hi's only prices are spot
	CompareNoPrice      CompareNoteKind = "no_price"      // no price for Hi
	CompareSeed         CompareNoteKind = "seed"          // the seed documents disagree
	CompareSpecsSources CompareNoteKind = "specs_sources" // where specs and prices come from
	CompareWorded       CompareNoteKind = "worded"        // Text, worded by the engine's pricing
)

// Compare lines up cards (ids or aliases) with their specs, catalogue price
// range per card-hour in cur, price per TFLOP-hour and per GB-hour, and
// notes on what each difference means for training and inference.
func Compare(gpus []string, m Market, cur knowledge.Currency, fx float64) (Comparison, error) {
	var res Comparison
	if len(gpus) < 2 {
		return res, inputErr("gpu", "name at least two cards to compare", compareHint)
	}
	if len(gpus) > MaxCompare {
		return res, inputErr("gpu", fmt.Sprintf("compare at most %d cards at once", MaxCompare), compareHint)
	}
	p, err := newPricing(cur, knowledge.CNY, fx, compareHint, &res.Inputs.Defaulted)
	if err != nil {
		return res, err
	}
	res.Inputs.Currency, res.Inputs.FX = p.cur, p.fx
	var cards []knowledge.GPU
	seen := map[string]bool{}
	for _, name := range gpus {
		g, err := m.card(name, compareHint)
		if err != nil {
			return res, err
		}
		if seen[g.ID] {
			return res, inputErr("gpu", fmt.Sprintf("%s is named twice", g.Name), compareHint)
		}
		seen[g.ID] = true
		cards = append(cards, g)
		res.Inputs.GPUs = append(res.Inputs.GPUs, g.ID)
	}
	ix := m.engine().index(m.Offers)
	for _, g := range cards {
		row := CompareRow{GPU: g.ID, Name: g.Name, Tier: string(g.Tier), VRAMGB: g.VRAMGB, BandwidthGBs: g.BandwidthGBs,
			BF16TFLOPS: g.PeakTFLOPS(), FP8TFLOPS: g.FP8TFLOPS, NVLinkGBs: g.NVLinkGBs, Interconnect: g.Interconnect(),
			TDPWatts: g.TDPWatts, SeedNote: g.SeedDisagrees, Notes: g.Notes}
		used := res.priceRow(&row, g, ix, p)
		res.Sources = append(res.Sources, used...)
		res.Rows = append(res.Rows, row)
	}
	for i := range cards {
		for j := i + 1; j < len(cards); j++ {
			res.Said = append(res.Said, differences(cards[i], cards[j], res.Rows[i], res.Rows[j])...)
		}
	}
	for _, row := range res.Rows {
		switch row.PriceBasis {
		case "monthly":
			res.Said = append(res.Said, CompareNote{Kind: CompareMonthlyOnly, Hi: row.Name})
		case "interruptible":
			res.Said = append(res.Said, CompareNote{Kind: CompareSpotOnly, Hi: row.Name})
		case "none":
			res.Said = append(res.Said, CompareNote{Kind: CompareNoPrice, Hi: row.Name})
		}
	}
	for _, g := range cards {
		if g.SeedDisagrees != "" {
			res.Said = append(res.Said, CompareNote{Kind: CompareSeed, GPU: g.ID, Seed: g.SeedDisagrees})
		}
	}
	res.Assumed = append(res.Assumed, CompareNote{Kind: CompareSpecsSources})
	// The pricing's own notes (a currency converted, the dates to confirm)
	// come worded from where they are made.
	for _, t := range withConfirm(p.assumption(), res.Sources) {
		res.Assumed = append(res.Assumed, CompareNote{Kind: CompareWorded, Text: t})
	}
	return res, nil
}

// priceRow fills the price columns and their lines, returning the sources.
func (res *Comparison) priceRow(row *CompareRow, g knowledge.GPU, ix *offerIndex, p *pricing) []PriceSource {
	var byBasis = map[string][]CardPrice{}
	// The card's offers from the market's index, normalised once per
	// currency and rate (the columns use no conversion text).
	norm := ix.normalisedFor(g.ID, p.cur, p.fx)
	for j, i := range ix.byGPU[g.ID] {
		o, cp := ix.offers[i], norm[j].cp
		if o.Status == "disappeared" || !norm[j].ok {
			continue
		}
		if o.Currency != p.cur {
			p.converted = true
		}
		basis := "on_demand"
		switch {
		case cp.Package:
			basis = "monthly"
		case cp.Interruptible:
			basis = "interruptible"
		}
		byBasis[basis] = append(byBasis[basis], cp)
		better := func(r *RowPrice) bool { return r == nil || cp.Low < r.Price || cp.Low == r.Price && cp.Offer < r.Offer }
		switch {
		case basis == "on_demand" && o.Model != knowledge.Member && !IsMarketRange(o.Platform) && better(row.OnDemand):
			row.OnDemand = rowPrice(cp)
		case isTerm(o, cp) && !IsMarketRange(o.Platform) && better(row.Reserved):
			row.Reserved = rowPrice(cp)
			label := TermText(o.Term)
			row.Reserved.Term, row.Reserved.TermLabel = o.Term, &label
		}
	}
	if row.Reserved != nil {
		r := row.Reserved
		res.Lines = append(res.Lines, Line{Key: g.ID + ".cheapest_reserved",
			Value: r.Price, Unit: string(p.cur), How: fmt.Sprintf("%s, %s, %s, observed %s", r.Platform, r.Offer, r.TermLabel.EN, r.ObservedAt)})
	}
	row.PriceBasis = "none"
	var src []PriceSource
	for _, basis := range []string{"on_demand", "interruptible", "monthly"} {
		ps := byBasis[basis]
		if len(ps) == 0 {
			continue
		}
		row.PriceBasis, row.Offers = basis, len(ps)
		row.PriceLow, row.PriceHigh = ps[0].Low, ps[0].High
		for _, cp := range ps {
			row.PriceLow, row.PriceHigh = min(row.PriceLow, cp.Low), max(row.PriceHigh, cp.High)
			src = append(src, offerSource("hourly", cp))
		}
		break
	}
	if row.PriceLow == 0 {
		return nil
	}
	u := string(p.cur)
	if row.BF16TFLOPS > 0 {
		row.PerTFLOPHour = round(row.PriceLow/row.BF16TFLOPS, 5)
		res.Lines = append(res.Lines, Line{Key: g.ID + ".per_tflop_hour",
			Value: row.PerTFLOPHour, Unit: u, How: fmt.Sprintf("%s/h ÷ %s TFLOPS", money(row.PriceLow, p.cur), num(row.BF16TFLOPS))})
	}
	if row.VRAMGB > 0 {
		row.PerGBHour = round(row.PriceLow/row.VRAMGB, 5)
		res.Lines = append(res.Lines, Line{Key: g.ID + ".per_gb_hour",
			Value: row.PerGBHour, Unit: u, How: fmt.Sprintf("%s/h ÷ %s GB", money(row.PriceLow, p.cur), num(row.VRAMGB))})
	}
	return src
}

// differences explains what separates two cards.
func differences(a, b knowledge.GPU, ra, rb CompareRow) []CompareNote {
	var out []CompareNote
	// Interconnect: tensor parallelism exchanges activations inside every
	// layer, data parallelism exchanges gradients once per step.
	switch {
	case a.NVLinkGBs > 0 && b.NVLinkGBs > 0 && a.NVLinkGBs != b.NVLinkGBs:
		hi, lo := a, b
		if b.NVLinkGBs > a.NVLinkGBs {
			hi, lo = b, a
		}
		out = append(out, CompareNote{Kind: CompareNVLinkGap, Hi: hi.Name, Lo: lo.Name, HiValue: hi.NVLinkGBs, LoValue: lo.NVLinkGBs})
	case (a.NVLinkGBs > 0) != (b.NVLinkGBs > 0):
		nv, pc := a, b
		if b.NVLinkGBs > 0 {
			nv, pc = b, a
		}
		out = append(out, CompareNote{Kind: CompareNoNVLink, Hi: nv.Name, Lo: pc.Name, HiValue: nv.NVLinkGBs, Link: pc.Interconnect()})
	}
	if r := ratio(a.BandwidthGBs, b.BandwidthGBs); r >= 1.15 {
		hi, lo := pick(a, b, a.BandwidthGBs > b.BandwidthGBs)
		out = append(out, CompareNote{Kind: CompareBandwidth, Hi: hi.Name, Lo: lo.Name, Ratio: round(r, 2), HiValue: hi.BandwidthGBs, LoValue: lo.BandwidthGBs})
	}
	if r := ratio(a.PeakTFLOPS(), b.PeakTFLOPS()); r >= 1.15 {
		hi, lo := pick(a, b, a.PeakTFLOPS() > b.PeakTFLOPS())
		out = append(out, CompareNote{Kind: CompareCompute, Hi: hi.Name, Lo: lo.Name, Ratio: round(r, 2), HiValue: hi.PeakTFLOPS(), LoValue: lo.PeakTFLOPS()})
	}
	if a.VRAMGB != b.VRAMGB {
		hi, lo := pick(a, b, a.VRAMGB > b.VRAMGB)
		out = append(out, CompareNote{Kind: CompareMemory, Hi: hi.Name, Lo: lo.Name, HiValue: hi.VRAMGB, LoValue: lo.VRAMGB})
	}
	if (a.FP8TFLOPS > 0) != (b.FP8TFLOPS > 0) {
		has, not := pick(a, b, a.FP8TFLOPS > 0)
		out = append(out, CompareNote{Kind: CompareFP8, Hi: has.Name, Lo: not.Name})
	}
	if (a.Tier == knowledge.TierDomestic) != (b.Tier == knowledge.TierDomestic) {
		d, _ := pick(a, b, a.Tier == knowledge.TierDomestic)
		out = append(out, CompareNote{Kind: CompareStack, Hi: d.Name})
	}
	if ra.PerTFLOPHour > 0 && rb.PerTFLOPHour > 0 {
		if r := ratio(ra.PerTFLOPHour, rb.PerTFLOPHour); r >= 1.15 {
			cheap, dear := pick(a, b, ra.PerTFLOPHour < rb.PerTFLOPHour)
			out = append(out, CompareNote{Kind: CompareCheaper, Hi: cheap.Name, Lo: dear.Name, Ratio: round(r, 2)})
		}
	}
	return out
}

// ratio is the larger over the smaller (0 when either is 0).
func ratio(a, b float64) float64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	return max(a, b) / min(a, b)
}

// pick returns (a, b) when first is true, else (b, a).
func pick(a, b knowledge.GPU, first bool) (knowledge.GPU, knowledge.GPU) {
	if first {
		return a, b
	}
	return b, a
}
