package advisor

import (
	"math"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// marketRow is one row of knowledge/catalog/source/data/market.csv
// (OpenComputePrices via getdeploying, observed 2026-03-22) as the market
// source reads it: a per-instance hourly USD price.
func marketRow(key, platform, gpu string, count, price float64, model knowledge.PricingModel) knowledge.Offer {
	return knowledge.Offer{Key: key, Platform: platform, GPU: gpu, GPUCount: count, PriceLow: price, PriceHigh: price,
		Currency: knowledge.USD, Unit: knowledge.PerHour, Basis: knowledge.PerInstance, Model: model,
		ObservedAt: "2026-03-22", Source: "ocp:getdeploying"}
}

// DigitalOcean's MI300X, market.csv lines 2442, 2443 and 2458: on demand
// 1x at $1.99/h and 8x at $15.92/h (both $1.99 a card-hour), reserved 8x
// at $15.04/h, term not stated, and no monthly plan. By hand: reserved is
// 15.04 ÷ 8 = $1.88 a card-hour, billed 1.88 × 730 = $1,372.40 a month;
// 300 h on demand is 300 × 1.99 = $597.00, so on demand saves $775.40;
// the term pays only above 1372.40 ÷ 1.99 = 689.6 h a month.
func TestMonthlyReservedStandsInForAMissingPlan(t *testing.T) {
	m := testMarket(t,
		marketRow("do-1x", "digitalocean", "mi300x", 1, 1.99, knowledge.OnDemand),
		marketRow("do-8x", "digitalocean", "mi300x", 8, 15.92, knowledge.OnDemand),
		marketRow("do-8x-reserved", "digitalocean", "mi300x", 8, 15.04, knowledge.Reserved))
	r, err := Monthly(MonthlyInput{GPU: "mi300x", Platform: "digitalocean", HoursPerMonth: 300, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Reserved == nil || !r.PlanIsTerm {
		t.Fatalf("reserved %+v, plan is term %v", r.Reserved, r.PlanIsTerm)
	}
	within(t, "hourly", r.Hourly, 1.99)
	within(t, "reserved hourly", r.Reserved.Hourly, 1.88)
	within(t, "reserved monthly bill", r.Reserved.MonthlyBill, 1372.40)
	within(t, "monthly price", r.MonthlyPrice, 1372.40)
	within(t, "on-demand cost", r.OnDemandCost, 597.00)
	within(t, "saving", r.Saving, 775.40)
	within(t, "break-even", r.BreakevenHoursPerMonth, 689.6)
	within(t, "reserved break-even", r.Reserved.BreakevenHoursPerMonth, 689.6)
	if r.Cheaper != "on_demand" || r.Best != "on_demand" || r.Reserved.Term != "" || r.Reserved.TermLabel.EN != "term not stated by the source" {
		t.Errorf("cheaper %q, best %q, term %q (%s)", r.Cheaper, r.Best, r.Reserved.Term, r.Reserved.TermLabel.EN)
	}
}

// RunPod's A40, market.csv lines 797 (on demand $0.35/h) and 869–871
// (reserved $0.20, $0.28, $0.30/h, term not stated). By hand at 500 h: the
// cheapest term, $0.20, bills 0.20 × 730 = $146.00 a month; on demand is
// 500 × 0.35 = $175.00; the term saves $29.00 and pays above
// 146 ÷ 0.35 = 417.1 h. A monthly plan of $180 a card-month (not in the
// catalogue; added to see all three compared) loses to both: the term is
// the cheapest option.
func TestMonthlyComparesOnDemandPlanAndTerm(t *testing.T) {
	rows := []knowledge.Offer{
		marketRow("runpod-a40-1x", "runpod", "a40", 1, 0.35, knowledge.OnDemand),
		marketRow("runpod-a40-reserved-a", "runpod", "a40", 1, 0.20, knowledge.Reserved),
		marketRow("runpod-a40-reserved-b", "runpod", "a40", 1, 0.28, knowledge.Reserved),
		marketRow("runpod-a40-reserved-c", "runpod", "a40", 1, 0.30, knowledge.Reserved),
	}
	r, err := Monthly(MonthlyInput{GPU: "a40", Platform: "runpod", HoursPerMonth: 500, Currency: knowledge.USD}, testMarket(t, rows...))
	if err != nil {
		t.Fatal(err)
	}
	within(t, "reserved monthly bill", r.Reserved.MonthlyBill, 146.00)
	within(t, "on-demand cost", r.OnDemandCost, 175.00)
	within(t, "saving", r.Saving, 29.00)
	within(t, "break-even", r.Reserved.BreakevenHoursPerMonth, 417.1)
	if r.Cheaper != "monthly" || r.Best != "reserved" || r.Reserved.Offer != "runpod-a40-reserved-a" {
		t.Errorf("cheaper %q, best %q, offer %s", r.Cheaper, r.Best, r.Reserved.Offer)
	}

	plan := marketRow("runpod-a40-month", "runpod", "a40", 1, 180, knowledge.Package)
	plan.Unit, plan.Basis = knowledge.PerMonth, knowledge.PerGPU
	r, err = Monthly(MonthlyInput{GPU: "a40", Platform: "runpod", HoursPerMonth: 500, Currency: knowledge.USD}, testMarket(t, append(rows, plan)...))
	if err != nil {
		t.Fatal(err)
	}
	within(t, "plan", r.MonthlyCost, 180)
	if r.PlanIsTerm || r.Reserved == nil || r.Cheaper != "on_demand" || r.Best != "reserved" {
		t.Errorf("plan is term %v, reserved %+v, cheaper %q, best %q", r.PlanIsTerm, r.Reserved, r.Cheaper, r.Best)
	}
	within(t, "reserved cost", r.Reserved.Cost, 146.00)
}

// A stated term reads as a duration in both languages.
func TestTermText(t *testing.T) {
	for term, want := range map[string]Text{"P1Y": {"1 year", "1 年"}, "P3Y": {"3 years", "3 年"}, "P1M": {"1 month", "1 个月"}, "P1W": {"1 week", "1 周"}, "": {"term not stated by the source", "来源未注明期限"}} {
		if got := TermText(term); got != want {
			t.Errorf("%q: %v, want %v", term, got, want)
		}
	}
}

func within(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 0.005 {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
