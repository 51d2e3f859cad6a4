package advisor

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func TestMonthlyHandCalculations(t *testing.T) {
	m := testMarket(t)
	cny := func(a float64) Money { return Money{Amount: a, Currency: knowledge.CNY} }
	tests := []struct {
		name                      string
		in                        MonthlyInput
		breakeven, breakevenUsed  float64
		billed, onDemand, monthly float64
		cheaper                   string
		saving                    float64
	}{
		{
			// ¥900 ÷ ¥1.8/h = 500 h; 200 h × 1.8 = ¥360 against ¥900.
			name:      "200 hours stays on demand",
			in:        MonthlyInput{GPU: "4090", HoursPerMonth: 200, Hourly: cny(1.8), Monthly: cny(900)},
			breakeven: 500, breakevenUsed: 500, billed: 200, onDemand: 360, monthly: 900, cheaper: "on_demand", saving: 540,
		},
		{
			// 600 h × 1.8 = ¥1080 against ¥900: the plan saves ¥180.
			name:      "600 hours buys the plan",
			in:        MonthlyInput{GPU: "4090", HoursPerMonth: 600, Hourly: cny(1.8), Monthly: cny(900)},
			breakeven: 500, breakevenUsed: 500, billed: 600, onDemand: 1080, monthly: 900, cheaper: "monthly", saving: 180,
		},
		{
			// 40 jobs × 2.2 h = 88 h used; billed by the hour, each job pays
			// ceil(2.2) = 3 h: 120 h × 1.8 = ¥216. In used hours the plan
			// breaks even at 500 × 2.2 ÷ 3 = 366.7 h.
			name:      "short jobs rounded up to the hour",
			in:        MonthlyInput{GPU: "4090", Jobs: 40, JobHours: 2.2, Billing: "PT1H", Hourly: cny(1.8), Monthly: cny(900)},
			breakeven: 500, breakevenUsed: 500 * 2.2 / 3, billed: 120, onDemand: 216, monthly: 900, cheaper: "on_demand", saving: 684,
		},
		{
			// The same jobs billed per second cost 88 h × 1.8 = ¥158.4.
			name:      "short jobs billed per second",
			in:        MonthlyInput{GPU: "4090", Jobs: 40, JobHours: 2.2, Billing: "second", Hourly: cny(1.8), Monthly: cny(900)},
			breakeven: 500, breakevenUsed: 500, billed: 88, onDemand: 158.4, monthly: 900, cheaper: "on_demand", saving: 741.6,
		},
		{
			// 300 h of 45-minute jobs = 400 jobs; per-hour billing charges
			// 400 h: ¥720 on demand against ¥600 — rounding makes the plan
			// win although 300 h × 1.8 = ¥540 would not.
			name:      "rounding tips the balance",
			in:        MonthlyInput{GPU: "4090", HoursPerMonth: 300, JobHours: 0.75, Billing: "hour", Hourly: cny(1.8), Monthly: cny(600)},
			breakeven: 600 / 1.8, breakevenUsed: 600 / 1.8 * 0.75, billed: 400, onDemand: 720, monthly: 600, cheaper: "monthly", saving: 120,
		},
		{
			// Currency: a $125 plan at 7.2 is ¥900; ¥900 ÷ ¥1.8 = 500 h.
			name:      "plan priced in dollars",
			in:        MonthlyInput{GPU: "4090", HoursPerMonth: 100, Hourly: cny(1.8), Monthly: Money{Amount: 125, Currency: knowledge.USD}, Currency: knowledge.CNY, FX: 7.2},
			breakeven: 500, breakevenUsed: 500, billed: 100, onDemand: 180, monthly: 900, cheaper: "on_demand", saving: 720,
		},
		{
			// Two cards double both sides; the break-even per card stays 500 h.
			name:      "two cards",
			in:        MonthlyInput{GPU: "4090", HoursPerMonth: 550, Cards: 2, Hourly: cny(1.8), Monthly: cny(900)},
			breakeven: 500, breakevenUsed: 500, billed: 550, onDemand: 550 * 1.8 * 2, monthly: 1800, cheaper: "monthly", saving: 550*1.8*2 - 1800,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Monthly(tt.in, m)
			if err != nil {
				t.Fatal(err)
			}
			if !near(r.BreakevenHoursPerMonth, tt.breakeven, 0.05) || !near(r.BreakevenUsedHours, tt.breakevenUsed, 0.05) {
				t.Errorf("Monthly(%s) breakeven = %v h (used %v h), want %.1f (used %.1f)", tt.name, r.BreakevenHoursPerMonth, r.BreakevenUsedHours, tt.breakeven, tt.breakevenUsed)
			}
			if !near(r.BilledHours, tt.billed, 0.01) || !near(r.OnDemandCost, tt.onDemand, 0.01) || !near(r.MonthlyCost, tt.monthly, 0.01) {
				t.Errorf("Monthly(%s) billed %v h, on demand %v, monthly %v; want %v h, %v, %v", tt.name, r.BilledHours, r.OnDemandCost, r.MonthlyCost, tt.billed, tt.onDemand, tt.monthly)
			}
			if r.Cheaper != tt.cheaper || !near(r.Saving, tt.saving, 0.01) {
				t.Errorf("Monthly(%s) cheaper = %s saving %v, want %s saving %v", tt.name, r.Cheaper, r.Saving, tt.cheaper, tt.saving)
			}
			// The rule of thumb sits beside the computed figure, never instead.
			rule, ok1 := lineByKey(r.Lines, "rule_of_thumb")
			be, ok2 := lineByKey(r.Lines, "breakeven")
			if !ok1 || !ok2 || rule.Value != 150 || be.Value != r.BreakevenHoursPerMonth {
				t.Errorf("Monthly(%s) lines lack the computed break-even next to the 150 h rule of thumb: %+v", tt.name, r.Lines)
			}
		})
	}
}

func TestMonthlyFromCatalogue(t *testing.T) {
	m := testMarket(t,
		hourly("cn-4090", "cn-market", "rtx4090", 1.2, 2.5, knowledge.CNY, knowledge.OnDemand),
		hourly("cn-4090-plan", "cn-market", "rtx4090", 0.8, 1.5, knowledge.CNY, knowledge.Package),
		hourly("vast-4090", "vastai", "rtx4090", 0.15, 0.15, knowledge.USD, knowledge.OnDemand),
		knowledge.Offer{Key: "h20-month", Platform: "cn-market", GPU: "h20", GPUCount: 1, PriceLow: 21000, PriceHigh: 21000, Currency: knowledge.CNY,
			Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"},
		hourly("cn-3090", "cn-market", "rtx3090", 1.0, 1.0, knowledge.CNY, knowledge.OnDemand),
	)
	// The plan is published as ¥0.8–1.5 per hour equivalent: ¥0.8 × 730 =
	// ¥584 a month. The on-demand price comes from the same platform (¥1.2,
	// not vast's ¥1.08): 584 ÷ 1.2 = 486.7 h.
	r, err := Monthly(MonthlyInput{GPU: "4090", HoursPerMonth: 200}, m)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.MonthlyPrice, 0.8*730, 0.01) || r.Hourly != 1.2 || !near(r.BreakevenHoursPerMonth, 0.8*730/1.2, 0.05) {
		t.Errorf("Monthly(4090 from catalogue) = %v/month, %v/h, break-even %v h; want 584, 1.2, 486.7", r.MonthlyPrice, r.Hourly, r.BreakevenHoursPerMonth)
	}
	if len(r.Sources) != 2 || r.Sources[0].Offer != "cn-4090-plan" || r.Sources[1].Offer != "cn-4090" {
		t.Errorf("Monthly sources = %+v, want the plan and the on-demand offer", r.Sources)
	}
	// An H20 has a plan but no hourly price: ask for price=.
	_, err = Monthly(MonthlyInput{GPU: "h20", HoursPerMonth: 200}, m)
	wantInputErr(t, "Monthly(h20)", err, "price")
	// With price= the H20 plan is compared: ¥21000 ÷ ¥30 = 700 h.
	r, err = Monthly(MonthlyInput{GPU: "h20", HoursPerMonth: 200, Hourly: Money{Amount: 30}}, m)
	if err != nil || !near(r.BreakevenHoursPerMonth, 700, 0.05) {
		t.Errorf("Monthly(h20 price=30) = %v h, %v; want 700 h", r.BreakevenHoursPerMonth, err)
	}
	// A 3090 has no plan anywhere: derive nothing, ask for monthly=.
	_, err = Monthly(MonthlyInput{GPU: "3090", HoursPerMonth: 200}, m)
	wantInputErr(t, "Monthly(3090)", err, "monthly")
	// A platform with no plan is said to have none, and the market's plan
	// answers instead: the same ¥0.8 × 730 = ¥584 a month.
	r, err = Monthly(MonthlyInput{GPU: "4090", Platform: "vastai", HoursPerMonth: 200}, m)
	if err != nil || !near(r.MonthlyPrice, 584, 0.01) {
		t.Fatalf("Monthly(4090 @vastai) = %v/month, %v; want the market plan, ¥584", r.MonthlyPrice, err)
	}
	said := false
	for _, a := range r.Assumptions {
		said = said || strings.Contains(a.EN, "vastai has no monthly plan price for RTX 4090")
	}
	if !said {
		t.Errorf("Monthly(4090 @vastai) assumptions %v: want vastai's missing plan said", r.Assumptions)
	}
}

func TestMonthlyWithoutHoursGivesBreakevenOnly(t *testing.T) {
	r, err := Monthly(MonthlyInput{GPU: "4090", Hourly: Money{Amount: 2}, Monthly: Money{Amount: 700}}, testMarket(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.BreakevenHoursPerMonth != 350 || r.Cheaper != "" || r.OnDemandCost != 0 {
		t.Errorf("Monthly(no hours) = break-even %v, cheaper %q, on demand %v; want 350 h and no verdict", r.BreakevenHoursPerMonth, r.Cheaper, r.OnDemandCost)
	}
	// 1 − 700 ÷ (2 × 730) = 0.521.
	if !near(r.FullMonthDiscount, 1-700.0/(2*730), 0.001) {
		t.Errorf("Monthly full-month discount = %v, want %.3f", r.FullMonthDiscount, 1-700.0/(2*730))
	}
}

func TestMonthlyUnknownBillingAssumesHourly(t *testing.T) {
	r, err := Monthly(MonthlyInput{GPU: "4090", Jobs: 10, JobHours: 1.5, Hourly: Money{Amount: 2}, Monthly: Money{Amount: 700}}, testMarket(t))
	if err != nil {
		t.Fatal(err)
	}
	// Not stated anywhere: the costliest case, 10 × ceil(1.5) = 20 h.
	if r.BilledHours != 20 || !hasDefault(r.Inputs.Defaulted, "billing") {
		t.Errorf("Monthly(unknown billing) billed = %v h, defaulted %v; want 20 h and billing recorded", r.BilledHours, r.Inputs.Defaulted)
	}
}

func TestMonthlyInputErrors(t *testing.T) {
	m := testMarket(t)
	tests := []struct {
		name  string
		in    MonthlyInput
		field string
	}{
		{"no card and no prices", MonthlyInput{HoursPerMonth: 100}, "gpu"},
		{"more hours than a month", MonthlyInput{GPU: "4090", HoursPerMonth: 800}, "hours_per_month"},
		{"jobs disagree with hours", MonthlyInput{GPU: "4090", HoursPerMonth: 100, Jobs: 10, JobHours: 2}, "hours_per_month"},
		{"unknown billing step", MonthlyInput{GPU: "4090", HoursPerMonth: 100, Billing: "fortnight", Hourly: Money{Amount: 1}, Monthly: Money{Amount: 9}}, "billing"},
		{"bad fx", MonthlyInput{GPU: "4090", HoursPerMonth: 100, FX: 99}, "fx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Monthly(tt.in, m)
			wantInputErr(t, "Monthly("+tt.name+")", err, tt.field)
		})
	}
}

// Monthly and on-demand are compared on the same platform: a cheaper plan
// on a platform that rents no card by the hour is passed over for the
// platform that lists both (¥4,000/month vs ¥8/h there: break-even 500 h).
func TestMonthlyComparesSamePlatform(t *testing.T) {
	plan := func(key, platform string, price float64) knowledge.Offer {
		return knowledge.Offer{Key: key, Platform: platform, GPU: "rtx4090", GPUCount: 1, PriceLow: price, PriceHigh: price, Currency: knowledge.CNY,
			Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"}
	}
	m := testMarket(t,
		plan("a-mo", "gpushare", 1000),
		plan("b-mo", "autodl", 4000),
		hourly("b-od", "autodl", "rtx4090", 8, 8, knowledge.CNY, knowledge.OnDemand),
		hourly("c-od", "vastai", "rtx4090", 0.3, 0.3, knowledge.USD, knowledge.OnDemand))
	res, err := Monthly(MonthlyInput{GPU: "4090", HoursPerMonth: 200, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	if res.MonthlyPrice != 4000 || res.Hourly != 8 || !near(res.BreakevenHoursPerMonth, 500, 0.01) {
		t.Errorf("monthly %v hourly %v break-even %v, want ¥4000, ¥8/h, 500 h on autodl", res.MonthlyPrice, res.Hourly, res.BreakevenHoursPerMonth)
	}
}

// The answer names whose prices it compares (issue #22: "A100 40GB
// ¥28.64/卡时" looked implausible beside retail platforms' ¥2.4–3.45, but it
// is 腾讯云's list price, as is the plan). Tencent Cloud's GT4 A100 40GB
// (cn_cloud_prices.csv, doc version dated by the live page's 2025-12-19):
// plan ¥13,748/month, on demand ¥28.64/h; break-even 13748 ÷ 28.64 =
// 480.03 h.
func TestMonthlyNamesWhosePrices(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	r, err := Monthly(MonthlyInput{GPU: "a100-40g", Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.MonthlyPrice != 13748 || r.Hourly != 28.64 || r.BreakevenHoursPerMonth != 480 {
		t.Errorf("Monthly(a100-40g) %v/month, %v/h, break-even %v; want 13748, 28.64, 480", r.MonthlyPrice, r.Hourly, r.BreakevenHoursPerMonth)
	}
	if r.PlanPlatform != "tencent-cloud" || r.HourlyPlatform != "tencent-cloud" || !says(r.Assumptions, "both prices are tencent-cloud's") {
		t.Errorf("Monthly(a100-40g) platforms %q/%q, assumptions %v: want tencent-cloud named for both", r.PlanPlatform, r.HourlyPlatform, r.Assumptions)
	}
	// A price the user gives is theirs: no platform is named for it.
	r, err = Monthly(MonthlyInput{GPU: "a100-40g", Monthly: Money{Amount: 1500, Currency: knowledge.CNY}, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.PlanPlatform != "" || r.HourlyPlatform == "" || says(r.Assumptions, "both prices are") {
		t.Errorf("Monthly(a100-40g monthly=1500) platforms %q/%q: want the plan given, the on-demand side named", r.PlanPlatform, r.HourlyPlatform)
	}
}
