package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// PlatformPlan is one platform's cheapest monthly plan (包月) for a card,
// per card-month; Found is false when no plan of the card is sourced there.
type PlatformPlan struct {
	Platform     string  `json:"platform"`
	Found        bool    `json:"found"`
	PerCardMonth float64 `json:"per_card_month,omitempty"`
	Offer        string  `json:"offer,omitempty"`
	ObservedAt   string  `json:"observed_at,omitempty"`
}

// PlanPricesResult compares the monthly plans of one card on the platforms
// asked about ("4090 包月 AutoDL 和恒源云哪个便宜"). Cheapest is set only when
// at least two of them price the card; Difference is then the dearest
// priced plan less the cheapest, per card-month, and DifferencePct that
// difference over the dearer.
type PlanPricesResult struct {
	GPU           string             `json:"gpu"`
	Currency      knowledge.Currency `json:"currency"`
	Plans         []PlatformPlan     `json:"plans"` // in the order asked
	Missing       []string           `json:"missing,omitempty"`
	Cheapest      string             `json:"cheapest,omitempty"`
	Dearest       string             `json:"dearest,omitempty"`
	Difference    float64            `json:"difference,omitempty"`
	DifferencePct float64            `json:"difference_pct,omitempty"`
	Lines         []Line             `json:"lines"`
	Assumptions   []Text             `json:"assumptions"`
	Sources       []PriceSource      `json:"sources"`
}

// PlanPrices finds each platform's cheapest sourced monthly plan for gpu
// (a catalogue offer, else a sourced row of that platform; never another
// platform's nor another variant's) and says which is cheaper by how much.
func PlanPrices(gpu string, platforms []string, cur knowledge.Currency, fx float64, m Market) (PlanPricesResult, error) {
	var defaulted []string
	p, err := newPricing(cur, "", fx, monthlyHint, &defaulted)
	if err != nil {
		return PlanPricesResult{}, err
	}
	g, err := m.card(gpu, monthlyHint)
	if err != nil {
		return PlanPricesResult{}, err
	}
	if len(platforms) == 0 {
		return PlanPricesResult{}, inputErr("platform", "name the platforms to compare", "/gpu price 4090 @autodl @hengyuanyun billing=monthly")
	}
	res := PlanPricesResult{GPU: g.ID, Currency: p.cur}
	var low, high *PlatformPlan
	for _, pl := range platforms {
		cp, found := pairedPlan(g.ID, pl, m.Offers, p)
		if !found {
			cp, found = planRow(g, pl, m, p)
		}
		if !found || cp.Platform != pl {
			res.Plans = append(res.Plans, PlatformPlan{Platform: pl})
			res.Missing = append(res.Missing, pl)
			continue
		}
		if cp.Original.Currency != p.cur {
			p.converted = true
		}
		v, how := monthlyOf(cp, p)
		res.Plans = append(res.Plans, PlatformPlan{Platform: pl, Found: true, PerCardMonth: v, Offer: cp.Offer, ObservedAt: cp.ObservedAt})
		res.Sources = append(res.Sources, offerSource("monthly", cp))
		res.Lines = append(res.Lines, Line{Key: "monthly_price." + pl, Label: txt(pl+": monthly plan per card", pl+"：包月每卡每月"), Value: v, Unit: string(p.cur) + "/month", How: how})
	}
	for i := range res.Plans {
		pp := &res.Plans[i]
		if !pp.Found {
			continue
		}
		if low == nil || pp.PerCardMonth < low.PerCardMonth {
			low = pp
		}
		if high == nil || pp.PerCardMonth > high.PerCardMonth {
			high = pp
		}
	}
	if low != nil && high != nil && low != high {
		res.Cheapest, res.Dearest = low.Platform, high.Platform
		res.Difference = Round2(high.PerCardMonth - low.PerCardMonth)
		res.DifferencePct = round(res.Difference/high.PerCardMonth, 3)
		res.Lines = append(res.Lines, Line{Key: "difference", Label: txt("cheaper plan saves per card-month", "便宜的包月每卡每月省"), Value: res.Difference, Unit: string(p.cur),
			How: fmt.Sprintf("%s − %s", money(high.PerCardMonth, p.cur), money(low.PerCardMonth, p.cur))})
	}
	for _, pl := range res.Missing {
		res.Assumptions = append(res.Assumptions, txt(
			fmt.Sprintf("no monthly plan for %s is sourced on %s: ask it for a quote, then compare it per card-month", g.Name, pl),
			fmt.Sprintf("数据里没有 %s 在 %s 的包月价：请向平台询价，再按每卡每月对比", g.Name, pl)))
	}
	res.Assumptions = append(res.Assumptions, p.assumption()...)
	res.Assumptions = withConfirm(res.Assumptions, res.Sources)
	return res, nil
}
