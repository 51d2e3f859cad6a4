package advisor

import (
	"fmt"
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// DefaultPeakFactor is the peak-to-average load a serving plan is sized
// for when none is given: 3, i.e. the busiest hour carries three times the
// day's average (assumption; chat traffic follows office hours, and a
// replica must absorb the peak without queueing).
const DefaultPeakFactor = 3

// ServingPlan is a replica count and bill for a stated load.
type ServingPlan struct {
	RequestsPerDay   float64 `json:"requests_per_day"`
	AvgRequestsPerS  float64 `json:"avg_requests_per_s"`
	PeakRequestsPerS float64 `json:"peak_requests_per_s"`
	PeakFactor       float64 `json:"peak_factor"`
	// ReplicaRequestsPerS is what one replica sustains at its batch.
	ReplicaRequestsPerS float64 `json:"replica_requests_per_s"`
	Replicas            int     `json:"replicas"`
	Cards               int     `json:"cards"` // replicas × cards per replica
	Utilization         float64 `json:"utilization"`
	// Monthly bills with every replica on around the clock (730 h).
	MonthlyOnDemand float64 `json:"monthly_on_demand"`
	// MonthlyPlan is the same cards on the same platform's monthly plan,
	// when it lists one (0 otherwise).
	MonthlyPlan      float64 `json:"monthly_plan,omitempty"`
	MonthlyPlanOffer string  `json:"monthly_plan_offer,omitempty"`
	// PerMTokens is the cost of a million output tokens at this load;
	// FloorMonthly is one replica always on, the least a dedicated
	// deployment costs however small the load.
	PerMTokens   float64            `json:"per_m_tokens_at_load"`
	FloorMonthly float64            `json:"floor_monthly"`
	Currency     knowledge.Currency `json:"currency"`
}

// peakRequestsPerS is the stated load's peak, 0 when no load is stated.
func (in CostInput) peakRequestsPerS() float64 {
	avg := in.RequestsPerS
	if avg == 0 && in.TokensPerDay > 0 {
		avg = in.TokensPerDay / float64(in.InputTokens+in.OutputTokens) / 86400
	}
	return avg * in.PeakFactor
}

// servingPlan sizes replicas for the stated load and bills them.
func (r *CostResult) servingPlan(g *knowledge.GPU, in CostInput, m Market, p *pricing) {
	out := float64(in.OutputTokens)
	reqTokens := float64(in.InputTokens + in.OutputTokens)
	pl := &ServingPlan{PeakFactor: in.PeakFactor, Currency: p.cur}
	how := ""
	if in.RequestsPerS > 0 {
		pl.AvgRequestsPerS = in.RequestsPerS
		pl.RequestsPerDay = in.RequestsPerS * 86400
		how = fmt.Sprintf("%s requests/s given", num(in.RequestsPerS))
	} else {
		pl.RequestsPerDay = in.TokensPerDay / reqTokens
		pl.AvgRequestsPerS = pl.RequestsPerDay / 86400
		how = fmt.Sprintf("%s tokens/day ÷ (%d in + %d out) per request ÷ 86,400 s", sci(in.TokensPerDay), in.InputTokens, in.OutputTokens)
	}
	pl.PeakRequestsPerS = pl.AvgRequestsPerS * pl.PeakFactor
	pl.ReplicaRequestsPerS = r.TokensPerS / out
	pl.Replicas = max(1, int(math.Ceil(pl.PeakRequestsPerS/pl.ReplicaRequestsPerS-1e-9)))
	pl.Cards = pl.Replicas * r.GPUs
	pl.Utilization = round(pl.AvgRequestsPerS/(float64(pl.Replicas)*pl.ReplicaRequestsPerS), 4)
	replicaHourly := r.Hourly * float64(r.GPUs)
	pl.MonthlyOnDemand = Round2(float64(pl.Replicas) * replicaHourly * knowledge.HoursPerMonth)
	pl.FloorMonthly = Round2(replicaHourly * knowledge.HoursPerMonth)
	pl.PerMTokens = round(PerMTokens(replicaHourly, r.TokensPerS*pl.Utilization), 4)
	cur := string(p.cur)
	r.Lines = append(r.Lines,
		Line{Key: "avg_requests_per_s", Label: txt("average load", "平均负载"), Value: round(pl.AvgRequestsPerS, 4), Unit: "requests/s", How: how},
		Line{Key: "peak_requests_per_s", Label: txt("peak load", "峰值负载"), Value: round(pl.PeakRequestsPerS, 4), Unit: "requests/s",
			How: fmt.Sprintf("average × peak factor %s", num(pl.PeakFactor))},
		Line{Key: "replica_requests_per_s", Label: txt("one replica sustains", "单副本可承载"), Value: round(pl.ReplicaRequestsPerS, 4), Unit: "requests/s",
			How: fmt.Sprintf("%s output tokens/s ÷ %d output tokens per request", num(round(r.TokensPerS, 1)), in.OutputTokens)},
		Line{Key: "replicas", Label: txt("replicas", "副本数"), Value: float64(pl.Replicas), Unit: "replicas",
			How: fmt.Sprintf("⌈%s peak ÷ %s per replica⌉ (at least 1), %d × %d = %d cards", num(round(pl.PeakRequestsPerS, 3)), num(round(pl.ReplicaRequestsPerS, 3)), pl.Replicas, r.GPUs, pl.Cards)},
		Line{Key: "utilization", Label: txt("utilisation", "利用率"), Value: pl.Utilization, Unit: "",
			How: fmt.Sprintf("%s average ÷ (%d × %s)", num(round(pl.AvgRequestsPerS, 4)), pl.Replicas, num(round(pl.ReplicaRequestsPerS, 4)))},
		Line{Key: "monthly_total", Label: txt("monthly bill, on demand", "月度费用（按需）"), Value: pl.MonthlyOnDemand, Unit: cur,
			How: fmt.Sprintf("%d replicas × %s/h × 730 h", pl.Replicas, money(round(replicaHourly, 4), p.cur))},
		Line{Key: "per_m_tokens_at_load", Label: txt("per million output tokens at this load", "该负载下每百万输出 token"), Value: pl.PerMTokens, Unit: cur + "/M tokens",
			How: fmt.Sprintf("%s/h ÷ (%s tokens/s × %s utilisation × 3600) × 10⁶", money(round(replicaHourly, 4), p.cur), num(round(r.TokensPerS, 1)), num(pl.Utilization))},
		Line{Key: "floor_monthly", Label: txt("floor: one replica always on", "下限：一个副本常驻"), Value: pl.FloorMonthly, Unit: cur,
			How: fmt.Sprintf("%s/h × 730 h", money(round(replicaHourly, 4), p.cur))},
	)
	// The same platform's monthly plan for the same card, if listed.
	if r.Offer != nil {
		if cp, ok := monthlyOn(g.ID, r.Offer.Platform, m.Offers, p); ok {
			perMonth := p.to(cp.Original.Low, cp.Original.Currency) / cp.Original.Cards * knowledge.HoursPerMonth / cp.Original.Hours
			pl.MonthlyPlan = Round2(perMonth * float64(pl.Cards))
			pl.MonthlyPlanOffer = cp.Offer
			r.Lines = append(r.Lines, Line{Key: "monthly_plan_total", Label: txt("monthly bill, monthly plan", "月度费用（包月）"), Value: pl.MonthlyPlan, Unit: cur,
				How: fmt.Sprintf("%d cards × %s/card-month (%s, same platform and card, %s)", pl.Cards, money(round(perMonth, 2), p.cur), cp.Platform, cp.How)})
			r.Sources = append(r.Sources, offerSource("monthly", cp))
		}
	}
	r.Assumptions = append(r.Assumptions, txt(
		fmt.Sprintf("serving plan: replicas sized for the peak, %s × the average load (state peak= to change); every replica runs around the clock; utilisation is the average load over the capacity bought", num(pl.PeakFactor)),
		fmt.Sprintf("部署方案：按峰值（平均负载的 %s 倍，可用 peak= 修改）确定副本数；每个副本全天运行；利用率 = 平均负载 ÷ 购买的容量", num(pl.PeakFactor))))
	if in.TokensPerDay > 0 {
		r.Assumptions = append(r.Assumptions, txt("tokens per day counts prompt and answer tokens together", "每日 token 数按输入 + 输出合计"))
	}
	r.Plan = pl
	r.Replicas, r.Utilization, r.MonthlyTotal = pl.Replicas, pl.Utilization, pl.MonthlyOnDemand
}

// monthlyOn is the cheapest monthly plan for gpu on platform.
func monthlyOn(gpu, platform string, offers []knowledge.Offer, p *pricing) (CardPrice, bool) {
	var best CardPrice
	found := false
	for _, o := range offers {
		if o.GPU != gpu || o.Platform != platform {
			continue
		}
		cp, ok := NormalizeOffer(o, p.cur, p.fx)
		if !ok || !cp.Monthly || cp.Interruptible {
			continue
		}
		if !found || cp.Low < best.Low {
			best, found = cp, true
		}
	}
	return best, found
}
