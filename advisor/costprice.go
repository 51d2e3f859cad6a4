package advisor

import (
	"errors"
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// Generic hidden-cost rates, used when the platform lists none: the
// cost-performance report's hidden-cost table gives SSD storage at
// $0.05–0.15 per GB-month and cloud egress at $0.05–0.12 per GB. The middle
// of each range is used.
var genericHidden = map[string]knowledge.HiddenCost{
	"storage": {Kind: "storage", Low: 0.05, High: 0.15, Currency: knowledge.USD, Unit: "GB-month", Source: "seed:cost-performance-report hidden-cost table"},
	"egress":  {Kind: "egress", Low: 0.05, High: 0.12, Currency: knowledge.USD, Unit: "GB", Source: "seed:cost-performance-report hidden-cost table"},
}

// marketRangeNote says that a price comes from a market-wide range because
// no provider in the catalogue lists the card.
func marketRangeNote(g knowledge.GPU, cp CardPrice) Text {
	return txt(
		fmt.Sprintf("no provider in the catalogue lists %s on demand: the %s range %s/card-hour is used at its low end — a market range, not an offer; get a quote", g.Name, cp.Platform, cp.Range()),
		fmt.Sprintf("目录中没有平台按需提供 %s：按 %s 区间 %s/卡时的低端估算——这是市场区间而非报价，请向平台询价", g.Name, cp.Platform, cp.Range()))
}

// errSkip is the ranking pass's reason for leaving a card out (it cannot
// take the job or has no price): the pass writes no texts, and the error
// is never shown.
var errSkip = errors.New("card left out of the ranking")

// price resolves the rent per card-hour and totals the bill.
func (r *CostResult) price(g *knowledge.GPU, in CostInput, m Market, p *pricing) error {
	quiet := in.memo != nil && in.memo.quiet
	platform := in.Where.Platform
	var how string
	if in.Price.Given() {
		r.Hourly = p.money(in.Price)
		how = fmt.Sprintf("given: %s/card-hour%s", money(in.Price.Amount, cur(in.Price.Currency, p.cur)), p.convHow(in.Price.Currency))
		r.Sources = append(r.Sources, givenSource("hourly", in.Price, p.cur, "/card-hour"))
	} else {
		cp, found := m.cheapest(in.memo, g.ID, p, in.Where)
		if !found && in.Where.NoMarketRange {
			f := in.Where
			f.NoMarketRange = false
			if cp, found = m.cheapest(in.memo, g.ID, p, f); found && !quiet {
				r.Assumptions = append(r.Assumptions, marketRangeNote(*g, cp))
			}
		}
		onDemand := txt("on-demand", "按需")
		if !found && in.GPU != "" {
			// No catalogue offer for the card asked about: the nearest
			// sourced row (a cloud's list price, a Chinese platform's
			// published figure). Rankings over every card stay on offers.
			if cp, found = m.cheapestRow(g.ID, p, in.Where); found {
				r.Assumptions = append(r.Assumptions, sourcedRowNote(*g, cp, onDemand))
			}
		}
		if !found && in.Where.Platform != "" && in.GPU != "" {
			// The platform asked about has no figure: answer with the
			// market's, named as such, rather than fail.
			if cp, found = m.anywhere(g.ID, p, in.Where); found {
				r.Assumptions = append(r.Assumptions, platformMissingNote(in.Where.Platform, *g, cp, onDemand))
			}
		}
		if !found && quiet {
			return errSkip
		}
		if !found {
			where := ""
			if in.Where.Platform != "" {
				where = " on " + in.Where.Platform + " or any other platform"
			}
			return inputErrZH("price", fmt.Sprintf("no catalogue price or sourced figure for %s%s; give price= per card-hour", g.Name, where),
				fmt.Sprintf("目录和有出处的数据里都没有 %s 的价格%s；请用 price= 给出每卡每小时价格", g.Name, map[bool]string{true: "（" + in.Where.Platform + " 和其他平台都没有）", false: ""}[in.Where.Platform != ""]), in.hint()+" price=2.5usd")
		}
		if cp.Original.Currency != p.cur {
			p.converted = true
		}
		offer := cp // cp itself stays on the stack where no card is priced
		r.Offer, r.Hourly, r.Interruptible, platform = &offer, cp.Price(), cp.Interruptible, cp.Platform
		if !quiet {
			how = fmt.Sprintf("cheapest offer: %s, %s (observed %s)", offerLabel(cp, "en"), cp.How, cp.ObservedAt)
			if cp.High != cp.Low {
				how = fmt.Sprintf("cheapest offer: %s, %s, low end used (observed %s)", offerLabel(cp, "en"), cp.How, cp.ObservedAt)
			}
			r.Sources = append(r.Sources, offerSource("hourly", cp))
		}
		if r.GPUs > ClusterCards && !m.contracted(cp.Platform) {
			// More cards than one listing or retail machine supplies: the
			// job rents from the cheapest seller of 8-GPU machines, the
			// single listing named beside it (scale.go).
			if cr, ok := ClusterRent(m.Reserved, g.ID, p.cur, p.fx); ok && cr.PerGPUHour > r.Hourly && quiet {
				r.Hourly, r.Offer, r.Interruptible, platform = cr.PerGPUHour, nil, false, cr.Provider
			} else if ok && cr.PerGPUHour > r.Hourly {
				r.Assumptions = append(r.Assumptions, txt(
					fmt.Sprintf("%d cards are more than one %s listing supplies: priced on a cluster seller, %s (the single-listing low, %s/card-hour, is not used)", r.GPUs, cp.Platform, cr.How, money(r.Hourly, p.cur)),
					fmt.Sprintf("%d 张卡超出 %s 单个挂单的供给：按整机集群卖家计价，%s（单挂单最低价 %s/卡时不采用）", r.GPUs, cp.Platform, cr.How, money(r.Hourly, p.cur))))
				r.Hourly, r.Offer, r.Interruptible, platform = cr.PerGPUHour, nil, false, cr.Provider
				how = "cluster seller: " + cr.How
				r.Sources = append(r.Sources, PriceSource{What: "hourly", GPU: g.ID, Figure: cr.Figure, ObservedAt: cr.Date, Source: cr.Source})
			}
		}
		if cp.Interruptible && !quiet {
			r.Assumptions = append(r.Assumptions, txt("the cheapest offer is spot capacity: it can be interrupted, so checkpoint and resume",
				"最便宜的是竞价实例：可能被中断，请做好断点续训"))
		}
	}
	r.Hourly = round(r.Hourly, 4)
	var compute float64
	if in.Workload.Method == Inference {
		replica := r.Hourly * float64(r.GPUs)
		// $/M tokens = $/h ÷ (tokens/s × 3600 s/h × utilisation) × 10⁶:
		// hours paid and idle are part of each token's price.
		r.PerMTokens = round(PerMTokens(replica, r.TokensPerS*in.utilization()), 4)
		compute = in.Tokens / 1e6 * PerMTokens(replica, r.TokensPerS*in.utilization())
	} else {
		compute = r.GPUHours * r.Hourly
	}
	if quiet { // the ranking pass: the figures only (no hidden costs there)
		r.Total = Round2(compute)
		r.GPUHours, r.WallHours, r.TokensPerS = round(r.GPUHours, 2), round(r.WallHours, 2), round(r.TokensPerS, 1)
		return nil
	}
	r.Lines = append(r.Lines, Line{Key: "hourly", Label: txt("rent per card-hour", "每卡每小时租金"), Value: r.Hourly, Unit: string(p.cur) + "/card-hour", How: how})
	if in.Workload.Method == Inference {
		replica := r.Hourly * float64(r.GPUs)
		r.Lines = append(r.Lines,
			Line{Key: "replica_hourly", Label: txt("replica per hour", "单副本每小时"), Value: round(replica, 4), Unit: string(p.cur) + "/h",
				How: fmt.Sprintf("%d cards × %s", r.GPUs, money(r.Hourly, p.cur))},
			Line{Key: "per_m_tokens", Label: txt("per million tokens", "每百万 token"), Value: r.PerMTokens, Unit: string(p.cur) + "/M tokens",
				How: perMHow(money(round(replica, 4), p.cur), round(r.TokensPerS, 1), in.Utilization)},
			Line{Key: "compute_cost", Label: txt("generation cost", "生成费用"), Value: Round2(compute), Unit: string(p.cur),
				How: fmt.Sprintf("%s M tokens × %s", num(in.Tokens/1e6), money(r.PerMTokens, p.cur))})
	} else {
		r.Lines = append(r.Lines, Line{Key: "compute_cost", Label: txt("GPU cost", "算力费用"), Value: Round2(compute), Unit: string(p.cur),
			How: fmt.Sprintf("%s GPU-h × %s", num(round(r.GPUHours, 2)), money(r.Hourly, p.cur))})
	}
	r.hidden(in, platform, m, p)
	r.Total = Round2(compute + r.Hidden)
	r.GPUHours, r.WallHours, r.TokensPerS = round(r.GPUHours, 2), round(r.WallHours, 2), round(r.TokensPerS, 1)
	r.Hidden = Round2(r.Hidden)
	how = fmt.Sprintf("%s compute", money(Round2(compute), p.cur))
	if r.Hidden > 0 {
		how += fmt.Sprintf(" + %s storage and egress", money(r.Hidden, p.cur))
	}
	r.Lines = append(r.Lines, Line{Key: "total", Label: txt("total", "合计"), Value: r.Total, Unit: string(p.cur), How: how})
	return nil
}

// hidden adds storage and egress when the user gave volumes, at the
// platform's listed rate or the report's generic range.
func (r *CostResult) hidden(in CostInput, platform string, m Market, p *pricing) {
	for _, h := range []struct {
		kind   string
		amount float64
		months float64
		en, zh string
	}{
		{"storage", in.StorageGB, in.StorageMonths, "storage", "存储"},
		{"egress", in.EgressGB, 1, "data egress", "出口流量"},
	} {
		if h.amount <= 0 {
			continue
		}
		hc, src := genericHidden[h.kind], "no rate listed for the platform: the cost-performance report's general range"
		if pl, ok := m.platform(platform); ok {
			for _, c := range pl.HiddenCosts {
				if c.Kind == h.kind {
					hc, src = c, pl.ID+" listed rate"
				}
			}
		}
		mid := (hc.Low + hc.High) / 2
		rate := p.to(mid, hc.Currency)
		cost := h.amount * h.months * rate
		r.Hidden += cost
		how := fmt.Sprintf("%s GB × %s/%s (middle of %s–%s%s; %s)", num(h.amount), money(round(rate, 4), p.cur), hc.Unit,
			money(hc.Low, hc.Currency), num(hc.High), p.convHow(hc.Currency), src)
		if h.kind == "storage" {
			how = fmt.Sprintf("%s GB × %s months × %s/%s (middle of %s–%s%s; %s)", num(h.amount), num(h.months), money(round(rate, 4), p.cur), hc.Unit,
				money(hc.Low, hc.Currency), num(hc.High), p.convHow(hc.Currency), src)
		}
		r.Lines = append(r.Lines, Line{Key: h.kind, Label: txt(h.en, h.zh), Value: Round2(cost), Unit: string(p.cur), How: how})
		r.Sources = append(r.Sources, PriceSource{What: h.kind, Platform: platform,
			Figure: fmt.Sprintf("%s–%s/%s", money(hc.Low, hc.Currency), num(hc.High), hc.Unit), Source: hc.Source})
	}
}

// cur is c, or def when c is empty.
func cur(c, def knowledge.Currency) knowledge.Currency {
	if c == "" {
		return def
	}
	return c
}

// utilization is the share of paid hours an inference replica works (1
// when not given).
func (in CostInput) utilization() float64 {
	if in.Utilization > 0 && in.Utilization < 1 {
		return in.Utilization
	}
	return 1
}

// perMHow writes the per-million-token step, with the utilisation when one
// was given.
func perMHow(replica string, tps, util float64) string {
	if util > 0 && util < 1 {
		return fmt.Sprintf("%s/h ÷ (%s tokens/s × 3600 × %s%% busy) × 10⁶", replica, num(tps), num(round(util*100, 2)))
	}
	return fmt.Sprintf("%s/h ÷ (%s tokens/s × 3600) × 10⁶", replica, num(tps))
}
