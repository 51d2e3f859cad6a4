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

// text is the note's sentence while Comparison still carries its words;
// present.CompareNote writes the same (TestCompareWordsMatchEngine holds
// them equal). It goes, with compareLabel, once readers call
// present.WordCompare.
func (n CompareNote) text() Text {
	switch n.Kind {
	case CompareNVLinkGap:
		return txt(
			fmt.Sprintf("%s's NVLink is %s GB/s against %s's %s GB/s: this matters for tensor parallelism (a model split across cards exchanges activations inside every layer), little for data parallelism (gradients once per step) and not at all for single-card inference",
				n.Lo, num(n.LoValue), n.Hi, num(n.HiValue)),
			fmt.Sprintf("%s 的 NVLink 为 %s GB/s，%s 为 %s GB/s：对张量并行影响大（模型切到多卡后每层都要交换激活值），对数据并行影响小（每步只同步一次梯度），对单卡推理没有影响",
				n.Lo, num(n.LoValue), n.Hi, num(n.HiValue)))
	case CompareNoNVLink:
		return txt(
			fmt.Sprintf("%s has no NVLink (%s): fine for one-card jobs and data parallelism, slow for tensor parallelism and multi-card training of large models, where %s's NVLink %s GB/s helps",
				n.Lo, n.Link, n.Hi, num(n.HiValue)),
			fmt.Sprintf("%s 没有 NVLink（%s）：单卡任务和数据并行没问题，张量并行和大模型多卡训练会慢，这时 %s 的 NVLink %s GB/s 更有优势",
				n.Lo, n.Link, n.Hi, num(n.HiValue)))
	case CompareBandwidth:
		return txt(
			fmt.Sprintf("%s reads memory %s× as fast as %s (%s vs %s GB/s): token generation at small batch scales with it",
				n.Hi, num(n.Ratio), n.Lo, num(n.HiValue), num(n.LoValue)),
			fmt.Sprintf("%s 的显存带宽是 %s 的 %s 倍（%s 对 %s GB/s）：小批量生成 token 的速度随之提升",
				n.Hi, n.Lo, num(n.Ratio), num(n.HiValue), num(n.LoValue)))
	case CompareCompute:
		return txt(
			fmt.Sprintf("%s has %s× the dense BF16 compute of %s (%s vs %s TFLOPS): training, fine-tuning and prompt processing scale with it",
				n.Hi, num(n.Ratio), n.Lo, num(n.HiValue), num(n.LoValue)),
			fmt.Sprintf("%s 的稠密 BF16 算力是 %s 的 %s 倍（%s 对 %s TFLOPS）：训练、微调和提示词预填充随之提速",
				n.Hi, n.Lo, num(n.Ratio), num(n.HiValue), num(n.LoValue)))
	case CompareMemory:
		return txt(
			fmt.Sprintf("%s holds %s GB more per card (%s vs %s GB): bigger models, longer contexts or larger batches on fewer cards",
				n.Hi, num(n.HiValue-n.LoValue), num(n.HiValue), num(n.LoValue)),
			fmt.Sprintf("%s 每卡多 %s GB 显存（%s 对 %s GB）：更大的模型、更长的上下文或更大的批量，用更少的卡",
				n.Hi, num(n.HiValue-n.LoValue), num(n.HiValue), num(n.LoValue)))
	case CompareFP8:
		return txt(
			fmt.Sprintf("%s runs FP8 natively, %s does not: FP8 inference and training roughly double usable compute where supported", n.Hi, n.Lo),
			fmt.Sprintf("%s 原生支持 FP8，%s 不支持：在支持的框架里 FP8 推理和训练的可用算力约翻倍", n.Hi, n.Lo))
	case CompareStack:
		return txt(
			fmt.Sprintf("%s runs a different software stack (CANN/MindSpore): CUDA code needs porting; the seed report budgets 3–6 months for a real project", n.Hi),
			fmt.Sprintf("%s 使用不同的软件栈（CANN/MindSpore）：CUDA 代码需要迁移，种子报告按 3–6 个月预估", n.Hi))
	case CompareCheaper:
		return txt(
			fmt.Sprintf("per TFLOP-hour %s is %s× cheaper than %s at the catalogue's lowest prices", n.Hi, num(n.Ratio), n.Lo),
			fmt.Sprintf("按目录最低价算，%s 每 TFLOP·小时比 %s 便宜 %s 倍", n.Hi, n.Lo, num(n.Ratio)))
	case CompareMonthlyOnly:
		return txt(
			fmt.Sprintf("%s is priced only as a monthly plan here, divided by 730 h: it costs that per hour only if used all month, so do not set it against hourly retail prices as is", n.Hi),
			fmt.Sprintf("%s 这里只有包月价，按 730 小时折算：只有整月用满才是这个小时价，不能直接和按小时零售价对比", n.Hi))
	case CompareSpotOnly:
		return txt(fmt.Sprintf("%s's only prices here are spot (interruptible) capacity", n.Hi),
			fmt.Sprintf("%s 这里只有竞价（可中断）价格", n.Hi))
	case CompareNoPrice:
		return txt(fmt.Sprintf("no price for %s in the catalogue", n.Hi), fmt.Sprintf("目录里没有 %s 的价格", n.Hi))
	case CompareSeed:
		if n.GPU == "h800" {
			return txt(n.Seed, "种子文档写 H800 的 NVLink 为 600 GB/s；有出处的规格表为 400 GB/s，这里采用 400 GB/s（DeepSeek 报告其 H800 集群实测约 160 GB/s 可用）")
		}
		return txt(n.Seed, "种子文档中的数字与有出处的规格表不一致，这里采用规格表："+n.Seed)
	case CompareSpecsSources:
		return txt("specs from sourced tables (dense tensor TFLOPS, no sparsity); price range per card-hour over the card's on-demand offers (spot or monthly plans only when nothing else is listed)",
			"规格取自有出处的规格表（稠密张量算力，不含稀疏）；价格区间为该卡按需报价的每卡每小时范围（没有按需报价时才用竞价或包月）")
	case CompareWorded:
		return n.Text
	}
	return Text{}
}

// compareLabel names a comparison line of the card called name by what
// follows its id in the key, while Line carries its words
// (present.WordCompare writes the same).
func compareLabel(what, name string) Text {
	switch what {
	case "cheapest_reserved":
		return txt(name+" cheapest reserved per card-hour", name+" 最低预留价（每卡每小时）")
	case "per_tflop_hour":
		return txt(name+" per TFLOP-hour", name+" 每 TFLOP·小时")
	case "per_gb_hour":
		return txt(name+" per GB-hour of memory", name+" 每 GB 显存·小时")
	}
	return Text{}
}

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
	for _, n := range res.Said {
		res.Notes = append(res.Notes, n.text())
	}
	for _, n := range res.Assumed {
		res.Assumptions = append(res.Assumptions, n.text())
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
		res.Lines = append(res.Lines, Line{Key: g.ID + ".cheapest_reserved", Label: compareLabel("cheapest_reserved", g.Name),
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
		res.Lines = append(res.Lines, Line{Key: g.ID + ".per_tflop_hour", Label: compareLabel("per_tflop_hour", g.Name),
			Value: row.PerTFLOPHour, Unit: u, How: fmt.Sprintf("%s/h ÷ %s TFLOPS", money(row.PriceLow, p.cur), num(row.BF16TFLOPS))})
	}
	if row.VRAMGB > 0 {
		row.PerGBHour = round(row.PriceLow/row.VRAMGB, 5)
		res.Lines = append(res.Lines, Line{Key: g.ID + ".per_gb_hour", Label: compareLabel("per_gb_hour", g.Name),
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
