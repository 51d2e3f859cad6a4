package advisor

import (
	"math"
	"strconv"

	"github.com/gpubot/gpubot/knowledge"
)

// Plan kinds, after the cost-performance report's three combinations.
const (
	PlanBudget     = "budget"     // best value, interruptible capacity allowed
	PlanBalanced   = "balanced"   // best value among capacity that is not interrupted
	PlanEnterprise = "enterprise" // fastest datacenter card from a contracted cloud
)

// Plan is one way to spend a monthly budget on the ranked workload.
type Plan struct {
	Kind            string             `json:"kind"`
	Title           Text               `json:"title"`
	Why             Text               `json:"why"`
	GPU             string             `json:"gpu"`
	Name            string             `json:"name"`
	Platform        string             `json:"platform"`
	Offer           string             `json:"offer"`
	Cards           int                `json:"cards"`
	Price           float64            `json:"price"`  // per card-hour
	Hourly          float64            `json:"hourly"` // the job's cards × price
	Hours           float64            `json:"hours"`  // hours a month priced
	MonthlyCost     float64            `json:"monthly_cost"`
	HoursAffordable float64            `json:"hours_affordable"` // budget ÷ hourly
	WithinBudget    bool               `json:"within_budget"`
	Interruptible   bool               `json:"interruptible"`
	Currency        knowledge.Currency `json:"currency"`
	// CardsAffordable is how many cards the budget runs for the stated
	// hours a month (the plan scaled to the budget); 0 without hours.
	CardsAffordable int `json:"cards_affordable,omitempty"`
}

// plans builds the three plans from a full (untruncated) ranking.
// serving is true when the ranked workload is inference.
// tier is the tier of each card by id.
func plans(rk Ranking, in RecommendInput, m Market, p *pricing, serving bool, tier func(gpu string) knowledge.Tier) ([]Plan, error) {
	if len(rk.Rows) == 0 {
		return nil, inputErr("budget", "no card with a price can hold this workload", "/gpu recommend budget=5000")
	}
	budget := p.money(in.Budget)
	var out []Plan
	add := func(kind string, r Ranked, title, why Text) {
		pl := Plan{Kind: kind, Title: title, Why: why, GPU: r.GPU, Name: r.Name, Platform: r.Platform, Offer: r.Offer,
			Cards: r.Cards, Price: r.Price, Interruptible: r.Interruptible, Currency: p.cur, Hours: in.HoursPerMonth}
		pl.Hourly = round(float64(r.Cards)*r.Price, 4)
		pl.MonthlyCost = Round2(pl.Hourly * pl.Hours)
		pl.HoursAffordable = round(budget/pl.Hourly, 1)
		pl.WithinBudget = pl.MonthlyCost <= budget
		if pl.Hours > 0 && r.Price > 0 && budget > 0 {
			// Whole jobs (or replicas) of r.Cards cards the budget keeps running.
			jobs := int(math.Floor(budget / (pl.Hourly * pl.Hours)))
			pl.CardsAffordable = jobs * r.Cards
		}
		out = append(out, pl)
	}
	var persona string
	if in.Persona != "" {
		persona, _ = CanonicalPersona(in.Persona)
	}
	// The rows hold only prices one can rent at: market-wide ranges and,
	// for serving, spot capacity (unless asked) are set aside in rank.
	fastest := func(keep func(Ranked) bool) *Ranked {
		var best *Ranked
		for i, r := range rk.Rows {
			if !keep(r) {
				continue
			}
			if best == nil || r.Score > best.Score || (r.Score == best.Score && r.Value > best.Value) {
				best = &rk.Rows[i]
			}
		}
		return best
	}
	switch persona {
	case PersonaIndividual:
		// The cheapest capable card on a retail platform: the lowest price
		// for the job's cards per hour, not the best value per score.
		var cheap *Ranked
		for i, r := range rk.Rows {
			if !m.retail(r.Platform) {
				continue
			}
			if cheap == nil || float64(r.Cards)*r.Price < float64(cheap.Cards)*cheap.Price {
				cheap = &rk.Rows[i]
			}
		}
		if cheap != nil {
			why := txt("the lowest hourly price for the cards the job needs, on a retail platform (per-card rental, no contract)", "零售平台上满足任务所需卡数、每小时总价最低的卡（按卡租用，无需签约）")
			if cheap.Interruptible {
				why = txt(why.EN+"; spot capacity: checkpoint often", why.ZH+"；竞价实例：记得勤做检查点")
			}
			add(PlanBudget, *cheap, txt("individual: cheapest capable card", "个人：能跑的最便宜的卡"), why)
		}
		return out, nil
	case PersonaEnterprise:
		// Only providers that invoice and sign SLAs; no spot, no marketplace.
		if ent := fastest(func(r Ranked) bool { return !r.Interruptible && m.contracted(r.Platform) }); ent != nil {
			add(PlanEnterprise, *ent, txt("enterprise", "企业级"),
				txt("the fastest card from a provider that signs contracts and invoices (hyperscalers, 阿里云/腾讯云/华为云, dedicated GPU clouds); no spot, no marketplace", "只选可签合同、开发票的供应商（海外大厂云、阿里云/腾讯云/华为云、专业 GPU 云）里最快的卡；不用竞价、不用撮合市场"))
		}
		return out, nil
	case PersonaStartup:
		if serving {
			// Serving stays on capacity that is not interrupted.
			for _, r := range rk.Rows {
				if !r.Interruptible {
					add(PlanBalanced, r, txt("startup: serving on on-demand capacity", "初创：推理服务用按需资源"),
						txt("serving must not be interrupted: the best value among on-demand and monthly capacity", "推理服务不能被中断：按需/包月资源里性价比最高"))
					break
				}
			}
			return out, nil
		}
		// Training: the best value (spot allowed, with checkpoints) and
		// the best value that is not interrupted.
		add(PlanBudget, rk.Rows[0], txt("startup: training on the best value", "初创：训练选性价比最高"),
			txt("the best score per unit of price, interruptible capacity allowed: checkpoint often", "性价比最高，允许竞价实例：记得勤做检查点"))
		for _, r := range rk.Rows {
			if !r.Interruptible {
				add(PlanBalanced, r, txt("startup: training that is not interrupted", "初创：不被中断的训练"),
					txt("the best score per unit of price among capacity that is not interrupted", "不会被中断的资源里性价比最高"))
				break
			}
		}
		return out, nil
	}
	budgetWhy := txt("the best score per unit of price, interruptible capacity allowed: checkpoint often", "性价比最高，允许竞价实例：记得勤做检查点")
	if serving && !in.Spot {
		budgetWhy = txt("the best score per unit of price among on-demand capacity (serving is not put on spot unless asked)", "按需资源里性价比最高（除非要求，推理服务不用竞价实例）")
	}
	add(PlanBudget, rk.Rows[0], txt("budget first", "预算优先"), budgetWhy)
	for _, r := range rk.Rows {
		if !r.Interruptible {
			add(PlanBalanced, r, txt("balanced", "平衡"),
				txt("the best score per unit of price among capacity that is not interrupted", "不会被中断的资源里性价比最高"))
			break
		}
	}
	if ent := fastest(func(r Ranked) bool {
		return !r.Interruptible && tier(r.GPU) == knowledge.TierDatacenter && m.contracted(r.Platform)
	}); ent != nil {
		add(PlanEnterprise, *ent, txt("enterprise", "企业级"),
			txt("the fastest datacenter card from a cloud you can sign a contract with (SLA, invoices), not the cheapest", "从可签合同（SLA、发票）的云上选最快的数据中心卡，而不是最便宜的"))
	}
	return out, nil
}

// planLineCount is how many lines a plan writes (Plan.lines).
const planLineCount = 3

// lines writes the plan's arithmetic.
func (pl Plan) lines(p *pricing) []Line {
	c := string(p.cur)
	hourly := money(pl.Hourly, p.cur)
	return []Line{
		{Key: "plan." + pl.Kind + ".hourly", Label: txt(pl.Title.EN+": per hour", pl.Title.ZH+"：每小时"), Value: pl.Hourly, Unit: c + "/h",
			How: strconv.Itoa(pl.Cards) + " × " + pl.Name + " on " + pl.Platform + " at " + money(pl.Price, p.cur) + "/card-hour"},
		{Key: "plan." + pl.Kind + ".monthly", Label: txt(pl.Title.EN+": per month", pl.Title.ZH+"：每月"), Value: pl.MonthlyCost, Unit: c,
			How: hourly + "/h × " + num(pl.Hours) + " h"},
		{Key: "plan." + pl.Kind + ".hours_affordable", Label: txt(pl.Title.EN+": hours the budget buys", pl.Title.ZH+"：预算可买小时"), Value: pl.HoursAffordable, Unit: "h",
			How: "budget ÷ " + hourly + "/h"},
	}
}
